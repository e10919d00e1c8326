"""What a game's engine offers the rest of Digsite: the rules protocol and the common summary of an outcome.

Each game package (``domain.ruins``, ``domain.arnak``) is a module that meets ``GameRules`` for its own state,
action and event types; ``domain.games`` assigns each module to a ``GameRules[...]`` variable, so mypy checks
every function's signature against this protocol (no casts). Everything here is pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from domain.versions import Versions

State = TypeVar("State")
Action = TypeVar("Action")
Event = TypeVar("Event")

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended, in the same words for every game (what the service, the simulator and the read models
    show): ``ranking`` lists every seat best first, ``winners`` the seats sharing first place (several only when
    the game's tie breaks all fail), ``scores`` one number per seat (the game's points), and ``detail`` what only
    this game says about its end (Ruins: how it was won and in which round; Arnak: each seat's score sheet)."""

    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)

    def place(self, seat: int) -> int:
        """1 for a winner, else 1 + the number of seats ranked before it."""
        return 1 if seat in self.winners else self.ranking.index(seat) + 1

    def to_dict(self) -> JSON:
        return {
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "detail": dict(self.detail),
        }


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a game in play stands, in the same words for every game: its round (1 first) and each seat's
    points so far (as the game counts them while it is on: Ruins' VP, Arnak's score if it ended now)."""

    round: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Seats:
    """How many players sit at a table of this game (a solo game may add seats the engine plays itself)."""

    low: int
    high: int

    def __contains__(self, count: object) -> bool:
        return isinstance(count, int) and self.low <= count <= self.high


@dataclass(frozen=True)
class Schemas:
    """A game's JSON Schemas: one action (as ``action_from_dict`` reads it; the API validates requests with it
    and publishes it), the ``options`` object of a new game, and the view (its top level at least); ``seats``:
    how many players may sit down."""

    action: JSON
    options: JSON
    view: JSON
    seats: Seats


class GameRules(Protocol[State, Action, Event]):
    """The engine of one game: pure functions over its own ``State``, ``Action`` and ``Event`` types.

    ``decide`` may raise a ``domain.errors.DomainError``; ``evolve`` never does. ``to_act`` is the one answer to
    "who acts next" (the service and the bots ask it; nothing re-derives it from events). Only ``view`` and
    ``redact_*`` let hidden information out, each for one seat (``None``: the referee)."""

    VERSIONS: Versions[Any]  # every rules version the game released, the newest current (domain.versions)

    def start(
        self,
        players: Iterable[str],
        options: Mapping[str, Any] | None = None,
        seed: str | int = 0,
        rules_version: str | None = None,
    ) -> list[Event]:
        """The opening events of a new game (the setup, with every shuffle drawn from ``seed``), under
        ``rules_version`` (``None``: the current version)."""
        ...

    def decide(self, state: State, action: Action) -> list[Event]: ...
    def step(self, state: State, action: Action) -> tuple[list[Event], State]:
        """``decide``, and the state its events lead to (one pass: the engine may reach it while deciding)."""
        ...

    def evolve(self, state: State | None, event: Event) -> State: ...
    def replay(self, events: Sequence[Event], state: State | None = None) -> State: ...
    def legal_actions(self, state: State, seat: int) -> Sequence[Action]: ...
    def to_act(self, state: State) -> list[int]: ...
    def timeout_action(self, state: State, seat: int) -> Action | None:
        """What the service plays for ``seat`` when its time runs out (a time control: service.store.clocks), one of
        its legal actions (``None`` if it has none): each game chooses from its rules (a pass, say) and says why in
        docs/rules/<game>.md."""
        ...

    def unaffected(self, events: Sequence[Event], seat: int) -> bool:
        """Whether a move ``seat`` chose before ``events`` (other seats' moves made since) still stands: true only
        when those moves change nothing the seat could see or choose (other seats' secret choices made at the same
        time). The service then plays the move on the current version instead of refusing it as stale."""
        ...

    def view(self, state: State, seat: int | None = None) -> JSON: ...
    def sample(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> State:
        """A complete state drawn at random among those ``seat`` cannot tell apart from what its ``view`` shows:
        every hidden card, order, tile and pending secret choice drawn from ``rng`` among what the view leaves
        unaccounted for, so ``view(sample(v, seat, rng), seat) == v``. It reads the view only (never a state),
        so search over its samples cannot see more than the seat (docs/games.md). A view while another seat's
        secret decision pends may be refused (``domain.errors.NotSampleable``); a seat to act never is."""
        ...

    def result(self, state: State) -> Result | None:
        """The common summary of the outcome; ``None`` while play goes on."""
        ...

    def progress(self, state: State) -> Progress:
        """The round and every seat's points now (public information: every seat's view shows them)."""
        ...

    def action_from_dict(self, data: Any) -> Action: ...
    def action_to_dict(self, action: Action) -> JSON: ...
    def event_from_dict(self, data: JSON) -> Event: ...
    def event_to_dict(self, event: Event) -> JSON: ...
    def state_to_dict(self, state: State) -> JSON: ...
    def state_from_dict(self, data: JSON) -> State: ...
    def describe(self, event: Event, players: Sequence[str], seat: int | None = None) -> str: ...
    def rules_version(self) -> str: ...
    def new_seed(self) -> str: ...
    def seed_of(self, opening: Sequence[JSON]) -> str | None:
        """The seed the opening events (JSON forms, as stored) were dealt from, or ``None`` if they hold none."""
        ...

    def redact_event(self, data: JSON, seat: int | None, game_over: bool) -> JSON:
        """An event's JSON form as ``seat`` may read it (``None``: unchanged)."""
        ...

    def redact_action(self, action: JSON, events: Sequence[JSON], seat: int | None) -> JSON:
        """A recorded move's action (JSON) as ``seat`` may read it, given the move's events (JSON, unredacted):
        what another seat's view does not show of the move (a secret choice), its record does not show either."""
        ...


CraftSteps = Callable[[State, Action], Sequence[Action]]
"""A game's card crafting, if its moves can be built up (``domain.games.Game.craft_steps``): the actions made of
``action`` plus one more crafting step, each still legal; none for a move of a kind that is never crafted."""

AnyRules = GameRules[Any, Any, Any]
