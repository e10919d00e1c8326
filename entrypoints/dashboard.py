"""``digsite dashboard``: the organisers' dashboard (Dash) over the read models, on a development server."""

from __future__ import annotations

import click
from werkzeug.serving import make_server

from dashboard import create_dashboard
from service import bootstrap
from service.cli import main
from service.cli.ports import check_free
from service.cli.problems import ready, settings
from service.errors import ServiceError


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8050, show_default=True, help="0: any free port.")
def dashboard(host: str, port: int) -> None:
    """Serve the dashboard: games, replays, player tendencies and aggregates (threaded werkzeug server).

    It reads the read models, so keep 'digsite projections run' going beside it for new games to appear.
    Organisers sign in with the organiser key (DIGSITE_API_KEY); without it, finished games only."""

    found = settings()
    check_free(host, port, "--port")
    ready(found.database)  # unreachable, missing or not upgraded: one line saying which, and what to do
    try:
        service = bootstrap.build(found)
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    read = bootstrap.read_port(service)
    try:
        app = create_dashboard(read, service)
    except ValueError as error:  # a dashboard setting that makes no sense (DIGSITE_DASHBOARD_*)
        read.close()
        service.close()
        raise click.ClickException(str(error)) from None
    access = app.digsite.gate.settings
    follower = bootstrap.follower(service.settings)
    try:
        behind = follower.behind()
    finally:
        follower.close()
    server = make_server(host, port, app.server, threaded=True)
    click.echo(f"Digsite dashboard on {service.settings.database.display()}")
    if behind:
        click.echo(f"the read models are {behind} record(s) behind: run `digsite projections run` to catch up")
    click.echo(f"open http://{server.host}:{server.port}/ (development server; Ctrl-C stops it)")
    if access.api_key:
        click.echo(
            f"organisers: sign in at http://{server.host}:{server.port}/login with the organiser key (DIGSITE_API_KEY)"
        )
    else:
        click.echo("organiser sign-in is off: set DIGSITE_API_KEY to sign in and see games in play")
    if access.spectators:
        click.echo("spectator mode: without signing in, finished games only (DIGSITE_DASHBOARD_SPECTATORS=0: off)")
    else:
        click.echo("spectator mode is off: without signing in, only the sign-in page")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.server_close()
        read.close()
        service.close()
