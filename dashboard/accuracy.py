"""Accuracy across judged games (docs/judge.md: a seat's accuracy in a game, 0-100), for the player page and the
tournament page. Kept apart from the pages' other figures so each page adds one card.

- The **player page**: the player's accuracy in each judged finished game, oldest first, beside **the field**: the
  mean accuracy of every judged seat (the player's own included) in finished games of that game at the same table
  size, with its n; and a table of both per table size.
- The **tournament page**: each player's mean accuracy over the tournament's judged games, with n games judged.

A mean carries a 95 % interval (Student's t: mean ± t(n-1) standard deviations / √n, so 12.7 standard errors at 2
values and about 2 from 30 on; none under 2 values).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from dash import html

from dashboard import figures
from dashboard.access import Visitor
from dashboard.components import card, empty
from dashboard.data import Data
from dashboard.lazy_charts import Lazy
from dashboard.uncertainty import t_quantile
from service.reading.judgements import MeanAccuracy, PlayerAccuracy

FIELD_WORDS = "the field: the mean accuracy of every judged seat at that table size (this player's own included)"
HOW = "judged by digsite analyse, docs/judge.md; accuracy 100 is every move as good as the best the judge found"


def interval(mean: float, square: float, n: int) -> tuple[float, float] | None:
    """A 95 % interval of a mean of ``n`` values with mean ``mean`` and mean square ``square``; None under 2."""
    if n < 2:
        return None
    variance = max(0.0, square - mean * mean) * n / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(variance / n)
    return max(0.0, mean - half), min(100.0, mean + half)


def mean_text(mean: float, square: float, n: int, unit: str) -> str:
    """ "91.2 (88.0-94.4, n=12 games)"."""
    found = interval(mean, square, n)
    spread = f"{found[0]:.1f}-{found[1]:.1f}, " if found else ""
    return f"{mean:.1f} ({spread}n={n} {unit if n != 1 else unit.rstrip('s')})"


def _mean(values: Sequence[float]) -> tuple[float, float, int]:
    n = len(values)
    return sum(values) / n, sum(v * v for v in values) / n, n


def player_figure(games: Sequence[PlayerAccuracy], field: Mapping[int, MeanAccuracy], name: str) -> go.Figure:
    """The player's accuracy in each judged game (x: the nth, oldest first), and the field's at its table size."""
    xs = list(range(1, len(games) + 1))
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=[g["accuracy"] for g in games],
            customdata=[[g["n_players"], (g["ended_at"] or "")[:16].replace("T", " ")] for g in games],
            name=name,
            mode="lines+markers",
            line={"color": figures.COLOURS[0], "width": 2},
            hovertemplate="game %{x}, ended %{customdata[1]}: accuracy %{y:.1f} at a table of %{customdata[0]}"
            "<extra></extra>",
        )
    )
    at = [field.get(g["n_players"]) for g in games]
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=[f["accuracy"] if f else None for f in at],
            customdata=[[g["n_players"], f["n"] if f else 0] for g, f in zip(games, at, strict=True)],
            name="the field at that table size",
            mode="markers",
            marker={"symbol": "line-ew-open", "size": 16, "color": figures.FIELD, "line": {"width": 2}},
            hovertemplate="the field at a table of %{customdata[0]}: %{y:.1f} (n=%{customdata[1]} seats)"
            "<extra></extra>",
        )
    )
    figures._layout(fig, f"Accuracy in each judged game, {name} and the field", height=300)
    fig.update_xaxes(title_text="judged finished games, oldest first", dtick=1 if len(xs) <= 20 else None)
    fig.update_yaxes(title_text="accuracy (0-100)", range=[0, 103])
    return fig


def _sizes_table(games: Sequence[PlayerAccuracy], field: Mapping[int, MeanAccuracy], name: str) -> html.Table:
    head = html.Tr([html.Th("Table size"), html.Th(name), html.Th("The field")])
    rows = []
    for size in sorted({g["n_players"] for g in games}):
        mine = _mean([g["accuracy"] for g in games if g["n_players"] == size])
        theirs = field.get(size)
        rows.append(
            html.Tr(
                [
                    html.Td(str(size), className="num"),
                    html.Td(mean_text(*mine, "games"), className="num strong"),
                    html.Td(
                        mean_text(theirs["accuracy"], theirs["square"], theirs["n"], "seats") if theirs else "—",
                        className="num",
                    ),
                ]
            )
        )
    return html.Table([html.Thead(head), html.Tbody(rows)], className="grid compact", id="players-accuracy-table")


def player_card(data: Data, visitor: Visitor, kind: str, player: str, name: str, size: int | None, lazy: Lazy) -> Any:
    """The player page's accuracy card (at the table size chosen, if one is); its chart drawn when scrolled to, as
    the page's other charts (``lazy``: the page's ``dashboard.lazy_charts.Lazy``)."""
    games = [g for g in data.player_accuracy(visitor, kind, player) if size is None or g["n_players"] == size]
    if not games:
        return card("Accuracy", empty(f"No judged game of {name}'s yet ({HOW})."), id="players-accuracy")
    field = {int(f["key"]): f for f in data.field_accuracy(visitor, kind)}
    return card(
        "Accuracy",
        html.P(
            f"Each point is one judged finished game; the dashes are {FIELD_WORDS}. {HOW[0].upper()}{HOW[1:]}.",
            className="quiet small",
        ),
        lazy.chart("players-accuracy-graph", player_figure(games, field, name)),
        _sizes_table(games, field, name),
        html.P(
            "Means with a 95 % interval (Student's t: 12.7 standard errors at n=2, about 2 from n=30) and n.",
            className="quiet small",
        ),
        id="players-accuracy",
    )


def tournament_card(data: Data, visitor: Visitor, tournament_id: str, names: Mapping[str, str]) -> Any:
    """The tournament page's accuracy card: each player's mean accuracy over its judged games, best first."""
    rows = data.tournament_accuracy(visitor, tournament_id)
    if not rows:
        return card("Accuracy", empty(f"No game of this tournament is judged yet ({HOW})."), id="tournament-accuracy")
    ranked = sorted(rows, key=lambda r: (-r["accuracy"], names.get(str(r["key"]), "")))
    head = html.Tr([html.Th(h) for h in ("Player", "Mean accuracy", "95 % interval", "Games judged")])
    body = []
    for r in ranked:
        found = interval(r["accuracy"], r["square"], r["n"])
        body.append(
            html.Tr(
                [
                    html.Td(names.get(str(r["key"]), str(r["key"]))),
                    html.Td(f"{r['accuracy']:.1f}", className="num strong"),
                    html.Td(f"{found[0]:.1f}-{found[1]:.1f}" if found else "—", className="num"),
                    html.Td(str(r["n"]), className="num"),
                ]
            )
        )
    return card(
        "Accuracy",
        html.Div(
            html.Table([html.Thead(head), html.Tbody(body)], className="grid compact", id="tournament-accuracy-table"),
            className="table-scroll",
        ),
        html.P(
            f"Each player's mean accuracy over this tournament's finished games that are judged ({HOW}), with a 95 % "
            "interval where there are two games or more.",
            className="quiet small",
        ),
        id="tournament-accuracy",
    )
