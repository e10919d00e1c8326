"""The push channel's plumbing: one feed per service process that learns when any game's stream grows, so
that requests waiting on a game (the long poll ``GET /api/v1/games/<id>/updates?wait=S``) are answered as soon
as what they wait for lands, whichever process (gunicorn worker) recorded it.

How a process learns of new records:
- PostgreSQL: one connection per process ``LISTEN``s on the event table's channel (every append ``NOTIFY``s
  it: service/store/pgrecorder.py). A record appended alone (a move, a new game) comes with its notification (migration
  0009), so nothing is read; after a bare notification (several records appended at once, or one too long to
  carry) one query reads the records after the last one seen.
- A move stored by this process itself is heard at once (``Digsite.on_landed`` calls ``Hub.landed``): the
  requests waiting here on its game are judged and woken with the game and records the move left, before any
  notification; the feed, hearing of the move later, finds both already here and decodes nothing.
- SQLite: a thread polls the store's highest notification id every ``POLL_SECONDS`` (and at once when a
  move lands in this process); so does a PostgreSQL hot standby, which serves no ``LISTEN``, every
  ``STANDBY_POLL_SECONDS``.

The feed also vouches for cached games to a seat's token check (``LiveGames.as_stored``, ``Hub.vouches``): while it
runs, it reads where the store's log ends every ``POLL_SECONDS`` (SQLite, a standby) or, while checks ask it to
vouch, every ``REFRESH_SECONDS`` (PostgreSQL, besides listening), and a game cached at the latest version it heard
of is trusted for ``TRUST_SECONDS`` after such a read; a ruling that changes a seat's tokens answers only after
longer than that.

For a game someone waits on, the feed brings the process's cached game forward with the records it has just
read (``LiveGames.advance``), judges for each waiting request whether what it waits for has come (its seat's
turn, or any record) and wakes only those. The feed runs only while some request waits (and
``LINGER_SECONDS`` after), so an idle process holds no connection and spends nothing; a waiting request
sleeps on a ``threading.Event`` and costs no CPU. At most ``MAX_WAITING`` requests wait per process.

No record leaves through here unredacted: what a woken request answers is redacted by the service
(``Digsite.records_as_seen``), exactly as ``GET /games/<id>/log`` gives the records to the same caller. The
records themselves come from what the feed has just read, or the process has just stored, for the game
(``Hub.recent``) when it holds them all, else from the store.
"""

from __future__ import annotations

import base64
import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Notification
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

from service.caller_values import parse_uuid
from service.commands.application import Digsite, Viewer, seats_to_act
from service.commands.live_games import TRUST_SECONDS
from service.errors import Busy, NotFound
from service.reading.results import Updates
from service.serving import capacity
from service.store.aggregates import Game

logger = logging.getLogger(__name__)

# Each waiting request holds a server thread and connection. Past this many waiting in one process, a request is
# answered at once rather than held (``GET /updates``: 503 with Retry-After), so that waiting clients never take
# from the moves they wait for the threads and connections the server was sized to keep for them: the one setting
# DIGSITE_PUSH_MAX_WAITING, which sizes the server too (service/serving/capacity.py; a gunicorn worker sized by hand may
# lower it: service/serving/wsgi.py).
MAX_WAITING = capacity.waits()
# When a refused wait is to ask again. A refusal costs about 1 ms of CPU: at 1 s, 1,000 refused clients made 500
# refusals a second and the moves beside them fell to a sixth of their rate; at 5, to half (bench/waits.py, on a
# loaded machine: docs/performance.md, section 5). The remedy for refusals is a server sized for its clients.
BUSY_RETRY_SECONDS = 5
POLL_SECONDS = 0.02  # SQLite: how often another process's moves are looked for
# A PostgreSQL hot standby (a dashboard on a read replica) serves no LISTEN: the feed polls it, less often, since
# what it shows already lags by the replication (spectators' pages, not seats waiting to act).
STANDBY_POLL_SECONDS = 0.2
LINGER_SECONDS = 5.0  # the feed stops this long after the last waiting request left
LISTEN_TIMEOUT_SECONDS = 0.5  # PostgreSQL: how often the listener looks up from waiting (to linger, to stop)
# PostgreSQL: how often the listener also reads where the log ends, while seats' token checks ask it to vouch, so
# that it can (a notification says a record landed; only a read says none landed unheard). A quarter of
# TRUST_SECONDS: a feed delayed by a busy machine for a while still vouches; one delayed longer, or a check that
# comes after a quiet spell, makes the checks read the store until the next read. Each look-up costs the listener
# about 0.5 ms of CPU (psycopg's wait for notifications) besides the read: 20 a second cost 11 ms a second
# (docs/performance.md, section 20), so it looks up this often only while asked.
REFRESH_SECONDS = TRUST_SECONDS / 4
RETRY_SECONDS = 0.5  # after the store failed the feed
CLOSE_SECONDS = 10.0  # the longest a closing service waits for its feed to leave the store
BATCH = 500
LOG_LIMIT = 1000  # records per answer, as the log's largest page
RECENT = 64  # records kept per watched game for the answers the feed wakes (a few turns of a game)
HEARD_LIMIT = 100_000  # games whose latest version the feed remembers (past this, a new epoch: ``Hub.covers``)


Ready = Callable[[Game, list[int]], bool]  # is what a request waits for there, in this game (and its to_act)?


class Watch:
    """One request waiting on one game for what ``ready`` says. ``arm`` before reading the game, then ``wait``:
    it returns True as soon as the feed saw a record after which the game may be ready (at once if one landed
    after ``arm``). The feed judges ``ready`` itself when it could bring the cached game forward, so a request
    is not woken by every move of its game, only by the one it waits for."""

    def __init__(self, hub: Hub, uid: UUID, ready: Ready) -> None:
        self.hub, self.uid, self.ready = hub, uid, ready
        self.woken = threading.Event()
        self.latest = 0  # the latest version of the game the feed has seen since this watch began

    def arm(self) -> None:
        self.woken.clear()

    def wait(self, deadline: float) -> bool:
        # A hub closed before ``arm`` cleared its wake-up would leave the request waiting out its whole deadline
        # (seen under load: a closing service held a request 30 s); ``close`` sets ``closed`` before it wakes.
        if self.hub.closed:
            return False
        return self.woken.wait(max(0.0, deadline - time.monotonic())) and not self.hub.closed


class Hub:
    """What one process knows about games changing. Made by ``hub_for(service)``; ``watch(game, ready)`` starts
    the feed if it is not running. The records the feed reads for a watched game also bring that game forward
    in the service's cache of live games, so a woken request seldom needs the store to know where it is."""

    def __init__(self, service: Digsite) -> None:
        self.recorder: Any = service.app.recorder  # PostgreSQL's or SQLite's (each has what the feed uses)
        self.mapper = service.app.mapper
        self.live = service.live
        self.backend = service.settings.database.backend
        self.lock = threading.Lock()  # guards ``watches``
        self.watches: dict[UUID, list[Watch]] = {}  # per game: the requests waiting on it
        self._waiting = 0  # how many watches there are in all (``waiting``)
        # Per watched game, the latest records the feed read (consecutive versions, at most RECENT): a woken
        # request answers its records from here instead of reading them again (``recent``).
        self.latest_records: dict[UUID, list[Any]] = {}
        self.position: int | None = None  # the last notification id the feed has looked at
        # The feed's epoch: a count of its starts, failures and forgettings. Within one epoch the feed has read, in
        # order, every record landed since the epoch began; ``heard`` holds, per game (watched or not), the latest
        # version it has read in this epoch. What a request watching a game may conclude from them: ``covers``.
        self.heard: dict[UUID, int] = {}
        self.epoch = 0
        self.feeding = False
        self.healthy = True  # False from a failure of the feed until it reads the store again
        # When (``time.monotonic``) the feed began its latest read of where the log ends, all of whose records it has
        # read since: every record stored before then is in ``heard`` (``vouches``). None: no such read this epoch.
        self.fresh_at: float | None = None
        # When a seat's token check last asked ``vouches``: the listener (PostgreSQL) reads where the log ends only if
        # one asked since its last such read, and looks up often only if one asked lately, so that a process whose
        # seats check nothing spends nothing on it.
        self.asked_at = float("-inf")
        self.closed = False
        self.idle_since = time.monotonic()
        self._poked = threading.Event()
        self._start = threading.Lock()  # one thread starts the feed
        self._thread: threading.Thread | None = None
        self.poll_seconds = POLL_SECONDS

    # -- waiting ------------------------------------------------------------------------------------------

    @contextmanager
    def watch(self, uid: UUID, ready: Ready, limit: int | None = None) -> Iterator[Watch | None]:
        """Watch a game for as long as the block runs; None instead if ``limit`` requests watch already (counted and
        let in under one lock: a burst of requests never lets more in). The feed is running (and knows where the
        log ends) before this returns, so a record landing after the caller's next read of the game is never
        missed."""
        watch = Watch(self, uid, ready)
        with self.lock:
            full = limit is not None and self._waiting >= limit
            if not full:
                self.watches.setdefault(uid, []).append(watch)
                self._waiting += 1
        if full:
            yield None
            return
        try:
            self._ensure_feed()
            yield watch
        finally:
            with self.lock:
                self._waiting -= 1
                others = self.watches[uid]
                others.remove(watch)
                if not others:
                    del self.watches[uid]
                    self.latest_records.pop(uid, None)
                if not self.watches:
                    self.idle_since = time.monotonic()

    def close(self, timeout: float = CLOSE_SECONDS) -> None:
        """Stop the feed: wake every waiting request, and wait (up to ``timeout``) for the feed's thread to
        leave the store, which its service is about to close (``Digsite.close`` calls this)."""
        self.closed = True
        self._wake_all()
        self._poked.set()
        with self._start:  # (no feed starts after this: ``_ensure_feed`` checks ``closed`` under this lock)
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                logger.warning("the push feed did not stop within %s s of its service closing", timeout)

    def _wake_all(self) -> None:
        with self.lock:
            for watches in self.watches.values():
                for watch in watches:
                    watch.woken.set()

    def recent(self, uid: UUID, after: int, until: int) -> list[Any] | None:
        """The records of a watched game with versions ``after + 1`` to ``until``, if the feed read them all
        (records never change, so whoever read them, they are the ones stored); else None."""
        with self.lock:
            held = self.latest_records.get(uid)
            if not held or held[0].originator_version > after + 1 or held[-1].originator_version < until:
                return None
            return [e for e in held if after < e.originator_version <= until]

    def mark(self) -> int | None:
        """The feed's epoch if it is running and healthy (else None): taken before a move, for ``covers``."""
        return self.epoch if self.feeding and self.healthy and not self.closed else None

    def covers(self, uid: UUID, version: int, mark: int | None = None) -> bool:
        """Whether a game cached at ``version`` is the game as stored, for a request now watching it (call it only
        then). So when every record after ``version`` lands in this epoch (then the feed reads it: has read it, and
        ``heard`` says so, or will read it and feed it to the watch) and none the feed has read is newer. A record
        after ``version`` lands in this epoch if one at or before ``version`` did: the feed heard one of the game in
        this epoch, or the game's ``version`` was made by a move stored after ``mark`` was taken in this epoch."""
        with self.lock:
            if not (self.feeding and self.healthy) or uid not in self.watches:
                return False
            heard = self.heard.get(uid)
            if heard is not None:
                return heard <= version
            return mark is not None and mark == self.epoch

    def vouches(self, uid: UUID, version: int) -> bool:
        """Whether a game cached at ``version`` is the game as stored, for a seat's token check
        (``LiveGames.as_stored``), with nothing read. So when the feed is running and healthy, read where the log ends
        less than ``TRUST_SECONDS`` ago and every record up to there, and has heard of the game in this epoch (from
        the store, or ``confirm``) at no later version. Then a ruling answered before this call (it answers
        ``TOKEN_RULING_SETTLE_SECONDS`` after it is stored, longer than ``TRUST_SECONDS``) was stored before that
        read: heard, and newer than ``version``."""
        now = time.monotonic()
        with self.lock:
            self.asked_at = now
            if not (self.feeding and self.healthy) or self.closed or self.fresh_at is None:
                return False
            if now - self.fresh_at >= TRUST_SECONDS:
                return False
            heard = self.heard.get(uid)
            return heard is not None and heard <= version

    def confirm(self, uid: UUID, version: int, mark: int | None) -> None:
        """The store said game ``uid`` is at ``version`` in a read begun after ``mark()`` was taken: if the feed has
        run in the same epoch since, whatever lands after that read it hears, so it may vouch for the game at
        ``version`` until it hears of a newer record (which it then keeps in ``heard``)."""
        with self.lock:
            if mark is None or mark != self.epoch or not (self.feeding and self.healthy):
                return
            if len(self.heard) < HEARD_LIMIT and self.heard.get(uid, 0) < version:
                self.heard[uid] = version

    def _fresh(self, began: float) -> None:
        """The feed has read every record stored before ``began`` (it read where the log ends after that moment)."""
        with self.lock:
            self.fresh_at = began

    def _new_epoch(self) -> None:
        """(Holding ``lock``.) What the feed heard no longer tells what it will hear: after a start or a failure."""
        self.epoch += 1
        self.heard.clear()
        self.fresh_at = None

    @property
    def waiting(self) -> int:
        """How many requests wait now (asked by every waiting request: a count, not a sum over the games)."""
        return self._waiting

    # -- the feed -----------------------------------------------------------------------------------------

    def _ensure_feed(self) -> None:
        if self.feeding:
            return
        with self._start:
            if self.feeding or self.closed:
                return
            # Where the log ends now, read before the caller reads its game: whatever lands later is fed.
            self.position = self.recorder.max_notification_id() or 0
            with self.lock:
                self._new_epoch()  # (what landed before this position was never heard)
            self.feeding = True
            target = self._listen if self.backend == "postgresql" and not self._standby() else self._poll
            self._thread = threading.Thread(target=self._run, args=(target,), name="digsite-push-feed", daemon=True)
            self._thread.start()

    def _run(self, feed: Any) -> None:
        try:
            while not self.closed and not self._idle():
                try:
                    feed()
                except Exception as error:  # the store is down or restarting: try again shortly
                    with self.lock:
                        self.healthy = False
                        self._new_epoch()
                    self._wake_all()  # waiting requests read the game from the store (and meet the outage: 503)
                    if not self.waiting:
                        return  # nobody to feed (the service may be closed): start again with the next watch
                    logger.warning("the push feed lost the store, retrying: %s", error)
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
            return not self.watches and time.monotonic() - self.idle_since > LINGER_SECONDS

    def catch_up(self, read: Callable[[int], list[Any]] | None = None) -> None:
        """Read the notifications after ``position`` (with ``read``, else the recorder's query) and wake the requests
        waiting on the games they name."""
        while True:
            if read is not None:
                batch = read(self.position or 0)
            else:
                batch = self.recorder.select_notifications(start=self.position, limit=BATCH, inclusive_of_start=False)
            self.healthy = True
            if not batch:
                return
            by_game: dict[UUID, list[Any]] = {}
            with self.lock:  # (``heard`` and the watches are looked at together: see ``covers``)
                heard = self.heard
                for notification in batch:
                    uid = notification.originator_id  # (PostgreSQL's are UUIDs already: parsing again was 0.8 %)
                    if type(uid) is not UUID:
                        uid = UUID(str(uid))
                    heard[uid] = notification.originator_version
                    if uid in self.watches:
                        by_game.setdefault(uid, []).append(notification)
                if len(heard) > HEARD_LIMIT:
                    self._new_epoch()  # (forgotten: no mark taken before now covers anything)
            for uid, found in by_game.items():
                self._fed(uid, found)
            self.position = batch[-1].id
            if len(batch) < BATCH:
                return

    def _fed(self, uid: UUID, notifications: list[Any]) -> None:
        """New records of a watched game: bring the cached game forward, then wake the requests it may be ready
        for (all of them if the cache could not be brought forward: they read the store themselves)."""
        first, latest = notifications[0].originator_version, notifications[-1].originator_version
        game = self.live.peek(uid)
        if game is not None and game.version >= latest and self.recent(uid, first - 1, latest) is not None:
            # This process stored them (``landed``): its waiting requests were judged then; only those watching
            # since are judged now, on the game as cached (the records need no decoding).
            self._wake(uid, game, latest)
            return
        try:
            events = [self.mapper.to_domain_event(n) for n in notifications]
            self._keep(uid, events)
            self.live.advance(uid, events)
            game = self.live.peek(uid)
        except Exception:  # a record this process cannot apply: the woken requests read the store
            logger.exception("the push feed could not bring game %s forward", uid)
            game = None
        self._wake(uid, game if game is not None and game.version >= latest else None, latest)

    def landed(self, game: Game, records: list[Any]) -> None:
        """A move this process has just stored (``Digsite.on_landed``): wake the requests waiting here on its game
        now, rather than when the feed hears of it through the store (a hand-over within one worker then waits
        for no notification, and the feed, hearing of it later, finds the game and its records already here)."""
        self._poked.set()  # (SQLite: the feed looks for the move now rather than at its next poll)
        uid = game.id
        with self.lock:
            if uid not in self.watches:
                return
        try:
            self._keep(uid, records)
            self._wake(uid, game, game.version)
        except Exception:  # (the move is stored whatever happens here: the feed will wake them)
            logger.exception("waking the requests waiting on game %s", uid)

    def _wake(self, uid: UUID, game: Game | None, latest: int) -> None:
        """Wake the requests waiting on ``uid`` that ``game`` (at version ``latest`` or later) is ready for; all of
        them if there is no such game (they read the store themselves)."""
        to_act = seats_to_act(game) if game is not None else None
        with self.lock:
            watches = list(self.watches.get(uid, ()))
        for watch in watches:
            watch.latest = max(watch.latest, latest)
            if game is None or to_act is None or watch.ready(game, to_act):
                watch.woken.set()

    def _keep(self, uid: UUID, events: list[Any]) -> None:
        """Keep a watched game's new records for ``recent``: the latest run of consecutive versions, at most RECENT.
        They may come out of order (a move stored here is kept when it lands, one stored by another process when
        the feed hears of it, which can be later)."""
        with self.lock:
            if uid not in self.watches:
                return
            by_version = {e.originator_version: e for e in self.latest_records.get(uid, ())}
            by_version.update((e.originator_version, e) for e in events)
            versions = sorted(by_version)
            first = len(versions) - 1
            while first > 0 and versions[first - 1] == versions[first] - 1 and len(versions) - first < RECENT:
                first -= 1
            self.latest_records[uid] = [by_version[v] for v in versions[first:]]

    def _standby(self) -> bool:
        """Whether the PostgreSQL server is a hot standby (asked each time the feed starts: one may be promoted)."""
        with self.recorder.datastore.get_connection() as conn:
            row = conn.execute("SELECT pg_is_in_recovery() AS standby").fetchone()
        self.poll_seconds = STANDBY_POLL_SECONDS if row and row["standby"] else POLL_SECONDS
        return self.poll_seconds == STANDBY_POLL_SECONDS

    def _poll(self) -> None:
        while not self.closed and not self._idle():
            self._poked.wait(self.poll_seconds)
            self._poked.clear()
            began = time.monotonic()
            if self.recorder.max_notification_id() != self.position:
                self.catch_up()
            self._fresh(began)

    def _listen(self) -> None:
        datastore = self.recorder.datastore
        with datastore.connect(autocommit=True) as conn:
            conn.execute(SQL("LISTEN {0}").format(Identifier(self.recorder.channel_name)))
            read = self._reader(conn)
            began = time.monotonic()
            self.catch_up(read)  # what landed between reading the position and listening
            self._fresh(began)
            while not self.closed and not self._idle():
                now = time.monotonic()
                if self.asked_at > began and now - began >= REFRESH_SECONDS:
                    began = now
                    self.catch_up(read)  # (usually nothing: the notifications brought it; this says nothing else came)
                    self._fresh(began)
                lately = time.monotonic() - self.asked_at < TRUST_SECONDS
                timeout = REFRESH_SECONDS if lately else LISTEN_TIMEOUT_SECONDS
                heard = [n.payload for n in conn.notifies(timeout=timeout, stop_after=1)]
                if heard:
                    # Every notification already here is for records the next read finds too (a NOTIFY is heard
                    # once its transaction has committed): one read for them all, not one each. Under bench.seats
                    # 24 % of the reads found nothing before, 9 % after (2026-12-02).
                    heard += [n.payload for n in conn.notifies(timeout=0)]
                    carried = self._carried(heard)
                    if carried is None:
                        self.catch_up(read)
                    else:  # (no read: the notifications carried the records, migration 0009)
                        self.catch_up(partial(_after, carried))

    def _carried(self, payloads: list[str]) -> list[Any] | None:
        """The records these notifications carry (a move's append sends its record: migration 0009), in the order
        they were stored; None if one of this store's came bare (several records at once, or one too long for a
        notification: the feed reads the store). Another schema's records (its notifications share the channel) are
        left out. A payload: ``r1 <schema> <notification id> <game id> <version> <topic> <state, base64>``."""
        schema = self.recorder.datastore.schema
        out = []
        for payload in payloads:
            parts = payload.split(" ", 6)
            if len(parts) != 7 or parts[0] != "r1":
                return None
            if parts[1] != schema:
                continue
            _, _, notification_id, uid, version, topic, state = parts
            out.append(
                Notification(
                    id=int(notification_id),
                    originator_id=UUID(uid),
                    originator_version=int(version),
                    topic=topic,
                    state=base64.b64decode(state),
                )
            )
        return out

    def _reader(self, conn: Any) -> Callable[[int], list[Any]]:
        """The new records, read on the feed's own connection (``conn``, the one listening) with one statement
        rendered once: the recorder's query renders its SQL and takes a pooled connection each time, which cost
        more than the query: 250 us of CPU a read of two records against 140 us (2026-12-02). A read happens when
        a notification came without its record (``_carried``)."""
        statement = (
            SQL(
                "SELECT notification_id, originator_id, originator_version, topic, state FROM {0}.{1} "
                "WHERE notification_id > %s ORDER BY notification_id LIMIT %s"
            )
            .format(Identifier(self.recorder.datastore.schema), Identifier(self.recorder.events_table_name))
            .as_bytes(conn)
        )

        def read(position: int) -> list[Any]:
            with conn.cursor(row_factory=tuple_row) as curs:
                curs.execute(statement, (position, BATCH), prepare=True)
                return [
                    Notification(id=i, originator_id=o, originator_version=v, topic=t, state=bytes(b))
                    for i, o, v, t, b in curs.fetchall()
                ]

        return read


def _after(records: list[Any], position: int) -> list[Any]:
    return [n for n in records if n.id > position]


_HUBS: weakref.WeakKeyDictionary[Any, Hub] = weakref.WeakKeyDictionary()
_HUBS_LOCK = threading.Lock()


def hub_for(service: Digsite) -> Hub:
    """The hub of a service: one per service object, made on first use (its feed starts with the first watch)."""
    with _HUBS_LOCK:
        hub = _HUBS.get(service)
        if hub is None:
            hub = _HUBS[service] = Hub(service)
            service.on_close(hub.close)
            service.on_landed(hub.landed)
            service.live.witness = hub  # (a seat's token check asks it before it reads the store)
        return hub


def updates(
    service: Digsite,
    game_id: str,
    viewer: Viewer,
    after: int,
    wait: float,
    until: str = "record",
    include_game: bool = False,
    mark: int | None = None,
    refuse_busy: bool = False,
) -> Updates:
    """What a viewer learns of a game after version ``after``: the records since (redacted as ``GET
    /games/<id>/log`` gives them), the latest version, its status and who is to act. If nothing is ready yet,
    wait up to ``wait`` seconds for it: ``until="record"`` for any new record, ``"turn"`` for the viewer's seat
    to be among those to act (or the game to end). With ``include_game`` a ready answer for ``"turn"`` carries
    the game as the seat sees it (as ``GET /games/<id>`` does, at the answer's version), so a client can act.

    A waiting request answers from the game this process has cached, without reading the store, when the feed
    covers it (``Hub.covers``): the store read was 2 to 4 % of the server's CPU per move of seat clients
    (``bench.seats``, py-spy). ``mark``: the hub's ``mark()`` taken before the caller's own move made version
    ``after`` (``POST /actions?wait``), which lets it cover a game whose records the feed has not heard yet. Cached
    games hold only what the store holds: moves made here once stored, records the feed read from the store
    (decoded as any read of the store decodes them), games loaded through the verifying repository; what the feed
    adds is only the knowledge that nothing newer has landed unheard.

    A process holds at most ``MAX_WAITING`` waits. Past that, a request is not held: it is answered at once if what it
    waits for is there already, else (``refuse_busy``, as ``GET /updates``) refused with ``Busy`` (503, Retry-After),
    or answered not ready with ``retry_after`` (a move's ``next``, a dashboard's page: their answer says the rest)."""
    uid = parse_uuid(game_id, "game")
    deadline = time.monotonic() + wait
    if service.reader.game_clock(uid) is not None:  # a read that finds a seat out of time records its timeout first
        service.enforce_clock(uid)

    def ready(game: Game, to_act: list[int]) -> bool:
        if until == "turn":
            return game.seed is not None or viewer.seat in to_act
        return game.version > after

    hub = hub_for(service) if wait > 0 else None
    found: Iterable[Any] | None = None
    with hub.watch(uid, ready, MAX_WAITING) if hub is not None else _no_watch() as watch:
        busy = hub is not None and watch is None  # too many wait in this process already: answer now
        game = _known(service, uid, watch, after, mark)  # (after the feed began: what lands later wakes the watch)
        while True:
            if after > game.version:
                raise NotFound(f"this game has versions 1 to {game.version}, not {after}", "unknown_version")
            to_act = seats_to_act(game)
            if watch is None or ready(game, to_act):
                break
            watch.arm()
            if watch.latest <= game.version and not watch.wait(deadline):
                break  # nothing it waits for landed in time
            # The feed saw newer records (before the watch was armed, or since): it has brought the cached game
            # forward, unless it could not (then the store is read).
            game = service.live.load(uid)
            if game.version < watch.latest or not watch.hub.healthy:
                game = service.live.current(uid)  # (during an outage this is the 503 the caller should get)
        # The records the feed has read for this game, taken while the watch still keeps them.
        found = watch.hub.recent(uid, after, game.version) if watch is not None and game.version > after else None
    over = game.seed is not None
    records = []
    if game.version > after:  # (records landed since the game was read belong to the next answer)
        if found is None:
            found = service.app.repository.event_store.get(uid, gt=after, lte=game.version, limit=LOG_LIMIT)
        records = service.records_as_seen(game, found, viewer)
    out: Updates = {
        "id": str(uid),
        "version": game.version,
        "status": "over" if over else "playing",
        "to_act": to_act,
        "records": records,
        "ready": ready(game, to_act),
    }
    if include_game and out["ready"] and until == "turn":
        out["game"] = service.game_as_seen(game, viewer)  # (the very version the answer reports)
    if busy and not out["ready"]:
        if refuse_busy:
            raise Busy(
                f"this server holds as many waiting requests as it may; ask again in {BUSY_RETRY_SECONDS} s",
                BUSY_RETRY_SECONDS,
            )
        out["retry_after"] = BUSY_RETRY_SECONDS
    return out


def _known(service: Digsite, uid: UUID, watch: Watch | None, after: int, mark: int | None) -> Game:
    """The game as stored now: the cached one if the feed covers it (see ``updates``), else the cached one brought
    up to date from the store."""
    if watch is not None:
        cached = service.live.peek(uid)
        if cached is not None and cached.version >= after and watch.hub.covers(uid, cached.version, mark):
            return cached
    return service.live.current(uid)


@contextmanager
def _no_watch() -> Iterator[None]:
    yield None
