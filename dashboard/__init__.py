"""The organisers' dashboard (Dash + Plotly): games browser, replays, player tendencies, aggregates.

Everything it shows comes from the read side (``service.queries.Queries``): read models for lists and
statistics, snapshots plus ``evolve`` for a replay step. Nothing is built or connected at import time::

    from dashboard import create_dashboard
    app = create_dashboard(Queries(build()))          # its own Flask server, at /
    app = create_dashboard(queries, server=flask_app, url_base_pathname="/dashboard/")  # mounted
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import dash

    from service.queries import Queries


def create_dashboard(queries: Queries, server: Any = None, url_base_pathname: str = "/") -> dash.Dash:
    """The Dash app over ``queries``; ``server``: a Flask app to mount it in (default: its own)."""
    from dashboard.app import build

    return build(queries, server=server, url_base_pathname=url_base_pathname)


__all__ = ["create_dashboard"]
