"""Bots that play a seat: a uniform random bot and a heuristic bot with tunable tendencies.

A bot sees only what its seat may see (``Seen``: built from the live state in-process, or from the
seat's JSON view over HTTP) plus the legal actions it was offered, and draws from the ``random.Random``
it is given, so a bot game is reproducible from its seeds.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from domain.play import SeatView
from domain.policies import Bots, Persona
from domain.ruins.actions import Action, Discard, Flip, Pass, Play, Purchase, with_claim, with_purchase
from domain.ruins.caches import profile
from domain.ruins.cards import Book
from domain.ruins.state import GameState, Profile, Ruin, Top
from domain.ruins.versions import book_of
from domain.slots import slot_setters


@dataclass(frozen=True, slots=True)
class Seen:
    """What one seat knows when it acts: its hand, the public table, its own torches and claims, and the
    rules the game is played under."""

    seat: int
    hand: tuple[int, ...]
    ruins: tuple[Ruin, ...]
    top: Top | None
    market: tuple[int | None, ...]
    torches: int
    claims_left: int
    book: Book

    @classmethod
    def from_state(cls, state: GameState, seat: int) -> Seen:
        # Built on every move of a bot game: each slot set through its member descriptor (domain.slots).
        seen: Seen = object.__new__(cls)
        _seen_seat(seen, seat)
        _seen_hand(seen, state.hands[seat])
        _seen_ruins(seen, state.ruins)
        _seen_top(seen, state.top)
        _seen_market(seen, state.market)
        _seen_torches(seen, state.torches[seat])
        _seen_claims_left(seen, state.claims_left[seat])
        _seen_book(seen, state.book)
        return seen

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Seen:
        """From the JSON a seat gets from ``view(state, seat)`` (or the API)."""
        seat = int(view["viewer"])
        top = view["top"]
        book = book_of(view["rules_version"])
        positions = book.positions
        return cls(
            seat,
            tuple(view["hands"][seat]["ruins"]),
            tuple(
                Ruin(r["side"] == "night", tuple(r["sleeves"][p] for p in positions), r["claim"]) for r in view["ruins"]
            ),
            None if top is None else Top(top["seat"], top["rank"], top["count"]),
            tuple(slot["discovery"] for slot in view["market"]),
            view["torches"][seat],
            view["claims_left"][seat],
            book,
        )

    @classmethod
    def of(cls, view: Mapping[str, Any] | Seen) -> Seen:
        """What a policy is given, as a ``Seen``: built straight from the state when the in-process game loop
        hands over a ``SeatView`` of a Ruins state (no JSON view built), else read from the JSON view."""
        if isinstance(view, Seen):
            return view
        if isinstance(view, SeatView) and isinstance(view.state, GameState):
            return cls.from_state(view.state, view.seat)
        return cls.from_view(dict(view))

    def profile(self, card: int) -> Profile:
        return profile(self.book, card, self.ruins[card])


_seen_seat, _seen_hand, _seen_ruins, _seen_top, _seen_market, _seen_torches, _seen_claims_left, _seen_book = (
    slot_setters(Seen)
)


def purchase_options(seen: Seen, play: Play) -> list[Play]:
    """``play`` (legal as it stands) plus one more affordable purchase that keeps it legal.

    A discovery only adds ranks or effects to a ruin, so a legal play stays legal, except an extra-ruin
    on a follow: it changes the count the follow must match. (Checked against ``decide`` in the tests.)"""
    book = seen.book
    market = list(seen.market)
    torches = seen.torches
    sleeves = {c: list(seen.ruins[c].sleeves) for c in play.ruins}
    for p in play.purchases:
        slot = market.index(p.discovery)
        torches -= book.market_prices[slot]
        market = market[:slot] + market[slot + 1 :] + [None]
        sleeves[p.ruin][book.position_index(p.discovery)] = p.discovery
    out: list[Play] = []
    following = seen.top is not None
    for slot, d in enumerate(market):
        if d is None or book.market_prices[slot] > torches:
            continue
        if following and book.effect_of(d).kind == "extra_ruin":
            continue
        pos = book.position_index(d)
        out.extend(with_purchase(play, Purchase(d, card)) for card in play.ruins if sleeves[card][pos] is None)
    return out


@dataclass
class RandomBot:
    """Uniform over the legal actions; now and then adds random crafting to a play."""

    craft_rate: float = 0.25
    name: str = "random"

    def tendencies(self) -> dict[str, Any]:
        return {"craft_rate": self.craft_rate}

    def choose(self, view: Mapping[str, Any] | Seen, legal: Sequence[Action], rng: random.Random) -> Action:
        action = rng.choice(legal)
        if isinstance(action, Play):
            seen = Seen.of(view)
            while rng.random() < self.craft_rate:
                crafted = self._craft_once(seen, action, rng)
                if crafted is None:
                    break
                action = crafted
        return action

    def _craft_once(self, seen: Seen, play: Play, rng: random.Random) -> Play | None:
        """One random claim or purchase added to ``play`` that keeps it legal, or None."""
        if seen.claims_left > len(play.claims) and rng.random() < 0.2:
            card = rng.choice(play.ruins)
            if seen.ruins[card].claim is None and card not in play.claims:
                return with_claim(play, card)
            return None
        if not seen.torches:
            return None
        options = purchase_options(seen, play)
        return rng.choice(options) if options else None


KIND_VALUE = {"wild_rank": 5, "extra_ruin": 4, "extra_rank": 3, "relight": 2, "draw": 2, "forced_draw": 1}


@dataclass
class HeuristicBot:
    """A sensible player with tendencies you can set, so analytics have real behaviour to find.

    pass_rate:  how often it passes although it could follow (0 = always follows when it can)
    torch_rate: how eagerly it spends lit torches on discoveries when it plays (0 = hoards them)
    claim_rate: how eagerly it claims an upgraded ruin it plays
    lead:       'low' (shed the lowest rank), 'high', or 'big' (the largest set)
    flip_rate:  how often it flips a ruin to night when that makes a set
    """

    pass_rate: float = 0.1
    torch_rate: float = 0.6
    claim_rate: float = 0.5
    lead: str = "low"
    flip_rate: float = 0.7
    name: str = "heuristic"

    def tendencies(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k != "name"}

    def choose(self, view: Mapping[str, Any] | Seen, legal: Sequence[Action], rng: random.Random) -> Action:
        seen = Seen.of(view)
        first = legal[0]
        if isinstance(first, Flip):
            return self._flip(seen, legal, rng)
        if isinstance(first, Discard):
            return self._discard(seen, legal)
        plays = [a for a in legal if isinstance(a, Play)]
        if seen.top is None:
            play = self._lead(seen, plays)
        else:
            if not plays or rng.random() < self.pass_rate:
                return Pass(seen.seat)
            # Follow as cheaply as possible: the lowest rank, then the fewest upgraded cards.
            play = min(plays, key=lambda p: (p.rank, sum(self._card_value(seen, c) for c in p.ruins)))
        return self._craft(seen, play, rng)

    def _flip(self, seen: Seen, legal: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() >= self.flip_rate:
            return Flip(seen.seat, None)
        book = seen.book
        ranks = Counter(min(seen.profile(c).ranks) for c in seen.hand)
        for action in legal:
            if isinstance(action, Flip) and action.ruin is not None:
                own = min(seen.profile(action.ruin).ranks)
                night = book.ruins[action.ruin].night_rank
                if ranks[own] == 1 and ranks[night] >= 1:
                    return action
        return Flip(seen.seat, None)

    def _discard(self, seen: Seen, legal: Sequence[Action]) -> Action:
        def rank(card: int) -> int:
            return min(seen.profile(card).ranks)

        counts = Counter(rank(c) for c in seen.hand)
        # Drop the loneliest, lowest cards: low singles are the hardest to shed.
        discards = [a for a in legal if isinstance(a, Discard)]
        return min(discards, key=lambda a: sorted((counts[rank(c)], rank(c)) for c in a.ruins))

    def _lead(self, seen: Seen, plays: list[Play]) -> Play:
        if self.lead == "big":
            return max(plays, key=lambda p: (len(p.ruins), -p.rank))
        if self.lead == "high":
            best = max(p.rank for p in plays)
            return max((p for p in plays if p.rank == best), key=lambda p: len(p.ruins))
        lowest = min(p.rank for p in plays)
        return max((p for p in plays if p.rank == lowest), key=lambda p: len(p.ruins))

    def _card_value(self, seen: Seen, card: int) -> int:
        return sum(1 for d in seen.ruins[card].sleeves if d is not None)

    def _craft(self, seen: Seen, play: Play, rng: random.Random) -> Play:
        book = seen.book
        while rng.random() < self.torch_rate:
            options = purchase_options(seen, play)
            if not options:
                break
            play = max(options, key=lambda p: KIND_VALUE[book.effect_of(p.purchases[-1].discovery).kind])
        if seen.claims_left > len(play.claims) and rng.random() < self.claim_rate:
            upgraded = [
                c
                for c in play.ruins
                if seen.ruins[c].claim is None
                and (self._card_value(seen, c) or any(p.ruin == c for p in play.purchases))
            ]
            if upgraded:
                play = with_claim(play, upgraded[0])
        return play


Bot = RandomBot | HeuristicBot


def make_bot(kind: str, **tendencies: Any) -> Bot:
    if kind == "random":
        return RandomBot(**tendencies)
    if kind == "heuristic":
        return HeuristicBot(**tendencies)
    raise ValueError(f"unknown bot {kind!r}; choose 'random' or 'heuristic'")


def _heuristic(name: str, **tendencies: Any) -> Persona:
    return Persona(name, "heuristic", HeuristicBot(**tendencies).tendencies())  # every tendency, defaults included


def _random(name: str, **tendencies: Any) -> Persona:
    return Persona(name, "random", RandomBot(**tendencies).tendencies())


# Distinct playing styles, so analytics have real behaviour to find.
PERSONAS: tuple[Persona, ...] = (
    _heuristic("Cautious Cora", pass_rate=0.6),
    _heuristic("Hoarding Hugo", torch_rate=0.0),
    _heuristic("Spending Sofia", torch_rate=1.0),
    _heuristic("Claiming Clara", claim_rate=1.0),
    _heuristic("Big Bruno", lead="big"),
    _heuristic("High Hana", lead="high"),
    _random("Random Rui"),
    _heuristic("Steady Sam"),
    _heuristic("Night Nia", flip_rate=1.0),
    _heuristic("Daylight Dev", flip_rate=0.0),
    _heuristic("Bold Beto", pass_rate=0.0, torch_rate=0.9, lead="big"),
    _random("Wild Wanda", craft_rate=0.6),
)

BOTS: Bots[Action] = Bots({"random": RandomBot, "heuristic": HeuristicBot}, PERSONAS)
