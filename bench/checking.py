"""Checking a move's request, in process: what the API does with a move's body before the service sees it (check
it against the published ``Submit`` schema, then the action against its game's own schema), on the actions of bot
games, in this tree and (``--base DIR``) in another checkout of the code, interleaved.

Run: ``.venv/bin/python -m bench.checking [--base DIR] [--rounds 5]``. Each round times every body of every game
in each tree once (the best of three passes); the figures are microseconds per move body, and the ratio is this
tree's over the base's (below 1: faster here).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from domain.games import GAMES
from domain.play import play_game

GAMES_PER_KIND = 3


def bodies() -> list[tuple[str, bytes]]:
    """Move bodies as a bot client posts them: Ruins and Arnak games played in memory, every move of each."""
    out = []
    for kind, found in sorted(GAMES.items()):
        bots = [found.bots.make("random")] * 2
        for i in range(GAMES_PER_KIND):
            played = play_game(found.rules, ["Ana", "Beto"], bots, f"{i:032x}")
            for version, action in enumerate(played.actions, start=1):
                body = {"version": version, "action": found.rules.action_to_dict(action)}
                out.append((kind, json.dumps(body).encode()))
    return out


def measure(moves: list[tuple[str, bytes]]) -> float:
    """Microseconds per move body checked as the move route checks it, in the tree on ``sys.path``: the body's
    schema, then the action's game's (the JSON is read beforehand: ``parse_json`` is the same in both trees)."""
    # (imported here, not above: the parent process measures nothing, and each child imports the tree it measures)
    from service.api import schemas
    from service.api.validation import check, parse_json

    parsed = [(kind, parse_json(raw)) for kind, raw in moves]

    def one_pass() -> float:
        started = time.perf_counter()
        for kind, value in parsed:
            body = check(value, schemas.SUBMIT)
            check(body["action"], schemas.action_of(kind), "action")
        return (time.perf_counter() - started) / len(moves) * 1e6

    one_pass()  # (compiles the schemas, warms the caches)
    return min(one_pass() for _ in range(3))


def in_tree(tree: Path, moves_file: Path) -> float:
    """``measure`` run in a fresh process with ``tree`` first on the path (this file loaded by its path: the other
    tree need not hold it)."""
    code = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('checking', {__file__!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        f"moves = [(k, m.encode('latin-1')) for k, m in json.load(open({str(moves_file)!r}))]\n"
        "print(module.measure(moves))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    found = subprocess.run([sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True, check=True)
    return float(found.stdout.strip())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", type=Path, help="another checkout of the code to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    moves = bodies()
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        moves_file = Path(folder) / "moves.json"
        moves_file.write_text(json.dumps([(k, m.decode("latin-1")) for k, m in moves]))
        print(f"{len(moves)} move bodies ({', '.join(sorted(GAMES))}), load average {os.getloadavg()[0]:.1f}")
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(args.rounds):
            ours.append(in_tree(here, moves_file))
            if args.base is not None:
                theirs.append(in_tree(args.base.resolve(), moves_file))
    print(f"this tree: {statistics.median(ours):.1f} us a move body (median of {args.rounds} rounds: {_list(ours)})")
    if theirs:
        print(f"base: {statistics.median(theirs):.1f} us ({_list(theirs)})")
        print(f"ratio {statistics.median(ours) / statistics.median(theirs):.3f}, load average {os.getloadavg()[0]:.1f}")


def _list(figures: list[float]) -> str:
    return ", ".join(f"{f:.1f}" for f in figures)


if __name__ == "__main__":
    main()
