"""A game in play as spectators follow it: ``/broadcast/<game>``, open to anyone in spectator mode while the game's
tournament broadcasts it (``service.serving.broadcast``: the public view, behind by the organiser's delay).

Everything on the page comes from the broadcast: the table is the game's renderer drawing the engine's view for a
seat at no table at the version the delay allows, the log the last moves up to that version told for such a seat.
A game not broadcast (or no such game, or spectator mode off) is refused by the page and by its callback alike:
403, no data. The page follows the game with one waiting request at a time (``broadcast-live/<game>``, answered
when a new version becomes visible under the delay: ``dashboard.live``, ``dashboard/assets/live.js``), then its
script presses the hidden refresh button and the callback draws the table again.
"""

from __future__ import annotations

from typing import Any

import dash
from dash import Input, Output, State, dcc, html

from dashboard.access import Visitor
from dashboard.components import card, data_attributes
from dashboard.context import Context
from dashboard.format import log_line
from dashboard.games import renderer
from dashboard.live import BROADCAST_LIVE_PATH

OUTPUTS = [
    Output("broadcast-table", "children"),
    Output("broadcast-log", "children"),
    Output("broadcast-status", "children"),
]


def delay_text(delay: dict[str, Any]) -> str:
    if "moves" in delay:
        moves = delay["moves"]
        return "live" if moves == 0 else f"{moves} move{'s' if moves != 1 else ''} behind"
    return f"{delay['minutes']:g} minutes behind"


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, game_id: str) -> html.Div:
    """The broadcast page (Denied, with a hidden game's words, for a game not broadcast)."""
    shown = ctx.data.broadcast(visitor, game_id)
    root = {
        "data-game": shown["id"],
        "data-live": app.get_relative_path(f"/{BROADCAST_LIVE_PATH}{shown['id']}"),
    }
    names = [p["name"] for p in shown["game"]["players"]] if shown["game"] else []
    return html.Div(
        [
            dcc.Store(id="broadcast-meta", data={"game": shown["id"]}),
            # Pressed by the page's script when a new version has become visible (dashboard/assets/live.js).
            html.Button(id="broadcast-refresh", hidden=True, n_clicks=0),
            html.Div(
                [
                    html.H2(f"Following: {' vs '.join(names)}" if names else "Following a game"),
                    html.Div("Loading the table…", id="broadcast-status", className="play-status"),
                ],
                className="replay-head",
            ),
            html.Div(
                [
                    html.Div(
                        html.Div("Drawing the table…", className="quiet"),
                        id="broadcast-table",
                        className="replay-table",
                    ),
                    html.Aside(
                        card("Log", html.Div(id="broadcast-log", className="log"), className="log-card"),
                        className="replay-side",
                    ),
                ],
                className="replay-grid",
            ),
        ],
        id="broadcast-root",
        className="replay broadcast",
        **data_attributes(root),
    )


def register(app: dash.Dash, ctx: Context) -> None:
    @app.callback(
        *OUTPUTS,
        Input("broadcast-meta", "data"),
        Input("broadcast-refresh", "n_clicks"),
        State("broadcast-meta", "data"),
    )
    def draw(meta: dict[str, Any] | None, _clicks: int, _state: Any) -> tuple[Any, ...]:
        if not isinstance(meta, dict) or not isinstance(meta.get("game"), str):
            raise dash.exceptions.PreventUpdate
        return drawn(ctx, ctx.visitor(), meta["game"])


def drawn(ctx: Context, visitor: Visitor, game_id: str) -> tuple[Any, ...]:
    """The table, log and status line of the broadcast now (Denied for a game not broadcast: 403, no data)."""
    now = ctx.data.broadcast_table(visitor, game_id)
    shown, frame = now["broadcast"], now["frame"]
    behind = delay_text(shown["delay"])
    if frame is None:
        waiting = f"Nothing to show yet: the broadcast is {behind}."
        return html.Div(waiting, className="quiet"), [], _status(shown, waiting)
    drawing = renderer(frame["kind"])
    log = [
        html.Div(
            [
                html.Span(str(entry.version), className="log-version"),
                html.Div(
                    [html.Div(log_line(drawing.log_text(line, frame["view"]))) for line in entry.lines if line]
                    or [html.Div("(no change)", className="quiet")]
                ),
            ],
            className="log-entry",
            **data_attributes({"data-move": str(entry.version)}),
        )
        for entry in reversed(now["log"])
    ]
    over = shown["status"] == "over"
    said = "The game is over." if over else f"In play, shown {behind}"
    return drawing.draw_table(frame), log, _status(shown, f"{said} · version {shown['version']}")


def _status(shown: dict[str, Any], words: str) -> html.Span:
    return html.Span(
        html.Strong(words),
        id="broadcast-now",
        **data_attributes({"data-version": str(shown["version"]), "data-status": shown["status"]}),
    )
