"""HTTP moves per second under gunicorn with concurrent bot clients on loopback, against the
service-layer rate measured in the same run (target: at least 1/2 of it); p50 and p99 latency.

Each client process plays whole games alone (it holds every seat's token), posting scripted bot moves
decided in memory beforehand, so the figure is the server's, not the bots'.

Run: ``.venv/bin/python -m bench.http --backend postgresql --clients 8`` (gunicorn as docs/api.md runs it:
``-w 2 -k gthread --threads 4 --reuse-port``; change it with the options).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.service import NAMES, drop, fresh_database, scripted_games, service_moves
from service.commands.application import Digsite
from service.settings import Settings
from service.store import backends

API_KEY = "bench-organiser-key"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class KeepAliveClient:
    """A minimal HTTP/1.1 client on one keep-alive connection.

    The clients share the machine's cores with the server they measure, so they should spend as little
    CPU per request as they can: ``http.client`` cost about 0.2 ms a request here, this about a third."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        return sock

    def call(self, method: str, path: str, body: Any, token: str) -> tuple[int, Any]:
        """Send a request (a JSON body unless ``body`` is None) and read the answer: its status and JSON."""
        if body is None:
            payload = b""
            head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n"
        else:
            payload = json.dumps(body).encode()
            head = (
                f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
            )
        if self.sock is None:  # first request, or the server closed the last one (gunicorn's sync workers)
            self.sock = self._connect()
        self.sock.sendall(head.encode() + payload)
        while b"\r\n\r\n" not in self.buffer:
            self._receive()
        header, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = header.split(b"\r\n")
        status = int(lines[0].split()[1])
        length, close = 0, False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection":
                close = value.strip().lower() == b"close"
        while len(self.buffer) < length:
            self._receive()
        answer, self.buffer = self.buffer[:length], self.buffer[length:]
        if close:
            self.sock.close()
            self.sock = None
        return status, json.loads(answer or b"null")

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def _receive(self) -> None:
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk


def client(port: int, players: list[str], scripts: list[tuple[str, list[dict[str, Any]]]], out: Any) -> None:
    latencies: list[float] = []
    moves = 0
    started = time.perf_counter()
    for seed, actions in scripts:
        # One connection per game, as `digsite bot` plays one game per process; with --reuse-port the
        # kernel spreads each new connection over the workers.
        conn = KeepAliveClient(port)
        status, game = conn.call("POST", "/api/v1/games", {"game": "ruins", "seats": players, "seed": seed}, API_KEY)
        assert status == 201, game
        tokens = [t["token"] for t in game["tokens"]]
        version = game["version"]
        for action in actions:
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
            moves += 1
        conn.close()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    out.put(
        {
            "moves": moves,
            "seconds": time.perf_counter() - started,
            "latencies": latencies,
            "cpu_seconds": cpu.ru_utime + cpu.ru_stime,
        }
    )


def _tree_cpu(pid: int) -> float:
    """CPU seconds used so far by a process and its descendants (Linux /proc; 0 elsewhere)."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
            for task in Path(f"/proc/{current}/task").iterdir():
                pending.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="postgresql")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games-per-client", type=int, default=4)
    parser.add_argument("--worker-class", default="gthread", help="gunicorn worker class (sync, gthread)")
    parser.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    parser.add_argument("--gunicorn-args", default="--reuse-port", help="more gunicorn options (default: --reuse-port)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_database(args.backend, Path(folder))
        backends.upgrade(db)
        try:
            service = Digsite(Settings(database=db))
            players = [service.create_player(n) for n in NAMES]
            scripts = scripted_games(args.clients * args.games_per_client + 8, "http")
            # The service-layer baseline is measured just before and just after the HTTP run (4 games
            # each), so that both see the same machine and the same disk.
            cpu_before = time.process_time()
            before = [service_moves(service, players, s)[1] for s in scripts[-8:-4]]
            service_cpu = (time.process_time() - cpu_before) / sum(len(s[1]) for s in scripts[-8:-4])
            service.close()
            port = _free_port()
            env = {**os.environ, "DIGSITE_DATABASE_URL": db.url, "DIGSITE_API_KEY": API_KEY}
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "-w",
                    str(args.workers),
                    "-k",
                    args.worker_class,
                    "--threads",
                    str(args.threads),
                    "-b",
                    f"127.0.0.1:{port}",
                    "--log-level",
                    "warning",
                    *args.gunicorn_args.split(),
                    "service.serving.wsgi:app",
                ],
                env=env,
            )
            try:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        http.client.HTTPConnection("127.0.0.1", port, timeout=2).request("GET", "/api/v1/health")
                        break
                    except OSError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.1)
                queue: Any = multiprocessing.Queue()
                per = args.games_per_client
                processes = [
                    multiprocessing.Process(
                        target=client, args=(port, players, scripts[i * per : (i + 1) * per], queue)
                    )
                    for i in range(args.clients)
                ]
                server_cpu = _tree_cpu(server.pid)
                began = time.perf_counter()
                for p in processes:
                    p.start()
                results = [queue.get(timeout=900) for _ in processes]
                elapsed = time.perf_counter() - began
                server_cpu = _tree_cpu(server.pid) - server_cpu
                for p in processes:
                    p.join()
            finally:
                server.terminate()
                server.wait(30)
            service = Digsite(Settings(database=db))
            after = [service_moves(service, players, s)[1] for s in scripts[-4:]]
            service.close()
        finally:
            drop(db)
    moves = sum(r["moves"] for r in results)
    latencies = sorted(x for r in results for x in r["latencies"])
    http_rate = moves / elapsed
    service_rate = statistics.median(before + after)
    client_cpu = sum(r["cpu_seconds"] for r in results)
    print(
        json.dumps(
            {
                "backend": args.backend,
                "clients": args.clients,
                "gunicorn_workers": args.workers,
                "worker_class": args.worker_class,
                "threads": args.threads,
                "moves": moves,
                "http_moves_per_second": round(http_rate),
                "service_moves_per_second": round(service_rate),
                "service_before_after": [round(statistics.median(before)), round(statistics.median(after))],
                "ratio": round(http_rate / service_rate, 3),
                "p50_ms": round(latencies[len(latencies) // 2], 2),
                "p99_ms": round(latencies[int(len(latencies) * 0.99)], 2),
                # CPU per move, which the disk's fsync noise does not move: the server's (gunicorn
                # workers, their threads) and the bench clients' own.
                "server_cpu_ms_per_move": round(1000 * server_cpu / moves, 3),
                "client_cpu_ms_per_move": round(1000 * client_cpu / moves, 3),
                "service_cpu_ms_per_move": round(1000 * service_cpu, 3),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
