"""gunicorn's settings for Digsite's servers (the play API, the dashboard), read by gunicorn with ``-c``:

    gunicorn -c python:service.serving.gunicorn_conf -b 127.0.0.1:8000 'service.serving.wsgi:app'

The one setting they are computed from is ``DIGSITE_PUSH_MAX_WAITING``, the waits each worker holds at once
(service/serving/capacity.py says why each follows from it; docs/api.md, "Running it", gives the figures). The workers:
``WEB_CONCURRENCY``, else 2 (about one a core). Anything given on gunicorn's command line wins over this file.
Nothing here imports the app: gunicorn's master process reads this before forking its workers, which build it.
"""

from __future__ import annotations

import os
from typing import Any

from service.serving import capacity

_sized = capacity.gunicorn_settings(capacity.waits())

workers = int(os.environ.get("WEB_CONCURRENCY") or 2)
worker_class = _sized["worker_class"]  # a thread a request: a wait sleeps on its thread, costing no CPU
threads = _sized["threads"]
worker_connections = _sized["worker_connections"]
# Each worker listens on its own socket and the kernel spreads new connections over them (with one shared socket
# the first worker to wake took every connection of a burst: docs/performance.md, section 3).
reuse_port = True


def on_starting(server: Any) -> None:
    """Before the workers are forked: room for their connections in the limit of open files they inherit."""
    short = capacity.open_files_for(server.cfg.worker_connections)
    if short is not None:
        server.log.warning(
            "open files are limited to fewer than the %d a worker of %d connections needs: raise the limit "
            "(ulimit -n, LimitNOFILE=, compose's ulimits) or lower %s",
            short,
            server.cfg.worker_connections,
            capacity.SETTING,
        )
