"""A timed game on the seat page (called as the browser calls it): the clock beside the status, each seat's time
and deadline; a move after the seat's deadline is refused with the reason, and the timeout is recorded. The
replay's log says the time left after every move. Clocks are injected: nothing waits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from dashboard import create_dashboard
from dashboard.picker import matching
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.reading.replays import entries
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import text
from tests.dashboard.conftest import TEST_SECRET, access_settings
from tests.dashboard.test_play import Table, drawn, seated, to_act
from tests.service.commands.test_clocks import Clock


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, clock: Clock) -> Iterator[Table]:
    db = Database.from_url(f"sqlite:///{tmp_path_factory.mktemp('clock') / 'clock.sqlite'}")
    backends.upgrade(db)
    service = Digsite(Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET), clock=clock)
    queries = ReadPort.over(service.reader)
    players = [service.create_player(name) for name in ("Ada", "Bea", "Cy")]
    made = service.create_game("ruins", players, seed="clock", clock={"per_move": 90})
    try:
        yield Table(service, queries, made["id"], [t["token"] for t in made["tokens"]])
    finally:
        queries.close()
        service.close()


@pytest.fixture(scope="module")
def app(table: Table) -> Any:
    return create_dashboard(table.queries, table.service, access=access_settings(failures=1000))


def test_the_seat_page_shows_the_clock_and_refuses_a_move_out_of_time(app: Any, table: Table, clock: Clock) -> None:
    seat = to_act(table)
    player = seated(app, table, seat)
    out = drawn(player, table)
    status = text(out["play-status"]["children"])
    assert "Clock:" in status and "Ada 1:30 (running, until 12:01:30 UTC)" in status
    choice = matching(out["play-picker"]["data"], None, [])[0]
    clock.wait(91)
    refused = drawn(player, table, trigger="play-submit", chosen=choice["value"], shown=out["play-version"]["data"])
    assert "time ran out" in text(refused["play-message"]["children"])
    records = table.service.stored_records(table.game_id)
    assert seat in [r["body"]["seat"] for r in records if r["type"] == "timeout"]
    assert json.loads(choice["value"]) not in [r["body"]["action"] for r in records if r["type"] == "move"]
    # The replay's log: who ran out of time, and every seat's time left after each record.
    told = [line for entry in entries(records, None) for line in entry.lines if line]
    assert "Ada's time ran out: the game played for them" in told
    assert any(line.startswith("Time left: Ada 0:00") for line in told)
