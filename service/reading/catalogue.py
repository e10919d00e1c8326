"""A game's analytics catalogue (``domain.metrics``) as SQL over the read models, for ``service.reading.analytics``.

Every figure is a ratio of sums over rows at the metric's grain; this module says which tables hold those
rows and columns, from the catalogue and the game's fact tables alone (``service.reading.projections.facts``):

* seat grain: ``rm_player_games pg`` (the common columns), joined with the game's tables keyed by the seat
  alone and by nothing (one row per game);
* game grain: ``rm_games g``, joined with the game's tables keyed by nothing;
* round grain: the game's ``rounds`` table, joined with ``pg`` for whose seat it was.

A column is looked for in that order of tables (the common ones first), so a seat's ``showdown`` (dealt into
it) and a game's (it reached one) can share a name: a seat-grain metric reads the seat's, a game-grain one the
game's. Names reach SQL only after checking they are plain identifiers of the catalogue's own tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.games import GAMES
from domain.metrics import COMMON_COLUMNS, ROUND_TABLE, Breakdown, Dimension, FactTable, Metric
from service.reading.projections.facts import game_tables

IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")
SEAT_COLUMNS = (*COMMON_COLUMNS, "seat", "n_players")  # what rm_player_games has for every game
GAME_COLUMNS = ("moves", "round", "n_players")  # what rm_games has for every game
CORE_DIMENSIONS = {
    "seat": Dimension("seat", "seat", "seat"),
    "n_players": Dimension("n_players", "players at the table", "game"),
}


class UnknownName(ValueError):
    """A metric, breakdown or dimension the game's catalogue does not have."""


@dataclass(frozen=True)
class Source:
    """A table a query reads, its alias and how it joins the query's main rows."""

    alias: str
    table: str  # stored name, without the schema prefix
    on: str  # the join condition ('' for the main table)
    columns: frozenset[str]


def _check(name: str) -> str:
    if not IDENTIFIER.match(name):
        raise ValueError(f"not a column name: {name!r}")
    return name


def _sources(kind: str, grain: str) -> list[Source]:
    """The tables rows of ``grain`` may read, the main one first, in the order columns are looked for."""
    tables = game_tables(kind)
    per_seat = [t for t in tables.values() if not t.append and t.table.key_names() == ("seat",)]
    per_game = [t for t in tables.values() if not t.append and t.table.key_names() == ()]
    found: list[Source] = []
    if grain == "round":
        rounds = tables.get(ROUND_TABLE)
        if rounds is None:
            return []
        found.append(Source("r", rounds.name, "", frozenset(rounds.table.column_names())))
        found.append(
            Source("pg", "rm_player_games", "pg.game_id = r.game_id AND pg.seat = r.seat", frozenset(SEAT_COLUMNS))
        )
        return found
    if grain == "seat":
        found.append(Source("pg", "rm_player_games", "", frozenset(SEAT_COLUMNS)))
        for i, t in enumerate(per_seat):
            on = f"s{i}.game_id = pg.game_id AND s{i}.seat = pg.seat"
            found.append(Source(f"s{i}", t.name, on, frozenset(t.table.column_names())))
        main = "pg"
    else:
        found.append(Source("g", "rm_games", "", frozenset(GAME_COLUMNS)))
        main = "g"
    for i, t in enumerate(per_game):
        found.append(Source(f"f{i}", t.name, f"f{i}.game_id = {main}.game_id", frozenset(t.table.column_names())))
    return found


@dataclass(frozen=True)
class Plan:
    """The FROM clause (main table and the joins the asked columns need) and each column's qualified name."""

    sources: list[Source]
    used: list[Source]
    qualified: dict[str, str]

    def from_clause(self, prefix: str) -> str:
        main, *joins = self.used
        text = f"{prefix}{main.table} {main.alias}"
        for s in joins:
            kind = "JOIN" if s.alias == "pg" else "LEFT JOIN"  # a game's fact row may be missing: count it as 0
            text += f" {kind} {prefix}{s.table} {s.alias} ON {s.on}"
        return text


def plan(
    kind: str, grain: str, columns: Iterable[str], always: Sequence[str] = (), of_game: Iterable[str] = ()
) -> Plan:
    """Where each of ``columns`` is read at ``grain`` (the first table holding it); ``always``: aliases joined
    whatever the columns (``pg`` for a round query filtered by player); ``of_game``: columns that are facts of
    the game (a game-grain dimension), looked for in the game's per-game tables first."""
    sources = _sources(kind, grain)
    if not sources:
        raise UnknownName(f"{kind} records nothing per round")
    games_first = set(of_game)
    qualified: dict[str, str] = {}
    used = {sources[0].alias}
    for column in (*columns, *games_first):
        order = sorted(sources, key=lambda s: not s.alias.startswith("f")) if column in games_first else sources
        holder = next((s for s in order if _check(column) in s.columns), None)
        if holder is None:
            raise UnknownName(f"{kind} has no column {column!r} at grain {grain!r}")
        qualified[column] = f"{holder.alias}.{column}"
        used.add(holder.alias)
    used.update(a for a in always if any(s.alias == a for s in sources))
    return Plan(sources, [s for s in sources if s.alias in used], qualified)


def sums(metric: Metric, qualified: dict[str, str]) -> tuple[str, str]:
    """SQL of the metric's numerator's sum and of its denominator's (its sample size)."""

    def total(columns: tuple[str, ...]) -> str:
        return f"SUM({' * '.join(qualified[c] for c in columns)})" if columns else "COUNT(*)"

    return total(metric.numerator), total(metric.denominator)


def ratio(metric: Metric, qualified: dict[str, str]) -> tuple[str, str]:
    """SQL of the metric's value and of its sample size (the denominator's sum)."""
    num, den = sums(metric, qualified)
    # DOUBLE PRECISION: PostgreSQL's REAL is a 4-byte float; SQLite reads either as its REAL.
    return f"CAST({num} AS DOUBLE PRECISION) / NULLIF({den}, 0)", den


# What every game's common columns tell, offered for every game (a game's own metric of the same name, or of
# the same sums, comes instead): a game without an analytics part still has these.
CORE_METRICS = (
    Metric("win_rate", "games won", ("won",)),
    Metric("place", "finishing place (average)", ("place",)),
    Metric("score", "final score", ("score",)),
    Metric("think_ms", "think time per move (ms)", ("think_ms",), ("moves",)),
)


def analytics_of(kind: str) -> tuple[Sequence[Metric], Sequence[Breakdown], Sequence[Dimension]]:
    """A game's catalogue: its metrics (then the core ones it does not have), breakdowns and dimensions."""
    game = GAMES.get(kind)
    if game is None:
        raise UnknownName(f"unknown game {kind!r}")
    if game.analytics is None:
        return CORE_METRICS, (), ()
    a = game.analytics
    own = list(a.metrics)
    known = {m.name for m in own} | {(m.numerator, m.denominator, m.grain) for m in own}
    core = [m for m in CORE_METRICS if m.name not in known and (m.numerator, m.denominator, m.grain) not in known]
    return (*own, *core), a.breakdowns, a.dimensions


def metric(kind: str, name: str) -> Metric:
    found = next((m for m in analytics_of(kind)[0] if m.name == name), None)
    if found is None:
        raise UnknownName(f"{kind} has no metric {name!r}; choose from {sorted(m.name for m in analytics_of(kind)[0])}")
    return found


def breakdown(kind: str, name: str) -> tuple[Breakdown, FactTable, str]:
    """The breakdown ``name``, its fact table and the table's stored name."""
    found = next((b for b in analytics_of(kind)[1] if b.name == name), None)
    if found is None:
        raise UnknownName(f"{kind} has no breakdown {name!r}")
    stored = game_tables(kind)[found.table]
    return found, stored.table, stored.name


def dimension(kind: str, name: str) -> Dimension:
    found = next((d for d in analytics_of(kind)[2] if d.name == name), None) or CORE_DIMENSIONS.get(name)
    if found is None:
        raise UnknownName(f"{kind} has no dimension {name!r}")
    return found


def dimensions_of(kind: str) -> dict[str, Dimension]:
    """A game's dimensions, by name (the seat and the table size are every game's)."""
    return {**CORE_DIMENSIONS, **{d.name: d for d in analytics_of(kind)[2]}}


# -- what the pages offer of a catalogue ----------------------------------------------------------------------


def metrics(kind: str, grains: tuple[str, ...] = ("seat", "game")) -> dict[str, str]:
    """A game's tendency metrics at these grains (its analytics catalogue), name -> label, in catalogue order.
    A game without analytics has none."""
    return {m.name: m.label for m in analytics_of(kind)[0] if m.grain in grains}


def groups(kind: str, grains: tuple[str, ...] = ("seat", "game")) -> dict[str, list[Metric]]:
    """A game's metrics at these grains by the group they are shown in (``Metric.group``; a metric without one is
    a group of its own, named by its label), groups in the order their first metric comes in the catalogue."""
    found: dict[str, list[Metric]] = {}
    for m in analytics_of(kind)[0]:
        if m.grain in grains:
            found.setdefault(m.group or f"{m.label[:1].upper()}{m.label[1:]}", []).append(m)
    return found


def stacked(group: list[Metric]) -> bool:
    """Whether a group of round-grain metrics is the parts of one whole, round by round: all shares of the same
    denominator (the action mix per round), drawn stacked."""
    return len(group) > 1 and all(m.share and m.denominator == group[0].denominator for m in group)


def trend_metrics(kind: str) -> dict[str, str]:
    """The metrics worth following over a tournament's rounds: all seat- and game-grain ones but those the table
    size fixes for the field as a whole (every seat's won, or place, averages 1/N, or (N+1)/2, in every round)."""
    fixed = {("won",), ("place",)}
    return {m.name: m.label for m in analytics_of(kind)[0] if m.grain != "round" and m.numerator not in fixed}


def breakdowns(kind: str) -> dict[str, Breakdown]:
    """A game's breakdowns (counts of a fact table by some of its columns), by name, in catalogue order."""
    return {b.name: b for b in analytics_of(kind)[1]}


def per_player_breakdowns(kind: str) -> set[str]:
    """The breakdowns that can be asked about one player: over a fact table with a ``seat`` column."""
    tables = game_tables(kind)
    return {b.name for b in analytics_of(kind)[1] if "seat" in tables[b.table].table.column_names()}
