"""Plotly figures built from the read-side queries' plain rows (pure functions: data in, figure out)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dashboard import plotly_paths
from dashboard.format import DASH, number, ordinal, percent

plotly_paths.install()  # Plotly parses each property path once (most of a page's figure-building time)

RoundName = Callable[[int], str]  # what the game calls a round (``Renderer.round_name``)


def plain_round_name(round_no: int) -> str:
    return f"Round {round_no}"


COLOURS = ["#2f6db5", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d6a9f"]
FIELD = "#9aa5b1"
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


# -- players and aggregates: drawn from a game's catalogue (service.queries), whatever the game --------------


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


def tendency_group(
    title: str, names: Sequence[str], series: Sequence[tuple[str, Mapping[str, Any]]], chart_id: str = ""
) -> go.Figure:
    """One group of a game's tendencies (``Queries.tendencies`` answers, one per series: the player, then the
    field or another player), as small multiples: each tendency on its own scale (a share from 0 to 100%, a
    count from 0), one bar per series, labelled with its value and sample size."""
    first = series[0][1]["metrics"]
    labels = [first[m]["label"] for m in names]
    fig = make_subplots(
        rows=len(names), cols=1, subplot_titles=[f"{x[:1].upper()}{x[1:]}" for x in labels], vertical_spacing=0.0
    )
    for row, metric in enumerate(names, start=1):
        share = bool(first[metric].get("share"))
        whos = [who for who, _ in series]
        values = [data["metrics"][metric]["value"] for _, data in series]
        ns = [data["metrics"][metric]["n"] for _, data in series]
        fig.add_trace(
            go.Bar(
                y=whos,
                x=[None if v is None else (100 * v if share else v) for v in values],
                orientation="h",
                marker_color=[_colour(i, who) for i, (who, _) in enumerate(series)],
                text=[f"{tendency_text(v, share)} (n={n:g})" for v, n in zip(values, ns, strict=True)],
                textposition="outside",
                cliponaxis=False,
                showlegend=False,
                hovertemplate="%{y}: %{text}<extra>" + labels[row - 1] + "</extra>",
            ),
            row=row,
            col=1,
        )
        known = [100 * v if share else v for v in values if v is not None]
        top = 100.0 if share else max([*known, 0.0]) * 1.35 or 1.0  # room for the label beside the longest bar
        fig.update_xaxes(
            range=[0, top], ticksuffix="%" if share else "", row=row, col=1, showgrid=True, gridcolor="#eef"
        )
        fig.update_yaxes(autorange="reversed", row=row, col=1)
    per = 52 + 16 * len(series)
    _layout(fig, title, height=70 + per * len(names), bargap=0.25)
    fig.update_layout(margin={"l": 110, "r": 30, "t": 60, "b": 20}, showlegend=False)
    fig.update_annotations(font={"size": 12}, xanchor="left", x=0)
    # each subplot's title sits just above its bars: spread the rows so a title never covers the row above
    gap = 1 / len(names)
    for i in range(len(names)):
        top_edge = 1 - i * gap
        fig.layout[f"yaxis{'' if i == 0 else i + 1}"].domain = [top_edge - gap + 0.35 * gap, top_edge - 0.12 * gap]
        fig.layout.annotations[i].y = top_edge - 0.12 * gap
        fig.layout.annotations[i].yanchor = "bottom"
    return fig


def stacked_by_round(
    series: Sequence[tuple[str, Sequence[tuple[str, Sequence[Mapping[str, Any]]]]]],
    title: str,
    round_name: RoundName,
) -> go.Figure:
    """Shares of one whole round by round (each series: the parts' labels and ``per_round`` rows), stacked per
    round; one panel per series (the player, the field) on the same 0-100% scale."""
    fig = make_subplots(rows=1, cols=len(series), shared_yaxes=True, subplot_titles=[who for who, _ in series])
    for col, (who, parts) in enumerate(series, start=1):
        for i, (label, rows) in enumerate(parts):
            fig.add_trace(
                go.Bar(
                    x=[round_name(int(r["round"])) for r in rows],
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
                mode="lines+markers",
                marker={"size": 8},
                line={"color": _colour(i, who)},
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


def _group_label(row: Mapping[str, Any], by: Sequence[str], round_name: RoundName) -> str:
    """A breakdown's group as people read it: "Round 2, 1st" for a round and a place (every game's words), a
    number with its column's name, any other value as it is stored."""
    parts = []
    for column in by:
        value = row[column]
        if value is None:
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
) -> go.Figure:
    """A breakdown (rows grouped ``by`` some columns, counted in ``n``) per series as a share of that series'
    rows, the groups in one order for every series. A group without a value (a round the game ended before
    the seat went out has no place) is left out."""
    series = [(who, [r for r in rows if all(r[c] is not None for c in by)]) for who, rows in series]
    keys: list[tuple[Any, ...]] = []
    for _, rows in series:
        for row in rows:
            key = tuple(row[c] for c in by)
            if key not in keys:
                keys.append(key)
    keys.sort(key=lambda k: tuple((v is None, v if not isinstance(v, str) else 0, str(v)) for v in k))
    names = [_group_label(dict(zip(by, k, strict=True)), by, round_name) for k in keys]
    fig = go.Figure()
    for i, (who, rows) in enumerate(series):
        counts = {tuple(r[c] for c in by): int(r["n"]) for r in rows}
        total = sum(counts.values()) or 1
        fig.add_trace(
            go.Bar(
                x=names,
                y=[100 * counts.get(k, 0) / total for k in keys],
                name=f"{who} (n={sum(counts.values())})",
                marker_color=_colour(i, who),
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
) -> go.Figure:
    """A breakdown of the whole field as counts (with its averaged columns in the hover text), groups without a
    value left out (a game in play has not been won yet)."""
    rows = [r for r in rows if all(r[c] is not None for c in by)]
    if rows and all(isinstance(r[c], int) for r in rows for c in by):  # rounds, places, ranks: in their order
        rows = sorted(rows, key=lambda r: tuple(r[c] for c in by))
    fig = go.Figure(
        go.Bar(
            x=[_group_label(r, by, round_name) for r in rows],
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
    return fig


def by_dimension(
    rows: Sequence[Mapping[str, Any]],
    title: str,
    dimension: str,
    label: str | None = None,
    rate: bool = True,
    fair_share: bool = False,
    flag: bool = False,
) -> go.Figure:
    """A metric per value of a dimension (named ``label`` for people), one group of bars per table size
    (``Queries.by_dimension`` rows); rows without a value of the dimension (a multiplayer game has no rival's
    difficulty) are left out. ``fair_share``: a win rate, drawn with the line each table size would give every
    seat if seats did not matter (1/N, in the size's colour)."""
    rows = [r for r in rows if r["grp"] is not None]
    fig = go.Figure()
    sizes = sorted({int(r["n_players"]) for r in rows})
    for i, n in enumerate(sizes):
        if fair_share and n > 1:
            fig.add_hline(
                y=100 / n,
                line={"color": COLOURS[i % len(COLOURS)], "dash": "dash", "width": 1.5},
                annotation_text=f"fair share 1/{n}",
                annotation_position="top left",
                annotation_font={"size": 10, "color": COLOURS[i % len(COLOURS)]},
            )
        mine = [r for r in rows if int(r["n_players"]) == n]
        fig.add_trace(
            go.Bar(
                x=[_dimension_value(dimension, r["grp"], label, flag) for r in mine],
                y=[None if r["value"] is None else (100 * r["value"] if rate else r["value"]) for r in mine],
                name=f"{n} player{'s' if n != 1 else ''}",
                marker_color=COLOURS[i % len(COLOURS)],
                text=[f"n={r['n']:g}" for r in mine],
                textposition="outside",
                cliponaxis=False,
                hovertemplate="%{x}: %{y:.0f}" + ("%" if rate else "") + f" (%{{text}})<extra>{n} players</extra>",
            )
        )
    _layout(fig, title, barmode="group", showlegend=True)
    fig.update_xaxes(type="category")
    fig.update_yaxes(ticksuffix="%" if rate else "", rangemode="tozero")
    if rate:  # a rate on its whole scale: a 50% bar looks like half, whatever the other bars
        fig.update_yaxes(range=[0, 105])
    return fig


def _dimension_value(dimension: str, value: Any, label: str | None = None, flag: bool = False) -> str:
    """A dimension's value as people read it: "Seat 2" (seats count from 1), "led round 1: yes" for a 0/1 fact
    (a ``flag``: a difficulty of 0 is a level, not a no)."""
    if dimension == "seat" and isinstance(value, int):
        return f"Seat {value + 1}"
    if value is None:
        return DASH
    name = label or dimension.replace("_", " ")
    if flag and value in (0, 1) and not isinstance(value, str):
        return f"{name}: {'yes' if value else 'no'}"
    return f"{name}: {value}"


def counts_bar(
    rows: Sequence[Mapping[str, Any]], title: str, axis: str, labels: Mapping[Any, str] | None = None
) -> go.Figure:
    labels = labels or {}
    fig = go.Figure(
        go.Bar(
            x=[labels.get(r["value"], str(r["value"])) for r in rows],
            y=[r["n"] for r in rows],
            marker_color=COLOURS[0],
            hovertemplate="%{x}: %{y}<extra></extra>",
        )
    )
    _layout(fig, title)
    fig.update_xaxes(title_text=axis, type="category")
    fig.update_yaxes(title_text="count")
    return fig


def histogram(rows: Sequence[Mapping[str, Any]], title: str, axis: str, bins: int = 12) -> go.Figure:
    """Counts of ``value`` in about ``bins`` equal bins of a round width (the y axis counts whole games)."""
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
    labels = [str(e) if width == 1 else f"{e}{DASH}{e + width - 1}" for e in edges]
    fig = go.Figure(
        go.Bar(
            x=labels,
            y=[counts.get(e, 0) for e in edges],
            marker_color=COLOURS[3],
            hovertemplate="%{x}: %{y} games<extra></extra>",
        )
    )
    _layout(fig, title, bargap=0.05)
    fig.update_xaxes(title_text=axis, type="category")
    fig.update_yaxes(title_text="games", tickformat=",d", dtick=max(1, -(-max(counts.values()) // 6)))
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
            textposition="top center",
            textfont={"size": 10, "color": "#667"},
            cliponaxis=False,
            customdata=[r["n"] for r in rows],
            hovertemplate="%{x}: %{y:.2f}" + ("%" if share else "") + " (n=%{customdata})<extra></extra>",
        )
    )
    _layout(fig, f"{label[:1].upper()}{label[1:]}, by round of {tournament}")
    fig.update_xaxes(type="category", title_text="tournament round")
    fig.update_yaxes(ticksuffix="%" if share else "", rangemode="tozero")
    if share:
        fig.update_yaxes(range=[0, 105])
    return fig
