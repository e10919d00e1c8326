"""Planted cheats among honest players: a simulated tournament, played and judged in memory, that the fair-play
signals must find (issue 28, section 2; docs/fair_play.md, "The proof").

The roster (``roster``): honest players of mixed styles and strengths (the game's random bot, its heuristic
personas, the search bot at small budgets), each with human-like think times (lognormal, a median and a spread drawn
per player); and the planted cheats, policies over the protocol like every bot:

- a *colluding pair*: each partner, at a stated ``rate`` of its decisions, plays the move the search finds best for
  its partner (``ForSeat``: the search bot with the partner's reward instead of its own), which gifts (the partner
  gains beyond the mover's best) and spares the partner (soft play); its other moves are its honest style's;
- a *kingmaker*: plays its style until it has no chance left (its win chance at most ``signals.NO_CHANCE`` after
  each of its candidate moves, measured as the judge does: playouts to the round's end, on common draws), then
  plays the candidate that gives its chosen player the best chance to win when that player is at the table (an
  honest player: being crowned is no cheat);
- a *bot seat*: the search bot at a high budget, with think times drawn as an honest player's are.

``simulate``: N players, R rounds seated by the round robin (``service.seating.formats``), each table's game played
in memory (``domain.play``) and judged whole (``domain.judge``, a small budget), the judged decisions made evidence
(the move's number plus one stands for its version: there is no store) and the report made. Seeded: the same
``Setup`` gives the same report. Nothing here names a game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.games import game
from domain.judge import Judge, moves_of
from domain.play import play_game
from domain.policies import Bots, Policy
from domain.protocol import GameRules, Result
from domain.search import SearchBot, play_out, rewards
from service.analysis.fair_play.evidence import Decision, Outlook, TournamentEvidence
from service.analysis.fair_play.findings import Report
from service.analysis.fair_play.signals import NO_CHANCE, THRESHOLDS, report
from service.seating.formats import History, Round, seat

HONEST_STYLES = ("heuristic", "random", "search:8", "heuristic", "search:16", "heuristic")  # cycled, in order
THINK_MEDIAN = (4.0, 40.0)  # seconds: a player's median think time drawn log-uniformly in this range
THINK_SPREAD = (0.5, 1.0)  # a player's lognormal sigma drawn uniformly in this range


@dataclass(frozen=True, slots=True)
class Setup:
    """One simulated tournament: ``players`` at tables of ``table``, ``rounds`` rounds, judged at ``judge_budget``;
    ``pairs`` colluding pairs playing for the partner at ``rate`` of their decisions (searching at
    ``collusion_budget``), one kingmaker, one bot seat searching at ``bot_budget``."""

    kind: str
    players: int = 8
    table: int = 4
    rounds: int = 6
    judge_budget: int = 32
    seed: str = "fair-play"
    pairs: int = 1
    rate: float = 0.75
    collusion_budget: int = 64
    kingmaker_draws: int = 4
    bot_budget: int = 128


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of the simulation: a name, a role (``honest``, ``colluder``, ``kingmaker``, ``bot``), the style it
    plays honestly (a policy name and tendencies), its think times, and for whom it cheats (a player's name)."""

    name: str
    role: str
    policy: str
    tendencies: Mapping[str, Any]
    think_median: float
    think_spread: float
    partner: str | None = None


@dataclass(frozen=True, slots=True)
class Simulation:
    setup: Setup
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...]
    evidence: TournamentEvidence
    report: Report

    def planted(self, signal: str) -> set[tuple[str, ...]]:
        """The subjects a signal should find: the colluders both ways (gifts), as a pair (soft play), the kingmaker
        and its chosen player (kingmaking), the bot seat (bot-like play)."""
        out: set[tuple[str, ...]] = set()
        for e in self.entrants:
            if e.role == "colluder" and e.partner is not None:
                out |= {(e.name, e.partner)} if signal == "gifts" else set()
                out |= {tuple(sorted((e.name, e.partner)))} if signal == "soft_play" else set()
            if e.role == "kingmaker" and e.partner is not None and signal == "kingmaking":
                out.add((e.name, e.partner))
            if e.role == "bot" and signal == "bot_like":
                out.add((e.name,))
        return out


def roster(setup: Setup) -> tuple[Entrant, ...]:
    """The players: the planted cheats first (colluding pairs, the kingmaker, the bot seat), then honest players of
    the styles ``HONEST_STYLES`` in turn; the kingmaker's chosen player is the first honest one."""
    rng = random.Random(f"roster:{setup.seed}")
    bots = game(setup.kind).bots
    personas = bots.personas_for(setup.players)
    honest_count = setup.players - 2 * setup.pairs - 2
    if honest_count < 1:
        raise ValueError(f"{setup.players} players leave no honest one beside the planted cheats")

    def think() -> tuple[float, float]:
        low, high = THINK_MEDIAN
        return math.exp(rng.uniform(math.log(low), math.log(high))), rng.uniform(*THINK_SPREAD)

    def style(i: int) -> tuple[str, Mapping[str, Any]]:
        chosen = HONEST_STYLES[i % len(HONEST_STYLES)]
        if chosen.startswith("search:"):
            return "search", {"budget": int(chosen.partition(":")[2])}
        if chosen == "random":
            return "random", {}
        persona = personas[i % len(personas)]
        return (persona.policy, dict(persona.tendencies)) if persona.policy == "heuristic" else ("heuristic", {})

    out: list[Entrant] = []
    first_honest = f"honest-{1:02d}"
    for p in range(setup.pairs):
        a, b = f"colluder-{p + 1}a", f"colluder-{p + 1}b"
        out += [Entrant(a, "colluder", "heuristic", {}, *think(), partner=b),
                Entrant(b, "colluder", "heuristic", {}, *think(), partner=a)]  # fmt: skip
    out.append(Entrant("kingmaker", "kingmaker", "heuristic", {}, *think(), partner=first_honest))
    out.append(Entrant("bot-seat", "bot", "search", {"budget": setup.bot_budget}, *think()))
    for i in range(honest_count):
        policy, tendencies = style(i)
        out.append(Entrant(f"honest-{i + 1:02d}", "honest", policy, tendencies, *think()))
    return tuple(out)


@dataclass
class ForSeat(SearchBot[Any]):
    """The search bot playing for another seat: each candidate valued by ``beneficiary``'s reward, not its own."""

    beneficiary: int = 0

    def evaluate(self, state: Any, action: Any, seat: int, start_round: int, rng: random.Random) -> float:
        return super().evaluate(state, action, self.beneficiary, start_round, rng)


@dataclass
class Colluding:
    """At ``rate`` of its decisions, the move the search finds best for the partner; else its own style's."""

    own: Policy[Any]
    for_partner: ForSeat
    rate: float
    name: str = "colluding"

    def tendencies(self) -> dict[str, Any]:
        return {"rate": self.rate, "budget": self.for_partner.budget}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if rng.random() < self.rate:
            return self.for_partner.choose(view, legal, rng)
        return self.own.choose(view, legal, rng)


def _wins(ended: tuple[Result | None, tuple[int, ...]] | None, players: int) -> tuple[float, ...]:
    """Who wins a playout, as the judge counts it: the winners, or at a cut the leaders on points."""
    if ended is None:
        return (0.0,) * players
    result, scores = ended
    if result is not None:
        return tuple(float(s in result.winners) for s in range(players))
    return tuple(float(points == max(scores)) for points in scores)


@dataclass
class Kingmaking:
    """Its own style while it has a chance; with none left (every candidate's win chance at most ``NO_CHANCE`` over
    ``draws`` draws), the candidate best for ``beneficiary`` (``None``: not at this table)."""

    own: Policy[Any]
    rules: GameRules[Any, Any, Any]
    searcher: SearchBot[Any]  # its candidates
    rollout: Policy[Any]  # the judge's rollout bot, every seat of a playout
    beneficiary: int | None
    draws: int
    name: str = "kingmaking"
    crowned: int = field(default=0)  # decisions played for the beneficiary so far (a test reads it)

    def tendencies(self) -> dict[str, Any]:
        return {"draws": self.draws}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if self.beneficiary is None or len(legal) < 2:
            return self.own.choose(view, legal, rng)
        seen = dict(view)
        me = int(seen["viewer"])
        candidates = self.searcher.candidates(seen, legal, rng)
        mine = [0.0] * len(candidates)
        theirs = [0.0] * len(candidates)
        for _ in range(self.draws):
            state = self.rules.sample(seen, me, rng)
            progress = self.rules.progress(state)
            stop, players = progress.round + 1, len(progress.scores)
            seed = rng.getrandbits(64)
            for i, action in enumerate(candidates):
                ended = play_out(self.rules, self.rollout, state, action, stop, random.Random(seed))
                mine[i] += _wins(ended, players)[me]
                if ended is not None:  # the beneficiary's win first, its value to break ties
                    theirs[i] += _wins(ended, players)[self.beneficiary] + rewards(*ended)[self.beneficiary] / 10
        if max(mine) / self.draws > NO_CHANCE:
            return self.own.choose(view, legal, rng)
        self.crowned += 1
        return candidates[max(range(len(candidates)), key=lambda i: (theirs[i], -i))]


def policies_for(
    setup: Setup, entrants: Mapping[str, Entrant], table: Sequence[str], bots: Bots[Any]
) -> list[Policy[Any]]:
    """Each seat's policy for one game: the planted cheats know their partner's seat at this table."""
    rules = game(setup.kind).rules
    out: list[Policy[Any]] = []
    for name in table:
        e = entrants[name]
        own = bots.make(e.policy, **dict(e.tendencies))
        partner = table.index(e.partner) if e.partner in table else None
        if e.role == "colluder" and partner is not None:
            partner_search = ForSeat(rules, bots, budget=setup.collusion_budget, beneficiary=partner)
            out.append(Colluding(own, partner_search, setup.rate))
        elif e.role == "kingmaker":
            searcher = SearchBot(rules, bots, budget=setup.collusion_budget)
            out.append(Kingmaking(own, rules, searcher, bots.make(searcher.rollout), partner, setup.kingmaker_draws))
        else:
            out.append(own)
    return out


def seat_rounds(setup: Setup, names: Sequence[str]) -> tuple[Round, ...]:
    """``setup.rounds`` rounds of the round robin, each seated from the rounds before."""
    seats = game(setup.kind).schemas.seats
    rounds: list[Round] = []
    for r in range(setup.rounds):
        history = History.of([(x.tables, x.byes) for x in rounds])
        rounds.append(seat("round_robin", names, setup.table, seats.low, seats.high, f"{setup.seed}-{r}", history))
    return tuple(rounds)


def think_time(entrant: Entrant, game_id: str, index: int) -> float:
    """The seconds the player thought over one move: lognormal around its median (seeded by the move)."""
    rng = random.Random(f"think:{game_id}:{index}")
    return rng.lognormvariate(math.log(entrant.think_median), entrant.think_spread)


def play_and_judge(setup: Setup, entrants: Mapping[str, Entrant], table: Sequence[str], game_id: str) -> list[Decision]:
    """One table's game played and judged: its judged decisions as evidence."""
    found = game(setup.kind)
    rules = found.rules
    played = play_game(rules, list(table), policies_for(setup, entrants, table, found.bots), game_id)
    opening = rules.start(list(table), None, game_id)
    moves, _ = moves_of(rules, opening, played.actions)
    judged = Judge(rules, found.bots, budget=setup.judge_budget).game(opening, moves, seed=game_id, seats=len(table))
    out = []
    for j in judged.moves:
        if not j.judged or j.played_estimate is None or j.best_estimate is None or j.options is None:
            continue
        mover = entrants[table[j.seat]]
        out.append(Decision(game_id, j.index, j.index + 1, j.seat, tuple(table), Outlook.of(j.played_estimate),
                            Outlook.of(j.best_estimate), Outlook.of(j.options), j.loss, j.best == j.played,
                            think_time(mover, game_id, j.index)))  # fmt: skip
    return out


def simulate(
    setup: Setup,
    thresholds: Mapping[str, float] = THRESHOLDS,
    progress: Callable[[str, int], None] | None = None,
) -> Simulation:
    """The tournament played, judged and reported; ``progress`` hears each game's id and its judged decisions."""
    entrants = roster(setup)
    by_name = {e.name: e for e in entrants}
    rounds = seat_rounds(setup, [e.name for e in entrants])
    decisions: list[Decision] = []
    games = 0
    for r, seated in enumerate(rounds):
        for t, table in enumerate(seated.tables):
            game_id = f"{setup.seed}-r{r + 1}-t{t + 1}"
            judged = play_and_judge(setup, by_name, table, game_id)
            decisions += judged
            games += 1
            if progress is not None:
                progress(game_id, len(judged))
    evidence = TournamentEvidence(setup.seed, tuple(decisions), games)
    return Simulation(setup, entrants, rounds, evidence, report(evidence, thresholds))
