"""A game's replay: step through versions (buttons, slider, rounds, play/pause, arrow keys), from the
referee's seat or exactly what one seat could see, with the table, the event log and the VP chart.

One step costs one ``Queries.replay`` (nearest snapshot, then ``evolve``): the cursor itself moves in
the browser (a clientside callback), the server draws the frame, and the chart only moves its cursor
line (a ``Patch``). The verification report is computed once per game version and cached.

The perspectives offered, and the ones the server draws, are those ``dashboard.access`` allows the
visitor for this game: a game in play shows a player their own seat only, and nobody else anything.
Whatever the browser sends (game, seat) is checked again on every frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dash
from dash import ALL, Input, Output, Patch, State, dcc, html

from dashboard import figures
from dashboard.access import REFEREE, Visitor
from dashboard.components import GRAPH_CONFIG, card, data_attributes
from dashboard.context import Context
from dashboard.format import HOW, STATUS, log_line, round_name, when
from dashboard.games import renderer

LOG_VERSIONS = 40  # log entries shown around the cursor (the log up to the cursor, newest last)

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

# Move the cursor in the browser: no round trip, so quick clicks and key presses never race each other.
CURSOR_JS = """
function (first, prev, next, last, rounds, ticks, play, click, prevEvent, nextEvent, slider, cursor, paused, meta) {
    var trig = (window.dash_clientside.callback_context.triggered || []);
    var id = trig.length ? trig[0].prop_id.slice(0, trig[0].prop_id.lastIndexOf(".")) : "";
    var latest = meta.latest, counts = meta.events;
    var v = (cursor && cursor.v) || slider || 1, k = cursor ? cursor.k : null, stop = paused;
    var shown = (k === null || k === undefined) ? counts[v - 1] : k;
    if (id === "replay-slider") { v = slider || 1; k = null; }
    else if (id === "replay-first") { v = 1; k = null; }
    else if (id === "replay-prev") { v = Math.max(1, v - 1); k = null; }
    else if (id === "replay-next") { v = Math.min(latest, v + 1); k = null; }
    else if (id === "replay-last") { v = latest; k = null; }
    else if (id === "replay-prev-event") {
        if (shown > 1) { k = shown - 1; } else if (v > 1) { v = v - 1; k = null; }
    }
    else if (id === "replay-next-event") {
        if (shown < counts[v - 1]) { k = shown + 1 < counts[v - 1] ? shown + 1 : null; }
        else if (v < latest) { v = v + 1; k = counts[v - 1] > 1 ? 1 : null; }
    }
    else if (id === "replay-timer") { v = Math.min(latest, v + 1); k = null; if (v >= latest) { stop = true; } }
    else if (id === "replay-play") {
        if (paused) { if (v >= latest) { v = 1; } stop = false; } else { stop = true; }
        k = null;
    }
    else if (id === "replay-vp") {
        if (click && click.points && click.points.length) {
            v = Math.max(1, Math.min(latest, Math.round(click.points[0].x)));
            k = null;
        }
    }
    else if (id.charAt(0) === "{") {
        var start = meta.starts[String(JSON.parse(id).round)];
        if (start) { v = start; k = null; }
    }
    return [v, {v: v, k: k}, stop, stop ? "▶ Play" : "⏸ Pause"];
}
"""


def layout(app: dash.Dash, ctx: Context, visitor: Visitor, game_id: str, params: dict[str, str]) -> html.Div:
    # Denied (the router says so, in the same words whether or not the game exists) unless the visitor may
    # see this game; NotFound for an organiser asking for a game that does not exist.
    found = ctx.data.replay_page(visitor, game_id)
    opened, row, first = found["opened"], found["row"], found["first"]
    game_id = opened.game_id
    latest = int(first["latest_version"])
    names = [p["name"] for p in first["players"]]
    starts = {int(k): int(v) for k, v in found["starts"].items()}
    max_rounds = renderer(first["kind"]).max_rounds()
    version = _int(params.get("v"), 1, 1, latest)
    seat = opened.choose(params.get("seat", REFEREE))
    timeline = found["timeline"]
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
        result = f" · {everyone[row['winner_seat']]} {HOW.get(row.get('win_how') or '', 'won')}"
    meta = {
        "game": game_id,
        "latest": latest,
        "names": names,
        "starts": {str(k): v for k, v in starts.items()},
        "events": found["events"],  # per version: how many events, for stepping by event
    }
    return html.Div(
        [
            dcc.Store(id="replay-meta", data=meta),
            dcc.Store(id="replay-cursor", data={"v": version, "k": None}),  # k: events shown of version v
            dcc.Interval(id="replay-timer", interval=700, disabled=True),
            html.Div(
                [
                    dcc.Link("← All games", href=app.get_relative_path("/games"), className="quiet"),
                    html.H2(f"Replay: {' vs '.join(names)}"),
                    html.Div(
                        f"{where or 'Friendly game'} · started {when(first.get('created_at'))} · {status}{result} · "
                        f"{latest} versions",
                        className="quiet",
                    ),
                    html.Div("Checking the hash chain, seed and rules…", id="replay-verify", className="verify"),
                ],
                className="replay-head",
            ),
            card(
                None,
                html.Div(
                    [
                        html.Button("« Start", id="replay-first", className="btn", title="First version"),
                        html.Button("◀ Back", id="replay-prev", className="btn", title="One move back (←)"),
                        html.Button("▶ Play", id="replay-play", className="btn btn-primary"),
                        html.Button("Forward ▶", id="replay-next", className="btn", title="One move forward (→)"),
                        html.Button("End »", id="replay-last", className="btn", title="Last version"),
                        html.Button(
                            "◁ Event",
                            id="replay-prev-event",
                            className="btn btn-small",
                            title="One event back (Shift+←)",
                        ),
                        html.Button(
                            "Event ▷", id="replay-next-event", className="btn btn-small", title="One event on (Shift+→)"
                        ),
                        html.Span(id="replay-version", className="version-label"),
                        html.Span("Keys: ← → (Shift: by event)", className="quiet small"),
                    ],
                    className="controls",
                ),
                html.Div(
                    dcc.Slider(
                        id="replay-slider",
                        min=1,
                        max=latest,
                        step=1,
                        value=version,
                        marks={v: round_name(r, max_rounds) for r, v in sorted(starts.items())},
                        updatemode="mouseup",
                    ),
                    className="slider",
                ),
                html.Div(
                    [
                        html.Span("Jump to", className="field-label"),
                        *[
                            html.Button(
                                round_name(r, max_rounds),
                                id={"type": "replay-round", "round": r},
                                className="btn btn-small",
                            )
                            for r in sorted(starts)
                        ],
                        html.A("Link to this moment", id="replay-permalink", className="small permalink"),
                    ],
                    className="controls",
                ),
                html.Div(
                    [
                        html.Span("Perspective", className="field-label"),
                        dcc.RadioItems(
                            id="replay-seat",
                            options=[
                                {"label": "Referee (everything)", "value": REFEREE}
                                if p == REFEREE
                                else {"label": f"Seat {int(p) + 1}: {names[int(p)]}", "value": p}
                                for p in opened.perspectives
                            ],
                            value=seat,
                            inline=True,
                            className="seats",
                        ),
                    ],
                    className="controls",
                ),
            ),
            html.Div(
                [
                    html.Div(id="replay-table", className="replay-table"),
                    card("Event log", html.Div(id="replay-log", className="log"), className="log-card"),
                ],
                className="replay-grid",
            ),
            card(
                None,
                dcc.Graph(
                    id="replay-vp",
                    figure=figures.vp_timeline(timeline, version, max_rounds),
                    config=GRAPH_CONFIG,
                ),
            ),
        ],
        className="replay",
    )


def _int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(text) if text is not None else default
    except ValueError:
        value = default
    return max(low, min(high, value))


def register(app: dash.Dash, ctx: Context) -> None:
    app.clientside_callback(
        CURSOR_JS,
        Output("replay-slider", "value"),
        Output("replay-cursor", "data"),
        Output("replay-timer", "disabled"),
        Output("replay-play", "children"),
        Input("replay-first", "n_clicks"),
        Input("replay-prev", "n_clicks"),
        Input("replay-next", "n_clicks"),
        Input("replay-last", "n_clicks"),
        Input({"type": "replay-round", "round": ALL}, "n_clicks"),
        Input("replay-timer", "n_intervals"),
        Input("replay-play", "n_clicks"),
        Input("replay-vp", "clickData"),
        Input("replay-prev-event", "n_clicks"),
        Input("replay-next-event", "n_clicks"),
        Input("replay-slider", "value"),  # a drag on the slider moves the cursor too (a circular sync)
        State("replay-cursor", "data"),
        State("replay-timer", "disabled"),
        State("replay-meta", "data"),
        prevent_initial_call=True,
    )

    @app.callback(
        Output("replay-version", "children"),
        Output("replay-table", "children"),
        Output("replay-log", "children"),
        Output("replay-vp", "figure"),
        Output("replay-prev", "disabled"),
        Output("replay-next", "disabled"),
        Output("replay-permalink", "href"),
        Input("replay-cursor", "data"),
        Input("replay-seat", "value"),
        State("replay-meta", "data"),
    )
    def frame(cursor: dict[str, Any] | None, seat: str | None, meta: dict[str, Any]) -> tuple[Any, ...]:
        version = _int(str((cursor or {}).get("v") or 1), 1, 1, 1 << 30)
        events = _int(str((cursor or {}).get("k") or 0), 0, 0, 1 << 30)
        # The game and the seat come from the browser: Data.frame checks both against the session (403 if not).
        shown = ctx.data.frame(ctx.visitor(), str((meta or {}).get("game")), version, seat, events or None)
        version, latest = int(shown["version"]), int(shown["latest_version"])
        latest = _int(str((meta or {}).get("latest")), latest, version, latest)  # where the page's cursor stops
        chart = Patch()
        chart["layout"]["shapes"][0] = figures.cursor_shape(version)
        permalink = app.get_relative_path(f"/replay/{shown['id']}?v={version}&seat={seat}")
        return (
            version_label(shown, version, latest),
            renderer(shown["kind"]).draw_table(shown),
            event_log(shown["log"], version, shown["kind"], shown.get("view") or {}),
            chart,
            version <= 1,
            version >= latest,
            permalink,
        )

    @app.callback(Output("replay-verify", "children"), Input("replay-meta", "data"))
    def verification(meta: dict[str, Any]) -> Any:
        return verification_badges(ctx.data.verification(ctx.visitor(), str((meta or {}).get("game"))))


def version_label(shown: dict[str, Any], version: int, latest: int) -> list[Any]:
    log = shown.get("log") or []
    last = log[-1] if log else None
    what = "setup"
    if last is not None and last["version"] == version:
        if last["seat"] is not None:
            what = f"move by {shown['players'][last['seat']]['name']}"
        elif version > 1:
            what = "the seed is revealed"
    label = [html.Strong(f"Version {version} of {latest}"), html.Span(f" · {what}", className="quiet")]
    if shown.get("events_shown", 0) < shown.get("event_count", 0):
        label.append(
            html.Span(
                f" · event {shown['events_shown']} of {shown['event_count']}", className="quiet", id="replay-event"
            )
        )
    return label


def event_log(
    log: list[dict[str, Any]], version: int, kind: str | None = None, view: Mapping[str, Any] | None = None
) -> list[Any]:
    """The log up to the cursor, newest last; the current version's lines highlighted, each as the game's
    dashboard part tells it (``Renderer.log_text``: Arnak names the codes of cards and sites)."""
    told = renderer(kind).log_text if kind is not None else (lambda line, _view: line)
    seen = view or {}
    entries = []
    hidden = max(0, len(log) - LOG_VERSIONS)
    if hidden:
        entries.append(
            html.Div(f"{hidden} earlier version(s) not shown: step back to read them.", className="quiet small")
        )
    for entry in log[hidden:]:
        current = entry["version"] == version
        entries.append(
            html.Div(
                [
                    html.Span(f"v{entry['version']}", className="log-version"),
                    html.Div(
                        [html.Div(log_line(told(line, seen))) for line in entry["lines"]] or [html.Div("(no change)")]
                    ),
                ],
                className="log-entry log-current" if current else "log-entry",
                **data_attributes({"data-version": str(entry["version"])}),
            )
        )
    # Rendered bottom-up (column-reverse) so the newest lines stay in view without scrolling.
    return list(reversed(entries))


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
