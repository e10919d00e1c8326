"""The play API (Flask), versioned under ``/api/v1``: a thin layer that reads a request, calls one service
function and shapes its answer. Build it with ``create_app``; nothing is built at import time."""

from __future__ import annotations

from flask import Flask

from service.api import errors, games, meta, organisers
from service.application import Digsite
from service.bootstrap import build
from service.settings import Settings

PREFIX = "/api/v1"
MAX_BODY_BYTES = 64 * 1024


def create_app(settings: Settings | None = None, service: Digsite | None = None) -> Flask:
    """The API app around ``service`` (or a service built from ``settings``, or from the environment)."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.extensions["digsite"] = service if service is not None else build(settings)
    for blueprint in (meta.bp, organisers.bp, games.bp):
        app.register_blueprint(blueprint, url_prefix=PREFIX)
    errors.register(app)
    return app
