"""The field's figures read from the sums the projection keeps (``service.reading.projections.field``: a few rows
per figure, whatever the store's size). Each answers as ``service.reading.figures_from_rows`` does over the same
games, or None while the projection has not made its sums complete (the rows answer then)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from service.reading import catalogue
from service.reading.figures_from_rows import tendencies_answer, tendency
from service.reading.projections import field
from service.reading.read_db import ReadDatabase
from service.reading.scope import Scope, sizes

# {(table size, group as JSON): {measure: total}}
Summed = dict[tuple[int, str], dict[str, float]]


class SumFigures:
    """The field's figures (``Scope.player`` is not asked about) from the projection's sums."""

    def __init__(self, db: ReadDatabase) -> None:
        self.db = db

    def tendencies(self, scope: Scope) -> dict[str, Any] | None:
        found: dict[str, dict[str, Any]] = {}
        games = 0
        for grain in ("seat", "game"):
            summed = self._summed(scope, field.tendencies_name(grain))
            if summed is None:
                return None
            totals = _merged(summed).get("[]", {})
            if grain == "seat":
                games = int(totals.get("rows", 0))
            for m in catalogue.analytics_of(scope.kind)[0]:
                if m.grain == grain:
                    found[m.name] = tendency(m, *_ratio(totals, m.name))
        return tendencies_answer(Scope(scope.kind, None, scope.tournament, scope.n_players), games, found)

    def per_round(self, scope: Scope, metric: str) -> list[dict[str, Any]] | None:
        m = catalogue.metric(scope.kind, metric)
        summed = None if m.grain != "round" else self._summed(scope, field.per_round_name())
        if summed is None:
            return None
        rows = []
        for grp, totals in _merged(summed).items():
            value, n = _ratio(totals, m.name)
            if n:
                rows.append({"round": json.loads(grp)[0], "value": value, "n": n})
        return self._ordered(rows, ["round"])

    def breakdown(self, scope: Scope, name: str) -> list[dict[str, Any]] | None:
        summed = self._summed(scope, field.breakdown_name(name))
        if summed is None:
            return None
        found = catalogue.breakdown(scope.kind, name)[0]
        rows = []
        for grp, totals in _merged(summed).items():
            if not totals.get("rows"):
                continue
            row: dict[str, Any] = dict(zip(found.by, json.loads(grp), strict=True))
            row["n"] = int(totals["rows"])
            for c in found.average:
                count = totals.get(f"count:{c}")
                row[c] = totals.get(f"sum:{c}", 0.0) / count if count else None
            rows.append(row)
        return self._ordered(rows, list(found.by), descending="n")

    def by_dimension(self, scope: Scope, metric: str, dimension: str) -> list[dict[str, Any]] | None:
        m = catalogue.metric(scope.kind, metric)
        summed = None
        if m.grain != "round":
            summed = self._summed(scope, field.by_dimension_name(m.grain, dimension))
        if summed is None:  # (also a dimension not recorded at the metric's grain: the rows' query says so)
            return None
        rows = []
        for (size, grp), totals in _merged(summed, by_size=True).items():
            if totals.get("rows"):
                value, n = _ratio(totals, m.name)
                rows.append(
                    {"n_players": size, "grp": json.loads(grp)[0], "value": value, "n": n, "games": int(totals["rows"])}
                )
        return self._ordered(rows, ["n_players", "grp"])

    def distributions(self, scope: Scope) -> dict[str, list[dict[str, Any]]] | None:
        found: dict[str, list[dict[str, Any]]] = {}
        for what in ("place", "score", "moves", "rounds"):
            summed = self._summed(scope, field.distribution_name(what))
            if summed is None:
                return None
            rows = [
                {"value": json.loads(grp)[0], "n": int(totals["rows"])}
                for grp, totals in _merged(summed).items()
                if totals.get("rows")
            ]
            found[what] = self._ordered(rows, ["value"])
        return found

    def _summed(self, scope: Scope, name: str) -> Summed | None:
        """The field's sums of the figure ``name`` over the scope's finished games, the games in play added (read
        afresh: they are few) unless ``finished_only``; None while the projection has not made them complete."""
        fig = next((f for f in field.figures(scope.kind) if f.name == name), None)
        if fig is None or not field.complete(self.db.rows):
            return None
        where = ["kind = ?", "scope = ?", "figure = ?"]
        params: list[Any] = [scope.kind, scope.tournament or field.EVERY_GAME, name]
        if scope.n_players is not None:
            found_sizes = sizes(scope.n_players)
            where.append(f"n_players IN ({', '.join('?' * len(found_sizes))})")
            params.extend(found_sizes)
        found: Summed = defaultdict(lambda: defaultdict(float))
        sql = f"SELECT n_players, grp, measure, total FROM {{p}}{field.TABLE} WHERE {' AND '.join(where)}"
        for row in self.db.rows(sql, params):
            found[(int(row["n_players"]), row["grp"])][row["measure"]] += float(row["total"])
        if not scope.finished_only:  # the field's games (as its queries pick them) that are not over
            in_play = Scope(scope.kind, None, scope.tournament, scope.n_players, finished_only=False)
            games, in_params = in_play.field_games("cg")
            in_play_games = " AND ".join([*games, "cg.status <> 'over'"])
            for _, size, grp, sums in field.sums_of(self.db.rows, scope.kind, fig, in_play_games, in_params):
                for measure, total in sums.items():
                    found[(size, grp)][measure] += total
        return found

    def _ordered(
        self, rows: list[dict[str, Any]], keys: Sequence[str], descending: str | None = None
    ) -> list[dict[str, Any]]:
        """Rows in the order the rows' query's ORDER BY gives: ``descending`` first, then ``keys`` ascending, a
        NULL where the database puts it (PostgreSQL last, SQLite first)."""
        nulls_first = self.db.backend == "sqlite"

        def key(row: dict[str, Any]) -> tuple[Any, ...]:
            parts: list[Any] = [-row[descending]] if descending else []
            for k in keys:
                v = row[k]
                parts.append(((0 if nulls_first else 2), 0) if v is None else (1, v))
            return tuple(parts)

        return sorted(rows, key=key)


def _merged(summed: Summed, by_size: bool = False) -> dict[Any, dict[str, float]]:
    """The sums per group (and table size, ``by_size``), the other keys added up."""
    found: dict[Any, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for (size, grp), sums in summed.items():
        key = (size, grp) if by_size else grp
        for measure, total in sums.items():
            found[key][measure] += total
    return found


def _ratio(totals: dict[str, float], metric: str) -> tuple[float | None, int | float | None]:
    """A metric's value and sample size from its sums, as the rows' query gives them: no value without a
    numerator or with a denominator of 0; whole numbers as integers."""
    num, den = totals.get(f"{metric}:num"), totals.get(f"{metric}:den")
    value = None if num is None or not den else num / den
    return value, None if den is None else _whole(den)


def _whole(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x
