"""The read-model tables and the tracking row, written together in one transaction per batch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from service import library
from service.projections.batch import COUNTERS, Batch
from service.settings import Database

PROJECTION_NAME = "Digsite"  # the tracking row is keyed by the application followed
TRACKING_TABLE = "digsite_projection_tracking"
TABLES = (
    "rm_claims",
    "rm_purchases",
    "rm_player_rounds",
    "rm_player_games",
    "rm_moves",
    "rm_games",
    "rm_tournaments",
    "rm_players",
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
        self._copy = {
            kind: f"COPY {self.prefix}{table} FROM STDIN"
            for kind, table in (("move", "rm_moves"), ("purchase", "rm_purchases"), ("claim", "rm_claims"))
        }

    def close(self) -> None:
        self.tracker.datastore.close()

    def position(self) -> int:
        """The last notification id written (0 before the first batch)."""
        return self.tracker.max_tracking_id(PROJECTION_NAME) or 0

    def _q(self, sql: str) -> str:
        sql = sql.replace("{p}", self.prefix)
        return sql.replace("?", "%s") if self.db.backend == "postgresql" else sql

    def _statements(self) -> dict[str, str]:
        counters = ", ".join(COUNTERS)
        increments = ", ".join(f"{c} = rm_player_games.{c} + excluded.{c}" for c in COUNTERS)
        game_columns = (
            "game_id, kind, tournament_id, round_label, table_label, n_players, players, status, winner_seat, "
            "winner_player, win_how, moves, rounds, showdown, first_leader_seat, started_at, ended_at, last_version"
        )
        game_updates = ", ".join(f"{c} = excluded.{c}" for c in game_columns.split(", ")[1:])
        return {
            "player": self._q("INSERT INTO {p}rm_players VALUES (?, ?, ?, ?, ?) ON CONFLICT (player_id) DO NOTHING"),
            "tournament": self._q(
                "INSERT INTO {p}rm_tournaments VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id) DO NOTHING"
            ),
            "game": self._q(
                f"INSERT INTO {{p}}rm_games ({game_columns}) VALUES ({', '.join('?' * 18)}) "
                f"ON CONFLICT (game_id) DO UPDATE SET {game_updates}"
            ),
            "seat": self._q(
                "INSERT INTO {p}rm_player_games (game_id, seat, player_id, kind, n_players) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO NOTHING"
            ),
            "move": self._q(f"INSERT INTO {{p}}rm_moves VALUES ({', '.join('?' * 15)})"),
            "counters": self._q(
                f"INSERT INTO {{p}}rm_player_games (game_id, seat, player_id, kind, n_players, {counters}) "
                f"VALUES (?, ?, ?, '', 0, {', '.join('?' * len(COUNTERS))}) "
                f"ON CONFLICT (game_id, seat) DO UPDATE SET {increments}"
            ),
            "place": self._q(
                "INSERT INTO {p}rm_player_rounds (game_id, round, seat, player_id, place, vp_end) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, round, seat) DO UPDATE SET "
                "place = COALESCE(excluded.place, rm_player_rounds.place), "
                "vp_end = COALESCE(excluded.vp_end, rm_player_rounds.vp_end)"
            ),
            "torches": self._q(
                "INSERT INTO {p}rm_player_rounds (game_id, round, seat, player_id, torches_spent) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, round, seat) DO UPDATE SET "
                "torches_spent = rm_player_rounds.torches_spent + excluded.torches_spent"
            ),
            "purchase": self._q(f"INSERT INTO {{p}}rm_purchases VALUES ({', '.join('?' * 11)})"),
            "claim": self._q(f"INSERT INTO {{p}}rm_claims VALUES ({', '.join('?' * 8)})"),
            "result": self._q(
                "UPDATE {p}rm_player_games SET finished = ?, won = ?, final_vp = ? WHERE game_id = ? AND seat = ?"
            ),
        }

    def write(self, batch: Batch) -> None:
        """Every change of the batch and the tracking row, atomically."""
        assert batch.last_notification_id is not None
        with self._transaction() as curs:
            self._write(curs, batch)
            library.insert_tracking(self.tracker, curs, Tracking(PROJECTION_NAME, batch.last_notification_id))

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
        """The batch's rows: new ones appended, counters and game rows upserted."""
        sql = self._sql
        if batch.players:
            curs.executemany(sql["player"], batch.players)
        if batch.tournaments:
            curs.executemany(sql["tournament"], batch.tournaments)
        if batch.games:
            curs.executemany(sql["game"], [_game_row(row) for row in batch.games.values()])
        if batch.seats:
            curs.executemany(sql["seat"], batch.seats)
        if batch.moves:
            self._append(curs, "move", batch.moves)
        if batch.counters:
            player_of = batch.player_of
            rows = [(g, s, player_of.get((g, s), ""), *row) for (g, s), row in batch.counters.items()]
            curs.executemany(sql["counters"], rows)
        if batch.round_places:
            rows = [
                (g, r, s, batch.player_of.get((g, s), ""), v.get("place"), v.get("vp_end"))
                for (g, r, s), v in batch.round_places.items()
            ]
            curs.executemany(sql["place"], rows)
        if batch.round_torches:
            rows = [(g, r, s, batch.player_of.get((g, s), ""), n) for (g, r, s), n in batch.round_torches.items()]
            curs.executemany(sql["torches"], rows)
        if batch.purchases:
            self._append(curs, "purchase", batch.purchases)
        if batch.claims:
            self._append(curs, "claim", batch.claims)
        if batch.results:
            curs.executemany(sql["result"], batch.results)

    def _append(self, curs: Any, kind: str, rows: list[tuple[Any, ...]]) -> None:
        """Insert new rows (no conflict possible: the tracking row keeps a record from being projected twice).
        On PostgreSQL with COPY, which took a fifth of the time of ``executemany`` for the moves of a batch."""
        if self.db.backend == "postgresql":
            with curs.copy(self._copy[kind]) as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            curs.executemany(self._sql[kind], rows)

    def analyze(self) -> None:
        """Refresh the planner's statistics of every read model (and, on PostgreSQL, the visibility maps
        that let the covering indexes answer alone): after a bulk catch-up, before autovacuum gets to it,
        a player's page could otherwise be planned on empty-table statistics."""
        if self.db.backend == "postgresql":
            import psycopg

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
            table = f'"{self.db.schema}".{TRACKING_TABLE}' if self.db.backend == "postgresql" else "tracking"
            curs.execute(self._q(f"DELETE FROM {table} WHERE application_name = ?"), (PROJECTION_NAME,))


def _game_row(row: dict[str, Any]) -> tuple[Any, ...]:
    return (
        row["game_id"],
        row["kind"],
        row["tournament_id"],
        row["round_label"],
        row["table_label"],
        row["n_players"],
        json.dumps(row["players"]),
        row["status"],
        row["winner_seat"],
        row["winner_player"],
        row["win_how"],
        row["moves"],
        row["rounds"],
        int(row["showdown"]),
        row["first_leader_seat"],
        row["started_at"],
        row["ended_at"],
        row["last_version"],
    )
