"""Where the throttle's counts of wrong secrets live by default: a `limits` storage in this process's memory,
bounded, with a clock that can be given.

The throttle counts with the `limits` library's moving window (``service.serving.throttle``), which keeps its
entries in a storage. `limits` ships one in memory (``MemoryStorage``), but it fits a counter of failures badly,
as measured (docs/performance.md §8, *the throttle on limits*): it holds every address that ever failed until
its window passes, with no bound, and 10 ms after a hit a timer thread walks every key it holds (18 to 53 ms
for 20,000 keys, ``bench/throttle.py``), so that a guesser trying from many addresses would keep a core busy
walking. This one holds what the hand-written throttle held: one tuple of recent failure times per key in
cachetools' ``TLRUCache`` (an entry lives its window after its last failure; when ``size`` keys are held the
least recently used go first; what has aged out goes at the next write), so a check costs one look-up and no
thread runs.

Only the moving window's two calls are served (``acquire_entry``, ``get_moving_window``); the fixed-window calls
of `limits`' interface refuse, as nothing here uses them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from cachetools import TLRUCache
from limits.storage import MovingWindowSupport, Storage

Held = tuple[float, tuple[float, ...]]  # (the window in seconds, the failures' times in it, oldest first)


def _lives(_key: str, held: Held, now: float) -> float:
    return now + held[0]  # a key lives its window after its last failure


class BoundedMemoryStorage(Storage, MovingWindowSupport):
    """The moving window's entries per key, at most ``size`` keys, on ``timer``'s clock (seconds)."""

    STORAGE_SCHEME = None  # not reachable by a URI: the throttle makes it when no other storage is named

    def __init__(self, size: int = 10_000, timer: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.timer = timer
        self._held: TLRUCache[str, Held] = TLRUCache(maxsize=size, ttu=_lives, timer=timer)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """Keys held (what has aged out may linger until the next write)."""
        return len(self._held)

    def _recent(self, key: str, expiry: float, now: float) -> tuple[float, ...]:
        held = self._held.get(key)
        return tuple(t for t in held[1] if t > now - expiry) if held else ()

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Count ``amount`` more in ``key``'s window of ``expiry`` seconds, unless that would pass ``limit``."""
        with self._lock:
            now = self.timer()
            recent = self._recent(key, expiry, now)
            if amount > limit or len(recent) + amount > limit:
                return False
            self._held[key] = (float(expiry), (*recent, *(now,) * amount))  # (a write also drops what aged out)
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """(when the oldest entry in the window was counted, how many are), as `limits` asks; (now, 0) if none."""
        with self._lock:
            held = self._held.get(key)
        now = self.timer()
        if held is None:
            return now, 0  # the usual case: no failure from there
        recent = [t for t in held[1] if t > now - expiry]
        return (recent[0], len(recent)) if recent else (now, 0)

    def clear(self, key: str) -> None:
        with self._lock:
            self._held.pop(key, None)

    def reset(self) -> int | None:
        with self._lock:
            held = len(self._held)
            self._held.clear()
        return held

    def check(self) -> bool:
        return True

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    # The fixed-window interface, which the moving window never calls.

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        raise NotImplementedError("the throttle counts in a moving window only")

    def get(self, key: str) -> int:
        raise NotImplementedError("the throttle counts in a moving window only")

    def get_expiry(self, key: str) -> float:
        raise NotImplementedError("the throttle counts in a moving window only")
