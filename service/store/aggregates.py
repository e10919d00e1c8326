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
from service.integrity.records import GENESIS, tournament_record_hash
from service.store import clocks, eventsourcing_workarounds

STORED_AS = "service.aggregates"  # the module path these classes had when the first records were stored


class Game(Aggregate):
    TOPIC = f"{STORED_AS}:Game"
    # (a game read from a snapshot taken before games had clocks has neither attribute: it has no clock)
    time_control: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    forfeit: dict[str, Any] | None = None  # how the game ended when a seat forfeited it (out of time), else None

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
        clock: dict[str, Any] | None = None  # the time control (service.store.clocks), or None: no clock

        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["clock"] = None  # (recorded before games had clocks)

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
        clock: dict[str, Any] | None = None,
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
        self.rulings: list[dict[str, Any]]  # (declared, not set: ``RulingRecorded`` sets it; ``ruled`` reads it)
        self.voided_links: list[dict[str, Any]]  # (likewise: a ``void_link`` ruling sets it; ``voided`` reads it)
        rules = game_of(kind).rules
        self.state = rules.replay([rules.event_from_dict(e) for e in opening])
        if clock is not None:  # (else the class's None: a game without a clock is stored, and snapshot, as before)
            # The clock's control and its seats' time, folded from the records (service.store.clocks)
            self.time_control = clock
            self.clock = clocks.started(clock, len(players), rules.to_act(self.state), at)

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
            if game.clock is not None and game.time_control is not None:
                to_act = game_of(game.kind).rules.to_act(computed)
                game.clock = clocks.advanced(game.time_control, game.clock, self.at, to_act, self.out_of_time())

        def out_of_time(self) -> int | None:
            return None

    class TimedOut(MoveRecorded):
        """A seat's time ran out: the server played the game's default action for it (``timeout_action``), as a
        move of that seat; ``deadline`` is when its time ran out, ``at`` (no earlier) when the server noticed."""

        TOPIC = f"{STORED_AS}:Game.TimedOut"
        deadline: str

        def out_of_time(self) -> int | None:
            return self.seat

    class Forfeited(Aggregate.Event):
        """A seat's time ran out under a clock whose rule is forfeit: the game ends here, ``result`` (the common
        summary: the seat last, ``service.store.clocks.forfeit_result``)."""

        TOPIC = f"{STORED_AS}:Game.Forfeited"
        seat: int
        deadline: str
        result: dict[str, Any]
        at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            game: Game = aggregate
            game.forfeit = {"seat": self.seat, "result": self.result}
            if game.clock is not None and game.time_control is not None:
                game.clock = clocks.advanced(game.time_control, game.clock, self.at, [], self.seat)
            game.last_hash = self.hash
            game.updated_at = self.at

    class ClockChanged(Aggregate.Event):
        """The organiser paused the table (``change`` "pause"), resumed it ("resume") or gave ``seconds`` more to
        ``seat`` (None: every seat; "add"), for ``reason``."""

        TOPIC = f"{STORED_AS}:Game.ClockChanged"
        change: str
        seat: int | None
        seconds: int | float | None
        reason: str
        at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            game: Game = aggregate
            assert game.clock is not None  # (the service records a change of the clock only for a timed game)
            if self.change == "pause":
                game.clock = clocks.paused(game.clock, self.at)
            elif self.change == "resume":
                game.clock = clocks.resumed(game.clock, self.at, game_of(game.kind).rules.to_act(game.state))
            else:
                game.clock = clocks.added(game.clock, self.seat, self.seconds or 0)
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

    class RulingRecorded(Aggregate.Event):
        """An organiser's ruling on this game (``service.commands.rulings``), chained like a move: ``ruling`` is
        ``annul``, ``restart``, ``adjust_result`` or ``substitute``, ``details`` what it rules, ``reason`` why.
        It changes no rules state: the game's own record stays as played, the ruling beside it."""

        TOPIC = f"{STORED_AS}:Game.RulingRecorded"
        ruling: str
        reason: str
        details: dict[str, Any]
        at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            game: Game = aggregate
            # (set only once a game has a ruling: a game without one keeps the state its snapshots hold)
            game.rulings = [*ruled(game), {"version": self.originator_version, "ruling": self.ruling}]
            if self.ruling == "void_link":  # the seat's new token from now on; the old one is refused by name
                seat = self.details["seat"]
                game.voided_links = [*voided(game), {"seat": seat, "token_hash": self.details["voided_hash"]}]
                game.token_hashes = [
                    self.details["token_hash"] if i == seat else t for i, t in enumerate(game.token_hashes)
                ]
            if self.ruling == "substitute":  # the seat's player from the next move on (new lists: Created's stay)
                seat = self.details["seat"]
                game.players = [self.details["player"] if i == seat else p for i, p in enumerate(game.players)]
                game.names = [self.details["name"] if i == seat else n for i, n in enumerate(game.names)]
                game.token_hashes = [
                    self.details["token_hash"] if i == seat else t for i, t in enumerate(game.token_hashes)
                ]
            game.last_hash = self.hash
            game.updated_at = self.at

    def record_move(self, next_state: Any, **fields: Any) -> None:
        eventsourcing_workarounds.carry_state(self, next_state)
        self.trigger_event(self.MoveRecorded, **fields)

    def reveal_seed(self, **fields: Any) -> None:
        self.trigger_event(self.SeedRevealed, **fields)

    def record_timeout(self, next_state: Any, **fields: Any) -> None:
        eventsourcing_workarounds.carry_state(self, next_state)
        self.trigger_event(self.TimedOut, **fields)

    def record_forfeit(self, **fields: Any) -> None:
        self.trigger_event(self.Forfeited, **fields)

    def change_clock(self, **fields: Any) -> None:
        self.trigger_event(self.ClockChanged, **fields)

    def rule(self, **fields: Any) -> None:
        self.trigger_event(self.RulingRecorded, **fields)


def ruled(game: Game) -> list[dict[str, Any]]:
    """The game's rulings so far (``{"version", "ruling"}``; none for a game loaded from a snapshot taken before
    rulings existed, which has no such attribute)."""
    return list(getattr(game, "rulings", []))


def voided(game: Game) -> list[dict[str, Any]]:
    """The seat links the organiser voided on this game (``{"seat", "token_hash"}``: the hash of the token it held),
    oldest first (none for a game stored, or snapshot, before links could be voided)."""
    return list(getattr(game, "voided_links", []))


def link_generation(game: Game, seat: int) -> int:
    """How many times ``seat``'s link was voided: the generation of the token it holds now
    (``service.commands.rounds.seat_token``)."""
    return sum(1 for v in voided(game) if v["seat"] == seat)


STOPPING = ("annul", "restart")  # rulings after which no move is played on the game


def stopped(game: Game) -> bool:
    """Whether an organiser's ruling stopped the game (annulled or restarted as another): no move, timeout or
    change of its clock is recorded on it any more."""
    return any(r["ruling"] in STOPPING for r in ruled(game))


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
        clock: dict[str, Any] | None = None  # the time control of its games (service.store.clocks); None: untimed
        # The hash of record 1 of its chain (``tournament_record_hash``); None: stored before tournaments were
        # chained (then the hash is recomputed from the fields when it is read: ``Tournament.last_hash``).
        hash: str | None = None

        class_version = 3

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["options"] = None  # (recorded before tournaments held their rule options)

        @staticmethod
        def upcast_v2_v3(state: dict[str, Any]) -> None:
            state["clock"] = None  # (recorded before tournaments had clocks)

    def __init__(
        self,
        name: str,
        rounds: int,
        game: str,
        at: str,
        options: dict[str, Any] | None,
        clock: dict[str, Any] | None = None,
        hash: str | None = None,
    ) -> None:
        self.name = name
        self.rounds = rounds
        self.game = game
        self.created_at = at
        self.options = options
        self.clock = clock
        # Entries and seated rounds come from events of their own (a tournament stored before them has none).
        self.entries: dict[str, str] = {}  # player id -> name, in the order entered, withdrawn ones left out
        self.seated: list[dict[str, Any]] = []  # each seated round, as ``RoundSeated`` recorded it
        # The delayed broadcast of its games in play (``BroadcastSet``): ``{"moves": N}`` or ``{"minutes": M}``; off.
        self.broadcast: dict[str, Any] | None = None
        # The hash of its last record (its events are chained like a game's records: ``trigger_event``)
        body = {"name": name, "rounds": rounds, "game": game, "at": at, "options": options, "clock": clock}
        self.last_hash = hash or tournament_record_hash(str(self.id), 1, GENESIS, body)

    class EntryAdded(Aggregate.Event):
        """A player entered the tournament (a person or a bot, alike)."""

        TOPIC = f"{STORED_AS}:Tournament.EntryAdded"
        player: str
        name: str
        at: str
        prev_hash: str | None = None  # (None: stored before tournaments were chained; recomputed when read)
        hash: str | None = None

        def apply(self, aggregate: Any) -> None:
            chain(self, aggregate)
            aggregate.entries[self.player] = self.name

    class EntryWithdrawn(Aggregate.Event):
        """A player left the tournament: seated in no later round (their games so far still count)."""

        TOPIC = f"{STORED_AS}:Tournament.EntryWithdrawn"
        player: str
        at: str
        prev_hash: str | None = None  # (None: stored before tournaments were chained; recomputed when read)
        hash: str | None = None

        def apply(self, aggregate: Any) -> None:
            chain(self, aggregate)
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
        prev_hash: str | None = None  # (None: stored before tournaments were chained; recomputed when read)
        hash: str | None = None

        def apply(self, aggregate: Any) -> None:
            chain(self, aggregate)
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

    class BroadcastSet(Aggregate.Event):
        """The organiser set how spectators follow the tournament's games in play: ``moves`` behind, or
        ``minutes`` behind (one of them), or neither (the broadcast is off, as it is until this is recorded)."""

        TOPIC = f"{STORED_AS}:Tournament.BroadcastSet"
        moves: int | None
        minutes: float | None
        at: str
        prev_hash: str | None = None  # (None: stored before tournaments were chained; recomputed when read)
        hash: str | None = None

        def apply(self, aggregate: Any) -> None:
            chain(self, aggregate)
            if self.moves is not None:
                aggregate.broadcast = {"moves": self.moves}
            elif self.minutes is not None:
                aggregate.broadcast = {"minutes": self.minutes}
            else:
                aggregate.broadcast = None

    def set_broadcast(self, moves: int | None, minutes: float | None, at: str) -> None:
        self.trigger_event(self.BroadcastSet, moves=moves, minutes=minutes, at=at)

    def enter(self, player: str, name: str, at: str) -> None:
        self.trigger_event(self.EntryAdded, player=player, name=name, at=at)

    def withdraw(self, player: str, at: str) -> None:
        self.trigger_event(self.EntryWithdrawn, player=player, at=at)

    class PenaltyGiven(Aggregate.Event):
        """An organiser's ruling on the tournament: ``points`` off a player's standing, with the reason."""

        TOPIC = f"{STORED_AS}:Tournament.PenaltyGiven"
        player: str
        points: int
        reason: str
        at: str
        prev_hash: str | None = None  # (None: stored before tournaments were chained; recomputed when read)
        hash: str | None = None

        def apply(self, aggregate: Any) -> None:
            chain(self, aggregate)
            aggregate.penalties = [
                *getattr(aggregate, "penalties", []),
                {"player": self.player, "points": self.points, "reason": self.reason, "at": self.at},
            ]

    def give_penalty(self, player: str, points: int, reason: str, at: str) -> None:
        self.trigger_event(self.PenaltyGiven, player=player, points=points, reason=reason, at=at)

    def seat_round(self, **fields: Any) -> None:
        self.trigger_event(self.RoundSeated, **fields)

    @classmethod
    def create(cls, tournament_id: UUID | None = None, **fields: Any) -> Tournament:
        """A new tournament (``fields``: ``Created``'s own), the hash of its record 1 computed from them."""
        uid = tournament_id or uuid4()
        body = {name: fields.get(name) for name in TOURNAMENT_RECORDS["created"][1]}
        chained = tournament_record_hash(str(uid), 1, GENESIS, body)
        tournament: Tournament = eventsourcing_workarounds.create(cls, cls.Created, id=uid, **fields, hash=chained)
        return tournament

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None:
        """Every event after ``Created`` is the next record of the tournament's chain: its ``prev_hash`` is the hash
        of the record before it, its ``hash`` covers its own fields (``TOURNAMENT_RECORDS``) and that one, as a
        game's records do (``service.integrity.chain``); the ledger enters each with its hash."""
        fields = TOURNAMENT_RECORDS[RECORD_TYPE[event_class]][1]
        body = {name: kwargs[name] for name in fields}
        prev = self.last_hash
        chained = tournament_record_hash(str(self.id), self.version + 1, prev, body)
        super().trigger_event(event_class, **body, prev_hash=prev, hash=chained)


def chain(event: Any, tournament: Any) -> None:
    """Follow the tournament's chain over ``event`` (its stored hash, or for an event stored before tournaments were
    chained, the hash its fields give)."""
    stored = event.hash
    if stored is None:
        body = record_body(event)
        stored = tournament_record_hash(str(event.originator_id), event.originator_version, tournament.last_hash, body)
    tournament.last_hash = stored


def record_body(event: Any) -> dict[str, Any]:
    """A tournament event's own fields, as its record's body (what its hash covers)."""
    return {name: getattr(event, name) for name in TOURNAMENT_RECORDS[RECORD_TYPE[type(event)]][1]}


# A tournament's records: each type's name (in an export, in ``verify``'s messages), its event, and its body's fields.
TOURNAMENT_RECORDS: dict[str, tuple[type[Any], tuple[str, ...]]] = {
    "created": (Tournament.Created, ("name", "rounds", "game", "at", "options", "clock")),
    "entry_added": (Tournament.EntryAdded, ("player", "name", "at")),
    "entry_withdrawn": (Tournament.EntryWithdrawn, ("player", "at")),
    "round_seated": (
        Tournament.RoundSeated,
        ("round", "format", "table_size", "tables", "byes", "forced_past", "at"),
    ),
    "penalty_given": (Tournament.PenaltyGiven, ("player", "points", "reason", "at")),
    "broadcast_set": (Tournament.BroadcastSet, ("moves", "minutes", "at")),
}
RECORD_TYPE = {cls: name for name, (cls, _) in TOURNAMENT_RECORDS.items()}


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
