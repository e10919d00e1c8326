"""Seed step 5 "Go out", the round reset, and the two ways to win (instant win, the Showdown).

Every test names the seed sentence it checks (seeds/000_7f6bf69c85b094d3.txt); where the seed is silent
the design of the engine briefing applies (award charts per player count, the leader tie-break, ...).
Rounds are brought to their end quickly with ``ruins.new_game_from_setup`` and hands of 1-2 ruins.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import ruins
from domain.errors import GameOver, NotYourTurn
from domain.ruins import Flip, GameState, Outcome, Pass, Play, Ruin
from domain.ruins import events as ev
from domain.ruins.bots import HeuristicBot, Seen
from domain.ruins.simulate import play_game

BOOK = ruins.book_of()
NAMES = ("Ana", "Beto", "Carla", "Diego", "Eva")
CHARTS = {2: (3,), 3: (4, 2), 4: (5, 3, 1), 5: (5, 3, 2, 1)}  # the design's award charts (briefing)


# --- helpers -------------------------------------------------------------------------------------------------------


def rid(rank: int, copy: int = 0) -> int:
    """The id of the ruin with this day rank and copy number."""
    card = (rank - 1) * 5 + copy
    assert (BOOK.ruins[card].day_rank, BOOK.ruins[card].copy) == (rank, copy)
    return card


def game(hands: list[list[int]], **setup: Any) -> GameState:
    return ruins.new_game_from_setup(NAMES[: len(hands)], hands, **setup)


def step(state: GameState, action: ruins.Action) -> tuple[GameState, list[ruins.Event]]:
    events = ruins.decide(state, action)
    return ruins.replay(events, state), events


def run(state: GameState, *actions: ruins.Action) -> tuple[GameState, list[ruins.Event]]:
    """Apply the actions in turn; returns the final state and every event they produced."""
    log: list[ruins.Event] = []
    for action in actions:
        state, events = step(state, action)
        log.extend(events)
    return state, log


def of(events: list[ruins.Event] | tuple[ruins.Event, ...], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def single(seat: int, rank: int, copy: int = 0) -> Play:
    return Play(seat, (rid(rank, copy),), rank)


def staircase(n: int, **setup: Any) -> tuple[GameState, list[Play]]:
    """Seat i holds a lone ruin of rank i + 1 and plays it in turn; the last seat holds two 10s and ends last."""
    hands = [[rid(seat + 1)] for seat in range(n - 1)] + [[rid(10, 0), rid(10, 1)]]
    return game(hands, **setup), [single(seat, seat + 1) for seat in range(n - 1)]


def standard_set_aside(n: int) -> tuple[int, ...]:
    return tuple(r.id for r in BOOK.ruins if r.copy >= BOOK.copies_in_play[n])


def all_flip_none(state: GameState) -> GameState:
    state, _ = run(state, *(Flip(seat, None) for seat in state.participants))
    return state


def finish_with_bots(state: GameState, seed: int = 0) -> GameState:
    rng = random.Random(seed)
    bot = HeuristicBot()
    for _ in range(10_000):
        if state.outcome is not None:
            return state
        seat = ruins.to_act(state)[0]
        state = ruins.apply(state, bot.choose(Seen.from_state(state, seat), ruins.legal_actions(state, seat), rng))
    raise AssertionError("the game did not end")


# --- "Play your last ruin and immediately score the award for your finishing position" ----------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_play_your_last_ruin_and_immediately_score_the_award_for_your_finishing_position(n: int) -> None:
    """'Play your last ruin and immediately score the award for your finishing position (the scoreboard shows the
    values — going out 1st is worth the most, 5 VP on the standard chart).' Charts: 2p [3], 3p [4,2], 4p [5,3,1],
    5p [5,3,2,1]."""
    chart = BOOK.award_charts[n]
    assert chart == CHARTS[n]
    assert chart[0] == max(chart) and list(chart) == sorted(chart, reverse=True)
    if n >= 4:
        assert chart[0] == 5
    state, plays = staircase(n)
    for place, play in enumerate(plays, start=1):
        state, events = step(state, play)
        assert of(events, ev.WentOut)[0] == ev.WentOut(play.seat, place, chart[place - 1], chart[place - 1])
        assert state.vp[play.seat] == chart[place - 1]
        if place < n - 1:  # scored at once, while the round goes on
            assert state.round == 1 and state.phase == "play" and state.finish_order == tuple(range(place))
    assert state.round == 2
    assert state.vp == (*chart, 0)


def test_going_out_scores_on_top_of_the_vp_already_held() -> None:
    """'immediately score the award for your finishing position': the award adds to the VP you had."""
    state, plays = staircase(4, vp=[2, 4, 1, 0])
    state, _ = run(state, *plays)
    assert state.vp == (2 + 5, 4 + 3, 1 + 1, 0)


# --- "Everyone else keeps playing; the last player still holding cards ends the round and loses 1 VP" --------------


def test_everyone_else_keeps_playing_and_the_last_player_holding_cards_ends_the_round_losing_1_vp() -> None:
    """'Everyone else keeps playing; the last player still holding cards ends the round and loses 1 VP.'"""
    hands = [[rid(3)], [rid(4), rid(1)], [rid(5), rid(2, 0), rid(2, 1)]]
    state = game(hands, vp=[0, 3, 0])
    state, events = step(state, single(0, 3))
    assert of(events, ev.WentOut)[0].seat == 0 and not of(events, ev.RoundEnded)
    assert state.phase == "play" and ruins.to_act(state) == [1]  # the others keep playing
    state, events = run(state, single(1, 4), single(2, 5), Pass(1))
    assert of(events, ev.PileCleared) == [ev.PileCleared(2)] and state.round == 1
    state, events = step(state, Play(2, (rid(2, 0), rid(2, 1)), 2))  # Carla goes out second; Beto still holds a 1
    assert of(events, ev.RoundEnded) == [ev.RoundEnded(1, 1, 1, (4, 3 - 1, 2), (0, 2, 1))]
    assert of(events, ev.RoundDealt)[0].round == 2
    assert state.vp == (4, 2, 2)


def test_the_last_player_loses_1_vp_but_never_drops_below_0() -> None:
    """'the last player still holding cards ends the round and loses 1 VP' (the VP track starts at 0)."""
    state, plays = staircase(3)
    state, events = run(state, *plays)
    [ended] = of(events, ev.RoundEnded)
    assert (ended.last, ended.penalty) == (2, 0)
    assert state.vp == (4, 2, 0)


# --- "you can never hold more than 10 VP" -------------------------------------------------------------------------


def test_you_can_never_hold_more_than_10_vp() -> None:
    """'Note the cap: you can never hold more than 10 VP, so at the top of the track only going out first matters.'"""
    state, plays = staircase(3, vp=[8, 9, 10])  # 8 + 4 and 9 + 2 both stop at 10; 10 - 1 = 9
    state, events = run(state, *plays)
    assert [e.vp for e in of(events, ev.WentOut)] == [10, 10]
    assert state.vp == (10, 10, 9)
    assert not of(events, ev.GameWon)  # Ana and Beto did not start the round on 9+ and first out


# --- "all ruins — upgrades included — shuffle back together, everyone gets a new hand of 9, claimed ruins go home" --


def test_round_reset_all_ruins_shuffle_back_new_hands_of_9_and_claimed_ruins_go_home() -> None:
    """'Then the round resets: torches relight, all ruins — upgrades included — shuffle back together, everyone
    gets a new hand of 9, claimed ruins go home to their owners'."""
    aside = standard_set_aside(3)
    plus2 = next(d.id for d in BOOK.discoveries if d.effect == "plus2")
    twin = next(d.id for d in BOOK.discoveries if d.effect == "twin")
    setup_ruins = {
        rid(5, 0): Ruin(claim=0),  # sits out this round
        rid(9, 1): Ruin(claim=0),  # still in Carla's hand when the round ends
        rid(6, 0): Ruin(claim=1),  # in the draw pile
        rid(3, 0): Ruin(sleeves=(plus2, None, None), claim=2),  # sits out, upgraded
        rid(7, 0): Ruin(sleeves=(None, twin, None)),  # sits out, upgraded, unclaimed
    }
    hands = [[rid(1, 0)], [rid(2, 0)], [rid(9, 0), rid(9, 1)]]
    state = game(hands, ruins=setup_ruins, draw_pile=(rid(6, 0), rid(8, 0)), set_aside=aside)
    assert state.claims_left == (0, 1, 1)
    # Beto goes out with a claim sleeved in that very play: it goes home to him as well.
    state, events = run(state, single(0, 1), Play(1, (rid(2, 0),), 2, claims=(rid(2, 0),)))
    [dealt] = of(events, ev.RoundDealt)
    assert (dealt.round, dealt.showdown, dealt.participants) == (2, False, (0, 1, 2))
    assert state.round == 2 and state.phase == "flip"
    assert [len(h) for h in state.hands] == [BOOK.hand_size] * 3 == [9] * 3
    everywhere = [c for h in state.hands for c in h] + list(state.draw_pile)
    assert sorted(everywhere) == sorted(set(range(len(BOOK.ruins))) - set(aside))
    assert state.pile == () and state.discard == ()
    assert {rid(5, 0), rid(9, 1)} <= set(state.hands[0])
    assert {rid(6, 0), rid(2, 0)} <= set(state.hands[1])
    assert rid(3, 0) in state.hands[2]
    for card, ruin in enumerate(state.ruins):
        if ruin.claim is not None:
            assert card in state.hands[ruin.claim]
    assert state.ruins[rid(3, 0)] == Ruin(sleeves=(plus2, None, None), claim=2)
    assert state.ruins[rid(7, 0)] == Ruin(sleeves=(None, twin, None))
    assert state.torches == (3, 3, 3)


@pytest.mark.parametrize(("n", "vp", "leader"), [(3, [6, 0, 5], 1), (4, [6, 0, 5, 9], 1)])
def test_the_player_with_the_fewest_vp_leads_the_next_round(n: int, vp: list[int], leader: int) -> None:
    """'and the player with the fewest VP leads the next round.'"""
    state, plays = staircase(n, vp=vp)
    state, events = run(state, *plays)
    fewest = min(state.vp)
    assert [s for s in range(n) if state.vp[s] == fewest] == [leader]
    assert of(events, ev.RoundDealt)[0].leader == leader
    state = all_flip_none(state)
    assert state.phase == "play" and state.turn == leader and ruins.to_act(state) == [leader]
    assert state.top is None and Pass(leader) not in ruins.legal_actions(state, leader)


@pytest.mark.parametrize(
    ("n", "vp", "tied", "leader"),
    [
        (3, [6, 0, 3], (1, 2), 2),  # Beto out 2nd (2 VP), Carla last (3 - 1 = 2 VP): Carla finished worse
        (4, [0, 0, 2, 6], (1, 2), 2),  # Beto out 2nd, Carla out 3rd: both on 3 VP, Carla finished worse
    ],
)
def test_fewest_vp_leads_and_a_tie_goes_to_whoever_finished_worse(
    n: int, vp: list[int], tied: tuple[int, ...], leader: int
) -> None:
    """'the player with the fewest VP leads the next round' (design: a tie goes to the worse finisher)."""
    state, plays = staircase(n, vp=vp)
    state, events = run(state, *plays)
    fewest = min(state.vp)
    assert tuple(s for s in range(n) if state.vp[s] == fewest) == tied
    assert of(events, ev.RoundDealt)[0].leader == leader
    assert all_flip_none(state).turn == leader


# --- "Instant win — if you start a round with 9 or 10 VP and are the first to go out that round, you win" ----------


@pytest.mark.parametrize("start_vp", [9, 10])
def test_instant_win_start_a_round_with_9_or_10_vp_and_go_out_first(start_vp: int) -> None:
    """'Instant win — if you start a round with 9 or 10 VP and are the first to go out that round, you win
    immediately; the others don't even finish the round.'"""
    state, plays = staircase(3, vp=[start_vp, 0, 0], round=2)
    state, events = step(state, plays[0])
    assert of(events, ev.GameWon) == [ev.GameWon(0, "instant", 2)]
    assert not of(events, ev.RoundEnded) and not of(events, ev.RoundDealt)
    assert ruins.outcome(state) == Outcome(0, "instant", 2)
    assert state.phase == "over" and state.round == 2
    assert state.hands[1] and state.hands[2]  # the others never finish the round
    assert ruins.to_act(state) == [] and ruins.legal_actions(state, 1) == []
    with pytest.raises(GameOver):
        ruins.decide(state, plays[1])


def test_instant_win_also_when_following_rather_than_leading() -> None:
    """'if you start a round with 9 or 10 VP and are the first to go out that round, you win immediately'."""
    state = game([[rid(1), rid(10, 0)], [rid(2)], [rid(10, 1), rid(10, 2)]], vp=[0, 9, 0], round=3)
    state, events = run(state, single(0, 1), single(1, 2))
    assert of(events, ev.GameWon) == [ev.GameWon(1, "instant", 3)]
    assert state.outcome == Outcome(1, "instant", 3)


def test_reaching_9_during_a_round_and_going_out_first_is_not_an_instant_win() -> None:
    """'if you START a round with 9 or 10 VP and are the first to go out': 4 + 5 = 9 this round does not win."""
    state, plays = staircase(4, vp=[4, 0, 0, 0])
    state, events = step(state, plays[0])
    assert of(events, ev.WentOut)[0].vp == 9
    assert not of(events, ev.GameWon) and state.outcome is None and state.phase == "play"
    state, events = run(state, *plays[1:])
    assert not of(events, ev.GameWon)
    assert state.round == 2 and state.round_start_vp[0] == 9  # next round Ana starts on 9


def test_starting_a_round_on_9_but_going_out_second_is_not_an_instant_win() -> None:
    """'are the first to go out that round': Beto starts on 9 but Ana goes out first."""
    state, plays = staircase(3, vp=[0, 9, 0])
    state, events = run(state, *plays)
    assert not of(events, ev.GameWon) and state.outcome is None
    assert state.round == 2 and state.vp[1] == 10


def test_instant_win_in_round_4_ends_the_game_before_any_showdown() -> None:
    """'There are two ways to win' — an instant win in round 4 leaves no Showdown to play."""
    state, plays = staircase(3, vp=[9, 8, 8], round=4)
    state, events = step(state, plays[0])
    assert of(events, ev.GameWon) == [ev.GameWon(0, "instant", 4)]
    assert not of(events, ev.RoundDealt) and not state.showdown


# --- "A game lasts at most 4 rounds" / "The Showdown" -------------------------------------------------------------


def test_a_game_lasts_at_most_4_rounds_round_3_is_followed_by_an_ordinary_round_4() -> None:
    """'A game lasts at most 4 rounds (plus, sometimes, a final Showdown).'"""
    state, plays = staircase(3, round=3)
    state, events = run(state, *plays)
    [dealt] = of(events, ev.RoundDealt)
    assert (dealt.round, dealt.showdown, dealt.participants) == (4, False, (0, 1, 2))
    assert state.round == 4 and not state.showdown


@pytest.mark.parametrize(
    ("vp", "participants"),
    [
        ([0, 6, 6], (0, 1)),  # Ana 4, Beto 8, Carla 5: Ana (first out) and Beto (most VP), though Carla beats Ana
        ([6, 3, 0], (0, 1)),  # Ana 10 is first out AND on top; the opponent with the most VP is Beto (5)
        ([0, 5, 7, 3], (0, 1, 2)),  # 4p: Ana 5, Beto 8, Carla 8, Diego 2: tied opponents both play
    ],
)
def test_the_showdown_first_out_in_round_4_and_the_opponent_or_tied_opponents_with_the_most_vp(
    vp: list[int], participants: tuple[int, ...]
) -> None:
    """'The Showdown — if nobody has won by the end of round 4, the player who went out first in round 4 and the
    opponent (or tied opponents) with the most VP play one final round.'"""
    n = len(vp)
    state, plays = staircase(n, vp=vp, round=4)
    state, events = run(state, *plays)
    [ended] = of(events, ev.RoundEnded)
    assert ended.round == 4 and ended.order[0] == 0
    [dealt] = of(events, ev.RoundDealt)
    assert (dealt.round, dealt.showdown, dealt.participants) == (5, True, participants)
    assert state.showdown and state.participants == participants
    for seat in range(n):
        assert len(state.hands[seat]) == (BOOK.hand_size if seat in participants else 0)
    assert ruins.to_act(state) == list(participants)
    outsiders = [s for s in range(n) if s not in participants]
    for seat in outsiders:
        assert ruins.legal_actions(state, seat) == []
        with pytest.raises(NotYourTurn):
            ruins.decide(state, Flip(seat, None))
    # The Showdown is played to its end: the first to go out wins, and there is no round after it.
    final = finish_with_bots(state)
    assert final.outcome is not None and final.outcome.how == "showdown" and final.outcome.round == 5
    assert final.round == 5 and final.outcome.winner == final.finish_order[0] and final.outcome.winner in participants


def test_the_showdown_deal_sends_claimed_ruins_home_to_participants_only() -> None:
    """'claimed ruins go home to their owners' — in the Showdown only its players are dealt (and get theirs)."""
    claims = {rid(7, 0): Ruin(claim=1), rid(8, 0): Ruin(claim=2), rid(8, 1): Ruin(claim=0)}
    state, plays = staircase(3, vp=[0, 6, 6], round=4, ruins=claims)  # Showdown: Ana and Beto
    state, _ = run(state, *plays)
    assert state.showdown and state.participants == (0, 1)
    assert rid(8, 1) in state.hands[0] and rid(7, 0) in state.hands[1]
    assert state.hands[2] == () and rid(8, 0) in set(state.hands[0]) | set(state.hands[1]) | set(state.draw_pile)


def test_whoever_goes_out_first_in_the_showdown_wins_regardless_of_score() -> None:
    """'Whoever goes out first in the Showdown wins, regardless of score.' (No VP are awarded in it: design.)"""
    hands = [[rid(6)], [rid(5), rid(10, 0)], []]
    state = game(hands, vp=[2, 9, 10], round=5, showdown=True, participants=[0, 1], leader=1)
    assert ruins.to_act(state) == [1]
    state, events = run(state, single(1, 5), single(0, 6))
    assert of(events, ev.WentOut) == [ev.WentOut(0, 1, 0, 2)]
    assert of(events, ev.GameWon) == [ev.GameWon(0, "showdown", 5)]
    assert state.outcome == Outcome(0, "showdown", 5)
    assert state.vp == (2, 9, 10)
    assert state.hands[1] == (rid(10, 0),)
    with pytest.raises(GameOver):
        ruins.decide(state, single(1, 10))


def test_the_showdown_leader_is_the_participant_with_the_fewest_vp() -> None:
    """'the player with the fewest VP leads the next round' holds for the Showdown round too (design)."""
    state, plays = staircase(3, vp=[0, 6, 6], round=4)  # Ana 4, Beto 8
    state, events = run(state, *plays)
    assert of(events, ev.RoundDealt)[0].leader == 0
    assert all_flip_none(state).turn == 0


# --- a whole game -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_seeded_bot_game_has_exactly_one_winner_within_4_rounds_plus_a_showdown(n: int, seed: int) -> None:
    """'A game lasts at most 4 rounds (plus, sometimes, a final Showdown)' and 'There are two ways to win, and both
    demand going out first'."""
    played = play_game(list(NAMES[:n]), [HeuristicBot()] * n, seed=seed)
    events = played.events
    won = of(events, ev.GameWon)
    assert len(won) == 1 and events[-1] == won[0]
    [win] = won
    assert played.state.outcome == Outcome(win.seat, win.how, win.round)
    dealt = of(events, ev.RoundDealt)
    assert [d.round for d in dealt] == list(range(1, len(dealt) + 1))
    assert len(dealt) <= BOOK.max_rounds + 1 == 5
    assert [d.showdown for d in dealt] == [d.round == 5 for d in dealt]
    assert (win.how == "showdown") == (len(dealt) == 5) and win.round == len(dealt)
    assert len(of(events, ev.RoundEnded)) == len(dealt) - 1
    for e in events:
        if isinstance(e, (ev.WentOut, ev.RoundEnded)):
            assert all(0 <= v <= 10 for v in ([e.vp] if isinstance(e, ev.WentOut) else e.vp))
    # The winner went out first in the deciding round.
    last_round = events[events.index(dealt[-1]) :]
    assert of(last_round, ev.WentOut)[0].seat == win.seat
    if win.how == "instant":
        vp_at_start = of(events, ev.RoundEnded)[-1].vp if len(dealt) > 1 else (0,) * n
        assert vp_at_start[win.seat] >= 9
    else:
        round4 = of(events, ev.RoundEnded)[-1]
        first = round4.order[0]
        best = max(round4.vp[s] for s in range(n) if s != first)
        expected = tuple(sorted({first} | {s for s in range(n) if s != first and round4.vp[s] == best}))
        assert dealt[-1].participants == expected
    assert ruins.replay(events) == played.state
