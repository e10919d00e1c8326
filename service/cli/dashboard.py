"""``digsite dashboard``: the organisers' dashboard (Dash) over the read models, on a development server."""

from __future__ import annotations

import click
from werkzeug.serving import make_server

from service.cli import main
from service.errors import ServiceError


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8050, show_default=True, help="0: any free port.")
def dashboard(host: str, port: int) -> None:
    """Serve the dashboard: games, replays, player tendencies and aggregates (threaded werkzeug server).

    It reads the read models, so keep ``digsite projections run`` going beside it for new games to appear."""
    from dashboard import create_dashboard
    from service.bootstrap import build
    from service.projections.follower import Follower
    from service.queries import Queries

    try:
        service = build()
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    queries = Queries(service)
    app = create_dashboard(queries)
    follower = Follower(service.settings)
    try:
        behind = follower.behind()
    finally:
        follower.close()
    server = make_server(host, port, app.server, threaded=True)
    click.echo(f"Digsite dashboard on {service.settings.database.display()}")
    if behind:
        click.echo(f"the read models are {behind} record(s) behind: run `digsite projections run` to catch up")
    click.echo(f"open http://{server.host}:{server.port}/ (development server; Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.server_close()
        queries.close()
        service.close()
