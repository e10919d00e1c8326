"""Plotly figures built from the read-side queries' plain rows (pure functions: data in, figure out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from dashboard.format import DASH, effect_label, is_rate, metric_value, ordinal, round_name

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


def vp_timeline(timeline: Mapping[str, Any], version: int, max_rounds: int | None = None) -> go.Figure:
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
                    "text": round_name(round_no, max_rounds),
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


# -- players ----------------------------------------------------------------------------------------------------


def tendencies(
    mine: Mapping[str, Any], other: Mapping[str, Any], my_name: str, other_name: str, rates: bool
) -> go.Figure:
    """A player's tendencies beside the field's (or another player's): rates, or per-round/per-game averages."""
    names = [m for m in mine["metrics"] if is_rate(m) == rates and m != "think_ms"]
    labels = [mine["metrics"][m]["label"] for m in names]
    fig = go.Figure()
    other_colour = FIELD if other.get("player") is None else COLOURS[1]
    for who, data, colour in ((my_name, mine, COLOURS[0]), (other_name, other, other_colour)):
        values = [data["metrics"][m]["value"] for m in names]
        ns = [data["metrics"][m]["n"] for m in names]
        fig.add_trace(
            go.Bar(
                y=labels,
                x=[None if v is None else (100 * v if rates else v) for v in values],
                name=who,
                orientation="h",
                marker_color=colour,
                text=[f"{metric_value(m, v)} (n={n})" for m, v, n in zip(names, values, ns, strict=True)],
                textposition="outside",
                cliponaxis=False,
                hovertemplate="%{y}: %{text}<extra>" + who + "</extra>",
            )
        )
    title = "Rates (percent, n = opportunities)" if rates else "Averages (n = rounds, leads or games)"
    _layout(fig, title, height=110 + 48 * len(names), barmode="group")
    fig.update_layout(margin={"r": 110})  # room for the value labels outside the longest bar
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(ticksuffix="%" if rates else "", rangemode="tozero")
    return fig


def finishing_positions(series: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> go.Figure:
    """Share of round finishes at each place, per series (player, field or another player)."""
    fig = go.Figure()
    for i, (who, rows) in enumerate(series):
        counts: dict[int, int] = {}
        for row in rows:
            if row["place"] is not None:  # a round the game ended before everyone went out
                counts[int(row["place"])] = counts.get(int(row["place"]), 0) + int(row["n"])
        total = sum(counts.values()) or 1
        places = sorted(counts)
        fig.add_trace(
            go.Bar(
                x=[ordinal(p) for p in places],
                y=[100 * counts[p] / total for p in places],
                name=f"{who} (n={sum(counts.values())})",
                marker_color=COLOURS[0] if i == 0 else FIELD if who == "the field" else COLOURS[1],
                customdata=[counts[p] for p in places],
                hovertemplate="%{x}: %{y:.0f}% (%{customdata} rounds)<extra>" + who + "</extra>",
            )
        )
    _layout(fig, "Finishing place in a round (share of rounds)", barmode="group")
    fig.update_yaxes(ticksuffix="%")
    every = sorted({int(r["place"]) for _, rows in series for r in rows if r["place"] is not None})
    fig.update_xaxes(
        title_text="place", type="category", categoryorder="array", categoryarray=[ordinal(p) for p in every]
    )
    return fig


def by_round(
    series: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], key: str, title: str, axis: str, max_rounds: int | None
) -> go.Figure:
    """A per-round average (``key``: 'vp' or 'torches') as lines with markers, one per series."""
    fig = go.Figure()
    for i, (who, rows) in enumerate(series):
        fig.add_trace(
            go.Scatter(
                x=[round_name(r["round"], max_rounds) for r in rows],
                y=[r[key] for r in rows],
                name=who,
                mode="lines+markers",
                marker={"size": 8},
                line={"color": COLOURS[0] if i == 0 else FIELD if who == "the field" else COLOURS[1]},
                customdata=[r["n"] for r in rows],
                hovertemplate="%{x}: %{y:.2f} (n=%{customdata})<extra>" + who + "</extra>",
            )
        )
    _layout(fig, title)
    fig.update_yaxes(title_text=axis, rangemode="tozero")
    fig.update_xaxes(type="category")
    return fig


def purchases(series: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> go.Figure:
    """Discoveries bought, by effect and sleeve position, as a share of each series' purchases."""
    keys: list[tuple[str, str]] = []
    for _, rows in series:
        for row in rows:
            key = (row["effect"], row["position"])
            if key not in keys:
                keys.append(key)
    keys.sort(key=lambda k: (["top", "middle", "bottom"].index(k[1]) if k[1] in ("top", "middle", "bottom") else 9, k))
    labels = [f"{effect_label(e)} ({p})" for e, p in keys]
    fig = go.Figure()
    for i, (who, rows) in enumerate(series):
        counts = {(r["effect"], r["position"]): int(r["n"]) for r in rows}
        total = sum(counts.values()) or 1
        fig.add_trace(
            go.Bar(
                x=labels,
                y=[100 * counts.get(k, 0) / total for k in keys],
                name=f"{who} (n={sum(counts.values())})",
                marker_color=COLOURS[0] if i == 0 else FIELD if who == "the field" else COLOURS[1],
                customdata=[counts.get(k, 0) for k in keys],
                hovertemplate="%{x}: %{y:.0f}% (%{customdata} bought)<extra>" + who + "</extra>",
            )
        )
    _layout(fig, "Discoveries bought, by effect (sleeve position)", barmode="group")
    fig.update_yaxes(ticksuffix="%", title_text="share of purchases")
    return fig


# -- aggregates -------------------------------------------------------------------------------------------------


def win_rate_by_seat(rows: Sequence[Mapping[str, Any]]) -> go.Figure:
    fig = go.Figure()
    counts = sorted({int(r["n_players"]) for r in rows})
    for i, n in enumerate(counts):
        mine = [r for r in rows if int(r["n_players"]) == n]
        fig.add_trace(
            go.Bar(
                x=[f"Seat {int(r['seat']) + 1}" for r in mine],
                y=[100 * r["win_rate"] for r in mine],
                name=f"{n} players",
                marker_color=COLOURS[i % len(COLOURS)],
                text=[f"n={r['games']}" for r in mine],
                textposition="outside",
                cliponaxis=False,
                hovertemplate="%{x}: %{y:.0f}% won (%{text})<extra>" + f"{n} players" + "</extra>",
            )
        )
    _layout(fig, "Win rate by seat (per player count)", barmode="group", showlegend=True)
    fig.update_yaxes(ticksuffix="%", rangemode="tozero")
    return fig


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


def rounds(rows: Sequence[Mapping[str, Any]]) -> go.Figure:
    fig = go.Figure()
    fig.add_trace(
        go.Bar(x=[str(r["value"]) for r in rows], y=[r["n"] for r in rows], name="games", marker_color=COLOURS[0])
    )
    fig.add_trace(
        go.Bar(
            x=[str(r["value"]) for r in rows],
            y=[r["showdowns"] or 0 for r in rows],
            name="reached the Showdown",
            marker_color=COLOURS[2],
        )
    )
    _layout(fig, "Rounds played per game", barmode="group")
    fig.update_xaxes(title_text="regular rounds played", type="category")
    fig.update_yaxes(title_text="games")
    return fig


def discovery_popularity(rows: Sequence[Mapping[str, Any]]) -> go.Figure:
    fig = go.Figure()
    for i, position in enumerate(("top", "middle", "bottom")):
        mine = [r for r in rows if r["position"] == position]
        if not mine:
            continue
        fig.add_trace(
            go.Bar(
                x=[effect_label(r["effect"]) for r in mine],
                y=[r["n"] for r in mine],
                name=f"{position} sleeve",
                marker_color=COLOURS[i],
                customdata=[r["price"] for r in mine],
                hovertemplate="%{x}: bought %{y} times, average price %{customdata:.2f}<extra></extra>",
            )
        )
    _layout(fig, "Discovery popularity (times bought, by sleeve position)", barmode="stack")
    fig.update_layout(legend={"traceorder": "normal"})
    fig.update_yaxes(title_text="times bought")
    return fig


def first_leader(rows: Sequence[Mapping[str, Any]]) -> go.Figure:
    names = {0: "did not lead round 1", 1: "led round 1"}
    fig = go.Figure(
        go.Bar(
            x=[names.get(int(r["led_round1"]), str(r["led_round1"])) for r in rows],
            y=[100 * r["win_rate"] for r in rows],
            marker_color=[COLOURS[1] if int(r["led_round1"]) else FIELD for r in rows],
            text=[f"n={r['games']}" for r in rows],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: %{y:.0f}% won (%{text})<extra></extra>",
        )
    )
    _layout(fig, "Win rate by who led round 1")
    fig.update_yaxes(ticksuffix="%", rangemode="tozero")
    return fig


def trend(rows: Sequence[Mapping[str, Any]], metric: str, label: str, tournament: str) -> go.Figure:
    rate = is_rate(metric)
    fig = go.Figure(
        go.Scatter(
            x=[f"Round {r['round']}" for r in rows],
            y=[None if r["value"] is None else (100 * r["value"] if rate else r["value"]) for r in rows],
            mode="lines+markers",
            marker={"size": 9},
            line={"color": COLOURS[0]},
            customdata=[r["n"] for r in rows],
            hovertemplate="%{x}: %{y:.2f} (%{customdata} player-games)<extra></extra>",
        )
    )
    _layout(fig, f"{label[:1].upper()}{label[1:]}, by round of {tournament}")
    fig.update_xaxes(type="category", title_text="tournament round")
    fig.update_yaxes(ticksuffix="%" if rate else "", rangemode="tozero")
    return fig
