"""Seed statements and designed rules that the other test files only covered indirectly.

Each test names the seed sentence or the section of docs/rules/ruins.md it checks.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from domain import ruins
from domain.errors import RuleViolation, SetupError
from domain.ruins import Flip, GameState, Play, Ruin
from domain.ruins import events as ev
from domain.ruins.bots import HeuristicBot, RandomBot
from domain.ruins.simulate import play_game
from domain.seeds import rng

BOOK = ruins.book_of()
NAMES = ("Ana", "Beto", "Carla", "Diego", "Eva")


def rid(rank: int, copy: int = 0) -> int:
    return (rank - 1) * 5 + copy


def disc(effect: str, n: int = 0) -> int:
    return [d.id for d in BOOK.discoveries if d.effect == effect][n]


def sleeved(*discoveries: int) -> Ruin:
    sleeves: list[int | None] = [None, None, None]
    for d in discoveries:
        sleeves[BOOK.position_index(d)] = d
    return Ruin(False, tuple(sleeves), None)


def game(hands: list[list[int]], **setup: Any) -> GameState:
    return ruins.new_game_from_setup(NAMES[: len(hands)], hands, **setup)


def test_turn_a_lonely_6_into_a_second_4() -> None:
    """'Do it to build a set (turn a lonely 6 into a second 4)': a 6 flipped to night plays in a pair of 4s."""
    lonely_six = rid(6, 3)
    assert (BOOK.ruins[lonely_six].day_rank, BOOK.ruins[lonely_six].night_rank) == (6, 4)
    four = rid(4, 0)
    state = game([[four, lonely_six, rid(9)], [rid(2), rid(3)]], flips_done=False)
    with pytest.raises(RuleViolation, match="one rank"):  # unflipped, the 6 is no 4
        ruins.decide(ruins.apply(ruins.apply(state, Flip(0, None)), Flip(1, None)), Play(0, (four, lonely_six), 4))
    state = ruins.apply(ruins.apply(state, Flip(0, lonely_six)), Flip(1, None))
    events = ruins.decide(state, Play(0, (four, lonely_six), 4))
    assert [e for e in events if isinstance(e, ev.RuinsPlayed)] == [ev.RuinsPlayed(0, (four, lonely_six), 4, 2, True)]


def test_points_only_ever_come_from_emptying_your_hand() -> None:
    """'points only ever come from emptying your hand before the others': over whole games, VP change only
    when a player goes out (the award) or a round ends (the last holder's penalty)."""
    for players in (2, 3, 4, 5):
        played = play_game(NAMES[:players], [RandomBot(craft_rate=0.5), HeuristicBot()] * 3, seed=f"vp-{players}")
        state: GameState | None = None
        for event in played.events:
            before = None if state is None else state.vp
            state = ruins.evolve(state, event)
            if before is not None and state.vp != before:
                assert isinstance(event, (ev.WentOut, ev.RoundEnded)), event


def test_a_monster_you_build_but_do_not_claim_can_come_back_in_a_rivals_hand() -> None:
    """'a monster you build but don't claim can come back in a rival's hand': an upgraded, unclaimed ruin is
    dealt by the shuffle like any other; for some seeds it lands with the other player."""
    monster = rid(8)
    upgrades = sleeved(disc("plus3"), disc("twin"), disc("relight", 1))
    holders = set()
    for seed in range(12):
        state = game(
            [[monster], [rid(2), rid(3)]], ruins={monster: upgrades}, seed=f"monster-{seed}", market=(None,) * 4
        )
        state = ruins.apply(state, Play(0, (monster,), 8))  # Ana goes out with it; the round ends
        assert state.round == 2 and state.ruins[monster] == upgrades
        holders.update(s for s, hand in enumerate(state.hands) if monster in hand)
    assert 1 in holders  # Beto, the rival, was dealt Ana's monster


def test_night_sides_are_designed_as_documented() -> None:
    """docs/rules/ruins.md 2.1: night = ((day - 1 + offset[copy]) mod 10) + 1 with offsets [2, 4, 6, 8, 5];
    every night rank appears 5 times; exactly the night sides that lower the rank carry an effect."""
    offsets = [2, 4, 6, 8, 5]
    for card in BOOK.ruins:
        assert card.night_rank == (card.day_rank - 1 + offsets[card.copy]) % 10 + 1
        assert (card.night_effect is not None) == (card.night_rank < card.day_rank)
    assert Counter(card.night_rank for card in BOOK.ruins) == {rank: 5 for rank in range(1, 11)}


def test_the_discovery_deck_is_as_documented() -> None:
    """docs/rules/ruins.md 2.2: 13 top (+1 x5, +2 x5, +3 x3), 13 middle (wild x4, twin x5, relight x4),
    13 bottom (dig x5, burden x5, relight x3)."""
    found = Counter((d.position, d.effect) for d in BOOK.discoveries)
    assert found == {
        ("top", "plus1"): 5, ("top", "plus2"): 5, ("top", "plus3"): 3,
        ("middle", "wild"): 4, ("middle", "twin"): 5, ("middle", "relight"): 4,
        ("bottom", "dig"): 5, ("bottom", "burden"): 5, ("bottom", "relight"): 3,
    }  # fmt: skip


def test_a_dig_with_too_few_ruins_left_draws_what_there_is_and_discards_as_many() -> None:
    """docs/rules/ruins.md 2.8: a dig draws up to its amount from the draw pile, then discards as many as drawn."""
    card = rid(7)
    state = game(
        [[card, rid(1)], [rid(9), rid(10)]],
        ruins={card: Ruin(False, (None, None, disc("dig")), None)},
        draw_pile=(rid(2),),
        market=(None,) * 4,
    )
    events = ruins.decide(state, Play(0, (card,), 7))
    assert [e for e in events if isinstance(e, ev.RuinsDrawn)] == [ev.RuinsDrawn(0, (rid(2),), "dig")]
    assert [e for e in events if isinstance(e, ev.DiscardRequired)] == [ev.DiscardRequired(0, 1)]


def test_a_burden_on_a_play_that_goes_out_hits_the_next_holder_but_not_when_the_round_ends() -> None:
    """docs/rules/ruins.md 2.8: the next player still holding cards draws; a play that ends the round has no
    next player to burden."""
    card = rid(7)
    burdened = Ruin(False, (None, None, disc("burden")), None)
    three = game([[card], [rid(9), rid(10)], [rid(2), rid(3)]], ruins={card: burdened}, draw_pile=(rid(4),))
    events = ruins.decide(three, Play(0, (card,), 7))
    assert any(isinstance(e, ev.WentOut) for e in events)
    assert [e for e in events if isinstance(e, ev.RuinsDrawn)] == [ev.RuinsDrawn(1, (rid(4),), "burden")]
    two = game([[card], [rid(9), rid(10)]], ruins={card: burdened}, draw_pile=(rid(4),))
    events = ruins.decide(two, Play(0, (card,), 7))
    assert any(isinstance(e, ev.RoundEnded) for e in events)
    assert not [e for e in events if isinstance(e, ev.RuinsDrawn) and e.reason == "burden"]


def test_the_round_1_leader_is_drawn_from_the_seed() -> None:
    """docs/rules/ruins.md 2.9: the first leader comes from the game's seed (and only from it)."""
    leaders = Counter()
    for seed in range(40):
        state = ruins.new_game(NAMES[:4], seed=seed)
        assert state.leader == rng(str(seed), "first-leader").choice(range(4))
        assert ruins.new_game(NAMES[:4], seed=seed).leader == state.leader
        leaders[state.leader] += 1
    assert set(leaders) == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [1, 6])
def test_ruins_is_for_2_to_5_players(players: int) -> None:
    """'(2-5 players)'."""
    with pytest.raises(SetupError, match="2 to 5 players"):
        ruins.new_game([f"p{i}" for i in range(players)], seed=1)


def test_ruins_has_no_options_yet() -> None:
    """docs/rules/ruins.md 2.12: unknown options are refused, not ignored."""
    with pytest.raises(SetupError, match="option"):
        ruins.new_game(NAMES[:3], options={"rounds": 5}, seed=1)


def test_views_hide_the_seed_and_the_orders_but_show_the_discards() -> None:
    """docs/rules/ruins.md 3.3: the seed only once the game is over; pile orders never; discards to all."""
    played = play_game(NAMES[:3], [HeuristicBot()] * 3, seed="views")
    state = ruins.new_game(NAMES[:3], seed="views")
    checked_discard = False
    for action in played.actions:
        for seat in range(3):
            seen = ruins.view(state, seat)
            assert "seed" not in seen and "order" not in seen["draw_pile"] and "order" not in seen["discovery_deck"]
            assert seen["discard"] == list(state.discard)
            checked_discard = checked_discard or bool(state.discard)
        state = ruins.apply(state, action)
    assert checked_discard
    assert ruins.view(state, 0)["seed"] == "views"  # over: the seed is public


def test_redact_event_hides_exactly_what_a_seat_may_not_know() -> None:
    """docs/rules/ruins.md 3.3: the event log as a seat reads it."""
    events = [ruins.event_to_dict(e) for e in ruins.start(NAMES[:3], seed="redact")]
    started, dealt = (ruins.redact_event(e, 1, False) for e in events)
    assert started["seed"] is None and started["discovery_deck"] == {"count": len(events[0]["discovery_deck"])}
    assert dealt["hands"][1] == events[1]["hands"][1]
    assert dealt["hands"][0] == {"count": 9} and dealt["draw_pile"] == {"count": len(events[1]["draw_pile"])}
    assert ruins.redact_event(events[0], 1, True)["seed"] == "redact"  # over: public
    flip = ruins.event_to_dict(ev.NightFlipChosen(0, 7))
    assert ruins.redact_event(flip, 1, False)["ruin"] == "hidden" and ruins.redact_event(flip, 0, False) == flip
    drawn = ruins.event_to_dict(ev.RuinsDrawn(2, (5, 6), "dig"))
    assert ruins.redact_event(drawn, 0, False)["ruins"] == {"count": 2}
    assert ruins.redact_event(events[1], None, False) == events[1]  # the referee reads everything
    json.dumps([started, dealt])
