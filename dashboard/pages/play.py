"""Playing from a seat link: the table from the player's own seat, updated live, the game's log, and a move picker.

A seat link (``/replay/<game>?token=...``) keeps the seat in the session (``dashboard.session``); the replay of a
game in play then offers **Play**, which opens ``/play/<game>``. Everything on this page is that seat's: the
table and the log are the engine's for that reader, the options are the engine's legal actions for that seat
(through the service, laid out by the game's picker: ``dashboard.picker``). A move goes through a Dash callback
(a POST from the dashboard's own origin, like every other) that asks the session for the seat, never the
browser, and submits through the service as the API does (``Digsite.submit``, with the version shown): a move
that went stale (the game moved on) changes nothing and the page says so and shows the table now.

A move can also be made on the table itself: what the game's table marks ``data-pick`` and its picker offers
(a card to pick, a choice's mark: the thing the move is made at, then what else it uses) becomes a toggle there,
the moves the pick allows are buttons in a bar under the table (kept at the foot of the screen), with the move
said before it is sent, and **Send this move** submits as the form's button does (the same callback). Once a
move is chosen, its crafted forms (``crafting``, the engine's, named by the game's picker) mark what they add on
the table too. All of it is done in the browser from the last answer (``dashboard/assets/callbacks.js``): no request
per pick. After each move a line says what the last one changed, told for this seat.

The page follows the game with one waiting request at a time (``live/<game>``, ``dashboard/assets/live.js``):
when the game moves on, the script presses the hidden refresh button and the callback draws the table again.
"""

from __future__ import annotations

import json
from typing import Any

import dash
from dash import ClientsideFunction, Input, Output, State, dcc, html
from dash import ctx as callback_context

from dashboard.access import Visitor
from dashboard.components import card, data_attributes
from dashboard.context import Context
from dashboard.format import log_line
from dashboard.games import renderer
from dashboard.html_text import to_html
from dashboard.live import LIVE_PATH
from dashboard.picker import PickerFn, plain_picker
from domain.errors import said
from service.errors import Conflict, ServiceError
from service.reading.replays import Entry
from service.store.clocks import minutes

STALE = "The game moved on before your move landed: here is the table now. Nothing was played."
NOT_YOUR_TURN = "Waiting for {who} to move…"
YOUR_TURN = "Your move."
OVER = "The game is over."
CLOCK_REFUSALS = ("out_of_time", "table_paused")

OUTPUTS = [
    Output("play-table-html", "data"),
    Output("play-log", "children"),
    Output("play-status", "children"),
    Output("play-picker", "data"),
    Output("play-version", "data"),
    Output("play-group", "options"),
    Output("play-group", "value"),
    Output("play-cards", "options"),
    Output("play-cards", "value"),
    Output("play-message", "children"),
    Output("play-form", "hidden"),
    Output("play-changed", "children"),
]
VERSION = OUTPUTS[4]  # (the version of the table drawn)
SUBMITS = ("play-submit", "play-send")  # the form's button and the one under the table: the same move


def picker_of(kind: str) -> PickerFn:
    """The game's own picker (``dashboard/games/<kind>/play.py``, offered as its renderer's ``picker``), else one
    that lists every legal action in the engine's words."""
    found = renderer(kind).picker
    return found if found is not None else plain_picker(kind)


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, game_id: str) -> html.Div:
    """The play page (Denied, as a replay the visitor may not see, for anyone without this game's seat)."""
    opened, seat = ctx.data.seat(visitor, game_id)
    root = {
        "data-game": opened.game_id,
        "data-seat": str(seat),
        "data-live": app.get_relative_path(f"/{LIVE_PATH}{opened.game_id}"),
    }
    return html.Div(
        [
            dcc.Store(id="play-meta", data={"game": opened.game_id}),
            dcc.Store(id="play-picker"),
            dcc.Store(id="play-version"),
            # The table as HTML text, put in #play-table by digsite.playTable (dashboard/assets/callbacks.js).
            dcc.Store(id="play-table-html"),
            dcc.Store(id="play-table-shown"),
            dcc.Store(id="play-picks"),
            # The chosen move's crafted forms, named by the game's picker (digsite.playCraft marks what they add).
            dcc.Store(id="play-craft-picker"),
            dcc.Store(id="play-craft-shown"),
            # Pressed by the page's script when the game has moved on (dashboard/assets/live.js): draw it again.
            html.Button(id="play-refresh", hidden=True, n_clicks=0),
            html.Div(
                [
                    dcc.Link(
                        "← Replay of this game",
                        href=app.get_relative_path(f"/replay/{opened.game_id}?seat={seat}"),
                        className="quiet",
                    ),
                    html.H2(f"Playing: seat {seat + 1}, {opened.names[seat]} · {' vs '.join(opened.names)}"),
                    html.Div("Loading the table…", id="play-status", className="play-status"),
                    # What the last move changed, as this seat may read it (the log's last record).
                    html.Div(id="play-changed", className="play-changed", role="status"),
                ],
                className="replay-head",
            ),
            html.Div(
                [
                    html.Div(
                        [
                            html.Div(
                                html.Div("Drawing the table…", className="quiet"),
                                id="play-table",
                                className="replay-table",
                            ),
                            # Picking on the table: the cards the picker offers are toggles there
                            # (digsite.playPicks), the move they make is said here before it is sent.
                            html.Div(
                                [
                                    html.Div(id="play-preview", className="play-preview", role="status"),
                                    # What the things picked on the table allow (written by digsite.playPicks).
                                    html.Div(id="play-hint", className="play-hint", role="status"),
                                    # The moves the pick allows, as buttons (filled by digsite.playPreview).
                                    html.Div(id="play-choices", className="play-choices"),
                                    html.Button(
                                        "Send this move",
                                        id="play-send",
                                        className="btn btn-primary",
                                        n_clicks=0,
                                        disabled=True,
                                    ),
                                ],
                                id="play-bar",
                                className="play-bar",
                                hidden=True,
                            ),
                        ],
                        className="play-main",
                    ),
                    html.Aside(
                        [
                            card(
                                "Your move",
                                html.Div(
                                    [
                                        dcc.RadioItems(
                                            id="play-group", options=[], className="play-groups", inline=True
                                        ),
                                        html.Div("Pick cards", className="field-label", id="play-cards-label"),
                                        dcc.Checklist(id="play-cards", options=[], value=[], className="play-cards"),
                                        html.Div("Then", className="field-label"),
                                        dcc.RadioItems(id="play-option", options=[], className="play-options"),
                                        html.Div(
                                            [
                                                html.Div("Crafting", className="field-label"),
                                                dcc.RadioItems(id="play-craft", options=[], className="play-options"),
                                            ],
                                            id="play-craft-box",
                                            hidden=True,
                                        ),
                                        html.Button(
                                            "Play this move", id="play-submit", className="btn btn-primary", n_clicks=0
                                        ),
                                    ],
                                    id="play-form",
                                    hidden=True,
                                ),
                                html.Div(id="play-message", className="play-message", role="status"),
                                className="play-card",
                            ),
                            card("Log", html.Div(id="play-log", className="log"), className="log-card"),
                        ],
                        className="replay-side",
                    ),
                ],
                className="replay-grid",
            ),
        ],
        id="play-root",
        className="replay play",
        **data_attributes(root),
    )


def register(app: dash.Dash, ctx: Context) -> None:
    @app.callback(
        *OUTPUTS,
        Input("play-meta", "data"),
        Input("play-refresh", "n_clicks"),
        Input("play-submit", "n_clicks"),
        Input("play-send", "n_clicks"),
        State("play-option", "value"),
        State("play-craft", "value"),
        State("play-version", "data"),
        State("play-cards", "value"),
        State("play-group", "value"),
    )
    def draw(
        meta: dict[str, Any] | None,
        _refresh: Any,
        _submit: Any,
        _send: Any,
        chosen: str | None,
        craft: str | None,
        shown: Any,
        cards: list[Any] | None,
        group: str | None,
    ) -> tuple[Any, ...]:
        visitor = ctx.visitor()
        game_id = str((meta or {}).get("game"))
        message: Any = ""
        if callback_context.triggered_id in SUBMITS:
            message = submit(ctx, visitor, game_id, shown, craft or chosen)
        now = ctx.data.table_now(visitor, game_id)
        out = drawn(now, message)
        if callback_context.triggered_id == "play-refresh":
            # The last send's sentence ("Played.", or why nothing was) stays until the next send: another seat's
            # move landing right after it must not take it away before it is read.
            out = (*out[:MESSAGE], dash.no_update, *out[MESSAGE + 1 :])
            if out[OUTPUTS.index(VERSION)] == shown:
                return unchanged_table(out)
            if moved_since(now["log"], now["seat"], shown):
                return out
            return still_picked(out, cards or [], group, chosen)
        return out

    @app.callback(
        Output("play-craft", "options"),
        Output("play-craft", "value"),
        Output("play-craft-box", "hidden"),
        Output("play-craft-picker", "data"),
        Input("play-option", "value"),
        State("play-version", "data"),
        State("play-meta", "data"),
    )
    def crafting(chosen: str | None, shown: Any, meta: dict[str, Any] | None) -> tuple[Any, ...]:
        """The crafting that applies to the move chosen (the engine's, for the seat's own move), named by the
        game's picker; hidden when there is none."""
        visitor = ctx.visitor()
        none: tuple[Any, ...] = ([], "", True, [])
        if not chosen:
            return none
        try:
            action = json.loads(chosen)
        except ValueError:
            return none
        found = ctx.data.crafted(visitor, str((meta or {}).get("game")), shown, action)
        if not found["forms"]:
            return none
        named = picker_of(found["kind"])(found["view"], found["forms"], found["seat"]).to_dict()["choices"]
        options = [{"label": "As it is, no crafting", "value": ""}]
        options += [{"label": c["label"], "value": c["value"]} for c in named]
        return options, "", False, named

    app.clientside_callback(
        ClientsideFunction("digsite", "playTable"), Output("play-table-shown", "data"), Input("play-table-html", "data")
    )

    # The table's pickable things (``data-pick`` = a picker card value, drawn by the game's table) become toggles
    # of the form's card boxes: the boxes stay the one record of what is picked, the table shows it.
    app.clientside_callback(
        ClientsideFunction("digsite", "playPicks"),
        Output("play-picks", "data"),
        Input("play-picker", "data"),
        Input("play-cards", "value"),
        Input("play-table-shown", "data"),
    )

    # What crafting adds to the chosen move (a market's card) becomes pickable on the table.
    app.clientside_callback(
        ClientsideFunction("digsite", "playCraft"),
        Output("play-craft-shown", "data"),
        Input("play-craft-picker", "data"),
    )

    # The move the pick makes, in the picker's words (its crafted form's once one is chosen), before it is sent
    # (no request: the options are the page's).
    app.clientside_callback(
        ClientsideFunction("digsite", "playPreview"),
        Output("play-preview", "children"),
        Output("play-send", "disabled"),
        Output("play-bar", "hidden"),
        Input("play-option", "value"),
        Input("play-option", "options"),
        Input("play-picker", "data"),
        Input("play-craft", "value"),
    )

    # Picking cards and a kind of move only filters what the server sent (the engine's legal actions, laid out by
    # the game's picker): done in the browser, so a click on a card answers at once, like a card picked up.
    app.clientside_callback(
        ClientsideFunction("digsite", "playOptions"),
        Output("play-option", "options"),
        Output("play-option", "value"),
        Output("play-cards", "style"),
        Output("play-cards-label", "style"),
        Input("play-picker", "data"),
        Input("play-group", "value"),
        Input("play-cards", "value"),
        State("play-option", "value"),
    )


def submit(ctx: Context, visitor: Visitor, game_id: str, shown: Any, chosen: str | None) -> Any:
    """Play the chosen option for the visitor's own seat; a sentence for the player either way."""
    if not chosen:
        return html.Span("Choose a move first.", className="play-refused")
    try:
        action = json.loads(chosen)
    except ValueError:
        return html.Span("That move could not be read: choose it again.", className="play-refused")
    try:
        ctx.data.play(visitor, game_id, shown, action)
    except Conflict as refused:
        if refused.code in CLOCK_REFUSALS:  # (not a stale table: the seat's time ran out, or the table is paused)
            return html.Span(refusal_text(refused), className="play-refused", id="play-clock-refused")
        return html.Span(STALE, className="play-refused", id="play-stale")
    except ServiceError as refused:  # the engine or the service said no: one sentence, nothing changed
        return html.Span(refusal_text(refused), className="play-refused")
    return html.Span("Played.", className="play-done")


# What a refresh leaves as it is when the game has not moved on from the table shown: the table, the picker and
# what the player has picked on it (a pick must not vanish because the page looked again). (The last message is
# left by every refresh: ``draw``.)
KEPT_ON_REFRESH = {
    "play-table-html",
    "play-picker",
    "play-version",
    "play-group",
    "play-cards",
    "play-form",
}


def unchanged_table(out: tuple[Any, ...]) -> tuple[Any, ...]:
    """``out`` with the parts of the page the player is picking on left alone (``dash.no_update``)."""
    return tuple(
        dash.no_update if output.component_id in KEPT_ON_REFRESH else value
        for output, value in zip(OUTPUTS, out, strict=True)
    )


CARDS, CARD_OPTIONS = OUTPUTS.index(Output("play-cards", "value")), OUTPUTS.index(Output("play-cards", "options"))
PICKER, MESSAGE = OUTPUTS.index(Output("play-picker", "data")), OUTPUTS.index(Output("play-message", "children"))
GROUP, GROUP_OPTIONS = OUTPUTS.index(Output("play-group", "value")), OUTPUTS.index(Output("play-group", "options"))


def still_picked(out: tuple[Any, ...], cards: list[Any], group: str | None, chosen: str | None) -> tuple[Any, ...]:
    """``out`` (a table the game has moved on to, not by this seat's own move) with what the player had picked
    kept where the new table still offers it: the cards, the kind of move, and the move chosen (named to the
    page's script as the picker's ``kept``, which chooses it again: ``playOptions``). Another seat's secret night
    flip lands while this seat is picking its own (the flip is chosen by every seat at once) and changes nothing
    this seat may choose; its pick must not vanish with it."""
    drawn = list(out)
    picker = drawn[PICKER]
    if picker is not None:
        # ``stands``: the script keeps the move chosen in the browser now, if still offered (one chosen after this
        # look was sent); else ``kept``, the one chosen when it was.
        drawn[PICKER] = {**picker, "stands": True}
        if chosen in {c["value"] for c in picker.get("choices", [])}:
            drawn[PICKER]["kept"] = chosen
    offered_cards = {o["value"] for o in drawn[CARD_OPTIONS]}
    drawn[CARDS] = [c for c in cards if c in offered_cards]
    if group is not None and group in {o["value"] for o in drawn[GROUP_OPTIONS]}:
        drawn[GROUP] = group
    return tuple(drawn)


def moved_since(log: list[Entry], seat: int | None, shown: Any) -> bool:
    """Whether the seat's own move (or its timeout) is among the records after version ``shown``, or the log no
    longer reaches back that far (so it cannot be told): then the page keeps no pick. A refresh sent while the
    seat's own move was on its way carries the pick that move was made with, and its answer lands after the move's
    own (or in its place): without this the cards just played stood picked again wherever the next table still
    offered them (seen in a tournament's browser run: the seat's next turns began with a stale card picked)."""
    if not isinstance(shown, int) or isinstance(shown, bool):
        return True
    if not log or log[0].version > shown + 1:
        return True
    return any(entry.version > shown and entry.seat == seat for entry in log)


def _played(moves: int) -> str:
    return f"{moves} move{'s' if moves != 1 else ''} played"


def refusal_text(refused: ServiceError) -> str:
    """A refusal as this page says it: the engine and the API number seats from 0, the page from 1 ("Playing:
    seat 1"), so every seat a refusal names (as data: ``refused.seats``) is said from 1 ("you hold seat 0, not
    seat 1" reads "You hold seat 1, not seat 2"); one sentence, with a capital and a full stop."""
    text = said(refused.template, refused.seats, lambda seat: "no seat" if seat is None else f"seat {seat + 1}")
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def drawn(now: dict[str, Any], message: Any) -> tuple[Any, ...]:
    """The page's outputs for the game ``now`` as the visitor's seat sees it (``DashboardData.table_now``)."""
    game, seat, frame = now["game"], now["seat"], now["frame"]
    kind = game["kind"]
    names = [p["name"] for p in game["players"]]
    drawing = renderer(kind)
    table = {"html": to_html(drawing.draw_table(frame)), "version": game["version"]}
    log = [
        html.Div(
            [
                html.Span(str(entry.version), className="log-version"),
                html.Div(
                    [html.Div(log_line(drawing.log_text(line, game["view"]))) for line in entry.lines if line]
                    or [html.Div("(no change)", className="quiet")]
                ),
            ],
            className="log-entry",
            **data_attributes({"data-move": str(entry.version)}),
        )
        for entry in reversed(now["log"])
    ]
    legal = game.get("legal_actions") or []
    over = game["status"] == "over"
    if over:
        status_text = OVER
    elif legal:
        status_text = YOUR_TURN
    else:
        everyone = game["view"].get("players") or names
        waiting = ", ".join(str(everyone[s]) if s < len(everyone) else f"seat {s + 1}" for s in game["to_act"])
        status_text = NOT_YOUR_TURN.format(who=waiting or "the game")
    status = html.Span(
        # (moves as the games list and the replay count them: the first record sets the game up)
        [
            html.Strong(status_text),
            html.Span(f" · {_played(int(game['version']) - 1)}", className="quiet"),
            *clock_shown(game.get("clock"), names),
        ],
        id="play-now",
        **data_attributes({"data-version": str(game["version"]), "data-turn": "1" if legal else "0"}),
    )
    picker = picker_of(kind)(game["view"], legal, seat).to_dict() if legal and not over else None
    groups = (picker or {}).get("groups") or []
    group_options = [{"label": g, "value": g} for g in groups] if len(groups) > 1 else []
    first_group = groups[0] if groups else None
    card_options = (picker or {}).get("cards") or []
    return (
        table,
        log,
        status,
        picker,
        game["version"],
        group_options,
        first_group,
        card_options,
        [],
        message,
        picker is None,
        changed(now["log"], names, drawing, game["view"]),
    )


def changed(log: list[Any], names: list[str], drawing: Any, view: Any) -> str:
    """The last move of the log as this seat may read it (the engine's words for that reader): who made it and
    what it did, in one line ("" before the first move). A record no seat made (the seed revealed at the end)
    is passed over: the player's last move is still what changed the table."""
    last = next((e for e in reversed(log) if e.version > 1 and e.seat is not None), None)
    if last is None:
        return ""
    who = names[last.seat] if last.seat < len(names) else f"Seat {last.seat + 1}"
    said = "; ".join(drawing.log_text(line, view) for line in last.lines if line) or "no change"
    return f"Last move ({last.version - 1}), {who}: {said}"


def clock_shown(clock: dict[str, Any] | None, names: list[str]) -> list[Any]:
    """A timed game's clock beside the status: each seat's time left as of the last move, and for a seat whose time
    runs, when it runs out (``data-deadline``, ISO: the time left counts down from the move the page shows)."""
    if not clock:
        return []
    seats = []
    for seat in clock["seats"]:
        name = names[seat["seat"]] if seat["seat"] < len(names) else f"seat {seat['seat'] + 1}"
        text = f"{name} {minutes(seat['left'])}"
        if seat["running"]:
            text += f" (running, until {seat['deadline'][11:19]} UTC)"
        seats.append(
            html.Span(
                text,
                className="play-clock-seat" + (" running" if seat["running"] else ""),
                **data_attributes(
                    {"data-seat": str(seat["seat"]), "data-name": name, "data-deadline": seat["deadline"] or ""}
                ),
            )
        )
    label = "Clock (paused): " if clock["paused"] else "Clock: "
    return [html.Div([html.Span(label, className="quiet"), *_between(seats, " · ")], id="play-clock")]


def _between(items: list[Any], separator: str) -> list[Any]:
    out: list[Any] = []
    for i, item in enumerate(items):
        out.extend([separator, item] if i else [item])
    return out


def _cards_in(picker: dict[str, Any], group: str | None) -> bool:
    groups = picker.get("groups") or []
    return any(c["cards"] is not None and (len(groups) <= 1 or c["group"] == group) for c in picker.get("choices", []))
