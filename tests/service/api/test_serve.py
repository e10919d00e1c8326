"""The API served for real: ``digsite serve`` (development) and gunicorn with ``service.serving.wsgi:app`` and two
workers, each answering over a socket from the same store."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from service.commands.application import Digsite
from service.settings import Database, Settings
from tests.service.api.polls import Polls, room_for_files

# Every test here starts a server in processes of its own (digsite serve, gunicorn and its workers) and stops it:
# the fast run leaves them to the full run and CI; the API itself is tested in process (tests/service/api).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
KEY = "serve-test-key"
WAIT = 30  # seconds; a healthy server starts in about one


class Server:
    """A server process whose output lines are read in the background, so waiting for one is bounded."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        assert self.process.stdout is not None
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self.reader.start()

    def _read(self, stream: IO[str]) -> None:
        with stream:
            for line in stream:
                self.lines.put(line)

    def wait_for(self, pattern: str) -> re.Match[str]:
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                pytest.fail(f"no line matching {pattern!r} within {WAIT}s; output so far: {self.seen}")
            self.seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found

    def stop(self, sig: int) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(WAIT)
            raise
        finally:
            self.reader.join(WAIT)  # the output ends with the process; the reader then closes the pipe


def call(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    request = urllib.request.Request(f"{base}{path}", method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, data, timeout=WAIT) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.load(error)


def play_a_little(base: str) -> None:
    """Create a game and have each seat flip, each move reading the game first (any worker may answer)."""
    assert call(base, "GET", "/health") == (200, {"status": "ok"})
    players = [call(base, "POST", "/players", KEY, {"name": n})[1]["id"] for n in ("Ana", "Beto", "Carla")]
    status, created = call(base, "POST", "/games", KEY, {"game": "ruins", "seats": players})
    assert status == 201
    for seat, token in enumerate(t["token"] for t in created["tokens"]):
        status, game = call(base, "GET", f"/games/{created['id']}", token)
        assert status == 200 and game["version"] == seat + 1
        action = {"type": "flip", "seat": seat, "ruin": None}
        status, moved = call(
            base, "POST", f"/games/{created['id']}/actions", token, {"version": seat + 1, "action": action}
        )
        assert (status, moved["version"]) == (200, seat + 2)
    status, game = call(base, "GET", f"/games/{created['id']}", KEY)
    assert game["view"]["phase"] == "play"
    status, refused = call(base, "POST", f"/games/{created['id']}/actions", created["tokens"][0]["token"], {})
    assert (status, refused["error"]["code"]) == (400, "malformed_request")


@pytest.fixture
def env(database: Database, tmp_path: Path) -> Iterator[dict[str, str]]:
    yield {
        **os.environ,
        "DIGSITE_DATABASE_URL": database.url,
        "DIGSITE_API_KEY": KEY,
        "HOME": str(tmp_path),  # gunicorn keeps its control socket under the home directory
        "PYTHONUNBUFFERED": "1",
    }


def test_digsite_serve_answers_on_the_port_it_prints(env: dict[str, str]) -> None:
    args = [sys.executable, "-c", "from service.cli import main; main()", "serve", "--port", "0"]
    server = Server(args, {**env, "DIGSITE_PUSH_MAX_WAITING": "7"})
    try:
        base = server.wait_for(r"listening on (http://127\.0\.0\.1:\d+/api/v1)").group(1)
        server.wait_for(r"holds up to 7 waiting requests on the push channel \(DIGSITE_PUSH_MAX_WAITING\)")
        play_a_little(base)
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0 and server.wait_for("stopped")


def test_the_wsgi_module_keeps_the_built_app_out_of_full_collections(env: dict[str, str]) -> None:
    """Each gunicorn worker imports service.serving.wsgi after
    forking; what is alive once the app is built lives as long as
    the worker and is frozen (gc.freeze), so that a full collection walks only what requests made since."""
    script = (
        "import gc, json, service.serving.wsgi as w; "
        "print(json.dumps([gc.get_freeze_count(), any(o is w.app for o in gc.get_objects())]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=2 * WAIT
    )
    assert done.returncode == 0, done.stderr
    frozen, app_still_collected = json.loads(done.stdout.splitlines()[-1])
    assert frozen > 10_000 and not app_still_collected


def test_gunicorn_serves_the_wsgi_app_with_several_workers(env: dict[str, str]) -> None:
    args = [sys.executable, "-m", "gunicorn", "-w", "2", "-b", "127.0.0.1:0", "service.serving.wsgi:app"]
    server = Server(args, env)
    try:
        base = server.wait_for(r"Listening at: (http://127\.0\.0\.1:\d+)").group(1) + "/api/v1"
        server.wait_for(r"Booting worker")
        play_a_little(base)
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0


def raw_exchange(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as bytes and read the whole answer (status, headers, body) off the socket."""
    host, port = re.match(r"http://([\d.]+):(\d+)", base).groups()  # type: ignore[union-attr]
    with socket.create_connection((host, int(port)), timeout=WAIT) as sock:
        sock.sendall(request)
        answer = sock.makefile("rb")
        status = int(answer.readline().split()[1])
        headers = {}
        while (line := answer.readline().strip()) != b"":
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        body = answer.read(int(headers["content-length"])) if "content-length" in headers else answer.read()
    return status, headers, body


def chunked_post(path: str, body: bytes) -> bytes:
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + 8192]), body[i : i + 8192]) for i in range(0, len(body), 8192)
    )
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {KEY}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + chunks + b"0\r\n\r\n"


def get(path: str, extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n".encode()


def json_error(answer: tuple[int, dict[str, str], bytes]) -> tuple[int, str]:
    status, headers, body = answer
    assert headers["content-type"].startswith("application/json"), (status, headers, body[:200])
    error = json.loads(body)["error"]
    assert isinstance(error["message"], str) and error["message"]
    return status, error["code"]


def check_limits(base: str, database: Database) -> None:
    """Chunked bodies over the limit get 413, and too-long URLs and headers a JSON error, whoever answers."""
    store = Digsite(Settings(database=database), check_schema=False)
    try:
        before = store.app.recorder.max_notification_id()
        name = json.dumps({"name": "Ana"}).encode()
        cut = name + b" " * (64 * 1024 - len(name))  # valid JSON exactly up to the limit, then more
        too_large = raw_exchange(base, chunked_post("/api/v1/players", cut + b"x" * (200_000 - len(cut))))
        assert json_error(too_large) == (413, "payload_too_large")
        assert store.app.recorder.max_notification_id() == before  # nothing was stored
        status, _, body = raw_exchange(base, chunked_post("/api/v1/players", name))
        assert status == 201 and "id" in json.loads(body)  # a chunked body under the limit is read whole
    finally:
        store.close()
    for length in (3_000, 10_000, 70_000):  # the app's limit; gunicorn's request line; werkzeug's
        answer = raw_exchange(base, get("/api/v1/health?pad=" + "x" * length))
        assert json_error(answer) == (414, "uri_too_long"), length
    status, code = json_error(raw_exchange(base, get("/api/v1/health", f"X-Pad: {'x' * 70_000}\r\n")))
    assert 400 <= status < 500 and code  # a header too long (gunicorn: 8190 bytes; werkzeug: 64 KiB)


def test_limits_answer_in_json_under_digsite_serve(env: dict[str, str], database: Database) -> None:
    server = Server([sys.executable, "-c", "from service.cli import main; main()", "serve", "--port", "0"], env)
    try:
        base = server.wait_for(r"listening on (http://127\.0\.0\.1:\d+)/api/v1").group(1)
        check_limits(base, database)
    finally:
        server.stop(signal.SIGTERM)


def test_limits_answer_in_json_under_gunicorn(env: dict[str, str], database: Database) -> None:
    args = [sys.executable, "-m", "gunicorn", "-w", "1", "-k", "gthread", "--threads", "2", "-b", "127.0.0.1:0"]
    args.append("service.serving.wsgi:app")  # as docs/api.md runs it (threads: keep-alive connections)
    server = Server(args, env)
    try:
        base = server.wait_for(r"Listening at: (http://127\.0\.0\.1:\d+)").group(1)
        server.wait_for(r"Booting worker")
        check_limits(base, database)
    finally:
        server.stop(signal.SIGTERM)


@pytest.mark.parametrize("worker", [[], ["-k", "gevent"]])
def test_under_gunicorn_waits_are_woken_across_workers_and_past_what_a_worker_holds_refused_at_once(
    env: dict[str, str], worker: list[str]
) -> None:
    """Two workers sized by service/serving/gunicorn_conf.py to hold 2 waits each
    (gthread; or gevent's): a further wait is
    refused at once, 503 with Retry-After; a move posted through either worker wakes the waits held by both."""
    with socket.socket() as probe:  # (with --reuse-port gunicorn does not say which port 0 became)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = [sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "-w", "2", *worker]
    server = Server(
        [*args, "-b", f"127.0.0.1:{port}", "service.serving.wsgi:app"], {**env, "DIGSITE_PUSH_MAX_WAITING": "2"}
    )
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        server.wait_for(r"Booting worker")
        server.wait_for(r"Booting worker")
        players = [call(base, "POST", "/players", KEY, {"name": n})[1]["id"] for n in ("Ana", "Beto", "Carla")]
        created = call(base, "POST", "/games", KEY, {"game": "ruins", "seats": players})[1]
        path = f"/games/{created['id']}/updates?after=1&wait=50"
        answers: queue.Queue[tuple[int, Any]] = queue.Queue()
        waits = [
            threading.Thread(target=lambda: answers.put(call(base, "GET", path, KEY)), daemon=True) for _ in range(6)
        ]
        for thread in waits:
            thread.start()
        # Of six waits over two workers holding two each, at least two are refused at once, not held.
        at_once = [answers.get(timeout=WAIT) for _ in range(2)]
        assert all(status == 503 and a["error"]["code"] == "busy" for status, a in at_once), at_once
        token = created["tokens"][0]["token"]
        moved = call(
            base,
            "POST",
            f"/games/{created['id']}/actions",
            token,
            {"version": 1, "action": {"type": "flip", "seat": 0, "ruin": None}},
        )
        assert moved[0] == 200  # the held waits left threads for the move
        rest = [answers.get(timeout=WAIT) for _ in range(4)]
        woken = [a for status, a in rest if status == 200 and a["ready"]]
        refused = [a for status, a in rest if status == 503]
        assert len(woken) + len(refused) == 4 and 2 <= len(woken) <= 4
        assert all(a["version"] == 2 and [r["version"] for r in a["records"]] == [2] for a in woken)
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0


def answering(base: str) -> None:
    """Until the server answers: with --reuse-port a gunicorn worker listens on its own socket only once booted."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            assert call(base, "GET", "/health") == (200, {"status": "ok"})
            return
        except urllib.error.URLError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_worker_holding_all_the_waits_it_is_sized_for_still_takes_moves_and_refuses_one_more_at_once(
    env: dict[str, str],
) -> None:
    """One worker sized for 1,000 waits (service/serving/gunicorn_conf.py) holds them
    all: as many connections as gunicorn's
    default allows a worker, which then stopped accepting any connection until a wait ended (issue 24: every move
    waited up to 55 s). One wait more is refused at once (503, Retry-After); a move and a health check on new
    connections are answered while the 1,000 are still held; a move in their game then wakes them all."""
    held = 1000
    room_for_files(held + 200)  # (the server raises its own: service/serving/gunicorn_conf.py)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = [sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "-w", "1"]
    server = Server(
        [*args, "-b", f"127.0.0.1:{port}", "service.serving.wsgi:app"], {**env, "DIGSITE_PUSH_MAX_WAITING": str(held)}
    )
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        server.wait_for(r"Booting worker")
        answering(base)
        players = [call(base, "POST", "/players", KEY, {"name": n})[1]["id"] for n in ("Ana", "Beto")]
        watched, other = (call(base, "POST", "/games", KEY, {"game": "ruins", "seats": players})[1] for _ in "ab")
        polls = Polls(port, f"/games/{watched['id']}/updates?after=1&wait=55", KEY, held + 1)
        status, headers, body = polls.answers.get(timeout=2 * WAIT)  # the one past what the worker holds
        assert status == 503 and body["error"]["code"] == "busy", (status, body)
        assert int(headers["retry-after"]) >= 1
        flip = {"type": "flip", "seat": 0, "ruin": None}
        moved = call(
            base, "POST", f"/games/{other['id']}/actions", other["tokens"][0]["token"], {"version": 1, "action": flip}
        )
        assert moved[0] == 200 and moved[1]["version"] == 2
        assert call(base, "GET", "/health") == (200, {"status": "ok"})
        assert polls.answers.empty() and polls.pending() == held  # all still held while the move was taken
        token = watched["tokens"][0]["token"]
        assert call(base, "POST", f"/games/{watched['id']}/actions", token, {"version": 1, "action": flip})[0] == 200
        woken = [polls.answers.get(timeout=2 * WAIT) for _ in range(held)]
        assert all(status == 200 and answer["ready"] and answer["version"] == 2 for status, _, answer in woken)
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0
