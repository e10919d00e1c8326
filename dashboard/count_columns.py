"""Counts drawn as HTML columns, without Plotly: the aggregates page's final scores and game lengths, the charts
on its first screen. Each column is as tall as its count against the tallest, with the count written above it
and its value (or bin) under it; a heading says what is counted and how many.

Why not Plotly: these two were the last Plotly charts on the aggregates page's first screen, so the page loaded
and ran plotly.js (about a second of script) before it settled (docs/performance.md, section 10). The charts
further down stay Plotly, drawn when scrolled to (``dashboard.lazy_charts``).

The numbers are the Plotly charts' (``figures.counts_bar``: one column per score, a score nobody made an empty
column so gaps show; ``figures.histogram_bins``: the same bins), and every one is text in the page. The columns
are sent as escaped HTML text with the win rates' bars (``tendency_bars.boxed``); the styles are ``CSS`` here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dashboard import fast_html as html
from dashboard.figures import COLOURS, histogram_bins, score_tick

BOX_HEIGHT = 370  # px: a chart's whole height filled in (heading, columns, axis), held by its box before then
MANY = 24  # columns: above this, the counts are written upwards
TALLEST = 80.0  # percent of the plot's height: the tallest column, room above it for its count


@dataclass(frozen=True)
class Column:
    label: str  # the value or bin, as the axis names it
    n: int
    height: float  # percent of the plot's height
    tick: bool  # whether the axis writes its label (a numeric axis labels every few values)


def score_columns(rows: Sequence[Mapping[str, Any]]) -> list[Column]:
    """One column per value (rows of ``{value, n}``); whole numbers on a number line, a value nobody reached an
    empty column, labelled every ``figures.score_tick`` values as the Plotly axis was."""
    counts = {r["value"]: int(r["n"]) for r in rows}
    whole = bool(counts) and all(isinstance(v, int) and not isinstance(v, bool) for v in counts)
    if not whole:  # (words, or fractions: each its own column, in the rows' order)
        return _columns([(str(v), n) for v, n in counts.items()], [True] * len(counts))
    low, high = min(counts), max(counts)
    step = score_tick(list(counts))
    values = range(low, high + 1)
    return _columns([(str(v), counts.get(v, 0)) for v in values], [(v - low) % step == 0 for v in values])


def bin_columns(rows: Sequence[Mapping[str, Any]]) -> list[Column]:
    """``figures.histogram``'s bins, each labelled (none without rows)."""
    if not rows:
        return []
    found = histogram_bins(rows)
    return _columns(found, [True] * len(found))


def _columns(counted: Sequence[tuple[str, int]], ticks: Sequence[bool]) -> list[Column]:
    tallest = max((n for _, n in counted), default=0) or 1
    return [
        Column(label, n, round(TALLEST * n / tallest, 2), tick) for (label, n), tick in zip(counted, ticks, strict=True)
    ]


def _named(attributes: dict[str, Any]) -> dict[str, Any]:
    """``aria-*`` and ``data-*`` attributes, passed as keywords (no Python name has a hyphen)."""
    return attributes


def drawn(title: str, columns: Sequence[Column], axis: str, unit: str, colour: str = COLOURS[0]) -> list[Any]:
    """A heading (``title`` and n: the counts' sum, in ``unit``), the columns, their axis and its name."""
    total = sum(c.n for c in columns)
    plot = [
        html.Div(
            [
                html.Span(f"{axis} {c.label}: {c.n:,} {unit}", className="sr-only"),  # (the axis is aria-hidden)
                html.Span(f"{c.n:,}" if c.n else "", className="ccols-count", **_named({"aria-hidden": "true"})),
                html.Span(className="ccols-bar", style={"height": f"{c.height}%", "background": colour}),
            ],
            className="ccols-col",
            title=f"{axis} {c.label}: {c.n:,} {unit}",
            **_named({"data-label": c.label, "data-n": str(c.n)}),
        )
        for c in columns
    ]
    grid = {"gridTemplateColumns": f"repeat({len(columns)}, minmax(0, 1fr))"}
    ticks = [html.Span(c.label if c.tick else "", className="ccols-tick") for c in columns]
    return [
        html.H4(f"{title} (n={total:,} {unit})", className="tbars-title"),
        # many columns: counts written upwards, so two-digit counts of neighbours do not run into each other
        html.Div(plot, className="ccols-plot ccols-many" if len(columns) > MANY else "ccols-plot", style=grid),
        html.Div(ticks, className="ccols-axis", style=grid, **_named({"aria-hidden": "true"})),
        html.Div(axis, className="ccols-axis-title"),
    ]


CSS = """
/* counts as HTML columns (dashboard/count_columns.py), no Plotly */
.ccols-plot { display: grid; gap: 0 1px; height: 300px; align-items: end; border-bottom: 1px solid #ccd;
    margin-top: 0.3rem; }
.ccols-col { display: flex; flex-direction: column; justify-content: flex-end; align-items: center; height: 100%;
    min-width: 0; }
.ccols-bar { display: block; width: 100%; min-height: 0; }
.ccols-count { font-size: 10px; line-height: 12px; white-space: nowrap; color: #334; }
.ccols-many .ccols-count { writing-mode: vertical-rl; transform: rotate(180deg); line-height: 10px;
    padding-bottom: 2px; }
.ccols-axis { display: grid; gap: 0 1px; font-size: 10px; line-height: 14px; color: #556; }
.ccols-tick { text-align: center; white-space: nowrap; overflow: visible; min-width: 0; }
/* the aggregates page before its charts arrive: the trend's card below it waits under the first screen, not
   drawn there by Plotly before the charts above push it down */
#agg-content:empty { min-height: 150vh; }
.ccols-axis-title { text-align: center; font-size: 11px; color: #556; margin-top: 0.2rem; }
"""
