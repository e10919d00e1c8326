"""Python's cyclic garbage collector paused while a replay's frames are drawn (``paused``).

Drawing a part of a replay allocates some hundred thousand short-lived objects (the components of every table, their
HTML pieces, the views), and many survive it (the kept parts, the engine's states, the documents). Their count
triggers the collector's full passes, which walk every object of the process (the app, its caches) each time: in the
dashboard's process about a fifth of its CPU for every perspective of an Arnak game (docs/performance.md §10,
2026-12-05, "every part of a perspective in one request"). Almost nothing a frame allocates is a cycle (reference
counting frees it); the few that are wait until the last drawing in the process ends, when the collector runs again
as it was. Drawings that overlap without a break (many visitors at once) would keep it off for good: once it has
been off for ``LONGEST_PAUSE_SECONDS``, the drawing that ends then collects (and the pause counts afresh).
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_drawing = 0  # drawings under way in the process (the server's threads): the collector resumes after the last
_was_enabled = True
_paused_since = 0.0
LONGEST_PAUSE_SECONDS = 10.0  # a few Arnak perspectives drawn (about 1.4 s of CPU each): cycles wait no longer
_clock = time.monotonic  # (the tests' clock)


@contextmanager
def paused() -> Iterator[None]:
    """Within this block (and any other thread's), no cyclic collection; the collector as it was after the last."""
    global _drawing, _was_enabled, _paused_since
    with _lock:
        if _drawing == 0:
            _was_enabled = gc.isenabled()
            _paused_since = _clock()
            gc.disable()
        _drawing += 1
    try:
        yield
    finally:
        overdue = False
        with _lock:
            _drawing -= 1
            if _drawing == 0 and _was_enabled:
                gc.enable()
            elif _drawing > 0 and _was_enabled and _clock() - _paused_since > LONGEST_PAUSE_SECONDS:
                overdue, _paused_since = True, _clock()
        if overdue:
            gc.collect()  # (outside the lock: the other drawings go on meanwhile)
