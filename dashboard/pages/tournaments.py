"""Tournaments: the list, and one tournament's standings after any round, its cross table and a CSV download.

The standings come from the games' results alone
(``service.reading.standings``: places and points as every game's engine
reports them), so any game's tournament ranks the same way; the page states the points rule and the tie breaks it
used. An organiser's standings count every finished game and show games in play in the cross table; anyone else
sees finished games only (``Data`` decides, for the visitor)."""

from __future__ import annotations

from typing import Any

import dash
from dash import Input, Output, State, dcc, html

from dashboard import accuracy, ratings
from dashboard.access import Visitor
from dashboard.components import card, dropdown, empty, field
from dashboard.context import Context
from dashboard.format import DASH, number, ordinal, when
from dashboard.pages import new_tournament
from dashboard.pages.broadcast import delay_text
from domain.games import GAMES
from service.reading.results import CrossTableCell, Standing, Standings
from service.reading.standings import PointsTableError


def list_layout(app: dash.Dash, ctx: Context, visitor: Visitor) -> html.Div:
    rows = ctx.data.tournaments(visitor)
    form = new_tournament.form_card() if visitor.organiser else None  # (its callback refuses anyone else too)
    if not rows:
        return html.Div([html.H2("Tournaments"), form, empty("No tournaments yet.")], id="tournaments-list")
    body = [
        html.Tr(
            [
                html.Td(dcc.Link(t["name"], href=app.get_relative_path(f"/tournaments/{t['tournament_id']}"))),
                html.Td(GAMES[t["game"]].title if t["game"] in GAMES else str(t["game"])),
                html.Td(str(t["rounds"]), className="num"),
                html.Td(str(t["games"]), className="num"),
                html.Td(when(t["created_at"])),
            ]
        )
        for t in rows
    ]
    head = html.Tr([html.Th(h) for h in ("Tournament", "Game", "Rounds", "Games", "Created")])
    return html.Div(
        [
            html.H2("Tournaments"),
            form,
            # On a phone the table scrolls within its card, not the page (its columns need some 440 px).
            card(
                None,
                html.Div(html.Table([html.Thead(head), html.Tbody(body)], className="grid"), className="table-scroll"),
            ),
        ],
        id="tournaments-list",
    )


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, tournament_id: str, params: dict[str, str]) -> html.Div:
    found = ctx.data.tournament(visitor, tournament_id)  # Denied / ServiceError: the router says so
    game = GAMES.get(str(found["game"]))
    return html.Div(
        [
            html.H2(found["name"]),
            html.P(
                [
                    f"{game.title if game else found['game']} · {found['rounds']} rounds planned",
                    # (the rounds page, for organisers only: its seat links are the seats' keys)
                    _rounds_link(app, tournament_id) if visitor.organiser else None,
                    # (the fair-play report, for organisers only: it names players whose play looks unusual)
                    _fair_play_link(app, tournament_id) if visitor.organiser else None,
                ],
                className="quiet",
            ),
            card(
                None,
                html.Div(
                    [
                        field(
                            "Points by place",
                            dcc.Input(
                                id="standings-points",
                                type="text",
                                value=params.get("points", ""),
                                placeholder="default: N-1 … 0",
                                debounce=True,
                                className="text-input",
                            ),
                            "14rem",
                        ),
                        field("Standings after", dropdown("standings-round", [], None, placeholder="the last round")),
                        html.Div(
                            [
                                html.Button("Download CSV", id="standings-csv-button", className="btn"),
                                dcc.Download(id="standings-csv"),
                            ],
                            className="field",
                        ),
                    ],
                    className="filters",
                ),
            ),
            _followed(app, ctx.data.broadcast_games(visitor, tournament_id)),
            dcc.Store(id="standings-tournament", data=tournament_id),
            html.Div(id="standings-body"),
            ratings.tournament_card(ctx, visitor, found["tournament_id"]),
        ],
        id="tournament-page",
    )


def _followed(app: dash.Dash, broadcast: dict[str, Any]) -> Any:
    """The games in play spectators may follow (``/broadcast/<game>``), while the tournament broadcasts them."""
    if broadcast["delay"] is None or not broadcast["games"]:
        return None
    links = [
        html.Li(dcc.Link(" vs ".join(g["names"]), href=app.get_relative_path(f"/broadcast/{g['game_id']}")))
        for g in broadcast["games"]
    ]
    return card(f"Follow a game in play ({delay_text(broadcast['delay'])})", html.Ul(links), id="tournament-broadcasts")


def _rounds_link(app: dash.Dash, tournament_id: str) -> html.Span:
    href = app.get_relative_path(f"/tournaments/{tournament_id}/rounds")
    return html.Span([" · ", dcc.Link("Rounds and seat links", href=href, id="tournament-rounds-link")])


def _fair_play_link(app: dash.Dash, tournament_id: str) -> html.Span:
    href = app.get_relative_path(f"/tournaments/{tournament_id}/fair-play")
    return html.Span([" · ", dcc.Link("Fair play", href=href, id="tournament-fair-play-link")])


def register(app: dash.Dash, ctx: Context) -> None:
    new_tournament.register(app, ctx)

    @app.callback(
        Output("standings-body", "children"),
        Output("standings-round", "options"),
        Input("standings-tournament", "data"),
        Input("standings-points", "value"),
        Input("standings-round", "value"),
    )
    def show(tournament_id: str, points: str | None, after: int | None) -> tuple[Any, Any]:
        visitor = ctx.visitor()
        try:
            answer = ctx.data.standings(visitor, tournament_id, points)
        except PointsTableError as error:
            return empty(f"Points by place: {error}.", id="standings-error"), dash.no_update
        rounds: list[int] = answer["rounds"]
        options = [{"label": f"round {r}", "value": r} for r in rounds]
        if not answer["standings"]:
            return empty("No games in this tournament yet."), options
        lines = answer["after_round"][str(after)] if after in rounds else answer["standings"]
        title = f"Standings after round {after}" if after in rounds else "Standings"
        return [
            card(
                title,
                _standings_table(lines),
                html.P(
                    f"Points: {answer['points_rule']}. Ties are broken by {', then '.join(answer['tie_breaks'][1:])}; "
                    "players equal on all of them share the rank.",
                    className="quiet",
                    id="standings-rules",
                ),
            ),
            card("Round by round", _cross_table(app, answer)),
            accuracy.tournament_card(ctx.data, visitor, tournament_id, _names(answer)),
            *([card("Rulings", _rulings(answer))] if answer["rulings"] else []),
        ], options

    @app.callback(
        Output("standings-csv", "data"),
        Input("standings-csv-button", "n_clicks"),
        State("standings-tournament", "data"),
        State("standings-points", "value"),
        prevent_initial_call=True,
    )
    def download(_: int | None, tournament_id: str, points: str | None) -> Any:
        visitor = ctx.visitor()
        try:
            text = ctx.data.standings_csv(visitor, tournament_id, points)
        except PointsTableError:
            return dash.no_update
        return {"content": text, "filename": f"standings-{tournament_id[:8]}.csv", "type": "text/csv"}


def _names(answer: Standings) -> dict[str, str]:
    """The tournament's players' names by id, from its standings."""
    return {str(line["player_id"]): line["name"] for line in answer["standings"]}


def _standings_table(lines: list[Standing]) -> html.Div:
    head = html.Tr([html.Th(h) for h in ("#", "Player", "Games", "Wins", "Points", "Game points", "Average place")])
    body = [
        html.Tr(
            [
                html.Td(str(line["rank"]), className="num"),
                html.Td(line["name"]),
                html.Td(str(line["games"]), className="num"),
                html.Td(str(line["wins"]), className="num"),
                html.Td([html.Strong(str(line["points"])), *_penalty(line["penalty"])], className="num"),
                html.Td(str(line["score"]), className="num"),
                html.Td(number(line["average_place"], 2), className="num"),
            ]
        )
        for line in lines
    ]
    return html.Div(
        html.Table([html.Thead(head), html.Tbody(body)], className="grid compact", id="standings-table"),
        className="table-scroll",
    )


def _penalty(points: int) -> list[Any]:
    """Beside a player's points, what the organiser's penalties took off them (the reason: under Rulings): the
    points no longer add up to the places without it."""
    return [html.Span(f" ({points} off: penalty)", className="quiet small penalty")] if points else []


def _rulings(answer: Standings) -> html.Ul:
    """The organiser's rulings the standings apply, each with its reason (service.reading.standings.Rulings)."""
    return html.Ul([html.Li(f"{r['at'][:16].replace('T', ' ')}: {r['note']}") for r in answer["rulings"]],
                   id="standings-rulings")  # fmt: skip


def _cross_table(app: dash.Dash, answer: Standings) -> html.Div:
    rounds: list[int] = answer["rounds"]
    head = html.Tr([html.Th("Player"), *(html.Th(f"Round {r}") for r in rounds), html.Th("Points")])
    body = []
    for line in answer["cross_table"]:
        cells = []
        for r in rounds:
            games = line["rounds"].get(str(r), [])
            cells.append(html.Td([_cell(app, g) for g in games] or DASH, className="cross-cell"))
        standing = next((s for s in answer["standings"] if s["player_id"] == line["player_id"]), None)
        points, penalty = (standing["points"], standing["penalty"]) if standing else (0, 0)
        body.append(
            html.Tr([html.Td(line["name"]), *cells, html.Td([str(points), *_penalty(penalty)], className="num")])
        )
    return html.Div(
        html.Table([html.Thead(head), html.Tbody(body)], className="grid compact cross", id="standings-cross"),
        className="table-scroll",
    )


def _cell(app: dash.Dash, game: CrossTableCell) -> dcc.Link:
    href = app.get_relative_path(f"/replay/{game['game_id']}")
    place = game["place"]
    if game["ruling"] is not None and not game["finished"]:  # (annulled, or restarted as another game)
        return dcc.Link("annulled", href=href, className="cross-game in-play", title=game["ruling"])
    if not game["finished"] or place is None:  # (a finished game has its places: service.reading.standings)
        return dcc.Link("in play", href=href, className="cross-game in-play")
    text = f"{ordinal(place)}/{game['n_players']} · +{game['points']}"
    score = f" ({game['score']})" if game["score"] is not None else ""
    return dcc.Link(text + score, href=href, className="cross-game", title="open the replay")
