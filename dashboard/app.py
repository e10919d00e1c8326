"""Build the Dash app: the page shell, the router, and each page's callbacks."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import dash
from dash import Input, Output, State, dcc, html

from dashboard.context import Context
from dashboard.pages import aggregates, games, players, replay
from dashboard.static import INDEX
from service.errors import ServiceError
from service.queries import Queries

NAV = (("Games", "/games", "games"), ("Players", "/players", "players"), ("Aggregates", "/aggregates", "aggregates"))


def build(queries: Queries, server: Any = None, url_base_pathname: str = "/") -> dash.Dash:
    ctx = Context.of(queries)
    app = dash.Dash(
        __name__,
        server=server if server is not None else True,
        url_base_pathname=url_base_pathname,
        include_assets_files=False,  # styles and the keyboard script are inlined (dashboard/static.py)
        index_string=INDEX,
        suppress_callback_exceptions=True,
        title="Digsite · tournament dashboard",
        update_title=None,
    )
    app.layout = html.Div(
        [
            dcc.Location(id="url"),
            html.Header(
                [
                    html.Div([html.Span("Digsite", className="brand"), html.Span(" tournament dashboard")]),
                    html.Nav(id="nav", children=_nav(app, "games")),
                ],
                className="topbar",
            ),
            html.Main(id="page", className="page"),
        ]
    )

    @app.callback(
        Output("page", "children"), Output("nav", "children"), Input("url", "pathname"), State("url", "search")
    )
    def route(pathname: str | None, search: str | None) -> tuple[Any, Any]:
        path = app.strip_relative_path(pathname or "/") or ""
        params = {k: v[-1] for k, v in parse_qs((search or "").lstrip("?")).items()}
        section = path.split("/", 1)[0] or "games"
        try:
            if section == "games":
                page = games.layout(app, ctx, params)
            elif section == "replay" and "/" in path:
                section = "games"
                page = replay.layout(app, ctx, path.split("/", 1)[1], params)
            elif section == "players":
                page = players.layout(app, ctx, params)
            elif section == "aggregates":
                page = aggregates.layout(app, ctx, params)
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
        except ServiceError as error:
            page = html.Div([html.H2("Not found"), html.P(error.message, className="empty")])
        return page, _nav(app, section)

    games.register(app, ctx)
    replay.register(app, ctx)
    players.register(app, ctx)
    aggregates.register(app, ctx)
    app.digsite = ctx  # type: ignore[attr-defined]
    return app


def _nav(app: dash.Dash, active: str) -> list[Any]:
    return [
        dcc.Link(label, href=app.get_relative_path(href), className="nav-link active" if key == active else "nav-link")
        for label, href, key in NAV
    ]
