"""The games browser: filter by kind, tournament, round, player, outcome and date; open a game's replay.

An organiser sees every game; anyone else finished games only (``Data.games`` decides, for the visitor).
The filters live in the address (``?kind=&tournament=&round=&player=&status=&winner=&from=&to=``): a copied
address or the back button from a replay brings the same list back."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import dash
from dash import ClientsideFunction, Input, Output, State, dcc, html
from dash import ctx as callback_context

from dashboard import player_search
from dashboard.access import Visitor
from dashboard.components import card, data_attributes, dropdown, empty, field
from dashboard.context import Context
from dashboard.format import DASH, STATUS, number, ordinal, tournament_label, when
from dashboard.games import renderer
from domain.games import GAMES
from service.reading.results import GameRow, TournamentListed

PAGE_SIZE = 25
IDLE_MINUTES = 10  # a game in play with no move for this long is flagged in an organiser's list, by default
FILTERS = ("games-kind", "games-tournament", "games-round", "games-player", "games-status", "games-winner")
# The address's name for each filter, in the order of FILTERS, then the dates. The browser writes them into the
# address as they change (``digsite.gamesAddress`` in dashboard/assets/callbacks.js names them the same way).
PARAMS = ("kind", "tournament", "round", "player", "status", "winner", "from", "to")


def _param(params: dict[str, str], name: str, allowed: Any = None) -> Any:
    """A filter's value from the address, if it is one the list offers (anything else: no filter)."""
    value = params.get(name)
    if value is None or allowed is None:
        return value
    return value if value in allowed else None


def _date(text: str | None) -> str | None:
    try:
        return date.fromisoformat(text).isoformat() if text else None
    except ValueError:
        return None


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, params: dict[str, str]) -> html.Div:
    tournaments = ctx.data.tournaments(visitor)
    # The players in the address only: the dropdowns find others as a name is typed (``player_search``).
    people = player_search.shown(ctx, visitor, (params.get("player"), params.get("winner")))
    statuses = STATUS if visitor.organiser else {"over": STATUS["over"]}
    round_text = params.get("round") or ""
    round_label = int(round_text) if round_text.isdigit() and len(round_text) < 6 else None
    player_ids = {o["value"] for o in people}
    return html.Div(
        [
            html.H2("Games"),
            *_seat_notes(app, ctx, visitor),
            card(
                None,
                html.Div(
                    [
                        field(
                            "Game",
                            dropdown(
                                "games-kind",
                                [{"label": k.title(), "value": k} for k in GAMES],
                                _param(params, "kind", GAMES),
                            ),
                            "9rem",
                        ),
                        field(
                            "Tournament",
                            dropdown(
                                "games-tournament",
                                [{"label": tournament_label(t), "value": t["tournament_id"]} for t in tournaments],
                                _param(params, "tournament", {t["tournament_id"] for t in tournaments}),
                            ),
                            "22rem",
                        ),
                        field(
                            "Tournament round",
                            dropdown("games-round", _round_options(tournaments, None), round_label),
                            "10rem",
                        ),
                        field(
                            "Player",
                            dropdown(
                                "games-player",
                                people,
                                _param(params, "player", player_ids),
                                placeholder=f"Any ({player_search.PROMPT.lower()})",
                            ),
                            "16rem",
                        ),
                        field(
                            "Status",
                            dropdown(
                                "games-status",
                                [{"label": v, "value": k} for k, v in statuses.items()],
                                _param(params, "status", statuses),
                            ),
                            "9rem",
                        ),
                        field(
                            "Winner",
                            dropdown(
                                "games-winner",
                                people,
                                _param(params, "winner", player_ids),
                                placeholder=f"Any ({player_search.PROMPT.lower()})",
                            ),
                            "16rem",
                        ),
                        field(
                            "Started between",
                            dcc.DatePickerRange(
                                id="games-dates",
                                display_format="YYYY-MM-DD",
                                start_date_placeholder_text="from",
                                end_date_placeholder_text="to",
                                clearable=True,
                                start_date=_date(params.get("from")),
                                end_date=_date(params.get("to")),
                            ),
                            "17rem",
                        ),
                    ],
                    className="filters",
                ),
            ),
            *_idle_limit(visitor, params),
            dcc.Store(id="games-offset", data=0),
            dcc.Store(id="games-search"),  # the address's query, as the filters last wrote it
            html.Div(id="games-results"),
            html.Div(
                [
                    html.Button("← Newer", id="games-prev", className="btn", disabled=True),
                    html.Span(id="games-page", className="quiet"),
                    html.Button("Older →", id="games-next", className="btn", disabled=True),
                ],
                className="pager",
            ),
        ]
    )


def _idle_limit(visitor: Visitor, params: dict[str, str]) -> list[Any]:
    """An organiser's limit for a quiet table (minutes; in the address as ``idle=``), applied in the page."""
    if not visitor.organiser:
        return []
    text = params.get("idle") or ""
    try:
        minutes = float(text) if text else IDLE_MINUTES
    except ValueError:
        minutes = IDLE_MINUTES
    return [
        html.Div(
            [
                html.Label("Flag games in play idle for", htmlFor="games-idle", className="field-label"),
                dcc.Input(
                    id="games-idle", type="number", min=1, step=1, value=minutes if minutes > 0 else IDLE_MINUTES
                ),
                html.Span(" minutes", className="quiet small"),
            ],
            className="idle-limit",
        )
    ]


def _status_cell(row: GameRow, live: dict[str, Any] | None) -> html.Td:
    status = STATUS.get(row["status"], row["status"])
    if live is None:
        return html.Td(status)
    acting = ", ".join(live["to_act"]) or DASH
    return html.Td(
        [
            status,
            html.Br(),
            html.Span(f"to act: {acting}", className="to-act small"),
            html.Span(f" · since {when(live['since'])}", className="quiet small"),
            html.Span(className="idle-flag small", hidden=True),
        ],
        className="live-status",
        **data_attributes({"data-since": str(live["since"])}),
    )


def _round_options(tournaments: list[TournamentListed], tournament: str | None) -> list[dict[str, Any]]:
    chosen = [t for t in tournaments if t["tournament_id"] == tournament] if tournament else tournaments
    most = max((int(t["rounds"]) for t in chosen), default=0)
    return [{"label": f"Round {r}", "value": r} for r in range(1, most + 1)]


def _seat_notes(app: dash.Dash, ctx: Context, visitor: Visitor) -> list[Any]:
    """For a player: a link back to each game in play whose seat their token opened."""
    notes = []
    for game in ctx.data.my_games(visitor):
        href = app.get_relative_path(f"/replay/{game['game_id']}?seat={game['seat']}")
        notes.append(
            html.P(
                [
                    f"Your seat {game['seat'] + 1} ({game['names'][game['seat']]}) in {' vs '.join(game['names'])}, "
                    "in play: ",
                    dcc.Link("watch it →", href=href, className="my-game"),
                    " or ",
                    dcc.Link(
                        "play it →", href=app.get_relative_path(f"/play/{game['game_id']}"), className="my-game-play"
                    ),
                ],
                className="notice-info",
            )
        )
    return notes


def my_games_page(app: dash.Dash, ctx: Context, visitor: Visitor) -> html.Div:
    """Spectator mode is off and the visitor holds seats: their own games, nothing else."""
    notes = _seat_notes(app, ctx, visitor)
    return html.Div(
        [html.H2("Your games"), *(notes or [empty("None of your games is in play any more.")])], id="my-games"
    )


def register(app: dash.Dash, ctx: Context) -> None:
    for picker in ("games-player", "games-winner"):
        player_search.register(app, ctx, picker)
    app.clientside_callback(
        ClientsideFunction("digsite", "gamesAddress"),
        Output("games-search", "data"),
        *(Input(f, "value") for f in FILTERS),
        Input("games-dates", "start_date"),
        Input("games-dates", "end_date"),
    )

    @app.callback(Output("games-round", "options"), Input("games-tournament", "value"))
    def round_options(tournament: str | None) -> list[dict[str, Any]]:
        return _round_options(ctx.data.tournaments(ctx.visitor()), tournament)

    @app.callback(
        Output("games-results", "children"),
        Output("games-offset", "data"),
        Output("games-prev", "disabled"),
        Output("games-next", "disabled"),
        Output("games-page", "children"),
        *(Input(f, "value") for f in FILTERS),
        Input("games-dates", "start_date"),
        Input("games-dates", "end_date"),
        Input("games-prev", "n_clicks"),
        Input("games-next", "n_clicks"),
        State("games-offset", "data"),
    )
    def results(
        kind: str | None,
        tournament: str | None,
        round_label: int | None,
        player: str | None,
        status: str | None,
        winner: str | None,
        start: str | None,
        end: str | None,
        _prev: int | None,
        _next: int | None,
        offset: int | None,
    ) -> tuple[Any, ...]:
        visitor = ctx.visitor()
        trigger = callback_context.triggered_id
        offset = offset or 0
        if trigger == "games-prev":
            offset = max(0, offset - PAGE_SIZE)
        elif trigger == "games-next":
            offset += PAGE_SIZE
        else:
            offset = 0
        until = None
        if end:
            until = (date.fromisoformat(end[:10]) + timedelta(days=1)).isoformat()
        found = ctx.data.games(
            visitor,
            kind=kind,
            tournament=tournament,
            round_label=round_label,
            player=player,
            status=status,
            winner=winner,
            since=start[:10] if start else None,
            until=until,
            limit=PAGE_SIZE,
            offset=offset,
        )
        total, rows = found["total"], found["rows"]
        if total and offset >= total:
            offset = (total - 1) // PAGE_SIZE * PAGE_SIZE
        tournaments = ctx.data.tournament_names(visitor)
        live = ctx.data.in_play(visitor, [r["game_id"] for r in rows if r["status"] == "playing"])
        body = games_table(app, rows, tournaments, live) if rows else _nothing(ctx, visitor)
        shown = f"{offset + 1}{DASH}{offset + len(rows)} of {total} game{'s' if total != 1 else ''}" if rows else ""
        return body, offset, offset == 0, offset + len(rows) >= total, shown


def _nothing(ctx: Context, visitor: Visitor) -> html.P:
    if ctx.data.games(visitor, limit=1)["total"] == 0:
        if not visitor.organiser:
            return empty("No finished games yet: they appear here when they end.", id="games-empty")
        return empty(
            "No games are in the read models yet. Play or simulate some games (digsite simulate --store) and keep "
            "the projections running (digsite projections run); they appear here as they are projected.",
            id="games-empty",
        )
    return empty("No game matches these filters. Clear a filter to see more.", id="games-empty")


def games_table(
    app: dash.Dash,
    rows: list[GameRow],
    tournaments: dict[str, str],
    live: dict[str, dict[str, Any]] | None = None,
) -> html.Table:
    """The games as a table; ``live`` (an organiser's, ``Data.in_play``): for each game in play, who is to act
    and the time of its last record, shown in its status (the page's script flags it when idle too long)."""
    numeric = {"Round", "Table", "Moves"}
    head = html.Tr(
        [
            html.Th(h, className="num" if h in numeric else None)
            for h in (
                "Started (UTC)",
                "Tournament",
                "Round",
                "Table",
                "Players (place, points)",
                "Status",
                "Winner",
                "Moves",
                "Reached",
                "",
            )
        ]
    )
    body = []
    for row in rows:
        part = renderer(row["kind"])
        winner_seat = row.get("winner_seat")
        over = row["status"] == "over"
        names: list[Any] = []
        for p in sorted(row["players"], key=lambda p: (p.get("place") or 99, p["seat"]) if over else p["seat"]):
            link = dcc.Link(
                p["name"], href=app.get_relative_path(f"/players?player={p['id']}"), className="player-link"
            )
            place = p.get("place")
            names.append(html.Strong(link) if place == 1 else link)
            if over and place is not None:  # the result beside the player: "1st 42"
                names.append(html.Span(f" {ordinal(place)} {number(p.get('score'), 0)}", className="quiet"))
            names.append(", ")
        names = names[:-1]
        winner = DASH
        if winner_seat is not None:
            # A seat no player holds is one the game plays itself (a solo game's rival).
            held = [p["name"] for p in row["players"] if p["seat"] == winner_seat]
            winner = held[0] if held else f"Seat {winner_seat + 1}, played by the game"
            winner = f"{winner} ({part.how_won(row.get('win_how'))})"
        href = app.get_relative_path(f"/replay/{row['game_id']}")
        body.append(
            html.Tr(
                [
                    html.Td(when(row.get("started_at")), className="nowrap"),
                    html.Td(tournaments.get(str(row.get("tournament_id")), DASH) if row.get("tournament_id") else DASH),
                    html.Td(str(row["round_label"]) if row.get("round_label") is not None else DASH, className="num"),
                    html.Td(str(row["table_label"]) if row.get("table_label") is not None else DASH, className="num"),
                    html.Td(names),
                    _status_cell(row, (live or {}).get(row["game_id"])),
                    html.Td(winner),
                    html.Td(str(row["moves"]), className="num"),
                    html.Td(part.round_name(int(row["round"])) if row.get("round") else DASH, className="nowrap"),
                    html.Td(dcc.Link("Replay →", href=href, className="btn btn-small open-replay"), className="nowrap"),
                ],
                **data_attributes({"data-game": row["game_id"]}),
            )
        )
    return html.Table([html.Thead(head), html.Tbody(body)], className="grid", id="games-table")
