"""Stored bot tournaments: whole games played THROUGH the service layer into the store.

A pool of named bot players (each created once, its bot kind and tendencies recorded on the player) is
seated round after round in tables of N; every table plays one game, created with the labels
``{"tournament", "round", "table"}``, and every move goes through ``Digsite.submit`` with the seat's
``Viewer``. Seatings, game seeds and bot choices all follow from one seed, so a tournament replays
identically into a fresh store (ids and seat tokens differ; seats, moves and winners do not).

A move costs one read (``Digsite.game`` for the seat to act: its view and legal actions) and one write:
the seat to act next is predicted from the seat's view and the events its move produced, and checked
against the ``to_act`` of that read (a wrong guess costs one more read, never a wrong move).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.games import rules_for
from domain.ruins.bots import Bot, HeuristicBot, RandomBot, Seen, make_bot
from service.application import Digsite, Viewer

MAX_ROUNDS = 1000  # Digsite.create_tournament accepts 1 to 1000 rounds


@dataclass(frozen=True)
class Persona:
    """A named bot with recorded tendencies: ``bot`` is exactly what ``create_player(..., bot=...)`` stores."""

    name: str
    kind: str  # "heuristic" | "random"
    tendencies: dict[str, Any]

    @property
    def bot(self) -> dict[str, Any]:
        return {"kind": self.kind, "tendencies": dict(self.tendencies)}


def _heuristic(name: str, **tendencies: Any) -> Persona:
    return Persona(name, "heuristic", HeuristicBot(**tendencies).tendencies())  # every tendency, defaults included


def _random(name: str, craft_rate: float = RandomBot.craft_rate) -> Persona:
    return Persona(name, "random", {"craft_rate": craft_rate})


# Distinct playing styles, so analytics have real behaviour to find.
PERSONAS: tuple[Persona, ...] = (
    _heuristic("Cautious Cora", pass_rate=0.6),
    _heuristic("Hoarding Hugo", torch_rate=0.0),
    _heuristic("Spending Sofia", torch_rate=1.0),
    _heuristic("Claiming Clara", claim_rate=1.0),
    _heuristic("Big Bruno", lead="big"),
    _heuristic("High Hana", lead="high"),
    _random("Random Rui"),
    _heuristic("Steady Sam"),
    _heuristic("Night Nia", flip_rate=1.0),
    _heuristic("Daylight Dev", flip_rate=0.0),
    _heuristic("Bold Beto", pass_rate=0.0, torch_rate=0.9, lead="big"),
    _random("Wild Wanda", craft_rate=0.6),
)


def personas(count: int) -> list[Persona]:
    """The first ``count`` personas; beyond the list, the styles repeat under numbered names."""
    out = []
    for i in range(count):
        base = PERSONAS[i % len(PERSONAS)]
        lap = i // len(PERSONAS)
        out.append(base if lap == 0 else Persona(f"{base.name} {lap + 1}", base.kind, base.tendencies))
    return out


def default_pool(players: int) -> int:
    """The largest multiple of ``players`` the distinct personas fill (at least one table)."""
    return max(players, len(PERSONAS) // players * players)


def bot_from_record(bot: dict[str, Any]) -> Bot:
    """The bot a player record describes: ``{"kind": ..., "tendencies": {...}}``."""
    return make_bot(bot["kind"], **bot.get("tendencies", {}))


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


def next_to_act(view: dict[str, Any], events: Sequence[dict[str, Any]]) -> int | None:
    """A Ruins guess at the seat to act after a move: the seat's view before it, plus the move's events."""
    turn = view.get("turn")
    leader = view.get("leader")
    pending = [f["seat"] for f in view.get("flips", ()) if not f["chosen"]] if view.get("phase") == "flip" else []
    discard = view.get("pending_discard")
    discarder = None if discard is None else discard["seat"]
    for event in events:
        kind = event["type"]
        if kind == "NextTurn":
            turn = event["seat"]
        elif kind == "PileCleared":
            turn = event["leader"]
        elif kind == "RoundDealt":
            pending, leader, turn = list(event["participants"]), event["leader"], None
        elif kind == "NightFlipChosen":
            pending = [s for s in pending if s != event["seat"]]
        elif kind == "NightFlipsRevealed":
            pending, turn = [], leader
        elif kind == "DiscardRequired":
            discarder = event["seat"]
        elif kind == "RuinsDiscarded":
            discarder = None
    if discarder is not None:
        return int(discarder)
    if pending:
        return int(pending[0])
    return None if turn is None else int(turn)


@dataclass(frozen=True)
class PlayedGame:
    id: str
    round: int
    table: int
    seed: str
    seats: tuple[str, ...]  # player ids, seat order
    names: tuple[str, ...]
    winner: str  # player id
    winner_name: str
    how: str
    moves: int
    reads: int  # Digsite.game calls made to play it


@dataclass
class Tournament:
    id: str
    name: str
    seed: str
    players: int
    rounds: int
    pool: list[dict[str, Any]]  # the player records: id, name, kind, bot
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
        counted = Counter(g.winner_name for g in self.games)
        return {p["name"]: counted[p["name"]] for p in self.pool}

    def summary(self) -> dict[str, Any]:
        return {
            "tournament": self.id,
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
    bots: Sequence[Bot],
    rng: random.Random,
    game: str = "ruins",
    max_moves: int = 100_000,
) -> tuple[int, int]:
    """Play a created game to its end through the service; ``bots[seat]`` plays each seat.

    Returns (moves, reads): each move reads the view of the seat to act once, unless the guess at
    that seat was wrong."""
    rules = rules_for(game)
    reads = guess = 0
    for moves in range(max_moves):  # moves made so far
        seen = service.game(game_id, Viewer(guess))
        reads += 1
        if seen["status"] == "over":
            return moves, reads
        if guess not in seen["to_act"]:
            guess = seen["to_act"][0]
            seen = service.game(game_id, Viewer(guess))
            reads += 1
        legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
        action = bots[guess].choose(Seen.from_view(seen["view"]), legal, rng)
        result = service.submit(game_id, Viewer(guess), seen["version"], rules.action_to_dict(action))
        if result["status"] == "over":
            return moves + 1, reads
        predicted = next_to_act(seen["view"], result["events"])
        guess = guess if predicted is None else predicted
    raise RuntimeError(f"game {game_id} did not end within {max_moves} moves")


def run_tournament(
    service: Digsite,
    *,
    game: str = "ruins",
    players: int = 3,
    games: int = 6,
    seed: str = "0",
    pool: int | None = None,
    name: str | None = None,
    progress: Callable[[PlayedGame], None] | None = None,
) -> Tournament:
    """Create a pool of bot players and a tournament, then play ``games`` games into the store.

    Each round seats the pool in tables of ``players`` (``pool // players`` games a round; the last round
    may be shorter). ``progress`` is called after every game with its summary."""
    if game != "ruins":
        raise ValueError(f"only 'ruins' has bots (got {game!r})")
    if not 2 <= players <= 5:
        raise ValueError("a Ruins table seats 2 to 5 players")
    if games < 1:
        raise ValueError("play at least one game")
    pool = default_pool(players) if pool is None else pool
    if pool < players:
        raise ValueError(f"a pool of {pool} cannot fill a table of {players}")
    per_round = pool // players
    rounds = math.ceil(games / per_round)
    if rounds > MAX_ROUNDS:
        raise ValueError(
            f"{games} games at {per_round} table(s) a round need {rounds} rounds (at most {MAX_ROUNDS}): "
            f"use a pool of at least {math.ceil(games / MAX_ROUNDS) * players}"
        )
    name = name or f"Bots {game}, seed {seed}: {games} games of {players}"
    started = time.perf_counter()
    ids = [service.create_player(p.name, kind="bot", bot=p.bot) for p in personas(pool)]
    records = [service.player(i) for i in ids]
    bots = [bot_from_record(r["bot"]) for r in records]  # the bots play exactly the recorded tendencies
    tournament = Tournament(
        id=service.create_tournament(name, rounds, game=game),
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
            seats = [ids[p] for p in table]
            labels = {"tournament": tournament.id, "round": round_no, "table": table_no}
            created = service.create_game(game, seats, labels=labels, seed=game_seed)
            rng = random.Random(f"bots:{game_seed}")
            moves, reads = play_stored_game(service, created["id"], [bots[p] for p in table], rng, game)
            final = service.game(created["id"])
            outcome = final["view"]["outcome"]
            winner = outcome["winner"]
            played = PlayedGame(
                id=created["id"],
                round=round_no,
                table=table_no,
                seed=game_seed,
                seats=tuple(seats),
                names=tuple(records[p]["name"] for p in table),
                winner=seats[winner],
                winner_name=records[table[winner]]["name"],
                how=outcome["how"],
                moves=moves,
                reads=reads + 1,
            )
            tournament.games.append(played)
            if progress is not None:
                progress(played)
    tournament.seconds = time.perf_counter() - started
    return tournament
