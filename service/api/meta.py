"""The API about itself: a health check and its OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

from flask import Blueprint, current_app

from service.api.auth import digsite
from service.api.openapi import described, document, operation, ref
from service.api.responses import Health, HealthDown
from service.store.backends import RETRY_AFTER_SECONDS

bp = Blueprint("meta", __name__)


def _health_operation() -> dict[str, Any]:
    """The health check answers its own body when the store is down, not the Error shape."""
    out = operation("health", "Is the API up?", tag="meta", ok=(200, "Up.", ref("schemas", "Health")), errors=[])
    out["responses"]["503"] = ref("responses", "HealthDown")
    return out


@bp.get("/health")
@described(_health_operation())
def health() -> tuple[HealthDown, int, dict[str, str]] | Health:
    """200 ``{"status": "ok"}`` while the store serves reads and writes; else 503 ``{"status": "down", "store":
    "unreachable" | "read_only", "message"}``. Bounded: a short probe at most once a second, else its result."""
    found = digsite().store_health()
    if found.ok:
        return {"status": "ok"}
    store: Literal["unreachable", "read_only"] = "read_only" if found.state == "read_only" else "unreachable"
    body: HealthDown = {"status": "down", "store": store, "message": found.message}
    return body, 503, {"Retry-After": str(RETRY_AFTER_SECONDS)}


@bp.get("/openapi.json")
@described(
    operation(
        "openapi", "This document.", tag="meta", ok=(200, "The OpenAPI 3.1 document.", {"type": "object"}), errors=[]
    )
)
def openapi() -> dict[str, Any]:
    return document(current_app)
