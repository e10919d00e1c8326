"""The analytics the pages show: a player's tendencies against the field's, figures per round, breakdowns, a metric
by a dimension, distributions and a tournament's trend, each over a game's catalogue (``service.reading.catalogue``).

A player's figures are computed from the read models' rows (``figures_from_rows``). The field's (no player asked
about) are the same on every player's page: read from the sums the projection keeps (``figures_from_sums``: a few
rows, whatever the store's size; from the rows while those are not complete) and kept until the read models move.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from cachetools import LRUCache

from domain.games import GAMES
from service.reading import catalogue
from service.reading.figures_from_rows import RowFigures
from service.reading.figures_from_sums import SumFigures
from service.reading.read_db import ReadDatabase
from service.reading.scope import Scope, Sizes

FIELD_CACHE = 256  # the field's figures kept (each a few rows)
T = TypeVar("T")


class Analytics:
    """The figures over finished games of a kind (per round and breakdowns: with an organiser's games in play too,
    ``finished_only`` False); ``n_players`` keeps games at those table sizes only (to compare like with like)."""

    def __init__(self, db: ReadDatabase) -> None:
        self.db = db
        self.rows = RowFigures(db)
        self.sums = SumFigures(db)
        self._field: LRUCache[tuple[Any, ...], tuple[int, Any]] = LRUCache(maxsize=FIELD_CACHE)
        self._field_lock = threading.Lock()

    def tendencies(
        self, kind: str, player: str | None = None, tournament: str | None = None, n_players: Sizes | None = None
    ) -> dict[str, Any]:
        """A player's tendencies (or the field's, player None): every seat- and game-grain metric of the catalogue
        with its sample size (the denominator's sum)."""
        scope = Scope(kind, player, tournament, n_players)
        return self._answer(("tendencies", scope), scope, self.rows.tendencies, self.sums.tendencies)

    def per_round(
        self,
        kind: str,
        metric: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
        finished_only: bool = True,
    ) -> list[dict[str, Any]]:
        """A round-grain metric of the catalogue, round by round: [{round, value, n}]."""
        scope = Scope(kind, player, tournament, n_players, finished_only)
        return self._answer(
            ("per_round", metric, scope),
            scope,
            lambda s: self.rows.per_round(s, metric),
            lambda s: self.sums.per_round(s, metric),
        )

    def breakdown(
        self,
        kind: str,
        name: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
        finished_only: bool = True,
    ) -> list[dict[str, Any]]:
        """How often each combination of the breakdown's columns occurs: [{<by columns>, n, <averaged
        columns>}], most frequent first. A table with a ``seat`` column can be asked about one player."""
        scope = Scope(kind, player, tournament, n_players, finished_only)
        return self._answer(
            ("breakdown", name, scope),
            scope,
            lambda s: self.rows.breakdown(s, name),
            lambda s: self.sums.breakdown(s, name),
        )

    def by_dimension(
        self,
        kind: str,
        metric: str,
        dimension: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
    ) -> list[dict[str, Any]]:
        """A seat- or game-grain metric per value of a dimension, per table size (a rate compares only within
        one player count): [{n_players, grp, value, n, games}], e.g. win rate by seat per player count."""
        scope = Scope(kind, player, tournament, n_players)
        return self._answer(
            ("by_dimension", metric, dimension, scope),
            scope,
            lambda s: self.rows.by_dimension(s, metric, dimension),
            lambda s: self.sums.by_dimension(s, metric, dimension),
        )

    def distributions(
        self, kind: str, tournament: str | None = None, n_players: Sizes | None = None
    ) -> dict[str, list[dict[str, Any]]]:
        """The field's places and final scores (one per seat), game lengths in moves and rounds (one per game)."""
        scope = Scope(kind, None, tournament, n_players)
        return self._answer(("distributions", scope), scope, self.rows.distributions, self.sums.distributions)

    def table_sizes(self, kind: str, player: str, tournament: str | None = None) -> tuple[int, ...]:
        """The table sizes of a player's finished games of ``kind``: the field they are compared with plays at
        these sizes only (a rate compares only within one player count)."""
        return self.rows.table_sizes(Scope(kind, player, tournament))

    def trend(self, metric: str, tournament: str, player: str | None = None) -> list[dict[str, Any]]:
        """A seat- or game-grain metric of the tournament's game per tournament round (the field's, or one
        player's): [{round, value, n}]."""
        found = self.db.rows("SELECT game FROM {p}rm_tournaments WHERE tournament_id = ?", (tournament,))
        kind = found[0]["game"] if found and found[0]["game"] in GAMES else None
        catalogued = catalogue.metrics(kind) if kind else {}
        if kind is None or metric not in catalogued:
            raise ValueError(f"unknown metric {metric!r}; choose from {sorted(catalogued)}")
        return self.rows.trend(Scope(kind, player, tournament), metric)

    def field(self, scope: Scope, rows: Callable[[Scope], T], sums: Callable[[Scope], T | None]) -> T:
        """The field's figure: from the projection's sums, or from the rows while those are not complete."""
        found = sums(scope)
        return rows(scope) if found is None else found

    def _answer(
        self, key: tuple[Any, ...], scope: Scope, rows: Callable[[Scope], T], sums: Callable[[Scope], T | None]
    ) -> T:
        """The one path of every figure: a player's from the rows; the field's (``field``) kept by ``key`` until
        the read models move (one read of their position instead of a figure's reads). A copy: callers may
        change what they get."""
        if scope.player is not None:
            return rows(scope)
        position = self.db.position()
        with self._field_lock:
            cached = self._field.get(key)
            if cached is not None and cached[0] == position:
                found: T = copy.deepcopy(cached[1])
                return found
        answer = self.field(scope, rows, sums)
        with self._field_lock:
            self._field[key] = (position, copy.deepcopy(answer))
        return answer
