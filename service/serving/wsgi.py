"""The WSGI entry point for production servers, the one module that builds the app when imported:

    gunicorn -c python:service.serving.gunicorn_conf -b 127.0.0.1:8000 'service.serving.wsgi:app'

Settings come from the environment (DIGSITE_DATABASE_URL, DIGSITE_API_KEY; DIGSITE_PUSH_MAX_WAITING, the waits on
the push channel a worker holds, which service/serving/gunicorn_conf.py sizes the workers from: docs/api.md).
Without ``--preload`` each worker imports this module after forking, so each has its own database connections.

Under gunicorn, the errors gunicorn answers itself, before the app sees the request (a request line longer
than ``--limit-request-line``, 414; headers too large, 431; a malformed request, 400), are JSON like every
other answer of the API: its error writer is replaced by one that writes ``service.api.raw_error``.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

from service.api import create_app, raw_error
from service.serving import capacity, push
from service.serving.clock_sweep import ClockSweep


def _json_errors_from_gunicorn() -> None:
    util = sys.modules.get("gunicorn.util")
    if util is None or not callable(getattr(util, "write_error", None)):
        return  # not under gunicorn

    def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, raw_error(int(status_int), str(reason), str(mesg)))

    util.write_error = write_error  # type: ignore[attr-defined]


def _hold_the_waits_this_worker_has_room_for() -> None:
    """As many waits as DIGSITE_PUSH_MAX_WAITING asks, unless this gunicorn worker was sized by hand with too few
    threads or connections to hold them and still serve everything else (service/serving/capacity.py)."""
    push.MAX_WAITING = capacity.size_worker(push.MAX_WAITING)


def _keep_startup_objects_out_of_collections() -> None:
    """Move what is alive once the app is built (modules, classes, functions: about 56,000 objects, which live as
    long as the process) to the collector's permanent generation, so that a full collection no longer walks them.

    Measured in both workers under the seat bench (docs/performance.md, section 5): a full collection took 37 to 57
    ms at the median and up to 99 ms, holding the GIL (every request of that worker stalls meanwhile); with them
    frozen, 2.5 to 9.6 ms and at most 50 ms. The garbage of starting up is collected first: nothing frozen is freed."""
    gc.collect()
    gc.freeze()


_json_errors_from_gunicorn()
_hold_the_waits_this_worker_has_room_for()
app = create_app()
# Timeouts on tables where nobody moves: each worker sweeps (each timeout is recorded once: clock_sweep.py)
ClockSweep(app.extensions["digsite"], app.extensions["digsite_read"]).start()
_keep_startup_objects_out_of_collections()
