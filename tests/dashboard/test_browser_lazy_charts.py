"""Charts drawn when they scroll into view (``dashboard.lazy_charts``), in a real browser: a chart below the first
screen waits in a box of its own height, without plotly.js, and is drawn once it is scrolled to, once, at that
height; the aggregates page's first screen needs no Plotly at all (its charts there are HTML); a chart follows
the window's width; a new answer's charts replace the old ones'."""

from __future__ import annotations

from typing import Any

import pytest

from dashboard import plotly_bundle
from tests.dashboard.conftest import TIMEOUT_MS, Demo
from tests.dashboard.test_browser import choose, plotted_points, shown_columns

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


def test_the_aggregates_page_s_first_screen_needs_no_plotly_and_the_rest_is_drawn_when_scrolled(
    page: Any, demo: Demo
) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto("/aggregates?game=ruins")
    # the first screen: the win rates as HTML bars, the final scores and game lengths as HTML columns
    for chart in ("agg-seats .tbars-row", "agg-score .ccols-col", "agg-length .ccols-col"):
        expect(page.locator(f"#{chart}").first).to_be_visible()
    assert page.locator("#agg-length").bounding_box()["y"] < page.viewport_size["height"]
    page.wait_for_timeout(500)  # (time for a chart to start drawing, were it drawn at once)
    seen = "bs => bs.map(b => [b.id, b.getBoundingClientRect().top, !!b.querySelector('.js-plotly-plot')])"
    boxes = page.eval_on_selector_all(".lazy-chart", seen)
    assert boxes and all(top > page.viewport_size["height"] for _, top, _ in boxes)  # every Plotly chart below
    assert not any(drawn for _, _, drawn in boxes)
    assert not _plotly_asked(asked)  # no plotly.js asked for
    assert plotted_points(page, boxes[-1][0])  # the last one, once scrolled to
    assert len(_plotly_asked(asked)) == 1


def test_a_chart_follows_the_window_s_width(page: Any, demo: Demo) -> None:
    chart = "agg-breakdown-discoveries"
    page.goto("/aggregates?game=ruins")
    plotted_points(page, chart)
    wide = float(page.eval_on_selector(f"#{chart}" + PLOT, "g => g.getBoundingClientRect().width"))
    page.set_viewport_size({"width": 500, "height": 900})
    page.wait_for_function(
        "a => document.querySelector('#' + a[0] + ' .js-plotly-plot .main-svg').getBoundingClientRect().width"
        " < a[1] - 50",
        arg=[chart, wide],
    )
    box = float(page.eval_on_selector(f"#{chart}", "b => b.getBoundingClientRect().width"))
    svg = float(page.eval_on_selector(f"#{chart} .main-svg", "s => s.getBoundingClientRect().width"))
    assert svg == pytest.approx(box, abs=2)  # the chart as wide as its box, no wider


def test_another_game_s_charts_replace_the_ones_shown(page: Any, demo: Demo) -> None:
    page.goto("/aggregates?game=ruins")
    plotted_points(page, "agg-breakdown-discoveries")  # a Plotly chart drawn, then the game changed on the page
    page.evaluate("() => window.scrollTo(0, 0)")
    choose(page, "agg-kind", "Lost Ruins of Arnak")
    expect(page.locator("#agg-summary")).to_contain_text("Lost Ruins of Arnak")
    # the first screen's columns (the same boxes' ids) hold Arnak's scores, and the Ruins chart is gone
    expected = {str(r["value"]): r["n"] for r in demo.queries.analytics.distributions("arnak")["score"]}
    page.wait_for_function(
        "xs => { const cs = document.querySelectorAll('#agg-score .ccols-col[data-n]:not([data-n=\"0\"])');"
        " return JSON.stringify(Array.from(cs).map(c => c.dataset.label)) === JSON.stringify(xs); }",
        arg=list(expected),
    )
    assert {label: n for label, n in shown_columns(page, "agg-score") if n} == expected
    expect(page.locator("#agg-breakdown-discoveries")).to_have_count(0)
    assert plotted_points(page, "agg-breakdown-cards_by_kind_cost")  # Arnak's, drawn once scrolled to
