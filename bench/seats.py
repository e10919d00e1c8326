"""Seat clients under gunicorn: games played by clients that each hold one seat's token and learn the game only
through the API (the push channel: ``GET /games/<id>/updates?until=turn&include=game``), against the scripted-move
bench (``bench.http``'s clients) measured on the same server in the same run.

Load: ``--tables`` games at once (default 8), four seat clients each, every client on its own keep-alive
connection, choosing a random legal action from what the API gave it; when a game ends its table creates the
next one through the API (closed loop). 3 s warm-up, then a 20 s window. Each client posts its move with
``?wait`` (the answer carries its next turn: one request a move), asking for the streamed answer (``--shape
stream``, the default: the move's acknowledgement comes at once as the first line, its latency reported as the
POST's, the next turn as the second line) or the single JSON answer sent once the next turn comes (``--shape
json``). ``--rounds`` (default 3) pairs a scripted run
with a seat run right after it, so many times, each round's ratios against its own scripted run (the machine's
noise moves a scripted run's CPU a move by half between runs minutes apart), and the median of the rounds. Then
the same clients wait (``GET /updates``) and post separately (two requests a move, the POST's own latency seen),
against a scripted run of their own. Reported: moves/s,
server CPU per move (the gunicorn process tree, from /proc), requests per move, p50/p99 of the POST (second
run), p50/p99 from sending a move to the next mover receiving its turn. With ``--idle`` (default 1000), that
many idle subscribers then wait on 250 other games (50 s long polls, renewed as they end): the CPU they cost per
second with nobody playing (against the server left alone) is compared with the CPU per second of the seat
load, and the seat load runs again beside them.

Run: ``.venv/bin/python -m bench.seats`` (PostgreSQL: ``DIGSITE_BENCH_DATABASE_URL``, default the local server);
``--worker-class gevent`` runs the same server with gevent workers. The server is sized by
service/serving/gunicorn_conf.py
for ``--waits`` waits a worker (default 632: the 640 threads a worker had when the figures of docs/performance.md,
section 5, were measured).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.http import API_KEY, KeepAliveClient, _free_port, _tree_cpu, client
from bench.service import NAMES, drop, fresh_database, scripted_games
from service.commands.application import Digsite
from service.serving import capacity, push
from service.settings import Settings
from service.store import backends

WAIT = 10  # seconds a seat's long poll waits (an answer comes as soon as it is this seat's turn)
IDLE_WAIT = 50  # seconds an idle subscriber's long poll waits (nothing happens in its game: it runs out)
# Games each scripted client plays (about 12 s at 8 clients, beside the seats' 20 s window). With 3 a run lasted
# about 4 s, its clients ending one by one: the server's CPU a move was 1.1 to 1.9 ms across runs, with 12 it is
# 1.11 to 1.26 ms (four runs in a row, quiet machine, 2026-12-04).
SCRIPTED_GAMES = 12


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


class StreamingClient(KeepAliveClient):
    """``KeepAliveClient`` that also reads a move's streamed answer (``Accept: application/x-ndjson``, chunked)."""

    def stream(self, path: str, body: Any, token: str) -> tuple[int, Any, float, Any]:
        """POST ``body`` asking for the stream: the status, the first line (the whole JSON answer of a refusal),
        when the first line came (``time.time()``), and the second line (None for a refusal)."""
        payload = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Accept: application/x-ndjson\r\nContent-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        if self.sock is None:
            self.sock = self._connect()
        self.sock.sendall(head.encode() + payload)
        while b"\r\n\r\n" not in self.buffer:
            self._receive()
        header, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = header.split(b"\r\n")
        status = int(lines[0].split()[1])
        fields = {n.strip().lower(): v.strip() for n, _, v in (line.partition(b":") for line in lines[1:])}
        if fields.get(b"transfer-encoding") != b"chunked":  # a refusal: one JSON answer of a known length
            length = int(fields.get(b"content-length", b"0"))
            while len(self.buffer) < length:
                self._receive()
            answer, self.buffer = self.buffer[:length], self.buffer[length:]
            return status, json.loads(answer or b"null"), time.time(), None
        first = json.loads(self._chunked_line())
        at = time.time()
        second = json.loads(self._chunked_line())
        while not self.buffer.startswith(b"0\r\n\r\n"):  # the last chunk
            self._receive()
        self.buffer = self.buffer[5:]
        return status, first, at, second

    def _chunked_line(self) -> bytes:
        """The next line of a chunked body (a line may span chunks; a chunk holds no more than one line here)."""
        data = b""
        while not data.endswith(b"\n"):
            while b"\r\n" not in self.buffer:
                self._receive()
            size_line, _, rest = self.buffer.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            while len(rest) < size + 2:
                self._receive()
                size_line, _, rest = self.buffer.partition(b"\r\n")
            data, self.buffer = data + rest[:size], rest[size + 2 :]
        return data


class Table:
    """One table's games, played by four seat threads; what happened inside the window is counted. ``shape``:
    ``stream`` or ``json`` (a move posted with ``?wait``, its answer streamed or not), or ``separate`` (a wait,
    then a plain POST)."""

    def __init__(self, port: int, players: list[str], window: tuple[float, float], shape: str) -> None:
        self.port, self.players, self.window, self.shape = port, players, window, shape
        self.lock = threading.Lock()
        self.sent: dict[int, tuple[float, int]] = {}  # version a move made -> (when it was sent, by which seat)
        self.posts: list[float] = []
        self.handovers: list[float] = []
        self.requests = self.moves = self.conflicts = self.games = 0

    def inside(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]

    def count(self, at: float, post: float | None = None, moved: bool = False) -> None:
        if not self.inside(at):
            return
        with self.lock:
            self.requests += 1
            if post is not None:
                self.posts.append(post)
            if moved:
                self.moves += 1

    def play(self) -> None:
        while time.time() < self.window[1]:
            organiser = KeepAliveClient(self.port)  # (a connection idle for a whole game is closed by the server)
            status, created = organiser.call("POST", "/api/v1/games", {"game": "ruins", "seats": self.players}, API_KEY)
            organiser.close()
            assert status == 201, created
            self.sent = {}
            seats = [
                threading.Thread(target=self.seat, args=(created["id"], t["seat"], t["token"]), daemon=True)
                for t in created["tokens"]
            ]
            for thread in seats:
                thread.start()
            for thread in seats:
                thread.join()
            if self.inside(time.time()):
                self.games += 1

    def seat(self, game_id: str, seat: int, token: str) -> None:
        """Play one seat: wait for the seat's turn on the push channel, post a random legal move. Streamed or JSON,
        the move is posted with ``?wait`` and its answer carries the next turn (one request a move); separate, each
        turn is a wait (``GET /updates``) and a plain POST."""
        conn = StreamingClient(self.port)
        combined = self.shape != "separate"
        rng = random.Random(f"{game_id}-{seat}")
        known, until = 0, "turn"
        answer: dict[str, Any] | None = None  # the push channel's latest answer, if the seat has not acted on it
        post = f"/api/v1/games/{game_id}/actions" + (f"?wait={WAIT}" if combined else "")
        try:
            while time.time() < self.window[1]:
                if answer is None:
                    query = f"after={known}&wait={WAIT}&until={until}&include=game"
                    status, answer = conn.call("GET", f"/api/v1/games/{game_id}/updates?{query}", None, token)
                    self.count(time.time())
                    if status == 503:  # the server holds as many waits as it may: ask again later
                        time.sleep(push.BUSY_RETRY_SECONDS)
                        answer = None
                        continue
                    assert status == 200, answer
                received = time.time()
                assert answer is not None
                if answer["status"] == "over":
                    return
                known, until = answer["version"], "turn"
                game = answer.get("game")
                if answer.get("retry_after"):
                    time.sleep(answer["retry_after"])
                    answer = None
                    continue
                answer = None
                if game is None or not game["legal_actions"]:
                    if game is not None:  # to act, but nothing to do yet (a choice others must make first)
                        until = "record"
                    continue
                version = game["version"]
                sent = self.sent.get(version)
                if sent is not None and sent[1] != seat and self.inside(received):
                    with self.lock:
                        self.handovers.append((received - sent[0]) * 1000)
                action = rng.choice(game["legal_actions"])
                began = time.time()
                self.sent.setdefault(version + 1, (began, seat))
                if self.shape == "stream":
                    status, result, acknowledged, following = conn.stream(
                        post, {"version": version, "action": action}, token
                    )
                    if following is not None and "error" not in following:  # (else: ask the channel)
                        result["next"] = following
                else:
                    status, result = conn.call("POST", post, {"version": version, "action": action}, token)
                    acknowledged = time.time()
                done = time.time()
                if status == 409:
                    with self.lock:
                        self.conflicts += 1
                    self.count(done)
                    continue
                assert status == 200, result
                # (the JSON answer came with the seat's next turn: the POST's own latency is not seen; the stream's
                # first line is the move's acknowledgement)
                self.count(done, post=None if self.shape == "json" else (acknowledged - began) * 1000, moved=True)
                known = result["version"]
                if known != version + 1:  # (a secret choice landed after others made at the same time)
                    self.sent.setdefault(known, (began, seat))
                answer = result.get("next")
        finally:
            conn.close()


def table_process(port: int, players: list[str], window: tuple[float, float], shape: str, out: Any) -> None:
    table = Table(port, players, window, shape)
    threading.Thread(target=table.play, daemon=True).start()
    time.sleep(max(0.0, window[1] - time.time()) + 0.05)
    used = resource.getrusage(resource.RUSAGE_SELF)  # (the whole run of this table's process, warm-up included)
    with table.lock:
        out.put(
            {
                "client_cpu_seconds": used.ru_utime + used.ru_stime,
                "moves": table.moves,
                "requests": table.requests,
                "conflicts": table.conflicts,
                "games": table.games,
                "posts": table.posts,
                "handovers": table.handovers,
            }
        )
    out.close()
    out.join_thread()  # the answer is written before leaving
    os._exit(0)  # the seat threads may be waiting on the server: leave without them


def idle_subscribers(port: int, subscriptions: list[tuple[str, str]], ready: Any, stop: Any) -> None:
    """Hold one long poll per subscription (a game and a seat token), each on its own connection, renewing
    each as it is answered (after ``wait`` seconds: nothing happens in these games)."""
    selector = selectors.DefaultSelector()

    def send(sock: socket.socket, game_id: str, token: str) -> None:
        sock.sendall(
            f"GET /api/v1/games/{game_id}/updates?after=1&wait={IDLE_WAIT} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\n\r\n".encode()
        )

    for game_id, token in subscriptions:
        sock = socket.create_connection(("127.0.0.1", port))
        send(sock, game_id, token)
        selector.register(sock, selectors.EVENT_READ, (game_id, token))
    ready.set()
    later: list[tuple[float, socket.socket, tuple[str, str]]] = []  # refused: (when to ask again, where, what)
    while not stop.is_set():
        for key, _ in selector.select(timeout=0.5):
            held: Any = key.fileobj
            data = held.recv(65536)
            if not data:  # the server closed it (it is stopping): subscribe again on a new connection
                selector.unregister(held)
                held.close()
                if stop.is_set():
                    continue
                held = socket.create_connection(("127.0.0.1", port))
                selector.register(held, selectors.EVENT_READ, key.data)
                send(held, *key.data)
            elif data.startswith(b"HTTP/1.1 503"):  # not held (the server holds as many as it may): later
                later.append((time.monotonic() + push.BUSY_RETRY_SECONDS, held, key.data))
            elif data.endswith(b"}"):  # a whole (small) answer: subscribe again
                send(held, *key.data)
        while later and later[0][0] <= time.monotonic():
            _, sock, subscription = later.pop(0)
            try:
                send(sock, *subscription)
            except OSError:  # (closed by the server meanwhile: on a new connection)
                selector.unregister(sock)
                sock.close()
                sock = socket.create_connection(("127.0.0.1", port))
                selector.register(sock, selectors.EVENT_READ, subscription)
                send(sock, *subscription)


def _start_server(port: int, db_url: str, workers: int, waits: int, kind: str) -> subprocess.Popen[bytes]:
    """gunicorn sized by service/serving/gunicorn_conf.py for ``waits`` waits a worker (gthread, or ``kind``)."""
    env = {**os.environ, "DIGSITE_DATABASE_URL": db_url, "DIGSITE_API_KEY": API_KEY, capacity.SETTING: str(waits)}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:service.serving.gunicorn_conf",
            "-w",
            str(workers),
            "-k",
            kind,
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "service.serving.wsgi:app",
        ],
        env=env,
    )
    deadline = time.monotonic() + 60
    probe = KeepAliveClient(port)
    while True:
        try:
            probe.call("GET", "/api/v1/health", None, "-")
            probe.close()
            return server
        except OSError:
            probe.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def scripted(port: int, pid: int, players: list[str], scripts: list[Any], clients: int) -> dict[str, float]:
    """The baseline: ``bench.http``'s scripted clients on the same server; moves/s and server CPU per move."""
    queue: Any = multiprocessing.Queue()
    per = len(scripts) // clients
    processes = [
        multiprocessing.Process(target=client, args=(port, players, scripts[i * per : (i + 1) * per], queue))
        for i in range(clients)
    ]
    cpu = _tree_cpu(pid)
    began = time.perf_counter()
    for p in processes:
        p.start()
    results = [queue.get(timeout=900) for _ in processes]
    elapsed = time.perf_counter() - began
    cpu = _tree_cpu(pid) - cpu
    for p in processes:
        p.join()
    moves = sum(r["moves"] for r in results)
    posts = [x for r in results for x in r["latencies"]]
    return {
        "moves_per_second": moves / elapsed,
        "server_cpu_ms_per_move": 1000 * cpu / moves,
        "post_p50_ms": _percentile(posts, 0.5),
        "post_p99_ms": _percentile(posts, 0.99),
    }


def seats(
    port: int, pid: int, players: list[str], tables: int, warmup: float, window: float, shape: str = "stream"
) -> dict[str, Any]:
    start = time.time() + 1.0 + warmup  # processes start within the first second
    span = (start, start + window)
    queue: Any = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(target=table_process, args=(port, players, span, shape, queue)) for _ in range(tables)
    ]
    for p in processes:
        p.start()
    time.sleep(max(0.0, span[0] - time.time()))
    cpu = _tree_cpu(pid)
    time.sleep(max(0.0, span[1] - time.time()))
    cpu = _tree_cpu(pid) - cpu
    results = [queue.get(timeout=120) for _ in processes]
    for p in processes:
        p.join(10)
    moves = sum(r["moves"] for r in results)
    posts = [x for r in results for x in r["posts"]]
    handovers = [x for r in results for x in r["handovers"]]
    return {
        "moves_per_second": moves / window,
        "server_cpu_ms_per_move": 1000 * cpu / max(moves, 1),
        "requests_per_move": sum(r["requests"] for r in results) / max(moves, 1),
        "conflicts_per_move": sum(r["conflicts"] for r in results) / max(moves, 1),
        "games_finished": sum(r["games"] for r in results),
        "post_p50_ms": _percentile(posts, 0.5),
        "post_p99_ms": _percentile(posts, 0.99),
        "handover_p50_ms": _percentile(handovers, 0.5),
        "handover_p99_ms": _percentile(handovers, 0.99),
        "handovers": len(handovers),
        # what the seat clients themselves spent (they share the cores with the server), per move of the window
        "client_cpu_ms_per_move": 1000
        * sum(r["client_cpu_seconds"] for r in results)
        / max(moves, 1)
        * window
        / (window + warmup + 1.0),
    }


def _settle() -> None:
    """Let the server forget the seat runs before the next phase: the seat clients leave with their last waits
    still held (each ends within WAIT seconds), and a process's push feed reads every new record until
    LINGER_SECONDS after its last wait ended: a scripted run started sooner would pay for that feed's reads,
    which the scripted shape alone never makes."""
    time.sleep(WAIT + push.LINGER_SECONDS + 1)


def _cpu_over(pid: int, seconds: float) -> float:
    """The server's CPU seconds per second over ``seconds`` of wall time."""
    before = _tree_cpu(pid)
    time.sleep(seconds)
    return (_tree_cpu(pid) - before) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="postgresql")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", default="gthread", choices=["gthread", "gevent"])
    parser.add_argument(
        "--waits",
        type=int,
        default=640 - capacity.SPARE_THREADS,
        help=f"{capacity.SETTING}: the waits a worker holds (default: a gthread worker of 640 threads)",
    )
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--idle", type=int, default=1000, help="idle subscribers for the second seat run (0: none)")
    parser.add_argument("--idle-games", type=int, default=250)
    parser.add_argument("--idle-window", type=float, default=IDLE_WAIT + 1, help="seconds: a whole cycle of waits")
    parser.add_argument(
        "--rounds", type=int, default=3, help="scripted, then seat runs, alternated this many times (ratios per round)"
    )
    parser.add_argument(
        "--shape",
        default="stream",
        help="the seat runs' move posted with ?wait: its answer 'stream'ed (acknowledged at once) or 'json' (once the "
        "next turn comes); several, comma-separated, each run in turn after the same scripted run",
    )
    args = parser.parse_args()
    shapes = args.shape.split(",")
    if not set(shapes) <= {"stream", "json"}:
        parser.error("--shape: 'stream', 'json', or both, comma-separated")
    rounds: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_database(args.backend, Path(folder))
        backends.upgrade(db)
        try:
            service = Digsite(Settings(database=db))
            players = [service.create_player(n) for n in NAMES]
            service.close()
            port = _free_port()
            server = _start_server(port, db.url, args.workers, args.waits, args.worker_class)
            try:
                # The server's CPU a scripted move moved from 1.20 to 1.86 ms between back-to-back runs of a quiet
                # hour (2026-12-04): each round pairs one scripted run with the seat run right after it.
                for number in range(args.rounds):
                    if number:
                        _settle()
                    games = scripted_games(args.tables * SCRIPTED_GAMES, f"seats-{number}")
                    baseline = scripted(port, server.pid, players, games, args.tables)
                    for shape in shapes:
                        plain = seats(port, server.pid, players, args.tables, args.warmup, args.window, shape)
                        rounds.append({"shape": shape, **_round(baseline, plain)})
                # The same clients making two requests a move (a wait, then a plain POST, whose latency is seen),
                # against a scripted run of their own.
                _settle()
                baseline = scripted(
                    port, server.pid, players, scripted_games(args.tables * SCRIPTED_GAMES, "separate"), args.tables
                )
                separate = _round(
                    baseline, seats(port, server.pid, players, args.tables, args.warmup, args.window, "separate")
                )
                _settle()
                idle: dict[str, Any] | None = None
                quiet = _cpu_over(server.pid, args.idle_window)  # the server with nobody at all
                if args.idle:
                    organiser = KeepAliveClient(port)
                    subscriptions = []
                    for _ in range(args.idle_games):
                        status, created = organiser.call(
                            "POST", "/api/v1/games", {"game": "ruins", "seats": players}, API_KEY
                        )
                        assert status == 201, created
                        subscriptions += [(created["id"], t["token"]) for t in created["tokens"]]
                    organiser.close()
                    ready, stop = multiprocessing.Event(), multiprocessing.Event()
                    holder = multiprocessing.Process(
                        target=idle_subscribers, args=(port, subscriptions[: args.idle], ready, stop)
                    )
                    holder.start()
                    ready.wait(120)
                    time.sleep(2)  # every subscription is waiting on the server
                    # What holding them costs: the server's CPU over a whole cycle of their waits, nobody playing.
                    held = _cpu_over(server.pid, args.idle_window)
                    idle = seats(port, server.pid, players, args.tables, args.warmup, args.window, shapes[0])
                    stop.set()
                    holder.join(10)
            finally:
                server.terminate()
                server.wait(60)
        finally:
            drop(db)
    report: dict[str, Any] = {
        "backend": args.backend,
        "gunicorn": f"-c python:service.serving.gunicorn_conf -w {args.workers} -k {args.worker_class}, "
        f"{args.waits} waits",
        "rounds": rounds,
        "median": {
            shape: {
                key: round(statistics.median(r[key] for r in rounds if r["shape"] == shape), 3)
                for key in ("rate_ratio", "cpu_per_move_ratio", "handover_p50_ms", "handover_p99_ms", "post_p99_ms")
            }
            for shape in shapes
        },
        "wait_then_post": separate,
    }
    if idle is not None:
        plain = next(r for r in reversed(rounds) if r["shape"] == shapes[0])["seats"]
        report["seats_with_idle_subscribers"] = {"subscribers": args.idle, "games": args.idle_games, **_rounded(idle)}
        report["idle_cpu_per_move_increase"] = round(
            idle["server_cpu_ms_per_move"] / plain["server_cpu_ms_per_move"] - 1, 3
        )
        # The steadier figure: the CPU the idle subscribers cost per second (held minus quiet), against the CPU
        # per second the seat load itself costs at its move rate (the last round's).
        load = plain["moves_per_second"] * plain["server_cpu_ms_per_move"] / 1000
        report["idle_subscribers_cpu_seconds_per_second"] = round(held - quiet, 4)
        report["server_quiet_cpu_seconds_per_second"] = round(quiet, 4)
        report["idle_subscribers_share_of_seat_load_cpu"] = round((held - quiet) / load, 3)
    print(json.dumps(report, indent=2))


def _round(baseline: dict[str, Any], load: dict[str, Any]) -> dict[str, Any]:
    """A seat run against the scripted run just before it on the same server."""
    return {
        "scripted": _rounded(baseline),
        "seats": _rounded(load),
        "rate_ratio": round(load["moves_per_second"] / baseline["moves_per_second"], 3),
        "cpu_per_move_ratio": round(load["server_cpu_ms_per_move"] / baseline["server_cpu_ms_per_move"], 3),
        "handover_p50_ms": round(load["handover_p50_ms"], 1),
        "handover_p99_ms": round(load["handover_p99_ms"], 1),
        "post_p99_ms": round(load["post_p99_ms"], 1),  # (nan for the JSON answer, which comes with the next turn)
    }


def _rounded(figures: dict[str, Any]) -> dict[str, Any]:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


if __name__ == "__main__":
    main()
