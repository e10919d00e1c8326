"""The live games a service process keeps in memory: an LRU of game aggregates, so a move costs one round trip
to the store (the append), and a lock per game, so moves on one game are made one at a time in this process
(across processes the store's unique (game, version) key lets exactly one land). A game's lock is kept only while
a move holds it or waits for it: a server that runs for months keeps no lock per game it ever saw."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable
from typing import Any, Protocol
from uuid import UUID

from cachetools import LRUCache
from eventsourcing.application import AggregateNotFoundError

from service.errors import NotFound, Unauthorized
from service.integrity.records import token_hash
from service.store import eventsourcing_workarounds
from service.store.aggregates import Game, voided

# How long a process may trust what its push feed last confirmed of the store (``Witness.vouches``): a seat's token is
# checked on the cached game only if the feed read where the store's log ends less than this long ago. A ruling that
# changes a seat's tokens answers no sooner than ``TOKEN_RULING_SETTLE_SECONDS`` after it is stored, longer than
# this, so that from its answer on no process still trusts a game cached before it (docs/performance.md, section 20).
TRUST_SECONDS = 0.4
TOKEN_RULING_SETTLE_SECONDS = 0.5


class Witness(Protocol):
    """What a process's push feed knows of the store (``service.serving.push.Hub``): whether a game cached at a
    version is the game as stored, without reading the store."""

    def vouches(self, uid: UUID, version: int) -> bool: ...

    def mark(self) -> int | None: ...

    def confirm(self, uid: UUID, version: int, mark: int | None) -> None: ...


class _GameLock:
    """One game's lock and how many moves hold it or wait for it (the lock goes when none does); ``with`` it holds
    the lock. A class, not ``contextlib.contextmanager``: a generator's context costs a microsecond a move more."""

    __slots__ = ("_guard", "_kept", "_uid", "lock", "users")

    def __init__(self, kept: dict[UUID, _GameLock], guard: threading.Lock, uid: UUID) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self._kept, self._guard, self._uid = kept, guard, uid

    def __enter__(self) -> None:
        self.lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self.lock.release()
        with self._guard:
            self.users -= 1
            if not self.users:
                del self._kept[self._uid]


class LiveGames:
    def __init__(self, repository: Any, size: int) -> None:
        self.repository = repository
        self.size = size
        self._games: LRUCache[UUID, Game] = LRUCache(maxsize=max(size, 1))  # (cachetools refuses a size of 0)
        self._locks: dict[UUID, _GameLock] = {}  # only the games a move holds or waits for
        self._guard = threading.Lock()
        self.witness: Witness | None = None  # the process's push feed, once one is made (``hub_for``)

    def locked(self, uid: UUID) -> _GameLock:
        """The game's lock, to hold ``with`` it: moves on one game are made one at a time in this process. The lock
        is made for the first move that asks and dropped when the last one waiting is done, so the locks kept are
        the games in a move now, however many games the process has seen. Use it at once, in a ``with``."""
        with self._guard:
            held = self._locks.get(uid)
            if held is None:
                held = self._locks[uid] = _GameLock(self._locks, self._guard, uid)
            held.users += 1  # (counted before waiting: a lock someone waits for is never dropped)
            return held

    def locks_kept(self) -> int:
        """How many games' locks are kept now (the games a move holds or waits for)."""
        with self._guard:
            return len(self._locks)

    def load(self, uid: UUID) -> Game:
        with self._guard:
            game = self._games.get(uid)  # (the most recently used, now)
            if game is not None:
                return game
        try:
            found = self.repository.get(uid)
        except AggregateNotFoundError:
            raise NotFound(f"no game with id {uid}", "unknown_game") from None
        if not isinstance(found, Game):
            raise NotFound(f"no game with id {uid}", "unknown_game")
        self.remember(found)
        return found

    def current(self, uid: UUID) -> Game:
        """The cached game, brought up to date if another process (another API worker) has moved it on."""
        return self.fast_forward(self.load(uid))

    def as_stored(self, uid: UUID) -> Game:
        """The game as stored now, like ``current``, without a read of the store when the push feed vouches for the
        cached game (it read where the log ends moments ago and heard of no newer record of this game). Otherwise
        the store is read, and what it said is told to the feed, so the next check trusts the game until the feed
        hears that it moved on."""
        witness = self.witness
        if witness is None:
            return self.current(uid)
        cached = self.peek(uid)
        if cached is not None and witness.vouches(uid, cached.version):
            return cached
        mark = witness.mark()  # (taken before the read: what lands after it, the feed hears)
        game = self.current(uid)
        witness.confirm(uid, game.version, mark)
        return game

    def fast_forward(self, game: Game) -> Game:
        """Apply the records stored after the cached version (usually one or two) to a copy of the game.

        One query for the new records instead of reloading the game from its last snapshot; the cached
        object itself is never changed, so a reader holding it sees a consistent game."""
        newer = list(self.repository.event_store.get(game.id, gt=game.version))
        if not newer:
            return game
        game = moved_on(game, newer)
        self.remember(game)
        return game

    def peek(self, uid: UUID) -> Game | None:
        """The cached game as it is, or None if it is not cached (nothing is read)."""
        with self._guard:
            return self._games.get(uid)

    def advance(self, uid: UUID, events: list[Any]) -> None:
        """Bring the cached game forward by records read elsewhere (the push feed has just read them): applied to
        a copy if they follow the cached version, else ignored (the next ``current`` reads the store)."""
        with self._guard:
            game = self._games.get(uid)
        if game is None or not events or events[0].originator_version != game.version + 1:
            return
        game = moved_on(game, events)
        with self._guard:
            cached = self._games.get(uid)
            if cached is not None and cached.version < game.version:  # (else a move of this process got there first)
                self._games[uid] = game

    def remember(self, game: Game) -> None:
        with self._guard:
            self._games[game.id] = game  # the least recently used goes if the cache is full

    def forget(self, uid: UUID) -> None:
        with self._guard:
            self._games.pop(uid, None)


def moved_on(game: Game, records: Iterable[Any]) -> Game:
    """A copy of ``game`` with ``records`` (the stored records after its version, in order) applied: the cached
    object itself is never changed, so a reader holding it sees a consistent game."""
    game = eventsourcing_workarounds.detached_copy(game)
    for record in records:
        record.mutate(game)
    return game


class GameHandle:
    """A request's hold on one game: the game is looked up (in the cache, else the store) when first asked for,
    and that one game answers the token check, the schema's kind and the move's first try (``Digsite.submit``).
    Lazy, so that what a request checks before it needs the game (its throttle, the organisers' key) still comes
    first, and an unknown game is still answered where it was."""

    def __init__(self, live: LiveGames, uid: UUID) -> None:
        self.live = live
        self.uid = uid
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        if self._game is None:
            self._game = self.live.load(self.uid)
        return self._game

    @property
    def kind(self) -> str:
        """Which game this is (its kind, as registered in ``domain.games``)."""
        kind: str = self.game.kind
        return kind

    def seat_for_token(self, token: str) -> int:
        """The seat ``token`` opens, checked against the game as stored now: another process (the CLI, another API
        worker) may have voided the seat's link or substituted its player since this one cached the game, and a
        token is refused from the moment that ruling answers (``LiveGames.as_stored``: the cached game if the push
        feed vouches for it, else one query for the records after the cached ones)."""
        digest = token_hash(token)
        self._game = self.live.as_stored(self.uid)
        for seat, stored in enumerate(self._game.token_hashes):
            if secrets.compare_digest(stored, digest):
                return seat
        for link in voided(self.game):  # (a token the organiser voided: said so, not "unknown")
            if secrets.compare_digest(link["token_hash"], digest):
                raise Unauthorized(
                    f"this link of seat {link['seat'] + 1} was voided by the organiser: ask them for the new one",
                    "link_voided",
                )
        raise Unauthorized("this seat token does not belong to this game", "invalid_token")
