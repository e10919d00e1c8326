"""Games: organisers create them; seats read their view and play with their token; everyone reads the log
as their role allows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

from flask import Blueprint, Flask, Response, current_app, jsonify, request, url_for

from service.api import errors, schemas
from service.api.auth import digsite, organiser_only, read_port, viewer_for
from service.api.encoding import AnswerJSON
from service.api.openapi import (
    BODY_ERRORS,
    LISTED,
    ORGANISER,
    SEAT_OR_ORGANISER,
    described,
    operation,
    ref,
    streamed_move,
)
from service.api.responses import GameList, Log, MoveResult, WaitFailed
from service.api.validation import check, json_body, query_args
from service.caller_values import parse_uuid
from service.commands.application import Digsite, Viewer
from service.commands.results import ClockChange, GameCreated, MoveAcknowledged
from service.errors import Conflict, Forbidden, NotFound
from service.reading import listing
from service.reading.results import Analysis, Broadcast, Updates
from service.serving import broadcast as broadcasting
from service.serving import push

bp = Blueprint("games", __name__)

LABELS = ("tournament", "round", "table")
NDJSON = "application/x-ndjson"  # a move's streamed answer: one JSON document a line (``act``)


@bp.post("/games")
@described(
    operation(
        "createGame",
        "Start a game: seats, optional tournament labels and seed.",
        tag="games",
        security=ORGANISER,
        body="NewGame",
        ok=(201, "Created, with one secret token per seat.", ref("schemas", "GameCreated")),
        errors=[*BODY_ERRORS, "Unauthorized", "Forbidden", "NotFound", "Conflict"],
        description="A game of a tournament is the tournament's game under its rule options (400 "
        "`tournament_game_mismatch`, `tournament_options_mismatch`; no `options`: the tournament's), "
        "seats each player once (400 `player_seated_twice`), and the same players play one game at a "
        "table of a round (409 `duplicate_game`); a tournament whose rounds are seated here takes no game created "
        "directly (409 `tournament_seated_here`).",
    )
)
@organiser_only
def create_game() -> tuple[GameCreated, int, dict[str, str]]:
    body = json_body()
    labels = {name: body[name] for name in LABELS if body.get(name) is not None}
    options = body.get("options")
    if options is not None:
        options = check(options, schemas.options_of(body["game"]), "options")
    created = digsite().create_game(body["game"], body["seats"], options, labels, body.get("seed"), body.get("clock"))
    return created, 201, {"Location": url_for(".game", game_id=created["id"])}


def etag(latest: int, shown: int, viewer: Viewer) -> str:
    """The entity tag of a game as one viewer sees it: it changes whenever that answer could (a new record,
    another version shown, another seat), and names nothing the viewer could not see in the answer itself."""
    who = "r" if viewer.seat is None else f"s{viewer.seat}"
    return f"{latest}-{shown}-{who}"


@bp.get("/games")
@described(
    operation(
        "listGames",
        "Games, newest first, a page at a time, filtered by game, tournament, round, status, player.",
        tag="games",
        security=ORGANISER,
        parameters=schemas.GAMES_QUERY,
        ok=(200, "A page of games.", ref("schemas", "GameList")),
        errors=["BadRequest", "Unauthorized", "Forbidden"],
        description=LISTED,
    )
)
@organiser_only
def games() -> GameList:
    """Games, newest first, a page at a time (from the read models: a new game is listed a moment later)."""
    args = query_args()
    rows, following = listing.page(
        read_port().db, listing.GAMES, args, args.get("cursor"), args.get("limit", 50), player=args.get("player")
    )
    return {"games": [listing.game_item(row) for row in rows], "next": following}


def _get_game_operation() -> dict[str, Any]:
    """Reading a game is conditional: its ``ETag`` changes with the game's version, the version shown and the
    caller's seat; ``If-None-Match`` with the current tag is answered 304 without a body."""
    out = operation(
        "getGame",
        "The game as the caller may see it (a seat: its view and legal actions; an organiser: all).",
        tag="games",
        security=SEAT_OR_ORGANISER,
        parameters=[*schemas.GAME_QUERY, schemas.IF_NONE_MATCH],
        ok=(200, "The game.", ref("schemas", "Game")),
        errors=["BadRequest", "Unauthorized", "NotFound"],
    )
    tag = {"description": "The game's tag for `If-None-Match`.", "schema": {"type": "string"}}
    out["responses"]["200"]["headers"] = {"ETag": tag}
    out["responses"]["304"] = {"description": "Not changed since the tag sent: no body.", "headers": {"ETag": tag}}
    return out


@bp.get("/games/<game_id>")
@described(_get_game_operation())
def game(game_id: str) -> Response:
    """The game as the caller sees it, with an ``ETag``: a request whose ``If-None-Match`` holds the tag of the
    game as it is now is answered 304 from the game's version alone, without building the view."""
    viewer = viewer_for(game_id)
    args = query_args()
    sent_tags = request.headers.get("If-None-Match")
    if sent_tags is not None:
        check(sent_tags, schemas.IF_NONE_MATCH["schema"], "If-None-Match")
    reader = read_port().reader
    if request.if_none_match:
        latest = reader.latest_version(game_id)
        shown = args.get("version", latest)
        if 1 <= shown <= latest and request.if_none_match.contains_weak(etag(latest, shown, viewer)):
            return _conditional(Response(status=304), latest, shown, viewer)
    found = reader.game(game_id, viewer, args.get("version"))
    return _conditional(jsonify(found), found["latest_version"], found["version"], viewer)


def _conditional(response: Response, latest: int, shown: int, viewer: Viewer) -> Response:
    response.set_etag(etag(latest, shown, viewer))
    # The answer depends on the token: shared caches must not keep it, and a client revalidates it each time.
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Authorization"
    return response


@bp.post("/games/<game_id>/actions")
@described(
    streamed_move(
        operation(
            "submitAction",
            "Play one action for your seat on top of the version you saw.",
            tag="games",
            security=[{"seatToken": []}],
            parameters=schemas.SUBMIT_QUERY,
            body="Submit",
            ok=(200, "The move is recorded.", ref("schemas", "MoveResult")),
            errors=[*BODY_ERRORS, "Unauthorized", "Forbidden", "NotFound", "Conflict", "RuleRejected"],
            description="Exactly one action lands per version: if two arrive for the same version, one "
            "gets 409 and must reload, unless it is a secret choice made at the same time as other seats' "
            "(a round-start flip, say), which lands after theirs, on the latest version its answer names: "
            "those moves change nothing it could see or choose. A seat's own move since always makes its "
            "version stale. The engine reveals the choices together.",
        )
    )
)
def act(game_id: str) -> Response | MoveResult:
    """Play a move; with ``?wait=S``, then wait for the seat's next turn and answer it as ``next`` (the push
    channel's answer), so that a client playing a game makes one request a move instead of two. A client that
    accepts ``application/x-ndjson`` gets the move's acknowledgement at once, as the first line of a streamed
    answer, and its next turn as the second line when it comes (``_streamed``)."""
    service = digsite()
    handle = service.handle(game_id)  # (the game, looked up once, when the token check first asks for it)
    viewer = viewer_for(game_id, handle)
    wait = query_args().get("wait", 0)
    body = json_body()
    action = check(body["action"], schemas.action_of(handle.kind), "action")
    streamed = wait > 0 and _wants_stream()  # (without a wait the move's answer is all there is to send)
    hub = push.hub_for(service)
    mark = hub.mark()  # (before the move: lets the wait trust the game this move leaves cached; push.updates)
    landed = service.move(handle, viewer, body["version"], action)  # (waits here hear of it: ``Hub.landed``)
    result = cast(MoveResult, landed)  # (the very dict: ``next`` may join it below)
    if streamed:
        return _streamed(lambda: _next_turn(service, game_id, viewer, result["version"], wait, mark), result)
    if wait:
        following = _next_turn(service, game_id, viewer, result["version"], wait, mark)
        if "error" not in following:  # (the move stands whatever the wait met: its answer says so, without `next`)
            result["next"] = following
    return result


@bp.post("/games/<game_id>/clock")
@described(
    operation(
        "changeClock",
        "Pause or resume a timed table, or add time to a seat (or every seat), with a reason.",
        tag="games",
        security=ORGANISER,
        body="ClockChange",
        ok=(
            201,
            "The change is recorded (a clock record); the game's clock as it now stands.",
            ref("schemas", "ClockChange"),
        ),
        errors=[*BODY_ERRORS, "Unauthorized", "Forbidden", "NotFound", "Conflict"],
        description="Organisers only: a seat's token is refused (401 `invalid_api_key`). Each change is a record "
        "of the game, with its reason, that `verify` rechecks. Timeouts already due are recorded first. 409 "
        "`no_clock` (an untimed game), `game_over`, `table_paused` (a pause while paused), `table_not_paused` (a "
        "resume while not).",
    )
)
@organiser_only
def change_clock(game_id: str) -> tuple[ClockChange, int]:
    body = json_body()
    changed = digsite().change_clock(game_id, body["change"], body["reason"], body.get("seconds"), body.get("seat"))
    return changed, 201


def _wants_stream() -> bool:
    """Whether the client named ``application/x-ndjson`` among what it accepts (a wildcard such as ``*/*``, which
    curl sends, keeps the single JSON answer every client had before)."""
    accept = request.headers.get("Accept", "")
    return NDJSON in accept and any(value == NDJSON and quality > 0 for value, quality in request.accept_mimetypes)


def _next_turn(
    service: Digsite, game_id: str, viewer: Viewer, version: int, wait: float, mark: int | None
) -> Updates | WaitFailed:
    """After a move that landed at ``version``: the push channel's answer for the seat's next turn; or, if the wait
    failed (the store went down, the server would not hold it), the error it met as the error alone would have been
    answered (``{"error": {"code", "message"}}``), with ``"ready": false`` and the ``retry_after`` (seconds) of its
    ``Retry-After`` beside it: the move stands either way, so the move's answer must not become that error."""
    try:
        return push.updates(service, game_id, viewer, version, wait, "turn", include_game=True, mark=mark)
    except Exception as error:
        refusal = errors.handle(error)  # (logs it if it is a bug, as the error handler would)
        out: WaitFailed = {"error": refusal.get_json()["error"], "ready": False}
        retry_after = refusal.headers.get("Retry-After", "")
        if retry_after.isdigit():
            out["retry_after"] = int(retry_after)
        return out


def _streamed(following: Callable[[], Updates | WaitFailed], acknowledgement: MoveAcknowledged) -> Response:
    """The move's answer as newline-delimited JSON: the acknowledgement (the move's version, events, status and who
    is to act) sent at once, then what ``following`` answers (the next turn, a wait that ran out, or the error the
    wait met) when it comes. A client that loses the connection after the first line knows its move landed."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    written = cast(AnswerJSON, app.json).written

    def lines() -> Iterator[bytes]:
        yield written(acknowledgement)
        with app.app_context():  # (the request's context is gone once its answer started; an error is logged here)
            yield written(following())

    response = app.response_class(lines(), mimetype=NDJSON)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # (nginx would otherwise hold the first line until the last)
    return response


@bp.get("/games/<game_id>/log")
@described(
    operation(
        "getLog",
        "The game's records (seats: redacted and without hashes while the game is on).",
        tag="games",
        security=SEAT_OR_ORGANISER,
        parameters=schemas.LOG_QUERY,
        ok=(200, "The records, oldest first.", ref("schemas", "Log")),
        errors=["BadRequest", "Unauthorized", "NotFound"],
    )
)
def log(game_id: str) -> Log:
    viewer = viewer_for(game_id)
    args = query_args()
    return {"records": read_port().reader.log(game_id, viewer, args.get("after", 0), args.get("limit", 1000))}


@bp.get("/games/<game_id>/analysis")
@described(
    operation(
        "getAnalysis",
        "The judge's judgement of a finished game: every decision, and each seat's accuracy.",
        tag="games",
        security=SEAT_OR_ORGANISER,
        parameters=schemas.ANALYSIS_QUERY,
        ok=(200, "The stored judgement (docs/judge.md).", ref("schemas", "Analysis")),
        errors=["BadRequest", "Unauthorized", "NotFound", "Conflict"],
        description="Read as the game's log is (a seat's token or the organisers' key). Only a finished game is "
        "judged: a game in play is 409 `game_not_finished` for everyone, so its judgement tells no one what a "
        "seat could not see. A finished game not judged yet (at that budget) is 404 `not_analysed`: "
        "`digsite analyse` judges it.",
    )
)
def analysis(game_id: str) -> Analysis:
    viewer_for(game_id)  # (the same door as the log's: a seat of this game or an organiser)
    args = query_args()
    port = read_port()
    if port.reader.over_at(game_id) is None:
        raise Conflict("this game is still being played: it is judged once it is over", "game_not_finished")
    budget = args.get("budget")
    found = port.judgements.of(str(parse_uuid(game_id, "game")), budget=budget)
    if found is None:
        at = "" if budget is None else f" at budget {budget}"
        raise NotFound(
            f"this game has not been analysed{at} yet: `digsite analyse --game {game_id}` judges it", "not_analysed"
        )
    return found


@bp.get("/games/<game_id>/updates")
@described(
    operation(
        "getUpdates",
        "The push channel (a long poll): new records as you may read them, the version, who is to act.",
        tag="games",
        security=SEAT_OR_ORGANISER,
        parameters=schemas.UPDATES_QUERY,
        ok=(200, "What is new since `after` (nothing if the wait ran out).", ref("schemas", "Updates")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
        description="Answers at once if there is something after `after` (or, with `until=turn`, if "
        "your seat is to act or the game is over); else holds the request up to `wait` seconds and "
        "answers as soon as there is, whichever server process recorded the move. Call again with "
        "`after` set to the answer's `version`: nothing is missed between calls. Who may read the log "
        "may subscribe; records are redacted exactly as the log redacts them for the caller. A wait "
        "past what the server holds is refused at once: 503 `busy` with `Retry-After`.",
    )
)
def updates(game_id: str) -> Updates:
    """The push channel, as a long poll: the records after ``after`` as the caller may read them, the latest
    version and who is to act, answered as soon as there is something (up to ``wait`` seconds)."""
    viewer = viewer_for(game_id)
    args = query_args()
    until = args.get("until", "record")
    if until == "turn" and viewer.referee:
        raise Forbidden("'until=turn' waits for a seat's turn: use a seat token", "seat_token_required")
    return push.updates(
        digsite(),
        game_id,
        viewer,
        args.get("after", 0),
        args.get("wait", 0),
        until,
        include_game=args.get("include") == "game",
        refuse_busy=True,  # (a wait past what the server holds: 503 with Retry-After)
    )


@bp.get("/games/<game_id>/broadcast")
@described(
    operation(
        "getBroadcast",
        "A game in play as spectators follow it: public only, behind by its tournament's delay (no token).",
        tag="games",
        parameters=schemas.BROADCAST_QUERY,
        ok=(
            200,
            "The game at the latest version the delay allows, and the records since `after`.",
            ref("schemas", "Broadcast"),
        ),
        errors=["BadRequest", "NotFound"],
        description="Open to anyone, without a token, while the game's tournament broadcasts its games (the "
        "organiser sets the delay: PUT /tournaments/{tournament_id}/broadcast); otherwise 404 `not_broadcast`, "
        "as for no such game. Shown: the engine's view for a seat at no table (nothing any one seat alone may "
        "see: no hand, no deck order, no secret choice, no seed before the end) at the latest version the delay "
        "allows (`moves` N: all but the last N moves; `minutes` M: the last record at least M minutes old, by the "
        "times the store recorded), and the records after `after` up to it, redacted as for a seat not at the "
        "table. A finished game is shown to its end. With `wait`, the answer comes as soon as a version after "
        "`after` becomes visible (by a move, or by time passing), whichever server recorded the move.",
    )
)
def broadcast(game_id: str) -> Broadcast:
    """The delayed broadcast of a game in play (``service.serving.broadcast``)."""
    args = query_args()
    return broadcasting.broadcast(digsite(), game_id, args.get("after", 0), args.get("wait", 0))
