"""The tournaments page in Chromium, as an organiser at an event would use it: from the list to the standings,
a points table typed in, standings after round 1, the cross table's link into a game's replay, and a phone's width."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.dashboard.conftest import Demo, Shots
from tests.dashboard.test_browser import sign_in

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def test_standings_from_the_list_to_a_replay(page: Any, demo: Demo, shots: Shots) -> None:
    sign_in(page)
    page.goto("/tournaments")
    page.get_by_role("link", name="Spring Cup").click()
    table = page.locator("#standings-table")
    expect(table.locator("tbody tr")).to_have_count(len(demo.players))
    expect(page.locator("#standings-rules")).to_contain_text("Ties are broken by games won")
    shots.take(page, "standings")
    first_points = table.locator("tbody tr").first.locator("td").nth(4).inner_text()

    page.fill("#standings-points", "10,0,0")
    page.press("#standings-points", "Enter")
    expect(page.locator("#standings-rules")).to_contain_text("1st 10")
    assert table.locator("tbody tr").first.locator("td").nth(4).inner_text() != first_points

    page.locator("#standings-cross a.cross-game").first.click()
    expect(page).to_have_url(re.compile(r".*/replay/[0-9a-f-]+"))
    expect(page.locator("#replay-table")).to_be_visible()


def test_the_standings_fit_a_phone(page: Any, demo: Demo, shots: Shots) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page)
    page.goto(f"/tournaments/{demo.tournament}")
    expect(page.locator("#standings-table")).to_be_visible()
    shots.take(page, "phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_tournaments_list_fits_a_phone(page: Any, demo: Demo, shots: Shots) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page)
    page.goto("/tournaments")
    expect(page.locator("#tournaments-list table")).to_be_visible()
    shots.take(page, "phone")
    wide = page.evaluate(
        "w => Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > w + 1)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 10)",
        390,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
