"""Plotly charts drawn only when they scroll into view, in a box of their own size until then.

Why: the players page drew 11-12 Plotly charts and the aggregates page 17-18, most below the first screen, and
most of each page's time in the browser was loading plotly.js, drawing every chart, and dcc's graph resizing each
one twice (docs/performance.md, section 10). Here a page's figures travel in one store (``Lazy.store``) beside
empty boxes of the figures' heights (``Lazy.chart``, so nothing moves when a chart is drawn); the browser's
``digsite.lazyCharts`` (dashboard/assets/callbacks.js) watches the boxes and draws each with ``Plotly.newPlot`` the
first time it comes near the screen. plotly.js is loaded by the first chart drawn (``dashboard.plotly_bundle``): a
page whose charts are all below the fold loads none until it is scrolled. Plotly's own ``responsive`` setting
resizes a chart with the window, once.

The figures are the same ``plotly.graph_objects`` figures a ``dcc.Graph`` was given, with the same config
(``components.GRAPH_CONFIG``); only when they are drawn changed.
"""

from __future__ import annotations

import hashlib
from typing import Any

import dash
from dash import ClientsideFunction, Input, Output, dcc, html
from plotly.io.json import to_json_plotly

from dashboard.components import GRAPH_CONFIG

DEFAULT_HEIGHT = 450  # plotly.js's height for a figure that names none
CLASS = "lazy-chart"


class Lazy:
    """One answer's charts: ``chart`` gives each one's box (or the sentence saying why there is nothing to draw),
    ``store`` the store carrying the figures, with a key that ties the boxes to this answer (the page may still
    show the boxes of the answer before when the browser reads the store)."""

    def __init__(self, store_id: str) -> None:
        self.store_id = store_id
        self.figures: dict[str, Any] = {}
        self.boxes: list[html.Div] = []

    def chart(self, chart_id: str, figure: Any, empty: str | None = None) -> html.Div:
        """A chart's box, drawn when seen; or ``empty`` (a sentence: no data), as ``components.chart`` says it."""
        if empty is not None:
            return html.Div(empty, className="empty", id=chart_id)
        drawn = figure.to_plotly_json() if hasattr(figure, "to_plotly_json") else dict(figure)
        self.figures[chart_id] = drawn
        height = (drawn.get("layout") or {}).get("height") or DEFAULT_HEIGHT
        box = html.Div(id=chart_id, className=CLASS, style={"height": f"{height}px"})
        self.boxes.append(box)
        return box

    def store(self) -> dcc.Store:
        """The store of the figures, the boxes given the key of this answer (its figures' hash)."""
        text = to_json_plotly(self.figures)  # (as Dash will write them)
        key = hashlib.sha1(text.encode()).hexdigest()[:16]
        for box in self.boxes:
            setattr(box, "data-key", key)  # (a data-* attribute: a Dash component writes it as it is named)
        return dcc.Store(
            id=self.store_id,
            data={"store": self.store_id, "key": key, "config": GRAPH_CONFIG, "figures": self.figures},
        )


def register(app: dash.Dash, store_id: str, drawn_id: str) -> None:
    """The browser's watcher of ``store_id``'s charts (``drawn_id``: a store in the page's layout, where it says
    which answer's charts it watches)."""
    app.clientside_callback(
        ClientsideFunction("digsite", "lazyCharts"), Output(drawn_id, "data"), Input(store_id, "data")
    )
