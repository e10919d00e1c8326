"""A search bot for any registered game: determinized Monte Carlo search over states drawn from its seat's view.

The bot sees what its seat sees and nothing more: each draw is one complete state taken from the seat's view by
the game's own sampler (``GameRules.sample``: it reads the view, never a state), so the search cannot know more
than the seat (Perfect Information Monte Carlo). On each draw, every action still in the running is played, then
the game goes on with the game's own bot in every seat (``rollout``, its heuristic by default: each seat playing
for itself as that bot does) to the end of the round searched in (or the game's end), and each action earns the
bot's reward there: winning and the seats beaten, by the result or, at a round's end, by a logistic of the point
margins so far (``rewards``: ranks alone saturate, so a seat ahead could not tell moves apart). The
actions share their draws and the playouts' random numbers, so they are compared on the same deals (common random
numbers: far less noise than a draw each). Only the bot's own move is searched: every other move, its own later
ones too, is the rollout bot's, each seat playing for itself.

Which actions: the rollout bot's own choices here (several draws of it; a game's bot may answer beyond the legal
list, as Ruins' bots add purchases and claims to a play), then other legal actions: a few, or more as the budget
grows (one for every ``PLAYOUTS_PER_CANDIDATE`` playouts: a larger budget compares more moves, not only the same
ones more often). How the budget is
spent: sequential halving (Karnin, Koren and Somekh 2013): the budget is split over rounds, each playing every
action left on fresh draws, after which the worse half drops out. One strength knob, ``budget``: the playouts a
move. Everything is drawn from the ``random.Random`` ``choose`` is given, so a game of search bots is reproducible.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain.errors import DomainError
from domain.play import SeatView
from domain.policies import Bots, Policy
from domain.protocol import GameRules, Result

Action = TypeVar("Action")

SEARCH = "search"  # the policy's name in every game's bots
DEFAULT_BUDGET = 100  # playouts a move: the strength bench/search.py measures
PROPOSALS = 8  # draws of the rollout bot's own choice (duplicates fall away), at least (the judge's too)
EXTRA = 6  # other legal actions compared besides, at least
PLAYOUTS_PER_CANDIDATE = 20  # a larger budget widens the search: one action compared (and one draw of the rollout
# bot's choice) for every this many playouts, so from 140 playouts up the budget buys new actions, not only more
# playouts of the same comparison. Up to 139 the search is exactly the one measured before: at one per 8 the
# judge's ladder no longer told search at 32 from 128 (docs/performance.md, section 9)
ROUNDS_AHEAD = 1  # a playout stops at the end of the round searched from (1), or later rounds, or the game's end
ASK_EVERY = 4  # a playout asks whether the round is over at most this often (a few actions late costs little)
WIN_WEIGHT = 0.5  # a reward is this much winning, the rest the share of the other seats beaten
MARGIN_SCALE = 0.15  # a cut playout's margins are read in units of 1 + this share of the most points any seat has
MARGIN_STEEPNESS = 2.0  # a margin of one unit is worth 88 % of a win (logistic of 2): docs/performance.md section 9
PLAYOUT_LIMIT = 10_000  # actions in one playout, against a game that never ends


def rewards(result: Result | None, scores: Sequence[int]) -> list[float]:
    """The search's reward for each seat, in [0, 1]: by the result when the game ended (``ranked_rewards``).

    A playout cut short (at a round's end) has no result, only points so far; there the reward is smooth in the
    margins, as lichess's Win% is a logistic of the engine's centipawns: winning is the logistic of the margin over
    the best other seat, beating a seat the logistic of the margin over it, each on a scale that grows with the
    points in play (``MARGIN_SCALE``). Ranks alone saturate: a seat ahead by ten at a round's end scores the same
    whatever it plays, so more playouts cannot tell a move that gains points from one that loses them (in
    two-player Ruins every move scored alike at a third of the positions measured: docs/performance.md, section 9).
    """
    n = len(scores)
    if result is not None or n == 1:
        return ranked_rewards(result, scores)
    scale = 1.0 + MARGIN_SCALE * max(abs(s) for s in scores)
    out = []
    for s in range(n):
        margins = [scores[s] - scores[o] for o in range(n) if o != s]
        beaten = sum(_logistic(m / scale) for m in margins) / (n - 1)
        out.append(WIN_WEIGHT * _logistic(min(margins) / scale) + (1 - WIN_WEIGHT) * beaten)
    return out


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-MARGIN_STEEPNESS * x))


def ranked_rewards(result: Result | None, scores: Sequence[int]) -> list[float]:
    """Each seat's reward by rank, in [0, 1]: ``WIN_WEIGHT`` for winning (leading on points when the playout stopped
    before the end), the rest for the share of other seats it beat (ties count half): ``rewards`` at a game's end."""
    n = len(scores)
    if n == 1:
        return [1.0]
    if result is not None:
        place = [0] * n
        for rank, seat in enumerate(result.ranking):
            place[seat] = rank
        for seat in result.winners:
            place[seat] = 0
        winners = set(result.winners)
    else:
        place = [sum(1 for other in scores if other > mine) for mine in scores]
        winners = {s for s in range(n) if place[s] == 0}
    out = []
    for s in range(n):
        beaten = sum(1.0 if place[o] > place[s] else 0.5 if place[o] == place[s] else 0.0 for o in range(n) if o != s)
        out.append(WIN_WEIGHT * (s in winners) + (1 - WIN_WEIGHT) * beaten / (n - 1))
    return out


@dataclass
class SearchBot(Generic[Action]):
    """Determinized Monte Carlo search with the game's sampler, played out by the game's own ``rollout`` bot."""

    rules: GameRules[Any, Action, Any]
    bots: Bots[Action]  # the game's own bots: the rollout bot is one of them
    budget: int = DEFAULT_BUDGET
    rollout: str = "heuristic"
    name: str = SEARCH

    def __post_init__(self) -> None:
        budget: object = self.budget  # as given: a command line's tendencies are floats (200.0)
        if isinstance(budget, float) and budget.is_integer():
            budget = self.budget = int(budget)
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"budget must be a whole number of playouts, at least 1, not {budget!r}")
        self._player: Policy[Action] = self.bots.make(self.rollout)
        self.playouts = 0  # played so far, for bench/search.py's playouts a second

    def tendencies(self) -> dict[str, Any]:
        return {"budget": self.budget, "rollout": self.rollout}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        candidates = self.candidates(view, legal, rng)
        while len(candidates) > 1 and len(candidates) * math.ceil(math.log2(len(candidates))) > self.budget:
            candidates.pop()  # a small budget compares fewer actions, the rollout bot's own choices last to go
        if len(candidates) == 1:
            return candidates[0]
        seen = dict(view)  # the seat's view as plain JSON: all the search reads of the game
        seat = int(seen["viewer"])  # every game's view names its viewer
        start_round = -1  # the round searched in, as the game counts it (read from the first draw)
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        alive = list(range(len(candidates)))
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        for _ in range(rounds):
            for _draw in range(max(1, self.budget // (rounds * len(alive)))):
                state = self.rules.sample(seen, seat, rng)
                if start_round < 0:
                    start_round = self.rules.progress(state).round
                seed = rng.getrandbits(64)
                for i in alive:
                    totals[i] += self.evaluate(state, candidates[i], seat, start_round, random.Random(seed))
                    counts[i] += 1
            alive.sort(key=lambda i: (-totals[i] / counts[i], i))  # ties: the rollout bot's choice first
            del alive[max(1, (len(alive) + 1) // 2) :]
            if len(alive) == 1:
                break
        return candidates[alive[0]]

    def candidates(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> list[Action]:
        """What the search compares: the rollout bot's choices (most often chosen first), then other legal actions
        drawn at random: ``EXTRA`` of them, or as many as the budget allows ``PLAYOUTS_PER_CANDIDATE`` playouts
        each (every legal action, when the budget is large enough)."""
        width = self.budget // PLAYOUTS_PER_CANDIDATE
        proposed = Counter(self._player.choose(view, legal, rng) for _ in range(max(PROPOSALS, width)))
        ordered = [a for a, _ in proposed.most_common()]
        others = [a for a in legal if a not in proposed]
        room = max(EXTRA, width - len(ordered))
        if len(others) > room:
            others = rng.sample(others, room)
        return [*ordered, *others]

    def evaluate(self, state: Any, action: Action, seat: int, start_round: int, rng: random.Random) -> float:
        """``seat``'s reward after ``action`` in ``state``, the game played on by the rollout bot (0 if the action
        is not legal in this draw: a sampler never makes one so, but a move must never fail on it)."""
        self.playouts += 1
        ended = play_out(self.rules, self._player, state, action, start_round + ROUNDS_AHEAD, rng)
        return 0.0 if ended is None else rewards(*ended)[seat]


def play_out(
    rules: GameRules[Any, Action, Any],
    player: Policy[Action],
    state: Any,
    action: Action,
    stop_round: int | None,
    rng: random.Random,
) -> tuple[Result | None, tuple[int, ...]] | None:
    """``action`` played in ``state``, then the game played on by ``player`` in every seat until round
    ``stop_round`` begins (``None``: to the game's end): the result if the game ended, and every seat's points.
    ``None`` if the action is not legal in this state (a sampler never makes one so, but a search must not fail)."""
    try:
        state = rules.step(state, action)[1]
    except DomainError:
        return None
    last, unasked = -1, 0
    for _ in range(PLAYOUT_LIMIT):
        result = rules.result(state)
        if result is not None:
            return result, tuple(result.scores)
        acting = rules.to_act(state)
        if not acting:
            break
        actor = acting[0]
        # A round ends on a change of hands, or opens with several seats choosing at once: asked only then, and
        # one seat after another at most every ``ASK_EVERY`` actions (a game's progress may count every score).
        unasked += 1
        if stop_round is not None and (len(acting) > 1 or (actor != last and unasked >= ASK_EVERY)):
            unasked = 0
            progress = rules.progress(state)
            if progress.round >= stop_round:
                return None, tuple(progress.scores)
        last = actor
        action = player.choose(SeatView(rules, state, actor), rules.legal_actions(state, actor), rng)
        state = rules.step(state, action)[1]
    return rules.result(state), tuple(rules.progress(state).scores)


def parse_choice(text: str) -> tuple[str, dict[str, Any]]:
    """A bot as the command line names it: ``heuristic``, or ``search:400`` (a policy, then its budget)."""
    name, sep, budget = text.partition(":")
    if not sep:
        return name, {}
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"a bot is NAME or NAME:BUDGET with a budget of at least 1, like {SEARCH}:400 (got {text!r})")
    return name, {"budget": int(budget)}


def with_search(rules: GameRules[Any, Action, Any], bots: Bots[Action]) -> Bots[Action]:
    """``bots`` with the search bot added under ``SEARCH`` (its playouts by ``bots``' own policies)."""
    maker: Callable[..., Policy[Action]] = lambda **tendencies: SearchBot(rules, bots, **tendencies)  # noqa: E731
    return Bots({**bots.policies, SEARCH: maker}, bots.personas)
