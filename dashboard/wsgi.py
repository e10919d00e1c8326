"""The dashboard for production WSGI servers, built by a factory (nothing is built on import)::

    gunicorn -w 2 --threads 4 -b 127.0.0.1:8050 'dashboard.wsgi:create_app()'

Settings come from the environment (DIGSITE_DATABASE_URL), as for every ``digsite`` command. Each
worker builds its own service and read-side connections after forking.
"""

from __future__ import annotations

from typing import Any


def create_app() -> Any:
    """The dashboard's Flask server over the store the environment names."""
    from dashboard import create_dashboard
    from service import bootstrap

    return create_dashboard(bootstrap.queries(bootstrap.build())).server
