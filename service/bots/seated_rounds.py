"""Bots filling a seated tournament's seats: named bot players entered like people, and every table of every round
played to its end by them through the service, round after round, with nobody seating anything by hand (the next
round is seated when the last table of one ends: ``service.commands.rounds``).

Each game is played with ``play_stored_game`` (every move through ``Digsite.submit`` with the seat's ``Viewer``);
each seat's bot is the one its player's record describes (``Digsite.bot_player``). When people hold some seats,
``play_bot_turns`` moves only the bots' seats, one turn at a time, so a person at the same table plays their own
moves from their seat link meanwhile."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, cast

from domain.games import game
from domain.policies import Policy
from service.bots.simulation import play_stored_game
from service.commands.application import Digsite, Viewer
from service.commands.results import RoundTable
from service.errors import Conflict, RuleRejected


def enter_bots(service: Digsite, tournament_id: str, count: int) -> list[str]:
    """Enter ``count`` of the tournament's game's bot personas (the same named players every time)."""
    kind = service.tournament(tournament_id)["game"]
    personas = game(kind).bots.personas_for(count)
    ids = [service.bot_player(p.name, p.record) for p in personas]
    service.rounds.enter(tournament_id, ids)
    return ids


def play_rounds(
    service: Digsite,
    tournament_id: str,
    seed: str = "0",
    max_games: int = 1000,
    progress: Callable[[int], None] = lambda _: None,
) -> int:
    """Play every table in play until the tournament is complete (or no table is left to play: a CSV round waits
    for the organiser); every seat must be a bot player. Returns the number of games played; ``progress`` hears
    each game's end (the count so far)."""
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
            progress(played)
    return played


def play_bot_cup(
    service: Digsite,
    kind: str,
    name: str,
    table: int,
    games: int,
    seed: str = "0",
    progress: Callable[[int], None] = lambda _: None,
) -> str:
    """A tournament of bots seated here, as an organiser would run it, and played to its end: ``games`` games at
    tables of ``table``, two tables a round when ``games`` is even and at least 4 (so the field meets in new
    tables each round), else one table a round. Returns its id."""
    tables = 2 if games >= 4 and games % 2 == 0 else 1
    cup = service.create_tournament(name, games // tables, kind)
    enter_bots(service, cup, table * tables)
    service.rounds.seat_round(cup, "round_robin", table)
    play_rounds(service, cup, seed, progress=progress)
    return cup


def play_bot_turns(service: Digsite, tournament_id: str, seed: str = "0") -> int:
    """One pass over the tables in play: each is played by its bot players until it waits for a person (people's
    seats are left to them) or ends. Returns the moves made (0: every table in play waits for a person, or none is
    in play). A move refused because the game moved on meanwhile (a person's move, a timeout) is not made: the
    table is looked at again."""
    made = 0
    bots: dict[str, Policy[Any] | None] = {}
    for r in service.rounds.status(tournament_id)["seated_rounds"]:
        for table in r["tables"]:
            if table["status"] == "playing" and table["game"] is not None:
                made += _play_bots_seats(service, table, bots, f"seated-bots:{seed}:{r['round']}:{table['table']}")
    return made


def _play_bots_seats(service: Digsite, table: RoundTable, bots: dict[str, Policy[Any] | None], seed: str) -> int:
    """Play ``table``'s bot seats until no bot is to act (a person is, or the game is over): the moves made."""
    assert table["game"] is not None
    game_id, made = table["game"], 0
    found = game(service.kind_of(game_id))
    rules = found.rules
    for player in (p["id"] for p in table["players"]):
        if player not in bots:
            record = service.player(player)["bot"]
            bots[player] = None if record is None else found.bots.from_record(record)
    while True:
        now = service.game(game_id)
        seats = [s for s in now["to_act"] if bots[table["players"][s]["id"]] is not None]
        if now["status"] != "playing" or not seats:
            return made
        for seat in seats:
            bot = bots[table["players"][seat]["id"]]
            assert bot is not None
            seen = service.game(game_id, Viewer(seat))
            legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
            if seen["status"] != "playing" or not legal:  # (over meanwhile; nothing to play: never loop on it)
                return made
            action = bot.choose(seen["view"], legal, random.Random(f"{seed}:{seen['version']}"))
            try:
                service.submit(game_id, Viewer(seat), seen["version"], rules.action_to_dict(action))
            except (Conflict, RuleRejected) as moved_on:  # (a stale version; a game a forfeit ended meanwhile)
                if isinstance(moved_on, RuleRejected) and moved_on.code != "game_over":
                    raise
                continue
            made += 1


def play_alongside_people(service: Digsite, tournament_id: str, seed: str = "0", poll_seconds: float = 1.0) -> int:
    """Play the bots' seats of every table in play (``play_bot_turns``), round after round, looking again every
    ``poll_seconds`` while every table waits for a person, until the tournament is complete. Returns the bots'
    moves. (People play from their seat links meanwhile; the serving processes' clock sweep times them out.)"""
    moves = 0
    while not service.rounds.status(tournament_id)["complete"]:
        made = play_bot_turns(service, tournament_id, seed)
        moves += made
        if not made:
            time.sleep(poll_seconds)  # (a person's turn, or a CSV round the organiser has not seated yet)
    return moves
