"""The seed's components, setup and the play of an exchange (seeds/000_7f6bf69c85b094d3.txt, "How to play Ruins").

Every test quotes, or closely names, the seed sentence it checks. Where the seed is silent the test follows
the design in the briefing and says so ("design:").
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Sequence

import pytest

from domain import ruins
from domain.errors import NotYourTurn, RuleViolation
from domain.ruins import events as ev
from domain.ruins.actions import Action, Flip, Pass, Play, Purchase
from domain.ruins.caches import profile
from domain.ruins.state import GameState, Ruin

NAMES = ("Ana", "Beto", "Carla", "Diego", "Eva")
ANA, BETO, CARLA, DIEGO = 0, 1, 2, 3
BOOK = ruins.book_of()


# --- helpers -------------------------------------------------------------------------------------------------------


def rid(day_rank: int, copy_no: int) -> int:
    """The ruin id of copy ``copy_no`` of day rank ``day_rank`` (design: id = (day_rank-1)*5 + copy)."""
    return (day_rank - 1) * 5 + copy_no


def position(hands: Sequence[Sequence[int]], **setup: object) -> GameState:
    """A game with these hands (one per player, seats in NAMES order); night flips over unless told."""
    return ruins.new_game_from_setup(NAMES[: len(hands)], [tuple(h) for h in hands], **setup)


def act(state: GameState, action: Action) -> tuple[GameState, list[ev.Event]]:
    """decide + evolve, keeping the events for the assertions."""
    events = ruins.decide(state, action)
    for event in events:
        state = ruins.evolve(state, event)
    return state, events


def run(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state, _ = act(state, action)
    return state


def rejected(state: GameState, action: Action, rule: str, error: type[RuleViolation] = RuleViolation) -> str:
    """``action`` is refused with ``error`` (a RuleViolation) whose message names ``rule``; nothing changes."""
    saved = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        ruins.decide(state, action)
    assert isinstance(caught.value, RuleViolation)
    message = str(caught.value)
    assert rule in message, message
    assert state == saved
    return message


def flipping(hands: Sequence[Sequence[int]], **setup: object) -> GameState:
    """A round that has just been dealt: every seat still has to choose its night flip."""
    return position(hands, flips_done=False, **setup)


def where(state: GameState, card: int) -> int:
    return next(seat for seat, hand in enumerate(state.hands) if card in hand)


# --- components ----------------------------------------------------------------------------------------------------


def test_50_ruin_cards_5_each_of_ranks_1_to_10() -> None:
    """ "50 ruin cards (5 each of ranks 1-10)"; design: id = (day_rank-1)*5 + copy."""
    assert len(BOOK.ruins) == 50
    assert Counter(r.day_rank for r in BOOK.ruins) == {rank: 5 for rank in range(1, 11)}
    for card in BOOK.ruins:
        assert card.id == rid(card.day_rank, card.copy)
        assert 0 <= card.copy < 5
    assert sorted((r.day_rank, r.copy) for r in BOOK.ruins) == [(d, c) for d in range(1, 11) for c in range(5)]


def test_double_sided_a_day_side_and_a_night_side_with_a_different_rank() -> None:
    """ "Double-sided: a day side and a night side with a different rank and often a discovery effect"."""
    for card in BOOK.ruins:
        assert card.night_rank != card.day_rank, card
        assert card.night_rank >= 1
        if card.night_effect is not None:
            assert card.night_effect in BOOK.effects
    assert any(card.night_effect for card in BOOK.ruins)
    # and the engine really plays the night side's rank once flipped
    card = rid(6, 0)
    assert profile(BOOK, card, Ruin(night=False)).ranks == {6}
    assert profile(BOOK, card, Ruin(night=True)).ranks == {BOOK.ruins[card].night_rank}


def test_all_ruins_start_on_the_day_side_bare() -> None:
    """ "They live inside transparent sleeves so they can be upgraded" — a new game starts all day, unsleeved."""
    state = ruins.new_game(NAMES[:4], seed=3)
    assert all(r == Ruin() for r in state.ruins)


def test_39_discovery_cards_13_top_13_middle_13_bottom() -> None:
    """ "39 discovery cards (13 top, 13 middle, 13 bottom position)"."""
    assert len(BOOK.discoveries) == 39
    assert Counter(d.position for d in BOOK.discoveries) == {"top": 13, "middle": 13, "bottom": 13}
    assert [d.id for d in BOOK.discoveries] == list(range(39))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_torches_claims_and_market_tokens_per_player(n: int) -> None:
    """ "10 claim cards (2 per player)", "15 torch tokens (3 per player)", "4 market tokens" with a face-up row."""
    state = ruins.new_game(NAMES[:n], seed=n)
    assert state.torches == (3,) * n
    assert state.claims_left == (2,) * n
    assert len(state.market) == len(BOOK.market_prices) == 4
    assert all(d is not None for d in state.market)
    assert sorted([*state.market, *state.discovery_deck]) == list(range(39))


@pytest.mark.parametrize(("n", "in_play"), [(2, 30), (3, 40), (4, 50), (5, 50)])
def test_set_aside_by_player_count(n: int, in_play: int) -> None:
    """Design (the seed is silent; the rulebook removes cards by player count): copies 0..k-1 of every rank
    are in play with k = 3 (2p), 4 (3p), 5 (4-5p); the rest are set aside for the whole game."""
    copies = BOOK.copies_in_play[n]
    assert copies * 10 == in_play
    state = ruins.new_game(NAMES[:n], seed=f"aside{n}")
    expected = {r.id for r in BOOK.ruins if r.copy >= copies}
    assert set(state.set_aside) == expected
    assert len(state.set_aside) == 50 - in_play
    dealt = [c for hand in state.hands for c in hand]
    assert sorted(dealt + list(state.draw_pile)) == sorted(set(range(50)) - expected)
    assert not set(dealt) & expected


# --- "get 9 ruins" -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, "x", 41])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_round_get_9_ruins(n: int, seed: object) -> None:
    """ "Every round has the same rhythm — get 9 ruins": every participant holds 9 after the round-1 deal."""
    state = ruins.new_game(NAMES[:n], seed=seed)  # type: ignore[arg-type]
    assert state.round == 1
    assert state.participants == tuple(range(n))
    assert [len(h) for h in state.hands] == [9] * n
    dealt = [c for h in state.hands for c in h]
    assert len(set(dealt)) == len(dealt)
    assert len(dealt) + len(state.draw_pile) == 10 * BOOK.copies_in_play[n]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_then_the_round_resets_everyone_gets_a_new_hand_of_9(n: int) -> None:
    """ "Then the round resets: ... everyone gets a new hand of 9, claimed ruins go home to their owners"
    (design: a claimed ruin counts in its owner's 9)."""
    # seat i < n-1 holds one ruin of rank i+1 and goes out on it; the last seat holds a 1 it can never play.
    hands = [[rid(i + 1, 0)] for i in range(n - 1)] + [[rid(1, 1), rid(1, 2)]]
    claimed = rid(10, 4)
    state = position(hands, ruins={claimed: Ruin(claim=n - 1)}, leader=0)
    state = run(state, Play(0, (rid(1, 0),), 1))
    for seat in range(1, n - 1):
        state = run(state, Play(seat, (rid(seat + 1, 0),), seat + 1))
    assert state.round == 2
    assert state.phase == "flip"
    assert state.participants == tuple(range(n))
    assert [len(h) for h in state.hands] == [9] * n
    assert claimed in state.hands[n - 1]
    assert state.torches == (3,) * n


# --- 1. Flip one ruin to night (optional) --------------------------------------------------------------------------


FLIP_HANDS = ([rid(6, 0), rid(2, 0)], [rid(3, 0), rid(9, 0)], [rid(5, 0), rid(8, 0)])


def test_flip_one_ruin_to_night_is_optional() -> None:
    """ "Flip one ruin to night (optional)": Flip(seat, None) keeps every ruin on its day side."""
    state = flipping(FLIP_HANDS)
    assert Flip(0, None) in ruins.legal_actions(state, 0)
    state, events = act(state, Flip(0, None))
    assert events == [ev.NightFlipChosen(0, None)]
    state = run(state, Flip(1, None))
    state, events = act(state, Flip(2, None))
    assert events == [ev.NightFlipChosen(2, None), ev.NightFlipsRevealed((None, None, None))]
    assert not any(r.night for r in state.ruins)
    assert state.phase == "play"


def test_each_player_may_flip_1_ruin_not_a_second_one() -> None:
    """ "Each player may secretly flip 1 ruin in hand": a second flip by the same seat that round is refused."""
    state = flipping(FLIP_HANDS)
    state = run(state, Flip(0, rid(6, 0)))
    assert ruins.legal_actions(state, 0) == []
    assert 0 not in ruins.to_act(state)
    rejected(state, Flip(0, rid(2, 0)), "at most 1 ruin per round")
    rejected(state, Flip(0, None), "at most 1 ruin per round")


def test_flip_1_ruin_in_hand_only_your_own() -> None:
    """ "Each player may secretly flip 1 ruin in hand": not another player's ruin, not one outside every hand."""
    state = flipping(FLIP_HANDS)
    rejected(state, Flip(0, rid(3, 0)), "own hand")  # seat 1's ruin
    rejected(state, Flip(0, rid(10, 0)), "own hand")  # in no hand
    assert Flip(0, rid(3, 0)) not in ruins.legal_actions(state, 0)


def test_flip_from_day_to_night_permanently_no_flip_back() -> None:
    """ "flip 1 ruin in hand from day to night — permanently": an already-night ruin cannot be flipped."""
    night = rid(6, 0)
    state = flipping(FLIP_HANDS, ruins={night: Ruin(night=True)})
    assert Flip(0, night) not in ruins.legal_actions(state, 0)
    rejected(state, Flip(0, night), "permanent")


def test_flip_is_permanent_the_ruin_is_still_night_next_round() -> None:
    """ "flip ... from day to night — permanently" and "all ruins ... shuffle back together": next round the ruin
    is still night (and so cannot be flipped again by whoever is dealt it)."""
    card = rid(9, 0)
    state = flipping([[rid(1, 0)], [card, rid(2, 0), rid(3, 0)]])
    state = run(state, Flip(0, None), Flip(1, card))
    assert state.ruins[card].night
    state = run(state, Play(0, (rid(1, 0),), 1))  # Ana goes out; Beto is the last holder: the round ends
    assert state.round == 2
    assert state.phase == "flip"
    assert state.ruins[card].night
    holder = where(state, card)
    assert Flip(holder, card) not in ruins.legal_actions(state, holder)
    rejected(state, Flip(holder, card), "permanent")


def test_flipped_ruin_keeps_every_upgrade_it_already_carries() -> None:
    """ "It keeps every upgrade it already carries": sleeves and claim stay; its extra rank now adds to the night
    rank."""
    card = rid(6, 0)
    plus2, burden = 5, 31
    assert BOOK.discoveries[plus2].effect == "plus2" and BOOK.discoveries[burden].effect == "burden"
    upgraded = Ruin(night=False, sleeves=(plus2, None, burden), claim=2)
    state = flipping(FLIP_HANDS, ruins={card: upgraded})
    state = run(state, Flip(0, card), Flip(1, None), Flip(2, None))
    assert state.ruins[card] == Ruin(night=True, sleeves=(plus2, None, burden), claim=2)
    night = BOOK.ruins[card].night_rank
    assert profile(BOOK, card, state.ruins[card]).ranks == {night, night + 2}
    assert state.claims_left[2] == 1  # the claim was not given back


def test_flip_is_secret_until_every_player_has_chosen() -> None:
    """ "Each player may secretly flip": before the reveal another seat's view does not show the chosen ruin,
    the ruin is still day, and nobody may play until all have chosen."""
    card = rid(6, 0)
    state = flipping(FLIP_HANDS, leader=0)
    state, events = act(state, Flip(0, card))
    assert events == [ev.NightFlipChosen(0, card)]
    assert not state.ruins[card].night  # still day until NightFlipsRevealed
    for seat in (1, 2):
        seen = ruins.view(state, seat)
        mine = next(f for f in seen["flips"] if f["seat"] == 0)
        assert mine["chosen"] is True
        assert "ruin" not in mine
        assert seen["ruins"][card]["side"] == "day"
        assert seen["ruins"][card]["ranks"] == [6]
        assert "ruins" not in seen["hands"][0]
    own = ruins.view(state, 0)
    assert next(f for f in own["flips"] if f["seat"] == 0)["ruin"] == card
    referee = ruins.view(state, None)
    assert next(f for f in referee["flips"] if f["seat"] == 0)["ruin"] == card
    # play is refused until all chose, even for the leader
    assert ruins.legal_actions(state, 0) == []
    rejected(state, Play(0, (card,), 6), "night flip", NotYourTurn)
    state = run(state, Flip(1, None))
    rejected(state, Play(0, (card,), 6), "night flip", NotYourTurn)
    rejected(state, Pass(1), "night flip", NotYourTurn)
    assert not state.ruins[card].night
    state, events = act(state, Flip(2, None))
    assert events[-1] == ev.NightFlipsRevealed((card, None, None))
    assert state.ruins[card].night
    assert ruins.view(state, 1)["ruins"][card]["side"] == "night"
    assert state.phase == "play" and state.turn == 0


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_flips_are_chosen_simultaneously_in_any_order(order: tuple[int, ...]) -> None:
    """ "Each player may secretly flip" at the start of the round — a simultaneous choice: any order of seats
    gives the same reveal and the same state."""
    choices = {0: Flip(0, rid(6, 0)), 1: Flip(1, None), 2: Flip(2, rid(8, 0))}
    state = flipping(FLIP_HANDS, leader=1)
    assert sorted(ruins.to_act(state)) == [0, 1, 2]
    events: list[ev.Event] = []
    for i, seat in enumerate(order):
        assert seat in ruins.to_act(state)
        state, new = act(state, choices[seat])
        events += new
        assert any(isinstance(e, ev.NightFlipsRevealed) for e in new) == (i == 2)
    assert events[-1] == ev.NightFlipsRevealed((rid(6, 0), None, rid(8, 0)))
    reference = run(flipping(FLIP_HANDS, leader=1), choices[0], choices[1], choices[2])
    assert state == reference
    assert state.turn == 1 and state.phase == "play"


def test_a_flip_chosen_while_others_chose_theirs_still_stands() -> None:
    """ "Each player may secretly flip" — a simultaneous choice, so another seat's secret choice made meanwhile
    changes nothing a seat could see or choose: its own choice still stands (``unaffected``; the service then
    plays it on the newer version). A seat's own move, or the reveal, or any other move, does not leave it so."""
    state = flipping(FLIP_HANDS, leader=1)
    before = {seat: ruins.legal_actions(state, seat) for seat in (0, 2)}
    state, first = act(state, Flip(1, None))
    assert ruins.unaffected(first, 0) and ruins.unaffected(first, 2)
    assert {seat: ruins.legal_actions(state, seat) for seat in (0, 2)} == before
    assert not ruins.unaffected(first, 1)  # (its own choice: a second one is a repeat, not a simultaneous choice)
    state, second = act(state, Flip(2, rid(8, 0)))
    assert ruins.unaffected(first + second, 0)
    state, last = act(state, Flip(0, rid(6, 0)))
    assert any(isinstance(e, ev.NightFlipsRevealed) for e in last)
    assert not ruins.unaffected(last, 1) and not ruins.unaffected(first + second + last, 1)
    assert not ruins.unaffected([], 0)
    assert state.phase == "play" and state.turn == 1
    played = act(state, Play(1, (rid(3, 0),), 3))[1]  # (a lead: the next seat answers what it sees)
    assert not ruins.unaffected(played, 2)


# --- 2. Lead -------------------------------------------------------------------------------------------------------


LEAD_HANDS = (
    [rid(4, 0), rid(4, 1), rid(4, 2), rid(5, 0), rid(9, 0)],
    [rid(6, 0), rid(6, 1), rid(7, 0), rid(2, 0)],
    [rid(8, 0), rid(8, 1), rid(3, 0), rid(3, 1)],
)


def test_the_first_player_plays_any_single_ruin() -> None:
    """ "The first player plays any single ruin or set of same-rank ruins"."""
    state = position(LEAD_HANDS, leader=0)
    state, events = act(state, Play(0, (rid(9, 0),), 9))
    assert events == [ev.RuinsPlayed(0, (rid(9, 0),), 9, 1, True), ev.NextTurn(1)]
    assert state.top is not None and (state.top.seat, state.top.rank, state.top.count) == (0, 9, 1)
    assert state.pile == (rid(9, 0),)
    assert rid(9, 0) not in state.hands[0]


def test_the_first_player_plays_a_set_of_same_rank_ruins_say_a_pair_of_4s() -> None:
    """ "The first player plays any single ruin or set of same-rank ruins — say, a pair of 4s. The lead sets the
    count everyone must match"."""
    state = position(LEAD_HANDS, leader=0)
    state, events = act(state, Play(0, (rid(4, 0), rid(4, 1)), 4))
    assert events == [ev.RuinsPlayed(0, (rid(4, 0), rid(4, 1)), 4, 2, True), ev.NextTurn(1)]
    assert state.top is not None and (state.top.rank, state.top.count) == (4, 2)
    state = position(LEAD_HANDS, leader=0)
    state, events = act(state, Play(0, (rid(4, 0), rid(4, 1), rid(4, 2)), 4))
    assert isinstance(events[0], ev.RuinsPlayed) and events[0].count == 3


def test_a_lead_of_mixed_ranks_is_not_a_set_of_same_rank_ruins() -> None:
    """ "set of same-rank ruins": a 4 and a 5 cannot be led together, whatever rank is declared."""
    state = position(LEAD_HANDS, leader=0)
    rejected(state, Play(0, (rid(4, 0), rid(5, 0)), 4), "one rank")
    rejected(state, Play(0, (rid(4, 0), rid(5, 0)), 5), "one rank")
    rejected(state, Play(0, (rid(9, 0),), 10), "one rank")  # a bare 9 cannot be declared a 10
    assert all(
        len({BOOK.ruins[c].day_rank for c in a.ruins}) == 1
        for a in ruins.legal_actions(state, 0)
        if isinstance(a, Play)
    )


def test_the_leader_must_lead_and_cannot_pass() -> None:
    """ "The first player plays": the leader of an exchange may not pass."""
    state = position(LEAD_HANDS, leader=0)
    assert Pass(0) not in ruins.legal_actions(state, 0)
    rejected(state, Pass(0), "leader must play")


def test_only_the_first_player_leads() -> None:
    """ "The first player plays ...": another seat trying to lead is refused with NotYourTurn."""
    state = position(LEAD_HANDS, leader=0)
    rejected(state, Play(1, (rid(6, 0),), 6), "turn", NotYourTurn)
    rejected(state, Pass(2), "turn", NotYourTurn)
    assert ruins.to_act(state) == [0]


# --- 3. Follow or pass ---------------------------------------------------------------------------------------------


def led_pair_of_4s() -> GameState:
    return run(position(LEAD_HANDS, leader=0), Play(0, (rid(4, 0), rid(4, 1)), 4))


def test_follow_must_play_exactly_as_many_ruins() -> None:
    """ "Each player in turn must play exactly as many ruins": one or three ruins after a pair are refused."""
    state = led_pair_of_4s()
    rejected(state, Play(1, (rid(7, 0),), 7), "exactly 2 ruin")
    state3 = run(position(LEAD_HANDS, leader=0), Play(0, (rid(9, 0),), 9))
    state3 = run(state3, Pass(1), Pass(2))  # Ana leads again, fresh
    assert state3.top is None and state3.turn == 0
    state3 = run(state3, Play(0, (rid(4, 0),), 4))
    rejected(state3, Play(1, (rid(6, 0), rid(6, 1)), 6), "exactly 1 ruin")
    assert all(len(a.ruins) == 2 for a in ruins.legal_actions(state, 1) if isinstance(a, Play))


def test_follow_at_an_equal_or_higher_rank_lower_is_refused() -> None:
    """ "at an equal or higher rank": a pair of 3s cannot follow a pair of 4s; a pair of 8s can."""
    state = run(led_pair_of_4s(), Pass(1))
    rejected(state, Play(2, (rid(3, 0), rid(3, 1)), 3), "equal or higher rank")
    assert Play(2, (rid(3, 0), rid(3, 1)), 3) not in ruins.legal_actions(state, 2)
    assert Play(2, (rid(8, 0), rid(8, 1)), 8) in ruins.legal_actions(state, 2)
    state, events = act(state, Play(2, (rid(8, 0), rid(8, 1)), 8))
    assert events[0] == ev.RuinsPlayed(2, (rid(8, 0), rid(8, 1)), 8, 2, False)


def test_each_player_in_turn_out_of_turn_is_refused() -> None:
    """ "Each player in turn": Carla may not answer before Beto has; Ana may not act on her own lead."""
    state = led_pair_of_4s()
    assert state.turn == 1 and ruins.to_act(state) == [1]
    rejected(state, Play(2, (rid(8, 0), rid(8, 1)), 8), "turn", NotYourTurn)
    rejected(state, Pass(2), "turn", NotYourTurn)
    rejected(state, Pass(0), "turn", NotYourTurn)
    assert ruins.legal_actions(state, 2) == []


def test_or_pass_a_follower_may_pass_even_when_able_to_follow() -> None:
    """ "must play ... or pass": Beto could follow with 6s but passes; the turn moves on clockwise."""
    state = led_pair_of_4s()
    assert ruins.legal_actions(state, 1)[0] == Pass(1)
    assert Play(1, (rid(6, 0), rid(6, 1)), 6) in ruins.legal_actions(state, 1)
    state, events = act(state, Pass(1))
    assert events == [ev.Passed(1), ev.NextTurn(2)]
    assert state.turn == 2


def test_passing_is_safe_you_stay_in_the_round_and_act_again_next_turn() -> None:
    """ "Passing is safe — you stay in the round and act again next turn": Beto passes, Carla plays, Ana passes,
    and Beto — hand intact — is asked again in the same exchange."""
    state = led_pair_of_4s()
    hand = state.hands[1]
    state = run(state, Pass(1))
    assert state.hands[1] == hand
    assert 1 in state.participants and state.active(1)
    # Carla plays 8s, Ana passes: Beto acts again
    state = run(state, Play(2, (rid(8, 0), rid(8, 1)), 8))
    assert state.turn == 0
    state = run(state, Pass(0))
    assert state.turn == 1
    assert Pass(1) in ruins.legal_actions(state, 1)
    assert Play(1, (rid(6, 0), rid(6, 1)), 6) not in ruins.legal_actions(state, 1)  # 6s no longer beat 8s


def test_passing_does_not_lock_you_out_of_the_exchange() -> None:
    """ "Passing is safe — you stay in the round and act again next turn": after passing and a new play, the
    passer may follow that play in the same exchange."""
    hands = ([rid(4, 0), rid(1, 0)], [rid(9, 0), rid(2, 0)], [rid(6, 0), rid(2, 1)])
    state = position(hands, leader=0)
    state = run(state, Play(0, (rid(4, 0),), 4), Pass(1), Play(2, (rid(6, 0),), 6), Pass(0))
    assert state.turn == 1
    state, events = act(state, Play(1, (rid(9, 0),), 9))
    assert events[0] == ev.RuinsPlayed(1, (rid(9, 0),), 9, 1, False)
    assert state.pile == (rid(4, 0), rid(6, 0), rid(9, 0))


def test_matching_the_previous_rank_exactly_skips_the_next_player() -> None:
    """ "Matching the previous rank exactly skips the next player": 3 players, Ana leads a 5, Beto plays a 5:
    Carla is skipped and it is Ana's turn."""
    hands = ([rid(5, 0), rid(1, 0)], [rid(5, 1), rid(2, 0)], [rid(9, 0), rid(2, 1)])
    state = position(hands, leader=0)
    state = run(state, Play(0, (rid(5, 0),), 5))
    state, events = act(state, Play(1, (rid(5, 1),), 5))
    assert events == [ev.RuinsPlayed(1, (rid(5, 1),), 5, 1, False), ev.PlayerSkipped(2), ev.NextTurn(0)]
    assert state.turn == 0
    rejected(state, Play(2, (rid(9, 0),), 9), "turn", NotYourTurn)
    # the skip counts like a pass: when Ana passes, Beto (the last to play) leads
    state, events = act(state, Pass(0))
    assert events == [ev.Passed(0), ev.PileCleared(1)]


def test_a_higher_rank_does_not_skip() -> None:
    """ "Matching the previous rank exactly skips": beating the rank instead skips nobody."""
    hands = ([rid(5, 0), rid(1, 0)], [rid(6, 1), rid(2, 0)], [rid(9, 0), rid(2, 1)])
    state = position(hands, leader=0)
    state = run(state, Play(0, (rid(5, 0),), 5))
    state, events = act(state, Play(1, (rid(6, 1),), 6))
    assert events == [ev.RuinsPlayed(1, (rid(6, 1),), 6, 1, False), ev.NextTurn(2)]
    assert not any(isinstance(e, ev.PlayerSkipped) for e in events)


def test_when_everyone_but_one_has_passed_in_a_row_the_last_player_to_play_leads_fresh() -> None:
    """ "When everyone but one player has passed in a row, the pile is discarded and the last player to play
    leads fresh": the new lead may be of any count and any rank."""
    state = run(led_pair_of_4s(), Play(1, (rid(6, 0), rid(6, 1)), 6), Pass(2))
    pile = state.pile
    assert pile == (rid(4, 0), rid(4, 1), rid(6, 0), rid(6, 1))
    state, events = act(state, Pass(0))
    assert events == [ev.Passed(0), ev.PileCleared(1)]
    assert state.pile == () and state.top is None
    assert set(pile) <= set(state.discard)
    assert state.turn == 1 and ruins.to_act(state) == [1]
    assert Pass(1) not in ruins.legal_actions(state, 1)
    state, events = act(state, Play(1, (rid(2, 0),), 2))  # lower rank and a new count: a fresh lead
    assert events[0] == ev.RuinsPlayed(1, (rid(2, 0),), 2, 1, True)


def test_passes_must_be_in_a_row_a_play_restarts_the_count() -> None:
    """ "When everyone but one player has passed in a row": a pass before the latest play does not count."""
    hands = ([rid(4, 0), rid(1, 0)], [rid(9, 0), rid(2, 0)], [rid(6, 0), rid(2, 1)], [rid(3, 0), rid(2, 2)])
    state = position(hands, leader=0)
    state = run(state, Play(0, (rid(4, 0),), 4), Pass(1), Play(2, (rid(6, 0),), 6), Pass(3))
    state, events = act(state, Pass(0))
    assert events == [ev.Passed(0), ev.NextTurn(1)]  # Beto passed before Carla's play: he acts again
    state, events = act(state, Pass(1))
    assert events == [ev.Passed(1), ev.PileCleared(2)]


def test_when_the_last_player_to_play_has_gone_out_the_next_holder_clockwise_leads() -> None:
    """Design for "the last player to play leads fresh" when that player has gone out: the next player
    clockwise still holding cards leads."""
    hands = (
        [rid(4, 0), rid(1, 0)],
        [rid(2, 0), rid(3, 0)],
        [rid(5, 0)],
        [rid(2, 1), rid(3, 1)],
    )
    state = position(hands, leader=0)
    state = run(state, Play(0, (rid(4, 0),), 4), Pass(1))
    state, events = act(state, Play(2, (rid(5, 0),), 5))
    assert events[:2] == [ev.RuinsPlayed(2, (rid(5, 0),), 5, 1, False), ev.WentOut(2, 1, 5, 5)]
    assert events[-1] == ev.NextTurn(3)
    state = run(state, Pass(3), Pass(0))
    state, events = act(state, Pass(1))
    assert events == [ev.Passed(1), ev.PileCleared(3)]
    assert state.turn == 3 and state.top is None and state.pile == ()
    assert Pass(3) not in ruins.legal_actions(state, 3)


# --- the seed's worked exchange ------------------------------------------------------------------------------------


def test_a_quick_exchange_played_out() -> None:
    """ "A quick exchange, played out. Ana leads a pair of 4s. Beto answers with two 7s and flips a torch to
    sleeve a +2 discovery into one of them — that card is now a 9 for the rest of the game. Carla passes, saving
    her pair of 10s for a lead she controls. Diego plays his own two 7s: equal rank, so Ana's turn is skipped.
    Beto and Carla both pass — Diego was the last to play, so the pile is discarded and he leads whatever he
    likes.\""""
    ana_4s = (rid(4, 0), rid(4, 1))
    beto_7s = (rid(7, 0), rid(7, 1))
    carla_10s = (rid(10, 0), rid(10, 1))
    diego_7s = (rid(7, 2), rid(7, 3))
    hands = [
        [*ana_4s, rid(1, 0), rid(2, 0), rid(3, 0), rid(5, 0), rid(6, 0), rid(8, 0), rid(9, 0)],
        [*beto_7s, rid(1, 1), rid(2, 1), rid(3, 1), rid(5, 1), rid(6, 1), rid(8, 1), rid(9, 1)],
        [*carla_10s, rid(1, 2), rid(2, 2), rid(3, 2), rid(5, 2), rid(6, 2), rid(8, 2), rid(9, 2)],
        [*diego_7s, rid(1, 3), rid(2, 3), rid(3, 3), rid(5, 3), rid(6, 3), rid(8, 3), rid(9, 3)],
    ]
    plus2, plus1, wild, dig, twin = 5, 0, 13, 26, 17
    assert [BOOK.discoveries[d].effect for d in (plus2, plus1, wild, dig, twin)] == [
        "plus2",
        "plus1",
        "wild",
        "dig",
        "twin",
    ]
    state = position(hands, leader=ANA, market=[plus2, plus1, wild, dig], discovery_deck=[twin, 22])
    assert [len(h) for h in state.hands] == [9, 9, 9, 9]
    assert state.turn == ANA and state.torches == (3, 3, 3, 3)

    # Ana leads a pair of 4s.
    state, events = act(state, Play(ANA, ana_4s, 4))
    assert events == [ev.RuinsPlayed(ANA, ana_4s, 4, 2, True), ev.NextTurn(BETO)]
    assert state.turn == BETO

    # Beto answers with two 7s and flips a torch to sleeve a +2 discovery into one of them.
    sleeved = beto_7s[0]
    beto_play = Play(BETO, beto_7s, 7, purchases=(Purchase(plus2, sleeved),))
    assert beto_play in ruins.craft_options(state, Play(BETO, beto_7s, 7))
    state, events = act(state, beto_play)
    assert events == [
        ev.DiscoveryBought(BETO, plus2, sleeved, 0, 1, (plus1, wild, dig, twin), twin),
        ev.RuinsPlayed(BETO, beto_7s, 7, 2, False),
        ev.NextTurn(CARLA),
    ]
    assert state.torches == (3, 2, 3, 3)
    assert state.ruins[sleeved] == Ruin(night=False, sleeves=(plus2, None, None), claim=None)
    assert state.ruins[beto_7s[1]] == Ruin()
    assert state.market == (plus1, wild, dig, twin) and state.discovery_deck == (22,)
    assert profile(BOOK, sleeved, state.ruins[sleeved]).ranks == {7, 9}  # "that card is now a 9" (design: or its 7)
    assert ruins.view(state, DIEGO)["ruins"][sleeved]["ranks"] == [7, 9]
    assert state.top is not None and (state.top.seat, state.top.rank, state.top.count) == (BETO, 7, 2)

    # Carla passes, saving her pair of 10s for a lead she controls.
    assert Play(CARLA, carla_10s, 10) in ruins.legal_actions(state, CARLA)
    state, events = act(state, Pass(CARLA))
    assert events == [ev.Passed(CARLA), ev.NextTurn(DIEGO)]
    assert set(carla_10s) <= set(state.hands[CARLA])

    # Diego plays his own two 7s: equal rank, so Ana's turn is skipped.
    state, events = act(state, Play(DIEGO, diego_7s, 7))
    assert events == [ev.RuinsPlayed(DIEGO, diego_7s, 7, 2, False), ev.PlayerSkipped(ANA), ev.NextTurn(BETO)]
    assert state.turn == BETO
    rejected(state, Pass(ANA), "turn", NotYourTurn)
    assert len(state.hands[ANA]) == 7

    # Beto and Carla both pass.
    state, events = act(state, Pass(BETO))
    assert events == [ev.Passed(BETO), ev.NextTurn(CARLA)]
    state, events = act(state, Pass(CARLA))
    # Diego was the last to play, so the pile is discarded and he leads whatever he likes.
    assert events == [ev.Passed(CARLA), ev.PileCleared(DIEGO)]
    assert state.pile == () and state.top is None
    assert set(ana_4s + beto_7s + diego_7s) <= set(state.discard)
    assert state.turn == DIEGO and ruins.to_act(state) == [DIEGO]
    assert Pass(DIEGO) not in ruins.legal_actions(state, DIEGO)
    assert Play(DIEGO, (rid(1, 3),), 1) in ruins.legal_actions(state, DIEGO)
    assert state.ruins[sleeved].sleeves == (plus2, None, None)  # the upgrade stays with the ruin
    assert [len(h) for h in state.hands] == [7, 7, 9, 7]
    assert state.torches == (3, 2, 3, 3)


# --- errors --------------------------------------------------------------------------------------------------------


def test_every_refused_action_names_the_rule_and_changes_nothing() -> None:
    """Every rejected action raises a RuleViolation whose message names the rule; decide() leaves the state equal
    to a saved copy — including a crafted play whose purchase would have been paid before the rank check."""
    state = led_pair_of_4s()
    saved = copy.deepcopy(state)
    cases: list[tuple[Action, str, type[RuleViolation]]] = [
        (Play(1, (rid(7, 0),), 7), "exactly 2 ruin", RuleViolation),
        (Play(1, (rid(6, 0), rid(7, 0)), 6), "one rank", RuleViolation),
        (Play(1, (rid(2, 0), rid(2, 1)), 2), "own hand", RuleViolation),
        (Play(1, (rid(6, 0), rid(6, 0)), 6), "only once", RuleViolation),
        (Play(1, (), 6), "at least one ruin", RuleViolation),
        (Play(2, (rid(8, 0), rid(8, 1)), 8), "turn", NotYourTurn),
        (Pass(0), "turn", NotYourTurn),
        (Flip(1, rid(7, 0)), "start of a round", NotYourTurn),
        # the +2 makes the 6 an 8 but not its partner: still refused, and the torch is not spent
        (Play(1, (rid(6, 0), rid(6, 1)), 8, purchases=(Purchase(0, rid(6, 0)),)), "one rank", RuleViolation),
        (Play(1, (rid(6, 0), rid(6, 1)), 6, purchases=(Purchase(38, rid(6, 0)),)), "market", RuleViolation),
        # 3 torches for slot 3, then none left for slot 0
        (
            Play(1, (rid(6, 0), rid(6, 1)), 6, purchases=(Purchase(3, rid(6, 0)), Purchase(0, rid(6, 1)))),
            "lit torch",
            RuleViolation,
        ),
    ]
    for action, rule, error in cases:
        rejected(state, action, rule, error)
    assert state == saved
    assert state.torches == (3, 3, 3)

    lower = run(state, Pass(1))
    rejected(lower, Play(2, (rid(3, 0), rid(3, 1)), 3), "equal or higher rank")
    rejected(position(LEAD_HANDS, leader=0), Pass(0), "leader must play")
    rejected(
        position(LEAD_HANDS, leader=0),
        Play(0, (rid(4, 0),), 4, purchases=(Purchase(0, rid(9, 0)),)),
        "only the ruins you are playing",
    )


def test_can_follow_agrees_with_the_listed_follows_over_random_games() -> None:
    """'must play exactly as many ruins at an equal or higher rank, or pass': can_follow is True exactly when a
    plain follow is listed (the analytics count 'passes when able to follow' with it)."""
    from domain.ruins.bots import RandomBot
    from domain.ruins.legal import can_follow, plays
    from domain.ruins.simulate import play_game

    checked = 0
    for seed in range(6):
        played = play_game(["a", "b", "c", "d"], [RandomBot()] * 4, seed=f"follow-{seed}")
        state = ruins.new_game(["a", "b", "c", "d"], seed=f"follow-{seed}")
        for action in played.actions:
            if state.phase == "play" and state.top is not None:
                assert can_follow(state, action.seat) == bool(plays(state, action.seat))
                checked += 1
            state = ruins.apply(state, action)
    assert checked > 500
