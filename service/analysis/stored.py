"""Judgements written to the read models (``rm_judged_moves``, ``rm_judged_seats``: service/store/read_models.py),
one transaction a game, keyed by (game, the version it ended at, judge version, budget): the game's rows at its judge
version and budget are replaced whole (whatever version an earlier release keyed them at: the last record's, a
ruling's after a ruling), so writing a judgement twice leaves the same rows, and a run stopped at any point leaves
every game whole or absent. The rows are written as the judge rounds them (``Judgement.to_dict``), the figures the
API answers."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from typing import Any

import psycopg

from domain.judge import Judgement, SeatSummary
from service.analysis.judging import Judged
from service.settings import Database
from service.store.read_models import ESTIMATES, JUDGED_MOVES, JUDGED_SEATS
from service.store.schema import Table

# A game's judgement at a judge version and budget, at whichever version it is keyed (the column is ``last_version``).
REPLACED = "game_id = ? AND judge_version = ? AND budget = ?"


def _insert_sql(table: Table) -> str:
    return f"INSERT INTO {{p}}{table.name} VALUES ({', '.join('?' for _ in table.columns)})"


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, separators=(",", ":"))


def move_row(key: tuple[Any, ...], version: int, judgement: Judgement) -> tuple[Any, ...]:
    """A decision's row, in ``JUDGED_MOVES``'s column order."""
    shown = judgement.to_dict()
    played, best = shown["played_estimate"] or {}, shown["best_estimate"] or {}
    return (
        *key, judgement.index, version, judgement.seat, int(judgement.judged), judgement.legal,
        _json(judgement.played), _json(judgement.best),
        played.get("win"), played.get("place"), played.get("value"),
        best.get("win"), best.get("place"), best.get("value"),
        played.get("playouts"), shown["loss"], shown["accuracy"], judgement.mark,
        *every_seat(shown),
    )  # fmt: skip


def every_seat(shown: dict[str, Any]) -> list[str | None]:
    """The played, best and options estimates' every-seat figures (``wins``, ``values``) as JSON, in
    ``JUDGED_MOVES``'s order; NULL for an estimate the decision has not (a forced move)."""
    out: list[str | None] = []
    for which in ESTIMATES:
        estimate = shown["options" if which == "options" else f"{which}_estimate"]
        out += [None if estimate is None else _json(estimate[figure]) for figure in ("wins", "values")]
    return out


def seat_row(key: tuple[Any, ...], summary: SeatSummary) -> tuple[Any, ...]:
    """A seat's row, in ``JUDGED_SEATS``'s column order."""
    shown = summary.to_dict()
    return (
        *key, summary.seat, summary.judged, shown["accuracy"], shown["mean_loss"],
        summary.inaccuracies, summary.mistakes, summary.blunders,
    )  # fmt: skip


def rows(judged: Judged) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The game's rows for ``JUDGED_MOVES`` and ``JUDGED_SEATS``."""
    j = judged.judgement
    key = (judged.game_id, judged.end_version, j.judge_version, j.budget)
    moves = [move_row(key, version, m) for version, m in zip(judged.versions, j.moves, strict=True)]
    return moves, [seat_row(key, s) for s in j.seats]


class _Writer:
    """One connection to the store's database, ``{p}`` and ``?`` spelt for its backend."""

    def __init__(self, db: Database, conn: Any) -> None:
        self.db = db
        self.conn = conn
        self.prefix = f'"{db.schema}".' if db.backend == "postgresql" else ""

    def sql(self, text: str) -> str:
        text = text.replace("{p}", self.prefix)
        return text.replace("?", "%s") if self.db.backend == "postgresql" else text

    def execute(self, text: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(self.sql(text), params)

    def executemany(self, text: str, params: list[tuple[Any, ...]]) -> None:
        if self.db.backend == "postgresql":
            self.conn.cursor().executemany(self.sql(text), params)
        else:
            self.conn.executemany(self.sql(text), params)


@contextmanager
def _transaction(db: Database, *, writes: bool = True) -> Iterator[_Writer]:
    """One transaction on ``db``, committed if the block ends normally, else rolled back."""
    if db.backend == "sqlite":
        with closing(sqlite3.connect(db.path, isolation_level=None, timeout=30)) as conn:
            # A writer takes SQLite's write lock first: two writers never deadlock upgrading a read lock.
            conn.execute("BEGIN IMMEDIATE" if writes else "BEGIN")
            try:
                yield _Writer(db, conn)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return
    with psycopg.connect(db.psycopg_conninfo()) as pg, pg.transaction():
        yield _Writer(db, pg)


def write(db: Database, judged: Judged) -> None:
    """Store a game's judgement: its rows at its judge version and budget replaced whole, in one transaction."""
    moves, seats = rows(judged)
    j = judged.judgement
    with _transaction(db) as out:
        for table in (JUDGED_MOVES, JUDGED_SEATS):
            out.execute(f"DELETE FROM {{p}}{table.name} WHERE {REPLACED}", (judged.game_id, j.judge_version, j.budget))
        out.executemany(_insert_sql(JUDGED_MOVES), moves)
        out.executemany(_insert_sql(JUDGED_SEATS), seats)


def judged_games(db: Database, judge_version: int, budget: int) -> set[str]:
    """The games with a judgement stored at ``judge_version`` and ``budget``, at whatever version it is keyed: each
    is the judgement of the game's moves, which no later record changes (``service.reading.judgements.of_game``
    reads it), so a game here needs no judging again."""
    with _transaction(db, writes=False) as out:
        found = out.execute(
            f"SELECT DISTINCT game_id FROM {{p}}{JUDGED_SEATS.name} WHERE judge_version = ? AND budget = ?",
            (judge_version, budget),
        ).fetchall()
    return {str(row[0]) for row in found}
