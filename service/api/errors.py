"""One JSON error handler for the whole API: ``{"error": {"code": "...", "message": "..."}}``.

A ``ServiceError`` answers with its own status and code; an HTTP error raised by Flask (unknown route,
wrong method, body too large) with its status and a code named after it; a store that cannot be reached,
is read-only, or whose SQLite file cannot be read with 503 "store_unavailable" (at once: see
service/store/pgrecorder.py); anything else is a bug: it is logged with its traceback and answered 500
"internal_error" without details. Every 503 carries ``Retry-After``, and so does a 429 of the throttle of
wrong secrets (``service.serving.throttle``).
"""

from __future__ import annotations

import sqlite3

import psycopg
from eventsourcing.persistence import DatabaseError, InterfaceError, OperationalError
from flask import Flask, Response, current_app, jsonify
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from service.api.responses import Error
from service.errors import Busy, ServiceError, Unauthorized
from service.serving.throttle import Throttled
from service.store.backends import RETRY_AFTER_SECONDS, StoreUnavailable

UNREACHABLE = "the game store is unreachable; try again shortly"

HTTP_CODES = {
    400: "malformed_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def error_response(status: int, code: str, message: str) -> Response:
    body: Error = {"error": {"code": code, "message": message}}
    response = jsonify(body)
    response.status_code = status
    if status == 503:
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def store_unavailable(error: Exception) -> str | None:
    """The sentence to answer 503 with if ``error`` means the store cannot serve now (not a bug), else None."""
    if isinstance(error, StoreUnavailable):
        return error.message
    if isinstance(error, (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)):
        return UNREACHABLE  # e.g. a connection refused, a lock not granted in time, a locked SQLite file
    if isinstance(error, sqlite3.OperationalError):  # a locked file, "unable to open database file", I/O errors
        return UNREACHABLE
    cause = error.__cause__ if isinstance(error, DatabaseError) else error
    if type(cause) is sqlite3.DatabaseError:  # exactly: e.g. "file is not a database" (not a constraint, a bug)
        return "the game store's file cannot be read; try again shortly"
    return None


def handle(error: Exception) -> Response:
    if isinstance(error, ServiceError):
        response = error_response(error.status, error.code, error.message)
        if isinstance(error, Unauthorized):
            response.headers["WWW-Authenticate"] = 'Bearer realm="digsite"'
        if isinstance(error, Throttled | Busy):
            response.headers["Retry-After"] = str(error.retry_after)
        return response
    if isinstance(error, HTTPException) and error.code is not None and error.code < 500:
        code = HTTP_CODES.get(error.code, (error.name or "error").lower().replace(" ", "_"))
        response = error_response(error.code, code, error.description or error.name)
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response
    unavailable = store_unavailable(error)
    if unavailable is not None:
        current_app.logger.warning("the event store cannot serve this request: %s", error)  # no traceback storm
        return error_response(503, "store_unavailable", unavailable)
    current_app.logger.exception("unexpected error while answering a request")
    return error_response(500, "internal_error", "something went wrong on our side; it has been logged")


def register(app: Flask) -> None:
    app.register_error_handler(Exception, handle)
