"""The CSRF tokens of the dashboard's forms (sign in, sign out, a seat token), from Flask-WTF.

Flask-WTF (``flask_wtf.csrf``) keeps a random value in Flask's session and hands each form that value signed
with the server secret and timed (itsdangerous); a POST is accepted when its token unsigns, is younger than a
session lasts, and carries the value of the browser's own session. Here Flask's session is the dashboard's
``digsite_csrf`` cookie alone (:class:`CsrfCookie`): HttpOnly, SameSite=Lax, Secure as the dashboard's setting
says, scoped to the dashboard's path, holding that value and nothing else. The value is not signed in the
cookie: the tokens are, and a value is worth nothing without a token signed here for it (what a forger could
plant, a value with its token, they could only have got from this server for themselves). So reading the
cookie on each of the dashboard's requests costs no signature check.

Only the three form endpoints ask for a token (``Gate``, no app-wide ``CSRFProtect``): the API (bearer keys and
seat tokens, no cookie) is never put under it, nor are Dash's callback POSTs (JSON from the page's own script,
guarded by their Origin in ``dashboard.session``). Mounted in a host app, a request outside the dashboard's
path keeps the host's own session interface.
"""

from __future__ import annotations

from typing import Protocol

from flask import Flask, Request, Response
from flask import request as current_request
from flask.sessions import SecureCookieSession, SessionInterface, SessionMixin
from flask_wtf.csrf import generate_csrf, validate_csrf
from wtforms import ValidationError

CSRF_COOKIE = "digsite_csrf"
FIELD = "csrf"  # the forms' field holding the token
SESSION_KEY = "digsite_csrf"  # where Flask-WTF keeps the raw value, in the session (and the signed token in g)


class Door(Protocol):
    """What the cookie needs of the dashboard it serves (``dashboard.session.Gate``)."""

    prefix: str  # the cookie's path (where the browser reaches the dashboard)
    routes_prefix: str  # where the server routes the dashboard

    @property
    def secret(self) -> bytes: ...

    def secure(self) -> bool: ...


def token(door: Door) -> str:
    """This browser's form token (the value is made, and the cookie set on the response, when it has none)."""
    return str(generate_csrf(secret_key=door.secret, token_key=SESSION_KEY))


def valid(door: Door, sent: str | None, lifetime: float) -> bool:
    """Whether ``sent`` is a token of this browser's value, signed here less than ``lifetime`` seconds ago."""
    try:
        validate_csrf(sent, secret_key=door.secret, time_limit=int(lifetime), token_key=SESSION_KEY)
    except ValidationError:
        return False
    return True


class CsrfCookie(SessionInterface):
    """Flask's session, inside a dashboard's path, as the ``digsite_csrf`` cookie; outside, the host's own
    (``outside``). One per Flask server; each dashboard mounted on it adds its :class:`Door`."""

    def __init__(self, outside: SessionInterface) -> None:
        self.outside = outside
        self.doors: list[Door] = []

    @classmethod
    def install(cls, server: Flask, door: Door) -> None:
        current = server.session_interface
        cookie = current if isinstance(current, cls) else cls(current)
        cookie.doors.append(door)
        cookie.doors.sort(key=lambda d: len(d.routes_prefix), reverse=True)  # the longest prefix first
        server.session_interface = cookie

    def door(self, path: str) -> Door | None:
        return next((d for d in self.doors if path.startswith(d.routes_prefix)), None)

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
        door = self.door(request.path)
        if door is None:
            return self.outside.open_session(app, request)
        value = request.cookies.get(CSRF_COOKIE, "")
        return SecureCookieSession({SESSION_KEY: value} if _plausible(value) else {})

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        door = self.door(current_request.path)  # the request this response answers says which dashboard
        if door is None:
            self.outside.save_session(app, session, response)
            return
        if session.accessed:
            response.vary.add("Cookie")
        value = session.get(SESSION_KEY) if session.modified else None
        if isinstance(value, str) and _plausible(value):  # only ever set anew; it lasts the browser's session
            response.set_cookie(
                CSRF_COOKIE, value, path=door.prefix, httponly=True, samesite="Lax", secure=door.secure()
            )


def _plausible(value: str) -> bool:
    """A value Flask-WTF could have made (it makes 40 hex digits): anything else, non-ASCII above all (which
    ``hmac.compare_digest`` refuses to compare), counts as no cookie."""
    return 0 < len(value) <= 128 and value.isascii() and value.isalnum()
