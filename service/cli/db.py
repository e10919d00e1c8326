"""``digsite db``: the schema of the store, created and upgraded explicitly."""

from __future__ import annotations

import click

from service import store
from service.cli import main
from service.settings import Settings


@main.group()
def db() -> None:
    """The database schema (DIGSITE_DATABASE_URL; default: an SQLite file in your data directory)."""


@db.command()
def upgrade() -> None:
    """Create or upgrade the schema. Safe to run again: applied migrations are skipped."""
    database = Settings.from_env().database
    click.echo(f"Upgrading {database.display()}")
    applied = store.upgrade(database, report=click.echo)
    click.echo(f"applied {len(applied)} migration(s)" if applied else "already up to date")


@db.command()
def status() -> None:
    """List migrations not yet applied (exit code 1 if any)."""
    database = Settings.from_env().database
    missing = store.pending(database)
    click.echo(f"{database.display()}: " + (f"pending {', '.join(missing)}" if missing else "up to date"))
    raise SystemExit(1 if missing else 0)
