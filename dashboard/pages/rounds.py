"""A tournament's rounds (organisers only): its entries, each seated round's tables and their games, a form to seat
and start the next round, each round's seat links as a CSV file or a printable sheet (a QR code per seat), a form to
void one seat's link (a lost or leaked sheet), and the organiser's ruling form (``dashboard.pages.ruling_form``).

Everything goes through ``Data``, which refuses anyone but an organiser (``access.require_organiser``) and calls
the one service function the API and the CLI call (``Digsite.rounds``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import dash
import flask
from dash import Input, Output, State, dcc, html
from dash.exceptions import PreventUpdate

from dashboard.access import Visitor
from dashboard.components import card, dropdown, empty, field
from dashboard.context import Context
from dashboard.form_parts import not_done
from dashboard.pages import ruling_form
from service.commands.results import SeatedRound, TournamentRounds
from service.commands.tournament_setup import checked_names
from service.errors import ServiceError
from service.seating import formats, sheet

REFRESH_MS = 10_000  # a round's tables show within ten seconds of seating themselves; one small read a tick
FORMAT_NAMES = {"round_robin": "Round robin", "swiss": "Swiss", "csv": "CSV seating"}


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, tournament_id: str) -> html.Div:
    found = ctx.data.rounds(visitor, tournament_id)  # Denied / ServiceError: the router says so
    outside = _made_outside_seating(ctx, visitor, tournament_id, found)
    no_round = _seating_note(found, outside)
    return html.Div(
        [
            html.H2(f"{found['name']}: rounds"),
            html.P(
                dcc.Link("Standings", href=app.get_relative_path(f"/tournaments/{tournament_id}")), className="quiet"
            ),
            dcc.Store(id="rounds-tournament", data=tournament_id),
            # A round seats itself when the last table of the one before ends: the page looks again this often.
            dcc.Interval(id="rounds-refresh", interval=REFRESH_MS),
            dcc.Store(id="rounds-seen", data=seen(found)),
            outside,
            card(
                "Enter players",
                html.Div(
                    [
                        field(
                            "Players",
                            dcc.Dropdown(
                                id="rounds-enter-players",
                                options=_not_entered(ctx, visitor, found),
                                multi=True,
                                placeholder="pick players",
                            ),
                            "24rem",
                        ),
                        field(
                            "New people, one name a line",
                            dcc.Textarea(id="rounds-enter-new", rows=2, className="text-input"),
                            "16rem",
                        ),
                        field(
                            "Bots",
                            dcc.Input(id="rounds-enter-bots", type="number", min=0, step=1, className="text-input"),
                            "6rem",
                        ),
                        html.Div(html.Button("Enter", id="rounds-enter", className="btn"), className="field"),
                    ],
                    className="filters",
                ),
            ),
            card(
                "Next round",
                html.Div(
                    [
                        field(
                            "Format",
                            dropdown(
                                "rounds-format",
                                [{"label": FORMAT_NAMES[f], "value": f} for f in formats.FORMATS if f != "csv"],
                                None,
                                placeholder="as the round before",
                            ),
                        ),
                        field(
                            "Largest table",
                            dcc.Input(id="rounds-size", type="number", min=1, step=1, className="text-input"),
                            "8rem",
                        ),
                        field("", dcc.Checklist(id="rounds-force", options=[{"label": " force", "value": "force"}])),
                        html.Div(
                            html.Button(
                                "Seat and start the next round",
                                id="rounds-start",
                                className="btn",
                                disabled=bool(no_round),
                            ),
                            className="field",
                        ),
                    ],
                    className="filters",
                ),
                html.P(no_round, id="rounds-message", className="quiet"),
            ),
            card(
                "Seat links",
                html.Div(
                    [
                        field("Round", dropdown("rounds-links-round", [], None, placeholder="the last round")),
                        html.Div(
                            [
                                html.Button("Links (CSV)", id="rounds-links-csv", className="btn"),
                                html.Button("Printable sheet", id="rounds-links-sheet", className="btn"),
                                dcc.Download(id="rounds-links"),
                            ],
                            className="field",
                        ),
                    ],
                    className="filters",
                ),
                html.Div(
                    [
                        field("Table", _number("rounds-void-table"), "6rem"),
                        field("Seat", _number("rounds-void-seat"), "6rem"),
                        field("Reason", dcc.Input(id="rounds-void-reason", type="text", className="text-input")),
                        html.Div(
                            html.Button("Void this seat's link", id="rounds-void", className="btn"), className="field"
                        ),
                    ],
                    className="filters",
                ),
                html.P(
                    "A lost or leaked sheet: void one seat's link of the round above (the others stay as they are); "
                    "its new link is shown here once, and the sheet printed again has it.",
                    className="quiet",
                ),
                html.P(id="rounds-void-message", className="quiet"),
            ),
            ruling_form.ruling_card(found),
            html.Div(_body(app, found), id="rounds-body"),
        ],
        id="rounds-page",
    )


def _seating_note(found: TournamentRounds, outside: Any) -> str | None:
    """Why the next round's button is off, said in its card (None: it is on): no round is left to seat, or the
    games were created directly (``outside``: the note at the top; the service would refuse, games_created_directly).
    The layout, the buttons' callback and the refresh all ask it: the callback runs when the page loads, and what it
    writes is what the page shows."""
    note = _no_round_left(found)
    if note is None and outside is not None:
        note = "Seating a round here is refused: see the note at the top."
    return note


def _no_round_left(found: TournamentRounds) -> str | None:
    """What the next round's card says once every round is seated (its button is off then: nothing is left);
    None while a round is left to seat."""
    if found["next_round"] is not None:
        return None
    if found["complete"]:
        return f"All {found['rounds']} round(s) are seated and played: the tournament is complete."
    return f"All {found['rounds']} round(s) are seated; the last games are still in play."


def _made_outside_seating(ctx: Context, visitor: Visitor, tournament_id: str, found: TournamentRounds) -> Any:
    """A note when the tournament's games were created directly, not seated here (``digsite simulate`` or the
    API's game creation with the tournament's labels): the standings count them under their rounds, while
    this page has no round seated. Only for a tournament with no round seated here (a seated tournament's games,
    a restarted one included, are its rounds')."""
    if found["seated_rounds"]:
        return None
    try:
        standings = ctx.data.standings(visitor, tournament_id, None)
    except ServiceError:  # not in the read models yet (a tournament just created): the note waits for them
        return None
    games = {c["game_id"] for line in standings["cross_table"] for cells in line["rounds"].values() for c in cells}
    if not games:
        return None
    rounds = ", ".join(str(r) for r in standings["rounds"])
    return html.P(
        f"This tournament's {len(games)} game(s), in round(s) {rounds}, were created directly (by digsite simulate "
        "or the API's game creation with the tournament's labels), not seated here: the standings count "
        "them. A round seated here would be numbered from 1 again beside them, so seating one is refused "
        "(games_created_directly): seat rounds here in a tournament whose games are all seated here.",
        id="rounds-outside",
        className="quiet",
    )


def seen(found: TournamentRounds) -> list[Any]:
    """What the page shows that changes by itself (entries, rounds, each table's game and status): when the refresh
    finds it as it was, nothing is sent again."""
    return [
        [e["id"] for e in found["entries"]],
        found["complete"],
        [[r["round"], r["status"], [[t["game"], t["status"]] for t in r["tables"]]] for r in found["seated_rounds"]],
    ]


def _number(component_id: str) -> dcc.Input:
    return dcc.Input(id=component_id, type="number", min=1, step=1, className="text-input")


def _not_entered(ctx: Context, visitor: Visitor, found: TournamentRounds) -> list[dict[str, str]]:
    """The players not entered yet (from the players list), as the dropdown's options."""
    entered = {e["id"] for e in found["entries"]}
    return [
        {"label": p["name"], "value": p["player_id"]}
        for p in ctx.data.players(visitor)
        if p["player_id"] not in entered
    ]


def _body(app: dash.Dash, found: TournamentRounds) -> list[Any]:
    entries = ", ".join(e["name"] for e in found["entries"]) or "none yet"
    seated = len(found["seated_rounds"])
    summary = f"{len(found['entries'])} entries · {seated} of {found['rounds']} rounds seated"
    if found["complete"]:
        summary += " · complete"
    parts: list[Any] = [
        html.P(summary, id="rounds-summary", className="quiet"),
        card("Entries", html.P(entries, id="rounds-entries")),
    ]
    if not found["seated_rounds"]:
        parts.append(empty("No round seated yet.", id="rounds-none"))
    for r in reversed(found["seated_rounds"]):
        parts.append(card(f"Round {r['round']}", _round_table(app, r), id=f"rounds-round-{r['round']}"))
    return parts


def _round_table(app: dash.Dash, r: SeatedRound) -> Any:
    rows = [
        html.Tr(
            [
                html.Td(str(t["table"]), className="num"),
                html.Td(", ".join(p["name"] for p in t["players"])),
                html.Td(dcc.Link(t["status"] or "", href=app.get_relative_path(f"/replay/{t['game']}"))),
            ]
        )
        for t in r["tables"]
    ]
    head = html.Tr([html.Th(h) for h in ("Table", "Players, in seat order", "Game")])
    sitting_out = ", ".join(b["name"] for b in r["byes"])
    return html.Div(
        [
            html.P(f"{FORMAT_NAMES.get(r['format'], r['format'])}, tables of up to {r['table_size']} · {r['status']}"),
            html.Div(html.Table([html.Thead(head), html.Tbody(rows)], className="grid"), className="table-scroll"),
            html.P(f"Sitting out: {sitting_out}") if sitting_out else None,
        ]
    )


def _base_url(app: dash.Dash) -> str:
    """The dashboard's address as this organiser reaches it: where the seat links send the players."""
    return flask.request.host_url.rstrip("/") + str(app.get_relative_path("/")).rstrip("/")


def register(app: dash.Dash, ctx: Context) -> None:
    ruling_form.register(app, ctx)

    @app.callback(
        Output("rounds-void-message", "children"),
        Input("rounds-void", "n_clicks"),
        State("rounds-tournament", "data"),
        State("rounds-links-round", "value"),
        State("rounds-void-table", "value"),
        State("rounds-void-seat", "value"),
        State("rounds-void-reason", "value"),
        prevent_initial_call=True,
    )
    def void(clicks: int | None, tournament_id: str, round_no: Any, table: Any, seat: Any, reason: Any) -> Any:
        """Void one seat's link (table and seat counted from 1, as on the sheet) and show its new link once."""
        visitor = ctx.visitor()
        found = ctx.data.rounds(visitor, tournament_id)  # (refused for anyone but an organiser)
        if not clicks or not found["seated_rounds"]:
            return dash.no_update
        number = round_no if isinstance(round_no, int) else found["seated_rounds"][-1]["round"]
        try:
            seat_no = int(seat) - 1 if seat not in (None, "") else None
            done = ctx.data.void_link(visitor, tournament_id, number, table, seat_no, reason)
        except (ServiceError, ValueError, TypeError) as refused:
            return not_done(refused)
        url = f"{_base_url(app)}/replay/{done['game']}?token={quote(done['token'])}"
        return [
            f"Round {number}, table {done['table']}, seat {done['seat'] + 1} ({done['name']}): the old link is void. "
            "The new one (hand it to the player only): ",
            html.Code(url, id="rounds-void-link"),
        ]

    @app.callback(
        Output("rounds-body", "children"),
        Output("rounds-message", "children"),
        Output("rounds-start", "disabled"),
        Output("rounds-links-round", "options"),
        Output("rounds-enter-players", "value"),
        Output("rounds-enter-players", "options"),
        Output("rounds-enter-new", "value"),
        Input("rounds-start", "n_clicks"),
        Input("rounds-enter", "n_clicks"),
        State("rounds-tournament", "data"),
        State("rounds-format", "value"),
        State("rounds-size", "value"),
        State("rounds-force", "value"),
        State("rounds-enter-players", "value"),
        State("rounds-enter-bots", "value"),
        State("rounds-enter-new", "value"),
    )
    def act(
        start: int | None,
        enter: int | None,
        tournament_id: str,
        fmt: str | None,
        size: Any,
        force: Any,
        players: Any,
        bots: Any,
        new_names: Any,
    ) -> tuple[Any, Any, Any, Any, Any, Any, Any]:
        """Seat and start the next round, or enter players (whichever button was pressed), then show the rounds, and
        whether a round is left to seat (also when the page loads: this runs then, and writes the card's message)."""
        visitor = ctx.visitor()
        message = ""
        pressed = dash.ctx.triggered_id
        try:
            if pressed == "rounds-start" and start:
                size = int(size) if size not in (None, "") else None
                made = ctx.data.seat_round(visitor, tournament_id, fmt, size, bool(force))
                message = f"Round {made['round']} seated and started: {len(made['tables'])} table(s)."
            elif pressed == "rounds-enter" and enter:
                chosen = [str(p) for p in players or []]
                count = int(bots) if bots not in (None, "") else 0
                people = checked_names([line.strip() for line in str(new_names or "").splitlines() if line.strip()])
                if chosen or count:  # (first: a refusal of these registers none of the new people)
                    ctx.data.enter(visitor, tournament_id, chosen, count)
                registered = ctx.data.enter_new_people(visitor, tournament_id, people)
                message = f"Entered {len(chosen) + count + len(registered)} player(s)."
        except (ServiceError, ValueError, TypeError) as refused:
            message = not_done(refused)
        found = ctx.data.rounds(visitor, tournament_id)
        options = [{"label": f"round {r['round']}", "value": r["round"]} for r in found["seated_rounds"]]
        entered = pressed == "rounds-enter" and message.startswith("Entered")
        note = _seating_note(found, _made_outside_seating(ctx, visitor, tournament_id, found))
        return (
            _body(app, found),
            " ".join(said for said in (message, note) if said),
            bool(note),
            options,
            [] if entered else dash.no_update,
            _not_entered(ctx, visitor, found) if entered else dash.no_update,
            "" if entered else dash.no_update,
        )

    @app.callback(
        Output("rounds-body", "children", allow_duplicate=True),
        Output("rounds-links-round", "options", allow_duplicate=True),
        Output("ruling-game", "options", allow_duplicate=True),
        Output("ruling-player", "options"),
        Output("rounds-seen", "data"),
        Output("rounds-start", "disabled", allow_duplicate=True),
        Output("rounds-message", "children", allow_duplicate=True),
        Input("rounds-refresh", "n_intervals"),
        Input("rounds-body", "children"),
        State("rounds-tournament", "data"),
        State("rounds-seen", "data"),
        prevent_initial_call=True,
    )
    def refresh(
        ticks: int | None, body: Any, tournament_id: str, shown: Any
    ) -> tuple[Any, Any, Any, Any, Any, Any, Any]:
        """Show a round that seated itself, a table's game that ended, and the ruling form's games and players as
        they are now (organisers only), and whether a round is left to seat (the last one seated itself, or the
        last game ended: the card says so); nothing is sent when nothing changed."""
        visitor = ctx.visitor()
        found = ctx.data.rounds(visitor, tournament_id)  # (refused for anyone but an organiser)
        now = seen(found)
        if now == shown and dash.ctx.triggered_id == "rounds-refresh":
            raise PreventUpdate
        options = [{"label": f"round {r['round']}", "value": r["round"]} for r in found["seated_rounds"]]
        ticked = dash.ctx.triggered_id == "rounds-refresh"  # (else the buttons' callback has just said it all)
        body_now = _body(app, found) if ticked else dash.no_update
        note = _seating_note(found, _made_outside_seating(ctx, visitor, tournament_id, found)) if ticked else None
        disabled = bool(note) if ticked else dash.no_update
        said = note if note else dash.no_update
        return (
            body_now,
            options,
            ruling_form.game_options(found),
            ruling_form.player_options(found),
            now,
            disabled,
            said,
        )

    @app.callback(
        Output("rounds-links", "data"),
        Input("rounds-links-csv", "n_clicks"),
        Input("rounds-links-sheet", "n_clicks"),
        State("rounds-tournament", "data"),
        State("rounds-links-round", "value"),
        prevent_initial_call=True,
    )
    def download(csv_clicks: int | None, sheet_clicks: int | None, tournament_id: str, round_no: Any) -> Any:
        visitor = ctx.visitor()
        found = ctx.data.rounds(visitor, tournament_id)  # (refused for anyone but an organiser)
        if not found["seated_rounds"]:
            return dash.no_update
        number = round_no if isinstance(round_no, int) else found["seated_rounds"][-1]["round"]
        links = ctx.data.seat_links(visitor, tournament_id, number, _base_url(app))
        if dash.ctx.triggered_id == "rounds-links-sheet":
            title = f"{found['name']}: round {number}"
            return {"content": sheet.links_sheet(title, links), "filename": f"seats-round-{number}.html"}
        return {"content": sheet.links_csv(links), "filename": f"seats-round-{number}.csv"}
