"""Charts drawn when they scroll into view (``dashboard.lazy_charts``), in a real browser: a chart below the first
screen waits in a box of its own height, without plotly.js, and is drawn once it is scrolled to, once, at that
height; the charts on the first screen are drawn at once; a chart follows the window's width; a new answer's
charts replace the old ones'."""

from __future__ import annotations

from typing import Any

import pytest

from dashboard import plotly_bundle
from tests.dashboard.conftest import TIMEOUT_MS, Demo
from tests.dashboard.test_browser import choose, plotted_points

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

PLOT = " .js-plotly-plot"


def _drawn(page: Any, chart_id: str) -> bool:
    return bool(page.evaluate("id => !!document.querySelector('#' + id + ' .js-plotly-plot')", chart_id))


def _height(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => e.getBoundingClientRect().height"))


def _plotly_asked(asked: list[str]) -> list[str]:
    return [url for url in asked if plotly_bundle.ROUTE.rsplit("/", 1)[-1] in url]


def test_a_players_chart_below_the_fold_is_drawn_once_scrolled_to(page: Any, demo: Demo) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    player = demo.players[0]
    page.goto(f"/players?game=ruins&player={player['id']}")
    chart = "players-round-vp_by_round"
    box = page.locator(f"#{chart}")
    expect(box).to_have_class("lazy-chart")
    expect(page.locator("#players-group-leads .tbars-row").first).to_be_visible()  # the first screen is in
    page.wait_for_timeout(500)  # (time for a chart to start drawing, were it drawn at once)
    assert box.bounding_box()["y"] > page.viewport_size["height"]  # below the first screen
    assert not _drawn(page, chart)
    assert not _plotly_asked(asked)  # no chart on the first screen: no plotly.js at all
    waiting = _height(page, f"#{chart}")
    assert waiting > 200  # its figure's height, kept while it waits

    points = plotted_points(page, chart)  # scrolled to, then drawn
    assert len(points) == 2 and all(n > 0 for n in points)  # the player and the field
    assert len(_plotly_asked(asked)) == 1
    assert _height(page, f"#{chart}") == waiting  # nothing below it moved
    assert _height(page, f"#{chart}{PLOT}") == pytest.approx(waiting, abs=1)
    # drawn once: scrolled away and back, the same plot is there (not drawn again)
    page.eval_on_selector(f"#{chart}{PLOT}", "g => { g.__seen = true; }")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator(f"#{chart}").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert page.eval_on_selector_all(f"#{chart}{PLOT}", "gs => gs.map(g => g.__seen === true)") == [True]


def test_the_aggregates_page_draws_its_first_screen_at_once_and_the_rest_when_scrolled(page: Any, demo: Demo) -> None:
    page.goto("/aggregates?game=ruins")
    expect(page.locator("#agg-seats .tbars-row").first).to_be_visible()  # the win rates: HTML bars, no Plotly
    seen = "bs => bs.map(b => [b.id, b.getBoundingClientRect().top, !!b.querySelector('.js-plotly-plot')])"
    boxes = page.eval_on_selector_all(".lazy-chart", seen)
    shown = [cid for cid, top, _ in boxes if top < page.viewport_size["height"]]
    assert shown  # a chart on the first screen is drawn without a scroll
    for chart in shown:
        expect(page.locator(f"#{chart}{PLOT}")).to_be_attached()
    boxes = page.eval_on_selector_all(".lazy-chart", seen)
    below = [cid for cid, top, drawn in boxes if top > page.viewport_size["height"] + 400]
    assert below and not any(drawn for cid, top, drawn in boxes if cid in below)
    assert plotted_points(page, below[-1])  # the last one, once scrolled to


def test_a_chart_follows_the_window_s_width(page: Any, demo: Demo) -> None:
    page.goto("/aggregates?game=ruins")
    plotted_points(page, "agg-score")
    wide = float(page.eval_on_selector("#agg-score" + PLOT, "g => g.getBoundingClientRect().width"))
    page.set_viewport_size({"width": 500, "height": 900})
    page.wait_for_function(
        "w => document.querySelector('#agg-score .js-plotly-plot .main-svg').getBoundingClientRect().width < w - 50",
        arg=wide,
    )
    box = float(page.eval_on_selector("#agg-score", "b => b.getBoundingClientRect().width"))
    svg = float(page.eval_on_selector("#agg-score .main-svg", "s => s.getBoundingClientRect().width"))
    assert svg == pytest.approx(box, abs=2)  # the chart as wide as its box, no wider


def test_another_game_s_charts_replace_the_ones_shown(page: Any, demo: Demo) -> None:
    page.goto("/aggregates?game=ruins")
    plotted_points(page, "agg-score")  # drawn, then the game changed on the page (the same boxes' ids)
    page.evaluate("() => window.scrollTo(0, 0)")
    choose(page, "agg-kind", "Lost Ruins of Arnak")
    expect(page.locator("#agg-summary")).to_contain_text("Lost Ruins of Arnak")
    expected = [r["value"] for r in demo.queries.analytics.distributions("arnak")["score"]]
    page.locator("#agg-score").scroll_into_view_if_needed()
    page.wait_for_function(
        "xs => { const g = document.querySelector('#agg-score .js-plotly-plot');"
        " return g && JSON.stringify(Array.from(g.data[0].x)) === JSON.stringify(xs); }",
        arg=expected,
    )
    assert page.locator("#agg-score" + PLOT).count() == 1  # the Ruins chart gone, not beside it
