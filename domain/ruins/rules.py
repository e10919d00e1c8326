"""What a ruin can do given its state: the ranks it may count as, how many ruins it counts as, its effects."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from domain.ruins.cards import Effect, rulebook
from domain.ruins.state import Ruin


@dataclass(frozen=True, slots=True)
class Profile:
    """A ruin as it plays right now. ``ranks``: every rank it may count as (its side's rank, plus extra
    ranks, or any rank when wild). ``weight``: how many ruins it counts as (2 with an extra-ruin)."""

    ranks: frozenset[int]
    weight: int
    effects: tuple[Effect, ...]


@cache
def profile(card: int, ruin: Ruin) -> Profile:
    book = rulebook()
    printed = book.ruins[card]
    base = printed.night_rank if ruin.night else printed.day_rank
    effects: list[Effect] = []
    if ruin.night and printed.night_effect:
        effects.append(book.effects[printed.night_effect])
    effects.extend(book.effect_of(d) for d in ruin.sleeves if d is not None)
    ranks = {base}
    weight = 1
    for effect in effects:
        if effect.kind == "extra_rank":
            ranks.add(base + effect.amount)
        elif effect.kind == "wild_rank":
            ranks.update(range(1, book.wild_rank_max + 1))
        elif effect.kind == "extra_ruin":
            weight = 2
    return Profile(frozenset(ranks), weight, tuple(effects))


def total(effects: list[Effect], kind: str) -> int:
    return sum(e.amount for e in effects if e.kind == kind)
