"""``digsite projections``: keep the read models up to date (run) or build them again (rebuild)."""

from __future__ import annotations

import logging
import signal
import threading

import click

from service import bootstrap
from service.cli import main
from service.projections.follower import Follower, UnprojectableRecord

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


@projections.command()
@click.option(
    "--batch-size", default=Follower.BATCH_SIZE, show_default=True, help="Notifications per transaction (at most)."
)
@click.option("--skip", type=int, multiple=True, metavar="ID", help=SKIP_HELP)
def run(batch_size: int, skip: tuple[int, ...]) -> None:
    """Follow the event store until stopped (Ctrl-C or SIGTERM); safe to kill and restart at any time.

    Stops with exit code 3 at a record it cannot project, once every record before it is projected."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    follower = bootstrap.follower(batch_size=batch_size, skip=frozenset(skip))
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    click.echo(f"projections: following {follower.settings.database.display()} from position {follower.position()}")
    try:
        follower.run_forever(stop, on_batch=lambda n: click.echo(f"projected {n} record(s); at {follower.written}"))
    except UnprojectableRecord as error:
        raise Unprojectable(str(error)) from None
    finally:
        follower.close()
    click.echo("projections: stopped")


@projections.command()
@click.option("--batch-size", default=Follower.BATCH_SIZE, show_default=True)
@click.option("--skip", type=int, multiple=True, metavar="ID", help=SKIP_HELP)
def rebuild(batch_size: int, skip: tuple[int, ...]) -> None:
    """Empty the read models and project the whole event store again, with progress.

    Stops with exit code 3 at a record it cannot project, once every record before it is projected."""
    follower = bootstrap.follower(batch_size=batch_size, skip=frozenset(skip))
    try:
        total = follower.app.recorder.max_notification_id() or 0
        with click.progressbar(length=total, label="rebuilding read models") as bar:
            done = follower.rebuild(progress=bar.update)
        click.echo(f"rebuilt from {done} record(s)")
    except UnprojectableRecord as error:
        raise Unprojectable(str(error)) from None
    finally:
        follower.close()


@projections.command()
def status() -> None:
    """Where the projections are, and how far behind the event store."""
    follower = bootstrap.follower()
    try:
        click.echo(f"position {follower.position()}, {follower.behind()} record(s) behind")
    finally:
        follower.close()
