"""The WSGI entry point for production servers, the one module that builds the app when imported:

    gunicorn -w 2 -k gthread --threads 64 --reuse-port -b 127.0.0.1:8000 'service.wsgi:app'

Settings come from the environment (DIGSITE_DATABASE_URL, DIGSITE_API_KEY, DIGSITE_PUSH_MAX_WAITING: keep it
below --threads, since a request waiting on the push channel holds a thread; docs/api.md). Without
``--preload`` each worker imports this module after forking, so each has its own database connections.

Under gunicorn, the errors gunicorn answers itself, before the app sees the request (a request line longer
than ``--limit-request-line``, 414; headers too large, 431; a malformed request, 400), are JSON like every
other answer of the API: its error writer is replaced by one that writes ``service.api.raw_error``.
"""

from __future__ import annotations

import sys
from typing import Any

from service.api import create_app, raw_error


def _json_errors_from_gunicorn() -> None:
    util = sys.modules.get("gunicorn.util")
    if util is None or not callable(getattr(util, "write_error", None)):
        return  # not under gunicorn

    def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, raw_error(int(status_int), str(reason), str(mesg)))

    util.write_error = write_error  # type: ignore[attr-defined]


_json_errors_from_gunicorn()
app = create_app()
