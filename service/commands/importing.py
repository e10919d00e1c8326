"""Importing a game: its records appended exactly as exported, with the players and tournaments it names."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from service.caller_values import parse_uuid
from service.commands.rounds import replay_recorded
from service.errors import Conflict
from service.store import eventsourcing_workarounds
from service.store.aggregates import Game, Player, Tournament

# The event each type of record after the first is stored as (service.integrity.chain.record_of, read backwards)
RECORDED = {
    "move": Game.MoveRecorded,
    "timeout": Game.TimedOut,
    "clock": Game.ClockChanged,
    "forfeit": Game.Forfeited,
    "seed_revealed": Game.SeedRevealed,
    "ruling": Game.RulingRecorded,
}


def import_game(
    app: Any,
    records: list[dict[str, Any]],
    players: list[dict[str, Any]] | None = None,
    tournaments: list[dict[str, Any]] | None = None,
) -> list[str]:
    """Append a game's records exactly as given (same id, versions, hashes, bodies), with those of the
    ``players``/``tournaments`` (dicts as ``player()``/``tournament()`` return them; a tournament's with its
    recorded entries and rounds, ``events``, if any) this store lacks, in
    one transaction. The caller verifies the records first (``service.integrity.transfer`` does). Returns the ids
    of the players and tournaments added; raises Conflict ``game_exists`` if the game id is taken."""
    uid = parse_uuid(records[0]["game"], "game")
    if app.recorder.select_events(uid, limit=1):
        raise Conflict(f"a game with id {uid} already exists in this store", "game_exists")
    game = Game.create(uid, **{"clock": None, **records[0]["body"]}, hash=records[0]["hash"])
    for record in records[1:]:
        fields = {**record["body"], "prev_hash": record["prev_hash"], "hash": record["hash"]}
        game.trigger_event(RECORDED[record["type"]], **fields)
    added: list[Any] = []
    for cls, found in ((Player, players or []), (Tournament, tournaments or [])):
        for data in found:
            given = {k: v for k, v in data.items() if k not in ("id", "created_at", "events", "hash")}
            if not app.recorder.select_events(UUID(data["id"]), limit=1):
                made: Any
                if cls is Tournament:  # its chain recomputed as it is recorded again (``transfer`` compared it)
                    made = Tournament.create(UUID(data["id"]), **given, at=data["created_at"])
                    events = [{k: v for k, v in e.items() if k != "hash"} for e in data.get("events", [])]
                    replay_recorded(made, events)  # its entries and rounds (none: an old file)
                else:
                    made = eventsourcing_workarounds.create(
                        cls, cls.Created, id=UUID(data["id"]), **given, at=data["created_at"]
                    )
                added.append(made)
    try:
        app.save(*added, game)
    except IntegrityError:
        raise Conflict(f"game {uid} or one of its players was written meanwhile", "game_exists") from None
    return [str(a.id) for a in added]
