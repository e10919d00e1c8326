"""Which serving process sweeps the clocks (``service.serving.clock_sweep``): one at a time per store, the one
holding the store's sweep lease. The others try for it on each pass and read nothing while it is held.

- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) held on a connection of the sweeper's own, keyed
  by the store's schema, so stores sharing a server do not wait on each other. The server releases it when that
  session ends, however the process ended (stopped, killed, its host gone: once the server notices the connection
  is gone), and the next process to try takes it on its next pass. The holder checks its connection on each pass:
  one that broke means the lock may be someone else's now, so it stops sweeping until it holds the lock again.
- SQLite: an exclusive ``flock`` on a file beside the database (``<database>.clock-sweep.lock``); the kernel drops
  it when the process ends, however it ends. SQLite stores are one machine's, so a file lock reaches every
  process that can open the database.

Correctness never depended on this: a timeout is one record at the game's next version, and the store takes one
(docs/events.md, *Clocks*). The lease only saves the reads of every process but one (docs/performance.md).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
from typing import IO, Any, Protocol

import psycopg

from service.settings import Database

logger = logging.getLogger(__name__)


class SweepLease(Protocol):
    def acquire(self) -> bool:
        """Whether this process holds the lease now (taken if it is free; never waits)."""
        ...

    def release(self) -> None:
        """Give it up (the next process to try takes it)."""
        ...


def lease_for(database: Database) -> SweepLease:
    """The lease of ``database``'s store (PostgreSQL or SQLite)."""
    if database.backend == "postgresql":
        return AdvisoryLease(database)
    return FileLease(f"{database.path}.clock-sweep.lock")


def advisory_key(schema: str) -> int:
    """The advisory lock's key for the store in ``schema``: a signed 64-bit number (PostgreSQL's ``bigint``)."""
    digest = hashlib.sha256(f"digsite clock sweep|{schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class AdvisoryLease:
    def __init__(self, database: Database) -> None:
        self.database = database
        self.key = advisory_key(database.schema)
        self._conn: psycopg.Connection[Any] | None = None
        self.held = False

    def acquire(self) -> bool:
        try:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(self.database.psycopg_conninfo(), autocommit=True, connect_timeout=5)
                self.held = False
            if self.held:  # (a session lock is held for as long as this session lives: is it alive?)
                self._conn.execute("SELECT 1")
            else:
                row = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
                self.held = bool(row and row[0])
        except psycopg.Error as error:  # (the server or the connection went: whoever reconnects first sweeps)
            logger.warning("clock sweep lease: %s", error)
            self._drop()
        return self.held

    def release(self) -> None:
        # Unlocked in so many words before the session closes: a closed socket ends the server's session a moment
        # later, not at once, and another process asking meanwhile would still find the lock held.
        if self.held and self._conn is not None and not self._conn.closed:
            with contextlib.suppress(psycopg.Error):
                self._conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
        self._drop()  # (closing the session releases its advisory locks anyway)

    def _drop(self) -> None:
        self.held = False
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    def backend_pid(self) -> int | None:
        """The server process of the lease's session (to end it from outside, as a crash would)."""
        return self._conn.info.backend_pid if self._conn is not None and not self._conn.closed else None


class FileLease:
    def __init__(self, path: str) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def acquire(self) -> bool:
        if self._file is not None:
            return True
        handle = open(self.path, "a+")  # noqa: SIM115 (held open for as long as the lease is held)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")  # (who holds it, for whoever looks)
        handle.flush()
        self._file = handle
        return True

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # (closing the file drops its flock)
            self._file = None
