"""Parts of a game's table drawn once for every frame that shows them the same.

A replay draws every frame of every perspective (an Arnak four-seat game: some 2,400 tables of ~600 elements),
and most of a table does not change from one frame to the next, nor between perspectives (the board and the
market are the same for every seat). A renderer marks a part with ``kept(draw, *args)``: while a replay's frames
are drawn (``drawing_frames()``), the part is drawn and written as HTML once per distinct ``args`` and the same
pieces are used for every frame whose ``args`` are the same (``html_text.Written``); elsewhere (the seat page,
tests) ``kept`` only calls ``draw(*args)``.

Why this cannot show one perspective what another saw: a kept part is a pure function of its arguments, and the
key is the whole of them (their JSON, or their ``repr`` for what JSON cannot hold, hashed with BLAKE2b). The
renderer passes a part only the slices of the frame's view it reads (``narrow``), taken from the view of the
perspective being drawn; two perspectives share a part only when those slices are equal, and then so is what the
part shows. A slice left out by mistake makes a part read a
default, never another perspective's data (``tests/dashboard/test_kept.py`` draws whole games both ways).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import orjson
from cachetools import LRUCache

from dashboard.html_text import Written

# A four-seat Arnak game of the demo (354 moves) draws 1,363 distinct parts over its five perspectives, about 8 MB
# of HTML; this keeps three such games while their perspectives are drawn one after the other (25 MB at most).
SIZE = 4096

_DRAWING: ContextVar[bool] = ContextVar("digsite_drawing_frames", default=False)
_kept: LRUCache[tuple[str, bytes], Written] = LRUCache(maxsize=SIZE)
_lock = threading.Lock()
counts = {"drawn": 0, "reused": 0}  # (for the tests and the bench: how often a part was drawn or reused)


@contextmanager
def drawing_frames() -> Iterator[None]:
    """Within this block, ``kept`` parts are drawn once and reused (the replay's frames)."""
    token = _DRAWING.set(True)
    try:
        yield
    finally:
        _DRAWING.reset(token)


def kept(draw: Callable[..., Any], *args: Any) -> Any:
    """``draw(*args)``; while drawing frames, written once per distinct ``args`` (``draw`` must be a pure function
    of them: the same arguments, the same part)."""
    if not _DRAWING.get():
        return draw(*args)
    key = (f"{draw.__module__}.{draw.__qualname__}", hashlib.blake2b(_text(args), digest_size=16).digest())
    with _lock:
        found = _kept.get(key)
    if found is not None:
        counts["reused"] += 1
        return found
    found = Written(draw(*args))
    with _lock:
        _kept[key] = found
        counts["drawn"] += 1
    return found


def _text(args: tuple[Any, ...]) -> bytes:
    """The arguments as text, the whole of them: JSON (a view's slices are JSON, and orjson writes them some 20 times
    faster than ``repr``), else their ``repr`` (orjson refuses what it would not write exactly: keys that are not
    text, dataclasses, subclasses of its types). JSON writes a tuple as a list: a part draws both alike."""
    try:
        return b"j" + orjson.dumps(args, option=_EXACT)
    except TypeError:
        return b"r" + repr(args).encode()


_EXACT = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


def kept_children(draw: Callable[..., list[Any]], *args: Any) -> list[Any]:
    """``kept`` for a part that is a list of elements, to be spread among its parent's children."""
    found = kept(draw, *args)
    return [found] if isinstance(found, Written) else list(found)


def narrow(view: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The view's entries under ``keys`` (those it has: a key it lacks stays lacking, so ``get`` answers alike)."""
    return {k: view[k] for k in keys if k in view}


def clear() -> None:
    with _lock:
        _kept.clear()
