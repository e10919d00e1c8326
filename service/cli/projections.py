"""``digsite projections``: keep the read models up to date (run) or build them again (rebuild)."""

from __future__ import annotations

import logging
import signal
import threading

import click

from service.cli import main
from service.projections.follower import Follower


@main.group()
def projections() -> None:
    """Read models for replay and analytics, derived from the event store."""


@projections.command()
@click.option(
    "--batch-size", default=Follower.BATCH_SIZE, show_default=True, help="Notifications per transaction (at most)."
)
def run(batch_size: int) -> None:
    """Follow the event store until stopped (Ctrl-C or SIGTERM); safe to kill and restart at any time."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    follower = Follower(batch_size=batch_size)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    click.echo(f"projections: following {follower.settings.database.display()} from position {follower.position()}")
    try:
        follower.run_forever(stop, on_batch=lambda n: click.echo(f"projected {n} record(s); at {follower.written}"))
    finally:
        follower.close()
    click.echo("projections: stopped")


@projections.command()
@click.option("--batch-size", default=Follower.BATCH_SIZE, show_default=True)
def rebuild(batch_size: int) -> None:
    """Empty the read models and project the whole event store again, with progress."""
    follower = Follower(batch_size=batch_size)
    try:
        total = follower.app.recorder.max_notification_id() or 0
        with click.progressbar(length=total, label="rebuilding read models") as bar:
            done = follower.rebuild(progress=bar.update)
        click.echo(f"rebuilt from {done} record(s)")
    finally:
        follower.close()


@projections.command()
def status() -> None:
    """Where the projections are, and how far behind the event store."""
    follower = Follower()
    try:
        click.echo(f"position {follower.position()}, {follower.behind()} record(s) behind")
    finally:
        follower.close()
