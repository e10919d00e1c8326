"""``digsite serve``: the play API on a development server (use gunicorn in production: docs/api.md)."""

from __future__ import annotations

import signal
from types import FrameType

import click
from werkzeug.serving import WSGIRequestHandler, make_server

from service.api import create_app, raw_error
from service.cli import main
from service.errors import ServiceError


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="0: any free port.")
def serve(host: str, port: int) -> None:
    """Serve the play API (threaded werkzeug server, for development)."""
    try:
        app = create_app()
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    service = app.extensions["digsite"]
    server = make_server(host, port, app, threaded=True, request_handler=JSONErrorsHandler)
    signal.signal(signal.SIGTERM, _interrupt)  # stop as cleanly on `kill` as on Ctrl-C
    click.echo(f"Digsite API on {service.settings.database.display()}")
    click.echo(f"listening on http://{server.host}:{server.port}/api/v1 (development server; Ctrl-C stops it)")
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
