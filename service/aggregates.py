"""Aggregates in the event store: a Game (one stream per game), a Player, a Tournament.

A Game's stored events are records of the audit trail, each holding its hash and the previous one.
The game's rules state is rebuilt by folding the game's own ``evolve`` over the recorded domain events.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from domain.games import game as game_of
from service import library


class Game(Aggregate):
    class Created(Aggregate.Created):
        kind: str
        players: list[str]
        names: list[str]
        options: dict[str, Any]
        labels: dict[str, Any]
        seed_commitment: str
        token_hashes: list[str]
        rules_version: str
        opening: list[dict[str, Any]]
        at: str
        hash: str

    def __init__(
        self,
        kind: str,
        players: list[str],
        names: list[str],
        options: dict[str, Any],
        labels: dict[str, Any],
        seed_commitment: str,
        token_hashes: list[str],
        rules_version: str,
        opening: list[dict[str, Any]],
        at: str,
        hash: str,
    ) -> None:
        self.kind = kind
        self.players = players
        self.names = names
        self.options = options
        self.labels = labels
        self.seed_commitment = seed_commitment
        self.token_hashes = token_hashes
        self.rules_version = rules_version
        self.created_at = at
        self.updated_at = at
        self.last_hash = hash
        self.moves = 0
        self.seed: str | None = None  # published only once the game is over
        rules = game_of(kind).rules
        self.state = rules.replay([rules.event_from_dict(e) for e in opening])

    @classmethod
    def create(cls, game_id: UUID | None = None, **fields: Any) -> Game:
        game: Game = library.create(cls, cls.Created, id=game_id or uuid4(), **fields)
        return game

    class MoveRecorded(Aggregate.Event):
        seat: int
        action: dict[str, Any]
        events: list[dict[str, Any]]
        at: str
        rules_version: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            game: Game = aggregate
            # The command path has just computed the next state with ``decide``/``evolve``; replays fold the
            # recorded events. Both give the same state (the audit test checks it).
            computed = library.carried_state(game)
            if computed is None:
                rules = game_of(game.kind).rules
                state = game.state
                for data in self.events:
                    state = rules.evolve(state, rules.event_from_dict(data))
                computed = state
            game.state = computed
            game.moves += 1
            game.last_hash = self.hash
            game.updated_at = self.at

    class SeedRevealed(Aggregate.Event):
        seed: str
        at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            game: Game = aggregate
            game.seed = self.seed
            game.last_hash = self.hash

    def record_move(self, next_state: Any, **fields: Any) -> None:
        library.carry_state(self, next_state)
        self.trigger_event(self.MoveRecorded, **fields)

    def reveal_seed(self, **fields: Any) -> None:
        self.trigger_event(self.SeedRevealed, **fields)


class Player(Aggregate):
    """A person or a bot with a stable id across games; a bot records its tendencies."""

    class Created(Aggregate.Created):
        name: str
        kind: str
        bot: dict[str, Any] | None
        at: str

    def __init__(self, name: str, kind: str, bot: dict[str, Any] | None, at: str) -> None:
        self.name = name
        self.kind = kind
        self.bot = bot
        self.created_at = at

    @classmethod
    def create(cls, player_id: UUID | None = None, **fields: Any) -> Player:
        player: Player = library.create(cls, cls.Created, id=player_id or uuid4(), **fields)
        return player


class Tournament(Aggregate):
    class Created(Aggregate.Created):
        name: str
        rounds: int
        game: str
        at: str

    def __init__(self, name: str, rounds: int, game: str, at: str) -> None:
        self.name = name
        self.rounds = rounds
        self.game = game
        self.created_at = at

    @classmethod
    def create(cls, **fields: Any) -> Tournament:
        tournament: Tournament = library.create(cls, cls.Created, id=uuid4(), **fields)
        return tournament
