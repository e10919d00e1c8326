"""The background sweep of a serving process: every ``Settings.clock_sweep_seconds`` it asks each timed game in
play whether a seat's time has run out, and the service records the timeouts due (``Digsite.enforce_clock``).

A move, or an organiser's change of the clock, notices a deadline past by itself; the sweep is what notices one
on a table where nobody moves. It is started in every process that serves the API (``digsite serve``, ``digsite
up``, each gunicorn worker: ``service/serving/wsgi.py``), but only the process holding the store's sweep lease
(``service.serving.sweep_lease``: an advisory lock on PostgreSQL, a file lock on SQLite) sweeps; the others try for
the lease on each pass and read nothing, and one of them takes over when the holder stops or dies. Were two to
sweep at once (a lease lost with its connection, noticed on the next pass), each timeout would still be recorded
once, since the deadlines come from the stored records alone and the store takes one record per version.

Which games: those the read models list as in play (a new game is swept once the projections have it, a moment
later). A game found untimed is remembered and never read again (a time control never changes); a timed one costs
one read of the records it has since the last sweep.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from service.commands.application import Digsite
from service.errors import ServiceError
from service.reading import listing
from service.reading.read_port import ReadPort
from service.serving.sweep_lease import SweepLease, lease_for

logger = logging.getLogger(__name__)

PAGE = 500
UNTIMED_KEPT = 100_000  # games remembered as untimed (past this, forgotten and read again once)


class ClockSweep:
    def __init__(
        self, service: Digsite, read: ReadPort, seconds: float | None = None, lease: SweepLease | None = None
    ) -> None:
        self.service = service
        self.read = read
        self.seconds = service.settings.clock_sweep_seconds if seconds is None else seconds
        self.lease = lease if lease is not None else lease_for(service.settings.database)
        self.passes = 0  # passes swept (holding the lease)
        self.waits = 0  # passes left to the process holding it
        self.reads = 0  # games read by the passes swept (a timed game's records, or an untimed one's clock once)
        self._untimed: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> bool:
        """One pass if this process holds the sweep lease (taken if it is free): whether it swept."""
        if not self.lease.acquire():
            self.waits += 1
            return False
        self.passes += 1
        self.sweep()
        return True

    def sweep(self) -> int:
        """One pass over the games in play (lease or not): returns the number of timeouts recorded."""
        recorded = 0
        for game_id in self._in_play():
            if game_id in self._untimed:
                continue
            self.reads += 1
            try:
                if self.service.reader.game_clock(game_id) is None:
                    if len(self._untimed) >= UNTIMED_KEPT:
                        self._untimed.clear()
                    self._untimed.add(game_id)
                    continue
                recorded += len(self.service.enforce_clock(game_id))
            except ServiceError as error:  # (a store that is down: the next pass tries again)
                logger.warning("clock sweep: game %s: %s", game_id, error.message)
        return recorded

    def _in_play(self) -> list[str]:
        found: list[str] = []
        cursor: Any = None
        while True:
            rows, cursor = listing.page(self.read.db, listing.GAMES, {"status": "playing"}, cursor, PAGE)
            found.extend(row["game_id"] for row in rows)
            if not cursor:
                return found

    def start(self) -> ClockSweep:
        """Sweep in a daemon thread until the service closes (nothing if the setting is 0)."""
        if self.seconds <= 0 or self._thread is not None:
            return self
        self._thread = threading.Thread(target=self._run, name="digsite-clock-sweep", daemon=True)
        self._thread.start()
        self.service.on_close(self.stop)
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.lease.release()  # (another process takes the sweep over on its next pass)

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            try:
                self.tick()
            except Exception:  # (never let the thread die: the next pass tries again)
                logger.exception("clock sweep failed")
