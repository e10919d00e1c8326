"""Ruins in the dashboard: its table (``table.draw_table``) and its rounds (four, then a Showdown)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dashboard.games.ruins.style import CSS
from dashboard.games.ruins.table import draw_table
from dashboard.games.ruins.words import HOW
from domain.ruins import book_of

__all__ = ["CSS", "draw_table", "how_won", "log_text", "max_rounds", "round_name"]


def max_rounds() -> int | None:
    return book_of().max_rounds


def log_text(line: str, view: Mapping[str, Any]) -> str:
    return line


def round_name(round_no: int) -> str:
    """Four regular rounds, then the Showdown."""
    return "Showdown" if round_no > book_of().max_rounds else f"Round {round_no}"


def how_won(how: str | None) -> str:
    return HOW.get(how or "", "won")
