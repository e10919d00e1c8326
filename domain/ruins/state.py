"""The state of a Ruins game: an immutable value that ``evolve`` replaces, never mutates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.ruins.cards import Effect, RuleBook
from domain.slots import new as _new
from domain.slots import slot_setters, with_fields

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

# Ruins are rebuilt at every game start, flip and upgrade: through the slots' member descriptors rather
# than the frozen __init__'s object.__setattr__ per field (the same Ruin).
_ruin_night, _ruin_sleeves, _ruin_claim = slot_setters(Ruin)


def new_ruin(night: bool, sleeves: tuple[int | None, ...], claim: int | None) -> Ruin:
    """``Ruin(night, sleeves, claim)``; the bare ruin every game starts with is shared."""
    if night is False and claim is None and sleeves == NO_SLEEVES and type(sleeves) is tuple:
        return BARE
    ruin: Ruin = object.__new__(Ruin)
    _ruin_night(ruin, night)
    _ruin_sleeves(ruin, sleeves)
    _ruin_claim(ruin, claim)
    return ruin


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
    book: RuleBook = field(repr=False)
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


# The instance dict's own descriptor: setting through it is about twice as fast as object.__setattr__.
def from_fields(fields: dict[str, Any]) -> GameState:
    """The state with these fields (all of GameState's, by name): how evolve builds a state, from a copy of
    the instance dict of the one before (GameState has no slots for this reason), changed. About 20x
    faster than ``dataclasses.replace``; the result is as frozen as any other state."""
    state: GameState = with_fields(GameState, fields)
    return state


# The play to beat is built on every play, and there are only so many (seats x ranks x counts): each is
# built once, through the slots' member descriptors (skipping the frozen __init__), and then shared.
_top_seat, _top_rank, _top_count = slot_setters(Top)
_TOPS: dict[tuple[int, int, int], Top] = {}


def new_top(seat: int, rank: int, count: int) -> Top:
    """``Top(seat, rank, count)``."""
    shared = type(seat) is int and type(rank) is int  # (True == 1, but True is stored as JSON true)
    if shared:
        top = _TOPS.get((seat, rank, count))
        if top is not None:
            return top
    top = _new(Top)
    _top_seat(top, seat)
    _top_rank(top, rank)
    _top_count(top, count)
    if shared:
        if len(_TOPS) >= 4096:
            _TOPS.clear()
        _TOPS[seat, rank, count] = top
    return top


NOBODY: frozenset[int] = frozenset()


_LAST_WITHOUT: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())


def without(hand: tuple[int, ...], gone: tuple[int, ...]) -> tuple[int, ...]:
    """``hand`` less the ruins in ``gone``, in order.

    decide works out the hand a play leaves, then evolve applies the play and asks again with the very
    same tuples: the last answer is kept, by identity. (One entry, replaced in one assignment: a thread
    reads either the old answer or the new one, each right for its own question.)"""
    global _LAST_WITHOUT
    last = _LAST_WITHOUT
    if last[0] is hand and last[1] is gone:
        return last[2]
    rest = tuple([c for c in hand if c not in gone])
    _LAST_WITHOUT = (hand, gone, rest)
    return rest
