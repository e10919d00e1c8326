"""The dashboard for production WSGI servers, built by a factory (nothing is built on import)::

    gunicorn -c python:service.serving.gunicorn_conf -b 127.0.0.1:8050 'dashboard.wsgi:create_app()'

Settings come from the environment (DIGSITE_DATABASE_URL), as for every ``digsite`` command. Each
worker builds its own service and read-side connections after forking. An open live page holds a wait on the push
channel: the workers are sized from DIGSITE_PUSH_MAX_WAITING as the API's are (service/serving/gunicorn_conf.py).
"""

from __future__ import annotations

from typing import Any

from dashboard import create_dashboard
from service import bootstrap
from service.serving import capacity, push


def create_app() -> Any:
    """The dashboard's Flask server over the store the environment names."""
    push.MAX_WAITING = capacity.size_worker(push.MAX_WAITING)  # (a worker sized by hand may hold fewer)
    service = bootstrap.build()
    return create_dashboard(bootstrap.read_port(service), service).server
