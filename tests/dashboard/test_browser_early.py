"""In Chromium: the players and aggregates pages opened by their address show the figures begun while the page was
served (``dashboard.early``), as a spectator and as an organiser, without Dash's unused table bundle, and the
figures still follow the choices made in the page afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.dashboard.conftest import Demo
from tests.dashboard.test_browser import choose, sign_in


@pytest.mark.parametrize("signed_in", [False, True], ids=["spectator", "organiser"])
def test_a_players_page_opened_shows_the_figures_begun_with_it(
    page: Any, demo: Demo, computed: list[str], signed_in: bool
) -> None:
    if signed_in:
        sign_in(page)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    player = demo.players[0]
    page.goto(f"/players?game=ruins&player={player['id']}")
    expect(page.locator("#players-loaded")).to_be_attached()
    expect(page.locator("#players-group-leads .tbars-row").first).to_be_visible()
    assert computed and computed[0].startswith("digsite-early"), computed
    assert not any("/dash_table/" in url for url in asked)
    # the page's own choices afterwards are answered as before (in the request: nothing was begun for them)
    page.eval_on_selector("#players-loaded", "e => { e.__before = true; }")
    choose(page, "players-size", "3 players")
    page.wait_for_function("() => { var e = document.getElementById('players-loaded'); return e && !e.__before; }")
    assert len(computed) == 2 and not computed[-1].startswith("digsite-early"), computed


def test_an_aggregates_page_opened_shows_the_figures_begun_with_it(page: Any, computed: list[str]) -> None:
    page.goto("/aggregates?game=ruins")
    expect(page.locator("#agg-summary")).to_be_attached()
    assert computed and computed[0].startswith("digsite-early"), computed
