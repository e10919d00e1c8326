"""The read models' database (service/reading/read_db.py)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from service.reading import read_db
from service.reading.read_db import ReadDatabase
from service.settings import Database


def test_request_threads_asking_at_once_share_one_pool(pg: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Any] = []
    real = read_db.guarded_pool

    def slow_to_make(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.05)  # widens the window in which a second thread would make a second pool
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(read_db, "guarded_pool", slow_to_make)
    reads = ReadDatabase(pg)
    start = threading.Barrier(8)
    answers: list[list[dict[str, Any]]] = []

    def read() -> None:
        start.wait()
        answers.append(reads.rows("SELECT 1 AS one"))

    threads = [threading.Thread(target=read) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        reads.close()
        for pool in made[1:]:
            pool.close()
    assert answers == [[{"one": 1}]] * 8
    assert len(made) == 1
