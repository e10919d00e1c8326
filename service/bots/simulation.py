"""Stored bot tournaments: whole games played THROUGH the service layer into the store.

A pool of named bot players (each created once, its bot kind and tendencies recorded on the player, and the
same player again in every later run: ``Digsite.bot_player``) is
seated round after round in tables of N; every table plays one game, created with the labels
``{"tournament", "round", "table"}``, and every move goes through ``Digsite.submit`` with the seat's
``Viewer``. Seatings, game seeds and bot choices all follow from one seed, so a tournament replays
identically into a fresh store (ids and seat tokens differ; seats, moves and winners do not).

A move costs one read (``Digsite.game`` for the seat to act: its view and legal actions) and one write,
whose answer names the seats to act next (the engine's ``to_act``). Any registered game plays: its bots and
personas come from the game (``domain.games``).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from domain.games import Game, game
from domain.policies import Persona, Policy
from service.commands.application import Digsite, Viewer
from service.commands.results import GameResult, Player

MAX_ROUNDS = 1000  # Digsite.create_tournament accepts 1 to 1000 rounds


def default_pool(kind: str, players: int) -> int:
    """The largest multiple of ``players`` the game's distinct personas fill (at least one table)."""
    return max(players, len(game(kind).bots.personas) // players * players)


def seatings(pool: int, players: int, rounds: int, seed: str) -> list[list[list[int]]]:
    """Per round, the tables (lists of pool indexes, in seat order), deterministic in ``seed``.

    Each round the pool is reshuffled; when the pool does not divide into tables, those who have sat
    out least sit out (ties drawn), so sitting out rotates."""
    rng = random.Random(f"seatings:{seed}")
    tables = pool // players
    sat_out = [0] * pool
    out = []
    for _ in range(rounds):
        order = list(range(pool))
        rng.shuffle(order)
        resting = sorted(order, key=lambda p: sat_out[p])[: pool - tables * players]
        for p in resting:
            sat_out[p] += 1
        seated = [p for p in order if p not in resting]
        out.append([seated[t * players : (t + 1) * players] for t in range(tables)])
    return out


@dataclass(frozen=True)
class PlayedGame:
    id: str
    round: int
    table: int
    seed: str
    seats: tuple[str, ...]  # player ids, seat order
    names: tuple[str, ...]  # every seat's name, seat order (with any seat the engine plays, like a solo rival)
    result: GameResult  # the game's common result (``Result.to_dict``)
    moves: int
    reads: int  # Digsite.game calls made to play it

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.names[s] for s in self.result["winners"])

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning players' ids (a seat the engine plays has none)."""
        return tuple(self.seats[s] for s in self.result["winners"] if s < len(self.seats))


@dataclass
class Tournament:
    id: str
    kind: str
    name: str
    seed: str
    players: int
    rounds: int
    pool: list[Player]  # the player records: id, name, kind, bot
    games: list[PlayedGame] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def moves(self) -> int:
        return sum(g.moves for g in self.games)

    @property
    def reads(self) -> int:
        return sum(g.reads for g in self.games)

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def wins(self) -> dict[str, int]:
        """Wins per player name, for every pool player (0 included), in pool order."""
        counted = Counter(name for g in self.games for name in g.winner_names)
        return {p["name"]: counted[p["name"]] for p in self.pool}

    def summary(self) -> dict[str, Any]:
        return {
            "tournament": self.id,
            "game": self.kind,
            "name": self.name,
            "seed": self.seed,
            "players": self.players,
            "pool": len(self.pool),
            "rounds": self.rounds,
            "games": len(self.games),
            "moves": self.moves,
            "reads": self.reads,
            "seconds": round(self.seconds, 3),
            "moves_per_second": round(self.moves_per_second, 1),
            "wins": self.wins(),
        }


def play_stored_game(
    service: Digsite,
    game_id: str,
    bots: Sequence[Policy[Any]],
    rng: random.Random,
    max_moves: int = 100_000,
) -> tuple[int, int]:
    """Play a created game to its end through the service; ``bots[seat]`` plays each seat the engine names.

    Returns (moves, reads): each move reads the view of the seat to act once; the seat after it comes with the
    move's answer (the engine's ``to_act``), so the next read is already the right seat's."""
    rules = game(service.kind_of(game_id)).rules
    reads = seat = 0
    for moves in range(max_moves):  # moves made so far
        seen = service.game(game_id, Viewer(seat))
        reads += 1
        if seen["status"] == "over":
            return moves, reads
        if seat not in seen["to_act"]:  # only before the first move: nobody has said who acts yet
            seat = seen["to_act"][0]
            seen = service.game(game_id, Viewer(seat))
            reads += 1
        legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
        action = bots[seat].choose(seen["view"], legal, rng)
        result = service.submit(game_id, Viewer(seat), seen["version"], rules.action_to_dict(action))
        if result["status"] == "over":
            return moves + 1, reads
        seat = result["to_act"][0]
    raise RuntimeError(f"game {game_id} did not end within {max_moves} moves")


def run_tournament(
    service: Digsite,
    *,
    kind: str,
    players: int = 3,
    games: int = 6,
    seed: str = "0",
    pool: int | None = None,
    name: str | None = None,
    options: dict[str, Any] | None = None,
    progress: Callable[[PlayedGame], None] | None = None,
) -> Tournament:
    """Create a pool of the game's bot personas and a tournament, then play ``games`` games into the store.

    Each round seats the pool in tables of ``players`` (``pool // players`` games a round; the last round
    may be shorter), every game with the same rule ``options``. ``progress`` is called after every game."""
    found: Game[Any, Any, Any] = game(kind)
    seats = found.schemas.seats
    if players not in seats:
        raise ValueError(f"a {found.title} table seats {seats.low} to {seats.high} players, not {players}")
    if games < 1:
        raise ValueError("play at least one game")
    pool = default_pool(kind, players) if pool is None else pool
    if pool < players:
        raise ValueError(f"a pool of {pool} cannot fill a table of {players}")
    per_round = pool // players
    rounds = math.ceil(games / per_round)
    if rounds > MAX_ROUNDS:
        raise ValueError(
            f"{games} games at {per_round} table(s) a round need {rounds} rounds (at most {MAX_ROUNDS}): "
            f"use a pool of at least {math.ceil(games / MAX_ROUNDS) * players}"
        )
    name = name or f"Bots {kind}, seed {seed}: {games} games of {players}"
    started = time.perf_counter()
    seated_personas: list[Persona] = found.bots.personas_for(pool)
    # The same persona is the same player in every run (its id follows from its name): no twins told apart by ids.
    ids = [service.bot_player(p.name, p.record) for p in seated_personas]
    records = [service.player(i) for i in ids]
    # The bots play exactly the recorded tendencies (a bot player's record holds them: ``Digsite.bot_player``).
    bots = [found.bots.from_record(cast(dict[str, Any], r["bot"])) for r in records]
    tournament = Tournament(
        id=service.create_tournament(name, rounds, kind, options),
        kind=kind,
        name=name,
        seed=seed,
        players=players,
        rounds=rounds,
        pool=records,
    )
    plan = seatings(pool, players, rounds, seed)
    for round_no, tables in enumerate(plan, start=1):
        for table_no, table in enumerate(tables, start=1):
            if len(tournament.games) == games:
                break
            game_seed = f"{seed}-r{round_no}-t{table_no}"
            seated = [ids[p] for p in table]
            labels = {"tournament": tournament.id, "round": round_no, "table": table_no}
            created = service.create_game(kind, seated, options=options, labels=labels, seed=game_seed)
            rng = random.Random(f"bots:{game_seed}")
            moves, reads = play_stored_game(service, created["id"], [bots[p] for p in table], rng)
            final = service.game(created["id"])
            if final["result"] is None:
                raise RuntimeError(f"the bots left game {created['id']} before it was over")
            played = PlayedGame(
                id=created["id"],
                round=round_no,
                table=table_no,
                seed=game_seed,
                seats=tuple(seated),
                names=tuple(final["view"]["players"]),
                result=final["result"],
                moves=moves,
                reads=reads + 1,
            )
            tournament.games.append(played)
            if progress is not None:
                progress(played)
    tournament.seconds = time.perf_counter() - started
    return tournament
