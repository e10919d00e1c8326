"""Shared fixtures, and the markers a test gets from what it uses. PostgreSQL tests use DIGSITE_TEST_DATABASE_URL,
else the local server; under CI (DIGSITE_REQUIRE_POSTGRES=1) a missing server is a failure, never a skip.

The markers ``postgres``, ``browser`` and ``docker`` are not written by hand on each test: a test that uses one of
the fixtures in ``NEEDS`` (directly or through another fixture) is marked at collection, so the fast run
(``-m "not postgres and not browser and not docker and not slow"``, docs/testing.md) cannot pick up a test that
needs a server. A test that reaches such a fixture only at run time (``request.getfixturevalue``) must carry the
marker on its parameter; if it does not, it fails, naming the marker it lacks."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

DEFAULT_TEST_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres"

# marker -> the fixtures that need what it names: a PostgreSQL server (or its binaries), Chromium, a Docker daemon.
NEEDS: dict[str, frozenset[str]] = {
    "postgres": frozenset({"postgres_url", "pg_cluster", "pg_replica"}),
    "browser": frozenset({"browser"}),
    "docker": frozenset({"docker"}),
}


def missing_markers(item: pytest.Item, used: Iterable[str]) -> list[str]:
    """The markers ``item`` needs for the fixtures in ``used`` and does not carry."""
    names = set(used)
    return [marker for marker, fixtures in NEEDS.items() if names & fixtures and not item.get_closest_marker(marker)]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by the fixtures it uses (their closure: a fixture that uses ``postgres_url`` counts)."""
    for item in items:
        for marker in missing_markers(item, getattr(item, "fixturenames", ())):
            item.add_marker(marker)


@pytest.fixture(autouse=True)
def _marked_for_what_it_used(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the test: a fixture of ``NEEDS`` it reached at run time (``getfixturevalue``) without its marker is an
    error, or the fast run would start needing that server without anyone noticing."""
    yield
    missing = missing_markers(request.node, request.fixturenames)
    if missing:
        pytest.fail(f"{request.node.nodeid} uses what the marker(s) {missing} stand for: mark its parameter")


@pytest.fixture(scope="session")
def _lock_dir(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """Where this run's workers keep their locks (the directory above each worker's own), or None without xdist."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return None
    return tmp_path_factory.getbasetemp().parent


@pytest.fixture(scope="session")
def stores(tmp_path_factory: pytest.TempPathFactory, _lock_dir: Path | None) -> Any:
    """The stores built once per run and copied per test or per worker (tests/stores.py), kept in the run's
    temporary directory: under xdist the one its workers share."""
    from tests.stores import Shelf

    return Shelf((_lock_dir or tmp_path_factory.getbasetemp()) / "stores")


@pytest.fixture(autouse=True)
def _alone_when_asked(request: pytest.FixtureRequest, _lock_dir: Path | None) -> Iterator[None]:
    """Under xdist, a test marked ``alone`` runs while no other worker runs a test: it bounds how long answers take,
    and a neighbour on the same two cores would make that bound a measure of the neighbour (xdist's groups only
    keep tests on one worker; they do not keep the others waiting). A readers-writer lock over files: every test
    holds ``tests.lock`` shared, an ``alone`` test holds it exclusive; ``gate.lock`` lets a waiting ``alone``
    test go before the next shared ones, so it is not starved. Without xdist there is nothing to wait for."""
    if _lock_dir is None:
        yield
        return
    alone = request.node.get_closest_marker("alone") is not None
    with open(_lock_dir / "gate.lock", "a+") as gate, open(_lock_dir / "tests.lock", "a+") as tests:
        fcntl.flock(gate, fcntl.LOCK_EX)
        fcntl.flock(tests, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(tests, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    url = os.environ.get("DIGSITE_TEST_DATABASE_URL", DEFAULT_TEST_DATABASE_URL)
    required = bool(os.environ.get("DIGSITE_REQUIRE_POSTGRES"))
    psycopg = __import__("psycopg") if required else pytest.importorskip("psycopg")
    last: Exception | None = None
    for _ in range(20):  # the server may still be starting: retry for up to ~10 s
        try:
            with psycopg.connect(url, connect_timeout=2):
                return url
        except psycopg.OperationalError as exc:
            last = exc
            time.sleep(0.5)
    if required:
        pytest.fail(f"PostgreSQL is required here but unreachable at {url}: {last}")
    pytest.skip(f"no PostgreSQL at {url}")


@pytest.fixture(scope="module")
def pg_cluster() -> Iterator[Any]:
    """A private PostgreSQL cluster of this module's own, which its tests may stop, start or make read-only (the
    shared server is never touched): tests/service/pgcluster.py."""
    from tests.service.pgcluster import private_cluster

    started = private_cluster()
    try:
        yield started
    finally:
        started.destroy()


@pytest.fixture(scope="module")
def pg_replica() -> Iterator[Any]:
    """A private primary and a hot standby streaming from it, of this module's own (tests/service/pgcluster.py):
    ``(primary, standby)``, both destroyed after the module's tests."""
    from tests.service.pgcluster import private_cluster, private_standby

    primary = private_cluster()
    try:
        standby = private_standby(primary)
        try:
            yield primary, standby
        finally:
            standby.destroy()
    finally:
        primary.destroy()
