"""Skill ratings on the pages: a player's rating with its 95 % band over time, and a tournament's rating change per
player (docs/judge.md, *Ratings*). Kept apart from the pages' other cards: each page calls the functions here.

Every figure is computed from finished games only (a game is rated once it is over), read through ``Data``, which
asks the visitor's door first (``require_lists``: organisers, and spectators while spectator mode is on)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from dash import html

from dashboard.access import Visitor
from dashboard.components import card, chart
from dashboard.context import Context
from dashboard.figures import COLOURS, styled
from dashboard.format import ordinal, when
from dashboard.lazy_charts import Lazy
from service.reading.results import RatingChange, RatingFigures

BAND_FILL = "rgba(47, 109, 181, 0.18)"  # the estimate's colour (COLOURS[0]), light: the band behind its line
EXPLAINED = (
    "The line is the rating's estimate (mu) after each rated game; the shaded band is its 95 % interval "
    "(mu ± 1.96 sigma), wide while few games are behind it. Leaderboards order by mu - 3 sigma."
)


def games_text(games: int) -> str:
    return f"{games} game{'s' if games != 1 else ''}"


def band_text(rating: Mapping[str, Any]) -> str:
    """A rating as people should read it: "27.4 (95 %: 21.0-33.8, 12 games)"."""
    return f"{rating['mu']:.1f} (95 %: {rating['low']:.1f}-{rating['high']:.1f}, {games_text(int(rating['games']))})"


def rating_over_time(history: Sequence[RatingChange], title: str) -> go.Figure:
    """The rating after each rated game, with its 95 % band shaded, from the rating before the first game (x: the
    player's rated games so far, in the order they finished; when each finished is in its hover). Games by the
    number, not by the clock: a day of play and a month without are drawn alike, and bots' games of one second
    do not pile up on one point."""
    points: list[tuple[str, RatingFigures]] = [("before the first rated game", history[0]["before"])] if history else []
    points += [
        (f"game {c['after']['games']}, {ordinal(c['place'])} place, finished {when(c['ended_at'])}", c["after"])
        for c in history
    ]
    x = list(range(len(points)))
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=x, y=[p[1]["high"] for p in points], mode="lines", line={"width": 0}, hoverinfo="skip",
                   showlegend=False)
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=x,
            y=[p[1]["low"] for p in points],
            mode="lines",
            line={"width": 0},
            fill="tonexty",
            fillcolor=BAND_FILL,
            name="95 % band",
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=[p[1]["mu"] for p in points],
            mode="lines+markers",
            marker={"size": 6},
            line={"color": COLOURS[0]},
            name="rating (mu)",
            customdata=[[words, p["low"], p["high"]] for words, p in points],
            hovertemplate="%{customdata[0]}<br>mu %{y:.1f} (95 %: %{customdata[1]:.1f}-%{customdata[2]:.1f})"
            "<extra></extra>",
        )
    )
    styled(fig, title)
    fig.update_yaxes(title_text="rating")
    fig.update_xaxes(title_text="rated games played", tickformat="d", rangemode="tozero")
    if len(points) <= 12:
        fig.update_xaxes(dtick=1)
    return fig


def player_summary(history: Sequence[RatingChange], name: str, title: str) -> html.P:
    """The player's rating now, in words: on the page's first screen, which draws no Plotly chart."""
    if not history:
        words = f"{name} has no rated {title} game yet (solo games and games in play are not rated)."
        return html.P(words, className="quiet", id="players-rating")
    now = history[-1]["after"]
    return html.P(
        [
            f"{title} rating: ",
            html.Strong(band_text(now)),
            f"; conservative rating (mu - 3 sigma) {now['ordinal']:.1f}. Game by game below.",
        ],
        id="players-rating",
    )


def player_chart(lazy: Lazy, history: Sequence[RatingChange], name: str, title: str) -> html.Section | None:
    """The player's rating game by game with its band, drawn when scrolled to (``lazy_charts``: the chart sits
    below the first screen, which loads no plotly.js); None without a rated game."""
    if not history:
        return None
    return card(
        "Rating, game by game",
        lazy.chart("players-rating-chart", rating_over_time(history, f"{name}'s {title} rating")),
        html.P(EXPLAINED, className="quiet chart-note"),
        id="players-rating-card",
    )


def short_band(rating: Mapping[str, Any]) -> str:
    """A rating and its 95 % band, for a table's cell: "27.4 (21.0-33.8)"."""
    return f"{rating['mu']:.1f} ({rating['low']:.1f}-{rating['high']:.1f})"


def tournament_lines(changes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per player, the rating change over the tournament's games: their games, the sum of each game's change of mu
    (games elsewhere in between are not the tournament's), and their rating after their last game of it; the
    largest gain first."""
    by_player: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for change in changes:
        by_player[change["player"]].append(change)
    lines = []
    for player, made in by_player.items():
        lines.append(
            {
                "player": player,
                "name": made[0]["name"],
                "games": len(made),
                "change": sum(c["after"]["mu"] - c["before"]["mu"] for c in made),
                "first": made[0]["before"],
                "last": made[-1]["after"],
            }
        )
    return sorted(lines, key=lambda line: (-line["change"], line["name"], line["player"]))


def tournament_chart(lines: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Each player's change of rating over the tournament's games, as bars (gains one colour, losses another)."""
    ordered = list(reversed(lines))  # (the largest gain at the top of a horizontal bar chart)
    fig = go.Figure(
        go.Bar(
            x=[line["change"] for line in ordered],
            y=[line["name"] for line in ordered],
            orientation="h",
            marker={"color": [COLOURS[0] if line["change"] >= 0 else COLOURS[1] for line in ordered]},
            text=[f"{line['change']:+.1f}" for line in ordered],  # (short: a phone's chart is narrow)
            customdata=[games_text(line["games"]) for line in ordered],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}: %{x:+.2f} over %{customdata}<extra></extra>",
        )
    )
    styled(fig, "Change of rating (mu)", height=110 + 34 * len(ordered))
    fig.update_layout(margin={"t": 40})  # (no legend above)
    # Room beyond the longest bars for their words, on either side (a loss's words would cover the names).
    low = min(0.0, *(line["change"] for line in ordered))
    high = max(0.0, *(line["change"] for line in ordered))
    pad = 0.35 * ((high - low) or 1.0)
    fig.update_xaxes(
        title_text="change of mu",
        zeroline=True,
        zerolinecolor="#889",
        range=[low - pad if low < 0 else 0, high + pad if high > 0 else 0],
    )
    fig.update_yaxes(type="category", automargin=True)
    return fig


def tournament_card(ctx: Context, visitor: Visitor, tournament_id: str) -> html.Section:
    """The tournament's rating change per player, over its finished games."""
    lines = tournament_lines(ctx.data.tournament_ratings(visitor, tournament_id))
    if not lines:
        words = "No rated game in this tournament yet: games are rated once they are over (solo games never)."
        return card("Ratings", html.P(words, className="empty"), id="tournament-ratings")
    head = html.Tr([html.Th(h) for h in ("Player", "Games", "Change of mu", "Before (95 %)", "After (95 %)")])
    body = [
        html.Tr(
            [
                html.Td(line["name"]),
                html.Td(str(line["games"]), className="num"),
                html.Td(html.Strong(f"{line['change']:+.1f}"), className="num"),
                html.Td(short_band(line["first"]), className="num"),
                html.Td(short_band(line["last"]), className="num"),
            ]
        )
        for line in lines
    ]
    return card(
        "Ratings",
        chart("tournament-ratings-chart", tournament_chart(lines)),
        html.Div(
            html.Table([html.Thead(head), html.Tbody(body)], className="grid compact", id="tournament-ratings-table"),
            className="table-scroll",
        ),
        html.P(
            "Each game's change of the player's rating (mu), summed over the tournament's finished games; before: "
            "the rating before their first game of it, after: after their last, each with its 95 % band.",
            className="quiet chart-note",
        ),
        id="tournament-ratings",
    )
