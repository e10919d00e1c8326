"""A page's answers begun while its HTML is served (``dashboard.early``, ``dashboard.shell``): taken by the callback
that asks for them, only by the same visitor with the same choices, with the same answer and the same refusals as
when the callback computes them itself."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest

from dashboard import create_dashboard
from dashboard.access import Denied
from dashboard.early import Early
from tests.dashboard.client import Browser, organiser
from tests.dashboard.conftest import Demo, access_settings


@pytest.fixture
def fresh(demo: Demo) -> Any:
    """A dashboard of its own: no answer begun by another test's pages."""
    return create_dashboard(demo.queries, demo.service, access=access_settings())


@pytest.fixture
def closed(demo: Demo) -> Any:
    """Spectator mode off: only an organiser (or a seat, for its own game) sees the lists."""
    return create_dashboard(demo.queries, demo.service, access=access_settings(spectators=False))


def _players_content(browser: Browser, player: str | None, kind: str = "ruins") -> Any:
    return browser.post_callback(
        [("players-content", "children")],
        [
            ("players-player", "value", player),
            ("players-other", "value", None),
            ("players-kind", "value", kind),
            ("players-size", "value", None),
        ],
    )


def _aggregates_content(browser: Browser, kind: str = "ruins") -> Any:
    return browser.post_callback(
        [("agg-content", "children")], [("agg-kind", "value", kind), ("agg-tournament", "value", None)]
    )


def _tokens_blanked(answer: Any) -> Any:
    """``answer`` with the forms' CSRF tokens blanked: each is signed with the second it was made in."""
    if isinstance(answer, list):
        return [_tokens_blanked(item) for item in answer]
    if not isinstance(answer, dict):
        return answer
    blanked = {key: _tokens_blanked(value) for key, value in answer.items()}
    if blanked.get("name") == "csrf" and "value" in blanked:
        blanked["value"] = "(a token)"
    return blanked


def _body(response: Any) -> Any:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return json.loads(response.get_data(as_text=True))["response"]


def test_an_answer_begun_is_taken_once_by_its_key_and_its_error_raised_there() -> None:
    early = Early()
    calls: list[str] = []

    def compute(name: str) -> Any:
        def run() -> str:
            calls.append(name)
            return f"answer {name}"

        return run

    early.begin(("a",), compute("begun"))
    assert early.take(("b",), compute("other key")) == "answer other key"
    assert early.take(("a",), compute("asked")) == "answer begun"
    assert early.take(("a",), compute("asked again")) == "answer asked again"  # (taken once only)
    assert sorted(calls) == ["asked again", "begun", "other key"]

    def refuse() -> Any:
        raise Denied("not for you")

    early.begin(("refused",), refuse)
    with pytest.raises(Denied, match="not for you"):
        early.take(("refused",), compute("never"))
    assert "never" not in calls


def test_an_answer_nobody_takes_is_let_go() -> None:
    early = Early(keep_seconds=0.0, most=2)
    early.begin(("stale",), lambda: "old")
    assert early.take(("stale",), lambda: "new") == "new"
    crowded = Early(most=2)
    for n in range(3):
        crowded.begin((n,), lambda n=n: n)
    assert crowded.waiting() == 2
    assert crowded.take((0,), lambda: "computed") == "computed"  # (the oldest dropped)


def test_no_more_answers_are_begun_than_may_be_in_flight() -> None:
    # A page's HTML is cheap to ask for and begins real work: a burst of page loads must not queue it without end.
    release = threading.Event()
    started: list[int] = []

    def slow(n: int) -> Any:
        def run() -> int:
            started.append(n)
            release.wait(10)
            return n

        return run

    early = Early(workers=1, most_in_flight=2)
    for n in range(5):
        early.begin((n,), slow(n))
    assert early.waiting() == 2  # the first two begun, the rest left to their callbacks
    assert early.take((4,), lambda: "computed when asked") == "computed when asked"
    release.set()
    assert early.take((0,), slow(-1)) == 0 and early.take((1,), slow(-1)) == 1
    assert sorted(started) == [0, 1]
    early.begin((5,), slow(5))  # (room again once those are done)
    assert early.take((5,), slow(-1)) == 5


def test_a_players_page_served_begins_its_figures_and_its_callbacks_take_them(
    fresh: Any, demo: Demo, computed: list[str]
) -> None:
    browser = organiser(fresh)
    player = demo.players[0]["id"]
    search = f"?game=ruins&player={player}"
    assert browser.get(f"players{search}").status_code == 200
    assert fresh.digsite.early.waiting() >= 1  # the router's answer begun by the page (and maybe the figures too)
    route = browser.route_response("/players", search)  # (the answer begun with the page: it begins the figures)
    content = _body(_players_content(browser, player))
    assert computed and all(name.startswith("digsite-early") for name in computed), computed
    assert len(computed) == 1 and fresh.digsite.early.waiting() == 0
    # The same answer as the callback computes when nothing was begun (asked again: computed in the request).
    assert _body(_players_content(browser, player)) == content
    assert len(computed) == 2 and not computed[1].startswith("digsite-early")
    # The router, asked again (a link followed inside the page), answers the same and begins the figures again.
    assert _tokens_blanked(browser.route_response("/players", search)) == _tokens_blanked(route)
    assert _body(_players_content(browser, player)) == content
    assert len(computed) == 3 and computed[2].startswith("digsite-early")


def test_an_aggregates_page_served_begins_its_figures(fresh: Any, computed: list[str]) -> None:
    browser = organiser(fresh)
    assert browser.get("aggregates?game=ruins").status_code == 200
    browser.route_response("/aggregates", "?game=ruins")
    content = _body(_aggregates_content(browser))
    assert len(computed) == 1 and computed[0].startswith("digsite-early"), computed
    assert _body(_aggregates_content(browser)) == content


def test_an_answer_begun_for_an_organiser_is_not_given_to_a_visitor_refused(closed: Any, computed: list[str]) -> None:
    boss = organiser(closed)
    assert boss.get("aggregates?game=ruins").status_code == 200
    boss.route_response("/aggregates", "?game=ruins")  # the organiser's figures begun
    stranger = Browser(closed)
    refused = _aggregates_content(stranger)  # the same choices, asked by someone who may not see the lists
    assert refused.status_code == 403, refused.get_data(as_text=True)[:500]
    assert '"response"' not in refused.get_data(as_text=True)
    assert closed.digsite.early.waiting() == 1  # (the organiser's answer still waits for the organiser)
    assert _body(_aggregates_content(boss))


def test_a_page_refused_begins_nothing_but_the_way_in(closed: Any, demo: Demo, computed: list[str]) -> None:
    stranger = Browser(closed)
    search = f"?game=ruins&player={demo.players[0]['id']}"
    assert stranger.get(f"players{search}").status_code == 200
    answer = stranger.route_response("/players", search)
    assert "/login?next=" in answer["go"]["href"]  # (the sign-in page, the router's answer as before)
    assert answer["page"]["children"] == []
    assert computed == []  # no figures begun for a visitor the page refuses
    assert _players_content(stranger, demo.players[0]["id"]).status_code == 403


def test_a_browser_without_cookies_begins_no_router_answer_for_another_to_take(fresh: Any) -> None:
    # Keyed by "no cookies", an answer begun for one cookie-less client (its sign-in form's token made for the
    # CSRF cookie its page sets) could be taken by any other cookie-less client.
    page = fresh.server.test_client().get(fresh.config.requests_pathname_prefix + "aggregates?game=ruins")
    assert page.status_code == 200  # a first visit: no cookie sent
    assert fresh.digsite.early.waiting() == 0


def test_the_page_loads_no_script_no_page_uses(fresh: Any) -> None:
    page = Browser(fresh).get("games").get_data(as_text=True)
    assert "/html/dash_html_components" in page and "/dash_table/bundle" not in page


def test_the_dashboard_s_scripts_are_kept_by_the_browser_until_they_change(fresh: Any) -> None:
    browser = Browser(fresh)
    page = browser.get("games").get_data(as_text=True)
    assets = re.findall(r'src="/(assets/[^"?]+[?]m=[^"]+)"', page)
    assert len(assets) >= 3  # (the dashboard's own scripts, each address carrying its file's time)
    for asset in assets:
        with browser.get(asset) as response:
            assert response.status_code == 200
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    with browser.get(assets[0].split("?")[0]) as unversioned:  # (an address without the file's time: asked again)
        assert "immutable" not in unversioned.headers.get("Cache-Control", "")
