"""Python's cyclic garbage collector paused while a replay's frames are drawn (``paused``).

Drawing a part of a replay allocates some hundred thousand short-lived objects (the components of every table, their
HTML pieces, the views), and many survive it (the kept parts, the engine's states, the documents). Their count
triggers the collector's full passes, which walk every object of the process (the app, its caches) each time: in the
dashboard's process about a fifth of its CPU for every perspective of an Arnak game (docs/performance.md §10,
2026-12-05, "every part of a perspective in one request"). Almost nothing a frame allocates is a cycle (reference
counting frees it); the few that are wait until the last drawing in the process ends, when the collector runs again
as it was.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_drawing = 0  # drawings under way in the process (the server's threads): the collector resumes after the last
_was_enabled = True


@contextmanager
def paused() -> Iterator[None]:
    """Within this block (and any other thread's), no cyclic collection; the collector as it was after the last."""
    global _drawing, _was_enabled
    with _lock:
        if _drawing == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _drawing += 1
    try:
        yield
    finally:
        with _lock:
            _drawing -= 1
            if _drawing == 0 and _was_enabled:
                gc.enable()
