"""HTTP moves per second under gunicorn with concurrent bot clients on loopback, against the
service-layer rate measured in the same run (target: at least 1/2 of it); p50 and p99 latency.

Each client process plays whole games alone (it holds every seat's token), posting scripted bot moves
decided in memory beforehand, so the figure is the server's, not the bots'.

Run: ``.venv/bin/python -m bench.http --backend postgresql --clients 8 --workers 4``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.service import NAMES, drop, fresh_database, scripted_games, service_moves
from service import store
from service.application import Digsite
from service.settings import Settings

API_KEY = "bench-organiser-key"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(conn: http.client.HTTPConnection, method: str, path: str, body: Any, token: str) -> tuple[int, Any]:
    conn.request(
        method, path, json.dumps(body), {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    )
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")


def client(port: int, players: list[str], scripts: list[tuple[str, list[dict[str, Any]]]], out: Any) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    latencies: list[float] = []
    moves = 0
    started = time.perf_counter()
    for seed, actions in scripts:
        status, game = _call(conn, "POST", "/api/v1/games", {"game": "ruins", "seats": players, "seed": seed}, API_KEY)
        assert status == 201, game
        tokens = [t["token"] for t in game["tokens"]]
        version = game["version"]
        for action in actions:
            began = time.perf_counter()
            status, answer = _call(
                conn,
                "POST",
                f"/api/v1/games/{game['id']}/actions",
                {"version": version, "action": action},
                tokens[action["seat"]],
            )
            latencies.append((time.perf_counter() - began) * 1000)
            assert status == 200, answer
            version = answer["version"]
            moves += 1
    out.put({"moves": moves, "seconds": time.perf_counter() - started, "latencies": latencies})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="postgresql")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--games-per-client", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_database(args.backend, Path(folder))
        store.upgrade(db)
        try:
            service = Digsite(Settings(database=db))
            players = [service.create_player(n) for n in NAMES]
            scripts = scripted_games(args.clients * args.games_per_client + 4, "http")
            baseline = [service_moves(service, players, s)[1] for s in scripts[-4:]]
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
                    "gthread",
                    "--threads",
                    "4",
                    "-b",
                    f"127.0.0.1:{port}",
                    "--log-level",
                    "warning",
                    "service.wsgi:app",
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
                began = time.perf_counter()
                for p in processes:
                    p.start()
                results = [queue.get(timeout=900) for _ in processes]
                elapsed = time.perf_counter() - began
                for p in processes:
                    p.join()
            finally:
                server.terminate()
                server.wait(30)
        finally:
            drop(db)
    moves = sum(r["moves"] for r in results)
    latencies = sorted(x for r in results for x in r["latencies"])
    http_rate = moves / elapsed
    service_rate = statistics.median(baseline)
    print(
        json.dumps(
            {
                "backend": args.backend,
                "clients": args.clients,
                "gunicorn_workers": args.workers,
                "moves": moves,
                "http_moves_per_second": round(http_rate),
                "service_moves_per_second": round(service_rate),
                "ratio": round(http_rate / service_rate, 3),
                "p50_ms": round(latencies[len(latencies) // 2], 2),
                "p99_ms": round(latencies[int(len(latencies) * 0.99)], 2),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
