"""What a command says when the store is not there to work with: one line "Error: ...", never a traceback.

Four states are told apart, because each needs something else done:
- a malformed DIGSITE_DATABASE_URL (fix the variable);
- a database that cannot be reached, or refuses the user (start the server, fix the host, port or password);
- a database that does not exist (``createdb``; for SQLite, ``digsite db upgrade`` creates the file);
- a schema that is not up to date (``digsite db upgrade``).
Exit code 1 for each, as for any other error (``digsite db status`` and the audit commands say 2: the command
could not run, which they tell apart from 1, "migrations pending" and "a check failed").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click
from eventsourcing.persistence import InterfaceError, OperationalError

from service.bootstrap import build
from service.commands.application import Digsite
from service.errors import ServiceError
from service.settings import Database, MalformedDatabaseURL, Settings
from service.store import backends


class StoreProblem(click.ClickException):
    """The store is unreachable, missing, not upgraded, or its URL is malformed."""


def settings(**overrides: Any) -> Settings:
    """The settings from the environment, or the one line that says what is wrong with DIGSITE_DATABASE_URL."""
    try:
        return Settings.from_env(**overrides)
    except MalformedDatabaseURL as error:
        raise StoreProblem(str(error)) from None


def reachable(db: Database) -> None:
    """Stop with one line unless the store exists and answers (its schema may still be old)."""
    try:
        backends.reach(db)
    except backends.StoreUnavailable as error:
        raise StoreProblem(error.message) from None


def ready(db: Database) -> None:
    """Stop with one line unless the store exists, answers, and has every migration applied."""
    reachable(db)
    try:
        missing = backends.pending(db)
    except backends.StoreUnavailable as error:
        raise StoreProblem(error.message) from None
    if missing:
        raise StoreProblem(
            f"the schema of {db.display()} is not up to date (migrations {', '.join(missing)} not applied): "
            "run `digsite db upgrade`"
        )


def log_ready(found: Settings) -> None:
    """Stop with one line unless the log's database (DIGSITE_LOG_DATABASE_URL), when the settings name one, answers
    and holds every migration: a replica of the store, as far as one can tell from here."""
    log_db = found.log_database
    if log_db is None:
        return
    try:
        backends.reach(log_db)
        missing = backends.pending(log_db)
    except backends.StoreMissing:
        raise StoreProblem(
            f"there is no database {log_db.dbname} at {log_db.host}:{log_db.port}, which DIGSITE_LOG_DATABASE_URL "
            "names: it must name a replica of the database DIGSITE_DATABASE_URL names"
        ) from None
    except backends.StoreUnavailable as error:
        message = error.message.replace("DIGSITE_DATABASE_URL", "DIGSITE_LOG_DATABASE_URL")
        raise StoreProblem(f"the log's database (DIGSITE_LOG_DATABASE_URL): {message}") from None
    if missing:
        raise StoreProblem(
            f"the log's database {log_db.display()} (DIGSITE_LOG_DATABASE_URL) lacks migrations {', '.join(missing)}: "
            "it must name a replica of the database DIGSITE_DATABASE_URL names, with the same schema (a replica "
            "that has not yet replayed `digsite db upgrade` catches up by itself)"
        )


def as_line(error: BaseException) -> click.ClickException | None:
    """The one-line error for a store failure that reached a command's top (the safety net of ``digsite``);
    None for anything else (a bug, which keeps its traceback)."""
    if isinstance(error, MalformedDatabaseURL):
        return StoreProblem(str(error))
    if isinstance(error, backends.StoreUnavailable):
        return StoreProblem(error.message)
    if isinstance(error, backends.SchemaError):
        return click.ClickException(str(error))

    if isinstance(error, (OperationalError, InterfaceError)):  # the library's, after its retries
        return StoreProblem(f"the store stopped answering: {error}; try again once the database is back")
    return None


@contextmanager
def service_or_exit(code: int) -> Iterator[Digsite]:
    """The service over the store the environment names, closed afterwards. A store not ready, or a service error
    while the block runs, ends the command with its one line "Error: ..." and exit ``code`` (the audit commands
    and ``digsite analyse`` say 2: the command could not run)."""

    def stop(message: str) -> NoReturn:
        click.echo(f"Error: {message}", err=True)
        raise SystemExit(code)

    try:
        found = settings()
        ready(found.database)  # unreachable, missing and not upgraded each say so, and what to do
        service = build(found)
    except StoreProblem as error:
        stop(error.message)
    except (ServiceError, ValueError) as error:
        stop(getattr(error, "message", str(error)))
    try:
        yield service
    except ServiceError as error:
        stop(error.message)
    finally:
        service.close()
