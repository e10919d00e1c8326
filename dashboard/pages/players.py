"""One player's tendencies against the field (or against another player), with sample sizes.

For anyone but an organiser every figure is computed from finished games only (``Data`` decides)."""

from __future__ import annotations

from typing import Any

import dash
from dash import Input, Output, html

from dashboard import figures
from dashboard.access import Visitor, require_lists
from dashboard.components import card, chart, dropdown, empty, field
from dashboard.context import Context
from dashboard.format import metric_value, player_labels
from dashboard.games import analysed_kinds, renderer
from domain.games import GAMES
from service.queries import metrics

# The game whose tendencies the page shows: the first registered game with analytics.
KIND = next(iter(analysed_kinds()), next(iter(GAMES)))
METRICS = metrics(KIND)

NO_DATA = "No finished games with this data yet."


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, params: dict[str, str]) -> html.Div:
    everyone = ctx.data.players(visitor)
    options = player_labels(everyone)
    known = {o["value"] for o in options}
    player = params.get("player") if params.get("player") in known else None
    if player is None and everyone:  # start with the most experienced player rather than an empty page
        player = str(max(everyone, key=lambda p: (p["games"], p["wins"]))["player_id"])
    other = params.get("other") if params.get("other") in known else None
    return html.Div(
        [
            html.H2("Players"),
            card(
                None,
                html.Div(
                    [
                        field(
                            "Player",
                            dropdown("players-player", options, player, placeholder="Choose a player"),
                            "22rem",
                        ),
                        field(
                            "Compare with",
                            dropdown("players-other", options, other, placeholder="the field (everyone)"),
                            "22rem",
                        ),
                    ],
                    className="filters",
                ),
            ),
            html.Div(id="players-content"),
        ]
    )


def register(app: dash.Dash, ctx: Context) -> None:
    @app.callback(
        Output("players-content", "children"), Input("players-player", "value"), Input("players-other", "value")
    )
    def content(player: str | None, other: str | None) -> Any:
        visitor = ctx.visitor()
        require_lists(visitor)  # before anything, even the sentences: 403 when spectator mode is off
        return player_page(ctx, visitor, player, other)


def player_page(ctx: Context, visitor: Visitor, player: str | None, other: str | None) -> Any:
    data = ctx.data
    everyone = data.players(visitor)
    if not player:
        if not everyone:
            return empty("No players yet: players appear here once games are played and projected.")
        return empty("Choose a player to see their tendencies against the field, or compare two players.")
    names = {str(p["player_id"]): p["name"] for p in everyone}
    name = names.get(player, "this player")
    other_name = names.get(other, "the other player") if other else "the field"
    if other == player:
        other, other_name = None, "the field"
    mine = data.tendencies(visitor, player, KIND)
    theirs = data.tendencies(visitor, other, KIND)
    record = next((p for p in everyone if str(p["player_id"]) == player), None)
    summary = _summary(record, name, mine, other_name, theirs)
    if not mine["games"]:
        return html.Div([summary, empty(f"{name} has not finished a game yet, so there are no tendencies to show.")])
    max_rounds = renderer(KIND).max_rounds()
    series = ((name, player), (other_name, other))
    places = [(who, data.finishing_positions(visitor, pid)) for who, pid in series]
    vp = [(who, data.vp_by_round(visitor, pid)) for who, pid in series]
    torches = [(who, data.torches_by_round(visitor, pid)) for who, pid in series]
    bought = [(who, data.purchases(visitor, pid)) for who, pid in series]
    return html.Div(
        [
            summary,
            html.Div(
                [
                    card(None, chart("players-rates", figures.tendencies(mine, theirs, name, other_name, rates=True))),
                    card(
                        None, chart("players-averages", figures.tendencies(mine, theirs, name, other_name, rates=False))
                    ),
                ],
                className="grid-2",
            ),
            card("Tendencies with sample sizes", tendency_table(mine, theirs, name, other_name)),
            html.Div(
                [
                    card(
                        None,
                        chart("players-places", figures.finishing_positions(places), None if places[0][1] else NO_DATA),
                    ),
                    card(
                        None,
                        chart(
                            "players-vp",
                            figures.by_round(vp, "vp", "VP at the end of each round (average)", "VP", max_rounds),
                            None if vp[0][1] else NO_DATA,
                        ),
                    ),
                    card(
                        None,
                        chart(
                            "players-torches",
                            figures.by_round(
                                torches, "torches", "Torches spent per round (average)", "torches", max_rounds
                            ),
                            None if torches[0][1] else NO_DATA,
                        ),
                    ),
                    card(
                        None,
                        chart(
                            "players-purchases",
                            figures.purchases(bought),
                            None if bought[0][1] else f"{name} has not bought a discovery yet.",
                        ),
                    ),
                ],
                className="grid-2",
            ),
        ],
        id="players-loaded",
    )


def _summary(
    record: dict[str, Any] | None, name: str, mine: dict[str, Any], other_name: str, theirs: dict[str, Any]
) -> html.Div:
    games = mine["games"]
    wins = mine["metrics"]["win_rate"]["value"]
    lines: list[Any] = [
        html.Strong(name),
        f": {games} finished game{'s' if games != 1 else ''}",
        f", won {metric_value('win_rate', wins)}" if games else "",
        f". Compared with {other_name}: {theirs['games']} player-game{'s' if theirs['games'] != 1 else ''}.",
    ]
    bot = record.get("bot") if record else None
    if bot:
        tendencies = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in (bot.get("tendencies") or {}).items())
        lines.append(
            html.Div(
                f"A {bot.get('kind', '')} bot" + (f" set to: {tendencies}." if tendencies else "."), className="quiet"
            )
        )
    return html.Div(lines, className="summary", id="players-summary")


def tendency_table(mine: dict[str, Any], theirs: dict[str, Any], name: str, other_name: str) -> html.Table:
    head = html.Tr([html.Th("Tendency"), html.Th(name), html.Th("n"), html.Th(other_name), html.Th("n")])
    rows = []
    for metric in METRICS:
        a, b = mine["metrics"][metric], theirs["metrics"][metric]
        rows.append(
            html.Tr(
                [
                    html.Td(a["label"]),
                    html.Td(metric_value(metric, a["value"]), className="num strong"),
                    html.Td(str(a["n"]), className="num quiet"),
                    html.Td(metric_value(metric, b["value"]), className="num"),
                    html.Td(str(b["n"]), className="num quiet"),
                ]
            )
        )
    return html.Table([html.Thead(head), html.Tbody(rows)], className="grid compact", id="players-table")
