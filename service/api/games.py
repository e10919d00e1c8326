"""Games: organisers create them; seats read their view and play with their token; everyone reads the log
as their role allows."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, url_for

from service.api import schemas
from service.api.auth import digsite, organiser_only, viewer_for
from service.api.validation import check, json_body, query_args

bp = Blueprint("games", __name__)

LABELS = ("tournament", "round", "table")


@bp.post("/games")
@organiser_only
def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    body = json_body(schemas.NEW_GAME)
    labels = {name: body[name] for name in LABELS if body.get(name) is not None}
    options = body.get("options")
    if options is not None:
        options = check(options, schemas.options_of(body["game"]), "options")
    created = digsite().create_game(body["game"], body["seats"], options, labels, body.get("seed"))
    return created, 201, {"Location": url_for(".game", game_id=created["id"])}


@bp.get("/games/<game_id>")
def game(game_id: str) -> dict[str, Any]:
    viewer = viewer_for(game_id)
    args = query_args(schemas.GAME_QUERY)
    return digsite().game(game_id, viewer, args.get("version"))


@bp.post("/games/<game_id>/actions")
def act(game_id: str) -> dict[str, Any]:
    viewer = viewer_for(game_id)
    body = json_body(schemas.SUBMIT)
    service = digsite()
    action = check(body["action"], schemas.action_of(service.kind_of(game_id)), "action")
    return service.submit(game_id, viewer, body["version"], action)


@bp.get("/games/<game_id>/log")
def log(game_id: str) -> dict[str, Any]:
    viewer = viewer_for(game_id)
    args = query_args(schemas.LOG_QUERY)
    return {"records": digsite().log(game_id, viewer, args.get("after", 0), args.get("limit", 1000))}
