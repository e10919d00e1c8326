"""Bots: pick one of the legal actions. They see only what their seat's view shows.

``RandomBot`` picks a kind of action uniformly, then one action of that kind (so the many ways to pay a
dig do not drown the rest). ``HeuristicBot`` is not built yet (docs/rules/arnak.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from domain.arnak.actions import Action, EndTurn, Pass


class Bot(Protocol):
    def choose(self, view: dict[str, object], legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over the kinds of legal action, then over the actions of the kind drawn. ``pass_weight``
    scales how often passing (and ending the turn) is drawn, so games are not all over at once."""

    def __init__(self, pass_weight: float = 0.3) -> None:
        self.pass_weight = pass_weight

    def choose(self, view: dict[str, object], legal: Sequence[Action], rng: random.Random) -> Action:
        kinds: dict[str, list[Action]] = {}
        for action in legal:
            kinds.setdefault(type(action).__name__, []).append(action)
        names = sorted(kinds)
        weights = [self.pass_weight if name in (Pass.__name__, EndTurn.__name__) else 1.0 for name in names]
        if not any(weights):
            weights = [1.0] * len(names)
        name = rng.choices(names, weights)[0]
        return rng.choice(kinds[name])

    def __repr__(self) -> str:
        return f"RandomBot(pass_weight={self.pass_weight})"
