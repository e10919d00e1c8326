"""Bots filling a seated tournament's seats: named bot players entered like people, and every table of every round
played to its end by them through the service, round after round, with nobody seating anything by hand (the next
round is seated when the last table of one ends: ``service.commands.rounds``).

Each game is played with ``play_stored_game`` (every move through ``Digsite.submit`` with the seat's ``Viewer``);
each seat's bot is the one its player's record describes (``Digsite.bot_player``). When people hold some seats,
``play_bot_turns`` moves only the bots' seats, one turn at a time, so a person at the same table plays their own
moves from their seat link meanwhile."""

from __future__ import annotations

import random
from typing import Any, cast

from domain.games import game
from service.bots.simulation import play_stored_game
from service.commands.application import Digsite, Viewer
from service.errors import Conflict, RuleRejected


def enter_bots(service: Digsite, tournament_id: str, count: int) -> list[str]:
    """Enter ``count`` of the tournament's game's bot personas (the same named players every time)."""
    kind = service.tournament(tournament_id)["game"]
    personas = game(kind).bots.personas_for(count)
    ids = [service.bot_player(p.name, p.record) for p in personas]
    service.rounds.enter(tournament_id, ids)
    return ids


def play_rounds(service: Digsite, tournament_id: str, seed: str = "0", max_games: int = 1000) -> int:
    """Play every table in play until the tournament is complete (or no table is left to play: a CSV round waits
    for the organiser); every seat must be a bot player. Returns the number of games played."""
    played = 0
    while played < max_games:
        status = service.rounds.status(tournament_id)
        tables = [(r["round"], t) for r in status["seated_rounds"] for t in r["tables"] if t["status"] == "playing"]
        if not tables:
            return played
        for round_no, table in tables:
            assert table["game"] is not None  # (a seated round's tables have their games)
            kind = service.kind_of(table["game"])
            bots = [
                game(kind).bots.from_record(cast(dict[str, Any], service.player(p["id"])["bot"]))
                for p in table["players"]
            ]
            rng = random.Random(f"seated-bots:{seed}:{round_no}:{table['table']}")
            play_stored_game(service, table["game"], bots, rng)
            played += 1
    return played


def play_bot_turns(service: Digsite, tournament_id: str, seed: str = "0") -> int:
    """One pass over the tables in play: each seat to act that a bot player holds makes one move (people's seats
    are left to them). Returns the moves made (0: every table in play waits for a person, or none is in play).
    A move refused because the game moved on meanwhile (a person's move, a timeout) is simply not made: the next
    pass looks again."""
    made = 0
    bots: dict[str, Any] = {}
    status = service.rounds.status(tournament_id)
    for r in status["seated_rounds"]:
        for table in r["tables"]:
            if table["status"] != "playing" or table["game"] is None:
                continue
            game_id = table["game"]
            kind = service.kind_of(game_id)
            rules = game(kind).rules
            for seat in service.game(game_id)["to_act"]:
                player = table["players"][seat]["id"]
                if player not in bots:
                    record = service.player(player)["bot"]
                    bots[player] = None if record is None else game(kind).bots.from_record(record)
                if bots[player] is None:
                    continue  # a person's seat
                seen = service.game(game_id, Viewer(seat))
                legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
                if seen["status"] != "playing" or not legal:
                    continue
                rng = random.Random(f"seated-bots:{seed}:{r['round']}:{table['table']}:{seen['version']}")
                action = bots[player].choose(seen["view"], legal, rng)
                try:
                    service.submit(game_id, Viewer(seat), seen["version"], rules.action_to_dict(action))
                except (Conflict, RuleRejected) as moved_on:  # (a stale version; a game a forfeit ended meanwhile)
                    if isinstance(moved_on, RuleRejected) and moved_on.code != "game_over":
                        raise
                    continue
                made += 1
    return made
