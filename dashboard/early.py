"""Answers a page will surely ask for, begun on the server as soon as the page is asked for.

Opening the players or aggregates page runs in series: the page's HTML, Dash's scripts started in the browser
(about 250 ms), the router's callback (the page's controls), then the page's own callback (its figures, about
350 ms of server time). The server knows what those callbacks will be asked as soon as it serves the page, so it
begins them then, on a worker thread, while the browser starts Dash; the callback, when it comes, takes the answer
begun for it instead of computing it again (docs/performance.md, section 10).

It is the same code path, run earlier: the callback's own function, for the same visitor, with the same arguments.
An answer is only taken by a request with the same key, and every key starts with who is asking (the visitor, or
the very cookies where the answer depends on more than the visitor), so no one takes an answer begun for someone
else; an answer nobody takes within ``KEEP_SECONDS`` is dropped. A refusal or an error computed early is raised
to the callback that takes it, exactly as if it had been computed there.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from dashboard.access import Visitor

KEEP_SECONDS = 10.0  # the page's callback comes well under a second after its HTML; a page left unopened lets go
MOST_WAITING = 32  # answers begun and not yet taken (the oldest is dropped beyond)
WORKERS = 2  # the machine's cores: an early answer must not crowd out the requests being served
# Answers being computed or queued at most. A page's HTML costs nothing to ask for and begins about 350 ms of
# work: without a bound, a burst of page loads (or a client asking for HTML and never for its callbacks) would
# queue that work without end. Beyond it nothing is begun, and the callback computes its answer when it comes,
# as it did before answers were begun early.
MOST_IN_FLIGHT = 2 * WORKERS


def visitor_key(visitor: Visitor) -> tuple[Any, ...]:
    """Everything an answer computed for ``visitor`` depends on about who is asking."""
    return (visitor.organiser, visitor.spectators, tuple(sorted(visitor.seats.items())))


class Early:
    """Answers begun before they are asked for, each taken at most once."""

    def __init__(
        self,
        keep_seconds: float = KEEP_SECONDS,
        most: int = MOST_WAITING,
        workers: int = WORKERS,
        most_in_flight: int = MOST_IN_FLIGHT,
    ) -> None:
        self.keep_seconds = keep_seconds
        self.most = most
        self.most_in_flight = most_in_flight
        self._in_flight = 0  # submitted and not done, taken or dropped alike
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="digsite-early")
        self._begun: OrderedDict[Hashable, tuple[float, Future[Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def begin(self, key: Hashable, compute: Callable[[], Any]) -> None:
        """Start ``compute`` on a worker thread, for the request that will ask with ``key``."""
        with self._lock:
            self._drop_stale()
            if key in self._begun or self._in_flight >= self.most_in_flight:
                return
            self._in_flight += 1
            self._begun[key] = (time.monotonic(), self._pool.submit(self._counted, compute))
            while len(self._begun) > self.most:
                self._begun.popitem(last=False)

    def take(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The answer begun for ``key`` (waiting for it if it is still being computed), else ``compute()``."""
        with self._lock:
            self._drop_stale()
            begun = self._begun.pop(key, None)
        if begun is None:
            return compute()
        return begun[1].result()  # (an exception raised by compute is raised here, as it would have been)

    def _counted(self, compute: Callable[[], Any]) -> Any:
        try:
            return compute()
        finally:  # (before the answer is set: whoever takes it finds the room it leaves)
            with self._lock:
                self._in_flight -= 1

    def waiting(self) -> int:
        """How many answers are begun and not taken (for the tests)."""
        with self._lock:
            self._drop_stale()
            return len(self._begun)

    def _drop_stale(self) -> None:
        oldest = time.monotonic() - self.keep_seconds
        while self._begun:
            key, (began, _) = next(iter(self._begun.items()))
            if began >= oldest:
                break
            del self._begun[key]
