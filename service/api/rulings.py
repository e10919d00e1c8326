"""An organiser's rulings (organisers only): record one on a game or a tournament, list them. Every route calls the
one service function the CLI calls too (``service.commands.rulings``); a refusal writes nothing."""

from __future__ import annotations

from flask import Blueprint

from service.api.auth import digsite, organiser_only, read_port
from service.api.openapi import BODY_ERRORS, ORGANISER, described, operation, ref
from service.api.validation import json_body, query_args
from service.commands import rulings
from service.commands.results import Penalty, Ruling, RulingList

bp = Blueprint("rulings", __name__)

REFUSALS = (
    " Refusals change nothing: 400 `invalid_ruling` (an unknown ruling, an empty reason, a seat or ranking the game "
    "does not have), 404 `unknown_game`, `unknown_version` (a restart from a version the game never reached), "
    "`unknown_player`; 409 `game_stopped` (the game was annulled or restarted), `game_in_play` (a result is adjusted "
    "once the game is over), `game_over` (a substitute, a restart or a voided link while it is in play only)."
)


@bp.post("/games/<game_id>/rulings")
@described(
    operation(
        "ruleOnGame",
        "Record an organiser's ruling on a game: annul it, restart it from a version, adjust its result, "
        "substitute a seat's player, or void a seat's link (a lost or leaked sheet).",
        tag="organisers",
        security=ORGANISER,
        body="NewGameRuling",
        ok=(
            200,
            "The ruling's record (with a substitute's or a voided link's new token, shown once, or the game a "
            "restart continues as).",
            ref("schemas", "Ruling"),
        ),
        errors=[*BODY_ERRORS, "Unauthorized", "Forbidden", "NotFound", "Conflict"],
        description="Nothing stored is edited: the ruling is the game's next record, hash-chained and entered in "
        "the ledger like a move (docs/events.md, *Rulings*)." + REFUSALS,
    )
)
@organiser_only
def rule_on_game(game_id: str) -> Ruling:
    ruling: Ruling = digsite().rulings.rule_on_game(game_id, json_body())  # type: ignore[assignment]
    return ruling


@bp.get("/games/<game_id>/rulings")
@described(
    operation(
        "getGameRulings",
        "A game's rulings, oldest first.",
        tag="organisers",
        security=ORGANISER,
        ok=(200, "The rulings.", ref("schemas", "RulingList")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
    )
)
@organiser_only
def game_rulings(game_id: str) -> RulingList:
    query_args()
    return {"rulings": rulings.of_game(read_port().reader, game_id)}


@bp.post("/tournaments/<tournament_id>/rulings")
@described(
    operation(
        "ruleOnTournament",
        "Record an organiser's penalty: tournament points off a player's standing.",
        tag="organisers",
        security=ORGANISER,
        body="NewTournamentRuling",
        ok=(200, "The penalty as recorded.", ref("schemas", "Penalty")),
        errors=[*BODY_ERRORS, "Unauthorized", "Forbidden", "NotFound"],
        description="The standings subtract it, with a note." + REFUSALS,
    )
)
@organiser_only
def rule_on_tournament(tournament_id: str) -> Penalty:
    given = digsite().rulings.rule_on_tournament(tournament_id, json_body())
    return {k: given[k] for k in ("ruling", "player", "points", "reason", "at")}  # type: ignore[return-value]


@bp.get("/tournaments/<tournament_id>/rulings")
@described(
    operation(
        "getTournamentRulings",
        "A tournament's penalties, oldest first.",
        tag="organisers",
        security=ORGANISER,
        ok=(200, "The penalties.", ref("schemas", "RulingList")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
    )
)
@organiser_only
def tournament_rulings(tournament_id: str) -> RulingList:
    query_args()
    return {"rulings": rulings.of_tournament(read_port().reader, tournament_id)}
