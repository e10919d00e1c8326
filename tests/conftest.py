"""Shared fixtures. PostgreSQL tests use DIGSITE_TEST_DATABASE_URL, else the local server; under CI
(DIGSITE_REQUIRE_POSTGRES=1) a missing server is a failure, never a skip."""

from __future__ import annotations

import os
import time

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
