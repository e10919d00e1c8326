"""A batch of read-model changes, built in memory and written in one transaction with its tracking row."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

# Counters of rm_player_games that a move adds to (the row is created when the game is).
COUNTERS = (
    "moves",
    "think_ms",
    "follow_turns",
    "follow_turns_able",
    "passes",
    "passes_able",
    "plays",
    "leads",
    "lead_size_sum",
    "lead_rank_sum",
    "skips",
    "torches_spent",
    "purchases",
    "claims",
    "night_flips",
    "rounds_played",
    "first_outs",
    "showdown",
    "showdown_won",
    "led_round1",
)


# Position of each counter in a batch's per-seat list (the order of COUNTERS, as the write sends them).
SLOT = {name: i for i, name in enumerate(COUNTERS)}


@dataclass
class Batch:
    players: list[tuple[Any, ...]] = field(default_factory=list)
    tournaments: list[tuple[Any, ...]] = field(default_factory=list)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)  # game_id -> full row (upserted)
    seats: list[tuple[Any, ...]] = field(default_factory=list)  # new rm_player_games rows
    moves: list[tuple[Any, ...]] = field(default_factory=list)
    counters: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # (game, seat) -> deltas, by SLOT
    round_places: dict[tuple[str, int, int], dict[str, Any]] = field(default_factory=dict)
    round_torches: dict[tuple[str, int, int], int] = field(default_factory=lambda: defaultdict(int))
    purchases: list[tuple[Any, ...]] = field(default_factory=list)
    claims: list[tuple[Any, ...]] = field(default_factory=list)
    results: list[tuple[Any, ...]] = field(default_factory=list)  # (finished, won, final_vp, game, seat)
    events: int = 0
    last_notification_id: int | None = None
    player_of: dict[tuple[str, int], str] = field(default_factory=dict)

    def seat_counters(self, game_id: str, seat: int) -> list[int]:
        """The seat's counter deltas in this batch (zeros when new), indexed by ``SLOT``."""
        key = (game_id, seat)
        row = self.counters.get(key)
        if row is None:
            row = self.counters[key] = [0] * len(COUNTERS)
        return row

    def count(self, game_id: str, seat: int, **deltas: int) -> None:
        row = self.seat_counters(game_id, seat)
        for name, value in deltas.items():
            row[SLOT[name]] += value

    def place(self, game_id: str, round_no: int, seat: int, **values: Any) -> None:
        self.round_places.setdefault((game_id, round_no, seat), {}).update(values)

    def __bool__(self) -> bool:
        return self.last_notification_id is not None
