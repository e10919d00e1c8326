"""Shared fixtures. PostgreSQL tests use DIGSITE_TEST_DATABASE_URL, else the local server; under CI
(DIGSITE_REQUIRE_POSTGRES=1) a missing server is a failure, never a skip."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

DEFAULT_TEST_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


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
