"""The JSON Schemas of Ruins' actions, options and view: what the API validates and publishes.

The action schema is exactly the shape ``action_from_dict`` reads (legality is ``decide``'s business).
"""

from __future__ import annotations

from typing import Any

from domain.protocol import Seats

SEATS = Seats(2, 5)

_INT: dict[str, Any] = {"type": "integer"}
_INTS: dict[str, Any] = {"type": "array", "items": _INT}
_SEAT: dict[str, Any] = {"type": "integer", "description": "The seat acting (yours)."}


def _action(kind: str, fields: dict[str, Any], required: list[str], description: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", *required],
        "properties": {"type": {"type": "string", "const": kind}, **fields},
    }
    if description:
        out["description"] = description
    return out


ACTION: dict[str, Any] = {
    "description": "The actions of Ruins (each names its seat).",
    "oneOf": [
        _action(
            "play",
            {
                "seat": _SEAT,
                "ruins": _INTS,
                "rank": _INT,
                "purchases": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["discovery", "ruin"],
                        "properties": {"discovery": _INT, "ruin": _INT},
                    },
                },
                "claims": _INTS,
            },
            ["seat", "ruins", "rank"],
        ),
        _action("pass", {"seat": _SEAT}, ["seat"]),
        _action(
            "flip",
            {"seat": _SEAT, "ruin": {"type": ["integer", "null"]}},
            ["seat", "ruin"],
            "The secret night flip at the start of a round (null: flip nothing). Every seat posts its "
            "own; the engine reveals them together once all have chosen.",
        ),
        _action("discard", {"seat": _SEAT, "ruins": _INTS}, ["seat", "ruins"]),
    ],
    "examples": [{"type": "flip", "seat": 0, "ruin": None}, {"type": "play", "seat": 1, "ruins": [14, 31], "rank": 7}],
}

OPTIONS: dict[str, Any] = {
    "type": "object",
    "description": "Ruins has no rule options yet.",
    "additionalProperties": False,
    "properties": {},
}

VIEW: dict[str, Any] = {
    "type": "object",
    "description": "A Ruins table as one seat (or the referee) sees it: a seat sees its own hand, other hands as "
    "counts only, no draw pile or deck order, no other seat's secret flip, the seed once the game is over.",
    "required": ["game", "rules_version", "viewer", "players", "round", "phase", "turn", "hands", "ruins", "outcome"],
    "properties": {
        "game": {"const": "ruins"},
        "rules_version": {"type": "string"},
        "viewer": {"type": ["integer", "string"]},
        "players": {"type": "array", "items": {"type": "string"}},
        "round": {"type": "integer"},
        "phase": {"type": "string"},
        "turn": {"type": ["integer", "null"]},
        "hands": {"type": "array", "items": {"type": "object"}},
        "ruins": {"type": "array", "items": {"type": "object"}},
        "outcome": {"type": ["object", "null"]},
        "seed": {"type": "string"},
    },
}
