"""Planted cheats among honest players: a simulated tournament, played and judged in memory, that the fair-play
signals must find (issue 28, section 2; docs/fair_play.md, "The proof").

The roster (``roster``): honest players of mixed styles and strengths (the game's random bot, its heuristic
personas, the search bot at small budgets), each with human-like think times (lognormal, a median and a spread drawn
per player); and the planted cheats, policies over the protocol like every bot:

- *colluding pairs*: each partner, at a stated ``rate`` of the decisions where a gift to its partner is clear
  (``Colluding``: the partner's gain over the colluder's own best move confirmed on fresh draws), plays the move
  best for its partner, which gifts (the partner gains beyond the mover's best) and spares the partner; at a stated
  ``soft_rate`` of its other decisions it also plays softly (the candidate about as good for itself as its honest
  style's move that leaves its partner best off beside the other opponents); its other moves are its honest style's;
- *kingmakers*, each with its chosen player: its style until it has no chance left (its win chance at most
  ``signals.NO_CHANCE`` after each of its candidate moves, measured as the judge does: playouts to the round's end,
  on common draws), then the candidate that gives its chosen player the best chance to win when that player is at
  the table (an honest player: being crowned is no cheat);
- *bot seats*: the search bot at a high budget, with think times drawn as an honest player's are.

``simulate``: N players, R rounds seated by the round robin (``service.seating.formats``), each planted group (a
pair, a kingmaker and its player) then brought to one table in a stated share of rounds, each table's game played
in memory (``domain.play``) and judged whole (``domain.judge``, a small budget), the judged decisions made evidence
(the move's number plus one stands for its version: there is no store) and the report made. Seeded: the same
``Setup`` gives the same report. Nothing here names a game.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from domain.games import game
from domain.judge import Judge, moves_of
from domain.play import play_game
from domain.policies import Bots, Policy
from domain.protocol import GameRules, Result
from domain.search import ROUNDS_AHEAD as SEARCH_ROUNDS_AHEAD
from domain.search import SearchBot, play_out, rewards
from service.analysis.fair_play.evidence import Decision, Outlook, TournamentEvidence
from service.analysis.fair_play.findings import Report
from service.analysis.fair_play.signals import NO_CHANCE, THRESHOLDS, report
from service.seating.formats import History, Round, seat

HONEST_STYLES = ("heuristic", "random", "search:8", "heuristic", "search:16", "heuristic")  # cycled, in order
THINK_MEDIAN = (4.0, 40.0)  # seconds: a player's median think time drawn log-uniformly in this range
THINK_SPREAD = (0.5, 1.0)  # a player's lognormal sigma drawn uniformly in this range
ACTS = ("asked", "clear", "gifted", "spared", "crowned")  # what a planted cheat did, counted (a colluder: decisions,
# clear gifts, gifts made, soft moves made; a kingmaker: decisions with its player at the table, those it played for
# its player)


@dataclass(frozen=True, slots=True)
class Setup:
    """One simulated tournament: ``players`` at tables of ``table``, ``rounds`` rounds, judged at ``judge_budget``;
    ``pairs`` colluding pairs, ``kingmakers`` kingmakers (each with an honest player it plays for), ``bots`` bot
    seats searching at ``bot_budget``. A colluder gifts at ``rate`` of the decisions where a gift is clear (its
    candidates compared over ``gift_draws`` common draws: the partner gains at least ``gift_margin`` of reward
    beyond the colluder's own best, by at least 2 standard errors); at ``soft_rate`` of its other decisions it plays
    softly, giving up at most ``soft_slack`` of its own reward (``Colluding.soft_move``; 0, the default, keeps the
    tournaments measured before soft play was planted as they were). ``together``: the share of rounds in which each
    planted group (a pair, a kingmaker and its player) is seated at one table (friends who manage to sit together;
    0: the round robin alone, where a pair meets about rounds * (table - 1) / (players - 1) times)."""

    kind: str
    players: int = 12
    table: int = 4
    rounds: int = 6
    judge_budget: int = 32
    seed: str = "fair-play"
    pairs: int = 2
    kingmakers: int = 2
    bots: int = 2
    rate: float = 1.0
    gift_draws: int = 16
    gift_margin: float = 0.03
    collusion_budget: int = 64  # the candidates a colluder or a kingmaker compares: the search's at this budget
    kingmaker_draws: int = 4
    bot_budget: int = 128
    together: float = 1.0
    # Fields added later go last, with defaults: a kept simulation (the bench's --save) stores the fields in order,
    # and one saved before them loads with the defaults (``__setstate__``), not with its values shifted.
    soft_rate: float = 0.0
    soft_slack: float = 0.02

    def __setstate__(self, state: Sequence[Any]) -> None:
        for f, value in zip(fields(self), [*state, *(f.default for f in fields(self)[len(state) :])], strict=True):
            object.__setattr__(self, f.name, value)


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
    # What the planted cheats did, game by game: (game id, player, what, count), ``what`` one of ``ACTS``
    acts: tuple[tuple[str, str, str, int], ...] = ()

    def first(self, rounds: int, thresholds: Mapping[str, float] = THRESHOLDS) -> Simulation:
        """The tournament as it stood after its first ``rounds`` rounds, reported again: a longer tournament of the
        same seed plays its first rounds exactly as a shorter one does (seating and games are seeded by round)."""
        kept = {game_id(self.setup.seed, r, t) for r in range(rounds) for t in range(len(self.rounds[r].tables))}
        decisions = tuple(d for d in self.evidence.decisions if d.game_id in kept)
        evidence = TournamentEvidence(self.evidence.tournament_id, decisions, len(kept))
        acts = tuple(a for a in self.acts if a[0] in kept)
        return Simulation(replace(self.setup, rounds=rounds), self.entrants, self.rounds[:rounds], evidence,
                          report(evidence, thresholds), acts)  # fmt: skip

    def acted(self) -> dict[str, dict[str, int]]:
        """Each planted cheat's counts over the tournament (``ACTS``): what the signals had to find."""
        return acted(self.acts)

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
    """The players: the planted cheats first (colluding pairs, kingmakers, bot seats), then honest players of the
    styles ``HONEST_STYLES`` in turn; kingmaker k plays for the k-th honest player."""
    rng = random.Random(f"roster:{setup.seed}")
    bots = game(setup.kind).bots
    personas = bots.personas_for(setup.players)
    honest_count = setup.players - 2 * setup.pairs - setup.kingmakers - setup.bots
    if honest_count < max(1, setup.kingmakers):
        raise ValueError(f"{setup.players} players leave too few honest ones beside the planted cheats")

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
    for p in range(setup.pairs):
        a, b = f"colluder-{p + 1}a", f"colluder-{p + 1}b"
        out += [Entrant(a, "colluder", "heuristic", {}, *think(), partner=b),
                Entrant(b, "colluder", "heuristic", {}, *think(), partner=a)]  # fmt: skip
    for k in range(setup.kingmakers):
        out.append(Entrant(f"kingmaker-{k + 1}", "kingmaker", "heuristic", {}, *think(), partner=f"honest-{k + 1:02d}"))
    for n in range(setup.bots):
        out.append(Entrant(f"bot-seat-{n + 1}", "bot", "search", {"budget": setup.bot_budget}, *think()))
    for i in range(honest_count):
        policy, tendencies = style(i)
        out.append(Entrant(f"honest-{i + 1:02d}", "honest", policy, tendencies, *think()))
    return tuple(out)


def groups(entrants: Sequence[Entrant]) -> list[tuple[str, str]]:
    """The planted groups a tournament may seat together: each colluding pair once, each kingmaker and its player."""
    pairs = [(e.name, e.partner) for e in entrants if e.role == "colluder" and e.partner and e.name < e.partner]
    return pairs + [(e.name, e.partner) for e in entrants if e.role == "kingmaker" and e.partner]


@dataclass
class Colluding:
    """A colluder: where a gift to its partner is clear, at ``rate`` of those decisions, the candidate best for the
    partner; else its own style's. Clear: the candidates compared on ``draws`` draws common to all (playouts to the
    round's end, as the search and the judge play them), then on as many fresh draws the partner's reward after the
    candidate best for it exceeds its reward after the colluder's own best by at least ``margin`` and by 2 standard
    errors of the paired difference. So the cheat gifts where the gift is worth something, not on the noise of a
    small search (which, choosing the largest of many noisy figures, sees gifts the judge does not)."""

    own: Policy[Any]
    rules: GameRules[Any, Any, Any]
    searcher: SearchBot[Any]  # its candidates
    rollout: Policy[Any]  # every seat of a playout
    partner: int
    rate: float
    draws: int = 16
    margin: float = 0.03
    soft_rate: float = 0.0
    soft_slack: float = 0.02
    name: str = "colluding"
    asked: int = field(default=0)  # decisions with a choice, so far (a test reads them)
    clear: int = field(default=0)  # ... of which a gift was clear
    gifted: int = field(default=0)  # ... of which it gifted
    spared: int = field(default=0)  # ... of the others, where it played softly (a move other than its style's)

    def tendencies(self) -> dict[str, Any]:
        return {"rate": self.rate, "draws": self.draws, "margin": self.margin, "soft_rate": self.soft_rate,
                "soft_slack": self.soft_slack}  # fmt: skip

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) < 2:
            return self.own.choose(view, legal, rng)
        self.asked += 1
        gift = self.clear_gift(view, legal, rng)
        if gift is not None:
            self.clear += 1
            if rng.random() < self.rate:
                self.gifted += 1
                return gift
        honest = self.own.choose(view, legal, rng)
        if self.soft_rate > 0 and rng.random() < self.soft_rate:  # no draw at 0: earlier tournaments play as they did
            soft = self.soft_move(view, legal, honest, rng)
            if soft is not None:
                self.spared += 1
                return soft
        return honest

    def soft_move(self, view: Mapping[str, Any], legal: Sequence[Any], honest: Any, rng: random.Random) -> Any | None:
        """Of the candidates (and ``honest``, its style's move) compared on ``draws`` common draws, those within
        ``soft_slack`` of ``honest``'s reward to the colluder, the one that leaves its partner best off beside the
        other opponents (the partner's reward less theirs on average: what the soft-play signal reads, sparing);
        ``None`` if that is ``honest`` itself. No confirmation on fresh draws, unlike a gift: a soft move costs its
        mover little by construction, and the signal reads its average over many moves, not one clear case. Its own
        draws, not the gift check's: the honest move is drawn after that check (so a tournament without soft play
        keeps its draws) and must be compared on the same draws as the rest; a tenth more CPU a game (measured:
        docs/performance.md, section 34)."""
        seen = dict(view)
        me = int(seen["viewer"])
        candidates = self.searcher.candidates(seen, legal, rng)
        if honest not in candidates:
            candidates = [honest, *candidates]
        mine, spare = [0.0] * len(candidates), [0.0] * len(candidates)
        for _ in range(self.draws):
            for i, reward in enumerate(self._playouts(seen, me, candidates, rng)):
                others = [r for s, r in enumerate(reward) if s not in (me, self.partner)]
                mine[i] += reward[me]
                spare[i] += reward[self.partner] - (statistics.fmean(others) if others else 0.0)
        bar = mine[candidates.index(honest)] - self.soft_slack * self.draws
        chosen = max((i for i in range(len(candidates)) if mine[i] >= bar), key=lambda i: (spare[i], -i))
        return None if candidates[chosen] == honest else candidates[chosen]

    def clear_gift(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any | None:
        """The candidate best for the partner, if its gift over the colluder's own best is clear; else ``None``.
        Both are chosen on ``draws`` draws, the gift confirmed on as many fresh ones (choosing the largest of many
        noisy figures overstates it: the confirmation does not)."""
        seen = dict(view)
        me = int(seen["viewer"])
        candidates = self.searcher.candidates(seen, legal, rng)
        if len(candidates) < 2:
            return None
        mine, theirs = [0.0] * len(candidates), [0.0] * len(candidates)
        for _ in range(self.draws):
            for i, reward in enumerate(self._playouts(seen, me, candidates, rng)):
                mine[i] += reward[me]
                theirs[i] += reward[self.partner]
        best_own = max(range(len(candidates)), key=lambda i: (mine[i], -i))
        best_partner = max(range(len(candidates)), key=lambda i: (theirs[i], -i))
        if best_partner == best_own:
            return None
        pair = [candidates[best_own], candidates[best_partner]]
        gains = []
        for _ in range(self.draws):
            own, gift = self._playouts(seen, me, pair, rng)
            gains.append(gift[self.partner] - own[self.partner])
        mean = statistics.fmean(gains)
        error = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
        return candidates[best_partner] if mean >= self.margin and mean >= 2 * error else None

    def _playouts(
        self, seen: Mapping[str, Any], me: int, actions: Sequence[Any], rng: random.Random
    ) -> list[list[float]]:
        """Every seat's reward after each of ``actions`` on one common draw, played out to the round's end."""
        state = self.rules.sample(seen, me, rng)
        stop = self.rules.progress(state).round + SEARCH_ROUNDS_AHEAD
        seed = rng.getrandbits(64)
        players = len(self.rules.progress(state).scores)
        out = []
        for action in actions:
            ended = play_out(self.rules, self.rollout, state, action, stop, random.Random(seed))
            out.append(rewards(*ended) if ended is not None else [0.0] * players)
        return out


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
    asked: int = field(default=0)  # decisions with a choice and its player at the table, so far
    crowned: int = field(default=0)  # ... of which it had no chance and played for its player (a test reads it)

    def tendencies(self) -> dict[str, Any]:
        return {"draws": self.draws}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if self.beneficiary is None or len(legal) < 2:
            return self.own.choose(view, legal, rng)
        self.asked += 1
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


def acted(acts: Iterable[tuple[str, str, str, int]]) -> dict[str, dict[str, int]]:
    """Per planted cheat, ``acts`` (game id, player, what, count) summed over their games."""
    out: dict[str, dict[str, int]] = {}
    for _, player, what, count in acts:
        mine = out.setdefault(player, dict.fromkeys(ACTS, 0))
        mine[what] += count
    return out


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
        searcher = SearchBot(rules, bots, budget=setup.collusion_budget)
        if e.role == "colluder" and partner is not None:
            out.append(Colluding(own, rules, searcher, bots.make(searcher.rollout), partner, setup.rate,
                                 setup.gift_draws, setup.gift_margin, setup.soft_rate, setup.soft_slack))  # fmt: skip
        elif e.role == "kingmaker":
            out.append(Kingmaking(own, rules, searcher, bots.make(searcher.rollout), partner, setup.kingmaker_draws))
        else:
            out.append(own)
    return out


def seat_rounds(setup: Setup, names: Sequence[str], groups: Sequence[tuple[str, str]] = ()) -> tuple[Round, ...]:
    """``setup.rounds`` rounds of the round robin, each seated from the rounds before; in ``setup.together`` of
    them (drawn per group and round) each of ``groups`` is then brought to one table, the one with the fewest players of
    groups already brought together (ties: the most of this group): a member swaps seats with a player there who is
    in no such group."""
    seats = game(setup.kind).schemas.seats
    rng = random.Random(f"together:{setup.seed}")
    rounds: list[Round] = []
    for r in range(setup.rounds):
        history = History.of([(x.tables, x.byes) for x in rounds])
        seated = seat("round_robin", names, setup.table, seats.low, seats.high, f"{setup.seed}-{r}", history)
        tables = [list(t) for t in seated.tables]
        placed: set[str] = set()
        for group in groups:
            if rng.random() >= setup.together:
                continue
            at = {p: i for i, t in enumerate(tables) for p in t}
            if any(p not in at for p in group):
                continue  # sitting out this round
            # the table with the fewest players of groups already brought together (ties: the most of this group)
            home = min(range(len(tables)), key=lambda i: (sum(p in placed for p in tables[i]),
                                                          -sum(p in group for p in tables[i]), i))  # fmt: skip
            for member in group:
                if at[member] == home:
                    continue
                movable = [p for p in tables[home] if p not in placed and p not in group]
                if not movable:
                    break
                away = tables[at[member]]
                tables[home][tables[home].index(movable[0])], away[away.index(member)] = member, movable[0]
                at = {p: i for i, t in enumerate(tables) for p in t}
            placed |= set(group)
        rounds.append(Round(tuple(tuple(t) for t in tables), seated.byes))
    return tuple(rounds)


def game_id(seed: str, round_index: int, table_index: int) -> str:
    """A simulated game's id: the tournament's seed, the round and the table (both from 0), what seeds its play."""
    return f"{seed}-r{round_index + 1}-t{table_index + 1}"


def think_time(entrant: Entrant, game_id: str, index: int) -> float:
    """The seconds the player thought over one move: lognormal around its median (seeded by the move)."""
    rng = random.Random(f"think:{game_id}:{index}")
    return rng.lognormvariate(math.log(entrant.think_median), entrant.think_spread)


def play_and_judge(
    setup: Setup, entrants: Mapping[str, Entrant], table: Sequence[str], game_id: str
) -> tuple[list[Decision], list[tuple[str, str, str, int]]]:
    """One table's game played and judged: its judged decisions as evidence, and what its planted cheats did."""
    found = game(setup.kind)
    rules = found.rules
    policies = policies_for(setup, entrants, table, found.bots)
    played = play_game(rules, list(table), policies, game_id)
    acts = [(game_id, name, what, getattr(policy, what)) for name, policy in zip(table, policies, strict=True)
            if isinstance(policy, Colluding | Kingmaking) for what in ACTS if hasattr(policy, what)]  # fmt: skip
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
    return out, acts


def simulate(
    setup: Setup,
    thresholds: Mapping[str, float] = THRESHOLDS,
    progress: Callable[[str, int, int], None] | None = None,
    kept: Simulation | None = None,
) -> Simulation:
    """The tournament played, judged and reported; ``progress`` hears each game's id, its judged decisions and the
    tournament's games in all. ``kept``: the same tournament played to fewer rounds (the bench's ``--resume``):
    its games are taken as they were (not told to ``progress``) and only the later rounds played, which gives what
    playing every round would (each game is seeded by its id, and the first rounds are seated alike whatever the
    length)."""
    entrants = roster(setup)
    by_name = {e.name: e for e in entrants}
    rounds = seat_rounds(setup, [e.name for e in entrants], groups(entrants))
    decisions: list[Decision] = []
    acts: list[tuple[str, str, str, int]] = []
    games, first = 0, 0
    if kept is not None:
        _check_kept(kept, setup, rounds)
        decisions, acts = list(kept.evidence.decisions), list(kept.acts)
        games, first = kept.evidence.games, len(kept.rounds)
    in_all = sum(len(seated.tables) for seated in rounds)
    for r in range(first, len(rounds)):
        for t, table in enumerate(rounds[r].tables):
            named = game_id(setup.seed, r, t)
            judged, acted = play_and_judge(setup, by_name, table, named)
            decisions += judged
            acts += acted
            games += 1
            if progress is not None:
                progress(named, len(judged), in_all)
    evidence = TournamentEvidence(setup.seed, tuple(decisions), games)
    return Simulation(setup, entrants, rounds, evidence, report(evidence, thresholds), tuple(acts))


def _check_kept(kept: Simulation, setup: Setup, rounds: Sequence[Round]) -> None:
    """Refuses ``kept`` unless it is the first rounds of ``setup``'s tournament: the same settings but the rounds,
    and the same seating in the rounds it played (its games, seeded by their ids, are then this one's)."""
    if kept.setup != replace(setup, rounds=kept.setup.rounds) or kept.setup.rounds > setup.rounds:
        raise ValueError(f"the kept simulation ({kept.setup}) is not an earlier part of this one ({setup})")
    if tuple(rounds[: len(kept.rounds)]) != tuple(kept.rounds):
        raise ValueError("the kept simulation was seated otherwise than this one's first rounds (another version?)")
