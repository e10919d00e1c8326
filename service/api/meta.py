"""The API about itself: a health check and its OpenAPI document."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from service.api.openapi import document

bp = Blueprint("meta", __name__)


@bp.get("/health")
def health() -> dict[str, Any]:
    return {"status": "ok"}


@bp.get("/openapi.json")
def openapi() -> dict[str, Any]:
    return document()
