# ruff: noqa: F811  (the fixtures imported are redefined as parameters: how pytest shares them)
"""The judge's judgement on a finished game's replay, in the browser (headless Chromium via Playwright): a click on
the win-chance graph moves the replay to that move, the move list carries the marks, and the judge's note follows
the move shown. Screenshots under artifacts/screenshots/ (as an organiser sees the page)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dashboard import create_dashboard
from tests.dashboard.conftest import CHROMIUM_ARGS, TIMEOUT_MS, Shots, access_settings, served, watched_tab  # noqa: F401
from tests.dashboard.judged import Judged, judged  # noqa: F401  (the judged store, a fixture)
from tests.dashboard.test_browser import scrolled_until_drawn, sign_in, version_is

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@pytest.fixture(scope="module")
def judged_url(judged: Judged) -> Iterator[str]:
    """The dashboard over the judged store, on a free port, for this module."""
    app = create_dashboard(judged.queries, judged.service, access=access_settings())
    with served(app, "judged-dashboard") as url:
        yield url


@pytest.fixture
def tab(browser: Any, judged_url: str, shots: Shots) -> Iterator[Any]:
    """A fresh page on the judged dashboard; console errors fail the test, a final screenshot is kept."""
    with watched_tab(browser, judged_url, shots) as page:
        yield page


def test_a_click_on_the_win_chance_graph_moves_the_replay_and_the_move_list_has_its_marks(
    tab: Any, judged: Judged, shots: Shots
) -> None:
    game_id = judged.facts["cup"][0]
    analysis = judged.queries.judgements.of(game_id)
    assert analysis is not None
    marked = next(m for m in analysis["moves"] if m["mark"])
    seat0 = [m for m in analysis["moves"] if m["seat"] == 0 and m["judged"]]
    target = seat0[len(seat0) // 2]  # a judged decision of seat 0's, somewhere in the game
    sign_in(tab)
    tab.goto(f"/replay/{game_id}?v=1")
    expect(tab.locator("#replay-root")).to_have_attribute("data-judged", "yes")
    expect(tab.locator("#replay-judge-graph .js-plotly-plot")).to_be_attached()
    version_is(tab, 1)

    # The marks in the move list (docs/judge.md's signs), once the log is in.
    row = tab.locator(f"#replay-moves .move-row[data-move='{marked['version']}'] .move-mark")
    expect(row).to_have_text(SIGNS[marked["mark"]])
    assert tab.locator("#replay-moves .move-mark").count() == sum(1 for m in analysis["moves"] if m["mark"])

    # A click on seat 0's point at that decision moves the replay there, and the judge's note follows.
    point = (
        tab.locator("#replay-judge-graph .scatterlayer .trace").nth(0).locator("path.point").nth(seat0.index(target))
    )
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tab.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    version_is(tab, target["version"])
    expect(tab.locator("#replay-root")).to_have_attribute("data-move", str(target["version"]))
    expect(tab.locator("#replay-judged-move")).to_contain_text("played: ")
    expect(tab.locator("#replay-judged-move")).to_contain_text("The best move found: ")
    shots.take(tab, "clicked")

    # At a marked move, the note names the mark.
    tab.locator(f"#replay-moves .move-row[data-move='{marked['version']}']").click()
    version_is(tab, marked["version"])
    expect(tab.locator("#replay-judged-move")).to_contain_text(f"{SIGNS[marked['mark']]} {marked['mark']}")
    tab.locator("#replay-judge").scroll_into_view_if_needed()
    shots.take(tab, "marked")


def test_the_player_and_tournament_pages_show_accuracy(tab: Any, judged: Judged, shots: Shots) -> None:
    facts = judged.facts
    sign_in(tab)
    tab.goto(f"/players?player={facts['pool'][0]}&game=ruins")
    expect(tab.locator("#players-accuracy-table")).to_contain_text("seats")
    scrolled_until_drawn(tab, "players-accuracy-graph")  # drawn when seen
    shots.take(tab, "player")
    tab.goto(f"/tournaments/{facts['tournament']}")
    expect(tab.locator("#tournament-accuracy-table")).to_be_visible()
    shots.take(tab, "tournament")


def test_on_a_phone_the_judgement_is_no_wider_than_the_screen(tab: Any, judged: Judged, shots: Shots) -> None:
    width = 390
    tab.set_viewport_size({"width": width, "height": 844})
    tab.goto(f"/replay/{judged.facts['arnak'][0]}?v=20")
    expect(tab.locator("#replay-root")).to_have_attribute("data-judged", "yes")
    expect(tab.locator("#replay-judge-graph .js-plotly-plot")).to_be_attached()
    expect(tab.locator("#replay-judged-move")).not_to_be_empty()
    wide = tab.evaluate(
        "w => Array.from(document.querySelectorAll('#replay-judge *, #replay-judged-card *')).filter(e => {"
        " const r = e.getBoundingClientRect(); return r.width > 0 && r.right > w + 1 && !e.closest('svg')"
        " && !e.closest('.table-scroll'); }).map(e => e.tagName + '.' + e.className).slice(0, 10)",
        width,
    )
    assert tab.evaluate("document.documentElement.scrollWidth") <= width, wide
    tab.locator("#replay-judge").scroll_into_view_if_needed()
    shots.take(tab, "phone")
