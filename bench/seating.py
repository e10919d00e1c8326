"""How even the seating formats are, and what seating a round costs: counts that do not depend on the machine's load
(meetings, first seats, byes), and the CPU seconds of the seating function alone.

For each (entries, table size, rounds) of the grid, every round of ``round_robin`` (and of ``swiss`` with standings
drawn at random each round, as if results came in) is seated by ``service.seating.formats.seat`` with the history
of the rounds before, over ``--seeds`` seeds. Reported per cell: pairs met again (meetings past the first, summed
over pairs), a counting floor under them (``counting_floor``), the most meetings of one pair, and the spread of
first seats (most minus fewest, over entries); each as the mean and range over the seeds; and the CPU seconds of
a whole schedule (mean).

Run: ``.venv/bin/python -m bench.seating`` (``--seeds N``, default 20).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from service.seating.formats import History, Round, evenness, seat

GRID = [(8, 4, 3), (9, 3, 4), (12, 4, 3), (16, 4, 5), (10, 4, 4), (7, 2, 6), (12, 3, 5), (20, 4, 5), (30, 5, 5)]
LOW, HIGH = 2, 5  # Ruins' table sizes; Arnak's (1 to 4) change only which tables a round may have


def schedule(fmt: str, entries: list[str], size: int, rounds: int, seed: str) -> list[Round]:
    done: list[Round] = []
    draw = random.Random(seed)
    for n in range(rounds):
        history = History.of([(r.tables, r.byes) for r in done])
        standings = draw.sample(entries, len(entries)) if fmt == "swiss" else None
        done.append(seat(fmt, entries, size, LOW, HIGH, f"{seed}/{n}", history, standings))
    return done


def counting_floor(entries: list[str], made: list[Round]) -> int:
    """A floor under the pairs met again: an entry who sat beside ``s`` others over the rounds, among ``n-1`` to
    meet, met at least ``s-(n-1)`` again (each repeat counted by both). Not always reachable: the rounds before
    limit each round further (two tables of 4 from 8 entries meet at least 2 pairs again in round 2)."""
    beside = {p: 0 for p in entries}
    for r in made:
        for table in r.tables:
            for p in table:
                beside[p] += len(table) - 1
    return -(-sum(max(0, s - (len(entries) - 1)) for s in beside.values()) // 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    print("format       entries size rounds | repeats mean [min-max] floor | most met | 1st-seat spread | CPU s")
    for fmt in ("round_robin", "swiss"):
        for entries, size, rounds in GRID:
            players = [f"p{i:02d}" for i in range(entries)]
            repeats, floor, most, spread, cpu = [], [], [], [], []
            for s in range(args.seeds):
                start = time.process_time()
                made = schedule(fmt, players, size, rounds, f"bench/{s}")
                cpu.append(time.process_time() - start)
                even = evenness(players, made)
                repeats.append(even["repeat_meetings"])
                floor.append(counting_floor(players, made))
                most.append(even["most_meetings"])
                spread.append(even["first_seat_spread"])
            print(
                f"{fmt:12} {entries:7} {size:4} {rounds:6} | {statistics.mean(repeats):7.1f} "
                f"[{min(repeats)}-{max(repeats)}] {statistics.mean(floor):5.1f} | {max(most):8} | "
                f"{statistics.mean(spread):4.2f} [{min(spread)}-{max(spread)}]    | {statistics.mean(cpu):.3f}"
            )


if __name__ == "__main__":
    main()
