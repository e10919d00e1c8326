"""``legal_actions(state, seat)``: every action a seat may take now, sorted and deterministic.

Plays are listed without crafting. Crafting is described as options of a play: ``craft_options``
lists each purchase or claim that may be added to a given play and keeps it legal. ``decide`` checks
any concrete action, crafted or not.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import overload

from domain.errors import DomainError
from domain.ruins.actions import Action, Discard, Flip, Play, Purchase, new_play, pass_of, with_claim, with_purchase
from domain.ruins.cards import rulebook
from domain.ruins.state import GameState, Profile


def legal_actions(state: GameState, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now. A list, except on a turn of the play phase: a ``LegalPlays``,
    a read-only sequence that compares equal to the list it stands for."""
    if state.outcome is not None or not 0 <= seat < state.n_players:
        return []
    phase = state.phase
    if phase == "play":
        if state.turn != seat:
            return []
        top = state.top
        if top is None:
            return _hand(state, seat).leads(seat)
        return _hand(state, seat).follows(seat, top.rank, top.count, (pass_of(seat),))
    if phase == "flip":
        if seat not in state.participants or any(s == seat for s, _ in state.flip_choices):
            return []
        day = [c for c in state.hands[seat] if not state.ruins[c].night]
        return [Flip(seat, None), *(Flip(seat, c) for c in day)]
    if phase == "discard":
        if seat != state.discarder:
            return []
        return [Discard(seat, combo) for combo in combinations(state.hands[seat], state.discard_count)]
    return []


# A block of plays: every combination of ``size`` of ``cards`` declared as ``rank``, in the order of
# itertools.combinations; or, when ``combos`` is given, just those combinations.
_Block = tuple[int, tuple[int, ...], int, tuple[tuple[int, ...], ...] | None]


def _nth_combination(cards: tuple[int, ...], size: int, index: int) -> tuple[int, ...]:
    """``list(combinations(cards, size))[index]`` without listing them (the itertools recipe)."""
    if size == 1:
        return (cards[index],)
    n = len(cards)
    if size == n:
        return cards
    c = comb(n, size)
    out = []
    while size:
        c, n, size = c * size // n, n - 1, size - 1
        while index >= c:
            index -= c
            c, n = c * (n - size) // n, n - 1
        out.append(cards[-1 - n])
    return tuple(out)


class LegalPlays(Sequence[Action]):
    """A turn's legal actions in the play phase: ``head`` (the pass, when following) then the plays, block
    by block, in exactly the order and number of the eager list.

    Listing every play built thousands of Play objects a second that a random bot then ignored (it picks
    one by index); here ``len`` is arithmetic and ``legal[i]`` builds only play ``i``. Iterating, ``in``,
    ``==`` and ``repr`` build the whole list once. Read-only, like every value the engine hands out."""

    __slots__ = ("_blocks", "_head", "_items", "_len", "_seat", "_starts")

    def __init__(self, seat: int, head: tuple[Action, ...], blocks: list[_Block]) -> None:
        self._seat = seat
        self._head = head
        self._blocks = blocks
        starts = []
        total = len(head)
        for _, cards, size, combos in blocks:
            starts.append(total)
            total += comb(len(cards), size) if combos is None else len(combos)
        self._starts = starts
        self._len = total
        self._items: list[Action] | None = None

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if self._items is not None or isinstance(index, slice):
            return self._list()[index]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal action index out of range")
        head = self._head
        if index < len(head):
            return head[index]
        at = bisect_right(self._starts, index) - 1
        rank, cards, size, combos = self._blocks[at]
        index -= self._starts[at]
        combo = _nth_combination(cards, size, index) if combos is None else combos[index]
        return new_play(self._seat, combo, rank)

    def _list(self) -> list[Action]:
        if self._items is None:
            seat = self._seat
            items: list[Action] = list(self._head)
            for rank, cards, size, combos in self._blocks:
                listed = combinations(cards, size) if combos is None else combos
                items.extend([new_play(seat, combo, rank) for combo in listed])
            self._items = items
        return self._items

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __contains__(self, value: object) -> bool:
        return value in self._list()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalPlays):
            return self._list() == other._list()
        if isinstance(other, list):
            return self._list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list: equal to one, so not hashable

    def __repr__(self) -> str:
        return repr(self._list())


class _Hand:
    """Which cards of a hand can count as each rank (ascending; cards in hand order), and the weight of any
    card that is not 1, given the ruins' profiles. The lead blocks are kept once listed."""

    __slots__ = ("_leads", "by_rank", "profiles", "ranks", "weights")

    def __init__(self, hand: tuple[int, ...], profiles: tuple[Profile, ...]) -> None:
        by_rank: dict[int, list[int]] = {}
        weights: dict[int, int] = {}
        for card in hand:
            prof = profiles[card]
            if prof.weight != 1:
                weights[card] = prof.weight
            for rank in prof.ranks:
                by_rank.setdefault(rank, []).append(card)
        self.profiles = profiles  # held, so that its id (part of the cache key) is not reused meanwhile
        self.ranks = sorted(by_rank)
        self.by_rank = [(rank, tuple(by_rank[rank])) for rank in self.ranks]
        self.weights = weights
        self._leads: list[_Block] | None = None

    def leads(self, seat: int) -> LegalPlays:
        """Leads of any size: each rank, each size, each combination."""
        if self._leads is None:
            self._leads = [
                (rank, cards, size, None) for rank, cards in self.by_rank for size in range(1, len(cards) + 1)
            ]
        return LegalPlays(seat, (), self._leads)

    def follows(self, seat: int, rank: int, count: int, head: tuple[Action, ...]) -> LegalPlays:
        """Follows of ``count`` ruins at ``rank`` or higher, after ``head``."""
        weights = self.weights
        blocks: list[_Block] = []
        for at in range(bisect_left(self.ranks, rank), len(self.ranks)):
            as_rank, cards = self.by_rank[at]
            if not weights:
                if len(cards) >= count:
                    blocks.append((as_rank, cards, count, None))
                continue
            # A twin counts as two ruins: every subset whose weights add up to the count.
            combos = tuple(
                combo
                for size in range(1, min(len(cards), count) + 1)
                for combo in combinations(cards, size)
                if sum(weights.get(c, 1) for c in combo) == count
            )
            if combos:
                blocks.append((as_rank, cards, 0, combos))
        return LegalPlays(seat, head, blocks)


_HANDS: dict[tuple[tuple[int, ...], int], _Hand] = {}
_HANDS_MAX = 4096


def _hand(state: GameState, seat: int) -> _Hand:
    """The analysis of ``seat``'s hand, cached by the hand and the identity of the profiles tuple: around an
    exchange the same hand is asked again with the same (unchanged) ruins."""
    hand, profiles = state.hands[seat], state.profiles
    key = (hand, id(profiles))
    found = _HANDS.get(key)
    if found is None or found.profiles is not profiles:
        found = _Hand(hand, profiles)
        if len(_HANDS) >= _HANDS_MAX:
            _HANDS.clear()
        _HANDS[key] = found
    return found


def plays(state: GameState, seat: int) -> list[Play]:
    """Every uncrafted play: leads of any size, or follows of the right count at equal or higher rank."""
    top = state.top
    listed = (
        _hand(state, seat).leads(seat) if top is None else _hand(state, seat).follows(seat, top.rank, top.count, ())
    )
    return [play for play in listed if isinstance(play, Play)]


def can_follow(state: GameState, seat: int) -> bool:
    """Whether ``seat`` has any uncrafted follow of the play to beat (counted, not listed)."""
    top = state.top
    return top is not None and len(_hand(state, seat).follows(seat, top.rank, top.count, ())) > 0


def craft_options(state: GameState, play: Play) -> list[Play]:
    """The plays made of ``play`` plus one more purchase or claim, each still legal."""
    from domain.ruins.decide import decide  # local: decide imports the rules this module also uses

    book = rulebook()
    seat = play.seat
    spent = 0
    market = list(state.market)
    for p in play.purchases:
        if p.discovery in market:
            slot = market.index(p.discovery)
            spent += book.market_prices[slot]
            market = market[:slot] + market[slot + 1 :] + [None]
    torches = state.torches[seat] - spent
    sleeves = {c: state.ruins[c].sleeves for c in play.ruins}
    for p in play.purchases:
        pos = book.position_index(p.discovery)
        sleeves[p.ruin] = (*sleeves[p.ruin][:pos], p.discovery, *sleeves[p.ruin][pos + 1 :])
    candidates: list[Play] = []
    for slot, d in enumerate(market):
        if d is None or book.market_prices[slot] > torches:
            continue
        pos = book.position_index(d)
        for card in play.ruins:
            if sleeves[card][pos] is None:
                candidates.append(with_purchase(play, Purchase(d, card)))
    if state.claims_left[seat] > len(play.claims):
        for card in play.ruins:
            if state.ruins[card].claim is None and card not in play.claims:
                candidates.append(with_claim(play, card))
    legal = []
    for candidate in candidates:
        try:
            decide(state, candidate)
        except DomainError:
            continue
        legal.append(candidate)
    return legal


def to_act(state: GameState) -> list[int]:
    """The seats that may act now (several during the simultaneous night-flip choice)."""
    if state.outcome is not None:
        return []
    if state.phase == "flip":
        chosen = {s for s, _ in state.flip_choices}
        return [s for s in state.participants if s not in chosen]
    if state.phase == "discard":
        return [] if state.discarder is None else [state.discarder]
    return [] if state.turn is None else [state.turn]
