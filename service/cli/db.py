"""``digsite db``: the schema of the store, created and upgraded explicitly."""

from __future__ import annotations

import sqlite3

import click
import psycopg

from service.cli.group import main
from service.cli.problems import StoreProblem, reachable, settings
from service.store import backends
from service.store.read_models import every_table

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


@db.command("read-models")
@click.option(
    "--backend",
    type=click.Choice(["sqlite", "postgresql"]),
    help="The backend to write them for (default: the store's, DIGSITE_DATABASE_URL).",
)
def read_models_ddl(backend: str | None) -> None:
    """Print the read models' CREATE statements, as `digsite db upgrade` makes them from their declarations.

    Reads no database: for a review, or a database administrator's own tooling."""
    database = settings().database
    backend = backend or database.backend
    for table in every_table():
        for statement in table.create_statements(backend, database.schema if backend == "postgresql" else ""):
            click.echo(f"{statement};")


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
