"""A store of judged games for the dashboard's judgement tests (the replay, the player and tournament pages), built
once per run (``tests.stores``) and copied for each module that opens it.

The games: a Ruins tournament of two three-seat games and an Arnak tournament of one two-seat game, all judged; a
friendly Ruins game played to its end from its seats (their tokens kept), judged; another finished, not judged;
and a Ruins game in play (its tokens kept). Judged as ``digsite analyse`` judges (``judge_records``, ``stored.write``)
at a tiny budget: the figures' quality is the judge's tests'."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from tests.dashboard.conftest import TEST_SECRET
from tests.service.integrity.test_audit import play
from tests.stores import Shelf

BUDGET = 4  # playouts a decision: a game judged in a second or two


def settings_for(db: Database) -> Settings:
    return Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET)


def _build(db: Database) -> dict[str, Any]:
    settings = settings_for(db)
    service = Digsite(settings)
    try:
        cup = run_tournament(service, kind="ruins", players=3, games=2, pool=4, seed="judged", name="Judged Cup")
        arnak = run_tournament(service, kind="arnak", players=2, games=1, seed="judged", name="Arnak Judged")
        pool = [p["id"] for p in cup.pool]
        seated = service.create_game("ruins", [pool[0], pool[1]], seed="seated")
        play(service, seated["id"], seed=3)
        unjudged = service.create_game("ruins", [pool[2], pool[3]], seed="unjudged")
        play(service, unjudged["id"], seed=4)
        live = service.create_game("ruins", [pool[0], pool[2]], seed="live")
        play(service, live["id"], moves=6, seed=5)
        judged = [*(g.id for g in cup.games), *(g.id for g in arnak.games), seated["id"]]
        for game_id in judged:
            stored.write(db, judge_records(service.stored_records(game_id), BUDGET))
    finally:
        service.close()
    follower = Follower(settings)
    try:
        follower.catch_up()
    finally:
        follower.close()
    return {
        "tournament": cup.id,
        "arnak_tournament": arnak.id,
        "cup": [g.id for g in cup.games],
        "arnak": [g.id for g in arnak.games],
        "seated": seated["id"],
        "seated_tokens": [t["token"] for t in seated["tokens"]],
        "unjudged": unjudged["id"],
        "live": live["id"],
        "live_tokens": [t["token"] for t in live["tokens"]],
        "pool": pool,
    }


@dataclass
class Judged:
    service: Digsite
    queries: ReadPort
    facts: dict[str, Any]

    def close(self) -> None:
        self.queries.close()
        self.service.close()


def open_judged(stores: Shelf, folder: Path) -> Judged:
    """A copy of the judged store, open (close it after)."""
    built = stores.sqlite("dashboard-judged", _build)
    service = Digsite(settings_for(built.copy(folder, "judged.sqlite")))
    return Judged(service, ReadPort.over(service.reader), built.facts)


@pytest.fixture(scope="module")
def judged(stores: Shelf, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judged]:
    """The judged store, copied for the module that uses it (import this fixture there), closed after it."""
    opened = open_judged(stores, Path(tmp_path_factory.mktemp("judged")))
    try:
        yield opened
    finally:
        opened.close()
