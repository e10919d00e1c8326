"""A game's replay, stepped in the browser: every move, event and perspective without a round trip.

When a game opens, the page asks the server for its frames (``/replay-frames/<game>``, guarded like every
callback: the perspectives ``dashboard.access`` allows this visitor, checked again on every request).
The server draws each frame's table once (``dashboard.replay_frames``: HTML pieces shared between
frames, sent in parts of a few dozen moves, gzipped), and the page's script
(``dashboard/assets/replay.js``) then steps, jumps, plays and switches perspective by swapping the
drawn table in place: buttons, ← → (Shift: by event), Home / End, the move list, the slider, the round
buttons and a click on the VP chart. The address follows the move and the perspective, so the back
button and a copied link return to the same moment.

A "move" is one record of the game: move 1 is the setup, then one per move a seat made (and, at the
end, the seed's reveal). The page uses that one word throughout.

A finished game judged by ``digsite analyse`` shows the judge's card under the VP chart, asked for with it
(``judgement``; ``dashboard.replay_judgement``): the seats' accuracy, the win-chance graph (a click jumps, as on the
VP chart), the marks the script puts in the move list and the judge's note on the move shown.

A spectator's or a player's page only ever receives the perspectives it may take: the server never
draws a referee frame for them. The verification report is computed once per game version and cached.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

import dash
from dash import Input, Output, State, dcc, html
from flask import Response, request

from dashboard import figures, replay_judgement
from dashboard.access import REFEREE, Denied, Visitor
from dashboard.components import GRAPH_CONFIG, card, data_attributes
from dashboard.context import Context
from dashboard.format import STATUS, when
from dashboard.games import renderer
from dashboard.live import LIVE_PATH
from dashboard.replay_frames import CHUNK
from service.errors import NotFound
from service.reading.results import Timeline

CHECK_NAMES = {
    "records": "records",
    "hash_chain": "hash chain",
    "seed": "seed",
    "rules_version": "rules version",
    "replay": "rules replay",
    "game_over": "ending",
    "snapshots": "snapshots",
    "ledger": "ledger",
}

# Under the dashboard's prefix: GET <prefix>replay-frames/<game>?seat=&part=&moves=&events= (Data.replay_document), or
# ?seat=&part=&log=1 for the log alone (Data.replay_log), or ?seat=&part=all&events= for every part of a
# perspective in one document (Data.replay_parts).
FRAMES_PATH = "replay-frames/"


def moves_in(latest: int, over: bool) -> int:
    """The players' moves among a game's ``latest`` records, as the games list counts them: the first record
    sets the game up and a finished game's last reveals its seed; neither is a move. (The replay steps through
    every record: "Step 60 of 227" is move 59 of 225.)"""
    return max(0, latest - 1 - (1 if over else 0))


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, game_id: str, params: dict[str, str]) -> html.Div:
    # Denied (the router says so, in the same words whether or not the game exists) unless the visitor may
    # see this game; NotFound for an organiser asking for a game that does not exist.
    found = ctx.data.replay_page(visitor, game_id)
    opened, row, first = found["opened"], found["row"], found["first"]
    game_id = opened.game_id
    latest = int(first["latest_version"])
    names = [p["name"] for p in first["players"]]
    move = _int(params.get("v"), 1, 1, latest)
    seat = opened.choose(params.get("seat", REFEREE))
    labels = first.get("labels") or {}
    tournament = found["tournaments"].get(str(labels.get("tournament"))) if labels.get("tournament") else None
    where = " · ".join(
        x
        for x in (
            tournament,
            f"round {labels['round']}" if labels.get("round") is not None else None,
            f"table {labels['table']}" if labels.get("table") is not None else None,
        )
        if x
    )
    status = STATUS["over"] if opened.over else STATUS["playing"]
    result = ""
    if row and row.get("winner_seat") is not None:
        everyone = first["view"]["players"]  # every seat, with any the engine plays (a solo rival)
        result = f" · {everyone[row['winner_seat']]} {renderer(first['kind']).how_won(row.get('win_how'))}"
    perspectives = [
        {"value": p, "label": "Referee" if p == REFEREE else f"Seat {int(p) + 1}: {names[int(p)]}"}
        for p in opened.perspectives
    ]
    root = {
        "data-game": game_id,
        "data-latest": str(latest),
        "data-move": str(move),
        "data-seat": seat,
        "data-frames": app.get_relative_path(f"/{FRAMES_PATH}{game_id}"),
        "data-page": app.get_relative_path(f"/replay/{game_id}"),
        "data-names": json.dumps(names),
        "data-chunk": str(CHUNK),
    }
    if not opened.over:  # the page follows the game: one waiting request at a time (dashboard.live)
        root["data-live"] = app.get_relative_path(f"/{LIVE_PATH}{game_id}")
    mine = visitor.seat_in(game_id)
    play_link = (
        [
            dcc.Link(
                "Play from your seat →",
                href=app.get_relative_path(f"/play/{game_id}"),
                id="replay-play-link",
                className="btn btn-primary btn-small play-cta",
            )
        ]
        if mine is not None and not opened.over
        else []
    )
    return html.Div(
        [
            dcc.Store(id="replay-meta", data={"game": game_id, "latest": latest}),  # for the verification
            html.Div(
                [
                    html.Div(
                        [
                            dcc.Link("← All games", href=app.get_relative_path("/games"), className="quiet"),
                            html.H2(f"Replay: {' vs '.join(names)}"),
                            *play_link,
                        ],
                        className="replay-title",
                    ),
                    html.Div(
                        f"{where or 'Friendly game'} · started {when(first.get('created_at'))} · {status}{result} · "
                        f"{moves_in(latest, opened.over)} moves",
                        className="quiet small",
                    ),
                    html.Div("Checking the hash chain, seed and rules…", id="replay-verify", className="verify"),
                ],
                className="replay-head",
            ),
            html.Div(
                [
                    html.Div(
                        [
                            html.Button("«", id="replay-first", className="btn", title="First move (Home)"),
                            html.Button("◀", id="replay-prev", className="btn", title="One move back (←)"),
                            html.Button("▶ Play", id="replay-play", className="btn btn-primary"),
                            html.Button("▶", id="replay-next", className="btn", title="One move on (→)"),
                            html.Button("»", id="replay-last", className="btn", title="Last move (End)"),
                            html.Button(
                                "◁ event",
                                id="replay-prev-event",
                                className="btn btn-small",
                                title="One event back (Shift+←)",
                            ),
                            html.Button(
                                "event ▷",
                                id="replay-next-event",
                                className="btn btn-small",
                                title="One event on (Shift+→)",
                            ),
                            html.Span(f"Loading step {move}…", id="replay-version", className="version-label quiet"),
                        ],
                        className="controls",
                    ),
                    html.Div(id="replay-slider-box", className="slider"),
                    html.Div(
                        [
                            html.Span("Jump to", className="field-label"),
                            # The rounds' buttons come with the VP chart (``chart``: finding them evolves the game),
                            # each an item of this row.
                            html.Span(id="replay-rounds", style={"display": "contents"}),
                            html.Span("Perspective", className="field-label gap"),
                            html.Div(
                                [
                                    html.Button(
                                        p["label"],
                                        className="btn btn-small seat-choice"
                                        + (" active" if p["value"] == seat else ""),
                                        title="See the game as "
                                        + ("the referee (everything)" if p["value"] == REFEREE else p["label"]),
                                        **data_attributes({"data-seat": p["value"]}),
                                    )
                                    for p in perspectives
                                ],
                                id="replay-seat",
                                className="seats",
                                role="group",
                            ),
                            html.A("Link to this moment", id="replay-permalink", className="small permalink"),
                        ],
                        className="controls",
                    ),
                ],
                className="card replay-controls",
            ),
            html.Div(
                [
                    html.Div(
                        html.Div("Drawing the table…", className="quiet"), id="replay-table", className="replay-table"
                    ),
                    html.Aside(
                        [
                            card("Moves", html.Div(id="replay-moves", className="move-list"), className="moves-card"),
                            # The judge's note on the move shown, filled by the page's script once the judgement is
                            # drawn (a finished game judged only).
                            card(
                                "The judge at this move",
                                html.Div(id="replay-judged-move", className="judged-move"),
                                className="judged-card",
                                id="replay-judged-card",
                                hidden=True,
                            ),
                            card("Event log", html.Div(id="replay-log", className="log"), className="log-card"),
                        ],
                        className="replay-side",
                    ),
                ],
                className="replay-grid",
            ),
            # The VP chart comes once the first table shows (the page's script asks for it, ``chart``): Plotly's
            # script takes about a second to load and run, which the first table need not wait for.
            dcc.Store(id="replay-chart-wanted"),
            card(
                None,
                html.Div(html.Div("Drawing the VP chart…", className="quiet vp-wait"), id="replay-vp"),
                className="vp-card",
            ),
            # The judge's judgement of a finished game (dashboard.replay_judgement), asked for with the VP chart.
            html.Div(id="replay-judge"),
        ],
        id="replay-root",
        className="replay",
        **data_attributes(root),
    )


def round_buttons(kind: str, starts: dict[int, int]) -> list[Any]:
    """A button per round, to its first move (``Replays.round_starts``)."""
    return [
        html.Button(
            renderer(kind).round_name(int(r)),
            className="btn btn-small replay-round",
            **data_attributes({"data-move": str(v)}),
        )
        for r, v in sorted(starts.items())
    ]


def _chart(timeline: Timeline, move: int, round_name: figures.RoundName) -> Any:
    """The VP chart, in the replay's words (steps, as its stepper counts them) and with its legend below, so it
    keeps its width on a phone."""
    fig = figures.vp_timeline(timeline, move, round_name)
    for trace in fig.data:
        trace.hovertemplate = f"{trace.name}: %{{y}} VP at step %{{x}}<extra></extra>"
    fig.update_xaxes(title_text="step (the setup, then one per move)")
    fig.update_layout(
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.25, "yanchor": "top"},
        margin={"l": 45, "r": 10, "t": 50, "b": 40},
        height=300,
    )
    return fig


def _int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(text) if text is not None else default
    except ValueError:
        value = default
    return max(low, min(high, value))


def register(app: dash.Dash, ctx: Context) -> None:
    prefix = app.config.routes_pathname_prefix
    app.server.add_url_rule(
        f"{prefix}{FRAMES_PATH}<game_id>",
        f"{prefix.replace('/', '_')}digsite_replay_frames",
        lambda game_id: frames_response(ctx, game_id),
    )

    @app.callback(
        Output("replay-vp", "children"),
        Output("replay-rounds", "children"),
        Input("replay-chart-wanted", "data"),
        State("replay-meta", "data"),
        prevent_initial_call=True,
    )
    def chart(wanted: dict[str, Any] | None, meta: dict[str, Any] | None) -> Any:
        if not wanted or not meta:
            return dash.no_update, dash.no_update
        kind, timeline, starts = ctx.data.replay_timeline(ctx.visitor(), str(meta.get("game")))
        move = _int(str(wanted.get("v")), 1, 1, int(meta.get("latest") or 1))
        figure = _chart(timeline, move, renderer(kind).round_name)
        return dcc.Graph(id="replay-vp-graph", figure=figure, config=GRAPH_CONFIG), round_buttons(kind, starts)

    @app.callback(
        Output("replay-judge", "children"),
        Input("replay-chart-wanted", "data"),
        State("replay-meta", "data"),
        prevent_initial_call=True,
    )
    def judgement(wanted: dict[str, Any] | None, meta: dict[str, Any] | None) -> Any:
        """The judge's card (after the first table: the figures and the moves' words are read and named then)."""
        if not wanted or not meta:
            return dash.no_update
        found = ctx.data.replay_judgement(ctx.visitor(), str(meta.get("game")))
        move = _int(str(wanted.get("v")), 1, 1, int(meta.get("latest") or 1))
        return replay_judgement.section(found, move)

    @app.callback(Output("replay-verify", "children"), Input("replay-meta", "data"))
    def verification(meta: dict[str, Any]) -> Any:
        return verification_badges(ctx.data.verification(ctx.visitor(), str((meta or {}).get("game"))))


def frames_response(ctx: Context, game_id: str) -> Response:
    """One part of a perspective's frames (``Data.replay_document``) as JSON, gzipped when the browser takes
    it. Refusals answer like the API: a status, a machine-readable code and a sentence."""
    seat = request.args.get("seat", REFEREE)
    part_text = request.args.get("part", "0")
    # early=1: the page's head asking before the page is built, for the perspective the page will show (the one
    # named if the visitor may take it, as the page chooses); a visitor who may not see the game gets nothing
    # (204: the page itself then says so), not an error in the browser's console.
    early = request.args.get("early") == "1"
    every = part_text == "all" and not early and request.args.get("log") != "1"
    if not every and (not part_text.isdigit() or len(part_text) > 6):
        return _error(400, "bad_part", "part must be a whole number from 0, or all")
    try:
        if every:  # every part of a perspective at once (the page's background loading)
            found = ctx.data.replay_parts(ctx.visitor(), game_id, seat, by_event=request.args.get("events") == "1")
        elif request.args.get("log") == "1":  # the log alone, asked for once the first table is drawn
            found = ctx.data.replay_log(ctx.visitor(), game_id, seat, int(part_text), chosen=early)
        else:
            found = ctx.data.replay_document(
                ctx.visitor(),
                game_id,
                seat,
                int(part_text),
                with_moves=request.args.get("moves") == "1",
                by_event=request.args.get("events") == "1",
                chosen=early,
            )
    except Denied as refused:
        return Response(status=204) if early else _error(403, "denied", refused.reason)
    except NotFound as missing:
        return Response(status=204) if early else _error(404, missing.code, missing.message)
    body = json.dumps(found, separators=(",", ":")).encode()
    headers = {"Cache-Control": "private, no-cache", "Vary": "Cookie, Accept-Encoding"}
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body = gzip.compress(body, 6)
        headers["Content-Encoding"] = "gzip"
    return Response(body, 200, headers, content_type="application/json")


def _error(status: int, code: str, message: str) -> Response:
    body = json.dumps({"error": {"code": code, "message": message}})
    return Response(body, status, content_type="application/json")


def coverage_badge(coverage: dict[str, Any] | None) -> Any:
    """Whether a published (signed) checkpoint pins this game: only then can the records not be rewritten
    unseen by whoever holds that checkpoint (docs/audit.md)."""
    checkpoint = (coverage or {}).get("checkpoint")
    scope = (coverage or {}).get("covered")
    if not scope or not checkpoint:
        return html.Span(
            "○ not yet in a published checkpoint",
            className="badge badge-small",
            id="replay-coverage",
            title="Only the hash chain and the ledger vouch for this game until the next checkpoint is issued.",
        )
    what = "every record" if scope == "whole" else "its first record (it was in play then)"
    agrees = checkpoint.get("ledger_agrees")
    return html.Span(
        f"{'✔' if agrees else '✘'} checkpoint of {checkpoint['issued_at'][:16].replace('T', ' ')} pins {what}",
        className="badge badge-small " + ("badge-ok" if agrees else "badge-bad"),
        id="replay-coverage",
        title=(
            f"Signed checkpoint of the ledger's first {checkpoint['ledger_size']} entries"
            + ("" if agrees else "; the store's ledger no longer agrees with it")
            + ". Prove it with: digsite verify --all --checkpoint FILE --public-key KEY"
        ),
    )


def verification_badges(report: dict[str, Any]) -> list[Any]:
    checks = report["checks"]
    if report["ok"]:
        head = html.Span("✔ Verified: every record checks out", className="badge badge-ok", id="replay-verified")
    else:
        bad = report.get("first_bad")
        where = f" at record {bad['version']}" if bad else ""
        head = html.Span(f"✘ Verification failed{where}", className="badge badge-bad", id="replay-verified")
    badges = [
        html.Span(
            f"{'✔' if c['ok'] else '✘'} {CHECK_NAMES.get(c['name'], c['name'])}",
            className="badge badge-small " + ("badge-ok" if c["ok"] else "badge-bad"),
            title=c["detail"],
        )
        for c in checks
    ]
    badges.append(coverage_badge(report.get("coverage")))
    if report.get("details_hidden"):  # a player's view of a game in play: the details name hashes
        hidden = html.Span("The details are shown to everyone once the game is over.", className="quiet small")
        return [head, *badges, hidden]
    details = html.Details(
        [
            html.Summary("What was checked"),
            html.Ul([html.Li(f"{CHECK_NAMES.get(c['name'], c['name'])}: {c['detail']}") for c in checks]),
        ],
        className="small",
    )
    return [head, *badges, details]
