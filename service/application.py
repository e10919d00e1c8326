"""The eventsourcing Application and the service layer every entry point (API, CLI, bots) goes through.

Commands return ids and plain dicts; queries return plain dicts. Live games are kept in memory (an LRU
of aggregates) so a move costs one round trip to the database: the append. A per-game lock serialises
moves inside a process; across processes the store's unique (game, version) key lets exactly one land.
"""

from __future__ import annotations

import copy
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

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

from domain.errors import DomainError
from domain.games import GAMES, rules_for
from service import store
from service.aggregates import Game, Player, Tournament
from service.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    Unauthorized,
    Unavailable,
    from_domain,
)
from service.records import GENESIS, record_hash, seed_commitment, token_hash
from service.settings import Settings
from service.snapshots import SealingMapper, VerifyingRepository
from service.text import check_text

logger = logging.getLogger(__name__)


def _state_transcoding(kind: str, module: Any) -> Transcoding:
    """Snapshots hold a game's rules state; it is stored through the game's own codec."""

    class StateAsDict(Transcoding):
        type = module.GameState
        name = f"{kind}_state"

        def encode(self, obj: Any) -> dict[str, Any]:
            encoded: dict[str, Any] = module.state_to_dict(obj)
            return encoded

        def decode(self, data: Any) -> Any:
            return module.state_from_dict(data)

    return StateAsDict()


class DigsiteApplication(Application[UUID]):
    """The library's application with Digsite's codecs, and snapshots sealed with the server secret
    (``service.snapshots``): without ``server_secret`` no snapshot is read or written."""

    name = "Digsite"
    is_snapshotting_enabled = True

    def __init__(self, env: Mapping[str, str] | None = None, *, server_secret: Callable[[], bytes] | None = None):
        self._server_secret = server_secret
        super().__init__(env)

    def construct_snapshot_store(self) -> EventStore[UUID]:
        if self._server_secret is None:
            return None  # type: ignore[return-value]  # the library reads this as "no snapshots"
        recorder = self.factory.aggregate_recorder(purpose="snapshots")
        return self.factory.event_store(mapper=SealingMapper(self.mapper, self._server_secret), recorder=recorder)

    def construct_repository(self) -> Repository[UUID]:
        return VerifyingRepository(event_store=self.events, snapshot_store=self.snapshots)

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for kind, module in GAMES.items():
            transcoder.register(_state_transcoding(kind, module))


GAME_CREATED_TOPIC = get_topic(Game.Created)


@dataclass(frozen=True)
class Viewer:
    """Who is asking: the referee (an organiser) sees everything; a seat sees what that seat may see."""

    seat: int | None = None

    @property
    def referee(self) -> bool:
        return self.seat is None


REFEREE = Viewer(None)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _check_plain(value: Any, what: str, depth: int = 0) -> None:
    """Settings stored in records (bot tendencies, options, labels) must be plain JSON whose keys do not
    start with '_': the event store's transcoder reserves such objects for its own encoded types."""
    if depth > 8:
        raise BadRequest(f"{what} is nested too deeply", "malformed_request")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or key.startswith("_"):
                raise BadRequest(
                    f"{what} has a key {key!r}: keys are text and may not start with '_'", "malformed_request"
                )
            _check_plain(item, what, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_plain(item, what, depth + 1)
    elif not (value is None or isinstance(value, (str, int, float, bool))):
        raise BadRequest(f"{what} holds a {type(value).__name__}; only JSON values are stored", "malformed_request")


def _uuid(value: str | UUID, what: str) -> UUID:
    if isinstance(value, UUID):
        return value
    try:
        return UUID(str(value))
    except ValueError:
        raise NotFound(f"no {what} with id {value!r}", f"unknown_{what}") from None


class Digsite:
    """The service: create players, tournaments and games; play moves; read views and logs."""

    def __init__(self, settings: Settings | None = None, *, check_schema: bool = True) -> None:
        self.settings = settings or Settings.from_env()
        db = self.settings.database
        if check_schema:
            try:
                missing = store.pending(db)
            except store.StoreUnavailable as error:
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
        self.app = DigsiteApplication(
            env={**store.eventsourcing_env(db), **self.settings.extra_env}, server_secret=self.settings.server_secret
        )
        self._games: OrderedDict[UUID, Game] = OrderedDict()
        self._locks: dict[UUID, threading.Lock] = {}
        self._guard = threading.Lock()

    def store_health(self) -> store.Health:
        """A bounded check of the store (for /health): ``ok``, ``down`` or ``read_only``."""
        guard = getattr(getattr(self.app.recorder, "datastore", None), "guard", None)
        if guard is not None:  # PostgreSQL (service/pgrecorder.py)
            return guard.health()  # type: ignore[no-any-return]
        return store.sqlite_health(self.settings.database)

    def close(self) -> None:
        close_appenders = getattr(self.app.recorder, "close_append_connections", None)
        if close_appenders is not None:  # PostgreSQL's append connections (service/pgrecorder.py)
            close_appenders()
        self.app.close()

    # -- players and tournaments --------------------------------------------------------------------------

    def create_player(self, name: str, kind: str = "human", bot: dict[str, Any] | None = None) -> str:
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise BadRequest("a player needs a name of 1 to 100 characters", "invalid_player")
        check_text(name, "a player's name")
        if kind not in ("human", "bot"):
            raise BadRequest("a player's kind is 'human' or 'bot'", "invalid_player")
        if bot is not None and not isinstance(bot, dict):
            raise BadRequest("'bot' must be an object describing the bot and its tendencies", "invalid_player")
        _check_plain(bot, "'bot'")
        check_text(bot, "'bot'")
        player = Player.create(name=name.strip(), kind=kind, bot=bot, at=_now())
        self.app.save(player)
        return str(player.id)

    def player(self, player_id: str | UUID) -> dict[str, Any]:
        found = self._get(player_id, Player, "player")
        return {
            "id": str(found.id),
            "name": found.name,
            "kind": found.kind,
            "bot": found.bot,
            "created_at": found.created_at,
        }

    def create_tournament(self, name: str, rounds: int, game: str = "ruins") -> str:
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise BadRequest("a tournament needs a name of 1 to 200 characters", "invalid_tournament")
        check_text(name, "a tournament's name")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 1000:
            raise BadRequest("a tournament has 1 to 1000 rounds", "invalid_tournament")
        try:
            rules_for(game)
        except DomainError as error:
            raise from_domain(error) from None
        tournament = Tournament.create(name=name.strip(), rounds=rounds, game=game, at=_now())
        self.app.save(tournament)
        return str(tournament.id)

    def tournament(self, tournament_id: str | UUID) -> dict[str, Any]:
        found = self._get(tournament_id, Tournament, "tournament")
        return {
            "id": str(found.id),
            "name": found.name,
            "rounds": found.rounds,
            "game": found.game,
            "created_at": found.created_at,
        }

    def _get(self, aggregate_id: str | UUID, cls: type[Any], what: str) -> Any:
        uid = _uuid(aggregate_id, what)
        try:
            found = self.app.repository.get(uid)
        except AggregateNotFoundError:
            raise NotFound(f"no {what} with id {aggregate_id}", f"unknown_{what}") from None
        if not isinstance(found, cls):
            raise NotFound(f"no {what} with id {aggregate_id}", f"unknown_{what}")
        return found

    # -- games --------------------------------------------------------------------------------------------

    def create_game(
        self,
        kind: str,
        seats: list[str],
        options: dict[str, Any] | None = None,
        labels: dict[str, Any] | None = None,
        seed: str | None = None,
    ) -> dict[str, Any]:
        """Create a game; returns its id, version, seed commitment and one secret token per seat.

        The tokens are shown once: only their hashes are stored."""
        game, tokens = self._new_game(kind, seats, options, labels, seed)
        self.app.save(game)
        self._remember(game)
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
        game, _ = self._new_game(kind, seats, None, labels, seed)
        rules = rules_for(kind)
        snapshots = []
        interval = self.settings.snapshot_interval
        for data in actions:
            try:
                events = rules.decide(game.state, rules.action_from_dict(data))
            except DomainError as error:
                raise from_domain(error) from None
            before = game.version
            _record_move(game, rules, rules.action_from_dict(data), events)
            if interval and game.version // interval > before // interval:
                snapshots.append(Game.Snapshot.take(game))
        self.app.save(game)
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
    ) -> tuple[Game, list[str]]:
        try:
            rules = rules_for(kind)
        except DomainError as error:
            raise from_domain(error) from None
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise BadRequest("'seats' must be a list of player ids, one per seat", "invalid_setup")
        if options is not None and not isinstance(options, dict):
            raise BadRequest("'options' must be an object", "invalid_setup")
        _check_plain(options, "'options'")
        _check_plain(labels, "'labels'")
        check_text(options, "'options'")
        check_text(labels, "'labels'")
        labels = dict(labels or {})
        if labels.get("tournament") is not None:
            labels["tournament"] = self.tournament(labels["tournament"])["id"]
        names = [self.player(p)["name"] for p in seats]
        seed = seed if seed is not None else rules.new_seed()
        if not isinstance(seed, str) or not seed:
            raise BadRequest("'seed' must be a non-empty string", "invalid_setup")
        check_text(seed, "'seed'")
        try:
            opening = [rules.event_to_dict(e) for e in rules.start(names, options, seed)]
        except DomainError as error:
            raise from_domain(error) from None
        tokens = [secrets.token_urlsafe(24) for _ in seats]
        game_id = UUID(bytes=secrets.token_bytes(16), version=4)
        body: dict[str, Any] = {
            "kind": kind,
            "players": [str(_uuid(p, "player")) for p in seats],
            "names": names,
            "options": dict(options or {}),
            "labels": labels,
            "seed_commitment": seed_commitment(seed),
            "token_hashes": [token_hash(t) for t in tokens],
            "rules_version": rules.rules_version(),
            "opening": opening,
            "at": _now(),
        }
        return Game.create(game_id, **body, hash=record_hash(str(game_id), 1, GENESIS, body)), tokens

    def seat_for_token(self, game_id: str | UUID, token: str) -> int:
        game = self._load(_uuid(game_id, "game"))
        digest = token_hash(token)
        for seat, stored in enumerate(game.token_hashes):
            if secrets.compare_digest(stored, digest):
                return seat
        raise Unauthorized("this seat token does not belong to this game", "invalid_token")

    def submit(self, game_id: str | UUID, viewer: Viewer, version: Any, action: Any) -> dict[str, Any]:
        """Play ``action`` for the viewer's seat on top of ``version``; exactly one move per version lands."""
        if viewer.referee:
            raise Forbidden("moves are made with a seat's token, not the organiser key", "seat_token_required")
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("'version' must be the integer version you acted on", "malformed_request")
        uid = _uuid(game_id, "game")
        with self._lock(uid):
            game = self._load(uid)
            if game.version < version:
                game = self._fast_forward(game)  # another process (API worker) has moved the game on
            if game.version != version:
                raise Conflict(
                    f"the game is at version {game.version} but you acted on version {version}; reload and retry",
                    "stale_version",
                )
            rules = rules_for(game.kind)
            try:
                parsed = rules.action_from_dict(action)
                if parsed.seat != viewer.seat:
                    raise Forbidden(f"you hold seat {viewer.seat}, not seat {parsed.seat}", "not_your_seat")
                events = rules.decide(game.state, parsed)
            except DomainError as error:
                raise from_domain(error) from None
            game = copy.copy(game)  # the move is made on a copy: readers keep reading the cached game, whole
            game.__dict__["_pending_events"] = []
            body, over = _record_move(game, rules, parsed, events)
            try:
                self._append(game)
            except IntegrityError:
                self._forget(uid)
                raise Conflict("another move on this game landed first; reload and retry", "conflict") from None
            except BaseException:
                self._forget(uid)
                raise
            self._remember(game)
            self._snapshot_if_due(game, version)
            return {
                "version": game.version,
                "events": [rules.redact_event(e, viewer.seat, over) for e in body["events"]],
                "status": "over" if over else "playing",
            }

    def _append(self, game: Game) -> None:
        """Store the game's new records: the library's mapper and recorder, without the generic
        ``Application.save`` bookkeeping (protocol checks, processing events) that cost as much as the
        append on this path."""
        mapper = self.app.mapper
        self.app.recorder.insert_events([mapper.to_stored_event(e) for e in game.collect_events()])

    def _snapshot_if_due(self, game: Game, before: int) -> None:
        interval = self.settings.snapshot_interval
        if interval and self.app.snapshots is not None and game.version // interval > before // interval:
            try:
                self.app.snapshots.put([Game.Snapshot.take(game)])
            except (store.StoreUnavailable, OperationalError, InterfaceError) as error:
                # The move is stored and acknowledged; a snapshot is only a shortcut for reading it back.
                logger.warning("no snapshot of game %s at version %s: %s", game.id, game.version, error)

    # -- reading ------------------------------------------------------------------------------------------

    def game(self, game_id: str | UUID, viewer: Viewer = REFEREE, version: int | None = None) -> dict[str, Any]:
        """The game as ``viewer`` sees it, now or at ``version`` (from the nearest snapshot, then evolve)."""
        uid = _uuid(game_id, "game")
        game = self._current(uid)
        latest = game.version
        if version is not None and version != game.version:
            if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= game.version:
                raise NotFound(f"this game has versions 1 to {game.version}, not {version}", "unknown_version")
            game = self.app.repository.get(uid, version=version)
        rules = rules_for(game.kind)
        state = game.state
        over = rules.outcome(state) is not None
        out: dict[str, Any] = {
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
            "to_act": rules.to_act(state),
            "view": rules.view(state, viewer.seat),
        }
        if viewer.referee:
            out["last_hash"] = game.last_hash
        if viewer.seat is not None:
            legal = (
                rules.legal_actions(state, viewer.seat) if version is None or version == out["latest_version"] else []
            )
            out["seat"] = viewer.seat
            out["legal_actions"] = [rules.action_to_dict(a) for a in legal]
        return out

    def log(
        self, game_id: str | UUID, viewer: Viewer = REFEREE, after: int = 0, limit: int = 1000
    ) -> list[dict[str, Any]]:
        """The game's records after version ``after``, redacted for a seat until the game is over."""
        uid = _uuid(game_id, "game")
        game = self._load(uid)
        rules = rules_for(game.kind)
        over = game.seed is not None
        records = []
        for event in self.app.repository.event_store.get(uid, gt=after, limit=limit):
            record = record_of(event)
            if not viewer.referee and not over:
                record = redact_record(record, rules, viewer.seat)
            records.append(record)
        return records

    def stored_records(self, game_id: str | UUID) -> list[dict[str, Any]]:
        """Every record of a game, unredacted (for audits and export)."""
        uid = _uuid(game_id, "game")
        return [record_of(e) for e in self.app.repository.event_store.get(uid)]

    def import_game(
        self,
        records: list[dict[str, Any]],
        players: list[dict[str, Any]] | None = None,
        tournaments: list[dict[str, Any]] | None = None,
    ) -> list[str]:
        """Append a game's records exactly as given (same id, versions, hashes, bodies), with those of the
        ``players``/``tournaments`` (dicts as ``player()``/``tournament()`` return them) this store lacks, in
        one transaction. The caller verifies the records first (``service.transfer`` does). Returns the ids
        of the players and tournaments added; raises Conflict ``game_exists`` if the game id is taken."""
        uid = _uuid(records[0]["game"], "game")
        if self.app.recorder.select_events(uid, limit=1):
            raise Conflict(f"a game with id {uid} already exists in this store", "game_exists")
        game = Game.create(uid, **records[0]["body"], hash=records[0]["hash"])
        for record in records[1:]:
            fields = {**record["body"], "prev_hash": record["prev_hash"], "hash": record["hash"]}
            game.trigger_event(Game.MoveRecorded if record["type"] == "move" else Game.SeedRevealed, **fields)
        added: list[Any] = []
        for cls, found in ((Player, players or []), (Tournament, tournaments or [])):
            for data in found:
                given = {k: v for k, v in data.items() if k not in ("id", "created_at")}
                if not self.app.recorder.select_events(UUID(data["id"]), limit=1):
                    added.append(cls._create(cls.Created, id=UUID(data["id"]), **given, at=data["created_at"]))
        try:
            self.app.save(*added, game)
        except IntegrityError:
            raise Conflict(f"game {uid} or one of its players was written meanwhile", "game_exists") from None
        return [str(a.id) for a in added]

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
                    if created.labels.get("tournament") == tournament:  # type: ignore[attr-defined]
                        yield str(notification.originator_id)
            start = batch[-1].id

    # -- the live-game cache ------------------------------------------------------------------------------

    def _lock(self, uid: UUID) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(uid)
            if lock is None:
                lock = self._locks[uid] = threading.Lock()
            return lock

    def _load(self, uid: UUID) -> Game:
        with self._guard:
            game = self._games.get(uid)
            if game is not None:
                self._games.move_to_end(uid)
                return game
        try:
            found = self.app.repository.get(uid)
        except AggregateNotFoundError:
            raise NotFound(f"no game with id {uid}", "unknown_game") from None
        if not isinstance(found, Game):
            raise NotFound(f"no game with id {uid}", "unknown_game")
        self._remember(found)
        return found

    def _current(self, uid: UUID) -> Game:
        """The cached game, brought up to date if another process (another API worker) has moved it on."""
        return self._fast_forward(self._load(uid))

    def _fast_forward(self, game: Game) -> Game:
        """Apply the records stored after the cached version (usually one or two) to a copy of the game.

        One query for the new records instead of reloading the game from its last snapshot; the cached
        object itself is never changed, so a reader holding it sees a consistent game."""
        newer = list(self.app.repository.event_store.get(game.id, gt=game.version))
        if not newer:
            return game
        game = copy.copy(game)
        game.__dict__["_pending_events"] = []
        for event in newer:
            event.mutate(game)
        self._remember(game)
        return game

    def _remember(self, game: Game) -> None:
        with self._guard:
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > self.settings.cache_size:
                self._games.popitem(last=False)

    def _forget(self, uid: UUID) -> None:
        with self._guard:
            self._games.pop(uid, None)


def _record_move(game: Game, rules: Any, action: Any, events: list[Any]) -> tuple[dict[str, Any], bool]:
    """Append the record of a decided move to ``game`` (and the seed reveal when it ends the game)."""
    state = game.state
    for event in events:
        state = rules.evolve(state, event)
    body = {
        "seat": action.seat,
        "action": rules.action_to_dict(action),
        "events": [rules.event_to_dict(e) for e in events],
        "at": _now(),
        "rules_version": game.rules_version,  # the game's own version, even once a newer one is current
    }
    game_id = str(game.id)
    prev = game.last_hash
    game.record_move(state, **body, prev_hash=prev, hash=record_hash(game_id, game.version + 1, prev, body))
    over = rules.outcome(state) is not None
    if over:
        reveal = {"seed": state.seed, "at": body["at"]}
        prev = game.last_hash
        game.reveal_seed(**reveal, prev_hash=prev, hash=record_hash(game_id, game.version + 1, prev, reveal))
    return body, over


def record_of(event: Any) -> dict[str, Any]:
    """A stored Game event as an audit record (plain JSON)."""
    base = {"version": event.originator_version, "hash": event.hash}
    if isinstance(event, Game.Created):
        body = {
            "kind": event.kind,
            "players": event.players,
            "names": event.names,
            "options": event.options,
            "labels": event.labels,
            "seed_commitment": event.seed_commitment,
            "token_hashes": event.token_hashes,
            "rules_version": event.rules_version,
            "opening": event.opening,
            "at": event.at,
        }
        return {"type": "created", "game": str(event.originator_id), **base, "prev_hash": GENESIS, "body": body}
    if isinstance(event, Game.MoveRecorded):
        body = {
            "seat": event.seat,
            "action": event.action,
            "events": event.events,
            "at": event.at,
            "rules_version": event.rules_version,
        }
        return {"type": "move", "game": str(event.originator_id), **base, "prev_hash": event.prev_hash, "body": body}
    if isinstance(event, Game.SeedRevealed):
        body = {"seed": event.seed, "at": event.at}
        return {
            "type": "seed_revealed",
            "game": str(event.originator_id),
            **base,
            "prev_hash": event.prev_hash,
            "body": body,
        }
    raise ServiceError(f"not a game record: {type(event).__name__}")


def redact_record(record: dict[str, Any], rules: Any, seat: int | None) -> dict[str, Any]:
    """A record as a seat may read it while the game is on: hidden facts removed, and no hashes (a hash over
    a few hidden possibilities, like a secret flip, could be reversed by trying them all)."""
    body = dict(record["body"])
    if record["type"] == "created":
        body["opening"] = [rules.redact_event(e, seat, False) for e in body["opening"]]
        body.pop("token_hashes", None)
    elif record["type"] == "move":
        body["events"] = [rules.redact_event(e, seat, False) for e in body["events"]]
        if body["seat"] != seat and body["action"].get("type") == "flip":
            body["action"] = {**body["action"], "ruin": "hidden"}
    return {"type": record["type"], "game": record["game"], "version": record["version"], "body": body}
