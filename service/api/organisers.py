"""Players and tournaments: created (and players read) by organisers."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, url_for

from service.api import schemas
from service.api.auth import digsite, organiser_key_sent, organiser_only
from service.api.validation import check, json_body, query_args
from service.errors import BadRequest
from service.reading import listing, standings

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
    options = body.get("options")
    if options is not None:
        options = check(options, schemas.options_of(body["game"]), "options")
    tournament_id = digsite().create_tournament(body["name"], body["rounds"], body["game"], options)
    return {"id": tournament_id}, 201, {"Location": url_for(".tournament", tournament_id=tournament_id)}


@bp.get("/tournaments")
def tournaments() -> dict[str, Any]:
    """Tournaments, newest first, a page at a time (public, as each tournament is; from the read models).
    Like every endpoint anyone may read: no token, or the organisers' key; any other token is refused."""
    organiser_key_sent()
    args = query_args(schemas.TOURNAMENTS_QUERY)
    rows, following = listing.page(digsite(), listing.TOURNAMENTS, args, args.get("cursor"), args.get("limit", 50))
    return {"tournaments": [listing.tournament_item(row) for row in rows], "next": following}


@bp.get("/tournaments/<tournament_id>")
def tournament(tournament_id: str) -> dict[str, Any]:
    organiser_key_sent()
    query_args([])
    return digsite().tournament(tournament_id)


@bp.get("/tournaments/<tournament_id>/standings")
def tournament_standings(tournament_id: str) -> Any:
    """Who is leading (public, as the tournament is): finished games only, unless the organisers' key is sent,
    which adds the games in play to the cross table. JSON, or CSV with ``format=csv``."""
    everything = organiser_key_sent()
    args = query_args(schemas.STANDINGS_QUERY)
    try:
        table = standings.PointsTable.parse(args.get("points"))
    except standings.PointsTableError as error:
        raise BadRequest(str(error), "invalid_points") from None
    service = digsite()
    found = service.tournament(tournament_id)  # 404 unknown_tournament
    rows = listing.read_rows(service, standings.seats_sql(finished_only=not everything), (found["id"],))
    if args.get("format") == "csv":
        return Response(
            standings.to_csv(rows, table),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="standings-{found["id"][:8]}.csv"'},
        )
    return standings.report({"tournament_id": found["id"], **found}, rows, table)
