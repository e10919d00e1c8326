"""The WSGI entry point for production servers, the one module that builds the app when imported:

    gunicorn -w 2 -k gthread --threads 4 --reuse-port -b 127.0.0.1:8000 'service.wsgi:app'

Settings come from the environment (DIGSITE_DATABASE_URL, DIGSITE_API_KEY). Without ``--preload`` each
worker imports this module after forking, so each has its own database connections.
"""

from __future__ import annotations

from service.api import create_app

app = create_app()
