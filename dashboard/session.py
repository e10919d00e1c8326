"""Signing in and out, seat links, and the guards in front of every dashboard request.

The session is one cookie (``digsite_session``) holding a payload signed with the server's secret
(``Settings.server_secret()``, through itsdangerous): whether an organiser signed in, and until when, and
which seats of which games their tokens proved. It is HttpOnly, SameSite=Strict, Secure over HTTPS (see
``AccessSettings.secure_cookie``), scoped to the dashboard's path, and expires: the payload carries its own
deadlines, checked on every request, and the cookie's Max-Age matches. The organiser part also carries a
fingerprint of the organiser key, so changing DIGSITE_API_KEY signs every organiser out; signing out drops
the cookie and revokes its session id in this process.

Forms (sign in, sign out, a seat token) carry a CSRF token from Flask-WTF, tied to a second cookie
(``digsite_csrf``, HttpOnly, SameSite=Lax): ``dashboard.csrf``. Every POST to the dashboard (Dash's callbacks
included) must come from the dashboard's own origin (Origin, else Referer, naming the request's host), or it is
refused with 403.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import html
import json
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode, urlsplit

from flask import Flask, Response, g, redirect, request
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.wrappers import Response as BaseResponse  # what redirect() makes

from dashboard import csrf
from dashboard.access import AccessSettings, Visitor, canonical_id
from dashboard.static import CSS
from service.errors import ServiceError
from service.serving.throttle import (
    ORGANISER_KEY,
    SEAT_TOKEN,
    Throttle,
    Throttled,
    ThrottleUnavailable,
    storage_from_uri,
)
from service.store.backends import RETRY_AFTER_SECONDS

SESSION_COOKIE = "digsite_session"
MAX_TOKEN_LENGTH = 512
MAX_SEATS = 16  # seats remembered per session (the oldest go first)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class Gate:
    """The dashboard's door: derives the :class:`Visitor` of each request and serves the sign-in, sign-out and
    seat endpoints under the dashboard's path. ``find_seat(game_id, token)`` answers which seat a token
    holds in a game (raising ServiceError when it holds none)."""

    def __init__(
        self,
        settings: AccessSettings,
        find_seat: Callable[[str, str], int],
        prefix: str = "/",
        routes_prefix: str | None = None,
    ) -> None:
        self.settings = settings
        self.find_seat = find_seat
        self.prefix = prefix  # where the browser reaches the dashboard (links)
        self.routes_prefix = routes_prefix or prefix  # where the server routes it
        self.serializer = URLSafeTimedSerializer(settings.secret, salt="digsite.dashboard.session")
        # Wrong keys and seat tokens, counted apart (service.serving.throttle, the API's throttle too).
        self.throttle = Throttle(
            settings.failures,
            settings.window,
            settings.seat_failures_across_games,
            proxies=settings.trusted_proxies,
            storage=storage_from_uri(settings.throttle_storage),
        )
        self._revoked: dict[str, float] = {}
        self._lock = threading.Lock()

    # -- wiring ---------------------------------------------------------------------------------------------

    def install(self, server: Flask) -> None:
        name = self.routes_prefix.replace("/", "_")
        login, seat = self._or_unavailable(self.login_page), self._or_unavailable(self.seat_form)
        server.add_url_rule(f"{self.routes_prefix}login", f"{name}digsite_login", login, methods=["GET", "POST"])
        server.add_url_rule(f"{self.routes_prefix}logout", f"{name}digsite_logout", self.logout, methods=["POST"])
        server.add_url_rule(f"{self.routes_prefix}seat", f"{name}digsite_seat", seat, methods=["POST"])
        server.before_request(self.guard)
        server.after_request(self.finish)
        csrf.CsrfCookie.install(server, self)

    @property
    def secret(self) -> bytes:
        return self.settings.secret

    def mine(self) -> bool:
        """Is this request for the dashboard? (Mounted in another app, give it a prefix of its own: at "/"
        every path of the host would be guarded as the dashboard's.)"""
        return request.path.startswith(self.routes_prefix)

    def guard(self) -> Any:
        """Before every request to the dashboard: refuse a cross-origin POST; turn a seat link's token into a
        session seat (and take it out of the address bar)."""
        if not self.mine():
            return None
        if request.method not in SAFE_METHODS and not same_origin():
            return self.page(
                "Refused",
                "<p>This request came from another site, so it was refused. Open the dashboard itself and try "
                "again.</p>",
                403,
            )
        if request.method == "GET" and "token" in request.args:
            return self._or_unavailable(self.seat_link)()
        return None

    def _or_unavailable(self, view: Callable[[], Any]) -> Callable[[], Any]:
        """``view``, answering 503 while the throttle's counts cannot be reached (DIGSITE_THROTTLE_STORAGE)."""

        @functools.wraps(view)
        def answer() -> Any:
            try:
                return view()
            except ThrottleUnavailable:
                response = self.page(
                    "Try again shortly",
                    "<p>Keys and seat links cannot be checked just now. Try again in a few seconds.</p>",
                    503,
                )
                response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
                return response

        return answer

    def finish(self, response: Response) -> Response:
        if not self.mine():
            return response
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if request.method == "GET" and response.mimetype == "text/html":
            # The page's callbacks may draw forms at once, in parallel: the browser's CSRF value is set here, first.
            self.csrf_token()
        return response

    # -- the session ----------------------------------------------------------------------------------------

    def visitor(self) -> Visitor:
        """This request's visitor, from its session cookie (a forged, tampered or expired one counts as none)."""
        known = g.setdefault("digsite_visitors", {})  # per dashboard: a server may hold more than one
        cached = known.get(id(self))
        if isinstance(cached, Visitor):
            return cached
        payload = self._payload()
        now = time.time()
        organiser = bool(
            self.settings.api_key
            and isinstance(payload.get("org"), str)
            and hmac.compare_digest(payload["org"], self._key_fingerprint())
            and float(payload.get("org_exp") or 0) > now
        )
        seats = {
            game: int(entry[0])
            for game, entry in (payload.get("seats") or {}).items()
            if isinstance(entry, list) and len(entry) == 2 and float(entry[1]) > now
        }
        visitor = Visitor(organiser=organiser, seats=seats, spectators=self.settings.spectators)
        known[id(self)] = visitor
        return visitor

    def holder(self) -> tuple[str, str]:
        """The cookies this request's answers may depend on (its session and its CSRF seed), as sent: what an
        answer computed early for one browser is kept under (``dashboard.early``)."""
        return request.cookies.get(SESSION_COOKIE, ""), request.cookies.get(csrf.CSRF_COOKIE, "")

    def _payload(self) -> dict[str, Any]:
        raw = request.cookies.get(SESSION_COOKIE)
        if not raw or len(raw) > 8192:
            return {}
        try:
            payload = self.serializer.loads(raw, max_age=int(self.settings.session_hours * 3600))
        except (BadSignature, ValueError, TypeError):
            return {}
        if not isinstance(payload, dict) or not isinstance(payload.get("sid"), str):
            return {}
        with self._lock:
            if payload["sid"] in self._revoked:
                return {}
        return payload

    def _key_fingerprint(self) -> str:
        key = (self.settings.api_key or "").encode()
        return hmac.new(self.settings.secret, b"organiser-key\0" + key, hashlib.sha256).hexdigest()

    def _save(self, response: BaseResponse, payload: dict[str, Any]) -> None:
        now = time.time()
        deadlines = [float(payload.get("org_exp") or 0)] + [float(e[1]) for e in (payload.get("seats") or {}).values()]
        left = int(max(deadlines) - now)
        if left <= 0:
            self._clear(response)
            return
        response.set_cookie(
            SESSION_COOKIE,
            self.serializer.dumps(payload),
            max_age=left,
            path=self.prefix,
            httponly=True,
            samesite="Strict",
            secure=self.secure(),
        )

    def _clear(self, response: BaseResponse) -> None:
        response.delete_cookie(SESSION_COOKIE, path=self.prefix, httponly=True, samesite="Strict", secure=self.secure())

    def secure(self) -> bool:
        if self.settings.secure_cookie != "auto":
            return self.settings.secure_cookie == "always"
        forwarded = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
        return request.is_secure or forwarded == "https"

    def _lifetime(self) -> float:
        return time.time() + self.settings.session_hours * 3600

    # -- CSRF -----------------------------------------------------------------------------------------------

    def csrf_token(self) -> str:
        """The token this browser's forms must carry (made, with its cookie, if the browser has none yet)."""
        return csrf.token(self)

    def _csrf_ok(self) -> bool:
        return csrf.valid(self, request.form.get(csrf.FIELD), self.settings.session_hours * 3600)

    # -- endpoints ------------------------------------------------------------------------------------------

    def login_page(self) -> Any:
        """GET: the sign-in form. POST: check the organiser key, start the session, go back where you were."""
        target = self.safe_next(request.values.get("next"))
        if request.method == "GET":
            if self.visitor().organiser:
                return redirect(target, 303)
            return self.sign_in_form(target)
        if not self._csrf_ok():
            return self.sign_in_form(target, "The form had expired. Enter the key again.", 403)
        if not self.settings.api_key:
            return self.sign_in_form(target, status=403)
        who = self.throttle.who(request.remote_addr, request.headers.get("X-Forwarded-For"))
        try:
            self.throttle.check(ORGANISER_KEY, who)
        except Throttled as shut:
            refused = self.sign_in_form(
                target,
                f"Too many tries with a wrong organiser key from your network: wait {shut.retry_after} s, then "
                "try again.",
                429,
            )
            refused.headers["Retry-After"] = str(shut.retry_after)
            return refused
        sent = request.form.get("key", "").encode()
        wanted = self.settings.api_key.encode()
        # Compare digests, so the time taken says nothing about the key's length or prefix.
        if not hmac.compare_digest(hashlib.sha256(sent).digest(), hashlib.sha256(wanted).digest()):
            self._failed(ORGANISER_KEY, who)
            return self.sign_in_form(target, "That is not the organiser key.", 401)
        payload = self._payload()
        payload = {
            "sid": secrets.token_urlsafe(16),  # a new session id at each sign-in
            "org": self._key_fingerprint(),
            "org_exp": self._lifetime(),
            "seats": payload.get("seats") or {},
        }
        response = redirect(target, 303)
        self._save(response, payload)
        return response

    def logout(self) -> Any:
        if not self._csrf_ok():
            return self.page("Refused", "<p>The sign-out form had expired: reload the page and try again.</p>", 403)
        payload = self._payload()
        if payload:
            with self._lock:
                now = time.time()
                self._revoked = {s: t for s, t in self._revoked.items() if t > now}
                self._revoked[payload["sid"]] = now + self.settings.session_hours * 3600
        response = redirect(self.prefix, 303)
        self._clear(response)
        return response

    def seat_link(self) -> Any:
        """GET <dashboard>/replay/GAME?token=T: remember the seat the token holds in GAME in the session and
        send the browser on to the same page without the token (replacing the history entry)."""
        path = request.path[len(self.routes_prefix) :]
        game = path.removeprefix("replay/") if path.startswith("replay/") else ""
        token = request.args.get("token", "")
        try:
            found = self._check_seat(game, token)
        except Throttled as shut:
            return self._too_many_seat_tries(shut, "open your seat link again")
        if found is None:
            return self.page(
                "Seat link not valid",
                "<p>This seat link does not open a seat of this game. Check the link you were given, or ask the "
                f'organisers. <a href="{html.escape(self.prefix)}">Go to the dashboard</a>.</p>',
                403,
            )
        game, seat = found
        query = [(k, v) for k, v in request.args.items(multi=True) if k not in ("token", "seat")]
        target = f"{self.prefix}replay/{game}?" + urlencode([*query, ("seat", str(seat))])
        response = self._remember_seat(game, seat, target)
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    def seat_form(self) -> Any:
        """POST <dashboard>/seat (game, token, csrf): the same as a seat link, from the form on a refused page."""
        game = request.form.get("game", "")
        if not self._csrf_ok():
            return self.page("Refused", "<p>The form had expired: reload the page and try again.</p>", 403)
        try:
            found = self._check_seat(game, request.form.get("token", "").strip())
        except Throttled as shut:
            return self._too_many_seat_tries(shut, "enter your seat token again")
        if found is None:
            return self.page(
                "Seat token not valid",
                "<p>That token does not open a seat of this game. "
                f'<a href="{html.escape(self.prefix)}replay/{html.escape(game)}">Try again</a>.</p>',
                403,
            )
        game, seat = found
        return self._remember_seat(game, seat, f"{self.prefix}replay/{game}?seat={seat}")

    def _check_seat(self, game: str, token: str) -> tuple[str, int] | None:
        """(the game's id, the seat) when ``token`` holds a seat of ``game``; None otherwise. Raises
        :class:`Throttled` while this address may not try tokens of this game (a right token included).

        A failure counts for this address and game (and, with a higher ceiling, for the address across every
        game): a player behind a venue's NAT who mistypes their link shuts their own game's door only. A game
        that does not exist counts as a wrong token does, so that the lockout tells nothing about which games
        exist."""
        who = self.throttle.who(request.remote_addr, request.headers.get("X-Forwarded-For"))
        game_id = canonical_id(game)
        if game_id is None or not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        self.throttle.check(SEAT_TOKEN, who, game_id)
        try:
            return game_id, int(self.find_seat(game_id, token))
        except ServiceError:
            self._failed(SEAT_TOKEN, who, game_id)
            return None

    def _failed(self, kind: str, who: str, game: str | None = None) -> None:
        """Count a wrong secret, then answer it only after ``delay`` seconds (a person does not notice)."""
        self.throttle.failed(kind, who, game)
        if self.settings.delay:
            time.sleep(self.settings.delay)

    def _too_many_seat_tries(self, shut: Throttled, then: str) -> Response:
        """The answer while this address may not try seat tokens of this game: how long to wait, not "wrong"."""
        where = "for this game " if shut.per_game else ""
        still = (
            "Seat links of other games, and organiser sign-in, still work."
            if shut.per_game
            else ("Organiser sign-in still works.")
        )
        response = self.page(
            "Too many tries",
            f"<p>Too many tries with a wrong seat token {where}from your network: wait {shut.retry_after} s, "
            f"then {then}. {still}</p>",
            429,
        )
        response.headers["Retry-After"] = str(shut.retry_after)
        response.headers["Cache-Control"] = "no-store"
        return response

    def _remember_seat(self, game: str, seat: int, target: str) -> Response:
        payload = self._payload() or {"sid": secrets.token_urlsafe(16)}
        now = time.time()
        seats = {gid: entry for gid, entry in (payload.get("seats") or {}).items() if float(entry[1]) > now}
        seats.pop(game, None)
        seats[game] = [seat, self._lifetime()]
        payload["seats"] = dict(list(seats.items())[-MAX_SEATS:])
        # A page of our own moves the browser on: a navigation that starts on this site carries the
        # SameSite=Strict cookie (a redirect at the end of a link from a chat app would not).
        response = self.page(
            "Opening your seat",
            f'<p>Opening your seat… <a id="go" href="{html.escape(target)}">Continue</a>.</p>'
            f"<script>window.location.replace({_js_string(target)});</script>",
            200,
        )
        self._save(response, payload)
        return response

    # -- pages ----------------------------------------------------------------------------------------------

    def safe_next(self, target: str | None) -> str:
        """Where to go after signing in: a path inside the dashboard, never another site."""
        if not target:
            return self.prefix
        parts = urlsplit(target)
        if (
            parts.scheme
            or parts.netloc
            or not parts.path.startswith(self.prefix)
            or "\\" in target
            or target.startswith("//")
            or any(c in target for c in "\r\n\t")
        ):
            return self.prefix
        return target

    def login_url(self, next_path: str | None = None) -> str:
        url = f"{self.prefix}login"
        return f"{url}?{urlencode({'next': next_path})}" if next_path else url

    def sign_in_form(self, target: str, error: str | None = None, status: int = 200) -> Response:
        if not self.settings.api_key:
            body = (
                '<p class="notice" id="signin-error">Organiser sign-in is off: set <code>DIGSITE_API_KEY</code> '
                "(the organiser key of the API) where the dashboard runs.</p>"
            )
        else:
            message = f'<p class="notice" id="signin-error" role="alert">{html.escape(error)}</p>' if error else ""
            body = f"""{message}
<form method="post" action="{html.escape(self.prefix)}login" class="signin-form" id="signin-form">
  <input type="hidden" name="csrf" value="{self.csrf_token()}">
  <input type="hidden" name="next" value="{html.escape(target)}">
  <label class="field-label" for="signin-key">Organiser key</label>
  <input type="password" name="key" id="signin-key" autocomplete="current-password" required autofocus>
  <button type="submit" class="btn btn-primary" id="signin-submit">Sign in</button>
</form>
<p class="quiet small">The organiser key is <code>DIGSITE_API_KEY</code>, the key of the play API;
<code>digsite up</code> prints it when it starts.</p>"""
        if self.settings.spectators:
            body += (
                '<p class="quiet">Without signing in you can watch <a href="'
                + html.escape(self.prefix)
                + 'games">finished games</a>.'
            )
        else:
            body += '<p class="quiet">This dashboard is for organisers only.'
        body += " Players: the seat link you were given opens your own game in play.</p>"
        response = self.page("Organiser sign-in", body, status)
        response.headers["Cache-Control"] = "no-store"
        return response

    def page(self, title: str, body: str, status: int) -> Response:
        text = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Digsite</title><style>{CSS}{SIGNIN_CSS}</style></head>
<body><header class="topbar"><div><span class="brand">Digsite</span><span> tournament dashboard</span></div></header>
<main class="page"><section class="card signin"><h2>{html.escape(title)}</h2>{body}</section></main></body></html>"""
        return Response(text, status=status, mimetype="text/html")


SIGNIN_CSS = """
.signin { max-width: 30rem; margin: 3rem auto; padding: 1.4rem 1.6rem; }
.signin-form { display: flex; flex-direction: column; gap: 0.5rem; margin: 0.4rem 0 1rem; }
.signin-form input[type=password] {
    font: inherit; padding: 0.5rem 0.6rem; border: 1px solid #cbd2d9; border-radius: 6px;
}
.signin-form button { align-self: flex-start; margin-top: 0.3rem; }
.notice { padding: 0.6rem 0.8rem; border-radius: 6px; background: #fdecee; color: #8a1c2b; border: 1px solid #f5c2c9; }
code { background: #f0f2f5; padding: 0.05rem 0.3rem; border-radius: 4px; }
"""


def same_origin() -> bool:
    """The request names this host as its origin (Origin header, else Referer). A request naming neither, or
    the opaque origin "null", is not trusted."""
    origin = request.headers.get("Origin")
    if origin is None:
        origin = request.headers.get("Referer")
    if not origin or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()


def _js_string(text: str) -> str:
    """A JavaScript string literal safe inside a <script> element."""
    return json.dumps(text).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
