"""Every cache and shared value of the Ruins engine, in one place.

Each one is kept because it pays: the figure beside it is what taking it out costs, in instructions per
four-player random game under callgrind (about 33.4 million with all of them; 30 games, hash seed 0,
measured 2026-12-01), a count the machine's load does not move. A shared play to beat (``Top``) saved nothing
(0.0%) and was dropped. The games are the same with or without any of them (``bench/fingerprint.py``).

Every cache is bounded (``keep``) and holds immutable values. A value that depends on the rules (a
ruin's profile) is keyed by the rules version's name, so two versions never share one; the hand
analyses are keyed by the identity of the state's profiles, which come from one version's book. Every
other value here is the same under any rules version (an action, an event, a ruin's state, a hand less
some ruins), so sharing it across versions is right.

Not caches, and kept where they are: the fast builders of frozen values (``domain.slots``: building with
the classes' own constructors instead costs +3.8 million, +11.5%) and the typed draft ``evolve`` writes
into (``domain.ruins.draft``: a state built per event instead costs +4.3 million, +12%).

One catch in sharing: ``True == 1`` and both hash alike, but JSON writes ``true``. A value built from a
bool where an int belongs is built afresh, never shared (the ``type(...) is int`` tests).
"""

from __future__ import annotations

from typing import Any, TypeVar

from domain.ruins.actions import Flip, Pass, Play, new_play
from domain.ruins.cards import Book
from domain.ruins.events import NextTurn, Passed, PileCleared, PlayerSkipped, RuinsPlayed, new_ruins_played
from domain.ruins.profiles import compute_profile
from domain.ruins.state import BARE, NO_SLEEVES, Profile, Ruin, new_ruin

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], limit: int, key: K, value: V) -> V:
    """``cache[key] = value``, emptying ``cache`` first once it holds ``limit`` entries: a long-running process
    (the projection) keeps its caches small, and with them the garbage collector's work (an unbounded
    profile cache once made each full collection of a projection walk hundreds of thousands of objects).
    (Plain dicts: a dict subclass's ``get`` takes a slower path in CPython, 1% of a game.)"""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


# -- values that depend on the rules version ---------------------------------------------------------------

# A ruin's profile (its ranks, weight, effects) by (version, card, night, sleeves): no Ruin is kept alive,
# and the key holds only strings, ints and None, so the garbage collector does not track it. Without it:
# +2.6 million (+7.6%; a new game alone asks for the 50 ruins' profiles).
PROFILES: dict[tuple[str, int, bool, tuple[int | None, ...]], Profile] = {}
PROFILES_LIMIT = 20_000


def profile(book: Book, card: int, ruin: Ruin) -> Profile:
    """The profile of ``card`` in state ``ruin`` under ``book``'s rules (its claim plays no part)."""
    key = (book.version, card, ruin.night, ruin.sleeves)
    found = PROFILES.get(key)
    if found is None:
        found = keep(PROFILES, PROFILES_LIMIT, key, compute_profile(book, card, ruin))
    return found


# A ruin card as a view draws it (``domain.ruins.view.ruin_card``: its JSON-ready dict) by (version, card,
# night, sleeves, claim, set aside). Every view draws all 50 ruins, and few change from one move to the next:
# building them took 185 us of a seat's 211 us view (four players, mid-game), 5.6 % of the server's CPU per move
# under ``bench.seats`` (2026-12-02). The dicts are shared between views: read them, never change them. A sleeve
# or claim that is not exactly an int (or None) is drawn afresh, never shared (``True == 1``).
CARDS: dict[tuple[str, int, bool, tuple[int | None, ...], int | None, bool], dict[str, Any]] = {}
CARDS_LIMIT = 20_000


def card_form(book: Book, card: int, ruin: Ruin, set_aside: bool) -> dict[str, Any] | None:
    """The shared dict of ``card`` in state ``ruin`` if one is kept, else None (draw it, then ``keep_card``)."""
    sleeves, claim = ruin.sleeves, ruin.claim
    if (claim is not None and type(claim) is not int) or (
        sleeves != NO_SLEEVES and not all(s is None or type(s) is int for s in sleeves)
    ):
        return None  # (never kept: see above)
    return CARDS.get((book.version, card, ruin.night, sleeves, claim, set_aside))


def keep_card(book: Book, card: int, ruin: Ruin, set_aside: bool, form: dict[str, Any]) -> dict[str, Any]:
    """Keep ``form`` as the shared dict of ``card`` in state ``ruin`` (unless it may not be shared)."""
    claim = ruin.claim
    if (claim is None or type(claim) is int) and all(s is None or type(s) is int for s in ruin.sleeves):
        keep(CARDS, CARDS_LIMIT, (book.version, card, ruin.night, ruin.sleeves, claim, set_aside), form)
    return form


# -- values the same under every version: actions -----------------------------------------------------------

_SEATS = range(8)  # (``True in _SEATS``, hence the type tests)

# A pass carries nothing but its seat. Without sharing: +0.3 million (+1.0%).
_PASSES = tuple(Pass(seat) for seat in _SEATS)


def pass_of(seat: int) -> Pass:
    """``Pass(seat)``."""
    return _PASSES[seat] if type(seat) is int and 0 <= seat < 8 else Pass(seat)


# Every seat is offered each of its day ruins at each round's start. Without sharing: +0.2 million (+0.6%).
FLIPS: dict[tuple[int, int | None], Flip] = {}
FLIPS_LIMIT = 4096


def flip_of(seat: int, ruin: int | None) -> Flip:
    """``Flip(seat, ruin)``."""
    if type(seat) is not int:
        return Flip(seat, ruin)
    found = FLIPS.get((seat, ruin))
    if found is None:
        found = keep(FLIPS, FLIPS_LIMIT, (seat, ruin), Flip(seat, ruin))
    return found


# Most plays listed and chosen are of one ruin (seats x ruins x ranks of them). Without sharing:
# +0.6 million (+1.7%).
SINGLES: dict[tuple[int, int, int], Play] = {}
SINGLES_LIMIT = 20_000


def single(seat: int, card: int, rank: int) -> Play:
    """``Play(seat, (card,), rank)``."""
    if type(seat) is not int:
        return new_play(seat, (card,), rank)
    found = SINGLES.get((seat, card, rank))
    if found is None:
        found = keep(SINGLES, SINGLES_LIMIT, (seat, card, rank), new_play(seat, (card,), rank))
    return found


# -- events ----------------------------------------------------------------------------------------------------

# Six of every ten events carry nothing but a seat. Without sharing them: +0.9 million (+2.6%).
_PASSED = tuple(Passed(s) for s in _SEATS)
_SKIPPED = tuple(PlayerSkipped(s) for s in _SEATS)
_NEXT_TURN = tuple(NextTurn(s) for s in _SEATS)
_PILE_CLEARED = tuple(PileCleared(s) for s in _SEATS)


def passed(seat: int) -> Passed:
    return _PASSED[seat] if seat in _SEATS and type(seat) is int else Passed(seat)


def player_skipped(seat: int) -> PlayerSkipped:
    return _SKIPPED[seat] if seat in _SEATS and type(seat) is int else PlayerSkipped(seat)


def next_turn(seat: int) -> NextTurn:
    return _NEXT_TURN[seat] if seat in _SEATS and type(seat) is int else NextTurn(seat)


def pile_cleared(leader: int) -> PileCleared:
    return _PILE_CLEARED[leader] if leader in _SEATS and type(leader) is int else PileCleared(leader)


# A play of one ruin, as an event (most plays), also what a projection decodes. Without sharing: +0.05 to
# +0.09 million (+0.2 to +0.3%), and a stored play decodes about 8% slower.
PLAYED: dict[tuple[int, tuple[int, ...], int, int, bool], RuinsPlayed] = {}
PLAYED_LIMIT = 20_000


def ruins_played(seat: int, ruins: tuple[int, ...], rank: int, count: int, lead: bool) -> RuinsPlayed:
    """``RuinsPlayed(seat, ruins, rank, count, lead)``."""
    if len(ruins) != 1 or type(seat) is not int or type(rank) is not int or type(ruins[0]) is not int:
        return new_ruins_played(seat, ruins, rank, count, lead)
    key = (seat, ruins, rank, count, lead)
    found = PLAYED.get(key)
    if found is None:
        found = keep(PLAYED, PLAYED_LIMIT, key, new_ruins_played(seat, ruins, rank, count, lead))
    return found


# -- the state's parts -------------------------------------------------------------------------------------------

# Every ruin of a new game is bare: one shared value (Ruin's default).


def ruin(night: bool, sleeves: tuple[int | None, ...], claim: int | None) -> Ruin:
    """``Ruin(night, sleeves, claim)``; the bare ruin is shared."""
    if night is False and claim is None and sleeves == NO_SLEEVES and type(sleeves) is tuple:
        return BARE
    return new_ruin(night, sleeves, claim)


# decide works out the hand a play leaves, then evolve applies the play and asks again with the very same
# tuples: the last answer is kept, by identity. (One entry, replaced in one assignment: a thread reads
# either the old answer or the new one, each right for its own question.) Without it: +0.5 million (+1.4%).
_LAST_WITHOUT: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())


def without(hand: tuple[int, ...], gone: tuple[int, ...]) -> tuple[int, ...]:
    """``hand`` less the ruins in ``gone``, in order."""
    global _LAST_WITHOUT
    last = _LAST_WITHOUT
    if last[0] is hand and last[1] is gone:
        return last[2]
    rest = tuple([c for c in hand if c not in gone])
    _LAST_WITHOUT = (hand, gone, rest)
    return rest
