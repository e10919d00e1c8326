"""The known-strength ladder's games played and rated, not judged: does the rating order hold over K?

Plays ``--games`` four-player games of ``service.analysis.known_strength`` (random, heuristic, search at B and at 4B,
seats rotating, seeds ``<prefix>-<i>``), rates them in order, and prints one JSON line every ``--every`` games: each
bot's ``mu``, its wins, whether the mus rise weakest first, and the CPU seconds so far. Rating without judging costs
only the games, so it shows cheaply at which K (and whether robustly) the rating orders the bots before a judged run
(docs/performance.md, section 11). Run it under ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import json
import time

from service.analysis.known_strength import LADDER, BotRecord, ordered, rate_ladder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ruins")
    parser.add_argument("--search-budget", type=int, default=32, help="B: the weaker search bot's budget")
    parser.add_argument("--prefix", default="known-strength", help="the games' seeds are <prefix>-<i>")
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--every", type=int, default=8, help="print after every this many games")
    args = parser.parse_args()
    start = time.process_time()

    def heard(index: int, records: dict[str, BotRecord]) -> None:
        if (index + 1) % args.every == 0:
            mus = [records[bot].rating.mu for bot in LADDER]
            line = {"B": args.search_budget, "prefix": args.prefix, "K": index + 1, "mu": [round(m, 2) for m in mus],
                    "wins": [records[bot].wins for bot in LADDER], "ordered": ordered(mus),
                    "cpu": round(time.process_time() - start, 1)}  # fmt: skip
            print(json.dumps(line), flush=True)

    rate_ladder(args.game, args.games, args.search_budget, args.prefix, progress=heard)


if __name__ == "__main__":
    main()
