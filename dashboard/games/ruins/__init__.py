"""Ruins in the dashboard: its table (``table.draw_table``) and its rounds (four, then a Showdown)."""

from __future__ import annotations

from dashboard.games.ruins.table import draw_table
from domain.ruins import rulebook

__all__ = ["draw_table", "max_rounds"]


def max_rounds() -> int | None:
    return rulebook().max_rounds
