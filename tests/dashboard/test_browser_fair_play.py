# ruff: noqa: F811  (the fixtures imported are redefined as parameters: how pytest shares them)
"""The fair-play page in Chromium (headless, via Playwright), as an organiser opens it: from the tournament page's
link, every signal's findings with the moves behind them, a move's link opening the replay at that move from the
mover's seat; at a desktop's width and a phone's (screenshots under artifacts/screenshots/)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dashboard import create_dashboard
from service.reading import fair_play
from tests.dashboard.conftest import TIMEOUT_MS, Shots, access_settings, served, watched_tab
from tests.dashboard.judged import Judged, judged  # noqa: F401  (the judged store, a fixture)
from tests.dashboard.test_browser import sign_in, version_is
from tests.service import fair_play_support

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def judged_url(judged: Judged) -> Iterator[str]:
    """The dashboard over the judged store with the hand-made reporter, on a free port, for this module."""
    app = create_dashboard(judged.queries, judged.service, access=access_settings())
    app.digsite.data.fair_play_reporter = fair_play_support.reporter  # type: ignore[attr-defined]
    with served(app, "fair-play-dashboard") as url:
        yield url


@pytest.mark.parametrize("width", [1280, 390])
def test_an_organiser_opens_the_report_and_clicks_a_move_into_its_replay(
    browser: Any, judged_url: str, judged: Judged, shots: Shots, width: int
) -> None:
    with watched_tab(browser, judged_url, viewport={"width": width, "height": 900}) as tab:
        cup = judged.facts["tournament"]
        report, _ = fair_play.fair_play(judged.queries, cup, fair_play_support.reporter)
        first = report["signals"]["gifts"][0]["moves"][0]
        sign_in(tab)
        tab.goto(f"/tournaments/{cup}")
        tab.click("#tournament-fair-play-link")
        expect(tab.locator("#fair-play-coverage")).to_contain_text("2 of 2 finished games judged")
        for signal in ("gifts", "soft_play", "kingmaking", "bot_like"):
            expect(tab.locator(f"#fair-play-{signal}")).to_be_visible()
        gifts = tab.locator("#fair-play-gifts")
        expect(gifts.locator("tr.flagged")).to_have_count(1)
        gifts.locator("details summary").first.click()
        expect(gifts.locator(".fair-play-move").first).to_contain_text("(mover)")
        shots.take(tab, f"report-{width}")

        gifts.locator(".fair-play-move-link").first.click()
        expect(tab.locator("#replay-root")).to_be_attached()
        version_is(tab, first["version"])
        assert f"seat={first['seat']}" in tab.url
        shots.take(tab, f"replay-{width}")
