"""The topics the store records for its aggregates and their events do not follow the module's path: they are in
every stored record, in the snapshots' seals and in the PostgreSQL ledger trigger, so a store written before the
module moved still reads, and records written after it carry the same topics."""

import re
from pathlib import Path

from eventsourcing.utils import get_topic, resolve_topic

from service.store.aggregates import Game, Player, Seating, Tournament

ROOT = Path(__file__).resolve().parents[3]
STORED = [Game, Game.Created, Game.MoveRecorded, Game.SeedRevealed, Player, Player.Created, Tournament,
          Tournament.Created, Seating, Seating.Created]  # fmt: skip


def test_every_stored_class_keeps_the_topic_the_first_records_were_stored_under() -> None:
    for cls in STORED:
        assert get_topic(cls) == f"service.aggregates:{cls.__qualname__}"
        assert resolve_topic(get_topic(cls)) is cls


def test_the_ledger_trigger_names_the_topics_games_are_created_and_finished_under() -> None:
    trigger = (ROOT / "migrations" / "postgresql" / "0001_store.sql").read_text()
    named = set(re.findall(r"'(service\.[\w.]+:[\w.]+)'", trigger))
    assert named == {get_topic(Game.Created), get_topic(Game.SeedRevealed)}
