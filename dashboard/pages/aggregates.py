"""The field as a whole, for one game: win rate by seat per table size (and by each of the game's seat
dimensions), scores and lengths, each per-round metric, each breakdown of the game's catalogue, and any
tendency's trend over a tournament's rounds. Drawn from the catalogue (``service.queries``), whatever the game.

Every figure is over finished games (for anyone but an organiser, the breakdowns too: ``Data`` decides)."""

from __future__ import annotations

from typing import Any

import dash
from dash import Input, Output, html

from dashboard import figures
from dashboard.access import Visitor, require_lists
from dashboard.components import card, chart, dropdown, empty, field
from dashboard.context import Context
from dashboard.format import tournament_label
from dashboard.games import analysed_kinds, renderer
from domain.games import GAMES
from service.queries import breakdowns, dimensions, metrics

# The game the page opens on: the first registered game with analytics (any game can be chosen).
DEFAULT_KIND = next(iter(analysed_kinds()), next(iter(GAMES)))
WIN_RATE = "win_rate"  # every game has it (the common columns' won)

NO_GAMES = "No finished games in this selection yet."


def _metric_options(kind: str) -> list[dict[str, Any]]:
    return [{"label": label, "value": m} for m, label in metrics(kind).items()]


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, params: dict[str, str]) -> html.Div:
    kind = str(params["game"]) if params.get("game") in GAMES else DEFAULT_KIND
    tournaments = ctx.data.tournaments(visitor)
    options = [{"label": tournament_label(t), "value": t["tournament_id"]} for t in tournaments]
    # The trend's metrics are the chosen game's: it offers that game's tournaments only.
    analysed = [t for t in tournaments if t.get("game") == kind]
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
                                kind,
                                clearable=False,
                            ),
                            "12rem",
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
                            dropdown("agg-metric", _metric_options(kind), WIN_RATE, clearable=False),
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
        return aggregate_charts(ctx, visitor, kind if kind in GAMES else DEFAULT_KIND, tournament)

    @app.callback(
        Output("agg-metric", "options"),
        Output("agg-trend-tournament", "options"),
        Input("agg-kind", "value"),
    )
    def trend_choices(kind: str | None) -> Any:
        visitor = ctx.visitor()
        require_lists(visitor)
        chosen = kind if kind in GAMES else DEFAULT_KIND
        tournaments = [t for t in ctx.data.tournaments(visitor) if t.get("game") == chosen]
        return _metric_options(chosen), [
            {"label": tournament_label(t), "value": t["tournament_id"]} for t in tournaments
        ]

    @app.callback(Output("agg-trend", "children"), Input("agg-metric", "value"), Input("agg-trend-tournament", "value"))
    def trend(metric: str | None, tournament: str | None) -> Any:
        visitor = ctx.visitor()
        require_lists(visitor)
        return trend_chart(ctx, visitor, metric or WIN_RATE, tournament)


def aggregate_charts(ctx: Context, visitor: Visitor, kind: str, tournament: str | None) -> Any:
    data = ctx.data
    title = GAMES[kind].title
    max_rounds = renderer(kind).max_rounds()
    seats = data.by_dimension(visitor, kind, WIN_RATE, "seat", tournament)
    spread = data.distributions(visitor, kind, tournament)
    if not seats and not spread["score"]:
        return empty(
            f"No finished {title} games in this selection yet. Finished games appear here once the projections "
            "have caught up.",
            id="agg-empty",
        )
    games = sum(int(r["n"]) for r in spread["moves"])
    charts: list[Any] = [
        card(None, chart("agg-seats", figures.by_dimension(seats, "Win rate by seat (per player count)", "seat"))),
    ]
    for name, d in dimensions(kind).items():
        if d.grain != "seat" or name == "seat":
            continue
        rows = data.by_dimension(visitor, kind, WIN_RATE, name, tournament)
        charts.append(
            card(
                None,
                chart(
                    f"agg-by-{name}",
                    figures.by_dimension(rows, f"Win rate by {d.label} (per player count)", name, d.label),
                    None if rows else NO_GAMES,
                ),
            )
        )
    charts += [
        card(
            None,
            chart("agg-score", figures.counts_bar(spread["score"], "Final score (every seat of every game)", "score")),
        ),
        card(None, chart("agg-length", figures.histogram(spread["moves"], "Game length", "moves per game"))),
        card(None, chart("agg-rounds", figures.counts_bar(spread["rounds"], "Rounds per game", "last round"))),
    ]
    for metric, label in metrics(kind, ("round",)).items():
        rows = data.per_round(visitor, kind, metric, None)
        charts.append(
            card(
                None,
                chart(
                    f"agg-round-{metric}",
                    figures.by_round(
                        [("the field", rows)], f"{label[:1].upper()}{label[1:]}, per round", label, max_rounds
                    ),
                    None if rows else NO_GAMES,
                ),
            )
        )
    for name, spec in breakdowns(kind).items():
        rows = data.breakdown(visitor, kind, name, None, tournament)
        charts.append(
            card(
                None,
                chart(
                    f"agg-breakdown-{name}",
                    figures.counts(rows, spec.label, spec.by, spec.average, max_rounds),
                    None if rows else NO_GAMES,
                ),
            )
        )
    return html.Div(
        [
            html.P(
                f"Over {games} finished {title} game{'s' if games != 1 else ''}.", className="quiet", id="agg-summary"
            ),
            html.Div(charts, className="grid-2"),
        ]
    )


def trend_chart(ctx: Context, visitor: Visitor, metric: str, tournament: str | None) -> Any:
    if not tournament:
        return empty("Choose a tournament to see how this metric moved over its rounds.")
    name = ctx.data.tournament_names(visitor).get(tournament, "this tournament")
    kind = next((t.get("game") for t in ctx.data.tournaments(visitor) if t["tournament_id"] == tournament), None)
    if kind not in GAMES:
        return empty(f"{name} has no finished games yet.")
    catalogued = metrics(kind)
    if metric not in catalogued:  # a metric of another game, chosen before the tournament changed
        return empty(f"{name} is a {GAMES[kind].title} tournament: choose one of {GAMES[kind].title}'s metrics.")
    rows = ctx.data.trend(visitor, metric, tournament)
    if not rows:
        return empty(f"{name} has no finished games yet.")
    return chart("agg-trend-graph", figures.trend(rows, metric, catalogued[metric], name))
