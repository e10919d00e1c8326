"""A finished game's stored judgement (``rm_judged_moves``, ``rm_judged_seats``, written by ``digsite analyse``:
service/analysis/), read back as the API answers it (``results.Analysis``)."""

from __future__ import annotations

import json
from typing import Any, cast

from domain.judge import JUDGE_VERSION
from service.reading.read_db import ReadDatabase
from service.reading.results import Analysis, JudgedMove, JudgedSeat, MoveEstimate
from service.store.read_models import JUDGED_MOVES, JUDGED_SEATS

KEY = "game_id = ? AND last_version = ? AND judge_version = ? AND budget = ?"


def _estimate(row: dict[str, Any], which: str) -> MoveEstimate | None:
    if row[f"{which}_value"] is None:
        return None
    return {
        "win": row[f"{which}_win"],
        "place": row[f"{which}_place"],
        "value": row[f"{which}_value"],
        "playouts": row["playouts"],
    }


def _move(row: dict[str, Any]) -> JudgedMove:
    return {
        "index": row["idx"],
        "version": row["version"],
        "seat": row["seat"],
        "judged": bool(row["judged"]),
        "legal": row["legal"],
        "played": json.loads(row["played"]),
        "best": None if row["best"] is None else json.loads(row["best"]),
        "played_estimate": _estimate(row, "played"),
        "best_estimate": _estimate(row, "best"),
        "loss": row["loss"],
        "accuracy": row["accuracy"],
        "mark": row["mark"],
    }


def _seat(row: dict[str, Any]) -> JudgedSeat:
    names = ("seat", "judged", "accuracy", "mean_loss", "inaccuracies", "mistakes", "blunders")
    return cast(JudgedSeat, {name: row[name] for name in names})


class Judgements:
    """Stored judgements of the current judge version, by game."""

    def __init__(self, db: ReadDatabase) -> None:
        self.db = db

    def budgets(self, game_id: str, version: int) -> list[int]:
        """The budgets the game (at its last version ``version``) is judged at by this judge version, largest first."""
        found = self.db.rows(
            f"SELECT DISTINCT budget FROM {{p}}{JUDGED_SEATS.name} "
            "WHERE game_id = ? AND last_version = ? AND judge_version = ? ORDER BY budget DESC",
            (game_id, version, JUDGE_VERSION),
        )
        return [int(row["budget"]) for row in found]

    def of(self, game_id: str, version: int, budget: int | None = None) -> Analysis | None:
        """The judgement of the game at its last version ``version``, at ``budget`` (None: the largest stored);
        None when there is none."""
        if budget is None:
            stored = self.budgets(game_id, version)
            if not stored:
                return None
            budget = stored[0]
        key = (game_id, version, JUDGE_VERSION, budget)
        seats = self.db.rows(f"SELECT * FROM {{p}}{JUDGED_SEATS.name} WHERE {KEY} ORDER BY seat", key)
        if not seats:
            return None
        moves = self.db.rows(f"SELECT * FROM {{p}}{JUDGED_MOVES.name} WHERE {KEY} ORDER BY idx", key)
        return {
            "game_id": game_id,
            "version": version,
            "judge_version": JUDGE_VERSION,
            "budget": budget,
            "moves": [_move(row) for row in moves],
            "seats": [_seat(row) for row in seats],
        }
