"""The API about itself: a health check and its OpenAPI document."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from service.api.auth import digsite
from service.api.openapi import document
from service.store.backends import RETRY_AFTER_SECONDS

bp = Blueprint("meta", __name__)


@bp.get("/health")
def health() -> tuple[dict[str, Any], int, dict[str, str]] | dict[str, Any]:
    """200 ``{"status": "ok"}`` while the store serves reads and writes; else 503 ``{"status": "down", "store":
    "unreachable" | "read_only", "message"}``. Bounded: a short probe at most once a second, else its result."""
    found = digsite().store_health()
    if found.ok:
        return {"status": "ok"}
    store = "read_only" if found.state == "read_only" else "unreachable"
    body = {"status": "down", "store": store, "message": found.message}
    return body, 503, {"Retry-After": str(RETRY_AFTER_SECONDS)}


@bp.get("/openapi.json")
def openapi() -> dict[str, Any]:
    return document()
