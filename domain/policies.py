"""Bots as one protocol for every game: a ``Policy`` picks one of the legal actions from what its seat sees.

A game lists its policies by name (``Bots.policies``: each a factory taking the policy's tendencies as keyword
arguments) and a few ``Persona``s, named bots with set tendencies, that stored tournaments seat. A policy
draws only from the ``random.Random`` it is given, so a bot game is reproducible from its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

Action = TypeVar("Action")
Action_co = TypeVar("Action_co", covariant=True)


class Policy(Protocol[Action]):
    """One bot. ``view`` is the seat's view (``GameRules.view(state, seat)``, or the same JSON from the API);
    ``legal`` the seat's legal actions; the choice is one of them."""

    @property
    def name(self) -> str:
        """The name the game lists this policy under (``Bots.policies``)."""
        ...

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...

    def tendencies(self) -> dict[str, Any]:
        """Every tunable setting and its value (defaults included): the factory rebuilds the same bot from it."""
        ...


@dataclass(frozen=True)
class Persona:
    """A named bot with set tendencies: ``record`` is what a bot player's record stores about its bot."""

    name: str
    policy: str
    tendencies: Mapping[str, Any] = field(default_factory=dict)

    @property
    def record(self) -> dict[str, Any]:
        return {"kind": self.policy, "tendencies": dict(self.tendencies)}


class UnknownPolicy(ValueError):
    """A policy name the game does not list, or tendencies its policy does not take."""


@dataclass(frozen=True)
class Bots(Generic[Action]):
    """A game's bots: its policies by name, and the personas a stored bot tournament seats (in order)."""

    policies: Mapping[str, Callable[..., Policy[Action]]]
    personas: tuple[Persona, ...]

    def make(self, policy: str, **tendencies: Any) -> Policy[Action]:
        maker = self.policies.get(policy)
        if maker is None:
            raise UnknownPolicy(f"unknown bot {policy!r}; choose from {', '.join(sorted(self.policies))}")
        try:
            return maker(**tendencies)
        except (TypeError, ValueError) as error:  # an unknown tendency, or a value the policy refuses
            raise UnknownPolicy(f"bot {policy!r}: {error}") from None

    def from_record(self, record: Mapping[str, Any]) -> Policy[Action]:
        """The bot a player record describes: ``{"kind": policy name, "tendencies": {...}}``."""
        return self.make(str(record["kind"]), **dict(record.get("tendencies") or {}))

    def personas_for(self, count: int) -> list[Persona]:
        """The first ``count`` personas; beyond the list, the styles repeat under numbered names."""
        out = []
        for i in range(count):
            base = self.personas[i % len(self.personas)]
            lap = i // len(self.personas)
            out.append(base if lap == 0 else Persona(f"{base.name} {lap + 1}", base.policy, base.tendencies))
        return out
