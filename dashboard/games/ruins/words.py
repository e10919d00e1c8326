"""Ruins' words on its table and in its charts: its effects' short labels, its phases, how a game was won, the
values its breakdowns group by."""

from __future__ import annotations

from typing import Any

from domain.ruins import book_of

EFFECT_LABELS = {
    "plus1": "+1",
    "plus2": "+2",
    "plus3": "+3",
    "wild": "wild",
    "twin": "twin",
    "relight": "relight",
    "dig": "dig",
    "burden": "burden",
}

HOW = {"instant": "won instantly", "showdown": "won the Showdown"}
PHASES = {"flip": "night flips", "play": "playing", "discard": "discarding", "over": "game over"}


def effect_label(effect: str | None) -> str:
    if effect is None:
        return ""
    return EFFECT_LABELS.get(effect, effect)


def round_name(round_no: int) -> str:
    """Four regular rounds, then the Showdown."""
    return "Showdown" if round_no > book_of().max_rounds else f"Round {round_no}"


def value_text(column: str, value: Any) -> str | None:
    """A value of one of Ruins' breakdown columns as people say it (``dashboard.games.value_text``): a discovery
    as its table label and sleeve position ("+2, top sleeve"), how a game was won, how long it ran ("4 rounds,
    then the Showdown"); None for any other column (the generic words)."""
    if column == "effect":
        return effect_label(str(value))
    if column == "effect_kind":
        return ""  # the effect already says what it does
    if column == "position":
        return f"{value} sleeve"
    if column == "win_how":
        return HOW.get(str(value), str(value))
    if column == "rounds":
        return f"{value} round{'s' if value != 1 else ''}"
    if column == "showdown":
        return "then the Showdown" if value else "no Showdown"
    return None
