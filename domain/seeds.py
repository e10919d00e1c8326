"""The seed every game deals from, the same for every game: a fresh secret one for a new game, the one its
opening events hold, and the random generator of one labelled draw.

A game module offers ``new_seed`` and ``seed_of`` (``domain.protocol.GameRules``) by importing them from here; a
game that keeps its seed otherwise writes its own. Pure but for ``new_seed``, which draws from the system.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any


def new_seed() -> str:
    """A fresh secret seed: 128 random bits, so its published hash cannot be reversed by guessing."""
    return secrets.token_hex(16)


def seed_of(opening: Sequence[dict[str, Any]]) -> str | None:
    """The seed in the opening ``GameStarted`` event (JSON form), or ``None`` if there is none.

    >>> seed_of([{"type": "GameStarted", "seed": "ab12"}, {"type": "RoundStarted"}])
    'ab12'
    >>> seed_of([{"type": "RoundStarted"}]) is None
    True
    """
    for event in opening:
        if isinstance(event, dict) and event.get("type") == "GameStarted":
            seed = event.get("seed")
            return seed if isinstance(seed, str) else None
    return None


def rng(seed: str, label: str) -> random.Random:
    """The generator of one draw, from the game's seed and the draw's label (``"<seed>:deal:3"``), so the outcome
    of one shuffle never depends on how many came before it. String seeds are hashed with SHA-512 by ``random``:
    stable across runs and platforms."""
    return random.Random(f"{seed}:{label}")
