"""The field's figures kept as sums, so that a page about the whole field reads a few rows, not every game's.

Every figure of the analytics catalogue (``service.reading.catalogue``) is a ratio of sums, a count or an average over
rows of finished games: sums that add up game by game. Measured on a 30,000-game store, computing the field's
tendencies afresh read 900,000 fact rows and took 1.2 s (docs/performance.md, section 7), growing with the store.
So the projection keeps, for every figure the pages ask about the field (no player chosen), the sums of its
finished games per table size and tournament in ``rm_field_sums``:

    (kind, scope, figure, n_players, grp, measure) -> total

``scope`` is a game's tournament id ('' without one) and ``*`` for every game, so that both the whole field
and one tournament's are a handful of rows; ``grp`` is the figure's group as JSON (a round, a dimension's value,
a breakdown's columns; ``[]`` for none); ``measure`` names one sum (a metric's numerator ``<metric>:num`` and
denominator ``<metric>:den``, a count ``rows``, a breakdown's ``sum:<column>`` and ``count:<column>``).

When a batch of records finishes games, ``FieldSums.keep`` runs each figure's own query over those games' rows
alone (the same SQL as the field's query, restricted to them and grouped by tournament and table size) and adds
the results in the batch's transaction: exactly once, with the tracking row. A marker row (figure ``complete``)
says the sums cover every finished game: a batch that finds no marker (a new store, a rebuild's first batch) and
a follower starting on a store without it (upgraded from before this table) ``refill`` them from every finished
game, once; so does the end of a distributed rebuild, whose shares leave them alone. One writer of the sums at a
time (a table lock on PostgreSQL), so that no game is counted twice. A reader that finds no marker computes the
figure afresh, as before.

Sums of real columns (think time, in ms to the microsecond) are rounded to 6 decimals as they are added, so that
a rebuild in one batch, in many, or split across workers stores the same totals.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from service.reading import catalogue

TABLE = "rm_field_sums"
EVERY_GAME = "*"  # the scope of every game's sums (a tournament's id is a UUID; '' is no tournament)
DECIMALS = 6
# The marker row: the sums cover every finished game.
COMPLETE = ("", "", "complete", 0, "[]", "", 1.0)
COLUMNS = ("kind", "scope", "figure", "n_players", "grp", "measure", "total")

Rows = Callable[[str, Sequence[Any]], list[Any]]  # runs a query ({p} and ? placeholders), returns its rows
Key = tuple[str, str, str, int, str, str]  # (kind, scope, figure, n_players, grp, measure)


@dataclass(frozen=True)
class Figure:
    """One figure of the field: which rows it sums (``from_sql``, joined with the game by ``main``'s game_id), how
    it groups them and the sums it keeps."""

    name: str
    from_sql: str  # FROM clause, tables prefixed with {p}
    main: str  # the alias whose game_id names the row's game
    groups: tuple[str, ...]  # SQL of the group's values
    measures: tuple[tuple[str, str], ...]  # (measure, SQL of its sum)

    def query(self, games: str) -> str:
        """The sums of the rows of the games ``games`` keeps (a condition on ``cg``, the rm_games row, after
        ``cg.kind = ?``) per tournament, table size and group."""
        picked = "".join(f", {g} AS g{i}" for i, g in enumerate(self.groups))
        sums = "".join(f", {sql} AS m{i}" for i, (_, sql) in enumerate(self.measures))
        by = ", ".join(("cg.tournament_id", "cg.n_players", *self.groups))
        return (
            f"SELECT cg.tournament_id AS scope, cg.n_players AS n_players{picked}{sums} FROM {self.from_sql} "
            f"JOIN {{p}}rm_games cg ON cg.game_id = {self.main}.game_id WHERE cg.kind = ? AND {games} GROUP BY {by}"
        )


def tendencies_name(grain: str) -> str:
    return f"tendencies:{grain}"


def per_round_name() -> str:
    return "per_round"


def breakdown_name(name: str) -> str:
    return f"breakdown:{name}"


def by_dimension_name(grain: str, dimension: str) -> str:
    return f"by:{grain}:{dimension}"


def distribution_name(what: str) -> str:
    return f"distribution:{what}"


def _metric_sums(metrics: Iterable[Any], qualified: dict[str, str]) -> list[tuple[str, str]]:
    found = []
    for m in metrics:
        num, den = catalogue.sums(m, qualified)
        found += [(f"{m.name}:num", num), (f"{m.name}:den", den)]
    return found


@cache
def figures(kind: str) -> tuple[Figure, ...]:
    """Every figure of the field a page of ``kind`` can ask for, from its catalogue alone."""
    metrics = catalogue.analytics_of(kind)[0]
    found: list[Figure] = []
    for grain in ("seat", "game"):
        chosen = [m for m in metrics if m.grain == grain]
        plan = catalogue.plan(kind, grain, [c for m in chosen for c in sorted(m.columns())])
        measures = (*_metric_sums(chosen, plan.qualified), ("rows", "COUNT(*)"))
        found.append(Figure(tendencies_name(grain), plan.from_clause("{p}"), plan.used[0].alias, (), measures))
        for dimension in catalogue.dimensions_of(kind).values():
            of_game = (dimension.name,) if dimension.grain == "game" else ()
            columns = [*(c for m in chosen for c in sorted(m.columns())), "n_players", dimension.name]
            try:
                plan = catalogue.plan(kind, grain, columns, of_game=of_game)
            except catalogue.UnknownName:  # (a dimension not recorded at this grain: the query refuses it too)
                continue
            name = by_dimension_name(grain, dimension.name)
            group = (plan.qualified[dimension.name],)
            measures = (*_metric_sums(chosen, plan.qualified), ("rows", "COUNT(*)"))
            found.append(Figure(name, plan.from_clause("{p}"), plan.used[0].alias, group, measures))
    rounds = [m for m in metrics if m.grain == "round"]
    if rounds:
        plan = catalogue.plan(kind, "round", [c for m in rounds for c in sorted(m.columns())])
        measures = tuple(_metric_sums(rounds, plan.qualified))
        found.append(Figure(per_round_name(), plan.from_clause("{p}"), "r", ("r.round",), measures))
    for b in catalogue.analytics_of(kind)[1]:
        _, fact_table, stored = catalogue.breakdown(kind, b.name)
        if not {*b.by, *b.average} <= set(fact_table.column_names()):
            continue  # (the query refuses it)
        measures = (("rows", "COUNT(*)"), *((m, f"{f}(b.{c})") for c in b.average for m, f in _averaged(c)))
        groups = tuple(f"b.{c}" for c in b.by)
        found.append(Figure(breakdown_name(b.name), f"{{p}}{stored} b", "b", groups, measures))
    for what, table, alias, column in DISTRIBUTIONS:
        found.append(
            Figure(
                distribution_name(what), f"{{p}}{table} {alias}", alias, (f"{alias}.{column}",), (("rows", "COUNT(*)"),)
            )
        )
    return tuple(found)


def _averaged(column: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """A breakdown's averaged column as two sums: its total and how many rows have it (AVG skips NULLs)."""
    return (f"sum:{column}", "SUM"), (f"count:{column}", "COUNT")


# The distributions of the core's columns: places and scores (one per seat), lengths (one per game).
DISTRIBUTIONS = (
    ("place", "rm_player_games", "pg", "place"),
    ("score", "rm_player_games", "pg", "score"),
    ("moves", "rm_games", "g", "moves"),
    ("rounds", "rm_games", "g", "round"),
)


# -- the sums of some games -------------------------------------------------------------------------------------


def sums_of(
    rows: Rows, kind: str, fig: Figure, games: str, params: Sequence[Any]
) -> list[tuple[str, int, str, dict[str, float]]]:
    """Each (tournament, table size, group) of the games ``games`` keeps, with its sums: [(scope, n_players, grp
    as JSON, {measure: total})]; a sum over no value (SQL's NULL) is left out."""
    found = []
    n_groups = len(fig.groups)
    for row in rows(fig.query(games), [kind, *params]):
        values = _values(row)
        scope, n_players = values[0] or "", int(values[1])
        grp = json.dumps(values[2 : 2 + n_groups])
        totals = {
            measure: float(value)
            for (measure, _), value in zip(fig.measures, values[2 + n_groups :], strict=True)
            if value is not None
        }
        found.append((scope, n_players, grp, totals))
    return found


def _totals(rows: Rows, games: str, params: Sequence[Any], kinds: Iterable[str]) -> dict[Key, float]:
    """The sums of the games ``games`` keeps, in their tournament's scope and in the scope of every game."""
    totals: dict[Key, float] = defaultdict(float)
    for kind in kinds:
        for fig in figures(kind):
            for scope, n_players, grp, sums in sums_of(rows, kind, fig, games, params):
                for measure, total in sums.items():
                    totals[(kind, scope, fig.name, n_players, grp, measure)] += total
                    totals[(kind, EVERY_GAME, fig.name, n_players, grp, measure)] += total
    return totals


# -- kept by the projection -------------------------------------------------------------------------------------


class FieldSums:
    """The projection's side: adds the sums of the games a batch finished, or sums every finished game anew."""

    def __init__(self, quote: Callable[[str], str], backend: str) -> None:
        self.quote = quote  # ({p} and ? to the dialect's)
        total = f"{TABLE}.total + excluded.total"
        rounded = f"CAST({total} AS NUMERIC)" if backend == "postgresql" else total  # (PostgreSQL rounds numerics)
        marks = ", ".join("?" * len(COLUMNS))
        self._add = quote(
            f"INSERT INTO {{p}}{TABLE} ({', '.join(COLUMNS)}) VALUES ({marks}) "
            "ON CONFLICT (kind, scope, figure, n_players, grp, measure) "
            f"DO UPDATE SET total = ROUND({rounded}, {DECIMALS})"
        )
        self._mark = quote(f"INSERT INTO {{p}}{TABLE} ({', '.join(COLUMNS)}) VALUES ({marks})")
        self._empty = quote(f"DELETE FROM {{p}}{TABLE}")
        # One writer of the sums at a time (readers are not held up): a batch adding its games and a refill
        # summing every game must not both count a game. SQLite has one writer anyway.
        self._lock = quote(f"LOCK TABLE {{p}}{TABLE} IN SHARE ROW EXCLUSIVE MODE") if backend == "postgresql" else None

    def keep(self, curs: Any, finished: Iterable[str]) -> None:
        """In the batch's transaction, after its rows: add the sums of the games it ``finished``; or, when the
        sums are not complete, sum every finished game (those included) anew."""
        if not self.complete(curs):
            self.refill(curs)
            return
        ids = sorted(set(finished))
        if ids:
            rows = self._rows(curs)
            among = f"cg.game_id IN ({', '.join('?' * len(ids))}) AND cg.status = 'over'"
            self._write(curs, _totals(rows, among, ids, _kinds(rows, among, ids)))

    def complete(self, curs: Any) -> bool:
        """Whether the sums cover every finished game, the sums held for this transaction's writes."""
        if self._lock is not None:
            curs.execute(self._lock)
        return complete(self._rows(curs))

    def refill(self, curs: Any) -> None:
        """Every finished game's sums, anew (whatever was kept is dropped first), and the marker."""
        if self._lock is not None:
            curs.execute(self._lock)
        curs.execute(self._empty)
        rows = self._rows(curs)
        finished = "cg.status = 'over'"
        self._write(curs, _totals(rows, finished, (), _kinds(rows, finished, ())))
        curs.execute(self._mark, COMPLETE)

    def _write(self, curs: Any, totals: dict[Key, float]) -> None:
        # In key order: two transactions adding to the same rows lock them in the same order.
        if totals:
            curs.executemany(self._add, [(*key, round(total, DECIMALS)) for key, total in sorted(totals.items())])

    def _rows(self, curs: Any) -> Rows:
        def rows(sql: str, params: Sequence[Any]) -> list[Any]:
            curs.execute(self.quote(sql), tuple(params))
            return list(curs.fetchall())

        return rows


COMPLETE_SQL = (
    f"SELECT 1 AS complete FROM {{p}}{TABLE} WHERE kind = ? AND scope = ? AND figure = ? AND n_players = ? "
    "AND grp = ? AND measure = ?"
)


def _values(row: Any) -> list[Any]:
    return list(row.values()) if isinstance(row, dict) else list(row)


def _kinds(rows: Rows, games: str, params: Sequence[Any]) -> list[str]:
    """The kinds of the games ``games`` keeps (a condition on ``cg``)."""
    found = rows(f"SELECT DISTINCT cg.kind FROM {{p}}rm_games cg WHERE {games}", params)
    return sorted(str(_values(row)[0]) for row in found)


def complete(rows: Rows) -> bool:
    """Whether the sums cover every finished game (the marker is there)."""
    return bool(rows(COMPLETE_SQL, COMPLETE[:-1]))
