"""The push channel's plumbing: one watcher per service process that learns when any game's stream grows, so
that requests waiting for a game (the long-poll ``GET /api/v1/games/<id>/updates?wait=S``) wake as soon as a
record lands, whichever process (gunicorn worker) recorded it.

How a process learns of new records:
- PostgreSQL: one connection per process ``LISTEN``s on the event table's channel (every append ``NOTIFY``s
  it: service/pgrecorder.py); on each notification one query reads the notifications after the last one
  seen (ids and versions only; the records themselves are read by the woken requests, through the log).
- SQLite: a thread polls the store's highest notification id every ``POLL_SECONDS`` (and at once when a
  move lands in this process: ``poke``).

Either way the feed runs only while some request waits (and ``LINGER_SECONDS`` after), so an idle process
holds no connection and spends nothing. Waiting costs no CPU: a waiting request sleeps on a
``threading.Condition`` until its game's change counter moves or its deadline passes.

No record and no hidden fact passes through here: only which game changed. What a woken request answers is
read and redacted by the service (``Digsite.log``), exactly as the log endpoint does.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from domain.games import game as game_of
from service.application import Digsite, Viewer
from service.errors import NotFound
from service.inputs import parse_uuid

logger = logging.getLogger(__name__)

POLL_SECONDS = 0.02  # SQLite: how often another process's moves are looked for
LINGER_SECONDS = 5.0  # the feed stops this long after the last waiting request left
LISTEN_TIMEOUT_SECONDS = 0.5  # PostgreSQL: how often the listener looks up from waiting (to linger, to stop)
RETRY_SECONDS = 0.5  # after the store failed the feed
BATCH = 500
LOG_LIMIT = 1000  # records per answer, as the log's largest page


class Watch:
    """One request's interest in one game: ``mark`` before reading the game, then ``wait(mark, deadline)``
    returns True as soon as the game changed after the mark (at once if it already has)."""

    def __init__(self, hub: Hub, uid: UUID, changed: threading.Condition) -> None:
        self.hub, self.uid, self.changed = hub, uid, changed

    def mark(self) -> int:
        with self.changed:
            return self.hub.counters.get(self.uid, 0)

    def wait(self, mark: int, deadline: float) -> bool:
        with self.changed:
            while self.hub.counters.get(self.uid, 0) == mark:
                left = deadline - time.monotonic()
                if left <= 0 or self.hub.closed:
                    return False
                self.changed.wait(left)
            return True

    def latest(self) -> int:
        """The latest version of the game the feed has seen since this watch began (0: none)."""
        with self.changed:
            return self.hub.versions.get(self.uid, 0)


class Hub:
    """What one process knows about games changing. Made by ``hub_for(service)``; ``watch(game)`` starts the
    feed if it is not running. The records the feed reads for a watched game also bring that game forward in
    the service's cache of live games, so a woken request seldom needs the store to know where the game is."""

    def __init__(self, service: Digsite) -> None:
        self.recorder: Any = service.app.recorder  # PostgreSQL's or SQLite's (each has what the feed uses)
        self.mapper = service.app.mapper
        self.live = service.live
        self.backend = service.settings.database.backend
        self.lock = threading.Lock()  # guards what follows; each watched game has a condition on it
        self.conditions: dict[UUID, threading.Condition] = {}
        self.counters: dict[UUID, int] = {}  # per watched game: how many records the feed has seen
        self.versions: dict[UUID, int] = {}  # per watched game: the latest version the feed has seen
        self.watchers: dict[UUID, int] = {}  # per game: requests waiting on it
        self.position: int | None = None  # the last notification id the feed has looked at
        self.feeding = False
        self.closed = False
        self.idle_since = time.monotonic()
        self._poked = threading.Event()
        self._start = threading.Lock()  # one thread starts the feed

    # -- waiting ------------------------------------------------------------------------------------------

    @contextmanager
    def watch(self, uid: UUID) -> Iterator[Watch]:
        """Watch a game for as long as the block runs. The feed is running (and knows where the log ends)
        before this returns, so a change made after the caller's next read of the game is never missed."""
        with self.lock:
            self.watchers[uid] = self.watchers.get(uid, 0) + 1
            changed = self.conditions.get(uid)
            if changed is None:
                changed = self.conditions[uid] = threading.Condition(self.lock)
                self.counters[uid] = 0
        try:
            self._ensure_feed()
            yield Watch(self, uid, changed)
        finally:
            with self.lock:
                left = self.watchers[uid] - 1
                if left:
                    self.watchers[uid] = left
                else:
                    del self.watchers[uid], self.conditions[uid], self.counters[uid]
                    self.versions.pop(uid, None)
                if not self.watchers:
                    self.idle_since = time.monotonic()

    def poke(self) -> None:
        """A move landed in this process: look for it now rather than at the next poll (SQLite)."""
        self._poked.set()

    def close(self) -> None:
        with self.lock:
            self.closed = True
        self._wake_all()
        self._poked.set()

    def _wake_all(self) -> None:
        with self.lock:
            for changed in self.conditions.values():
                changed.notify_all()

    @property
    def waiting(self) -> int:
        """How many requests wait now (for tests and figures)."""
        with self.lock:
            return sum(self.watchers.values())

    # -- the feed -----------------------------------------------------------------------------------------

    def _ensure_feed(self) -> None:
        if self.feeding:
            return
        with self._start:
            if self.feeding or self.closed:
                return
            # Where the log ends now, read before the caller reads its game: whatever lands later is fed.
            self.position = self.recorder.max_notification_id() or 0
            self.feeding = True
            target = self._listen if self.backend == "postgresql" else self._poll
            threading.Thread(target=self._run, args=(target,), name="digsite-push-feed", daemon=True).start()

    def _run(self, feed: Any) -> None:
        try:
            while not self.closed and not self._idle():
                try:
                    feed()
                except Exception as error:  # the store is down or restarting: try again shortly
                    if not self.waiting:
                        return  # nobody to feed (the service may be closed): start again with the next watch
                    logger.warning("the push feed lost the store, retrying: %s", error)
                    self._wake_all()  # waiting requests read the game again (and meet the outage)
                    time.sleep(RETRY_SECONDS)
        finally:
            self.feeding = False
            # A watcher may have arrived after the last idle check: start again for it.
            if not self.closed and self.waiting:
                try:
                    self._ensure_feed()
                except Exception as error:  # its request meets the trouble itself when it reads the game
                    logger.warning("the push feed could not start again: %s", error)

    def _idle(self) -> bool:
        with self.lock:
            return not self.watchers and time.monotonic() - self.idle_since > LINGER_SECONDS

    def catch_up(self) -> None:
        """Read the notifications after ``position`` and wake the requests waiting on the games they name."""
        while True:
            batch = self.recorder.select_notifications(start=self.position, limit=BATCH, inclusive_of_start=False)
            if not batch:
                return
            with self.lock:
                watched = [n for n in batch if n.originator_id in self.conditions]
            by_game: dict[UUID, list[Any]] = {}
            for notification in watched:
                by_game.setdefault(UUID(str(notification.originator_id)), []).append(notification)
            for uid, found in by_game.items():
                try:
                    self.live.advance(uid, [self.mapper.to_domain_event(n) for n in found])
                except Exception:  # a record this process cannot apply: the woken request reads the store
                    logger.exception("the push feed could not bring game %s forward", uid)
            with self.lock:
                for uid, found in by_game.items():
                    changed = self.conditions.get(uid)
                    if changed is not None:
                        self.counters[uid] += len(found)
                        self.versions[uid] = max(self.versions.get(uid, 0), found[-1].originator_version)
                        changed.notify_all()
            self.position = batch[-1].id
            if len(batch) < BATCH:
                return

    def _poll(self) -> None:
        while not self.closed and not self._idle():
            self._poked.wait(POLL_SECONDS)
            self._poked.clear()
            if self.recorder.max_notification_id() != self.position:
                self.catch_up()

    def _listen(self) -> None:
        from psycopg.sql import SQL, Identifier

        datastore = self.recorder.datastore
        with datastore.connect(autocommit=True) as conn:
            conn.execute(SQL("LISTEN {0}").format(Identifier(self.recorder.channel_name)))
            self.catch_up()  # what landed between reading the position and listening
            while not self.closed and not self._idle():
                heard = False
                for _ in conn.notifies(timeout=LISTEN_TIMEOUT_SECONDS, stop_after=1):
                    heard = True
                if heard:
                    self.catch_up()


_HUBS: weakref.WeakKeyDictionary[Any, Hub] = weakref.WeakKeyDictionary()
_HUBS_LOCK = threading.Lock()


def hub_for(service: Digsite) -> Hub:
    """The hub of a service: one per service object, made on first use (its feed starts with the first watch)."""
    with _HUBS_LOCK:
        hub = _HUBS.get(service)
        if hub is None:
            hub = _HUBS[service] = Hub(service)
        return hub


def updates(
    service: Digsite,
    game_id: str,
    viewer: Viewer,
    after: int,
    wait: float,
    until: str = "record",
    include_game: bool = False,
) -> dict[str, Any]:
    """What a viewer learns of a game after version ``after``: the records since (redacted by the service's log,
    as ``GET /games/<id>/log`` gives them), the latest version, its status and who is to act. If nothing is
    ready yet, wait up to ``wait`` seconds for it: ``until="record"`` for any new record, ``"turn"`` for the
    viewer's seat to be among those to act (or the game to end). With ``include_game`` a ready answer for
    ``"turn"`` carries the game as the seat sees it (as ``GET /games/<id>`` does), so a client can act on it."""
    uid = parse_uuid(game_id, "game")
    deadline = time.monotonic() + wait
    hub = hub_for(service) if wait > 0 else None
    fresh = False
    with hub.watch(uid) if hub is not None else _no_watch() as watch:
        while True:
            mark = watch.mark() if watch is not None else 0
            game = service.live.load(uid) if fresh else service.live.current(uid)
            if watch is not None and game.version < watch.latest():
                game = service.live.current(uid)  # the feed has seen records the cache lacks
            if after > game.version:
                raise NotFound(f"this game has versions 1 to {game.version}, not {after}", "unknown_version")
            rules = game_of(game.kind).rules
            to_act = rules.to_act(game.state)
            over = game.seed is not None
            ready = (over or viewer.seat in to_act) if until == "turn" else game.version > after
            if ready or watch is None or not watch.wait(mark, deadline):
                break
            # Woken by the feed: the cache holds what it read (the first read, above, came after the feed began).
            fresh = True
    records = []
    if game.version > after:  # (records landed since the game was read belong to the next answer)
        records = [r for r in service.log(uid, viewer, after, LOG_LIMIT) if r["version"] <= game.version]
    out: dict[str, Any] = {
        "id": str(uid),
        "version": game.version,
        "status": "over" if over else "playing",
        "to_act": to_act,
        "records": records,
        "ready": ready,
    }
    if include_game and ready and until == "turn":
        out["game"] = service.game(uid, viewer)
    return out


@contextmanager
def _no_watch() -> Iterator[None]:
    yield None
