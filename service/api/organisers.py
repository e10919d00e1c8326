"""Players and tournaments: created (and players read) by organisers."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, url_for

from service.api import schemas
from service.api.auth import digsite, organiser_key_sent, organiser_only, read_port
from service.api.openapi import BODY_ERRORS, LISTED, ORGANISER, described, operation, public, ref
from service.api.responses import Created, Leaderboard, PlayerList, PlayerProfile, TournamentList
from service.api.validation import check, json_body, query_args
from service.commands.results import Tournament
from service.errors import BadRequest, NotFound
from service.reading import listing, standings
from service.reading.results import Standings

bp = Blueprint("organisers", __name__)

Made = tuple[Created, int, dict[str, str]]  # (the answer, 201, its Location)


@bp.post("/players")
@described(
    operation(
        "createPlayer",
        "Register a player (a person or a bot).",
        tag="organisers",
        security=ORGANISER,
        body="NewPlayer",
        ok=(201, "Created; the Location header points at the player.", ref("schemas", "Created")),
        errors=[*BODY_ERRORS, "Unauthorized", "Forbidden"],
    )
)
@organiser_only
def create_player() -> Made:
    body = json_body()
    player_id = digsite().create_player(body["name"], body.get("kind", "human"), body.get("bot"))
    return {"id": player_id}, 201, {"Location": url_for(".player", player_id=player_id)}


@bp.get("/players")
@described(
    operation(
        "listPlayers",
        "Players by name, a page at a time.",
        tag="organisers",
        security=ORGANISER,
        parameters=schemas.PLAYERS_QUERY,
        ok=(200, "A page of players.", ref("schemas", "PlayerList")),
        errors=["BadRequest", "Unauthorized", "Forbidden"],
        description=LISTED,
    )
)
@organiser_only
def players() -> PlayerList:
    """Players by name, a page at a time (from the read models)."""
    args = query_args()
    rows, following = listing.page(read_port().db, listing.PLAYERS, args, args.get("cursor"), args.get("limit", 50))
    return {"players": [listing.player_item(row) for row in rows], "next": following}


@bp.get("/players/<player_id>")
@described(
    operation(
        "getPlayer",
        "A player.",
        tag="organisers",
        security=ORGANISER,
        ok=(200, "The player, and their skill per game kind.", ref("schemas", "PlayerProfile")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
        description="`skills`: per game kind the player has finished games of, their rating (docs/judge.md, "
        "*Ratings*) and their mean accuracy over their games the judge analysed, each with the games behind it.",
    )
)
@organiser_only
def player(player_id: str) -> PlayerProfile:
    query_args()
    read = read_port()
    found = read.reader.player(player_id)  # 404 unknown_player
    return {**found, "skills": read.skills.of_player(found["id"])}


@bp.get("/leaderboards/<kind>")
@described(
    operation(
        "getLeaderboard",
        "A game's leaderboard: players by their rating, a page at a time.",
        tag="organisers",
        security=ORGANISER,
        parameters=schemas.PAGING,
        ok=(200, "A page of the leaderboard.", ref("schemas", "Leaderboard")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
        description="Every player with a rated game of this game, by the conservative `ordinal` (mu - 3 sigma) "
        "highest first: a player with few games has a wide band and ranks below one as good who has played "
        "more. Organisers only, as the list of players is. " + LISTED,
    )
)
@organiser_only
def leaderboard(kind: str) -> Leaderboard:
    args = query_args()
    if kind not in schemas.GAME_KINDS:
        raise NotFound(f"Digsite plays no game {kind[:40]!r}: {', '.join(schemas.GAME_KINDS)}", "unknown_game_kind")
    entries, following = read_port().skills.leaderboard(kind, args.get("cursor"), args.get("limit", 50))
    return {"kind": kind, "players": entries, "next": following}


@bp.post("/tournaments")
@described(
    operation(
        "createTournament",
        "Create a tournament.",
        tag="organisers",
        security=ORGANISER,
        body="NewTournament",
        ok=(201, "Created; the Location header points at the tournament.", ref("schemas", "Created")),
        errors=[*BODY_ERRORS, "Unauthorized", "Forbidden"],
    )
)
@organiser_only
def create_tournament() -> Made:
    body = json_body()
    options = body.get("options")
    if options is not None:
        options = check(options, schemas.options_of(body["game"]), "options")
    tournament_id = digsite().create_tournament(body["name"], body["rounds"], body["game"], options, body.get("clock"))
    return {"id": tournament_id}, 201, {"Location": url_for(".tournament", tournament_id=tournament_id)}


@bp.get("/tournaments")
@described(
    public(
        operation(
            "listTournaments",
            "Tournaments, newest first, a page at a time (public).",
            tag="organisers",
            parameters=schemas.TOURNAMENTS_QUERY,
            ok=(200, "A page of tournaments.", ref("schemas", "TournamentList")),
            errors=["BadRequest", "Unauthorized"],
            description=LISTED,
        )
    )
)
def tournaments() -> TournamentList:
    """Tournaments, newest first, a page at a time (public, as each tournament is; from the read models).
    Like every endpoint anyone may read: no token, or the organisers' key; any other token is refused."""
    organiser_key_sent()
    args = query_args()
    rows, following = listing.page(read_port().db, listing.TOURNAMENTS, args, args.get("cursor"), args.get("limit", 50))
    return {"tournaments": [listing.tournament_item(row) for row in rows], "next": following}


@bp.get("/tournaments/<tournament_id>")
@described(
    public(
        operation(
            "getTournament",
            "A tournament (public).",
            tag="organisers",
            ok=(200, "The tournament.", ref("schemas", "Tournament")),
            errors=["BadRequest", "Unauthorized", "NotFound"],
        )
    )
)
def tournament(tournament_id: str) -> Tournament:
    organiser_key_sent()
    query_args()
    return read_port().reader.tournament(tournament_id)


def _standings_operation() -> dict[str, Any]:
    """Public, like the tournament; the organisers' key (optional) adds the games in play; ``format=csv`` answers
    a spreadsheet file instead of JSON."""
    out = operation(
        "getStandings",
        "Who is leading: the standings now and after each round, and the round-by-round cross table (public).",
        tag="organisers",
        parameters=schemas.STANDINGS_QUERY,
        ok=(200, "The standings.", ref("schemas", "Standings")),
        errors=["BadRequest", "Unauthorized", "NotFound"],
        description="Finished games only, unless the organisers' key is sent: then the cross table also shows "
        "the games in play (they count for nothing until they finish). Players rank by tournament points, then "
        "games won, then the points scored in the games, then the average place (`tie_breaks` says so).",
    )
    out["responses"]["200"]["content"]["text/csv"] = {"schema": {"type": "string"}}
    return public(out)


@bp.get("/tournaments/<tournament_id>/standings")
@described(_standings_operation())
def tournament_standings(tournament_id: str) -> Response | Standings:
    """Who is leading (public, as the tournament is): finished games only, unless the organisers' key is sent,
    which adds the games in play to the cross table. JSON, or CSV with ``format=csv``."""
    everything = organiser_key_sent()
    args = query_args()
    try:
        table = standings.PointsTable.parse(args.get("points"))
    except standings.PointsTableError as error:
        raise BadRequest(str(error), "invalid_points") from None
    read = read_port()
    found = read.reader.tournament(tournament_id)  # 404 unknown_tournament
    rows = read.lists.tournament_seats(found["id"], finished_only=not everything)
    if args.get("format") == "csv":
        return Response(
            standings.to_csv(rows, table, read.lists.tournament_rulings(found["id"])),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="standings-{found["id"][:8]}.csv"'},
        )
    return standings.report(
        {"tournament_id": found["id"], **found}, rows, table, read.lists.tournament_rulings(found["id"])
    )
