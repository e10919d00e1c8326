"""The OpenAPI 3.1 document of the play API, served at ``/api/v1/openapi.json``.

Request bodies and query parameters are the very schemas the routes check requests against
(``service.api.schemas``); a test checks that every route of the app is described here.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from service.api import schemas

JSON = "application/json"


def ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or list(properties), **extra}


ERRORS: dict[str, tuple[int, str]] = {
    "BadRequest": (
        400,
        "The request cannot be read: `malformed_request` (bad JSON, unknown or missing fields, wrong types, "
        "numbers out of range, unknown query parameters), `malformed_action` (the action's shape), "
        "`invalid_text` (a string holds a control character, a lone surrogate or a non-character), "
        "`weak_seed` (a seed that is not 32 to 128 hex digits), `invalid_player`, `invalid_tournament`, "
        "`invalid_setup`, `invalid_cursor` (a list's cursor no list gave); for a game of a tournament, "
        "`tournament_game_mismatch` (another game than the tournament's), `tournament_options_mismatch` (other "
        "rule options than the tournament's), `player_seated_twice` (a player in two seats). Nothing was stored.",
    ),
    "Unauthorized": (
        401,
        "`missing_token` (no `Authorization: Bearer ...` header), `invalid_api_key` (not the organisers' key; a "
        "tournament endpoint anyone may read takes no token or that key, and refuses a seat token), "
        "`invalid_token` (not a seat token of this game).",
    ),
    "Forbidden": (
        403,
        "`organiser_api_disabled` (no DIGSITE_API_KEY is set), `seat_token_required` (moves are made with a "
        "seat token, and only a seat waits for its turn), `not_your_seat` (the action names another seat), "
        "`not_your_turn`.",
    ),
    "NotFound": (
        404,
        "`unknown_game`, `unknown_player`, `unknown_tournament` (also for ids that are not UUIDs), "
        "`unknown_version`, `not_found` (no such route).",
    ),
    "Conflict": (
        409,
        "`stale_version` (the game has moved on since the version you acted on: reload and retry) or "
        "`conflict` (another move landed at the same moment); for a new game of a tournament, `duplicate_game` "
        "(the same players already have a game at that table of that round: not to retry). Nothing was recorded.",
    ),
    "PayloadTooLarge": (
        413,
        "`payload_too_large`: bodies are limited to 64 KiB, also when sent without a length (chunked).",
    ),
    "UriTooLong": (414, "`uri_too_long`: the path and query are limited to 2048 bytes."),
    "UnsupportedMediaType": (415, "`unsupported_media_type`: send `Content-Type: application/json`."),
    "RuleRejected": (
        422,
        "The rules refuse the action: `rule_violation` (the message names the rule) or `game_over`. "
        "Nothing was recorded.",
    ),
    "Unavailable": (
        503,
        "`store_unavailable`: the database cannot be reached or is read-only; nothing was recorded. Answered at "
        "once, with `Retry-After` (seconds): retry the same request then. `schema_not_ready`: run "
        "`digsite db upgrade`. `busy` (the push channel): the server holds as many waiting requests as it may; ask "
        "again after `Retry-After`.",
    ),
    "Unexpected": (500, "`internal_error`: a bug, logged on the server."),
    "TooManyWrongSecrets": (
        429,
        "`too_many_wrong_keys` (too many wrong organiser keys from your address) or `too_many_wrong_tokens` (too "
        "many wrong tokens for this game, or for any game, from your address): every key or token of that kind "
        "is refused, the right one too, until `Retry-After` seconds have passed. Nothing was compared or done.",
    ),
}
WITH_RETRY_AFTER = (429, 503)
NEXT = {
    "type": ["string", "null"],
    "description": "The cursor of the next page (pass it as `cursor`); null on the last page. A page may hold fewer "
    "items than `limit` and still have a next one.",
}
RETRY_AFTER = {
    "description": "Seconds to wait before retrying.",
    "schema": {"type": "integer", "minimum": 1},
}

LISTED = (
    "From the read models, which follow the store a moment behind (a new item is listed once the projections "
    "have seen it). Paged by cursor: follow `next` until it is null; a page never repeats or skips an item."
)

Security = list[dict[str, list[str]]]
ORGANISER: Security = [{"organiserKey": []}]
SEAT_OR_ORGANISER: Security = [{"seatToken": []}, {"organiserKey": []}]
BODY_ERRORS = ["BadRequest", "PayloadTooLarge", "UnsupportedMediaType"]


def operation(
    operation_id: str,
    summary: str,
    *,
    tag: str,
    ok: tuple[int, str, dict[str, Any]],
    errors: list[str],
    security: Security | None = None,
    parameters: list[dict[str, Any]] | None = None,
    body: str | None = None,
    description: str = "",
) -> dict[str, Any]:
    status, what, schema = ok
    out: dict[str, Any] = {
        "operationId": operation_id,
        "summary": summary,
        "tags": [tag],
        "security": security or [],
        "parameters": copy.deepcopy(parameters or []),
        "responses": {
            str(status): {"description": what, "content": {JSON: {"schema": schema}}},
            **{str(ERRORS[name][0]): ref("responses", name) for name in [*errors, *_throttled(errors), *ALWAYS]},
            "default": ref("responses", "Unexpected"),
        },
    }
    if description:
        out["description"] = description
    if body is not None:
        out["requestBody"] = {"required": True, "content": {JSON: {"schema": ref("schemas", body)}}}
    return out


ALWAYS = ("UriTooLong", "Unavailable")


def _throttled(errors: list[str]) -> list[str]:
    """Wherever a key or token can be refused, too many wrong ones can be (service.serving.throttle)."""
    return ["TooManyWrongSecrets"] if "Unauthorized" in errors else []


def _standings_operation() -> dict[str, Any]:
    """Public, like the tournament; the organisers' key (optional) adds the games in play; ``format=csv`` answers
    a spreadsheet file instead of JSON."""
    out = operation(
        "getStandings",
        "Who is leading: the standings now and after each round, and the round-by-round cross table (public).",
        tag="organisers",
        parameters=[schemas.path_id("tournament_id", "tournament"), *schemas.STANDINGS_QUERY],
        ok=(200, "The standings.", ref("schemas", "Standings")),
        errors=["BadRequest", "Unauthorized", "NotFound"],
        description="Finished games only, unless the organisers' key is sent: then the cross table also shows "
        "the games in play (they count for nothing until they finish). Players rank by tournament points, then "
        "games won, then the points scored in the games, then the average place (`tie_breaks` says so).",
    )
    out["responses"]["200"]["content"]["text/csv"] = {"schema": {"type": "string"}}
    return _public(out)


def _public(out: dict[str, Any]) -> dict[str, Any]:
    """A tournament endpoint anyone may read: no token, or the organisers' key; any other token is 401
    `invalid_api_key` (a seat token too), so that a mistyped key is noticed rather than answered as the public."""
    out["security"] = [{}, {"organiserKey": []}]
    return out


def _health_operation() -> dict[str, Any]:
    """The health check answers its own body when the store is down, not the Error shape."""
    out = operation("health", "Is the API up?", tag="meta", ok=(200, "Up.", ref("schemas", "Health")), errors=[])
    out["responses"]["503"] = ref("responses", "HealthDown")
    return out


def _get_game_operation(game_id: dict[str, Any]) -> dict[str, Any]:
    """Reading a game is conditional: its ``ETag`` changes with the game's version, the version shown and the
    caller's seat; ``If-None-Match`` with the current tag is answered 304 without a body."""
    out = operation(
        "getGame",
        "The game as the caller may see it (a seat: its view and legal actions; an organiser: all).",
        tag="games",
        security=SEAT_OR_ORGANISER,
        parameters=[
            game_id,
            *schemas.GAME_QUERY,
            schemas.IF_NONE_MATCH,
        ],
        ok=(200, "The game.", ref("schemas", "Game")),
        errors=["BadRequest", "Unauthorized", "NotFound"],
    )
    tag = {"description": "The game's tag for `If-None-Match`.", "schema": {"type": "string"}}
    out["responses"]["200"]["headers"] = {"ETag": tag}
    out["responses"]["304"] = {"description": "Not changed since the tag sent: no body.", "headers": {"ETag": tag}}
    return out


def _streamed_move(out: dict[str, Any]) -> dict[str, Any]:
    """A move posted with ``?wait=S`` by a client that accepts ``application/x-ndjson``: two lines of JSON, the
    acknowledgement at once, the next turn when it comes (docs/api.md, *A move that waits for your next turn*)."""
    out["responses"]["200"]["content"]["application/x-ndjson"] = {
        "schema": {
            "type": "string",
            "description": "With `?wait=S` and `Accept: application/x-ndjson`: two lines, each a JSON object. Line 1, "
            "sent at once: the move's acknowledgement (MoveResult without `next`): the move has landed. Line 2, "
            "when the seat is to act again, the game is over or the wait runs out: what GET "
            "/games/{game_id}/updates?after=<version>&until=turn&include=game answers (Updates); or, if the wait "
            "failed once the move had landed, that error (Error) with `ready: false` and `retry_after` (seconds).",
        }
    }
    out["description"] += (
        " With `?wait=S`, ask for `application/x-ndjson` to have the move acknowledged at once and the next turn "
        "follow on a second line; a single JSON answer (`next` in it) comes only once the wait is over, and carries "
        "no `next` if the wait failed after the move landed."
    )
    return out


def _component_schemas() -> dict[str, Any]:
    timestamp = {"type": "string", "format": "date-time"}
    return {
        "Error": obj(
            {
                "error": obj(
                    {
                        "code": {"type": "string", "description": "A stable machine-readable code."},
                        "message": {"type": "string", "description": "A sentence for people."},
                    }
                )
            },
            examples=[{"error": {"code": "stale_version", "message": "the game is at version 7 but ..."}}],
        ),
        "Health": obj({"status": {"type": "string", "enum": ["ok"]}}),
        "HealthDown": obj(
            {
                "status": {"type": "string", "enum": ["down"]},
                "store": {"type": "string", "enum": ["unreachable", "read_only"]},
                "message": {"type": "string"},
            }
        ),
        "Created": obj({"id": {"type": "string", "format": "uuid"}}),
        "NewPlayer": schemas.NEW_PLAYER,
        "NewTournament": schemas.NEW_TOURNAMENT,
        "NewGame": schemas.NEW_GAME,
        "Submit": schemas.SUBMIT,
        "Player": obj(
            {
                "id": {"type": "string", "format": "uuid"},
                "name": {"type": "string"},
                "kind": {"type": "string", "enum": ["human", "bot"]},
                "bot": {"type": ["object", "null"]},
                "created_at": timestamp,
            }
        ),
        "Standing": obj(
            {
                "rank": {"type": "integer", "minimum": 1},
                "player_id": {"type": "string"},
                "name": {"type": "string"},
                "games": {"type": "integer"},
                "wins": {"type": "integer"},
                "points": {"type": "integer"},
                "score": {"type": "integer"},
                "average_place": {"type": ["number", "null"]},
            }
        ),
        "Standings": obj(
            {
                "tournament": {"type": "object"},
                "points_table": {"type": ["array", "null"], "items": {"type": "integer"}},
                "points_rule": {"type": "string"},
                "tie_breaks": {"type": "array", "items": {"type": "string"}},
                "rounds": {"type": "array", "items": {"type": "integer"}},
                "standings": {"type": "array", "items": ref("schemas", "Standing")},
                "after_round": {"type": "object", "additionalProperties": {"type": "array"}},
                "cross_table": {"type": "array", "items": {"type": "object"}},
            }
        ),
        "Tournament": obj(
            {
                "id": {"type": "string", "format": "uuid"},
                "name": {"type": "string"},
                "rounds": {"type": "integer"},
                "game": {"type": "string"},
                "options": {
                    "type": ["object", "null"],
                    "description": "The rule options every game of it plays with, as given when it was created "
                    "(`{}`: the game's defaults; null: a tournament created before tournaments held them, whose "
                    "games may have any).",
                },
                "created_at": timestamp,
            }
        ),
        "GameCreated": obj(
            {
                "id": {"type": "string", "format": "uuid"},
                "version": {"type": "integer"},
                "seed_commitment": {"type": "string", "description": 'sha256("digsite-seed:" + seed), hex.'},
                "tokens": {
                    "type": "array",
                    "description": "One secret token per seat. Shown only here: hand each to its player.",
                    "items": obj(
                        {"seat": {"type": "integer"}, "player": {"type": "string"}, "token": {"type": "string"}}
                    ),
                },
            }
        ),
        "Game": obj(
            {
                "id": {"type": "string", "format": "uuid"},
                "kind": {"type": "string"},
                "version": {"type": "integer", "description": "The version shown (act on this one)."},
                "latest_version": {"type": "integer"},
                "status": {"type": "string", "enum": ["playing", "over"]},
                "players": {"type": "array", "items": {"type": "object"}},
                "labels": {"type": "object", "description": "tournament, round, table (as given)."},
                "options": {"type": "object"},
                "rules_version": {"type": "string"},
                "created_at": timestamp,
                "updated_at": timestamp,
                "seed_commitment": {"type": "string"},
                "seed": {"type": ["string", "null"], "description": "null until the game is over."},
                "to_act": {"type": "array", "items": {"type": "integer"}, "description": "Seats that may act now."},
                "result": {
                    "type": ["object", "null"],
                    "description": "null while the game is on; then the same summary for every game: ranking "
                    "(every seat, best first), winners, scores (one per seat) and the game's own detail.",
                    "properties": {
                        "ranking": {"type": "array", "items": {"type": "integer"}},
                        "winners": {"type": "array", "items": {"type": "integer"}},
                        "scores": {"type": "array", "items": {"type": "integer"}},
                        "detail": {"type": "object"},
                    },
                },
                "view": {
                    "description": "The game as the caller may see it (hidden information only as that seat may "
                    "know it): the game's view schema.",
                    "oneOf": [ref("schemas", schemas.component(kind, "View")) for kind in schemas.GAME_KINDS],
                },
                "last_hash": {"type": "string", "description": "Organisers only: the head of the hash chain."},
                "seat": {"type": "integer", "description": "Seats only."},
                "legal_actions": {
                    "type": "array",
                    "items": {"type": "object"},
                    "description": "Seats only: every action the seat may post now (empty for a past version).",
                },
            },
            required=["id", "kind", "version", "latest_version", "status", "players", "seed_commitment", "view"],
        ),
        "MoveResult": obj(
            {
                "version": {"type": "integer", "description": "The game's new version."},
                "events": {"type": "array", "items": {"type": "object"}, "description": "As the seat may see them."},
                "status": {"type": "string", "enum": ["playing", "over"]},
                "to_act": {"type": "array", "items": {"type": "integer"}, "description": "Seats that may act now."},
                "next": {
                    **ref("schemas", "Updates"),
                    "description": "With `?wait=S`: your seat's next turn (or the game's end), as GET "
                    "/games/{game_id}/updates?after=<version>&until=turn&include=game answers it.",
                },
            },
            required=["version", "events", "status", "to_act"],
        ),
        "Record": obj(
            {
                "type": {"type": "string", "enum": ["created", "move", "seed_revealed"]},
                "game": {"type": "string", "format": "uuid"},
                "version": {"type": "integer"},
                "hash": {"type": "string", "description": "Organisers (and seats once the game is over)."},
                "prev_hash": {"type": "string"},
                "body": {"type": "object"},
            },
            required=["type", "game", "version", "body"],
            description="hash = sha256 of canonical JSON {game, version, prev, body}; each record's prev_hash "
            "is the hash of the record before it.",
        ),
        "Log": obj({"records": {"type": "array", "items": ref("schemas", "Record")}}),
        "Updates": obj(
            {
                "id": {"type": "string", "format": "uuid"},
                "version": {"type": "integer", "description": "The game's latest version (`after` for the next call)."},
                "status": {"type": "string", "enum": ["playing", "over"]},
                "to_act": {"type": "array", "items": {"type": "integer"}, "description": "Seats that may act now."},
                "records": {
                    "type": "array",
                    "items": ref("schemas", "Record"),
                    "description": "The records after `after`, up to `version`, exactly as GET /games/{game_id}/log "
                    "gives them to the caller (redacted for a seat while the game is on); at most 1000.",
                },
                "ready": {
                    "type": "boolean",
                    "description": "Whether what `until` names has happened (false: the wait ran out first).",
                },
                "game": {
                    **ref("schemas", "Game"),
                    "description": "With `until=turn&include=game`, when ready: the game as the seat sees it.",
                },
                "retry_after": {
                    "type": "integer",
                    "description": "In a move's `next` only (`POST .../actions?wait=S`): the server was holding "
                    "as many waiting requests as it may and answered at once instead; ask the channel again after "
                    "this many seconds. (`GET .../updates` says it with 503 `busy` and `Retry-After`.)",
                },
            },
            required=["id", "version", "status", "to_act", "records", "ready"],
        ),
        "GameSummary": obj(
            {
                "id": {"type": "string", "format": "uuid"},
                "kind": {"type": "string"},
                "tournament": {"type": ["string", "null"]},
                "round": {"type": ["integer", "null"]},
                "table": {"type": ["integer", "null"]},
                "players": {"type": "array", "items": {"type": "object"}, "description": "seat, id, name."},
                "status": {"type": "string", "enum": ["playing", "over"]},
                "moves": {"type": "integer"},
                "version": {"type": "integer"},
                "started_at": {"type": ["string", "null"]},
                "ended_at": {"type": ["string", "null"]},
            }
        ),
        "GameList": obj({"games": {"type": "array", "items": ref("schemas", "GameSummary")}, "next": NEXT}),
        "TournamentList": obj({"tournaments": {"type": "array", "items": ref("schemas", "Tournament")}, "next": NEXT}),
        "PlayerList": obj({"players": {"type": "array", "items": ref("schemas", "Player")}, "next": NEXT}),
        **schemas.COMPONENTS,
    }


@functools.cache
def _document() -> dict[str, Any]:
    game_id = schemas.path_id("game_id", "game")
    out: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "Digsite play API",
            "version": "1",
            "description": "Create players, tournaments and games; play with seat tokens; read views and the "
            'hash-chained log. Every error is JSON: `{"error": {"code", "message"}}`; an unknown route '
            "answers 404 `not_found`, a wrong method 405 `method_not_allowed`.",
        },
        "tags": [{"name": "meta"}, {"name": "organisers"}, {"name": "games"}],
        "paths": {
            "/api/v1/health": {"get": _health_operation()},
            "/api/v1/openapi.json": {
                "get": operation(
                    "openapi",
                    "This document.",
                    tag="meta",
                    ok=(200, "The OpenAPI 3.1 document.", {"type": "object"}),
                    errors=[],
                )
            },
            "/api/v1/players": {
                "get": operation(
                    "listPlayers",
                    "Players by name, a page at a time.",
                    tag="organisers",
                    security=ORGANISER,
                    parameters=schemas.PLAYERS_QUERY,
                    ok=(200, "A page of players.", ref("schemas", "PlayerList")),
                    errors=["BadRequest", "Unauthorized", "Forbidden"],
                    description=LISTED,
                ),
                "post": operation(
                    "createPlayer",
                    "Register a player (a person or a bot).",
                    tag="organisers",
                    security=ORGANISER,
                    body="NewPlayer",
                    ok=(201, "Created; the Location header points at the player.", ref("schemas", "Created")),
                    errors=[*BODY_ERRORS, "Unauthorized", "Forbidden"],
                ),
            },
            "/api/v1/players/{player_id}": {
                "get": operation(
                    "getPlayer",
                    "A player.",
                    tag="organisers",
                    security=ORGANISER,
                    parameters=[schemas.path_id("player_id", "player")],
                    ok=(200, "The player.", ref("schemas", "Player")),
                    errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
                )
            },
            "/api/v1/tournaments": {
                "get": _public(
                    operation(
                        "listTournaments",
                        "Tournaments, newest first, a page at a time (public).",
                        tag="organisers",
                        parameters=schemas.TOURNAMENTS_QUERY,
                        ok=(200, "A page of tournaments.", ref("schemas", "TournamentList")),
                        errors=["BadRequest", "Unauthorized"],
                        description=LISTED,
                    )
                ),
                "post": operation(
                    "createTournament",
                    "Create a tournament.",
                    tag="organisers",
                    security=ORGANISER,
                    body="NewTournament",
                    ok=(201, "Created; the Location header points at the tournament.", ref("schemas", "Created")),
                    errors=[*BODY_ERRORS, "Unauthorized", "Forbidden"],
                ),
            },
            "/api/v1/tournaments/{tournament_id}": {
                "get": _public(
                    operation(
                        "getTournament",
                        "A tournament (public).",
                        tag="organisers",
                        parameters=[schemas.path_id("tournament_id", "tournament")],
                        ok=(200, "The tournament.", ref("schemas", "Tournament")),
                        errors=["BadRequest", "Unauthorized", "NotFound"],
                    )
                )
            },
            "/api/v1/tournaments/{tournament_id}/standings": {
                "get": _standings_operation(),
            },
            "/api/v1/games": {
                "get": operation(
                    "listGames",
                    "Games, newest first, a page at a time, filtered by game, tournament, round, status, player.",
                    tag="games",
                    security=ORGANISER,
                    parameters=schemas.GAMES_QUERY,
                    ok=(200, "A page of games.", ref("schemas", "GameList")),
                    errors=["BadRequest", "Unauthorized", "Forbidden"],
                    description=LISTED,
                ),
                "post": operation(
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
                    "table of a round (409 `duplicate_game`).",
                ),
            },
            "/api/v1/games/{game_id}": {"get": _get_game_operation(game_id)},
            "/api/v1/games/{game_id}/actions": {
                "post": operation(
                    "submitAction",
                    "Play one action for your seat on top of the version you saw.",
                    tag="games",
                    security=[{"seatToken": []}],
                    parameters=[game_id, *schemas.SUBMIT_QUERY],
                    body="Submit",
                    ok=(200, "The move is recorded.", ref("schemas", "MoveResult")),
                    errors=[*BODY_ERRORS, "Unauthorized", "Forbidden", "NotFound", "Conflict", "RuleRejected"],
                    description="Exactly one action lands per version: if two arrive for the same version, one "
                    "gets 409 and must reload, unless it is a secret choice made at the same time as other seats' "
                    "(a round-start flip, say), which lands after theirs, on the latest version its answer names: "
                    "those moves change nothing it could see or choose. A seat's own move since always makes its "
                    "version stale. The engine reveals the choices together.",
                )
            },
            "/api/v1/games/{game_id}/updates": {
                "get": operation(
                    "getUpdates",
                    "The push channel (a long poll): new records as you may read them, the version, who is to act.",
                    tag="games",
                    security=SEAT_OR_ORGANISER,
                    parameters=[game_id, *schemas.UPDATES_QUERY],
                    ok=(200, "What is new since `after` (nothing if the wait ran out).", ref("schemas", "Updates")),
                    errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
                    description="Answers at once if there is something after `after` (or, with `until=turn`, if "
                    "your seat is to act or the game is over); else holds the request up to `wait` seconds and "
                    "answers as soon as there is, whichever server process recorded the move. Call again with "
                    "`after` set to the answer's `version`: nothing is missed between calls. Who may read the log "
                    "may subscribe; records are redacted exactly as the log redacts them for the caller. A wait "
                    "past what the server holds is refused at once: 503 `busy` with `Retry-After`.",
                )
            },
            "/api/v1/games/{game_id}/log": {
                "get": operation(
                    "getLog",
                    "The game's records (seats: redacted and without hashes while the game is on).",
                    tag="games",
                    security=SEAT_OR_ORGANISER,
                    parameters=[game_id, *schemas.LOG_QUERY],
                    ok=(200, "The records, oldest first.", ref("schemas", "Log")),
                    errors=["BadRequest", "Unauthorized", "NotFound"],
                )
            },
        },
        "components": {
            "securitySchemes": {
                "organiserKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The organisers' key (DIGSITE_API_KEY on the server).",
                },
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat's secret token, returned once when the game is created.",
                },
            },
            "schemas": _component_schemas(),
            "responses": {
                name: {
                    "description": text,
                    "content": {JSON: {"schema": ref("schemas", "Error")}},
                    **({"headers": {"Retry-After": RETRY_AFTER}} if status in WITH_RETRY_AFTER else {}),
                }
                for name, (status, text) in ERRORS.items()
            }
            | {
                "HealthDown": {
                    "description": "The store cannot serve reads and writes: unreachable, or read-only.",
                    "headers": {"Retry-After": RETRY_AFTER},
                    "content": {JSON: {"schema": ref("schemas", "HealthDown")}},
                }
            },
        },
    }
    _streamed_move(out["paths"]["/api/v1/games/{game_id}/actions"]["post"])
    return out


def document() -> dict[str, Any]:
    """A fresh copy of the document (callers may change theirs)."""
    return copy.deepcopy(_document())
