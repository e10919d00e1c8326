"""The dashboard during a database outage: a page or callback that needs the store answers at once (503 with
Retry-After, or a page saying so), never waits out a connection pool, and works again once the database is back,
without a restart. A private PostgreSQL cluster is stopped and started (tests/service/pgcluster.py)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator

import psycopg
import pytest

from dashboard import create_dashboard
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends
from service.store.backends import StoreUnavailable
from tests.dashboard.client import organiser, text
from tests.dashboard.conftest import TEST_SECRET, access_settings
from tests.service.pgcluster import Cluster

pytestmark = pytest.mark.postgres
QUICK = 5.0  # seconds: far below the pool's default 30 s wait, above the 2 s connect timeout


@pytest.fixture
def queries(pg_cluster: Cluster) -> Iterator[tuple[ReadPort, Digsite]]:
    db = Database.from_url(f"{pg_cluster.url}?schema=dash_outage_{secrets.token_hex(4)}")
    backends.upgrade(db)
    # The private cluster commits without waiting for the log (synchronous_commit=off): the schema is written out
    # before the test stops the server at once, or the tables made just now may be lost with it.
    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")
    service = Digsite(Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET))
    found = ReadPort.over(service.reader)
    try:
        yield found, service
    finally:
        if not pg_cluster.running:
            pg_cluster.start()
        found.close()
        service.close()


def test_pages_fail_at_once_while_the_store_is_down_and_work_again_after(
    pg_cluster: Cluster, queries: tuple[ReadPort, Digsite]
) -> None:
    queries, service = queries  # type: ignore[assignment]
    browser = organiser(create_dashboard(queries, service, access=access_settings(failures=1000)))
    assert browser.games_response().status_code == 200
    assert queries.lists.tournaments() == []

    pg_cluster.stop("immediate")
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        queries.lists.tournaments()
    refused = browser.games_response()
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
    assert refused.get_json()["error"]["code"] == "store_unavailable"
    assert "The store is unreachable" in text(browser.route("/games"))
    assert time.monotonic() - started < 3 * QUICK, "each answer came at once, not after the pool's wait"

    pg_cluster.start()
    deadline = time.monotonic() + 30
    while True:  # the pool reconnects by itself; the first reads may still find stale connections checked out
        try:
            assert queries.lists.tournaments() == []
            break
        except StoreUnavailable:
            assert time.monotonic() < deadline, "the read models never came back"
            time.sleep(0.2)
    assert browser.games_response().status_code == 200
