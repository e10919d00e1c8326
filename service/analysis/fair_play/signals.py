"""The four fair-play signals, scored from a tournament's judged decisions (docs/fair_play.md): pure, no game named.

Every signal is a z-score: how many standard errors the subject's figure lies from what the field shows, so a
score of 3 means the same in any tournament (about 1 in 700 for one subject under a normal null; the bench measures
how often honest subjects reach it, since the null is only roughly normal).

- *Gifts* (giver -> receiver): in a move that cost its mover (loss > 0), how far the receiver's value beyond what
  the best move found would have given it, less the same for the mover's other opponents at that move.
- *Soft play* (a pair): how much less a move harmed the partner than it harmed the other opponents at the table
  (harm of a move to a seat: the seat's value on the mover's options on average minus after the move played),
  both partners' moves.
- *Kingmaking* (kingmaker -> beneficiary): at a move where the mover had no chance left (win chance at most
  ``NO_CHANCE`` after the move played, after the best move found and on its options on average), how far the move
  played shifted win chance to the beneficiary, beyond the options' average, less the others' shift.
- *Bot-like play* (a player): match rate with the judge's best move found and mean move accuracy, each against the
  other players at the same table size (leave-one-out median and spread), raised when think times are also too
  regular (coefficient of variation below the field's).

The pair signals compare within the mover's own table (the other opponents at the same move), then remove what a
seat's position does (the field's mean at the same table size and seat offset), then average one mover's amounts
toward the other over one game (a *cell*: moves of one game share its positions, games are the independent draws)
and scale each cell by the mover's spread of cells toward its other opponents (shrunk towards the field's: a random
mover swings more than a careful one; the subject's own cells left out): the score is the sum of the scaled cells
over the root of their count. A pair is flagged only when the pattern repeats: its score from each of at least
``MIN_GAMES`` games alone reaches ``GAME_LEVEL``, from ``MIN_PAIR_DECISIONS`` moves at least; a player needs
``MIN_DECISIONS`` moves at a table size and ``MIN_GAMES`` games: one lucky game is no flag.
Two-seat tables have no other opponent to compare with: the pair signals skip them (bot-like play reads them).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from domain.judge import move_accuracy
from service.analysis.fair_play.evidence import Decision, TournamentEvidence
from service.analysis.fair_play.findings import SIGNALS, Behind, Finding, Report

# The flag's z-score per signal, in one place (the dashboard's flag, the API's and the CLI's). Gifts at 2: read off
# four simulated Ruins tournaments' curves (bench/fair_play.py) and then tested on tournaments played after it was
# chosen (eighteen so far: 68 of 72 planted directions at 3.0 % of honest ones; weaker in Arnak). Soft play and
# bot-like play at 2 were each chosen beforehand and failed their held-out tournaments, so they stay at 3 with
# kingmaking. The figures, and how each choice was tested: docs/fair_play.md, "Thresholds".
THRESHOLDS: Mapping[str, float] = {"gifts": 2.0, "soft_play": 3.0, "kingmaking": 3.0, "bot_like": 3.0}
NO_CHANCE = 0.02  # a seat whose win chance is at most this after every option has no chance left (kingmaking)
MIN_GAMES = 2  # a pair flagged only when the pattern shows in at least this many games (the same for a player)
GAME_LEVEL = 1.0  # a game shows a pair's pattern when the pair's score from that game alone is at least this
MIN_PAIR_DECISIONS = 5  # ... and at least this many moves
MIN_DECISIONS = 20  # a player's bot-likeness is scored from at least this many judged decisions at a table size
MIN_FIELD = 3  # other players with MIN_DECISIONS at the same table size, for bot-likeness's field
MIN_THINKS = 5  # known think times for a coefficient of variation
REGULARITY = 0.5  # too regular think times raise the skill z by this share of theirs, up to this share of the skill's
PRIOR = 10.0  # a player's rates are shrunk towards the field's as if it had this many decisions at the field's rate
CELL_PRIOR = 10.0  # a mover's spread of game cells is shrunk towards the field's as if the field's were this many
MOVES_KEPT = 10  # moves behind a finding, the weightiest first
# The least spread a z-score divides by, per figure (a field of near-identical players is not a tiny unit):
FLOOR = {"amount": 1e-3, "match": 0.01, "accuracy": 0.25, "cv": 0.05}


@dataclass(frozen=True, slots=True)
class _Amount:
    """One move's contribution to one subject of a pair signal: ``relative`` is what the score reads (the excess
    over the mover's other opponents, before centring and scaling), ``weight`` what the move weighed for the finding
    (its ``Behind.amount``)."""

    subject: tuple[str, ...]
    decision: Decision
    relative: float
    weight: float
    offset: int  # the subject's seat after the mover's (1: next), what position alone may do


@dataclass
class _Tally:
    total: float = 0.0
    cells: int = 0
    decisions: int = 0
    games: set[str] = field(default_factory=set)
    per_game: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    moves: list[Behind] = field(default_factory=list)
    sums: dict[str, float] = field(default_factory=lambda: defaultdict(float))


def report(evidence: TournamentEvidence, thresholds: Mapping[str, float] = THRESHOLDS) -> Report:
    """Every signal's findings for the tournament, each signal's ranked by score (highest first)."""
    decisions = list(evidence.decisions)
    findings = [
        *_pair_signal("gifts", _gifts(decisions), thresholds),
        *_pair_signal("soft_play", _soft_play(decisions), thresholds),
        *_pair_signal("kingmaking", _kingmaking(decisions), thresholds),
        *bot_like(decisions, thresholds["bot_like"]),
    ]
    ranked = sorted(findings, key=lambda f: (SIGNALS.index(f.signal), -f.score, f.subject))
    return Report(evidence.tournament_id, evidence.games, len(decisions), dict(thresholds), tuple(ranked))


def _others(decision: Decision) -> list[int]:
    return [s for s in range(decision.table_size) if s != decision.seat]


def _offset(decision: Decision, seat: int) -> int:
    return (seat - decision.seat) % decision.table_size


def _excess(amounts: Mapping[int, float], seat: int) -> float:
    """``seat``'s amount less the mean of the other seats' in ``amounts``."""
    rest = [a for s, a in amounts.items() if s != seat]
    return amounts[seat] - sum(rest) / len(rest)


def _gifts(decisions: Iterable[Decision]) -> list[_Amount]:
    """Per move and opponent: the value the opponent got beyond the best move's, in a move that cost its mover."""
    out = []
    for d in decisions:
        others = _others(d)
        if len(others) < 2:
            continue
        given = {o: max(0.0, d.played.values[o] - d.best.values[o]) if d.loss > 0 else 0.0 for o in others}
        for o in others:
            subject = (d.player, d.players[o])
            out.append(_Amount(subject, d, _excess(given, o), given[o], _offset(d, o)))
    return out


def _soft_play(decisions: Iterable[Decision]) -> list[_Amount]:
    """Per move and opponent: how much less the move harmed the opponent than the mover's other opponents."""
    out = []
    for d in decisions:
        others = _others(d)
        if len(others) < 2:
            continue
        harm = {o: d.options.values[o] - d.played.values[o] for o in others}
        for o in others:
            spared = -_excess(harm, o)
            subject = tuple(sorted((d.player, d.players[o])))
            out.append(_Amount(subject, d, spared, spared, _offset(d, o)))
    return out


def no_chance(decision: Decision) -> bool:
    """The mover had no chance left: its win chance at most ``NO_CHANCE`` whatever it played (the move played, the
    best move found, its options on average), while at least two others still had one (a choice between them)."""
    s = decision.seat
    mine = max(decision.played.wins[s], decision.best.wins[s], decision.options.wins[s])
    contenders = sum(1 for o in _others(decision) if decision.options.wins[o] > NO_CHANCE)
    return mine <= NO_CHANCE and contenders >= 2


def _kingmaking(decisions: Iterable[Decision]) -> list[_Amount]:
    """Per move of a seat with no chance and opponent: the win chance the move shifted to the opponent beyond the
    options' average, less the mean shift to the mover's other opponents."""
    out = []
    for d in decisions:
        others = _others(d)
        if len(others) < 2 or not no_chance(d):
            continue
        shift = {o: d.played.wins[o] - d.options.wins[o] for o in others}
        for o in others:
            subject = (d.player, d.players[o])
            out.append(_Amount(subject, d, _excess(shift, o), _excess(shift, o), _offset(d, o)))
    return out


def _centred(amounts: Sequence[_Amount]) -> list[float]:
    """Each amount less the field's mean at its table size and seat offset (what position alone does)."""
    by_place: dict[tuple[int, int], list[float]] = defaultdict(list)
    for a in amounts:
        by_place[(a.decision.table_size, a.offset)].append(a.relative)
    centre = {k: statistics.fmean(v) for k, v in by_place.items()}
    return [a.relative - centre[(a.decision.table_size, a.offset)] for a in amounts]


@dataclass
class _Squares:
    """A count and a sum of squares of cells (centred: their mean square is their variance about 0)."""

    count: int = 0
    total: float = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value * value

    def without(self, other: _Squares) -> _Squares:
        return _Squares(self.count - other.count, self.total - other.total)

    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


def _scale(mover: _Squares, field: _Squares) -> float:
    """A mover's spread of cells, shrunk towards the field's as if the field's were ``CELL_PRIOR`` cells."""
    var = (mover.total + CELL_PRIOR * field.mean()) / (mover.count + CELL_PRIOR)
    return max(FLOOR["amount"], math.sqrt(var))


def _pair_signal(signal: str, amounts: Sequence[_Amount], thresholds: Mapping[str, float]) -> list[Finding]:
    """The findings of a pair signal: per subject (ordered as the amounts give it: giver first, or a sorted pair
    for soft play), its cells (one mover's centred amounts toward the other in one game, averaged: moves of one
    game are not independent, games are) each over its mover's spread of cells, summed over the root of their
    count. A mover's spread is its cells toward its other subjects, shrunk towards the field's at the table size
    (``CELL_PRIOR``), both without the subject's own cells: a colluder's gift cells would otherwise widen the very
    spread they are divided by (a third of its cells at tables of four), and larger gifts would score no higher."""
    cells: dict[tuple[tuple[str, ...], str, str], list[float]] = defaultdict(list)
    sizes: dict[tuple[tuple[str, ...], str, str], int] = {}
    tallies: dict[tuple[str, ...], _Tally] = defaultdict(_Tally)
    for a, c in zip(amounts, _centred(amounts), strict=True):
        d = a.decision
        key = (a.subject, d.player, d.game_id)
        cells[key].append(c)
        sizes[key] = d.table_size
        t = tallies[a.subject]
        t.decisions += 1
        t.games.add(d.game_id)
        t.sums["amount"] += a.weight
        if a.weight > 0:
            t.moves.append(Behind(d.game_id, d.index, d.version, d.seat, d.player, a.weight))
    means = {k: statistics.fmean(v) for k, v in cells.items()}
    field_ms: dict[int, _Squares] = defaultdict(_Squares)
    mover_ms: dict[tuple[str, int], _Squares] = defaultdict(_Squares)
    own_ms: dict[tuple[tuple[str, ...], str, int], _Squares] = defaultdict(_Squares)
    for key, m in means.items():
        subject, mover, size = key[0], key[1], sizes[key]
        field_ms[size].add(m)
        mover_ms[(mover, size)].add(m)
        own_ms[(subject, mover, size)].add(m)
    for key, m in means.items():
        subject, mover, game_id = key
        size = sizes[key]
        own = own_ms[(subject, mover, size)]  # left out of both spreads: a pattern does not widen its own yardstick
        z = m / _scale(mover_ms[(mover, size)].without(own), field_ms[size].without(own))
        t = tallies[subject]
        t.total += z
        t.cells += 1
        t.per_game[game_id].append(z)
    out = []
    for subject, t in tallies.items():
        if len(set(subject)) < len(subject):
            continue  # a player who held two seats of one table (a substitute): no pair
        score = t.total / math.sqrt(t.cells)
        repeated = sum(1 for zs in t.per_game.values() if sum(zs) / math.sqrt(len(zs)) >= GAME_LEVEL)
        enough = repeated >= MIN_GAMES and t.decisions >= MIN_PAIR_DECISIONS
        figures = {"mean_amount": t.sums["amount"] / t.decisions, "moves_with_amount": float(len(t.moves)),
                   "games_in_favour": float(repeated)}  # fmt: skip
        moves = tuple(sorted(t.moves, key=lambda m: (-m.amount, m.game_id, m.index))[:MOVES_KEPT])
        flagged = enough and score >= thresholds[signal]
        out.append(Finding(signal, subject, score, flagged, len(t.games), t.decisions, figures, moves))
    return out


# --- bot-like play ---


@dataclass(frozen=True, slots=True)
class _Player:
    """One player's figures at one table size."""

    decisions: tuple[Decision, ...]
    match: float  # shrunk towards the field's (``PRIOR``)
    accuracy: float  # the same
    match_se: float  # the standard error of the player's own rate (its decisions' spread over their root count)
    accuracy_se: float
    cv: float | None  # think times' coefficient of variation, None without MIN_THINKS of them


def bot_like(decisions: Sequence[Decision], threshold: float) -> list[Finding]:
    """Per player: the z-scores of match rate and accuracy against the field at each table size (combined over
    sizes by decisions), and of think-time regularity; the score is the skill z (the mean of the two), raised by
    ``REGULARITY`` times the regularity z, by no more than that share of the skill z: regular think times alone
    (a steady player) are no flag, and a bot relayed with human-like times is still scored on its skill."""
    by_size: dict[int, dict[str, list[Decision]]] = defaultdict(lambda: defaultdict(list))
    for d in decisions:
        by_size[d.table_size][d.player].append(d)
    zs: dict[str, list[tuple[int, dict[str, float]]]] = defaultdict(list)
    for players in by_size.values():
        for player, z in _sized_zscores(players).items():
            zs[player].append(z)
    counts: dict[str, list[Decision]] = defaultdict(list)
    for d in decisions:
        counts[d.player].append(d)
    out = []
    for player, mine in counts.items():
        figures = _combined(zs.get(player, []))
        skill = (figures["z_match"] + figures["z_accuracy"]) / 2
        regular = figures.get("z_regular")
        score = skill if regular is None else skill + REGULARITY * min(max(0.0, regular), max(0.0, skill))
        scored = bool(zs.get(player))
        games = {d.game_id for d in mine}
        behind = [
            Behind(d.game_id, d.index, d.version, d.seat, d.player, move_accuracy(d.loss)) for d in mine if d.matched
        ]
        moves = tuple(sorted(behind, key=lambda m: (-m.amount, m.game_id, m.index))[:MOVES_KEPT])
        flagged = scored and len(games) >= MIN_GAMES and score >= threshold
        figures["match_rate"] = sum(d.matched for d in mine) / len(mine)
        figures["accuracy"] = statistics.fmean(move_accuracy(d.loss) for d in mine)
        out.append(Finding("bot_like", (player,), score if scored else 0.0, flagged, len(games), len(mine), figures,
                           moves))  # fmt: skip
    return out


def _sized_zscores(players: Mapping[str, list[Decision]]) -> dict[str, tuple[int, dict[str, float]]]:
    """At one table size: each player with ``MIN_DECISIONS`` against the others (leave one out)."""
    field_match = _rate([d for ds in players.values() for d in ds], lambda d: float(d.matched))
    field_acc = _rate([d for ds in players.values() for d in ds], lambda d: move_accuracy(d.loss))
    scored = {
        p: _Player(
            tuple(ds),
            _shrunk(ds, lambda d: float(d.matched), field_match),
            _shrunk(ds, lambda d: move_accuracy(d.loss), field_acc),
            _se([float(d.matched) for d in ds]),
            _se([move_accuracy(d.loss) for d in ds]),
            _cv([d.think_seconds for d in ds if d.think_seconds is not None]),
        )
        for p, ds in players.items()
        if len(ds) >= MIN_DECISIONS
    }
    out = {}
    for p, me in scored.items():
        rest = [o for q, o in scored.items() if q != p]
        if len(rest) < MIN_FIELD:
            continue
        z = {
            "z_match": _z(me.match, [o.match for o in rest], max(FLOOR["match"], me.match_se)),
            "z_accuracy": _z(me.accuracy, [o.accuracy for o in rest], max(FLOOR["accuracy"], me.accuracy_se)),
            "field_match_rate": statistics.median(o.match for o in rest),
            "field_accuracy": statistics.median(o.accuracy for o in rest),
        }
        cvs = [o.cv for o in rest if o.cv is not None]
        if me.cv is not None and len(cvs) >= MIN_FIELD:
            z["z_regular"] = -_z(me.cv, cvs, FLOOR["cv"])  # lower variation than the field: more regular
            z["think_cv"], z["field_think_cv"] = me.cv, statistics.median(cvs)
        out[p] = (len(me.decisions), z)
    return out


def _combined(sized: Sequence[tuple[int, dict[str, float]]]) -> dict[str, float]:
    """Each z combined over table sizes, weighted by decisions (Stouffer's weighted sum); other figures averaged."""
    if not sized:
        return {"z_match": 0.0, "z_accuracy": 0.0}
    out: dict[str, float] = {}
    for key in {k for _, z in sized for k in z}:
        pairs = [(n, z[key]) for n, z in sized if key in z]
        if key.startswith("z_"):
            out[key] = sum(n * v for n, v in pairs) / math.sqrt(sum(n * n for n, _ in pairs))
        else:
            out[key] = sum(n * v for n, v in pairs) / sum(n for n, _ in pairs)
    return out


# A finding's figures in an organiser's words, in this order (docs/fair_play.md defines each). A pair signal's
# amount is an expected result (kingmaking: a win chance) between 0 and 1, shown in points of 100, with its verb.
AMOUNT_WORDS = {"gifts": "given", "soft_play": "spared", "kingmaking": "of win chance passed"}
FIGURE_WORDS: dict[str, Callable[[float], str]] = {
    "moves_with_amount": lambda v: f"{v:.0f} move(s) behind it",
    "games_in_favour": lambda v: f"the pattern in {v:.0f} game(s) alone (a flag needs {MIN_GAMES})",
    "match_rate": lambda v: f"the judge's best move in {100 * v:.0f} % of moves",
    "field_match_rate": lambda v: f"the field {100 * v:.0f} %",
    "accuracy": lambda v: f"accuracy {v:.1f}",
    "field_accuracy": lambda v: f"the field {v:.1f}",
    "think_cv": lambda v: f"think times vary by {100 * v:.0f} % of their mean",
    "field_think_cv": lambda v: f"the field's by {100 * v:.0f} %",
    "z_match": lambda v: f"match z {v:+.2f}",
    "z_accuracy": lambda v: f"accuracy z {v:+.2f}",
    "z_regular": lambda v: f"think-time regularity z {v:+.2f}",
}


def none_found(decisions: int, flagged_only: bool = False) -> str:
    """What a signal with no finding says (the page and the command): with no judged decision read, that there was
    nothing to read, so an unjudged tournament is not taken for a clean one."""
    if not decisions:
        return "Nothing to read yet: no decision of this tournament's games is judged."
    return "No flagged finding." if flagged_only else "No finding."


def figure_words(signal: str, figures: Mapping[str, float]) -> str:
    """A finding's figures as an organiser reads them (``AMOUNT_WORDS``, ``FIGURE_WORDS``), then any figure not
    named there by its key, so a new figure is shown before it has words."""
    named = []
    if "mean_amount" in figures:
        verb = f" {AMOUNT_WORDS[signal]}" if signal in AMOUNT_WORDS else ""
        named.append(f"{100 * figures['mean_amount']:.1f} points{verb} a move on average")
    named += [FIGURE_WORDS[k](figures[k]) for k in FIGURE_WORDS if k in figures]
    known = {"mean_amount", *FIGURE_WORDS}
    return " · ".join(named + [f"{k} {v:g}" for k, v in sorted(figures.items()) if k not in known])


def _rate(decisions: Sequence[Decision], of: Callable[[Decision], float]) -> float:
    return statistics.fmean(of(d) for d in decisions) if decisions else 0.0


def _shrunk(decisions: Sequence[Decision], of: Callable[[Decision], float], prior: float) -> float:
    """The mean of ``of`` over ``decisions``, shrunk towards ``prior`` as if ``PRIOR`` more decisions had it."""
    return (sum(of(d) for d in decisions) + PRIOR * prior) / (len(decisions) + PRIOR)


def _se(values: Sequence[float]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def _cv(times: Sequence[float]) -> float | None:
    if len(times) < MIN_THINKS:
        return None
    mean = statistics.fmean(times)
    return statistics.stdev(times) / mean if mean > 0 else None


def _z(value: float, field_values: Sequence[float], floor: float) -> float:
    """``value`` against the field: minus its median, over its spread (the median absolute deviation as a standard
    deviation, at least ``floor``: a figure's floor or the subject's own standard error, so a small field that
    happens to agree does not make sampling noise look like a signal): robust, so one random mover in a small field
    does not widen it for everyone."""
    centre = statistics.median(field_values)
    spread = 1.4826 * statistics.median(abs(v - centre) for v in field_values)
    return (value - centre) / max(floor, spread)
