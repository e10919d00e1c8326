"""The judge's judgement of a finished game on its replay (docs/judge.md; ``Data.replay_judgement`` reads it).

Drawn once the first table shows (``dashboard.pages.replay``'s ``judgement`` callback, asked for with the VP chart):

- the **win-chance graph**: one line per seat, a point at each of its judged decisions, the judge's win chance of
  the move it played there (a click moves the replay to that move, as on the VP chart);
- each seat's **accuracy** and its marks (inaccuracy ?!, mistake ?, blunder ??: docs/judge.md's thresholds);
- the **notes** the page's script shows: a mark beside each marked move in the move list, and at the move shown,
  the move played and the best move found in the game's words (``dashboard.judged_moves``) with what each was
  worth (win chance, expected place, playouts) and the loss; "forced" where one move was legal.

The notes travel as JSON in a ``data-`` attribute; the script sets every text with ``textContent``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from dash import dcc, html

from dashboard import figures
from dashboard.components import GRAPH_CONFIG, card, data_attributes
from domain.judge import ROUNDS_AHEAD

SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
HEADING = "Win chance of the move each seat played, at each of its judged decisions (click to jump)"


def horizon(rounds_ahead: int | None = ROUNDS_AHEAD) -> str:
    """How far the judge's figures look: its playouts stop at a round's end (docs/judge.md, "A playout"), so before
    the last round a win chance of 100 % is a sure lead when the round ends, not a won game. Said beside every
    win chance the dashboard shows (here and on the fair-play page)."""
    if rounds_ahead is None:
        return "The judge plays each move out to the game's end: a win chance is the chance to win the game."
    until = "its round" if rounds_ahead == 1 else f"its round and the {rounds_ahead - 1} after it"
    return (
        f"The judge plays each move out to the end of {until} (or of the game, if sooner), not further: before the "
        "last round, a win chance is the chance to lead on points when that round ends (weighed by the margin) and "
        "an expected place the place then, so 100 % early in a game is a sure lead at that round's end, not a won "
        "game."
    )


CSS = """
.judge-card { padding: 0.4rem 0.8rem; }
.judge-card h3 { margin-bottom: 0.2rem; }
.judge-heading { font-weight: 600; margin: 0.8rem 0 0; }
.judge-seats td, .judge-seats th { text-align: right; }
.judge-seats td:first-child, .judge-seats th:first-child { text-align: left; }
.move-mark { font-weight: 700; margin-right: 0.3rem; }
.mark-inaccuracy { color: #b7791f; }
.mark-mistake { color: #c05621; }
.mark-blunder { color: #a4161a; }
.judged-move { font-size: 0.8rem; line-height: 1.35; }
.judged-move p { margin: 0.15rem 0; }
.judged-move .judged-what { font-weight: 600; }
.judged-move .judged-worth { color: var(--quiet); margin-left: 0.8rem; }
"""


def _percent(x: float | None) -> str:
    return "?" if x is None else f"{100 * x:.0f} %"


def _estimate(estimate: Mapping[str, Any] | None) -> str:
    """What a move was worth, in words."""
    if not estimate:
        return ""
    return (
        f"win chance {_percent(estimate['win'])}, expected place {estimate['place']:.2f} "
        f"({estimate['playouts']} playouts)"
    )


def note(move: Mapping[str, Any], names: Sequence[str], words: Mapping[str, str] | None) -> dict[str, Any]:
    """What the replay says at one decision: its mark (sign and name) and its lines."""
    who = names[move["seat"]] if 0 <= move["seat"] < len(names) else f"Seat {move['seat'] + 1}"
    if not move["judged"]:
        if move["legal"] <= 1:
            return {"mark": None, "lines": [f"{who}'s move was forced (one legal move): not judged."]}
        return {"mark": None, "lines": [f"{who}'s move was not judged (another seat's secret choice was pending)."]}
    words = words or {}
    played, best = words.get("played", "the move played"), words.get("best", "the move played")
    mark = move.get("mark")
    lines = [f"{who} played: {played}", f"Worth: {_estimate(move['played_estimate'])}."]
    if move["best"] == move["played"] or not move["loss"]:
        lines.append("The best move found: the move played (no move found was clearly better).")
    else:
        lines += [f"The best move found: {best}", f"Worth: {_estimate(move['best_estimate'])}."]
    loss = f"Loss {move['loss']:.1f} points of expected result, move accuracy {move['accuracy']:.0f}"
    lines.append(loss + (f": {mark} {SIGNS[mark]}." if mark in SIGNS else "."))
    return {"mark": mark, "sign": SIGNS.get(mark or ""), "lines": lines}


def notes(
    analysis: Mapping[str, Any], names: Sequence[str], words: Mapping[int, Mapping[str, str]]
) -> dict[str, dict[str, Any]]:
    """Every decision's note, by the step (the record's version) the replay shows it at."""
    return {str(m["version"]): note(m, names, words.get(int(m["version"]))) for m in analysis["moves"]}


def win_chance(analysis: Mapping[str, Any], names: Sequence[str], move: int) -> go.Figure:
    """One line per seat: at each of its judged decisions (x: the step), the win chance of the move it played."""
    fig = go.Figure()
    for seat, name in enumerate(names):
        mine = [m for m in analysis["moves"] if m["seat"] == seat and m["judged"] and m["played_estimate"]]
        if not mine:
            continue
        fig.add_trace(
            go.Scatter(
                x=[m["version"] for m in mine],
                y=[100 * m["played_estimate"]["win"] for m in mine],
                customdata=[SIGNS.get(m["mark"] or "", "") for m in mine],
                name=name,
                mode="lines+markers",
                marker={"size": [9 if m["mark"] else 4 for m in mine]},
                line={"width": 1.5, "color": figures.COLOURS[seat % len(figures.COLOURS)]},
                hovertemplate=f"{name}: %{{y:.0f}} % win chance at step %{{x}} %{{customdata}}<extra></extra>",
            )
        )
    # (the heading is the card's text above the chart, not Plotly's title: it wraps on a phone)
    figures._layout(fig, "", height=280, shapes=[figures.cursor_shape(move)])
    fig.update_xaxes(title_text="step (the setup, then one per move)")
    fig.update_yaxes(title_text="win chance", range=[-3, 103], **figures.PERCENT_TICKS)
    fig.update_layout(
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.25, "yanchor": "top"},
        margin={"l": 55, "r": 10, "t": 15, "b": 40},
    )
    return fig


def seats_table(analysis: Mapping[str, Any], names: Sequence[str]) -> html.Table:
    """Each seat's accuracy in this game and the count of each mark."""
    head = ["Seat", "Accuracy", "Judged moves", "Inaccuracies ?!", "Mistakes ?", "Blunders ??"]
    rows = []
    for seat in analysis["seats"]:
        name = names[seat["seat"]] if seat["seat"] < len(names) else f"Seat {seat['seat'] + 1}"
        accuracy = "—" if seat["accuracy"] is None else f"{seat['accuracy']:.1f}"
        counts = (seat["judged"], seat["inaccuracies"], seat["mistakes"], seat["blunders"])
        rows.append(html.Tr([html.Td(name), html.Td(accuracy), *(html.Td(str(c)) for c in counts)]))
    return html.Table(
        [html.Thead(html.Tr([html.Th(h) for h in head])), html.Tbody(rows)],
        className="grid compact judge-seats",
        id="replay-judge-seats",
    )


def section(found: Mapping[str, Any] | None, move: int) -> list[Any]:
    """The judgement's card for the replay (``Data.replay_judgement``'s answer), or nothing: a game in play is never
    judged, and a finished game not judged yet says so in a line."""
    if found is None:
        return []
    analysis, names = found.get("analysis"), found["names"]
    if analysis is None:
        return [html.P("This game has not been judged yet (digsite analyse judges it).", className="quiet small")]
    playouts = sorted({m["played_estimate"]["playouts"] for m in analysis["moves"] if m["played_estimate"]})
    told = "/".join(str(p) for p in playouts) or "no"
    return [
        card(
            "How well each move was played",
            html.P(
                f"The judge's estimate from each mover's information, {told} playouts a move played (budget "
                f"{analysis['budget']}, judge version {analysis['judge_version']}); forced moves are not judged. "
                "Accuracy 100 is every move as good as the best found; marks: inaccuracy ?! (a loss of 5 points "
                "of expected result or more), mistake ? (10), blunder ?? (20).",
                className="quiet small",
            ),
            html.Div(seats_table(analysis, names), className="table-scroll"),  # (a phone: it scrolls in its card)
            html.P(HEADING, className="judge-heading", id="replay-judge-heading"),
            html.P(horizon(), className="quiet small", id="replay-judge-horizon"),
            dcc.Graph(id="replay-judge-graph", figure=win_chance(analysis, names, move), config=GRAPH_CONFIG),
            html.Div(
                id="replay-judge-data",
                hidden=True,
                **data_attributes({"data-notes": json.dumps(notes(analysis, names, found["words"]))}),
            ),
            className="judge-card",
        )
    ]
