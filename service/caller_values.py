"""Checking what callers give the service: ids, and settings stored in records as plain JSON."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from service.errors import BadRequest, NotFound


def now() -> str:
    return datetime.now(UTC).isoformat()


def check_plain(value: Any, what: str, depth: int = 0) -> None:
    """Settings stored in records (bot tendencies, options, labels) must be plain JSON whose keys do not
    start with '_': the event store's transcoder reserves such objects for its own encoded types."""
    if depth > 8:
        raise BadRequest(f"{what} is nested too deeply", "malformed_request")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or key.startswith("_"):
                raise BadRequest(
                    f"{what} has a key {key!r}: keys are text and may not start with '_'", "malformed_request"
                )
            check_plain(item, what, depth + 1)
    elif isinstance(value, list):
        for item in value:
            check_plain(item, what, depth + 1)
    elif not (value is None or isinstance(value, (str, int, float, bool))):
        raise BadRequest(f"{what} holds a {type(value).__name__}; only JSON values are stored", "malformed_request")


def parse_uuid(value: str | UUID, what: str) -> UUID:
    if isinstance(value, UUID):
        return value
    try:
        return UUID(str(value))
    except ValueError:
        raise NotFound(f"no {what} with id {value!r}", f"unknown_{what}") from None
