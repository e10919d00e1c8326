"""Starting a game and dealing a round. All randomness is drawn here from the game's seed, and only here.

Each draw uses its own generator derived from the seed and a label (``"<seed>:deal:3"``), so the outcome
of one shuffle never depends on how many others came before it and a replay never needs the generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from domain.errors import SetupError
from domain.ruins import events as ev
from domain.ruins.cards import Book
from domain.ruins.state import BARE, GameState, Ruin
from domain.ruins.versions import book_of
from domain.seeds import rng

SUPPORTED_OPTIONS: frozenset[str] = frozenset()


def shuffle(generator: random.Random, items: list[int]) -> None:
    """``generator.shuffle(items)``: the same permutation from the same draws, without a call per item.

    CPython's ``Random.shuffle`` swaps each item, from the last, with one at an index drawn by
    ``_randbelow``, which rejection-samples ``getrandbits``; this is that loop with the draw written out.
    (A deal shuffles every ruin, every round.) The tests compare it with ``random.shuffle``."""
    if type(generator) is not random.Random:  # a subclass may draw its numbers differently
        generator.shuffle(items)
        return
    getrandbits = generator.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _check_players(players: Iterable[str]) -> tuple[str, ...]:
    names = tuple(players)
    if not 2 <= len(names) <= 5:
        raise SetupError(f"Ruins is played by 2 to 5 players, not {len(names)}")
    if not all(isinstance(n, str) and n.strip() for n in names):
        raise SetupError("every player needs a non-empty name")
    return names


def _check_options(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    options = dict(options or {})
    unknown = set(options) - SUPPORTED_OPTIONS
    if unknown:
        raise SetupError(f"unknown Ruins option(s) {sorted(unknown)}; Ruins has no options yet")
    return tuple(sorted(options.items()))


def start(
    players: Iterable[str],
    options: Mapping[str, Any] | None = None,
    seed: str | int = 0,
    rules_version: str | None = None,
) -> list[ev.Event]:
    """The opening events of a new game under ``rules_version`` (``None``: the current version): setup, then
    the round-1 deal. ``UnknownRulesVersion`` if that version was never released."""
    book = book_of(rules_version)
    names = _check_players(players)
    seed = str(seed)
    copies = book.copies_in_play[len(names)]
    set_aside = tuple(r.id for r in book.ruins if r.copy >= copies)
    deck = [d.id for d in book.discoveries]
    shuffle(rng(seed, "discoveries"), deck)
    slots = len(book.market_prices)
    started = ev.GameStarted(
        players=names,
        options=_check_options(options),
        rules_version=book.version,
        seed=seed,
        set_aside=set_aside,
        discovery_deck=tuple(deck[slots:]),
        market=tuple(deck[:slots]),
        ruins=((False, BARE.sleeves, None),) * len(book.ruins),
        vp=(0,) * len(names),
        claims_left=(book.claims,) * len(names),
    )
    everyone = tuple(range(len(names)))
    leader = rng(seed, "first-leader").choice(everyone)
    return [started, deal(book, seed, len(names), 1, False, everyone, leader, [BARE] * len(book.ruins), set_aside)]


def deal(
    book: Book,
    seed: str,
    n_players: int,
    round_no: int,
    showdown: bool,
    participants: tuple[int, ...],
    leader: int,
    ruins: list[Ruin] | tuple[Ruin, ...],
    set_aside: tuple[int, ...],
) -> ev.RoundDealt:
    """Shuffle every ruin in play (upgrades and all) and deal 9 to each participant.

    Claimed ruins go home first: a participant's claimed ruins are taken out of the shuffled deck and put
    in their hand, and the deal then fills every hand to 9. This is the 'hand it over' rule with the giver
    drawing a replacement, resolved before anyone looks at a card (see docs/rules/ruins.md).
    """
    order = [c for c in range(len(ruins)) if c not in set_aside]
    shuffle(rng(seed, f"deal:{round_no}{':showdown' if showdown else ''}"), order)
    hands: dict[int, list[int]] = {s: [] for s in participants}
    owners = [ruin.claim for ruin in ruins]
    rest = order
    if owners.count(None) != len(owners):  # some ruins are claimed (none are, early in a game)
        homed = set()
        for card in order:
            owner = owners[card]
            if owner in hands:
                hands[owner].append(card)
                homed.add(card)
        rest = [c for c in order if c not in homed]
    for seat in participants:
        need = book.hand_size - len(hands[seat])
        hands[seat].extend(rest[:need])
        del rest[:need]
    return ev.RoundDealt(
        round=round_no,
        showdown=showdown,
        participants=participants,
        hands=tuple(tuple(sorted(hands.get(s, ()))) for s in range(n_players)),
        draw_pile=tuple(rest),
        leader=leader,
    )


def next_round_leader(vp: tuple[int, ...], participants: tuple[int, ...], last_order: tuple[int, ...]) -> int:
    """Fewest VP leads; a tie goes to whoever finished worse in the round just played."""
    worse = {seat: i for i, seat in enumerate(last_order)}
    return min(participants, key=lambda s: (vp[s], -worse.get(s, -1), s))


def check_position(state: GameState) -> None:
    """Every ruin and discovery is in exactly one place (used by setups built by hand)."""
    places: list[int] = [c for h in state.hands for c in h] + list(state.draw_pile) + list(state.set_aside)
    dupes = {c for c in places if places.count(c) > 1}
    if dupes:
        raise SetupError(f"ruin(s) {sorted(dupes)} are placed more than once")
    if any(not 0 <= c < len(state.ruins) for c in places):
        raise SetupError("a ruin id is out of range 0-49")
    sleeved = [d for r in state.ruins for d in r.sleeves if d is not None]
    discoveries = sleeved + [d for d in state.market if d is not None] + list(state.discovery_deck)
    dupes = {d for d in discoveries if discoveries.count(d) > 1}
    if dupes:
        raise SetupError(f"discovery card(s) {sorted(dupes)} are placed more than once")
    book = state.book
    for _card, ruin in enumerate(state.ruins):
        for pos, d in enumerate(ruin.sleeves):
            if d is not None and book.position_index(d) != pos:
                raise SetupError(f"discovery {d} belongs at the {book.discoveries[d].position} position")
