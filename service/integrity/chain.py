"""The records of a game and their hash chain: a decided move appended to the game as a record (and the seed
revealed when it ends the game), a stored event as the audit record, and a record as a seat may read it."""

from __future__ import annotations

from typing import Any

from domain.protocol import AnyRules
from service.caller_values import now
from service.errors import ServiceError
from service.integrity.records import GENESIS, record_hash
from service.store.aggregates import Game

MOVES = ("move", "timeout")  # the records that play a seat's move (a timeout: the move the game makes for it)


def record_move(
    game: Game,
    rules: AnyRules,
    action: Any,
    events: list[Any],
    state: Any,
    at: str | None = None,
    deadline: str | None = None,
) -> tuple[dict[str, Any], bool]:
    """Append the record of a decided move (its events lead to ``state``) to ``game`` (and the seed reveal
    when it ends the game), stored ``at`` (default: now). With ``deadline``, the move is the one the server made
    for a seat whose time ran out then (a ``timeout`` record)."""
    body: dict[str, Any] = {
        "seat": action.seat,
        "action": rules.action_to_dict(action),
        "events": [rules.event_to_dict(e) for e in events],
        "at": at or now(),
        "rules_version": game.rules_version,  # the game's own version, even once a newer one is current
    }
    if deadline is not None:
        body["deadline"] = deadline
    game_id = str(game.id)
    prev = game.last_hash
    chained = {"prev_hash": prev, "hash": record_hash(game_id, game.version + 1, prev, body)}
    if deadline is None:
        game.record_move(state, **body, **chained)
    else:
        game.record_timeout(state, **body, **chained)
    over = rules.result(state) is not None
    if over:
        reveal = {"seed": state.seed, "at": body["at"]}
        prev = game.last_hash
        game.reveal_seed(**reveal, prev_hash=prev, hash=record_hash(game_id, game.version + 1, prev, reveal))
    return body, over


def record_ruling(game: Game, ruling: str, reason: str, details: dict[str, Any]) -> dict[str, Any]:
    """Append an organiser's ruling to ``game`` as the next record of its chain (what ``verify`` and the ledger
    cover like a move); returns its body."""
    body = {"ruling": ruling, "reason": reason, "details": details, "at": now()}
    prev = game.last_hash
    game.rule(**body, prev_hash=prev, hash=record_hash(str(game.id), game.version + 1, prev, body))
    return body


def record_forfeit(game: Game, seat: int, deadline: str, result: dict[str, Any], at: str) -> None:
    """Append a seat's forfeit (its time ran out under a forfeit clock) and the seed's reveal: the game ends."""
    body = {"seat": seat, "deadline": deadline, "result": result, "at": at}
    game_id = str(game.id)
    prev = game.last_hash
    game.record_forfeit(**body, prev_hash=prev, hash=record_hash(game_id, game.version + 1, prev, body))
    reveal = {"seed": game.state.seed, "at": at}
    prev = game.last_hash
    game.reveal_seed(**reveal, prev_hash=prev, hash=record_hash(game_id, game.version + 1, prev, reveal))


def record_clock_change(game: Game, change: str, seat: int | None, seconds: float | None, reason: str, at: str) -> None:
    """Append the organiser's change of the game's clock (pause, resume, time added) as a ``clock`` record."""
    body = {"change": change, "seat": seat, "seconds": seconds, "reason": reason, "at": at}
    prev = game.last_hash
    game.change_clock(**body, prev_hash=prev, hash=record_hash(str(game.id), game.version + 1, prev, body))


def record_of(event: Any) -> dict[str, Any]:
    """A stored Game event as an audit record (plain JSON)."""
    base = {"version": event.originator_version, "hash": event.hash}
    body: dict[str, Any]
    if isinstance(event, Game.Created):
        body = {
            "kind": event.kind,
            "players": event.players,
            "names": event.names,
            "options": event.options,
            "labels": event.labels,
            "seed_commitment": event.seed_commitment,
            "token_hashes": event.token_hashes,
            "rules_version": event.rules_version,
            "opening": event.opening,
            "at": event.at,
        }
        if event.clock is not None:  # (a game without a clock: its record as before clocks, and its hash)
            body["clock"] = event.clock
        return {"type": "created", "game": str(event.originator_id), **base, "prev_hash": GENESIS, "body": body}
    if isinstance(event, Game.MoveRecorded):
        body = {
            "seat": event.seat,
            "action": event.action,
            "events": event.events,
            "at": event.at,
            "rules_version": event.rules_version,
        }
        kind = "move"
        if isinstance(event, Game.TimedOut):
            body["deadline"] = event.deadline
            kind = "timeout"
        return {"type": kind, "game": str(event.originator_id), **base, "prev_hash": event.prev_hash, "body": body}
    if isinstance(event, Game.Forfeited):
        body = {"seat": event.seat, "deadline": event.deadline, "result": event.result, "at": event.at}
        return {"type": "forfeit", "game": str(event.originator_id), **base, "prev_hash": event.prev_hash, "body": body}
    if isinstance(event, Game.ClockChanged):
        body = {"change": event.change, "seat": event.seat, "seconds": event.seconds, "reason": event.reason}
        body["at"] = event.at
        return {"type": "clock", "game": str(event.originator_id), **base, "prev_hash": event.prev_hash, "body": body}
    if isinstance(event, Game.SeedRevealed):
        body = {"seed": event.seed, "at": event.at}
        return {
            "type": "seed_revealed",
            "game": str(event.originator_id),
            **base,
            "prev_hash": event.prev_hash,
            "body": body,
        }
    if isinstance(event, Game.RulingRecorded):
        body = {"ruling": event.ruling, "reason": event.reason, "details": event.details, "at": event.at}
        return {"type": "ruling", "game": str(event.originator_id), **base, "prev_hash": event.prev_hash, "body": body}
    raise ServiceError(f"not a game record: {type(event).__name__}")


def redact_record(record: dict[str, Any], rules: AnyRules, seat: int | None) -> dict[str, Any]:
    """A record as a seat may read it while the game is on: hidden facts removed, and no hashes (a hash over
    a few hidden possibilities, like a secret flip, could be reversed by trying them all)."""
    body = dict(record["body"])
    if record["type"] == "created":
        body["opening"] = [rules.redact_event(e, seat, False) for e in body["opening"]]
        body.pop("token_hashes", None)
    elif record["type"] in MOVES:
        body["action"] = rules.redact_action(body["action"], body["events"], seat)
        body["events"] = [rules.redact_event(e, seat, False) for e in body["events"]]
    elif record["type"] == "ruling":  # a substitute's or a voided link's token hashes, like the created record's
        body["details"] = {k: v for k, v in body["details"].items() if k not in ("token_hash", "voided_hash")}
    return {"type": record["type"], "game": record["game"], "version": record["version"], "body": body}
