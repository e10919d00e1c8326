"""``dash.html`` components made without Dash's checks on every call, for the game tables (``from dashboard import
fast_html as html``): the same objects, for a fraction of the time.

A replay draws every frame of every perspective (``dashboard.replay_frames``) and the seat page draws the table on
every move; an Arnak table is about 500 components, and ``dash.html.Span(...)`` spends some 50 µs on each
(its generated ``__init__`` lists its props and checks every argument), most of the time a table took to draw.
Here ``Span(children, **props)`` is the instance ``dash.html.Span(children, **props)`` makes (same class, same
instance attributes, same ``to_plotly_json``), built by copying the attributes an empty one has: about 1 µs.
Nothing is checked, so a misspelt prop is not refused here; the tables' tests draw every kind of frame through
Dash (its JSON and the HTML writer) and would show one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dash import html as _html

if TYPE_CHECKING:  # for the type checker, the components themselves (same constructor, same instances)
    from dash.html import (
        H3,
        H4,
        A,
        B,
        Details,
        Div,
        Em,
        Li,
        P,
        Small,
        Span,
        Strong,
        Summary,
        Table,
        Tbody,
        Td,
        Th,
        Thead,
        Tr,
        Ul,
    )

__all__ = [
    "A",
    "B",
    "Details",
    "Div",
    "Em",
    "H3",
    "H4",
    "Li",
    "P",
    "Small",
    "Span",
    "Strong",
    "Summary",
    "Table",
    "Tbody",
    "Td",
    "Th",
    "Thead",
    "Tr",
    "Ul",
]


def _maker(cls: type[Any]) -> Callable[..., Any]:
    # What every instance of ``cls`` carries besides its props (its prop names, its wildcard prefixes...), shared:
    # Dash reads these lists and never changes them.
    meta = {k: v for k, v in vars(cls()).items() if k != "children"}
    new = object.__new__

    def make(children: Any = None, **props: Any) -> Any:
        node = new(cls)
        found = node.__dict__
        found.update(meta)
        found["children"] = children
        found.update(props)
        return node

    make.__name__ = make.__qualname__ = cls.__name__
    return make


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Callable[..., Any]:
        """``fast_html.Div`` and so on, made on first use."""
        cls = getattr(_html, name, None)
        if not isinstance(cls, type):
            raise AttributeError(f"dash.html has no component {name}")
        made = globals()[name] = _maker(cls)
        return made
