"""The judge: how well each move of a finished game was played, for any registered game, through the protocol only.

For each decision of a finished game (a move a seat made with more than one legal action), from the mover's
information set: the seat's view at that point (``GameRules.view``), states drawn from it by the game's sampler
(``GameRules.sample``: it reads the view, never the real state, so the judge knows no more than the mover did),
each played on by the game's rollout bot in every seat (``domain.search.play_out``). Two phases, both on common
random numbers (every move compared on the same draws and the same playout numbers):

1. *Search*: the candidate moves (the move played, the rollout bot's own choices, every other legal action up to
   ``WIDTH``, else a draw of them, all drawn from the position alone so that every judgement of a decision compares
   the same moves) are compared by sequential halving on half the budget; the survivor is the best move found.
2. *Estimate*: on fresh draws (the other half of the budget), the move played and the best move found are played
   on side by side. Their means are the expected results reported (the search phase's figures would flatter the
   survivor: the maximum of noisy means is biased upwards). The best move found stands only if it beats the move
   played there by more than ``SIGNIFICANCE`` standard errors of the paired difference; otherwise the move played
   is the best found, and the loss is 0.

Each playout is scored for the mover: ``win`` (1 for a win, shared or not), ``place`` (1 first; at a playout cut
short by ``rounds_ahead``, by the points then), and the ``value`` the search bot's ``domain.search.rewards`` gives
(half winning, half the share of the other seats beaten: 1 for a sure win, 0 for a sure last place; at a cut, each
a logistic of the point margins, since ranks saturate there). The *loss* of a move is
100 x (value of the best move found - value of the move played), in points of expected result (0-100), never below
0. From it, lichess's shape (lichess.org/page/accuracy): a move's accuracy is ``103.1668 exp(-0.04354 loss) -
3.1669`` clamped to [0, 100]; a seat's accuracy in a game is the mean of the arithmetic and the harmonic mean of its
moves' accuracies (each at least 1 in the harmonic mean); marks at ``INACCURACY``, ``MISTAKE``, ``BLUNDER`` points
of loss. docs/judge.md gives the reasons and the limits.

Reproducible: every decision draws from ``random.Random`` seeded with the judge's version, the seed and the move's
number, so the same game, ``JUDGE_VERSION``, budget and seed give the same figures, decision by decision (and a
decision may be judged alone: the split over workers changes nothing). Pure: no I/O, no clock.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from domain.errors import NotSampleable
from domain.policies import Bots, Policy
from domain.protocol import JSON, GameRules, Result
from domain.search import PROPOSALS, play_out, rewards

Action = TypeVar("Action")
Event = TypeVar("Event")

JUDGE_VERSION = 4  # raise on any change to what the judge computes: stored judgements are keyed by it (2: a cut
# playout valued by its point margins, not by ranks; 3: every seat's expected result, not the mover's alone: the
# mover's figures are the same as 2's, draw for draw; 4: the candidates drawn from the position, not the seed, for
# stability; docs/judge.md)
DEFAULT_BUDGET = 100  # playouts a decision (half to search, half to estimate): bench/judge.py measures it
WIDTH = 12  # legal actions compared whole up to this many; beyond, the rollout bot's choices and a draw of the rest
SIGNIFICANCE = 2.0  # standard errors by which the best move found must beat the move played to replace it
INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 20.0  # points of expected result lost (0-100) for each mark
ROUNDS_AHEAD: int | None = 1  # playouts stop where this many rounds have ended (None: at the game's end; a Ruins
# playout to the end is about 170 actions from an early move, 8 times one to the round's end: docs/judge.md)


@dataclass(frozen=True, slots=True)
class Move(Generic[Action, Event]):
    """One recorded move: the seat that made it, its action, and the events it led to (as stored)."""

    seat: int
    action: Action
    events: Sequence[Event]


@dataclass(frozen=True, slots=True)
class Estimate:
    """What a move is worth to its mover, over ``playouts`` playouts: its chance to win, its expected place (1
    first), and its expected value in [0, 1] (``domain.search.rewards``); and what it is worth to every seat, in
    seat order (``wins``, ``values``: the mover's own entry is ``win`` and ``value``), which is what fair play reads:
    a move's effect on the others' chances, measured as the mover's own is."""

    win: float
    place: float
    value: float
    playouts: int
    wins: tuple[float, ...] = ()
    values: tuple[float, ...] = ()

    def to_dict(self) -> JSON:
        return {"win": round(self.win, 4), "place": round(self.place, 4), "value": round(self.value, 4),
                "playouts": self.playouts, "wins": [round(w, 4) for w in self.wins],
                "values": [round(v, 4) for v in self.values]}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision: the move played and the best move found (the game's action JSON), what each is worth, the
    loss between them, the move's accuracy and mark. A forced move (one legal action) or a move the sampler cannot
    draw from (another seat's secret choice pending) carries no estimates: ``judged`` is false."""

    index: int  # the move's number in the game, 0 first
    seat: int
    played: JSON
    legal: int  # legal actions the seat had
    judged: bool
    best: JSON | None = None
    played_estimate: Estimate | None = None
    best_estimate: Estimate | None = None
    loss: float = 0.0
    accuracy: float | None = None
    mark: str | None = None  # "inaccuracy", "mistake", "blunder" or None
    # The mover's options on average: every candidate compared, on the search's first round's common draws (what
    # the mover's choice could give each seat, the reference a move's harm or help to another seat is measured from)
    options: Estimate | None = None

    def to_dict(self) -> JSON:
        return {
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "legal": self.legal,
            "judged": self.judged,
            "best": self.best,
            "played_estimate": None if self.played_estimate is None else self.played_estimate.to_dict(),
            "best_estimate": None if self.best_estimate is None else self.best_estimate.to_dict(),
            "loss": round(self.loss, 3),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 3),
            "mark": self.mark,
            "options": None if self.options is None else self.options.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's game: its judged moves, accuracy (``None`` without one), mean loss and marks."""

    seat: int
    judged: int
    accuracy: float | None
    mean_loss: float | None
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_dict(self) -> JSON:
        return {
            "seat": self.seat,
            "judged": self.judged,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 3),
            "mean_loss": None if self.mean_loss is None else round(self.mean_loss, 3),
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
        }


@dataclass(frozen=True, slots=True)
class GameJudgement:
    """A finished game judged: keyed by the judge's version, budget and seed (the read models store it so)."""

    judge_version: int
    budget: int
    seed: int | str
    moves: tuple[Judgement, ...]
    seats: tuple[SeatSummary, ...]

    def to_dict(self) -> JSON:
        return {
            "judge_version": self.judge_version,
            "budget": self.budget,
            "seed": self.seed,
            "moves": [m.to_dict() for m in self.moves],
            "seats": [s.to_dict() for s in self.seats],
        }


def move_accuracy(loss: float) -> float:
    """Lichess's move accuracy from the points lost (there: Win% lost), clamped to [0, 100]."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(0.0, loss)) - 3.1669))


def game_accuracy(accuracies: Sequence[float]) -> float | None:
    """A seat's accuracy in a game: the mean of the arithmetic and the harmonic mean of its moves' accuracies (the
    harmonic mean weighs the worst moves most; each move counts at least 1 in it, so one 0 does not zero it)."""
    if not accuracies:
        return None
    arithmetic = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(1.0, a) for a in accuracies)
    return (arithmetic + harmonic) / 2


def mark(loss: float) -> str | None:
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True, slots=True)
class _Scored:
    """One playout scored: every seat's win (1 or 0) and value, and the mover's place."""

    place: float
    wins: tuple[float, ...]
    values: tuple[float, ...]


def _score(ended: tuple[Result | None, tuple[int, ...]] | None, seat: int, players: int) -> _Scored:
    """One playout scored for every seat (the mover's place with it); an action the draw refused scores as a sure
    last place for the mover and nothing for the others (a sampler never makes one so: ``play_out``)."""
    if ended is None:
        return _Scored(float(players), (0.0,) * players, (0.0,) * players)
    result, scores = ended
    if result is not None:
        wins = tuple(float(s in result.winners) for s in range(len(scores)))
        place = float(result.place(seat))
    else:  # cut at a round's end: the leaders on points (all of them, on a tie) count as winning
        top = max(scores)
        wins = tuple(float(points == top) for points in scores)
        place = 1.0 + sum(1 for other in scores if other > scores[seat])
    return _Scored(place, wins, tuple(rewards(result, scores)))


@dataclass
class _Tally:
    """Sums over playouts, for the mover (``seat``) and for every seat."""

    seat: int
    players: int
    place: float = 0.0
    playouts: int = 0
    wins: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.players
        self.values = [0.0] * self.players

    def add(self, scored: _Scored) -> None:
        self.place += scored.place
        self.playouts += 1
        for s in range(self.players):
            self.wins[s] += scored.wins[s]
            self.values[s] += scored.values[s]

    def mean(self) -> float:
        return self.values[self.seat] / self.playouts if self.playouts else 0.0

    def estimate(self) -> Estimate:
        n = max(1, self.playouts)
        wins, values = tuple(w / n for w in self.wins), tuple(v / n for v in self.values)
        return Estimate(wins[self.seat], self.place / n, values[self.seat], self.playouts, wins, values)


@dataclass(frozen=True, slots=True)
class Trace:
    """Why a decision came out as it did, for measuring the judge (``bench/judge.py causes``): the candidates
    compared (the game's action JSON, the move played first), the search's survivor (its index there) and the
    estimate's paired difference in standard errors (0 when the survivor is the move played)."""

    candidates: tuple[JSON, ...]
    found: int
    z: float
    gain: float = 0.0  # the estimate's mean paired difference, in points (0-100)


@dataclass
class Judge(Generic[Action]):
    """Judges decisions of one game's engine: ``rules`` and its ``bots`` (the rollout bot is one of them)."""

    rules: GameRules[Any, Action, Any]
    bots: Bots[Action]
    budget: int = DEFAULT_BUDGET
    rollout: str = "heuristic"
    rounds_ahead: int | None = ROUNDS_AHEAD
    trace: Callable[[Trace], None] | None = None  # told why each decision came out as it did (bench/judge.py causes)

    def __post_init__(self) -> None:
        if isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget < 4:
            raise ValueError(f"a judge's budget is a whole number of playouts, at least 4, not {self.budget!r}")
        self._player: Policy[Action] = self.bots.make(self.rollout)

    def game(
        self,
        opening: Sequence[Any],
        moves: Sequence[Move[Action, Any]],
        seed: int | str = 0,
        seats: int | None = None,
    ) -> GameJudgement:
        """Every move of a game judged: the state before each is the engine's replay of the recorded events."""
        state = self.rules.replay(opening)
        judged = []
        for index, move in enumerate(moves):
            judged.append(self.decision(state, move.seat, move.action, index, seed))
            state = self.rules.replay(move.events, state)
        count = seats if seats is not None else 1 + max((m.seat for m in moves), default=-1)
        return GameJudgement(JUDGE_VERSION, self.budget, seed, tuple(judged), summarise(judged, count))

    def decision(self, state: Any, seat: int, played: Action, index: int, seed: int | str = 0) -> Judgement:
        """One decision, judged from ``seat``'s view of ``state`` only (the state itself is read for the view and
        the legal actions, what the seat saw when it chose)."""
        rules = self.rules
        legal = list(rules.legal_actions(state, seat))
        played_json = rules.action_to_dict(played)
        if len(legal) <= 1:
            return Judgement(index, seat, played_json, len(legal), judged=False)
        seen = rules.view(state, seat)
        rng = random.Random(f"judge:{JUDGE_VERSION}:{seed}:{index}")
        try:
            best, best_est, played_est, loss, options = self.compare(seen, seat, legal, played, rng)
        except NotSampleable:
            return Judgement(index, seat, played_json, len(legal), judged=False)
        accuracy = move_accuracy(loss)
        return Judgement(
            index, seat, played_json, len(legal), True, rules.action_to_dict(best), played_est, best_est, loss,
            accuracy, mark(loss), options,
        )  # fmt: skip

    def candidates(self, seen: Mapping[str, Any], legal: Sequence[Action], played: Action) -> list[Action]:
        """The move played, then the rollout bot's own choices, then other legal actions (all up to ``WIDTH``, else
        a draw of them). Drawn from the position alone (``position_rng``), never the judge's seed: every judgement
        of a decision compares the same moves, so judgements differ only by their playouts."""
        rng = position_rng(seen)
        out = [played]
        for _ in range(PROPOSALS):
            proposed = self._player.choose(seen, legal, rng)
            if proposed not in out:
                out.append(proposed)
        others = [a for a in legal if a not in out]
        room = max(0, WIDTH - len(out))
        if len(others) > room:
            others = rng.sample(others, room)
        return [*out, *others]

    def compare(
        self, seen: Mapping[str, Any], seat: int, legal: Sequence[Action], played: Action, rng: random.Random
    ) -> tuple[Action, Estimate, Estimate, float, Estimate]:
        """The best move found, its estimate, the move played's, the loss (points, >= 0), and the options' mean."""
        rules = self.rules
        view = dict(seen)
        candidates = self.candidates(view, legal, played)
        first = rules.sample(view, seat, rng)  # also the first draw of the search
        start = rules.progress(first).round
        stop = None if self.rounds_ahead is None else start + self.rounds_ahead
        players = len(rules.progress(first).scores)

        def scored(state: Any, action: Action, seed: int) -> _Scored:
            return _score(play_out(rules, self._player, state, action, stop, random.Random(seed)), seat, players)

        def tally() -> _Tally:
            return _Tally(seat, players)

        found, options = self.search(view, seat, candidates, first, scored, tally, rng)

        # 2. Estimate: the move played and the search's survivor side by side on fresh draws (the move played alone
        # when it survived: its estimate gets every pair).
        played_tally, found_tally = tally(), tally()
        differences: list[float] = []
        for _ in range(max(2, (self.budget - self.searched()) // (1 if found == 0 else 2))):
            state = rules.sample(view, seat, rng)
            seed = rng.getrandbits(64)
            mine = scored(state, played, seed)
            played_tally.add(mine)
            if found != 0:
                theirs = scored(state, candidates[found], seed)
                found_tally.add(theirs)
                differences.append(theirs.values[seat] - mine.values[seat])
        if self.trace is not None:
            z = _z(differences) if differences else 0.0
            gain = 100.0 * sum(differences) / len(differences) if differences else 0.0
            self.trace(Trace(tuple(rules.action_to_dict(a) for a in candidates), found, z, gain))
        if not differences or not _beats(differences):
            return played, played_tally.estimate(), played_tally.estimate(), 0.0, options.estimate()
        loss = 100.0 * (found_tally.mean() - played_tally.mean())
        return candidates[found], found_tally.estimate(), played_tally.estimate(), loss, options.estimate()

    def searched(self) -> int:
        """The playouts of the search phase: half the budget (the rest goes to the estimate)."""
        return self.budget // 2

    def search(
        self,
        view: Mapping[str, Any],
        seat: int,
        candidates: Sequence[Action],
        first: Any,
        scored: Callable[[Any, Action, int], _Scored],
        tally: Callable[[], _Tally],
        rng: random.Random,
    ) -> tuple[int, _Tally]:
        """Sequential halving over the candidates on ``searched()`` playouts, ``first`` the first draw: the survivor
        (its index) and the first round's tally of every candidate (the mover's options on average).
        """
        half = self.searched()
        alive = list(range(len(candidates)))
        tallies = [tally() for _ in candidates]
        options = tally()  # the first round's playouts of every candidate: the mover's options on average
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        drawn: Any = first
        while len(alive) > 1:
            everyone = len(alive) == len(candidates)
            for _ in range(max(1, half // (rounds * len(alive)))):
                state = drawn if drawn is not None else self.rules.sample(view, seat, rng)
                drawn = None
                seed = rng.getrandbits(64)
                for i in alive:
                    outcome = scored(state, candidates[i], seed)
                    tallies[i].add(outcome)
                    if everyone:
                        options.add(outcome)
            alive.sort(key=lambda i: (-tallies[i].mean(), i))  # ties: the move played first, then the bot's choices
            del alive[max(1, (len(alive) + 1) // 2) :]
        return alive[0], options


def position_rng(seen: Mapping[str, Any]) -> random.Random:
    """Random numbers from a seat's view alone (the position as its mover saw it): the same view, the same numbers,
    whatever the judge's seed; a hidden twin (the same view) gets them too."""
    digest = hashlib.sha256(json.dumps(seen, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return random.Random(f"judge-candidates:{digest}")


def _z(differences: Sequence[float]) -> float:
    """The mean paired difference in standard errors (0 for no difference; infinite for a constant one)."""
    n = len(differences)
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / max(1, n - 1)
    if variance == 0:
        return 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean / math.sqrt(variance / n)


def _beats(differences: Sequence[float]) -> bool:
    """Whether the mean paired difference is above ``SIGNIFICANCE`` standard errors (and so above 0)."""
    return _z(differences) > SIGNIFICANCE


def summarise(judged: Sequence[Judgement], seats: int) -> tuple[SeatSummary, ...]:
    """Each seat's summary over its judged moves."""
    out = []
    for seat in range(seats):
        mine = [j for j in judged if j.seat == seat and j.judged]
        accuracies = [j.accuracy for j in mine if j.accuracy is not None]
        out.append(
            SeatSummary(
                seat,
                len(mine),
                game_accuracy(accuracies),
                sum(j.loss for j in mine) / len(mine) if mine else None,
                sum(j.mark == "inaccuracy" for j in mine),
                sum(j.mark == "mistake" for j in mine),
                sum(j.mark == "blunder" for j in mine),
            )
        )
    return tuple(out)


def moves_of(
    rules: GameRules[Any, Action, Event], opening: Sequence[Event], actions: Sequence[Action]
) -> tuple[list[Move[Action, Event]], Any]:
    """The moves of a game played from ``opening`` by ``actions`` (a bot game in memory, ``domain.play``), each
    with its seat (the one ``to_act`` named) and events, and the final state. The service reads its moves from the
    store instead."""
    state = rules.replay(opening)
    out: list[Move[Action, Event]] = []
    for action in actions:
        seat = rules.to_act(state)[0]
        events, state = rules.step(state, action)
        out.append(Move(seat, action, events))
    return out, state
