"""The planted cheats and the simulated tournament (service.analysis.fair_play.planted): the roster, the round robin,
each cheat's policy doing what it says; and, slow, a small tournament per game whose planted cheats rank above the
honest players in their signal (the figures at a larger size: bench/fair_play.py, docs/fair_play.md)."""

from __future__ import annotations

import functools
import pickle
import random
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import pytest

from domain.games import GAMES, game
from domain.judge import Judge
from domain.play import SeatView
from domain.search import SearchBot
from service.analysis.fair_play import planted
from service.analysis.fair_play.evidence import Decision, Outlook, TournamentEvidence
from service.analysis.fair_play.findings import SIGNALS
from service.analysis.fair_play.planted import (
    Colluding,
    Kingmaking,
    Setup,
    Simulation,
    game_id,
    groups,
    roster,
    seat_rounds,
    simulate,
)
from service.analysis.fair_play.signals import report


@dataclass
class Fixed:
    """A policy that always answers ``answer``."""

    answer: str
    name: str = "fixed"

    def tendencies(self) -> dict[str, Any]:
        return {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        return self.answer


def test_the_roster_plants_pairs_kingmakers_and_bots_among_honest_players() -> None:
    entrants = roster(Setup("ruins", players=12))
    roles = Counter(e.role for e in entrants)
    assert roles == {"colluder": 4, "kingmaker": 2, "bot": 2, "honest": 4}
    names = {e.name: e for e in entrants}
    assert len(names) == 12
    pairs = [(e.name, e.partner) for e in entrants if e.role == "colluder"]
    assert all(names[b].partner == a for a, b in pairs if b is not None)
    kings = [e for e in entrants if e.role == "kingmaker"]
    assert len({k.partner for k in kings}) == 2 and all(k.partner and names[k.partner].role == "honest" for k in kings)
    assert {e.policy for e in entrants if e.role == "honest"} >= {"random", "heuristic", "search"}
    assert len({(e.think_median, e.think_spread) for e in entrants}) == 12  # think times drawn per player
    with pytest.raises(ValueError):
        roster(Setup("ruins", players=8))


def _groups(setup: Setup) -> list[tuple[str, str]]:
    return groups(roster(setup))


def test_every_round_seats_every_player_once_at_tables_of_the_size_asked() -> None:
    setup = Setup("ruins", players=12, table=4, rounds=3)
    names = [e.name for e in roster(setup)]
    for r in seat_rounds(setup, names, _groups(setup)):
        seated = [p for t in r.tables for p in t]
        assert sorted(seated) == sorted(names) and {len(t) for t in r.tables} == {4}


@pytest.mark.parametrize(("together", "least", "most"), [(1.0, 6, 6), (0.0, 0, 4)])
def test_planted_groups_sit_together_in_the_share_of_rounds_asked(together: float, least: int, most: int) -> None:
    setup = Setup("ruins", players=12, table=4, rounds=6, together=together)
    rounds = seat_rounds(setup, [e.name for e in roster(setup)], _groups(setup))
    for a, b in _groups(setup):
        met = sum(any(a in t and b in t for t in r.tables) for r in rounds)
        assert least <= met <= most, (a, b, met)


def test_a_longer_tournament_seats_its_first_rounds_as_a_shorter_one_does() -> None:
    """What lets the bench read one long tournament after its first R rounds as the tournament of R rounds."""
    short, long = Setup("ruins", rounds=3), Setup("ruins", rounds=6)
    names = [e.name for e in roster(short)]
    assert seat_rounds(long, names, _groups(long))[:3] == seat_rounds(short, names, _groups(short))


def test_a_setup_kept_before_soft_play_loads_with_its_own_values_and_no_soft_play() -> None:
    """The bench keeps simulations (pickle): a ``Setup`` stores its fields in order, and one kept before the soft-play
    fields were added (its state two fields shorter) must load with every value where it was, soft play off."""
    setup = Setup("ruins", players=8, rounds=5, collusion_budget=48, bot_budget=96, together=0.5, soft_rate=0.7)
    assert pickle.loads(pickle.dumps(setup)) == setup
    old = Setup.__new__(Setup)
    old.__setstate__([getattr(setup, f.name) for f in fields(Setup)][:-2])
    assert old == replace(setup, soft_rate=0.0, soft_slack=Setup("x").soft_slack)


def test_a_simulation_after_its_first_rounds_keeps_only_their_games() -> None:
    setup = Setup("ruins", rounds=2)
    entrants = roster(setup)
    rounds = seat_rounds(setup, [e.name for e in entrants], _groups(setup))
    decisions = tuple(
        Decision(game_id(setup.seed, r, t), 0, 1, 0, table, _even(4), _even(4), _even(4), 0.0, True, 1.0)
        for r, seated in enumerate(rounds)
        for t, table in enumerate(seated.tables)
    )
    evidence = TournamentEvidence(setup.seed, decisions, len(decisions))
    acts = (
        (game_id(setup.seed, 0, 0), "colluder-1a", "gifted", 2),
        (game_id(setup.seed, 1, 0), "colluder-1a", "gifted", 5),
    )
    whole = Simulation(setup, entrants, rounds, evidence, report(evidence), acts)
    first = whole.first(1)
    assert first.setup.rounds == 1 and first.rounds == rounds[:1]
    assert [d.game_id for d in first.evidence.decisions] == [game_id(setup.seed, 0, t) for t in range(3)]
    assert first.evidence.games == 3 and first.report.decisions == 3
    assert whole.acted()["colluder-1a"]["gifted"] == 7 and first.acted()["colluder-1a"]["gifted"] == 2


def _fake_play(played: list[str]) -> Any:
    """A stand-in for ``play_and_judge`` that records the games it is asked to play, one decision and act each."""

    def play(setup: Setup, by_name: Mapping[str, Any], table: Sequence[str], named: str) -> Any:
        played.append(named)
        decision = Decision(named, 0, 1, 0, tuple(table), _even(4), _even(4), _even(4), 0.0, True, 1.0)
        return [decision], [(named, table[0], "asked", len(played))]

    return play


def test_a_tournament_played_on_from_a_kept_one_plays_only_the_rounds_it_lacks_and_equals_one_played_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played: list[str] = []
    monkeypatch.setattr(planted, "play_and_judge", _fake_play(played))
    kept = simulate(Setup("ruins", rounds=2))
    played.clear()
    resumed = simulate(Setup("ruins", rounds=3), kept=kept)
    assert played == [game_id("fair-play", 2, t) for t in range(3)]  # the third round's games only
    assert resumed.evidence.decisions[: len(kept.evidence.decisions)] == kept.evidence.decisions
    assert resumed.acts[: len(kept.acts)] == kept.acts and resumed.evidence.games == 9
    played.clear()
    whole = simulate(Setup("ruins", rounds=3))
    assert [d.game_id for d in whole.evidence.decisions] == [d.game_id for d in resumed.evidence.decisions]
    assert whole.rounds == resumed.rounds


@pytest.mark.parametrize(
    "other",
    [Setup("ruins", rounds=3, seed="another"), Setup("ruins", rounds=3, soft_rate=1.0), Setup("ruins", rounds=1)],
)
def test_a_kept_tournament_of_other_settings_or_more_rounds_is_refused(
    monkeypatch: pytest.MonkeyPatch, other: Setup
) -> None:
    monkeypatch.setattr(planted, "play_and_judge", _fake_play([]))
    kept = simulate(Setup("ruins", rounds=2))
    with pytest.raises(ValueError, match="not an earlier part"):
        simulate(other, kept=kept)


def test_a_kept_tournament_seated_otherwise_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planted, "play_and_judge", _fake_play([]))
    kept = simulate(Setup("ruins", rounds=2))
    with pytest.raises(ValueError, match="seated otherwise"):
        simulate(Setup("ruins", rounds=3), kept=replace(kept, rounds=kept.rounds[::-1]))


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_simulation_counts_what_each_planted_cheat_did(kind: str) -> None:
    """A colluder's gifts made are among its clear gifts, those among its decisions; a kingmaker plays for its player
    only at decisions with its player at the table. Each count is what a signal had to find."""
    sim = _simulated(kind)
    acted = sim.acted()
    roles = {e.name: e.role for e in sim.entrants}
    colluders = [n for n, r in roles.items() if r == "colluder"]
    assert set(colluders) <= set(acted) and sum(acted[n]["asked"] for n in colluders) > 0
    for name, counts in acted.items():
        assert 0 <= counts["gifted"] <= counts["clear"] <= counts["asked"], (name, counts)
        assert counts["crowned"] <= counts["asked"], (name, counts)
        assert roles[name] in {"colluder", "kingmaker"}


def _even(seats: int) -> Outlook:
    return Outlook((1 / seats,) * seats, (0.5,) * seats)


def _positions(kind: str, styles: Sequence[str], seed: str, every: int) -> list[tuple[Any, int]]:
    """Every ``every``-th decision (with a choice) of a game played by bots of ``styles``: the state and the seat."""
    found = game(kind)
    rules, bots = found.rules, [found.bots.make(style) for style in styles]
    state = rules.replay(rules.start([f"p{i}" for i in range(len(styles))], None, seed))
    rng = random.Random(seed)
    out, count = [], 0
    while rules.result(state) is None:
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        if len(legal) > 1:
            count += 1
            if count % every == 0:
                out.append((state, seat))
        state = rules.step(state, bots[seat].choose(SeatView(rules, state, seat), legal, rng))[1]
    return out


def _partner_gain(judge: Judge, at: tuple[Any, int, int], partner: int, move: Any, honest: Any, seed: str) -> float:
    """How much more the judge finds the partner's value after ``move`` than after ``honest`` (at the position
    ``at``: state, seat, move number), beyond the other opponents' on average: what the pair signals read."""
    state, seat, n = at
    after_move = judge.decision(state, seat, move, n, seed=seed).played_estimate
    after_honest = judge.decision(state, seat, honest, n, seed=seed).played_estimate
    assert after_move is not None and after_honest is not None
    change = [after_move.values[s] - after_honest.values[s] for s in range(len(after_move.values))]
    others = [change[s] for s in range(len(change)) if s not in (seat, partner)]
    return change[partner] - sum(others) / len(others)


@pytest.mark.slow
def test_a_colluder_s_gift_raises_its_partner_s_value_as_the_judge_measures_it() -> None:
    """Over a Ruins game's positions: the colluder finds a clear gift at some, not all; where it gifts, the judge
    (budget 256, its own draws) finds the partner's value after the gift above its value after the honest move, by
    more than the other opponents' (what the gift signal reads)."""
    found = game("ruins")
    rules, bots = found.rules, found.bots
    judge = Judge(rules, bots, budget=256)
    gains: list[float] = []
    decisions = 0
    for n, (state, seat) in enumerate(_positions("ruins", ["heuristic"] * 4, "gift", 4)):
        partner = (seat + 1) % 4
        honest_policy = bots.make("heuristic")
        colluder = Colluding(honest_policy, rules, SearchBot(rules, bots, budget=64), bots.make("heuristic"),
                             partner, rate=1.0)  # fmt: skip
        view, legal = SeatView(rules, state, seat), rules.legal_actions(state, seat)
        chosen = colluder.choose(view, legal, random.Random(n))
        honest = honest_policy.choose(view, legal, random.Random(n))
        decisions += 1
        if colluder.gifted == 0 or chosen == honest:
            continue
        gains.append(_partner_gain(judge, (state, seat, n), partner, chosen, honest, "gift"))
    assert len(gains) >= 3, (len(gains), decisions)  # gifts were clear at some positions, not everywhere
    assert len(gains) < decisions
    assert statistics.fmean(gains) > 0.01, gains
    assert sum(g > 0 for g in gains) > len(gains) / 2, gains


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="measured: the kingmaker's picks (4 draws, and 16) shift its player's win chance by 0.000 and -0.003 "
    "beyond the options' average as the judge at 256 measures it; one Ruins move rarely changes who leads at the "
    "round's end (most shifts are exactly 0)",
)
def test_a_kingmaker_without_a_chance_moves_the_win_to_its_chosen_player() -> None:
    """A Ruins game where seat 0 plays at random and falls behind: at its later decisions the kingmaker (seat 0,
    for seat 1) finds it has no chance and picks; the judge (budget 256) finds seat 1's win chance after that pick
    above its chance on the options on average, more than the other opponents' (what kingmaking reads)."""
    found = game("ruins")
    rules, bots = found.rules, found.bots
    judge = Judge(rules, bots, budget=256)
    shifts: list[float] = []
    positions = [(state, seat) for state, seat in _positions("ruins", ["random"] + ["heuristic"] * 3, "king", 1)
                 if seat == 0]  # fmt: skip
    for n, (state, seat) in enumerate(positions[len(positions) // 2 :]):
        king = Kingmaking(Fixed("unused"), rules, SearchBot(rules, bots, budget=64), bots.make("heuristic"), 1, 4)
        chosen = king.choose(SeatView(rules, state, seat), rules.legal_actions(state, seat), random.Random(n))
        if king.crowned == 0:
            continue
        judged = judge.decision(state, seat, chosen, n, seed="king")
        assert judged.played_estimate is not None and judged.options is not None
        shift = [judged.played_estimate.wins[s] - judged.options.wins[s] for s in range(4)]
        shifts.append(shift[1] - (shift[2] + shift[3]) / 2)
    assert len(shifts) >= 3, len(shifts)
    assert statistics.fmean(shifts) > 0.02, shifts


def test_a_colluder_gifts_only_where_clear_and_at_its_rate() -> None:
    rules, bots = game("ruins").rules, game("ruins").bots
    searcher = SearchBot(rules, bots, budget=4)
    never = Colluding(Fixed("own"), rules, searcher, Fixed("own"), 1, rate=0.0)
    never.clear_gift = lambda view, legal, rng: "gift"  # type: ignore[method-assign]
    assert all(never.choose({}, ["own", "gift"], random.Random(i)) == "own" for i in range(20))
    assert (never.asked, never.clear, never.gifted) == (20, 20, 0)
    always = Colluding(Fixed("own"), rules, searcher, Fixed("own"), 1, rate=1.0)
    always.clear_gift = lambda view, legal, rng: "gift"  # type: ignore[method-assign]
    assert all(always.choose({}, ["own", "gift"], random.Random(i)) == "gift" for i in range(20))
    unclear = Colluding(Fixed("own"), rules, searcher, Fixed("own"), 1, rate=1.0)
    unclear.clear_gift = lambda view, legal, rng: None  # type: ignore[method-assign]
    assert all(unclear.choose({}, ["own", "gift"], random.Random(i)) == "own" for i in range(20))
    assert (unclear.clear, unclear.gifted) == (0, 0)


def test_a_colluder_plays_softly_only_at_its_soft_rate_and_never_where_it_gifts() -> None:
    rules, bots = game("ruins").rules, game("ruins").bots
    searcher = SearchBot(rules, bots, budget=4)

    def colluder(soft_rate: float, gift: str | None) -> Colluding:
        made = Colluding(Fixed("own"), rules, searcher, Fixed("own"), 1, rate=1.0, soft_rate=soft_rate)
        made.clear_gift = lambda view, legal, rng: gift  # type: ignore[method-assign]
        made.soft_move = lambda view, legal, honest, rng: "soft"  # type: ignore[method-assign]
        return made

    never = colluder(0.0, None)
    assert all(never.choose({}, ["own", "soft"], random.Random(i)) == "own" for i in range(20)) and never.spared == 0
    drawn = random.Random(7)
    never.choose({}, ["own", "soft"], drawn)  # at 0 no draw is taken: tournaments measured before play as they did
    assert drawn.random() == random.Random(7).random()
    always = colluder(1.0, None)
    assert all(always.choose({}, ["own", "soft"], random.Random(i)) == "soft" for i in range(20))
    assert always.spared == 20
    gifting = colluder(1.0, "gift")  # a clear gift taken is the move: no soft move on top
    assert all(gifting.choose({}, ["own", "gift"], random.Random(i)) == "gift" for i in range(20))
    assert (gifting.gifted, gifting.spared) == (20, 0)
    half = colluder(0.5, None)
    soft = sum(half.choose({}, ["own", "soft"], random.Random(i)) == "soft" for i in range(200))
    assert 70 < soft < 130 and half.spared == soft


def test_a_soft_move_spares_the_partner_among_moves_about_as_good_for_the_colluder() -> None:
    """On fixed playout rewards (seat 0 the colluder, seat 1 its partner): ``b`` costs the colluder 0.01 (inside the
    slack of 0.02) and leaves the partner best off beside the others; ``c`` spares it more but costs 0.05."""
    rules, bots = game("ruins").rules, game("ruins").bots
    rewards = {"a": [0.50, 0.30, 0.40, 0.40], "b": [0.49, 0.40, 0.35, 0.35], "c": [0.45, 0.60, 0.30, 0.30]}
    made = Colluding(Fixed("a"), rules, SearchBot(rules, bots, budget=4), Fixed("a"), 1, rate=1.0, draws=4,
                     soft_rate=1.0, soft_slack=0.02)  # fmt: skip
    made.searcher.candidates = lambda view, legal, rng: ["b", "c"]  # type: ignore[method-assign]
    made._playouts = lambda seen, me, actions, rng: [rewards[a] for a in actions]  # type: ignore[method-assign]
    assert made.soft_move({"viewer": 0}, ["a", "b", "c"], "a", random.Random(0)) == "b"
    rewards["b"] = [0.49, 0.20, 0.35, 0.35]  # now the honest move spares the partner most: no soft move
    assert made.soft_move({"viewer": 0}, ["a", "b", "c"], "a", random.Random(0)) is None


@pytest.mark.slow
def test_a_colluder_s_soft_moves_leave_its_partner_better_off_as_the_judge_measures_it() -> None:
    """Over a Ruins game's positions: where the colluder plays softly, the judge (budget 256, its own draws) finds the
    partner's value after the soft move above its value after the honest move, by more than the other opponents'
    (what the soft-play signal reads: the partner harmed less than the rest), on average."""
    found = game("ruins")
    rules, bots = found.rules, found.bots
    judge = Judge(rules, bots, budget=256)
    gains: list[float] = []
    for n, (state, seat) in enumerate(_positions("ruins", ["heuristic"] * 4, "soft", 3)):
        partner = (seat + 1) % 4
        colluder = Colluding(bots.make("heuristic"), rules, SearchBot(rules, bots, budget=64), bots.make("heuristic"),
                             partner, rate=0.0, soft_rate=1.0)  # fmt: skip
        view, legal = SeatView(rules, state, seat), rules.legal_actions(state, seat)
        honest = bots.make("heuristic").choose(view, legal, random.Random(n))
        soft = colluder.soft_move(view, legal, honest, random.Random(n))
        if soft is None:
            continue
        gains.append(_partner_gain(judge, (state, seat, n), partner, soft, honest, "soft"))
    assert len(gains) >= 5, len(gains)
    assert statistics.fmean(gains) > 0, gains


def test_a_kingmaker_without_its_chosen_player_at_the_table_plays_its_own_style() -> None:
    rules, bots = game("ruins").rules, game("ruins").bots
    king = Kingmaking(Fixed("own"), rules, SearchBot(rules, bots, budget=4), bots.make("heuristic"), None, 2)
    assert king.choose({}, ["own", "x"], random.Random(0)) == "own" and king.crowned == 0


# One tournament per game, bench/fair_play.py's (about 4.5 and 5 CPU minutes): 12 players, 8 of them planted cheats;
# the Ruins one is the first 6 rounds of the 18-round tournament the bench measured as games grow.
SMALL = {"ruins": Setup("ruins", table=4, rounds=6, judge_budget=32, seed="fair-detect-ruins-0"),
         "arnak": Setup("arnak", table=3, rounds=3, judge_budget=16, seed="fair-power-arnak-0")}  # fmt: skip
# Where the planted cheats do not rank first at this size (measured: docs/fair_play.md, "What the simulation
# shows"): expected failures, strict, so the day one starts to pass the test says so.
NOT_YET = {
    ("ruins", "gifts"): "the four gift directions rank 1, 10, 23, 63 of 76 in six games (at 18: 1, 3, 9, 26 of 92)",
    ("ruins", "soft_play"): "the two pairs rank 10 and 26 of 38: sparing within the judge's noise at 32",
    ("ruins", "kingmaking"): "the kingmakers' picks do not move the win (tested above); they rank 30 and 44 of 68",
    ("arnak", "gifts"): "the four gift directions rank 1, 3, 6, 12 of 56 in three games each",
    ("arnak", "soft_play"): "the two pairs rank 1 and 3 of 28 in three games each",
    ("arnak", "kingmaking"): "the two kingmakers rank 7 and 23 of 26",
}


HEARD: dict[str, list[tuple[str, int, int]]] = {}  # what each game's simulation told its progress


@functools.cache  # one tournament per game serves its four signals' cases (in one process)
def _simulated(kind: str) -> Simulation:
    heard = HEARD.setdefault(kind, [])
    return simulate(SMALL[kind], progress=lambda game_id, judged, games: heard.append((game_id, judged, games)))


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_simulation_tells_its_progress_game_by_game(kind: str) -> None:
    """Each game played and judged is told once, with its decisions and the tournament's games in all (the
    seating's, which may not be the players over the table size)."""
    sim = _simulated(kind)
    heard = HEARD[kind]
    assert len({game_id for game_id, _, _ in heard}) == len(heard) == sim.evidence.games
    assert {games for _, _, games in heard} == {sim.evidence.games}
    assert sum(judged for _, judged, _ in heard) == len(sim.evidence.decisions)


def _cases() -> list[Any]:
    return [
        pytest.param(kind, signal, marks=[pytest.mark.xfail(reason=NOT_YET[(kind, signal)], strict=True)])
        if (kind, signal) in NOT_YET
        else pytest.param(kind, signal)
        for kind in sorted(GAMES)
        for signal in SIGNALS
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "signal"), _cases())
def test_planted_cheats_rank_above_the_honest_players_in_their_signal(kind: str, signal: str) -> None:
    sim = _simulated(kind)
    ranked = sim.report.of(signal)
    planted = sim.planted(signal)
    ranks = [i for i, f in enumerate(ranked) if f.subject in planted]
    shown = [(f.subject, round(f.score, 2)) for f in ranked[:5]]
    assert len(ranks) == len(planted), (signal, "a planted subject has no score", shown)
    assert ranks == list(range(len(ranks))), (signal, ranks, shown)
