"""A finished game's stored judgement (``rm_judged_moves``, ``rm_judged_seats``, written by ``digsite analyse``:
service/analysis/), read back as the API answers it (``results.Analysis``)."""

from __future__ import annotations

import json
from typing import Any, TypedDict, cast

from domain.judge import JUDGE_VERSION
from service.reading.read_db import ReadDatabase
from service.reading.results import Analysis, JudgedMove, JudgedSeat, MoveEstimate, SeatFigures
from service.store.read_models import JUDGED_MOVES, JUDGED_SEATS

KEY = "game_id = ? AND last_version = ? AND judge_version = ? AND budget = ?"


def of_game(row: str, budget: str | None = None) -> str:
    """SQL: the rows (``row``, an alias of ``JUDGED_SEATS`` or ``JUDGED_MOVES``) that are their game's judgement at
    their judge version, the one rule every reader of a game's judgement goes through (the API, the replay, skills
    and accuracy, fair play; ``digsite analyse`` judges a game that has none: ``stored.judged_games``).

    A judgement is of the game's moves, keyed by the version the game ended at (``judging.end_version``): a ruling
    recorded after the end moves the game's last version on and changes no move, so it does not stale the
    judgement. The rows: at ``budget`` (an SQL expression; None: the largest the game is judged at), at the
    earliest version keyed there: the end, for every row written since; for rows an earlier release keyed at the
    game's last version, that version (the end too, unless it judged a game already ruled on)."""
    seats = f"{{p}}{JUDGED_SEATS.name}"
    same = f"k.game_id = {row}.game_id AND k.judge_version = {row}.judge_version"
    largest = budget or f"(SELECT MAX(k.budget) FROM {seats} k WHERE {same})"
    earliest = f"(SELECT MIN(k.last_version) FROM {seats} k WHERE {same} AND k.budget = {row}.budget)"
    return f"{row}.budget = {largest} AND {row}.last_version = {earliest}"


def _every_seat(row: dict[str, Any], which: str) -> SeatFigures:
    """An estimate's every-seat figures (JSON lists in seat order; NULL in a row of an earlier judge version)."""
    return {
        "wins": None if row[f"{which}_wins"] is None else json.loads(row[f"{which}_wins"]),
        "values": None if row[f"{which}_values"] is None else json.loads(row[f"{which}_values"]),
    }


def _estimate(row: dict[str, Any], which: str) -> MoveEstimate | None:
    if row[f"{which}_value"] is None:
        return None
    return {
        "win": row[f"{which}_win"],
        "place": row[f"{which}_place"],
        "value": row[f"{which}_value"],
        "playouts": row["playouts"],
        **_every_seat(row, which),
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
        "options": None if row["options_values"] is None else _every_seat(row, "options"),
    }


def _seat(row: dict[str, Any]) -> JudgedSeat:
    names = ("seat", "judged", "accuracy", "mean_loss", "inaccuracies", "mistakes", "blunders")
    return cast(JudgedSeat, {name: row[name] for name in names})


class Judgements:
    """Stored judgements of the current judge version, by game."""

    def __init__(self, db: ReadDatabase) -> None:
        self.db = db

    def of(self, game_id: str, *, budget: int | None = None) -> Analysis | None:
        """The judgement of the finished game's moves (``of_game``: rulings since its end leave it standing), at
        ``budget`` (None: the largest stored); None when there is none."""
        where = f"j.game_id = ? AND j.judge_version = ? AND {of_game('j', None if budget is None else '?')}"
        params = (game_id, JUDGE_VERSION) if budget is None else (game_id, JUDGE_VERSION, budget)
        seats = self.db.rows(f"SELECT * FROM {{p}}{JUDGED_SEATS.name} j WHERE {where} ORDER BY seat", params)
        if not seats:
            return None
        version, budget = int(seats[0]["last_version"]), int(seats[0]["budget"])
        key = (game_id, version, JUDGE_VERSION, budget)  # (the seats' key: the moves are written beside them)
        moves = self.db.rows(f"SELECT * FROM {{p}}{JUDGED_MOVES.name} WHERE {KEY} ORDER BY idx", key)
        return {
            "game_id": game_id,
            "version": version,
            "judge_version": JUDGE_VERSION,
            "budget": budget,
            "moves": [_move(row) for row in moves],
            "seats": [_seat(row) for row in seats],
        }

    def of_player(self, player_id: str, kind: str) -> list[PlayerAccuracy]:
        """The player's accuracy in each judged finished game of ``kind`` (``player_accuracy``)."""
        return player_accuracy(self.db, player_id, kind)

    def field(self, kind: str) -> list[MeanAccuracy]:
        """Every judged seat's mean accuracy in finished games of ``kind``, by table size (``field_accuracy``)."""
        return field_accuracy(self.db, kind)

    def of_tournament(self, tournament_id: str) -> list[MeanAccuracy]:
        """Each player's mean accuracy over the tournament's judged games (``tournament_accuracy``)."""
        return tournament_accuracy(self.db, tournament_id)


# -- accuracy across games: the player page and the tournament page (docs/dashboard.md) --------------------------
# A seat's judged accuracy joined to the seat's player and the game's row; a game judged at several budgets counts
# once, at its largest (as the API answers by default: ``of_game``). Only finished games are ever judged.
_SEATS_JUDGED = (
    "FROM {p}rm_player_games pg "
    "JOIN {p}rm_games g ON g.game_id = pg.game_id "
    f"JOIN {{p}}{JUDGED_SEATS.name} js ON js.game_id = pg.game_id AND js.seat = pg.seat AND js.judge_version = ? "
    f"AND {of_game('js')} "
    "WHERE pg.finished = 1 AND g.status = 'over' AND js.accuracy IS NOT NULL"
)


class PlayerAccuracy(TypedDict):
    """One judged finished game of a player: the seat's accuracy (0-100) and how many of its moves were judged."""

    game_id: str
    ended_at: str | None
    n_players: int
    accuracy: float
    judged: int


class MeanAccuracy(TypedDict):
    """A mean of judged seats' accuracies over ``n`` seats (by table size, or by player in a tournament), with the
    mean of their squares (``square``) for the spread."""

    key: Any  # the table size, or the player's id
    accuracy: float
    square: float
    n: int


def player_accuracy(db: ReadDatabase, player_id: str, kind: str) -> list[PlayerAccuracy]:
    """The player's judged finished games of ``kind``, oldest first (by end, then id)."""
    rows = db.rows(
        "SELECT pg.game_id, g.ended_at, pg.n_players, js.accuracy, js.judged "
        f"{_SEATS_JUDGED} AND pg.player_id = ? AND pg.kind = ? ORDER BY g.ended_at, pg.game_id",
        (JUDGE_VERSION, player_id, kind),
    )
    return cast(list[PlayerAccuracy], rows)


def field_accuracy(db: ReadDatabase, kind: str) -> list[MeanAccuracy]:
    """The field: the mean accuracy of every judged seat of a finished game of ``kind``, by table size."""
    rows = db.rows(
        "SELECT pg.n_players AS key, "
        "AVG(js.accuracy) AS accuracy, AVG(js.accuracy * js.accuracy) AS square, COUNT(*) AS n "
        f"{_SEATS_JUDGED} AND pg.kind = ? GROUP BY pg.n_players ORDER BY pg.n_players",
        (JUDGE_VERSION, kind),
    )
    return cast(list[MeanAccuracy], rows)


def tournament_accuracy(db: ReadDatabase, tournament_id: str) -> list[MeanAccuracy]:
    """Each player's mean accuracy over the tournament's judged finished games (of the tournament's own game, as
    its standings count them), with ``n`` the games judged."""
    rows = db.rows(
        "SELECT pg.player_id AS key, "
        "AVG(js.accuracy) AS accuracy, AVG(js.accuracy * js.accuracy) AS square, COUNT(*) AS n "
        f"{_SEATS_JUDGED} AND g.tournament_id = ? "
        "AND g.kind = (SELECT t.game FROM {p}rm_tournaments t WHERE t.tournament_id = ?) "
        "GROUP BY pg.player_id ORDER BY pg.player_id",
        (JUDGE_VERSION, tournament_id, tournament_id),
    )
    return cast(list[MeanAccuracy], rows)
