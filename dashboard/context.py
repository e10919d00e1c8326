"""What every page shares: the read-side ``Queries`` and the per-game verification cache."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from service.queries import Queries


@dataclass
class Verifications:
    """``service.audit.verify`` replays a whole game, so each game is checked once per version it has
    reached (a finished game once for good) and the report kept; stepping through a replay never verifies."""

    queries: Queries
    size: int = 256
    _reports: OrderedDict[tuple[str, int], dict[str, Any]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    runs: int = 0  # how many times verify actually ran (the tests check the cache holds)

    def report(self, game_id: str, latest_version: int) -> dict[str, Any]:
        key = (game_id, latest_version)
        with self._lock:
            cached = self._reports.get(key)
            if cached is not None:
                self._reports.move_to_end(key)
                return cached
        from service.audit import verify

        report = verify(self.queries.service, game_id).to_dict()
        with self._lock:
            self.runs += 1
            self._reports[key] = report
            while len(self._reports) > self.size:
                self._reports.popitem(last=False)
        return report


@dataclass
class Context:
    queries: Queries
    verifications: Verifications

    @classmethod
    def of(cls, queries: Queries) -> Context:
        return cls(queries, Verifications(queries))

    def player_names(self) -> dict[str, str]:
        return {str(p["player_id"]): p["name"] for p in self.queries.players()}

    def tournament_names(self) -> dict[str, str]:
        return {str(t["tournament_id"]): t["name"] for t in self.queries.tournaments()}
