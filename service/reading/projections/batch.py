"""A batch of read-model changes, built in memory and written in one transaction with its tracking row.

Rows of a game's fact tables with the same key are combined here already, column by column as the upsert
will combine them with what is stored (``facts.StoredTable.combine``): a batch writes each key once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The common per-seat values a move adds to: [player_id, kind, n_players, moves, think time in microseconds].
# Think time is summed in whole microseconds (exact, whatever the batches) and stored in milliseconds.
PLAYER, KIND, N_PLAYERS, MOVES, THINK_US = range(5)


@dataclass
class Batch:
    players: list[tuple[Any, ...]] = field(default_factory=list)
    tournaments: list[tuple[Any, ...]] = field(default_factory=list)
    rulings: list[tuple[Any, ...]] = field(default_factory=list)  # rm_rulings rows
    games: dict[str, dict[str, Any]] = field(default_factory=dict)  # game_id -> full rm_games row (upserted)
    seats: dict[tuple[str, int], list[Any]] = field(default_factory=dict)  # (game, seat) -> see PLAYER..THINK_US
    moves: list[tuple[Any, ...]] = field(default_factory=list)
    results: list[tuple[Any, ...]] = field(default_factory=list)  # (finished, won, place, score, game, seat)
    totals: dict[str, list[int]] = field(default_factory=dict)  # player -> [finished games, wins] the batch adds
    facts: dict[str, dict[tuple[Any, ...], list[Any]]] = field(default_factory=dict)  # table -> key -> values
    appended: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)  # append table -> new rows
    # The games finished, in log order: (game, kind, notification id of the finishing record, time); rated in order.
    finishes: list[tuple[str, str, int, str | None]] = field(default_factory=list)
    events: int = 0
    last_notification_id: int | None = None

    def seat(self, game_id: str, seat: int, player: str, kind: str, n_players: int) -> list[Any]:
        """The seat's common values in this batch (zero moves when new)."""
        key = (game_id, seat)
        row = self.seats.get(key)
        if row is None:
            row = self.seats[key] = [player, kind, n_players, 0, 0]
        return row

    def finished(self, player: str, won: int) -> None:
        """A seat of a finished game: one more finished game for its player, and a win if ``won``."""
        totals = self.totals.get(player)
        if totals is None:
            self.totals[player] = [1, won]
        else:
            totals[0] += 1
            totals[1] += won

    def __bool__(self) -> bool:
        return self.last_notification_id is not None
