"""The audit trail's arithmetic: canonical JSON, the per-game hash chain, and the seed commitment.

Every stored record of a game carries the hash of the record before it; a record's hash covers its own
content and that previous hash. Editing, deleting or reordering any stored record breaks the chain.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def record_hash(game_id: str, version: int, prev: str, body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical({"game": game_id, "version": version, "prev": prev, "body": body})).hexdigest()


def tournament_record_hash(tournament_id: str, version: int, prev: str, body: dict[str, Any]) -> str:
    """A tournament's record hash: a game's scheme, keyed ``tournament`` so that no game record and no tournament
    record can ever stand for each other."""
    text = canonical({"tournament": tournament_id, "version": version, "prev": prev, "body": body})
    return hashlib.sha256(text).hexdigest()


def seed_commitment(seed: str) -> str:
    """Published when the game is created; the seed itself only when the game ends."""
    return hashlib.sha256(f"digsite-seed:{seed}".encode()).hexdigest()


def token_hash(token: str) -> str:
    return hashlib.sha256(f"digsite-seat-token:{token}".encode()).hexdigest()
