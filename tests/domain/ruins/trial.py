"""Trial rules versions for tests: a copy of a released version's data, changed, in a temporary folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.ruins.cards import Book
from domain.ruins.versions import VERSIONS
from domain.versions import Release, data_digest


def trial_release(
    folder: Path,
    name: str,
    change: Callable[[dict[str, Any]], None],
    based_on: str = "ruins-1",
) -> Release[Book]:
    """Version ``name``: ``based_on``'s data files (``rules`` and ``ruins``), with ``change`` applied to
    them (given ``{"book": ..., "ruins": ...}``), written under ``folder`` and pinned with their digests."""
    data = VERSIONS.read(VERSIONS.release(based_on))
    data["book"]["version"] = name
    change(data)
    files = {}
    for role, content in data.items():
        path = folder / name / f"{role}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = json.dumps(content, indent=1).encode()
        path.write_bytes(raw)
        files[role] = (f"{name}/{role}.json", data_digest(raw))
    return Release(name, files, root=folder)


def hand_size(size: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["book"]["hand_size"] = size

    return change
