"""The rounds page in Chromium, as an organiser runs an evening: players entered (people picked from the list and
named bots), the first round seated and started with a click, the seat links downloaded as a printable sheet with a
QR code per seat, and a player's link from it opening that player's own seat; a phone's width."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.bots.seated_rounds import enter_bots
from service.commands.application import Digsite
from tests.dashboard.conftest import TIMEOUT_MS, Shots, own_store, watched_tab
from tests.dashboard.test_browser import sign_in
from tests.service.projecting import catch_up

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)


@dataclass
class Evening:
    service: Digsite
    base_url: str
    cup: str
    people: list[str]
    seated: str  # a one-round tournament of bots, its round seated and in play


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evening]:
    """A store of its own (the demo's lists must not change), two people registered, its dashboard on a free port."""
    made: dict[str, Any] = {}

    def prepare(service: Digsite) -> None:
        made["people"] = [service.create_player(n) for n in ("Ana", "Beto")]
        made["cup"] = service.create_tournament("Club night", 2, "ruins")
        made["seated"] = service.create_tournament("One round", 1, "ruins")
        enter_bots(service, made["seated"], 2)
        service.rounds.seat_round(made["seated"], "round_robin", 2)
        catch_up(service)  # (the page offers players from the players list)

    with own_store(tmp_path_factory, "rounds", prepare) as own:
        yield Evening(own.service, own.base_url, made["cup"], made["people"], made["seated"])


@pytest.fixture
def tab(browser: Any, evening: Evening, shots: Shots) -> Iterator[Any]:
    with watched_tab(browser, evening.base_url, shots, accept_downloads=True) as page:
        yield page


def test_an_organiser_enters_players_seats_a_round_and_prints_its_links(
    tab: Any, browser: Any, evening: Evening, shots: Shots, tmp_path: Path
) -> None:
    sign_in(tab)
    tab.goto(f"/tournaments/{evening.cup}")
    tab.click("#tournament-rounds-link")
    expect(tab.locator("#rounds-none")).to_be_visible()
    tab.click("#rounds-enter-players")  # (a Dash 4 dropdown: a button that opens a list of role=option items)
    for name in ("Ana", "Beto"):
        tab.get_by_role("option", name=name, exact=True).click()
    tab.keyboard.press("Escape")
    tab.fill("#rounds-enter-bots", "2")
    tab.click("#rounds-enter")
    expect(tab.locator("#rounds-message")).to_have_text("Entered 4 player(s).")
    expect(tab.locator("#rounds-entries")).to_contain_text("Ana, Beto")
    expect(tab.locator("#rounds-summary")).to_have_text("4 entries · 0 of 2 rounds seated")

    tab.fill("#rounds-size", "2")
    tab.click("#rounds-start")
    expect(tab.locator("#rounds-message")).to_have_text("Round 1 seated and started: 2 table(s).")
    expect(tab.locator("#rounds-start")).to_be_enabled()  # (round 2 is left)
    expect(tab.locator("#rounds-round-1 tbody tr")).to_have_count(2)
    shots.take(tab, "seated")
    tab.click("#rounds-start")  # again, while round 1 is in play: refused in a sentence, nothing seated
    expect(tab.locator("#rounds-message")).to_contain_text("(round_in_play)")

    with tab.expect_download() as download:
        tab.click("#rounds-links-sheet")
    sheet = tmp_path / "sheet.html"
    download.value.save_as(sheet)
    text = sheet.read_text()
    assert text.count("<svg") == 4
    link = re.search(rf"{re.escape(evening.base_url)}/replay/([0-9a-f-]+)\?token=([A-Za-z0-9_-]+)", text)
    assert link, text[:500]

    player = browser.new_context(base_url=evening.base_url)  # the player, in a browser of their own
    try:
        seat = player.new_page()
        seat.goto(link.group(0))
        expect(seat.locator("#replay-play-link")).to_be_visible()
    finally:
        player.close()


def test_the_rounds_page_fits_a_phone(tab: Any, evening: Evening) -> None:
    tab.set_viewport_size({"width": 390, "height": 844})
    sign_in(tab)
    tab.goto(f"/tournaments/{evening.cup}/rounds")
    expect(tab.locator("#rounds-page")).to_be_visible()
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390


def test_once_every_round_is_seated_the_button_is_off_and_its_card_says_why(tab: Any, evening: Evening) -> None:
    """What the page shows once its callbacks have run (they run as it loads), not only the layout served."""
    sign_in(tab)
    tab.goto(f"/tournaments/{evening.seated}/rounds")
    expect(tab.locator("#rounds-round-1")).to_be_visible()
    expect(tab.locator("#rounds-message")).to_have_text("All 1 round(s) are seated; the last games are still in play.")
    expect(tab.locator("#rounds-start")).to_be_disabled()
