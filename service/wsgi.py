"""The WSGI entry point for production servers, the one module that builds the app when imported:

    gunicorn -w 2 -k gthread --threads 64 --reuse-port -b 127.0.0.1:8000 'service.wsgi:app'

Settings come from the environment (DIGSITE_DATABASE_URL, DIGSITE_API_KEY; DIGSITE_PUSH_MAX_WAITING, by default
the worker's --threads less two, since a request waiting on the push channel holds a thread: docs/api.md).
Without ``--preload`` each worker imports this module after forking, so each has its own database connections.

Under gunicorn, the errors gunicorn answers itself, before the app sees the request (a request line longer
than ``--limit-request-line``, 414; headers too large, 431; a malformed request, 400), are JSON like every
other answer of the API: its error writer is replaced by one that writes ``service.api.raw_error``.
"""

from __future__ import annotations

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


def _gunicorn_threads() -> int | None:
    """The threads of the gunicorn worker importing this module (its ``--threads``), or None if not under gunicorn.

    Read from the worker itself, which is importing this module now (up the call stack), so that a command-line
    option, ``GUNICORN_CMD_ARGS`` and a configuration file are all seen as gunicorn saw them."""
    if "gunicorn.workers.base" not in sys.modules:
        return None
    base = sys.modules["gunicorn.workers.base"]
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        worker = frame.f_locals.get("self")
        if isinstance(worker, base.Worker):
            threads = getattr(worker.cfg, "threads", None)
            return threads if isinstance(threads, int) else None
        frame = frame.f_back
    return None


def _hold_fewer_waits_than_threads() -> None:
    """A request waiting on the push channel holds one of the worker's threads: unless DIGSITE_PUSH_MAX_WAITING says
    otherwise, keep two threads of each worker for everything else (a sync worker, one thread, holds no wait)."""
    threads = _gunicorn_threads()
    if threads is not None and not os.environ.get("DIGSITE_PUSH_MAX_WAITING"):
        push.MAX_WAITING = max(0, threads - 2)


_json_errors_from_gunicorn()
_hold_fewer_waits_than_threads()
app = create_app()
