"""The engine's fast paths give exactly what the plain code they replace gave.

``legal_actions`` lists plays lazily (``LegalPlays``); plays and events are built without their dataclass
``__init__``; some immutable values are shared. Each is checked here against a straightforward
reference over many positions from bot games."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from domain import ruins
from domain.ruins import caches
from domain.ruins import events as ev
from domain.ruins.actions import Action, Flip, Pass, Play, Purchase, new_play, with_claim, with_purchase
from domain.ruins.bots import HeuristicBot, RandomBot, Seen
from domain.ruins.caches import pass_of, profile, ruin
from domain.ruins.legal import LegalPlays, _nth_combination, can_follow, plays
from domain.ruins.profiles import twins
from domain.ruins.setup import shuffle
from domain.ruins.simulate import play_game
from domain.ruins.state import BARE, NO_SLEEVES, GameState, Ruin

BOOK = ruins.book_of()


def reference_plays(state: GameState, seat: int) -> list[Play]:
    """The eager listing ``legal_actions`` used to build: by rank, then size, then combination."""
    by_rank: dict[int, list[int]] = {}
    weights: dict[int, int] = {}
    for card in state.hands[seat]:
        prof = profile(BOOK, card, state.ruins[card])
        if prof.weight != 1:
            weights[card] = prof.weight
        for rank in prof.ranks:
            by_rank.setdefault(rank, []).append(card)
    out: list[Play] = []
    top = state.top
    for rank in sorted(by_rank):
        cards = by_rank[rank]
        if top is None:
            for size in range(1, len(cards) + 1):
                out.extend(Play(seat, combo, rank) for combo in combinations(cards, size))
        elif rank >= top.rank:
            for size in range(1, min(len(cards), top.count) + 1):
                out.extend(
                    Play(seat, combo, rank)
                    for combo in combinations(cards, size)
                    if sum(weights.get(c, 1) for c in combo) == top.count
                )
    return out


def reference_legal(state: GameState, seat: int) -> list[Action]:
    head: list[Action] = [] if state.top is None else [Pass(seat)]
    return head + list(reference_plays(state, seat))


def play_states(games: int, players: int) -> list[GameState]:
    """Every play-phase position of some bot games (random and heuristic, so crafted ruins and twins appear)."""
    states: list[GameState] = []
    for g in range(games):
        bots = [RandomBot(craft_rate=0.6) if (g + s) % 2 else HeuristicBot(torch_rate=0.9) for s in range(players)]
        rng = random.Random(g)
        state = ruins.new_game(["A", "B", "C", "D", "E"][:players], seed=f"fast-{players}-{g}")
        while state.outcome is None:
            seat = ruins.to_act(state)[0]
            if state.phase == "play":
                states.append(state)
            action = bots[seat].choose(Seen.from_state(state, seat), ruins.legal_actions(state, seat), rng)
            state = ruins.apply(state, action)
    return states


@pytest.fixture(scope="module")
def positions() -> list[GameState]:
    return play_states(6, 2) + play_states(4, 4) + play_states(3, 5)


def test_nth_combination_is_itertools_order() -> None:
    for n in range(1, 11):
        cards = tuple(range(10, 10 + n))
        for size in range(1, n + 1):
            listed = list(combinations(cards, size))
            assert [_nth_combination(cards, size, i) for i in range(len(listed))] == listed


def test_legal_plays_are_the_eager_list(positions: list[GameState]) -> None:
    twins = 0
    for state in positions:
        seat = state.turn
        assert seat is not None
        expected = reference_legal(state, seat)
        legal = ruins.legal_actions(state, seat)
        assert isinstance(legal, LegalPlays)
        # Element by element before anything lists them all, from both ends, then as a whole.
        assert len(legal) == len(expected)
        assert [legal[i] for i in range(len(legal))] == expected
        assert [legal[-i] for i in range(1, len(legal) + 1)] == expected[::-1]
        assert legal == expected and expected == legal and (legal != expected) is False
        assert list(legal) == expected and legal[1:3] == expected[1:3] and repr(legal) == repr(expected)
        assert all(action in legal for action in expected)
        assert plays(state, seat) == reference_plays(state, seat)
        if state.top is not None:
            assert can_follow(state, seat) == bool(reference_plays(state, seat))
        twins += any(profile(BOOK, c, state.ruins[c]).weight == 2 for c in state.hands[seat])
    assert twins, "no position had a twin: the weighted follows went untested"


def test_legal_plays_behave_as_a_read_only_list(positions: list[GameState]) -> None:
    state = next(s for s in positions if s.top is not None and len(reference_plays(s, s.turn or 0)) >= 2)
    seat = state.turn
    assert seat is not None
    legal = ruins.legal_actions(state, seat)
    with pytest.raises(IndexError):
        legal[len(legal)]
    with pytest.raises(IndexError):
        legal[-len(legal) - 1]
    with pytest.raises(TypeError):
        hash(legal)
    assert legal != [] and legal != "not a list" and legal[0] == Pass(seat)
    assert legal.index(legal[-1]) == len(legal) - 1 and legal.count(Pass(seat)) == 1
    assert random.Random(5).choice(legal) == random.Random(5).choice(reference_legal(state, seat))
    assert random.Random(5).sample(legal, 2) == random.Random(5).sample(reference_legal(state, seat), 2)
    assert legal == ruins.legal_actions(state, seat)


def test_fast_built_actions_equal_the_dataclass_ones() -> None:
    built = new_play(2, (14, 31), 7, (Purchase(12, 14),), (31,))
    plain = Play(2, (14, 31), 7, (Purchase(12, 14),), (31,))
    assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain) and str(built) == str(plain)
    assert ruins.action_to_dict(built) == ruins.action_to_dict(plain)
    assert new_play(1, (3,), 3) == Play(1, (3,), 3)
    assert with_purchase(Play(1, (3,), 3), Purchase(4, 3)) == Play(1, (3,), 3, (Purchase(4, 3),))
    assert with_claim(Play(1, (3,), 3, (Purchase(4, 3),)), 3) == Play(1, (3,), 3, (Purchase(4, 3),), (3,))
    assert pass_of(3) == Pass(3) and pass_of(3) is pass_of(3) and pass_of(99) == Pass(99)


def test_replay_drafts_once_and_matches_evolving_event_by_event() -> None:
    """``replay`` applies a run of events to one draft of the fields; the result is the state evolve gives
    event by event, every state on the way is left as it was, and the derived fields are kept in step."""
    had_twins = False
    for players, g in ((2, 0), (4, 1), (5, 2)):
        bots = [RandomBot(craft_rate=0.8) if s % 2 else HeuristicBot(torch_rate=0.9) for s in range(players)]
        game = play_game(["A", "B", "C", "D", "E"][:players], bots, f"draft-{players}-{g}")
        one_by_one: list[GameState] = []
        state: GameState | None = None
        for event in game.events:
            state = ruins.evolve(state, event)
            one_by_one.append(state)
        snapshots = [ruins.state_to_dict(s) for s in one_by_one]
        assert ruins.replay(game.events) == one_by_one[-1] == game.state
        for cut in range(1, len(game.events), 37):  # from any state on, in one go
            assert ruins.replay(game.events[cut:], one_by_one[cut - 1]) == one_by_one[-1]
        assert [ruins.state_to_dict(s) for s in one_by_one] == snapshots, "a state changed after it was handed out"
        for s in one_by_one:
            assert s.profiles == tuple(profile(BOOK, c, r) for c, r in enumerate(s.ruins))
            assert s.twins == twins(s.profiles)
            had_twins = had_twins or bool(s.twins)
    assert had_twins, "no twin was ever crafted: the twins bookkeeping went untested"
    last = one_by_one[-1]
    assert ruins.replay([], last) is last
    with pytest.raises(ValueError):
        ruins.replay([])
    with pytest.raises(ValueError):
        ruins.evolve(None, ev.NextTurn(0))


def test_shared_values_never_turn_true_into_1() -> None:
    """Shared plays, flips, tops and events are looked up by value, and True == 1; but True is stored as
    JSON true. Actions given with bools (only possible in-process) keep them, and do not leak into the
    values shared with int seats (or the other way round)."""
    state = ruins.new_game(["A", "B", "C"], seed="bools-1")
    assert [ruins.action_to_dict(a)["seat"] for a in ruins.legal_actions(state, True)] == [True] * len(
        ruins.legal_actions(state, 1)
    )
    assert all(ruins.action_to_dict(a)["seat"] == 1 for a in ruins.legal_actions(state, 1))
    for seat in range(3):
        state = ruins.apply(state, Flip(seat, None))
    seat = state.turn
    assert seat == 1, "this seed's leader changed: pick a seed where seat 1 leads"
    lead = next(a for a in ruins.legal_actions(state, seat) if isinstance(a, Play) and len(a.ruins) == 1)
    as_bool = Play(True, lead.ruins, lead.rank)
    for action, expected in ((as_bool, True), (lead, 1), (as_bool, True)):
        events = ruins.decide(state, action)
        assert type(ruins.event_to_dict(events[0])["seat"]) is type(expected)
        after = ruins.replay(events, state)
        assert after.top is not None and type(ruins.state_to_dict(after)["top"][0]) is type(expected)


def test_the_deal_shuffle_is_random_shuffle() -> None:
    """``setup.shuffle`` writes out CPython's shuffle: the same permutations from the same seeds, for every
    length a deal or the discovery deck can have (a Python whose shuffle differs would be noticed here)."""
    for length in range(0, 64):
        for seed in range(6):
            ours, theirs = list(range(length)), list(range(length))
            shuffle(random.Random(f"s{seed}:{length}"), ours)
            random.Random(f"s{seed}:{length}").shuffle(theirs)
            assert ours == theirs


def test_the_bare_ruin_is_shared_only_when_exactly_bare() -> None:
    assert ruin(False, (None, None, None), None) is BARE
    others = ((True, (None, None, None), None), (False, (None, 3, None), None), (False, (None,) * 3, 0))
    for night, sleeves, claim in others:
        assert ruin(night, sleeves, claim) == Ruin(night, sleeves, claim)
    assert type(ruin(0, (None, None, None), None).night) is int  # type: ignore[arg-type]


def test_the_evolve_draft_has_exactly_the_fields_of_a_state() -> None:
    from dataclasses import fields

    from domain.ruins.draft import Draft

    assert list(Draft.__annotations__) == [f.name for f in fields(GameState)]


def reference_card(state: GameState, card: int) -> dict[str, Any]:
    """A ruin card as views drew it before they were shared (``caches.card_form``)."""
    book, ruin_state = state.book, state.ruins[card]
    prof = profile(book, card, ruin_state)
    return {
        "id": card,
        "side": "night" if ruin_state.night else "day",
        "day_rank": book.ruins[card].day_rank,
        "night_rank": book.ruins[card].night_rank,
        "ranks": sorted(prof.ranks),
        "counts_as": prof.weight,
        "sleeves": {pos: ruin_state.sleeves[i] for i, pos in enumerate(book.positions)},
        "claim": ruin_state.claim,
        "effects": [e.name for e in prof.effects],
        "set_aside": card in state.set_aside,
    }


def test_views_draw_shared_cards_exactly_as_fresh_ones(positions: list[GameState], monkeypatch: Any) -> None:
    monkeypatch.setattr(caches, "CARDS_LIMIT", 200)  # emptied many times over
    for state in positions:
        drawn = ruins.view(state, 0)["ruins"]
        expected = [reference_card(state, c) for c in range(len(state.ruins))]
        assert json.dumps(drawn) == json.dumps(expected)


def test_a_card_with_a_bool_claim_or_sleeve_is_never_shared() -> None:
    state = ruins.new_game(["A", "B", "C"], seed="cards-bools")
    assert ruins.view(state, 0)["ruins"][5] is ruins.view(state, 1)["ruins"][5]
    odd = (Ruin(False, NO_SLEEVES, True), Ruin(False, (None, True, None), None))  # type: ignore[arg-type]
    for bad, good in zip(odd, (Ruin(False, NO_SLEEVES, 1), Ruin(False, (None, 1, None), None)), strict=True):
        plain = replace(state, ruins=(good, *state.ruins[1:]))
        twisted = replace(state, ruins=(bad, *state.ruins[1:]))
        assert ruins.view(plain, 0)["ruins"][0] is ruins.view(plain, 1)["ruins"][0]
        assert json.dumps(ruins.view(twisted, 0)["ruins"][0]) == json.dumps(reference_card(twisted, 0))
        assert json.dumps(ruins.view(plain, 0)["ruins"][0]) == json.dumps(reference_card(plain, 0))
