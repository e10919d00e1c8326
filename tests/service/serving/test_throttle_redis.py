"""The throttle's counts shared through redis (``DIGSITE_THROTTLE_STORAGE``), as several worker processes would
share them: a redis server of the test's own on a Unix socket, two API apps (two workers) counting in it; and a
storage that cannot be reached, answered 503 by the API and the dashboard. Skipped where redis-server or the
``redis`` package is missing."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard import create_dashboard
from dashboard.access import AccessSettings
from service.api import create_app
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.serving.throttle import ORGANISER_KEY, SEAT_TOKEN, Throttle, Throttled, storage_from_uri
from tests.dashboard.client import Browser

redis = pytest.importorskip("redis")
pytestmark = pytest.mark.slow  # a server started and stopped

HERE = "203.0.113.7"


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    socket = Path(tmp_path_factory.mktemp("redis")) / "redis.sock"
    server = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(socket), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(unix_socket_path=str(socket))
        deadline = time.monotonic() + 10
        while True:  # until the server answers (it starts in milliseconds; ten seconds is a failure)
            try:
                client.ping()
                break
            except redis.exceptions.ConnectionError:
                assert time.monotonic() < deadline and server.poll() is None, "redis-server did not start"
                time.sleep(0.02)
        client.close()
        yield str(socket)
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def redis_uri(redis_server: str) -> str:
    """The module's redis server, emptied: a test's counts must not meet the previous test's (or parameter's)."""
    client = redis.Redis(unix_socket_path=redis_server)
    client.flushall()
    client.close()
    return f"redis+unix://{redis_server}"


def test_two_throttles_over_one_redis_count_together(redis_uri: str) -> None:
    first, second = (Throttle(failures=3, window=60, storage=storage_from_uri(redis_uri)) for _ in range(2))
    first.failed(ORGANISER_KEY, HERE)
    second.failed(ORGANISER_KEY, HERE)
    first.check(ORGANISER_KEY, HERE)  # two of three
    second.failed(ORGANISER_KEY, HERE)
    for throttle in (first, second):
        with pytest.raises(Throttled) as shut:
            throttle.check(ORGANISER_KEY, HERE)
        assert 59 <= shut.value.retry_after <= 60
    first.failed(SEAT_TOKEN, HERE, "game-a")  # the kinds stay apart in the shared storage too
    second.check(SEAT_TOKEN, HERE, "game-a")


def test_workers_sharing_redis_give_one_allowance(
    redis_uri: str, service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under ``gunicorn -w 2`` with the storage set, wrong keys spread over the workers shut the door after five
    in all, not five in each."""
    monkeypatch.setenv("DIGSITE_THROTTLE_STORAGE", redis_uri)
    workers = [create_app(service=service).test_client() for _ in range(2)]
    wrong = {"Authorization": "Bearer not-the-key"}
    answers = [workers[n % 2].get("/api/v1/players", headers=wrong).status_code for n in range(5)]
    assert answers == [401] * 5
    for worker in workers:
        refused = worker.get("/api/v1/players", headers={"Authorization": "Bearer organiser-key"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 299


def test_an_unreachable_storage_answers_503_and_compares_nothing(
    service: Digsite, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    nowhere = f"redis+unix://{tmp_path / 'no-such.sock'}"
    monkeypatch.setenv("DIGSITE_THROTTLE_STORAGE", nowhere)
    client = create_app(service=service).test_client()
    for key in ("organiser-key", "not-the-key"):  # right and wrong alike
        answer = client.get("/api/v1/players", headers={"Authorization": f"Bearer {key}"})
        assert answer.status_code == 503 and answer.get_json()["error"]["code"] == "throttle_unavailable"
        assert "cannot be reached" in answer.get_json()["error"]["message"] and answer.headers["Retry-After"]
    read = ReadPort.over(service.reader)
    try:
        settings = AccessSettings(api_key="organiser-key", secret=b"a secret long enough", throttle_storage=nowhere)
        dashboard = Browser(create_dashboard(read, service, access=settings))
        page = dashboard.post("login", data={"key": "organiser-key", "csrf": dashboard.csrf()})
        assert page.status_code == 503 and "cannot be checked just now" in page.get_data(as_text=True)
        assert page.headers["Retry-After"] and dashboard.session_cookie() is None
        link = dashboard.get(f"/replay/{uuid.uuid4()}?token=some-token")
        assert link.status_code == 503 and link.headers["Retry-After"]
    finally:
        read.close()
