"""What a process knows about its PostgreSQL server being reachable, shared by all the connections of one store.

When a connection is lost, the guard probes the server with a fresh, time-bounded connection: if the server is
down, every request fails at once with ``StoreUnavailable`` (503) until a probe (at most one every half second)
finds it back; if the server is up, the lost connection was stale (the server restarted) and the pools' idle
connections are dropped. A read-only server (a standby, ``default_transaction_read_only``) is reported as such.

A busy server is not an outage: a new connection that runs out of time while the others answer leaves the store
up (``connect_failed``), and /health asks on a connection in use (``probe_in_use``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, NoReturn, Protocol

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row

from service.store.backends import Health, StoreUnavailable

CONNECT_TIMEOUT_SECONDS = 2  # a probe's (libpq advises no less): a server that does not answer is given up after this
PROBE_INTERVAL_SECONDS = 0.5  # while the store is down, at most one probe per interval; the rest fail at once
HEALTH_CACHE_SECONDS = 1.0  # /health probes at most this often
logger = logging.getLogger(__name__)
UNREACHABLE = "the game store is unreachable; try again shortly"
BUSY = "every connection to the game store is in use; try again shortly"
READ_ONLY = "the game store is read-only (a standby, or writes switched off) and records nothing now; try again shortly"
WRITABLE = "SELECT current_setting('transaction_read_only')"


class Pool(Protocol):
    """What the guard needs of a pool of connections (``service.store.connection_pool.GuardedPool``)."""

    def taken(self, timeout: float) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def clear(self) -> None: ...


def connection_lost(error: BaseException) -> bool:
    """The connection itself failed (rather than the server refusing a statement): the client lost it, or the
    server is shutting down or restarting."""
    if isinstance(error, psycopg.InterfaceError):
        return True
    if isinstance(error, (errors.AdminShutdown, errors.CrashShutdown, errors.CannotConnectNow)):
        return True
    return isinstance(error, psycopg.OperationalError) and error.sqlstate is None


def _writable(row: Any) -> Health:
    if row is not None and row[0] == "on":
        return Health("read_only", READ_ONLY)
    return Health("ok")


def _first_line(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


class StoreGuard:
    """What this process knows about the server being reachable, shared by all its connections.

    ``check()`` before using a connection raises ``StoreUnavailable`` at once while the store is known to be
    down (one caller per ``PROBE_INTERVAL_SECONDS`` probes instead, and clears the outage if the server is
    back). ``lost(error)`` after a connection failed decides between an outage (raises) and a stale
    connection (returns: the caller may retry once on a fresh connection)."""

    def __init__(self, connect: Callable[..., psycopg.Connection[Any]]) -> None:
        self._connect = connect
        self._lock = threading.Lock()
        self._down: str | None = None  # why the store is down, while it is
        self._next_probe = 0.0
        self._probing = False
        self._health: tuple[float, Health] | None = None
        self._answered = float("-inf")  # when a connection of this process last did its work (``answered``)
        self.pools: list[Pool] = []  # their idle connections are dropped whenever they may be stale

    @property
    def down(self) -> bool:
        return self._down is not None

    def probe(self) -> Health:
        """Connect afresh (bounded in time) and ask whether this server accepts writes."""
        try:
            options = "-c statement_timeout=2000"
            with self._connect(connect_timeout=CONNECT_TIMEOUT_SECONDS, options=options, row_factory=tuple_row) as conn:
                row = conn.execute(WRITABLE).fetchone()
        except psycopg.Error as error:
            return Health("down", f"{UNREACHABLE} ({_first_line(error)})")
        return _writable(row)

    def probe_in_use(self) -> Health | None:
        """Whether the server answers a connection this process keeps open (its reads'). A fresh connection was the
        health check's undoing under load: its handshake waited on the interpreter behind a worker's hundreds of
        threads and ran out of time. If every connection is busy (none free within a probe's timeout, or a new one
        ran out of time while the others answer), the last answer stands; None when only a fresh probe can tell: the
        connection failed, or it found the server read-only (a session keeps the setting it began with)."""
        if not self.pools:
            return None
        try:
            with self.pools[0].taken(CONNECT_TIMEOUT_SECONDS) as conn:
                row = conn.cursor(row_factory=tuple_row).execute(WRITABLE).fetchone()
                if conn.info.transaction_status != TransactionStatus.IDLE:
                    conn.rollback()
        except StoreUnavailable as error:
            if error.message != BUSY:
                return Health("down", error.message)  # a new connection failed: the store was taken for down
            with self._lock:
                return self._health[1] if self._health is not None else None
        except psycopg.Error:
            return None
        found = _writable(row)
        return found if found.ok else None

    def _record(self, found: Health) -> None:
        with self._lock:
            before = self._health[1].state if self._health is not None else "ok"
            self._health = (time.monotonic(), found)
            self._next_probe = time.monotonic() + PROBE_INTERVAL_SECONDS
            recovered = found.state != "down" and self._down is not None
            self._down = found.message if found.state == "down" else None
        if recovered or (before == "read_only" and found.ok):
            self.drop_idle()  # every idle connection predates the outage (or may have a read-only session)

    def drop_idle(self) -> None:
        for pool in self.pools:
            pool.clear()

    def check(self) -> None:
        if self._down is None:
            return
        with self._lock:
            if self._down is None:
                return
            if self._probing or time.monotonic() < self._next_probe:
                raise StoreUnavailable(UNREACHABLE)
            self._probing = True
        try:
            found = self.probe()
            self._record(found)
        finally:
            with self._lock:
                self._probing = False
        if found.state == "down":
            raise StoreUnavailable(UNREACHABLE)

    def answered(self) -> None:
        """A connection of this process has just done its work: the server answers."""
        self._answered = time.monotonic()

    def connect_failed(self, error: psycopg.OperationalError, started: float) -> NoReturn:
        """A new connection begun at ``started`` failed. If it ran out of time while the server answered this process's
        other connections (within a connect timeout of it), the server is busy, not down (``StoreUnavailable``, the
        store left up). Else the store is down (``unreachable``)."""
        if isinstance(error, errors.ConnectionTimeout) and self._answered >= started - CONNECT_TIMEOUT_SECONDS:
            logger.warning("a new connection ran out of time while others answer: the store is busy, not down")
            raise StoreUnavailable(BUSY) from error
        self.unreachable(error)

    def unreachable(self, error: BaseException) -> NoReturn:
        """A new connection could not be made: the store is down (raises ``StoreUnavailable``)."""
        logger.warning("the store is taken for down: a new connection failed (%s)", _first_line(error))
        self._record(Health("down", UNREACHABLE))
        raise StoreUnavailable(UNREACHABLE) from error

    def lost(self, error: BaseException) -> None:
        """A connection failed: raise ``StoreUnavailable`` if the server is down, else drop the idle connections
        (the server restarted under them) and return."""
        if self._down is not None:
            raise StoreUnavailable(UNREACHABLE) from error
        found = self.probe()
        self._record(found)
        if found.state == "down":
            raise StoreUnavailable(UNREACHABLE) from error
        self.drop_idle()

    def health(self) -> Health:
        """The store's state for /health: from the last probe if it is recent, else from a new (bounded) probe: on a
        connection in use while the store is up, on a new one while it is down (or if that found nothing)."""
        with self._lock:
            cached = self._health
        if cached is not None and time.monotonic() - cached[0] < HEALTH_CACHE_SECONDS:
            return cached[1]
        found = self.probe_in_use() if self._down is None else None
        if found is None:
            found = self.probe()
        self._record(found)
        return found
