"""The broadcast page in a real browser (headless Chromium via Playwright): an anonymous spectator opens a
broadcast game in play and the page follows it without a reload, one version each time a move falls behind the
delay, through its one waiting request (``broadcast-live/<game>``). Every wait is on a page state with a
deadline, never a fixed sleep."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest

from domain.games import game as game_of
from service.commands.application import Digsite, Viewer
from service.commands.broadcasts import set_broadcast
from tests.dashboard.conftest import SCREENSHOTS, TIMEOUT_MS, own_store

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

BEHIND = 1


@dataclass
class Venue:
    service: Digsite
    base_url: str
    game_id: str


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    made: dict[str, str] = {}

    def prepare(service: Digsite) -> None:
        cup = service.create_tournament("Open", 1, "arnak")
        set_broadcast(service, cup, moves=BEHIND)
        players = [service.create_player(n) for n in ("Ada", "Bea")]
        made["game"] = service.create_game("arnak", players, None, {"tournament": cup})["id"]

    with own_store(tmp_path_factory, "watched", prepare) as own:
        yield Venue(own.service, own.base_url, made["game"])


def play(service: Digsite, game_id: str) -> None:
    game = service.live.current(UUID(game_id))
    rules = game_of(game.kind).rules
    seat = rules.to_act(game.state)[0]
    service.submit(game_id, Viewer(seat), game.version, rules.action_to_dict(rules.legal_actions(game.state, seat)[0]))


def test_a_spectator_s_page_follows_the_broadcast_without_a_reload(browser: Any, venue: Venue) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=venue.base_url)
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    waits: list[str] = []
    tab.on("request", lambda request: waits.append(request.url) if "/broadcast-live/" in request.url else None)
    try:
        tab.goto(f"/broadcast/{venue.game_id}")
        now = tab.locator("#broadcast-now")
        expect(now).to_have_attribute("data-version", "1")
        expect(tab.locator("#broadcast-table")).not_to_contain_text("Drawing the table")
        play(venue.service, venue.game_id)  # one move: still within the delay
        play(venue.service, venue.game_id)  # the second: the first falls behind it and shows
        expect(now).to_have_attribute("data-version", "2")
        play(venue.service, venue.game_id)
        expect(now).to_have_attribute("data-version", "3")
        expect(tab.locator("#broadcast-status")).to_contain_text("1 move behind")
        assert waits, "the page never waited on the broadcast"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SCREENSHOTS / "broadcast-follows.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
