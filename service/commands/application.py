"""The eventsourcing Application and the service layer every entry point (API, CLI, bots) goes through.

Commands return ids and plain dicts; queries return plain dicts. Every game is played through the registry
(``domain.games``): its rules decide, evolve, show views and redact. Each job of the service has its own module:
``service.caller_values`` checks what callers give, ``service.commands.live_games`` keeps the live games in memory
with a lock per game (a move costs one round trip to the database: the append), ``service.integrity.chain`` turns a
decided move into hash-chained records and a record into what a seat may read, ``service.commands.importing``
appends an exported game.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application, Repository
from eventsourcing.persistence import (
    EventStore,
    IntegrityError,
    InterfaceError,
    JSONTranscoder,
    OperationalError,
    Transcoding,
)
from eventsourcing.utils import get_topic

from domain import games as registry
from domain.errors import DomainError
from domain.protocol import AnyRules
from service.caller_values import check_plain, now, parse_uuid
from service.commands import results
from service.commands.importing import import_game
from service.commands.live_games import GameHandle, LiveGames
from service.commands.rounds import TournamentRounds
from service.commands.rulings import Rulings
from service.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    RuleRejected,
    Unavailable,
    from_domain,
)
from service.integrity.chain import record_clock_change, record_forfeit, record_move, record_of, redact_record
from service.integrity.records import GENESIS, record_hash, seed_commitment, token_hash
from service.settings import Settings
from service.store import backends, clocks, eventsourcing_workarounds
from service.store.aggregates import STOPPING, Game, Player, Seating, Tournament, ruled, seating_id, stopped
from service.store.snapshots import SealingMapper, VerifyingRepository
from service.stored_text import check_text

# Timeouts recorded at once for one game at most (a seat out of time on a per-move limit, whose default action
# leaves it to act, times out again at once; each seat's turn ends after a few): a bound, never reached in play.
TIMEOUTS_AT_ONCE = 64
CLOCK_CHANGES = ("pause", "resume", "add")

# Tries of one move that lose the race to the store to a move of another process (each such move is another
# seat's, made at the same time, or the try is refused as stale): bounded, since a game has at most a few seats.
MOVE_ATTEMPTS = 5

logger = logging.getLogger(__name__)


def _state_transcoding(game: registry.Game[Any, Any, Any]) -> Transcoding:
    """Snapshots hold a game's rules state; it is stored through the game's own codec."""
    rules = game.rules

    class StateAsDict(Transcoding):
        type = game.state_type
        name = f"{game.kind}_state"

        def encode(self, obj: Any) -> dict[str, Any]:
            return rules.state_to_dict(obj)

        def decode(self, data: Any) -> Any:
            return rules.state_from_dict(data)

    return StateAsDict()


class DigsiteApplication(Application[UUID]):
    """The library's application with Digsite's codecs, and snapshots sealed with the server secret
    (``service.store.snapshots``): without ``server_secret`` no snapshot is read or written."""

    name = "Digsite"
    is_snapshotting_enabled = True

    def __init__(self, env: Mapping[str, str] | None = None, *, server_secret: Callable[[], bytes] | None = None):
        self._server_secret = server_secret
        super().__init__(env)

    @classmethod
    def for_settings(cls, settings: Settings) -> DigsiteApplication:
        """The application over the store the settings name, snapshots sealed with the server secret."""
        env = {**backends.eventsourcing_env(settings.database), **settings.extra_env}
        return cls(env=env, server_secret=settings.server_secret)

    def construct_snapshot_store(self) -> EventStore[UUID]:
        if self._server_secret is None:
            return None  # type: ignore[return-value]  # the library reads this as "no snapshots"
        recorder = self.factory.aggregate_recorder(purpose="snapshots")
        return self.factory.event_store(mapper=SealingMapper(self.mapper, self._server_secret), recorder=recorder)

    def construct_repository(self) -> Repository[UUID]:
        return VerifyingRepository(event_store=self.events, snapshot_store=self.snapshots)

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for game in registry.GAMES.values():
            transcoder.register(_state_transcoding(game))


GAME_CREATED_TOPIC = get_topic(Game.Created)
# Bot players' ids follow from their names (Digsite.bot_player): a fixed namespace, never to change.
BOT_PLAYERS = UUID("5d0c1b52-4a8e-4f0e-9b57-2f0d6c1e7a31")


@dataclass(frozen=True)
class Viewer:
    """Who is asking: the referee (an organiser) sees everything; a seat sees what that seat may see."""

    seat: int | None = None

    @property
    def referee(self) -> bool:
        return self.seat is None


REFEREE = Viewer(None)


class Digsite:
    """The service: create players, tournaments and games; play moves; read views and logs."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        check_schema: bool = True,
        app_factory: Callable[[Settings], DigsiteApplication] | None = None,
        clock: Callable[[], str] = now,
    ) -> None:
        """``app_factory`` builds the library's application from the settings (``DigsiteApplication.for_settings``
        unless another is given); ``clock`` tells the time (ISO, UTC) moves and timeouts are recorded at (tests
        inject one: no test waits for a clock to run out)."""
        self.settings = settings or Settings.from_env()
        self.now = clock
        db = self.settings.database
        if check_schema:
            try:
                missing = backends.pending(db)
            except backends.StoreUnavailable as error:
                if db.backend != "postgresql":  # a file that cannot be read stays so
                    raise Unavailable(error.message, "store_unavailable") from None
                # A server that is down now may be back in a moment: serve (503s until then) rather than fail,
                # or a worker started during an outage (gunicorn replaces workers) would take the server down.
                logger.warning("the schema could not be checked: %s", error.message)
                missing = []
            if missing:
                raise Unavailable(
                    f"the database schema is not up to date (missing {', '.join(missing)}): run `digsite db upgrade`",
                    "schema_not_ready",
                )
        self.app = (app_factory or DigsiteApplication.for_settings)(self.settings)
        self.live = LiveGames(self.app.repository, self.settings.cache_size)
        self.reader = GameReader(self.settings.database, self.live, self.app.repository)
        # What must stop before the store closes (a push feed's thread reading it: service/serving/push.py). Python's
        # sqlite3 may crash the process when a connection is closed under a thread that is using it.
        self._on_close: list[Callable[[], None]] = []
        # Who hears of a move as soon as this process has stored it (the push channel's waits in this process:
        # service/serving/push.py), with the game as stored and the records the move appended.
        self._on_landed: list[Callable[[Game, list[Any]], None]] = []
        # Tournaments' entries and rounds; the next round is seated when a move ends the last table of one.
        self.rounds = TournamentRounds(self)
        self.on_landed(self.rounds.after_move)
        # An organiser's corrections, each a recorded ruling (never an edit).
        self.rulings = Rulings(self)

    def on_close(self, stop: Callable[[], None]) -> None:
        """Run ``stop`` when the service closes, before its store does."""
        self._on_close.append(stop)

    def on_landed(self, hear: Callable[[Game, list[Any]], None]) -> None:
        """Call ``hear(game, records)`` after each move this service stores (the game as it is once stored)."""
        self._on_landed.append(hear)

    def landed(self, game: Game, records: list[Any]) -> None:
        """Tell whoever listens (``on_landed``) that ``records`` of ``game`` were stored: a move's, or a ruling's."""
        for hear in self._on_landed:
            hear(game, records)

    def store_health(self) -> backends.Health:
        """A bounded check of the store (for /health): ``ok``, ``down`` or ``read_only``."""
        guard = getattr(getattr(self.app.recorder, "datastore", None), "guard", None)
        if guard is not None:  # PostgreSQL (service/store/pgrecorder.py)
            return guard.health()  # type: ignore[no-any-return]
        return backends.sqlite_health(self.settings.database)

    def close(self) -> None:
        for stop in self._on_close:
            stop()
        close_appenders = getattr(self.app.recorder, "close_append_connections", None)
        if close_appenders is not None:  # PostgreSQL's append connections (service/store/pgrecorder.py)
            close_appenders()
        self.app.close()

    # -- players and tournaments --------------------------------------------------------------------------

    def create_player(self, name: str, kind: str = "human", bot: dict[str, Any] | None = None) -> str:
        return self._create_player(name, kind, bot)

    def _create_player(self, name: str, kind: str, bot: dict[str, Any] | None, player_id: UUID | None = None) -> str:
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise BadRequest("a player needs a name of 1 to 100 characters", "invalid_player")
        check_text(name, "a player's name")
        if kind not in ("human", "bot"):
            raise BadRequest("a player's kind is 'human' or 'bot'", "invalid_player")
        if bot is not None and not isinstance(bot, dict):
            raise BadRequest("'bot' must be an object describing the bot and its tendencies", "invalid_player")
        check_plain(bot, "'bot'")
        check_text(bot, "'bot'")
        player = Player.create(player_id, name=name.strip(), kind=kind, bot=bot, at=now())
        self.app.save(player)
        return str(player.id)

    def bot_player(self, name: str, bot: dict[str, Any]) -> str:
        """The bot player called ``name``: created the first time, the same player every time after (its id follows
        from the name, case aside), so two bot runs with the same names seat the same players. A name already held
        by a bot with other settings is refused (409 ``bot_name_taken``): one player, one bot."""
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise BadRequest("a player needs a name of 1 to 100 characters", "invalid_player")
        player_id = uuid5(BOT_PLAYERS, name.strip().casefold())
        try:
            found: Any = self.app.repository.get(player_id)
        except AggregateNotFoundError:
            try:
                return self._create_player(name, "bot", bot, player_id)
            except IntegrityError:  # another run made it a moment ago: theirs must match, as below
                found = self.app.repository.get(player_id)
        if not isinstance(found, Player) or found.bot != json.loads(json.dumps(bot)):
            raise Conflict(
                f"a bot player named {found.name!r} already plays with other settings ({json.dumps(found.bot)}, "
                f"not {json.dumps(bot)}): give this bot another name",
                "bot_name_taken",
            )
        return str(player_id)

    def player(self, player_id: str | UUID) -> results.Player:
        return self.reader.player(player_id)

    def create_tournament(
        self,
        name: str,
        rounds: int,
        kind: str,
        options: dict[str, Any] | None = None,
        clock: dict[str, Any] | None = None,
    ) -> str:
        """A tournament of the game ``kind`` under the rule ``options`` (none: the game's defaults) and the time
        control ``clock`` (none: untimed), fixed now for every game of it (``_tournament_game``)."""
        control = clocks.check_control(clock)
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise BadRequest("a tournament needs a name of 1 to 200 characters", "invalid_tournament")
        check_text(name, "a tournament's name")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 1000:
            raise BadRequest("a tournament has 1 to 1000 rounds", "invalid_tournament")
        found = _game(kind)
        _options_in_full(found, options)  # (checks them)
        fixed = dict(options or {})
        try:  # the options must make a game: the engine sets up the smallest table with them
            found.rules.start([f"seat {i}" for i in range(found.schemas.seats.low)], fixed, found.rules.new_seed())
        except DomainError as error:
            raise from_domain(error) from None
        tournament = Tournament.create(
            name=name.strip(), rounds=rounds, game=kind, at=now(), options=fixed, clock=control
        )
        self.app.save(tournament)
        return str(tournament.id)

    def tournament(self, tournament_id: str | UUID) -> results.Tournament:
        return self.reader.tournament(tournament_id)

    def _get(self, aggregate_id: str | UUID, cls: type[Any], what: str) -> Any:
        return self.reader.aggregate(aggregate_id, cls, what)

    # -- games --------------------------------------------------------------------------------------------

    def create_game(
        self,
        kind: str,
        seats: list[str],
        options: dict[str, Any] | None = None,
        labels: dict[str, Any] | None = None,
        seed: str | None = None,
        clock: dict[str, Any] | None = None,
    ) -> results.GameCreated:
        """Create a game; returns its id, version, seed commitment and one secret token per seat. ``clock``: its
        time control (``service.store.clocks``; a tournament's game plays under the tournament's).

        The tokens are shown once: only their hashes are stored. A game for a tournament whose rounds are seated
        here is refused (409 ``tournament_seated_here``): its games come from seating a round."""
        game, tokens, seating = self._new_game(kind, seats, options, labels, seed, clock, direct=True)
        self._save_new(game, seating)
        self.live.remember(game)
        return {
            "id": str(game.id),
            "version": game.version,
            "seed_commitment": game.seed_commitment,
            "tokens": [
                {"seat": i, "player": p, "token": t} for i, (p, t) in enumerate(zip(seats, tokens, strict=True))
            ],
        }

    def store_scripted_game(
        self,
        kind: str,
        seats: list[str],
        actions: list[dict[str, Any]],
        labels: dict[str, Any] | None = None,
        seed: str | None = None,
    ) -> str:
        """Create a game and play ``actions`` (JSON forms, in order) in memory, then store every record in
        one transaction. Each action is decided exactly as ``submit`` would; for generating large stores
        (benchmarks, demo data) where one commit per move would dominate. Returns the game id."""
        game, _, seating = self._new_game(kind, seats, None, labels, seed, direct=True)  # (created directly too)
        rules = _rules(kind)
        snapshots = []
        interval = self.settings.snapshot_interval
        for data in actions:
            try:
                action = rules.action_from_dict(data)
                events, after = rules.step(game.state, action)
            except DomainError as error:
                raise from_domain(error) from None
            before = game.version
            record_move(game, rules, action, events, after)
            if interval and game.version // interval > before // interval:
                snapshots.append(Game.Snapshot.take(game))
        self._save_new(game, seating)
        if snapshots and self.app.snapshots is not None:
            self.app.snapshots.put(snapshots)
        return str(game.id)

    def _new_game(
        self,
        kind: str,
        seats: list[str],
        options: dict[str, Any] | None,
        labels: dict[str, Any] | None,
        seed: str | None,
        clock: dict[str, Any] | None = None,
        game_id: UUID | None = None,
        tokens: list[str] | None = None,
        direct: bool = False,
    ) -> tuple[Game, list[str], Seating | None]:
        """A new game (not stored yet), its seat tokens, and for a game at a table of a tournament round, the
        seating to store with it (``_save_new``). A tournament's game is checked against the tournament; one
        created ``direct``ly (``create_game``, ``store_scripted_game``; not a seated round's game, nor a ruling's
        restart) is refused in a tournament whose rounds are seated here (``_refuse_seated``).
        ``game_id`` and ``tokens`` are drawn at random unless given (a seated round's links are derived from the
        server secret: ``service.commands.rounds``)."""
        found = _game(kind)
        rules = found.rules
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise BadRequest("'seats' must be a list of player ids, one per seat", "invalid_setup")
        if len(seats) not in found.schemas.seats:
            low, high = found.schemas.seats.low, found.schemas.seats.high
            raise BadRequest(f"{found.title} seats {low} to {high} players, not {len(seats)}", "invalid_setup")
        if options is not None and not isinstance(options, dict):
            raise BadRequest("'options' must be an object", "invalid_setup")
        check_plain(options, "'options'")
        check_plain(labels, "'labels'")
        check_text(options, "'options'")
        check_text(labels, "'labels'")
        labels = dict(labels or {})
        control = clocks.check_control(clock)
        players = [str(parse_uuid(p, "player")) for p in seats]
        seating = None
        if labels.get("tournament") is not None:
            stored: Tournament = self._get(labels["tournament"], Tournament, "tournament")
            if direct:
                _refuse_seated(stored)
            tournament = tournament_summary(stored)
            labels["tournament"] = tournament["id"]
            options = _tournament_game(tournament, found, options, players)
            control = _tournament_clock(tournament, control)
            if labels.get("round") is not None and labels.get("table") is not None:
                seating = seating_id(tournament["id"], labels["round"], labels["table"], players)
        names = [self.player(p)["name"] for p in seats]
        seed = seed if seed is not None else rules.new_seed()
        if not isinstance(seed, str) or not seed:
            raise BadRequest("'seed' must be a non-empty string", "invalid_setup")
        check_text(seed, "'seed'")
        try:
            opening = [rules.event_to_dict(e) for e in rules.start(names, options, seed)]
        except DomainError as error:
            raise from_domain(error) from None
        tokens = tokens if tokens is not None else [secrets.token_urlsafe(24) for _ in seats]
        game_id = game_id or UUID(bytes=secrets.token_bytes(16), version=4)
        body: dict[str, Any] = {
            "kind": kind,
            "players": players,
            "names": names,
            "options": dict(options or {}),
            "labels": labels,
            "seed_commitment": seed_commitment(seed),
            "token_hashes": [token_hash(t) for t in tokens],
            "rules_version": rules.rules_version(),
            "opening": opening,
            "at": self.now(),
        }
        if control is not None:  # (an untimed game's record 1 holds no clock: as every game before clocks)
            body["clock"] = control
        hashed = record_hash(str(game_id), 1, GENESIS, body)
        game = Game.create(game_id, **{"clock": None, **body}, hash=hashed)
        return game, tokens, (None if seating is None else Seating.create(seating, str(game_id)))

    def _save_new(self, game: Game, seating: Seating | None) -> None:
        """Store a new game, with its seating in the same transaction: the store refuses a seating it holds
        already, and so the game of the same players at the same table of the same round (409
        ``duplicate_game``)."""
        if seating is None:
            self.app.save(game)
            return
        try:
            self.app.save(seating, game)
        except IntegrityError:
            if not self.app.recorder.select_events(seating.id, limit=1):
                raise  # (not the seating: let the caller see what it was)
            first: Any = self.app.repository.get(seating.id)
            if first.game == str(game.id):
                return  # (stored by a try the store answered too late for: a connection replaced mid-insert)
            labels = game.labels
            raise Conflict(
                f"these players already have a game at table {labels['table']} of round {labels['round']} of "
                f"this tournament (game {first.game}): a second one would count their result twice",
                "duplicate_game",
            ) from None

    def kind_of(self, game_id: str | UUID) -> str:
        """Which game this is (its kind, as registered in ``domain.games``)."""
        return self.handle(game_id).kind

    def seat_for_token(self, game_id: str | UUID, token: str) -> int:
        return self.handle(game_id).seat_for_token(token)

    def handle(self, game_id: str | UUID) -> GameHandle:
        """One request's hold on a game: looked up once (when first asked), then asked for the seat a token
        holds, the game's kind and the move itself (``submit``), so a move's request loads its game once."""
        return GameHandle(self.live, parse_uuid(game_id, "game"))

    def submit(self, game_id: str | UUID, viewer: Viewer, version: Any, action: Any) -> results.MoveAcknowledged:
        """Play ``action`` for the viewer's seat on top of ``version``; exactly one move per version lands
        (``move``, on the game looked up by its id)."""
        return self.move(self.handle(game_id), viewer, version, action)

    def move(self, handle: GameHandle, viewer: Viewer, version: Any, action: Any) -> results.MoveAcknowledged:
        """Play ``action`` for the viewer's seat on top of ``version`` in the game ``handle`` holds (a request
        that checked the seat's token on it passes it on: the game is looked up once); exactly one move per
        version lands."""
        if viewer.referee:
            raise Forbidden("moves are made with a seat's token, not the organiser key", "seat_token_required")
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("'version' must be the integer version you acted on", "malformed_request")
        uid = handle.uid
        with self.live.locked(uid):
            # A move of another process may land between our read and our append: the store refuses ours, and
            # it is tried again on the game as it now is, where it still stands only if that move was a secret
            # choice made at the same time (``_still_stands``); otherwise the retry refuses it as stale.
            # (The first try starts from the game the handle holds: a move this process made on it since is
            # caught the same way, by the store's refusal, and the retry reads the game as it now is.)
            for attempt in range(MOVE_ATTEMPTS):
                try:
                    game = handle.game if attempt == 0 else self.live.load(uid)
                    return self._try_move(game, viewer, version, action, reread=attempt > 0)
                except IntegrityError:
                    continue
            self.live.forget(uid)
            raise Conflict("another move on this game landed first; reload and retry", "conflict")

    def _try_move(
        self, game: Game, viewer: Viewer, version: int, action: Any, reread: bool
    ) -> results.MoveAcknowledged:
        """One try at a move (under the game's lock): decided on the cached game (brought up to date if the
        client acted on a newer version, or if a try before lost the race), appended to the store."""
        uid = game.id
        if reread or game.version < version:
            game = self.live.fast_forward(game)  # another process (API worker) has moved the game on
        at = None
        if game.clock is not None:  # a timed game: seats out of time are timed out before any move is played
            at = self.now()
            game, timed_out = self._time_out(game, at)
            if viewer.seat in timed_out:
                raise Conflict(
                    "your time ran out before this move arrived: the game played its default move for you",
                    "out_of_time",
                )
            if game.clock is not None and game.clock["paused"]:
                raise Conflict("the organiser has paused this table: no move until it resumes", "table_paused")
        if game.forfeit is not None:
            raise RuleRejected("this game is over: a seat forfeited it when its time ran out", "game_over")
        rules = _rules(game.kind)
        stopped = [r for r in ruled(game) if r["ruling"] in STOPPING]
        if stopped:
            raise Conflict(
                f"this game was ruled '{stopped[0]['ruling']}' by the organiser at version {stopped[0]['version']}: "
                "no move is played on it any more",
                "game_stopped",
            )
        if game.version != version and not self._still_stands(game, rules, version, viewer.seat):
            raise Conflict(
                f"the game is at version {game.version} but you acted on version {version}; reload and retry",
                "stale_version",
            )
        try:
            parsed = rules.action_from_dict(action)
            if parsed.seat != viewer.seat:
                raise Forbidden("you hold {held}, not {seat}", "not_your_seat", held=viewer.seat, seat=parsed.seat)
            events, after = rules.step(game.state, parsed)
        except DomainError as error:
            raise from_domain(error) from None
        before = game.version  # (the client's version, or a later one its move still stands on)
        game = eventsourcing_workarounds.detached_copy(
            game
        )  # the move is made on a copy: readers keep the cached game, whole
        body, over = record_move(game, rules, parsed, events, after, at)
        try:
            records = self._append(game)
        except IntegrityError:
            raise  # (the cached game stays: the next try brings it up to date)
        except BaseException:
            self.live.forget(uid)
            raise
        self.live.remember(game)
        self.landed(game, records)
        self._snapshot_if_due(game, before)
        return {
            "version": game.version,
            "events": [rules.redact_event(e, viewer.seat, over) for e in body["events"]],
            "status": "over" if over else "playing",
            "to_act": rules.to_act(after),
        }

    def _time_out(self, game: Game, at: str) -> tuple[Game, list[int]]:
        """Record a timeout for every seat whose time has run out by ``at`` (the game's default action for it, as
        the game names it: ``timeout_action``), appended at once (under the game's lock): returns the game as
        stored and the seats timed out. Two processes noticing at once append at the same version: the store lets
        one in, and the other's ``IntegrityError`` sends its caller to read the game again."""
        rules = _rules(game.kind)
        timed_out: list[int] = []
        before = game.version
        for _ in range(TIMEOUTS_AT_ONCE):
            due = clocks.overdue(game.clock, at)
            if due is None or game.seed is not None or stopped(game):
                break
            seat, deadline = due
            if clocks.forfeits(game.time_control):  # the tournament's rule: the seat forfeits, the game ends
                if not timed_out:
                    game = eventsourcing_workarounds.detached_copy(game)
                result = clocks.forfeit_result(rules.progress(game.state).scores, seat)
                record_forfeit(game, seat, clocks.iso(deadline), result, at)
                timed_out.append(seat)
                break
            action = rules.timeout_action(game.state, seat)
            if action is None:  # (a running seat is one the game has to act: never, unless a game is wrong)
                logger.error("game %s: seat %s is out of time but has nothing to play", game.id, seat)
                break
            events, after = rules.step(game.state, action)
            if not timed_out:
                game = eventsourcing_workarounds.detached_copy(game)
            record_move(game, rules, action, events, after, at, clocks.iso(deadline))
            timed_out.append(seat)
        if not timed_out:
            return game, []
        try:
            records = self._append(game)
        except IntegrityError:
            raise  # (another process recorded them, or a move, first: the caller reads the game again)
        except BaseException:
            self.live.forget(game.id)
            raise
        self.live.remember(game)
        for hear in self._on_landed:
            hear(game, records)
        self._snapshot_if_due(game, before)
        return game, timed_out

    def enforce_clock(self, game_id: str | UUID) -> list[int]:
        """Record the timeouts now due in the game (none for an untimed or finished game): what the background
        sweep (service/serving/clock_sweep.py) asks of every game in play; returns the seats timed out."""
        uid = parse_uuid(game_id, "game")
        with self.live.locked(uid):
            for _ in range(MOVE_ATTEMPTS):
                game = self.live.current(uid)
                if game.clock is None or game.seed is not None or stopped(game):
                    return []
                try:
                    return self._time_out(game, self.now())[1]
                except IntegrityError:
                    continue  # another process recorded something first: read the game as it now is
            return []

    def change_clock(
        self,
        game_id: str | UUID,
        change: Any,
        reason: Any,
        seconds: Any = None,
        seat: Any = None,
    ) -> results.ClockChange:
        """The organiser pauses the table (``change`` "pause"), resumes it ("resume"), or gives ``seconds`` more to
        ``seat`` (None: every seat; "add"), for ``reason``: a ``clock`` record. Timeouts already due are recorded
        first (time that ran out is not given back by a pause)."""
        if change not in CLOCK_CHANGES:
            raise BadRequest("'change' is one of pause, resume, add", "invalid_clock_change")
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
            raise BadRequest("a change of the clock needs a 'reason' of 1 to 500 characters", "invalid_clock_change")
        check_text(reason, "a reason")
        uid = parse_uuid(game_id, "game")
        with self.live.locked(uid):
            for _ in range(MOVE_ATTEMPTS):
                game = self.live.current(uid)
                if seat is not None and (
                    change != "add"
                    or isinstance(seat, bool)
                    or not isinstance(seat, int)
                    or not 0 <= seat < len(game.players)
                ):
                    raise BadRequest(
                        f"'seat' is a seat of this game (0 to {len(game.players) - 1}) when adding time",
                        "invalid_clock_change",
                    )
                if change == "add":
                    clocks.check_control({"per_move": seconds})  # (a number of seconds above 0: 400 invalid_clock)
                elif seconds is not None:
                    raise BadRequest("'seconds' is given only when adding time", "invalid_clock_change")
                if game.clock is None:
                    raise Conflict("this game is played without a clock", "no_clock")
                if game.seed is not None:
                    raise Conflict("this game is over", "game_over")
                if stopped(game):
                    raise Conflict("an organiser's ruling stopped this game: its clock is stopped", "game_stopped")
                try:
                    at = self.now()
                    game, _ = self._time_out(game, at)
                    if game.seed is not None:
                        raise Conflict("this game ended with the timeouts now due", "game_over")
                    paused = bool(game.clock and game.clock["paused"])
                    if change == "pause" and paused:
                        raise Conflict("this table is paused already", "table_paused")
                    if change == "resume" and not paused:
                        raise Conflict("this table is not paused", "table_not_paused")
                    before = game.version
                    game = eventsourcing_workarounds.detached_copy(game)
                    record_clock_change(game, change, seat, seconds, reason.strip(), at)
                    records = self._append(game)
                except IntegrityError:
                    continue
                self.live.remember(game)
                for hear in self._on_landed:
                    hear(game, records)
                self._snapshot_if_due(game, before)
                return {
                    "version": game.version,
                    "clock": cast(results.Clock, clocks.shown(game.clock, game.time_control)),
                }
            raise Conflict("another record on this game landed first; retry", "conflict")

    def _still_stands(self, game: Game, rules: AnyRules, version: int, seat: int | None) -> bool:
        """Whether a move the seat chose on ``version``, which the game has since passed, may be played on the game
        as it is: only if every move since was another seat's and the game says they change nothing this seat
        could see or choose (the game's ``unaffected``: secret choices made at the same time). A
        move of the seat's own since means this one is a repeat (its answer lost, say), refused as before."""
        # (each other seat moves at most once in a choice made at once: a version further back is stale without
        # reading anything, so an old version posted again and again costs no more than before)
        if seat is None or not 0 < version < game.version or game.version - version >= len(game.players):
            return False
        since = list(self.app.repository.event_store.get(game.id, gt=version, lte=game.version))
        moves = [r for r in since if isinstance(r, Game.MoveRecorded)]
        if len(moves) != len(since) or any(r.seat == seat for r in moves):
            return False
        return rules.unaffected([rules.event_from_dict(e) for r in moves for e in r.events], seat)

    def _append(self, game: Game) -> list[Any]:
        """Store the game's new records (and return them), past ``Application.save``'s bookkeeping
        (``eventsourcing_workarounds.append`` says why)."""
        records = list(game.collect_events())
        eventsourcing_workarounds.append(self.app, records)
        return records

    def _snapshot_if_due(self, game: Game, before: int) -> None:
        interval = self.settings.snapshot_interval
        if interval and self.app.snapshots is not None and game.version // interval > before // interval:
            try:
                self.app.snapshots.put([Game.Snapshot.take(game)])
            except (backends.StoreUnavailable, OperationalError, InterfaceError) as error:
                # The move is stored and acknowledged; a snapshot is only a shortcut for reading it back.
                logger.warning("no snapshot of game %s at version %s: %s", game.id, game.version, error)

    # -- reading ------------------------------------------------------------------------------------------

    def game(self, game_id: str | UUID, viewer: Viewer = REFEREE, version: int | None = None) -> results.Game:
        """The game as ``viewer`` sees it, now or at ``version`` (from the nearest snapshot, then evolve)."""
        return self.reader.game(game_id, viewer, version)

    def game_as_seen(self, game: Game, viewer: Viewer, latest: int | None = None) -> results.Game:
        """``game`` (at its version; the game's latest is ``latest``, by default that same version) as
        ``viewer`` sees it: what ``game`` answers, for a caller that already holds the game (the push channel)."""
        return game_as_seen(game, viewer, latest)

    def log(
        self, game_id: str | UUID, viewer: Viewer = REFEREE, after: int = 0, limit: int = 1000
    ) -> list[results.Record]:
        """The game's records after version ``after``, redacted for a seat until the game is over."""
        return self.reader.log(game_id, viewer, after, limit)

    def records_as_seen(self, game: Game, events: Iterable[Any], viewer: Viewer) -> list[results.Record]:
        """``events`` (stored records of ``game``) as ``viewer`` may read them (``records_as_seen``)."""
        return records_as_seen(game, events, viewer)

    def stored_records(self, game_id: str | UUID) -> list[dict[str, Any]]:
        """Every record of a game, unredacted (for audits and export)."""
        return self.reader.stored_records(game_id)

    def import_game(
        self,
        records: list[dict[str, Any]],
        players: list[dict[str, Any]] | None = None,
        tournaments: list[dict[str, Any]] | None = None,
    ) -> list[str]:
        """Append a game's records exactly as given, with the players and tournaments this store lacks, in one
        transaction (``service.commands.importing.import_game``); the caller verifies the records first."""
        return import_game(self.app, records, players, tournaments)

    def _current(self, uid: UUID) -> Game:
        """The game as stored now (the live cache, brought up to date)."""
        return self.live.current(uid)

    def game_ids(self, tournament: str | None = None) -> Iterator[str]:
        """Every stored game id in creation order (optionally only one tournament's)."""
        start = None
        while True:
            batch = self.app.recorder.select_notifications(
                start=start, limit=500, topics=[GAME_CREATED_TOPIC], inclusive_of_start=False
            )
            if not batch:
                return
            for notification in batch:
                if tournament is None:
                    yield str(notification.originator_id)
                else:
                    created = self.app.mapper.to_domain_event(notification)
                    if isinstance(created, Game.Created) and created.labels.get("tournament") == tournament:
                        yield str(notification.originator_id)
            start = batch[-1].id


class GameReader:
    """What is stored, read only: a game as a seat sees it, its records and log, a state at a version, the seat a
    token opens; a player, a tournament. What the read side (``service.reading.read_port.ReadPort``, the API's read
    routes) may ask of the write side's store, and nothing that writes (no ``Digsite``: the read side cannot play a
    move). Shares the service's live games, so a game being played is not loaded twice."""

    def __init__(self, database: Any, live: LiveGames, repository: Any) -> None:
        self.database = database
        self._live = live
        self._repository = repository

    def game(self, game_id: str | UUID, viewer: Viewer = REFEREE, version: int | None = None) -> results.Game:
        """The game as ``viewer`` sees it, now or at ``version`` (from the nearest snapshot, then evolve)."""
        uid = parse_uuid(game_id, "game")
        game = self._live.current(uid)
        latest = game.version
        if version is not None and version != game.version:
            if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= game.version:
                raise NotFound(f"this game has versions 1 to {game.version}, not {version}", "unknown_version")
            game = self._repository.get(uid, version=version)
        return game_as_seen(game, viewer, latest)

    def state_at(self, game_id: str | UUID, version: int) -> Any:
        """The game's state at ``version`` (from the nearest snapshot, then evolve)."""
        return self._repository.get(parse_uuid(game_id, "game"), version=version).state

    def stored_records(self, game_id: str | UUID) -> list[dict[str, Any]]:
        """Every record of a game, unredacted (for audits and export)."""
        uid = parse_uuid(game_id, "game")
        return [record_of(e) for e in self._repository.event_store.get(uid)]

    def latest_version(self, game_id: str | UUID) -> int:
        """The game's version now (from the cached game, brought up to date: no view is built)."""
        version: int = self._live.current(parse_uuid(game_id, "game")).version
        return version

    def game_clock(self, game_id: str | UUID) -> dict[str, Any] | None:
        """The game's time control (None: untimed), which never changes (the cached game, as first read)."""
        control: dict[str, Any] | None = self._live.load(parse_uuid(game_id, "game")).time_control
        return control

    def over_at(self, game_id: str | UUID) -> int | None:
        """The game's last version if it is over (its seed revealed), else None (the cached game: no view built)."""
        game = self._live.current(parse_uuid(game_id, "game"))
        return int(game.version) if game.seed is not None else None

    def seat_for_token(self, game_id: str | UUID, token: str) -> int:
        """The seat ``token`` opens in this game (401 ``invalid_token`` for any other token)."""
        return GameHandle(self._live, parse_uuid(game_id, "game")).seat_for_token(token)

    def log(
        self, game_id: str | UUID, viewer: Viewer = REFEREE, after: int = 0, limit: int = 1000
    ) -> list[results.Record]:
        """The game's records after version ``after``, redacted for a seat until the game is over."""
        uid = parse_uuid(game_id, "game")
        game = self._live.load(uid)
        return records_as_seen(game, self._repository.event_store.get(uid, gt=after, limit=limit), viewer)

    def player(self, player_id: str | UUID) -> results.Player:
        found = self.aggregate(player_id, Player, "player")
        return {
            "id": str(found.id),
            "name": found.name,
            "kind": found.kind,
            "bot": found.bot,
            "created_at": found.created_at,
        }

    def tournament(self, tournament_id: str | UUID) -> results.Tournament:
        return tournament_summary(self.aggregate(tournament_id, Tournament, "tournament"))

    def aggregate(self, aggregate_id: str | UUID, cls: type[Any], what: str) -> Any:
        """The stored player, tournament or game ``aggregate_id`` (404 ``unknown_<what>`` unless it is a ``cls``)."""
        uid = parse_uuid(aggregate_id, what)
        try:
            found: Any = self._repository.get(uid)
        except AggregateNotFoundError:
            raise NotFound(f"no {what} with id {aggregate_id}", f"unknown_{what}") from None
        if not isinstance(found, cls):
            raise NotFound(f"no {what} with id {aggregate_id}", f"unknown_{what}")
        return found


def records_as_seen(game: Game, events: Iterable[Any], viewer: Viewer) -> list[results.Record]:
    """``events`` (stored records of ``game``) as ``viewer`` may read them: redacted for a seat until the game is
    over (as ``game`` says it is)."""
    rules = _rules(game.kind)
    over = game.seed is not None
    records = []
    for event in events:
        record = record_of(event)
        if not viewer.referee and not over:
            record = redact_record(record, rules, viewer.seat)
        records.append(cast(results.Record, record))  # (the records' format is integrity.chain's, below)
    return records


def seats_to_act(game: Game) -> list[int]:
    """The seats that may act in ``game`` now: the game's ``to_act``, and nobody while the organiser has paused the
    table (so clients wait for the resume, a record, instead of posting moves that are refused) or once a seat has
    forfeited it."""
    if (game.clock is not None and game.clock["paused"]) or game.forfeit is not None:
        return []
    return _rules(game.kind).to_act(game.state)


def game_as_seen(game: Game, viewer: Viewer, latest: int | None = None) -> results.Game:
    """``game`` (at its version; the game's latest is ``latest``, by default that same version) as
    ``viewer`` sees it: what ``game`` answers, for a caller that already holds the game (the push channel)."""
    latest = game.version if latest is None else latest
    version = game.version
    rules = _rules(game.kind)
    state = game.state
    result = rules.result(state)
    forfeited = None if game.forfeit is None else cast(results.GameResult, game.forfeit["result"])
    over = result is not None or forfeited is not None
    out: results.Game = {
        "id": str(game.id),
        "kind": game.kind,
        "version": game.version,
        "latest_version": latest,
        "status": "over" if over else "playing",
        "players": [
            {"seat": i, "id": p, "name": n} for i, (p, n) in enumerate(zip(game.players, game.names, strict=True))
        ],
        "labels": game.labels,
        "options": game.options,
        "rules_version": game.rules_version,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "seed_commitment": game.seed_commitment,
        "seed": game.seed,
        "to_act": seats_to_act(game),
        "result": forfeited
        if forfeited is not None
        else None
        if result is None
        else cast(results.GameResult, result.to_dict()),  # (domain.protocol's)
        "view": rules.view(state, viewer.seat),
        "clock": cast("results.Clock | None", clocks.shown(game.clock, game.time_control)),
    }
    if viewer.referee:
        out["last_hash"] = game.last_hash
    if viewer.seat is not None:
        paused = not out["to_act"] and game.clock is not None  # (a paused or forfeited table: no move offered)
        legal = rules.legal_actions(state, viewer.seat) if version == latest and not paused else []
        out["seat"] = viewer.seat
        out["legal_actions"] = [rules.action_to_dict(a) for a in legal]
    return out


def _game(kind: str) -> registry.Game[Any, Any, Any]:
    try:
        return registry.game(kind)
    except DomainError as error:
        raise from_domain(error) from None


def _rules(kind: str) -> AnyRules:
    return _game(kind).rules


def _options_in_full(game: registry.Game[Any, Any, Any], options: dict[str, Any] | None) -> dict[str, Any]:
    """``options`` with the game's default for every option it leaves out (from the game's options schema), so
    that options that ask for the same game compare equal (Arnak's ``{}`` and ``{"side": "bird"}``, say)."""
    if options is not None and not isinstance(options, dict):
        raise BadRequest("'options' must be an object", "invalid_setup")
    check_plain(options, "'options'")
    check_text(options, "'options'")
    properties = game.schemas.options.get("properties", {})
    defaults = {name: spec["default"] for name, spec in properties.items() if "default" in spec}
    return {**defaults, **(options or {})}


def tournament_summary(found: Tournament) -> results.Tournament:
    """A stored tournament as the API shows it."""
    out: results.Tournament = {
        "id": str(found.id),
        "name": found.name,
        "rounds": found.rounds,
        "game": found.game,
        "options": found.options,
        "created_at": found.created_at,
    }
    if found.clock is not None:  # (an untimed tournament reads as every tournament did before clocks)
        out["clock"] = found.clock
    return out


def _refuse_seated(tournament: Tournament) -> None:
    """A tournament is seated here (``TournamentRounds``) or by hand (games created with its labels), never both: a
    game created directly beside seated rounds would count under its round beside the seated tables (the other way
    round, ``TournamentRounds.seat_round`` refuses with ``games_created_directly``)."""
    if tournament.seated:
        raise Conflict(
            f"this tournament's rounds are seated here ({len(tournament.seated)} of {tournament.rounds} so far): its "
            "games are made by seating a round (a CSV seating for tables chosen by hand), not one at a time; a game "
            "created directly would count beside the seated ones",
            "tournament_seated_here",
        )


def _tournament_clock(tournament: results.Tournament, control: dict[str, Any] | None) -> dict[str, Any] | None:
    """The time control of a new game of ``tournament``: the tournament's; a game may name it again, no other."""
    fixed = tournament.get("clock")  # (absent: an untimed tournament)
    if fixed is not None and control is not None and control != fixed:
        raise BadRequest(
            f"this tournament plays under the clock {json.dumps(fixed, sort_keys=True)}: leave 'clock' out to play it",
            "tournament_clock_mismatch",
        )
    return control if fixed is None else dict(fixed)


def _tournament_game(
    tournament: results.Tournament,
    game: registry.Game[Any, Any, Any],
    options: dict[str, Any] | None,
    players: list[str],
) -> dict[str, Any] | None:
    """The rule options of a new game of ``tournament``: its own if given (they must ask for the tournament's
    game), else the tournament's. Refused: another game, other options, a player in two seats."""
    if game.kind != tournament["game"]:
        raise BadRequest(
            f"this tournament plays {_game(tournament['game']).title}, not {game.title}: its standings compare "
            "games of one kind",
            "tournament_game_mismatch",
        )
    fixed = tournament["options"]
    if fixed is not None:  # (None: a tournament made before tournaments held their options)
        if options is None:
            options = dict(fixed)
        elif _options_in_full(game, options) != _options_in_full(game, fixed):
            raise BadRequest(
                f"this tournament plays {game.title} with the options "
                f"{json.dumps(_options_in_full(game, fixed), sort_keys=True)}, not "
                f"{json.dumps(_options_in_full(game, options), sort_keys=True)}: leave 'options' out to play its "
                "own",
                "tournament_options_mismatch",
            )
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise BadRequest(
            f"player {twice[0]} holds more than one seat: a player sits once at a tournament's table",
            "player_seated_twice",
        )
    return options


__all__ = ["REFEREE", "Digsite", "DigsiteApplication", "Viewer", "record_of", "redact_record", "seats_to_act"]
