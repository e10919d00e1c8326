"""GameState <-> plain JSON values, for snapshots: a stored snapshot plus the events after it gives the
state at any version without replaying from the first event."""

from __future__ import annotations

from typing import Any

from domain.arnak.plain import from_plain, to_plain
from domain.arnak.state import GameState
from domain.errors import MalformedAction


def state_to_dict(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = to_plain(state)
    return out


def state_from_dict(data: dict[str, Any]) -> GameState:
    try:
        state: GameState = from_plain(GameState, data, "state")
    except TypeError as error:
        raise MalformedAction(f"malformed Arnak state: {error}") from None
    return state
