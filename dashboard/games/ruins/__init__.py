"""Ruins in the dashboard: its table (``table.draw_table``) and its rounds (four, then a Showdown)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dashboard.games.ruins.table import draw_table
from domain.ruins import book_of

__all__ = ["draw_table", "log_text", "max_rounds"]


def max_rounds() -> int | None:
    return book_of().max_rounds


def log_text(line: str, view: Mapping[str, Any]) -> str:
    return line
