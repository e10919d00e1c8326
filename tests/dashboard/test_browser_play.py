"""Live play in a real browser (headless Chromium via Playwright): two people play a Ruins game from their seat
links, each in a browser of their own, against two bots that play through the service's push channel, to the
end; and an organiser's open replay of a game in play follows new moves without a reload.

The browser seats choose a move as a bot would (from the engine's legal actions, read from the service, with any
crafting) and make it through the page as a person does: click its ruins, then its option, then its crafting, then
*Play this move*. Every wait is on a page state with a deadline (the table showing a version, an option
appearing), never a fixed sleep.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from domain.games import game
from service.commands.application import Digsite, Viewer
from service.errors import ServiceError
from service.reading.read_port import ReadPort
from service.serving import push
from tests.dashboard.conftest import SCREENSHOTS, TIMEOUT_MS, own_store
from tests.dashboard.test_browser import plotted_points, sign_in

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

RUINS = game("ruins")
GAME_DEADLINE_S = 600  # a whole 4-seat game on a slow shared machine; measured and reported, not asserted tight
BROWSER_SEATS = (0, 1)
BOT_SEATS = (2, 3)


@dataclass
class Venue:
    service: Digsite
    base_url: str
    queries: ReadPort


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    """A store of its own (the demo's lists must not change), its dashboard served on a free port."""
    with own_store(tmp_path_factory, "live") as own:
        yield Venue(own.service, own.base_url, own.queries)


ARNAK_MOVES = 12  # browser moves of an Arnak game: every kind of turn of the first rounds, in under a minute


def new_game(venue: Venue, names: list[str], seed: str) -> dict[str, Any]:
    players = [venue.service.create_player(n) for n in names]
    return venue.service.create_game("ruins", players, seed=seed)


class Bots:
    """Bot seats played through the service as a bot client does: wait on the push channel for the seat's turn,
    then submit the bot's choice on the version it was shown (a stale one is simply asked again)."""

    def __init__(self, service: Digsite, game_id: str, seats: tuple[int, ...], kind: str = "ruins") -> None:
        self.service, self.game_id, self.stop, self.played = service, game_id, threading.Event(), game(kind)
        self.errors: list[BaseException] = []
        self.threads = [threading.Thread(target=self._run, args=(s,), daemon=True) for s in seats]

    def __enter__(self) -> Bots:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=15)

    def _run(self, seat: int) -> None:
        played = self.played
        rules, bot, rng = played.rules, played.bots.make(next(iter(played.bots.policies))), random.Random(seat)
        try:
            while not self.stop.is_set():
                found = push.updates(self.service, self.game_id, Viewer(seat), 0, 2.0, until="turn", include_game=True)
                if found["status"] == "over":
                    return
                if not found["ready"] or "game" not in found:
                    continue
                seen = found["game"]
                legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
                if not legal:
                    continue
                action = bot.choose(seen["view"], legal, rng)
                try:
                    self.service.submit(self.game_id, Viewer(seat), seen["version"], rules.action_to_dict(action))
                except ServiceError:
                    continue  # another seat moved first (a simultaneous flip): look again
        except BaseException as error:  # reported by the test, not lost in a thread
            self.errors.append(error)


def open_seat(browser: Any, venue: Venue, game_id: str, token: str, deaf: bool = False) -> tuple[Any, Any, list[str]]:
    """A person's own browser: a context of its own, opened with the seat link, then *Play*. ``deaf``: its
    waiting request never answers (the page does not hear of new moves by itself)."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, base_url=venue.base_url)
    context.set_default_timeout(TIMEOUT_MS)
    if deaf:
        context.route("**/live/**", lambda route: None)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/replay/{game_id}?token={token}")
    page.click("#replay-play-link")
    expect(page.locator("#play-root")).to_have_attribute("data-followed", "yes")
    expect(page.locator("#play-now")).to_be_visible()
    return context, page, errors


def shows_version(page: Any, version: int, turn: bool | None = None) -> None:
    """Wait until the page shows ``version`` or later (and, if asked, whether it is this seat's turn)."""
    page.wait_for_function(
        "([v, turn]) => { const n = document.getElementById('play-now'); return n && "
        "parseInt(n.dataset.version, 10) >= v && (turn === null || n.dataset.turn === (turn ? '1' : '0')); }",
        arg=[version, turn],
        timeout=TIMEOUT_MS * 2,
    )


def make_move(page: Any, action: dict[str, Any]) -> bool:
    """Make ``action`` through the picker: click its ruins, then its option, then its crafting (if any), then
    submit. Whether it was crafted."""
    ruins = action.get("ruins") or ([action["ruin"]] if action.get("ruin") is not None else [])
    for ruin in ruins:
        page.locator("#play-cards label").filter(has_text=re.compile(rf"· #{ruin}$")).first.click()
    pick(page, "#play-option", _base(action), cards=[str(r) for r in ruins])
    crafted = bool(action.get("purchases") or action.get("claims"))
    if crafted:
        # The page offers a move's crafted forms up to service.reading.crafting's cap (MAX_FORMS); past it, as it is.
        page.wait_for_function("() => !document.getElementById('play-craft-box').hidden")
        wanted = json.dumps(action, sort_keys=True, separators=(",", ":"))
        offered = page.locator("#play-craft input").evaluate_all("els => els.map(e => e.value)")
        crafted = wanted in offered
        if crafted:
            pick(page, "#play-craft", action)
    page.click("#play-submit")
    return crafted


def pick(page: Any, radios: str, action: dict[str, Any], cards: list[str] | None = None) -> None:
    """Check the radio button of ``action`` among ``radios`` once the page offers it (with ``cards`` picked). Found
    by its value, not its place, and clicked again if a redraw (another seat's move landing) cleared it before it
    took; so are the cards (a redraw answers with the picks the page had when it asked, which a click made while
    it was asking is not among)."""
    wanted = json.dumps(action, sort_keys=True, separators=(",", ":"))
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        if cards:
            page.evaluate(
                "cs => document.querySelectorAll('#play-cards input').forEach("
                "i => { if (cs.includes(i.value) && !i.checked) { i.click(); } })",
                cards,
            )
        try:
            page.wait_for_function(
                "([r, w]) => Array.from(document.querySelectorAll(r + ' input')).some(i => i.value === w)",
                arg=[radios, wanted],
                timeout=2000,
            )
            break
        except Exception:
            if time.monotonic() < deadline:
                continue
            offered = page.locator(f"{radios} input").evaluate_all("els => els.map(e => e.value)")
            picked = page.locator("#play-cards input:checked").evaluate_all("els => els.map(e => e.value)")
            raise AssertionError(f"{wanted} is not offered with {picked} picked: {offered}") from None
    while True:
        page.evaluate(
            "([r, w]) => { const i = Array.from(document.querySelectorAll(r + ' input')).find(x => x.value === w);"
            " if (i && !i.checked) { i.click(); } }",
            [radios, wanted],
        )
        try:
            page.wait_for_function(
                "([r, w]) => Array.from(document.querySelectorAll(r + ' input')).some(i => i.value === w && i.checked)",
                arg=[radios, wanted],
                timeout=2000,
            )
            return
        except Exception:
            assert time.monotonic() < deadline, f"{wanted} could not be picked"


def _base(action: dict[str, Any]) -> dict[str, Any]:
    """A bot's crafted play without its crafting: the play as the engine lists it among the legal actions."""
    return {k: v for k, v in action.items() if k not in ("purchases", "claims")}


def hand_of(service: Digsite, game_id: str, seat: int) -> list[int]:
    view = service.game(game_id)["view"]
    return [int(r) for r in next(h for h in view["hands"] if h["seat"] == seat)["ruins"]]


def test_two_browser_seats_and_two_bots_finish_a_game(browser: Any, venue: Venue) -> None:
    made = new_game(venue, ["Ada", "Bea", "Bot Cy", "Bot Di"], seed="browser-play")
    game_id, tokens = made["id"], [t["token"] for t in made["tokens"]]
    service, rng, chooser = venue.service, random.Random("people"), RUINS.bots.make("heuristic")
    seats = {s: open_seat(browser, venue, game_id, tokens[s]) for s in BROWSER_SEATS}
    started, moves, hidden_checks, crafts = time.monotonic(), 0, 0, 0
    try:
        with Bots(service, game_id, BOT_SEATS) as bots:
            while service.game(game_id)["status"] != "over":
                assert time.monotonic() - started < GAME_DEADLINE_S, f"the game did not finish ({moves} browser moves)"
                assert not bots.errors, bots.errors
                now = service.game(game_id)
                mine = [s for s in BROWSER_SEATS if s in now["to_act"]]
                if not mine:  # the bots' turn: wait for the game to move (the push channel, not a sleep)
                    push.updates(service, game_id, Viewer(BOT_SEATS[0]), now["version"], 5.0)
                    continue
                seat = mine[0]
                page = seats[seat][1]
                # The page follows the game by itself: it shows this version and the seat's turn, no reload.
                shows_version(page, now["version"], turn=True)
                seen = service.game(game_id, Viewer(seat))
                if seen["version"] != now["version"]:
                    continue  # a bot moved meanwhile (a simultaneous flip): look again
                if moves % 15 == 0:  # each page shows its own hand only: the other hands are counts
                    hands = page.eval_on_selector_all(
                        "#play-table .hand",
                        "hs => hs.map(h => [parseInt(h.dataset.seat, 10), "
                        "h.querySelectorAll('[title^=\"Ruin #\"]').length])",
                    )
                    assert dict(hands) == {s: len(hand_of(service, game_id, s)) if s == seat else 0 for s in range(4)}
                    hidden_checks += 1
                # The person's choice (a bot's judgement, so the game ends as a real one does), made through the page.
                legal = [RUINS.rules.action_from_dict(a) for a in seen["legal_actions"]]
                action = RUINS.rules.action_to_dict(chooser.choose(seen["view"], legal, rng))
                crafts += make_move(page, action)
                shows_version(page, seen["version"] + 1)  # the move's answer, or the game moving on, redraws it
                expect(page.locator("#play-message")).not_to_be_empty()
                message = page.inner_text("#play-message")
                assert message.startswith(("Played", "The game moved on")), message
                moves += 1
        elapsed = time.monotonic() - started
        final = service.game(game_id)
        assert final["status"] == "over" and final["result"] is not None
        for seat, (_, page, errors) in seats.items():
            shows_version(page, final["version"] - 1)  # the seed's reveal may come after the last move
            expect(page.locator("#play-status")).to_contain_text("over")
            expect(page.locator("#play-log .log-entry").first).to_be_visible()
            assert page.locator("#play-log .log-entry").count() >= 10
            page.screenshot(path=str(SCREENSHOTS / f"test_two_browser_seats_and_two_bots_finish_a_game-seat{seat}.png"))
            assert not errors, errors
        assert hidden_checks >= 2
        figures = {
            "browser_moves": moves,
            "crafted": crafts,
            "all_moves": final["version"],
            "seconds": round(elapsed, 1),
        }
        (SCREENSHOTS.parent / "live-play.json").write_text(json.dumps(figures))
    finally:
        for context, _, _ in seats.values():
            context.close()


def test_a_stale_move_in_the_browser_says_the_game_moved_on(browser: Any, venue: Venue) -> None:
    made = new_game(venue, ["Eve", "Fay"], seed="stale")
    game_id, tokens = made["id"], [t["token"] for t in made["tokens"]]
    seat = venue.service.game(game_id)["to_act"][0]
    context, page, errors = open_seat(browser, venue, game_id, tokens[seat], deaf=True)
    try:
        seen = venue.service.game(game_id, Viewer(seat))
        shows_version(page, seen["version"], turn=True)
        action = seen["legal_actions"][0]
        venue.service.submit(game_id, Viewer(seat), seen["version"], seen["legal_actions"][-1])  # another device
        make_move(page, action)
        expect(page.locator("#play-stale")).to_contain_text("The game moved on")
        shows_version(page, seen["version"] + 1)
        assert not errors, errors
    finally:
        context.close()


def test_a_pick_in_the_browser_stands_when_another_seat_s_night_flip_lands(browser: Any, venue: Venue) -> None:
    """Every seat chooses its night flip at once, so another seat's flip can land while a person is picking theirs:
    the page draws the new table, and the ruin picked and the flip chosen stand (a redraw used to clear them, and
    the person had to pick again); *Play this move* then plays it."""
    made = new_game(venue, ["Lia", "Max"], seed="kept-flip")
    game_id, tokens, service = made["id"], [t["token"] for t in made["tokens"]], venue.service
    context, page, errors = open_seat(browser, venue, game_id, tokens[0])
    try:
        seen = service.game(game_id, Viewer(0))
        shows_version(page, seen["version"], turn=True)
        action = next(a for a in seen["legal_actions"] if a["type"] == "flip" and a["ruin"] is not None)
        page.locator("#play-cards label").filter(has_text=re.compile(rf"· #{action['ruin']}$")).first.click()
        pick(page, "#play-option", action)
        service.submit(game_id, Viewer(1), seen["version"], {"type": "flip", "seat": 1, "ruin": None})
        shows_version(page, seen["version"] + 1, turn=True)
        # (the cards are drawn in the same callback answer as the version: read at once, no wait)
        assert page.eval_on_selector_all("#play-cards input:checked", "els => els.map(e => e.value)") == [
            str(action["ruin"])
        ]
        wanted = json.dumps(action, sort_keys=True, separators=(",", ":"))
        expect(page.locator(f"#play-option input[value='{wanted}']")).to_be_checked()
        page.click("#play-submit")
        shows_version(page, seen["version"] + 2)
        assert service.log(game_id, after=seen["version"] + 1)[0]["body"]["action"] == action
        # The script's rule, asked directly: a new picker naming the move kept chooses it again; the same picker
        # listed again (a pick of cards or kind) does not, nor does a new one that names none. A picker whose pick
        # stands keeps first the move chosen in the browser now (one chosen while the look was on its way), where
        # offered; another does not.
        chosen = page.evaluate(
            """() => {
                const options = window.dash_clientside.digsite.playOptions;
                const choices = [{label: "none", value: "N", cards: null}, {label: "one", value: "O", cards: ["1"]}];
                const kept = {groups: [], choices: choices, kept: "O"}, plain = {groups: [], choices: choices};
                const stands = () => ({groups: [], choices: choices, stands: true});
                return [
                    options(kept, null, ["1"])[1], options(kept, null, ["1"])[1], options(plain, null, ["1"])[1],
                    options({...stands(), kept: "O"}, null, ["1"], "N")[1], options(stands(), null, ["1"], "O")[1],
                    options(stands(), null, ["1"], "X")[1], options(stands(), null, [], "O")[1],
                    options({groups: [], choices: choices}, null, ["1"], "N")[1],
                ];
            }"""
        )
        assert chosen == ["O", None, None, "N", "O", None, "N", None]
        assert not errors, errors
    finally:
        context.close()


def test_an_open_replay_follows_a_game_in_play(browser: Any, venue: Venue) -> None:
    made = new_game(venue, ["Gus", "Hal"], seed="follow")
    game_id = made["id"]
    service = venue.service
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, base_url=venue.base_url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        sign_in(page)
        page.goto(f"/replay/{game_id}?v=1")
        expect(page.locator("#replay-root")).to_have_attribute("data-followed", "yes")
        expect(page.locator("#replay-version")).to_contain_text("Step 1 of 1")
        assert plotted_points(page, "replay-vp") == [1, 1]
        for expected in (2, 3, 4):
            seat = service.game(game_id)["to_act"][0]
            seen = service.game(game_id, Viewer(seat))
            service.submit(game_id, Viewer(seat), seen["version"], seen["legal_actions"][0])
            # At the last move, the page follows to the new one: no reload, the log and move list grow, and
            # so does the VP chart, a point a move for every seat.
            expect(page.locator("#replay-version")).to_contain_text(f"Step {expected} of {expected}")
            expect(page.locator("#replay-moves .move-row")).to_have_count(expected)
            page.wait_for_function(
                "n => document.querySelector('#replay-vp .js-plotly-plot').data.every(t => t.x.length === n)",
                arg=expected,
            )
        timeline = venue.queries.replays.vp_timeline(game_id)["vp"]
        drawn = page.eval_on_selector("#replay-vp .js-plotly-plot", "g => g.data.map(t => Array.from(t.y))")
        assert drawn == [[row[s] for row in timeline[:4]] for s in range(2)]  # the points the server counts
        # Stepping back, the viewer stays where they are while the game goes on.
        page.keyboard.press("Home")
        seat = service.game(game_id)["to_act"][0]
        seen = service.game(game_id, Viewer(seat))
        service.submit(game_id, Viewer(seat), seen["version"], seen["legal_actions"][0])
        expect(page.locator("#replay-root")).to_have_attribute("data-latest", "5")
        expect(page.locator("#replay-version")).to_contain_text("Step 1 of 5")
        waiting = [u for u in requests if "/live/" in u]
        assert len(waiting) <= 8, "one waiting request per move landed (and the first), not a polling storm"
        page.screenshot(path=str(SCREENSHOTS / "test_an_open_replay_follows_a_game_in_play.png"))
    finally:
        context.close()


def test_the_organisers_list_flags_a_quiet_game_in_play(browser: Any, venue: Venue) -> None:
    made = new_game(venue, ["Ivy", "Jo"], seed="quiet")
    from service.reading.projections.follower import Follower

    follower = Follower(venue.service.settings)
    try:
        follower.catch_up()  # the games list reads the read models
    finally:
        follower.close()
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, base_url=venue.base_url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.clock.install()  # the page's clock, moved on below instead of waiting for real minutes
        sign_in(page)
        page.goto("/games?status=playing&idle=15")
        row = page.locator(f'#games-table tr[data-game="{made["id"]}"]')
        expect(row).to_contain_text("to act:")
        expect(page.locator("#games-idle")).to_have_value("15")
        expect(row).not_to_have_class("idle")
        page.clock.fast_forward("20:00")  # 20 minutes without a move (the flag is redrawn every 30 s)
        expect(row).to_have_class("idle")
        expect(row.locator(".idle-flag")).to_contain_text("idle 20 min")
        page.fill("#games-idle", "30")  # a longer limit, kept in the address
        expect(row).not_to_have_class("idle")
        assert "idle=30" in page.url
        page.screenshot(path=str(SCREENSHOTS / "test_the_organisers_list_flags_a_quiet_game_in_play.png"))
    finally:
        context.close()


def test_a_person_plays_arnak_through_its_picker(browser: Any, venue: Venue) -> None:
    """Another game's table and picker on the same page: the kinds of move and their options are the game's own
    names for exactly the engine's legal actions, and a move picked kind first, then option, lands."""
    from dashboard.pages.play import picker_of

    arnak = game("arnak")
    players = [venue.service.create_player(n) for n in ("Kit", "Bot Lu")]
    made = venue.service.create_game("arnak", players, seed="browser-arnak")
    game_id, token = made["id"], made["tokens"][0]["token"]
    service, rng, chooser = venue.service, random.Random("arnak-person"), arnak.bots.make("heuristic")
    context, page, errors = open_seat(browser, venue, game_id, token)
    moves, started = 0, time.monotonic()
    try:
        with Bots(service, game_id, (1,), kind="arnak") as bots:
            while moves < ARNAK_MOVES and service.game(game_id)["status"] != "over":
                assert time.monotonic() - started < GAME_DEADLINE_S, f"only {moves} moves were made"
                assert not bots.errors, bots.errors
                now = service.game(game_id)
                if 0 not in now["to_act"]:  # the bot's turn: wait for the game to move (the push channel)
                    push.updates(service, game_id, Viewer(1), now["version"], 5.0)
                    continue
                shows_version(page, now["version"], turn=True)
                seen = service.game(game_id, Viewer(0))
                offered = picker_of("arnak")(seen["view"], seen["legal_actions"], 0)
                # The page offers the kinds of move the engine allows now, in the picker's words.
                page.wait_for_function(
                    "n => document.querySelectorAll('#play-group input').length === n || n === 1",
                    arg=len(offered.groups),
                )
                if len(offered.groups) > 1:
                    shown = page.locator("#play-group input").evaluate_all("els => els.map(e => e.value)")
                    assert sorted(shown) == sorted(offered.groups)
                legal = [arnak.rules.action_from_dict(a) for a in seen["legal_actions"]]
                action = arnak.rules.action_to_dict(chooser.choose(seen["view"], legal, rng))
                # (the same move with an identical copy of a card is one option: the page plays its first copy)
                (choice,) = [c for c in offered.choices if action in (dict(c.action), *map(dict, c.alike))]
                if len(offered.groups) > 1:
                    page.locator("#play-group input").nth(offered.groups.index(choice.group)).check()
                pick(page, "#play-option", dict(choice.action))
                page.click("#play-submit")
                shows_version(page, seen["version"] + 1)
                expect(page.locator("#play-message")).not_to_be_empty()
                assert page.inner_text("#play-message").startswith("Played"), page.inner_text("#play-message")
                moves += 1
        assert moves == ARNAK_MOVES or service.game(game_id)["status"] == "over"
        record = service.log(game_id, Viewer(0))
        assert sum(1 for r in record if r["type"] == "move" and r["body"]["seat"] == 0) >= moves
        page.screenshot(path=str(SCREENSHOTS / "test_a_person_plays_arnak_through_its_picker.png"))
        assert not errors, errors
    finally:
        context.close()


def test_a_timed_game_s_clock_counts_down_on_the_seat_page(browser: Any, venue: Venue) -> None:
    players = [venue.service.create_player(n) for n in ("Gil", "Hal")]
    made = venue.service.create_game("ruins", players, seed="clocked", clock={"per_move": 600})
    game_id, tokens = made["id"], [t["token"] for t in made["tokens"]]
    seat = venue.service.game(game_id)["to_act"][0]
    context, page, errors = open_seat(browser, venue, game_id, tokens[seat], deaf=True)
    try:
        name = ("Gil", "Hal")[seat]
        running = page.locator(f'#play-clock .play-clock-seat.running[data-seat="{seat}"]')
        # The server's text says until when; the page's script counts down from it (10:00 is 600 s: "9:5x").
        expect(running).to_have_text(re.compile(rf"^{name} (10:00|9:[0-5]\d) \(running\)$"))
        assert not errors, errors
    finally:
        context.close()
