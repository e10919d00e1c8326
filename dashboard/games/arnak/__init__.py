"""Lost Ruins of Arnak in the dashboard: the replay table, the log in names, and the table's stylesheet.

``draw_table(frame)`` draws one ``Replays.replay`` frame from its ``view`` only; the log is the engine's own
narration (``domain.arnak.describe`` names every code itself; ``log_line`` reads one event with it); ``CSS`` is
the table's stylesheet. With ``round_name``, ``how_won``, ``log_text`` and ``value_text`` (a chart's
words for the values it groups by) they make the game's ``RENDERER`` (``dashboard.games.Renderer``): the replay
page draws an Arnak game with it. ``picker`` lays out a
seat's legal actions for the play page (``play.picker``: the kind of action, then its options).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dashboard.games import Renderer
from dashboard.games.arnak.log import log_line, log_lines, name_codes
from dashboard.games.arnak.play import picker
from dashboard.games.arnak.style import CSS
from dashboard.games.arnak.table import draw_table
from dashboard.games.arnak.words import value_text

__all__ = [
    "CSS",
    "RENDERER",
    "draw_table",
    "log_line",
    "log_lines",
    "how_won",
    "log_text",
    "picker",
    "round_name",
    "name_codes",
    "value_text",
]


def log_text(line: str, view: Mapping[str, Any]) -> str:
    """A ``describe`` line as it is: the engine already says names."""
    return line


def round_name(round_no: int) -> str:
    return f"Round {round_no}"


def how_won(how: str | None) -> str:
    return "won"


RENDERER = Renderer(
    draw_table=draw_table,
    round_name=round_name,
    how_won=how_won,
    log_text=log_text,
    css=CSS,
    value_text=value_text,
    picker=picker,
)
