"""The pieces the organisers' forms are made of (a new tournament, a ruling, the rounds page's entries): inputs
styled alike, a submit button in the row of fields, the form's note and the line its answer is written on, and
that answer when the service refused (its sentence and its machine-readable code)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dash import dcc, html


def text_input(component_id: str, **kw: Any) -> dcc.Input:
    return dcc.Input(id=component_id, type="text", className="text-input", **kw)


def number_input(component_id: str, least: int, **kw: Any) -> dcc.Input:
    return dcc.Input(id=component_id, type="number", min=least, className="text-input", **kw)


def labelled(names: Mapping[str, str]) -> list[dict[str, str]]:
    """A dropdown's options from ``{value: label}``, in that order."""
    return [{"label": label, "value": value} for value, label in names.items()]


def submit(label: str, component_id: str) -> html.Div:
    """The form's button, standing in its row of fields."""
    return html.Div(html.Button(label, id=component_id, className="btn"), className="field")


def note_and_answer(note: str, answer_id: str) -> list[html.P]:
    """Under the fields: what the form does, then the line the callback writes its answer on."""
    return [html.P(note, className="quiet"), html.P(id=answer_id, className="quiet")]


def not_done(refused: Exception) -> str:
    """A refusal as the form shows it: the service's sentence and code (a bad value's own words otherwise)."""
    return f"Not done: {getattr(refused, 'message', refused)} ({getattr(refused, 'code', 'invalid')})"
