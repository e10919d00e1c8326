"""The fair-play signals against planted cheats: how many they find, how many honest players they flag.

Plays ``--tournaments`` simulated tournaments per game (``service.analysis.fair_play.planted``: N players of mixed
honest styles and strengths, colluding pairs, kingmakers and bot seats, R rounds of the round robin with each planted
group brought to one table in ``--together`` of them, every game judged in memory), then for each signal and game
prints the share of planted cheats flagged and of honest subjects flagged at the thresholds the report uses
(``signals.THRESHOLDS``), each with its n and 95 % Wilson interval, and a curve of both shares across thresholds
(the report re-made from the same evidence at each). Tournaments are seeded ``<prefix>-<game>-<i>`` (or
``--seeds``): the same arguments give the same figures. Run it under ``nice -n 10``; the figures are in
docs/fair_play.md and docs/performance.md. ``--save NAME`` keeps the simulations in ``NAME.<game>``, ``--load``
scores kept ones again with the signals as they are now (no playing: trying a statistic costs seconds), and
``--at-rounds 6,12`` also reports each tournament after its first R rounds (played exactly as a shorter one);
``--resume NAME`` plays kept tournaments on to more rounds, playing only the rounds they lack.

    nice -n 10 python -m bench.fair_play --game ruins --tournaments 2 --players 12 --rounds 6 --budget 32
    nice -n 10 python -m bench.fair_play --game ruins --seeds a,b --rounds 18 --save kept
    nice -n 10 python -m bench.fair_play --game ruins --load kept --at-rounds 6,12
    nice -n 10 python -m bench.fair_play --game ruins --seeds a,b --rounds 36 --resume kept --save longer
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from dashboard.uncertainty import wilson
from service.analysis.fair_play.findings import SIGNALS
from service.analysis.fair_play.planted import Setup, Simulation, acted, simulate
from service.analysis.fair_play.signals import THRESHOLDS, report

CURVE = (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0)  # thresholds the curve is read at (every signal alike)


def shares(simulations: Sequence[Simulation], signal: str, threshold: float) -> tuple[int, int, int, int]:
    """Planted subjects flagged, planted subjects, honest subjects flagged, honest subjects (those with a score)."""
    found = planted = false = honest = 0
    for sim in simulations:
        again = report(sim.evidence, {**THRESHOLDS, signal: threshold}).of(signal)
        cheats = sim.planted(signal)
        planted += len(cheats)
        found += sum(1 for f in again if f.subject in cheats and f.flagged)
        others = [f for f in again if f.subject not in cheats]
        honest += len(others)
        false += sum(1 for f in others if f.flagged)
    return found, planted, false, honest


def ranks(sim: Simulation, signal: str) -> list[int]:
    """Each planted subject's rank in its signal (1 first)."""
    ranked = [f.subject for f in sim.report.of(signal)]
    return sorted(ranked.index(s) + 1 for s in sim.planted(signal) if s in ranked)


def share_text(hits: int, n: int) -> str:
    low, high = wilson(hits / n if n else None, n) or (0.0, 1.0)
    return f"{hits}/{n} = {100 * hits / n if n else 0:.0f} % ({100 * low:.0f}-{100 * high:.0f} %)"


def summary(sims: Sequence[Simulation], cpu: float) -> str:
    """The figures of ``sims`` (one game, one setup but the seed): the shares at the thresholds and the curve."""
    setup = sims[0].setup
    games = sum(s.evidence.games for s in sims)
    head = (
        f"{setup.kind}: {len(sims)} tournament(s) of {setup.players} players, tables of {setup.table}, "
        f"{setup.rounds} rounds ({games} games, {sum(len(s.evidence.decisions) for s in sims)} judged decisions), "
        f"judge budget {setup.judge_budget}; {setup.pairs} colluding pairs gifting at {setup.rate} of clear gifts "
        f"({setup.gift_draws} draws, margin {setup.gift_margin}) and playing {setup.soft_rate} of "
        f"the rest softly, {setup.kingmakers} kingmakers, {setup.bots} bot "
        f"seats at {setup.bot_budget}; groups together in {setup.together} of rounds; {cpu:.0f} CPU s"
    )
    lines = [head, "", "| signal | threshold | planted flagged | honest flagged | planted ranks |", "|" + "---|" * 5]
    for signal in SIGNALS:
        found, planted, false, honest = shares(sims, signal, THRESHOLDS[signal])
        all_ranks = [r for s in sims for r in ranks(s, signal)]
        lines.append(f"| {signal} | {THRESHOLDS[signal]} | {share_text(found, planted)} | "
                     f"{share_text(false, honest)} | {all_ranks} |")  # fmt: skip
    lines += ["", "What the planted cheats did (summed over the tournaments; a colluder: its decisions with a choice "
              "at its partner's table, the clear gifts among them, the gifts made, the soft moves made; a kingmaker: "
              "its decisions with its player at the table, those it played for its player with no chance left):", "",
              "| planted | role | decisions | clear gifts | gifts made | soft moves | crowned |",
              "|" + "---|" * 7]  # fmt: skip
    roles = {e.name: e.role for e in sims[0].entrants}
    # (a simulation kept before the counts were taken has none)
    for player, counts in sorted(acted(a for s in sims for a in getattr(s, "acts", ())).items()):
        lines.append(f"| {player} | {roles.get(player, '?')} | {counts['asked']} | {counts['clear']} | "
                     f"{counts['gifted']} | {counts['spared']} | {counts['crowned']} |")  # fmt: skip
    lines += ["", "Curve (planted flagged % / honest flagged %):", "",
              "| signal | " + " | ".join(f"z >= {t}" for t in CURVE) + " |", "|---|" + "---|" * len(CURVE)]  # fmt: skip
    for signal in SIGNALS:
        cells = []
        for t in CURVE:
            found, planted, false, honest = shares(sims, signal, t)
            cells.append(f"{100 * found / max(1, planted):.0f} / {100 * false / max(1, honest):.1f}")
        lines.append(f"| {signal} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _progress(seed: str, kept: Simulation | None = None) -> Callable[[str, int, int], None]:
    """A line on stderr for each game played and judged (a long tournament runs for half an hour and more), counted
    on from ``kept``'s games when the tournament is played on from it."""
    done = [kept.evidence.games, len(kept.evidence.decisions)] if kept is not None else [0, 0]  # games, decisions

    def heard(game_id: str, judged: int, games: int) -> None:
        done[0] += 1
        done[1] += judged
        print(f"{seed}: game {done[0]} of {games} ({game_id}) judged, {done[1]} decisions so far", file=sys.stderr,
              flush=True)  # fmt: skip

    return heard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game kind (repeat for more); default ruins")
    parser.add_argument("--tournaments", type=int, default=2)
    parser.add_argument("--seeds", help="the tournaments' seeds, comma separated (instead of <prefix>-<game>-<i>)")
    parser.add_argument("--players", type=int, default=Setup("x").players)
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--budget", type=int, default=32, help="the judge's budget")
    parser.add_argument("--rate", type=float, default=Setup("x").rate, help="the colluders' share of clear gifts")
    parser.add_argument("--soft-rate", type=float, default=Setup("x").soft_rate,
                        help="the colluders' share of other decisions played softly (0: none)")  # fmt: skip
    parser.add_argument("--together", type=float, default=Setup("x").together, help="share of rounds at one table")
    parser.add_argument("--bot-budget", type=int, default=Setup("x").bot_budget)
    parser.add_argument("--prefix", default="fair-play-bench")
    parser.add_argument("--save", help="keep the simulations in <SAVE>.<game> (pickle), to score again with --load")
    parser.add_argument("--load", help="score the simulations kept in <LOAD>.<game> (comma separated) again, with "
                        "the signals as they are now, instead of playing")  # fmt: skip
    parser.add_argument("--resume", help="play on the simulations kept in <RESUME>.<game> (the same seeds and "
                        "settings, fewer rounds): only the rounds they lack are played")  # fmt: skip
    parser.add_argument("--at-rounds", help="also report each tournament after its first R rounds (comma separated)")
    args = parser.parse_args()
    for kind in args.game or ["ruins"]:
        if args.load:
            start = time.process_time()
            sims = [s.first(len(s.rounds)) for name in args.load.split(",") for s in _loaded(f"{name}.{kind}")]
            _report(sims, args.at_rounds, start)
            continue
        base = Setup(kind, players=args.players, table=args.table, rounds=args.rounds, judge_budget=args.budget,
                     rate=args.rate, soft_rate=args.soft_rate, bot_budget=args.bot_budget,
                     together=args.together)  # fmt: skip
        seeds = args.seeds.split(",") if args.seeds else [f"{args.prefix}-{kind}-{i}" for i in range(args.tournaments)]
        kept = {s.setup.seed: s for s in _loaded(f"{args.resume}.{kind}")} if args.resume else {}
        start = time.process_time()
        sims = []
        for seed in seeds:
            earlier = kept.get(seed)
            if args.resume and earlier is None:
                print(f"{seed}: not among the tournaments kept in {args.resume}.{kind}; played whole", file=sys.stderr)
            sims.append(simulate(replace(base, seed=seed), progress=_progress(seed, earlier), kept=earlier))
            print(json.dumps({"game": kind, "seed": seed, "games": sims[-1].evidence.games,
                              "decisions": len(sims[-1].evidence.decisions),
                              "ranks": {s: ranks(sims[-1], s) for s in SIGNALS},
                              "cpu": round(time.process_time() - start, 1)}), flush=True)  # fmt: skip
        _report(sims, args.at_rounds, start)
        if args.save:
            with open(f"{args.save}.{kind}", "wb") as out:
                pickle.dump(sims, out)


def _loaded(path: str) -> list[Simulation]:
    with open(path, "rb") as kept:
        sims: list[Simulation] = pickle.load(kept)  # the bench's own files (--save), never another's
    return sims


def _report(sims: Sequence[Simulation], at_rounds: str | None, start: float) -> None:
    """The summary of ``sims`` as played, and after the first R rounds for each R of ``at_rounds``."""
    for rounds in sorted({int(r) for r in at_rounds.split(",")} if at_rounds else set()):
        print("\n" + summary([s.first(rounds) for s in sims], time.process_time() - start) + "\n", flush=True)
    print("\n" + summary(sims, time.process_time() - start) + "\n", flush=True)


if __name__ == "__main__":
    main()
