"""The WSGI entry point for production servers, the one module that builds the app when imported:

    gunicorn -w 2 -k gthread --threads 64 --reuse-port -b 127.0.0.1:8000 'service.wsgi:app'

Settings come from the environment (DIGSITE_DATABASE_URL, DIGSITE_API_KEY; DIGSITE_PUSH_MAX_WAITING, by default
the worker's --threads (a gevent worker's --worker-connections) less two, since a request waiting on the push
channel holds a thread: docs/api.md).
Without ``--preload`` each worker imports this module after forking, so each has its own database connections.

Under gunicorn, the errors gunicorn answers itself, before the app sees the request (a request line longer
than ``--limit-request-line``, 414; headers too large, 431; a malformed request, 400), are JSON like every
other answer of the API: its error writer is replaced by one that writes ``service.api.raw_error``.
"""

from __future__ import annotations

import gc
import os
import sys
from types import FrameType
from typing import Any

from service import push
from service.api import create_app, raw_error


def _json_errors_from_gunicorn() -> None:
    util = sys.modules.get("gunicorn.util")
    if util is None or not callable(getattr(util, "write_error", None)):
        return  # not under gunicorn

    def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, raw_error(int(status_int), str(reason), str(mesg)))

    util.write_error = write_error  # type: ignore[attr-defined]


def _gunicorn_capacity() -> int | None:
    """How many requests the gunicorn worker importing this module serves at once (its ``--threads``; an
    asynchronous worker's, gevent's, ``--worker-connections``), or None if not under gunicorn.

    Read from the worker itself, which is importing this module now (up the call stack), so that a command-line
    option, ``GUNICORN_CMD_ARGS`` and a configuration file are all seen as gunicorn saw them."""
    if "gunicorn.workers.base" not in sys.modules:
        return None
    base = sys.modules["gunicorn.workers.base"]
    asynchronous = sys.modules.get("gunicorn.workers.base_async")
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        worker = frame.f_locals.get("self")
        if isinstance(worker, base.Worker):
            if asynchronous is not None and isinstance(worker, asynchronous.AsyncWorker):
                capacity = getattr(worker.cfg, "worker_connections", None)
            else:
                capacity = getattr(worker.cfg, "threads", None)
            return capacity if isinstance(capacity, int) else None
        frame = frame.f_back
    return None


def _hold_fewer_waits_than_threads() -> None:
    """A request waiting on the push channel holds one of the worker's threads (or connections): unless
    DIGSITE_PUSH_MAX_WAITING says otherwise, keep two of each worker's for everything else (a sync worker, one
    thread, holds no wait)."""
    capacity = _gunicorn_capacity()
    if capacity is not None and not os.environ.get("DIGSITE_PUSH_MAX_WAITING"):
        push.MAX_WAITING = max(0, capacity - 2)


def _keep_startup_objects_out_of_collections() -> None:
    """Move what is alive once the app is built (modules, classes, functions: about 56,000 objects, which live as
    long as the process) to the collector's permanent generation, so that a full collection no longer walks them.

    Measured in both workers under the seat bench (docs/performance.md, section 5): a full collection took 37 to 57
    ms at the median and up to 99 ms, holding the GIL (every request of that worker stalls meanwhile); with them
    frozen, 2.5 to 9.6 ms and at most 50 ms. The garbage of starting up is collected first: nothing frozen is freed."""
    gc.collect()
    gc.freeze()


_json_errors_from_gunicorn()
_hold_fewer_waits_than_threads()
app = create_app()
_keep_startup_objects_out_of_collections()
