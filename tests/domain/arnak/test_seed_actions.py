"""The seed's turn and main actions (seeds/003_836fe449a5de806b.txt: "How a Turn Works", "Your hand",
"Dig at a site", "Discover a new site", "Overcome a guardian", "Buy a card", "Play a card", "Pass").

Every test quotes the seed sentence it checks; "reference:" marks a fact from shared/reference/arnak.md
and "design:" a choice of Digsite's (docs/rules/arnak.md).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.arnak import events as ev
from domain.arnak.actions import Buy, Choose, Dig, Discover, EndTurn, Overcome, Pass, Payment, Play, Research
from domain.arnak.legal import legal_actions
from domain.arnak.state import GameState
from domain.errors import NotYourTurn
from tests.domain.arnak.helpers import BOOK, act, card_named, game, kinds, rejected, res, run, with_player

FUND_CAR, FUND_SHIP, EXPL_CAR, EXPL_SHIP = 1, 2, 3, 4  # seat 0's (red) starting cards
FEAR_A, FEAR_B = BOOK.fear_ids[-1], BOOK.fear_ids[-2]  # seat 0's two starting fear cards


def opening(**changes: object) -> GameState:
    """A 2-player game at seat 0's first turn, its hand the whole starting deck (design of the test)."""
    state = game(2)
    hand = (FUND_CAR, FUND_SHIP, EXPL_CAR, EXPL_SHIP, FEAR_A, FEAR_B)
    assert sorted(state.seats[0].cards()) == sorted(hand)
    return with_player(state, 0, hand=hand, deck=(), **changes)


def discovered(state: GameState, site_id: str, tile: int, guardian: int | None = None) -> GameState:
    site = state.site(site_id)
    assert site is not None
    return state.with_site(replace(site, tile=tile, idols=(), guardian=guardian))


# --- how a turn works -------------------------------------------------------------------------------------------------


def test_exactly_one_main_action_plus_any_number_of_free_actions() -> None:
    """'On your turn you take exactly one main action, plus any number of free actions.'"""
    state = run(opening(), Dig(0, "camp1a", Payment((FEAR_A,))))
    assert state.main_done and state.turn == 0
    rejected(state, Dig(0, "camp2a", Payment((FEAR_B,))), "exactly one main action")
    rejected(state, Pass(0), "exactly one main action")
    state = run(state, Play(0, FUND_CAR), Play(0, EXPL_CAR))  # free actions after the main action
    assert state.seats[0].resources == res(coin=5, compass=1)
    state, events = act(state, EndTurn(0))
    assert state.turn == 1 and not state.main_done and kinds(events) == ["NextTurn"]


def test_end_turn_only_after_the_main_action() -> None:
    """design: a turn ends with EndTurn once its main action is taken (free actions may follow it)."""
    rejected(opening(), EndTurn(0), "take your main action")


def test_only_the_seat_whose_turn_it_is_acts() -> None:
    """'On your turn ...': another seat is refused."""
    rejected(opening(), Pass(1), "turn", NotYourTurn)


def test_a_lightning_bolt_effect_is_free_and_does_not_consume_the_main_action() -> None:
    """'If the effect has a lightning bolt beside it, it is a free action and does not consume your main action.'"""
    state, events = act(opening(), Play(0, FUND_SHIP))
    assert not state.main_done and state.seats[0].resources == res(coin=3)
    assert kinds(events) == ["CardPlayed", "ResourcesChanged"]
    donkey = card_named("Pack Donkey")  # no bolt: a main action
    state = with_player(state, 0, hand=(*state.seats[0].hand, donkey), deck=(FEAR_A,))
    state, events = act(state, Play(0, donkey))
    assert state.main_done and "MainActionTaken" in kinds(events)


def test_fear_cards_have_no_effect_but_carry_a_travel_value() -> None:
    """'Fear cards have no effect at all. They do carry a travel value, so they are not useless.'"""
    state = opening()
    rejected(state, Play(0, FEAR_A), "no effect")
    assert BOOK.card(FEAR_A).travel == ("boot",)
    state = run(state, Dig(0, "camp3a", Payment((FEAR_A,))))
    assert FEAR_A in state.seats[0].play_area


# --- dig at a site ----------------------------------------------------------------------------------------------------


def test_dig_pay_travel_with_cards_into_the_play_area_then_place_an_archaeologist_and_resolve_the_site() -> None:
    """'Pay the travel cost by placing cards from your hand into your play area. Then place an archaeologist and
    resolve the site's effect.'"""
    state, events = act(opening(), Dig(0, "camp1a", Payment((FEAR_A,))))
    assert kinds(events) == ["MainActionTaken", "CardsToPlayArea", "ArchaeologistPlaced", "ResourcesChanged"]
    p = state.seats[0]
    assert FEAR_A in p.play_area and FEAR_A not in p.hand
    assert state.occupant("camp1a") == 0
    assert p.resources == res(coin=4), "the camp gives 2 coins"


def test_dig_needs_an_empty_space_and_an_available_archaeologist() -> None:
    """'You need an empty space at the site and an available archaeologist.'"""
    state = opening()
    taken = replace(state, occupants=(("camp1a", 1),))
    rejected(taken, Dig(0, "camp1a", Payment((FEAR_A,))), "empty space")
    both_out = replace(state, occupants=(("camp2a", 0), ("camp3a", 0)))
    rejected(both_out, Dig(0, "camp1a", Payment((FEAR_A,))), "no available archaeologist")
    rejected(state, Dig(0, "camp1b", Payment((FEAR_A, FEAR_B))), "blocked")  # 2 players: double-boot blocked


def test_a_site_must_be_discovered_before_digging_there() -> None:
    """'Discover a new site' comes before digging at it: an undiscovered site is refused."""
    rejected(opening(), Dig(0, "L1-1", Payment((FUND_CAR,))), "not discovered")


def test_travel_an_airplane_pays_for_any_other_icon() -> None:
    """'Airplane: any other icon.'"""
    artifact = card_named("Stone Jar")
    state = discovered(opening(), "L1-3", 1)  # a ship site
    state = with_player(state, 0, hand=(*state.seats[0].hand, artifact))
    state = run(state, Dig(0, "L1-3", Payment((artifact,))))
    assert state.occupant("L1-3") == 0


def test_travel_a_buggy_or_ship_pays_a_boot_but_not_each_other() -> None:
    """'Buggy or ship: a boot.' reference: car and boat cannot pay for each other."""
    state = discovered(opening(), "L1-3", 1)  # a ship site
    rejected(state, Dig(0, "L1-3", Payment((FUND_CAR,))), "does not pay the travel cost")
    run(state, Dig(0, "L1-3", Payment((FUND_SHIP,))))
    run(state, Dig(0, "camp1a", Payment((FUND_CAR,))))  # a car pays a boot


def test_travel_2_coins_charter_a_plane() -> None:
    """'2 coins: charters a plane.'"""
    state = discovered(opening(), "L1-3", 1)
    state, _ = act(state, Dig(0, "L1-3", Payment(charter=1)))
    assert state.seats[0].resources[0] == 2 - 2 + 1, "2 coins chartered the plane; site tile 1 gives 1 coin"
    poor = with_player(opening(), 0, resources={"coin": 1})
    rejected(discovered(poor, "L1-3", 1), Dig(0, "L1-3", Payment(charter=1)), "cannot pay")


def test_a_card_with_two_icons_pays_two_icons_and_nothing_superfluous_is_paid() -> None:
    """reference A1: 'A card with two icons can cover two icons of a cost.' design: every card paid must be needed."""
    boots = card_named("Sturdy Boots")  # car x2
    state = with_player(game(4), 0, hand=(boots, FEAR_A), deck=())
    state = run(state, Dig(0, "camp1b", Payment((boots,))))
    assert state.occupant("camp1b") == 0
    state = with_player(game(4), 0, hand=(boots, FEAR_A), deck=())
    rejected(state, Dig(0, "camp1a", Payment((boots, FEAR_A))), "every card paid must be needed")


def test_the_jewel_camp_asks_for_a_discard() -> None:
    """reference A2/second pass 5: the jewel camp also needs a card discarded from the hand."""
    state, _events = act(opening(), Dig(0, "camp5a", Payment((FEAR_A,))))
    assert state.pending is not None and state.pending.kind == "discard"
    state = run(state, legal_actions(state, 0)[0])
    assert state.seats[0].resources[4] == 1 and len(state.seats[0].play_area) == 2
    lone = with_player(opening(), 0, hand=(FEAR_A,))
    rejected(lone, Dig(0, "camp5a", Payment((FEAR_A,))), "discard")


# --- discover a new site ----------------------------------------------------------------------------------------------


def test_discover_pay_3_compasses_for_level_1_or_6_for_level_2() -> None:
    """'Pay 3 compasses for a level 1 site or 6 for a level 2 site, then place an available archaeologist there.'"""
    state = opening()
    rejected(state, Discover(0, "L1-1", Payment((FUND_CAR,))), "3 compass")
    rich = with_player(state, 0, resources={"compass": 5})
    rejected(rich, Discover(0, "L2-1", Payment((FUND_CAR, EXPL_CAR))), "6 compass")
    after = run(rich, Discover(0, "L1-1", Payment((FUND_CAR,))))
    assert after.seats[0].resources[1] >= 2 and after.occupant("L1-1") == 0


def test_discover_resolves_the_face_up_idol_then_the_site_tile_then_awakens_a_guardian() -> None:
    """'1. Resolve the face-up idol and place it face down on your player board. 2. Take the top tile from the
    matching stack, place it face up at that location and immediately resolve its effect. 3. Awaken a guardian —
    place the top guardian tile face up on that location.'"""
    state = with_player(opening(), 0, resources={"compass": 3})
    coin_idol = next(i.id for i in BOOK.idols.values() if i.kind == "coin")
    site = state.site("L1-1")
    assert site is not None
    state = state.with_site(replace(site, idols=(coin_idol,)))
    tile, guardian = state.site_stacks[0][0], state.guardian_stack[0]
    state, events = act(state, Discover(0, "L1-1", Payment((FUND_CAR,))))
    order = [k for k in kinds(events) if k in ("IdolsTaken", "SiteRevealed", "GuardianAwakened")]
    assert order == ["IdolsTaken", "SiteRevealed", "GuardianAwakened"]
    assert events[kinds(events).index("IdolsTaken") + 1] == ev.ResourcesChanged(0, res(coin=1), "gain")
    after = state.site("L1-1")
    assert after is not None and (after.tile, after.guardian, after.idols) == (tile, guardian, ())
    assert coin_idol in state.seats[0].idols


def test_sites_with_two_idols_only_resolve_the_face_up_one() -> None:
    """'Sites with two idols only resolve the face-up one.' Both idols go to the discoverer's board."""
    state = with_player(game(4), 0, resources={"compass": 6}, hand=(FUND_CAR, EXPL_CAR), deck=())
    coin, compass = (next(i.id for i in BOOK.idols.values() if i.kind == k) for k in ("coin", "compass"))
    site = state.site("L2-1")
    assert site is not None
    state = state.with_site(replace(site, idols=(coin, compass)))
    state, events = act(state, Discover(0, "L2-1", Payment((FUND_CAR, EXPL_CAR))))
    assert state.seats[0].idols == (coin, compass)
    gains = [e.delta for e in events if isinstance(e, ev.ResourcesChanged) and e.reason == "gain"]
    assert gains[0] == res(coin=1), "only the face-up idol resolves"


def test_the_guardian_does_nothing_straight_away() -> None:
    """'The guardian does nothing straight away.'"""
    state = with_player(opening(), 0, resources={"compass": 3})
    state = replace(state, site_stacks=((1, *(t for t in state.site_stacks[0] if t != 1)), state.site_stacks[1]))
    state, events = act(state, Discover(0, "L1-1", Payment((FUND_CAR,))))
    assert not any(isinstance(e, ev.FearGained) for e in events), "tile 1 (coin, 2 tablets) gives no fear"
    site = state.site("L1-1")
    assert site is not None and site.guardian is not None and not state.seats[0].guardians


# --- overcome a guardian ----------------------------------------------------------------------------------------------


def guarded(guardian: int, **changes: object) -> GameState:
    state = discovered(opening(**changes), "L1-1", 1, guardian)
    return replace(state, occupants=(("L1-1", 0),))


def test_overcome_needs_an_archaeologist_already_at_the_guardians_site() -> None:
    """'With an archaeologist already at a guardian's site, pay the guardian's cost to overcome it and place it
    beside your player board.'"""
    state = guarded(8, resources={"coin": 4})  # guardian 8 costs 4 coins
    rejected(replace(state, occupants=()), Overcome(0, "L1-1"), "archaeologist already at its site")
    after, _events = act(state, Overcome(0, "L1-1"))
    assert after.seats[0].guardians == (8,) and after.seats[0].resources[0] == 0
    site = after.site("L1-1")
    assert site is not None and site.guardian is None
    rejected(guarded(8, resources={"coin": 3}), Overcome(0, "L1-1"), "cannot pay")


def test_overcome_pays_travel_and_discards_as_the_guardian_shows() -> None:
    """reference second pass 8: costs mix resources, travel icons and discards
    (guardian 2: a discard, a coin and an arrowhead)."""
    state = guarded(2, resources={"coin": 1, "arrowhead": 1})
    rejected(state, Overcome(0, "L1-1"), "does not pay")
    after = run(state, Overcome(0, "L1-1", Payment((FEAR_A,))))
    assert after.seats[0].guardians == (2,) and FEAR_A in after.seats[0].play_area


def test_a_guardians_boon_is_usable_once() -> None:
    """'Each guardian has a boon in its top right, usable once on any of your turns — flip it over after use.'"""
    from domain.arnak.actions import UseBoon

    state = with_player(opening(), 0, guardians=(3,))  # boon: a car
    state = run(state, UseBoon(0, 3))
    assert state.seats[0].travel == ("car",) and state.seats[0].boons_used == (3,)
    rejected(state, UseBoon(0, 3), "usable once")


def test_guardians_do_not_stop_you_digging_there() -> None:
    """'Guardians sit at dig sites until overcome, but they do not stop you digging there.'"""
    state = discovered(opening(), "L1-1", 1, guardian=5)
    state = run(state, Dig(0, "L1-1", Payment((FUND_CAR,))))
    assert state.occupant("L1-1") == 0


# --- buy a card -------------------------------------------------------------------------------------------------------


def test_buy_an_item_pay_its_coins_and_put_it_at_the_bottom_of_your_deck() -> None:
    """'Item cards: pay the cost at the bottom left and place the card face down at the bottom of your deck.'"""
    state = with_player(opening(), 0, resources={"coin": 4}, deck=(FEAR_B,), hand=(FUND_CAR,))
    item = state.item_row[0]
    state = run(state, Buy(0, item))
    assert state.seats[0].deck == (FEAR_B, item)
    assert state.seats[0].resources[0] == 4 - BOOK.card(item).cost


def test_buy_an_artifact_into_the_play_area_resolving_it_without_the_activation_cost() -> None:
    """'Artifacts: pay the compass cost at the bottom, then move it straight to your play area and resolve its effect
    without paying the activation cost.'"""
    jar = card_named("Stone Jar")  # 2 compasses: draw 1
    state = with_player(opening(), 0, resources={"compass": 2}, deck=(FEAR_B,), hand=(FUND_CAR,))
    state = replace(state, artifact_row=(jar,), artifact_deck=tuple(c for c in state.artifact_deck if c != jar))
    state, _events = act(state, Buy(0, jar))
    p = state.seats[0]
    assert jar in p.play_area and FEAR_B in p.hand, "the effect resolved: 1 card drawn"
    assert p.resources == res(), "2 compasses paid, no tablet"


def test_buying_refills_the_row_sliding_toward_the_moon_staff() -> None:
    """'Then refill the row by sliding the cards toward the moon staff and adding a new card from the deck to the
    empty space.'"""
    state = with_player(opening(), 0, resources={"coin": 4})
    row, top = state.item_row, state.item_deck[0]
    bought = row[1]
    state = run(state, Buy(0, bought))
    assert state.item_row == (row[0], *row[2:], top)


def test_buy_an_artifact_resolve_its_effect_then_refill_the_row() -> None:
    """'...then move it straight to your play area and resolve its effect without paying the activation cost. Then
    refill the row': the events run bought, the effect (a decision inside it first), then the refill."""
    dagger = card_named("Ritual Dagger")  # 4 compasses: you may exile a card; gain 1 arrowhead
    state = with_player(opening(), 0, resources={"compass": 4}, hand=(FEAR_A, FUND_CAR))
    state = replace(state, artifact_row=(dagger,), artifact_deck=tuple(c for c in state.artifact_deck if c != dagger))
    top = state.artifact_deck[0]
    state, bought = act(state, Buy(0, dagger))
    assert kinds(bought)[-2:] == ["CardBought", "DecisionPending"] and state.artifact_row == (), "not refilled yet"
    state, resolved = act(state, Choose(0, f"hand:{FEAR_A}"))
    assert kinds(resolved)[-3:] == ["CardExiled", "ResourcesChanged", "RowRefilled"]
    assert state.artifact_row == (top,) and state.seats[0].resources == res(arrowhead=1)
    jar = card_named("Stone Jar")  # an effect without a decision: the same order within one move
    state = with_player(opening(), 0, resources={"compass": 2}, deck=(FEAR_B,))
    state = replace(state, artifact_row=(jar,), artifact_deck=tuple(c for c in state.artifact_deck if c != jar))
    _, events = act(state, Buy(0, jar))
    assert kinds(events)[-3:] == ["CardBought", "CardsDrawn", "RowRefilled"]


# --- play a card ------------------------------------------------------------------------------------------------------


def test_play_a_card_face_up_into_the_play_area_and_resolve_it() -> None:
    """'Place it face up in your play area and resolve its effect.'"""
    state = run(opening(), Play(0, EXPL_SHIP))
    assert EXPL_SHIP in state.seats[0].play_area and state.seats[0].resources == res(coin=2, compass=1)


def test_playing_an_artifact_from_hand_requires_paying_its_tablet_cost_first() -> None:
    """'Playing an artifact from your hand requires paying its tablet cost first.' reference second pass 1: 1 tablet."""
    jar = card_named("Stone Jar")
    state = with_player(opening(), 0, hand=(jar, FUND_CAR), deck=(FEAR_B,))
    rejected(state, Play(0, jar), "tablet cost")
    state = with_player(state, 0, resources={"tablet": 1})
    state, _events = act(state, Play(0, jar))
    assert state.seats[0].resources[2] == 0 and state.main_done
    assert FEAR_B in state.seats[0].hand


# --- pass -------------------------------------------------------------------------------------------------------------


def test_once_you_pass_you_can_take_no_further_actions_at_all() -> None:
    """'Once you pass you can take no further actions at all — so resolve every free action you want before
    passing.'"""
    state = run(opening(), Pass(0))
    assert state.seats[0].passed and state.turn == 1
    state = run(state, Dig(1, "camp1a", Payment((state.seats[1].hand[0],))), EndTurn(1))
    assert state.turn == 1, "the passed seat is skipped"
    assert legal_actions(state, 0) == []
    state = replace(state, turn=0)
    rejected(state, Play(0, FUND_CAR), "once you pass")


@pytest.mark.parametrize("action", [Research(0, "glass", "r0p1"), Research(0, "notebook", "r0p0")])
def test_research_is_a_main_action(action: Research) -> None:
    """'Main actions: ... Research'."""
    state = with_player(opening(), 0, resources={"jewel": 1, "arrowhead": 1, "compass": 1})
    if action.token == "notebook":
        state = with_player(state, 0, glass="r0p0")
    state, _events = act(state, action)
    assert state.main_done
