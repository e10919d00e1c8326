"""What a ruin can do given its state: the ranks it may count as, how many ruins it counts as, its effects."""

from __future__ import annotations

from functools import cache

from domain.ruins.cards import Effect, rulebook
from domain.ruins.state import Profile, Ruin

_BY_IDENTITY: dict[tuple[int, int], tuple[Ruin, Profile]] = {}


def profile(card: int, ruin: Ruin) -> Profile:
    """The profile of ``card`` in state ``ruin``. Looked up by the Ruin object's identity first: states share
    Ruin objects from move to move, and hashing a Ruin by value on every lookup was the engine's hot spot."""
    key = (card, id(ruin))
    hit = _BY_IDENTITY.get(key)
    if hit is not None and hit[0] is ruin:  # the stored Ruin keeps its id from being reused
        return hit[1]
    found = _profile(card, ruin)
    if len(_BY_IDENTITY) > 100_000:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[key] = (ruin, found)
    return found


@cache
def _profile(card: int, ruin: Ruin) -> Profile:
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
    return Profile(
        frozenset(ranks),
        weight,
        tuple(effects),
        relight=total(effects, "relight"),
        dig=total(effects, "draw"),
        burden=total(effects, "forced_draw"),
    )


def total(effects: list[Effect], kind: str) -> int:
    return sum(e.amount for e in effects if e.kind == kind)
