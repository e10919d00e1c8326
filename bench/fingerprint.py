"""A fingerprint of what the Ruins engine does: one SHA-256 over the games it plays, another over the legal
actions it lists. An engine change meant to be invisible (speed, structure) must leave both unchanged.

Run: ``.venv/bin/python -m bench.fingerprint [--games 300] [--listed 48]``. The first digest covers the
actions' and events' JSON of ``--games`` seeded bot games (2-5 players, both bots, several seeds); the
second, the legal actions listed for every seat to act at every state of ``--listed`` more games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from domain.games import game
from domain.play import play_game
from domain.policies import Policy

NAMES = ["Ana", "Beto", "Carla", "Diego", "Elif"]
RUINS = game("ruins")  # reached through the registry, as every layer reaches a game
rules = RUINS.rules


def _bots(kind: str, players: int) -> list[Policy[Any]]:
    return [
        RUINS.bots.make("random")
        if kind == "random"
        else RUINS.bots.make("heuristic", lead=("low", "high", "big")[s % 3])
        for s in range(players)
    ]


def _line(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def games_digest(games: int) -> str:
    digest = hashlib.sha256()
    for g in range(games):
        players, kind = 2 + g % 4, ("random", "heuristic")[g // 4 % 2]
        played = play_game(rules, NAMES[:players], _bots(kind, players), f"fp-{g}", bot_seed=g)
        digest.update(_line([rules.action_to_dict(a) for a in played.actions]))
        digest.update(_line([rules.event_to_dict(e) for e in played.events]))
    return digest.hexdigest()


def legal_digest(games: int) -> str:
    digest = hashlib.sha256()
    for g in range(games):
        players = 2 + g % 4
        played = play_game(rules, NAMES[:players], _bots("random", players), f"fp-legal-{g}", bot_seed=g)
        events = list(played.events)
        state = rules.replay(events[:2])
        at = 2
        for action in played.actions:
            for seat in rules.to_act(state):
                digest.update(_line([rules.action_to_dict(a) for a in rules.legal_actions(state, seat)]))
            new = rules.decide(state, action)
            assert [rules.event_to_dict(e) for e in new] == [rules.event_to_dict(e) for e in events[at : at + len(new)]]
            at += len(new)
            state = rules.replay(new, state)
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--listed", type=int, default=48)
    args = parser.parse_args()
    print(f"games {args.games}: {games_digest(args.games)}")
    print(f"legal actions of {args.listed} games: {legal_digest(args.listed)}")


if __name__ == "__main__":
    main()
