"""A tournament's fair-play report (organisers only): per signal, the players and pairs ranked by score, flags
marked, each with its figures and the moves behind it; each move a link into the replay at that move (its version)
from the mover's seat, with the judge's figures for it: the loss, and every seat's expected result after the move
played, after the best found and over the mover's options on average (docs/fair_play.md, docs/dashboard.md).

Everything goes through ``Data.fair_play``, which refuses anyone but an organiser, for the page and for its one
callback alike; the report is the one the API and the CLI give (``service.reading.fair_play``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import dash
from dash import Input, Output, State, dcc, html

from dashboard.access import Visitor
from dashboard.components import card, dropdown, empty, field
from dashboard.context import Context
from dashboard.replay_judgement import horizon
from service.analysis.fair_play.findings import by_chance
from service.analysis.fair_play.signals import figure_words, none_found
from service.reading.fair_play import Gathered, MoveFigures
from service.reading.results import FairPlay, FairPlayFinding, FairPlayMove

SIGNAL_NAMES = {"gifts": "Gifts", "soft_play": "Soft play", "kingmaking": "Kingmaking", "bot_like": "Bot-like play"}
# An ordered pair's subject: the one who gave (made the king), then the one who gained.
JOINS = {"gifts": " → ", "kingmaking": " → ", "soft_play": " & "}
SHOWN_MOVES = 10  # the weightiest moves listed under a finding (the API answers them all)
# The findings of a signal whose moves are listed: the LISTED highest, and every flagged one (the API and
# `digsite fair-play --json` give every finding's). SPEED: at 12 players, every finding's moves made the page 13.6 MB
# of JSON and 3.0 CPU s to build and encode (342 findings); so, 1.1 MB and 0.13 s (docs/performance.md, section 47).
LISTED = 5


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, tournament_id: str) -> html.Div:
    shown, gathered = ctx.data.fair_play(visitor, tournament_id)  # Denied / ServiceError: the router says so
    found = ctx.data.tournament(visitor, tournament_id)
    tid = shown["tournament_id"]
    signals = [{"label": SIGNAL_NAMES.get(s, s), "value": s} for s in shown["signals"]]
    return html.Div(
        [
            html.H2(f"{found['name']}: fair play"),
            html.P(dcc.Link("Standings", href=app.get_relative_path(f"/tournaments/{tid}")), className="quiet"),
            html.P(_coverage(shown), id="fair-play-coverage", className="quiet"),
            html.P(
                "Each score measures how far a player's or a pair's play lies from the field's, in the judge's "
                "expected results: something to look into, never a verdict. Flagged: at or above the signal's "
                "threshold. Under each finding, the moves behind it: each seat's expected result (0 to 100 %) after "
                "the move played, after the best move the judge found, and over the mover's options on average, "
                "and its chance to win after the move played; a move's link opens the replay just after it, from "
                "the mover's seat. " + horizon(),
                className="quiet",
                id="fair-play-about",
            ),
            card(
                None,
                html.Div(
                    [
                        field("Signal", dropdown("fair-play-signal", signals, None, placeholder="every signal")),
                        field(
                            "",
                            dcc.Checklist(
                                id="fair-play-flagged", options=[{"label": " flagged only", "value": "flagged"}]
                            ),
                        ),
                    ],
                    className="filters",
                ),
            ),
            dcc.Store(id="fair-play-tournament", data=tid),
            html.Div(_body(app, ctx, visitor, shown, gathered, None, False), id="fair-play-body"),
        ],
        id="fair-play-page",
    )


def _coverage(shown: FairPlay) -> str:
    judged, finished = shown["judged_games"], shown["finished_games"]
    said = f"{judged} of {finished} finished games judged · {shown['decisions']} decisions read"
    if shown["unjudged_games"]:
        said += f" · to judge the others, run `digsite analyse --tournament {shown['tournament_id']}`"
    return said


def _body(
    app: dash.Dash,
    ctx: Context,
    visitor: Visitor,
    shown: FairPlay,
    gathered: Gathered,
    signal: str | None,
    flagged_only: bool,
    listed: int = LISTED,
) -> list[Any]:
    findings = {s: [f for f in fs if f["flagged"] or not flagged_only] for s, fs in shown["signals"].items()}
    ids = {p for fs in findings.values() for f in fs for p in f["subject"]}
    ids |= {m["player"] for fs in findings.values() for f in fs for m in f["moves"]}
    ids |= {p for figures in gathered.moves.values() for p in figures.players}
    names = {str(p["player_id"]): str(p["name"]) for p in ctx.data.players(visitor, sorted(ids))} if ids else {}
    parts = []
    for name, found in findings.items():
        if signal and name != signal:
            continue
        threshold = shown["thresholds"].get(name)
        title = SIGNAL_NAMES.get(name, name) + (f" (flagged at {threshold:g} or more)" if threshold is not None else "")
        said = none_found(shown["decisions"], flagged_only)
        content = _ranked(app, name, found, gathered, names, listed) if found else empty(said)
        scored = len(shown["signals"][name])
        chance = [] if threshold is None or not scored else [html.P(_by_chance(threshold, scored), className="quiet")]
        parts.append(card(title, *chance, content, id=f"fair-play-{name}"))
    return parts


def _by_chance(threshold: float, scored: int) -> str:
    """How many flags chance alone would give: the scores are z-scores, so on an honest field about this many of
    the subjects scored reach the threshold (before the rule that the pattern repeat in two games)."""
    expected = by_chance(threshold, scored)
    return (
        f"{scored} scored. On a field with no cheat, about {expected:.1f} of {scored} would reach {threshold:g} by "
        "chance (the scores are z-scores), before the rule that the pattern show in two games: a flag is a lead."
    )


def _ranked(
    app: dash.Dash,
    signal: str,
    findings: Sequence[FairPlayFinding],
    gathered: Gathered,
    names: Mapping[str, str],
    listed: int = LISTED,
) -> html.Div:
    rows = []
    for rank, found in enumerate(findings, 1):
        subject = JOINS.get(signal, " & ").join(names.get(p, p) for p in found["subject"])
        figures = figure_words(signal, found["figures"])
        rows.append(
            html.Tr(
                [
                    html.Td(str(rank), className="num"),
                    html.Td(subject),
                    html.Td(f"{found['score']:.3f}", className="num"),
                    html.Td("flagged" if found["flagged"] else "", className="flag" if found["flagged"] else ""),
                    html.Td(str(found["games"]), className="num"),
                    html.Td(str(found["decisions"]), className="num"),
                    html.Td(figures),
                ],
                className="flagged" if found["flagged"] else None,
            )
        )
    head = html.Tr([html.Th(h) for h in ("#", "Player or pair", "Score", "Flag", "Games", "Moves", "Figures")])
    table = html.Div(html.Table([html.Thead(head), html.Tbody(rows)], className="grid"), className="table-scroll")
    behind: list[Any] = [
        html.Details(
            [
                html.Summary(
                    f"#{rank} {JOINS.get(signal, ' & ').join(names.get(p, p) for p in found['subject'])}: "
                    f"{min(len(found['moves']), SHOWN_MOVES)} of {len(found['moves'])} moves behind it"
                ),
                *(
                    _move(app, m, gathered.moves.get((m["game_id"], m["version"])), names)
                    for m in found["moves"][:SHOWN_MOVES]
                ),
            ],
            className="fair-play-moves",
        )
        for rank, found in enumerate(findings, 1)
        if found["moves"] and (found["flagged"] or rank <= listed)
    ]
    rest = sum(1 for rank, found in enumerate(findings, 1) if found["moves"] and not found["flagged"] and rank > listed)
    if rest:
        behind.append(
            html.P(
                f"Listed here: the moves behind the {listed} highest and every flagged finding. The moves behind the "
                f"{rest} other(s) are in the report the API and `digsite fair-play --json` give.",
                className="quiet",
            )
        )
    return html.Div([table, *behind])


def _move(app: dash.Dash, move: FairPlayMove, figures: MoveFigures | None, names: Mapping[str, str]) -> html.Div:
    """One move behind a finding: a link into the replay just after it, from the mover's seat, and the judge's
    figures for every seat (the mover's row marked)."""
    href = app.get_relative_path(f"/replay/{move['game_id']}?v={move['version']}&seat={move['seat']}")
    who = names.get(move["player"], move["player"])
    link = dcc.Link(
        f"Game {move['game_id'][:8]} · move {move['index'] + 1} · {who} (seat {move['seat'] + 1})",
        href=href,
        className="fair-play-move-link",
    )
    if figures is None:
        return html.Div([link, html.Span(f" · weight {move['amount']:g}")], className="fair-play-move")
    head = html.Tr([html.Th(h) for h in ("Seat", "Played", "Best found", "Options", "Win chance")])
    rows = []
    for seat, player in enumerate(figures.players):
        values = [figures.played["values"], figures.best["values"], figures.options["values"]]
        cells = [_percent(v, seat) for v in values]
        rows.append(
            html.Tr(
                [
                    html.Td(f"{seat + 1}. {names.get(player, player)}" + (" (mover)" if seat == figures.seat else "")),
                    *(html.Td(c, className="num") for c in cells),
                    html.Td(_percent(figures.played["wins"], seat), className="num"),
                ],
                className="mover" if seat == figures.seat else None,
            )
        )
    return html.Div(
        [
            html.P([link, html.Span(f" · loss {figures.loss:.1f} points · weight {move['amount']:g}")]),
            html.Div(
                html.Table([html.Thead(head), html.Tbody(rows)], className="grid compact"), className="table-scroll"
            ),
        ],
        className="fair-play-move",
    )


def _percent(values: Sequence[float] | None, seat: int) -> str:
    """A seat's expected result (or win chance) as a percentage; a dash where the judge gave none."""
    if values is None or seat >= len(values):
        return "-"
    return f"{100 * values[seat]:.0f} %"


def register(app: dash.Dash, ctx: Context) -> None:
    @app.callback(
        Output("fair-play-body", "children"),
        Input("fair-play-signal", "value"),
        Input("fair-play-flagged", "value"),
        State("fair-play-tournament", "data"),
        prevent_initial_call=True,  # (the page is drawn with every signal shown)
    )
    def filter_findings(signal: str | None, flagged: list[str] | None, tournament_id: str) -> list[Any]:
        """The findings again, of one signal or all, flagged ones only or all (organisers only: ``Data``)."""
        visitor = ctx.visitor()
        shown, gathered = ctx.data.fair_play(visitor, str(tournament_id))
        return _body(app, ctx, visitor, shown, gathered, signal, bool(flagged))
