"""Dash components written as HTML text for the replay's frames: escaped, equal to themselves in pieces."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from dash import dcc, html
from hypothesis import given
from hypothesis import strategies as st

from dashboard.html_text import pieces, to_html


class Parsed(HTMLParser):
    """What a browser's parser makes of the text: the elements, their attributes, the text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_text_and_attributes_are_escaped_so_a_name_never_becomes_markup() -> None:
    name = '<img src=x onerror="alert(1)">&'
    tree = html.Div([html.Span(name, title=name, className="who")], id="x", **{"data-seat": '1" onclick="x'})
    parsed = Parsed(to_html(tree))
    assert [t for t, _ in parsed.tags] == ["div", "span"], "no element but the two written"
    assert parsed.tags[0][1] == {"id": "x", "data-seat": '1" onclick="x'}
    assert parsed.tags[1][1] == {"title": name, "class": "who"}
    assert "".join(parsed.text) == name


def test_props_become_their_html_attributes() -> None:
    tree = html.Details([html.Summary("s"), html.Br()], open=True, className="c", style={"marginTop": "2px"})
    parsed = Parsed(to_html(tree))
    assert parsed.tags == [
        ("details", {"open": None, "class": "c", "style": "margin-top: 2px"}),
        ("summary", {}),
        ("br", {}),
    ]
    assert to_html(tree).endswith("<summary>s</summary><br></details>")
    assert to_html([html.Td(3), None, "a"]) == "<td>3</td>a"


def test_only_html_components_are_written() -> None:
    with pytest.raises(TypeError):
        to_html(html.Div(dcc.Input(id="i")))


names = st.text(max_size=12)


@given(st.lists(names, max_size=8), st.integers(min_value=1, max_value=200))
def test_the_pieces_of_a_tree_are_the_tree(words: list[str], split_above: int) -> None:
    tree = html.Div(
        [html.Span(w, title=w) for w in words] + [html.Div([html.B(w) for w in words], className="inner")],
        className="outer",
    )
    cut = pieces(tree, split_above)
    assert "".join(cut) == to_html(tree)
    whole = [p for p in cut if p.startswith("<div") and p.endswith("</div>")]
    assert all(len(p) <= split_above for p in whole), "an element longer than the limit is cut"
