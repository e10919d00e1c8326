"""Small building blocks the pages share: labelled controls, cards, charts with an empty state."""

from __future__ import annotations

from typing import Any

from dash import dcc, html

GRAPH_CONFIG: Any = {"displaylogo": False, "responsive": True, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


def data_attributes(attributes: dict[str, str]) -> dict[str, Any]:
    """HTML ``data-*`` attributes as keyword arguments of a Dash component (its type hints list no such names)."""
    return attributes


def field(label: str, control: Any, width: str = "12rem") -> html.Div:
    return html.Div([html.Label(label, className="field-label"), control], className="field", style={"width": width})


def dropdown(
    id: str, options: list[dict[str, Any]], value: Any = None, placeholder: str = "Any", **kw: Any
) -> dcc.Dropdown:
    kw.setdefault("clearable", True)
    return dcc.Dropdown(id=id, options=options, value=value, placeholder=placeholder, **kw)


def card(title: str | None, *children: Any, className: str = "", **kw: Any) -> html.Section:
    head = [html.H3(title)] if title else []
    return html.Section([*head, *children], className=f"card {className}".strip(), **kw)


def chart(id: str, figure: Any, empty: str | None = None, **kw: Any) -> Any:
    """A graph, or a sentence saying why there is nothing to draw (``empty`` given: no data)."""
    if empty is not None:
        return html.Div(empty, className="empty", id=id)
    return dcc.Graph(id=id, figure=figure, config=GRAPH_CONFIG, **kw)


def empty(sentence: str, **kw: Any) -> html.P:
    return html.P(sentence, className="empty", **kw)
