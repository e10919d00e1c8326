"""Follow the notification log in order and keep the read models up to date, restartably.

Why not the library's ``ProjectionRunner``: it commits once per event and needs PostgreSQL's LISTEN/NOTIFY
subscriptions. Here both stores are followed the same way: read a batch of notifications after the
tracked position, turn it into row changes, and write the rows with the new position in one transaction.
A crash loses at most an uncommitted batch, which is read again on restart; a batch already written is
never applied twice (the tracking row refuses an old position).
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from service import store
from service.application import DigsiteApplication
from service.projections.log import log_for
from service.projections.readmodels import ReadModelProjection
from service.projections.view import ReadModels
from service.settings import Settings

log = logging.getLogger("digsite.projections")


class Follower:
    # Notifications per batch (one transaction). Larger batches pay the per-batch costs (the commit,
    # rewriting a game's row and its seats' counters) less often; 5,000 records hold a few MB, and a
    # crash re-reads at most one uncommitted batch. (The gain is small: see docs/performance.md.)
    BATCH_SIZE = 5000

    def __init__(self, settings: Settings | None = None, batch_size: int = BATCH_SIZE) -> None:
        self.settings = settings or Settings.from_env()
        db = self.settings.database
        self.app = DigsiteApplication(
            env={**store.eventsourcing_env(db), **self.settings.extra_env}, server_secret=self.settings.server_secret
        )
        self.view = ReadModels(db)
        self.projection = ReadModelProjection(self.view, self.app)
        self.log = log_for(self.app)
        self.batch_size = batch_size
        self._position: int | None = None
        self._collector = _Collector()
        self.written: int | None = None  # the position of the last batch this follower wrote

    def close(self) -> None:
        self.view.close()
        self.app.close()

    def position(self) -> int:
        if self._position is None:
            self._position = self.view.position()
        return self._position

    def behind(self) -> int:
        """How many notifications are not yet projected."""
        return max(0, (self.app.recorder.max_notification_id() or 0) - self.position())

    def step(self) -> int:
        """Project one batch; the number of notifications it held (0: caught up)."""
        with self._collector.paused():
            log = self.log
            rows = log.select(self.position(), self.batch_size)
            if not rows:
                return 0
            try:
                decode, project = log.decode, self.projection.project
                for row in rows:
                    project(decode(row))
                last = log.last_id(rows)
                self.projection.projected(len(rows), last)
                self.view.write(self.projection.take_batch())
            except BaseException:
                # The store is the truth: forget what we thought (a batch half projected, too), re-read the
                # position, and try again later.
                self.projection.forget()
                self._position = None
                raise
            self._position = self.written = last
            return len(rows)

    def catch_up(self, progress: Callable[[int], None] | None = None, stop: threading.Event | None = None) -> int:
        """Project and write batches until the log is read to its end (or ``stop`` is set); the number of
        records written. ``progress`` is told each batch's count once it is committed."""
        done = 0
        while not (stop is not None and stop.is_set()) and (n := self.step()):
            done += n
            if progress:
                progress(n)
        return done

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Empty the read models and project the whole log again."""
        self.view.clear()
        self.projection.forget()
        self._position = None
        done = self.catch_up(progress)
        self.view.analyze()  # every row is new: the tables' statistics are those of empty tables
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


class _Waiter:
    """Wait for new records: LISTEN on PostgreSQL (woken by the append's NOTIFY), a timed wait on SQLite."""

    def __init__(self, follower: Follower) -> None:
        self.follower = follower
        self.conn: Any = None

    def wait(self, stop: threading.Event, timeout: float) -> None:
        db = self.follower.settings.database
        if db.backend != "postgresql":
            stop.wait(timeout)
            return
        if self.conn is None:
            import psycopg

            self.conn = psycopg.connect(db.psycopg_conninfo(), autocommit=True)
            self.conn.execute(f'LISTEN "{self.follower.app.recorder.channel_name}"')  # type: ignore[attr-defined]
        deadline = time.monotonic() + timeout
        for _ in self.conn.notifies(timeout=max(0.01, deadline - time.monotonic()), stop_after=1):
            break

    def reset(self) -> None:
        self.close()

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            finally:
                self.conn = None
