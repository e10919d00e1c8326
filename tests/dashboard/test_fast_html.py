"""``dashboard.fast_html`` makes the very components ``dash.html`` makes (same class, attributes and JSON), only
without Dash's checks: a table drawn with it is the table drawn with ``dash.html``, as Dash sends it and as HTML."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import plotly.utils
import pytest
from dash import html

from dashboard import fast_html
from dashboard.games.arnak import table as arnak_table
from dashboard.html_text import to_html
from tests.dashboard.games.arnak.frames import frame, game, showcase


class _Parsed(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Any] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append((tag, sorted(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.seen.append(("/", tag))

    def handle_data(self, data: str) -> None:
        self.seen.append(data)


def written(node: Any) -> list[Any]:
    """The component as HTML, read back: Dash orders an element's attributes by a set (so by the process's string
    hashes), so only the tags, their attributes and the text are compared, not the attributes' order."""
    parsed = _Parsed()
    parsed.feed(to_html(node))
    return parsed.seen


def sent(node: Any) -> str:
    """The component as Dash sends it to the browser."""
    return json.dumps(node, cls=plotly.utils.PlotlyJSONEncoder, sort_keys=True)


@pytest.mark.parametrize(
    ("name", "children", "props"),
    [
        ("Div", None, {}),
        ("Span", "text", {"className": "chip", "title": "Ruin #3: ☀", "data-seat": "1"}),
        ("Div", ["a", 1, None], {"id": "x", "style": {"gridColumn": "span 2"}, "hidden": True, "aria-label": "y"}),
        ("Td", "3", {"className": None, "colSpan": 2}),
        ("Details", [html.Summary("s"), "t"], {"open": True}),
    ],
)
def test_the_same_component_as_dash_makes(name: str, children: Any, props: dict[str, Any]) -> None:
    made, fast = getattr(html, name)(children, **props), getattr(fast_html, name)(children, **props)
    assert type(fast) is type(made)
    assert vars(fast) == vars(made)
    assert sent(fast) == sent(made) and written(fast) == written(made)


def test_an_arnak_table_is_the_one_dash_html_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    frames = [frame(showcase(), None), frame(showcase(), 1), frame(game(4, "bird", "four-bird").states[2], 2)]
    fast = [arnak_table.draw_table(f) for f in frames]
    monkeypatch.setattr(arnak_table, "html", html)  # the same drawing, every component made by Dash itself
    made = [arnak_table.draw_table(f) for f in frames]
    assert [sent(t) for t in fast] == [sent(t) for t in made]
    assert [written(t) for t in fast] == [written(t) for t in made]
