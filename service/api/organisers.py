"""Players and tournaments: created (and players read) by organisers."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, url_for

from service import listing
from service.api import schemas
from service.api.auth import digsite, organiser_only
from service.api.validation import json_body, query_args

bp = Blueprint("organisers", __name__)

Created = tuple[dict[str, Any], int, dict[str, str]]


@bp.post("/players")
@organiser_only
def create_player() -> Created:
    body = json_body(schemas.NEW_PLAYER)
    player_id = digsite().create_player(body["name"], body.get("kind", "human"), body.get("bot"))
    return {"id": player_id}, 201, {"Location": url_for(".player", player_id=player_id)}


@bp.get("/players")
@organiser_only
def players() -> dict[str, Any]:
    """Players by name, a page at a time (from the read models)."""
    args = query_args(schemas.PLAYERS_QUERY)
    rows, following = listing.page(digsite(), listing.PLAYERS, args, args.get("cursor"), args.get("limit", 50))
    return {"players": [listing.player_item(row) for row in rows], "next": following}


@bp.get("/players/<player_id>")
@organiser_only
def player(player_id: str) -> dict[str, Any]:
    query_args([])
    return digsite().player(player_id)


@bp.post("/tournaments")
@organiser_only
def create_tournament() -> Created:
    body = json_body(schemas.NEW_TOURNAMENT)
    tournament_id = digsite().create_tournament(body["name"], body["rounds"], body["game"])
    return {"id": tournament_id}, 201, {"Location": url_for(".tournament", tournament_id=tournament_id)}


@bp.get("/tournaments")
def tournaments() -> dict[str, Any]:
    """Tournaments, newest first, a page at a time (public, as each tournament is; from the read models)."""
    args = query_args(schemas.TOURNAMENTS_QUERY)
    rows, following = listing.page(digsite(), listing.TOURNAMENTS, args, args.get("cursor"), args.get("limit", 50))
    return {"tournaments": [listing.tournament_item(row) for row in rows], "next": following}


@bp.get("/tournaments/<tournament_id>")
def tournament(tournament_id: str) -> dict[str, Any]:
    query_args([])
    return digsite().tournament(tournament_id)
