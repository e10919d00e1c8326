"""``digsite serve``: the play API on a development server (use gunicorn in production: docs/api.md)."""

from __future__ import annotations

import signal
from types import FrameType

import click
from werkzeug.serving import WSGIRequestHandler, make_server

from service.api import create_app, raw_error
from service.cli.group import main
from service.cli.ports import check_free
from service.cli.problems import ready, settings
from service.errors import ServiceError
from service.serving import capacity, push
from service.serving.clock_sweep import ClockSweep

NO_KEY = (
    "DIGSITE_API_KEY is not set, so every organiser call (players, tournaments, games) would be refused: "
    "set one, for example `export DIGSITE_API_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')`, "
    "or pass --no-organisers to serve only the players' seat calls"
)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="0: any free port.")
@click.option(
    "--no-organisers",
    is_flag=True,
    help="Start without DIGSITE_API_KEY: seats play with their tokens, every organiser call is refused.",
)
def serve(host: str, port: int, no_organisers: bool) -> None:
    """Serve the play API (threaded werkzeug server, for development).

    Organiser calls need the organiser key, DIGSITE_API_KEY: without it the command refuses to start, unless
    --no-organisers says that is meant."""
    found = settings()
    if not found.api_key and not no_organisers:
        raise click.ClickException(NO_KEY)
    check_free(host, port, "--port")
    ready(found.database)  # unreachable, missing or not upgraded: one line saying which, and what to do
    try:
        app = create_app(found)
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    service = app.extensions["digsite"]
    ClockSweep(service, app.extensions["digsite_read"]).start()  # (timeouts on tables where nobody moves)
    server = make_server(host, port, app, threaded=True, request_handler=JSONErrorsHandler)
    signal.signal(signal.SIGTERM, _interrupt)  # stop as cleanly on `kill` as on Ctrl-C
    click.echo(f"Digsite API on {service.settings.database.display()}")
    click.echo(f"listening on http://{server.host}:{server.port}/api/v1 (development server; Ctrl-C stops it)")
    # (a thread a request, as many as come: the waits it holds are the one limit, as in each gunicorn worker)
    click.echo(f"holds up to {push.MAX_WAITING} waiting requests on the push channel ({capacity.SETTING})")
    if not found.api_key:
        click.echo("organiser calls are refused: no DIGSITE_API_KEY (--no-organisers)", err=True)
    try:
        server.serve_forever()  # returns on Ctrl-C or SIGTERM: werkzeug's server takes the KeyboardInterrupt
    finally:
        server.server_close()
        service.close()
    click.echo("stopped")


class JSONErrorsHandler(WSGIRequestHandler):
    """The development server's own refusals (a request line over 64 KiB, a malformed request) in the API's
    JSON form rather than Python's HTML page."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        reason = self.responses.get(code, ("Error",))[0]
        try:
            self.log_error("code %d, message %s", code, message)
            self.wfile.write(raw_error(code, reason, message or reason))
            self.wfile.flush()
        finally:
            self.close_connection = True


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
