"""``digsite db``: the schema of the store, created and upgraded explicitly."""

from __future__ import annotations

import sqlite3

import click
import psycopg

from service.cli import main
from service.cli.problems import StoreProblem, reachable, settings
from service.store import backends

EXIT_CANNOT_TELL = 2  # 1 is "migrations pending": a database that cannot be read is neither up to date nor pending


@main.group()
def db() -> None:
    """The database schema (DIGSITE_DATABASE_URL; default: an SQLite file in Digsite's data directory)."""


@db.command()
def upgrade() -> None:
    """Create or upgrade the schema. Safe to run again: applied migrations are skipped.

    On SQLite it creates the file; on PostgreSQL the database must exist (createdb)."""
    database = settings().database
    click.echo(f"Upgrading {database.display()}")
    try:
        applied = backends.upgrade(database, report=click.echo)  # unreachable or missing: one line (problems.as_line)
    except (sqlite3.Error, psycopg.Error) as error:  # a statement the database refused: no rights, a clashing table
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise click.ClickException(
            f"the upgrade of {database.display()} stopped and changed nothing (it runs as one transaction): {reason}"
        ) from None
    click.echo(f"applied {len(applied)} migration(s)" if applied else "already up to date")


@db.command()
def status() -> None:
    """List migrations not yet applied.

    Exit code 0: up to date; 1: migrations pending (run `digsite db upgrade`); 2: the database is unreachable
    or does not exist."""
    try:
        database = settings().database
        reachable(database)
    except StoreProblem as error:
        click.echo(f"Error: {error.message}", err=True)
        raise SystemExit(EXIT_CANNOT_TELL) from None
    missing = backends.pending(database)
    click.echo(f"{database.display()}: " + (f"pending {', '.join(missing)}" if missing else "up to date"))
    if missing:
        click.echo("run `digsite db upgrade` to apply them")
    raise SystemExit(1 if missing else 0)
