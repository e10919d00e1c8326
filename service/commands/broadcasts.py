"""A tournament's delayed broadcast, set by its organiser: spectators follow its games in play ``moves`` behind or
``minutes`` behind (one of them), or not at all (off, the default). Recorded as the tournament's ``BroadcastSet``
event, so every API server reads the same setting from the store. The API, the CLI and the dashboard call this one
function (``set_broadcast``); what a spectator then sees is ``service.serving.broadcast``'s."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import IntegrityError

from service.caller_values import now
from service.commands.results import BroadcastDelay, BroadcastSetting
from service.errors import BadRequest, Conflict, NotFound
from service.store.aggregates import Tournament

MAX_MOVES = 10_000  # longer than any game of either kind: a delay past it shows nothing until the end anyway
MAX_MINUTES = 24 * 60  # a day: past it, nobody follows a game "live"


def set_broadcast(service: Any, tournament_id: str, moves: Any = None, minutes: Any = None) -> BroadcastSetting:
    """Set the broadcast of a tournament's games in play: ``moves`` behind (a whole number, 0 to ``MAX_MOVES``) or
    ``minutes`` behind (more than 0, at most ``MAX_MINUTES``), or neither (off). Bad values: 400
    ``invalid_broadcast``, nothing recorded."""
    delay = checked_delay(moves, minutes)
    tournament = service.reader.aggregate(tournament_id, Tournament, "tournament")  # (404 unknown_tournament)
    tournament.set_broadcast(
        moves=None if delay is None else delay.get("moves"),
        minutes=None if delay is None else delay.get("minutes"),
        at=now(),
    )
    try:
        service.app.save(tournament)
    except IntegrityError:
        raise Conflict("the tournament changed meanwhile; try again", "tournament_changed") from None
    return {"tournament": str(tournament.id), "delay": delay}


def checked_delay(moves: Any, minutes: Any) -> BroadcastDelay | None:
    """The delay ``moves`` or ``minutes`` name (None: off), or 400 ``invalid_broadcast`` with a sentence."""
    if moves is not None and minutes is not None:
        raise BadRequest("a broadcast is delayed by moves or by minutes, not both", "invalid_broadcast")
    if moves is not None:
        if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= MAX_MOVES:
            raise BadRequest(f"'moves' must be a whole number from 0 to {MAX_MOVES}", "invalid_broadcast")
        return {"moves": moves}
    if minutes is not None:
        if (
            isinstance(minutes, bool)
            or not isinstance(minutes, int | float)
            or not 0 < minutes <= MAX_MINUTES
            or minutes != minutes
        ):
            raise BadRequest(f"'minutes' must be a number above 0 and at most {MAX_MINUTES}", "invalid_broadcast")
        return {"minutes": float(minutes)}
    return None


def delay_of(service: Any, tournament_id: Any) -> BroadcastDelay | None:
    """The broadcast delay of the tournament ``tournament_id`` names (None: off, or no such tournament)."""
    if not isinstance(tournament_id, str):
        return None
    try:
        tournament = service.reader.aggregate(tournament_id, Tournament, "tournament")
    except NotFound:
        return None
    found: BroadcastDelay | None = tournament.broadcast
    return found
