"""A small tournament run end to end in Chromium, as an organiser runs an evening, without the API: the tournament
created on the *New tournament* form with its per-move clock (a clock of zero refused first), five entries (one
person registered by name, four named bots) entered on the rounds page, round 1 seated there (round robin, tables
of up to 3), the bots playing their seats (``play_bot_turns``) while the person plays their table from their seat
link, on the table itself, and lets their clock run out once (the timeout recorded by the clock sweep, and shown);
round 2 seated by itself when round 1's last table ends (the rounds page and its ruling form show it without a
reload) and played the same way; then the organiser adjusts a result from the rounds page (a refusal first: no
reason) and the standings show its effect and its note.

The evening's other processes run in one thread beside the browser (``Floor``): the bots, the projections follower
and the clock sweep, as a served deployment runs them. The service's clock is the real time plus a shift the test
moves on once (``ShiftedClock``): the person "walks away" by moving the clock past their per-move limit, so no test
waits for a minute to pass and no slow browser move is ever timed out by accident. Seats and bots are seeded (the
round robin by the tournament's id, the bots and the person's choices by fixed seeds); which table the person
sits at follows from the id, and every step below reads it from the page. Every wait is on a page or a stored
state with a deadline, never a fixed sleep.
"""

from __future__ import annotations

import csv
import io
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from dashboard.format import ordinal
from domain.games import game
from service.bots.seated_rounds import play_bot_turns
from service.commands.application import Digsite, Viewer
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.serving.clock_sweep import ClockSweep
from tests.dashboard.conftest import TIMEOUT_MS, Shots, own_store, watched_tab
from tests.dashboard.test_browser import sign_in
from tests.dashboard.test_browser_play import GAME_DEADLINE_S, _base, shows_version
from tests.dashboard.test_browser_play_table import choose_under_table, pick_only

pytestmark = [pytest.mark.browser, pytest.mark.slow]
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

RUINS = game("ruins")
PERSON = "Ines Ortega"
PER_MOVE = 120  # seconds a seat has for each turn (the tournament's time control: two minutes, a brisk evening)
WIDE = {"width": 1280, "height": 900}
REFRESH_WAIT_MS = 25_000  # the rounds page looks again every 10 s (rounds.REFRESH_MS): two ticks and a margin
DEADLINE_S = 60.0  # for a stored state the floor's thread brings about (a table of bots ending, a read model)


class ShiftedClock:
    """The service's clock: the real time plus ``shift`` seconds (moved on by the test, never back)."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> str:
        return (datetime.now(UTC) + timedelta(seconds=self.shift)).isoformat()


@dataclass
class Evening:
    service: Digsite
    queries: ReadPort
    base_url: str
    clock: ShiftedClock
    cup: str = ""  # (made on the form by the test)


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evening]:
    """An empty store of its own: the organiser makes the tournament and registers the person on the dashboard."""
    clock = ShiftedClock()
    with own_store(tmp_path_factory, "evening", clock=clock) as own:
        yield Evening(own.service, own.queries, own.base_url, clock)


@dataclass
class Floor:
    """The evening's other processes, in one thread: the bots playing their seats, the projections follower
    catching the read models up, and the clock sweep recording the timeouts due (``ClockSweep.sweep``)."""

    evening: Evening
    stop: threading.Event = field(default_factory=threading.Event)
    errors: list[BaseException] = field(default_factory=list)
    timeouts: int = 0

    def __enter__(self) -> Floor:
        self.thread = threading.Thread(target=self._run, name="evening-floor", daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        self.thread.join(timeout=30)

    def _run(self) -> None:
        service = self.evening.service
        follower = Follower(service.settings, batch_size=64)
        sweep = ClockSweep(service, self.evening.queries, seconds=0)
        try:
            while not self.stop.is_set():
                if play_bot_turns(service, self.evening.cup, seed="evening"):
                    continue
                # Nothing for the bots (a person is to act, or no table is in play): the read models caught up,
                # then the sweep over the games they list in play.
                follower.catch_up()
                self.timeouts += sweep.sweep()
                self.stop.wait(0.05)
        except BaseException as error:  # reported by the test, not lost in a thread
            self.errors.append(error)
        finally:
            follower.close()


def until(what: str, check: Callable[[], Any], floor: Floor, seconds: float = DEADLINE_S) -> Any:
    """Poll ``check`` until it answers something true (returned), failing after ``seconds``."""
    started = time.monotonic()
    while True:
        assert not floor.errors, floor.errors
        found = check()
        if found:
            return found
        assert time.monotonic() - started < seconds, f"{what}: not within {seconds} s"
        floor.stop.wait(0.05)


@pytest.fixture
def organiser(browser: Any, evening: Evening, shots: Shots) -> Iterator[Any]:
    with watched_tab(browser, evening.base_url, shots, viewport=WIDE, accept_downloads=True) as page:
        yield page


def choose(page: Any, dropdown: str, option: str) -> None:
    """Pick ``option`` in a Dash 4 dropdown (a button opening a list of role=option items)."""
    page.click(dropdown)
    page.get_by_role("option", name=option, exact=True).click()
    page.keyboard.press("Escape")


def seat_links(page: Any) -> list[dict[str, str]]:
    """The seat links of the last round, downloaded from the rounds page as the organiser hands them out."""
    with page.expect_download() as download:
        page.click("#rounds-links-csv")
    with open(download.value.path(), encoding="utf-8") as handle:
        return list(csv.DictReader(io.StringIO(handle.read())))


@dataclass
class Seat:
    """The person's seat in one round: their game, seat number, the other tables' games."""

    game: str
    seat: int
    others: list[str]


def persons_seat(links: list[dict[str, str]]) -> tuple[Seat, str]:
    (mine,) = [row for row in links if row["name"] == PERSON]
    others = sorted({row["game"] for row in links if row["game"] != mine["game"]})
    return Seat(mine["game"], int(mine["seat"]) - 1, others), mine["url"]


def open_seat_link(browser: Any, url: str) -> tuple[Any, Any, list[str]]:
    """The person's own browser (a phone: touch, 390 px wide) on their seat link, then *Play*."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.click("#replay-play-link")
    expect(page.locator("#play-root")).to_have_attribute("data-followed", "yes")
    return context, page, errors


def play_on_the_table(page: Any, evening: Evening, floor: Floor, seat: Seat, walk_away_on: int | None) -> int:
    """The person plays their seat to the game's end on the table (a tap on each ruin, the move under the table,
    *Send this move*), choosing as a heuristic bot would; on their turn number ``walk_away_on`` they let the clock
    run out instead (the other tables of the round over first, so only their seat's time runs). Returns the moves
    sent from the page."""
    service, rng, chooser = evening.service, random.Random(f"ines:{seat.game}"), RUINS.bots.make("heuristic")
    sent, turns, started = 0, 0, time.monotonic()
    while service.game(seat.game)["status"] != "over":
        assert time.monotonic() - started < GAME_DEADLINE_S, f"the game did not end ({sent} moves sent)"
        assert not floor.errors, floor.errors
        now = service.game(seat.game)
        if seat.seat not in now["to_act"]:
            floor.stop.wait(0.02)  # (the bots' turn: their thread plays it)
            continue
        shows_version(page, now["version"], turn=True)
        turns += 1
        if turns == walk_away_on:
            walk_away(page, evening, floor, seat)
            continue
        seen = service.game(seat.game, Viewer(seat.seat))
        if seen["version"] != now["version"]:
            continue
        legal = [RUINS.rules.action_from_dict(a) for a in seen["legal_actions"]]
        action = _base(RUINS.rules.action_to_dict(chooser.choose(seen["view"], legal, rng)))
        pick_only(page, [int(r) for r in action.get("ruins") or [action.get("ruin")] if r is not None], "tap")
        if not choose_under_table(page, action):
            continue  # the game moved on under the pick: look again
        page.locator("#play-send").tap()
        # The move recorded (the version alone may be another seat's flip landing first), or refused on the page.
        if sent_or_refused(page, evening, floor, seat, seen["version"]) == "refused":
            continue
        sent += 1
    return sent


def sent_or_refused(page: Any, evening: Evening, floor: Floor, seat: Seat, after: int) -> str:
    """Wait for the move just sent: "recorded" (the seat has a move after version ``after``: the page's version
    alone may have moved on by another seat's flip landing first), or "refused" (the page says so)."""

    def outcome() -> str:
        if any(
            r["type"] == "move" and r["body"]["seat"] == seat.seat for r in evening.service.log(seat.game, after=after)
        ):
            return "recorded"
        return "refused" if page.locator("#play-message .play-refused").count() else ""

    return str(until("the move is recorded or refused", outcome, floor))


def walk_away(page: Any, evening: Evening, floor: Floor, seat: Seat) -> None:
    """The person's clock runs out on their turn: the clock is shown running for them, the service's clock moves
    past their limit, and the timeout is recorded (the game plays its default move for them), which the seat page
    then says. Recorded by whichever comes first: the floor's clock sweep, or the seat page's own waiting read (a
    read that finds a seat out of time records its timeout first, ``service.serving.push``); under load either
    wins, so the test waits for the record, not for one of them."""
    service = evening.service
    until("the round's other tables end", lambda: all(service.game(g)["status"] == "over" for g in seat.others), floor)
    assert service.game(seat.game)["to_act"] == [seat.seat]  # only their time runs
    expect(page.locator(f'#play-clock .play-clock-seat[data-seat="{seat.seat}"]')).to_contain_text("running")
    assert not [r for r in service.log(seat.game, after=1) if r["type"] == "timeout"]
    evening.clock.shift += PER_MOVE + 1
    timeouts = until(
        "the timeout is recorded",
        lambda: [r for r in service.log(seat.game, after=1) if r["type"] == "timeout"],
        floor,
    )
    assert [r["body"]["seat"] for r in timeouts] == [seat.seat]
    expect(page.locator("#play-root")).to_contain_text(f"{PERSON}'s time ran out: the game played for them")


def test_an_organiser_runs_a_small_tournament_end_to_end(
    organiser: Any, browser: Any, evening: Evening, shots: Shots
) -> None:
    service, tab = evening.service, organiser
    sign_in(tab)
    create_the_tournament(tab, evening, shots)
    # Entries: the person registered by name, four named bots.
    tab.fill("#rounds-enter-new", PERSON)
    tab.fill("#rounds-enter-bots", "4")
    tab.click("#rounds-enter")
    expect(tab.locator("#rounds-message")).to_have_text("Entered 5 player(s).")
    expect(tab.locator("#rounds-entries")).to_contain_text(PERSON)
    expect(tab.locator("#rounds-summary")).to_have_text("5 entries · 0 of 2 rounds seated")

    with Floor(evening) as floor:
        # Round 1: round robin, tables of up to 3 (a table of 3 and one of 2).
        choose(tab, "#rounds-format", "Round robin")
        tab.fill("#rounds-size", "3")
        tab.click("#rounds-start")
        expect(tab.locator("#rounds-message")).to_have_text("Round 1 seated and started: 2 table(s).")
        expect(tab.locator("#rounds-round-1 tbody tr")).to_have_count(2)
        expect(tab.locator("#rounds-round-1")).to_contain_text("Round robin, tables of up to 3 · playing")
        links = seat_links(tab)
        assert len(links) == 5 and sorted(int(r["seat"]) for r in links) == [1, 1, 2, 2, 3]
        first, url = persons_seat(links)

        # The person plays round 1 from their link, and lets their clock run out once.
        context, seat_page, seat_errors = open_seat_link(browser, url)
        try:
            sent = play_on_the_table(seat_page, evening, floor, first, walk_away_on=2)
            assert sent >= 5
            expect(seat_page.locator("#play-status")).to_contain_text("over")
            assert not seat_errors, seat_errors
        finally:
            context.close()

        # Round 2 seated by itself when round 1 ended: the rounds page, left open, shows it without a reload,
        # and its ruling form offers round 2's games.
        until("round 2 is seated", lambda: len(service.rounds.status(evening.cup)["seated_rounds"]) == 2, floor)
        expect(tab.locator("#rounds-round-2 tbody tr")).to_have_count(2, timeout=REFRESH_WAIT_MS)
        expect(tab.locator("#rounds-round-1")).to_contain_text("· over")
        expect(tab.locator("#rounds-summary")).to_have_text("5 entries · 2 of 2 rounds seated")
        round_2 = service.rounds.status(evening.cup)["seated_rounds"][1]["tables"][0]["game"]
        assert round_2 is not None
        tab.click("#ruling-game")
        expect(tab.get_by_role("option", name=_game_label(service, evening.cup, round_2), exact=True)).to_be_visible()
        tab.keyboard.press("Escape")
        # The organiser sees the timeout in the game's log (another tab).
        log_tab = tab.context.new_page()
        log_tab.goto(f"/replay/{first.game}")
        expect(log_tab.locator("body")).to_contain_text(f"{PERSON}'s time ran out: the game played for them")
        log_tab.close()

        # Round 2: the person plays again from the new round's link; the bots play their seats.
        second, url = persons_seat(seat_links(tab))
        assert second.game != first.game
        context, seat_page, seat_errors = open_seat_link(browser, url)
        try:
            play_on_the_table(seat_page, evening, floor, second, walk_away_on=None)
            assert not seat_errors, seat_errors
        finally:
            context.close()
        until("every table of round 2 ends", lambda: service.rounds.status(evening.cup)["complete"], floor)
        expect(tab.locator("#rounds-summary")).to_have_text(
            "5 entries · 2 of 2 rounds seated · complete", timeout=REFRESH_WAIT_MS
        )

        # A ruling from the rounds page: the person's round 1 result adjusted (its order reversed), with a reason.
        result = service.game(first.game)["result"]
        assert result is not None
        order = list(reversed(result["ranking"]))
        label = _game_label(service, evening.cup, first.game)
        choose(tab, "#ruling-kind", "Adjust a game's result")
        choose(tab, "#ruling-game", label)
        tab.fill("#ruling-order", " ".join(str(s + 1) for s in order))
        tab.click("#ruling-record")  # no reason yet: refused in a sentence, nothing recorded
        expect(tab.locator("#ruling-message")).to_contain_text("a ruling needs the organiser's reason")
        expect(tab.locator("#ruling-message")).to_contain_text("(invalid_ruling)")
        assert not service.rulings.of_game(first.game)
        reason = "scores read out in the wrong order at the table"
        tab.fill("#ruling-reason", reason)
        shots.take(tab, "ruling")
        tab.click("#ruling-record")
        table_name = label.split(":")[0]
        expect(tab.locator("#ruling-message")).to_have_text(
            f"Recorded: {table_name}, result adjusted. The standings show it."
        )

        # The standings: the person's round 1 place as the ruling made it, and its note.
        until("the standings' read model has the ruling", lambda: evening.queries.lists.tournament_rulings(evening.cup),
              floor)  # fmt: skip
        tab.goto(f"/tournaments/{evening.cup}")
        expect(tab.locator("#standings-rulings")).to_contain_text(f"result adjusted: {reason}")
        place = order.index(first.seat) + 1
        persons_row = tab.locator("#standings-cross tbody tr").filter(has_text=PERSON)
        expect(persons_row.locator("td").nth(1)).to_contain_text(f"{ordinal(place)}/{len(order)}")
        shots.take(tab, "standings")
    assert not floor.errors, floor.errors
    # The one timeout of the evening is the person's walk-away, whoever recorded it (the sweep, or the seat page's
    # own read first): no other seat timed out, the person's turns on the page included.
    games = [t["game"] for r in service.rounds.status(evening.cup)["seated_rounds"] for t in r["tables"] if t["game"]]
    timed_out = [(g, r["body"]["seat"]) for g in games for r in service.log(g, after=1) if r["type"] == "timeout"]
    assert timed_out == [(first.game, first.seat)]
    assert floor.timeouts <= 1


def create_the_tournament(tab: Any, evening: Evening, shots: Shots) -> None:
    """The *New tournament* form on the tournaments list: a two-round Ruins tournament under a per-move clock (a
    clock of zero refused first, in the API's sentence), then its rounds page through the link the form gives."""
    tab.goto("/tournaments")
    tab.fill("#new-tournament-name", "Friday evening")
    choose(tab, "#new-tournament-game", "Ruins")
    tab.fill("#new-tournament-rounds", "2")
    choose(tab, "#new-tournament-clock", "A limit per move")
    tab.fill("#new-tournament-seconds", "0")
    tab.click("#new-tournament-create")
    expect(tab.locator("#new-tournament-message")).to_contain_text("must be more than 0")
    expect(tab.locator("#new-tournament-message")).to_contain_text("(invalid_clock)")
    assert (evening.service.app.recorder.max_notification_id() or 0) == 0  # nothing stored
    tab.fill("#new-tournament-seconds", str(PER_MOVE))
    shots.take(tab, "new-tournament")
    tab.set_viewport_size({"width": 390, "height": 844})
    shots.take(tab, "new-tournament-phone")
    tab.set_viewport_size(WIDE)
    tab.click("#new-tournament-create")
    expect(tab.locator("#new-tournament-message")).to_contain_text("Created Friday evening.")
    href = tab.locator("#new-tournament-rounds-link").get_attribute("href")
    evening.cup = href.split("/tournaments/")[1].removesuffix("/rounds")
    assert evening.service.tournament(evening.cup)["clock"] == {"per_move": PER_MOVE}
    tab.click("#new-tournament-rounds-link")
    expect(tab.locator("#rounds-summary")).to_have_text("0 entries · 0 of 2 rounds seated")


def _game_label(service: Digsite, cup: str, game_id: str) -> str:
    """The ruling form's label of a game: "Round 1 · table 2: Ana, Beto" (``ruling_form.game_options``)."""
    from dashboard.pages.ruling_form import game_options

    (label,) = [o["label"] for o in game_options(service.rounds.status(cup)) if o["value"] == game_id]
    return label
