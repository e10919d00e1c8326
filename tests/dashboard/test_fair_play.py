# ruff: noqa: F811  (the fixtures imported are redefined as parameters: how pytest shares them)
"""The fair-play page (organisers only), proven without a browser: the page and its callback called directly as an
organiser (shown: per signal the ranked findings, flags, the moves behind each linking into the replay at that move
from the mover's seat, with the judge's figures) and as a spectator, a seat holder and an anonymous visitor with
spectator mode off (refused: no finding, no player, no link). The store: the judged store of the judgement tests
(tests/dashboard/judged.py); the reporter a small hand-made one (tests/service/fair_play_support.py): the page shows
what the report says, whatever the signals' scores."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from dashboard import create_dashboard
from dashboard.pages import fair_play as fair_play_page
from dashboard.replay_judgement import horizon
from service.reading import fair_play
from tests.dashboard.client import Browser, by_id, components, organiser, text, tree
from tests.dashboard.conftest import access_settings
from tests.dashboard.judged import Judged, judged  # noqa: F401  (the judged store, a fixture)
from tests.service import fair_play_support


def _app(judged: Judged, **access: Any) -> Any:
    app = create_dashboard(judged.queries, judged.service, access=access_settings(failures=1000, **access))
    app.digsite.data.fair_play_reporter = fair_play_support.reporter
    return app


@pytest.fixture(scope="module")
def app(judged: Judged) -> Any:
    return _app(judged)


@pytest.fixture(scope="module")
def closed(judged: Judged) -> Any:
    return _app(judged, spectators=False)


def filtered(browser: Browser, tournament_id: str, signal: str | None, flagged: bool) -> Any:
    """The page's filter callback, as the browser sends it."""
    return browser.post_callback(
        [("fair-play-body", "children")],
        [("fair-play-signal", "value", signal), ("fair-play-flagged", "value", ["flagged"] if flagged else None)],
        [("fair-play-tournament", "data", tournament_id)],
    )


def test_an_organiser_sees_every_signal_ranked_with_the_moves_behind_each_linking_into_the_replay(
    app: Any, judged: Judged
) -> None:
    cup = judged.facts["tournament"]
    report, gathered = fair_play.fair_play(judged.queries, cup, fair_play_support.reporter)
    page = organiser(app).route(f"/tournaments/{cup}/fair-play")
    assert "2 of 2 finished games judged" in text(by_id(page, "fair-play-coverage"))
    assert text(by_id(page, "fair-play-about")).endswith(horizon())  # (the win chances below: how far they look)
    gifts = by_id(page, "fair-play-gifts")
    [finding] = report["signals"]["gifts"]
    names = {p["player_id"]: p["name"] for p in judged.queries.lists.players()}
    assert " → ".join(names[p] for p in finding["subject"]) in text(gifts) and "flagged" in text(gifts)
    # what chance alone gives at the report's threshold (1 here): 1 - Phi(1) = 0.16 of the one pair scored
    assert "1 scored. On a field with no cheat, about 0.2 of 1 would reach 1 by chance" in text(gifts)
    links = [c["props"]["href"] for c in components(gifts, "Link")]
    first = finding["moves"][0]
    assert links[0] == f"/replay/{first['game_id']}?v={first['version']}&seat={first['seat']}"
    assert len(links) == len(finding["moves"])
    figures = gathered.moves[(first["game_id"], first["version"])]
    shown = text(gifts)
    assert f"loss {figures.loss:.1f} points" in shown
    mover = f"{100 * figures.played['values'][figures.seat]:.0f} %"
    rows = [r for r in components(gifts, "Tr") if "(mover)" in text(r)]
    assert rows and mover in text(rows[0])

    only = json.loads(filtered(organiser(app), cup, "bot_like", True).get_data(as_text=True))
    body = only["response"]["fair-play-body"]["children"]
    assert [c["props"]["id"] for c in body] == ["fair-play-bot_like"] and "flagged" in text(body)


def test_anyone_but_an_organiser_is_refused_the_page_its_callback_and_the_link(
    app: Any, closed: Any, judged: Judged
) -> None:
    cup = judged.facts["tournament"]
    seat_holder = Browser(app)
    seated = judged.facts["seated"]
    assert seat_holder.get(f"/replay/{seated}?v=2&token={judged.facts['seated_tokens'][0]}").status_code == 200
    names = [p["name"] for p in judged.queries.lists.players()]
    for browser in (Browser(app), seat_holder, Browser(closed)):
        page = browser.route(f"/tournaments/{cup}/fair-play")  # (spectator mode off: the sign-in page, empty)
        said = json.dumps(page)
        assert "fair-play-body" not in said and "/replay/" not in said and not any(n in said for n in names)
        assert not page or "for organisers" in text(page)
        response = filtered(browser, cup, None, False)
        assert response.status_code == 403 and '"response"' not in response.get_data(as_text=True)
    assert "tournament-fair-play-link" not in json.dumps(Browser(app).route(f"/tournaments/{cup}"))
    assert "tournament-fair-play-link" in json.dumps(organiser(app).route(f"/tournaments/{cup}"))


def test_a_signal_with_nothing_judged_to_read_says_so_rather_than_no_finding(app: Any, judged: Judged) -> None:
    """An empty signal is no finding only where judged decisions were read: with none (no game judged yet), the page
    says there was nothing to read, so an organiser does not take an unjudged tournament for a clean one."""
    report, gathered = fair_play.fair_play(judged.queries, judged.facts["tournament"], fair_play_support.reporter)
    empty_signals = {name: [] for name in report["signals"]}
    unread = {**report, "decisions": 0, "signals": empty_signals}
    read = {**report, "signals": empty_signals}
    assert report["decisions"] > 0
    nothing = dataclasses.replace(gathered, moves={})
    for shown, said in ((unread, "Nothing to read yet"), (read, "No finding.")):
        body = fair_play_page._body(app, app.digsite, None, shown, nothing, None, False)  # type: ignore[arg-type]
        cards = json.loads(json.dumps(body, default=lambda c: c.to_plotly_json()))
        assert [c["props"]["id"] for c in cards] == [f"fair-play-{name}" for name in report["signals"]]
        assert all(said in text(card) for card in cards), [text(card) for card in cards]


def test_the_moves_are_listed_behind_the_highest_findings_and_every_flagged_one() -> None:
    """At 12 players every finding's moves made the page 13.6 MB (docs/performance.md, section 47): the page lists
    those of the ``LISTED`` highest of a signal and of every flagged one, and says where the others' are."""
    import dash

    from service.reading.fair_play import Gathered

    def found(rank: int, flagged: bool) -> Any:
        moves = [{"game_id": f"g{rank}", "index": 0, "version": 1, "seat": 0, "player": f"p{rank}", "amount": 1.0}]
        return {"signal": "gifts", "subject": [f"p{rank}", "q"], "score": 9.0 - rank, "flagged": flagged, "games": 2,
                "decisions": 9, "figures": {}, "moves": moves}  # fmt: skip

    findings = [found(rank, flagged=rank == 7) for rank in range(1, 10)]
    gathered = Gathered(None, None, {})  # type: ignore[arg-type]  (no figures: each move is its link alone)
    drawn = tree(fair_play_page._ranked(dash.Dash(__name__), "gifts", findings, gathered, {}, listed=5))
    summaries = [text(s) for s in components(drawn, "Summary")]
    assert [s.split(" ")[0] for s in summaries] == ["#1", "#2", "#3", "#4", "#5", "#7"]
    note = [text(p) for p in components(drawn, "P") if "other(s)" in text(p)]
    assert note and "The moves behind the 3 other(s) are in the report" in note[0]
    everything = tree(fair_play_page._ranked(dash.Dash(__name__), "gifts", findings, gathered, {}, len(findings)))
    assert len(list(components(everything, "Summary"))) == 9
    assert not any("other(s)" in text(p) for p in components(everything, "P"))
