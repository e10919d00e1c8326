"""Aggregates in the event store: a Game (one stream per game), a Player, a Tournament.

A Game's stored events are records of the audit trail, each holding its hash and the previous one.
The game's rules state is rebuilt by folding the game's own ``evolve`` over the recorded domain events.

Every class whose topic the store records names it explicitly (``TOPIC``, the library's own way to move a class):
the topics stay ``service.aggregates:...`` as every stored record, the snapshots' seals and the PostgreSQL
ledger trigger (migrations/postgresql/0001_store.sql) have them, wherever this module lives.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.games import game as game_of
from service.store import eventsourcing_workarounds

STORED_AS = "service.aggregates"  # the module path these classes had when the first records were stored


class Game(Aggregate):
    TOPIC = f"{STORED_AS}:Game"

    class Created(Aggregate.Created):
        TOPIC = f"{STORED_AS}:Game.Created"
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
        game: Game = eventsourcing_workarounds.create(cls, cls.Created, id=game_id or uuid4(), **fields)
        return game

    class MoveRecorded(Aggregate.Event):
        TOPIC = f"{STORED_AS}:Game.MoveRecorded"
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
            computed = eventsourcing_workarounds.carried_state(game)
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
        TOPIC = f"{STORED_AS}:Game.SeedRevealed"
        seed: str
        at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            game: Game = aggregate
            game.seed = self.seed
            game.last_hash = self.hash

    def record_move(self, next_state: Any, **fields: Any) -> None:
        eventsourcing_workarounds.carry_state(self, next_state)
        self.trigger_event(self.MoveRecorded, **fields)

    def reveal_seed(self, **fields: Any) -> None:
        self.trigger_event(self.SeedRevealed, **fields)


class Player(Aggregate):
    TOPIC = f"{STORED_AS}:Player"
    """A person or a bot with a stable id across games; a bot records its tendencies."""

    class Created(Aggregate.Created):
        TOPIC = f"{STORED_AS}:Player.Created"
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
        player: Player = eventsourcing_workarounds.create(cls, cls.Created, id=player_id or uuid4(), **fields)
        return player


class Tournament(Aggregate):
    TOPIC = f"{STORED_AS}:Tournament"
    """A tournament of one game: every game of it is that game under the same rule ``options`` (as given when the
    tournament was created; a game's defaults stand for what they leave out), so its standings compare like
    with like. ``options`` is ``None`` for a tournament created before tournaments held them: its games are
    then of its game, with any options."""

    class Created(Aggregate.Created):
        TOPIC = f"{STORED_AS}:Tournament.Created"
        name: str
        rounds: int
        game: str
        at: str
        options: dict[str, Any] | None

        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["options"] = None  # (recorded before tournaments held their rule options)

    def __init__(self, name: str, rounds: int, game: str, at: str, options: dict[str, Any] | None) -> None:
        self.name = name
        self.rounds = rounds
        self.game = game
        self.created_at = at
        self.options = options
        # Entries and seated rounds come from events of their own (a tournament stored before them has none).
        self.entries: dict[str, str] = {}  # player id -> name, in the order entered, withdrawn ones left out
        self.seated: list[dict[str, Any]] = []  # each seated round, as ``RoundSeated`` recorded it

    class EntryAdded(Aggregate.Event):
        """A player entered the tournament (a person or a bot, alike)."""

        TOPIC = f"{STORED_AS}:Tournament.EntryAdded"
        player: str
        name: str
        at: str

        def apply(self, aggregate: Any) -> None:
            aggregate.entries[self.player] = self.name

    class EntryWithdrawn(Aggregate.Event):
        """A player left the tournament: seated in no later round (their games so far still count)."""

        TOPIC = f"{STORED_AS}:Tournament.EntryWithdrawn"
        player: str
        at: str

        def apply(self, aggregate: Any) -> None:
            aggregate.entries.pop(self.player, None)

    class RoundSeated(Aggregate.Event):
        """A round seated and started: its tables (``{"table", "game", "players"}``, players in seat order), who
        sat out, the format and table size it was seated by, and the games of earlier rounds still in play that it
        was forced past (they go on and count when they end)."""

        TOPIC = f"{STORED_AS}:Tournament.RoundSeated"
        round: int
        format: str
        table_size: int
        tables: list[dict[str, Any]]
        byes: list[str]
        forced_past: list[str]
        at: str

        def apply(self, aggregate: Any) -> None:
            aggregate.seated.append(
                {
                    "round": self.round,
                    "format": self.format,
                    "table_size": self.table_size,
                    "tables": self.tables,
                    "byes": self.byes,
                    "forced_past": self.forced_past,
                    "at": self.at,
                }
            )

    def enter(self, player: str, name: str, at: str) -> None:
        self.trigger_event(self.EntryAdded, player=player, name=name, at=at)

    def withdraw(self, player: str, at: str) -> None:
        self.trigger_event(self.EntryWithdrawn, player=player, at=at)

    def seat_round(self, **fields: Any) -> None:
        self.trigger_event(self.RoundSeated, **fields)

    @classmethod
    def create(cls, **fields: Any) -> Tournament:
        tournament: Tournament = eventsourcing_workarounds.create(cls, cls.Created, id=uuid4(), **fields)
        return tournament


class Seating(Aggregate):
    TOPIC = f"{STORED_AS}:Seating"
    """The players of one game at one table of one round of a tournament. Its id follows from them
    (``seating_id``) and it is stored with the game, in one transaction: a second game of the same players at
    that table of that round would store it again, which the store refuses (its first version is taken)."""

    class Created(Aggregate.Created):
        TOPIC = f"{STORED_AS}:Seating.Created"
        game: str

    def __init__(self, game: str) -> None:
        self.game = game

    @classmethod
    def create(cls, seating: UUID, game: str) -> Seating:
        made: Seating = eventsourcing_workarounds.create(cls, cls.Created, id=seating, game=game)
        return made


SEATINGS = UUID("0b6f1d2e-8c43-4f57-9a2e-6d1c3b7e5a90")  # the namespace of seating ids: never to change


def seating_id(tournament: str, round_no: int, table: int, players: list[str]) -> UUID:
    """The id of the seating of ``players`` (in any seat order) at ``table`` of round ``round_no``."""
    return uuid5(SEATINGS, f"{tournament}/{round_no}/{table}/{','.join(sorted(players))}")
