"""Each game's part of the dashboard, found from its kind: ``dashboard.games.<kind>`` (a module or a package)
offers its ``RENDERER``, a ``Renderer``; a registered game without one is drawn by ``dashboard.games.plain``. The
generic pages reach a game only through ``renderer(kind)`` and the registry (``domain.games``), never by its name.
What only some games offer (a table stylesheet, words for chart values, a move picker) is a field that is empty
for the others: a page asks the field, never the module for a name it may lack.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from dash import html

from dashboard.picker import PickerFn
from domain.games import GAMES


@dataclass(frozen=True)
class Renderer:
    """One game's part of the dashboard."""

    draw_table: Callable[[dict[str, Any]], html.Div]
    """The table of one replay frame, from the frame's view only: ``view`` (the engine's, for the frame's reader),
    ``players``, ``to_act`` (to highlight), ``version`` and, from the replay, ``last``: who made the move shown
    (``seat``, None for the setup) and its events so far as that reader may read them (``events``, JSON), to mark
    the latest play. Only ``dash.html`` components: the replay sends tables to the browser as HTML
    (``dashboard.html_text``)."""

    round_name: Callable[[int], str]
    """What the game calls its round ``round_no`` ("Round 2"; a game may name a round of its own)."""

    how_won: Callable[[str | None], str]
    """A few words for how a game was won, from its result's ``detail["how"]`` ("won" when it says nothing)."""

    log_text: Callable[[str, Mapping[str, Any]], str]
    """One line of the engine's narration (``describe``) as the replay's log shows it, beside the frame's ``view``
    (the game may name the codes the line holds)."""

    css: str = ""
    """The table's stylesheet, joined into the page's by ``stylesheet()``."""

    value_text: Callable[[str, Any], str | None] | None = None
    """The game's words for a value of one of its breakdowns' or dimensions' columns (``value_text(column,
    value)``: "+2" for Ruins' ``plus2``; None for the generic wording, "" to leave the column out of a group's
    name), so the charts never show a stored code. None: the generic wording throughout."""

    picker: PickerFn | None = None
    """``picker(view, legal, seat) -> dashboard.picker.Picker``: the legal actions laid out as a person picks a
    move at the table (the play page, ``dashboard.pages.play``). None: the play page lists every legal action in
    the engine's words."""


@cache
def renderer(kind: str) -> Renderer:
    """The dashboard part of the game ``kind`` (a registered game): its own module's, else the plain one."""
    if kind not in GAMES:
        raise KeyError(f"no registered game {kind!r}")
    name = f"dashboard.games.{kind}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the game's module exists but something it imports does not: a real error
            raise
        module = importlib.import_module("dashboard.games.plain")
    found = module.RENDERER
    if not isinstance(found, Renderer):
        raise TypeError(f"{module.__name__}.RENDERER is not a dashboard.games.Renderer")
    return found


def analysed_kinds() -> list[str]:
    """The registered games whose moves the read models analyse (with an analytics part), in registry order:
    the players' and aggregates' pages show the first by default."""
    return [kind for kind, g in GAMES.items() if g.analytics is not None]


def stylesheet() -> str:
    """The registered games' own stylesheets (a part's ``css``, if it has one), for the dashboard's page."""
    return "\n".join(css for css in (renderer(kind).css for kind in GAMES) if css)


def value_text(kind: str) -> Callable[[str, Any], str | None]:
    """The game's words for a value of one of its breakdowns' or dimensions' columns (``Renderer.value_text``),
    or a function that always answers None (the generic wording)."""
    found = renderer(kind).value_text
    return found if found is not None else (lambda column, value: None)
