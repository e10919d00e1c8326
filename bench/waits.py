"""Moves beside waiting connections: the latency of a move (and of a health check) with nobody waiting on the push
channel, then beside ``--waiters`` clients (default 2,000) each holding a long poll on an idle game, on the same
server (issue 24: with docs/api.md's command then, 2,000 waits left moves taking a median 4.5 s and up to 32 s).

The waiters: one process holding every client's connection (a selector), each asking ``GET
/games/<id>/updates?after=1&wait=55`` of a game nobody plays, as a seat, their first asks spread over ``--arrival``
seconds (default 10); a wait the server holds lasts 55 s, one it refuses (503) is asked again after its Retry-After,
on a new connection if the server closed the old one. The window starts once the server has taken their first asks
(three quick health checks in a row), and ends before the first held waits run out. The
movers: ``--movers`` processes posting scripted moves back to back (``bench.http``'s client: one connection a game,
so new connections keep coming), for ``--window`` seconds; a prober asks ``GET /health`` on a new connection every
0.2 s. Reported for each phase: moves/s, move p50/p99/max, health p50/p99/max, the server's CPU a second; with the
waiters, how many the server held at the end of the window and how many refusals it answered a second.

The server: gunicorn with service/serving/gunicorn_conf.py and
``DIGSITE_PUSH_MAX_WAITING=--waits`` (default: the setting's
default), ``-w --workers``; or, with ``--hand-sized "ARGS"``, gunicorn started with ARGS instead of that file (the
command docs/api.md gave before: ``--hand-sized "-w 2 -k gthread --threads 64 --reuse-port"``).

Run: ``.venv/bin/python -m bench.waits --waits 1000`` (PostgreSQL: ``DIGSITE_BENCH_DATABASE_URL``, default the
local server); the file-descriptor limit is raised to what the waiters need.
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import os
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.http import API_KEY, KeepAliveClient, _free_port, _tree_cpu
from bench.seats import _percentile
from bench.service import NAMES, drop, fresh_database, scripted_games
from service.commands.application import Digsite
from service.serving import capacity
from service.settings import Settings
from service.store import backends

WAIT = 55  # seconds a waiter's long poll asks to be held (the most the API allows)
PROBE_SECONDS = 0.2
SETTLE_SECONDS = 2.0  # once the server has taken the waiters' first requests, before the window
SETTLED_MS = 100.0
MOVE_TIMEOUT = 120.0  # a stalled move is measured, not abandoned (issue 24 measured moves of about 49 s)


class PatientClient(KeepAliveClient):
    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=MOVE_TIMEOUT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        return sock


class Waiter:
    """One client's long poll: its connection (None: closed), what has come of the answer so far, and when it asked."""

    def __init__(self, game_id: str, token: str) -> None:
        self.request = (
            f"GET /api/v1/games/{game_id}/updates?after=1&wait={WAIT} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\n\r\n"
        ).encode()
        self.sock: socket.socket | None = None
        self.received = b""
        self.asked: float | None = None  # when the request now outstanding was sent (None: none is)
        self.new = True  # not asked yet


def waiters(port: int, subscriptions: list[tuple[str, str]], arrival: float, sent: Any, stop: Any, out: Any) -> None:
    """Hold every subscription's long poll until ``stop``, the first asks spread evenly over ``arrival`` seconds (so
    that the waits' renewals, 55 s later, are spread too, as unsynchronised clients' are); ``sent`` once each has
    been asked once."""
    selector = selectors.DefaultSelector()
    clients = [Waiter(g, t) for g, t in subscriptions]
    start = time.monotonic()
    due = [(start + arrival * i / len(clients), i) for i in range(len(clients))]  # (when to ask, which client)
    first = len(clients)  # clients still to ask for the first time
    counts: dict[str, float] = {"ok": 0, "refused": 0, "other": 0, "dropped": 0, "connections": 0, "unconnected": 0}

    def ask(index: int) -> None:
        client = clients[index]
        if client.sock is None:
            try:
                client.sock = socket.create_connection(("127.0.0.1", port), timeout=MOVE_TIMEOUT)
            except OSError:  # refused (a listening queue full) or timed out: try again in a second
                counts["unconnected"] += 1
                heapq.heappush(due, (time.monotonic() + 1.0, index))
                return
            counts["connections"] += 1
            selector.register(client.sock, selectors.EVENT_READ, index)
        client.received, client.asked = b"", time.monotonic()
        try:
            client.sock.sendall(client.request)
        except OSError:  # closed by the server just now: ask again on a new connection
            close(client)
            heapq.heappush(due, (time.monotonic(), index))

    def close(client: Waiter) -> None:
        if client.sock is not None:
            selector.unregister(client.sock)
            client.sock.close()
            client.sock = None

    while not stop.is_set():
        now = time.monotonic()
        while due and due[0][0] <= now:
            index = heapq.heappop(due)[1]
            if clients[index].new:
                clients[index].new = False
                first -= 1
                if not first:
                    sent.set()
            ask(index)
        timeout = min(0.05, max(0.0, due[0][0] - now)) if due else 0.05
        for key, _ in selector.select(timeout):
            index = key.data
            client = clients[index]
            assert client.sock is not None
            try:
                chunk = client.sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                outstanding = client.asked is not None
                close(client)
                if outstanding:  # closed with our request unanswered: ask again
                    counts["dropped"] += 1
                    heapq.heappush(due, (time.monotonic(), index))
                continue
            client.received += chunk
            head, found, body = client.received.partition(b"\r\n\r\n")
            if not found:
                continue
            lines = head.decode("latin-1").split("\r\n")
            headers = {n.strip().lower(): v.strip() for n, _, v in (line.partition(":") for line in lines[1:])}
            if len(body) < int(headers.get("content-length", 0)):
                continue
            status = int(lines[0].split()[1])
            client.asked = None
            if status == 200 and b'"retry_after"' in body:  # (the server before: busy said in a 200's body)
                counts["refused"] += 1
                heapq.heappush(due, (time.monotonic() + float(json.loads(body)["retry_after"]), index))
            elif status == 200:  # (its 55 s ran out, or the game moved): ask again at once
                counts["ok"] += 1
                heapq.heappush(due, (time.monotonic(), index))
            elif status == 503:
                counts["refused"] += 1
                heapq.heappush(due, (time.monotonic() + float(headers.get("retry-after", 1)), index))
            else:
                counts["other"] += 1
                heapq.heappush(due, (time.monotonic() + 1.0, index))
            if headers.get("connection", "").lower() == "close":
                close(client)
    now = time.monotonic()
    counts["held"] = sum(1 for c in clients if c.asked is not None and now - c.asked > 1.0)
    used = resource.getrusage(resource.RUSAGE_SELF)
    counts["cpu_seconds"] = used.ru_utime + used.ru_stime
    out.put(counts)


def mover(port: int, players: list[str], scripts: list[Any], until: float, out: Any) -> None:
    """Scripted games, one connection each, posted back to back until ``until``: each move's latency."""
    latencies: list[float] = []
    for seed, actions in scripts:
        if time.time() >= until:
            break
        conn = PatientClient(port)
        status, game = conn.call("POST", "/api/v1/games", {"game": "ruins", "seats": players, "seed": seed}, API_KEY)
        assert status == 201, game
        tokens = [t["token"] for t in game["tokens"]]
        version = game["version"]
        for action in actions:
            if time.time() >= until:
                break
            began = time.perf_counter()
            status, answer = conn.call(
                "POST",
                f"/api/v1/games/{game['id']}/actions",
                {"version": version, "action": action},
                tokens[action["seat"]],
            )
            latencies.append((time.perf_counter() - began) * 1000)
            assert status == 200, answer
            version = answer["version"]
        conn.close()
    out.put(latencies)


def probe(port: int, until: float, found: list[float]) -> None:
    """``GET /health`` on a new connection every PROBE_SECONDS until ``until``: each answer's latency."""
    while time.time() < until:
        began = time.perf_counter()
        conn = PatientClient(port)
        try:
            status, answer = conn.call("GET", "/api/v1/health", None, "-")
            assert status == 200, answer
        except OSError:  # (no answer within MOVE_TIMEOUT, or no connection: counted as that long)
            pass
        finally:
            conn.close()
        found.append((time.perf_counter() - began) * 1000)
        time.sleep(PROBE_SECONDS)


def phase(port: int, pid: int, players: list[str], scripts: list[Any], movers: int, window: float) -> dict[str, Any]:
    until = time.time() + window
    queue: Any = multiprocessing.Queue()
    per = len(scripts) // movers
    processes = [
        multiprocessing.Process(target=mover, args=(port, players, scripts[i * per : (i + 1) * per], until, queue))
        for i in range(movers)
    ]
    health: list[float] = []
    prober = threading.Thread(target=probe, args=(port, until, health), daemon=True)
    cpu, began = _tree_cpu(pid), time.perf_counter()
    for p in processes:
        p.start()
    prober.start()
    moves = [x for _ in processes for x in queue.get(timeout=window + 4 * MOVE_TIMEOUT)]
    prober.join(MOVE_TIMEOUT)
    elapsed = time.perf_counter() - began
    cpu = _tree_cpu(pid) - cpu
    for p in processes:
        p.join()
    return {
        "moves": len(moves),
        "moves_per_second": round(len(moves) / elapsed, 1),
        "move_p50_ms": round(_percentile(moves, 0.5), 2),
        "move_p99_ms": round(_percentile(moves, 0.99), 2),
        "move_max_ms": round(max(moves, default=float("nan")), 1),
        "health_p50_ms": round(_percentile(health, 0.5), 2),
        "health_p99_ms": round(_percentile(health, 0.99), 2),
        "health_max_ms": round(max(health, default=float("nan")), 1),
        "server_cpu_seconds_per_second": round(cpu / elapsed, 3),
    }


def settled(port: int) -> float:
    """Seconds until the server has taken the waiters' first requests: three health checks in a row under
    SETTLED_MS (before, with 2,000 waits arriving at once, a health check took up to 9 s on a busy machine)."""
    began, quick = time.perf_counter(), 0
    while quick < 3 and time.perf_counter() - began < 4 * MOVE_TIMEOUT:
        found: list[float] = []
        probe(port, time.time() + 0.01, found)
        quick = quick + 1 if found and found[0] < SETTLED_MS else 0
    return time.perf_counter() - began


def start_server(port: int, db_url: str, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DIGSITE_DATABASE_URL": db_url, "DIGSITE_API_KEY": API_KEY}
    if args.waits is not None:
        env[capacity.SETTING] = str(args.waits)
    if args.server_path:  # (another checkout's code for the server: the code before a change)
        env["PYTHONPATH"] = args.server_path
    sized = (
        args.hand_sized.split()
        if args.hand_sized
        else ["-c", "python:service.serving.gunicorn_conf", "-w", str(args.workers)]
    )
    command = [sys.executable, "-m", "gunicorn", *sized, "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    server = subprocess.Popen([*command, "service.serving.wsgi:app"], env=env, cwd=args.server_path or None)
    deadline = time.monotonic() + 60
    probe_client = KeepAliveClient(port)
    while True:
        try:
            probe_client.call("GET", "/api/v1/health", None, "-")
            probe_client.close()
            time.sleep(1.0)  # (every worker booted: with --reuse-port each listens once it has)
            return server
        except OSError:
            probe_client.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="postgresql")
    parser.add_argument("--waiters", type=int, default=2000)
    parser.add_argument("--waits", type=int, default=None, help=f"{capacity.SETTING} (default: the setting's default)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--hand-sized", default="", help="gunicorn's options instead of service/serving/gunicorn_conf.py"
    )
    parser.add_argument("--server-path", default="", help="run the server from this checkout (PYTHONPATH and cwd)")
    parser.add_argument("--movers", type=int, default=2)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--arrival", type=float, default=10.0, help="seconds over which the waiters first ask")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 3 * args.waiters + 1000  # the waiters' connections, the server's ends of them, and the rest
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(wanted, hard)), hard))  # (inherited by the server)
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_database(args.backend, Path(folder))
        backends.upgrade(db)
        try:
            service = Digsite(Settings(database=db))
            players = [service.create_player(n) for n in NAMES]
            subscriptions: list[tuple[str, str]] = []
            while len(subscriptions) < args.waiters:  # idle games, four seats each: a waiter a seat
                created = service.create_game("ruins", players)
                subscriptions += [(str(created["id"]), t["token"]) for t in created["tokens"]]
            service.close()
            scripts = scripted_games(12 * args.movers, "waits")
            port = _free_port()
            server = start_server(port, db.url, args)
            try:
                quiet = phase(port, server.pid, players, scripts[: 6 * args.movers], args.movers, args.window)
                sent, stop = multiprocessing.Event(), multiprocessing.Event()
                out: Any = multiprocessing.Queue()
                holder = multiprocessing.Process(
                    target=waiters, args=(port, subscriptions[: args.waiters], args.arrival, sent, stop, out)
                )
                holder.start()
                began = time.perf_counter()
                arriving: list[float] = []  # health checks while the waiters arrive and the server takes their waits
                prober = threading.Thread(target=probe, args=(port, time.time() + args.arrival, arriving), daemon=True)
                prober.start()
                sent.wait(600)
                prober.join(MOVE_TIMEOUT)
                connected = time.perf_counter() - began
                absorbed = settled(port)
                time.sleep(SETTLE_SECONDS)
                cpu = _tree_cpu(server.pid)
                loaded = phase(port, server.pid, players, scripts[6 * args.movers :], args.movers, args.window)
                stop.set()
                held_for = time.perf_counter() - began
                counts = out.get(timeout=60)
                holder.join(30)
                cpu = _tree_cpu(server.pid) - cpu
            finally:
                server.terminate()
                server.wait(120)
        finally:
            drop(db)
    report = {
        "server": args.hand_sized or f"-c python:service.serving.gunicorn_conf -w {args.workers}",
        "waits_setting": args.waits if args.waits is not None else f"default ({capacity.DEFAULT_WAITS})",
        "waiters": args.waiters,
        "quiet": quiet,
        "beside_waiters": loaded,
        "waiters_all_asked_in_seconds": round(connected, 1),
        "health_while_arriving_p50_ms": round(_percentile(arriving, 0.5), 1),
        "health_while_arriving_max_ms": round(max(arriving, default=float("nan")), 1),
        "taken_in_seconds_after_the_last_arrived": round(absorbed, 1),
        "waits_held_at_the_end": counts["held"],
        "refusals_per_second": round(counts["refused"] / held_for, 1),
        "waiters_counts": counts,
        "server_cpu_seconds_per_second_settling_and_beside_waiters": round(cpu / (held_for - connected), 3),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
