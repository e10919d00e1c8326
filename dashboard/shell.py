"""The page every address of the dashboard serves first (Dash's index), made to start the page sooner.

Opening a page is, in series: this HTML, Dash's scripts run in the browser, the layout and the callbacks' list
asked for, the router's callback (the page's controls), then the page's own callbacks (its figures). This module
shortens that chain where Dash lets it (docs/performance.md, section 10):

- the router's answer for this address and this browser is begun on the server while the page is served
  (``dashboard.early``): the router's callback takes it, and the page's layout begins the page's own callbacks
  in turn, so the figures are computed while Dash starts in the browser, not after;
- Dash's table components, which no page uses, are not loaded;
- the dashboard's own scripts (Dash assets, their address carrying the file's time, ``?m=``) are kept by the
  browser instead of being asked for again on every page (Flask's default: revalidate each time, three requests
  in the page's critical path, each waiting on a server then busy with the early answers).

Dash's renderer asks for the layout only after the window's ``load`` event, so whatever delays that event delays
every page: a ``<link rel=preload>`` of the dropdown's script (asked for only once the router's answer holds a
dropdown) was tried and made the players page slower (its layout asked for 300-400 ms later, the preload holding
the load event while the server computed the early answers).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import Any

import dash
import flask

from dashboard.early import Early

# Dash loads its table components' bundle on every page; no page of the dashboard has a table component.
UNUSED_SCRIPT = re.compile(r'<script src="[^"]*/_dash-component-suites/dash/dash_table/[^"]*"></script>\s*')

RouteAnswer = Callable[[str, str], Any]
# An asset's address changes with its file (Dash adds the file's modification time): an address is for good.
KEPT_FOR_GOOD = "public, max-age=31536000, immutable"


def route_key(holder: tuple[str, str], pathname: str | None, search: str | None) -> Hashable:
    """What the router's answer is kept under: the browser's cookies (the answer shows who is signed in, with a
    form token made from the CSRF cookie) and the address."""
    return ("route", holder, pathname or "/", search or "")


class Shell(dash.Dash):
    """``dash.Dash`` whose index begins the router's answer (``begin_route``) and loads only scripts pages use."""

    begin_route: Callable[[str, str], None] | None = None

    def interpolate_index(
        self,
        metas: str = "",
        title: str = "",
        css: str = "",
        config: str = "",
        scripts: str = "",
        app_entry: str = "",
        favicon: str = "",
        renderer: str = "",
    ) -> str:
        request = flask.request
        query = request.query_string.decode("latin-1")
        pathname, search = request.path, f"?{query}" if query else ""
        if self.begin_route is not None and request.method == "GET":
            self.begin_route(pathname, search)
        return str(
            super().interpolate_index(  # type: ignore[no-untyped-call]  # (dash's own, untyped)
                metas=metas,
                title=title,
                css=css,
                config=config,
                scripts=UNUSED_SCRIPT.sub("", scripts),
                app_entry=app_entry,
                favicon=favicon,
                renderer=renderer,
            )
        )


def install(app: dash.Dash, early: Early, holder: Callable[[], tuple[str, str]], answer: RouteAnswer) -> RouteAnswer:
    """Begin the router's answer with each page served (``app``: a :class:`Shell`) and let the browser keep the
    assets; return the router's callback body, which takes the answer begun."""
    if not isinstance(app, Shell):
        raise TypeError("the dashboard's app must be a dashboard.shell.Shell")

    def begin(pathname: str, search: str) -> None:
        cookies = holder()
        if not any(cookies):
            # A browser with no cookie yet: its answer's form token is made for a CSRF cookie this very page sets,
            # and under the key of "no cookies" any other cookie-less client could take it. Nothing is begun; the
            # router computes it when asked, as for a first visit it would anyway.
            return
        # The answer reads the request (its cookies: who is asking): it runs in a copy of the page's request.
        compute = flask.copy_current_request_context(lambda: answer(pathname, search))
        early.begin(route_key(cookies, pathname, search), compute)

    def route(pathname: str, search: str) -> Any:
        return early.take(route_key(holder(), pathname, search), lambda: answer(pathname, search))

    app.begin_route = begin
    assets = app.config.routes_pathname_prefix + app.config.assets_url_path.strip("/") + "/"

    def kept(response: flask.Response) -> flask.Response:
        request = flask.request
        if request.path.startswith(assets) and "m" in request.args and response.status_code in (200, 304):
            response.headers["Cache-Control"] = KEPT_FOR_GOOD
        return response

    app.server.after_request(kept)
    return route
