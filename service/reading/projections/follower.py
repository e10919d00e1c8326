"""Follow the notification log in order and keep the read models up to date, restartably.

Why not the library's ``ProjectionRunner``: it commits once per event and needs PostgreSQL's LISTEN/NOTIFY
subscriptions. Here both stores are followed the same way: read a batch of notifications after the
tracked position, turn it into row changes, and write the rows with the new position in one transaction.
A crash loses at most an uncommitted batch, which is read again on restart; a batch already written is
never applied twice (the tracking row refuses an old position).

A record the projection cannot project (its code raises on it, or the read-model store refuses its
values, like a NUL in a name on PostgreSQL) never holds back the records before it: those are written
with their position first, then ``UnprojectableRecord`` names the record (notification id, aggregate id,
version, topic) and why. ``run_forever`` stops on it rather than retrying what can never succeed; an
operator may let the follower pass such a record with ``skip`` (``digsite projections run --skip ID``).
The policy and why: docs/projections.md.
"""

from __future__ import annotations

import gc
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing.persistence import DataError, IntegrityError, InterfaceError, OperationalError, ProgrammingError

from service.commands.application import DigsiteApplication
from service.reading.projections.log import log_for
from service.reading.projections.ratings import UNRATED_ADVICE
from service.reading.projections.readmodels import ReadModelProjection
from service.reading.projections.tables import ReadModels
from service.settings import Settings

log = logging.getLogger("digsite.projections")

# Errors that say nothing about the record being projected: the store is away or not set up. They are
# raised as they are (``run_forever`` retries them), never blamed on a record.
NOT_THE_RECORD: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    ProgrammingError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    psycopg.ProgrammingError,
    sqlite3.OperationalError,
    sqlite3.InterfaceError,
    sqlite3.ProgrammingError,
)
# Errors of a write that mean the read-model store refused a value (a NUL in PostgreSQL text, a number
# out of range, a broken constraint): some record of the batch holds it, and is looked for one by one.
REFUSED_VALUE: tuple[type[BaseException], ...] = (
    DataError,
    IntegrityError,
    psycopg.DataError,
    psycopg.IntegrityError,
    sqlite3.DataError,
    sqlite3.IntegrityError,
    ValueError,
    TypeError,
    OverflowError,
)


class UnprojectableRecord(Exception):
    """A record the projection cannot project; every record before it is written (``position``)."""

    def __init__(self, where: dict[str, Any], reason: BaseException, position: int) -> None:
        self.notification_id: int = where["notification_id"]
        self.originator_id: str = where["originator_id"]
        self.version: int = where["version"]
        self.topic: str = where["topic"]
        self.reason = f"{type(reason).__name__}: {reason}".strip()
        self.position = position
        what = self.topic.rpartition(":")[2] or self.topic
        super().__init__(
            f"cannot project record {self.notification_id} ({what} of {self.originator_id}, version {self.version}): "
            f"{self.reason}. The read models hold every record before it (position {position}); nothing after "
            f"it is projected. Look at the record, then run again with --skip {self.notification_id} to let the "
            "projection pass it (its facts will be missing from the read models)."
        )


class Follower:
    # Notifications per batch (one transaction). Larger batches pay the per-batch costs (the commit,
    # rewriting a game's row and its seats' counters) less often; 5,000 records hold a few MB, and a
    # crash re-reads at most one uncommitted batch. (The gain is small: see docs/performance.md.)
    BATCH_SIZE = 5000

    def __init__(
        self,
        settings: Settings | None = None,
        batch_size: int = BATCH_SIZE,
        skip: frozenset[int] = frozenset(),
        app: DigsiteApplication | None = None,
    ) -> None:
        """``app``: the application to read the log through (``service.bootstrap.follower`` builds it; without
        one, ``DigsiteApplication.for_settings``). The log is read from the settings' log
        database (a replica) when they name one; the read models and their tracking row are always written to the
        settings' database, in one transaction per batch."""
        self.settings = settings or Settings.from_env()
        db = self.settings.database
        self.app = DigsiteApplication.for_settings(self.settings.log_settings()) if app is None else app
        self.read_models = ReadModels(db)
        self.projection = ReadModelProjection(self.read_models, self.app)
        self.log = log_for(self.app)
        self.batch_size = batch_size
        self.skip = skip  # notification ids an operator chose to pass over (see UnprojectableRecord)
        self._position: int | None = None
        self._collector = _Collector()
        self.written: int | None = None  # the position of the last batch this follower wrote
        self._field_checked = False  # whether the field's sums were found complete (or made so)

    def close(self) -> None:
        self.read_models.close()
        self.app.close()

    def position(self) -> int:
        if self._position is None:
            self._position = self.read_models.position()
        return self._position

    def behind(self) -> int:
        """How many notifications are not yet projected."""
        return max(0, (self.app.recorder.max_notification_id() or 0) - self.position())

    def step(self) -> int:
        """Project one batch; the number of notifications it held (0: caught up). Raises
        ``UnprojectableRecord`` after writing the records before one that cannot be projected."""
        with self._collector.paused():
            start = self.position()
            rows = self.log.select(start, self.batch_size)
            if not rows:
                return 0
            try:
                good, failure = self._project(rows)
                if failure is not None and good:
                    # The batch may hold part of the failed record's changes: project those before it again.
                    self._reset()
                    good, failure = self._again(rows, good, failure)
                if good:
                    try:
                        self._write(rows[:good])
                    except REFUSED_VALUE as error:  # (if another follower wrote meanwhile, no record's fault)
                        if isinstance(error, NOT_THE_RECORD) or self.read_models.position() != start:
                            raise
                        self._reset()
                        self._one_by_one(rows[:good])  # which record holds the refused value? (raises on it)
            except BaseException:
                # The store is the truth: forget what we thought (a batch half projected, too), re-read the
                # position, and try again later.
                self._reset()
                raise
            if failure is not None:
                self._reset()
                raise UnprojectableRecord(self.log.where(rows[good]), failure, self.position())
            return len(rows)

    def _project(self, rows: Any) -> tuple[int, BaseException | None]:
        """Project ``rows`` into the batch until one fails: how many went through, and the failure."""
        decode, project, skip, last_id = self.log.decode, self.projection.project, self.skip, self.log.row_id
        for i, row in enumerate(rows):
            if skip and last_id(row) in skip:
                log.warning("skipping record %s as told: %s", last_id(row), self.log.where(row))
                continue
            try:
                project(decode(row), last_id(row))
            except NOT_THE_RECORD:
                raise
            except Exception as error:
                return i, error
        return len(rows), None

    def _again(self, rows: Any, good: int, failure: BaseException) -> tuple[int, BaseException]:
        again, earlier = self._project(rows[:good])
        return (again, earlier) if earlier is not None else (good, failure)

    def _write(self, rows: Any) -> None:
        last = self.log.last_id(rows)
        self.projection.projected(len(rows), last)
        self.read_models.write(self.projection.take_batch())
        self._position = self.written = last

    def _one_by_one(self, rows: Any) -> None:
        """Write ``rows`` one per transaction until the store refuses one: raise ``UnprojectableRecord`` on it."""
        for row in rows:
            _, failure = self._project([row])
            try:
                if failure is None:
                    self._write([row])
                    continue
            except REFUSED_VALUE as error:
                if isinstance(error, NOT_THE_RECORD):
                    raise
                failure = error
            self._reset()
            raise UnprojectableRecord(self.log.where(row), failure, self.position())

    def _reset(self) -> None:
        self.projection.forget()
        self._position = None

    def catch_up(self, progress: Callable[[int], None] | None = None, stop: threading.Event | None = None) -> int:
        """Project and write batches until the log is read to its end (or ``stop`` is set); the number of
        records written. ``progress`` is told each batch's count once it is committed."""
        if not self._field_checked:  # (once: afterwards each batch keeps the sums, or sums them anew)
            self.read_models.complete_field()
            self._field_checked = True
            if unrated := self.read_models.unrated():  # (a store upgraded from before ratings: said, not guessed)
                log.warning(UNRATED_ADVICE.format(n=unrated))
        done = 0
        while not (stop is not None and stop.is_set()) and (n := self.step()):
            done += n
            if progress:
                progress(n)
        return done

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Empty the read models and project the whole log again."""
        self.read_models.clear()
        self.projection.forget()
        self._position = None
        done = self.catch_up(progress)
        self.read_models.analyze()  # every row is new: the tables' statistics are those of empty tables
        return done

    def run_forever(
        self, stop: threading.Event, idle_wait: float = 0.5, on_batch: Callable[[int], None] | None = None
    ) -> None:
        """Catch up, then follow new records until ``stop`` is set; survive store outages with a back-off."""
        waiter = _Waiter(self)
        backoff = 0.5
        while not stop.is_set():
            try:
                n = self.catch_up(on_batch, stop)
                backoff = 0.5
                if not n:
                    waiter.wait(stop, idle_wait)
            except UnprojectableRecord:
                waiter.close()
                raise  # retrying cannot help: stop and say which record
            except Exception as error:  # the store went away, a deadlock, ...: log, back off, retry
                log.warning("projection step failed (%s); retrying in %.1fs", error, backoff)
                stop.wait(backoff)
                backoff = min(backoff * 2, 10.0)
                waiter.reset()
        waiter.close()


class _Collector:
    """When Python's cyclic garbage collector runs while the projection works.

    A step allocates a lot (notifications, decoded events, game states, rows) while the process holds a
    few hundred thousand long-lived objects (the rules' caches of profiles and hands, game contexts).
    Left automatic, the collector's full passes over them cost 15-20 µs per projected record (a third of
    the catch-up time at 10,000 games), and more as the run went on. A step makes no reference cycles of
    its own (its objects are freed by reference counting), so the collector is paused for the whole step;
    between steps a full collection runs once the time spent in steps since the last one reaches
    ``1 / share`` times what the last one took: at most ``share`` of the time goes to collecting, and
    cyclic garbage from anything else in the process is still reclaimed. If the collector was already
    disabled (by whoever runs the process), it is left alone.
    """

    def __init__(self, share: float = 0.02) -> None:
        self.share = share
        self.worked = 0.0  # seconds spent in steps since the last collection
        self.cost = 0.0  # seconds the last collection took

    @contextmanager
    def paused(self) -> Iterator[None]:
        if not gc.isenabled():
            yield
            return
        gc.disable()
        began = time.perf_counter()
        try:
            yield
        finally:
            self.worked += time.perf_counter() - began
            if self.worked * self.share >= self.cost:
                began = time.perf_counter()
                gc.collect()
                self.cost = time.perf_counter() - began
                self.worked = 0.0
            gc.enable()


# How long the follower waits between looks at a log it cannot LISTEN to: a hot standby refuses LISTEN (and is sent
# no NOTIFY: they are not replicated), so new records there are found by reading the log again. Each look is one
# index probe past the tracked position; half a second adds at most that to the replica's own lag in the dashboard,
# for two cheap queries a second on the standby.
STANDBY_POLL_SECONDS = 0.5


class _Waiter:
    """Wait for new records: LISTEN on PostgreSQL (woken by the append's NOTIFY), a timed wait on SQLite and on a
    hot standby (``STANDBY_POLL_SECONDS``), which serves no LISTEN.

    Whether the log's server is a standby is asked (``pg_is_in_recovery()``) when the first wait connects, and again
    after any failure (the follower resets the waiter). A standby promoted meanwhile is polled until then, which
    still finds every record."""

    def __init__(self, follower: Follower) -> None:
        self.follower = follower
        self.conn: Any = None
        self.polling = False  # the log's server is a standby: poll, do not LISTEN

    def wait(self, stop: threading.Event, timeout: float) -> None:
        db = self.follower.settings.log_settings().database
        if db.backend != "postgresql":
            stop.wait(timeout)
            return
        if self.conn is None and not self.polling:
            conn: Any = psycopg.connect(db.psycopg_conninfo(), autocommit=True)
            try:
                row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
                if row is not None and row[0]:
                    self.polling = True
                else:
                    conn.execute(f'LISTEN "{self.follower.app.recorder.channel_name}"')  # type: ignore[attr-defined]
                    self.conn, conn = conn, None
            finally:
                if conn is not None:
                    conn.close()
        if self.polling:
            stop.wait(min(timeout, STANDBY_POLL_SECONDS))
            return
        deadline = time.monotonic() + timeout
        for _ in self.conn.notifies(timeout=max(0.01, deadline - time.monotonic()), stop_after=1):
            break

    def reset(self) -> None:
        self.close()
        self.polling = False  # asked again with the next connection

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            finally:
                self.conn = None
