"""Build the Dash app: the page shell, the door (sign-in, sessions, guards), the router, and each page's callbacks.

The shell (``/``, ``/_dash-layout``) holds no data; everything shown comes from callbacks, and every callback
asks ``ctx.visitor()`` (the signed session cookie, checked on the server) and reads through ``ctx.data``,
whose every function takes that visitor (``dashboard.data``, deciding with ``dashboard.access``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import dash
from dash import Input, Output, State, dcc, html

from dashboard import live, plotly_bundle, shell
from dashboard.access import HIDDEN_GAME, AccessSettings, Denied, Visitor
from dashboard.context import Context
from dashboard.data import Data
from dashboard.games import stylesheet
from dashboard.pages import (
    aggregates,
    broadcast,
    fair_play,
    games,
    leaderboards,
    play,
    players,
    replay,
    rounds,
    tournaments,
)
from dashboard.session import Gate
from dashboard.static import INDEX
from service.commands.application import Digsite
from service.errors import ServiceError
from service.reading.read_port import ReadPort
from service.store.backends import RETRY_AFTER_SECONDS, StoreUnavailable

NAV = (
    ("Games", "/games", "games"),
    ("Tournaments", "/tournaments", "tournaments"),
    ("Players", "/players", "players"),
    ("Leaderboards", "/leaderboards", "leaderboards"),
    ("Aggregates", "/aggregates", "aggregates"),
)


def build(
    read: ReadPort,
    service: Digsite,
    server: Any = None,
    url_base_pathname: str = "/",
    access: AccessSettings | None = None,
) -> dash.Dash:
    settings = access if access is not None else AccessSettings.from_env(service.settings)
    app: dash.Dash = shell.Shell(
        __name__,
        server=server if server is not None else True,
        url_base_pathname=url_base_pathname,
        # The scripts are assets (dashboard/assets/*.js, each file loaded on every page); the styles are inlined.
        index_string=INDEX.replace("</style>", stylesheet() + "</style>", 1),  # each game's table styles too
        suppress_callback_exceptions=True,
        title="Digsite · tournament dashboard",
        update_title=None,  # type: ignore[arg-type]  # Dash documents None (no "Updating..." title); typed str
        enable_mcp=False,  # no second way in to the callbacks and layouts
    )
    # the graphs' plotly.js: the small bundle the dashboard serves, loaded when a page's first graph mounts
    app.index_string = app.index_string.replace("</head>", plotly_bundle.loader_script(app) + "</head>", 1)
    plotly_bundle.install(app)
    gate = Gate(
        settings,
        find_seat=lambda game, token: service.seat_for_token(game, token),
        prefix=app.config.requests_pathname_prefix,
        routes_prefix=app.config.routes_pathname_prefix,
    )
    gate.install(app.server)
    app.server.register_error_handler(StoreUnavailable, _store_unavailable)
    ctx = Context(Data(read, service), gate)
    app.layout = html.Div(
        [
            dcc.Location(id="url"),
            dcc.Location(id="go", refresh=True),  # a full page load elsewhere (the sign-in page)
            html.Header(
                [
                    html.Div([html.Span("Digsite", className="brand"), html.Span(" tournament dashboard")]),
                    html.Div(
                        [html.Nav(id="nav", children=[]), html.Div(id="account", className="account")],
                        className="topbar-right",
                    ),
                ],
                className="topbar",
            ),
            html.Main(id="page", className="page"),
        ]
    )

    def route_answer(pathname: str | None, search: str | None) -> tuple[Any, Any, Any, Any]:
        visitor = ctx.visitor()
        path = app.strip_relative_path(pathname or "/") or ""
        params = {k: v[-1] for k, v in parse_qs((search or "").lstrip("?")).items() if k != "token"}
        section = path.split("/", 1)[0] or "games"
        account = _account(app, ctx, visitor, pathname)
        if not visitor.sees_finished and section not in ("replay", "play"):
            if not visitor.seats:  # spectator mode is off: nothing here but the sign-in page
                return [], [], account, gate.login_url(_here(pathname, search))
            return games.my_games_page(app, ctx, visitor), [], account, dash.no_update
        try:
            if section == "games":
                page = games.layout(app, ctx, visitor, params)
            elif section == "replay" and "/" in path:
                section = "games"
                page = replay.layout(app, ctx, visitor, path.split("/", 1)[1], params)
            elif section == "play" and "/" in path:
                section = "games"
                page = play.layout(app, ctx, visitor, path.split("/", 1)[1])
            elif section == "broadcast" and "/" in path:
                section = "games"
                page = broadcast.layout(app, ctx, visitor, path.split("/", 1)[1])
            elif section == "tournaments" and path.endswith("/rounds") and path.count("/") == 2:
                page = rounds.layout(app, ctx, visitor, path.split("/")[1])
            elif section == "tournaments" and path.endswith("/fair-play") and path.count("/") == 2:
                page = fair_play.layout(app, ctx, visitor, path.split("/")[1])
            elif section == "tournaments" and "/" in path:
                page = tournaments.layout(app, ctx, visitor, path.split("/", 1)[1], params)
            elif section == "tournaments":
                page = tournaments.list_layout(app, ctx, visitor)
            elif section == "leaderboards":
                page = leaderboards.layout(app, ctx, visitor, path.split("/", 1)[1] if "/" in path else None)
            elif section == "players":
                page = players.layout(app, ctx, visitor, params)
            elif section == "aggregates":
                page = aggregates.layout(app, ctx, visitor, params)
            else:
                section = ""
                page = html.Div(
                    [
                        html.H2("Page not found"),
                        html.P(
                            [
                                "There is no page here. ",
                                dcc.Link("Go to the games", href=app.get_relative_path("/games")),
                                ".",
                            ]
                        ),
                    ]
                )
        except Denied as refused:
            page = _refused(app, ctx, visitor, path, refused.reason)
        except ServiceError as error:
            page = html.Div([html.H2("Not found"), html.P(error.message, className="empty")])
        except StoreUnavailable as error:
            page = html.Div([html.H2("The store is unreachable"), html.P(error.message, className="empty")])
        return page, _nav(app, section) if visitor.sees_finished else [], account, dash.no_update

    # The router's answer for a page is begun while the page's HTML is served (``dashboard.shell``).
    taken = shell.install(app, ctx.early, gate.holder, route_answer)

    @app.callback(
        Output("page", "children"),
        Output("nav", "children"),
        Output("account", "children"),
        Output("go", "href"),
        Input("url", "pathname"),
        State("url", "search"),
    )
    def route(pathname: str | None, search: str | None) -> tuple[Any, Any, Any, Any]:
        return taken(pathname or "/", search or "")  # type: ignore[no-any-return]

    games.register(app, ctx)
    replay.register(app, ctx)
    play.register(app, ctx)
    broadcast.register(app, ctx)
    live.register(app, ctx)
    players.register(app, ctx)
    aggregates.register(app, ctx)
    tournaments.register(app, ctx)
    rounds.register(app, ctx)
    fair_play.register(app, ctx)
    app.digsite = ctx  # type: ignore[attr-defined]
    return app


def _store_unavailable(error: StoreUnavailable) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A callback that needs the store while it is down answers at once, like the API: 503 with Retry-After."""
    body = {"error": {"code": "store_unavailable", "message": error.message}}
    return body, 503, {"Retry-After": str(RETRY_AFTER_SECONDS)}


def _here(pathname: str | None, search: str | None) -> str:
    return (pathname or "/") + (search or "")


def _nav(app: dash.Dash, active: str) -> list[Any]:
    return [
        dcc.Link(label, href=app.get_relative_path(href), className="nav-link active" if key == active else "nav-link")
        for label, href, key in NAV
    ]


def _account(app: dash.Dash, ctx: Context, visitor: Visitor, pathname: str | None) -> list[Any]:
    """Who you are here, and the way in or out."""
    gate = ctx.gate
    sign_out = html.Form(
        # The submit button carries the form's CSRF token (a button's name and value are sent with its form).
        html.Button("Sign out", type="submit", name="csrf", value=gate.csrf_token(), className="btn btn-small"),
        method="post",
        action=app.get_relative_path("/logout"),
        id="sign-out",
        className="inline-form",
    )
    sign_in = html.A(
        "Organiser sign-in", href=gate.login_url(pathname or None), id="sign-in", className="nav-link account-link"
    )
    if visitor.organiser:
        return [html.Span("Organiser", className="who", id="who"), sign_out]
    if visitor.seats:
        seats = len(visitor.seats)
        return [
            html.Span(f"Player ({seats} seat{'s' if seats != 1 else ''})", className="who", id="who"),
            sign_out,
            sign_in,
        ]
    return [html.Span("Spectator" if visitor.spectators else "", className="who", id="who"), sign_in]


def _refused(app: dash.Dash, ctx: Context, visitor: Visitor, path: str, reason: str) -> html.Div:
    """A replay the visitor may not see: the same words whether or not the game exists, a seat token form,
    and the way to sign in."""
    game = path.split("/", 1)[1] if "/" in path else ""
    parts: list[Any] = [
        html.H2("Not available"),
        html.P(reason if reason else HIDDEN_GAME, className="empty", id="refused"),
    ]
    if path.startswith("replay/"):
        parts.append(
            html.Form(
                [
                    html.Label("Seat token", className="field-label", htmlFor="seat-token"),
                    dcc.Input(id="seat-token", name="token", type="password", autoComplete="off", required=True),
                    dcc.Input(id="seat-game", name="game", type="hidden", value=game),
                    html.Button(
                        "Open my seat",
                        type="submit",
                        name="csrf",
                        value=ctx.gate.csrf_token(),
                        className="btn btn-primary",
                    ),
                ],
                method="post",
                action=app.get_relative_path("/seat"),
                id="seat-form",
                className="seat-form card",
            )
        )
    if not visitor.organiser:
        parts.append(html.P(html.A("Organisers: sign in", href=ctx.gate.login_url(app.get_relative_path("/" + path)))))
    return html.Div(parts, id="refused-page")
