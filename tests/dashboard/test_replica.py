"""The dashboard on a hot standby (its DIGSITE_DATABASE_URL naming the replica): it starts without writing, its
reads (read models, replays, pages) show what the primary recorded once the standby has replayed it, and the
store's health there is read-only without any read failing. On a private primary and a streaming standby of this
module's own (tests/service/pgcluster.py); games played through the service and projected on the primary."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from dashboard import create_dashboard
from domain.games import GAMES
from service import bootstrap
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import organiser, text
from tests.dashboard.conftest import TEST_SECRET, access_settings
from tests.service.integrity.test_audit import new_game, play
from tests.service.pgcluster import Cluster

pytestmark = pytest.mark.postgres

SCHEMA = "replica_dashboard"
WAIT = 20.0  # seconds: the bound on waiting for a condition


class Site:
    """Games played on the primary and projected there; the dashboard's service and queries on each server."""

    def __init__(self, primary: Cluster, standby: Cluster) -> None:
        self.primary, self.standby = primary, standby
        on_primary = Database.from_url(f"{primary.url}?schema={SCHEMA}")
        backends.upgrade(on_primary)
        self.service = Digsite(Settings(database=on_primary, api_key="organiser-key", secret_key=TEST_SECRET))
        self.follower = Follower(self.service.settings)
        cups = [run_tournament(self.service, kind=kind, players=2, games=1) for kind in GAMES]
        self.finished = [game.id for cup in cups for game in cup.games]
        self.live = new_game(self.service, "replica-live")
        play(self.service, self.live, moves=6)
        self.project()
        # As `digsite dashboard` and dashboard.wsgi build it, on the standby: with its schema check at start.
        on_standby = Settings(database=Database.from_url(f"{standby.url}?schema={SCHEMA}"), secret_key=TEST_SECRET)
        self.standby_service = bootstrap.build(on_standby)
        self.reader = bootstrap.read_port(self.standby_service)
        self.truth = ReadPort.over(self.service.reader)

    def project(self) -> None:
        """Bring the read models on the primary up to date, then wait until the standby has replayed them."""
        self.follower.catch_up()
        self.standby.replayed(self.primary)

    def close(self) -> None:
        for queries in (self.reader, self.truth):
            queries.close()
        self.standby_service.close()
        self.follower.close()
        self.service.close()


@pytest.fixture(scope="module")
def site(pg_replica: tuple[Cluster, Cluster]) -> Iterator[Site]:
    found = Site(*pg_replica)
    try:
        yield found
    finally:
        found.close()


def listed(queries: ReadPort) -> list[dict[str, Any]]:
    return sorted(queries.lists.games(limit=500)["rows"], key=lambda g: str(g["game_id"]))


def test_the_dashboard_s_reads_on_the_standby_show_what_the_primary_recorded(site: Site) -> None:
    assert site.standby_service.store_health().state == "read_only"  # a standby: health says so, reads go on
    games = listed(site.reader)
    assert len(games) == len(GAMES) + 1
    assert games == listed(site.truth)
    for game_id in [*site.finished, site.live]:
        last = len(site.truth.replays.records(game_id))
        assert site.reader.replays.records(game_id) == site.truth.replays.records(game_id)
        for version in (1, last // 2, last):
            assert site.reader.replays.replay(game_id, version) == site.truth.replays.replay(game_id, version)
    assert site.reader.lists.tournaments() == site.truth.lists.tournaments()
    assert site.reader.lists.players() == site.truth.lists.players()


def test_the_dashboard_served_from_the_standby_shows_its_pages_and_replays(site: Site) -> None:
    on_standby = organiser(create_dashboard(site.reader, site.standby_service, access=access_settings()))
    on_primary = organiser(create_dashboard(site.truth, site.service, access=access_settings()))
    for path in ("/games", f"/replay/{site.live}", f"/replay/{site.finished[0]}", "/tournaments", "/players"):
        page = text(on_standby.route(path))
        assert "unreachable" not in page and "read-only" not in page, path
        assert page == text(on_primary.route(path)), path
    found = on_standby.games()
    assert found == on_primary.games()
    assert all(game_id in json.dumps(found) for game_id in site.finished)
    for game_id in [*site.finished, site.live]:
        assert on_standby.frames(game_id) == on_primary.frames(game_id)


def test_moves_made_on_the_primary_reach_the_dashboard_on_the_standby(site: Site, caplog: Any) -> None:
    before = site.reader.lists.game_row(site.live)
    assert before is not None
    version = len(site.reader.replays.records(site.live))
    watcher = organiser(create_dashboard(site.reader, site.standby_service, access=access_settings()))
    answer: dict[str, Any] = {}

    def wait() -> None:  # a live page's waiting request, on the standby
        response = watcher.get(f"live/{site.live}?after={version}&wait={WAIT}")
        answer.update(json.loads(response.get_data(as_text=True)), code=response.status_code)

    waiting = threading.Thread(target=wait)
    waiting.start()
    play(site.service, site.live, moves=5, seed=4)
    site.project()
    waiting.join(WAIT + 10)
    assert not waiting.is_alive()
    assert answer["code"] == 200 and answer["version"] > version
    # The page's feed polled the standby (which serves no LISTEN) rather than fail and retry against it.
    assert not [r for r in caplog.records if r.name == "service.serving.push"], [r.getMessage() for r in caplog.records]

    after = site.reader.lists.game_row(site.live)
    assert after is not None and after["moves"] > before["moves"]
    assert after == site.truth.lists.game_row(site.live)
    assert len(site.reader.replays.records(site.live)) == version + 5
    assert site.reader.replays.replay(site.live, version + 5) == site.truth.replays.replay(site.live, version + 5)
