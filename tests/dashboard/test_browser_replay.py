"""The replay steps in the browser without asking the server (headless Chromium via Playwright).

Once a game's frames are in the page (``#replay-root[data-loaded=all]``), stepping, jumping and switching
perspective must make no request at all: every request the page makes is counted. How long a step takes
in the page is measured (from the key press to the next frame painted) and written to
``artifacts/replay-latency.json``, never asserted (speed is measured, not tested). A step patches the table
in place: the table it leaves is checked against the same move's table drawn whole. The rest: Home / End,
the move list, the back button with the address, the last play and the seat to act marked, the table
on one screen at 1440x900, and nothing wider than a 390 px phone.
"""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

import pytest

from tests.dashboard.conftest import ROOT, TIMEOUT_MS, Demo, Shots
from tests.dashboard.test_browser import choose, sign_in, version_is

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

LATENCY = ROOT / "artifacts" / "replay-latency.json"
# Every perspective of a game is drawn once on the server, in the background: on a busy test machine that
# takes a while for an Arnak game (the waits end as soon as the page says it has everything).
LOADED_MS = 180_000

# Press a key, then wait for the frame after it to be painted (an animation frame, then a task): the time a
# player waits for the next move to show.
STEP_TIMES_JS = """
async ([key, steps]) => {
    const times = [];
    for (let i = 0; i < steps; i++) {
        const t0 = performance.now();
        document.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true}));
        await new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
        times.push(performance.now() - t0);
    }
    return times;
}
"""


def open_loaded(page: Any, game_id: str, move: int = 1, seat: str = "referee") -> None:
    """Open a replay and wait until every frame it will fetch is in the page, and its VP chart (asked for once the
    first table shows)."""
    page.goto(f"/replay/{game_id}?v={move}&seat={seat}")
    expect(page.locator("#replay-root")).to_have_attribute("data-loaded", "all", timeout=LOADED_MS)
    expect(page.locator("#replay-vp .js-plotly-plot")).to_be_attached(timeout=LOADED_MS)
    version_is(page, move)


def table_html(page: Any) -> str:
    return str(page.eval_on_selector("#replay-table", "t => t.innerHTML"))


def requests_of(page: Any) -> list[str]:
    """A list that collects the URL of every request the page makes from now on."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def record_latency(name: str, times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    found = {
        "steps": len(ordered),
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 1),
        "max_ms": round(ordered[-1], 1),
    }
    LATENCY.parent.mkdir(parents=True, exist_ok=True)
    known = json.loads(LATENCY.read_text()) if LATENCY.exists() else {}
    known[name] = found
    LATENCY.write_text(json.dumps(known, indent=1))
    print(f"replay step latency, {name}: {found}")
    return found


def test_stepping_jumping_and_switching_perspective_ask_the_server_nothing(page: Any, demo: Demo, shots: Shots) -> None:
    game_id = demo.finished[0]
    latest = demo.queries.lists.game_row(game_id)["last_version"]
    open_loaded(page, game_id, 1)
    asked = requests_of(page)

    page.locator("h2").click()  # focus on the page, not on a control
    times = page.evaluate(STEP_TIMES_JS, ["ArrowRight", min(60, latest - 1)])
    version_is(page, 1 + len(times))
    record_latency("ruins, 3 seats, referee", times)
    stepped = table_html(page)
    page.keyboard.press("End")
    version_is(page, latest)
    page.keyboard.press("Home")
    version_is(page, 1)
    page.keyboard.press("Shift+ArrowRight")  # by event
    expect(page.locator("#replay-root")).not_to_have_attribute("data-move", "1")
    page.locator("#replay-seat .seat-choice[data-seat='2']").click()
    expect(page.locator("#table-perspective")).to_contain_text("'s view")
    page.locator("#replay-moves .move-row[data-move='20']").click()
    version_is(page, 20)
    page.keyboard.press("ArrowLeft")
    version_is(page, 19)
    page.get_by_role("button", name="Round 2", exact=True).click()
    version_is(page, demo.queries.replays.round_starts(game_id)[2])
    assert asked == [], f"the replay asked the server while stepping: {asked}"
    shots.take(page, "stepped")
    # The table patched step by step is the table drawn whole when the page opens at that move.
    open_loaded(page, game_id, 1 + len(times))
    assert table_html(page) == stepped


def test_home_end_the_move_list_and_the_back_button(page: Any, demo: Demo, shots: Shots) -> None:
    game_id = demo.finished[1]
    latest = demo.queries.lists.game_row(game_id)["last_version"]
    open_loaded(page, game_id, 5)
    page.locator("h2").click()
    page.keyboard.press("ArrowRight")  # a step replaces the address's move
    version_is(page, 6)
    expect(page).to_have_url(re.compile(f"/replay/{game_id}\\?v=6&seat=referee$"))
    page.keyboard.press("End")  # a jump adds an entry to the history
    version_is(page, latest)
    expect(page).to_have_url(re.compile(f"\\?v={latest}&seat=referee$"))
    expect(page.locator("#replay-next")).to_be_disabled()

    # The move list: every move, the current one marked; a click jumps there.
    rows = page.locator("#replay-moves .move-row")
    expect(rows).to_have_count(latest)
    expect(page.locator("#replay-moves .move-row.current")).to_have_attribute("data-move", str(latest))
    moves = demo.queries.lists.moves(game_id)
    picked = moves[len(moves) // 2]
    row = page.locator(f"#replay-moves .move-row[data-move='{picked['version']}']")
    name = demo.queries.lists.game_row(game_id)["players"][picked["seat"]]["name"]
    expect(row.locator(".move-who")).to_have_text(name)
    expect(row.locator(".move-think")).not_to_be_empty()  # the think time, from the read models
    row.click()
    version_is(page, picked["version"])
    expect(row).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#replay-version")).to_contain_text(f"by {name}")
    expect(page.locator("#replay-version")).to_contain_text("thought ")
    page.locator("#replay-seat .seat-choice[data-seat='1']").click()
    expect(page).to_have_url(re.compile(f"\\?v={picked['version']}&seat=1$"))

    # Back: the perspective, then the move before the click, then the one before End; forward again.
    page.go_back()
    expect(page).to_have_url(re.compile(f"\\?v={picked['version']}&seat=referee$"))
    expect(page.locator("#replay-root")).to_have_attribute("data-seat", "referee")
    page.go_back()
    version_is(page, latest)
    page.go_back()
    version_is(page, 6)
    page.go_forward()
    version_is(page, latest)
    page.keyboard.press("Home")
    version_is(page, 1)
    expect(page.locator("#replay-prev")).to_be_disabled()
    shots.take(page, "moves")


def test_the_last_play_and_the_seat_to_act_are_marked(page: Any, demo: Demo) -> None:
    game_id = demo.finished[0]
    records = demo.queries.replays.records(game_id)

    def played(record: dict[str, Any]) -> list[int]:
        events = record["body"].get("events", []) if record["type"] == "move" else []
        return [c for e in events if e["type"] == "RuinsPlayed" for c in e["ruins"]]

    version = next(
        r["version"]
        for r in records[len(records) // 3 :]
        if played(r) and set(played(r)) <= set(demo.queries.replays.replay(game_id, r["version"])["view"]["pile"])
    )
    frame = demo.queries.replays.replay(game_id, version)
    mover = records[version - 1]["body"]["seat"]
    open_loaded(page, game_id, version)
    expect(page.locator(".pile .chip-last")).to_have_count(len(played(records[version - 1])))
    expect(page.locator("tr.row-last")).to_contain_text(frame["players"][mover]["name"])
    for seat in frame["to_act"]:
        expect(page.locator(f".hand[data-seat='{seat}']")).to_have_class(re.compile(r"\bhand-acting\b"))
    expect(page.locator("tr.row-acting")).to_have_count(len(frame["to_act"]))
    # The log names ruins as their cards read, not by number.
    expect(page.locator("#replay-log")).not_to_contain_text("#")
    expect(page.locator("#replay-log .log-current")).to_contain_text("☀/")


def test_at_1440_by_900_the_table_fits_on_the_screen(page: Any, demo: Demo, shots: Shots) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    game_id = demo.finished[0]
    move = demo.queries.replays.round_starts(game_id)[2] + 4  # mid-game: hands full, a pile, the market
    open_loaded(page, game_id, move)
    box = page.locator("#replay-table .ruins-table").bounding_box()
    assert box is not None and box["y"] >= 0
    assert box["y"] + box["height"] <= 900, f"the table ends at {box['y'] + box['height']:.0f} px"
    assert page.evaluate("window.scrollY") == 0
    side = page.locator(".replay-side").bounding_box()
    assert side is not None and side["x"] > box["x"] + box["width"], "the move list is beside the table"
    shots.take(page, "1440")


@pytest.mark.parametrize("kind", ["ruins", "arnak"])
def test_on_a_phone_nothing_is_wider_than_the_screen(page: Any, demo: Demo, shots: Shots, kind: str) -> None:
    width = 390
    page.set_viewport_size({"width": width, "height": 844})
    game_id = demo.finished[0] if kind == "ruins" else demo.others[kind][0]
    open_loaded(page, game_id, demo.queries.lists.game_row(game_id)["last_version"] // 2)
    wide = page.evaluate(
        "w => Array.from(document.querySelectorAll('body *')).filter(e => {"
        " const r = e.getBoundingClientRect(); return r.width > 0 && r.right > w + 1 && !e.closest('svg'); })"
        ".map(e => e.tagName + '.' + e.className).slice(0, 10)",
        width,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
    chart = page.locator("#replay-vp .js-plotly-plot").bounding_box()
    assert chart is not None and chart["width"] >= width - 60, "the VP chart keeps the screen's width"
    shots.take(page, "phone")


def test_an_arnak_replay_steps_without_asking_the_server(page: Any, demo: Demo, shots: Shots) -> None:
    game_id = demo.others["arnak"][0]
    latest = demo.queries.lists.game_row(game_id)["last_version"]
    open_loaded(page, game_id, 1)
    expect(page.locator(".arnak-table")).to_be_visible()
    asked = requests_of(page)
    page.locator("h2").click()
    times = page.evaluate(STEP_TIMES_JS, ["ArrowRight", min(60, latest - 1)])
    record_latency("arnak, 3 seats, referee", times)
    version_is(page, 1 + len(times))
    frame = demo.queries.replays.replay(game_id, 1 + len(times))
    who = ", ".join(frame["view"]["players"][int(s)] for s in frame["to_act"])
    expect(page.locator("#arnak-to-act")).to_contain_text(who)
    record = demo.queries.replays.records(game_id)[len(times)]  # the move shown: 1 + len(times)
    if record["type"] == "move":
        mover = page.locator(f"#arnak-seat-{record['body']['seat']}")
        expect(mover).to_have_attribute("data-moved-last", "yes")
        expect(page.locator(".arnak-player[data-moved-last='yes']")).to_have_count(1)
    stepped = table_html(page)
    page.locator("#replay-seat .seat-choice[data-seat='0']").click()
    expect(page.locator(".arnak-table")).to_have_attribute("data-viewer", "0")
    page.keyboard.press("End")
    version_is(page, latest)
    assert asked == [], f"the replay asked the server while stepping: {asked}"
    shots.take(page, "arnak")
    open_loaded(page, game_id, 1 + len(times))
    assert table_html(page) == stepped, "the table patched step by step is the table drawn whole"


def test_the_games_lists_filters_live_in_the_address(page: Any, demo: Demo) -> None:
    sign_in(page)
    page.goto("/games")
    choose(page, "games-status", "finished")
    choose(page, "games-round", "Round 2")
    expect(page).to_have_url(re.compile(r"/games\?round=2&status=over$"))
    rows = page.locator("#games-table tbody tr")
    wanted = demo.queries.lists.games(round_label=2, status="over")["rows"]
    expect(rows).to_have_count(len(wanted))
    page.reload()  # the address alone brings the same list back
    expect(page.locator("#games-status")).to_contain_text("finished")
    expect(rows).to_have_count(len(wanted))
    page.locator(f"#games-table tr[data-game='{wanted[0]['game_id']}'] a.open-replay").click()
    version_is(page, 1)
    page.go_back()
    expect(page).to_have_url(re.compile(r"/games\?round=2&status=over$"))
    expect(rows).to_have_count(len(wanted))


def test_at_1440_by_900_the_arnak_player_boards_are_on_the_first_screen(page: Any, demo: Demo, shots: Shots) -> None:
    """The players' boards are half of what a replay shows: at 1440x900 each one is wholly on the first screen, not
    below the fold under the board and the market."""
    page.set_viewport_size({"width": 1440, "height": 900})
    game_id = demo.others["arnak"][0]  # three seats
    open_loaded(page, game_id, demo.queries.lists.game_row(game_id)["last_version"] // 2)
    boards = page.locator("#replay-table .arnak-player")
    expect(boards.first).to_be_visible()
    found = [boards.nth(i).bounding_box() for i in range(boards.count())]
    shots.take(page, "1440")
    edges = [(round(b["y"]), round(b["y"] + b["height"])) for b in found if b]
    assert len(edges) == 3 and all(top >= 0 and bottom <= 900 for top, bottom in edges), f"the boards span {edges} px"


def test_the_first_part_asked_for_early_is_the_perspective_the_page_shows(page: Any, demo: Demo) -> None:
    """The page's head asks for the first part before Dash has built the page (``early=1``, with the perspective
    the address names, the referee's when it names none); the server answers with the perspective the page will
    show. A player of a game in play gets their own seat's frames, and no other perspective's reaches the page."""
    seat = 1
    page.goto(f"/replay/{demo.live}?token={demo.tokens[seat]}")  # the seat's session
    expect(page.locator("#replay-root")).to_have_attribute("data-loaded", "all", timeout=LOADED_MS)
    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r) if "/replay-frames/" in r.url else None)
    for address in (f"/replay/{demo.live}", f"/replay/{demo.live}?seat=0"):
        answers.clear()
        page.goto(address)
        expect(page.locator("#replay-root")).to_have_attribute("data-loaded", "all", timeout=LOADED_MS)
        expect(page.locator("#replay-root")).to_have_attribute("data-seat", str(seat))
        expect(page.locator(f".hand[data-seat='{seat}']")).to_have_attribute("data-visible", "shown")
        early = [r for r in answers if "early=1" in r.url]
        assert len(early) == 1 and early[0].status == 200
        assert {r.json()["perspective"] for r in answers} == {str(seat)}
        first = [r for r in answers if "part=0&moves=0&events=0" in r.url]
        assert first == early  # the page took the early answer instead of asking again
