"""Property tests: random legal Arnak games for 1 (against the rival), 2, 3 and 4 players, checked after every action.

Hypothesis draws the board side, the game seed, the bot seed (which also picks random or heuristic bots per
seat) and how often the random bots pass. After every action: resources are never negative, every card is in
exactly one place, every assistant and guardian too, the notebook is never above the
magnifying glass, at most two archaeologists per seat are out, every event and the state round-trip
through JSON. On a share of the steps (``DEEP_RATE``), a sample of the legal actions is re-decided and
accepted, and mutated actions are refused with the engine's rule error and nothing else. At the end:
``replay(events)`` equals the live state, re-deciding the recorded actions gives the recorded events, and
each score equals the sum of its breakdown.

``DIGSITE_PROPERTY_GAMES`` sets the games per player count (default 6, a few seconds); the ``slow`` test
runs 30 per player count on both boards (or ``DIGSITE_PROPERTY_GAMES``, if more).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import arnak
from domain.arnak.actions import (
    Action,
    Buy,
    Choose,
    Dig,
    Discover,
    EndTurn,
    Overcome,
    Pass,
    Payment,
    PlaceIdol,
    Play,
    Research,
    TempleTile,
    UseAssistant,
    UseBoon,
)
from domain.arnak.bots import TENDENCIES, HeuristicBot, RandomBot
from domain.arnak.components import book
from domain.arnak.decide import step
from domain.arnak.state import GameState
from domain.errors import RuleViolation

BOOK = book()
GAMES = int(os.environ.get("DIGSITE_PROPERTY_GAMES", "6"))
DEEP_RATE = 0.3
LEGAL_SAMPLE = 4
MUTANTS = 3
MAX_ACTIONS = 5000


def universe(state: GameState) -> list[int]:
    """Every card in this game: the items, artifacts and fear cards, and the starting cards of the colours in play."""
    cards = [c.id for c in BOOK.cards.values() if c.kind != "starter"]
    for p in state.seats:
        cards.extend(BOOK.starter_ids.get(p.colour, ()))  # (the solo rival's grey board has no cards)
    return sorted(cards)


def check_state(state: GameState, cards: list[int]) -> None:
    places = [
        *(c for p in state.seats for c in p.cards()),
        *state.artifact_row,
        *state.item_row,
        *state.artifact_deck,
        *state.item_deck,
        *state.artifact_exile,
        *state.item_exile,
        *state.removed,
        *state.fear_deck,
        *(state.rival.cards if state.rival else ()),
    ]
    assert sorted(places) == cards, "every card is in exactly one place"
    track = BOOK.boards[state.side].track
    for seat, p in enumerate(state.seats):
        assert all(r >= 0 for r in p.resources), f"seat {seat} resources {p.resources}"
        assert track.row(p.notebook) <= track.row(p.glass), "the notebook is never above the magnifying glass"
        assert state.archaeologists_out(seat) <= (6 if state.is_rival(seat) else BOOK.archaeologists)
        assert len(p.slots) <= len(BOOK.idol_slot_vp) and len(p.assistants) <= BOOK.assistant_spots
        assert set(p.boons_used) <= set(p.guardians)
    assistants = [a.id for p in state.seats for a in p.assistants] + [*state.rescue, *state.assistants_out]
    assistants += [a for stack in state.assistant_stacks for a in stack]
    assert sorted(assistants) == sorted(BOOK.assistants), "every assistant is in exactly one place"
    guardians = [
        *state.guardian_stack,
        *(g for _, g in state.guardians_out()),
        *(g for p in state.seats for g in p.guardians),
    ]
    assert sorted(guardians) == sorted(BOOK.guardians), "every guardian is in exactly one place"
    idols = [i for p in state.seats for i in (*p.idols, *p.slots)] + [i for s in state.sites for i in s.idols]
    if state.rival is not None:
        idols += [*state.rival.face_up_idols, *state.rival.negative_idols]
    assert len(idols) == len(set(idols)) <= len(BOOK.idols)
    spaces = [space for space, _ in state.occupants]
    assert len(spaces) == len(set(spaces)) and not set(spaces) & set(state.blocked)
    assert json.loads(json.dumps(arnak.state_to_dict(state))) == arnak.state_to_dict(state)
    assert arnak.state_from_dict(json.loads(json.dumps(arnak.state_to_dict(state)))) == state


def normal(action: Action) -> Action:
    """The same action with its payment's cards and travel icons in the order legal_actions lists them."""
    if isinstance(action, (Dig, Discover, Overcome)):
        pay = action.payment
        return replace(action, payment=Payment(tuple(sorted(pay.cards)), tuple(sorted(pay.travel)), pay.charter))
    return action


def mutants(state: GameState, seat: int, rng: random.Random) -> list[Action]:
    """Plausible actions built without looking at the rules: some legal by chance, most not."""
    p = state.seats[seat]
    n = state.n_players
    cards = [*list(p.hand), rng.choice(list(BOOK.cards))]
    spaces = [*list(BOOK.boards[state.side].spaces), "nowhere"]
    some = rng.sample(cards, min(len(cards), rng.randint(0, 2)))
    pay = Payment(
        tuple(some), tuple(rng.sample(["boot", "car", "ship", "plane"], rng.randint(0, 1))), rng.randint(0, 2)
    )
    other = rng.choice([s for s in range(-1, n + 1) if s != seat])
    nodes = [*BOOK.boards[state.side].track.spaces, "temple", "start"]
    return [
        Dig(seat, rng.choice(spaces), pay),
        Discover(seat, rng.choice(spaces), pay),
        Overcome(seat, rng.choice([s.id for s in state.sites]), pay),
        Buy(seat, rng.choice(list(BOOK.cards))),
        Play(seat, rng.choice(cards)),
        Research(seat, rng.choice(["glass", "notebook", "pen"]), rng.choice(nodes), rng.random() < 0.5),
        TempleTile(seat, rng.randint(-1, 6)),
        UseAssistant(seat, rng.randint(0, 13)),
        UseBoon(seat, rng.randint(0, 16)),
        PlaceIdol(seat, rng.choice([*BOOK.idol_slot_options, "nothing"])),
        Choose(seat, rng.choice(["skip", "done", "0", "card:1", "stack:5"])),
        Pass(other),
        Choose(other, "done"),
    ]


def every_plain_action(state: GameState, seat: int) -> list[Action]:
    """Every action without a travel payment that could make sense for ``seat`` now, legal or not."""
    p = state.seats[seat]
    nodes = [*BOOK.boards[state.side].track.spaces, "temple"]
    out: list[Action] = [
        Research(seat, token, node, first)
        for token in ("glass", "notebook")
        for node in nodes
        for first in (False, True)
    ]
    out += [TempleTile(seat, stack) for stack in range(len(BOOK.temple_stacks))]
    out += [Buy(seat, card) for card in (*state.item_row, *state.artifact_row)]
    out += [Play(seat, card) for card in p.hand]
    out += [UseAssistant(seat, a.id) for a in p.assistants] + [UseBoon(seat, g) for g in p.guardians]
    out += [PlaceIdol(seat, option) for option in BOOK.idol_slot_options]
    out += [Pass(seat), EndTurn(seat)]
    if state.pending is not None:
        out += [Choose(seat, option) for option in state.pending.options]
    return out


def check_actions(state: GameState, seat: int, legal: list[Action], rng: random.Random) -> None:
    for other in range(state.n_players):
        if other not in arnak.to_act(state):
            assert arnak.legal_actions(state, other) == []
    for action in rng.sample(legal, min(LEGAL_SAMPLE, len(legal))):
        assert arnak.decide(state, action), f"legal {action} produced nothing"
    listed = {normal(a) for a in legal}
    for action in every_plain_action(state, seat):  # accepted exactly when listed
        try:
            arnak.decide(state, action)
        except RuleViolation:
            assert action not in listed, f"listed {action} was refused"
        else:
            assert action in listed, f"{action} was accepted but is not among the legal actions"
    for action in rng.sample(mutants(state, seat, rng), MUTANTS):
        try:
            arnak.decide(state, action)
        except RuleViolation as error:
            assert str(error)
        else:
            assert normal(action) in listed, f"{action} was accepted but is not among the legal actions"


def play_checked_game(
    n_players: int, game_seed: int | str, bot_seed: int, pass_weight: float, side: str = "bird"
) -> GameState:
    rng = random.Random(bot_seed)
    players = [f"p{i}" for i in range(n_players)]
    options: dict[str, object] = {"side": side}
    if n_players == 1:
        options["difficulty"] = rng.randint(0, 5)
    events = list(arnak.start(players, options, game_seed))
    state = arnak.replay(events)
    cards = universe(state)
    check_state(state, cards)
    # Half the seats (drawn by the bot seed) are heuristic bots, so the games also reach the positions they aim for.
    bots: list[RandomBot | HeuristicBot] = [
        HeuristicBot(rng.choice(sorted(TENDENCIES))) if rng.random() < 0.5 else RandomBot(pass_weight)
        for _ in range(n_players)
    ]
    actions: list[Action] = []
    while state.outcome is None:
        assert len(actions) < MAX_ACTIONS, "the game does not end"
        (seat,) = arnak.to_act(state)
        legal = arnak.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        if rng.random() < DEEP_RATE:
            check_actions(state, seat, legal, rng)
        action = bots[seat].choose(arnak.view(state, seat), legal, rng)
        assert arnak.action_from_dict(json.loads(json.dumps(arnak.action_to_dict(action)))) == action
        new = arnak.decide(state, action)
        stepped_events, stepped = step(state, action)
        for event in new:
            assert arnak.event_from_dict(json.loads(json.dumps(arnak.event_to_dict(event)))) == event
            state = arnak.evolve(state, event)
        assert stepped_events == new and stepped == state, "step gives decide's events and the state they lead to"
        check_state(state, cards)
        actions.append(action)
        events.extend(new)

    assert arnak.replay(events) == state
    again = arnak.replay(arnak.start(players, options, game_seed))
    redecided = list(arnak.start(players, options, game_seed))
    for action in actions:
        new = arnak.decide(again, action)
        redecided.extend(new)
        again = arnak.replay(new, again)
    assert redecided == events and again == state
    result = state.outcome
    assert result is not None and state.round == BOOK.rounds
    for s in result.scores:
        parts = s.research + s.temple_tiles + s.idols + s.idol_slots + s.guardians + s.cards + s.fear
        assert s.total == parts, "the score is the sum of its breakdown"
    assert sorted(result.ranking) == list(range(state.n_players)) and set(result.winners) <= set(result.ranking)
    return state


def _settings(games: int) -> settings:
    return settings(max_examples=games, deadline=None, suppress_health_check=[HealthCheck.too_slow])


game_seeds = st.one_of(st.integers(min_value=0, max_value=2**63), st.text(max_size=8))
sides = st.sampled_from(["bird", "snake"])


# Three and four seats take most of this test's time: the fast run plays one and two, the full run all four (and
# the slow test below 30 games at each).
@pytest.mark.parametrize(
    "n_players", [1, 2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)]
)
@_settings(GAMES)
@given(game_seed=game_seeds, bot_seed=st.integers(0, 2**32), pass_weight=st.floats(0.05, 1.0))
def test_random_legal_games_keep_every_invariant(
    n_players: int, game_seed: int | str, bot_seed: int, pass_weight: float
) -> None:
    play_checked_game(n_players, game_seed, bot_seed, pass_weight)


@pytest.mark.slow
@pytest.mark.parametrize("n_players", [1, 2, 3, 4])
@_settings(max(30, GAMES))
@given(game_seed=game_seeds, bot_seed=st.integers(0, 2**32), pass_weight=st.floats(0.05, 1.0), side=sides)
def test_many_random_legal_games_keep_every_invariant(
    n_players: int, game_seed: int | str, bot_seed: int, pass_weight: float, side: str
) -> None:
    play_checked_game(n_players, game_seed, bot_seed, pass_weight, side)
