"""Ruins in the dashboard: its table (``table.draw_table``), its rounds (four, then a Showdown) and its move
picker (``play.picker``: pick ruins, then the ways to play them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dashboard.games import Renderer
from dashboard.games.ruins.play import picker
from dashboard.games.ruins.style import CSS
from dashboard.games.ruins.table import draw_table
from dashboard.games.ruins.words import HOW, round_name, value_text

__all__ = ["CSS", "RENDERER", "draw_table", "how_won", "log_text", "picker", "round_name", "value_text"]


def log_text(line: str, view: Mapping[str, Any]) -> str:
    return line


def how_won(how: str | None) -> str:
    return HOW.get(how or "", "won")


RENDERER = Renderer(
    draw_table=draw_table,
    round_name=round_name,
    how_won=how_won,
    log_text=log_text,
    css=CSS,
    value_text=value_text,
    picker=picker,
)
