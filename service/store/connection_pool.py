"""The one way Digsite pools PostgreSQL connections: a psycopg-pool ``ConnectionPool`` behind a ``StoreGuard``.

Three things a bare pool does not do, and why this module is more than ``ConnectionPool(...)``:

- During an outage a request fails at once (503), never after the pool's waiting timeout: ``take`` asks the
  guard first, and a request already waiting looks at the guard while it waits (within 0.05 to 0.4 s).
- The pool makes its connections with the caller's ``connect`` (through its documented ``connection_class``), so
  that a failed connect tells the guard at once: refused (the server is down) or timed out while the others
  answer (the server is busy, not down: ``StoreGuard.connect_failed``).
- A connection that fails is never retried by the pool with a back-off of its own (``reconnect_timeout=0``): after
  an outage the pool grows again on demand as soon as the guard finds the server back, and drops its idle
  connections then (``clear``), since each of them predates the outage.

A process keeps at most ``OPEN_PER_POOL`` connections out per pool (in use or being opened); a thread past that
waits for one to come back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool, PoolTimeout

from service.store.backends import StoreUnavailable
from service.store.store_guard import BUSY, UNREACHABLE, StoreGuard, connection_lost

# A connection for the requests' work has longer than a probe: under a burst of 1,500 waits on a loaded machine
# (load 25, two cores) the compose stack's SCRAM handshakes took up to 2.4 s (median 1.7 s of those over 0.3 s),
# and at 2 s 17 of them ran out. A server that refuses connections (stopped) still fails them at once.
WORK_CONNECT_TIMEOUT_SECONDS = 5
# Connections a pool has out at once (in use or being opened). Without a bound a burst of 750 waiting requests in
# one worker opened connections all at once: past PostgreSQL's max_connections (100 by default), and each handshake
# (SCRAM in the compose stack) starved of the interpreter by the burst's other threads past the connect timeout:
# the store was taken for down and /health and the waits answered 503 (tests/docker/test_stack.py). 1,500 waits
# over two workers use about 26 on a quiet server.
OPEN_PER_POOL = 16
TAKE_TIMEOUT_SECONDS = 10  # the longest a thread waits for a connection: what a lost server takes to be given up
# How often a thread waiting for a connection looks whether the guard found the store down meanwhile: after 0.05 s,
# then twice as long each time, up to 0.4 s. A burst of 200 readers on a cold pool whose connects took 0.3 s (load 18,
# docs/performance.md section 2) was served in 1.4 to 2.7 s with 0.05 s throughout, the threads' polls crowding out
# the work; 0.4 to 0.8 s doubling, as with the hand-made lists before (0.6 to 0.9 s).
WAIT_SLICE_SECONDS = 0.05
LONGEST_WAIT_SLICE_SECONDS = 0.4
# A server that stops answering (a network gone, a host gone) is given up in seconds, not the minutes TCP
# waits by default: keepalives while waiting for an answer, and a bound on data left unacknowledged.
BOUNDED = {
    "connect_timeout": WORK_CONNECT_TIMEOUT_SECONDS,
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 10_000,
}
T = TypeVar("T")
Connection = psycopg.Connection[Any]


class GuardedPool:
    """A psycopg-pool of connections made by ``connect``, reporting to ``guard``. A connection is taken out, used
    by one thread, and given back (closed if it failed or was left in a transaction: the pool then replaces it)."""

    def __init__(self, connect: Callable[[], Connection], guard: StoreGuard, name: str) -> None:
        self._connect = connect  # (looked up on every connect: tests replace it)
        self._guard = guard
        guard.pools.append(self)
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            connection_class=self._connection_class(),
            min_size=0,  # connections are opened when asked for, not kept open by a worker retrying in an outage
            max_size=OPEN_PER_POOL,
            timeout=TAKE_TIMEOUT_SECONDS,
            reconnect_timeout=0,
            num_workers=1,
            name=name,
            open=True,
        )

    def _connection_class(self) -> type[Connection]:
        made_by = self._new_connection

        class Made(psycopg.Connection[Any]):  # the pool calls ``connection_class.connect`` to add a connection
            @classmethod
            def connect(cls, conninfo: str = "", **kwargs: Any) -> Any:
                return made_by()

        return Made

    def _new_connection(self) -> Connection:
        """A connection for the pool (in its worker thread); a failure tells the guard, then the pool."""
        if self._guard.down:  # (the pool replacing a connection lost in the outage: no use trying now)
            raise StoreUnavailable(UNREACHABLE)
        started = time.monotonic()
        try:
            return self._connect()
        except psycopg.OperationalError as error:
            self._guard.connect_failed(error, started)  # raises: busy, or the store taken for down

    def take(self, timeout: float = TAKE_TIMEOUT_SECONDS) -> Connection:
        """A connection, once one is free (or made): ``StoreUnavailable`` at once while the store is known to be down,
        or after ``timeout`` if every connection stays in use."""
        self._guard.check()
        try:
            return self._pool.getconn(min(WAIT_SLICE_SECONDS, timeout))  # (a free connection: the move's path)
        except PoolTimeout:
            pass
        deadline = time.monotonic() + timeout - min(WAIT_SLICE_SECONDS, timeout)
        wait = WAIT_SLICE_SECONDS
        while True:
            if self._guard.down:  # a connect failed meanwhile: the server is down
                raise StoreUnavailable(UNREACHABLE)
            left = deadline - time.monotonic()
            if left <= 0:
                raise StoreUnavailable(BUSY)
            wait = min(2 * wait, LONGEST_WAIT_SLICE_SECONDS)
            try:
                return self._pool.getconn(min(wait, left))
            except PoolTimeout:
                pass

    def give(self, conn: Connection) -> None:
        if not conn.closed:
            if conn.pgconn.transaction_status == TransactionStatus.IDLE:
                self._guard.answered()
            else:
                conn.close()  # left in a transaction or a statement: never reused
        self._pool.putconn(conn)

    @contextmanager
    def taken(self, timeout: float = TAKE_TIMEOUT_SECONDS) -> Iterator[Connection]:
        """A connection for the block, given back after it (closed first if the block failed)."""
        conn = self.take(timeout)
        try:
            yield conn
        except BaseException:
            conn.close()  # a broken connection, or one left in a failed statement: never reused
            raise
        finally:
            self.give(conn)

    def run(self, work: Callable[[Connection], T]) -> T:
        """``work(conn)`` on a connection of the pool; if that connection turns out lost while the server is up (it
        restarted under the idle connections), once more on a fresh one: ``work`` must be safe to repeat (a read)."""
        try:
            with self.taken() as conn:
                return work(conn)
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            if not connection_lost(error):
                raise
            self._guard.lost(error)  # the server is down: StoreUnavailable; else the idle connections are dropped
        with self.taken() as conn:
            return work(conn)

    def opened(self) -> int:
        """Connections the pool counts as open: idle, in use, or being opened (a connect it will try again counts)."""
        return int(self._pool.get_stats().get("pool_size", 0))

    def clear(self) -> None:
        """Drop the idle connections (they may be stale); those in use are closed when they come back."""
        self._pool.drain()

    def close(self) -> None:
        self._pool.close()


def guarded_pool(conninfo: str, name: str, **options: Any) -> GuardedPool:
    """A pool of connections to the server at ``conninfo`` (``options`` as psycopg takes them), with a guard of its
    own: for a database other than the game store's (the read models')."""

    def connect(**more: Any) -> Connection:
        return psycopg.Connection.connect(conninfo, **{**BOUNDED, **options, **more})

    return GuardedPool(connect, StoreGuard(connect), name)
