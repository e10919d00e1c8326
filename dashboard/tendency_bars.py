"""A group of one player's tendencies drawn as HTML bars, without Plotly: each tendency on its own scale (a share
from 0 to 100 %, a count from 0), one bar per series (the player, then the field or another player), labelled with
its value and sample size; a share with its 95 % Wilson interval as whiskers, pale and "too few" under
``uncertainty.TOO_FEW`` (the honest numbers of ``dashboard.uncertainty``).

Why not Plotly: a player's Arnak page drew 14 of these as Plotly charts, with most of the page's time in the
browser spent loading and running Plotly and drawing them (docs/performance.md, section 10). These are a few
hundred elements the browser lays out at once; the page keeps Plotly for its charts further down.

Every number shown is text in the page (the value, the interval, n), so a screen reader reads what the bars show;
the bars' lengths and whiskers are inline widths in percent of their track. Everything is built on the server
and sent as escaped HTML text (``drawn``), which the browser's ``digsite.tendencyBars``
(dashboard/assets/callbacks.js) puts in place. The styles are ``CSS`` here, in the page's stylesheet.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dash import dcc

from dashboard import fast_html as html
from dashboard import html_text
from dashboard.count_columns import CSS as COLUMNS_CSS
from dashboard.figures import COLOURS, _colour, _n_text, tendency_text
from dashboard.format import percent
from dashboard.uncertainty import interval_text, too_few, wilson

PALE = 0.35  # a rate over too few is drawn at this opacity (as the Plotly charts draw it)
SHARE_TOP = 160.0  # a share's track runs to 160 %: 0-100 % is its scale, past it room for the label
SCALE_NOTE = "A rate's grey track is its whole scale, 0 to 100%."
WHO_MOST = 26  # characters: the widest a win rate's value is named before it is cut (the whole name in its title)


@dataclass(frozen=True)
class Bar:
    """One series' bar of one tendency, in percent of its track (``left``/``width`` for the whisker)."""

    who: str
    colour: str
    value: float | None  # the tendency's value (a share in 0..1)
    n: float
    share: bool
    text: str  # what the label says: "38% (n=12)", "50% (n=4, too few)"
    interval: str  # a share's interval in words ("16-62%"), else ""
    length: float  # the bar, in percent of the track
    whisker: tuple[float, float] | None  # a share's interval, in percent of the track
    end: float  # where the label starts: past the whisker, else past the bar
    pale: bool
    mark: float | None = None  # a dashed line across the track (a win rate's fair share), in percent of it


@dataclass(frozen=True)
class Tendency:
    label: str
    share: bool
    scale: float  # what the whole track stands for (a share: 160 %; a count: 1.7 x the largest)
    bars: tuple[Bar, ...]


def tendencies(names: Sequence[str], series: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Tendency]:
    """What each tendency of the group shows (``Analytics.tendencies`` answers, one per series)."""
    first = series[0][1]["metrics"]
    found = []
    for metric in names:
        share = bool(first[metric].get("share"))
        values = [data["metrics"][metric]["value"] for _, data in series]
        ns = [data["metrics"][metric]["n"] for _, data in series]
        shown = [None if v is None else (100 * v if share else v) for v in values]
        intervals = [wilson(v, n) if share else None for v, n in zip(values, ns, strict=True)]
        ends = [(100 * w[1] if w else v or 0) if share else (v or 0) for v, w in zip(shown, intervals, strict=True)]
        # room for the label past the longest bar or whisker (as the Plotly charts' axes were)
        scale = SHARE_TOP if share else max([*ends, 0.0]) * 1.7 or 1.0
        bars = []
        for i, (who, _) in enumerate(series):
            pale = share and too_few(ns[i])
            found_interval = intervals[i]
            bars.append(
                Bar(
                    who=who,
                    colour=_colour(i, who),
                    value=values[i],
                    n=ns[i],
                    share=share,
                    text=f"{tendency_text(values[i], share)} ({_n_text(ns[i], '' if share else None)})",
                    interval=interval_text(values[i], ns[i]) if share else "",
                    length=_part(shown[i] or 0, scale),
                    whisker=None
                    if found_interval is None
                    else (_part(100 * found_interval[0], scale), _part(100 * found_interval[1], scale)),
                    end=_part(ends[i], scale),
                    pale=pale,
                )
            )
        label = str(first[metric]["label"])
        found.append(Tendency(f"{label[:1].upper()}{label[1:]}", share, scale, tuple(bars)))
    return found


def _attributes(named: dict[str, Any]) -> dict[str, Any]:
    """``aria-*`` and ``data-*`` attributes, passed as keywords (no Python name has a hyphen)."""
    return named


def _part(value: float, scale: float) -> float:
    """``value`` in percent of a track standing for ``scale`` (a negative count drawn as none)."""
    return round(min(100.0, max(0.0, 100 * value / scale)), 2)


def _inner(title: str, names: Sequence[str], series: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Any]:
    rows = [
        html.Div(
            [html.Div(tendency.label, className="tbars-label"), *(_row(bar) for bar in tendency.bars)],
            className="tbars-tendency",
            role="group",
            **_attributes({"aria-label": tendency.label}),
        )
        for tendency in tendencies(names, series)
    ]
    return [html.H4(title, className="tbars-title"), *rows]


def rates_by_size(title: str, rows: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> list[Any]:
    """Win rates per value of a dimension (``labels``: each row's value in words), one group per table size
    (``Queries.by_dimension`` rows, each with ``n_players``, ``value`` and ``n``), as the aggregates page's
    Plotly chart drew them: the size's colour, each rate with its 95 % Wilson whiskers and n ("too few games" and
    pale under ``uncertainty.TOO_FEW``), and the rate each seat would have if seats did not matter (1/N) as a
    dashed line."""
    parts: list[Any] = []
    sizes = sorted({int(r["n_players"]) for r in rows})
    for i, size in enumerate(sizes):
        colour = COLOURS[i % len(COLOURS)]
        fair = 1 / size if size > 1 else None
        heading = f"{size} player{'s' if size != 1 else ''}"
        said = f"{heading}, dashed: fair share 1/{size} ({percent(fair)})" if fair else heading
        mine = [(label, r) for label, r in zip(labels, rows, strict=True) if int(r["n_players"]) == size]
        parts.append(
            html.Div(
                [html.Div(said, className="tbars-label"), *(_row(_rate(who, colour, r, fair)) for who, r in mine)],
                className="tbars-tendency",
                role="group",
                **_attributes({"aria-label": heading, "data-size": str(size)}),
            )
        )
    # the values' names in a column as wide as the longest (up to 26 characters), not cut at the tendencies' 104 px
    wide = min(WHO_MOST, max((len(label) for label in labels), default=0))
    return [html.H4(title, className="tbars-title"), html.Div(parts, style={"--tbars-who": f"max(104px, {wide}ch)"})]


def _rate(who: str, colour: str, row: Mapping[str, Any], fair: float | None) -> Bar:
    value, n = row["value"], row["n"]
    found = wilson(value, n)
    shown = 0.0 if value is None else 100 * value
    return Bar(
        who=who,
        colour=colour,
        value=value,
        n=n,
        share=True,
        text=f"{tendency_text(value, True)} ({_n_text(n, 'games')})",
        interval=interval_text(value, n),
        length=_part(shown, SHARE_TOP),
        whisker=None if found is None else (_part(100 * found[0], SHARE_TOP), _part(100 * found[1], SHARE_TOP)),
        end=_part(100 * found[1] if found else shown, SHARE_TOP),
        pale=too_few(n),
        mark=None if fair is None else _part(100 * fair, SHARE_TOP),
    )


def drawn(
    store_id: str, groups: Mapping[str, tuple[str, Sequence[str], Sequence[tuple[str, Mapping[str, Any]]]]]
) -> tuple[Any, dict[str, Any]]:
    """A player's tendency groups (``tendencies``) as ``boxed`` sends them."""
    return boxed(store_id, {gid: (spec[0], _inner(*spec)) for gid, spec in groups.items()})


def boxed(store_id: str, groups: Mapping[str, tuple[str, Sequence[Any]]]) -> tuple[Any, dict[str, Any]]:
    """Several groups of bars (by box id: a title and the group's components) sent as HTML text
    (``dashboard.html_text``, every text and attribute escaped) in one store (``store_id``), with an empty box
    for each that ``digsite.tendencyBars`` fills in the browser: as components, an Arnak player's 14 groups were
    some 600 more for Dash's renderer, which then took longer than the Plotly charts they replaced. Returns the
    store and the boxes, by id."""
    texts = {gid: html_text.to_html(list(inner)) for gid, (_, inner) in groups.items()}
    key = hashlib.sha1(json.dumps(texts, sort_keys=True).encode()).hexdigest()[:16]
    boxes = {
        gid: html.Div(id=gid, className="tbars", role="group", **_attributes({"aria-label": title, "data-key": key}))
        for gid, (title, _) in groups.items()
    }
    return dcc.Store(id=store_id, data={"key": key, "html": texts}), boxes


def _row(bar: Bar) -> Any:
    track: list[Any] = []
    if bar.share:  # a share's whole scale, 0 to 100 %, behind its bar
        track.append(html.Span(className="tbars-scale", style={"width": f"{_part(100, SHARE_TOP)}%"}))
    if bar.value is not None:
        track.append(
            html.Span(
                className="tbars-fill",
                style={"width": f"{bar.length}%", "background": bar.colour, **({"opacity": PALE} if bar.pale else {})},
            )
        )
    if bar.mark is not None:
        track.append(html.Span(className="tbars-fair", style={"left": f"{bar.mark}%", "borderColor": bar.colour}))
    if bar.whisker is not None:
        low, high = bar.whisker
        track.append(
            html.Span(className="tbars-whisker", style={"left": f"{low}%", "width": f"{round(high - low, 2)}%"})
        )
    said: list[Any] = [bar.text]
    if bar.interval:  # the whiskers in words, for whoever cannot see them
        said.append(html.Span(f", 95% interval {bar.interval}", className="sr-only"))
    track.append(html.Span(said, className="tbars-text", style={"left": f"{bar.end}%"}))
    return html.Div(
        [html.Span(bar.who, className="tbars-who"), html.Span(track, className="tbars-track")],
        className="tbars-row pale" if bar.pale else "tbars-row",
        title=f"{bar.who}: {bar.text}" + (f", 95% interval {bar.interval}" if bar.interval else ""),
        **_attributes({"data-value": "" if bar.value is None else repr(bar.value), "data-n": f"{bar.n:g}"}),
    )


CSS = (
    """
/* a player's tendency groups (dashboard/tendency_bars.py): HTML bars with whiskers, no Plotly */
.tbars { font-size: 12px; padding: 0.2rem 0 0.4rem; overflow: hidden; }
.tbars-title { font-size: 15px; font-weight: 400; text-transform: none; letter-spacing: 0; color: var(--ink);
    margin: 0 0 0.5rem; }
.tbars-tendency { margin: 0 0 0.6rem; }
.tbars-label { margin: 0 0 0.15rem 0; }
.tbars-row { display: grid; grid-template-columns: var(--tbars-who, 104px) minmax(0, 1fr); gap: 0 6px;
    align-items: center; height: 20px; }
.tbars-who { text-align: right; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tbars-track { position: relative; height: 16px; }
.tbars-scale { position: absolute; left: 0; top: 0; bottom: 0; background: #f0f2f5; }
.tbars-fill { position: absolute; left: 0; top: 0; bottom: 0; }
.tbars-whisker { position: absolute; top: 4px; bottom: 4px; border-left: 1.2px solid #334;
    border-right: 1.2px solid #334; background: linear-gradient(#334, #334) center / 100% 1.2px no-repeat; }
.tbars-fair { position: absolute; top: -2px; bottom: -2px; border-left: 1.5px dashed; }
.tbars-text { position: absolute; top: 0; line-height: 16px; padding-left: 4px; white-space: nowrap;
    font-size: 11px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
    white-space: nowrap; }
"""
    + COLUMNS_CSS
)
