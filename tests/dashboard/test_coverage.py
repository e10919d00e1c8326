"""The replay's verification panel says whether a published checkpoint pins the game (docs/audit.md), read
afresh on each visit, through the same door as every other callback (Dash's endpoint, no browser)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dashboard import create_dashboard
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.integrity import checkpoint
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import Browser, by_id, organiser
from tests.dashboard.conftest import TEST_SECRET, access_settings


@pytest.fixture
def cup(tmp_path: Any) -> Iterator[tuple[Digsite, ReadPort, list[str]]]:
    db = Database.from_url(f"sqlite:///{tmp_path / 'cup.sqlite'}")
    backends.upgrade(db)
    service = Digsite(Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET))
    queries = ReadPort.over(service.reader)
    try:
        games = run_tournament(
            service, kind="ruins", players=2, games=2, pool=2, seed="pinned", name="Pinned Cup"
        ).games
        yield service, queries, [g.id for g in games]
    finally:
        queries.close()
        service.close()


def _coverage(browser: Browser, game_id: str) -> dict[str, Any]:
    response = browser.verification_response(game_id)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return by_id(response.get_json()["response"]["replay-verify"]["children"], "replay-coverage")


def test_a_finished_game_is_shown_pinned_only_once_a_checkpoint_covers_it(cup: Any) -> None:
    service, queries, (first, second) = cup
    app = create_dashboard(queries, service, access=access_settings(failures=1000))
    spectator, referee = Browser(app), organiser(app)
    for browser in (spectator, referee):
        assert "not yet in a published checkpoint" in _coverage(browser, first)["props"]["children"]

    checkpoint.issue(service, Ed25519PrivateKey.generate())

    for browser in (spectator, referee):
        badge = _coverage(browser, second)["props"]
        assert "pins every record" in badge["children"] and "badge-ok" in badge["className"]
