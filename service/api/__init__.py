"""The play API (Flask), versioned under ``/api/v1``: a thin layer that reads a request, calls one service
function and shapes its answer. Build it with ``create_app``; nothing is built at import time."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import Any

from flask import Flask
from werkzeug.wsgi import get_content_length

from service.api import errors, fair_play, games, meta, openapi, organisers, rounds, rulings
from service.api.encoding import AnswerJSON
from service.api.validation import check_url_length
from service.bootstrap import build, read_port
from service.commands.application import Digsite
from service.serving.throttle import Throttle, storage_from_uri, storage_uri, trusted_proxies
from service.settings import Settings

PREFIX = "/api/v1"
MAX_BODY_BYTES = 64 * 1024
MAX_URL_BYTES = 2048  # path and query; the longest URL of the API is about 120 bytes. Below gunicorn's own
# limit of the request line (4094 bytes by default), so that the app's JSON 414 is the answer there too.
DRAIN_BYTES = 1024 * 1024  # of a body sent without a length and too large, read and dropped before the 413


class StreamedBodyLimit:
    """WSGI middleware: a body sent without ``Content-Length`` (``Transfer-Encoding: chunked``) is read here,
    up to the limit, and handed on with its length, so the limit holds for it as for any other.

    Werkzeug itself cuts such a stream at ``MAX_CONTENT_LENGTH`` without a word when a read ends exactly
    there: a body whose first 64 KiB were valid JSON was accepted. Here a longer one is answered 413
    ``payload_too_large`` by Flask (the request is handed on as an empty body announcing its real size so
    far). What is sent beyond the limit is read and dropped up to ``DRAIN_BYTES``, so an ordinary client
    sees the answer rather than a reset connection. Only servers that end the stream themselves
    (``wsgi.input_terminated``: werkzeug's, gunicorn's, the test client's) are trusted to be read to the end.
    """

    def __init__(self, app: Any, limit: int, drain: int = DRAIN_BYTES) -> None:
        self.app, self.limit, self.drain = app, limit, drain

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("wsgi.input_terminated") and get_content_length(environ) is None:
            # (werkzeug ignores Content-Length under Transfer-Encoding: chunked, as HTTP says; the server
            # has taken the chunks apart, so the body is handed on as plain bytes of a known length)
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            stream = environ["wsgi.input"]
            data, size = _read(stream, self.limit + 1)
            if size > self.limit:
                size += _read(stream, self.drain - size, keep=False)[1]
                data = b""
                environ["CONTENT_LENGTH"] = str(size)  # more than the limit: Flask answers 413
            else:
                environ["CONTENT_LENGTH"] = str(len(data))
            environ["wsgi.input"] = io.BytesIO(data)
        result: Iterable[bytes] = self.app(environ, start_response)
        return result


def _read(stream: Any, size: int, keep: bool = True) -> tuple[bytes, int]:
    """Up to ``size`` bytes of ``stream`` (fewer only at its end) and their count (with ``keep=False``, only
    the count: the bytes are dropped as they are read)."""
    parts, got = [], 0
    while got < size:
        chunk = stream.read(min(size - got, 65536))
        if not chunk:
            break
        got += len(chunk)
        if keep:
            parts.append(chunk)
    return b"".join(parts), got


# Codes of the errors a server answers itself, before the app sees the request (see ``raw_error``).
SERVER_ERROR_CODES = {
    400: "malformed_request",
    413: "payload_too_large",
    414: "uri_too_long",
    431: "headers_too_large",
    500: "internal_error",
}


def raw_error(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 error response in the API's JSON form, for the servers' own refusals (a request line
    or header too long for gunicorn or werkzeug's server): ``{"error": {"code", "message"}}``, then close."""
    code = SERVER_ERROR_CODES.get(status) or "_".join(reason.lower().split()) or "error"
    body = json.dumps({"error": {"code": code, "message": message or reason}}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def create_app(
    settings: Settings | None = None, service: Digsite | None = None, throttle: Throttle | None = None
) -> Flask:
    """The API app around ``service`` (or a service built from ``settings``, or from the environment), counting
    wrong secrets with ``throttle`` (by default 5 per address in 5 minutes per kind: ``service.serving.throttle``).
    Its read routes read through the service's read port (``service.reading.read_port``: it cannot play a move);
    only creating and playing go through the service itself."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.json = AnswerJSON(app)  # orjson, keys unsorted: service/api/encoding.py
    app.wsgi_app = StreamedBodyLimit(app.wsgi_app, MAX_BODY_BYTES)  # type: ignore[method-assign]
    service = service if service is not None else build(settings)
    read = read_port(service)
    service.on_close(read.close)  # (its connections to the read models go with the service's)
    app.extensions["digsite"] = service
    app.extensions["digsite_read"] = read
    if throttle is None:
        throttle = Throttle(proxies=trusted_proxies(), storage=storage_from_uri(storage_uri()))
    app.extensions["digsite_throttle"] = throttle
    _routes(app)
    app.before_request(lambda: check_url_length(MAX_URL_BYTES))
    errors.register(app)
    return app


def _routes(app: Flask) -> Flask:
    for blueprint in (meta.bp, organisers.bp, rounds.bp, rulings.bp, fair_play.bp, games.bp):
        app.register_blueprint(blueprint, url_prefix=PREFIX)
    return app


def document() -> dict[str, Any]:
    """The OpenAPI document of the API's routes, as ``/api/v1/openapi.json`` serves it (no service needed)."""
    return openapi.document(_routes(Flask(__name__)))
