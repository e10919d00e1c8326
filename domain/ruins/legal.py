"""``legal_actions(state, seat)``: every action a seat may take now, sorted and deterministic.

Plays are listed without crafting. Crafting is described as options of a play: ``craft_options``
lists each purchase or claim that may be added to a given play and keeps it legal. ``decide`` checks
any concrete action, crafted or not.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, combinations
from math import comb
from typing import overload

from domain.errors import DomainError
from domain.ruins.actions import Action, Discard, Play, Purchase, new_play, with_claim, with_purchase
from domain.ruins.caches import flip_of, pass_of, single
from domain.ruins.decide import decide
from domain.ruins.events import Event, NightFlipChosen
from domain.ruins.state import GameState, Profile


def legal_actions(state: GameState, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now. A list, except on a turn of the play phase: a ``LegalPlays``,
    a read-only sequence that compares equal to the list it stands for."""
    if state.outcome is not None or not 0 <= seat < len(state.players):
        return []
    phase = state.phase
    if phase == "play":
        if state.turn != seat:
            return []
        hand, top = _hand(state, seat), state.top
        if top is None:
            return hand.leads(seat)
        if top.count == 1:  # ``follows``, inlined for the usual follow: every other turn
            keys = hand.singles
            return _Singles(seat, (pass_of(seat),), hand.hand, keys, bisect_left(keys, top.rank << _SHIFT))
        return hand.follows(seat, top.rank, top.count, (pass_of(seat),))
    if phase == "flip":
        if seat not in state.participants or any(s == seat for s, _ in state.flip_choices):
            return []
        ruins = state.ruins
        return [flip_of(seat, None), *[flip_of(seat, c) for c in state.hands[seat] if not ruins[c].night]]
    if phase == "discard":
        if seat != state.discarder:
            return []
        return [Discard(seat, combo) for combo in combinations(state.hands[seat], state.discard_count)]
    return []


class LegalPlays(Sequence[Action]):
    """A turn's legal actions in the play phase: ``head`` (the pass, when following) then the plays, in
    exactly the order and number of the eager list they stand for.

    Listing every play built thousands of Play objects a second that a random bot then ignored (it picks
    one by index); here the length is counted, and ``legal[i]`` builds only play ``i``. Iterating, ``in``,
    ``==`` and ``repr`` list them all, once. Read-only, like every value the engine hands out.

    Subclasses say how play ``i`` is found (``_play``) or all are listed (``_plays``), and set all four
    slots in their own ``__init__``."""

    __slots__ = ("_head", "_items", "_len", "_seat")
    _head: tuple[Action, ...]
    _items: list[Action] | None
    _len: int
    _seat: int

    def _play(self, index: int) -> Play:
        """Play ``index`` (counted after the head)."""
        raise NotImplementedError

    def _plays(self) -> list[Play]:
        """Every play, in order (what ``_play`` gives for each index, listed in one go)."""
        raise NotImplementedError

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if self._items is not None or type(index) is not int:
            return self._list()[index]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal action index out of range")
        head = self._head
        if index < len(head):
            return head[index]
        return self._play(index - len(head))

    def _list(self) -> list[Action]:
        if self._items is None:
            self._items = [*self._head, *self._plays()]
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


# A hand is analysed into keys, one per (card, rank it can count as): rank << _SHIFT | the card's position
# in the hand, so that sorting the keys orders them by rank, then hand order (hands are far smaller).
_SHIFT = 10
_AT = (1 << _SHIFT) - 1


class _Singles(LegalPlays):
    """Follows of a single ruin: each card that can count as the rank to beat or higher (and as one ruin),
    at each such rank; that is, the hand's keys of single ruins from ``start`` on."""

    __slots__ = ("_hand", "_keys", "_start")

    def __init__(self, seat: int, head: tuple[Action, ...], hand: tuple[int, ...], keys: list[int], start: int):
        self._seat, self._head, self._items = seat, head, None
        self._len = len(head) + len(keys) - start
        self._hand, self._keys, self._start = hand, keys, start

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        # The general path inlined for the one index a random bot asks for after the pass: half the turns.
        at = index - 1 if type(index) is int and self._head else -1
        if 0 <= at < self._len - 1:
            key = self._keys[self._start + at]
            seat, card, rank = self._seat, self._hand[key & _AT], key >> _SHIFT
            return single(seat, card, rank)
        return super().__getitem__(index)

    def _play(self, index: int) -> Play:
        key = self._keys[self._start + index]
        return single(self._seat, self._hand[key & _AT], key >> _SHIFT)

    def _plays(self) -> list[Play]:
        seat, hand = self._seat, self._hand
        return [single(seat, hand[key & _AT], key >> _SHIFT) for key in self._keys[self._start :]]


# A block of plays declared as ``rank``, of the cards whose keys are ``keys[lo:hi]`` (those that can count as
# ``rank``, in hand order): every combination of ``size`` of them, in the order of itertools.combinations;
# with ``size`` 0, every combination of every size, smallest first (a lead); or, given ``combos``, just those.
_Block = tuple[int, int, int, int, tuple[tuple[int, ...], ...] | None]


class _Blocks(LegalPlays):
    """Plays listed block by block (leads, and follows of several ruins); ``starts``: where each begins."""

    __slots__ = ("_blocks", "_hand", "_starts")

    def __init__(self, seat: int, head: tuple[Action, ...], hand: HandAnalysis, blocks: list[_Block], sizes: list[int]):
        self._seat, self._head, self._items = seat, head, None
        starts = list(accumulate(sizes, initial=len(head)))
        self._len = starts.pop()
        self._hand, self._blocks, self._starts = hand, blocks, starts

    def _play(self, index: int) -> Play:
        index += len(self._head)
        at = bisect_right(self._starts, index) - 1
        rank, lo, hi, size, combos = self._blocks[at]
        index -= self._starts[at]
        if combos is not None:
            return new_play(self._seat, combos[index], rank)
        if size == 0:  # a lead: skip the smaller sizes
            size = 1
            while index >= (listed := comb(hi - lo, size)):
                index -= listed
                size += 1
        if size == 1:
            return single(self._seat, self._hand.hand[self._hand.keys[lo + index] & _AT], rank)
        return new_play(self._seat, _nth_combination(self._hand.cards(lo, hi), size, index), rank)

    def _plays(self) -> list[Play]:
        seat = self._seat
        out: list[Play] = []
        for rank, lo, hi, size, combos in self._blocks:
            if combos is not None:
                out.extend([new_play(seat, combo, rank) for combo in combos])
                continue
            cards = self._hand.cards(lo, hi)
            for n in range(1, len(cards) + 1) if size == 0 else (size,):
                out.extend([new_play(seat, combo, rank) for combo in combinations(cards, n)])
        return out


def _nth_combination(cards: tuple[int, ...], size: int, index: int) -> tuple[int, ...]:
    """``list(combinations(cards, size))[index]`` without listing them (the itertools recipe)."""
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


class HandAnalysis:
    """One hand, given the ruins' profiles: its keys (see ``_SHIFT``), those of the ruins that count as one
    (all of them, unless the hand holds a twin), and, when asked, where each rank's keys begin."""

    __slots__ = ("_groups", "hand", "keys", "profiles", "singles", "twins")

    def __init__(self, hand: tuple[int, ...], profiles: tuple[Profile, ...], twin_cards: frozenset[int]) -> None:
        self.hand = hand
        self.profiles = profiles  # held, so that its id (part of the cache key) is not reused meanwhile
        self.keys = keys = sorted(
            [rank << _SHIFT | at for at, card in enumerate(hand) for rank in profiles[card].ranks]
        )
        self.twins = not twin_cards.isdisjoint(hand)
        self.singles = [k for k in keys if hand[k & _AT] not in twin_cards] if self.twins else keys
        self._groups: tuple[list[int], list[int]] | None = None

    def groups(self) -> tuple[list[int], list[int]]:
        """The ranks the hand can play (ascending), and where each one's keys begin (then where the last ends)."""
        if self._groups is None:
            ranks: list[int] = []
            bounds: list[int] = []
            last = -1
            for at, key in enumerate(self.keys):
                if key >> _SHIFT != last:
                    last = key >> _SHIFT
                    ranks.append(last)
                    bounds.append(at)
            bounds.append(len(self.keys))
            self._groups = ranks, bounds
        return self._groups

    def cards(self, lo: int, hi: int) -> tuple[int, ...]:
        """The cards of ``keys[lo:hi]``."""
        hand = self.hand
        return tuple([hand[key & _AT] for key in self.keys[lo:hi]])

    def leads(self, seat: int) -> LegalPlays:
        """Leads of any size: each rank, each size, each combination."""
        ranks, bounds = self.groups()
        blocks: list[_Block] = [(rank, bounds[g], bounds[g + 1], 0, None) for g, rank in enumerate(ranks)]
        return _Blocks(seat, (), self, blocks, [(1 << (hi - lo)) - 1 for _, lo, hi, _, _ in blocks])

    def follows(self, seat: int, rank: int, count: int, head: tuple[Action, ...]) -> LegalPlays:
        """Follows of ``count`` ruins at ``rank`` or higher, after ``head``."""
        if count == 1:
            return _Singles(seat, head, self.hand, self.singles, bisect_left(self.singles, rank << _SHIFT))
        ranks, bounds = self.groups()
        higher = range(bisect_left(ranks, rank), len(ranks))
        if not self.twins:
            blocks: list[_Block] = [
                (ranks[g], bounds[g], bounds[g + 1], count, None) for g in higher if bounds[g + 1] - bounds[g] >= count
            ]
            return _Blocks(seat, head, self, blocks, [comb(hi - lo, count) for _, lo, hi, _, _ in blocks])
        # A twin counts as two ruins: every subset whose weights add up to the count.
        profiles = self.profiles
        blocks = []
        for g in higher:
            cards = self.cards(bounds[g], bounds[g + 1])
            combos = tuple(
                combo
                for size in range(1, min(len(cards), count) + 1)
                for combo in combinations(cards, size)
                if sum(profiles[c].weight for c in combo) == count
            )
            if combos:
                blocks.append((ranks[g], bounds[g], bounds[g + 1], 0, combos))
        return _Blocks(seat, head, self, blocks, [len(block[4] or ()) for block in blocks])


# The analysis of a hand by (hand, identity of the state's profiles): around an exchange the same hand is asked
# again with unchanged ruins. Small: a hand is rarely asked about once its exchange is over. Without it:
# +1.6 million (+4.7%).
HANDS: dict[tuple[tuple[int, ...], int], HandAnalysis] = {}
HANDS_LIMIT = 512


def _hand(state: GameState, seat: int) -> HandAnalysis:
    """The analysis of ``seat``'s hand (kept in ``HANDS``, by the hand and the identity of the profiles
    tuple: around an exchange the same hand is asked again with the same, unchanged ruins)."""
    hand, profiles = state.hands[seat], state.profiles
    key = (hand, id(profiles))
    found = HANDS.get(key)
    if found is None or found.profiles is not profiles:
        # (``keep``, inlined: a hand is analysed anew about 170 times a four-player game)
        if len(HANDS) >= HANDS_LIMIT:
            HANDS.clear()
        found = HANDS[key] = HandAnalysis(hand, profiles, state.twins)
    return found


def plays(state: GameState, seat: int) -> list[Play]:
    """Every uncrafted play: leads of any size, or follows of the right count at equal or higher rank."""
    hand, top = _hand(state, seat), state.top
    listed = hand.leads(seat) if top is None else hand.follows(seat, top.rank, top.count, ())
    return [play for play in listed if isinstance(play, Play)]


def can_follow(state: GameState, seat: int) -> bool:
    """Whether ``seat`` has any uncrafted follow of the play to beat (counted, not listed).

    The projection asks this for every play and pass, mostly of hands asked nothing else, so it tallies
    instead of analysing the hand: a follow of ``count`` at rank ``r`` needs cards that can all count as
    ``r`` whose weights add up to exactly ``count``. With ``a`` ruins of weight 1 and ``b`` twins (weight 2)
    at ``r``, that is possible when the twins cover all they can of the count (``min(b, count // 2)`` of
    them) and the ruins the rest. A single ruin is never a twin (``follows`` says the same)."""
    top = state.top
    if top is None:
        return False
    hand, profiles, twin_cards, rank, count = state.hands[seat], state.profiles, state.twins, top.rank, top.count
    if count == 1:
        for card in hand:  # noqa: SIM110 (a loop: a generator costs more than the few cards of a hand)
            if profiles[card].highest >= rank and card not in twin_cards:
                return True
        return False
    ones: dict[int, int] = {}
    twos: dict[int, int] = {}
    for card in hand:
        tally = twos if card in twin_cards else ones
        for r in profiles[card].ranks:
            if r >= rank:
                tally[r] = tally.get(r, 0) + 1
    return any(count - 2 * min(twos.get(r, 0), count // 2) <= ones.get(r, 0) for r in {*ones, *twos})


def craft_options(state: GameState, play: Play) -> list[Play]:
    """The plays made of ``play`` plus one more purchase or claim, each still legal."""
    book = state.book
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
    phase = state.phase
    if phase == "play":  # nearly always
        return [] if state.turn is None else [state.turn]
    if phase == "flip":
        chosen = {s for s, _ in state.flip_choices}
        return [s for s in state.participants if s not in chosen]
    if phase == "discard":
        return [] if state.discarder is None else [state.discarder]
    return [] if state.turn is None else [state.turn]


def unaffected(events: Sequence[Event], seat: int) -> bool:
    """Whether a move ``seat`` chose before ``events`` (other seats' moves since) still stands: true when they are
    all other seats' secret night flips. The flip is chosen by every seat at once, each from its own hand, and a
    flip stays hidden until the last one is chosen (when it is revealed in that same move), so those moves change
    nothing the seat could see or choose: its choice was not made on a game that has since changed."""
    return bool(events) and all(isinstance(e, NightFlipChosen) and e.seat != seat for e in events)


def timeout_action(state: GameState, seat: int) -> Action | None:
    """What the server plays for ``seat`` when its time runs out (``None``: the seat has nothing to do now). The
    rules say passing a follow is always safe (the seat stays in the round), so a seat out of time passes; where
    a pass is not allowed (a lead, the night flip, the discard) the rules name no default, and the design choice is
    the least committal move (docs/rules/ruins.md, *Time controls*): a lead of the lowest set the engine lists
    first, no night flip, the first of the discards in the order of the hand."""
    legal = legal_actions(state, seat)
    if not legal:
        return None
    if state.phase == "play" and state.top is not None:  # a follow: the pass heads the legal actions
        return pass_of(seat)
    if state.phase == "flip":
        return flip_of(seat, None)
    return legal[0]
