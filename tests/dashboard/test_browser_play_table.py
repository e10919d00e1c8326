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
import time
from typing import Any

import pytest

from domain.games import game
from service.commands.application import Viewer
from service.serving import push
from tests.dashboard.conftest import SCREENSHOTS, TIMEOUT_MS
from tests.dashboard.test_browser_play import GAME_DEADLINE_S, Bots, Venue, _base, pick, shows_version

# The served store, a fixture found by its name (re-exported: "as venue").
from tests.dashboard.test_browser_play import venue as venue

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

RUINS = game("ruins")
PHONE = {"width": 390, "height": 844}
NAME = "test_a_person_plays_a_whole_ruins_game_on_the_table"  # (its screenshots' names)


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


def pick_on_table(page: Any, ruin: int, how: str) -> None:
    """Pick one ruin on the table: a tap, or the keyboard (focus, then Enter or Space)."""
    chip = page.locator(f'#play-table .pickable[data-pick="{ruin}"]')
    expect(chip).to_have_attribute("aria-pressed", "false")
    if how == "tap":
        chip.tap()
    else:
        chip.focus()
        page.keyboard.press("Enter" if how == "enter" else " ")
    expect(chip).to_have_attribute("aria-pressed", "true")


def choose_under_table(page: Any, action: dict[str, Any]) -> bool:
    """Press the button under the table for ``action`` once the pick offers it; False if a redraw (the game moved
    on) took the pick away first."""
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
                for ruin in ruins:
                    pick_on_table(page, int(ruin), ways[picks % len(ways)])
                    picks += 1
                if ruins and not looked:  # one look at a phone's width with a ruin picked
                    page.locator("#play-bar").scroll_into_view_if_needed()
                    page.screenshot(path=str(SCREENSHOTS / f"{NAME}-390.png"))
                    width = page.evaluate("() => document.getElementById('play-send').getBoundingClientRect().right")
                    assert width <= PHONE["width"], "the send button fits a 390 px screen"
                    looked = True
                if not choose_under_table(page, action):
                    continue  # the game moved on under the pick (a simultaneous flip): look again
                expect(page.locator("#play-preview")).to_contain_text("This pick makes: ")
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


ARNAK_MOVES = 16  # browser moves of an Arnak game: enough for several cards bought and played on the table


def test_arnak_cards_are_bought_and_played_on_the_table(browser: Any, venue: Venue) -> None:
    """Arnak's table marks the cards a move is made with (the row's to buy, the hand's to play): picking one
    offers exactly its moves under the table, whatever their kind, and one of them is sent from there. The other
    kinds of move (dig, research, decisions, end of turn) have nothing marked yet: made with the form."""
    from dashboard.pages.play import picker_of

    arnak = game("arnak")
    players = [venue.service.create_player(n) for n in ("Tab Kit", "Bot Lu")]
    made = venue.service.create_game("arnak", players, seed="table-arnak")
    game_id, token = made["id"], made["tokens"][0]["token"]
    service, rng, chooser = venue.service, random.Random("arnak-table"), arnak.bots.make("heuristic")
    context, page, errors = open_touch_seat(browser, venue, game_id, token)
    moves, on_table, started = 0, 0, time.monotonic()
    try:
        with Bots(service, game_id, (1,), kind="arnak") as bots:
            while moves < ARNAK_MOVES and service.game(game_id)["status"] != "over":
                assert time.monotonic() - started < GAME_DEADLINE_S, f"only {moves} moves were made"
                assert not bots.errors, bots.errors
                now = service.game(game_id)
                if 0 not in now["to_act"]:
                    push.updates(service, game_id, Viewer(1), now["version"], 5.0)
                    continue
                shows_version(page, now["version"], turn=True)
                seen = service.game(game_id, Viewer(0))
                offered = picker_of("arnak")(seen["view"], seen["legal_actions"], 0)
                legal = [arnak.rules.action_from_dict(a) for a in seen["legal_actions"]]
                action = arnak.rules.action_to_dict(chooser.choose(seen["view"], legal, rng))
                (choice,) = [c for c in offered.choices if action in (dict(c.action), *map(dict, c.alike))]
                if choice.marks:
                    chip = page.locator(f'#play-table .pickable[data-pick="{choice.marks[0]}"]').first
                    chip.tap()
                    expect(chip).to_have_attribute("aria-pressed", "true")
                    # Exactly the moves made with that card are offered under the table.
                    marked = sorted(c.value() for c in offered.choices if choice.marks[0] in c.marks)
                    page.wait_for_function(
                        "n => document.querySelectorAll('#play-choices [data-option]').length === n", arg=len(marked)
                    )
                    shown = page.locator("#play-choices [data-option]").evaluate_all(
                        "bs => bs.map(b => b.getAttribute('data-option'))"
                    )
                    assert sorted(shown) == marked
                    assert choose_under_table(page, dict(choice.action))
                    expect(page.locator("#play-preview")).to_have_text(f"This pick makes: {choice.label}")
                    page.locator("#play-send").tap()
                    on_table += 1
                else:
                    if len(offered.groups) > 1:
                        page.locator("#play-group input").nth(offered.groups.index(choice.group)).check()
                    pick(page, "#play-option", dict(choice.action))
                    page.click("#play-submit")
                shows_version(page, seen["version"] + 1)
                # The move landed as this seat's (the page's "Played." may already be redrawn by the live channel).
                landed = service.log(game_id, Viewer(0), after=seen["version"])[0]
                assert landed["type"] == "move" and landed["body"]["seat"] == 0, landed
                assert page.inner_text("#play-message") in ("", "Played."), page.inner_text("#play-message")
                moves += 1
        assert on_table >= 3, f"only {on_table} of {moves} moves were made on the table"
        page.screenshot(path=str(SCREENSHOTS / "test_arnak_cards_are_bought_and_played_on_the_table.png"))
        assert not errors, errors
    finally:
        context.close()
