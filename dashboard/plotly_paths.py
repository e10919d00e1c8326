"""Plotly's property paths ("xaxis2.range", "marker_color"), parsed once per process instead of on every use.

Building a figure with ``plotly.graph_objects`` splits every path it touches (``update_xaxes(row=3)``,
``make_subplots``, each prop set) with ``plotly.basedatatypes._str_to_dict_path_full``, a pure function of the
string: on the players page that parsing was about two thirds of the CPU time (a player's Arnak page, some 30
figures: 1.5 s of CPU, 0.6 s with the paths kept). :func:`install` wraps it with a bounded cache; the figures are
the same (each call gets a fresh list of indices, as before). Installed once, by ``dashboard.figures``; if a
Plotly release drops the function, nothing is wrapped and figures are built as Plotly builds them.
"""

from __future__ import annotations

import functools
from typing import Any

from plotly import basedatatypes

PATHS_KEPT = 4096  # a page's figures use a few hundred distinct paths


def install() -> bool:
    """Wrap Plotly's path parser with a cache (once); whether it is wrapped."""
    parse = getattr(basedatatypes, "_str_to_dict_path_full", None)
    if parse is None:
        return False
    if getattr(parse, "digsite_kept", False):
        return True
    kept = functools.lru_cache(maxsize=PATHS_KEPT)(parse)

    def parsed(path: Any) -> Any:
        if not isinstance(path, str):
            return parse(path)
        keys, starts = kept(path)
        return keys, list(starts)  # the indices are a list: each caller gets its own

    parsed.digsite_kept = True  # type: ignore[attr-defined]
    parsed.__wrapped__ = parse  # type: ignore[attr-defined]  # (Plotly's own, for the tests to compare with)
    basedatatypes._str_to_dict_path_full = parsed
    return True
