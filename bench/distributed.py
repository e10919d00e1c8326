"""Speed-up of the distributed rebuild (service/cluster/dask_jobs.py) against the single-process rebuild, same run.

On a PostgreSQL store of bot games (generated as ``bench.analytics`` does, or copied from its ``--store FILE``),
the single-process rebuild (``Follower.rebuild``) is timed first and last (the baseline, bracketing the rest),
and between them the distributed rebuild on a local Dask cluster of 1, 2 and all cores' worker processes. Each
distributed rebuild's read models are compared with the single-process one's (every table, rows sorted:
``bench.analytics.dump_read_models``). The cluster's start is timed apart (it is paid once per command).

Run: ``.venv/bin/python -m bench.distributed --games 2000`` (``--store FILE`` to keep or reuse the store).
PostgreSQL: ``DIGSITE_BENCH_DATABASE_URL`` (default the local server); a fresh schema is used and dropped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.analytics import dump_read_models, generate, load_store
from bench.service import drop, fresh_database
from service import bootstrap
from service.cluster import dask_jobs
from service.reading.projections.follower import Follower
from service.settings import Settings
from service.store import backends


def single(follower: Follower) -> float:
    began = time.perf_counter()
    follower.rebuild()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--store", type=Path, help="an SQLite store to start from (made by bench.analytics --store)")
    parser.add_argument("--batch-size", type=int, default=Follower.BATCH_SIZE, help="records per share")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    counts = sorted({1, 2, cores})
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_database("postgresql", Path(folder))
        backends.upgrade(db)
        settings = Settings(database=db, secret_key="bench")
        try:
            began = time.perf_counter()
            if args.store is not None and args.store.exists():
                load_store(args.store, db)
            else:
                service = bootstrap.build(settings)
                try:
                    generate(service, args.games)
                finally:
                    service.close()
            print(f"store ready in {time.perf_counter() - began:.0f} s", file=sys.stderr)
            follower = bootstrap.follower(settings)
            records = follower.app.recorder.max_notification_id() or 0
            began = time.perf_counter()
            games = dask_jobs._games(follower.app, records)  # the coordinator's listing of the games
            listing = time.perf_counter() - began
            first = single(follower)
            expected = dump_read_models(follower, Path(folder) / "single.txt")
            runs: list[dict[str, Any]] = []
            for workers in counts:
                began = time.perf_counter()
                with dask_jobs.engine(None, workers) as client:
                    started = time.perf_counter() - began
                    began = time.perf_counter()
                    dask_jobs.rebuild(client, settings, batch_size=args.batch_size)
                    seconds = time.perf_counter() - began
                same = dump_read_models(follower, Path(folder) / f"workers-{workers}.txt") == expected
                runs.append({"workers": workers, "seconds": seconds, "cluster_start_seconds": started, "same": same})
                print(f"  {workers} worker(s): {seconds:.1f} s, identical: {same}", file=sys.stderr)
            last = single(follower)
            follower.close()
        finally:
            drop(db)
    baseline = (first + last) / 2
    result = {
        "records": records,
        "cores": cores,
        "single_process_seconds": [round(first, 2), round(last, 2)],
        "single_process_records_per_second": round(records / baseline),
        "games": len(games),
        "coordinator_listing_seconds": round(listing, 2),  # one of its two scans of the log (other: players...)
        "distributed": [
            {
                "workers": r["workers"],
                "seconds": round(r["seconds"], 2),
                "records_per_second": round(records / r["seconds"]),
                "speed_up": round(baseline / r["seconds"], 2),  # against the mean of the two baseline runs
                "cluster_start_seconds": round(r["cluster_start_seconds"], 2),
                "read_models_identical": r["same"],
            }
            for r in runs
        ],
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
