"""The JSON Schemas of Arnak's actions, options and view: what the API validates and publishes.

The action schema is built from the action dataclasses themselves (``actions.ACTION_TYPES``), so it is exactly
the shape ``action_from_dict`` reads: every field typed, the ones without a default required, no others.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, get_args, get_origin

from domain.arnak.actions import ACTION_TYPES
from domain.arnak.setup import SIDES
from domain.protocol import Seats

SEATS = Seats(1, 4)  # one seat is solo: the engine adds the rival's seat and plays it


def _schema_of(kind: Any) -> dict[str, Any]:
    if kind is bool:
        return {"type": "boolean"}
    if kind is int:
        return {"type": "integer"}
    if kind is str:
        return {"type": "string"}
    if get_origin(kind) is tuple:
        item, rest = get_args(kind)
        assert rest is Ellipsis, f"only variable-length tuples are action fields, not {kind}"
        return {"type": "array", "items": _schema_of(item)}
    if dataclasses.is_dataclass(kind):
        assert isinstance(kind, type)
        return _object(kind)
    raise AssertionError(f"no JSON Schema for an action field of type {kind}")


def _object(cls: type[Any], **extra: dict[str, Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [*extra, *(f.name for f in fields if f.default is dataclasses.MISSING)],
        "properties": {**extra, **{f.name: _schema_of(hints[f.name]) for f in fields}},
    }


ACTION: dict[str, Any] = {
    "description": "The actions of Lost Ruins of Arnak (each names its seat): main and free actions, the end "
    "of a turn, and 'choose' to answer the engine's pending decision (one of the options the seat's view lists).",
    "oneOf": [_object(cls, type={"type": "string", "const": name}) for name, cls in ACTION_TYPES.items()],
    "examples": [{"type": "dig", "seat": 0, "space": "camp-1", "payment": {"cards": [3]}}, {"type": "pass", "seat": 1}],
}

OPTIONS: dict[str, Any] = {
    "type": "object",
    "description": "Arnak's rule options: the board side, and in a solo game the rival's difficulty.",
    "additionalProperties": False,
    "properties": {
        "side": {
            "type": "string",
            "enum": list(SIDES),
            "default": "bird",
            "x-flag": "board",
            "description": "The board side.",
        },
        "difficulty": {
            "type": "integer",
            "minimum": 0,
            "maximum": 5,
            "default": 0,
            "description": "Solo only: the rival's red tiles.",
        },
    },
}

VIEW: dict[str, Any] = {
    "type": "object",
    "description": "An Arnak table as one seat (or the referee) sees it: a seat sees its own hand, the other "
    "hands and every deck as counts only, no face-down idols or stacks, the seed once the game is over.",
    "required": ["game", "rules_version", "viewer", "side", "players", "round", "phase", "turn", "seats", "outcome"],
    "properties": {
        "game": {"const": "arnak"},
        "rules_version": {"type": "string"},
        "viewer": {"type": ["integer", "string"]},
        "side": {"type": "string", "enum": list(SIDES)},
        "players": {"type": "array", "items": {"type": "string"}},
        "round": {"type": "integer"},
        "phase": {"type": "string"},
        "turn": {"type": ["integer", "null"]},
        "seats": {"type": "array", "items": {"type": "object"}},
        "pending": {"type": ["object", "null"]},
        "rival": {"type": ["object", "null"]},
        "outcome": {"type": ["object", "null"]},
        "seed": {"type": "string"},
    },
}
