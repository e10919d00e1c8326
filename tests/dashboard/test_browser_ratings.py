"""Ratings in Chromium, as a spectator sees them: the leaderboard from the nav, a player's rating with its band from
the leaderboard's link, the tournament page's change per player; each page's screenshot kept."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.dashboard.conftest import SCREENSHOTS, Demo, Shots
from tests.dashboard.test_browser import scrolled_until_drawn

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def test_the_leaderboard_to_a_player_s_rating_and_a_tournament_s_changes(page: Any, demo: Demo, shots: Shots) -> None:
    page.goto("/games")
    page.get_by_role("link", name="Leaderboards").click()
    table = page.locator("#leaderboard-table")
    expect(table.locator("tbody tr")).to_have_count(len(demo.players))
    shots.take(page, "leaderboard")

    table.locator("tbody tr").first.locator("a").click()
    expect(page).to_have_url(re.compile(r".*/players\?player=.*"))
    expect(page.locator("#players-rating")).to_contain_text("95 %")  # in words on the first screen
    scrolled_until_drawn(page, "players-rating-chart")  # drawn when seen
    expect(page.locator("#players-rating-chart .main-svg").first).to_be_visible()
    shots.take(page, "player")
    page.locator("#players-rating-card").screenshot(path=str(SCREENSHOTS / f"{shots.name}-player-rating.png"))

    page.goto(f"/tournaments/{demo.tournament}")
    expect(page.locator("#tournament-ratings-table tbody tr")).to_have_count(len(demo.players))
    expect(page.locator("#tournament-ratings-chart .main-svg").first).to_be_visible()
    shots.take(page, "tournament")


def test_the_leaderboard_and_a_tournament_s_ratings_fit_a_phone(page: Any, demo: Demo, shots: Shots) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/leaderboards/ruins")
    expect(page.locator("#leaderboard-table")).to_be_visible()
    shots.take(page, "leaderboard")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"/tournaments/{demo.tournament}")
    expect(page.locator("#tournament-ratings-chart .main-svg").first).to_be_visible()
    shots.take(page, "tournament")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
