"""The organiser's "New tournament" form on the tournaments list: name, game, rounds, time control, what running out
of time costs, and the broadcast delay. It calls the one function the CLI calls (``set_up_tournament`` through
``Data.create_tournament``), so the checks are the API's: a refusal is its sentence with its code, and nothing is
created. Anyone but an organiser is refused the form and its callback (403)."""

from __future__ import annotations

from typing import Any

import dash
from dash import Input, Output, State, dcc, html

from dashboard import access
from dashboard.components import card, dropdown, field
from dashboard.context import Context
from dashboard.form_parts import labelled, not_done, note_and_answer, number_input, submit, text_input
from domain.games import GAMES
from service.errors import ServiceError

CLOCKS = {"bank": "A time bank per game, plus an increment", "per_move": "A limit per move"}
ON_TIMEOUT = {"move": "the game plays its default move", "forfeit": "the game is forfeited"}
DELAYS = {"moves": "moves behind", "minutes": "minutes behind"}
REFUSED = "creating a tournament is for organisers: sign in as an organiser"


def form_card() -> Any:
    return card(
        "New tournament",
        html.Div(
            [
                field("Name", text_input("new-tournament-name"), "16rem"),
                field(
                    "Game",
                    dropdown(
                        "new-tournament-game",
                        [{"label": g.title, "value": k} for k, g in GAMES.items()],
                        None,
                        "choose",
                    ),
                    "12rem",
                ),
                field("Rounds", number_input("new-tournament-rounds", 1), "6rem"),
            ],
            className="filters",
        ),
        html.Div(
            [
                field("Time control", dropdown("new-tournament-clock", labelled(CLOCKS), None, "untimed"), "18rem"),
                field("Seconds", number_input("new-tournament-seconds", 0), "10rem"),
                field("Increment (s)", number_input("new-tournament-increment", 0), "10rem"),
                field(
                    "Out of time",
                    dropdown(
                        "new-tournament-on-timeout", labelled(ON_TIMEOUT), None, "the game plays its default move"
                    ),
                    "16rem",
                ),
            ],
            className="filters",
        ),
        html.Div(
            [
                field(
                    "Broadcast to spectators",
                    dropdown("new-tournament-delay-kind", labelled(DELAYS), None, "off"),
                    "14rem",
                ),
                field("Delay", number_input("new-tournament-delay", 0), "8rem"),
                submit("Create the tournament", "new-tournament-create"),
            ],
            className="filters",
        ),
        *note_and_answer(
            "Seconds: a time bank counts them down on each player's turns and adds the increment after each move; a "
            "limit per move gives them afresh every turn. Spectators follow games in play the delay behind (moves or "
            "minutes), public information only. Then enter the players on the tournament's rounds page.",
            "new-tournament-message",
        ),
        id="new-tournament-card",
    )


def clock_of(kind: Any, seconds: Any, increment: Any, on_timeout: Any) -> dict[str, Any] | None:
    """The API's clock object from the form's fields (no kind: untimed); the API's checks judge the numbers."""
    if kind is None:
        return None
    rule = {"on_timeout": on_timeout} if on_timeout is not None else {}
    if kind == "per_move":
        return {"per_move": seconds, **rule}
    return {"bank": seconds, "increment": 0 if increment in (None, "") else increment, **rule}


def delay_of_form(kind: Any, value: Any) -> dict[str, Any] | None:
    """The broadcast delay from the form's fields (no kind: off)."""
    return None if kind is None else {str(kind): value}


def register(app: dash.Dash, ctx: Context) -> None:
    @app.callback(
        Output("new-tournament-message", "children"),
        Input("new-tournament-create", "n_clicks"),
        State("new-tournament-name", "value"),
        State("new-tournament-game", "value"),
        State("new-tournament-rounds", "value"),
        State("new-tournament-clock", "value"),
        State("new-tournament-seconds", "value"),
        State("new-tournament-increment", "value"),
        State("new-tournament-on-timeout", "value"),
        State("new-tournament-delay-kind", "value"),
        State("new-tournament-delay", "value"),
        prevent_initial_call=True,
    )
    def create(
        clicks: int | None,
        name: Any,
        kind: Any,
        rounds: Any,
        clock: Any,
        seconds: Any,
        increment: Any,
        on_timeout: Any,
        delay_kind: Any,
        delay: Any,
    ) -> Any:
        visitor = ctx.visitor()
        access.require_organiser(visitor, REFUSED)  # (before reading any field: a refusal says nothing else)
        if not clicks:
            return dash.no_update
        try:
            made = ctx.data.create_tournament(
                visitor,
                name,
                rounds,
                kind,
                clock_of(clock, seconds, increment, on_timeout),
                delay_of_form(delay_kind, delay),
            )
        except ServiceError as refused:
            return not_done(refused)
        href = app.get_relative_path(f"/tournaments/{made}/rounds")
        return [
            f"Created {str(name).strip()}. Next: ",
            dcc.Link("enter its players and seat its rounds", href=href, id="new-tournament-rounds-link"),
            ".",
        ]
