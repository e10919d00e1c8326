"""Bots: pick one of the legal actions. They see only what their seat's view shows.

``RandomBot`` picks a kind of action uniformly, then one action of that kind (so the many ways to pay a
dig do not drown the rest). ``HeuristicBot`` plays greedily with a tendency (dig-heavy, research-heavy,
card-buying, guardian-hunting, or balanced).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from domain.arnak.actions import Action, Buy, Choose, Dig, Discover, EndTurn, Overcome, Pass, Play, Research
from domain.arnak.components import RESOURCES, book, steps_of
from domain.arnak.state import GameState
from domain.arnak.view import sites
from domain.arnak.view import view as view_of
from domain.play import SeatView
from domain.policies import Bots, Persona


class Bot(Protocol):
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over the kinds of legal action, then over the actions of the kind drawn. ``pass_weight``
    scales how often passing (and ending the turn) is drawn, so games are not all over at once."""

    name = "random"

    def __init__(self, pass_weight: float = 0.3) -> None:
        self.pass_weight = pass_weight

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        kinds: dict[str, list[Action]] = {}
        for action in legal:
            kinds.setdefault(type(action).__name__, []).append(action)
        names = sorted(kinds)
        weights = [self.pass_weight if name in (Pass.__name__, EndTurn.__name__) else 1.0 for name in names]
        if not any(weights):
            weights = [1.0] * len(names)
        name = rng.choices(names, weights)[0]
        return rng.choice(kinds[name])

    def tendencies(self) -> dict[str, Any]:
        return {"pass_weight": self.pass_weight}

    def __repr__(self) -> str:
        return f"RandomBot(pass_weight={self.pass_weight})"


# What each tendency weighs (a multiplier on the base value of each kind of action).
TENDENCIES: dict[str, dict[str, float]] = {
    "balanced": {},
    "dig-heavy": {"Dig": 2.0, "Discover": 1.5},
    "research-heavy": {"Research": 2.5, "TempleTile": 2.5},
    "card-buying": {"Buy": 2.5, "Play": 1.5, "Dig": 1.5},
    "guardian-hunting": {"Overcome": 3.0, "Discover": 1.5},
}

# What each tendency values in the resources a dig brings (others count 1): research needs tablets, arrowheads and
# jewels; cards cost coins and compasses; guardians mostly want arrowheads.
RESOURCE_TASTES: dict[str, dict[str, float]] = {
    "balanced": {},
    "dig-heavy": {"compass": 1.5},
    "research-heavy": {"tablet": 2.0, "arrowhead": 3.0, "jewel": 3.0, "coin": 0.5, "compass": 1.5},
    "card-buying": {"coin": 2.0, "compass": 2.0, "tablet": 0.5, "arrowhead": 0.5},
    "guardian-hunting": {"arrowhead": 2.0, "compass": 1.5},
}

# The base value of each kind of action: free actions first (they cost nothing), then the main actions.
BASE: dict[str, float] = {
    "Play": 3.0,
    "UseAssistant": 3.0,
    "UseBoon": 1.0,
    "PlaceIdol": 0.5,
    "Research": 4.0,
    "TempleTile": 4.0,
    "Overcome": 3.5,
    "Buy": 3.0,
    "Discover": 2.5,
    "Dig": 2.0,
    "EndTurn": 0.1,
    "Pass": 0.05,
}


class HeuristicBot:
    """A greedy bot: each legal action gets a value from its kind (``BASE`` times the tendency's weight) and a few
    rules of thumb (pay travel with fear cards first, exile fear cards, buy dear cards, keep the notebook moving), plus
    a little noise (``noise``) so games differ; the best is played."""

    name = "heuristic"

    def __init__(self, tendency: str = "balanced", noise: float = 0.5) -> None:
        if tendency not in TENDENCIES:
            raise ValueError(f"unknown tendency {tendency!r}; choose from {sorted(TENDENCIES)}")
        self.tendency = tendency
        self.noise = noise

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        # What digging at a space brings, worked out once per choice for all the ways to pay the way there. SPEED:
        # 213 to 198 million instructions a four-player heuristic game (callgrind; about 27 digs weighed a choice,
        # at 12 spaces)
        gains: dict[str, float] = {}
        view = _public_first(view)
        needs = self._research_needs(view) if self.tendency == "research-heavy" and _digs(legal) else {}
        return max(legal, key=lambda a: self._value(a, view, gains, needs) + rng.random() * self.noise)

    def _research_needs(self, view: Mapping[str, Any]) -> dict[str, int]:
        """What the cheapest bridge up from this seat's magnifying glass costs beyond what the seat holds: the
        research-heavy bot digs for it (weighing every resource by a fixed taste alone, it dug for tablets it
        had plenty of and researched no faster than a guardian hunter; tests/domain/arnak/test_tendencies.py)."""
        seat = view.get("viewer")
        seats = view.get("seats")
        if not isinstance(seat, int) or not isinstance(seats, list):
            return {}
        me = seats[seat]
        have = me.get("resources", {})
        track = book().boards[str(view.get("side", "bird"))].track
        missing = [
            {r: n - have.get(r, 0) for r, n in zip(RESOURCES, bridge.cost, strict=True) if n > have.get(r, 0)}
            for bridge in track.bridges
            if bridge.source == me.get("glass")
        ]
        return min(missing, key=lambda need: sum(need.values()), default={})

    def _dig_gain(self, space: str, view: Mapping[str, Any], needs: Mapping[str, int]) -> float:
        """What digging at ``space`` brings, by this tendency's taste (read from the public board)."""
        b = book()
        board = b.boards[str(view.get("side", "bird"))]
        location = board.location(board.spaces[space].location)
        effect = location.effect
        if effect is None:
            sites = view.get("sites", [])
            assert isinstance(sites, list)
            tile = next((s["tile"] for s in sites if s["id"] == location.id), None)
            effect = b.site_tiles[tile].effect if tile is not None else "[]"
        hunting = 0.0
        if self.tendency == "guardian-hunting":  # stand beside a guardian, to overcome it next turn
            sites = view.get("sites", [])
            assert isinstance(sites, list)
            hunting = 6.0 * any(s["id"] == location.id and s["guardian"] is not None for s in sites)
        needed = sum(2.0 * min(n, needs.get(r, 0)) for r, n in _effect_resources(effect)) if needs else 0.0
        return hunting + needed + _effect_gain(self.tendency, effect)

    def value(self, action: Action, view: Mapping[str, Any] | None = None) -> float:
        return self._value(action, view, {}, {})

    def _value(
        self, action: Action, view: Mapping[str, Any] | None, gains: dict[str, float], needs: Mapping[str, int]
    ) -> float:
        b = book()
        kind = type(action).__name__
        value = BASE.get(kind, 1.0) * TENDENCIES[self.tendency].get(kind, 1.0)
        if isinstance(action, (Dig, Discover, Overcome)):
            # Paying with fear cards costs nothing worth keeping; every other card paid is a card not played.
            for card in action.payment.cards:
                value -= 0.0 if b.card(card).kind == "fear" else 0.4
            value -= 0.6 * action.payment.charter
            if isinstance(action, Dig) and view is not None:
                if action.space not in gains:
                    gains[action.space] = self._dig_gain(action.space, view, needs)
                value += 0.5 * gains[action.space]
        elif isinstance(action, Buy):
            value += 0.3 * b.card(action.card).cost + 0.3 * b.card(action.card).vp
        elif isinstance(action, Research):
            value += 0.5 if action.token == "glass" else 0.2
        elif isinstance(action, Play):
            value += 1.0 if b.card(action.card).free else 0.0
        elif isinstance(action, Choose):
            value = self._option(action.option)
        return value

    def _option(self, option: str) -> float:
        """Rules of thumb for the engine's questions."""
        b = book()
        kind, _, rest = option.partition(":")
        if kind in ("hand", "play") and rest.isdigit():  # exile: fear first, then starting cards
            card = b.card(int(rest))
            return {"fear": 3.0, "starter": 2.0}.get(card.kind, 0.0)
        if kind == "card" and rest.isdigit():  # a discard, a card to keep, a card to gain
            card = b.card(int(rest))
            return 2.0 if card.kind == "fear" else 1.0 + 0.1 * card.cost
        if option == "done":
            return 1.5
        if option == "skip":
            return 0.5
        if option in ("arrowhead", "tablet"):  # upgrade the dearer resource
            return 2.0 if option == "arrowhead" else 1.5
        return 1.0

    def tendencies(self) -> dict[str, Any]:
        return {"tendency": self.tendency, "noise": self.noise}

    def __repr__(self) -> str:
        return f"HeuristicBot({self.tendency!r}, noise={self.noise})"


# Parts of a view that are the same for every seat, built on their own when read before the rest (``view`` builds
# them the same way).
PUBLIC_PARTS: dict[str, Callable[[GameState], Any]] = {"side": lambda state: state.side, "sites": sites}


class PublicFirstView(Mapping[str, Any]):
    """``view(state, seat)`` as a read-only mapping, built on first read, that answers the board's public parts
    (``PUBLIC_PARTS``: all the heuristic bot reads when weighing digs) on their own before building the rest.

    SPEED: building the heuristic bot's whole view to read the sites was a sixth of a heuristic game (43 to 50
    four-player heuristic games per CPU second; 253 to 213 million instructions a game, callgrind)."""

    def __init__(self, state: GameState, seat: int) -> None:
        self._state, self._seat = state, seat
        self._view: dict[str, Any] | None = None
        self._parts: dict[str, Any] = {}

    def _built(self) -> dict[str, Any]:
        if self._view is None:
            self._view = view_of(self._state, self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        if self._view is None and key in PUBLIC_PARTS:
            if key not in self._parts:
                self._parts[key] = PUBLIC_PARTS[key](self._state)
            return self._parts[key]
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


def _public_first(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The game loop's ``SeatView`` (``domain.play``) of an Arnak state, as a ``PublicFirstView``."""
    if isinstance(view, SeatView) and isinstance(view.state, GameState) and view.seat is not None:
        return PublicFirstView(view.state, view.seat)
    return view


def _digs(legal: Sequence[Action]) -> bool:
    return any(isinstance(action, Dig) for action in legal)


@cache
def _effect_resources(effect: str) -> tuple[tuple[str, int], ...]:
    """The resources an effect's ``gain`` steps bring."""
    return tuple(
        (name, int(amount)) for step in steps_of(effect) if step["op"] == "gain" for name, amount in step["res"].items()
    )


@cache
def _effect_gain(tendency: str, effect: str) -> float:
    """The resources an effect's ``gain`` steps bring, by ``tendency``'s taste. SPEED: asked for every dig the bot
    weighs (about 200 a four-player game per seat, of a few dozen effects); summed afresh each time, it was a
    fifth of a heuristic game."""
    taste = RESOURCE_TASTES[tendency]
    gains: float = sum(
        taste.get(name, 1.0) * int(amount)
        for step in steps_of(effect)
        if step["op"] == "gain"
        for name, amount in step["res"].items()
    )
    return gains


# Named bots for stored tournaments: every tendency, and two random players.
PERSONAS: tuple[Persona, ...] = (
    Persona("Balanced Bea", "heuristic", {"tendency": "balanced", "noise": 0.5}),
    Persona("Digging Dara", "heuristic", {"tendency": "dig-heavy", "noise": 0.5}),
    Persona("Reading Rafa", "heuristic", {"tendency": "research-heavy", "noise": 0.5}),
    Persona("Buying Bo", "heuristic", {"tendency": "card-buying", "noise": 0.5}),
    Persona("Hunting Hel", "heuristic", {"tendency": "guardian-hunting", "noise": 0.5}),
    Persona("Random Ren", "random", {"pass_weight": 0.3}),
    Persona("Steady Stig", "heuristic", {"tendency": "balanced", "noise": 0.1}),
    Persona("Restless Rio", "random", {"pass_weight": 0.1}),
)

BOTS: Bots[Action] = Bots({"random": RandomBot, "heuristic": HeuristicBot}, PERSONAS)
