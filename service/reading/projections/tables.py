"""The read-model tables and the tracking row, written together in one transaction per batch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from service.reading.projections.batch import KIND, MOVES, N_PLAYERS, PLAYER, THINK_US, Batch
from service.reading.projections.facts import StoredTable, all_tables, every_game_table
from service.reading.projections.field import FieldSums
from service.reading.projections.ratings import KeptRatings
from service.settings import Database
from service.store import eventsourcing_workarounds, read_models

PROJECTION_NAME = read_models.PROJECTION_NAME  # the tracking row is keyed by the application followed
TRACKING_TABLE = read_models.TRACKING_TABLE["postgresql"]
TABLES = all_tables()  # every read model: each registered game's fact tables, then the core's

GAME_COLUMNS = (
    *("game_id", "kind", "tournament_id", "round_label", "table_label", "n_players", "players", "status"),
    *("winner_seat", "winner_player", "winners", "round", "moves", "started_at", "ended_at", "last_version"),
    "detail",
)


def upsert_sql(prefix: str, stored: StoredTable) -> str:
    """The statement writing one row of a game's fact table, combining with a stored row of the same key as
    the batch combined its rows (``facts.StoredTable.combine``): add sums, set takes the newest non-null value,
    keep the first non-null one. An append table's rows are new: a plain insert."""
    table = stored.table
    columns = table.column_names()
    if table.append:
        names = ("game_id", "version", "idx", *columns)
        return f"INSERT INTO {prefix}{stored.name} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
    key = ", ".join(("game_id", *table.key_names()))
    updates = []
    for c in table.columns:
        mine, new = f"{stored.name}.{c.name}", f"excluded.{c.name}"
        if c.combine == "add":
            updates.append(f"{c.name} = {mine} + {new}")
        elif c.combine == "set":
            updates.append(f"{c.name} = COALESCE({new}, {mine})")
        else:
            updates.append(f"{c.name} = COALESCE({mine}, {new})")
    # Only keep columns (or none): a second row for the key changes nothing.
    action = f"DO UPDATE SET {', '.join(updates)}" if any(c.combine != "keep" for c in table.columns) else "DO NOTHING"
    names = ("game_id", *columns)
    return (
        f"INSERT INTO {prefix}{stored.name} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
        f"ON CONFLICT ({key}) {action}"
    )


class ReadModels:
    """Writes batches; the library's tracking recorder keeps the position in the log."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.tracker: PostgresTrackingRecorder | SQLiteTrackingRecorder
        if db.backend == "postgresql":
            datastore = PostgresDatastore(
                dbname=db.dbname,
                host=db.host,
                port=db.port,
                user=db.user,
                password=db.password,
                schema=db.schema,
                pool_size=2,
            )
            self.tracker = PostgresTrackingRecorder(datastore, tracking_table_name=TRACKING_TABLE)
            self.prefix = f'"{db.schema}".'
        else:
            self.tracker = SQLiteTrackingRecorder(SQLiteDatastore(db.path))
            self.prefix = ""
        self._sql = self._statements()
        self._facts = {t.name: (self._q(upsert_sql(self.prefix, t)), t) for t in every_game_table()}
        appended = [("rm_moves", "rm_moves"), *((t.name, t.name) for t in every_game_table() if t.append)]
        self._copy = {name: f"COPY {self.prefix}{table} FROM STDIN" for name, table in appended}
        self.field = FieldSums(self._q, db.backend)
        self.ratings = KeptRatings(self._q)

    def close(self) -> None:
        self.tracker.datastore.close()

    def position(self) -> int:
        """The last notification id written (0 before the first batch)."""
        return self.tracker.max_tracking_id(PROJECTION_NAME) or 0

    def _q(self, sql: str) -> str:
        sql = sql.replace("{p}", self.prefix)
        return sql.replace("?", "%s") if self.db.backend == "postgresql" else sql

    def _statements(self) -> dict[str, str]:
        game_updates = ", ".join(f"{c} = excluded.{c}" for c in GAME_COLUMNS[1:])
        return {
            "player": self._q(
                "INSERT INTO {p}rm_players (player_id, name, kind, bot, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (player_id) DO NOTHING"
            ),
            "totals": self._q("UPDATE {p}rm_players SET games = games + ?, wins = wins + ? WHERE player_id = ?"),
            "tournament": self._q(
                "INSERT INTO {p}rm_tournaments (tournament_id, name, rounds, game, created_at, options) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id) DO NOTHING"
            ),
            "game": self._q(
                f"INSERT INTO {{p}}rm_games ({', '.join(GAME_COLUMNS)}) VALUES ({', '.join('?' * len(GAME_COLUMNS))}) "
                f"ON CONFLICT (game_id) DO UPDATE SET {game_updates}"
            ),
            # Think time is summed in milliseconds rounded to the microsecond at every step: the sums of a
            # rebuild and of an incremental run, cut into batches differently, are then the same number.
            "seat": self._q(
                "INSERT INTO {p}rm_player_games (game_id, seat, player_id, kind, n_players, moves, think_ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "moves = rm_player_games.moves + excluded.moves, "
                + (
                    "think_ms = ROUND(CAST(rm_player_games.think_ms + excluded.think_ms AS NUMERIC), 3)"
                    if self.db.backend == "postgresql"
                    else "think_ms = ROUND(rm_player_games.think_ms + excluded.think_ms, 3)"
                )
            ),
            "move": self._q("INSERT INTO {p}rm_moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            "ruling": self._q(
                "INSERT INTO {p}rm_rulings (subject_id, version, ruling, reason, details, at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (subject_id, version) DO NOTHING"
            ),
            "result": self._q(
                "UPDATE {p}rm_player_games SET finished = ?, won = ?, place = ?, score = ? "
                "WHERE game_id = ? AND seat = ?"
            ),
        }

    def write(self, batch: Batch) -> None:
        """Every change of the batch and the tracking row, atomically."""
        assert batch.last_notification_id is not None
        with self._transaction() as curs:
            self._write(curs, batch)
            self.field.keep(curs, {row[4] for row in batch.results})  # (the games the batch finished)
            self.ratings.rate(curs, [game_id for game_id, *_ in batch.finishes])  # (in finish order: see ratings.py)
            self._add_totals(curs, batch.totals)
            eventsourcing_workarounds.insert_tracking(
                self.tracker, curs, Tracking(PROJECTION_NAME, batch.last_notification_id)
            )

    def _add_totals(self, curs: Any, totals: dict[str, list[int]]) -> None:
        """Add the batch's finished games and wins to its players' rows (``rm_players.games``, ``wins``): a page
        naming players reads their totals by key instead of counting their games, which grow with the store.
        Here and not in ``_write``: a distributed rebuild's shares would add to the same players' rows side by
        side (waiting on each other's row locks, or deadlocking); it counts every player's once at its end
        (``count_totals``). In player order, so that two writers could never take two rows in opposite orders."""
        if totals:
            curs.executemany(self._sql["totals"], [(*totals[p], p) for p in sorted(totals)])

    def count_totals(self, curs: Any) -> None:
        """Every player's finished games and wins counted afresh from their seats (``rm_player_games``): what the
        batches add up to, in one statement (the end of a distributed rebuild)."""
        counted = (
            "SELECT player_id, COUNT(*) AS games, SUM(won) AS wins FROM {p}rm_player_games WHERE finished = 1 "
            "GROUP BY player_id"
        )
        curs.execute(self._q("UPDATE {p}rm_players SET games = 0, wins = 0 WHERE games <> 0 OR wins <> 0"))
        curs.execute(
            self._q(
                f"UPDATE {{p}}rm_players SET games = t.games, wins = t.wins FROM ({counted}) AS t "
                "WHERE t.player_id = rm_players.player_id"
            )
        )

    def complete_field(self) -> None:
        """Sum the field's figures over every finished game if they are not complete (a store upgraded from
        before the sums, or whose sums were lost): the pages read them from then on, even with no new record."""
        with self._transaction() as curs:
            if not self.field.complete(curs):
                self.field.refill(curs)

    def unrated(self) -> int:
        """Finished games projected before ratings were kept (``KeptRatings.unrated``)."""
        with self.tracker.datastore.transaction(commit=False) as curs:
            return self.ratings.unrated(curs)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """A write transaction that does not wait for the disk at commit.

        Read models are derived and their position is committed with them: if a crash loses the last few
        commits, rows and position are lost together and those records are simply projected again. So the
        wait for the disk on every commit (an fsync on SQLite, a WAL flush on PostgreSQL) buys nothing
        here. (The event store's own commits still wait: only this connection's setting changes.)"""
        datastore = self.tracker.datastore
        if isinstance(datastore, SQLiteDatastore):
            with datastore.get_connection(commit=True) as conn:
                with conn.cursor() as setting:  # (not within a transaction: SQLite refuses that)
                    setting.execute("PRAGMA synchronous = NORMAL")
                with conn.transaction(commit=True) as curs:
                    yield curs
        else:
            with datastore.transaction(commit=True) as curs:
                curs.execute("SET LOCAL synchronous_commit TO OFF")
                yield curs

    def _write(self, curs: Any, batch: Batch) -> None:
        """The batch's rows: new ones appended, the others upserted (combined with what is stored)."""
        sql = self._sql
        if batch.players:
            curs.executemany(sql["player"], batch.players)
        if batch.tournaments:
            curs.executemany(sql["tournament"], batch.tournaments)
        if batch.rulings:
            curs.executemany(sql["ruling"], batch.rulings)
        if batch.games:
            curs.executemany(sql["game"], [_game_row(row) for row in batch.games.values()])
        if batch.seats:
            rows = [
                (g, s, v[PLAYER], v[KIND], v[N_PLAYERS], v[MOVES], v[THINK_US] / 1000)
                for (g, s), v in batch.seats.items()
            ]
            curs.executemany(sql["seat"], rows)
        if batch.moves:
            self._append(curs, "rm_moves", sql["move"], batch.moves)
        for table, combined in batch.facts.items():
            if combined:
                curs.executemany(self._facts[table][0], [(*key, *values) for key, values in combined.items()])
        for table, rows in batch.appended.items():
            if rows:
                self._append(curs, table, self._facts[table][0], rows)
        if batch.results:
            curs.executemany(sql["result"], batch.results)
        self.ratings.finished(curs, batch.finishes)  # (their order; rated by ``write``, not by a rebuild's shares)

    def _append(self, curs: Any, table: str, insert: str, rows: list[tuple[Any, ...]]) -> None:
        """Insert new rows (no conflict possible: the tracking row keeps a record from being projected twice).
        On PostgreSQL with COPY, which took a fifth of the time of ``executemany`` for the moves of a batch."""
        if self.db.backend == "postgresql":
            with curs.copy(self._copy[table]) as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            curs.executemany(insert, rows)

    def analyze(self) -> None:
        """Refresh the planner's statistics of every read model (and, on PostgreSQL, the visibility maps
        that let the covering indexes answer alone): after a bulk catch-up, before autovacuum gets to it,
        a player's page could otherwise be planned on empty-table statistics."""
        if self.db.backend == "postgresql":
            with psycopg.connect(self.db.psycopg_conninfo(), autocommit=True) as conn:  # (VACUUM: no transaction)
                for table in TABLES:
                    conn.execute(f"VACUUM (ANALYZE) {self.prefix}{table}")
        else:
            with self.tracker.datastore.transaction(commit=True) as curs:
                for table in TABLES:
                    curs.execute(f"ANALYZE {table}")

    def clear(self) -> None:
        """Empty every read model and forget the position (for a rebuild), in one transaction."""
        with self.tracker.datastore.transaction(commit=True) as curs:
            for table in TABLES:
                curs.execute(self._q(f"DELETE FROM {{p}}{table}"))
            table = (
                f'"{self.db.schema}".{TRACKING_TABLE}'
                if self.db.backend == "postgresql"
                else read_models.TRACKING_TABLE["sqlite"]
            )
            curs.execute(self._q(f"DELETE FROM {table} WHERE application_name = ?"), (PROJECTION_NAME,))


def _game_row(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(
        json.dumps(row[c]) if c in ("players", "winners") else row[c] if c != "detail" else _detail(row[c])
        for c in GAME_COLUMNS
    )


def _detail(detail: Any) -> str | None:
    return None if detail is None else json.dumps(detail, sort_keys=True, default=str)
