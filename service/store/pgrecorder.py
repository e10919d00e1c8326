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
multi-statement query (which is still used for several rows at once). Since migration 0009 its
notification carries the new record, so that the push feeds of the other processes need not read it
(service/serving/push.py); the multi-statement query's stays bare.

Outages. Every connection this process uses (appends, and the library's reads and snapshot writes through
``DigsiteDatastore``) comes from a ``GuardedPool`` (psycopg-pool, service/store/connection_pool.py) behind one
``StoreGuard`` (service/store/store_guard.py): while the server is down every request fails at once with
``StoreUnavailable`` (503) until a probe finds it back; a connection found stale (the server restarted) is
replaced and the statement tried once more on a fresh one. A retried append cannot record a move twice: the
unique (game, version) key refuses the second copy, and a refusal whose stored rows are exactly the ones sent
means the first attempt had committed. A read-only server (a standby, ``default_transaction_read_only``) refuses
writes with 503 too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing import persistence
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore, PostgresFactory
from eventsourcing.utils import Environment, EnvType
from psycopg import ClientCursor, errors
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier
from psycopg.types.composite import register_composite

from service.store import eventsourcing_workarounds
from service.store.backends import StoreUnavailable
from service.store.connection_pool import BOUNDED, GuardedPool
from service.store.store_guard import PROBE_INTERVAL_SECONDS, READ_ONLY, UNREACHABLE, StoreGuard, connection_lost

__all__ = ["PROBE_INTERVAL_SECONDS", "DigsiteDatastore", "DigsitePostgresFactory", "DigsitePostgresRecorder"]


class DigsiteDatastore(PostgresDatastore):
    """The library's datastore with the connections handed out by ``get_connection`` taken from a ``GuardedPool``
    (service/store/connection_pool.py) instead of the library's own pool (psycopg-pool too, which the library never
    opens here): the library's pool waits up to its timeout for a connection while the server is down, and
    reconnects with a back-off of its own after it is back, and the library has no setting for either.

    Made from the library's datastore by ``adopt`` (the factory builds that one from the environment)."""

    guard: StoreGuard
    connections: GuardedPool

    @classmethod
    def adopt(cls, datastore: PostgresDatastore) -> DigsiteDatastore:
        datastore = eventsourcing_workarounds.adopt(datastore, cls)
        datastore._configure = datastore.after_connect_func()
        datastore.guard = StoreGuard(datastore.connect)
        datastore.connections = GuardedPool(datastore._configured_connection, datastore.guard, "digsite-store")
        return datastore

    _configure: Callable[[psycopg.Connection[Any]], None]

    def connect(self, **options: Any) -> psycopg.Connection[Any]:
        """A new connection to this store (``options`` as psycopg takes them), bounded in time."""
        kwargs = eventsourcing_workarounds.connect_kwargs(self)
        kwargs.update(BOUNDED, **options)
        return psycopg.Connection.connect(**kwargs)

    def _configured_connection(self) -> psycopg.Connection[Any]:
        conn = self.connect()
        self._configure(conn)
        return conn

    _adapters_pending = False

    def register_type_adapters(self) -> None:
        """The library reads its composite types when a recorder is made: if the server is down then (a worker
        started during an outage), they are read with the first connection that works instead."""
        try:
            super().register_type_adapters()
        except StoreUnavailable:
            self._adapters_pending = True

    @contextmanager
    def get_connection(self) -> Iterator[psycopg.Connection[Any]]:
        self.guard.check()
        if self._adapters_pending:
            self._adapters_pending = False
            self.register_type_adapters()  # (its own connection, through here); pending again if it failed
            if self._adapters_pending:
                raise StoreUnavailable(UNREACHABLE)
        conn: psycopg.Connection[Any] | None = None
        try:
            conn = self.connections.take()
            for info in self.psycopg_type_adapters.values():
                if not conn.adapters.types.get(info.oid):
                    register_composite(info, conn)
            yield conn
        except errors.ReadOnlySqlTransaction as error:
            if conn is not None:  # its session may stay read-only after the server takes writes again
                conn.close()
            raise StoreUnavailable(READ_ONLY, read_only=True) from error
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            if conn is not None:
                conn.close()
            if connection_lost(error):
                self.guard.lost(error)  # raises StoreUnavailable if the server is down
            # The server is up: the library retries this (0.2 s later), on a fresh connection.
            if isinstance(error, psycopg.InterfaceError):
                raise persistence.InterfaceError(str(error)) from error
            raise persistence.OperationalError(str(error)) from error
        except psycopg.DataError as error:
            raise persistence.DataError(str(error)) from error
        except psycopg.IntegrityError as error:
            raise persistence.IntegrityError(str(error)) from error
        except psycopg.InternalError as error:
            raise persistence.InternalError(str(error)) from error
        except psycopg.ProgrammingError as error:
            raise persistence.ProgrammingError(str(error)) from error
        except psycopg.NotSupportedError as error:
            raise persistence.NotSupportedError(str(error)) from error
        except psycopg.DatabaseError as error:
            raise persistence.DatabaseError(str(error)) from error
        except psycopg.Error as error:
            raise persistence.PersistenceError(str(error)) from error
        finally:
            if conn is not None:  # (a closed one too: that frees its place)
                self.connections.give(conn)  # closed instead if it is broken or left in a transaction

    def __enter__(self) -> DigsiteDatastore:
        return self  # the library's pool is never opened: connections come from ``connections``

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        connections = getattr(self, "connections", None)
        if connections is not None:
            connections.close()
        super().close()


class DigsitePostgresFactory(PostgresFactory):
    """The library's PostgreSQL factory (``PERSISTENCE_MODULE=service.store.pgrecorder:DigsitePostgresFactory``) whose
    recorders share one ``DigsiteDatastore``."""

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        DigsiteDatastore.adopt(self.datastore)


class DigsitePostgresRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._appends: dict[int, bytes] = {}
        # Appends have a pool of their own: a move never waits behind the library's reads for a connection.
        datastore = self.datastore
        if not isinstance(datastore, DigsiteDatastore):  # made by the library's own factory
            datastore = DigsiteDatastore.adopt(datastore)
        self._guard = datastore.guard
        self._appenders = GuardedPool(
            lambda: datastore.connect(autocommit=True, row_factory=tuple_row), self._guard, "digsite-appends"
        )
        self._append_one = (
            SQL("SELECT {0}.digsite_append_one(%s, %s, %s, %b)")
            .format(Identifier(self.datastore.schema))
            .as_string(None)
        )

    def close_append_connections(self) -> None:
        self._appenders.close()

    @contextmanager
    def _append_connection(self) -> Iterator[psycopg.Connection[Any]]:
        # While the store is known to be down: StoreUnavailable at once. A broken connection, or a refused append (a
        # conflicting move): closed, and replaced by the pool.
        with self._appenders.taken() as conn:
            yield conn

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
        """Append the records; on a lost connection, once more on a fresh one (see the module's docstring)."""
        try:
            try:
                return self._insert_events_once(stored_events)
            except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                if not connection_lost(error):
                    raise
                self._guard.lost(error)  # the server is down: StoreUnavailable; else it was a stale connection
            try:
                return self._insert_events_once(stored_events)
            except IntegrityError:
                landed = self._landed(stored_events)  # the first attempt committed before its connection went
                if landed is None:
                    raise
                return landed
        except errors.ReadOnlySqlTransaction as error:
            self._appenders.clear()  # sessions opened while the server was read-only may stay so: not reused
            raise StoreUnavailable(READ_ONLY, read_only=True) from error
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            if connection_lost(error):
                self._guard.lost(error)
            raise persistence.OperationalError(str(error)) from error  # e.g. a lock timeout: 503 too

    def _landed(self, stored_events: Sequence[StoredEvent]) -> list[int] | None:
        """The notification ids of exactly these records if all of them are stored, else None."""
        table = SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name))
        query = SQL(
            "SELECT notification_id, topic, state FROM {0} WHERE originator_id = %s AND originator_version = %s"
        ).format(table)
        ids = []
        with self._append_connection() as conn, conn.cursor() as curs:
            for e in stored_events:
                row = curs.execute(query, (e.originator_id, e.originator_version)).fetchone()
                if row is None or row[1] != e.topic or bytes(row[2]) != e.state:
                    return None
                ids.append(int(row[0]))
        return ids

    def _insert_events_once(self, stored_events: Sequence[StoredEvent]) -> Sequence[int]:
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
