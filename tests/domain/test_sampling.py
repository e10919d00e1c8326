"""The conformance suite for every registered game's sampler (``GameRules.sample``): a complete state drawn from one
seat's view, which search plays on. Run over whatever ``domain.games.GAMES`` registers, on positions of bot games.

Three promises: the sample shows the seat exactly the view it was drawn from; it is a state the engine plays on to
the end, offering the seat the same legal actions as the real position; and its hidden facts are drawn, not read:
over many samples, every hidden placement of the real position turns up, and none that the seat cannot tell apart
(its twin, tests/domain/twins.py, differs there) turns up every time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from domain.errors import NotSampleable
from domain.games import GAMES
from domain.play import SeatView, play_game
from domain.search import SEARCH
from tests.domain.twins import HIDDEN_TWINS

KINDS = sorted(GAMES)


@dataclass(frozen=True)
class Position:
    kind: str
    state: Any
    seat: int
    index: int  # the move it was reached at

    def drawable(self) -> bool:
        """Whether a state can be drawn from the seat's view here: always for a seat to act; a game may refuse a
        view while another seat's secret decision pends (``NotSampleable``)."""
        rules = GAMES[self.kind].rules
        try:
            rules.sample(rules.view(self.state, self.seat), self.seat, random.Random(0))
        except NotSampleable:
            assert self.seat not in rules.to_act(self.state), "a seat to act can always be sampled"
            return False
        return True


def _positions(kind: str, every: int, tables: tuple[int, ...]) -> Iterator[Position]:
    """Positions of heuristic bot games (one per seat count in ``tables``), every ``every``-th move, each with the
    seats that play (not one the engine plays, like Arnak's solo rival)."""
    found = GAMES[kind]
    rules = found.rules
    for players in tables:
        names = [f"P{s}" for s in range(players)]
        seed = f"sampling-{players}"
        game = play_game(rules, names, [found.bots.make("heuristic") for _ in names], seed)
        state = rules.replay(rules.start(names, None, seed))
        for i, action in enumerate(game.actions):
            if i % every == every // 2:
                for seat in range(players):
                    yield Position(kind, state, seat, i)
            state = rules.step(state, action)[1]


def _tables(kind: str) -> tuple[int, ...]:
    seats = GAMES[kind].schemas.seats
    return tuple(sorted({seats.low, min(seats.high, 3), seats.high}))


@pytest.fixture(scope="module", params=KINDS)
def positions(request: pytest.FixtureRequest) -> list[Position]:
    kind: str = request.param
    every = list(_positions(kind, 23, _tables(kind)))
    drawable = [p for p in every if p.drawable()]
    assert len(drawable) > len(every) / 2, "most views can be sampled"
    return drawable


def test_a_sample_shows_the_seat_the_view_it_was_drawn_from(positions: list[Position]) -> None:
    rng = random.Random(3)
    for p in positions:
        rules = GAMES[p.kind].rules
        seen = rules.view(p.state, p.seat)
        for _ in range(3):
            drawn = rules.sample(seen, p.seat, rng)
            assert rules.view(drawn, p.seat) == seen, (p.kind, p.index, p.seat)


def test_a_sample_offers_the_seat_the_same_choices_and_plays_on_to_the_end(positions: list[Position]) -> None:
    """The engine plays on a sample: the seat's legal actions are those of the real position (they depend on what
    the seat sees), the state round-trips through JSON, and the game's bots play it to its end."""
    rng = random.Random(4)
    found_any = False
    for n, p in enumerate(positions):
        found = GAMES[p.kind]
        rules = found.rules
        drawn = rules.sample(rules.view(p.state, p.seat), p.seat, rng)
        assert list(rules.legal_actions(drawn, p.seat)) == list(rules.legal_actions(p.state, p.seat))
        assert rules.to_act(drawn) == rules.to_act(p.state)
        assert rules.state_from_dict(json.loads(json.dumps(rules.state_to_dict(drawn)))) == drawn
        if n % 5 == 0:
            bot = found.bots.make("heuristic")
            for _ in range(20_000):
                if rules.result(drawn) is not None:
                    break
                actor = rules.to_act(drawn)[0]
                action = bot.choose(SeatView(rules, drawn, actor), rules.legal_actions(drawn, actor), rng)
                drawn = rules.step(drawn, action)[1]
            assert rules.result(drawn) is not None, "a sample plays on to the end"
            found_any = True
    assert found_any


def _facts(data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """A referee view as facts: each scalar at its path; a list of scalars, or of things with an ``id``, as which
    elements it holds (a hand, a deck: where each card is, not the order); other lists element by element. The
    seed is no placement: a sample draws a new one while the game is on."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key != "seed":
                yield from _facts(value, f"{path}.{key}")
    elif isinstance(data, list):
        if all(not isinstance(v, (dict, list)) or (isinstance(v, dict) and "id" in v) for v in data):
            for value in data:
                yield path, json.dumps(value, sort_keys=True)
        else:
            for i, value in enumerate(data):
                yield from _facts(value, f"{path}.{i}")
    else:
        yield path, json.dumps(data)


def _hidden_placements_are_drawn(kind: str, every: int, samples: int, most: int) -> int:
    """At positions of bot games, for each seat: every fact of the real position turns up in some sample, and each
    fact the seat's twin does not share (a hidden one) is missing from some sample. The count of hidden facts."""
    rules, twin_of = GAMES[kind].rules, HIDDEN_TWINS[kind]
    rng, twin_rng = random.Random(5), random.Random(6)
    checked = 0
    drawable = [p for p in _positions(kind, every, _tables(kind)) if p.drawable()]
    for p in drawable[:: max(1, len(drawable) // most)]:
        seen = rules.view(p.state, p.seat)
        real = set(_facts(rules.view(p.state, None)))
        twin = set(_facts(rules.view(twin_of(p.state, p.seat, twin_rng), None)))
        counts: dict[tuple[str, str], int] = dict.fromkeys(real, 0)
        for _ in range(samples):
            for fact in _facts(rules.view(rules.sample(seen, p.seat, rng), None)):
                if fact in counts:
                    counts[fact] += 1
        never = sorted(f for f, n in counts.items() if n == 0)
        assert not never, f"{kind} move {p.index} seat {p.seat}: real placements no sample drew: {never[:5]}"
        always = sorted(f for f in real - twin if counts[f] == samples)
        assert not always, f"{kind} move {p.index} seat {p.seat}: hidden facts every sample copied: {always[:5]}"
        checked += len(real - twin)
    return checked


@pytest.mark.parametrize("kind", KINDS)
def test_every_hidden_placement_turns_up_and_none_is_copied_from_the_real_position(kind: str) -> None:
    assert _hidden_placements_are_drawn(kind, every=97, samples=150, most=6) > 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_every_hidden_placement_turns_up_at_many_positions(kind: str) -> None:
    assert _hidden_placements_are_drawn(kind, every=13, samples=400, most=10_000) > 0


@pytest.mark.parametrize("kind", KINDS)
def test_the_sampler_reads_the_view_only(kind: str) -> None:
    """Two positions a seat cannot tell apart give the same samples from the same random numbers: nothing but the
    view went in (a search over samples cannot cheat)."""
    rules, twin_of = GAMES[kind].rules, HIDDEN_TWINS[kind]
    for p in [p for p in _positions(kind, 61, _tables(kind)) if p.drawable()][:12]:
        twin = twin_of(p.state, p.seat, random.Random(p.index))
        mine = rules.sample(rules.view(p.state, p.seat), p.seat, random.Random(7))
        theirs = rules.sample(rules.view(twin, p.seat), p.seat, random.Random(7))
        assert rules.view(mine, None) == rules.view(theirs, None)


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_offers_the_search_bot(kind: str) -> None:
    assert SEARCH in GAMES[kind].bots.policies


@pytest.mark.parametrize("kind", KINDS)
def test_a_sample_keeps_the_rules_version_of_the_game_it_was_drawn_from(kind: str) -> None:
    """A game of every released rules version (the oldest first) is sampled under its own version, read from the
    view: a sample of an older game built on the current version's rules would be searched under the wrong rules."""
    found = GAMES[kind]
    rules = found.rules
    names = ["P0", "P1", "P2"]
    for version in rules.VERSIONS.names:
        state = rules.replay(rules.start(names, None, "versions", version))
        seat = rules.to_act(state)[0]
        seen = rules.view(state, seat)
        drawn = rules.sample(seen, seat, random.Random(8))
        assert rules.view(drawn, seat) == seen, version
        assert rules.state_to_dict(drawn).get("rules_version", version) == version
