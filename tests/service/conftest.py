"""Service fixtures: the same story runs on SQLite and on a real PostgreSQL (one fresh schema per test)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store.backends import upgrade
from tests.stores import Shelf


def _drop_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(Database.from_url(url).psycopg_conninfo(), autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, stores: Shelf
) -> Iterator[Database]:
    """A migrated, empty store: an SQLite file (a copy of the run's one empty store, migrated once), or a new
    schema on the test PostgreSQL server."""
    if request.param == "sqlite":
        yield stores.sqlite("empty").copy(tmp_path_factory.mktemp("store"))
        return
    with fresh_schema(request.getfixturevalue("postgres_url")) as db:
        yield db


@contextmanager
def fresh_schema(base: str) -> Iterator[Database]:
    """A new, migrated schema on the PostgreSQL server ``base`` names, dropped afterwards."""
    schema = f"digsite_test_{secrets.token_hex(6)}"
    separator = "&" if "?" in base else "?"
    db = Database.from_url(f"{base}{separator}schema={schema}")
    upgrade(db)
    try:
        yield db
    finally:
        _drop_schema(base, schema)


@contextmanager
def another_store(database: Database, request: pytest.FixtureRequest) -> Iterator[Database]:
    """A second migrated, empty store on the same backend as ``database``: a copy of the run's empty SQLite store
    in a folder of its own, or a new schema in ``database``'s PostgreSQL database."""
    if database.backend == "sqlite":
        stores: Shelf = request.getfixturevalue("stores")
        yield stores.sqlite("empty").copy(request.getfixturevalue("tmp_path_factory").mktemp("other"))
        return
    with fresh_schema(database.url.split("?")[0]) as other:
        yield other


@pytest.fixture
def pg(postgres_url: str) -> Iterator[Database]:
    """A migrated, empty store on the test PostgreSQL server only (for what SQLite cannot do)."""
    with fresh_schema(postgres_url) as db:
        yield db


@contextmanager
def opened_service(database: Database) -> Iterator[Digsite]:
    """A service on ``database`` (the organisers' key the tests use), closed after the block: another service on the
    same store stands for another process (a gunicorn worker, the CLI)."""
    svc = Digsite(Settings(database=database, api_key="organiser-key"))
    try:
        yield svc
    finally:
        svc.close()


@pytest.fixture
def service(database: Database) -> Iterator[Digsite]:
    with opened_service(database) as svc:
        yield svc


@pytest.fixture
def queries(service: Digsite) -> Iterator[ReadPort]:
    """The read side's queries on the service's store, closed after the test."""
    made = ReadPort.over(service.reader)
    try:
        yield made
    finally:
        made.close()
