"""Seed step 4, "Craft when you play", and the discovery effects it sleeves onto ruins.

Every test names the seed sentence it checks (seeds/000_7f6bf69c85b094d3.txt); where the seed is silent
the design of the engine briefing applies (prices [1, 1, 2, 3], extra ranks add an alternative rank, ...).
Positions are built with ``ruins.new_game_from_setup``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domain import ruins
from domain.errors import MalformedAction, NotYourTurn, RuleViolation
from domain.ruins import Discard, Flip, GameState, Pass, Play, Purchase, Ruin
from domain.ruins import events as ev
from domain.ruins.caches import profile

BOOK = ruins.book_of()
NAMES = ("Ana", "Beto", "Carla", "Diego", "Eva")


# --- helpers -------------------------------------------------------------------------------------------------------


def rid(rank: int, copy: int = 0) -> int:
    """The id of the ruin with this day rank and copy number."""
    card = (rank - 1) * 5 + copy
    assert (BOOK.ruins[card].day_rank, BOOK.ruins[card].copy) == (rank, copy)
    return card


def disc(effect: str, n: int = 0, position: str | None = None) -> int:
    """The n-th discovery card with this effect (and position, if given)."""
    return [d.id for d in BOOK.discoveries if d.effect == effect and position in (None, d.position)][n]


def sleeved(*discoveries: int, night: bool = False, claim: int | None = None) -> Ruin:
    """A ruin carrying the given discoveries, each at its own sleeve position."""
    sleeves: list[int | None] = [None, None, None]
    for d in discoveries:
        sleeves[BOOK.position_index(d)] = d
    return Ruin(night, tuple(sleeves), claim)


def game(hands: list[list[int]], **setup: Any) -> GameState:
    return ruins.new_game_from_setup(NAMES[: len(hands)], hands, **setup)


def step(state: GameState, action: ruins.Action) -> tuple[GameState, list[ruins.Event]]:
    events = ruins.decide(state, action)
    return ruins.replay(events, state), events


def run(state: GameState, *actions: ruins.Action) -> GameState:
    for action in actions:
        state = ruins.apply(state, action)
    return state


def of(events: list[ruins.Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


PLUS1, PLUS2, PLUS3 = disc("plus1"), disc("plus2"), disc("plus3")
WILD, TWIN = disc("wild"), disc("twin")
RELIGHT_MID, RELIGHT_BOTTOM = disc("relight", position="middle"), disc("relight", position="bottom")
DIG, BURDEN = disc("dig"), disc("burden")

# A market with one discovery of each position (and a dear top one), and a short deck behind it.
MARKET = (PLUS2, WILD, DIG, PLUS3)
DECK = (PLUS1, TWIN, RELIGHT_MID, BURDEN)
PRICES = BOOK.market_prices


def crafting_game(hands: list[list[int]], **setup: Any) -> GameState:
    """A position with ``MARKET`` and ``DECK`` (minus any discovery already sleeved or in the market)."""
    setup.setdefault("market", MARKET)
    used = {d for ruin in setup.get("ruins", {}).values() for d in ruin.sleeves} | set(setup["market"])
    setup.setdefault("discovery_deck", tuple(d for d in DECK if d not in used))
    return game(hands, **setup)


# --- "Craft when you play. Whenever you play ruins — never on a pass — you may upgrade them" ------------------------


def test_craft_when_you_play_never_on_a_pass_a_pass_carries_no_crafting() -> None:
    """'Whenever you play ruins — never on a pass — you may upgrade them': a Pass has no purchase or claim."""
    assert [f.name for f in dataclasses.fields(Pass)] == ["seat"]
    with pytest.raises(MalformedAction):
        ruins.action_from_dict({"type": "pass", "seat": 1, "purchases": [{"discovery": PLUS2, "ruin": rid(3)}]})
    with pytest.raises(MalformedAction):
        ruins.action_from_dict({"type": "pass", "seat": 1, "claims": [rid(3)]})
    with pytest.raises(MalformedAction):
        ruins.action_from_str(f"1 pass buy {PLUS2}>{rid(3)}")
    with pytest.raises(MalformedAction):
        ruins.action_from_str(f"1 pass claim {rid(3)}")

    state = crafting_game([[rid(4), rid(9)], [rid(2), rid(3)]])
    state = ruins.apply(state, Play(0, (rid(4),), 4))
    after, events = step(state, Pass(1))
    assert not of(events, ev.DiscoveryBought) and not of(events, ev.ClaimSleeved)
    assert (after.torches, after.market, after.discovery_deck) == (state.torches, state.market, state.discovery_deck)
    assert (after.ruins, after.claims_left) == (state.ruins, state.claims_left)


def test_craft_when_you_play_a_purchase_onto_a_ruin_not_in_the_play_is_rejected() -> None:
    """'Whenever you play ruins ... you may upgrade them': only the ruins of this play can be upgraded."""
    state = crafting_game([[rid(4), rid(9)], [rid(2), rid(3)]])
    # Control: the same purchase onto the played ruin is accepted.
    ok = ruins.apply(state, Play(0, (rid(4),), 4, (Purchase(PLUS2, rid(4)),)))
    assert ok.ruins[rid(4)].sleeves[BOOK.position_index(PLUS2)] == PLUS2
    for elsewhere in (rid(9), rid(2)):  # still in my hand / in an opponent's hand
        with pytest.raises(RuleViolation, match="playing"):
            ruins.decide(state, Play(0, (rid(4),), 4, (Purchase(PLUS2, elsewhere),)))
        with pytest.raises(RuleViolation, match="playing"):
            ruins.decide(state, Play(0, (rid(4),), 4, claims=(elsewhere,)))


def test_flip_lit_torches_to_sleeve_market_discoveries_only_from_the_market() -> None:
    """'flip lit torches to sleeve market discoveries into them': a discovery still in the deck cannot be bought."""
    state = crafting_game([[rid(4), rid(9)], [rid(2)]])
    assert DECK[0] not in state.market
    with pytest.raises(RuleViolation, match="market"):
        ruins.decide(state, Play(0, (rid(4),), 4, (Purchase(DECK[0], rid(4)),)))


@pytest.mark.parametrize("slot", range(4))
def test_flip_lit_torches_each_discovery_costs_its_market_slot_price(slot: int) -> None:
    """'flip lit torches to sleeve market discoveries into them': lit torches drop by the slot's price [1, 1, 2, 3]."""
    assert PRICES == (1, 1, 2, 3)
    state = crafting_game([[rid(5), rid(9)], [rid(2)]])
    assert state.torches == (BOOK.torches, BOOK.torches) == (3, 3)
    bought = MARKET[slot]
    after, events = step(state, Play(0, (rid(5),), 5, (Purchase(bought, rid(5)),)))
    [purchase] = of(events, ev.DiscoveryBought)
    assert (purchase.seat, purchase.discovery, purchase.ruin, purchase.slot) == (0, bought, rid(5), slot)
    assert purchase.price == PRICES[slot]
    assert after.torches == (3 - PRICES[slot], 3)
    assert after.ruins[rid(5)].sleeves[BOOK.position_index(bought)] == bought


def test_flip_lit_torches_you_cannot_spend_more_torches_than_are_lit() -> None:
    """'flip lit torches to sleeve market discoveries': 3 lit torches buy at most 3 torches' worth."""
    state = crafting_game([[rid(5), rid(6), rid(9)], [rid(2)]])
    # 3 (slot 3) + 1 (slot 0) = 4 > 3 lit, in a single play.
    with pytest.raises(RuleViolation, match="torch"):
        ruins.decide(state, Play(0, (rid(5),), 5, (Purchase(PLUS3, rid(5)), Purchase(PLUS2, rid(5)))))
    # Spent in one play, the torches stay unlit for the next play of the round.
    state = run(state, Play(0, (rid(5),), 5, (Purchase(PLUS3, rid(5)),)), Pass(1))
    assert state.torches[0] == 0 and state.top is None and state.turn == 0
    with pytest.raises(RuleViolation, match="torch"):
        ruins.decide(state, Play(0, (rid(6),), 6, (Purchase(state.market[0], rid(6)),)))
    assert ruins.craft_options(state, Play(0, (rid(6),), 6)) == [Play(0, (rid(6),), 6, claims=(rid(6),))]


def test_up_to_3_per_ruin_one_per_position_a_second_discovery_of_a_position_is_rejected() -> None:
    """'(up to 3 per ruin, one per position)': a ruin holding a top discovery cannot take another top one."""
    state = crafting_game([[rid(5), rid(6), rid(9)], [rid(2)]], ruins={rid(6): sleeved(PLUS1)})
    assert BOOK.discoveries[PLUS2].position == BOOK.discoveries[PLUS3].position == "top"
    # Two top discoveries onto one ruin in a single play.
    with pytest.raises(RuleViolation, match="position"):
        ruins.decide(state, Play(0, (rid(5),), 5, (Purchase(PLUS2, rid(5)), Purchase(PLUS3, rid(5)))))
    # A top discovery onto a ruin that already carries one.
    with pytest.raises(RuleViolation, match="position"):
        ruins.decide(state, Play(0, (rid(6),), 6, (Purchase(PLUS2, rid(6)),)))
    # Control: the other positions of that ruin are still free.
    assert ruins.apply(state, Play(0, (rid(6),), 6, (Purchase(WILD, rid(6)),))).ruins[rid(6)] == sleeved(PLUS1, WILD)
    offered = {p.purchases[-1].discovery for p in ruins.craft_options(state, Play(0, (rid(6),), 6)) if p.purchases}
    assert offered == {WILD, DIG}


def test_up_to_3_per_ruin_a_ruin_holds_top_middle_and_bottom() -> None:
    """'(up to 3 per ruin, one per position)': one ruin takes a top, a middle and a bottom discovery."""
    market = (PLUS2, WILD, DIG, PLUS3)
    state = crafting_game([[rid(5), rid(9)], [rid(2)]], market=market)
    # Each purchase is made at slot 0 of the sliding row: 1 + 1 + 1 torches.
    play = Play(0, (rid(5),), 5, (Purchase(PLUS2, rid(5)), Purchase(WILD, rid(5)), Purchase(DIG, rid(5))))
    after, events = step(state, play)
    assert [e.slot for e in of(events, ev.DiscoveryBought)] == [0, 0, 0]
    assert after.ruins[rid(5)].sleeves == (PLUS2, WILD, DIG)
    assert after.torches[0] == 0

    full = crafting_game([[rid(5), rid(9)], [rid(2)]], ruins={rid(5): sleeved(PLUS1, TWIN, BURDEN)})
    for d in MARKET:
        with pytest.raises(RuleViolation, match="position"):
            ruins.decide(full, Play(0, (rid(5),), 5, (Purchase(d, rid(5)),)))
    assert all(not p.purchases for p in ruins.craft_options(full, Play(0, (rid(5),), 5)))


# --- "and/or add a claim for free so the ruin returns to you every round" ------------------------------------------


def test_add_a_claim_for_free_it_costs_no_torch() -> None:
    """'and/or add a claim for free so the ruin returns to you every round'."""
    state = crafting_game([[rid(5), rid(9)], [rid(2)]])
    assert state.claims_left == (BOOK.claims, BOOK.claims) == (2, 2)
    after, events = step(state, Play(0, (rid(5),), 5, claims=(rid(5),)))
    assert of(events, ev.ClaimSleeved) == [ev.ClaimSleeved(0, rid(5))]
    assert after.ruins[rid(5)].claim == 0
    assert after.torches == (3, 3)
    assert after.claims_left == (1, 2)
    # With a purchase too ("and/or"): only the discovery is paid for.
    after = ruins.apply(state, Play(0, (rid(5),), 5, (Purchase(WILD, rid(5)),), (rid(5),)))
    assert after.torches[0] == 3 - PRICES[1] and after.ruins[rid(5)] == sleeved(WILD, claim=0)


def test_two_claims_per_player_one_use_each_per_game_a_third_claim_is_rejected() -> None:
    """'10 claim cards (2 per player, in your color) ... One use each per game.'"""
    hand = [rid(5, 0), rid(5, 1), rid(5, 2), rid(6, 0), rid(10)]
    state = crafting_game([hand, [rid(2, 0), rid(2, 1), rid(3)]])
    triple = (rid(5, 0), rid(5, 1), rid(5, 2))
    with pytest.raises(RuleViolation, match="claim"):
        ruins.decide(state, Play(0, triple, 5, claims=triple))
    state = run(state, Play(0, (rid(5, 0), rid(5, 1)), 5, claims=(rid(5, 0), rid(5, 1))), Pass(1))
    assert state.claims_left[0] == 0 and state.turn == 0 and state.top is None
    with pytest.raises(RuleViolation, match="claim"):
        ruins.decide(state, Play(0, (rid(6, 0),), 6, claims=(rid(6, 0),)))
    assert ruins.craft_options(state, Play(0, (rid(6, 0),), 6)) == [
        Play(0, (rid(6, 0),), 6, (Purchase(d, rid(6, 0)),)) for d in state.market
    ]
    # The other player's claims are their own.
    assert state.claims_left[1] == 2


def test_a_ruin_with_a_claim_cannot_take_another_claim() -> None:
    """'add a claim ... so the ruin returns to you': a ruin has one owner, so one claim per ruin."""
    state = crafting_game([[rid(5), rid(6), rid(9)], [rid(2)]], ruins={rid(6): Ruin(claim=1)})
    with pytest.raises(RuleViolation, match="claim"):
        ruins.decide(state, Play(0, (rid(6),), 6, claims=(rid(6),)))
    with pytest.raises(RuleViolation, match="claim"):
        ruins.decide(state, Play(0, (rid(5),), 5, claims=(rid(5), rid(5))))
    assert ruins.apply(state, Play(0, (rid(5),), 5, claims=(rid(5),))).ruins[rid(5)].claim == 0


def test_claims_used_stay_used_in_later_rounds() -> None:
    """'Sleeve one onto a ruin you play (free) ... One use each per game': the next round does not refill claims."""
    state = crafting_game([[rid(5), rid(9)], [rid(2)]])
    state = run(state, Play(0, (rid(5),), 5, claims=(rid(5),)), Pass(1), Play(0, (rid(9),), 9, claims=(rid(9),)))
    assert state.round == 2
    assert state.claims_left == (0, 2)
    assert {rid(5), rid(9)} <= set(state.hands[0])


# --- "Legality is judged after crafting" --------------------------------------------------------------------------


def test_legality_is_judged_after_crafting_play_a_wrong_card_and_craft_it_legal() -> None:
    """'Legality is judged after crafting, so you may play a "wrong" card and immediately craft it legal.'

    Beto follows Ana's 7 with a 5, sleeving a +2 into it: it counts as a 7 (equal rank, so Carla is skipped).
    """
    state = crafting_game([[rid(7), rid(9)], [rid(5), rid(10)], [rid(8), rid(2)]])
    state = ruins.apply(state, Play(0, (rid(7),), 7))
    bare = Play(1, (rid(5),), 7)
    with pytest.raises(RuleViolation):
        ruins.decide(state, bare)
    with pytest.raises(RuleViolation):  # +1 is not enough: still rejected, and nothing is bought
        ruins.decide(state, Play(1, (rid(5),), 7, (Purchase(PLUS1, rid(5)),)))
    crafted = Play(1, (rid(5),), 7, (Purchase(PLUS2, rid(5)),))
    assert crafted in ruins.craft_options(state, bare)
    after, events = step(state, crafted)
    assert of(events, ev.RuinsPlayed) == [ev.RuinsPlayed(1, (rid(5),), 7, 1, False)]
    assert of(events, ev.PlayerSkipped) == [ev.PlayerSkipped(2)]
    assert after.top is not None and (after.top.seat, after.top.rank) == (1, 7)
    assert after.torches[1] == 3 - PRICES[0]


def test_worked_exchange_a_7_sleeved_with_plus2_still_plays_in_a_pair_of_7s() -> None:
    """'Beto answers with two 7s and flips a torch to sleeve a +2 discovery into one of them.'"""
    state = crafting_game([[rid(4, 0), rid(4, 1), rid(1)], [rid(7, 0), rid(7, 1), rid(2)], [rid(10), rid(3)]])
    state = ruins.apply(state, Play(0, (rid(4, 0), rid(4, 1)), 4))
    state = ruins.apply(state, Play(1, (rid(7, 0), rid(7, 1)), 7, (Purchase(PLUS2, rid(7, 0)),)))
    assert state.top is not None and (state.top.rank, state.top.count) == (7, 2)
    assert state.torches[1] == 2
    assert profile(BOOK, rid(7, 0), state.ruins[rid(7, 0)]).ranks == {7, 9}


# --- "Upgrades are forever, and their effects work for whoever plays the card later" ------------------------------


def test_upgrades_are_forever_and_work_for_whoever_plays_the_card_later() -> None:
    """'Upgrades are forever, and their effects work for whoever plays the card later.'

    Ana sleeves +2 and an extra ruin into a 5 that carries Beto's claim and goes out with it; the round ends,
    the 5 goes home to Beto with both upgrades, and Beto plays it as a 7 that counts as two ruins.
    """
    five = rid(5)
    state = crafting_game([[five], [rid(2)]], ruins={five: Ruin(claim=1)}, market=(PLUS2, TWIN, PLUS1, WILD))
    state = ruins.apply(state, Play(0, (five,), 5, (Purchase(PLUS2, five), Purchase(TWIN, five))))
    assert state.round == 2
    assert state.ruins[five] == sleeved(PLUS2, TWIN, claim=1)
    assert five in state.hands[1]
    state = run(state, Flip(0, None), Flip(1, None))
    assert state.turn == 1
    assert Play(1, (five,), 7) in ruins.legal_actions(state, 1)
    after, events = step(state, Play(1, (five,), 7))
    assert of(events, ev.RuinsPlayed) == [ev.RuinsPlayed(1, (five,), 7, 2, True)]
    assert after.ruins[five] == sleeved(PLUS2, TWIN, claim=1)


@pytest.mark.parametrize("effect", ["plus2", "wild", "twin", "dig", "burden", "relight"])
def test_upgrades_are_forever_each_effect_works_for_the_next_player_to_play_the_ruin(effect: str) -> None:
    """'Upgrades are forever, and their effects work for whoever plays the card later.'

    Ana buys the discovery onto a 5 claimed by Beto and goes out with it; in round 2 the 5 is Beto's, and
    when Beto plays it the effect is his.
    """
    five, bought = rid(5), disc(effect)
    market = (bought, *[d for d in (PLUS1, PLUS3, WILD, TWIN, DIG) if d != bought][:3])
    state = crafting_game([[five], [rid(2)]], ruins={five: Ruin(claim=1)}, market=market)
    state = ruins.apply(state, Play(0, (five,), 5, (Purchase(bought, five),)))
    assert state.round == 2 and five in state.hands[1]
    assert state.ruins[five] == sleeved(bought, claim=1)
    state = run(state, Flip(0, None), Flip(1, None))
    assert state.turn == 1 and state.torches == (3, 3)

    if effect == "plus2":
        _, events = step(state, Play(1, (five,), 7))
        assert of(events, ev.RuinsPlayed)[0].rank == 7
    elif effect == "wild":
        _, events = step(state, Play(1, (five,), 13))
        assert of(events, ev.RuinsPlayed)[0].rank == 13
    elif effect == "twin":
        _, events = step(state, Play(1, (five,), 5))
        assert of(events, ev.RuinsPlayed)[0].count == 2
    elif effect == "dig":
        after, events = step(state, Play(1, (five,), 5))
        assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(1, state.draw_pile[:1], "dig")]
        assert after.phase == "discard" and after.discarder == 1
    elif effect == "burden":
        after, events = step(state, Play(1, (five,), 5))
        assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(0, state.draw_pile[:1], "burden")]
        assert len(after.hands[0]) == BOOK.hand_size + 1
    else:
        slot = next(i for i, d in enumerate(state.market) if d is not None and BOOK.discoveries[d].position != "middle")
        after, events = step(state, Play(1, (five,), 5, (Purchase(state.market[slot], five),)))
        assert of(events, ev.TorchesRelit) == [ev.TorchesRelit(1, 1)]
        assert after.torches[1] == 3 - PRICES[slot] + 1


# --- "discoveries slide toward the cheaper end as the market refills" ---------------------------------------------


def test_discoveries_slide_toward_the_cheaper_end_as_the_market_refills() -> None:
    """'discoveries slide toward the cheaper end as the market refills': buy slot 1, slots 2-3 move down."""
    state = crafting_game([[rid(5), rid(9)], [rid(2)]])
    after, events = step(state, Play(0, (rid(5),), 5, (Purchase(MARKET[1], rid(5)),)))
    [bought] = of(events, ev.DiscoveryBought)
    assert (bought.slot, bought.price, bought.drawn) == (1, PRICES[1], DECK[0])
    assert after.market == (MARKET[0], MARKET[2], MARKET[3], DECK[0])
    assert after.discovery_deck == DECK[1:]


def test_discoveries_slide_so_a_later_purchase_pays_the_new_cheaper_slot() -> None:
    """'discoveries slide toward the cheaper end': after slot 1 is bought the old slot-3 card costs slot 2's price."""
    state = crafting_game([[rid(5), rid(9)], [rid(2)]])
    after, events = step(state, Play(0, (rid(5),), 5, (Purchase(MARKET[1], rid(5)), Purchase(MARKET[3], rid(5)))))
    assert [(e.slot, e.price) for e in of(events, ev.DiscoveryBought)] == [(1, PRICES[1]), (2, PRICES[2])]
    assert after.torches[0] == 3 - PRICES[1] - PRICES[2]
    assert after.market == (MARKET[0], MARKET[2], DECK[0], DECK[1])


def test_discoveries_slide_and_an_empty_deck_leaves_the_dear_slot_empty() -> None:
    """'as the market refills': with the discovery deck used up, the last slot stays empty (None)."""
    state = crafting_game([[rid(5), rid(9)], [rid(2)]], discovery_deck=())
    after, events = step(state, Play(0, (rid(5),), 5, (Purchase(MARKET[0], rid(5)),)))
    assert of(events, ev.DiscoveryBought)[0].drawn is None
    assert after.market == (MARKET[1], MARKET[2], MARKET[3], None)
    assert after.discovery_deck == ()


# --- the effects: "extra ranks, wild rank, extra ruin, draws, forced draws, or torch relights" --------------------


@pytest.mark.parametrize(("effect", "amount"), [("plus1", 1), ("plus2", 2), ("plus3", 3)])
def test_extra_rank_discovery_adds_an_alternative_rank(effect: str, amount: int) -> None:
    """Discoveries give 'extra ranks': the ruin may count as its rank or its rank + N (played by anyone)."""
    card = rid(5)
    assert profile(BOOK, card, sleeved(disc(effect))).ranks == {5, 5 + amount}
    led = run(game([[rid(2), rid(1)], [card, rid(10)]], ruins={card: sleeved(disc(effect))}), Play(0, (rid(2),), 2))
    singles = {p.rank for p in ruins.legal_actions(led, 1) if isinstance(p, Play) and p.ruins == (card,)}
    assert singles == {5, 5 + amount}
    with pytest.raises(RuleViolation):
        ruins.decide(led, Play(1, (card,), 5 + amount + 1))


def test_wild_rank_discovery_counts_as_any_rank_from_1_to_13() -> None:
    """Discoveries give a 'wild rank': the ruin may count as any rank 1-13 (design), e.g. a 2 beating a 10."""
    card = rid(2)
    state = game([[rid(10), rid(1)], [card, rid(3)]], ruins={card: sleeved(WILD)})
    assert profile(BOOK, card, state.ruins[card]).ranks == frozenset(range(1, BOOK.wild_rank_max + 1))
    state = ruins.apply(state, Play(0, (rid(10),), 10))
    with pytest.raises(RuleViolation):
        ruins.decide(state, Play(1, (card,), 14))
    with pytest.raises(RuleViolation):
        ruins.decide(state, Play(1, (card,), 9))
    after = ruins.apply(state, Play(1, (card,), 13))
    assert after.top is not None and after.top.rank == 13


def test_extra_ruin_discovery_counts_as_two_ruins() -> None:
    """'extra ruin' (the 'twin'): one sleeved ruin counts as two ruins of its rank."""
    card = rid(6)
    setup = {"ruins": {card: sleeved(TWIN)}}
    # A single twin answers a pair ...
    state = game([[rid(4, 0), rid(4, 1), rid(1)], [card, rid(9)]], **setup)
    state = ruins.apply(state, Play(0, (rid(4, 0), rid(4, 1)), 4))
    assert Play(1, (card,), 6) in ruins.legal_actions(state, 1)
    _, events = step(state, Play(1, (card,), 6))
    assert of(events, ev.RuinsPlayed)[0].count == 2
    # ... but not a single ruin.
    state = game([[rid(4, 0), rid(1)], [card, rid(9)]], **setup)
    state = ruins.apply(state, Play(0, (rid(4, 0),), 4))
    with pytest.raises(RuleViolation, match="exactly 1"):
        ruins.decide(state, Play(1, (card,), 6))
    # Led alone, it sets a count of two.
    state = game([[card, rid(1)], [rid(9)]], **setup)
    top = ruins.apply(state, Play(0, (card,), 6)).top
    assert top is not None and top.count == 2


def test_relight_discovery_relights_a_torch_when_played() -> None:
    """'some discoveries relight them mid-round': playing a relight ruin lights one spent torch."""
    card = rid(6)
    state = crafting_game([[card, rid(1)], [rid(9)]], ruins={card: sleeved(RELIGHT_MID)})
    after, events = step(state, Play(0, (card,), 6, (Purchase(PLUS3, card),)))  # pay 3, relight 1
    assert of(events, ev.TorchesRelit) == [ev.TorchesRelit(0, 1)]
    assert after.torches[0] == 3 - PRICES[3] + 1


def test_relight_never_lights_more_than_3_torches() -> None:
    """'15 torch tokens (3 per player)': a relight with every torch lit does nothing; several relights stop at 3."""
    card = rid(6)
    state = crafting_game([[card, rid(1)], [rid(9)]], ruins={card: sleeved(RELIGHT_MID)})
    after, events = step(state, Play(0, (card,), 6))
    assert not of(events, ev.TorchesRelit) and after.torches[0] == 3
    # A night relight ruin (3 copy 3: night 1, relight) with two relight discoveries, one torch spent.
    night = rid(3, 3)
    assert BOOK.effects[BOOK.ruins[night].night_effect or ""].kind == "relight"
    state = crafting_game([[night, rid(9)], [rid(10)]], ruins={night: sleeved(RELIGHT_MID, RELIGHT_BOTTOM, night=True)})
    rank = BOOK.ruins[night].night_rank
    after, events = step(state, Play(0, (night,), rank, (Purchase(PLUS2, night),)))
    assert of(events, ev.TorchesRelit) == [ev.TorchesRelit(0, 1)]
    assert after.torches[0] == BOOK.torches == 3


def dig_game(draw_pile: tuple[int, ...] = (rid(2, 1), rid(2, 2))) -> GameState:
    card = rid(8)
    return game([[card, rid(1), rid(3)], [rid(9), rid(10)], [rid(4)]], ruins={card: sleeved(DIG)}, draw_pile=draw_pile)


def test_dig_draws_from_the_draw_pile_then_requires_a_discard() -> None:
    """'draws' ('draw and discard'): the player of a dig ruin draws 1, then must discard 1 before play goes on."""
    state = dig_game()
    after, events = step(state, Play(0, (rid(8),), 8))
    assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(0, (rid(2, 1),), "dig")]
    assert events[-1] == ev.DiscardRequired(0, 1)
    assert after.phase == "discard" and ruins.to_act(after) == [0]
    assert set(after.hands[0]) == {rid(1), rid(3), rid(2, 1)}
    assert after.draw_pile == (rid(2, 2),)
    assert ruins.legal_actions(after, 0) == [Discard(0, (c,)) for c in after.hands[0]]
    assert ruins.legal_actions(after, 1) == []

    done = ruins.apply(after, Discard(0, (rid(3),)))
    assert done.phase == "play" and done.turn == 1
    assert set(done.hands[0]) == {rid(1), rid(2, 1)}
    assert rid(3) in done.discard


def test_dig_discard_step_errors() -> None:
    """'draw and discard': the discard is exactly the dug count, from the digger's own hand, before anyone acts."""
    state = ruins.apply(dig_game(), Play(0, (rid(8),), 8))
    with pytest.raises(NotYourTurn):
        ruins.decide(state, Pass(1))
    with pytest.raises(NotYourTurn):
        ruins.decide(state, Play(1, (rid(9),), 9))
    with pytest.raises(NotYourTurn):
        ruins.decide(state, Discard(1, (rid(9),)))
    with pytest.raises(RuleViolation):
        ruins.decide(state, Discard(0, ()))
    with pytest.raises(RuleViolation):
        ruins.decide(state, Discard(0, (rid(1), rid(3))))
    with pytest.raises(RuleViolation):
        ruins.decide(state, Discard(0, (rid(9),)))  # not in the digger's hand
    with pytest.raises(RuleViolation):
        ruins.decide(state, Discard(0, (rid(8),)))  # the dig ruin itself is on the pile
    played = ruins.apply(dig_game(), Play(0, (rid(1),), 1))
    with pytest.raises(NotYourTurn):  # no discard without a dig
        ruins.decide(played, Discard(0, (rid(3),)))


def test_two_digs_in_one_play_draw_two_and_discard_two() -> None:
    """'draws': a night dig ruin (4 copy 3: night 2, dig) with a dig discovery draws 2, then discards 2."""
    card = rid(4, 3)
    assert BOOK.effects[BOOK.ruins[card].night_effect or ""].kind == "draw"
    state = game(
        [[card, rid(1)], [rid(9)]],
        ruins={card: sleeved(DIG, night=True)},
        draw_pile=(rid(2, 1), rid(2, 2), rid(2, 3)),
    )
    after, events = step(state, Play(0, (card,), BOOK.ruins[card].night_rank))
    assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(0, (rid(2, 1), rid(2, 2)), "dig")]
    assert after.discard_count == 2
    with pytest.raises(RuleViolation):
        ruins.decide(after, Discard(0, (rid(1),)))
    assert set(ruins.apply(after, Discard(0, (rid(1), rid(2, 2)))).hands[0]) == {rid(2, 1)}


def test_dig_on_the_last_ruin_goes_out_without_drawing() -> None:
    """'Play your last ruin and immediately score': a dig on your last ruin draws nothing (design)."""
    card = rid(8)
    state = game([[card], [rid(9)], [rid(10)]], ruins={card: sleeved(DIG)}, draw_pile=(rid(2, 1),))
    after, events = step(state, Play(0, (card,), 8))
    assert not of(events, ev.RuinsDrawn) and not of(events, ev.DiscardRequired)
    assert of(events, ev.WentOut)[0].seat == 0
    assert after.hands[0] == () and after.draw_pile == (rid(2, 1),) and after.phase == "play"


def test_burden_makes_the_next_player_still_holding_cards_draw() -> None:
    """'forced draws' ('make opponents draw'): the next player still holding cards draws from the draw pile."""
    card = rid(4)
    pile = (rid(2, 1), rid(2, 2))
    state = game([[card, rid(1)], [rid(9)], [rid(10)]], ruins={card: sleeved(BURDEN)}, draw_pile=pile)
    after, events = step(state, Play(0, (card,), 4))
    assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(1, (rid(2, 1),), "burden")]
    assert set(after.hands[1]) == {rid(9), rid(2, 1)} and after.draw_pile == (rid(2, 2),)
    assert after.hands[0] == (rid(1),) and after.phase == "play" and after.turn == 1

    # Beto has gone out: the burden passes him by and lands on Carla.
    state = game([[rid(1), card, rid(10)], [rid(2)], [rid(3), rid(9)]], ruins={card: sleeved(BURDEN)}, draw_pile=pile)
    state = run(state, Play(0, (rid(1),), 1), Play(1, (rid(2),), 2), Play(2, (rid(3),), 3))
    assert state.hands[1] == ()
    after, events = step(state, Play(0, (card,), 4))
    assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(2, (rid(2, 1),), "burden")]
    assert set(after.hands[2]) == {rid(9), rid(2, 1)}


def test_dig_and_burden_in_one_play_draw_in_turn_from_the_top_of_the_draw_pile() -> None:
    """'draws, forced draws': a pair with a dig ruin and a burden ruin: the digger draws first, then the next player."""
    dig, burden = rid(6, 0), rid(6, 1)
    pile = (rid(2, 1), rid(2, 2), rid(2, 3))
    state = game([[dig, burden, rid(1)], [rid(9)]], ruins={dig: sleeved(DIG), burden: sleeved(BURDEN)}, draw_pile=pile)
    after, events = step(state, Play(0, (dig, burden), 6))
    assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(0, (pile[0],), "dig"), ev.RuinsDrawn(1, (pile[1],), "burden")]
    assert after.draw_pile == (pile[2],)
    assert set(after.hands[0]) == {rid(1), pile[0]} and set(after.hands[1]) == {rid(9), pile[1]}


def test_draws_from_an_empty_draw_pile_do_nothing() -> None:
    """'draws, forced draws': with the draw pile empty a dig or a burden draws nothing and asks for no discard."""
    dig = ruins.apply(dig_game(draw_pile=()), Play(0, (rid(8),), 8))
    assert dig.phase == "play" and dig.turn == 1 and dig.discard_count == 0
    assert set(dig.hands[0]) == {rid(1), rid(3)}

    card = rid(4)
    state = game([[card, rid(1)], [rid(9)]], ruins={card: sleeved(BURDEN)})
    after, events = step(state, Play(0, (card,), 4))
    assert not of(events, ev.RuinsDrawn)
    assert after.hands[1] == (rid(9),)


# --- "everyone relights them at the end of each round" ------------------------------------------------------------


def test_everyone_relights_torches_at_the_end_of_each_round() -> None:
    """'Flip lit → extinguished to pay for discoveries; everyone relights them at the end of each round.'"""
    state = crafting_game([[rid(5), rid(1)], [rid(9)]])
    state = ruins.apply(state, Play(0, (rid(5),), 5, (Purchase(MARKET[3], rid(5)),)))
    assert state.torches == (0, 3)
    before = state
    after, events = step(state, Play(1, (rid(9),), 9, (Purchase(before.market[0], rid(9)),)))
    assert of(events, ev.DiscoveryBought) and of(events, ev.RoundEnded) and of(events, ev.RoundDealt)
    assert after.round == 2
    assert after.torches == (BOOK.torches, BOOK.torches) == (3, 3)
    # Mid-round the spent torches stayed spent.
    assert ruins.replay(events[: events.index(of(events, ev.RoundEnded)[0])], before).torches == (0, 3 - PRICES[0])


def test_upgrades_work_for_whoever_plays_the_card_later_a_trigger_bought_now_fires_from_the_next_play() -> None:
    """'their effects work for whoever plays the card later' (design: docs/rules/ruins.md): a relight, dig or
    burden sleeved in this play does not fire in this play, while rank and count changes apply at once
    (legality is judged after crafting). Buying a relight therefore never refunds its own price."""
    card, other = rid(6), rid(6, 1)
    market = (RELIGHT_MID, DIG, BURDEN, PLUS3)
    state = crafting_game([[card, other, rid(1)], [rid(9), rid(2)]], market=market, draw_pile=(rid(4), rid(5)))
    bought = (Purchase(RELIGHT_MID, card), Purchase(DIG, card), Purchase(BURDEN, other))
    after, events = step(state, Play(0, (card, other), 6, bought))
    assert not of(events, ev.TorchesRelit) and not of(events, ev.RuinsDrawn) and not of(events, ev.DiscardRequired)
    assert after.torches[0] == 0
    assert after.profiles[card].relight == 1 and after.profiles[card].dig == 1 and after.profiles[other].burden == 1
    # The next time the sleeved ruin is played, whoever plays it gets the effects.
    later = game(
        [[rid(1)], [card, rid(2)], [rid(3)]],
        ruins={card: after.ruins[card]},
        market=(None,) * 4,
        leader=1,
        draw_pile=(rid(4),),
    )
    _, events = step(later, Play(1, (card,), 6))
    assert of(events, ev.RuinsDrawn) == [ev.RuinsDrawn(1, (rid(4),), "dig")]
    assert of(events, ev.DiscardRequired) == [ev.DiscardRequired(1, 1)]
