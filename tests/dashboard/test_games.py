"""The generic pages reach every registered game through the registry: a game with a renderer of its own draws
its table (Ruins, in the other dashboard tests; Arnak here), one without is drawn plainly (``dashboard.games.plain``),
and the replay page of either works: its timeline and rounds come from the game's ``progress``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dashboard.games import analysed_kinds, plain, renderer
from domain.games import GAMES
from service import bootstrap
from service.bots.simulation import run_tournament
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import Browser
from tests.dashboard.conftest import TEST_SECRET, access_settings


@pytest.fixture(scope="module")
def arnak_venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, str, int]]:
    """A finished solo Arnak game, projected, behind a dashboard an organiser has signed in to."""
    from dashboard import create_dashboard

    path: Path = tmp_path_factory.mktemp("arnak") / "store.sqlite"
    db = Database.from_url(f"sqlite:///{path}")
    backends.upgrade(db)
    service = bootstrap.build(Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET))
    queries = bootstrap.read_port(service)
    try:
        played = run_tournament(service, kind="arnak", players=1, games=1, pool=1, seed="dash").games[0]
        follower = bootstrap.follower(service.settings)
        try:
            follower.catch_up()
        finally:
            follower.close()
        org = Browser(create_dashboard(queries, service, access=access_settings()))
        org.sign_in()
        yield org, played.id, played.moves + 2
    finally:
        queries.close()
        service.close()


def test_every_registered_game_has_a_renderer_and_the_analysed_ones_come_first() -> None:
    for kind in GAMES:
        part = renderer(kind)
        assert callable(part.draw_table) and part.round_name(1) == "Round 1" and part.how_won(None) == "won"
    assert renderer("ruins").round_name(5) == "Showdown" and renderer("arnak").round_name(5) == "Round 5"
    assert analysed_kinds() == [k for k, g in GAMES.items() if g.analytics is not None]


def test_arnak_replays_with_its_own_table_and_the_rival_named(arnak_venue: tuple[Browser, str, int]) -> None:
    org, game_id, versions = arnak_venue
    page = json.dumps(org.route(f"/replay/{game_id}"))
    assert "replay-table" in page and "replay-vp" in page
    frame: dict[str, Any] = org.frame(game_id, versions)
    table = frame["replay-table"]
    assert "arnak-table" in table and "has no table drawing yet" not in table
    page_text = json.dumps(org.route(f"/replay/{game_id}"))
    assert "Rival" in page_text, "the rival the engine plays is named like any seat"


def test_a_game_without_a_renderer_has_its_view_drawn_plainly() -> None:
    table = json.dumps(plain.draw_table({"view": {"game": "arnak", "round": 2}}).to_plotly_json(), default=str)
    assert "has no table drawing yet" in table and '\\"game\\": \\"arnak\\"' in table
    assert plain.round_name(3) == "Round 3" and plain.log_text("a line", {}) == "a line"
