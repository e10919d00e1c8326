"""Every item and artifact (and the starting cards), each with a test that quotes its text from the data.

The texts are the reference's (shared/reference/arnak.md, A3, corrected by its second pass); each test first checks
that the quoted text is the card's text in ``data/cards.json``, then plays the card from seat 0's hand (an
artifact with the 1 tablet its activation costs) and checks what it does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.arnak import events as ev
from domain.arnak.actions import Choose, Dig, Discover, Overcome, Payment, Play
from domain.arnak.components import Resources
from domain.arnak.legal import legal_actions
from domain.arnak.state import GameState, HeldAssistant
from tests.domain.arnak.helpers import BOOK, act, card_named, game, res, with_player

FEAR = BOOK.fear_ids[-1]
DECK = (3, 4, FEAR)  # seat 0's own cards: Exploration (car), Exploration (ship), a fear card
HAND = (1, 2)  # Funding (car), Funding (ship)


def holding(name: str, text: str, resources: Resources | None = None, **player: Any) -> tuple[GameState, int]:
    """Seat 0 holds the card (plus two Fundings, its deck three known cards), in a 4-player game (no blocking)."""
    card = card_named(name)
    assert BOOK.card(card).text == text, BOOK.card(card).text
    r = resources or res()
    if BOOK.card(card).kind == "artifact":
        r = (r[0], r[1], r[2] + BOOK.artifact_play_tablets, r[3], r[4])
    player.setdefault("hand", (card, *HAND))
    player.setdefault("deck", DECK)
    return with_player(game(4, "cards"), 0, resources=r, **player), card


def play(state: GameState, card: int, *choices: str) -> tuple[GameState, list[ev.Event]]:
    state, events = act(state, Play(0, card))
    for option in choices:
        state, more = act(state, Choose(0, option))
        events += more
    return state, events


def delta(before: GameState, after: GameState) -> Resources:
    a, b, c, d, e = (y - x for x, y in zip(before.seats[0].resources, after.seats[0].resources, strict=True))
    return (a, b, c, d, e)


def activation(card: int) -> Resources:
    return res(tablet=-BOOK.artifact_play_tablets) if BOOK.card(card).kind == "artifact" else res()


def plus(a: Resources, b: Resources) -> Resources:
    v, w, x, y, z = (i + j for i, j in zip(a, b, strict=True))
    return (v, w, x, y, z)


SIMPLE = [
    # name, text, resources before, resources gained (net of costs), cards drawn, fear cards, exiles itself
    ("Funding", "Gain 1 coin.", res(), res(coin=1), 0, 0, False),
    ("Exploration", "Gain 1 compass.", res(), res(compass=1), 0, 0, False),
    ("Flask", "Exile this card: draw 3 cards", res(), res(), 3, 0, True),
    ("Horse", "Draw 1 card, gain 1 coin and 1 compass", res(), res(coin=1, compass=1), 1, 0, False),
    ("Carrier Pigeon", "Gain 2 tablets", res(), res(tablet=2), 0, 0, False),
    ("Trowel", "Pay 1 compass: gain 1 jewel", res(compass=1), res(compass=-1, jewel=1), 0, 0, False),
    ("Rough Map", "Exile this card: gain 3 compasses", res(), res(compass=3), 0, 0, True),
    ("Pack Donkey", "Draw 2 cards", res(), res(), 2, 0, False),
    (
        "Pickaxe",
        "Pay 1 compass: gain 1 tablet and 1 arrowhead",
        res(compass=1),
        res(compass=-1, tablet=1, arrowhead=1),
        0,
        0,
        False,
    ),
    ("Automobile", "Gain 2 compasses", res(), res(compass=2), 0, 0, False),
    ("Gold Pan", "Gain 2 coins", res(), res(coin=2), 0, 0, False),
    ("Hat", "Gain 1 coin and 1 compass", res(), res(coin=1, compass=1), 0, 0, False),
    ("Steam Boat", "Gain 2 compasses", res(), res(compass=2), 0, 0, False),
    ("Treasure Chest", "Draw 1 card and gain 1 coin", res(), res(coin=1), 1, 0, False),
    ("Hunting Arrows", "Gain a Fear card and 2 arrowheads", res(), res(arrowhead=2), 0, 1, False),
    ("Runes of the Dead", "Gain a Fear card, 1 coin and 3 tablets", res(), res(coin=1, tablet=3), 0, 1, False),
    ("Serpent's Gold", "Gain a Fear card and 4 coins", res(), res(coin=4), 0, 1, False),
    ("Serpent Idol", "Gain a Fear card and 1 jewel", res(), res(jewel=1), 0, 1, False),
    ("Stone Jar", "Draw 1 card", res(), res(), 1, 0, False),
]


@pytest.mark.parametrize(
    ("name", "text", "before", "gained", "drawn", "fear", "exiled"), SIMPLE, ids=[s[0] for s in SIMPLE]
)
def test_cards_that_gain_draw_or_bring_fear(
    name: str, text: str, before: Resources, gained: Resources, drawn: int, fear: int, exiled: bool
) -> None:
    state, card = holding(name, text, before)
    after, events = play(state, card)
    assert delta(state, after) == plus(gained, activation(card))
    assert after.seats[0].hand == HAND + DECK[:drawn]
    assert sum(isinstance(e, ev.FearGained) for e in events) == fear
    assert (card in after.seats[0].play_area) != exiled and (card in after.item_exile) == exiled
    assert after.main_done != BOOK.card(card).free, "a lightning bolt is free; any other effect is the main action"


def test_large_backpack() -> None:
    state, card = holding("Large Backpack", "Pay 1 coin: draw 1 card from the bottom of your deck", res(coin=1))
    after, _ = play(state, card)
    assert (
        after.seats[0].hand == (*HAND, FEAR) and after.seats[0].deck == (3, 4) and delta(state, after) == res(coin=-1)
    )
    rejected_state, _ = holding("Large Backpack", "Pay 1 coin: draw 1 card from the bottom of your deck")
    assert Play(0, card) not in legal_actions(rejected_state, 0), "the coin must be paid"


@pytest.mark.parametrize(
    ("name", "text", "options"),
    [
        ("Watch", "Choose: gain 2 coins OR pass immediately and gain 3 coins", (res(coin=2), res(coin=3))),
        (
            "Chronometer",
            "Choose: gain 1 coin + 1 compass OR pass immediately and gain 3 compasses",
            (res(coin=1, compass=1), res(compass=3)),
        ),
        ("Sundial", "Choose: gain 2 tablets OR pass immediately and gain 1 jewel", (res(tablet=2), res(jewel=1))),
    ],
)
def test_cards_that_gain_or_pass_immediately_and_gain_more(
    name: str, text: str, options: tuple[Resources, ...]
) -> None:
    state, card = holding(name, text)
    stay, _ = play(state, card, "0")
    assert delta(state, stay) == plus(options[0], activation(card)) and not stay.seats[0].passed
    gone, _ = play(state, card, "1")
    assert delta(state, gone) == plus(options[1], activation(card)) and gone.seats[0].passed
    assert gone.turn == 1, "passing ends the turn at once"


def test_rope_and_parrot_discard_a_card_first() -> None:
    state, rope = holding("Rope", "Discard 1 card from hand: draw 2 cards")
    after, _ = play(state, rope, "card:2")
    assert after.seats[0].hand == (1, 3, 4) and 2 in after.seats[0].play_area
    state, parrot = holding("Parrot", "Discard 1 card: gain 1 jewel")
    after, _ = play(state, parrot, "card:1")
    assert delta(state, after) == res(jewel=1)
    alone, _ = holding("Parrot", "Discard 1 card: gain 1 jewel", hand=(parrot,))
    assert Play(0, parrot) not in legal_actions(alone, 0), "nothing left to discard"


def test_ostrich_sturdy_boots_and_sea_turtle_give_temporary_travel() -> None:
    state, card = holding("Ostrich", "Draw 1 card; gain 1 boot (temporary travel)")
    after, _ = play(state, card)
    assert after.seats[0].travel == ("boot",) and len(after.seats[0].hand) == 3
    state, card = holding("Sturdy Boots", "Gain 1 compass and 2 boots (temporary travel)")
    after, _ = play(state, card)
    assert after.seats[0].travel == ("boot", "boot") and delta(state, after) == res(compass=1)
    state, card = holding("Sea Turtle", "Draw 1 card; gain 1 boat (temporary travel)")
    after, _ = play(state, card)
    assert after.seats[0].travel == ("ship",)
    after = replace(after, main_done=False)
    after, _ = act(after, Dig(0, "camp1a", Payment(travel=("ship",))))
    assert after.seats[0].travel == () and after.occupant("camp1a") == 0, "a held icon pays travel"


def test_airdrop_and_monkey_medallion_gain_an_item_from_the_row() -> None:
    state, card = holding("Airdrop", "Exile this card: gain an item from the card row for free, into your hand")
    item = state.item_row[2]
    after, _ = play(state, card, f"card:{item}")
    assert item in after.seats[0].hand and card in after.item_exile and len(after.item_row) == 5
    state, card = holding("Monkey Medallion", "Gain an item from the card row for free, put it on top of your deck")
    after, _ = play(state, card, f"card:{item}")
    assert after.seats[0].deck[0] == item


def guarded(state: GameState, site_id: str = "L1-1", guardian: int = 8, occupant: int | None = 0) -> GameState:
    site = state.site(site_id)
    assert site is not None
    state = state.with_site(replace(site, tile=1, idols=(), guardian=guardian))
    return replace(state, occupants=() if occupant is None else ((site_id, occupant),))


def test_revolver_war_club_and_bear_trap_overcome_a_guardian_free() -> None:
    state, card = holding(
        "Revolver", "Pay 1 compass: overcome a guardian (at a site you occupy) without paying its cost", res(compass=1)
    )
    after, _ = play(guarded(state), card)
    assert after.seats[0].guardians == (8,) and delta(state, after) == res(compass=-1)
    state, card = holding("War Club", "Overcome a guardian for free (site you occupy)")
    after, _ = play(guarded(state), card)
    assert after.seats[0].guardians == (8,)
    text = (
        "Exile this card: overcome a guardian for free at a site no OTHER player occupies "
        "(your archaeologist need not be there)"
    )
    state, card = holding("Bear Trap", text)
    after, _ = play(guarded(state, occupant=None), card)
    assert after.seats[0].guardians == (8,) and card in after.item_exile
    after, _ = play(guarded(state, occupant=1), card)
    assert after.seats[0].guardians == (), "another player's archaeologist stands there"


def test_brush_bow_and_arrows_and_theodolite_count() -> None:
    state, card = holding(
        "Brush", "Gain 1 compass per idol you own (slotted or not), max 3", idols=(1, 2), slots=(3, 4)
    )
    after, _ = play(state, card)
    assert delta(state, after) == res(compass=3)
    text = (
        "Gain 1 compass per guardian you have overcome and per guardian at a site where you have an archaeologist, "
        "max 3."
    )
    state, card = holding("Bow and Arrows", text, guardians=(2,))
    after, _ = play(guarded(state), card)
    assert delta(state, after) == res(compass=2)
    state, card = holding(
        "Theodolite", "Pay 1 coin: gain 1 compass per archaeologist of yours on the board", res(coin=1)
    )
    state = replace(state, occupants=(("camp1a", 0), ("camp2a", 0)))
    after, _ = play(state, card)
    assert delta(state, after) == res(coin=-1, compass=2)


@pytest.mark.parametrize(
    ("name", "text", "gain"),
    [
        ("Torch", "You may exile a card; gain 1 tablet.", res(tablet=1)),
        ("Axe", "You may exile a card; gain 1 compass.", res(compass=1)),
        ("Machete", "You may exile a card; gain 2 compasses.", res(compass=2)),
        ("Ritual Dagger", "You may exile a card; gain 1 arrowhead.", res(arrowhead=1)),
        ("Mortar", "You may exile a card; gain 2 coins.", res(coin=2)),
    ],
)
def test_cards_that_may_exile_a_card_then_gain(name: str, text: str, gain: Resources) -> None:
    state, card = holding(name, text)
    after, _ = play(state, card, "hand:1")
    assert 1 in after.removed and delta(state, after) == plus(gain, activation(card))
    kept, _ = play(state, card, "skip")
    assert kept.removed == () and delta(state, kept) == plus(gain, activation(card))


def test_cleansing_cauldron_and_grappling_hook_draw_then_may_exile() -> None:
    state, card = holding("Cleansing Cauldron", "Draw 1 card; then you may exile a card.")
    after, _ = play(state, card, f"hand:{DECK[0]}")
    assert DECK[0] in after.removed, "the card just drawn can be exiled"
    state, card = holding("Grappling Hook", "Discard 1 card: draw 1 card, then you may exile a card")
    after, _ = play(state, card, "card:1", f"play:{card}")
    assert after.seats[0].hand == (2, 3) and card in after.item_exile


def test_army_knife_two_different_options() -> None:
    state, card = holding("Army Knife", "Choose two different: exile a card / 1 coin / 1 compass / 1 tablet")
    after, _ = play(state, card, "1")
    assert after.pending is not None and after.pending.options == ("0", "1", "2"), "the coin is not offered again"
    after, _ = act(after, Choose(0, "2"))
    assert delta(state, after) == res(coin=1, tablet=1)


@pytest.mark.parametrize(
    ("name", "text", "gained"),
    [
        ("Trader's Scales", "Upgrade 1 resource, then gain 3 coins", res(coin=3)),
        ("Trader's Coins", "Upgrade 1 resource, then gain 2 coins", res(coin=2)),
    ],
)
def test_cards_that_upgrade_a_resource(name: str, text: str, gained: Resources) -> None:
    state, card = holding(name, text, res(tablet=1, arrowhead=1))
    after, _ = play(state, card, "arrowhead")
    assert delta(state, after) == plus(plus(gained, res(arrowhead=-1, jewel=1)), activation(card))


def test_dog_lantern_star_charts_and_tigerclaw_activate_camps() -> None:
    state, card = holding("Dog", "Pay 1 compass: activate an unoccupied campsite", res(compass=1))
    state = replace(state, occupants=(("camp1a", 1),))
    assert set(play(state, card)[0].pending.options) == {"site:camp2", "site:camp3", "site:camp4", "site:camp5"}  # type: ignore[union-attr]
    after, _ = play(state, card, "site:camp2")
    assert delta(state, after) == res(compass=1)  # -1 paid, +2 gained
    state, card = holding("Lantern", "Activate a campsite (occupied or not)")
    after, _ = play(replace(state, occupants=(("camp1a", 1),)), card, "site:camp1")
    assert delta(state, after) == res(coin=2)
    state, card = holding("Star Charts", "Pay 1 coin: activate 2 campsites (occupied allowed)", res(coin=1))
    after, _ = play(state, card, "site:camp3", "site:camp3")
    assert delta(state, after) == plus(res(coin=-1, tablet=4), activation(card))
    state, card = holding(
        "Tigerclaw Hairpin", "You may exile a card; then activate a campsite where no archaeologist stands."
    )
    after, _ = play(state, card, "skip", "site:camp4")
    assert delta(state, after) == plus(res(arrowhead=1), activation(card))


def test_binoculars_tent_guiding_stone_and_skull_activate_sites() -> None:
    state, card = holding("Binoculars", "Activate a discovered Level I site")
    after, _ = play(guarded(state, occupant=None), card)
    assert delta(state, after) == res(coin=1, tablet=2), "the only discovered site: site tile 1"
    state, card = holding("Tent", "Activate a site occupied by your own archaeologist (Level II: also pay 2 compasses)")
    after, _ = play(replace(state, occupants=(("camp2a", 0),)), card)
    assert delta(state, after) == res(compass=2)
    state, card = holding("Guiding Stone", "Activate the top tile of the Level I site stack")
    top = state.site_stacks[0][0]
    after, events = play(state, card)
    assert ev.SiteTileUsed(1, top) in events and after.site_stacks[0][-1] == top
    state, card = holding(
        "Guiding Skull", "Pay 1 compass: activate the top tile of the Level II site stack", res(compass=1)
    )
    after, events = play(state, card)
    assert any(isinstance(e, ev.SiteTileUsed) and e.level == 2 for e in events)


def test_pathfinders_staff_sandals_and_passage_shell_relocate() -> None:
    text = "Relocate one of your placed archaeologists to an unoccupied campsite or Level I site and activate it"
    state, card = holding("Pathfinder's Staff", text)
    state = replace(state, occupants=(("camp1a", 0),))
    after, _ = play(state, card, "camp1a>camp3a")
    assert after.occupants == (("camp3a", 0),) and delta(state, after) == plus(res(tablet=2), activation(card))
    state, card = holding("Pathfinder's Sandals", "Relocate a placed archaeologist to a campsite and activate it")
    after, _ = play(replace(state, occupants=(("camp1a", 0),)), card, "camp1a>camp2b")
    assert after.occupants == (("camp2b", 0),)
    state, card = holding("Passage Shell", "Relocate a placed archaeologist to a campsite and activate it twice")
    after, _ = play(replace(state, occupants=(("camp1a", 0),)), card, "camp1a>camp1b")
    assert delta(state, after) == plus(res(coin=4), activation(card))


def test_guardians_ocarina_and_war_mask_last_the_round() -> None:
    text = "Return one of your placed archaeologists; all your travel icons count as planes this round"
    state, card = holding("Guardian's Ocarina", text)
    after, _ = play(replace(state, occupants=(("camp1a", 0),)), card, "space:camp1a")
    assert after.occupants == () and after.seats[0].all_planes
    after = guarded(replace(after, main_done=False), "L1-3", 5, None)
    after, _ = act(after, Dig(0, "L1-3", Payment((1,))))  # a car card pays a ship site: it is a plane now
    state, card = holding("War Mask", "Gain 1 arrowhead; you take no Fear from guardians this round")
    after, _ = play(state, card)
    assert after.seats[0].no_guardian_fear and delta(state, after) == plus(res(arrowhead=1), activation(card))


def test_guardians_crown_moves_a_guardian_and_activates_its_new_site() -> None:
    text = (
        "Move a guardian from a site where you have an archaeologist to a discovered campsite or Level I site with no "
        "archaeologist and no guardian, then activate that site."
    )
    state, card = holding("Guardian's Crown", text)
    state = guarded(state)
    site = state.site("L1-2")
    assert site is not None
    state = state.with_site(replace(site, tile=2, idols=()))  # draw 1 + 1 arrowhead
    after, _ = play(state, card)
    assert after.pending is not None
    assert set(after.pending.options) == {"L1-1>L1-2", *(f"L1-1>camp{i}" for i in range(1, 6))}
    after, _ = play(state, card, "L1-1>L1-2")
    assert after.guardian_at("L1-2") == 8 and after.guardian_at("L1-1") is None
    assert delta(state, after) == plus(res(arrowhead=1), activation(card))
    # Onto a camp: the camp is activated, and the guardian now stands there like at any site.
    after, _ = play(state, card, "L1-1>camp1")
    assert after.camp_guardians == (("camp1", 8),) and delta(state, after) == plus(res(coin=2), activation(card))
    after = replace(after, occupants=(("camp1a", 0),), main_done=False)
    after = with_player(after, 0, resources=res(coin=4))
    assert Overcome(0, "camp1") in legal_actions(after, 0)
    after, _ = act(after, Overcome(0, "camp1"))
    assert after.seats[0].guardians == (8,) and after.camp_guardians == ()


def test_obsidian_and_crystal_earrings_draw_and_keep_one() -> None:
    text = "Draw 1 or 2 from bottom of deck; keep 1 in hand, other to play area"
    state, card = holding("Obsidian Earring", text)
    after, _ = play(state, card, "2", f"card:{FEAR}")
    assert after.seats[0].hand == (*HAND, FEAR) and 4 in after.seats[0].play_area
    text = "Draw up to 3; keep 1 in hand; may put 1 on top of deck; rest to play area"
    state, card = holding("Crystal Earring", text)
    after, _ = play(state, card, "3", "card:3", "card:4")
    assert after.seats[0].hand == (*HAND, 3) and after.seats[0].deck == (4,) and FEAR in after.seats[0].play_area


def test_ornate_hammer_exiles_the_far_item_and_takes_one_from_the_exile_pile() -> None:
    text = "Exile rightmost item of card row; then take 1 item from item exile pile for free to bottom of deck"
    state, card = holding("Ornate Hammer", text)
    far = state.item_row[-1]
    after, _ = play(state, card)  # the only exiled item is taken at once
    assert after.seats[0].deck[-1] == far and len(after.item_row) == 5 and far not in after.item_row


def test_sacred_drum_ceremonial_rattle_refresh_assistants() -> None:
    tired = (HeldAssistant(11, exhausted=True), HeldAssistant(12, exhausted=True))
    state, card = holding("Sacred Drum", "Discard 1 card: refresh 2 of your assistants", assistants=tired)
    after, _ = play(state, card, "card:1", "assistant:11")
    assert not any(a.exhausted for a in after.seats[0].assistants)
    state, card = holding("Ceremonial Rattle", "Refresh 1 assistant", assistants=tired)
    after, _ = play(state, card, "assistant:12")
    assert [a.exhausted for a in after.seats[0].assistants] == [True, False]


def test_ancient_wine_and_coconut_flask_use_a_supply_assistant() -> None:
    text = "Pay 1 coin: use the GOLD effect of an assistant on the supply board (not exhausted, not taken)"
    state, card = holding("Ancient Wine", text, res(coin=1))
    state = replace(state, assistant_stacks=((12, 1), (11,), ()))
    after, _ = play(state, card, "stack:0")
    assert delta(state, after) == plus(res(coin=2), activation(card)), "-1 coin, +3 coins (gold side of 12)"
    state, card = holding(
        "Coconut Flask", "Pay 2 coins: use the SILVER effect of an assistant on the supply board", res(coin=2)
    )
    after, _ = play(replace(state, assistant_stacks=((12, 1), (11,), ())), card, "stack:1")
    assert delta(state, after) == plus(res(coin=-2, compass=1), activation(card))


def test_decorated_horn_swaps_an_assistant_keeping_its_level() -> None:
    text = "Exchange one of your assistants with one on the supply board (keeps silver/gold level)"
    state, card = holding("Decorated Horn", text, assistants=(HeldAssistant(12, gold=True),))
    state = replace(state, assistant_stacks=((1, 2), (3,), (4,)))
    after, _ = play(state, card, "12>0")
    assert after.seats[0].assistants == (HeldAssistant(1, gold=True),) and after.assistant_stacks[0] == (12, 2)


def test_stone_key_returns_a_slotted_idol() -> None:
    state, card = holding(
        "Stone Key", "Return one of your slotted idols to your supply (slot can be reused)", slots=(5, 6)
    )
    after, _ = play(state, card)
    assert after.seats[0].slots == (5,) and after.seats[0].idols == (6,)


def test_journal_idol_of_ara_anu_and_inscribed_blade_research() -> None:
    text = "Exile this card: advance your notebook 1 row for free (notebook only, never above magnifying glass)"
    state, card = holding("Journal", text, glass="r0p0")
    after, _ = play(state, card, "notebook>r0p0", "stack:0")
    assert after.seats[0].notebook == "r0p0" and len(after.seats[0].assistants) == 1 and card in after.item_exile
    state, card = holding("Idol of Ara-Anu", "Research with a 1-jewel discount")
    after, _ = play(state, card, "glass>r0p1")
    assert after.seats[0].glass == "r0p1" and delta(state, after) == plus(res(coin=1), activation(card))
    text = "Research with a discount of 1 arrowhead + 2 tablets (also usable on temple tiles)"
    state, card = holding("Inscribed Blade", text, res(coin=1), glass="temple", temple_place=0)
    after, _ = play(state, card, "tile>0")
    assert after.seats[0].temple_tiles == (0,) and delta(state, after) == plus(res(coin=-1), activation(card))


def test_precision_compass_fishing_rod_and_whip_buy_with_a_discount() -> None:
    text = "Buy an artifact with a 3-compass discount; may buy the revealed top card of the artifact deck"
    state, card = holding("Precision Compass", text, res(compass=1))
    jar = card_named("Stone Jar")
    state = replace(state, artifact_row=(jar,), artifact_deck=tuple(c for c in state.artifact_deck if c != jar))
    after, _ = play(state, card, f"card:{jar}")
    assert jar in after.seats[0].play_area and after.seats[0].resources[1] == 1, "costs 2 - 3: nothing"
    text = "Buy an item with a 3-coin discount; may buy the revealed top card of the item deck"
    state, card = holding("Fishing Rod", text, res(coin=1))
    top = state.item_deck[0]
    after, events = play(state, card, "deck")
    assert ev.DeckTopRevealed("item", top) in events
    assert BOOK.card(top).cost - 3 <= 1, "every item costs at most 4 coins: with the discount, 1 coin buys it"
    after, _ = act(after, Choose(0, f"card:{top}"))
    assert after.seats[0].deck[-1] == top and after.item_deck[0] != top and len(after.item_row) == 5
    state, card = holding("Whip", "Exile this card: buy an artifact with a 4-compass discount")
    state = replace(state, artifact_row=(jar,), artifact_deck=tuple(c for c in state.artifact_deck if c != jar))
    after, _ = play(state, card, f"card:{jar}")
    assert jar in after.seats[0].play_area and card in after.item_exile
    assert after.seats[0].hand == (*HAND, DECK[0]), "the Stone Jar resolved: 1 card drawn"


def test_hot_air_balloon_and_aeroplane_discount_the_next_discovery() -> None:
    text = (
        "Exile this card: next Dig/Discover (Digsite: until used or the end of the round) costs 1 plane less and "
        "discovery costs 3 compasses less"
    )
    state, card = holding("Hot Air Balloon", text)
    after, _ = play(state, card)
    assert after.seats[0].travel == ("plane",) and after.seats[0].discover_discount == 3
    after = replace(after, main_done=False)
    after, _ = act(after, Discover(0, "L1-1", Payment(travel=("plane",))))
    assert after.occupant("L1-1") == 0 and after.seats[0].discover_discount == 0
    text = (
        "Next Dig/Discover (Digsite: until used or the end of the round) costs 1 plane less and discovery costs 2 "
        "compasses less"
    )
    state, card = holding("Aeroplane", text)
    after, _ = play(state, card)
    assert after.seats[0].discover_discount == 2
