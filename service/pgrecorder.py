"""A leaner append for PostgreSQL: one statement, one round trip, one commit per move.

The library's insert either pipelines several statements in an explicit transaction or calls a PL/pgSQL
function with an array of a composite type; measured on these machines both cost 3-4x a plain INSERT.
This recorder sends what the library's non-function path does (lock the table so that notification ids
commit in order, which tracking projections rely on; NOTIFY the listeners; insert) as a single
multi-statement query with client-side parameters. PostgreSQL runs such a query as one implicit
transaction: all of it commits, or none of it.

A move appends exactly one row, and for that case the same three steps live in a function
(``digsite_append_one``, migration 0003) called as one prepared statement with binary parameters: the
server parses and plans it once per connection, which measured about 40% cheaper than the
multi-statement query (which is still used for several rows at once, e.g. a new game).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg import ClientCursor, errors
from psycopg.sql import SQL, Identifier


class DigsitePostgresRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._appends: dict[int, bytes] = {}
        # Appends use their own few connections: checking one out of the library's pool (which has
        # maintenance threads) cost more than the append itself on these machines.
        self._idle: list[psycopg.Connection[Any]] = []
        self._idle_lock = threading.Lock()
        self._append_one = (
            SQL("SELECT {0}.digsite_append_one(%s, %s, %s, %b)")
            .format(Identifier(self.datastore.schema))
            .as_string(None)
        )

    def close_append_connections(self) -> None:
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    @contextmanager
    def _append_connection(self) -> Iterator[psycopg.Connection[Any]]:
        with self._idle_lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None or conn.closed:
            ds = self.datastore
            conn = psycopg.connect(
                dbname=ds.pool.kwargs["dbname"],
                host=ds.pool.kwargs["host"],
                port=ds.pool.kwargs["port"],
                user=ds.pool.kwargs["user"],
                password=ds.pool.kwargs["password"],
                autocommit=True,
            )
        try:
            yield conn
        except (psycopg.OperationalError, psycopg.InterfaceError):
            conn.close()  # a broken connection is not given back
            raise
        except BaseException:
            conn.close()  # e.g. IntegrityError (a conflicting move): never leave the connection open
            raise
        with self._idle_lock:
            if len(self._idle) < 16:
                self._idle.append(conn)
                conn = None
        if conn is not None:
            conn.close()

    def _append_statement(self, rows: int, conn: Any) -> bytes:
        # Composed SQL is rendered once per row count: rendering it on every append cost ~70 us.
        statement = self._appends.get(rows)
        if statement is None:
            table = SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name))
            statement = (
                SQL(
                    "SET LOCAL lock_timeout = '{timeout}s'; "
                    "LOCK TABLE {table} IN EXCLUSIVE MODE; "
                    "NOTIFY {channel}; "
                    "INSERT INTO {table} (originator_id, originator_version, topic, state) VALUES {values} "
                    "RETURNING notification_id"
                )
                .format(
                    timeout=self.datastore.lock_timeout,
                    table=table,
                    channel=Identifier(self.channel_name),
                    values=SQL(", ").join([SQL("(%s, %s, %s, %s)")] * rows),
                )
                .as_bytes(conn)
            )
            self._appends[rows] = statement
        return statement

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not stored_events:
            return []
        if len(stored_events) == 1:
            return [self._insert_one(stored_events[0])]
        params: list[Any] = []
        for e in stored_events:
            params.extend((e.originator_id, e.originator_version, e.topic, e.state))
        with self._append_connection() as conn, ClientCursor(conn) as curs:
            try:
                curs.execute(self._append_statement(len(stored_events), conn), params)
            except errors.UniqueViolation as error:
                raise IntegrityError(error) from error
            while curs.nextset():  # the results of SET, LOCK and NOTIFY come first
                pass
            return [row[0] for row in curs.fetchall()]

    def _insert_one(self, e: StoredEvent) -> int:
        with self._append_connection() as conn, conn.cursor() as curs:
            try:
                curs.execute(self._append_one, (e.originator_id, e.originator_version, e.topic, e.state), prepare=True)
            except errors.UniqueViolation as error:
                raise IntegrityError(error) from error
            row = curs.fetchone()
            assert row is not None
            return int(row[0])
