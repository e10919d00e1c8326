"""Stored JSON back to values: states (snapshots: a stored snapshot plus the events after it gives the state
at any version without replaying from the first event), and the events and actions a store holds (read
millions of times by projections and replays, so decoded by plans made once per type, into shared values).

The JSON forms themselves are written by ``events.event_to_dict`` and ``actions.action_to_dict``; an action
from outside is read by ``actions.action_from_dict``, which checks its shape.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from domain.errors import MalformedAction
from domain.ruins import caches
from domain.ruins import events as ev
from domain.ruins.actions import Action, Discard, Purchase, new_play
from domain.ruins.caches import profile
from domain.ruins.profiles import twins
from domain.ruins.state import GameState, Outcome, Ruin, Top
from domain.ruins.versions import VERSIONS

# Every field but the derived profiles and twins; the rule book is stored as its version's name.
_STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.compare and f.name != "book")
# Snapshots taken before states named their version: that was the only version there was.
_UNNAMED_VERSION = "ruins-1"


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
    out: dict[str, Any] = {"rules_version": state.book.version}
    for name in _STATE_FIELDS:
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
    book = VERSIONS.book(data.get("rules_version", _UNNAMED_VERSION))
    values: dict[str, Any] = {"book": book}
    for name in _STATE_FIELDS:
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
    values["profiles"] = tuple(profile(book, card, ruin) for card, ruin in enumerate(values["ruins"]))
    values["twins"] = twins(values["profiles"])
    return GameState(**values)


def action_from_record(data: Mapping[str, Any]) -> Action:
    """Rebuild an action this engine already accepted, from its stored JSON form, without checking its shape
    again (projections read millions of them). Anything from outside goes through ``action_from_dict``."""
    kind, seat = data["type"], data["seat"]
    if kind == "pass":
        return caches.pass_of(seat)
    if kind == "play":
        bought = data.get("purchases")
        purchases = tuple([Purchase(p["discovery"], p["ruin"]) for p in bought]) if bought else ()
        claims = data.get("claims")
        return new_play(seat, tuple(data["ruins"]), data["rank"], purchases, tuple(claims) if claims else ())
    if kind == "flip":
        return caches.flip_of(seat, data["ruin"])
    return Discard(seat, tuple(data["ruins"]))


# Per event type: its fields, and those that hold lists in JSON (tuples here). Decoding runs for every
# stored event a projection or a replay reads, so the work per type is decided once.
_TUPLE_FIELDS: dict[type[Any], frozenset[str]] = {
    cls: frozenset(f.name for f in dataclasses.fields(cls) if "tuple" in str(f.type)) for cls in ev.EVENT_TYPES.values()
}


def _decoder(cls: type[Any]) -> Callable[[dict[str, Any]], Any]:
    """Build ``cls`` from its JSON form: each field in order, lists as tuples, ``options`` as sorted pairs."""
    lists = _TUPLE_FIELDS[cls]
    plan = tuple((name, 2 if name == "options" else 1 if name in lists else 0) for name in ev.FIELDS[cls])

    def decode(data: dict[str, Any]) -> Any:
        values = []
        for name, how in plan:  # in field order: the event is built from positional arguments
            value = data[name]
            if how == 1:
                value = ev.from_json(value)
            elif how == 2:
                value = tuple(sorted(value.items()))
            values.append(value)
        return cls(*values)

    return decode


# Six of every ten stored events carry nothing but a seat, and most others are plays: those are the
# engine's shared values (domain.ruins.caches; the same values ``cls(*fields)`` would give).
_DECODERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    **{name: _decoder(cls) for name, cls in ev.EVENT_TYPES.items()},
    "NextTurn": lambda data: caches.next_turn(data["seat"]),
    "Passed": lambda data: caches.passed(data["seat"]),
    "PlayerSkipped": lambda data: caches.player_skipped(data["seat"]),
    "PileCleared": lambda data: caches.pile_cleared(data["leader"]),
    "RuinsPlayed": lambda data: caches.ruins_played(
        data["seat"], ev.from_json(data["ruins"]), data["rank"], data["count"], data["lead"]
    ),
}


def event_from_dict(data: dict[str, Any]) -> ev.Event:
    decode = _DECODERS.get(data.get("type", ""))
    if decode is None:
        raise MalformedAction(f"unknown event type {data.get('type')!r}")
    event: ev.Event = decode(data)
    return event
