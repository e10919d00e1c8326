"""A tournament's entries and rounds (organisers only): enter players, seat and start the next round, read a round
and its seat links (JSON, CSV, or a printable sheet with a QR code per seat). Every route calls the one service
function the CLI and the dashboard call too (``service.commands.rounds``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, url_for

from service.api import schemas
from service.api.auth import digsite, organiser_only, read_port
from service.api.openapi import BODY_ERRORS, ORGANISER, described, operation, ref
from service.api.responses import SeatLinks
from service.api.validation import json_body, query_args
from service.commands.broadcasts import set_broadcast
from service.commands.results import BroadcastSetting, SeatedRound, TournamentRounds
from service.errors import NotFound
from service.seating import sheet

bp = Blueprint("rounds", __name__)

DEFAULT_BASE_URL = "http://127.0.0.1:8050"  # the dashboard of `digsite up`
ROUND_ERRORS = ["Unauthorized", "Forbidden", "NotFound", "Conflict"]
STATES = (
    " Refusals change nothing: 400 `too_few_entries`, `table_size_not_allowed`, `unknown_format`, `invalid_csv`, "
    "`unknown_entry` (a CSV line names no entry), `player_seated_twice`; 409 `round_in_play` (the round before "
    "still has games in play: wait, or send `force`), `round_already_seated` (also when another server seated it a "
    "moment before), `round_not_next`, `tournament_complete`, `games_created_directly` (a first round in a "
    "tournament whose games were created directly with its labels: it would be numbered 1 again beside them)."
)


def _round_number(text: str) -> int:
    if not text.isdigit() or len(text) > 6:
        raise NotFound(f"no round {text[:20]!r}: rounds are numbered from 1", "unknown_round")
    return int(text)


@bp.get("/tournaments/<tournament_id>/rounds")
@described(
    operation(
        "getTournamentRounds",
        "A tournament's entries and seated rounds, and the round to seat next.",
        tag="organisers",
        security=ORGANISER,
        ok=(200, "The entries and rounds.", ref("schemas", "TournamentRounds")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
    )
)
@organiser_only
def rounds(tournament_id: str) -> TournamentRounds:
    query_args()
    return read_port().rounds.status(tournament_id)


@bp.post("/tournaments/<tournament_id>/entries")
@described(
    operation(
        "enterPlayers",
        "Enter players (people or bots) in a tournament.",
        tag="organisers",
        security=ORGANISER,
        body="NewEntries",
        ok=(200, "The tournament's entries and rounds now.", ref("schemas", "TournamentRounds")),
        errors=[*BODY_ERRORS, *ROUND_ERRORS],
        description="All or none: 409 `already_entered` for a player entered already, 404 `unknown_player`.",
    )
)
@organiser_only
def enter(tournament_id: str) -> TournamentRounds:
    body = json_body()
    service = digsite()
    service.rounds.enter(tournament_id, body["players"])
    return service.rounds.status(tournament_id)


@bp.delete("/tournaments/<tournament_id>/entries/<player_id>")
@described(
    operation(
        "withdrawPlayer",
        "Withdraw a player: seated in no later round (their games so far still count).",
        tag="organisers",
        security=ORGANISER,
        ok=(200, "The tournament's entries and rounds now.", ref("schemas", "TournamentRounds")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict"],
        description="404 `unknown_entry` for a player not entered.",
    )
)
@organiser_only
def withdraw(tournament_id: str, player_id: str) -> TournamentRounds:
    query_args()
    service = digsite()
    service.rounds.withdraw(tournament_id, player_id)
    return service.rounds.status(tournament_id)


def _seat_operation() -> dict[str, Any]:
    out = operation(
        "seatRound",
        "Seat the next round and start it: every table's game created at once.",
        tag="organisers",
        security=ORGANISER,
        body="NewRound",
        ok=(201, "Seated and started; the Location header points at the round.", ref("schemas", "SeatedRound")),
        errors=[*BODY_ERRORS, *ROUND_ERRORS],
        description="The next round is also seated without this call, by the format of the round before, when the "
        "last game of a round ends (a CSV round waits for this call). With `dry_run`: 200 and how the round would "
        "be seated, nothing stored." + STATES,
    )
    out["responses"]["200"] = {
        "description": "A dry run: how the round would be seated; nothing stored.",
        "content": {"application/json": {"schema": ref("schemas", "SeatedRound")}},
    }
    return out


@bp.post("/tournaments/<tournament_id>/rounds")
@described(_seat_operation())
@organiser_only
def seat_round(tournament_id: str) -> tuple[SeatedRound, int, dict[str, str]] | SeatedRound:
    body = json_body()
    answer = digsite().rounds.seat_round(
        tournament_id,
        body.get("format"),
        body.get("table_size"),
        body.get("tables"),
        force=body.get("force", False),
        round_no=body.get("round"),
        dry_run=body.get("dry_run", False),
    )
    if not answer["seated"]:
        return answer
    where = url_for(".seated_round", tournament_id=answer["tournament"], round_no=answer["round"])
    return answer, 201, {"Location": where}


@bp.get("/tournaments/<tournament_id>/rounds/<round_no>")
@described(
    operation(
        "getRound",
        "A seated round: its tables, their games and status, who sat out.",
        tag="organisers",
        security=ORGANISER,
        ok=(200, "The round.", ref("schemas", "SeatedRound")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
        description="404 `unknown_round` for a round not seated.",
    )
)
@organiser_only
def seated_round(tournament_id: str, round_no: str) -> SeatedRound:
    query_args()
    return read_port().rounds.round(tournament_id, _round_number(round_no))


def _links_operation() -> dict[str, Any]:
    out = operation(
        "getSeatLinks",
        "Each seat's link of a round (its seat page with its secret token): JSON, CSV, or a printable sheet.",
        tag="organisers",
        security=ORGANISER,
        parameters=schemas.LINKS_QUERY,
        ok=(200, "The links.", ref("schemas", "SeatLinks")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict"],
        description="Asked as often as needed: a seated round's tokens follow from the server secret, the game and "
        "the seat, so the same links come back every time. 409 `links_unavailable` if the server's secret "
        "(DIGSITE_SECRET_KEY) is no longer the one the round was seated with.",
    )
    content = out["responses"]["200"]["content"]
    content["text/csv"] = {"schema": {"type": "string"}}
    content["text/html"] = {"schema": {"type": "string"}}
    return out


@bp.get("/tournaments/<tournament_id>/rounds/<round_no>/links")
@described(_links_operation())
@organiser_only
def links(tournament_id: str, round_no: str) -> Response | SeatLinks:
    args = query_args()
    service = digsite()
    number = _round_number(round_no)
    found = service.rounds.links(tournament_id, number, args.get("base_url", DEFAULT_BASE_URL))
    no_store = {"Cache-Control": "no-store"}  # (the links are the seats' secrets)
    if args.get("format") == "csv":
        name = f"seats-{tournament_id[:8]}-round-{number}.csv"
        return Response(
            sheet.links_csv(found),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{name}"', **no_store},
        )
    if args.get("format") == "html":
        title = f"{service.tournament(tournament_id)['name']}: round {number}"
        return Response(sheet.links_sheet(title, found), mimetype="text/html", headers=no_store)
    return {"links": found}


@bp.put("/tournaments/<tournament_id>/broadcast")
@described(
    operation(
        "setBroadcast",
        "Broadcast the tournament's games in play to spectators, moves or minutes behind; or stop (`{}`).",
        tag="organisers",
        security=ORGANISER,
        body="NewBroadcast",
        ok=(200, "The tournament's broadcast now.", ref("schemas", "BroadcastSetting")),
        errors=[*BODY_ERRORS, *ROUND_ERRORS],
        description="Recorded as the tournament's event `BroadcastSet` (docs/events.md); off until set. Spectators "
        "then read GET /games/{game_id}/broadcast. 400 `invalid_broadcast` (both `moves` and `minutes`, or out of "
        "range; the schema's own checks answer `malformed_request`): nothing recorded.",
    )
)
@organiser_only
def broadcast(tournament_id: str) -> BroadcastSetting:
    body = json_body()
    return set_broadcast(digsite(), tournament_id, body.get("moves"), body.get("minutes"))
