"""Leaderboards: one per game, players by their conservative rating (mu - 3 sigma), with the 95 % band and the games
behind each rating (docs/judge.md, *Ratings*). A server-drawn page (no callback): the game is chosen by its link.

Ratings come from finished games only; the page is open to whoever may see players (``Data.leaderboard`` asks
``require_lists``: organisers, and spectators while spectator mode is on)."""

from __future__ import annotations

import dash
from dash import dcc, html

from dashboard.access import Visitor
from dashboard.components import card, empty
from dashboard.context import Context
from domain.games import GAMES

SHOWN = 100  # places drawn on the page (the API pages through all: GET /api/v1/leaderboards/{kind})


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, kind: str | None) -> html.Div:
    chosen = kind if kind in GAMES else next(iter(GAMES))
    title = GAMES[chosen].title
    entries, more = ctx.data.leaderboard(visitor, chosen, SHOWN)
    games = html.Div(
        [
            dcc.Link(
                g.title,
                href=app.get_relative_path(f"/leaderboards/{k}"),
                className="btn btn-small" + (" btn-primary" if k == chosen else ""),
                id=f"leaderboard-link-{k}",
            )
            for k, g in GAMES.items()
        ],
        className="filters",
    )
    if not entries:
        body: html.Div | html.P = empty(f"No rated {title} game yet: games are rated once they are over.")
    else:
        head = html.Tr([html.Th(h) for h in ("#", "Player", "Rating (mu)", "95 % band", "Conservative", "Games")])
        rows = [
            html.Tr(
                [
                    html.Td(str(e["rank"]), className="num"),
                    html.Td(
                        dcc.Link(e["name"], href=app.get_relative_path(f"/players?player={e['player']}&game={chosen}"))
                    ),
                    html.Td(f"{e['rating']['mu']:.1f}", className="num"),
                    html.Td(f"{e['rating']['low']:.1f}-{e['rating']['high']:.1f}", className="num quiet"),
                    html.Td(html.Strong(f"{e['rating']['ordinal']:.1f}"), className="num"),
                    html.Td(str(e["rating"]["games"]), className="num"),
                ]
            )
            for e in entries
        ]
        body = html.Div(
            html.Table([html.Thead(head), html.Tbody(rows)], className="grid compact", id="leaderboard-table"),
            className="table-scroll",
        )
    notes = [
        "Ordered by the conservative rating, mu - 3 sigma: a player with few games has a wide band and stands "
        "below one as good who has played more. Solo games and games in play are not rated."
    ]
    if more:
        notes.append(f" The first {SHOWN} places are shown.")
    return html.Div(
        [
            html.H2(f"{title} leaderboard"),
            card(None, games),
            card(None, body, html.P(notes, className="quiet chart-note")),
        ],
        id="leaderboard-page",
    )
