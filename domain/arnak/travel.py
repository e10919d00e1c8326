"""Paying travel: which icons pay for which, whether a payment covers a cost, and every way to pay one.

"Airplane: any other icon. Buggy or ship: a boot. 2 coins: charters a plane." A card with two icons can
cover two icons of a cost. A cost may also ask for discards (a card from the hand put into the play area
unused): any card pays a discard, with no icon.

Digsite's rule for a payment (design, docs/rules/arnak.md): every card, travel icon and chartered plane
in it must be needed, i.e. cover at least one icon or discard of the cost. Overpaying with a plane for a
boot is allowed; adding a card that pays nothing is not.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, permutations

from domain.arnak.actions import Payment
from domain.arnak.components import book
from domain.arnak.state import Player


def travel_icons(player: Player, card: int) -> tuple[str, ...]:
    """The travel icons ``card`` shows for ``player``: all planes this round after Guardian's Ocarina."""
    icons = book().card(card).travel
    return ("plane",) * len(icons) if player.all_planes else icons


def covers(have: str, need: str) -> bool:
    """Does travel icon ``have`` pay for icon ``need``?"""
    return have == need or have == "plane" or need == "boot"


def _covers_all(sources: Sequence[tuple[str, ...]], need: Sequence[str]) -> bool:
    """Can ``sources`` (each a card's icons, or one icon) pay for every icon of ``need``, each source
    paying at least one icon and each icon of a source paying at most one icon of the cost?"""
    icons = [(owner, icon) for owner, source in enumerate(sources) for icon in source]
    if len(icons) < len(need):
        return False
    for chosen in permutations(range(len(icons)), len(need)):
        paid = all(covers(icons[i][1], n) for i, n in zip(chosen, need, strict=True))
        if paid and {icons[i][0] for i in chosen} == set(range(len(sources))):
            return True
    return False


def pays(
    card_icons: Sequence[tuple[str, ...]], travel: Sequence[str], charter: int, need: Sequence[str], discards: int
) -> bool:
    """Do these cards (their icons), held travel icons and chartered planes pay exactly for ``need`` plus
    ``discards`` discards, with nothing superfluous?"""
    sources = [*card_icons, *((icon,) for icon in travel), *(("plane",),) * charter]
    if discards == 0:
        return _covers_all(sources, need) if need else not sources
    cards = range(len(card_icons))
    for discarded in combinations(cards, discards):
        rest = [s for i, s in enumerate(sources) if i not in discarded]
        if _covers_all(rest, need) if need else not rest:
            return True
    return False


def payments(
    hand: Sequence[int],
    icons_of: dict[int, tuple[str, ...]],
    travel: Sequence[str],
    coins: int,
    charter_coins: int,
    need: Sequence[str],
    discards: int,
) -> list[Payment]:
    """Every payment (no superfluous part) of ``need`` plus ``discards`` from this hand, these travel icons
    and these coins; held travel icons that are alike are offered once. Cards are offered in the order of
    their ids (fewest cards first), as ``_shapes`` finds them."""
    cards = sorted(hand)
    most_planes = min(coins // charter_coins, len(need) + discards)  # more could not all be needed
    shapes = _shapes(tuple(icons_of[c] for c in cards), tuple(sorted(travel)), most_planes, tuple(need), discards)
    return [Payment(tuple(cards[i] for i in picked), spent, charter) for picked, spent, charter in shapes]


@lru_cache(maxsize=4096)
def _shapes(
    icons: tuple[tuple[str, ...], ...], travel: tuple[str, ...], most_planes: int, need: tuple[str, ...], discards: int
) -> tuple[tuple[tuple[int, ...], tuple[str, ...], int], ...]:
    """The payments of ``need`` plus ``discards`` from cards showing ``icons`` (their positions), the held ``travel``
    icons (sorted) and up to ``most_planes`` chartered planes, as (positions, travel icons spent, planes chartered).

    SPEED: they depend only on the icons, and the same few starting cards make the same few hands: four-player
    random games ask for about 230 payment lists a game, of which 83% (after 100 games; 3,757 distinct lists) were
    worked out before; listing them was a quarter of the game (55 to 63 games per CPU second)."""
    size = len(need) + discards
    out: list[tuple[tuple[int, ...], tuple[str, ...], int]] = []
    for n_cards in range(min(size, len(icons)) + 1):
        for picked in combinations(range(len(icons)), n_cards):
            card_icons = tuple(icons[i] for i in picked)
            for n_travel in range(min(size - n_cards, len(travel)) + 1):
                for spent in _multisets(travel, n_travel):
                    for charter in range(min(size - n_cards - n_travel, most_planes) + 1):
                        if _pays(card_icons, spent, charter, need, discards):
                            out.append((picked, spent, charter))
    return tuple(out)


@lru_cache(maxsize=8192)
def _pays(
    card_icons: tuple[tuple[str, ...], ...], travel: tuple[str, ...], charter: int, need: tuple[str, ...], discards: int
) -> bool:
    """``pays``, remembered: ``_shapes`` asks it of the same few icons over and over. SPEED: a list that was not
    worked out before costs 2-4x less (15-40 µs); 128 to 121 million instructions a four-player random game, 265 to
    253 a heuristic one (callgrind, early in a run, while ``_shapes`` still learns)."""
    return pays(card_icons, travel, charter, need, discards)


def _multisets(held: Sequence[str], n: int) -> Iterator[tuple[str, ...]]:
    """The ``n``-icon choices from the sorted ``held``, alike ones offered once."""
    seen: set[tuple[str, ...]] = set()
    for combo in combinations(held, n):
        if combo not in seen:
            seen.add(combo)
            yield combo
