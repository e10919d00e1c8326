"""Every site tile, idol, guardian boon, assistant (both sides) and research bonus tile does what its text says.

The texts are the reference's (shared/reference/arnak.md A4-A8 and its second pass), kept beside each component in
``data/components.json``; each test checks the quoted text is the component's, runs its effect for seat 0 (answering
any question with the option named) and checks the outcome.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.arnak import events as ev
from domain.arnak.actions import Choose, UseAssistant, UseBoon
from domain.arnak.components import Resources
from domain.arnak.effects import Turn, resolve, run_text
from domain.arnak.state import GameState, HeldAssistant
from tests.domain.arnak.helpers import BOOK, act, game, res, with_player

FEAR = BOOK.fear_ids[-1]
HAND, DECK = (1, 2), (3, 4, FEAR)


def position(resources: Resources | None = None, **player: Any) -> GameState:
    return with_player(game(4, "components"), 0, hand=HAND, deck=DECK, resources=resources or res(), **player)


def effect(text: str, state: GameState, *choices: str) -> tuple[GameState, list[ev.Event]]:
    t = Turn(state)
    run_text(t, 0, text)
    for option in choices:
        assert t.state.pending is not None, f"no decision left for {option!r}"
        resolve(t, option)
    assert t.state.pending is None, f"undecided: {t.state.pending}"
    return t.state, t.events


def delta(before: GameState, after: GameState) -> Resources:
    a, b, c, d, e = (y - x for x, y in zip(before.seats[0].resources, after.seats[0].resources, strict=True))
    return (a, b, c, d, e)


SITE_TILES = [
    # id, text, choices, resources gained, cards drawn, fear cards
    (1, "1 coin + 2 tablets", (), res(coin=1, tablet=2), 0, 0),
    (2, "draw 1 + 1 arrowhead", (), res(arrowhead=1), 1, 0),
    (3, "1 compass + 1 arrowhead", (), res(compass=1, arrowhead=1), 0, 0),
    (4, "2 compasses, or give them back and take an item from the row for free", ("0",), res(compass=2), 0, 0),
    (5, "1 coin + 1 arrowhead", (), res(coin=1, arrowhead=1), 0, 0),
    (6, "1 jewel", (), res(jewel=1), 0, 0),
    (7, "draw 1 + 1 coin + 1 tablet", (), res(coin=1, tablet=1), 1, 0),
    (8, "1 tablet + 1 arrowhead", (), res(tablet=1, arrowhead=1), 0, 0),
    (9, "Fear + 1 compass + 1 jewel", (), res(compass=1, jewel=1), 0, 1),
    (10, "Fear + 1 tablet + 1 jewel", (), res(tablet=1, jewel=1), 0, 1),
    (11, "Fear + 2 tablets + 2 arrowheads", (), res(tablet=2, arrowhead=2), 0, 1),
    (12, "2 compasses + 1 jewel", (), res(compass=2, jewel=1), 0, 0),
    (13, "2 tablets + 1 jewel", (), res(tablet=2, jewel=1), 0, 0),
    (14, "1 arrowhead + 1 jewel", (), res(arrowhead=1, jewel=1), 0, 0),
    (15, "draw 1 + 1 tablet + 1 jewel", (), res(tablet=1, jewel=1), 1, 0),
    (16, "1 coin + 1 compass + 1 tablet + 1 arrowhead", (), res(coin=1, compass=1, tablet=1, arrowhead=1), 0, 0),
]


@pytest.mark.parametrize(
    ("tile", "text", "choices", "gained", "drawn", "fear"), SITE_TILES, ids=[str(s[0]) for s in SITE_TILES]
)
def test_every_site_tile(
    tile: int, text: str, choices: tuple[str, ...], gained: Resources, drawn: int, fear: int
) -> None:
    assert BOOK.site_tiles[tile].text == text and BOOK.site_tiles[tile].level == (1 if tile <= 10 else 2)
    state = position()
    after, events = effect(BOOK.site_tiles[tile].effect, state, *choices)
    assert delta(state, after) == gained
    assert after.seats[0].hand == HAND + DECK[:drawn]
    assert sum(isinstance(e, ev.FearGained) for e in events) == fear


def test_the_item_option_of_site_tile_4() -> None:
    """'2 compasses, or give them back and take an item from the row for free' (to the bottom of the deck, design)."""
    state = position()
    item = state.item_row[1]
    after, _ = effect(BOOK.site_tiles[4].effect, state, "1", f"card:{item}")
    assert delta(state, after) == res() and after.seats[0].deck[-1] == item and len(after.item_row) == 5


@pytest.mark.parametrize(
    ("kind", "text", "choices", "gained"),
    [
        ("coin", "Gain 1 coin.", (), res(coin=1)),
        ("compass", "Gain 1 compass.", (), res(compass=1)),
        ("tablet", "Gain 1 tablet.", (), res(tablet=1)),
        ("exile", "You may exile a card.", (f"hand:{HAND[0]}",), res()),
        ("upgrade", "Upgrade a resource.", (), res(tablet=-1, arrowhead=1)),
        ("refresh", "Refresh an assistant.", (), res()),
    ],
)
def test_every_idol(kind: str, text: str, choices: tuple[str, ...], gained: Resources) -> None:
    idols = [i for i in BOOK.idols.values() if i.kind == kind]
    assert idols and all(i.text == text for i in idols)
    state = position(res(tablet=1), assistants=(HeldAssistant(12, exhausted=True),))
    after, _ = effect(idols[0].effect, state, *choices)
    assert delta(state, after) == gained
    if kind == "exile":
        assert HAND[0] in after.removed
    if kind == "refresh":
        assert not after.seats[0].assistants[0].exhausted


BOONS = {"ship": ("ship",), "car": ("car",), "plane": ("plane",)}


@pytest.mark.parametrize("guardian", sorted(BOOK.guardians))
def test_every_guardians_boon_usable_once(guardian: int) -> None:
    """Each guardian's text: 'Cost: ... Boon: ...' (reference second pass 8); the boon is used once, then flipped."""
    g = BOOK.guardians[guardian]
    boon = g.text.split("Boon: ")[1].rstrip(".")
    state = position(res(tablet=1), guardians=(guardian,))
    after, _ = act(state, UseBoon(0, guardian))
    if boon in BOONS:
        assert after.seats[0].travel == BOONS[boon]
    elif boon == "exile a card":
        assert after.pending is not None and after.pending.kind == "exile" and "skip" in after.pending.options
    elif boon == "draw a card":
        assert after.seats[0].hand == (*HAND, DECK[0])
    else:
        assert boon == "upgrade a resource" and delta(state, after) == res(tablet=-1, arrowhead=1)
    assert after.seats[0].boons_used == (guardian,)


def test_guardian_costs_as_the_reference_lists_them() -> None:
    """Second pass 8: e.g. '#8 4 coins', '#12 boot + jewel', '#13 3 tablets', '#2 discard + coin + arrowhead'."""
    assert BOOK.guardians[8].text == "Cost: 4 coin. Boon: upgrade a resource."
    assert (BOOK.guardians[12].cost, BOOK.guardians[12].travel) == (res(jewel=1), ("boot",))
    assert BOOK.guardians[13].cost == res(tablet=3)
    assert (BOOK.guardians[2].cost, BOOK.guardians[2].discards) == (res(coin=1, arrowhead=1), 1)


ASSISTANTS = [
    # id, gold, text, resources before, choices, resources gained (net), travel gained, change of hand size
    (1, False, "Gain 1 tablet.", res(), (), res(tablet=1), (), 0),
    (1, True, "Gain 1 coin and 1 tablet.", res(), (), res(coin=1, tablet=1), (), 0),
    (2, False, "Spend 1 boot of travel: gain 1 arrowhead.", res(), (f"card:{HAND[0]}",), res(arrowhead=1), (), -1),
    (2, True, "Gain 1 arrowhead.", res(), (), res(arrowhead=1), (), 0),
    (3, False, "Pay 1 coin: gain 1 arrowhead.", res(coin=1), (), res(coin=-1, arrowhead=1), (), 0),
    (3, True, "Pay 1 coin: gain 1 arrowhead or 1 jewel.", res(coin=1), ("1",), res(coin=-1, jewel=1), (), 0),
    (4, False, "Exile a card.", res(), (f"hand:{HAND[0]}",), res(), (), -1),
    (4, True, "Gain 1 compass, then exile a card.", res(), ("skip",), res(compass=1), (), 0),
    (5, False, "Draw 1 card, then discard 1 card.", res(), (f"card:{HAND[0]}",), res(), (), 0),
    (5, True, "Draw 1 card.", res(), (), res(), (), 1),
    (6, False, "Gain 1 coin or 1 plane.", res(), ("1",), res(), ("plane",), 0),
    (6, True, "Gain 2 coins or 2 planes.", res(), ("0",), res(coin=2), (), 0),
    (7, False, "Gain 1 compass or 1 car.", res(), ("1",), res(), ("car",), 0),
    (7, True, "Gain 1 coin and 1 compass, or 2 cars.", res(), ("0",), res(coin=1, compass=1), (), 0),
    (8, False, "Gain 1 compass or 1 ship.", res(), ("0",), res(compass=1), (), 0),
    (8, True, "Gain 1 coin and 1 compass, or 2 ships.", res(), ("1",), res(), ("ship", "ship"), 0),
    (10, False, "Upgrade a resource.", res(arrowhead=1), (), res(arrowhead=-1, jewel=1), (), 0),
    (
        10,
        True,
        "Gain 1 compass, then upgrade a resource.",
        res(tablet=1),
        (),
        res(compass=1, tablet=-1, arrowhead=1),
        (),
        0,
    ),
    (11, False, "Gain 1 compass.", res(), (), res(compass=1), (), 0),
    (11, True, "Gain 2 compasses.", res(), (), res(compass=2), (), 0),
    (12, False, "Gain 2 coins.", res(), (), res(coin=2), (), 0),
    (12, True, "Gain 3 coins.", res(), (), res(coin=3), (), 0),
]


@pytest.mark.parametrize(
    ("assistant", "gold", "text", "before", "choices", "gained", "travel", "hand_change"),
    ASSISTANTS,
    ids=[f"{a[0]}-{'gold' if a[1] else 'silver'}" for a in ASSISTANTS],
)
def test_every_assistant_side(
    assistant: int,
    gold: bool,
    text: str,
    before: Resources,
    choices: tuple[str, ...],
    gained: Resources,
    travel: tuple[str, ...],
    hand_change: int,
) -> None:
    assert BOOK.assistants[assistant].text[1 if gold else 0] == text
    state = position(before, assistants=(HeldAssistant(assistant, gold=gold),))
    after, _ = act(state, UseAssistant(0, assistant))
    for option in choices:
        after, _ = act(after, Choose(0, option))
    assert after.pending is None
    assert delta(state, after) == gained and after.seats[0].travel == travel
    assert len(after.seats[0].hand) == len(HAND) + hand_change
    assert after.seats[0].assistants[0].exhausted and not after.main_done, "a free action that exhausts it"


def test_the_market_assistant_buys_with_a_discount_as_a_main_action() -> None:
    """Assistant 9: 'Main action: buy an item or an artifact with a discount of 1.' / '... of 2.'"""
    assert BOOK.assistants[9].text == (
        "Main action: buy an item or an artifact with a discount of 1.",
        "Main action: buy an item or an artifact with a discount of 2.",
    )
    state = position(res(coin=3), assistants=(HeldAssistant(9, gold=True),))
    item = next(c for c in state.item_row if BOOK.card(c).cost <= 5)
    after, _ = act(state, UseAssistant(0, 9))
    after, _ = act(after, Choose(0, f"card:{item}"))
    assert after.main_done and after.seats[0].deck[-1] == item
    assert after.seats[0].resources[0] == 3 - max(0, BOOK.card(item).cost - 2)


@pytest.mark.parametrize(
    ("kind", "text", "choices", "gained", "drawn"),
    [
        ("compass", "1 compass", (), res(compass=1), 0),
        ("coin", "1 coin", (), res(coin=1), 0),
        ("tablet", "1 tablet", (), res(tablet=1), 0),
        ("draw", "draw 1 card", (), res(), 1),
        ("exile", "exile a card (optional)", ("skip",), res(), 0),
        ("upgrade", "upgrade a resource", (), res(tablet=-1, arrowhead=1), 0),
    ],
)
def test_every_research_bonus_tile(
    kind: str, text: str, choices: tuple[str, ...], gained: Resources, drawn: int
) -> None:
    tiles = [t for t in BOOK.bonus_tiles.values() if t.kind == kind]
    assert len(tiles) == 3 and all(t.text == text for t in tiles)
    state = position(res(tablet=1))
    after, _ = effect(tiles[0].effect, state, *choices)
    assert delta(state, after) == gained and after.seats[0].hand == HAND + DECK[:drawn]


@pytest.mark.parametrize(
    ("option", "text", "before", "gained", "drawn"),
    [
        ("jewel", "Pay 1 coin: gain 1 jewel.", res(coin=1), res(coin=-1, jewel=1), 0),
        ("arrowhead", "Gain 1 arrowhead.", res(), res(arrowhead=1), 0),
        ("tablets", "Gain 2 tablets.", res(), res(tablet=2), 0),
        ("coin_compass", "Gain 1 coin and 1 compass.", res(), res(coin=1, compass=1), 0),
        ("draw", "Draw 1 card.", res(), res(), 1),
    ],
)
def test_every_idol_slot_effect(option: str, text: str, before: Resources, gained: Resources, drawn: int) -> None:
    """The five effects printed by the idol slots (reference second pass 7)."""
    from domain.arnak.actions import PlaceIdol

    assert BOOK.idol_slot_options[option].text == text
    state = position(before, idols=(1,))
    after, _ = act(state, PlaceIdol(0, option))
    assert delta(state, after) == gained and after.seats[0].hand == HAND + DECK[:drawn]
    assert after.seats[0].slots == (1,)


@pytest.mark.parametrize("stack", range(6))
def test_every_temple_tile_stack(stack: int) -> None:
    """Reference A7: 2-point stacks A (1 coin + 2 tablets), B (1 jewel), C (1 compass + 1 arrowhead); 6 points for
    A + B and B + C; 11 points for A + B + C."""
    from domain.arnak.actions import TempleTile
    from domain.arnak.scoring import score

    a, b, c = res(coin=1, tablet=2), res(jewel=1), res(compass=1, arrowhead=1)
    costs = [a, b, c, plus(a, b), plus(b, c), plus(plus(a, b), c)]
    assert BOOK.temple_stacks[stack].cost == costs[stack]
    assert BOOK.temple_stacks[stack].vp == (2, 2, 2, 6, 6, 11)[stack]
    state = position(costs[stack], glass="temple", temple_place=0)
    after, _ = act(state, TempleTile(0, stack))
    assert after.seats[0].resources == res() and score(after, 0).temple_tiles == BOOK.temple_stacks[stack].vp


def plus(a: Resources, b: Resources) -> Resources:
    v, w, x, y, z = (i + j for i, j in zip(a, b, strict=True))
    return (v, w, x, y, z)


ROWS = [
    # side, row, glass effect, notebook effect (reference A7), as the outcome of running each
    ("bird", 0, "+1 coin", "take a silver assistant"),
    ("bird", 1, "+1 compass", "take a silver assistant"),
    ("bird", 2, "+1 compass", "upgrade an assistant to gold"),
    ("bird", 3, "+1 compass", "upgrade an assistant to gold"),
    ("bird", 4, "+1 compass", "+3 compasses"),
    ("bird", 5, "draw 1 card", "gain an artifact from the row free (resolve it)"),
    ("bird", 6, "+1 compass", "overcome a guardian for free"),
    ("snake", 0, "+1 coin", "take a silver assistant"),
    ("snake", 1, "+3 coins", "exile a card"),
    ("snake", 2, "draw 1", "upgrade an assistant to gold"),
    ("snake", 3, "rescue 1 assistant", "upgrade an assistant to gold"),
    ("snake", 4, "upgrade an assistant to gold and refresh it", "refresh an assistant"),
    ("snake", 5, "gain a Fear card", "draw 1"),
    ("snake", 6, "gain a Fear card", "+1 jewel"),
]


@pytest.mark.parametrize(("side", "row", "glass", "notebook"), ROWS, ids=[f"{r[0]}-{r[1]}" for r in ROWS])
def test_every_research_row_effect(side: str, row: int, glass: str, notebook: str) -> None:
    """Reference A7: each row's effect for the magnifying glass and for the notebook."""
    from domain.arnak.effects import Turn, resolve, run_text

    track = BOOK.boards[side].track
    base = game(4, "rows")
    site = base.site("L1-1")
    assert site is not None
    base = replace(base.with_site(replace(site, tile=1, idols=(), guardian=4)), occupants=(("L1-1", 0),))
    base = replace(base, side=side, rescue=(9,) if side == "snake" else ())
    base = with_player(
        base, 0, hand=HAND, deck=DECK, resources=res(tablet=1), assistants=(HeldAssistant(12, exhausted=True),)
    )
    for token, text, effect in (("glass", glass, track.effects[row][0]), ("notebook", notebook, track.effects[row][1])):
        t = Turn(base)
        run_text(t, 0, effect)
        while t.state.pending is not None:
            options = [o for o in t.state.pending.options if o != "skip"]
            resolve(t, options[0])
        after, p = t.state, t.state.seats[0]
        gained = delta(base, after)
        if text.startswith("+"):
            amount, what = text[1:].split(" ", 1)
            name = {"coin": "coin", "coins": "coin", "compass": "compass", "compasses": "compass", "jewel": "jewel"}[
                what
            ]
            assert gained == res(**{name: int(amount)}), (token, text)
        elif text.startswith("draw 1"):
            assert p.hand == (*HAND, DECK[0]), (token, text)
        elif text == "take a silver assistant":
            assert len(p.assistants) == 2 and not p.assistants[1].gold, (token, text)
        elif text.startswith("upgrade an assistant to gold"):
            assert p.assistants == (HeldAssistant(12, gold=True, exhausted=False),), (token, text)
        elif text == "refresh an assistant":
            assert p.assistants == (HeldAssistant(12, gold=False, exhausted=False),), (token, text)
        elif text == "rescue 1 assistant":
            assert p.assistants[-1] == HeldAssistant(9, exhausted=True), (token, text)
        elif text == "gain a Fear card":
            assert any(BOOK.card(c).kind == "fear" for c in p.play_area), (token, text)
        elif text == "exile a card":
            assert len(after.removed) == 1, (token, text)
        elif text.startswith("gain an artifact"):
            assert any(BOOK.card(c).kind == "artifact" for c in p.play_area), (token, text)
        else:
            assert text == "overcome a guardian for free" and p.guardians == (4,), (token, text)
