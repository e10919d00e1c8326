"""The field as a whole: seat advantage, score and length distributions, discovery popularity, the
value of leading round 1, and any tendency's trend over a tournament's rounds.

Every figure is over finished games (for anyone but an organiser, discovery popularity too: ``Data`` decides)."""

from __future__ import annotations

from typing import Any

import dash
from dash import Input, Output, html

from dashboard import figures
from dashboard.access import Visitor, require_lists
from dashboard.components import card, chart, dropdown, empty, field
from dashboard.context import Context
from dashboard.format import HOW, tournament_label
from dashboard.games import analysed_kinds
from domain.games import GAMES
from service.queries import metrics

# The game the page opens on, and whose metrics the trend offers: the first registered game with analytics.
DEFAULT_KIND = next(iter(analysed_kinds()), next(iter(GAMES)))
METRICS = metrics(DEFAULT_KIND)

NO_GAMES = "No finished games in this selection yet."
DEFAULT_METRIC = next(iter(METRICS), None)


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, params: dict[str, str]) -> html.Div:
    tournaments = ctx.data.tournaments(visitor)
    options = [{"label": tournament_label(t), "value": t["tournament_id"]} for t in tournaments]
    # The trend's metrics are DEFAULT_KIND's: it offers that game's tournaments only.
    analysed = [t for t in tournaments if t.get("game") == DEFAULT_KIND]
    trend_options = [{"label": tournament_label(t), "value": t["tournament_id"]} for t in analysed]
    played = [t for t in analysed if t["games"]]
    return html.Div(
        [
            html.H2("Aggregates"),
            card(
                None,
                html.Div(
                    [
                        field(
                            "Game",
                            dropdown(
                                "agg-kind",
                                [{"label": g.title, "value": k} for k, g in GAMES.items()],
                                DEFAULT_KIND,
                                clearable=False,
                            ),
                            "9rem",
                        ),
                        field(
                            "Tournament", dropdown("agg-tournament", options, placeholder="All tournaments"), "24rem"
                        ),
                    ],
                    className="filters",
                ),
            ),
            html.Div(id="agg-content"),
            card(
                "Trend over a tournament's rounds",
                html.Div(
                    [
                        field(
                            "Metric",
                            dropdown(
                                "agg-metric",
                                [{"label": label, "value": m} for m, (_, _, label) in METRICS.items()],
                                DEFAULT_METRIC,
                                clearable=False,
                            ),
                            "20rem",
                        ),
                        field(
                            "Tournament",
                            dropdown(
                                "agg-trend-tournament",
                                trend_options,
                                played[0]["tournament_id"] if played else None,
                                placeholder="Choose a tournament",
                                clearable=False,
                            ),
                            "24rem",
                        ),
                    ],
                    className="filters",
                ),
                html.Div(id="agg-trend"),
            ),
        ]
    )


def register(app: dash.Dash, ctx: Context) -> None:
    @app.callback(Output("agg-content", "children"), Input("agg-kind", "value"), Input("agg-tournament", "value"))
    def content(kind: str | None, tournament: str | None) -> Any:
        visitor = ctx.visitor()
        require_lists(visitor)  # 403 when spectator mode is off and the visitor is no organiser
        return aggregate_charts(ctx, visitor, kind or DEFAULT_KIND, tournament)

    @app.callback(Output("agg-trend", "children"), Input("agg-metric", "value"), Input("agg-trend-tournament", "value"))
    def trend(metric: str | None, tournament: str | None) -> Any:
        visitor = ctx.visitor()
        require_lists(visitor)
        return trend_chart(ctx, visitor, metric or DEFAULT_METRIC or "", tournament)


def aggregate_charts(ctx: Context, visitor: Visitor, kind: str, tournament: str | None) -> Any:
    data = ctx.data
    seats = data.win_rate_by_seat(visitor, kind, tournament)
    spread = data.distributions(visitor, kind, tournament)
    bought = data.purchases(visitor, None, tournament)
    leaders = data.win_rate_by_first_leader(visitor, kind)
    if not seats and not spread["final_vp"]:
        return empty(NO_GAMES + " Finished games appear here once the projections have caught up.", id="agg-empty")
    games = sum(int(r["n"]) for r in spread["moves"])
    note = "" if tournament is None else " (win rate by who led round 1 is over every tournament)"
    return html.Div(
        [
            html.P(
                f"Over {games} finished game{'s' if games != 1 else ''}{note}.", className="quiet", id="agg-summary"
            ),
            html.Div(
                [
                    card(None, chart("agg-seats", figures.win_rate_by_seat(seats), None if seats else NO_GAMES)),
                    card(None, chart("agg-leader", figures.first_leader(leaders), None if leaders else NO_GAMES)),
                    card(
                        None,
                        chart(
                            "agg-vp",
                            figures.counts_bar(spread["final_vp"], "Final VP (every player of every game)", "VP"),
                            None if spread["final_vp"] else NO_GAMES,
                        ),
                    ),
                    card(
                        None,
                        chart(
                            "agg-length",
                            figures.histogram(spread["moves"], "Game length", "moves per game"),
                            None if spread["moves"] else NO_GAMES,
                        ),
                    ),
                    card(
                        None,
                        chart("agg-rounds", figures.rounds(spread["rounds"]), None if spread["rounds"] else NO_GAMES),
                    ),
                    card(
                        None,
                        chart(
                            "agg-how",
                            figures.counts_bar(spread["win_how"], "How games were won", "", HOW),
                            None if spread["win_how"] else NO_GAMES,
                        ),
                    ),
                    card(
                        None,
                        chart(
                            "agg-discoveries",
                            figures.discovery_popularity(bought),
                            None if bought else "No discovery has been bought in this selection yet.",
                        ),
                        className="span-2",
                    ),
                ],
                className="grid-2",
            ),
        ]
    )


def trend_chart(ctx: Context, visitor: Visitor, metric: str, tournament: str | None) -> Any:
    if metric not in METRICS:
        return empty("Choose a metric.")
    if not tournament:
        return empty("Choose a tournament to see how this metric moved over its rounds.")
    name = ctx.data.tournament_names(visitor).get(tournament, "this tournament")
    kind = next((t.get("game") for t in ctx.data.tournaments(visitor) if t["tournament_id"] == tournament), None)
    if kind != DEFAULT_KIND:  # the metrics are one game's; another game's tournament has none of them
        return empty(
            f"{name} is not a {GAMES[DEFAULT_KIND].title} tournament: these metrics are {GAMES[DEFAULT_KIND].title}'s."
        )
    rows = ctx.data.trend(visitor, metric, tournament)
    if not rows:
        return empty(f"{name} has no finished games yet.")
    return chart("agg-trend-graph", figures.trend(rows, metric, METRICS[metric][2], name))
