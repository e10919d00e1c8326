"""How large the fair-play page's findings are for a field of ``--players`` (docs/performance.md, section 47): every
ordered pair scored for gifts and kingmaking, every pair for soft play, every player for bot-like play, each finding
with ``--moves`` moves behind it (a 4-seat table's figures each), as ``dashboard.pages.fair_play`` draws them, in CPU
seconds to build and encode and in bytes of JSON the page sends.

Measured side by side in one run: every finding's moves listed (the page before section 47) against the page's own
rule (the ``LISTED`` highest of each signal and every flagged one). The report is made up (scores drawn at random,
nothing flagged): the page's size depends on how many findings and moves it lists, not on what they say. Run:
``.venv/bin/python -m bench.fair_play_page --players 12``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
import uuid
from typing import Any

import dash
import plotly

from dashboard.pages import fair_play as page
from service.reading.fair_play import MoveFigures


class _Names:
    """The one read the page's body makes (the players' names), as the dashboard's data layer answers it."""

    def players(self, visitor: Any, ids: list[str]) -> list[dict[str, str]]:
        return [{"player_id": p, "name": f"Player {i}"} for i, p in enumerate(ids)]


class _Context:
    data = _Names()


class _Gathered:
    def __init__(self) -> None:
        self.moves: dict[tuple[str, int], MoveFigures] = {}


def report(players: int, moves: int, seed: int = 0) -> tuple[dict[str, Any], _Gathered]:
    """A made-up report of the shape ``service.reading.fair_play`` answers, and every listed move's figures."""
    rng = random.Random(seed)
    ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(players)]
    games = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(9 * players)]
    gathered = _Gathered()

    def figures() -> Any:
        return {"wins": [rng.random() for _ in range(4)], "values": [rng.random() for _ in range(4)]}

    def finding(signal: str, subject: tuple[str, ...]) -> dict[str, Any]:
        behind = []
        for _ in range(moves):
            game, version = rng.choice(games), rng.randrange(1, 300)
            behind.append({"game_id": game, "index": version - 1, "version": version, "seat": rng.randrange(4),
                           "player": subject[0], "amount": rng.random()})  # fmt: skip
            players_there = tuple(rng.sample(ids, 4))
            gathered.moves[(game, version)] = MoveFigures(
                game, version - 1, version, 0, players_there, 1.5, figures(), figures(), figures()
            )
        return {"signal": signal, "subject": list(subject), "score": rng.gauss(0, 1), "flagged": False, "games": 9,
                "decisions": 300, "figures": {"mean": 0.1, "cells": 9}, "moves": behind}  # fmt: skip

    signals = {
        "gifts": [finding("gifts", p) for p in itertools.permutations(ids, 2)],
        "soft_play": [finding("soft_play", p) for p in itertools.combinations(ids, 2)],
        "kingmaking": [finding("kingmaking", p) for p in itertools.permutations(ids, 2)],
        "bot_like": [finding("bot_like", (p,)) for p in ids],
    }
    for found in signals.values():
        found.sort(key=lambda f: -f["score"])
    shown = {"tournament_id": str(uuid.UUID(int=rng.getrandbits(128))), "games": len(games), "decisions": 0,
             "thresholds": {"gifts": 2.0, "soft_play": 3.0, "kingmaking": 3.0, "bot_like": 3.0}, "signals": signals,
             "finished_games": len(games), "judged_games": len(games), "unjudged_games": []}  # fmt: skip
    return shown, gathered


def measure(shown: dict[str, Any], gathered: _Gathered, listed: int) -> dict[str, Any]:
    app = dash.Dash(__name__)
    started = time.process_time()
    body = page._body(app, _Context(), None, shown, gathered, None, False, listed)  # type: ignore[arg-type]
    built = time.process_time() - started
    started = time.process_time()
    text = json.dumps(body, cls=plotly.utils.PlotlyJSONEncoder)
    encoded = time.process_time() - started
    return {"listed": listed, "build_cpu_s": round(built, 3), "encode_cpu_s": round(encoded, 3),
            "mb": round(len(text) / 1e6, 2)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--moves", type=int, default=30, help="moves behind each finding (the page lists 10)")
    args = parser.parse_args()
    shown, gathered = report(args.players, args.moves)
    findings = sum(len(f) for f in shown["signals"].values())
    every = measure(shown, gathered, findings)
    rule = measure(shown, gathered, page.LISTED)
    print(json.dumps({"players": args.players, "findings": findings, "every_finding": every, "page": rule,
                      "ratio_mb": round(every["mb"] / rule["mb"], 1)}))  # fmt: skip


if __name__ == "__main__":
    main()
