"""The CSRF tokens of the dashboard's forms (``dashboard.csrf``, Flask-WTF underneath), called directly: a POST
forged without a token, with another browser's token, with no CSRF cookie or a tampered one is refused with the
form's clear answer; the API mounted on the same server is never asked for a token and never given the cookie."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, session

from dashboard import create_dashboard
from service.api import create_app
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import KEY, Browser
from tests.dashboard.conftest import TEST_SECRET, access_settings

FORMS = {  # each form, a body it sends besides its token, and the sentence of its refusal
    "login": ({"key": KEY, "next": "/dashboard/"}, "The form had expired. Enter the key again."),
    "logout": ({}, "The sign-out form had expired: reload the page and try again."),
    "seat": ({"game": "some-game", "token": "some-token"}, "The form had expired: reload the page and try again."),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Digsite, ReadPort]]:
    """An empty store, its service and read port."""
    database = Database.from_url(f"sqlite:///{Path(tmp_path_factory.mktemp('csrf')) / 'csrf.sqlite'}")
    backends.upgrade(database)
    service = Digsite(Settings(database=database, api_key=KEY, secret_key=TEST_SECRET))
    read = ReadPort.over(service.reader)
    try:
        yield service, read
    finally:
        read.close()
        service.close()


@pytest.fixture(scope="module")
def host(store: tuple[Digsite, ReadPort]) -> tuple[Any, Any]:
    """The API with the dashboard mounted at /dashboard/ on the same Flask server."""
    service, read = store
    api = create_app(service=service)
    dashboard = create_dashboard(read, service, server=api, url_base_pathname="/dashboard/", access=access_settings())
    return api, dashboard


def _unsigned(token: str) -> str:
    """``token`` with one character of its signature changed. Not its last: the last base64 character of a signature
    carries padding bits too, so another character there can decode to the same bytes and the same valid signature
    (about once in a thousand tokens, when the end was replaced)."""
    at = len(token) - 6
    return token[:at] + ("A" if token[at] != "A" else "B") + token[at + 1 :]


def _refused(response: Any, form: str) -> bool:
    return response.status_code == 403 and FORMS[form][1] in response.get_data(as_text=True)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_forged_form_post_is_refused(host: tuple[Any, Any], form: str) -> None:
    _, dashboard = host
    body = FORMS[form][0]
    victim, attacker = Browser(dashboard), Browser(dashboard)
    victim.csrf()  # the victim's browser holds its CSRF cookie
    assert _refused(victim.post(form, data=body), form)  # no token at all
    assert _refused(victim.post(form, data={**body, "csrf": ""}), form)
    assert _refused(victim.post(form, data={**body, "csrf": attacker.csrf()}), form)  # another browser's token
    mine = victim.csrf()
    assert _refused(victim.post(form, data={**body, "csrf": _unsigned(mine)}), form)  # a token not signed here
    stranger = Browser(dashboard)  # a browser with no CSRF cookie, sending a token that is valid elsewhere
    assert _refused(stranger.post(form, data={**body, "csrf": mine}), form)
    for planted in ("f" * 40, "e30.forged", "\u00e9" * 40):  # a cookie this token was not made for, or no value
        tampered = Browser(dashboard)
        tampered.client.set_cookie("digsite_csrf", planted, path="/dashboard/")
        assert _refused(tampered.post(form, data={**body, "csrf": mine}), form), planted


def test_the_right_token_passes_and_the_cookie_has_its_flags(host: tuple[Any, Any]) -> None:
    _, dashboard = host
    visitor = Browser(dashboard)
    page = visitor.get("login")
    (cookie,) = [c for c in page.headers.getlist("Set-Cookie") if c.startswith("digsite_csrf=")]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/dashboard/" in cookie
    assert "Secure" not in cookie and "Expires" not in cookie  # plain HTTP here; gone with the browser's session
    signed = visitor.post("login", data={**FORMS["login"][0], "csrf": visitor.csrf()})
    assert signed.status_code == 303 and signed.headers["Location"] == "/dashboard/"
    out = visitor.post("logout", data={"csrf": visitor.csrf()})
    assert out.status_code == 303
    over_tls = Browser(dashboard).get("login", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in next(c for c in over_tls.headers.getlist("Set-Cookie") if c.startswith("digsite_csrf="))


def test_the_api_on_the_same_server_is_not_under_csrf(host: tuple[Any, Any]) -> None:
    api, dashboard = host
    client = api.test_client()
    made = client.post("/api/v1/players", json={"name": "Ada"}, headers={"Authorization": f"Bearer {KEY}"})
    assert made.status_code == 201, made.get_json()
    assert "Set-Cookie" not in made.headers and "Cookie" not in made.headers.get("Vary", "")
    assert client.get("/api/v1/players", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
    assert client.get_cookie("digsite_csrf", path="/dashboard/") is None
    browser = Browser(dashboard)  # a browser holding the dashboard's CSRF cookie: the API neither reads nor sets it
    browser.csrf()
    listed = browser.client.get("/api/v1/players", headers={"Authorization": f"Bearer {KEY}"})
    assert listed.status_code == 200 and "Set-Cookie" not in listed.headers


def test_dash_callbacks_need_no_form_token(host: tuple[Any, Any]) -> None:
    """Dash's own POSTs are JSON from the page's script, guarded by their Origin (``dashboard.session``)."""
    _, dashboard = host
    browser = Browser(dashboard)
    page = browser.route_response("/games")
    assert "page" in page


def test_a_host_apps_own_session_is_left_to_it(store: tuple[Digsite, ReadPort]) -> None:
    """Mounted in a Flask app that has a session of its own, the dashboard's CSRF cookie takes its place only
    under the dashboard's path."""
    service, read = store
    app = Flask("host")
    app.secret_key = "the host's own secret"

    @app.get("/visits")
    def visits() -> str:
        session["n"] = session.get("n", 0) + 1
        return str(session["n"])

    dashboard = create_dashboard(read, service, server=app, url_base_pathname="/dashboard/", access=access_settings())
    client = app.test_client()
    assert [client.get("/visits").get_data(as_text=True) for _ in range(3)] == ["1", "2", "3"]
    assert client.get_cookie("session") is not None and client.get_cookie("digsite_csrf", path="/dashboard/") is None
    browser = Browser(dashboard)
    browser.client = client  # the same browser: the host's session cookie and the dashboard's side by side
    assert browser.post("login", data={**FORMS["login"][0], "csrf": browser.csrf()}).status_code == 303
    assert client.get_cookie("digsite_csrf", path="/dashboard/") is not None
    assert client.get("/visits").get_data(as_text=True) == "4"
