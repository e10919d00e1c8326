"""Playing on the table itself in a real browser (headless Chromium via Playwright): a person plays a whole Ruins
game against a bot seat through table picks only: tap or Enter/Space on the ruins in their hand, then the move
the pick allows among the buttons under the table, then *Send this move*; the form beside the table is never
touched. The preview says the move before it is sent and the last move is said after it. One look at 390 px wide
with a ruin picked (a screenshot kept).

Every wait is on a page state with a deadline, never a fixed sleep.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import Counter
from typing import Any

import pytest

from domain.games import game
from service.commands.application import Viewer
from service.serving import push
from tests.dashboard.conftest import SCREENSHOTS, TIMEOUT_MS
from tests.dashboard.test_browser_play import GAME_DEADLINE_S, Bots, Venue, _base, shows_version

# The served store, a fixture found by its name (re-exported: "as venue").
from tests.dashboard.test_browser_play import venue as venue

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

RUINS = game("ruins")
PHONE = {"width": 390, "height": 844}
NAME = "test_a_person_plays_a_whole_ruins_game_on_the_table"  # (its screenshots' names)
REFRESH_REACHES_S = 2.0  # (a refresh pressed at once reaches the server in milliseconds, even on a busy machine)


def open_touch_seat(browser: Any, venue: Venue, game_id: str, token: str) -> tuple[Any, Any, list[str]]:
    """A phone-like browser (touch, 390 px wide) on the seat link, then *Play*."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, base_url=venue.base_url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/replay/{game_id}?token={token}")
    page.click("#replay-play-link")
    expect(page.locator("#play-root")).to_have_attribute("data-followed", "yes")
    expect(page.locator("#play-now")).to_be_visible()
    return context, page, errors


def pick_on_table(page: Any, ruin: int, how: str, tries: int = 3) -> None:
    """Pick one ruin on the table: a tap, or the keyboard (focus, then Enter or Space); none when it is picked
    already (a pick stands when another seat's night flip redraws the table). A pick made while a look at the game
    was on its way is undone when its answer draws the table as it was when sent: picked again, as a person would."""
    chip = page.locator(f'#play-table .pickable[data-pick="{ruin}"]')
    for left in reversed(range(tries)):
        if chip.get_attribute("aria-pressed") == "true":
            return
        if how == "tap":
            chip.tap()
        else:
            chip.focus()
            page.keyboard.press("Enter" if how == "enter" else " ")
        try:
            expect(chip).to_have_attribute("aria-pressed", "true", timeout=5000)
        except AssertionError:
            if not left:
                raise


UNPICK = "([sel, p]) => { const el = document.querySelector(`${sel}[data-pick='${p}']`); if (el) el.click(); }"
UNPICKED = "([sel, p]) => !document.querySelector(`${sel}[data-pick='${p}']`)"


def pick_only(page: Any, ruins: list[int], how: str) -> None:
    """Pick just ``ruins`` on the table: a ruin still picked from before that this move does not use (a pick that
    stood when another seat's flip landed, then a different choice) is tapped off first, as a person would. A chip
    may leave the table meanwhile (the page drawing the move just made): then it is no longer picked either."""
    wanted, pressed = {str(r) for r in ruins}, '#play-table .pickable[aria-pressed="true"]'
    while stale := [
        p for p in page.locator(pressed).evaluate_all("els => els.map(e => e.dataset.pick)") if p not in wanted
    ]:
        page.evaluate(UNPICK, [pressed, stale[0]])
        page.wait_for_function(UNPICKED, arg=[pressed, stale[0]])
    for ruin in ruins:
        pick_on_table(page, ruin, how)


def choose_under_table(page: Any, action: dict[str, Any]) -> bool:
    """Press the button under the table for ``action`` once the pick offers it, and see the preview name it; False
    if a redraw (the game moved on) took the pick away first: a look at the game sent just before the pick was made
    and answered just after it draws the table as it was when sent (a ruin picked in that moment is picked again)."""
    wanted = json.dumps(action, sort_keys=True, separators=(",", ":"))
    try:
        page.wait_for_function(
            "w => Array.from(document.querySelectorAll('#play-choices [data-option]'))"
            ".some(b => b.getAttribute('data-option') === w)",
            arg=wanted,
            timeout=5000,
        )
    except Exception:
        return False
    page.evaluate(
        "w => Array.from(document.querySelectorAll('#play-choices [data-option]'))"
        ".find(b => b.getAttribute('data-option') === w).click()",
        wanted,
    )
    try:
        expect(page.locator("#play-preview")).to_contain_text("This pick makes: ", timeout=5000)
    except AssertionError:
        return False
    return True


def test_a_person_plays_a_whole_ruins_game_on_the_table(browser: Any, venue: Venue) -> None:
    players = [venue.service.create_player(n) for n in ("Tab Ann", "Bot Bo")]
    made = venue.service.create_game("ruins", players, seed="table-picks")
    game_id, token = made["id"], made["tokens"][0]["token"]
    service, rng, chooser = venue.service, random.Random("table"), RUINS.bots.make("heuristic")
    context, page, errors = open_touch_seat(browser, venue, game_id, token)
    ways = ("tap", "enter", "space")
    said, picks, started, looked, tabbed = 0, 0, time.monotonic(), False, False
    names = [p["name"] for p in service.game(game_id)["players"]]
    try:
        with Bots(service, game_id, (1,)) as bots:
            while service.game(game_id)["status"] != "over":
                assert time.monotonic() - started < GAME_DEADLINE_S, f"the game did not finish ({picks} picks)"
                assert not bots.errors, bots.errors
                now = service.game(game_id)
                if 0 not in now["to_act"]:
                    push.updates(service, game_id, Viewer(1), now["version"], 5.0)
                    continue
                shows_version(page, now["version"], turn=True)
                seen = service.game(game_id, Viewer(0))
                if seen["version"] != now["version"]:
                    continue
                legal = [RUINS.rules.action_from_dict(a) for a in seen["legal_actions"]]
                action = _base(RUINS.rules.action_to_dict(chooser.choose(seen["view"], legal, rng)))
                ruins = action.get("ruins") or ([action["ruin"]] if action.get("ruin") is not None else [])
                # The pickable ruins are the hand's, each reachable by Tab (a button in the page's order).
                if ruins:
                    expect(page.locator("#play-table .hand .pickable[tabindex='0']").first).to_be_visible()
                chips = page.locator("#play-table .hand .pickable")
                if not tabbed and ruins and chips.count() > 1:
                    # Tab goes from one pickable ruin to the next, and the focus is seen (a solid ring).
                    chips.nth(0).focus()
                    page.keyboard.press("Tab")
                    focused = page.evaluate(
                        "() => { const a = document.activeElement; return [a.classList.contains('pickable'), "
                        "a.getAttribute('data-pick'), getComputedStyle(a).outlineStyle]; }"
                    )
                    assert focused == [True, chips.nth(1).get_attribute("data-pick"), "solid"], focused
                    tabbed = True
                pick_only(page, [int(r) for r in ruins], ways[picks % len(ways)])
                picks += len(ruins)
                if ruins and not looked:  # one look at a phone's width with a ruin picked
                    page.locator("#play-bar").scroll_into_view_if_needed()
                    page.screenshot(path=str(SCREENSHOTS / f"{NAME}-390.png"))
                    width = page.evaluate("() => document.getElementById('play-send').getBoundingClientRect().right")
                    assert width <= PHONE["width"], "the send button fits a 390 px screen"
                    looked = True
                if not choose_under_table(page, action):
                    continue  # the game moved on under the pick (a click while the page was asking): look again
                expect(page.locator("#play-send")).to_be_enabled()
                page.locator("#play-send").tap()
                # The move lands (or the bot's simultaneous one does first and this one is stale): the page shows
                # the next version, and once it is the seat's own, says what changed.
                shows_version(page, seen["version"] + 1)
                message = page.inner_text("#play-message")
                assert message in ("", "Played.") or message.startswith("The game moved on"), message
                if message == "Played.":
                    expect(page.locator("#play-changed")).to_contain_text("Last move (")
                    said += 1
        final = service.game(game_id)
        assert final["status"] == "over" and final["result"] is not None
        # The form beside the table was never used: every one of this seat's moves came from the table.
        mine = [r for r in service.log(game_id, after=1) if r["type"] == "move" and r["body"].get("seat") == 0]
        assert len(mine) >= 10 and picks >= 10 and said >= 1 and looked and tabbed
        shows_version(page, final["version"] - 1)
        expect(page.locator("#play-status")).to_contain_text("over")
        expect(page.locator("#play-bar")).to_be_hidden()  # nothing to pick or send once the game is over
        assert names[0] in page.inner_text("#play-root")
        page.screenshot(path=str(SCREENSHOTS / f"{NAME}.png"))
        assert not errors, errors
    finally:
        context.close()


def test_a_move_sent_from_the_table_is_said_played_when_the_push_channel_tells_of_it_first(
    browser: Any, venue: Venue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The send's answer draws the table and says "Played."; the page's waiting request learns of the same move
    and must not press refresh over that answer (Dash drops an answer when its callback is called again). Made
    certain here: the server answers the send only once the waiting request has been told of the move and a
    refresh, had the page pressed one, has reached the server (on a busy machine that order is common; the
    whole-game test above then saw "Played." for 9 of its 47 moves)."""
    from dashboard.data import Data

    players = [venue.service.create_player(n) for n in ("Quick Qi", "Slow Sol")]
    made = venue.service.create_game("ruins", players, seed="told-first")
    game_id, token = made["id"], made["tokens"][0]["token"]
    told, landed, holding, redrawn = threading.Event(), threading.Event(), threading.Event(), threading.Event()
    play, wait_for_move, table_now = Data.play, Data.wait_for_move, Data.table_now

    def play_told_first(self: Any, *args: Any) -> Any:
        acknowledged = play(self, *args)
        landed.set()
        assert told.wait(TIMEOUT_MS / 1000), "the page's waiting request was not told of the move"
        holding.set()
        redrawn.wait(REFRESH_REACHES_S)  # (a refresh pressed over the answer: none comes when the page waits)
        holding.clear()
        return acknowledged

    def waiting(self: Any, visitor: Any, asked: str, after: int, wait: float) -> dict[str, Any]:
        found = wait_for_move(self, visitor, asked, after, wait)
        if landed.is_set() and found["version"] > after:
            told.set()
        return found

    def drawing(self: Any, *args: Any) -> Any:
        if holding.is_set():  # (a draw asked for while the send's answer is held: a refresh)
            redrawn.set()
        return table_now(self, *args)

    monkeypatch.setattr(Data, "play", play_told_first)
    monkeypatch.setattr(Data, "wait_for_move", waiting)
    monkeypatch.setattr(Data, "table_now", drawing)
    service = venue.service
    while 0 not in service.game(game_id)["to_act"]:  # (the person's seat moves first on a table where it acts)
        now = service.game(game_id, Viewer(1))
        service.submit(game_id, Viewer(1), now["version"], now["legal_actions"][0])
    context, page, errors = open_touch_seat(browser, venue, game_id, token)
    try:
        seen = service.game(game_id, Viewer(0))
        shows_version(page, seen["version"], turn=True)
        action = next(a for a in seen["legal_actions"] if a.get("ruins") or a.get("ruin") is not None)
        ruins = action.get("ruins") or [action["ruin"]]
        pick_only(page, [int(r) for r in ruins], "tap")
        assert choose_under_table(page, action)
        page.locator("#play-send").tap()
        expect(page.locator("#play-message")).to_have_text("Played.")
        assert told.is_set() and not redrawn.is_set()  # (the race happened; the page did not refresh over it)
        assert int(page.get_attribute("#play-now", "data-version")) == seen["version"] + 1
        expect(page.locator("#play-changed")).to_contain_text("Last move (")
        assert not errors, errors
    finally:
        context.close()


WIDE = {"width": 1280, "height": 900}
PHONE_MOVES = range(12, 40)  # the moves of the Arnak game made at a phone's width (the rest at 1280 px)


def open_arnak_seat(browser: Any, venue: Venue, game_id: str, token: str) -> tuple[Any, Any, list[str]]:
    """A touch screen 1280 px wide on the seat link, then *Play* (the test narrows it to 390 px for a while)."""
    context = browser.new_context(viewport=WIDE, has_touch=True, base_url=venue.base_url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/replay/{game_id}?token={token}")
    page.click("#replay-play-link")
    expect(page.locator("#play-root")).to_have_attribute("data-followed", "yes")
    expect(page.locator("#play-now")).to_be_visible()
    return context, page, errors


def picks_for(choice: Any) -> list[str]:
    """What a person picks on the table for ``choice``: the thing it is made at, then the cards it is paid with
    (nothing for a move with no mark, offered under the table as it is)."""
    if not choice.marks:
        return []
    paid = [f"card:{c}" for c in (choice.action.get("payment") or {}).get("cards") or []]
    return [choice.marks[0], *paid]


def offered_now(page: Any) -> list[str]:
    return page.locator("#play-choices [data-option]").evaluate_all("bs => bs.map(b => b.getAttribute('data-option'))")


def test_a_person_plays_a_whole_arnak_game_on_the_table(browser: Any, venue: Venue) -> None:
    """A solo Arnak game against the rival, every move of it made on the table: the thing the move is made at is
    picked (a site's space, a card of the row or the hand, a research space, an assistant, the idols, a
    decision's card...), then the cards paid with, then the move among those the picks allow, under the table;
    ending the turn, passing and a decision's numbered option are offered there with nothing picked. Picks are
    taps, and the keyboard (Enter, Space) for every fifth move; some 28 moves are made 390 px wide. The preview
    says the move before it is sent; after it, the page says what it changed."""
    from dashboard.pages.play import picker_of

    arnak = game("arnak")
    player = venue.service.create_player("Solo Sam")
    made = venue.service.create_game("arnak", [player], seed="table-solo")
    game_id, token = made["id"], made["tokens"][0]["token"]
    service, rng, chooser = venue.service, random.Random("arnak-table"), arnak.bots.make("heuristic")
    context, page, errors = open_arnak_seat(browser, venue, game_id, token)
    moves, keyed, tapped, kinds, picked_counts, started = 0, 0, 0, Counter(), Counter(), time.monotonic()
    shots: set[int] = set()
    try:
        while service.game(game_id)["status"] != "over":
            assert time.monotonic() - started < GAME_DEADLINE_S, f"the game did not finish ({moves} moves)"
            page.set_viewport_size(PHONE if moves in PHONE_MOVES else WIDE)
            seen = service.game(game_id, Viewer(0))
            shows_version(page, seen["version"], turn=True)
            offered = picker_of("arnak")(seen["view"], seen["legal_actions"], 0)
            legal = [arnak.rules.action_from_dict(a) for a in seen["legal_actions"]]
            action = arnak.rules.action_to_dict(chooser.choose(seen["view"], legal, rng))
            # Half the time a kind of move not made yet (passing aside: it ends the round), so the game shows more
            # kinds than the bot's favourites.
            new = [c for c in offered.choices if c.action["type"] not in kinds and c.action["type"] != "pass"]
            if new and rng.random() < 0.5:
                action = dict(rng.choice(new).action)
            (choice,) = [c for c in offered.choices if action in (dict(c.action), *map(dict, c.alike))]
            keyboard = moves % 5 == 0
            picks = picks_for(choice)
            for mark in picks:
                chip = page.locator(f'#play-table .pickable[data-pick="{mark}"]').first
                expect(chip).to_have_attribute("aria-pressed", "false")
                if keyboard:
                    chip.focus()
                    page.keyboard.press("Enter" if len(picks) == 1 else " ")
                else:
                    chip.tap()
                expect(chip).to_have_attribute("aria-pressed", "true")
            if picks:
                # Exactly the moves made at the first thing picked (and with every card picked) are offered.
                made_with = sorted(
                    c.value()
                    for c in offered.choices
                    if c.marks and c.marks[0] == picks[0] and set(picks) <= set(c.marks)
                )
                page.wait_for_function(
                    "n => document.querySelectorAll('#play-choices [data-option]').length === n", arg=len(made_with)
                )
                assert sorted(offered_now(page)) == made_with
                # What the pick allows is said at once (unless a move is chosen already: the form's only option).
                allows = f"Your pick allows {len(made_with)} move{'s' if len(made_with) != 1 else ''}: choose below."
                page.wait_for_function(
                    "h => { const hint = document.getElementById('play-hint').textContent;"
                    " const said = document.getElementById('play-preview').textContent;"
                    " return hint === h || (hint === '' && said.startsWith('This pick makes: ')); }",
                    arg=allows,
                )
                if not page.inner_text("#play-preview"):  # no move chosen yet: nothing to send
                    expect(page.locator("#play-send")).to_be_disabled()
            else:  # a move with nothing to pick is offered under the table as it is
                page.wait_for_function(
                    "v => Array.from(document.querySelectorAll('#play-choices [data-option]'))"
                    ".some(b => b.getAttribute('data-option') === v)",
                    arg=choice.value(),
                )
            if moves in (30, 60) and moves not in shots:  # a look mid-game (kept in the screenshots, not committed)
                shots.add(moves)
                page.screenshot(path=str(SCREENSHOTS / f"arnak-table-{moves}-{page.viewport_size['width']}.png"))
            button = page.locator(f"#play-choices [data-option='{choice.value()}']")
            if keyboard:
                button.focus()
                page.keyboard.press("Enter")
            else:
                button.tap()
            expect(page.locator("#play-preview")).to_have_text(f"This pick makes: {choice.label}")
            send = page.locator("#play-send")
            expect(send).to_be_enabled()
            if keyboard:
                send.focus()
                page.keyboard.press("Enter")
                keyed += 1
            else:
                send.tap()
                tapped += 1
            shows_version(page, seen["version"] + 1)
            landed = service.log(game_id, Viewer(0), after=seen["version"])[0]
            assert landed["type"] == "move" and landed["body"]["action"] in (dict(choice.action), action), landed
            # What the move changed is said on the page, as the log tells it for this seat.
            expect(page.locator("#play-changed")).to_contain_text(f"Last move ({seen['version']}), Solo Sam: ")
            kinds[choice.action["type"]] += 1
            picked_counts[len(picks)] += 1
            moves += 1
        final = service.game(game_id)
        assert final["status"] == "over" and final["result"] is not None
        shows_version(page, final["version"])
        expect(page.locator("#play-status")).to_contain_text("over")
        expect(page.locator("#play-bar")).to_be_hidden()
        # Every one of the seat's moves came from the table (the form's button was never pressed), by both means.
        mine = [r for r in service.log(game_id, after=1) if r["type"] == "move" and r["body"].get("seat") == 0]
        assert len(mine) == moves and keyed >= 5 and tapped >= 5, (len(mine), moves, keyed, tapped)
        made_at = {"dig", "discover", "overcome", "buy", "play", "research", "use_assistant", "use_boon", "place_idol"}
        assert made_at | {"choose", "end_turn", "pass"} <= set(kinds), kinds
        took = time.monotonic() - started
        print(f"\narnak on the table: {moves} moves in {took:.0f} s; {dict(kinds)}; picks {dict(picked_counts)}")
        page.screenshot(path=str(SCREENSHOTS / "test_a_person_plays_a_whole_arnak_game_on_the_table.png"))
        assert not errors, errors
    finally:
        context.close()


def test_a_play_is_crafted_on_the_table(browser: Any, venue: Venue) -> None:
    """Ruins' crafting on the table: the ruins are picked in the hand, the play among the moves under the table;
    the market's discoveries that play may buy become pickable, a tap on one offers the crafted forms that buy it
    (onto which ruin), and the form chosen is said before it is sent, recorded as crafted, and said after."""
    from service.reading.crafting import crafted

    players = [venue.service.create_player(n) for n in ("Craft Cleo", "Bot Dov")]
    made = venue.service.create_game("ruins", players, seed="table-craft")
    game_id, token = made["id"], made["tokens"][0]["token"]
    service, rng = venue.service, random.Random("craft")
    found = None
    for _ in range(300):  # moves made through the service until the first seat may buy with a play
        now = service.game(game_id)
        assert now["status"] == "playing", "no play with a purchase came up"
        seat = now["to_act"][0]
        seen = service.game(game_id, Viewer(seat))
        if seat == 0:
            plays = [a for a in seen["legal_actions"] if a["type"] == "play"]
            for play in plays:
                forms = crafted(service, game_id, Viewer(0), seen["version"], play)
                bought = [f for f in forms if f.get("purchases") and not f.get("claims") and len(f["purchases"]) == 1]
                if bought:
                    found = (play, bought[0])
                    break
            if found:
                break
        service.submit(game_id, Viewer(seat), seen["version"], rng.choice(seen["legal_actions"]))
    assert found is not None
    play, form = found
    discovery = form["purchases"][0]["discovery"]
    context, page, errors = open_touch_seat(browser, venue, game_id, token)
    try:
        shows_version(page, seen["version"], turn=True)
        market = page.locator(f'#play-table [data-pick="discovery:{discovery}"]')
        expect(market).not_to_have_class(re.compile(r"\bpickable\b"))  # nothing to craft before a play is chosen
        for i, ruin in enumerate(play["ruins"]):
            pick_on_table(page, int(ruin), ("tap", "enter")[i % 2])
        assert choose_under_table(page, play)
        expect(page.locator("#play-preview")).to_contain_text("This pick makes: Play")
        # The play's crafting arrives: the discovery it may buy is pickable on the table now; a tap offers the
        # crafted forms that buy it, each a move under the table.
        expect(market).to_have_class(re.compile(r"\bpickable\b"))
        market.tap()
        expect(market).to_have_attribute("aria-pressed", "true")
        page.wait_for_function("() => document.querySelectorAll('#play-choices [data-craft]').length > 0")
        forms = page.locator("#play-choices [data-craft]").evaluate_all(
            "bs => bs.map(b => JSON.parse(b.getAttribute('data-option')))"
        )
        buying = [f for f in forms if discovery in [p["discovery"] for p in f.get("purchases") or []]]
        assert form in forms and buying == forms, forms
        wanted = json.dumps(form, sort_keys=True, separators=(",", ":"))
        page.locator(f"#play-choices [data-option='{wanted}']").tap()
        expect(page.locator("#play-preview")).to_contain_text("buy ")
        expect(page.locator("#play-preview")).to_contain_text(f"onto #{form['purchases'][0]['ruin']}")
        page.locator("#play-send").tap()
        shows_version(page, seen["version"] + 1)
        landed = service.log(game_id, Viewer(0), after=seen["version"])[0]
        assert landed["body"]["action"] == form, landed
        expect(page.locator("#play-changed")).to_contain_text(f"Last move ({seen['version']}), Craft Cleo: ")
        page.screenshot(path=str(SCREENSHOTS / "test_a_play_is_crafted_on_the_table.png"))
        assert not errors, errors
    finally:
        context.close()
