"""The organisers' dashboard (Dash + Plotly): games browser, replays, player tendencies, aggregates.

Everything it shows comes from the read side (``service.reading.read_port.ReadPort``): read models for lists and
statistics, snapshots plus ``evolve`` for a replay step. Who may see what is decided on the server for
every page and callback (``dashboard.access``): organisers sign in with the organiser key; without
signing in, finished games only (spectator mode); a player's seat token opens that seat of their game.
Nothing is built or connected at import time::

    from dashboard import create_dashboard
    service = bootstrap.build()
    app = create_dashboard(bootstrap.read_port(service), service)   # its own Flask server, at /
    app = create_dashboard(read, service, server=flask_app, url_base_pathname="/dashboard/")  # mounted
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import dash

    from dashboard.access import AccessSettings
    from service.commands.application import Digsite
    from service.reading.read_port import ReadPort


def create_dashboard(
    read: ReadPort,
    service: Digsite,
    server: Any = None,
    url_base_pathname: str = "/",
    access: AccessSettings | None = None,
) -> dash.Dash:
    """The Dash app reading through ``read`` (which cannot play a move) and playing through ``service``;
    ``server``: a Flask app to mount it in (default: its own); ``access``:
    who may sign in and see what (default: from the environment and the service's settings)."""
    from dashboard.app import build  # lazy: Dash and Plotly take 4.4 s to import; `dashboard` alone is light

    return build(read, service, server=server, url_base_pathname=url_base_pathname, access=access)


__all__ = ["create_dashboard"]
