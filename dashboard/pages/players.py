"""One player's tendencies in one game against the field (or against another player), with sample sizes.

Everything drawn comes from the chosen game's analytics catalogue (``domain.metrics``, answered by
``service.reading.catalogue``): its seat- and game-grain metrics as bars and a table, each per-round metric as a line,
each breakdown of a table with a seat as bars; the comparison may keep to one table size. Every figure is
computed from finished games only, for an organiser too: the summary counts those, and every chart counts what
it says. Every rate carries its Wilson interval and n (``dashboard.uncertainty``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import Any

import dash
from dash import ClientsideFunction, Input, Output, dcc, html

from dashboard import accuracy, figures, lazy_charts, player_search, tendency_bars, uncertainty
from dashboard.access import Visitor, require_lists
from dashboard.components import card, dropdown, empty, field
from dashboard.context import Context
from dashboard.early import visitor_key
from dashboard.games import analysed_kinds, renderer, value_text
from domain.games import GAMES
from service.reading.catalogue import breakdowns, groups, per_player_breakdowns, stacked
from service.reading.results import PlayerRow, Tendencies, Tendency

# The game the page opens on: the first registered game with analytics (any game can be chosen).
DEFAULT_KIND = next(iter(analysed_kinds()), next(iter(GAMES)))

NO_DATA = "No finished games with this data yet."


def game_options() -> list[dict[str, Any]]:
    return [{"label": g.title, "value": k} for k, g in GAMES.items()]


def size_options() -> list[dict[str, Any]]:
    counts = sorted({n for g in GAMES.values() for n in range(g.schemas.seats.low, g.schemas.seats.high + 1)})
    return [{"label": f"{n} player{'s' if n != 1 else ''}", "value": n} for n in counts]


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, params: dict[str, str]) -> html.Div:
    # The players in the address only: the dropdowns find others as a name is typed (``player_search``).
    options = player_search.shown(ctx, visitor, (params.get("player"), params.get("other")))
    known = {o["value"] for o in options}
    player = params.get("player") if params.get("player") in known else None
    other = params.get("other") if params.get("other") in known else None
    kind = str(params["game"]) if params.get("game") in GAMES else DEFAULT_KIND
    sizes = {o["value"] for o in size_options()}
    size = int(params["size"]) if params.get("size", "").isdigit() and int(params["size"]) in sizes else None
    # The content callback will be asked for these choices as soon as the page mounts: begun now, while it does.
    ctx.early.begin(*content_answer(ctx, visitor, player, other, kind, size))
    return html.Div(
        [
            html.H2("Players"),
            dcc.Store(id="players-search"),
            card(
                None,
                html.Div(
                    [
                        field("Game", dropdown("players-kind", game_options(), kind, clearable=False), "12rem"),
                        field(
                            "Player",
                            dropdown("players-player", options, player, placeholder=player_search.PROMPT),
                            "22rem",
                        ),
                        field(
                            "Compare with",
                            dropdown("players-other", options, other, placeholder="the field (everyone)"),
                            "22rem",
                        ),
                        field("Table size", dropdown("players-size", size_options(), size), "9rem"),
                    ],
                    className="filters",
                ),
            ),
            html.Div(id="players-content"),
            dcc.Store(id="players-bars-filled"),  # (what the browser's ``digsite.tendencyBars`` last filled)
            dcc.Store(id="players-charts-watched"),  # (whose charts the browser's ``digsite.lazyCharts`` watches)
        ]
    )


def register(app: dash.Dash, ctx: Context) -> None:
    for picker in ("players-player", "players-other"):
        player_search.register(app, ctx, picker)
    app.clientside_callback(
        ClientsideFunction("digsite", "playersAddress"),  # the choices into the address
        Output("players-search", "data"),
        Input("players-player", "value"),
        Input("players-other", "value"),
        Input("players-kind", "value"),
        Input("players-size", "value"),
    )

    app.clientside_callback(
        ClientsideFunction("digsite", "tendencyBars"),
        Output("players-bars-filled", "data"),
        Input("players-bars", "data"),
    )
    lazy_charts.register(app, "players-charts", "players-charts-watched")

    @app.callback(
        Output("players-content", "children"),
        Input("players-player", "value"),
        Input("players-other", "value"),
        Input("players-kind", "value"),
        Input("players-size", "value"),
    )
    def content(player: str | None, other: str | None, kind: str | None, size: int | None) -> Any:
        return ctx.early.take(*content_answer(ctx, ctx.visitor(), player, other, kind, size))


def content_answer(
    ctx: Context, visitor: Visitor, player: str | None, other: str | None, kind: str | None, size: int | None
) -> tuple[Hashable, Callable[[], Any]]:
    """The content callback's answer for ``visitor`` and these choices, and the key it is begun early under
    (``dashboard.early``): one function, whether the page's layout begins it or the callback computes it."""
    chosen = kind if kind in GAMES else DEFAULT_KIND
    size = size if isinstance(size, int) else None

    def answer() -> Any:
        require_lists(visitor)  # before anything, even the sentences: 403 when spectator mode is off
        return player_page(ctx, visitor, player, other, chosen, size)

    return ("players", visitor_key(visitor), player, other, chosen, size), answer


def slug(text: str) -> str:
    """A group's name as a component id part: "Action mix per round" -> "action-mix-per-round"."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def sizes_text(sizes: tuple[int, ...]) -> str:
    return " and ".join(", ".join(str(n) for n in sizes).rsplit(", ", 1))


def player_page(
    ctx: Context, visitor: Visitor, player: str | None, other: str | None, kind: str, size: int | None = None
) -> Any:
    data = ctx.data
    if not player:
        if not data.find_players(visitor, ""):
            return empty("No players yet: players appear here once games are played and projected.")
        return empty(
            "Type a player's name under Player to see their tendencies against the field, or compare two players."
        )
    # Only the players shown: the list of every player grows with the store.
    asked = data.players(visitor, ids=[p for p in (player, other) if p])
    names = {str(p["player_id"]): p["name"] for p in asked}
    name = names.get(player, "this player")
    other_name = names.get(other, "the other player") if other else "the field"
    if other == player:
        other, other_name = None, "the field"
    title = GAMES[kind].title
    # Like with like: whoever the player is compared with is counted at the player's own table sizes only
    # (a win rate at 3 is not one at 5), or at the size chosen.
    sizes: tuple[int, ...] = (size,) if size else data.table_sizes(visitor, kind, player)
    compared: int | tuple[int, ...] = size if size else sizes
    mine = data.tendencies(visitor, kind, player, size)
    theirs = data.tendencies(visitor, kind, other, compared)
    record = next((p for p in asked if str(p["player_id"]) == player), None)
    summary = _summary(record, name, mine, other_name, theirs, title, sizes)
    if not mine["games"]:
        where = f"a {title} game" + (f" at a table of {size}" if size else "")
        return html.Div([summary, empty(f"{name} has not finished {where} yet, so there are no tendencies to show.")])
    series = ((name, player), (other_name, other))
    round_name = renderer(kind).round_name
    # the tendency groups as HTML bars, sent as text (``tendency_bars``: 14 groups on an Arnak player's page)
    specs = {
        f"players-group-{slug(group)}": (group, [m.name for m in members], ((name, mine), (other_name, theirs)))
        for group, members in groups(kind).items()
    }
    bars, boxes = tendency_bars.drawn("players-bars", specs)
    sections = [
        card(
            None,
            boxes[f"players-group-{slug(group)}"],
            *(
                [html.P(f"{uncertainty.NOTE} {tendency_bars.SCALE_NOTE}", className="quiet chart-note")]
                if any(m.share for m in members)
                else []
            ),
        )
        for group, members in groups(kind).items()
    ]
    # the per-round and breakdown charts, all below the first screen: drawn when scrolled to (``lazy_charts``)
    lazy = lazy_charts.Lazy("players-charts")
    charts = []
    for group, members in groups(kind, ("round",)).items():
        if stacked(members):
            parts = [
                (who, [(m.label, data.per_round(visitor, kind, m.name, pid, compared if pid != player else size,
                                               in_play=False))
                       for m in members])
                for who, pid in series
            ]  # fmt: skip
            charts.append(
                card(
                    None,
                    lazy.chart(
                        f"players-stack-{slug(group)}",
                        figures.stacked_by_round(parts, group, round_name),
                        None if any(rows for _, rows in parts[0][1]) else NO_DATA,
                    ),
                )
            )
            continue
        for m in members:
            rows = [
                (who, data.per_round(visitor, kind, m.name, pid, compared if pid != player else size, in_play=False))
                for who, pid in series
            ]
            charts.append(
                card(
                    None,
                    lazy.chart(
                        f"players-round-{m.name}",
                        figures.by_round(
                            rows, f"{m.label[:1].upper()}{m.label[1:]}, per round", m.label, round_name, m.share
                        ),
                        None if rows[0][1] else NO_DATA,
                    ),
                )
            )
    for name_, spec in breakdowns(kind).items():
        if name_ not in per_player_breakdowns(kind):
            continue
        counted = [
            (
                who,
                data.breakdown(visitor, kind, name_, pid, n_players=compared if pid != player else size, in_play=False),
            )
            for who, pid in series
        ]
        charts.append(
            card(
                None,
                lazy.chart(
                    f"players-breakdown-{name_}",
                    figures.breakdown(counted, spec.label, spec.by, round_name, value_text(kind)),
                    None if counted[0][1] else f"{name} has none of these yet.",
                ),
            )
        )
    # the player's accuracy in judged games, below the first screen too (``dashboard.accuracy``)
    judged = accuracy.player_card(data, visitor, kind, player, name, size, lazy)
    return html.Div(
        [
            bars,
            lazy.store(),
            summary,
            html.Div(sections, className="grid-2"),
            card("Tendencies with sample sizes", tendency_table(mine, theirs, name, other_name)),
            judged,
            html.Div(charts, className="grid-2"),
        ],
        id="players-loaded",
    )


def _summary(
    record: PlayerRow | None,
    name: str,
    mine: Tendencies,
    other_name: str,
    theirs: Tendencies,
    title: str,
    sizes: tuple[int, ...],
) -> html.Div:
    games = mine["games"]
    win_rate = mine["metrics"].get("win_rate")
    wins = None if win_rate is None else win_rate["value"]
    table = f" at tables of {sizes_text(sizes)}" if sizes else ""
    lines: list[Any] = [
        html.Strong(name),
        f": {games} finished {title} game{'s' if games != 1 else ''}{table}",
        f", won {rate_text(wins, games, 'games')}" if games and wins is not None else "",
        f". Compared with {other_name}: {theirs['games']} player-game{'s' if theirs['games'] != 1 else ''}{table}.",
        html.Div(
            "Like with like: the comparison counts only games at the table sizes this player played"
            + (f" ({sizes_text(sizes)} players)" if sizes else "")
            + "; n is what each figure is over.",
            className="quiet",
            id="players-like",
        ),
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


def tendency_table(mine: Tendencies, theirs: Tendencies, name: str, other_name: str) -> html.Table:
    head = html.Tr([html.Th("Tendency"), html.Th(name), html.Th("n"), html.Th(other_name), html.Th("n")])
    # (a share's cell: its value and 95% Wilson interval; an n under uncertainty.TOO_FEW says "too few")
    rows = []
    for metric, a in mine["metrics"].items():
        b = theirs["metrics"][metric]
        rows.append(
            html.Tr(
                [
                    html.Td(a["label"]),
                    html.Td(_value_cell(a), className="num strong"),
                    html.Td(_n_cell(a), className="num quiet"),
                    html.Td(_value_cell(b), className="num"),
                    html.Td(_n_cell(b), className="num quiet"),
                ]
            )
        )
    return html.Table([html.Thead(head), html.Tbody(rows)], className="grid compact", id="players-table")


def rate_text(value: float | None, n: float | int, unit: str = "") -> str:
    """A rate as people should read it: "50% (15-85%, n=4, too few games)" (``dashboard.uncertainty``)."""
    interval = uncertainty.interval_text(value, n)
    flag = f", too few {unit}".rstrip() if uncertainty.too_few(n) else ""
    return f"{figures.tendency_text(value, True)} ({interval + ', ' if interval else ''}n={n:g}{flag})"


def _value_cell(metric: Tendency) -> str:
    text = figures.tendency_text(metric["value"], metric["share"])
    interval = uncertainty.interval_text(metric["value"], metric["n"]) if metric["share"] else ""
    return f"{text} ({interval})" if interval else text


def _n_cell(metric: Tendency) -> str:
    return f"{metric['n']:g}" + (", too few" if metric["share"] and uncertainty.too_few(metric["n"]) else "")
