"""Ruins' words on its table: its effects' short labels, its phases, how a game was won."""

from __future__ import annotations

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
