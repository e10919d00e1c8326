"""What a ruin can do given its state: the ranks it may count as, how many ruins it counts as, its effects."""

from __future__ import annotations

from domain.ruins.cards import Book, Effect
from domain.ruins.state import Profile, Ruin


def compute_profile(book: Book, card: int, ruin: Ruin) -> Profile:
    """The profile of ``card`` in state ``ruin`` under ``book``'s rules (its claim plays no part); the engine
    asks ``caches.profile``, which keeps them."""
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


def twins(profiles: tuple[Profile, ...]) -> frozenset[int]:
    """The ruins that count as two."""
    return frozenset(card for card, prof in enumerate(profiles) if prof.weight != 1)


def with_profile(twins: frozenset[int], card: int, prof: Profile) -> frozenset[int]:
    """``twins`` after ``card`` takes profile ``prof``."""
    if (card in twins) == (prof.weight != 1):
        return twins
    return twins | {card} if prof.weight != 1 else twins - {card}
