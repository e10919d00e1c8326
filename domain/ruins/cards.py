"""The printed components of Ruins, loaded from one rules version's data files (``data/<version>/``).

Code holds the mechanics; every number the box would print (ranks, discoveries, prices, award charts)
lives in JSON so it can be swapped for the printed values without touching the engine. Which versions
exist, and which files each one has, is ``domain/ruins/versions.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Effect:
    name: str
    kind: str  # extra_rank | wild_rank | extra_ruin | relight | draw | forced_draw
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class RuinCard:
    id: int
    day_rank: int
    copy: int
    night_rank: int
    night_effect: str | None


@dataclass(frozen=True, slots=True)
class Discovery:
    id: int
    position: str  # top | middle | bottom
    effect: str


@dataclass(frozen=True, slots=True, eq=False)
class Book:
    """One rules version's components and numbers. A game's state holds the rule book of the version it is
    played under. Two books are equal when they are the same version: a released version's data never
    change (``domain.versions``), so its name says all of it."""

    version: str
    ruins: tuple[RuinCard, ...]
    discoveries: tuple[Discovery, ...]
    effects: dict[str, Effect]
    positions: tuple[str, ...]
    hand_size: int
    torches: int
    claims: int
    max_rounds: int
    vp_min: int
    vp_max: int
    instant_win_vp: int
    last_holder_penalty: int
    wild_rank_max: int
    market_prices: tuple[int, ...]
    award_charts: dict[int, tuple[int, ...]]
    copies_in_play: dict[int, int]
    discovery_positions: tuple[int, ...] = ()  # each discovery's sleeve position index (derived at load)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Book) and other.version == self.version

    def __hash__(self) -> int:
        return hash(self.version)

    def position_index(self, discovery_id: int) -> int:
        return self.discovery_positions[discovery_id]

    def effect_of(self, discovery_id: int) -> Effect:
        return self.effects[self.discoveries[discovery_id].effect]

    def award(self, players: int, place: int) -> int:
        chart = self.award_charts[players]
        return chart[place - 1] if place <= len(chart) else 0


def load_book(version: str, data: Mapping[str, Any]) -> Book:
    """The rule book of ``version`` from its data files: ``book`` (book.json) and ``ruins`` (ruins.json)."""
    rules = data["book"]
    if rules["version"] != version:
        raise ValueError(f"the book.json of Ruins rules version {version} says it is {rules['version']!r}")
    ruins = tuple(
        RuinCard(r["id"], r["day_rank"], r["copy"], r["night_rank"], r["night_effect"]) for r in data["ruins"]["ruins"]
    )
    effects = {
        name: Effect(name, e["kind"], int(e.get("amount", 0)), e["text"]) for name, e in rules["effects"].items()
    }
    discoveries = tuple(Discovery(d["id"], d["position"], d["effect"]) for d in rules["discoveries"])
    return Book(
        version=rules["version"],
        ruins=ruins,
        discoveries=discoveries,
        effects=effects,
        positions=tuple(rules["positions"]),
        hand_size=rules["hand_size"],
        torches=rules["torches"],
        claims=rules["claims"],
        max_rounds=rules["max_rounds"],
        vp_min=rules["vp_min"],
        vp_max=rules["vp_max"],
        instant_win_vp=rules["instant_win_vp"],
        last_holder_penalty=rules["last_holder_penalty"],
        wild_rank_max=rules["wild_rank_max"],
        market_prices=tuple(rules["market_prices"]),
        award_charts={int(k): tuple(v) for k, v in rules["award_charts"].items()},
        copies_in_play={int(k): v for k, v in rules["copies_in_play"].items()},
        discovery_positions=tuple(rules["positions"].index(d.position) for d in discoveries),
    )
