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
    return "".join(_write(node, 1 << 62)[1])


def pieces(node: Any, split_above: int = SPLIT_ABOVE) -> list[str]:
    """The tree's HTML cut into fragments whose concatenation is ``to_html(node)``: an element whose HTML is
    longer than ``split_above`` becomes its opening tag, its children's pieces and its closing tag."""
    return _write(node, split_above)[1]


class Written:
    """A subtree already written as ``pieces(subtree)`` (``dashboard.kept``: a part of a table drawn once for every
    frame that shows it the same); the writer puts its pieces where the subtree would have gone."""

    __slots__ = ("length", "pieces", "split_above")

    def __init__(self, node: Any, split_above: int = SPLIT_ABOVE) -> None:
        length, parts = _write(node, split_above)
        self.length, self.pieces, self.split_above = length, tuple(parts), split_above


def _write(node: Any, split_above: int) -> tuple[int, list[str]]:
    """``node``'s HTML as pieces, with its length, in one pass over the tree (each element written once; an element
    joined into one piece only when it is short enough to stay whole). The replay writes every frame of every
    perspective, some 600 elements a frame for Arnak: this is its inner loop."""
    if node is None or node is False:
        return 0, []
    kind = type(node)
    if kind is str:
        text = node.translate(_TEXT)
        return len(text), [text]
    if kind is list or kind is tuple:
        total, parts = 0, []
        for child in node:
            length, child_parts = _write(child, split_above)
            total += length
            parts += child_parts
        return total, parts
    if kind is Written:
        if node.split_above == split_above:
            return node.length, list(node.pieces)
        if split_above >= node.length:  # (to_html: everything whole)
            return node.length, ["".join(node.pieces)]
        raise ValueError("a written subtree is cut at one length only")
    if isinstance(node, (int, float, str)):
        text = str(node).translate(_TEXT)
        return len(text), [text]
    if isinstance(node, (list, tuple)):
        return _write(list(node), split_above)
    if getattr(node, "_namespace", None) != HTML_NAMESPACE:
        raise TypeError(f"only dash.html components can be written as HTML, not {type(node).__name__}")
    tag = _TAGS.get(node._type) or _TAGS.setdefault(node._type, str(node._type).lower())
    # A component's set props are its public instance attributes (what ``to_plotly_json`` reads, much faster).
    written = []
    children = None
    for name, value in vars(node).items():
        if name == "children":
            children = value
            continue
        if value is None or value is False:
            continue
        attribute = _NAMES.get(name)
        if attribute is None:
            attribute = _NAMES[name] = _attribute_name(name)
        if not attribute:
            continue
        if name == "style":
            value = _style(value)
        if name in BOOLEAN:
            if value:
                written.append(f" {attribute}")
            continue
        written.append(f' {attribute}="{str(value).translate(_QUOTED)}"')
    opening = f"<{tag}{''.join(written)}>"
    if tag in VOID:
        return len(opening), [opening]
    inner_length, inner = _write(children, split_above)
    closing = f"</{tag}>"
    length = len(opening) + inner_length + len(closing)
    if length <= split_above:
        return length, [opening + "".join(inner) + closing]
    return length, [opening, *inner, closing]


_META = frozenset({"available_properties", "available_wildcard_properties"})
# html.escape's replacements, made by one str.translate (the same text: "&" is never replaced twice).
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_QUOTED = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})
_TAGS: dict[str, str] = {}
_NAMES: dict[str, str] = {}  # a prop's name -> its attribute's ("" for a prop that is not written)


def _attribute_name(name: str) -> str:
    """The attribute a prop is written as ("" when it is not written); a name that is no attribute is refused."""
    if name.startswith("_") or name in _META or name in SKIPPED:
        return ""
    if not _ATTRIBUTE.match(name):
        raise ValueError(f"not an attribute this writer allows: {name!r}")
    return RENAMED.get(name, name)


def _style(style: Any) -> str:
    if not isinstance(style, Mapping):
        return str(style)
    return "; ".join(f"{re.sub(r'([A-Z])', lambda m: '-' + m.group(1).lower(), k)}: {v}" for k, v in style.items())
