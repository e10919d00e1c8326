"""The records of a game and their hash chain: a decided move appended to the game as a record (and the seed
revealed when it ends the game), a stored event as the audit record, and a record as a seat may read it."""

from __future__ import annotations

from typing import Any

from domain.protocol import AnyRules
from service.caller_values import now
from service.errors import ServiceError
from service.integrity.records import GENESIS, record_hash
from service.store.aggregates import Game


def record_move(game: Game, rules: AnyRules, action: Any, events: list[Any], state: Any) -> tuple[dict[str, Any], bool]:
    """Append the record of a decided move (its events lead to ``state``) to ``game`` (and the seed reveal
    when it ends the game)."""
    body = {
        "seat": action.seat,
        "action": rules.action_to_dict(action),
        "events": [rules.event_to_dict(e) for e in events],
        "at": now(),
        "rules_version": game.rules_version,  # the game's own version, even once a newer one is current
    }
    game_id = str(game.id)
    prev = game.last_hash
    game.record_move(state, **body, prev_hash=prev, hash=record_hash(game_id, game.version + 1, prev, body))
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
        return {"type": "created", "game": str(event.originator_id), **base, "prev_hash": GENESIS, "body": body}
    if isinstance(event, Game.MoveRecorded):
        body = {
            "seat": event.seat,
            "action": event.action,
            "events": event.events,
            "at": event.at,
            "rules_version": event.rules_version,
        }
        return {"type": "move", "game": str(event.originator_id), **base, "prev_hash": event.prev_hash, "body": body}
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
    elif record["type"] == "move":
        body["action"] = rules.redact_action(body["action"], body["events"], seat)
        body["events"] = [rules.redact_event(e, seat, False) for e in body["events"]]
    elif record["type"] == "ruling":  # a substitute's new token hash, like the created record's
        body["details"] = {k: v for k, v in body["details"].items() if k != "token_hash"}
    return {"type": record["type"], "game": record["game"], "version": record["version"], "body": body}
