"""Helpers of the projections' tests."""

from __future__ import annotations

from typing import Any

from service.reading.projections.follower import Follower


def rows(follower: Follower, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of a read-model query (``{p}`` for the schema's prefix, ``?`` marks) as tuples, on either backend."""
    models = follower.read_models
    with models.tracker.datastore.transaction(commit=False) as curs:
        curs.execute(models._q(sql), params)
        return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in curs.fetchall()]
