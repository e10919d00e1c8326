"""The organiser's ruling form on a tournament's rounds page: adjust a game's result, annul a game, or take points
off a player (a penalty), always with a reason. It calls the one service function the API and the CLI call
(``service.commands.rulings`` through ``Data.rule``, organisers only); a refusal is said in a sentence with its code,
and nothing is recorded. The standings page then shows the ruling's effect and its note."""

from __future__ import annotations

import re
from typing import Any

import dash
from dash import Input, Output, State, html

from dashboard.components import card, dropdown, field
from dashboard.context import Context
from dashboard.form_parts import labelled, not_done, note_and_answer, number_input, submit, text_input
from service.commands.results import TournamentRounds
from service.errors import BadRequest, ServiceError

KINDS = {
    "adjust_result": "Adjust a game's result",
    "annul": "Annul a game",
    "penalty": "Penalty: points off a player",
}


def ruling_card(found: TournamentRounds) -> Any:
    return card(
        "Ruling",
        html.Div(
            [
                field(
                    "Ruling",
                    dropdown("ruling-kind", labelled(KINDS), None, "choose"),
                    "16rem",
                ),
                field("Game", dropdown("ruling-game", game_options(found), None, "a table of a round"), "22rem"),
                field(
                    "New order, best first",
                    text_input("ruling-order", placeholder="seats, e.g. 2 1 3"),
                    "11rem",
                ),
                field("Player", dropdown("ruling-player", player_options(found), None, "for a penalty"), "14rem"),
                field("Points off", number_input("ruling-points", 1, step=1), "6rem"),
                field("Reason", text_input("ruling-reason"), "22rem"),
                submit("Record the ruling", "ruling-record"),
            ],
            className="filters",
        ),
        *note_and_answer(
            "A game's result or annulment names the game; a new order lists its seats (as the round's table lists "
            "its players) best first. A penalty names a player. Nothing is edited: the ruling is recorded with "
            "your reason, and the standings show it.",
            "ruling-message",
        ),
        id="ruling-card",
    )


def game_options(found: TournamentRounds) -> list[dict[str, str]]:
    """Each seated table's game: "Round 1 · table 2: Ana, Beto"."""
    return [
        {
            "label": f"Round {r['round']} · table {t['table']}: {', '.join(p['name'] for p in t['players'])}",
            "value": t["game"],
        }
        for r in found["seated_rounds"]
        for t in r["tables"]
        if t["game"] is not None
    ]


def player_options(found: TournamentRounds) -> list[dict[str, str]]:
    return [{"label": e["name"], "value": e["id"]} for e in found["entries"]]


def ruling_body(kind: Any, reason: Any, order: Any, player: Any, points: Any) -> dict[str, Any]:
    """The ruling as the service takes it, from the form's fields (``BadRequest`` for an order that is not seats)."""
    if kind not in KINDS:
        raise BadRequest("choose a ruling: adjust a result, annul a game, or a penalty", "invalid_ruling")
    body: dict[str, Any] = {"ruling": kind, "reason": reason or ""}
    if kind == "adjust_result":
        seats = re.split(r"[\s,]+", str(order or "").strip())
        if not all(s.isdigit() for s in seats):
            raise BadRequest("the new order lists seat numbers, best first, e.g. 2 1 3", "invalid_ruling")
        body["result"] = {"ranking": [int(s) - 1 for s in seats]}
    elif kind == "penalty":
        body["player"] = player
        body["points"] = int(points) if isinstance(points, (int, float)) and points == int(points) else points
    return body


def said(kind: str, recorded: dict[str, Any], games: list[dict[str, str]], names: dict[str, str]) -> str:
    """What was recorded, in a sentence."""
    if kind == "penalty":
        return f"Recorded: a penalty of {recorded['points']} point(s) for {names.get(recorded['player'], '?')}."
    game = next((g["label"] for g in games if g["value"] == recorded.get("game")), "the game")
    what = "result adjusted" if kind == "adjust_result" else "annulled"
    return f"Recorded: {game.split(':')[0]}, {what}. The standings show it."


def register(app: dash.Dash, ctx: Context) -> None:
    @app.callback(
        Output("ruling-message", "children"),
        Output("ruling-game", "options"),
        Input("ruling-record", "n_clicks"),
        State("rounds-tournament", "data"),
        State("ruling-kind", "value"),
        State("ruling-game", "value"),
        State("ruling-order", "value"),
        State("ruling-player", "value"),
        State("ruling-points", "value"),
        State("ruling-reason", "value"),
        prevent_initial_call=True,
    )
    def record(
        clicks: int | None,
        tournament_id: str,
        kind: Any,
        game_id: Any,
        order: Any,
        player: Any,
        points: Any,
        reason: Any,
    ) -> tuple[str, Any]:
        visitor = ctx.visitor()
        try:
            body = ruling_body(kind, reason, order, player, points)
            recorded = ctx.data.rule(visitor, tournament_id, game_id, body)  # (organisers only: 403 for anyone else)
            message = None
        except (ServiceError, ValueError, TypeError) as refused:
            message = not_done(refused)
        found = ctx.data.rounds(visitor, tournament_id)  # (organisers only, whatever the form held)
        games = game_options(found)
        if message is None:
            names = {e["id"]: e["name"] for e in found["entries"]}
            message = said(str(kind), {**recorded, "game": game_id}, games, names)
        return message, games
