"""Arnak's words in the charts: the values its breakdowns and dimensions group by, as people say them."""

from __future__ import annotations

from typing import Any


def value_text(column: str, value: Any) -> str | None:
    """A value of one of Arnak's breakdown or dimension columns (``dashboard.games.value_text``): the board side
    ("bird temple side"), the rival's difficulty (its red tiles), a card's printed cost or price paid; None for
    any other column (the generic words)."""
    if column == "side":
        return f"{value} temple side"
    if column == "difficulty":
        return "rival: no red tiles" if value == 0 else f"rival: {value} red tile{'s' if value != 1 else ''}"
    if column == "cost":
        return f"costs {value}"
    if column == "price":
        return f"paid {value}"
    return None
