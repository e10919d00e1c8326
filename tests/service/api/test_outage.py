"""The database goes away under load and comes back: every answer meanwhile is a quick 503 with Retry-After
(never a 500, never a hang), /health says so, and play resumes without restarting the API, with every move
that was acknowledged in the store exactly once. Also: bots playing through an outage, a restart the API did
not see (stale connections), an API started during an outage, a read-only database, and kill -9 of the API
under load. The PostgreSQL tests run on a private cluster that they stop and start (tests/service/pgcluster.py;
the shared test server is never touched), with the API in this process, under gunicorn or `digsite serve`.
On SQLite: a locked file and a file that cannot be read are 503s too."""

from __future__ import annotations

import http.client
import json
import os
import random
import secrets
import signal
import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from werkzeug.serving import WSGIRequestHandler, make_server

from domain.ruins.bots import HeuristicBot
from service.api import create_app
from service.bots.seat_client import BotClient
from service.commands.application import Digsite
from service.errors import Unavailable
from service.integrity import audit
from service.settings import Database, Settings
from service.store import backends
from service.store.pgrecorder import PROBE_INTERVAL_SECONDS
from tests.service.api.test_serve import Server
from tests.service.pgcluster import Cluster

KEY = "outage-key"
QUICK = 2.0  # seconds: no answer may take longer, in any phase (a hang on the pool or on retries would)
WAIT = 20.0  # seconds: the bound on waiting for a condition (a healthy run meets each in well under one)
TABLES = 4  # games played at once, one client thread each

# Every answer is timed against QUICK: under xdist no other test runs meanwhile (tests/conftest.py), or the bound
# would measure the neighbour on the same cores rather than the API.
pytestmark = pytest.mark.alone


class QuietHandler(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """No access log line per request."""


@pytest.fixture
def service(pg_cluster: Cluster) -> Iterator[Digsite]:
    """A service on a fresh schema of the private cluster; the cluster is left running whatever the test did."""
    db = Database.from_url(f"{pg_cluster.url}?schema=outage_{secrets.token_hex(4)}")
    backends.upgrade(db)
    svc = Digsite(Settings(database=db, api_key=KEY, snapshot_interval=10))
    try:
        yield svc
    finally:
        svc.close()
        if not pg_cluster.running:
            pg_cluster.start()


@pytest.fixture
def base(service: Digsite) -> Iterator[str]:
    httpd = make_server("127.0.0.1", 0, create_app(service=service), threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/api/v1"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()


@pytest.fixture(params=["in-process", "gunicorn"])
def served(request: pytest.FixtureRequest, service: Digsite, tmp_path: Path) -> Iterator[str]:
    """The API on the service's store: in this process (the ``base`` fixture), or gunicorn with two workers
    of four threads each, every worker finding the outage and the recovery on its own."""
    if request.param == "in-process":
        yield request.getfixturevalue("base")
        return
    env = {**os.environ, "DIGSITE_DATABASE_URL": service.settings.database.url, "DIGSITE_API_KEY": KEY}
    env.update(HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "gunicorn", "-w", "2", "-k", "gthread", "--threads", "4", "-b", "127.0.0.1:0"]
    server = Server([*argv, "service.serving.wsgi:app"], env)
    try:
        listening = server.wait_for(r"Listening at: (http://127\.0\.0\.1:\d+)").group(1)
        server.wait_for(r"Booting worker")
        yield f"{listening}/api/v1"
    finally:
        server.stop(signal.SIGTERM)


@dataclass
class Answer:
    method: str
    started: float
    elapsed: float
    status: int
    body: Any
    retry_after: str | None

    @property
    def code(self) -> str | None:
        return self.body.get("error", {}).get("code") if isinstance(self.body, dict) else None


def call(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Answer:
    request = urllib.request.Request(f"{base}{path}", method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, data, timeout=WAIT) as response:
            status, payload, retry_after = response.status, json.load(response), response.headers.get("Retry-After")
    except urllib.error.HTTPError as error:
        with error:
            status, payload, retry_after = error.code, json.load(error), error.headers.get("Retry-After")
    return Answer(method, started, time.monotonic() - started, status, payload, retry_after)


@dataclass(eq=False)  # a thread must stay hashable
class Table(threading.Thread):
    """One client playing every seat of one game over HTTP: it reads, picks a legal move, posts it on the
    version it read, and keeps going whatever the answers (on anything but 200 it reads again)."""

    base: str
    created: dict[str, Any]
    stop: threading.Event
    answers: list[Answer] = field(default_factory=list)
    acked: list[tuple[int, int, dict[str, Any], float]] = field(default_factory=list)  # version, seat, action, when
    over: bool = False

    def __post_init__(self) -> None:
        super().__init__(daemon=True)
        self.rng = random.Random(self.created["id"])

    def _call(self, method: str, path: str, token: str, body: Any = None) -> Answer:
        try:
            answer = call(self.base, method, path, token, body)
        except (urllib.error.URLError, ConnectionError, http.client.HTTPException) as error:  # the API is gone
            answer = Answer(
                method, time.monotonic(), 0.0, 0, {"error": {"code": "no_answer", "message": str(error)}}, None
            )
            time.sleep(0.02)
        self.answers.append(answer)
        return answer

    def run(self) -> None:
        game_path = f"/games/{self.created['id']}"
        tokens = [t["token"] for t in self.created["tokens"]]
        deadline = time.monotonic() + 6 * WAIT
        while not self.stop.is_set() and time.monotonic() < deadline:
            seen = self._call("GET", game_path, KEY)
            if seen.status != 200:
                time.sleep(0.02)
                continue
            if seen.body["status"] == "over":
                self.over = True
                return
            seat = seen.body["to_act"][0]
            mine = self._call("GET", game_path, tokens[seat])
            if mine.status != 200:
                continue
            action = self.rng.choice(mine.body["legal_actions"])
            move = {"version": mine.body["version"], "action": action}
            moved = self._call("POST", f"{game_path}/actions", tokens[seat], move)
            if moved.status == 200:
                self.acked.append((mine.body["version"], seat, action, time.monotonic()))


def until(condition: Any, what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout} s: {what}")
        time.sleep(0.02)


def new_games(service: Digsite, count: int, seats: int = 3) -> list[dict[str, Any]]:
    players = [service.create_player(f"P{i}") for i in range(seats)]
    return [service.create_game("ruins", players, seed=f"outage-{n}") for n in range(count)]


def assert_acknowledged_moves_stored_once(service: Digsite, tables: list[Table]) -> None:
    """Each acknowledged move is the stored record right after the version it was made on, and each game's
    stream is whole: hash chain, seed and every move re-decided by the rules."""
    for table in tables:
        records = {r["version"]: r for r in service.stored_records(table.created["id"])}
        for version, seat, action, _ in table.acked:
            record = records.get(version + 1)
            assert record is not None and record["type"] == "move", (version, action)
            assert (record["body"]["seat"], record["body"]["action"]) == (seat, action)
        report = audit.verify(service, table.created["id"])
        assert report.ok, report.to_dict()


@pytest.mark.postgres
def test_a_database_stopped_under_load_gets_quick_503s_and_play_resumes_when_it_is_back(
    pg_cluster: Cluster, service: Digsite, served: str
) -> None:
    base = served
    stop = threading.Event()
    tables = [Table(base, created, stop) for created in new_games(service, TABLES)]
    for table in tables:
        table.start()
    try:
        until(lambda: all(len(t.acked) >= 3 for t in tables), "every table plays a few moves")

        stopping = time.monotonic()
        pg_cluster.stop()  # fast shutdown: open sessions are ended, new connections refused
        stopped = time.monotonic()
        seen = len([a for t in tables for a in t.answers])
        until(  # an outage of a few probe intervals (service/store/pgrecorder.py), with clients asking all along
            lambda: time.monotonic() > stopped + 1.5 and len([a for t in tables for a in t.answers]) >= seen + 20,
            "clients keep getting answers",
        )
        health = call(base, "GET", "/health")
        assert (health.status, health.body["status"], health.body["store"]) == (503, "down", "unreachable")
        assert health.retry_after is not None and health.elapsed < QUICK
        starting = time.monotonic()
        pg_cluster.start()
        until(lambda: call(base, "GET", "/health").status == 200, "/health says ok once the database is back", 5)
        healthy = time.monotonic()
        until(lambda: all(len([m for m in t.acked if m[3] > healthy]) >= 3 for t in tables), "play resumes")
    finally:
        stop.set()
        for table in tables:
            table.join(WAIT)
    assert not any(t.is_alive() for t in tables)

    answers = [a for t in tables for a in t.answers]
    assert {a.status for a in answers} <= {200, 503}, sorted({(a.status, a.code) for a in answers})  # no 500
    assert max(a.elapsed for a in answers) < QUICK  # no hang, in any phase
    failed = [a for a in answers if a.status == 503]
    assert all(a.code == "store_unavailable" and a.retry_after for a in failed)
    assert all(stopping <= a.started + a.elapsed and a.started <= healthy + PROBE_INTERVAL_SECONDS for a in failed)
    down = [a for a in answers if a.started > stopped and a.started + a.elapsed < starting]
    assert len(down) >= 20 and all(a.status == 503 for a in down)
    # Once the database is back and a worker's next probe is due, nothing fails: no stale connection is used.
    assert all(a.status == 200 for a in answers if a.started > healthy + PROBE_INTERVAL_SECONDS)
    assert_acknowledged_moves_stored_once(service, tables)


@pytest.mark.postgres
def test_bots_play_their_game_to_the_end_through_a_database_outage(
    pg_cluster: Cluster, service: Digsite, base: str
) -> None:
    (created,) = new_games(service, 1, seats=2)
    root = base.removesuffix("/api/v1")
    bots = [
        BotClient(root, created["id"], t["token"], HeuristicBot(), random.Random(t["seat"])) for t in created["tokens"]
    ]
    said: list[str] = []
    errors: list[BaseException] = []

    def play(bot: BotClient) -> None:
        try:
            bot.run(poll=0.01, max_poll=0.05, backoff=0.02, max_backoff=0.2, give_up_after=WAIT, on_trouble=said.append)
        except BaseException as error:  # reported to the test, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=play, args=(bot,), daemon=True) for bot in bots]
    for thread in threads:
        thread.start()
    until(lambda: all(bot.moves >= 2 for bot in bots), "both bots are playing")
    pg_cluster.stop()
    until(lambda: all(bot.retries >= 3 for bot in bots), "both bots retry while the database is down")
    pg_cluster.start()
    for thread in threads:
        thread.join(3 * WAIT)
    assert not any(thread.is_alive() for thread in threads) and errors == []
    assert service.game(created["id"])["status"] == "over"
    assert sum(line.startswith("the server answers again after") for line in said) >= 2
    assert audit.verify(service, created["id"]).ok


@pytest.mark.postgres
def test_a_restart_the_api_did_not_see_fails_no_request(pg_cluster: Cluster, service: Digsite, base: str) -> None:
    """The database restarts while the API is idle: its open connections are all stale, yet the next reads
    and writes succeed (a stale connection is replaced, and a lost append is retried without doubling)."""
    stop = threading.Event()
    (created,) = new_games(service, 1)
    warm = Table(base, created, stop)
    warm.start()
    until(lambda: len(warm.acked) >= 5, "the game is under way")
    stop.set()
    warm.join(WAIT)
    assert not warm.is_alive()

    pg_cluster.stop()
    pg_cluster.start()
    again = Table(base, created, threading.Event(), acked=list(warm.acked))
    again.start()
    until(lambda: len(again.acked) >= len(warm.acked) + 10, "moves after the restart")
    again.stop.set()
    again.join(WAIT)
    assert [a.status for a in again.answers] == [200] * len(again.answers)
    assert_acknowledged_moves_stored_once(service, [again])


@pytest.mark.postgres
def test_an_api_started_while_the_database_is_down_answers_503_then_plays_once_it_is_back(
    pg_cluster: Cluster, service: Digsite
) -> None:
    """As when gunicorn replaces a worker during an outage: the new worker must boot, not take the server down."""
    (created,) = new_games(service, 1, seats=2)
    game = f"/api/v1/games/{created['id']}"
    seat = {"Authorization": f"Bearer {created['tokens'][0]['token']}"}
    pg_cluster.stop()
    late = None
    try:
        late = Digsite(Settings(database=service.settings.database, api_key=KEY))
        client = create_app(service=late).test_client()
        started = time.monotonic()
        refused = client.get(game, headers=seat)
        assert (refused.status_code, refused.get_json()["error"]["code"]) == (503, "store_unavailable")
        assert time.monotonic() - started < QUICK
        assert client.get("/api/v1/health").status_code == 503
        pg_cluster.start()
        until(lambda: client.get("/api/v1/health").status_code == 200, "/health says ok once it is back", 5)
        seen = client.get(game, headers=seat).get_json()
        moved = client.post(f"{game}/actions", json={"version": 1, "action": seen["legal_actions"][0]}, headers=seat)
        assert moved.status_code == 200, moved.get_json()
    finally:
        if late is not None:
            late.close()
    assert len(service.stored_records(created["id"])) == 2


@pytest.mark.postgres
def test_a_read_only_database_refuses_writes_with_503_and_serves_reads(
    pg_cluster: Cluster, service: Digsite, base: str
) -> None:
    """As after a fail-over to a standby: the sessions are ended and new ones are read-only."""
    (created,) = new_games(service, 1, seats=2)
    token = created["tokens"][0]["token"]
    game = f"/games/{created['id']}"
    assert call(base, "GET", "/health").status == 200
    pg_cluster.execute(
        "ALTER DATABASE postgres SET default_transaction_read_only = on",
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'postgres' AND pid <> pg_backend_pid()",
    )
    try:
        seen = call(base, "GET", game, token)
        assert seen.status == 200  # reads are served
        flip = {"version": seen.body["version"], "action": seen.body["legal_actions"][0]}
        for _ in range(3):  # every write is refused, at once, and changes nothing
            refused = call(base, "POST", f"{game}/actions", token, flip)
            assert (refused.status, refused.code) == (503, "store_unavailable"), refused.body
            assert "read-only" in refused.body["error"]["message"] and refused.retry_after
            assert refused.elapsed < QUICK
        until(lambda: call(base, "GET", "/health").body.get("store") == "read_only", "/health says read-only", 5)
        assert call(base, "GET", "/health").status == 503
        assert len(service.stored_records(created["id"])) == 1
    finally:
        pg_cluster.execute(
            "SET default_transaction_read_only = off", "ALTER DATABASE postgres RESET default_transaction_read_only"
        )
    until(lambda: call(base, "GET", "/health").status == 200, "/health says ok again", 5)
    moved = call(base, "POST", f"{game}/actions", token, flip)
    assert moved.status == 200, moved.body
    assert len(service.stored_records(created["id"])) == 2


def sqlite_service(path: Path, **settings: Any) -> Digsite:
    return Digsite(Settings(database=Database.from_url(f"sqlite:///{path}"), api_key=KEY, **settings))


def test_a_locked_sqlite_file_answers_writes_503_after_the_lock_timeout_and_serves_reads(tmp_path: Path) -> None:
    db = Database.from_url(f"sqlite:///{tmp_path / 'games.sqlite'}")
    backends.upgrade(db)
    service = sqlite_service(tmp_path / "games.sqlite", extra_env={"SQLITE_LOCK_TIMEOUT": "1"})
    try:
        client = create_app(service=service).test_client()
        (created,) = new_games(service, 1, seats=2)
        headers = {"Authorization": f"Bearer {created['tokens'][0]['token']}"}
        flip = {"version": 1, "action": {"type": "flip", "seat": 0, "ruin": None}}
        holder = sqlite3.connect(db.path, isolation_level=None)
        try:
            holder.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than the lock timeout
            started = time.monotonic()
            refused = client.post(f"/api/v1/games/{created['id']}/actions", json=flip, headers=headers)
            assert (refused.status_code, refused.get_json()["error"]["code"]) == (503, "store_unavailable")
            assert refused.headers["Retry-After"] and time.monotonic() - started < 1 + QUICK
            assert client.get(f"/api/v1/games/{created['id']}", headers=headers).status_code == 200
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert client.post(f"/api/v1/games/{created['id']}/actions", json=flip, headers=headers).status_code == 200
        assert len(service.stored_records(created["id"])) == 2
    finally:
        service.close()


def test_an_sqlite_file_that_cannot_be_read_answers_503_not_500(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"not a database, whatever it was " * 256)  # e.g. another file copied over the store
    with pytest.raises(Unavailable, match="cannot read the schema version") as refused:
        sqlite_service(path)  # a server starting on it says why
    assert refused.value.code == "store_unavailable"
    service = Digsite(Settings(database=Database.from_url(f"sqlite:///{path}"), api_key=KEY), check_schema=False)
    try:
        client = create_app(service=service).test_client()
        game = f"/api/v1/games/{uuid4()}"
        flip = {"version": 1, "action": {"type": "flip", "seat": 0, "ruin": None}}
        for answer in (
            client.get(game, headers={"Authorization": f"Bearer {KEY}"}),
            client.post(f"{game}/actions", json=flip, headers={"Authorization": "Bearer some-seat-token"}),
            client.post("/api/v1/players", json={"name": "Ana"}, headers={"Authorization": f"Bearer {KEY}"}),
        ):
            assert (answer.status_code, answer.get_json()["error"]["code"]) == (503, "store_unavailable")
            assert answer.headers["Retry-After"]
        health = client.get("/api/v1/health")
        assert (health.status_code, health.get_json()["status"]) == (503, "down")
    finally:
        service.close()


@pytest.mark.slow
def test_killing_the_api_under_load_loses_no_acknowledged_move_and_every_game_goes_on(
    database: Database, tmp_path: Path
) -> None:
    """kill -9 of ``digsite serve`` while clients play: what it acknowledged is stored, and after a restart
    (on another port) every game continues."""
    env = {**os.environ, "DIGSITE_DATABASE_URL": database.url, "DIGSITE_API_KEY": KEY, "HOME": str(tmp_path)}
    env["PYTHONUNBUFFERED"] = "1"
    argv = [sys.executable, "-c", "from service.cli import main; main()", "serve", "--port", "0"]
    first = Server(argv, env)
    stop = threading.Event()
    tables: list[Table] = []
    second: Server | None = None
    try:
        base = first.wait_for(r"listening on (http://127\.0\.0\.1:\d+/api/v1)").group(1)
        seats = [call(base, "POST", "/players", KEY, {"name": name}).body["id"] for name in ("Ana", "Beto")]
        for _ in range(TABLES):
            created = call(base, "POST", "/games", KEY, {"game": "ruins", "seats": seats})
            assert created.status == 201
            tables.append(Table(base, created.body, stop))
        for table in tables:
            table.start()
        until(lambda: all(len(t.acked) >= 3 for t in tables), "every table plays a few moves")
        first.process.send_signal(signal.SIGKILL)  # mid-request, most likely: no chance to finish anything
        assert first.process.wait(WAIT) == -signal.SIGKILL
        killed = time.monotonic()
        second = Server(argv, env)
        restarted = second.wait_for(r"listening on (http://127\.0\.0\.1:\d+/api/v1)").group(1)
        for table in tables:
            table.base = restarted
        until(lambda: all(len([m for m in t.acked if m[3] > killed]) >= 3 or t.over for t in tables), "play goes on")
    finally:
        stop.set()
        for table in tables:
            table.join(WAIT)
        if first.process.poll() is None:
            first.process.kill()
            first.process.wait(WAIT)
        if second is not None:
            second.stop(signal.SIGTERM)
    assert not any(t.is_alive() for t in tables)
    answers = [a for t in tables for a in t.answers]
    assert {a.status for a in answers} <= {0, 200}, sorted({(a.status, a.code) for a in answers})  # 0: no answer
    service = Digsite(Settings(database=database, api_key=KEY))
    try:
        assert_acknowledged_moves_stored_once(service, tables)
    finally:
        service.close()
