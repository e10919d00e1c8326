"""The dashboard in a real browser (headless Chromium via Playwright), as an organiser, a spectator and a
player use it. Tests that need games in play sign in first, through the sign-in page, as an organiser would.

Every expectation is computed from the read side (``ReadPort``) for the same game and version, so the
tests check that the page shows what the store holds, not numbers written down here. Waits are on
page conditions (``expect`` / ``wait_for_function`` with a timeout), never fixed sleeps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.dashboard.conftest import TIMEOUT_MS, Demo, Shots, access_settings, served

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)


# -- helpers ------------------------------------------------------------------------------------------------


def choose(page: Any, dropdown_id: str, option: str) -> None:
    """Pick ``option`` in a Dash 4 dropdown (a button that opens a list of role=option items)."""
    page.click(f"#{dropdown_id}")
    page.get_by_role("option", name=option, exact=True).click()
    expect(page.locator(f"#{dropdown_id}")).to_contain_text(option)


def choose_player(page: Any, dropdown_id: str, name: str, label: str) -> None:
    """Pick a player in a player dropdown: it offers players as their name is typed (``dashboard.player_search``).
    Tried again (a few times) if the option did not come: on a busy machine the list may still be opening when
    the name is typed, or be redrawn by an earlier keystroke's answer, as a person would retype."""
    option = page.get_by_role("option", name=label, exact=True)
    for _ in range(3):
        page.click(f"#{dropdown_id}")
        try:
            page.locator("input.dash-dropdown-search").fill(name)  # (the open list's search box; replaces a retry's)
            option.click()
            expect(page.locator(f"#{dropdown_id}")).to_contain_text(label)
            return
        except Exception:  # (a timeout or an option detached by a redraw: close the list and type again)
            page.keyboard.press("Escape")
    raise AssertionError(f"{label!r} was not offered in #{dropdown_id} once {name!r} was typed")


def sign_in(page: Any, key: str = "organiser-key") -> None:
    """Sign in through the sign-in page, as an organiser does; back on the games page, signed in."""
    page.goto("/login")
    page.fill("#signin-key", key)
    page.click("#signin-submit")
    expect(page.locator("#who")).to_have_text("Organiser")


def version_is(page: Any, version: int) -> None:
    expect(page.locator("#replay-version")).to_contain_text(f"Step {version} of ")


def open_replay(page: Any, game_id: str, version: int = 1, seat: str = "referee") -> None:
    page.goto(f"/replay/{game_id}?v={version}&seat={seat}")
    expect(page.locator(".ruins-table")).to_be_visible()
    version_is(page, version)


def hand_counts(page: Any) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all(".hand", "hs => hs.map(h => h.dataset.count)")]


def first_change(demo: Demo, game_id: str) -> int:
    """The first version whose table differs from the one before in hand sizes (the first play)."""
    before = [h["count"] for h in demo.queries.replays.replay(game_id, 1)["view"]["hands"]]
    version = 2
    while True:
        now = [h["count"] for h in demo.queries.replays.replay(game_id, version)["view"]["hands"]]
        if now != before:
            return version
        before, version = now, version + 1


def shown_bars(page: Any, group_id: str) -> list[list[dict[str, Any]]]:
    """Each tendency of a players page's group of bars (``dashboard.tendency_bars``) as the page shows it: per
    series, who, the value and n it carries, its label, and the drawn bar's width in pixels (0: no bar)."""
    page.wait_for_selector(f"#{group_id} .tbars-row")
    return list(
        page.eval_on_selector(
            f"#{group_id}",
            """g => Array.from(g.querySelectorAll('.tbars-tendency')).map(t =>
                Array.from(t.querySelectorAll('.tbars-row')).map(r => {
                    const fill = r.querySelector('.tbars-fill');
                    return {
                        who: r.querySelector('.tbars-who').textContent,
                        value: r.dataset.value === '' ? null : parseFloat(r.dataset.value),
                        n: parseFloat(r.dataset.n),
                        text: r.querySelector('.tbars-text').textContent,
                        width: fill ? fill.getBoundingClientRect().width : 0,
                        track: r.querySelector('.tbars-track').getBoundingClientRect().width,
                    };
                }))""",
        )
    )


def shown_columns(page: Any, chart_id: str) -> list[tuple[str, int]]:
    """A chart of counts' columns (``dashboard.count_columns``) as the page shows them: each one's value (or
    bin) and the count written above it (0: none written), with every column drawn as tall as its count says
    against the tallest."""
    page.wait_for_selector(f"#{chart_id} .ccols-col")
    found = page.eval_on_selector(
        f"#{chart_id}",
        """c => Array.from(c.querySelectorAll('.ccols-col')).map(col => [
            col.dataset.label, parseInt(col.querySelector('.ccols-count').textContent.replace(/,/g, '') || '0', 10),
            col.querySelector('.ccols-bar').getBoundingClientRect().height])""",
    )
    tallest = max((h for _, _, h in found), default=0)
    most = max((n for _, n, _ in found), default=0)
    for label, n, height in found:
        assert height == pytest.approx(tallest * n / (most or 1), abs=1.5), (chart_id, label, n, height)
    return [(label, n) for label, n, _ in found]


def scrolled_until_drawn(page: Any, graph_id: str) -> None:
    """Scroll to the chart ``graph_id`` until Plotly has drawn it with data: the players, aggregates and tournament
    pages draw a chart when it comes into view (``dashboard.lazy_charts``). Scrolled to again at each look, as a
    person would: a box may be redrawn (a new answer) or moved down (the parts above it still coming in) after a
    first scroll, out of view and so not drawn."""
    page.wait_for_function(
        "id => { const box = document.getElementById(id), g = box && box.querySelector('.js-plotly-plot');"
        " if (g && g.data && g.data.length > 0) { return true; }"
        " if (box) { box.scrollIntoView({block: 'nearest'}); } return false; }",
        arg=graph_id,
        timeout=TIMEOUT_MS,
        polling=100,
    )


def plotted_points(page: Any, graph_id: str) -> list[int]:
    """How many points each Plotly trace of a chart holds, read from the live plot in the page (scrolled to until
    it is drawn: ``scrolled_until_drawn``)."""
    scrolled_until_drawn(page, graph_id)
    return list(
        page.eval_on_selector(
            f"#{graph_id} .js-plotly-plot",
            "g => g.data.map(t => (t.x || []).filter(v => v !== null && v !== undefined).length)",
        )
    )


# -- games browser -----------------------------------------------------------------------------------------


def test_open_a_game_from_the_games_browser(page: Any, demo: Demo, shots: Shots) -> None:
    sign_in(page)
    page.goto("/games")
    rows = page.locator("#games-table tbody tr")
    expect(rows).to_have_count(len(demo.every_finished) + 1)  # the finished games and the one in play
    shots.take(page, "all")

    choose(page, "games-status", "finished")
    expect(rows).to_have_count(len(demo.every_finished))
    expect(page.locator("#games-page")).to_contain_text(f"of {len(demo.every_finished)} games")

    choose(page, "games-round", "Round 2")
    in_round_2 = demo.queries.lists.games(round_label=2, status="over")["rows"]
    assert in_round_2, "the demo tournament has a second round"
    expect(rows).to_have_count(len(in_round_2))
    shots.take(page, "filtered")

    wanted = in_round_2[0]["game_id"]
    page.locator(f"#games-table tr[data-game='{wanted}'] a.open-replay").click()
    expect(page).to_have_url(re.compile(f"/replay/{wanted}$"))
    version_is(page, 1)
    names = [p["name"] for p in demo.queries.lists.game_row(wanted)["players"]]
    expect(page.locator("h2")).to_contain_text(" vs ".join(names))
    expect(page.locator("#replay-verified")).to_contain_text("Verified")


# -- replay ------------------------------------------------------------------------------------------------


def test_step_forward_and_back_changes_the_table(page: Any, demo: Demo, shots: Shots) -> None:
    game_id = demo.finished[0]
    change = first_change(demo, game_id)
    before = demo.queries.replays.replay(game_id, change - 1)["view"]
    after = demo.queries.replays.replay(game_id, change)["view"]

    open_replay(page, game_id, change - 1)
    assert hand_counts(page) == [h["count"] for h in before["hands"]]
    shots.take(page, "before")

    page.click("#replay-next")
    version_is(page, change)
    expect(page.locator(".pile")).to_have_attribute("data-pile", str(len(after["pile"])))
    assert hand_counts(page) == [h["count"] for h in after["hands"]]
    assert hand_counts(page) != [h["count"] for h in before["hands"]]
    shots.take(page, "after")

    page.click("#replay-prev")
    version_is(page, change - 1)
    expect(page.locator(".pile")).to_have_attribute("data-pile", str(len(before["pile"])))
    assert hand_counts(page) == [h["count"] for h in before["hands"]]

    # Jump to a round, then to the end: the cursor lands where the read side says.
    starts = demo.queries.replays.round_starts(game_id)
    page.get_by_role("button", name="Round 2", exact=True).click()
    version_is(page, starts[2])
    expect(page.locator("#table-round")).to_contain_text("Round 2")
    latest = demo.queries.lists.game_row(game_id)["last_version"]
    page.click("#replay-last")
    version_is(page, latest)
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator(".pill-win")).to_contain_text("Game over")


def test_arrow_keys_move_the_cursor(page: Any, demo: Demo, shots: Shots) -> None:
    game_id = demo.finished[1]
    open_replay(page, game_id, 10)
    page.locator("h2").click()  # focus on the page, not on a control
    page.keyboard.press("ArrowRight")
    version_is(page, 11)
    expect(page.locator("#replay-log .log-current")).to_have_attribute("data-move", "11")
    page.keyboard.press("ArrowRight")
    version_is(page, 12)
    page.keyboard.press("ArrowLeft")
    version_is(page, 11)
    shots.take(page, "keys")

    # On the slider too the arrow keys step one move (once: the slider does not move a second time).
    slider = page.locator("#replay-slider")
    slider.focus()
    page.keyboard.press("ArrowRight")
    version_is(page, 12)
    expect(slider).to_have_value("12")
    # After choosing a perspective (a button, not a radio group) the arrows still step the game.
    page.locator("#replay-seat .seat-choice").nth(1).click()
    page.keyboard.press("ArrowRight")
    version_is(page, 13)
    expect(page.locator("#replay-root")).to_have_attribute("data-seat", "0")


def test_play_runs_the_replay_and_pause_stops_it(page: Any, demo: Demo) -> None:
    game_id = demo.finished[2]
    open_replay(page, game_id, 1)
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_contain_text("Pause")
    expect(page.locator("#replay-version")).not_to_contain_text("Step 1 of ")
    expect(page.locator("#replay-version")).not_to_contain_text("Step 2 of ")
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_contain_text("Play")
    # Stopped: the cursor stays, and stepping by hand moves exactly one version from there.
    version = int(page.locator("#replay-root").get_attribute("data-move"))
    version_is(page, version)
    page.click("#replay-next")
    version_is(page, version + 1)


def test_a_seats_perspective_hides_the_other_hands(page: Any, demo: Demo, shots: Shots) -> None:
    game_id = demo.finished[0]
    starts = demo.queries.replays.round_starts(game_id)
    version = starts[2] + 3
    seat = 1
    seen = demo.queries.replays.replay(game_id, version, seat)
    names = [p["name"] for p in seen["players"]]
    open_replay(page, game_id, version)
    expect(page.locator(".hand[data-visible='hidden']")).to_have_count(0)  # the referee sees every hand

    page.get_by_text(f"Seat {seat + 1}: {names[seat]}", exact=True).click()
    expect(page.locator("#table-perspective")).to_contain_text(f"{names[seat]}'s view")
    hidden = page.locator(".hand[data-visible='hidden']")
    expect(hidden).to_have_count(len(names) - 1)
    mine = page.locator(f".hand[data-seat='{seat}']")
    expect(mine).to_have_attribute("data-visible", "shown")
    own = seen["view"]["hands"][seat]
    expect(mine.locator(".chip")).to_have_count(len(own["ruins"]))
    for other in range(len(names)):
        if other == seat:
            continue
        hand = page.locator(f".hand[data-seat='{other}']")
        expect(hand.locator(".chip")).to_have_count(0)
        count = seen["view"]["hands"][other]["count"]
        expect(hand).to_contain_text(f"{count} ruin{'s' if count != 1 else ''} in hand, hidden")
    shots.take(page, "seat")

    # The log is told from that seat too: another seat's secret night flip stays secret.
    page.click("#replay-first")
    version_is(page, 1)
    for step in range(len(names)):
        page.click("#replay-next")
        version_is(page, step + 2)
    expect(page.locator("#replay-log")).to_contain_text("chose a night flip in secret")
    page.get_by_role("button", name="Referee", exact=True).click()
    expect(page.locator("#replay-log")).not_to_contain_text("in secret")


# -- players and aggregates ----------------------------------------------------------------------------------


def test_the_player_page_shows_charts_with_data(page: Any, demo: Demo, shots: Shots) -> None:
    page.goto("/players")
    player = demo.players[0]
    other = demo.players[1]
    option = next(
        o for o in _player_options(demo) if o["value"] == player["id"]
    )  # the label the page shows for this player
    choose_player(page, "players-player", player["name"], option["label"])
    expect(page.locator("#players-summary")).to_contain_text(player["name"])
    graphs = ("players-breakdown-places", "players-round-vp_by_round", "players-round-torches_by_round")
    for graph in graphs:
        points = plotted_points(page, graph)
        assert len(points) == 2 and all(n > 0 for n in points), (graph, points)
    # each tendency of the group: a bar for the player and one for the field, each with its label
    leads = shown_bars(page, "players-group-leads")
    assert [[r["who"] for r in rows] for rows in leads] == [[player["name"], "the field"]] * 2
    assert all(r["text"] for rows in leads for r in rows)
    games = demo.queries.analytics.tendencies("ruins", player["id"])["games"]
    expect(page.locator("#players-summary")).to_contain_text(f"{games} finished Ruins game")
    expect(page.locator("#players-table")).to_contain_text("the field")
    shots.take(page, "field")

    other_label = next(o for o in _player_options(demo) if o["value"] == other["id"])["label"]
    choose_player(page, "players-other", other["name"], other_label)
    expect(page.locator("#players-table thead")).to_contain_text(other["name"])
    expect(page.locator("#players-group-leads .tbars-who").nth(1)).to_have_text(other["name"])
    names = [[r["who"] for r in rows] for rows in shown_bars(page, "players-group-leads")]
    assert names == [[player["name"], other["name"]]] * 2


def _player_options(demo: Demo) -> list[dict[str, str]]:
    from dashboard.format import player_labels

    return player_labels(demo.queries.lists.players())


def test_the_aggregates_page_renders_its_charts(page: Any, demo: Demo, shots: Shots) -> None:
    page.goto("/aggregates")
    spread = demo.queries.analytics.distributions("ruins")
    scores = shown_columns(page, "agg-score")  # HTML columns, each score's count as the read side counts it
    assert {label: n for label, n in scores if n} == {str(r["value"]): r["n"] for r in spread["score"]}
    assert sum(n for _, n in shown_columns(page, "agg-length")) == len(demo.finished)
    graphs = ("agg-breakdown-discoveries", "agg-round-torches_by_round")
    for graph in graphs:
        points = plotted_points(page, graph)
        assert points and sum(points) > 0, (graph, points)
    for rates in ("agg-seats", "agg-by-led_round1"):  # HTML bars, each with its value and n
        shown = [r for rows in shown_bars(page, rates) for r in rows]
        assert shown and all(r["text"] and r["n"] > 0 for r in shown), rates
    # every demo game went to the Showdown: a chart of that one value would compare nothing, a sentence says so
    for said in ("agg-rounds", "agg-breakdown-win_how"):
        expect(page.locator(f"#{said}")).to_contain_text("not drawn")
    expect(page.locator("#agg-summary")).to_contain_text(f"Over {len(demo.finished)} finished Ruins games")
    trend = plotted_points(page, "agg-trend-graph")
    assert trend == [2]  # the demo tournament's two rounds
    shots.take(page, "charts")

    choose(page, "agg-metric", "games reaching the Showdown")
    expect(page.locator("#agg-trend-graph")).to_contain_text("Games reaching the Showdown, by round of Spring Cup")
    expected = [100 * r["value"] for r in demo.queries.analytics.trend("showdown_rate", demo.tournament)]
    plotted = page.eval_on_selector("#agg-trend-graph .js-plotly-plot", "g => Array.from(g.data[0].y)")
    assert plotted == pytest.approx(expected)


def test_step_by_event_within_a_move_and_across_moves(page: Any, demo: Demo, shots: Shots) -> None:
    """'step forward/back by move or by event': a move's events are shown one at a time."""
    game_id = demo.finished[0]
    counts = demo.queries.replays.event_counts(game_id)
    version = next(v for v in range(3, len(counts)) if counts[v - 1] >= 3)  # a move with 3+ events
    open_replay(page, game_id, version - 1)
    page.click("#replay-next-event")  # the first event of the next move
    version_is(page, version)
    expect(page.locator("#replay-event")).to_have_text(f" · event 1 of {counts[version - 1]}")
    first_lines = page.locator("#replay-log .log-current div div").count()
    page.click("#replay-next-event")
    expect(page.locator("#replay-event")).to_have_text(f" · event 2 of {counts[version - 1]}")
    assert page.locator("#replay-log .log-current div div").count() >= first_lines
    shots.take(page, "event")
    page.locator("h2").click()
    page.keyboard.press("Shift+ArrowLeft")
    expect(page.locator("#replay-event")).to_have_text(f" · event 1 of {counts[version - 1]}")
    page.keyboard.press("Shift+ArrowLeft")  # back past the move's first event: the previous move, whole
    version_is(page, version - 1)
    expect(page.locator("#replay-event")).to_have_count(0)


# -- signing in, spectators and players ------------------------------------------------------------------------


def test_the_sign_in_page_lets_an_organiser_in_and_out(page: Any, demo: Demo, shots: Shots) -> None:
    page.goto("/games")  # a spectator first: finished games only, and a way to sign in
    rows = page.locator("#games-table tbody tr")
    expect(rows).to_have_count(len(demo.every_finished))
    expect(page.locator(f"#games-table tr[data-game='{demo.live}']")).to_have_count(0)
    expect(page.locator("#who")).to_have_text("Spectator")
    shots.take(page, "spectator")

    page.click("#sign-in")
    expect(page).to_have_url(re.compile(r"/login\?next="))
    expect(page.locator("h2")).to_have_text("Organiser sign-in")
    expect(page.locator("#signin-key")).to_be_focused()
    shots.take(page, "form")

    page.expected_statuses = (401,)  # the wrong key's answer is a 401 page, which the browser reports
    page.fill("#signin-key", "not the key")
    page.click("#signin-submit")
    expect(page.locator("#signin-error")).to_have_text("That is not the organiser key.")
    shots.take(page, "wrong-key")

    page.fill("#signin-key", "organiser-key")
    page.click("#signin-submit")
    expect(page).to_have_url(re.compile(r"/games$"))  # back where the organiser was
    expect(page.locator("#who")).to_have_text("Organiser")
    expect(rows).to_have_count(len(demo.every_finished) + 1)
    cookie = next(c for c in page.context.cookies() if c["name"] == "digsite_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["expires"] > 0
    shots.take(page, "organiser")

    page.locator("#sign-out button").click()
    expect(page.locator("#who")).to_have_text("Spectator")
    expect(rows).to_have_count(len(demo.every_finished))
    assert not [c for c in page.context.cookies() if c["name"] == "digsite_session"]


def test_a_seat_link_shows_that_seat_only_and_leaves_no_token_behind(page: Any, demo: Demo, shots: Shots) -> None:
    seat, token = 1, demo.tokens[1]
    page.goto(f"/replay/{demo.live}")  # without the link: nothing of the game
    expect(page.locator("#refused")).to_contain_text("cannot be shown to you")
    expect(page.locator(".ruins-table")).to_have_count(0)
    shots.take(page, "refused")

    page.goto(f"/replay/{demo.live}?token={token}")
    expect(page).to_have_url(re.compile(f"/replay/{demo.live}\\?seat={seat}$"))  # the token left the address bar
    expect(page.locator(".ruins-table")).to_be_visible()
    options = page.locator("#replay-seat .seat-choice")
    expect(options).to_have_count(1)  # their own seat, no referee, no other seat
    expect(page.locator("#replay-seat")).to_contain_text(f"Seat {seat + 1}")
    expect(page.locator(f".hand[data-seat='{seat}']")).to_have_attribute("data-visible", "shown")
    expect(page.locator(".hand[data-visible='hidden']")).to_have_count(1)
    expect(page.locator("#replay-verify")).to_contain_text("once the game is over")
    assert token not in page.evaluate("() => window.location.href + document.documentElement.outerHTML")
    shots.take(page, "seat")
    page.go_back()  # the entry before is the page without the link: the token's own entry was replaced
    expect(page).to_have_url(re.compile(f"/replay/{demo.live}$"))
    page.go_forward()
    expect(page).to_have_url(re.compile(f"/replay/{demo.live}\\?seat={seat}$"))

    page.goto("/games")  # the player's way back to their game; the list itself is a spectator's
    expect(page.locator(".my-game")).to_have_count(1)
    expect(page.locator(f"#games-table tr[data-game='{demo.live}']")).to_have_count(0)


def test_the_seat_token_form_opens_the_seat(page: Any, demo: Demo, shots: Shots) -> None:
    page.goto(f"/replay/{demo.live}")
    page.expected_statuses = (403,)
    page.fill("#seat-token", "not a token")
    page.get_by_role("button", name="Open my seat").click()
    expect(page.locator("h2")).to_have_text("Seat token not valid")
    page.go_back()
    expect(page.locator("#seat-token")).to_be_visible()
    page.fill("#seat-token", demo.tokens[0])
    page.get_by_role("button", name="Open my seat").click()
    expect(page).to_have_url(re.compile(f"/replay/{demo.live}\\?seat=0$"))
    expect(page.locator(".hand[data-seat='0']")).to_have_attribute("data-visible", "shown")
    expect(page.locator("#replay-seat .seat-choice")).to_have_count(1)


@pytest.fixture(scope="module")
def closed_url(demo: Demo) -> Iterator[str]:
    """A second dashboard over the same store with spectator mode off (DIGSITE_DASHBOARD_SPECTATORS=0)."""
    from dashboard import create_dashboard

    app = create_dashboard(demo.queries, demo.service, access=access_settings(spectators=False))
    with served(app, "closed-dashboard") as url:
        yield url


def test_with_spectator_mode_off_only_the_sign_in_page_shows(page: Any, demo: Demo, closed_url: str) -> None:
    page.goto(f"{closed_url}/aggregates")
    expect(page).to_have_url(re.compile(r"/login\?next=%2Faggregates$"))
    expect(page.locator(".signin")).to_contain_text("for organisers only")
    page.goto(f"{closed_url}/replay/{demo.finished[0]}")
    expect(page.locator("#refused")).to_contain_text("cannot be shown to you")
    expect(page.locator(".ruins-table")).to_have_count(0)
    page.goto(f"{closed_url}/login?next=%2Faggregates")
    page.fill("#signin-key", "organiser-key")
    page.click("#signin-submit")
    expect(page).to_have_url(re.compile(r"/aggregates$"))
    expect(page.locator("#agg-summary")).to_contain_text(f"Over {len(demo.finished)} finished Ruins games")


# -- an Arnak replay ---------------------------------------------------------------------------------------------


def arnak_version_with_hands(demo: Demo, game_id: str) -> int:
    """A version from mid-game on where the referee sees cards in every seat's hand."""
    latest = demo.queries.lists.game_row(game_id)["last_version"]
    for version in range(latest // 2, latest):
        seats = demo.queries.replays.replay(game_id, version)["view"]["seats"]
        if all(s["hand"].get("cards") for s in seats):
            return version
    raise AssertionError("no version of the demo's Arnak game has cards in every hand")


def hand_names(page: Any, seat: int) -> list[str]:
    return list(
        page.eval_on_selector_all(
            f".arnak-hand[data-seat='{seat}'] [data-secret='hand'] .arnak-card-name", "cs => cs.map(c => c.textContent)"
        )
    )


def overflowing(page: Any) -> list[str]:
    """The Arnak table's boxes (board locations, panels) whose content is wider than the box."""
    return list(
        page.eval_on_selector_all(
            ".arnak-loc, .arnak-panel",
            "bs => bs.filter(b => b.scrollWidth > b.clientWidth + 1)"
            " .map(b => b.className + ': ' + b.innerText.slice(0, 40))",
        )
    )


def test_an_arnak_replay_as_an_organiser_from_the_games_list_to_the_score(page: Any, demo: Demo, shots: Shots) -> None:
    games = demo.others["arnak"]
    game_id = games[0]  # a three-seat game
    row = demo.queries.lists.game_row(game_id)
    names = [p["name"] for p in row["players"]]
    assert len(names) >= 2

    sign_in(page)
    page.goto("/games")
    choose(page, "games-kind", "Arnak")
    rows = page.locator("#games-table tbody tr")
    expect(rows).to_have_count(len(games))
    shots.take(page, "games")
    page.locator(f"#games-table tr[data-game='{game_id}'] a.open-replay").click()
    expect(page).to_have_url(re.compile(f"/replay/{game_id}$"))
    expect(page.locator(".arnak-table")).to_be_visible()
    version_is(page, 1)
    expect(page.locator("h2")).to_contain_text(" vs ".join(names))
    expect(page.locator("#replay-verified")).to_contain_text("Verified")
    shots.take(page, "start")

    # Buttons and keys step one version each way; the table follows (who is to act, from the read side).
    def to_act_is(version: int) -> None:
        frame = demo.queries.replays.replay(game_id, version)
        who = ", ".join(frame["view"]["players"][int(s)] for s in frame["to_act"])
        expect(page.locator("#arnak-to-act")).to_contain_text(who)

    page.click("#replay-next")
    version_is(page, 2)
    to_act_is(2)
    page.locator("h2").click()  # focus on the page, not on a control
    page.keyboard.press("ArrowRight")
    version_is(page, 3)
    to_act_is(3)
    page.keyboard.press("ArrowLeft")
    version_is(page, 2)
    page.click("#replay-prev")
    version_is(page, 1)
    to_act_is(1)

    # The referee sees every hand; one seat sees its own hand and only the sizes of the others.
    version = arnak_version_with_hands(demo, game_id)
    page.goto(f"/replay/{game_id}?v={version}&seat=referee")
    version_is(page, version)
    referee = demo.queries.replays.replay(game_id, version)["view"]["seats"]
    for seat, board in enumerate(referee):
        assert hand_names(page, seat) == [c["name"] for c in board["hand"]["cards"]]
    expect(page.locator("[data-secret='deck']").first).to_be_attached()  # the deck order: the referee's only
    assert overflowing(page) == []  # in the replay's narrower column too (a blocked camp space once spilled out)
    shots.take(page, "referee")

    seat = 1
    page.get_by_text(f"Seat {seat + 1}: {names[seat]}", exact=True).click()
    expect(page.locator(".arnak-table")).to_have_attribute("data-viewer", str(seat))
    expect(page.locator("#arnak-perspective")).to_contain_text(names[seat])
    version_is(page, version)
    assert hand_names(page, seat) == [c["name"] for c in referee[seat]["hand"]["cards"]]
    expect(page.locator(f"[data-secret='hand']:not([data-seat='{seat}'])")).to_have_count(0)
    expect(page.locator("[data-secret='deck']")).to_have_count(0)
    for other, board in enumerate(referee):
        if other != seat:
            count = len(board["hand"]["cards"])
            hand = page.locator(f".arnak-hand[data-seat='{other}']")
            expect(hand).to_contain_text(f"{count} card{'s' if count != 1 else ''}, hidden")
            for card in board["hand"]["cards"]:
                expect(hand).not_to_contain_text(card["name"])
    shots.take(page, "seat")

    # The end, still from that seat: the final score, part by part, as the read side has it.
    page.click("#replay-last")
    version_is(page, row["last_version"])
    expect(page.locator("#replay-next")).to_be_disabled()
    outcome = demo.queries.replays.replay(game_id, row["last_version"], seat)["view"]["outcome"]
    score = page.locator("#arnak-score")
    expect(score).to_be_visible()
    expect(score.locator("tbody tr")).to_have_count(len(outcome["scores"]))
    for line in outcome["scores"]:
        cells = score.locator(f"tr[data-seat='{line['seat']}']")
        for part in ("research", "idols", "guardians", "cards", "fear", "total"):
            expect(cells.locator(f"td[data-part='{part}']")).to_have_text(str(line[part]))
    expect(page.locator(".arnak-pill-win")).to_contain_text("Game over")
    assert overflowing(page) == []
    shots.take(page, "end")
