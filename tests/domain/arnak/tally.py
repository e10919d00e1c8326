"""A small in-memory stand-in for the read models, for checking a game's analytics part without a database: play
whole bot games, combine each move's fact rows per the tables' column rules (``Column.combine``; an append table
keeps the first row of each key), join a seat's row with the common per-seat columns (``COMMON_COLUMNS``) and
evaluate a ``Metric`` as ``SUM(product of numerator) / SUM(product of denominator)`` over the rows, a NULL making
its row's product NULL (left out of the sum), as SQL would.

Nothing here knows a game: it reads the registry's ``Game`` parts only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Any

from domain.games import Game
from domain.metrics import COMMON_COLUMNS, ROUND_TABLE, SEAT_TABLE, FactRow, FactTable, Metric
from domain.play import play_game
from domain.policies import Policy

Row = dict[str, Any]


def combine(table: FactTable, old: list[Any] | None, new: Sequence[Any]) -> list[Any]:
    """A row written again: per value column, add (NULL as 0), set (the newest non-NULL) or keep (the first
    non-NULL); an append table keeps its first row."""
    if old is None:
        return list(new)
    if table.append:
        return old
    out = list(old)
    for i, column in enumerate(table.columns, start=len(table.key)):
        value = new[i]
        if column.combine == "add":
            out[i] = (out[i] or 0) + (value or 0)
        elif column.combine == "set":
            out[i] = value if value is not None else out[i]
        elif out[i] is None:
            out[i] = value
    return out


@dataclass
class PlayedFacts:
    """One game's fact tables (key -> row, game_id left out) and its common per-seat columns."""

    tables: dict[str, dict[tuple[Any, ...], list[Any]]]
    common: dict[int, Row]
    seats: tuple[str, ...]  # who sat at each seat (a persona's name)


@dataclass
class Tally:
    game: Game[Any, Any, Any]
    played: list[PlayedFacts] = field(default_factory=list)

    def table(self, name: str) -> FactTable:
        return next(t for t in self.game.analytics.tables if t.name == name)  # type: ignore[union-attr]

    def add_rows(self, tables: dict[str, dict[tuple[Any, ...], list[Any]]], rows: Iterable[FactRow]) -> None:
        for name, row in rows:
            table = self.table(name)
            assert len(row) == len(table.column_names()), (name, row)
            key = tuple(row[: len(table.key)])
            found = tables.setdefault(name, {})
            found[key] = combine(table, found.get(key), row)

    def play(
        self,
        who: Sequence[str],
        policies: Sequence[Policy[Any]],
        seed: str,
        options: Mapping[str, Any] | None = None,
    ) -> PlayedFacts:
        """Play one game (``who[seat]`` names the policy at each seat) and record its facts move by move."""
        rules, analytics = self.game.rules, self.game.analytics
        assert analytics is not None
        names = [f"P{s}" for s in range(len(policies))]
        game = play_game(rules, names, policies, seed, options)
        opening = len(rules.start(names, options, seed))
        state = rules.replay(list(game.events[:opening]))
        tables: dict[str, dict[tuple[Any, ...], list[Any]]] = {}
        self.add_rows(tables, analytics.opening_rows(state))
        seats = len(rules.view(state, None)["players"])
        common: dict[int, Row] = {s: dict.fromkeys(COMMON_COLUMNS, 0) for s in range(seats)}
        for action in game.actions:
            events, after = rules.step(state, action)
            facts = analytics.move_facts(state, rules.action_to_dict(action), events)
            common[facts.seat]["moves"] += 1
            self.add_rows(tables, facts.rows())
            state = after
        result = rules.result(state)
        assert result is not None
        for seat, row in common.items():
            place = 1 if seat in result.winners else result.ranking.index(seat) + 1
            row.update(finished=1, won=int(seat in result.winners), place=place, score=result.scores[seat])
        played = PlayedFacts(tables, common, (*who, *("engine",) * (seats - len(who))))
        self.played.append(played)
        return played

    def rows(self, metric: Metric) -> list[tuple[str, Row]]:
        """The rows a metric reads, each with who played it: a seat's game (its seats row and the common columns)
        or a seat's round (its rounds row)."""
        out = []
        for game in self.played:
            if metric.grain == "seat":
                names = self.table(SEAT_TABLE).column_names()
                for key, values in game.tables.get(SEAT_TABLE, {}).items():
                    seat = key[0]
                    out.append((game.seats[seat], {**game.common[seat], **dict(zip(names, values, strict=True))}))
            else:
                names = self.table(ROUND_TABLE).column_names()
                for values in game.tables.get(ROUND_TABLE, {}).values():
                    row = dict(zip(names, values, strict=True))
                    out.append((game.seats[row["seat"]], row))
        return out

    def metric(self, metric: Metric, who: str | None = None, **where: Any) -> float | None:
        """The metric over every row ``who`` played (``None``: the whole field) whose columns have the values
        ``where`` gives (a dimension: ``round=2``, ``difficulty=3``)."""

        def product(row: Row, columns: Sequence[str]) -> Any:
            values = [row[c] for c in columns]
            return None if any(v is None for v in values) else prod(values)

        rows = [
            r
            for w, r in self.rows(metric)
            if (who is None or w == who) and all(r[name] == value for name, value in where.items())
        ]
        numerator = sum(p for r in rows if (p := product(r, metric.numerator)) is not None)
        denominator = sum(p for r in rows if (p := product(r, metric.denominator)) is not None)
        return numerator / denominator if denominator else None
