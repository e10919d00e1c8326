"""The read models' database: rows from SQL, for the read side's query objects (``service.reading.lists``,
``service.reading.analytics``). It holds connections and nothing that can write a game.

SQL here names a table as ``{p}rm_games``: ``{p}`` is the schema's prefix on PostgreSQL (nothing on SQLite), and
``?`` marks a parameter on both.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row

from service.reading.projections.tables import PROJECTION_NAME, TRACKING_TABLE
from service.store.backends import StoreUnavailable
from service.store.connection_pool import GuardedPool, guarded_pool

CONNECT_TIMEOUT_SECONDS = 2  # the read models' database is given up after this during an outage
SQLITE_IDLE = 8  # SQLite connections kept between requests
READ_MODELS_UNREACHABLE = "the read models' database is unreachable; this page works again once it is back"


class ReadDatabase:
    """Rows of the read models (``rm_*``) on the store's database (``database``: the store's settings)."""

    def __init__(self, database: Any) -> None:
        self.database = database
        self.backend: str = database.backend
        self.prefix = f'"{database.schema}".' if self.backend == "postgresql" else ""
        self._pool: GuardedPool | None = None
        self._sqlite_idle: list[sqlite3.Connection] = []  # a few connections shared by request threads
        self._sqlite_lock = threading.Lock()
        self._pool_lock = threading.Lock()  # request threads may ask for the first rows at once: one pool
        tracking = f"{self.prefix}{TRACKING_TABLE}" if self.backend == "postgresql" else "tracking"
        self._position_sql = f"SELECT notification_id FROM {tracking} WHERE application_name = '{PROJECTION_NAME}'"

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
        with self._sqlite_lock:
            idle, self._sqlite_idle = self._sqlite_idle, []
        for conn in idle:
            conn.close()

    def _open_pool(self) -> GuardedPool:
        with self._pool_lock:
            if self._pool is None:
                # During an outage a page fails at once, and a connection left stale by a restart is replaced
                # (service/store/connection_pool.py).
                self._pool = guarded_pool(
                    self.database.psycopg_conninfo(),
                    "digsite-read-models",
                    row_factory=dict_row,
                    autocommit=True,
                    connect_timeout=CONNECT_TIMEOUT_SECONDS,
                )
            return self._pool

    def position(self) -> int:
        """How far the read models have followed the store (the projection's tracked notification): the same
        position, the same rows."""
        found = self.rows(self._position_sql)
        return int(found[0]["notification_id"]) if found else 0

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        sql = sql.replace("{p}", self.prefix)
        if self.backend == "postgresql":
            pool = self._pool or self._open_pool()
            try:
                return pool.run(lambda conn: list(conn.execute(sql.replace("?", "%s"), params).fetchall()))
            except (psycopg.OperationalError, StoreUnavailable) as error:
                raise StoreUnavailable(READ_MODELS_UNREACHABLE) from error
        # The dashboard's server runs each request in a new thread: borrow a connection, give it back.
        with self._sqlite_lock:
            conn = self._sqlite_idle.pop() if self._sqlite_idle else None
        if conn is None:
            conn = sqlite3.connect(self.database.path, check_same_thread=False)
            conn.row_factory = sqlite3.Row
        try:
            return [dict(row) for row in conn.execute(sql, params).fetchall()]
        finally:
            with self._sqlite_lock:
                if len(self._sqlite_idle) < SQLITE_IDLE:
                    self._sqlite_idle.append(conn)
                    conn = None
            if conn is not None:
                conn.close()
