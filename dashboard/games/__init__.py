"""Each game's part of the dashboard, found from its kind: ``dashboard.games.<kind>`` (a module or a package)
offers a ``Renderer``; a registered game without one is drawn by ``dashboard.games.plain``. The generic pages
reach a game only through ``renderer(kind)`` and the registry (``domain.games``), never by its name. A game's
part may also offer a ``CSS`` string, its table's stylesheet: ``stylesheet()`` joins them into the page's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Protocol, cast

from dash import html

from domain.games import GAMES


class Renderer(Protocol):
    def draw_table(self, frame: dict[str, Any]) -> html.Div:
        """The table of one replay frame, from the frame's view only: ``view`` (the engine's, for the frame's
        reader), ``players``, ``to_act`` (to highlight), ``version`` and, from the replay, ``last``: who made the
        move shown (``seat``, None for the setup) and its events so far as that reader may read them
        (``events``, JSON), to mark the latest play. Only ``dash.html`` components: the replay sends tables
        to the browser as HTML (``dashboard.html_text``)."""
        ...

    def round_name(self, round_no: int) -> str:
        """What the game calls its round ``round_no`` ("Round 2"; a game may name a round of its own)."""
        ...

    def how_won(self, how: str | None) -> str:
        """A few words for how a game was won, from its result's ``detail["how"]`` ("won" when it says nothing)."""
        ...

    def log_text(self, line: str, view: Mapping[str, Any]) -> str:
        """One line of the engine's narration (``describe``) as the replay's log shows it, beside the frame's
        ``view`` (the game may name the codes the line holds)."""
        ...


# A game's part may also offer ``picker(view, legal, seat) -> dashboard.picker.Picker``: its legal actions laid
# out as a person picks a move at the table (the play page, ``dashboard.pages.play``). It is optional (not in
# the protocol): without one the play page lists every legal action in the engine's words.


@cache
def renderer(kind: str) -> Renderer:
    """The dashboard part of the game ``kind`` (a registered game): its own module, else the plain one."""
    if kind not in GAMES:
        raise KeyError(f"no registered game {kind!r}")
    name = f"dashboard.games.{kind}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the game's module exists but something it imports does not: a real error
            raise
        module = importlib.import_module("dashboard.games.plain")
    return cast(Renderer, module)


def analysed_kinds() -> list[str]:
    """The registered games whose moves the read models analyse (with an analytics part), in registry order:
    the players' and aggregates' pages show the first by default."""
    return [kind for kind, g in GAMES.items() if g.analytics is not None]


def stylesheet() -> str:
    """The registered games' own stylesheets (a part's ``CSS``, if it has one), for the dashboard's page."""
    parts = (getattr(renderer(kind), "CSS", "") for kind in GAMES)
    return "\n".join(css for css in parts if isinstance(css, str) and css)


def value_text(kind: str) -> Callable[[str, Any], str | None]:
    """The game's words for a value of one of its breakdowns' or dimensions' columns (its part's optional
    ``value_text(column, value)``: "+2" for Ruins' ``plus2``; None for the generic wording, "" to leave the
    column out of a group's name), so the charts never show a stored code."""
    found = getattr(renderer(kind), "value_text", None)
    if callable(found):
        return cast(Callable[[str, Any], "str | None"], found)
    return lambda column, value: None
