"""``digsite projections``: keep the read models up to date (run) or build them again (rebuild)."""

from __future__ import annotations

import logging
import signal
import threading

import click

from service import bootstrap
from service.cli.group import main
from service.cli.problems import log_ready, ready, settings
from service.cli.progress import ProgressReporter
from service.cluster import dask_jobs
from service.cluster.dask_jobs import held
from service.reading.projections.follower import Follower, UnprojectableRecord
from service.reading.projections.ratings import UNRATED_ADVICE
from service.settings import Settings
from service.store.backends import StoreUnavailable

SKIP_HELP = (
    "Notification id of a record to pass over without projecting it (repeatable): only for a record the "
    "projection said it cannot project, once you have looked at it (docs/projections.md)."
)

EXIT_UNPROJECTABLE = 3  # `digsite up` tells this apart from a crash: restarting would stop at the same record


class Unprojectable(click.ClickException):
    exit_code = EXIT_UNPROJECTABLE


@main.group()
def projections() -> None:
    """Read models for replay and analytics, derived from the event store."""


def _ready_settings() -> Settings:
    """The settings, once the store (and the log's database, if set) is known to exist, answer and be upgraded
    (else one line and exit 2)."""
    found = settings()
    ready(found.database)
    log_ready(found)
    return found


@projections.command()
@click.option(
    "--batch-size", default=Follower.BATCH_SIZE, show_default=True, help="Notifications per transaction (at most)."
)
@click.option("--skip", type=int, multiple=True, metavar="ID", help=SKIP_HELP)
@click.option(
    "--progress-every",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="How often to print a progress line (records per second, position, lag) while records arrive; "
    "nothing is printed while the store is idle.",
)
def run(batch_size: int, skip: tuple[int, ...], progress_every: float) -> None:
    """Follow the event store until stopped (Ctrl-C or SIGTERM); safe to kill and restart at any time.

    Stops with exit code 3 at a record it cannot project, once every record before it is projected."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    follower = bootstrap.follower(_ready_settings(), batch_size=batch_size, skip=frozenset(skip))
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    start = follower.position()
    where = follower.settings.database.display()
    if follower.settings.log_database is not None:
        where = f"the log of {follower.settings.log_database.display()} into {where}"
    click.echo(f"projections: following {where} from position {start}, {follower.behind()} record(s) behind")
    progress = ProgressReporter(follower, start, every=progress_every, say=click.echo)
    progress.start()
    try:
        follower.run_forever(stop, on_batch=progress.add)
    except UnprojectableRecord as error:
        raise Unprojectable(str(error)) from None
    finally:
        progress.stop()
        follower.close()
    click.echo("projections: stopped")


CLUSTER_HELP = (
    "Split the rebuild by game across the workers of the Dask scheduler at ADDRESS (tcp://HOST:8786; "
    "PostgreSQL stores only; docs/deploy.md)."
)
WORKERS_HELP = "Split the rebuild by game across a local Dask cluster of N processes (PostgreSQL stores only)."


@projections.command()
@click.option(
    "--batch-size",
    default=Follower.BATCH_SIZE,
    show_default=True,
    help="Notifications per transaction (at most); distributed: records per worker task (one transaction each).",
)
@click.option("--skip", type=int, multiple=True, metavar="ID", help=SKIP_HELP)
@click.option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)
@click.option("--workers", type=click.IntRange(min=1), metavar="N", help=WORKERS_HELP)
def rebuild(batch_size: int, skip: tuple[int, ...], cluster: str | None, workers: int | None) -> None:
    """Empty the read models and project the whole event store again, with progress.

    Stops with exit code 3 at a record it cannot project, once every record before it is projected (distributed:
    the read models stay held and incomplete until a rebuild succeeds)."""
    if cluster is not None or workers is not None:
        _rebuild_distributed(batch_size, frozenset(skip), cluster, workers)
        return
    follower = bootstrap.follower(_ready_settings(), batch_size=batch_size, skip=frozenset(skip))
    try:
        total = follower.app.recorder.max_notification_id() or 0
        with click.progressbar(length=total, label="rebuilding read models") as bar:
            done = follower.rebuild(progress=bar.update)
        click.echo(f"rebuilt from {done} record(s)")
    except UnprojectableRecord as error:
        raise Unprojectable(str(error)) from None
    finally:
        follower.close()


def _rebuild_distributed(batch_size: int, skip: frozenset[int], cluster: str | None, workers: int | None) -> None:
    """The rebuild split by game on Dask (service/cluster/dask_jobs.py)."""
    if cluster is not None and workers is not None:
        raise click.ClickException("give --cluster ADDRESS (its workers are used) or --workers N, not both")
    found = _ready_settings()
    try:
        dask_jobs.require_dask(f"digsite projections rebuild {'--cluster' if cluster is not None else '--workers'}")
        dask_jobs.require_postgresql(found)
        with dask_jobs.engine(cluster, workers) as client:
            where = cluster or f"a local cluster of {workers} process(es)"
            click.echo(f"rebuilding on {where}: {dask_jobs.workers_of(client)} worker(s)")
            app = bootstrap.application(found.log_settings())
            try:
                total = app.recorder.max_notification_id() or 0
            finally:
                app.close()
            with click.progressbar(length=total, label="rebuilding read models") as bar:
                done = dask_jobs.rebuild(client, found, batch_size=batch_size, skip=skip, progress=bar.update)
    except dask_jobs.ClusterProblem as error:
        raise click.ClickException(str(error)) from None
    except dask_jobs.ShareFailed as error:
        raise Unprojectable(str(error)) from None
    except (click.ClickException, StoreUnavailable):
        raise
    except Exception as error:  # a worker lost too often, the store gone away...: one line, and what to do
        raise click.ClickException(
            f"the distributed rebuild failed ({type(error).__name__}: {error}); the read models are held incomplete "
            "(no follower writes into them) until a rebuild succeeds: run it again"
        ) from None
    click.echo(f"rebuilt from {done} record(s)")


@projections.command()
def status() -> None:
    """Where the projections are, and how far behind the event store."""
    follower = bootstrap.follower(_ready_settings())
    try:
        if held(follower.position()):
            click.echo(
                "held by a distributed rebuild: running, or it failed and the read models are incomplete "
                "(then run `digsite projections rebuild` again)"
            )
            return
        click.echo(f"position {follower.position()}, {follower.behind()} record(s) behind")
        if unrated := follower.read_models.unrated():
            click.echo(UNRATED_ADVICE.format(n=unrated))
    finally:
        follower.close()
