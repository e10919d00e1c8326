"""The judge (``domain.judge``) on every registered game: reproducible from its seed, forced moves left alone, a
decision judged from the mover's view only, the accuracy and marks as docs/judge.md states them, and (the issue's
section 4) bots of known strength ordered by their mean accuracy. Time and stability: bench/judge.py."""

from __future__ import annotations

import itertools
import json
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from domain.games import GAMES
from domain.judge import (
    BLUNDER,
    INACCURACY,
    JUDGE_VERSION,
    MISTAKE,
    WIDTH,
    Judge,
    Move,
    Trace,
    game_accuracy,
    mark,
    move_accuracy,
    moves_of,
)
from domain.play import play_game
from domain.policies import Policy
from tests.domain.twins import HIDDEN_TWINS

KINDS = sorted(GAMES)


def _game(kind: str, policies: Sequence[Policy[Any]], seed: str) -> tuple[list[Any], list[Move[Any, Any]]]:
    rules = GAMES[kind].rules
    names = [f"P{s}" for s in range(len(policies))]
    played = play_game(rules, names, policies, seed)
    opening = rules.start(names, None, seed)
    return opening, moves_of(rules, opening, played.actions)[0]


def _heuristic_game(kind: str, players: int, seed: str, moves: int) -> tuple[list[Any], list[Move[Any, Any]]]:
    bots = GAMES[kind].bots
    opening, played = _game(kind, [bots.make("heuristic") for _ in range(players)], seed)
    return opening, played[:moves]


@pytest.mark.parametrize("kind", KINDS)
def test_every_estimate_carries_every_seat_s_chances_with_the_mover_s_own_in_its_place(kind: str) -> None:
    """Fair play reads a move's effect on the other seats (docs/judge.md): each estimate gives every seat's win
    chance and value, the mover's entry is the mover's figure, every playout has a winner, and the seats differ."""
    found = GAMES[kind]
    opening, moves = _heuristic_game(kind, 3, "judge-seats", 18)
    judged = [m for m in Judge(found.rules, found.bots, budget=8).game(opening, moves, seed=3).moves if m.judged]
    assert judged
    differ = False
    for move in judged:
        estimates = (move.played_estimate, move.best_estimate, move.options)
        for estimate in estimates:
            assert estimate is not None and len(estimate.wins) == len(estimate.values) == 3
            assert estimate.wins[move.seat] == estimate.win and estimate.values[move.seat] == estimate.value
            assert sum(estimate.wins) >= 1 - 1e-9  # a playout always has a winner (ties: each leader counts)
            assert all(0 <= v <= 1 for v in estimate.values)
            differ |= len(set(estimate.values)) > 1
        shown = move.to_dict()
        assert shown["options"]["values"] == [round(v, 4) for v in move.options.values]  # type: ignore[union-attr]
    assert differ


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_game_budget_and_seed_give_the_same_judgement_and_forced_moves_are_not_judged(kind: str) -> None:
    found = GAMES[kind]
    opening, moves = _heuristic_game(kind, 3, "judge-same", 24)
    judge = Judge(found.rules, found.bots, budget=8)
    first = judge.game(opening, moves, seed=5)
    assert first.to_dict() == judge.game(opening, moves, seed=5).to_dict()
    assert first.judge_version == JUDGE_VERSION and first.budget == 8 and first.seed == 5
    assert any(m.judged for m in first.moves)
    state = found.rules.replay(opening)
    for move, judged in zip(moves, first.moves, strict=True):
        legal = found.rules.legal_actions(state, move.seat)
        assert judged.legal == len(legal)
        if len(legal) <= 1:
            assert not judged.judged and judged.accuracy is None and judged.best is None
        if judged.judged:
            assert judged.played_estimate is not None and judged.best_estimate is not None
            assert judged.loss >= 0 and judged.accuracy == move_accuracy(judged.loss)
            assert 1 <= judged.played_estimate.place <= 3 and 0 <= judged.played_estimate.win <= 1
            if judged.best == judged.played:
                assert judged.loss == 0
        state = found.rules.replay(move.events, state)
    # A decision judged alone gives what it gave within the game (a game may be split over workers by move).
    index = next(i for i, m in enumerate(first.moves) if m.judged)
    state = found.rules.replay(opening)
    for move in moves[:index]:
        state = found.rules.replay(move.events, state)
    alone = judge.decision(state, moves[index].seat, moves[index].action, index, seed=5)
    assert alone == first.moves[index]


@pytest.mark.parametrize("kind", KINDS)
def test_a_decision_is_judged_from_the_mover_s_view_only(kind: str) -> None:
    """A position and its twin (the hidden information dealt anew, the mover's view the same) get the same
    judgement: the judge knows what the mover knew, no more."""
    found = GAMES[kind]
    rules, twin_of = found.rules, HIDDEN_TWINS[kind]
    opening, moves = _heuristic_game(kind, 2, "judge-twins", 60)
    judge = Judge(rules, found.bots, budget=8)
    state = rules.replay(opening)
    checked = 0
    for index, move in enumerate(moves):
        if index % 7 == 3 and len(rules.legal_actions(state, move.seat)) > 1:
            twin = twin_of(state, move.seat, random.Random(index))
            assert rules.view(twin, move.seat) == rules.view(state, move.seat)
            mine = judge.decision(state, move.seat, move.action, index, seed=1)
            assert judge.decision(twin, move.seat, move.action, index, seed=1) == mine
            checked += 1
        state = rules.replay(move.events, state)
    assert checked >= 3


@pytest.mark.parametrize("kind", KINDS)
def test_a_decision_s_candidates_come_from_the_position_not_the_judge_s_seed(kind: str) -> None:
    """Judgements with different seeds compare the same moves (docs/judge.md, "Stability"), even where the legal
    actions outnumber ``WIDTH`` and only a draw of them is compared: only the playouts differ between seeds."""
    found = GAMES[kind]
    rules = found.rules
    opening, moves = _heuristic_game(kind, 4, "judge-candidates", 400)
    traces: list[Trace] = []
    judge = Judge(rules, found.bots, budget=8, trace=traces.append)
    state = rules.replay(opening)
    wide = 0
    for index, move in enumerate(moves):
        legal = rules.legal_actions(state, move.seat)
        if len(legal) > WIDTH and wide < 3:
            traces.clear()
            for seed in range(4):
                judge.decision(state, move.seat, move.action, index, seed)
            assert len(traces) == 4 and len(traces[0].candidates) == WIDTH
            assert traces[0].candidates[0] == rules.action_to_dict(move.action)  # the move played first
            assert all(t.candidates == traces[0].candidates for t in traces)
            wide += 1
        state = rules.replay(move.events, state)
    assert wide == 3


def test_accuracy_is_lichess_s_curve_of_the_points_lost_and_a_game_s_the_mean_of_two_means() -> None:
    assert move_accuracy(0) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(10) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 3.1669)
    assert move_accuracy(200) == 0.0
    losses = [0, 2, 5, 10, 20, 40]
    accuracies = [move_accuracy(x) for x in losses]
    assert accuracies == sorted(accuracies, reverse=True)
    assert game_accuracy([]) is None
    assert game_accuracy([90.0, 90.0]) == pytest.approx(90.0)
    assert game_accuracy([100.0, 0.0]) == pytest.approx((50.0 + 2 / (1 / 100 + 1)) / 2)  # a 0 counts as 1
    uneven = game_accuracy([100.0, 50.0])
    assert uneven is not None and uneven < statistics.mean([100.0, 50.0])  # the harmonic mean weighs the worst


def test_marks_follow_the_stated_thresholds() -> None:
    assert INACCURACY < MISTAKE < BLUNDER
    assert mark(0) is None and mark(INACCURACY - 0.01) is None
    assert mark(INACCURACY) == "inaccuracy" and mark(MISTAKE) == "mistake" and mark(BLUNDER) == "blunder"


def test_a_judge_s_budget_is_a_count() -> None:
    found = GAMES[KINDS[0]]
    for bad in (0, 3, 2.5, True):
        with pytest.raises(ValueError):
            Judge(found.rules, found.bots, budget=bad)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Ladder:
    """A ladder's settings: positions spread over ``games`` four-player heuristic games, the judge's budget, and B
    (the weaker search bot's budget; the stronger has 4B)."""

    positions: int
    games: int
    budget: int
    small: int


LADDERS = {"ruins": Ladder(120, 4, 128, 32), "arnak": Ladder(72, 3, 96, 8)}  # docs/performance.md, section 11
STEP_Z = 1.0  # each step up the ladder must raise the paired mean accuracy by more than this many standard errors


def _positions(kind: str, ladder: Ladder) -> list[tuple[int, Any, int]]:
    """(move number, state, seat) of judged decisions, every seat's, spread evenly over each heuristic game."""
    rules = GAMES[kind].rules
    per_game = max(1, ladder.positions // ladder.games)
    out = []
    for game in range(ladder.games):
        opening, moves = _heuristic_game(kind, 4, "judge-ladder" if game == 0 else f"judge-ladder-{game}", 10_000)
        state = rules.replay(opening)
        mine = []
        for index, move in enumerate(moves):
            if len(rules.legal_actions(state, move.seat)) > 1:
                mine.append((index, state, move.seat))
            state = rules.replay(move.events, state)
        out += mine[:: max(1, len(mine) // per_game)][:per_game]
    return out


def _ladder_accuracies(kind: str, ladder: Ladder, names: Sequence[str]) -> dict[str, list[float]]:
    """Each bot's accuracy at each position, paired: every bot chooses at the same positions with the same random
    numbers, and each choice is judged with the same seed (the same draws when two bots choose alike), so a
    difference between two bots is their choices', not the draws'."""
    found = GAMES[kind]
    rules, bots = found.rules, found.bots
    makers = {
        "random": lambda: bots.make("random"),
        "heuristic": lambda: bots.make("heuristic"),
        "search B": lambda: bots.make("search", budget=ladder.small),
        "search 4B": lambda: bots.make("search", budget=4 * ladder.small),
    }
    players = {name: makers[name]() for name in names}
    judge = Judge(rules, bots, budget=ladder.budget)
    accuracies: dict[str, list[float]] = {name: [] for name in names}
    for index, state, seat in _positions(kind, ladder):
        judged_here: dict[str, float] = {}  # the same move at the same position judges the same: once is enough
        for name, bot in players.items():
            chosen = bot.choose(rules.view(state, seat), rules.legal_actions(state, seat), random.Random(index))
            key = json.dumps(rules.action_to_dict(chosen), sort_keys=True)
            if key not in judged_here:
                judged = judge.decision(state, seat, chosen, index, seed=0)
                assert judged.accuracy is not None
                judged_here[key] = judged.accuracy
            accuracies[name].append(judged_here[key])
    return accuracies


def paired_step(lower: Sequence[float], upper: Sequence[float]) -> tuple[float, float]:
    """The mean of ``upper - lower`` over paired positions and its standard error."""
    differences = [u - v for u, v in zip(upper, lower, strict=True)]
    spread = statistics.stdev(differences) if len(differences) > 1 else 0.0
    return statistics.mean(differences), spread / math.sqrt(len(differences))


def test_a_paired_step_is_the_mean_difference_and_its_standard_error() -> None:
    mean, error = paired_step([90.0, 100.0, 80.0, 100.0], [100.0, 100.0, 90.0, 100.0])
    assert mean == 5.0 and error == pytest.approx(statistics.stdev([10.0, 0.0, 10.0, 0.0]) / 2)
    assert paired_step([100.0, 100.0], [100.0, 100.0]) == (0.0, 0.0)  # bots that agree everywhere: no step


# A game whose ladder is not ordered yet, with the reason: a strict expected failure, so the day it passes this goes
# red and the entry goes. Arnak's went at version 4 (the candidates drawn from the position, not the seed): before,
# its search at B and 4B were not told apart by one standard error (+1.62 +- 1.75 at B = 8); docs/performance.md,
# sections 11 and 16.
NOT_YET_ORDERED: dict[str, str] = {}


@pytest.mark.slow  # Ruins about 5 to 7 minutes and Arnak 7 at a load of 7 to 10 on 2 cores: the full run keeps it
@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=NOT_YET_ORDERED[k])) if k in NOT_YET_ORDERED else k
        for k in KINDS
    ],
)
def test_mean_accuracy_orders_bots_of_known_strength(kind: str) -> None:
    """The judge's contract (the issue's section 4, small K; bench/judge.py plays whole games at a larger K):
    random < heuristic < search at B < search at 4B. Each step is a paired comparison over the same positions,
    and it must clear ``STEP_Z`` standard errors of the paired difference: a step the positions cannot tell from
    noise fails, as does a step the wrong way (swap the budgets and the last step goes red)."""
    names = ["random", "heuristic", "search B", "search 4B"]
    accuracies = _ladder_accuracies(kind, LADDERS[kind], names)
    steps = {f"{a} < {b}": paired_step(accuracies[a], accuracies[b]) for a, b in itertools.pairwise(names)}
    report = {step: (round(mean, 3), round(error, 3)) for step, (mean, error) in steps.items()}
    for mean, error in steps.values():
        assert mean > STEP_Z * error and mean > 0, report
