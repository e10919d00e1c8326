"""The judge (``domain.judge``) measured, for one registered game: its time, its stability, and whether it ranks
bots of known strength as they are.

- ``time`` and ``stability``: ``--games`` four-player games of the game's heuristic bots (seeds
  ``judge-bench-<i>``), each judged ``--repeats`` times at ``--budget`` with judge seeds 0, 1, ...: the CPU seconds
  a game takes to judge on one core (each run; the wall clock on a shared machine counts the other processes' turns
  too), and the share of judged decisions whose best move found is the same in every repeat (and, pairwise, in two
  repeats). With ``--decisions N``: stability on N decisions spread over the ``--games`` games instead of whole
  games (and CPU seconds a decision), for a game too long to judge whole several times.
- ``--causes``: why repeated judgements disagree. Every judged decision of ``--games`` heuristic games (or
  ``--decisions`` of them), judged ``--repeats`` times; each decision whose best move found differs is classified
  (``CAUSES``: candidate sets that differ, two moves other than the one played each reported best, or the move
  played against one other at the significance edge, the searches agreeing or not), with the share the same in
  every repeat and its 95 % Wilson interval. With ``--significances 2,3``: the same share, game by game, had the
  judge used each of those significances (read from the same judgements: the search does not depend on it).
- ``order`` (the issue's section 4): ``--order-games`` four-player games seating a random bot, a heuristic bot, the
  search bot at ``--search-budget`` B and at 4B (seats rotating with the game's number, seeds
  ``judge-order-<i>``), each judged once at ``--budget`` and rated in turn (OpenSkill, the bots' names as the
  players: ``service.analysis.known_strength``): each bot's mean accuracy over its games (about a 95 % interval:
  2 standard errors over games) and judged decisions, its rating after the last game with its 95 % band, its wins
  with their 95 % Wilson interval; whether accuracy and rating each order the bots as set.

One JSON line each, then a summary. The load average is printed with each line (a shared machine: compare ratios
and orders, not seconds, with other runs). Run: ``.venv/bin/python -m bench.judge --game ruins --games 3``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

from dashboard.uncertainty import wilson
from domain.games import GAMES, game
from domain.judge import (
    DEFAULT_BUDGET,
    GameJudgement,
    Judge,
    Trace,
    moves_of,
)
from domain.play import play_game
from domain.policies import Policy
from service.analysis.known_strength import LADDER, Settings, accuracy_order, play_ladder, rating_order, report


def _load() -> float:
    return round(os.getloadavg()[0], 1)


def _judge(kind: str, players: Sequence[str], seed: str, policies: Sequence[Policy[Any]], budget: int,
           judge_seed: int) -> tuple[GameJudgement, float]:  # fmt: skip
    found = game(kind)
    rules = found.rules
    played = play_game(rules, players, policies, seed)
    opening = rules.start(players, None, seed)
    moves, _ = moves_of(rules, opening, played.actions)
    started = time.process_time()  # CPU seconds: on a shared machine, the wall clock counts the other processes
    judged = Judge(rules, found.bots, budget=budget).game(opening, moves, seed=judge_seed, seats=len(players))
    return judged, time.process_time() - started


def _positions(kind: str, games: int, decisions: int) -> list[tuple[int, int, Any, Any]]:
    """``decisions`` judged decisions (more than one legal action) spread evenly over ``games`` four-player games
    of heuristic bots (seeds ``judge-bench-<i>``): (the game's number, the move's number, the state before it, the
    move)."""
    found = game(kind)
    rules = found.rules
    names = [f"P{s}" for s in range(4)]
    spots: list[tuple[int, int, Any, Any]] = []
    for i in range(games):
        played = play_game(rules, names, [found.bots.make("heuristic") for _ in names], f"judge-bench-{i}")
        opening = rules.start(names, None, f"judge-bench-{i}")
        moves, _ = moves_of(rules, opening, played.actions)
        state = rules.replay(opening)
        mine = []
        for index, move in enumerate(moves):
            if len(rules.legal_actions(state, move.seat)) > 1:
                mine.append((i, index, state, move))
            state = rules.replay(move.events, state)
        share = -(-decisions // games)
        spots += mine[:: max(1, len(mine) // share)][:share]
    return spots[:decisions]


def spread_stability(kind: str, games: int, decisions: int, repeats: int, budget: int) -> dict[str, Any]:
    """Stability on ``decisions`` decisions spread over the games (a whole Arnak game is too long to judge several
    times on a loaded machine): the share whose best move found is the same in every one of ``repeats`` judgements
    (seeds 0, 1, ...), and the CPU seconds a decision."""
    found = game(kind)
    rules = found.rules
    judge = Judge(rules, found.bots, budget=budget)
    same = differs_from_played = 0
    spots = _positions(kind, games, decisions)
    started = time.process_time()
    for _game, index, state, move in spots:
        runs = [judge.decision(state, move.seat, move.action, index, seed) for seed in range(repeats)]
        bests = {json.dumps(run.best, sort_keys=True) for run in runs}
        same += len(bests) == 1
        differs_from_played += sum(run.best != run.played for run in runs)
        print(json.dumps({"measure": "decision", "index": index, "legal": runs[0].legal, "same": len(bests) == 1,
                          "best_other_than_played": [run.best != run.played for run in runs],
                          "load": _load()}), flush=True)  # fmt: skip
    cpu = time.process_time() - started
    return {
        "measure": "spread stability",
        "game": kind,
        "budget": budget,
        "decisions": len(spots),
        "repeats": repeats,
        "same_in_every_repeat": round(same / len(spots), 3) if spots else None,
        "best_other_than_played": round(differs_from_played / (len(spots) * repeats), 3) if spots else None,
        "cpu_seconds_a_decision": round(cpu / (len(spots) * repeats), 3) if spots else None,
        "load": _load(),
    }


CAUSES = (
    "candidates",  # a move reported best in one judgement was not among another judgement's candidates
    "rivals",  # two or more moves other than the one played reported best, each among every judgement's candidates
    "edge, same search",  # the move played and one other reported; every search found that other: the estimate's
    # significance test fell either side
    "edge, search differed",  # the move played and one other reported; some search found yet another move
)


def cause(played: str, bests: Sequence[str], traces: Sequence[Trace]) -> str | None:
    """Why the judgements of one decision disagree (``CAUSES``), or ``None`` when they agree: ``bests`` each
    judgement's best move found and ``traces`` its candidates and survivor (JSON strings, ``played`` the move's)."""
    if len(set(bests)) == 1:
        return None
    pools = [{json.dumps(c, sort_keys=True) for c in t.candidates} for t in traces]
    if any(best not in pool for best in bests for pool in pools):
        return "candidates"
    others = set(bests) - {played}
    if len(others) > 1:
        return "rivals"
    (other,) = others
    found = {json.dumps(t.candidates[t.found], sort_keys=True) for t in traces}
    return "edge, same search" if found <= {other, played} and other in found else "edge, search differed"


def reported_at(played: str, traces: Sequence[Trace], significance: float) -> list[str]:
    """What each judgement of one decision would report as the best move found at another ``significance`` (the
    search is the same at any: it only decides whether the survivor replaces the move played): the survivor where
    its estimate beat the move played by more than ``significance`` standard errors, else ``played`` (JSON
    strings)."""
    return [
        json.dumps(t.candidates[t.found], sort_keys=True) if t.found != 0 and t.z > significance else played
        for t in traces
    ]


def causes(
    kind: str, games: int, decisions: int, repeats: int, budget: int, significances: Sequence[float] = ()
) -> dict[str, Any]:
    """Why repeated judgements disagree: ``decisions`` decisions spread over ``games`` heuristic games (0: every
    judged decision of the games), each judged ``repeats`` times (seeds 0, 1, ...), each disagreement classified
    (``cause``), with the estimate's standard errors of every judgement in the edge cases; and, for each of
    ``significances``, the decisions the same in every judgement had the judge used it, game by game
    (``reported_at``)."""
    found = game(kind)
    rules = found.rules
    traces: list[Trace] = []
    judge = Judge(rules, found.bots, budget=budget, trace=traces.append)
    counts = dict.fromkeys(CAUSES, 0)
    same = judged = 0
    edge_z: list[float] = []
    at: dict[str, dict[int, list[int]]] = {str(s): {} for s in significances}  # significance -> game -> [same, of]
    spots = _positions(kind, games, decisions or 10**6)
    started = time.process_time()
    for number, index, state, move in spots:
        traces.clear()
        runs = [judge.decision(state, move.seat, move.action, index, seed) for seed in range(repeats)]
        if not runs[0].judged:
            continue
        judged += 1
        played = json.dumps(runs[0].played, sort_keys=True)
        for significance in significances:
            tally = at[str(significance)].setdefault(number, [0, 0])
            tally[0] += len(set(reported_at(played, traces, significance))) == 1
            tally[1] += 1
        bests = [json.dumps(run.best, sort_keys=True) for run in runs]
        why = cause(played, bests, traces)
        if why is None:
            same += 1
            continue
        counts[why] += 1
        if why.startswith("edge"):
            edge_z += [round(t.z, 2) for t in traces]
        print(json.dumps({"measure": "disagreement", "index": index, "legal": runs[0].legal, "cause": why,
                          "z": [round(t.z, 2) for t in traces], "gain": [round(t.gain, 2) for t in traces],
                          "load": _load()}), flush=True)  # fmt: skip
    cpu = time.process_time() - started
    share = same / judged if judged else None
    interval = wilson(share, judged)
    return {"measure": "causes", "game": kind, "budget": budget, "games": games, "repeats": repeats,
            "decisions": judged, "same_in_every_repeat": None if share is None else round(share, 3),
            "interval": None if interval is None else [round(interval[0], 3), round(interval[1], 3)],
            "causes": counts, "edge_z": sorted(edge_z),
            "same_at_significance": {s: {str(g): same_of for g, same_of in sorted(by.items())} for s, by in at.items()},
            "cpu_seconds_a_decision": round(cpu / max(1, judged * repeats), 3), "load": _load()}  # fmt: skip


def time_and_stability(kind: str, games: int, repeats: int, budget: int, first: int = 0) -> dict[str, Any]:
    """Games ``judge-bench-<first>`` on, each judged whole ``repeats`` times: CPU seconds a game, the share of
    judged decisions whose best move found is the same in every repeat (and in two), and the share of judgements
    that report a better move than the one played (a judge that saw less would look steadier: read both)."""
    found = game(kind)
    names = [f"P{s}" for s in range(4)]
    seconds: list[float] = []
    decisions = same_all = pairs = same_pairs = better = 0
    for i in range(first, first + games):
        runs = []
        for r in range(repeats):
            judged, took = _judge(kind, names, f"judge-bench-{i}", [found.bots.make("heuristic") for _ in names],
                                  budget, r)  # fmt: skip
            seconds.append(took)
            runs.append(judged)
            print(json.dumps({"measure": "time", "game": i, "repeat": r, "cpu_seconds": round(took, 1),
                              "judged": sum(m.judged for m in judged.moves), "load": _load()}), flush=True)  # fmt: skip
        for at in range(len(runs[0].moves)):
            if not runs[0].moves[at].judged:
                continue
            bests = [json.dumps(run.moves[at].best, sort_keys=True) for run in runs]
            decisions += 1
            same_all += len(set(bests)) == 1
            better += sum(run.moves[at].best != run.moves[at].played for run in runs)
            for a in range(len(bests)):
                for b in range(a + 1, len(bests)):
                    pairs += 1
                    same_pairs += bests[a] == bests[b]
    return {
        "measure": "stability",
        "game": kind,
        "budget": budget,
        "games": games,
        "first_game": first,
        "repeats": repeats,
        "decisions": decisions,
        "same_in_every_repeat": round(same_all / decisions, 3) if decisions else None,
        "same": same_all,
        "best_other_than_played": round(better / (decisions * repeats), 3) if decisions else None,
        "same_in_two_repeats": round(same_pairs / pairs, 3) if pairs else None,
        "cpu_seconds_a_game": round(statistics.mean(seconds), 1),
        "seconds_range": [round(min(seconds), 1), round(max(seconds), 1)],
        "load": _load(),
    }


def order(kind: str, games: int, budget: int, search_budget: int, first: int = 0) -> dict[str, Any]:
    """The ladder's four bots over ``games`` whole games, seats rotating, each game judged once and rated in turn
    (``service.analysis.known_strength``): per bot its mean accuracy (about a 95 % interval over games) and judged
    decisions, its rating after the last game with its 95 % band, its wins with their 95 % Wilson interval; whether
    each measure orders the bots as set."""
    started = time.process_time()

    def heard(index: int, judged: GameJudgement, seated: list[int]) -> None:
        line: dict[str, Any] = {"measure": "order", "game": index, "cpu_seconds": round(time.process_time() - started),
                                "load": _load()}  # fmt: skip
        for summary in judged.seats:
            line[LADDER[seated[summary.seat]]] = None if summary.accuracy is None else round(summary.accuracy, 2)
        print(json.dumps(line), flush=True)

    records = play_ladder(kind, Settings(games, budget, search_budget, "judge-order"), first, progress=heard)
    bots_out = report(records)
    for bot, figures in bots_out.items():
        share = records[bot].wins / records[bot].games if records[bot].games else None
        found = wilson(share, records[bot].games)
        figures["wins_interval"] = None if found is None else [round(found[0], 3), round(found[1], 3)]
    return {"measure": "order", "game": kind, "budget": budget, "search_budget": search_budget, "games": games,
            "first": first, "bots": bots_out, "accuracy_ordered": accuracy_order(records),
            "rating_ordered": rating_order(records), "cpu_seconds": round(time.process_time() - started),
            "load": _load()}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="the judge's playouts a decision")
    parser.add_argument("--games", type=int, default=2, help="heuristic games judged for time and stability")
    parser.add_argument("--repeats", type=int, default=3, help="judgements of each, with seeds 0, 1, ...")
    parser.add_argument("--first-game", type=int, default=0, help="with whole games: the first one's number")
    parser.add_argument(
        "--decisions",
        type=int,
        default=0,
        help="instead of whole games: this many decisions spread over --games games, for stability",
    )
    parser.add_argument("--causes", action="store_true", help="classify why repeated judgements disagree")
    parser.add_argument(
        "--significances",
        default="",
        help="with --causes: the stability, game by game, had the judge used each of these significances (2,3)",
    )
    parser.add_argument("--order-games", type=int, default=8, help="games of the four bots of known strength")
    parser.add_argument("--search-budget", type=int, default=25, help="B: the ladder's search bots play at B and 4B")
    parser.add_argument("--first", type=int, default=0, help="the first order game's number")
    args = parser.parse_args()
    results = []
    if args.games and args.causes:
        significances = [float(x) for x in args.significances.split(",") if x]
        results.append(causes(args.game, args.games, args.decisions, args.repeats, args.budget, significances))
        print(json.dumps(results[-1]), flush=True)
    elif args.games and args.decisions:
        results.append(spread_stability(args.game, args.games, args.decisions, args.repeats, args.budget))
        print(json.dumps(results[-1]), flush=True)
    elif args.games:
        results.append(time_and_stability(args.game, args.games, args.repeats, args.budget, args.first_game))
        print(json.dumps(results[-1]), flush=True)
    if args.order_games:
        results.append(order(args.game, args.order_games, args.budget, args.search_budget, args.first))
        print(json.dumps(results[-1]), flush=True)
    for r in results:
        if r["measure"] == "causes":
            print(f"{args.game} judge at {r['budget']}: the same in {r['repeats']} repeats at "
                  f"{r['same_in_every_repeat']:.1%} {r['interval']} of {r['decisions']} decisions; why the others "
                  f"differ: {r['causes']}")  # fmt: skip
            for significance, by_game in r["same_at_significance"].items():
                same, of = (sum(counts[i] for counts in by_game.values()) for i in (0, 1))
                if not of:
                    continue  # no decision was judged
                print(f"  at {significance} standard errors: the same at {same / of:.1%} of {of} ({same}); "
                      f"game by game {by_game}")  # fmt: skip
        elif r["measure"] == "spread stability":
            print(f"{args.game} judge at {r['budget']}: best move the same in every one of {r['repeats']} repeats at "
                  f"{r['same_in_every_repeat']:.0%} of {r['decisions']} decisions; {r['cpu_seconds_a_decision']} CPU s "
                  f"a decision (load {r['load']})")  # fmt: skip
        elif r["measure"] == "stability":
            stable = (
                ""
                if r["same_in_two_repeats"] is None
                else (
                    f"best move the same in every one of {r['repeats']} repeats at {r['same_in_every_repeat']:.0%} of "
                    f"{r['decisions']} decisions ({r['same_in_two_repeats']:.0%} pairwise); "
                )
            )
            print(f"{args.game} judge at {r['budget']}: {stable}{r['cpu_seconds_a_game']} CPU s a four-player game "
                  f"(load {r['load']})")  # fmt: skip
        else:
            for bot, v in r["bots"].items():
                print(f"{args.game} {bot}: accuracy {v['accuracy']} {v['interval']} over {v['decisions']} decisions; "
                      f"rating {v['mu']} {v['band']}; wins {v['wins']} of {v['games']} "
                      f"{v['wins_interval']}")  # fmt: skip
            print(f"{args.game} order over {r['games']} games (judge at {r['budget']}, B {r['search_budget']}): "
                  f"accuracy ordered as set: {r['accuracy_ordered']}; rating: {r['rating_ordered']}")  # fmt: skip


if __name__ == "__main__":
    main()
