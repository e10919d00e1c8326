"""The field as a whole, for one game: win rate by seat per table size (and by each of the game's seat
dimensions), scores and lengths, each per-round metric, each breakdown of the game's catalogue, and any
tendency's trend over a tournament's rounds. Drawn from the catalogue (``service.reading.catalogue``), whatever
the game.

Every figure is over finished games, for everyone: the heading counts them, and each chart counts what it says."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import dash
from dash import ClientsideFunction, Input, Output, State, dcc, html

from dashboard import count_columns, figures, lazy_charts, tendency_bars, uncertainty
from dashboard.access import Visitor, require_lists
from dashboard.components import card, dropdown, empty, field
from dashboard.context import Context
from dashboard.early import visitor_key
from dashboard.format import tournament_label
from dashboard.games import analysed_kinds, renderer, value_text
from dashboard.pages.players import slug
from domain.games import GAMES
from service.reading.catalogue import breakdowns, dimensions_of, groups, stacked, trend_metrics
from service.reading.results import Count, TournamentListed

# The game the page opens on: the first registered game with analytics (any game can be chosen).
DEFAULT_KIND = next(iter(analysed_kinds()), next(iter(GAMES)))
WIN_RATE = "win_rate"  # every game has it (the common columns' won)

NO_GAMES = "No finished games in this selection yet."


def _metric_options(kind: str) -> list[dict[str, Any]]:
    return [{"label": label, "value": m} for m, label in trend_metrics(kind).items()]


def _first_metric(kind: str) -> str | None:
    return next(iter(trend_metrics(kind)), None)


def trend_tournaments(
    tournaments: list[TournamentListed], kind: str, chosen: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """The trend's tournament options and the one it opens on: the chosen game's tournaments (the page's
    tournament alone when one is chosen), opening on the page's tournament, else the newest with a finished
    game (the list is newest first), else the newest."""
    analysed = [t for t in tournaments if t.get("game") == kind]
    if chosen:
        analysed = [t for t in analysed if t["tournament_id"] == chosen]
    options = [{"label": tournament_label(t), "value": t["tournament_id"]} for t in analysed]
    played = [t for t in analysed if t.get("finished")]
    opened = next(iter(played or analysed), None)
    return options, None if opened is None else str(opened["tournament_id"])


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, params: dict[str, str]) -> html.Div:
    kind = str(params["game"]) if params.get("game") in GAMES else DEFAULT_KIND
    tournaments = ctx.data.tournaments(visitor)
    options = [{"label": tournament_label(t), "value": t["tournament_id"]} for t in tournaments]
    # The trend's metrics are the chosen game's: it offers that game's tournaments only.
    trend_options, opened = trend_tournaments(tournaments, kind, None)
    # The content callback will be asked for this game as soon as the page mounts: begun now, while it does.
    ctx.early.begin(*content_answer(ctx, visitor, kind, None))
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
                            dropdown("agg-metric", _metric_options(kind), _first_metric(kind), clearable=False),
                            "20rem",
                        ),
                        field(
                            "Tournament",
                            dropdown(
                                "agg-trend-tournament",
                                trend_options,
                                opened,
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
            # (whose charts the browser's ``digsite.lazyCharts`` watches: the page's, the trend's)
            dcc.Store(id="agg-charts-watched"),
            dcc.Store(id="agg-bars-filled"),  # (what the browser's ``digsite.tendencyBars`` last filled)
            dcc.Store(id="agg-trend-charts-watched"),
        ]
    )


def register(app: dash.Dash, ctx: Context) -> None:
    lazy_charts.register(app, "agg-charts", "agg-charts-watched")
    lazy_charts.register(app, "agg-trend-charts", "agg-trend-charts-watched")
    app.clientside_callback(
        ClientsideFunction("digsite", "tendencyBars"), Output("agg-bars-filled", "data"), Input("agg-bars", "data")
    )

    @app.callback(Output("agg-content", "children"), Input("agg-kind", "value"), Input("agg-tournament", "value"))
    def content(kind: str | None, tournament: str | None) -> Any:
        return ctx.early.take(*content_answer(ctx, ctx.visitor(), kind, tournament))

    @app.callback(
        Output("agg-metric", "options"),
        Output("agg-metric", "value"),
        Output("agg-trend-tournament", "options"),
        Output("agg-trend-tournament", "value"),
        Input("agg-kind", "value"),
        Input("agg-tournament", "value"),
        State("agg-metric", "value"),
        prevent_initial_call=True,
    )
    def trend_choices(kind: str | None, tournament: str | None, metric: str | None) -> Any:
        """The trend follows the page: the chosen game's metrics and tournaments, the page's tournament."""
        visitor = ctx.visitor()
        require_lists(visitor)
        chosen = kind if kind in GAMES else DEFAULT_KIND
        options, opened = trend_tournaments(ctx.data.tournaments(visitor), chosen, tournament)
        metric = metric if metric in trend_metrics(chosen) else _first_metric(chosen)
        return _metric_options(chosen), metric, options, opened

    @app.callback(Output("agg-trend", "children"), Input("agg-metric", "value"), Input("agg-trend-tournament", "value"))
    def trend(metric: str | None, tournament: str | None) -> Any:
        visitor = ctx.visitor()
        require_lists(visitor)
        return trend_chart(ctx, visitor, metric, tournament)


def content_answer(
    ctx: Context, visitor: Visitor, kind: str | None, tournament: str | None
) -> tuple[Hashable, Callable[[], Any]]:
    """The content callback's answer for ``visitor``, this game and tournament, and the key it is begun early
    under (``dashboard.early``): one function, whether the page's layout begins it or the callback computes it."""
    chosen = kind if kind in GAMES else DEFAULT_KIND

    def answer() -> Any:
        require_lists(visitor)  # 403 when spectator mode is off and the visitor is no organiser
        return aggregate_charts(ctx, visitor, chosen, tournament)

    return ("aggregates", visitor_key(visitor), chosen, tournament), answer


def one_value_sentence(title: str, value: Any, counted: float) -> str:
    """Why a chart of one category is not drawn: it compares nothing."""
    return (
        f"{title}: not drawn. "
        + (f"All {counted:g} counted are" if counted != 1 else "The one counted is")
        + f" \u201c{value}\u201d, so there is nothing to compare "
        "(choose another tournament, or wait for more games)."
    )


def rate_chart(lazy: lazy_charts.Lazy, chart_id: str, figure: Any, empty_text: str | None = None) -> list[Any]:
    """A chart of rates, and under it how to read its whiskers and pale bars (``dashboard.uncertainty``)."""
    drawn = lazy.chart(chart_id, figure, empty_text)
    if empty_text is not None:
        return [drawn]
    return [drawn, html.P(uncertainty.NOTE, className="quiet chart-note")]


def aggregate_charts(ctx: Context, visitor: Visitor, kind: str, tournament: str | None) -> Any:
    """Every chart over the finished games only, for an organiser too: the page's heading counts those, and
    every chart counts what the heading says (games in play are on the games list)."""
    data = ctx.data
    title = GAMES[kind].title
    round_name = renderer(kind).round_name
    words = value_text(kind)
    seats = data.by_dimension(visitor, kind, WIN_RATE, "seat", tournament)
    spread = data.distributions(visitor, kind, tournament)
    if not seats and not spread["score"]:
        return empty(
            f"No finished {title} games in this selection yet. Finished games appear here once the projections "
            "have caught up.",
            id="agg-empty",
        )
    games = sum(int(r["n"]) for r in spread["moves"])
    lazy = lazy_charts.Lazy("agg-charts")  # each drawn when scrolled to
    # the win rates by seat (and by each seat dimension): HTML bars, sent as text (``tendency_bars``), on the
    # first screen without Plotly
    rates: dict[str, tuple[str, list[Any]]] = {}
    reasons: dict[str, str] = {}  # (a chart not drawn: why)
    order: list[str] = []
    for name, label, flag in [("seat", "seat", False)] + [
        (n, d.label, d.flag) for n, d in dimensions_of(kind).items() if d.grain == "seat" and n != "seat"
    ]:
        rows = seats if name == "seat" else data.by_dimension(visitor, kind, WIN_RATE, name, tournament)
        heading = "Win rate by seat (per player count)" if name == "seat" else f"Win rate by {label} (per player count)"
        chart_id = "agg-seats" if name == "seat" else f"agg-by-{name}"
        order.append(chart_id)
        labels = figures.dimension_labels(rows, name, label, flag, words)
        only = figures.one_value(labels)
        counted = sum(r["n"] or 0 for r in rows if r["grp"] is not None)
        if not any(r["grp"] is not None for r in rows):
            reasons[chart_id] = NO_GAMES
        elif only is not None:
            reasons[chart_id] = one_value_sentence(heading, only, counted)
        else:
            kept = [r for r in rows if r["grp"] is not None]  # (as ``dimension_labels`` keeps them)
            rates[chart_id] = (heading, tendency_bars.rates_by_size(heading, kept, labels))
    # the final scores and game lengths: HTML columns too (``count_columns``), sent with the win rates, so the
    # first screen needs no Plotly
    score_title, length_title = "Final score (every seat of every game)", "Game length"
    rates["agg-score"] = (
        score_title,
        count_columns.drawn(score_title, count_columns.score_columns(spread["score"]), "score", "seat results"),
    )
    rates["agg-length"] = (
        length_title,
        count_columns.drawn(
            length_title, count_columns.bin_columns(spread["moves"]), "moves per game", "games", figures.COLOURS[3]
        ),
    )
    bars, boxes = tendency_bars.boxed("agg-bars", rates)
    for chart_id in ("agg-score", "agg-length"):  # (their height before filled: the charts below do not move)
        boxes[chart_id].style = {"minHeight": f"{count_columns.BOX_HEIGHT}px"}
    note = html.P(f"{uncertainty.NOTE} {tendency_bars.SCALE_NOTE}", className="quiet chart-note")
    charts: list[Any] = [
        card(None, html.Div(reasons[chart_id], className="empty", id=chart_id))
        if chart_id in reasons
        else card(None, boxes[chart_id], note)
        for chart_id in order  # (the seat first, then the game's dimensions in its catalogue's order)
    ]
    charts += [
        # each the page's whole width: a column per score is readable there, and the per-round Plotly charts
        # start below the first screen (with the lazy charts' margin), so it loads no Plotly
        card(None, boxes["agg-score"], className="span-2"),
        card(None, boxes["agg-length"], className="span-2"),
        card(None, _counted_chart(lazy, "agg-rounds", "Rounds per game", spread["rounds"], "last round", round_name)),
    ]
    for group, members in groups(kind, ("round",)).items():
        if stacked(members):
            parts = [
                (m.label, data.per_round(visitor, kind, m.name, None, tournament=tournament, in_play=False))
                for m in members
            ]
            charts.append(
                card(
                    None,
                    lazy.chart(
                        f"agg-stack-{slug(group)}",
                        figures.stacked_by_round([("the field", parts)], group, round_name),
                        None if any(rows for _, rows in parts) else NO_GAMES,
                    ),
                )
            )
            continue
        for m in members:
            by_round = data.per_round(visitor, kind, m.name, None, tournament=tournament, in_play=False)
            figure = figures.by_round(
                [("the field", by_round)],
                f"{m.label[:1].upper()}{m.label[1:]}, per round",
                m.label,
                round_name,
                m.share,
            )
            reason = None if by_round else NO_GAMES
            drawn = (
                rate_chart(lazy, f"agg-round-{m.name}", figure, reason)
                if m.share
                else [lazy.chart(f"agg-round-{m.name}", figure, reason)]
            )
            charts.append(card(None, *drawn))
    for name, spec in breakdowns(kind).items():
        combinations = data.breakdown(visitor, kind, name, None, tournament, in_play=False)
        heading = f"{spec.label[:1].upper()}{spec.label[1:]}"
        only = figures.one_value(figures.group_labels(combinations, spec.by, round_name, words))
        counted = sum(r["n"] for r in combinations if all(r[c] is not None for c in spec.by))
        reason = NO_GAMES if not counted else one_value_sentence(heading, only, counted) if only is not None else None
        charts.append(
            card(
                None,
                lazy.chart(
                    f"agg-breakdown-{name}",
                    None
                    if reason
                    else figures.counts(combinations, spec.label, spec.by, spec.average, round_name, words),
                    reason,
                ),
            )
        )
    return html.Div(
        [
            lazy.store(),
            bars,
            html.P(
                f"Over {games} finished {title} game{'s' if games != 1 else ''}: every chart below counts these "
                "only (games in play are left out until they end).",
                className="quiet",
                id="agg-summary",
            ),
            html.Div(charts, className="grid-2"),
        ]
    )


def _counted_chart(
    lazy: lazy_charts.Lazy,
    chart_id: str,
    heading: str,
    rows: list[Count],
    axis: str,
    name: Callable[[int], str],
) -> Any:
    """Counts of a value, or why not drawn: no rows, or one value only (``name``: the value in words)."""
    if not rows:
        return lazy.chart(chart_id, None, NO_GAMES)
    only = figures.one_value([r["value"] for r in rows])
    if only is not None:
        return lazy.chart(
            chart_id, None, one_value_sentence(heading, f"{axis}: {name(int(only))}", sum(r["n"] for r in rows))
        )
    # (the values in the game's words: a last round may have a name of its own, as on the per-round charts)
    return lazy.chart(
        chart_id, figures.counts_bar(rows, heading, axis, {r["value"]: name(int(r["value"])) for r in rows})
    )


def trend_chart(ctx: Context, visitor: Visitor, metric: str | None, tournament: str | None) -> Any:
    if not tournament:
        return empty("Choose a tournament to see how a tendency moved over its rounds.")
    name = ctx.data.tournament_names(visitor).get(tournament, "this tournament")
    kind = next((t.get("game") for t in ctx.data.tournaments(visitor) if t["tournament_id"] == tournament), None)
    if kind not in GAMES:
        return empty(f"{name}: no finished games yet.", id="agg-trend-empty")
    catalogued = trend_metrics(kind)
    if metric not in catalogued:  # a metric of another game, chosen before the tournament changed
        return empty(f"{name} is a {GAMES[kind].title} tournament: choose one of {GAMES[kind].title}'s metrics.")
    rows = ctx.data.trend(visitor, metric, tournament)
    if not rows:
        return empty(f"{name}: no finished games yet.", id="agg-trend-empty")
    share = catalogue_share(kind, metric)
    lazy = lazy_charts.Lazy("agg-trend-charts")  # (below the page's other charts: drawn when scrolled to)
    drawn = lazy.chart("agg-trend-graph", figures.trend(rows, share, catalogued[metric], name))
    return html.Div([lazy.store(), drawn])


def catalogue_share(kind: str, metric: str) -> bool:
    """Whether the game's catalogue says the metric is a share (a percentage)."""
    return any(m.share for members in groups(kind).values() for m in members if m.name == metric)
