"""How many requests waiting on the push channel a server process holds, and the server that takes.

One setting sizes it: ``DIGSITE_PUSH_MAX_WAITING``, the waits each server process (a gunicorn worker, ``digsite
serve``, a dashboard worker) holds at once, by default ``DEFAULT_WAITS``. Past it a wait is answered at once
(``GET /updates``: 503 with ``Retry-After``; service/serving/push.py). Everything else follows from it
(``gunicorn_settings``, read by gunicorn from service/serving/gunicorn_conf.py):

- a held wait takes one of a gthread worker's threads for up to 55 s, so a worker has ``SPARE_THREADS`` more
  threads than waits, for the moves, reads and refusals;
- it takes one of the worker's connections too, and a gunicorn worker with as many connections open as its
  ``--worker-connections`` (default 1,000) stops accepting new ones until one closes: with 2,000 waits held over
  two workers, every move waited for a wait to end (up to 55 s; issue 24). So a worker allows ``SPARE_CONNECTIONS``
  more connections than waits: as many, besides its waits, as gunicorn allows a worker by default.

A gunicorn started without that configuration (its threads and connections set by hand) holds only as many waits
as leave that room in it (``fitting``): service/serving/wsgi.py and dashboard/wsgi.py size their worker with
``size_worker``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from types import FrameType
from typing import Any

SETTING = "DIGSITE_PUSH_MAX_WAITING"
# Waits a process holds by default: two workers hold 2,000, beside which a move took what it takes with nobody
# waiting (bench/waits.py; docs/performance.md, section 5). A held wait is about 50 KB of a worker's memory.
DEFAULT_WAITS = 1000
SPARE_THREADS = 8  # a gthread worker's threads beyond its waits (bench/http.py's scripted moves need about 4)
SPARE_CONNECTIONS = 1000  # a worker's connections beyond its waits: gunicorn's own default for all of them


def waits(environ: Mapping[str, str] = os.environ) -> int:
    """The waits a process holds at once: ``DIGSITE_PUSH_MAX_WAITING``, else ``DEFAULT_WAITS``."""
    text = environ.get(SETTING, "").strip()
    if not text:
        return DEFAULT_WAITS
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise ValueError(
            f"{SETTING} is the number of waits a server process holds: a whole number, 0 or more, not {text!r}"
        )
    return value


def gunicorn_settings(held: int) -> dict[str, Any]:
    """gunicorn's settings for a worker holding ``held`` waits: gthread, with threads and connections to spare."""
    return {"worker_class": "gthread", "threads": held + SPARE_THREADS, "worker_connections": held + SPARE_CONNECTIONS}


OTHER_FILES = 200  # a worker's files besides its connections: database connections, pipes, its listening sockets


def open_files_for(connections: int) -> int | None:
    """Raise this process's limit of open files (inherited by the workers it forks) to what a worker with
    ``connections`` connections needs, as far as the hard limit allows (a container's soft limit is often 1,024).
    None if it now allows that many, else the files a worker needs."""
    import resource  # (Unix only, as gunicorn is: not imported with the rest of this module, which push.py reads)

    wanted = connections + OTHER_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return None
    if hard != resource.RLIM_INFINITY and hard < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return wanted
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return None


def fitting(wanted: int, threads: int | None, connections: int | None) -> int:
    """The waits a worker with ``threads`` (None: not a thread per request, e.g. gevent's) and ``connections`` holds,
    ``wanted`` at most: it keeps ``SPARE_THREADS`` threads and ``SPARE_CONNECTIONS`` connections for the rest (half of
    its connections, if it has fewer than twice that)."""
    held = wanted
    if threads is not None:
        held = min(held, threads - SPARE_THREADS)
    if connections is not None:
        held = min(held, connections - min(SPARE_CONNECTIONS, connections // 2))
    return max(0, held)


def size_worker(wanted: int) -> int:
    """The waits this process holds: ``wanted``, or fewer in a gunicorn worker without room for them (``fitting``)."""
    worker = _gunicorn_worker()
    if worker is None:
        return wanted
    asynchronous = sys.modules.get("gunicorn.workers.base_async")
    threaded = asynchronous is None or not isinstance(worker, asynchronous.AsyncWorker)
    threads = getattr(worker.cfg, "threads", None) if threaded else None
    connections = getattr(worker.cfg, "worker_connections", None)
    held = fitting(
        wanted,
        threads if isinstance(threads, int) else None,
        connections if isinstance(connections, int) else None,
    )
    if held < wanted:
        worker.log.warning(
            "this worker holds %d waiting requests, not the %d %s asks for: its threads (%s) and connections (%s) "
            "leave no room for more; run gunicorn with -c python:service.serving.gunicorn_conf to size it from %s",
            held,
            wanted,
            SETTING,
            threads if threaded else "-",
            connections,
            SETTING,
        )
    return held


def _gunicorn_worker() -> Any | None:
    """The gunicorn worker importing the app now (up the call stack), or None if not under gunicorn: read from the
    worker itself, so that command-line options, ``GUNICORN_CMD_ARGS`` and a configuration file are all seen as
    gunicorn saw them."""
    base = sys.modules.get("gunicorn.workers.base")
    if base is None:
        return None
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        worker = frame.f_locals.get("self")
        if isinstance(worker, base.Worker):
            return worker
        frame = frame.f_back
    return None
