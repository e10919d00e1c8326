"""The state of a Ruins game: an immutable value that ``evolve`` replaces, never mutates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.ruins.cards import Book, Effect
from domain.slots import builder

NO_SLEEVES: tuple[int | None, ...] = (None, None, None)


@dataclass(frozen=True, slots=True)
class Profile:
    """A ruin as it plays right now. ``ranks``: every rank it may count as (its side's rank, plus extra
    ranks, or any rank when wild). ``weight``: how many ruins it counts as (2 with an extra-ruin)."""

    ranks: frozenset[int]
    weight: int
    effects: tuple[Effect, ...]
    relight: int = 0  # torches relit when played
    dig: int = 0  # ruins drawn (then discarded) when played
    burden: int = 0  # ruins the next player draws when played
    highest: int = field(init=False, compare=False, repr=False)  # max(ranks): can it beat a rank on its own?

    def __post_init__(self) -> None:
        object.__setattr__(self, "highest", max(self.ranks))  # derived, so never out of step with ranks


@dataclass(frozen=True, slots=True)
class Ruin:
    """What happened to one physical ruin card: its side, its three sleeve positions and its claim."""

    night: bool = False
    sleeves: tuple[int | None, ...] = NO_SLEEVES  # discovery ids at top, middle, bottom
    claim: int | None = None  # the seat whose claim card is sleeved on it

    def with_sleeve(self, position: int, discovery: int) -> Ruin:
        sleeves = self.sleeves
        return new_ruin(self.night, (*sleeves[:position], discovery, *sleeves[position + 1 :]), self.claim)


BARE = Ruin()


@dataclass(frozen=True, slots=True)
class Top:
    """The play to beat in the current exchange."""

    seat: int
    rank: int
    count: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended (python-chess style): ``None`` from ``outcome()`` while play goes on."""

    winner: int
    how: str  # "instant" | "showdown"
    round: int


@dataclass(frozen=True)
class GameState:
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    seed: str
    set_aside: tuple[int, ...]
    ruins: tuple[Ruin, ...]
    vp: tuple[int, ...]
    claims_left: tuple[int, ...]
    torches: tuple[int, ...]
    market: tuple[int | None, ...]
    discovery_deck: tuple[int, ...]
    # The rules version the game is played under (its GameStarted names it): decide, evolve, legal_actions
    # and view read every rule from here, so a game keeps its version's rules whatever version is current.
    book: Book = field(repr=False)
    round: int = 0
    showdown: bool = False
    participants: tuple[int, ...] = ()
    round_start_vp: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    draw_pile: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()
    top: Top | None = None
    responded: frozenset[int] = frozenset()
    phase: str = "flip"  # flip | play | discard | over
    leader: int = 0  # who leads once the night flips are revealed
    turn: int | None = None
    flip_choices: tuple[tuple[int, int | None], ...] = ()  # secret (seat, ruin) choices so far
    discarder: int | None = None
    discard_count: int = 0
    finish_order: tuple[int, ...] = ()
    last_round_order: tuple[int, ...] = ()
    outcome: Outcome | None = None
    # Each ruin's Profile, kept in step with ``ruins`` by evolve: derived, so not part of equality, but
    # looking it up by index instead of recomputing it is what makes legal_actions fast.
    profiles: tuple[Profile, ...] = field(default=(), compare=False, repr=False)
    # The ruins that count as two (a profile's weight), kept in step with ``profiles`` likewise: a hand
    # without any of them has only plain follows, and which hands those are is asked on every turn.
    twins: frozenset[int] = field(default=frozenset(), compare=False, repr=False)

    @property
    def n_players(self) -> int:
        return len(self.players)

    def active(self, seat: int) -> bool:
        """Still in this round: dealt in and holding cards."""
        return seat in self.participants and bool(self.hands[seat])

    def next_active(self, seat: int) -> int | None:
        """The next seat clockwise after ``seat`` that still holds cards (never ``seat`` itself)."""
        n = self.n_players
        for step in range(1, n):
            other = (seat + step) % n
            if other in self.participants and self.hands[other]:
                return other
        return None


# Built on every flip, upgrade and play: faster than the frozen __init__ (domain.slots). Shared values of
# them, where they pay, are in domain.ruins.caches.
new_ruin = builder(Ruin)
new_top = builder(Top)

NOBODY: frozenset[int] = frozenset()
