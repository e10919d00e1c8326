"""Player pickers that ask the server as a name is typed.

A page offers in a player dropdown only the players it shows (the ones in its address), and, as a name is typed,
the players whose names contain it (``Data.find_players``: the visitor's own access rules, at most a few dozen).
The list of every player with their games grew with the store (95 ms at 30,000 games, docs/performance.md
section 7) and would be sent whole with every page: a search reads names only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import dash
from dash import Input, Output, State
from dash.exceptions import PreventUpdate

from dashboard.access import Visitor, require_lists
from dashboard.context import Context
from dashboard.format import player_labels

PROMPT = "Type a name"
SEARCH_CHARACTERS = 100  # of what is typed: a name is shorter


def shown(ctx: Context, visitor: Visitor, ids: Iterable[str | None]) -> list[dict[str, Any]]:
    """The options for the players a page shows (unknown ids, and players the visitor may not see, left out)."""
    wanted = sorted({i for i in ids if i and len(i) <= 64})
    return player_labels(ctx.data.players(visitor, ids=wanted)) if wanted else []


def register(app: dash.Dash, ctx: Context, dropdown_id: str) -> None:
    """Answer the dropdown's typed text with the matching players (the chosen one kept)."""

    @app.callback(
        Output(dropdown_id, "options"),
        Input(dropdown_id, "search_value"),
        State(dropdown_id, "value"),
        prevent_initial_call=True,
    )
    def search(text: str | None, value: str | None) -> list[dict[str, Any]]:
        visitor = ctx.visitor()
        require_lists(visitor)  # (a callback is a door of its own: 403 when spectator mode is off)
        if not text or not text.strip():
            raise PreventUpdate  # (the options stay as they are)
        found = ctx.data.find_players(visitor, text[:SEARCH_CHARACTERS])
        if value and all(str(p["player_id"]) != value for p in found):
            found += ctx.data.players(visitor, ids=[value])
        return player_labels(found)
