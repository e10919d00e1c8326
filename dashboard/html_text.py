"""Dash HTML components written out as HTML text, for frames the browser swaps in without asking the server.

A replay ships every frame of a perspective at once (``dashboard.replay_frames``); as HTML text a frame
is a fraction of its component JSON, and the browser shows it by setting ``innerHTML`` on the table's
box, with no React render. Only ``dash.html`` components are written (anything else is a
``TypeError``: a game's table must be plain HTML), and every text and attribute value is escaped,
so a player's name can never become markup.

``pieces`` cuts a tree into fragments (an element's opening tag, its children, its closing tag), so the
frames of one game can share the fragments that did not change between them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape
from typing import Any

HTML_NAMESPACE = "dash_html_components"
VOID = frozenset({"br", "hr", "img", "wbr"})
BOOLEAN = frozenset({"open", "disabled", "hidden"})
RENAMED = {"className": "class", "htmlFor": "for"}
SKIPPED = frozenset({"children", "n_clicks", "n_clicks_timestamp", "disable_n_clicks", "key", "loading_state"})
_ATTRIBUTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9]*|(?:data|aria)-[a-zA-Z0-9_-]+)$")
SPLIT_ABOVE = 600  # an element longer than this (as HTML) is cut into pieces: its frames may share parts


def to_html(node: Any) -> str:
    """One component tree (or text, a number, a list, None) as HTML text."""
    return _write(node, 1 << 62)[0]


def pieces(node: Any, split_above: int = SPLIT_ABOVE) -> list[str]:
    """The tree's HTML cut into fragments whose concatenation is ``to_html(node)``: an element whose HTML is
    longer than ``split_above`` becomes its opening tag, its children's pieces and its closing tag."""
    return _write(node, split_above)[1]


def _write(node: Any, split_above: int) -> tuple[str, list[str]]:
    """``node`` as HTML, whole and in pieces, in one pass over the tree (each element written once)."""
    if node is None or node is False:
        return "", []
    if isinstance(node, str):
        text = escape(node, quote=False)
        return text, [text]
    if isinstance(node, (int, float)):
        text = escape(str(node), quote=False)
        return text, [text]
    if isinstance(node, (list, tuple)):
        written = [_write(child, split_above) for child in node]
        return "".join(w[0] for w in written), [p for w in written for p in w[1]]
    if getattr(node, "_namespace", None) != HTML_NAMESPACE:
        raise TypeError(f"only dash.html components can be written as HTML, not {type(node).__name__}")
    tag = str(node._type).lower()
    # A component's set props are its public instance attributes (what ``to_plotly_json`` reads, much faster).
    props = {k: v for k, v in vars(node).items() if not k.startswith("_") and k not in _META}
    opening = f"<{tag}{_attributes(props)}>"
    if tag in VOID:
        return opening, [opening]
    inner, inner_pieces = _write(props.get("children"), split_above)
    closing = f"</{tag}>"
    whole = opening + inner + closing
    if len(whole) <= split_above:
        return whole, [whole]
    return whole, [opening, *inner_pieces, closing]


_META = frozenset({"available_properties", "available_wildcard_properties"})


def _attributes(props: Mapping[str, Any]) -> str:
    out = []
    for name, value in props.items():
        if name in SKIPPED or value is None or value is False:
            continue
        if not _ATTRIBUTE.match(name):
            raise ValueError(f"not an attribute this writer allows: {name!r}")
        attribute = RENAMED.get(name, name)
        if name == "style":
            value = _style(value)
        if name in BOOLEAN:
            if value:
                out.append(f" {attribute}")
            continue
        out.append(f' {attribute}="{escape(str(value), quote=True)}"')
    return "".join(out)


def _style(style: Any) -> str:
    if not isinstance(style, Mapping):
        return str(style)
    return "; ".join(f"{re.sub(r'([A-Z])', lambda m: '-' + m.group(1).lower(), k)}: {v}" for k, v in style.items())
