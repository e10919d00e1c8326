"""Progress of ``digsite projections run`` as a periodic summary, not a line per batch.

Following a live store, batches hold a record or two each: a line per batch would be a line per move.
Instead a line comes every ``every`` seconds in which records were projected (how many, how fast, the
position and how far behind the store's head it is), and nothing while the store is idle.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


class ProgressReporter:
    """Counts what the follower projects (``add``, on the follower's thread) and says it every ``every``
    seconds from a thread of its own (``start``/``stop``); ``report`` says what was counted since the last line."""

    def __init__(
        self,
        follower: Any,
        start: int,
        *,
        every: float,
        say: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.follower = follower
        self.every = every
        self.say = say
        self.clock = clock
        self.position = start
        self.head: int | None = None
        self._head_at = float("-inf")
        self._count = 0
        self._since = clock()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="projections-progress", daemon=True)

    def add(self, records: int) -> None:
        """A committed batch of ``records``. Runs on the follower's thread, which alone touches its store: the
        store's head (for the lag) is read here, at most once per period."""
        now = self.clock()
        head = None
        if now - self._head_at >= self.every:
            head = self.follower.app.recorder.max_notification_id() or 0
            self._head_at = now
        with self._lock:
            self._count += records
            self.position = self.follower.written if self.follower.written is not None else self.position + records
            if head is not None:
                self.head = head

    def report(self) -> str | None:
        """The line for what was projected since the last one (said, and returned); None when nothing was."""
        now = self.clock()
        with self._lock:
            count, since, position, head = self._count, self._since, self.position, self.head
            self._count, self._since = 0, now
        if not count:
            return None
        seconds = max(now - since, 1e-9)
        behind = "caught up" if head is None or head <= position else f"{head - position} behind"
        line = (
            f"projections: {count} record(s) in {seconds:.1f} s ({count / seconds:.0f}/s); "
            f"at position {position}, {behind}"
        )
        self.say(line)
        return line

    def start(self) -> None:
        self._since = self.clock()
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and say what was projected since the last line."""
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join()
        self.report()

    def _loop(self) -> None:
        while not self._stopped.wait(self.every):
            self.report()
