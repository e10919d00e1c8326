"""GameState <-> plain JSON values, for snapshots: a stored snapshot plus the events after it gives the
state at any version without replaying from the first event."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from domain.ruins.profiles import profile, twins
from domain.ruins.state import GameState, Outcome, Ruin, Top

_FIELDS = tuple(f.name for f in fields(GameState) if f.compare)  # not the derived profiles and twins


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(value)
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def state_to_dict(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _FIELDS:
        value = getattr(state, name)
        if name == "ruins":
            value = [[r.night, list(r.sleeves), r.claim] for r in value]
        elif name == "top":
            value = None if value is None else [value.seat, value.rank, value.count]
        elif name == "outcome":
            value = None if value is None else [value.winner, value.how, value.round]
        elif name == "options":
            value = dict(value)
        out[name] = _plain(value)
    return out


def state_from_dict(data: dict[str, Any]) -> GameState:
    values: dict[str, Any] = {}
    for name in _FIELDS:
        value = data[name]
        if name == "ruins":
            value = tuple(Ruin(night, tuple(sleeves), claim) for night, sleeves, claim in value)
        elif name == "top":
            value = None if value is None else Top(*value)
        elif name == "outcome":
            value = None if value is None else Outcome(*value)
        elif name == "options":
            value = tuple(sorted(value.items()))
        elif name == "responded":
            value = frozenset(value)
        else:
            value = _tuples(value)
        values[name] = value
    values["profiles"] = tuple(profile(card, ruin) for card, ruin in enumerate(values["ruins"]))
    values["twins"] = twins(values["profiles"])
    return GameState(**values)
