"""The fair-play signals on hand-made evidence: an honest field of noisy judged decisions, with one pattern planted
at a time (a gift pair, a soft pair, a kingmaker, a bot), found and ranked first; the honest subjects not flagged;
a pattern in one game only not flagged (docs/fair_play.md)."""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Callable

from service.analysis.fair_play.evidence import Decision, Outlook, TournamentEvidence
from service.analysis.fair_play.findings import SIGNALS
from service.analysis.fair_play.signals import (
    FIGURE_WORDS,
    MIN_DECISIONS,
    NO_CHANCE,
    THRESHOLDS,
    figure_words,
    no_chance,
    report,
)

PLAYERS = tuple(f"p{i}" for i in range(8))
Tilt = Callable[[Decision, random.Random], Decision]


def _outlook(values: list[float], wins: list[float] | None = None) -> Outlook:
    clipped = [min(1.0, max(0.0, v)) for v in values]
    return Outlook(tuple(clipped if wins is None else wins), tuple(clipped))


def honest(rng: random.Random, game: str, index: int, players: tuple[str, ...], seat: int) -> Decision:
    """A noisy honest decision: every seat's value near its standing, the move played a little off the options'
    average and, now and then, behind the best move found."""
    n = len(players)
    standing = [0.3 + 0.4 * rng.random() for _ in range(n)]
    options = [v + rng.gauss(0, 0.02) for v in standing]
    played = [v + rng.gauss(0, 0.03) for v in options]
    loss = max(0.0, rng.gauss(2.0, 4.0))
    best = [v + rng.gauss(0, 0.03) for v in played]
    best[seat] = played[seat] + loss / 100
    return Decision(game, index, index + 1, seat, players, _outlook(played), _outlook(best), _outlook(options), loss,
                    loss == 0.0, rng.lognormvariate(2.5, 0.7))  # fmt: skip


def tournament(games: int, tilt: Tilt | None = None, seed: int = 1, size: int = 4) -> TournamentEvidence:
    """``games`` games of ``size`` seats from ``PLAYERS`` (every table a seeded draw), 10 decisions a seat."""
    rng = random.Random(seed)
    decisions = []
    for g in range(games):
        table = tuple(rng.sample(PLAYERS, size))
        for index in range(10 * size):
            d = honest(rng, f"g{g}", index, table, index % size)
            decisions.append(d if tilt is None else tilt(d, rng))
    return TournamentEvidence("t", decisions, games)


def _with(d: Decision, **changes: object) -> Decision:
    fields = {f: getattr(d, f) for f in Decision.__slots__}
    fields.update(changes)
    return Decision(**fields)


def gift(giver: str, receiver: str, rate: float = 0.5, size: float = 0.08) -> Tilt:
    """``giver``'s moves at ``receiver``'s table, at ``rate``: a cost to itself, the receiver raised beyond best."""

    def tilt(d: Decision, rng: random.Random) -> Decision:
        if d.player != giver or receiver not in d.players or rng.random() >= rate:
            return d
        r = d.players.index(receiver)
        played = list(d.played.values)
        played[r] = d.best.values[r] + size
        return _with(d, played=_outlook(played), loss=max(d.loss, 6.0), matched=False)

    return tilt


def test_a_gift_pair_repeated_across_games_is_flagged_and_few_honest_pairs_are() -> None:
    """The planted direction ranks first and is flagged; honest directions flagged stay within the target's 5 %
    (at the gift threshold of 2 an honest direction reaches it now and then: here 1 of 55, at 2.03)."""
    evidence = tournament(24, gift("p0", "p1"))
    gifts = report(evidence).of("gifts")
    assert gifts[0].subject == ("p0", "p1") and gifts[0].flagged
    assert gifts[0].games >= 2 and gifts[0].moves and gifts[0].moves[0].player == "p0"
    assert [m.amount for m in gifts[0].moves] == sorted((m.amount for m in gifts[0].moves), reverse=True)
    honest_flagged = [f.subject for f in gifts[1:] if f.flagged]
    assert len(honest_flagged) <= 0.05 * len(gifts[1:]), honest_flagged
    assert gifts[0].score > 2 * gifts[1].score  # far above the field, at any threshold
    assert report(tournament(24, gift("p0", "p1"))).to_dict() == report(evidence).to_dict()  # pure, deterministic


def test_a_giver_s_own_gifts_do_not_widen_the_spread_they_are_measured_against() -> None:
    """Gifts four times as large score about four times as high: the giver's cells toward its receiver are left
    out of the giver's spread (counted in, larger gifts widen it and the score saturates: 2.7 times, measured)."""

    def score(size: float) -> float:
        found = report(tournament(24, gift("p0", "p1", 0.5, size))).of("gifts")
        return next(f.score for f in found if f.subject == ("p0", "p1"))

    small, large = score(0.04), score(0.16)
    assert small > 1.0 and large > 3.5 * small, (small, large)


def test_on_honest_fields_the_scores_are_z_scores_and_few_are_flagged() -> None:
    """Over eight honest tournaments the pair scores centre on 0 with a spread of 1 (what makes a threshold mean
    the same in any tournament), and under 5 % of honest subjects are flagged."""
    scores: dict[str, list[float]] = {s: [] for s in SIGNALS}
    flagged = subjects = 0
    for seed in range(1, 9):
        found = report(tournament(24, seed=seed))
        assert found.games == 24 and found.decisions == 24 * 40 and found.thresholds == THRESHOLDS
        for f in found.findings:
            scores[f.signal].append(f.score)
            flagged += f.flagged
            subjects += 1
    for signal in ("gifts", "soft_play", "bot_like"):
        assert abs(statistics.fmean(scores[signal])) < 0.25, signal
        assert 0.8 < statistics.pstdev(scores[signal]) < 1.25, signal
    assert not scores["kingmaking"]  # no seat ever without a chance: nothing to score
    assert flagged / subjects < 0.05, (flagged, subjects)


def test_gifts_in_one_game_are_no_flag_however_large() -> None:
    first = _first_game_of("p0", "p1")
    one = tournament(24, lambda d, rng: gift("p0", "p1", 1.0, 0.5)(d, rng) if d.game_id == first else d)
    low = {**THRESHOLDS, "gifts": 2.0}  # a threshold the one game's score passes: the repeat rule alone refuses it
    pair = next(f for f in report(one, low).of("gifts") if f.subject == ("p0", "p1"))
    assert pair.games >= 2 and pair.score >= low["gifts"] and not pair.flagged
    assert pair.figures["games_in_favour"] == 1


def _first_game_of(a: str, b: str) -> str:
    return next(d.game_id for d in tournament(24).decisions if a in d.players and b in d.players)


def test_soft_play_a_pair_that_spare_each_other_is_found() -> None:
    def spare(d: Decision, rng: random.Random) -> Decision:
        pair = {"p2", "p3"}
        if d.player not in pair or not pair <= set(d.players) or rng.random() >= 0.6:
            return d
        partner = d.players.index(next(iter(pair - {d.player})))
        played = list(d.played.values)
        played[partner] = d.options.values[partner] + 0.05  # the partner better off than on the options' average
        return _with(d, played=_outlook(played))

    soft = report(tournament(24, spare)).of("soft_play")
    assert soft[0].subject == ("p2", "p3") and soft[0].flagged
    assert not any(f.flagged for f in soft[1:])


def out_of_it(d: Decision, king: str, crowned: str) -> Decision:
    """The mover with no chance left (or any seat, when ``king`` is empty), the move played crowning ``crowned``."""
    wins = [0.0 if s == d.seat else 0.3 for s in range(d.table_size)]
    played_wins = list(wins)
    if d.player == king and crowned in d.players:
        c = d.players.index(crowned)
        played_wins = [w - 0.05 if s not in (d.seat, c) else w for s, w in enumerate(wins)]
        played_wins[c] += 0.1
    else:
        played_wins = [w + random.Random(f"{d.game_id}{d.index}{s}").gauss(0, 0.03) if s != d.seat else 0.0
                       for s, w in enumerate(wins)]  # fmt: skip
    return _with(d, played=Outlook(tuple(played_wins), d.played.values), best=Outlook(tuple(wins), d.best.values),
                 options=Outlook(tuple(wins), d.options.values))  # fmt: skip


def test_kingmaking_a_seat_without_chance_crowning_one_player_is_found_and_for_whom() -> None:
    def late(d: Decision, rng: random.Random) -> Decision:
        return out_of_it(d, "p4", "p5") if d.index >= 24 else d

    kings = report(tournament(24, late)).of("kingmaking")
    assert kings[0].subject == ("p4", "p5") and kings[0].flagged
    assert not any(f.flagged for f in kings[1:])


def test_kingmaking_reads_only_seats_without_chance() -> None:
    d = honest(random.Random(3), "g", 0, PLAYERS[:4], 0)
    out = out_of_it(d, "p0", "p1")
    assert no_chance(out)
    wins = list(out.best.wins)
    wins[0] = NO_CHANCE + 0.01  # the best move found would have left it a chance
    assert not no_chance(_with(out, best=Outlook(tuple(wins), out.best.values)))


def test_bot_like_a_player_matching_the_judge_with_regular_think_times_is_found() -> None:
    def bot(d: Decision, rng: random.Random) -> Decision:
        if d.player != "p6":
            return d
        return _with(d, loss=0.0, matched=rng.random() < 0.95, think_seconds=8.0 + rng.random())

    found = report(tournament(24, bot)).of("bot_like")
    assert found[0].subject == ("p6",) and found[0].flagged
    assert found[0].figures["z_regular"] > 0 and found[0].figures["match_rate"] > 0.9
    assert not any(f.flagged for f in found[1:])


def test_bot_like_needs_enough_decisions_and_a_field() -> None:
    few = TournamentEvidence("t", [d for d in tournament(2).decisions][: MIN_DECISIONS - 1], 1)
    assert all(f.score == 0.0 and not f.flagged for f in report(few).of("bot_like"))


def test_two_seat_tables_feed_no_pair_signal() -> None:
    found = report(tournament(12, size=2))
    assert not found.of("gifts") and not found.of("soft_play") and not found.of("kingmaking")
    assert found.of("bot_like")


def test_each_ordered_pair_once_per_pair_signal() -> None:
    found = report(tournament(24, gift("p0", "p1")))
    for signal in ("gifts", "soft_play", "kingmaking"):
        subjects = [f.subject for f in found.of(signal)]
        assert len(subjects) == len(set(subjects))
    assert {f.subject for f in found.of("soft_play")} <= {tuple(sorted(p)) for p in itertools.combinations(PLAYERS, 2)}


def test_every_figure_a_signal_reports_is_shown_in_words() -> None:
    """The fair-play page shows a finding's figures in an organiser's words (``figure_words``), never a bare key,
    for every figure any signal reports; a figure without words is still shown, by its key."""

    def bot(d: Decision, rng: random.Random) -> Decision:
        if d.player != "p6":
            return d
        return _with(d, loss=0.0, matched=rng.random() < 0.95, think_seconds=8.0 + rng.random())

    def late(d: Decision, rng: random.Random) -> Decision:
        return out_of_it(d, "p4", "p5") if d.index >= 24 else bot(d, rng)

    findings = report(tournament(24, gift("p0", "p1"))).findings + report(tournament(24, late)).findings
    keys = {k for f in findings for k in f.figures}
    assert {f.signal for f in findings if f.figures} == set(SIGNALS)
    assert "z_regular" in keys and "think_cv" in keys and "games_in_favour" in keys
    assert keys <= {"mean_amount", *FIGURE_WORDS}, keys - set(FIGURE_WORDS)
    assert all("_" not in figure_words(f.signal, f.figures) for f in findings)  # no bare key
    shown = figure_words("bot_like", {"match_rate": 0.934, "z_match": 2.5, "new_figure": 1.5})
    assert shown == "the judge's best move in 93 % of moves · match z +2.50 · new_figure 1.5"
    assert figure_words("gifts", {"mean_amount": 0.0206}) == "2.1 points given a move on average"
