"""Plotly figures built from the read-side queries' plain rows (pure functions: data in, figure out)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dashboard import plotly_paths
from dashboard.format import DASH, number, ordinal, percent
from dashboard.uncertainty import too_few, wilson

plotly_paths.install()  # Plotly parses each property path once (most of a page's figure-building time)

RoundName = Callable[[int], str]  # what the game calls a round (``Renderer.round_name``)
# A game's words for a value of a breakdown's or dimension's column (``dashboard.games.value_text``): None for
# the generic wording, "" to leave the column out (another column already says it).
ValueText = Callable[[str, Any], "str | None"]


def no_words(column: str, value: Any) -> str | None:
    return None


def plain_round_name(round_no: int) -> str:
    return f"Round {round_no}"


COLOURS = ["#2f6db5", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d6a9f"]
FIELD = "#9aa5b1"
# A share's axis ticks stop at 100% even where the axis goes on (room past it for a label or a whisker).
PERCENT_TICKS: dict[str, Any] = {"tickvals": [0, 20, 40, 60, 80, 100], "ticktext": [f"{v}%" for v in range(0, 101, 20)]}
CURSOR = "#1f2933"


def _layout(fig: go.Figure, title: str, height: int = 320, **extra: Any) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0.01, "y": 0.97, "yanchor": "top", "font": {"size": 15}},
        height=height,
        margin={"l": 55, "r": 20, "t": 78, "b": 45},
        plot_bgcolor="white",
        paper_bgcolor="white",
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        font={"family": "system-ui, -apple-system, Segoe UI, sans-serif", "size": 12},
        **extra,
    )
    fig.update_xaxes(showgrid=False, linecolor="#ccd")
    fig.update_yaxes(gridcolor="#eef", zeroline=False)
    return fig


styled = _layout  # (the same look for the figures of pages' own modules: dashboard/ratings.py)


# -- replay ---------------------------------------------------------------------------------------------------


def cursor_shape(version: int) -> dict[str, Any]:
    return {
        "type": "line",
        "xref": "x",
        "yref": "paper",
        "x0": version,
        "x1": version,
        "y0": 0,
        "y1": 1,
        "line": {"color": CURSOR, "width": 2, "dash": "dash"},
    }


def vp_timeline(timeline: Mapping[str, Any], version: int, round_name: RoundName = plain_round_name) -> go.Figure:
    """VP of every seat after every version, one step line per seat; the cursor is shape 0."""
    versions = list(range(1, len(timeline["vp"]) + 1))
    fig = go.Figure()
    for seat, name in enumerate(timeline["names"]):
        fig.add_trace(
            go.Scatter(
                x=versions,
                y=[row[seat] for row in timeline["vp"]],
                name=name,
                mode="lines",
                line={"shape": "hv", "width": 2, "color": COLOURS[seat % len(COLOURS)]},
                hovertemplate=f"{name}: %{{y}} VP at version %{{x}}<extra></extra>",
            )
        )
    shapes = [cursor_shape(version)]
    annotations = []
    previous = None
    for i, round_no in enumerate(timeline["round"]):
        if previous is not None and round_no != previous:
            shapes.append(
                {
                    "type": "line",
                    "xref": "x",
                    "yref": "paper",
                    "x0": i + 1,
                    "x1": i + 1,
                    "y0": 0,
                    "y1": 1,
                    "line": {"color": "#bbc", "width": 1, "dash": "dot"},
                }
            )
            annotations.append(
                {
                    "x": i + 1,
                    "y": 1.0,
                    "xref": "x",
                    "yref": "paper",
                    "text": round_name(int(round_no)),
                    "showarrow": False,
                    "xanchor": "left",
                    "yanchor": "bottom",
                    "font": {"size": 10, "color": "#667"},
                }
            )
        previous = round_no
    _layout(fig, "Victory points over the game (click to jump)", height=280, shapes=shapes, annotations=annotations)
    fig.update_xaxes(title_text="version", range=[0.5, len(versions) + 0.5])
    fig.update_yaxes(title_text="VP", rangemode="tozero")
    fig.update_layout(
        hovermode="x unified",
        legend={"orientation": "v", "x": 1.01, "xanchor": "left", "y": 1, "yanchor": "top"},
        margin={"l": 55, "r": 150, "t": 60, "b": 45},
    )
    return fig


# -- players and aggregates: drawn from a game's catalogue (service.reading.catalogue), whatever the game ------------


def _colour(i: int, who: str) -> str:
    return COLOURS[0] if i == 0 else FIELD if who == "the field" else COLOURS[1]


def tendency_text(value: float | None, share: bool) -> str:
    """A tendency's value as people read it: a share as a percentage, anything else as a number; a small
    non-zero number keeps two significant digits (sub-millisecond think time is not 0.00)."""
    if share:
        return percent(value)
    if value is not None and 0 < abs(value) < 0.1:
        return f"{value:.2g}"
    return number(value)


def stacked_by_round(
    series: Sequence[tuple[str, Sequence[tuple[str, Sequence[Mapping[str, Any]]]]]],
    title: str,
    round_name: RoundName,
) -> go.Figure:
    """Shares of one whole round by round (each series: the parts' labels and ``per_round`` rows), stacked per
    round; one panel per series (the player, the field) on the same 0-100% scale."""
    fig = make_subplots(rows=1, cols=len(series), shared_yaxes=True, subplot_titles=[who for who, _ in series])
    for col, (who, parts) in enumerate(series, start=1):
        # every part of a round is over the same n: said under the round's name
        ns: dict[int, Any] = {}
        for _, rows in parts:
            for r in rows:
                ns.setdefault(int(r["round"]), r["n"])
        for i, (label, rows) in enumerate(parts):
            fig.add_trace(
                go.Bar(
                    x=[f"{round_name(int(r['round']))}<br>n={ns[int(r['round'])]:g}" for r in rows],
                    y=[None if r["value"] is None else 100 * r["value"] for r in rows],
                    name=label,
                    legendgroup=label,
                    showlegend=col == 1,
                    marker_color=COLOURS[i % len(COLOURS)] if i < len(COLOURS) else FIELD,
                    customdata=[r["n"] for r in rows],
                    hovertemplate="%{x}: %{y:.0f}% of %{customdata} (" + label + ")<extra>" + who + "</extra>",
                ),
                row=1,
                col=col,
            )
        fig.update_xaxes(type="category", row=1, col=col)
    _layout(fig, title, height=400, barmode="stack")
    fig.update_yaxes(ticksuffix="%", range=[0, 100])
    # the parts' legend under the panels: above them it would cover the panels' titles
    fig.update_layout(
        margin={"t": 70, "b": 90}, legend={"orientation": "h", "y": -0.12, "yanchor": "top", "x": 0, "xanchor": "left"}
    )
    return fig


def by_round(
    series: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
    title: str,
    axis: str,
    round_name: RoundName,
    share: bool = False,
) -> go.Figure:
    """A per-round metric (rows of ``{round, value, n}``) as lines with markers, one per series; a share in
    percent on a 0-100% axis."""
    fig = go.Figure()
    for i, (who, rows) in enumerate(series):
        fig.add_trace(
            go.Scatter(
                x=[round_name(int(r["round"])) for r in rows],
                y=[None if r["value"] is None else (100 * r["value"] if share else r["value"]) for r in rows],
                name=who,
                mode="lines+markers+text",
                marker={"size": 8},
                line={"color": _colour(i, who)},
                # each point's n beside it: the first series' above its points, the second's below
                text=[f"n={r['n']:g}" for r in rows],
                # (beside a share's whisker, not on it)
                textposition=("top" if i % 2 == 0 else "bottom") + (" right" if share else " center"),
                textfont={"size": 9, "color": _colour(i, who)},
                cliponaxis=False,
                error_y=_whiskers(
                    [None if r["value"] is None else 100 * r["value"] for r in rows],
                    [wilson(r["value"], r["n"]) for r in rows],
                )
                if share
                else None,
                customdata=[r["n"] for r in rows],
                hovertemplate="%{x}: %{y:.2f}"
                + ("%" if share else "")
                + " (n=%{customdata})<extra>"
                + who
                + "</extra>",
            )
        )
    _layout(fig, title)
    fig.update_yaxes(title_text=axis, rangemode="tozero", ticksuffix="%" if share else "")
    if share:
        fig.update_yaxes(range=[0, 100])
    fig.update_xaxes(type="category")
    return fig


def _group_label(row: Mapping[str, Any], by: Sequence[str], round_name: RoundName, words: ValueText = no_words) -> str:
    """A breakdown's group as people read it: the game's own words for a value (``words``), else "Round 2, 1st"
    for a round and a place (every game's words), a number with its column's name, any other value as it is
    stored."""
    parts = []
    for column in by:
        value = row[column]
        said = None if value is None else words(column, value)
        if said is not None:
            if said:
                parts.append(said)
        elif value is None:
            parts.append(DASH)
        elif column == "round":
            parts.append(round_name(int(value)))
        elif column == "place":
            parts.append(ordinal(int(value)))
        else:
            parts.append(f"{column.replace('_', ' ')} {value}" if isinstance(value, int) else str(value))
    return ", ".join(parts)


def breakdown(
    series: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
    label: str,
    by: Sequence[str],
    round_name: RoundName = plain_round_name,
    words: ValueText = no_words,
) -> go.Figure:
    """A breakdown (rows grouped ``by`` some columns, counted in ``n``) per series as a share of that series'
    rows (with its Wilson interval), the groups in one order for every series. A group without a value (a
    round the game ended before the seat went out has no place) is left out."""
    series = [(who, [r for r in rows if all(r[c] is not None for c in by)]) for who, rows in series]
    keys: list[tuple[Any, ...]] = []
    for _, rows in series:
        for row in rows:
            key = tuple(row[c] for c in by)
            if key not in keys:
                keys.append(key)
    keys.sort(key=lambda k: tuple((v is None, v if not isinstance(v, str) else 0, str(v)) for v in k))
    names = [_group_label(dict(zip(by, k, strict=True)), by, round_name, words) for k in keys]
    fig = go.Figure()
    for i, (who, rows) in enumerate(series):
        counts = {tuple(r[c] for c in by): int(r["n"]) for r in rows}
        total = sum(counts.values()) or 1
        shares = [100 * counts.get(k, 0) / total for k in keys]
        fig.add_trace(
            go.Bar(
                x=names,
                y=shares,
                name=f"{who} ({_n_text(sum(counts.values()))})",
                marker_color=_colour(i, who),
                # whiskers on the groups counted: a group of none would draw a 0-40% whisker beside every bar
                error_y=_whiskers(shares, [wilson(v / 100, total) if v else None for v in shares]),
                customdata=[counts.get(k, 0) for k in keys],
                hovertemplate="%{x}: %{y:.0f}% (%{customdata})<extra>" + who + "</extra>",
            )
        )
    _layout(fig, f"{label[:1].upper()}{label[1:]} (share)", barmode="group")
    fig.update_yaxes(ticksuffix="%", title_text="share")
    fig.update_xaxes(type="category")
    return fig


def counts(
    rows: Sequence[Mapping[str, Any]],
    label: str,
    by: Sequence[str],
    averaged: Sequence[str] = (),
    round_name: RoundName = plain_round_name,
    words: ValueText = no_words,
) -> go.Figure:
    """A breakdown of the whole field as counts (with its averaged columns in the hover text), groups without a
    value left out (a game in play has not been won yet)."""
    rows = [r for r in rows if all(r[c] is not None for c in by)]
    if rows and all(isinstance(r[c], int) for r in rows for c in by):  # rounds, places, ranks: in their order
        rows = sorted(rows, key=lambda r: tuple(r[c] for c in by))
        if len(by) == 1:  # one number (a round): the values nobody reached show as 0, not as a hidden gap
            (column,) = by
            seen = {r[column] for r in rows}
            low = 1 if column == "round" else min(seen)
            if max(seen) - low < 40:
                rows = [
                    next((r for r in rows if r[column] == v), {column: v, "n": 0, **{c: None for c in averaged}})
                    for v in range(low, max(seen) + 1)
                ]
    fig = go.Figure(
        go.Bar(
            x=[_group_label(r, by, round_name, words) for r in rows],
            y=[r["n"] for r in rows],
            marker_color=COLOURS[0],
            customdata=[[r[c] for c in averaged] for r in rows] if averaged else None,
            hovertemplate="%{x}: %{y}"
            + "".join(f", average {c.replace('_', ' ')} %{{customdata[{i}]:.2f}}" for i, c in enumerate(averaged))
            + "<extra></extra>",
        )
    )
    _layout(fig, f"{label[:1].upper()}{label[1:]}")
    fig.update_xaxes(type="category")
    fig.update_yaxes(title_text="count")
    _whole_ticks(fig, [r["n"] for r in rows])
    return fig


def _whole_ticks(fig: go.Figure, counts: Sequence[Any]) -> None:
    """A count's axis ticks on whole numbers (no tick at 0.5 of a game), about six of them."""
    top = max([int(c) for c in counts if c is not None] or [1])
    fig.update_yaxes(tickformat=",d", tick0=0, dtick=max(1, -(-top // 6)), rangemode="tozero")


def one_value(labels: Sequence[Any]) -> Any | None:
    """The one value every row shares, when there is exactly one (a chart of a single bar compares nothing: the
    page says so instead); None when there are several, or none."""
    distinct = {label for label in labels if label is not None}
    return next(iter(distinct)) if len(distinct) == 1 else None


def group_labels(
    rows: Sequence[Mapping[str, Any]], by: Sequence[str], round_name: RoundName, words: ValueText = no_words
) -> list[str]:
    """Each row's group as ``counts`` labels it (rows without a value of a column left out)."""
    return [_group_label(r, by, round_name, words) for r in rows if all(r[c] is not None for c in by)]


def dimension_labels(
    rows: Sequence[Mapping[str, Any]],
    dimension: str,
    label: str | None = None,
    flag: bool = False,
    words: ValueText = no_words,
) -> list[str]:
    """Each row's value of a dimension in words, as the aggregates page names a win rate's bar (rows without one left
    out; ``tendency_bars.rates_by_size``)."""
    return [_dimension_value(dimension, r["grp"], label, flag, words) for r in rows if r["grp"] is not None]


def _n_text(n: Any, unit: str | None = "") -> str:
    """A sample size as a label: "n=12", or under the threshold (``uncertainty.TOO_FEW``) "n=2, too few" (and
    the ``unit``: "too few games"); ``unit`` None: never flagged (a count, not a rate)."""
    shown = f"n={n:g}" if isinstance(n, int | float) else f"n={n}"
    if unit is None or not too_few(n):
        return shown
    return f"{shown}, too few {unit}".rstrip()


def _whiskers(values: Sequence[float | None], intervals: Sequence[tuple[float, float] | None]) -> dict[str, Any]:
    """Error bars (``error_y`` or ``error_x``) from each value (in percent) to its interval's ends (shares in
    0..1); none where there is no value or no interval."""
    up = [None if v is None or w is None else max(0.0, 100 * w[1] - v) for v, w in zip(values, intervals, strict=True)]
    down = [
        None if v is None or w is None else max(0.0, v - 100 * w[0]) for v, w in zip(values, intervals, strict=True)
    ]
    return {"type": "data", "symmetric": False, "array": up, "arrayminus": down, "color": "#334", "thickness": 1.2,
            "width": 4}  # fmt: skip


def _dimension_value(
    dimension: str, value: Any, label: str | None = None, flag: bool = False, words: ValueText = no_words
) -> str:
    """A dimension's value as people read it: the game's own words (``words``), else "Seat 2" (seats count from
    1), "led round 1: yes" for a 0/1 fact (a ``flag``: a difficulty of 0 is a level, not a no)."""
    if dimension == "seat" and isinstance(value, int):
        return f"Seat {value + 1}"
    if value is None:
        return DASH
    said = words(dimension, value)
    if said:
        return said
    name = label or dimension.replace("_", " ")
    if flag and value in (0, 1) and not isinstance(value, str):
        return f"{name}: {'yes' if value else 'no'}"
    return f"{name}: {value}"


def counts_bar(
    rows: Sequence[Mapping[str, Any]], title: str, axis: str, labels: Mapping[Any, str] | None = None
) -> go.Figure:
    """Counts of a value (rows of ``{value, n}``). Numbers sit on a numeric axis, so a score nobody made shows
    as a gap, not as a neighbour of the next one; anything else (``labels``, words) is a category."""
    labels = labels or {}
    numeric = not labels and all(isinstance(r["value"], int | float) for r in rows)
    fig = go.Figure(
        go.Bar(
            x=[r["value"] if numeric else labels.get(r["value"], str(r["value"])) for r in rows],
            y=[r["n"] for r in rows],
            marker_color=COLOURS[0],
            hovertemplate="%{x}: %{y}<extra></extra>",
        )
    )
    _layout(fig, title)
    if numeric:
        fig.update_xaxes(title_text=axis, type="linear", tickformat=",d", dtick=score_tick([r["value"] for r in rows]))
    else:
        fig.update_xaxes(title_text=axis, type="category")
    fig.update_yaxes(title_text="count")
    _whole_ticks(fig, [r["n"] for r in rows])
    return fig


def score_tick(values: Sequence[float]) -> int:
    """The step between a numeric count axis's labels: about 12 labels over the values' span."""
    span = (max(values) - min(values)) if values else 0
    return int(max(1, -(-span // 12)))


def histogram_bins(rows: Sequence[Mapping[str, Any]], bins: int = 12) -> list[tuple[str, int]]:
    """Counts of ``value`` in about ``bins`` equal bins of a round width, each with its label ("20-24"), empty
    bins included: the bins ``histogram`` draws (and ``count_columns.histogram``)."""
    values = [(int(r["value"]), int(r["n"])) for r in rows]
    low = min(v for v, _ in values)
    high = max(v for v, _ in values)
    width = next(w for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10**9) if (high - low) / w < bins)
    start = low // width * width
    counts: dict[int, int] = {}
    for value, n in values:
        edge = start + (value - start) // width * width
        counts[edge] = counts.get(edge, 0) + n
    edges = list(range(start, high + 1, width))
    return [(str(e) if width == 1 else f"{e}{DASH}{e + width - 1}", counts.get(e, 0)) for e in edges]


def histogram(rows: Sequence[Mapping[str, Any]], title: str, axis: str, bins: int = 12) -> go.Figure:
    """Counts of ``value`` in about ``bins`` equal bins of a round width (the y axis counts whole games)."""
    found = histogram_bins(rows, bins)
    counts = [n for _, n in found]
    fig = go.Figure(
        go.Bar(
            x=[label for label, _ in found],
            y=counts,
            marker_color=COLOURS[3],
            hovertemplate="%{x}: %{y} games<extra></extra>",
        )
    )
    _layout(fig, title, bargap=0.05)
    fig.update_xaxes(title_text=axis, type="category")
    fig.update_yaxes(title_text="games", tickformat=",d", dtick=max(1, -(-max(counts) // 6)))
    return fig


def trend(rows: Sequence[Mapping[str, Any]], share: bool, label: str, tournament: str) -> go.Figure:
    """A tendency of the field per tournament round, each point labelled with its sample size."""
    fig = go.Figure(
        go.Scatter(
            x=[f"Round {r['round']}" for r in rows],
            y=[None if r["value"] is None else (100 * r["value"] if share else r["value"]) for r in rows],
            mode="lines+markers+text",
            marker={"size": 9},
            line={"color": COLOURS[0]},
            text=[f"n={r['n']:g}" for r in rows],
            textposition="top right" if share else "top center",  # (beside a share's whisker, not on it)
            textfont={"size": 10, "color": "#667"},
            cliponaxis=False,
            error_y=_whiskers(
                [None if r["value"] is None else 100 * r["value"] for r in rows],
                [wilson(r["value"], r["n"]) for r in rows],
            )
            if share
            else None,
            customdata=[r["n"] for r in rows],
            hovertemplate="%{x}: %{y:.2f}" + ("%" if share else "") + " (n=%{customdata})<extra></extra>",
        )
    )
    _layout(fig, f"{label[:1].upper()}{label[1:]}, by round of {tournament}")
    fig.update_xaxes(type="category", title_text="tournament round")
    fig.update_yaxes(ticksuffix="%" if share else "", rangemode="tozero")
    if share:
        fig.update_yaxes(range=[0, 112], **PERCENT_TICKS)
    return fig
