"""What one spectator's read of a broadcast costs: CPU seconds per ``GET /games/<id>/broadcast`` answered at once
(``service.serving.broadcast.broadcast``, no wait), on scripted games of each kind in play at several lengths,
SQLite in a temporary folder, for each delay (moves behind, minutes behind).

A read decodes every record of the game (the delay counts moves, or reads their times) and, unless the version
shown is the latest, loads the game at that version (from the nearest snapshot): so its cost grows with the game's
length. CPU time of this process (``time.process_time``), not wall time: a count that does not depend on the load
beside it on a shared machine. Each figure: the mean over ``--reads`` reads with its 95 % interval (t over the
reads), per game length.

Run: ``nice -n 10 .venv/bin/python -m bench.broadcast --reads 30``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from domain.games import GAMES
from domain.games import game as game_of
from service.commands.application import Digsite, Viewer
from service.commands.broadcasts import set_broadcast
from service.serving.broadcast import broadcast
from service.settings import Database, Settings
from service.store import backends

LENGTHS = (20, 80, 10_000)  # moves played before the reads (the last: to the game's end)
DELAYS: dict[str, dict[str, Any]] = {"moves 2": {"moves": 2}, "minutes 5": {"minutes": 5}}
T95 = 2.045  # Student's t, 29 degrees of freedom (30 reads); close enough for more


def _play(service: Digsite, game_id: str, moves: int) -> int:
    for played in range(moves):
        game = service.live.current(UUID(game_id))
        if game.seed is not None:
            return played
        rules = game_of(game.kind).rules
        seat = rules.to_act(game.state)[0]
        action = rules.legal_actions(game.state, seat)[0]
        service.submit(game_id, Viewer(seat), game.version, rules.action_to_dict(action))
    return moves


def measure(reads: int) -> list[dict[str, Any]]:
    out = []
    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        backends.upgrade(db)
        service = Digsite(Settings(database=db))
        try:
            players = [service.create_player(n) for n in ("Ana", "Beto")]
            for kind in sorted(GAMES):
                for length in LENGTHS:
                    for name, delay in DELAYS.items():
                        cup = service.create_tournament(f"{kind} {length} {name}", 1, kind)
                        set_broadcast(service, cup, delay.get("moves"), delay.get("minutes"))
                        game_id = service.create_game(kind, players, None, {"tournament": cup})["id"]
                        played = _play(service, game_id, length)
                        costs = []
                        for _ in range(reads):
                            began = time.process_time()
                            broadcast(service, game_id)
                            costs.append(time.process_time() - began)
                        mean = statistics.fmean(costs)
                        half = T95 * statistics.stdev(costs) / len(costs) ** 0.5
                        out.append(
                            {
                                "kind": kind,
                                "moves": played,
                                "delay": name,
                                "over": service.live.current(UUID(game_id)).seed is not None,
                                "shown": broadcast(service, game_id)["version"],
                                "reads": reads,
                                "cpu_ms": round(mean * 1000, 2),
                                "ci95_ms": round(half * 1000, 2),
                            }
                        )
        finally:
            service.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=30)
    for line in measure(parser.parse_args().reads):
        print(json.dumps(line))


if __name__ == "__main__":
    main()
