"""The seeded draws and a round's start, shared by setting a game up and by playing its rounds on.

All randomness is drawn from the game's seed, each draw from its own labelled generator (``"<seed>:items"``), so one
shuffle never depends on how many came before it."""

from __future__ import annotations

from collections.abc import Iterable

from domain.arnak import events as ev
from domain.arnak.components import book
from domain.arnak.state import Player
from domain.seeds import rng


def shuffled(seed: str, label: str, items: Iterable[int]) -> tuple[int, ...]:
    out = list(items)
    rng(seed, label).shuffle(out)
    return tuple(out)


def rival_order(seed: str, round_no: int, tiles: tuple[int, ...]) -> tuple[int, ...]:
    return shuffled(seed, f"rival:{round_no}", tiles)


def round_start(seats: Iterable[Player], round_no: int, first: int) -> list[ev.Event]:
    """A round begins: its first player, and every seat draws up to the hand size from the top of its deck."""
    out: list[ev.Event] = [ev.RoundStarted(round_no, first)]
    for seat, p in enumerate(seats):
        need = book().hand_size - len(p.hand)
        if need > 0 and p.deck:
            out.append(ev.CardsDrawn(seat, p.deck[:need]))
    return out
