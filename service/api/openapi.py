"""The OpenAPI 3.1 document of the play API, served at ``/api/v1/openapi.json``.

Each route declares its own operation where it is written (``@described(operation(...))`` under its
``@bp.get``/``@bp.post``): the document's paths and methods are the app's routes, and a route reads its query
string and body through the parameters and request body its operation publishes (``query_args``,
``json_body``), the very schemas of ``service.api.schemas``. So nothing a route accepts goes undocumented, and
a route without an operation is an error when the document is built. What a route answers is documented by its
type: the response schemas are derived from the answers' TypedDicts (``service.api.responses``), and
tests/service/api/test_responses.py validates every route's real answers against them.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask

from service.api import responses, schemas

View = TypeVar("View", bound=Callable[..., Any])

JSON = "application/json"


def ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}


ERRORS: dict[str, tuple[int, str]] = {
    "BadRequest": (
        400,
        "The request cannot be read: `malformed_request` (bad JSON, unknown or missing fields, wrong types, "
        "numbers out of range, unknown query parameters), `malformed_action` (the action's shape), "
        "`invalid_text` (a string holds a control character, a lone surrogate or a non-character), "
        "`weak_seed` (a seed that is not 32 to 128 hex digits), `invalid_player`, `invalid_tournament`, "
        "`invalid_broadcast`, `invalid_setup`, `invalid_cursor` (a list's cursor no list gave); for a game of a "
        "tournament, "
        "`tournament_game_mismatch` (another game than the tournament's), `tournament_options_mismatch` (other "
        "rule options than the tournament's), `player_seated_twice` (a player in two seats); for a tournament's "
        "entries and rounds, `invalid_entries`, `too_few_entries`, `table_size_not_allowed`, `unknown_format`, "
        "`invalid_csv`, `unknown_entry` (a CSV seating names a player not entered). Nothing was stored.",
    ),
    "Unauthorized": (
        401,
        "`missing_token` (no `Authorization: Bearer ...` header), `invalid_api_key` (not the organisers' key; a "
        "tournament endpoint anyone may read takes no token or that key, and refuses a seat token), "
        "`invalid_token` (not a seat token of this game), `link_voided` (a seat token the organiser voided: the seat "
        "has a new one).",
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
        "`unknown_version`, `not_broadcast` (no such game, or its tournament does not broadcast it), "
        "`unknown_entry` (a player not entered in the tournament), `unknown_round` (a round "
        "not seated), `not_found` (no such route).",
    ),
    "Conflict": (
        409,
        "`stale_version` (the game has moved on since the version you acted on: reload and retry) or "
        "`conflict` (another move landed at the same moment); for a new game of a tournament, `duplicate_game` "
        "(the same players already have a game at that table of that round: not to retry) or "
        "`tournament_seated_here` (its rounds are seated here: its games come from seating a round); for a "
        "tournament's entries and rounds, `already_entered`, `round_in_play`, `round_already_seated`, "
        "`round_not_next`, `tournament_complete`, `games_created_directly` (a first round where the games were "
        "created directly), `tournament_changed` (entries changed meanwhile: retry), `links_unavailable` (the "
        "server secret is not the one the round was seated with). Nothing was recorded.",
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
        "again after `Retry-After`. `throttle_unavailable`: the shared counts of wrong secrets "
        "(`DIGSITE_THROTTLE_STORAGE`) cannot be reached; no key or token was compared.",
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


def public(out: dict[str, Any]) -> dict[str, Any]:
    """A tournament endpoint anyone may read: no token, or the organisers' key; any other token is 401
    `invalid_api_key` (a seat token too), so that a mistyped key is noticed rather than answered as the public."""
    out["security"] = [{}, {"organiserKey": []}]
    return out


def streamed_move(out: dict[str, Any]) -> dict[str, Any]:
    """A move posted with ``?wait=S`` by a client that accepts ``application/x-ndjson``: two lines of JSON, the
    acknowledgement at once, the next turn when it comes (docs/api.md, *A move that waits for your next turn*)."""
    out["responses"]["200"]["content"]["application/x-ndjson"] = {
        "schema": {
            "type": "string",
            "description": "With `?wait=S` and `Accept: application/x-ndjson`: two lines, each a JSON object. Line 1, "
            "sent at once: the move's acknowledgement (MoveResult without `next`): the move has landed. Line 2, "
            "when the seat is to act again, the game is over or the wait runs out: what GET "
            "/games/{game_id}/updates?after=<version>&until=turn&include=game answers (Updates); or, if the wait "
            "failed once the move had landed, that error with `ready: false` and `retry_after` (seconds) beside it "
            "(WaitFailed).",
        }
    }
    out["description"] += (
        " With `?wait=S`, ask for `application/x-ndjson` to have the move acknowledged at once and the next turn "
        "follow on a second line; a single JSON answer (`next` in it) comes only once the wait is over, and carries "
        "no `next` if the wait failed after the move landed."
    )
    return out


def _component_schemas() -> dict[str, Any]:
    """The request bodies' schemas (those requests are checked against: ``service.api.schemas``) and the answers'
    (derived from their types: ``service.api.responses``)."""
    return {**schemas.REQUEST_BODIES, **responses.component_schemas(), **schemas.COMPONENTS}


# The operation of each route, by its view function (``described``).
_OPERATIONS: dict[Callable[..., Any], dict[str, Any]] = {}
PREFIX_OF_ROUTES = "/api/v1/"
IGNORED_METHODS = {"HEAD", "OPTIONS"}


def described(operation_object: dict[str, Any]) -> Callable[[View], View]:
    """Declare a route's OpenAPI operation (put it right under ``@bp.get``/``@bp.post``, above any other
    decorator): the document lists it under the route's path and method."""

    def attach(view: View) -> View:
        _OPERATIONS[view] = operation_object
        return view

    return attach


def operation_of(view: Callable[..., Any]) -> dict[str, Any]:
    """The operation a route declared (``described``); the route reads its requests through it."""
    return _OPERATIONS[view]


def document(app: Flask) -> dict[str, Any]:
    """The document of ``app``'s routes, built once per app; a fresh copy (callers may change theirs)."""
    built = app.extensions.get("digsite_openapi")
    if built is None:
        built = app.extensions["digsite_openapi"] = _document(app)
    return copy.deepcopy(built)


def _in_order(rule: str) -> list[str]:
    """The names of a route's path parameters, in the order the path holds them (``<game_id>``: ``game_id``)."""
    return re.findall(r"<(?:[^:>]+:)?([^>]+)>", rule)


def _document(app: Flask) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(PREFIX_OF_ROUTES):
            continue
        view = app.view_functions[rule.endpoint]
        if view not in _OPERATIONS:
            raise AssertionError(f"the route {rule.rule} declares no OpenAPI operation (service.api.openapi.described)")
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        operation_object = copy.deepcopy(_OPERATIONS[view])
        in_path = [schemas.path_parameter(name) for name in _in_order(rule.rule)]
        operation_object["parameters"] = [*in_path, *operation_object["parameters"]]
        for method in sorted((rule.methods or set()) - IGNORED_METHODS):
            paths.setdefault(path, {})[method.lower()] = operation_object
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Digsite play API",
            "version": "1",
            "description": "Create players, tournaments and games; play with seat tokens; read views and the "
            'hash-chained log. Every error is JSON: `{"error": {"code", "message"}}`; an unknown route '
            "answers 404 `not_found`, a wrong method 405 `method_not_allowed`.",
        },
        "tags": [{"name": "meta"}, {"name": "organisers"}, {"name": "games"}],
        "paths": paths,
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
