"""Whole-store jobs split by game on Dask distributed: the projections' rebuild, the full verify, and the judge's
analysis (``judged_on``: each game's records judged on a worker, the rows written by the caller).

Games are independent streams: every read-model row belongs to one game (or to a player or tournament), and
a game verifies from its own records and ledger entries. So both jobs cut the store's games into shares and
hand each share to a worker of a Dask cluster (``dask scheduler`` / ``dask worker`` on any hosts, or a local
cluster of N processes), which reads its games straight from PostgreSQL with its own connections and runs the
same code as the single process: ``ReadModelProjection`` and ``ReadModels`` for the rebuild, ``audit.verify_each``
for the verify. Why Dask and not Ray, and how to run it: docs/deploy.md.

The rebuild stays exactly once:

1. The coordinator notes the store's head H and, in ONE transaction, takes the projection's tracking row
   (set to a ``HELD`` position of the run's own, past any record: a ``projections run`` follower meanwhile reads
   nothing and cannot write, its tracking insert is refused) and empties every read model.
2. It projects the records of no game (players, tournaments) itself.
3. Each share (a Dask task) projects its games' records with ids <= H into one batch and writes it in ONE
   transaction with a marker tracking row of its own: a share whose worker died after committing and is run
   again by the scheduler finds its marker and writes nothing twice. Every write first checks (and share-locks)
   the run's hold: once another rebuild has emptied the read models, this run writes nothing more.
4. The coordinator sums the field's figures over every finished game (``projections.field``), counts every
   player's finished games and wins (``ReadModels.count_totals``) and rates every finished game in the order
   the games finished (``projections.ratings``: the shares left all three alone), sets the
   tracking row to H (and drops the markers) in one transaction and analyses the tables. ``projections run``
   continues from H; records appended during the rebuild are left to it.

With a log database in the settings (DIGSITE_LOG_DATABASE_URL, a streaming replica) the coordinator notes H and
reads the records there, and so does every share (after waiting, within bounds, for its replica to hold H); the
read models, markers and tracking row are written to the store (the primary) as ever.

Any failure (a worker lost more often than Dask allows, a record that cannot be projected, the store away) stops
the rebuild loudly and leaves the tracking row at the run's hold: the read models are incomplete, no follower
writes into them, and running the rebuild again (distributed or not) starts from scratch and fixes them.
"""

from __future__ import annotations

import logging
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import version
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import Notification, Tracking
from eventsourcing.utils import get_topic
from psycopg.rows import tuple_row

from domain.games import GAMES
from service import bootstrap
from service.analysis.judging import Judged, judge_records
from service.integrity.audit import GAME_TOPICS, Report, verify_each
from service.integrity.ledger import Entry
from service.reading.projections.follower import NOT_THE_RECORD, REFUSED_VALUE, STANDBY_POLL_SECONDS, _Collector
from service.reading.projections.log import PlainLog, log_for
from service.reading.projections.readmodels import ReadModelProjection
from service.reading.projections.tables import PROJECTION_NAME, TABLES, TRACKING_TABLE, ReadModels
from service.settings import Settings
from service.store import eventsourcing_workarounds

if TYPE_CHECKING:
    from distributed import Client

    from service.commands.application import Digsite, DigsiteApplication

log = logging.getLogger("digsite.distributed")
T = TypeVar("T")

CONNECT_TIMEOUT = 10  # seconds to reach a scheduler, and for it to have a worker
# The tracking position held during a distributed rebuild: past any record, and one of its own per run (the
# run's number added), so that a run whose read models another rebuild took over can tell.
HELD = 2**62
MARKER = f"{PROJECTION_NAME} rebuild"  # + " <run>/<share>": one tracking row per share written
# How long a share waits for the replica it reads the log from (DIGSITE_LOG_DATABASE_URL) to replay up to the
# rebuild's head: ordinary replication lag is well under a second; a replica far behind stops the rebuild instead.
REPLICA_WAIT_SECONDS = 30


def held(position: int) -> bool:
    """Whether a tracking position is a distributed rebuild's hold (running, or failed: rebuild again)."""
    return position >= HELD


VERIFY_SHARE = 25  # games per verify task: small enough to spread, large enough that a task outweighs its cost


class ClusterProblem(Exception):
    """The job cannot run on the cluster asked for (one line, for the command to print)."""


class Superseded(RuntimeError):
    """Another rebuild emptied the read models while this one was writing them."""

    def __init__(self) -> None:
        super().__init__("another rebuild took the read models over during this one; rebuild again")


class ShareFailed(Exception):
    """A record of a share could not be projected (the rebuild stops; see the message)."""

    def __init__(self, where: dict[str, Any], reason: str) -> None:
        self.where = where
        self.reason = reason
        what = str(where["topic"]).rpartition(":")[2] or where["topic"]
        super().__init__(
            f"cannot project record {where['notification_id']} ({what} of {where['originator_id']}, version "
            f"{where['version']}): {reason}. The distributed rebuild stopped: the read models are incomplete and "
            "held (no follower writes into them). Look at the record, then rebuild again with --skip "
            f"{where['notification_id']} to let the projection pass it, or without --cluster/--workers to "
            "project every record before it."
        )

    def __reduce__(self) -> Any:  # (raised on a worker, re-raised by the coordinator: pickled on the way)
        return (ShareFailed, (self.where, self.reason))


# -- the engine -----------------------------------------------------------------------------------------------


INSTALL_CLUSTER = "pip install 'digsite[cluster]'"  # Dask is the optional extra `cluster` (pyproject.toml)


def require_dask(command: str) -> None:
    """Stop, naming the extra to install, where Dask (``distributed``, Digsite's optional ``cluster`` extra) is not
    installed: ``command`` is what was asked for ("digsite projections rebuild --workers")."""
    try:
        import distributed  # noqa: F401  # an optional extra: imported only by the commands that run on it
    except ImportError:
        raise ClusterProblem(
            f"{command} runs on Dask, which is not installed here: it comes with Digsite's optional `cluster` "
            f"extra ({INSTALL_CLUSTER}, on this host and every worker host)"
        ) from None


def require_postgresql(settings: Settings) -> None:
    if settings.database.backend != "postgresql":
        raise ClusterProblem(
            "--cluster and --workers need a PostgreSQL store (each worker reads its games over the network); "
            f"this is the {settings.database.display()}: run the command without them"
        )


@contextmanager
def engine(address: str | None, workers: int | None) -> Iterator[Client]:
    """A Dask client: of the scheduler at ``address``, else of a local cluster of ``workers`` processes."""
    require_dask("--cluster" if address is not None else "--workers")
    import distributed  # lazy: Dask, 1.2 s to import, and an optional extra (require_dask says so)

    if address is None:
        cluster = distributed.LocalCluster(
            n_workers=workers or 1,
            threads_per_worker=1,  # the projection and the rules are pure Python: one process per core
            processes=True,
            dashboard_address=None,
            # No dashboard; the scheduler's HTTP endpoints (health, metrics) on a free port, not 8787, so that
            # several local clusters can run on one machine.
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            host="127.0.0.1",
            silence_logs=logging.ERROR,
        )
        try:
            with distributed.Client(cluster, set_as_default=False) as client:
                yield client
        finally:
            cluster.close()
        return
    _probe(address)
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TimeoutError) as error:
        raise ClusterProblem(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except (TimeoutError, OSError):
            raise ClusterProblem(
                f"the Dask scheduler at {address} has no worker: start some with `dask worker {address}`"
            ) from None
        yield client
    finally:
        client.close()


def _probe(address: str) -> None:
    """Fail at once, in one line, on an address that is malformed or where nothing listens (Dask would retry it
    for its whole timeout and then complain from a destructor)."""
    from distributed.comm.addressing import parse_address, parse_host_port  # lazy: Dask, 1.2 s to import

    try:
        scheme, where = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return
        host, port = parse_host_port(where)
    except ValueError as error:
        raise ClusterProblem(f"cannot use the Dask scheduler address {address!r}: {error}") from None
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except OSError as error:
        raise ClusterProblem(
            f"cannot reach the Dask scheduler at {address} ({error.strerror or error}): is `dask scheduler` "
            "running there?"
        ) from None


def workers_of(client: Client) -> int:
    return len(client.scheduler_info(n_workers=-1)["workers"])


def identity() -> dict[str, Any]:
    """What must be the same here and on every worker for their rows and reports to agree: Digsite's version and
    each registered game's rules version."""
    return {"digsite": version("digsite"), "rules": {kind: GAMES[kind].rules.rules_version() for kind in GAMES}}


def check_workers(client: Client) -> None:
    """Refuse a cluster whose workers run another Digsite or other rules (their read models would differ)."""
    mine = identity()
    for worker, theirs in sorted(client.run(identity).items()):
        if theirs != mine:
            raise ClusterProblem(
                f"the Dask worker {worker} runs Digsite {theirs['digsite']} with rules {theirs['rules']}, this "
                f"command Digsite {mine['digsite']} with rules {mine['rules']}: install the same on every worker"
            )


# -- the rebuild ----------------------------------------------------------------------------------------------

GAME_TOPIC_NAMES = [get_topic(t) for t in GAME_TOPICS]


@dataclass(frozen=True)
class Share:
    """Games whose records (ids <= head) one task projects and writes in one transaction."""

    index: int
    games: tuple[str, ...]
    records: int


def shares(games: Sequence[tuple[str, int]], records_per_share: int) -> list[Share]:
    """Games (id, records), in log order, packed into shares of about ``records_per_share`` records (a game
    is never split: its records must be projected in order)."""
    found: list[Share] = []
    current: list[str] = []
    count = 0
    for game_id, records in games:
        current.append(game_id)
        count += records
        if count >= records_per_share:
            found.append(Share(len(found), tuple(current), count))
            current, count = [], 0
    if current:
        found.append(Share(len(found), tuple(current), count))
    return found


def rebuild(
    client: Client,
    settings: Settings,
    *,
    batch_size: int,
    skip: frozenset[int] = frozenset(),
    progress: Callable[[int], None] | None = None,
) -> int:
    """Empty the read models and project the log up to its head again, each share of games on a worker (see the
    module docstring); the number of records read. Raises ``ShareFailed`` on a record that cannot be projected."""
    require_postgresql(settings)
    check_workers(client)
    from distributed import as_completed  # lazy: Dask, 1.2 s to import

    app = bootstrap.application(settings.log_settings())  # the log's database: a replica, when the settings name one
    read_models = ReadModels(settings.database)
    try:
        head = app.recorder.max_notification_id() or 0
        run = secrets.randbelow(2**31)
        _take_and_clear(read_models, run)
        done = _project_other_records(app, read_models, head, run, skip)
        if progress and done:
            progress(done)
        games = _games(app, head)
        futures = client.map(
            project_share,
            shares(games, batch_size),
            settings=settings,
            head=head,
            run=run,
            skip=skip,
            pure=False,
        )
        try:
            for future in as_completed(futures, loop=client.loop):
                count = future.result()
                done += count
                if progress:
                    progress(count)
        except BaseException:
            client.cancel(futures)
            raise
        finally:
            _release_workers(client)
        _release(read_models, head, run)
        read_models.analyze()
        return done
    finally:
        read_models.close()
        app.close()


def _tracking(read_models: ReadModels) -> str:
    return f'"{read_models.db.schema}".{TRACKING_TABLE}'


def _take_and_clear(read_models: ReadModels, run: int) -> None:
    """In one transaction: hold the tracking row at the run's ``HELD`` position (taken first, so that a
    follower's batch, or another run's share, in flight either committed before, and its rows are deleted here,
    or is refused after), drop markers of earlier runs, and empty every read model."""
    tracking = _tracking(read_models)
    with read_models.tracker.datastore.transaction(commit=True) as curs:
        curs.execute(f"DELETE FROM {tracking} WHERE application_name = %s", (PROJECTION_NAME,))
        curs.execute(f"DELETE FROM {tracking} WHERE application_name LIKE %s", (f"{MARKER} %",))
        eventsourcing_workarounds.insert_tracking(read_models.tracker, curs, Tracking(PROJECTION_NAME, HELD + run))
        for table in TABLES:
            curs.execute(read_models._q(f"DELETE FROM {{p}}{table}"))


def _release(read_models: ReadModels, head: int, run: int) -> None:
    """In one transaction: the tracking row from the run's hold to ``head`` (none for an empty store, as a
    single-process rebuild leaves it), and this run's markers dropped."""
    tracking = _tracking(read_models)
    with read_models.tracker.datastore.transaction(commit=True) as curs:
        curs.execute(f"DELETE FROM {tracking} WHERE application_name LIKE %s", (f"{MARKER} {run}/%",))
        curs.execute(
            f"DELETE FROM {tracking} WHERE application_name = %s AND notification_id = %s RETURNING 1",
            (PROJECTION_NAME, HELD + run),
        )
        if curs.fetchone() is None:
            raise Superseded()
        if head:
            read_models.field.refill(curs)  # (the shares left the field's sums alone: summed once, here)
            read_models.count_totals(curs)  # (and the players' totals)
            read_models.ratings.rate_all(curs)  # (and the ratings, in finish order: they depend on it)
            eventsourcing_workarounds.insert_tracking(read_models.tracker, curs, Tracking(PROJECTION_NAME, head))


def _events_table(app: DigsiteApplication) -> str:
    recorder: Any = app.recorder
    return f'"{recorder.datastore.schema}"."{recorder.events_table_name}"'


COLUMNS = "notification_id, originator_id, originator_version, topic, state"


def _select(app: DigsiteApplication, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    recorder: Any = app.recorder
    with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
        curs.execute(sql, params)
        rows: list[tuple[Any, ...]] = curs.fetchall()
        return rows


def _games(app: DigsiteApplication, head: int) -> list[tuple[str, int]]:
    """Every game with records up to ``head``, in order of its first record, with its count of records."""
    rows = _select(
        app,
        f"SELECT originator_id, count(*), min(notification_id) FROM {_events_table(app)} "
        "WHERE notification_id <= %s AND topic = ANY(%s) GROUP BY originator_id ORDER BY 3",
        (head, GAME_TOPIC_NAMES),
    )
    return [(str(game_id), int(count)) for game_id, count, _ in rows]


def _still_held(read_models: ReadModels, curs: Any, run: int) -> None:
    """Within a write's transaction: the tracking row must still be this run's hold, and stays so until the
    commit (a share lock on it: another rebuild's clear waits for this write, and this write never follows it)."""
    curs.execute(
        f"SELECT 1 FROM {_tracking(read_models)} WHERE application_name = %s AND notification_id = %s FOR SHARE",
        (PROJECTION_NAME, HELD + run),
    )
    if curs.fetchone() is None:
        raise Superseded()


def _project_other_records(
    app: DigsiteApplication, read_models: ReadModels, head: int, run: int, skip: frozenset[int]
) -> int:
    """Project the records of no game (players, tournaments) up to ``head``, in log order, in one transaction."""
    rows = _select(
        app,
        f"SELECT {COLUMNS} FROM {_events_table(app)} WHERE notification_id <= %s AND topic <> ALL(%s) "
        "ORDER BY notification_id",
        (head, GAME_TOPIC_NAMES),
    )
    _write_rows(app, read_models, rows, run, skip, marker=None)  # (the tracking row is written at the end)
    return len(rows)


def _write_rows(
    app: DigsiteApplication,
    read_models: ReadModels,
    rows: Sequence[tuple[Any, ...]],
    run: int,
    skip: frozenset[int],
    marker: Tracking | None,
) -> None:
    """Project ``rows`` and write them (with ``marker``, if any) in one transaction. If the store refuses a value
    (a NUL in a name on PostgreSQL), the record holding it is named (``ShareFailed``), as the follower names it."""
    projection = ReadModelProjection(read_models, app)
    _project_rows(app, projection, rows, skip)
    try:
        with read_models._transaction() as curs:  # (ReadModels.write less its tracking row: written once, at the end)
            _still_held(read_models, curs, run)
            read_models._write(curs, projection.take_batch())
            if marker is not None:
                eventsourcing_workarounds.insert_tracking(read_models.tracker, curs, marker)
    except REFUSED_VALUE as error:
        if isinstance(error, NOT_THE_RECORD):
            raise
        if marker is not None and read_models.tracker.max_tracking_id(marker.application_name) is not None:
            log.warning("%s was written already (its worker was lost after committing)", marker.application_name)
            return
        _name_refused(app, read_models, rows, skip)
        raise


def _name_refused(
    app: DigsiteApplication, read_models: ReadModels, rows: Sequence[tuple[Any, ...]], skip: frozenset[int]
) -> None:
    """Write ``rows`` one at a time in a transaction that is rolled back: raise ``ShareFailed`` on the first the
    store refuses (the follower's ``_one_by_one``, without keeping anything)."""
    projection = ReadModelProjection(read_models, app)
    with read_models.tracker.datastore.transaction(commit=False) as curs:
        for row in rows:
            _project_rows(app, projection, [row], skip)
            try:
                read_models._write(curs, projection.take_batch())
            except REFUSED_VALUE as error:
                if isinstance(error, NOT_THE_RECORD):
                    raise
                raise ShareFailed(_where(row), f"{type(error).__name__}: {error}".strip()) from None


def _project_rows(
    app: DigsiteApplication, projection: ReadModelProjection, rows: Sequence[tuple[Any, ...]], skip: frozenset[int]
) -> None:
    """Project rows ``(id, originator id, version, topic, state)`` in order, decoded as the follower decodes them."""
    reader = log_for(app)
    plain = isinstance(reader, PlainLog)
    for row in rows:
        if row[0] in skip:
            log.warning("skipping record %s as told", row[0])
            continue
        try:
            event = reader.decode(row if plain else _notification(row))
            projection.project(event, row[0])
        except NOT_THE_RECORD:
            raise
        except Exception as error:
            raise ShareFailed(_where(row), f"{type(error).__name__}: {error}".strip()) from None
    if rows:
        projection.projected(len(rows), max(row[0] for row in rows))


def _where(row: tuple[Any, ...]) -> dict[str, Any]:
    return {"notification_id": row[0], "originator_id": str(row[1]), "version": row[2], "topic": row[3]}


def _notification(row: tuple[Any, ...]) -> Notification:
    notification_id, originator_id, version, topic, state = row
    uid = originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
    return Notification(id=notification_id, originator_id=uid, originator_version=version, topic=topic, state=state)


def project_share(share: Share, *, settings: Settings, head: int, run: int, skip: frozenset[int]) -> int:
    """On a worker: project the share's games' records with ids <= ``head`` and write them, with the share's
    marker, in one transaction; the number of records read (the same if it had been written already)."""
    app = _kept("application", settings, lambda: bootstrap.application(settings.log_settings()))
    read_models = _kept("read models", settings, lambda: ReadModels(settings.database))
    marker = Tracking(f"{MARKER} {run}/{share.index}", head or 1)
    if settings.log_database is not None:
        _replayed_to(app, head)
    with _COLLECTOR.paused():  # as the follower's steps run (see its _Collector: a third of the time otherwise)
        rows = _select(
            app,
            f"SELECT {COLUMNS} FROM {_events_table(app)} WHERE originator_id = ANY(%s) AND notification_id <= %s "
            "ORDER BY originator_id, originator_version",
            ([UUID(g) for g in share.games], head),
        )
        _write_rows(app, read_models, rows, run, skip, marker)
    return len(rows)


def _replayed_to(app: DigsiteApplication, head: int) -> None:
    """Return once the replica a worker reads the log from holds every record up to ``head``, the head the
    coordinator noted on a replica too (a worker's may be another one, or lag behind); stop the share past
    ``REPLICA_WAIT_SECONDS``, before it reads a log that would miss records."""
    deadline = time.monotonic() + REPLICA_WAIT_SECONDS
    while (found := app.recorder.max_notification_id() or 0) < head:
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"the log's database (DIGSITE_LOG_DATABASE_URL) holds records up to {found}, not the rebuild's head "
                f"{head}, after {REPLICA_WAIT_SECONDS} s: is it a replica of DIGSITE_DATABASE_URL's database, and "
                "replaying?"
            )
        time.sleep(STANDBY_POLL_SECONDS)


# -- what a worker keeps between the tasks of a job -------------------------------------------------------------

# A worker process runs many tasks of one job: building the application and the read models' connections for
# each cost more than a small share's work (and the rules' caches stay warm). They are kept per thread (a task's
# objects are not shared between a worker's threads) and settings, and closed by ``release`` when the job ends.
_KEPT: dict[tuple[int, str, str], Any] = {}
_KEPT_GUARD = threading.Lock()
_COLLECTOR = _Collector()


def _kept(what: str, settings: Settings, make: Callable[[], T]) -> T:
    key = (threading.get_ident(), what, repr(settings))
    with _KEPT_GUARD:
        found = _KEPT.get(key)
    if found is None:
        found = make()
        with _KEPT_GUARD:
            _KEPT[key] = found
    kept: T = found
    return kept


def release() -> int:
    """On each worker once a job is over (``Client.run``): close what its tasks kept; how many."""
    with _KEPT_GUARD:
        kept = list(_KEPT.values())
        _KEPT.clear()
    for thing in kept:
        try:
            thing.close()
        except Exception as error:  # (a connection the server already dropped: nothing more to free)
            log.warning("closing %s: %s", type(thing).__name__, error)
    return len(kept)


def _release_workers(client: Client) -> None:
    try:
        client.run(release)
    except Exception as error:  # the job's own outcome is what the caller reports; this is only tidying
        log.warning("could not release the workers' connections: %s", error)


# -- the verify -----------------------------------------------------------------------------------------------


def games_verifier(client: Client, settings: Settings) -> Callable[..., list[Report]]:
    """An ``audit.GamesVerifier`` that verifies shares of games on the cluster's workers (``verify_each`` on
    each, over the worker's own service) and gathers the reports in the order of the ids."""
    require_postgresql(settings)
    check_workers(client)

    def verify_games(
        service: Digsite,
        ids: list[str],
        by_game: dict[str, list[Entry]],
        signed: dict[str, list[Entry]] | None,
        progress: Callable[[Report], None] | None,
    ) -> list[Report]:
        from distributed import as_completed  # lazy: Dask, 1.2 s to import

        chunks = [ids[i : i + VERIFY_SHARE] for i in range(0, len(ids), VERIFY_SHARE)]
        futures = [
            client.submit(
                verify_share,
                chunk,
                {g: by_game.get(g, []) for g in chunk},
                None if signed is None else {g: signed.get(g, []) for g in chunk},
                settings=settings,
                pure=False,
            )
            for chunk in chunks
        ]
        found: dict[Any, list[Report]] = {}
        try:
            for future in as_completed(futures, loop=client.loop):
                found[future.key] = future.result()
                if progress:
                    for report in found[future.key]:
                        progress(report)
        except BaseException:
            client.cancel(futures)
            raise
        finally:
            _release_workers(client)
        return [report for future in futures for report in found[future.key]]

    return verify_games


def verify_share(
    ids: list[str],
    by_game: dict[str, list[Entry]],
    signed: dict[str, list[Entry]] | None,
    *,
    settings: Settings,
) -> list[Report]:
    """On a worker: the reports of ``ids``, exactly as the single-process verify makes them."""
    return verify_each(_kept("service", settings, lambda: bootstrap.build(settings)), ids, by_game, signed)


# -- the judge ------------------------------------------------------------------------------------------------

JUDGE_AHEAD = 2  # games handed to each worker ahead of its results: busy workers, few records held at once


def judged_on(client: Client, games: Iterator[list[dict[str, Any]]], budget: int) -> Iterator[Judged]:
    """Each game of ``games`` (its stored records) judged on the cluster's workers (``judge_records``, the very
    function a single process runs: the same rows), yielded as each is done. The workers read no store: the
    records travel with the task, so any store works, SQLite included, and the caller writes the rows."""
    from distributed import as_completed  # lazy: Dask, 1.2 s to import

    check_workers(client)
    ahead = JUDGE_AHEAD * max(1, len(client.scheduler_info()["workers"]))
    futures: list[Any] = []
    done = as_completed(loop=client.loop)  # (this client's futures, not a default client's)
    try:
        for records in games:
            future = client.submit(judge_records, records, budget, pure=False)
            futures.append(future)
            done.add(future)
            while done.count() >= ahead:
                yield next(done).result()
        for future in done:
            yield future.result()
    except BaseException:
        client.cancel(futures)
        raise
