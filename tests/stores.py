"""Stores that many tests build the same way (an empty migrated store, the dashboard's demo of bot games), built
once per run and copied: each test, or each worker, opens a copy of its own, so what one test writes no other
sees, and the games are played once instead of once per test or per worker.

Under pytest-xdist the workers of a run share the run's temporary directory: the first worker to ask for a store
builds it there under a file lock, the others wait for the lock and find it built. A store is only ever copied
after it is built; nothing opens it for writing again."""

from __future__ import annotations

import fcntl
import json
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.settings import Database
from service.store import backends


@dataclass(frozen=True)
class Built:
    """A store built once: its SQLite file (never written again) and what its builder returned about it."""

    path: Path
    facts: Any

    def copy(self, folder: Path, name: str = "digsite.sqlite") -> Database:
        """A copy of the store in ``folder``, for one test or one worker to write to as it likes."""
        target = folder / name
        shutil.copyfile(self.path, target)
        return Database.from_url(f"sqlite:///{target}")


class Shelf:
    """The run's built stores, by name, in ``folder`` (shared by the run's workers)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._known: dict[str, Built] = {}

    def sqlite(self, name: str, build: Callable[[Database], Any] = lambda _: None) -> Built:
        """The store ``name``: migrated, then filled by ``build`` (which returns JSON: ids the tests look for),
        by whichever process of the run asks first."""
        if name in self._known:
            return self._known[name]
        self.folder.mkdir(parents=True, exist_ok=True)
        path, facts_path = self.folder / f"{name}.sqlite", self.folder / f"{name}.json"
        with open(self.folder / f"{name}.lock", "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not facts_path.exists():  # the facts are written last: a builder that failed left none
                for leftover in (path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")):
                    leftover.unlink(missing_ok=True)
                db = Database.from_url(f"sqlite:///{path}")
                backends.upgrade(db)
                facts = build(db)
                _fold_the_log_in(path)
                written = facts_path.with_suffix(".part")
                written.write_text(json.dumps(facts), "utf-8")
                written.rename(facts_path)
        built = Built(path, json.loads(facts_path.read_text("utf-8")))
        self._known[name] = built
        return built


def _fold_the_log_in(path: Path) -> None:
    """Move what the write-ahead log holds into the file itself, so a copy of the file alone is the whole store.
    Every connection the builder opened must be closed by now: a reader left open would keep the log."""
    with closing(sqlite3.connect(path)) as conn:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise RuntimeError(f"{path.name}: a connection is still open, the store cannot be copied whole")
