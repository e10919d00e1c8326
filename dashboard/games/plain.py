"""The table of a game that has no renderer of its own yet: the seat's (or the referee's) view as JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from dash import html

from dashboard.games import Renderer


def draw_table(frame: dict[str, Any]) -> html.Div:
    return html.Div(
        [html.P("This game has no table drawing yet: its view as the perspective sees it."),
         html.Pre(json.dumps(frame["view"], indent=1, sort_keys=True), className="plain-view")],
        className="plain-table",
    )  # fmt: skip


def log_text(line: str, view: Mapping[str, Any]) -> str:
    return line


def round_name(round_no: int) -> str:
    return f"Round {round_no}"


def how_won(how: str | None) -> str:
    return "won"


RENDERER = Renderer(draw_table=draw_table, round_name=round_name, how_won=how_won, log_text=log_text)
