"""Facts. Every event is a frozen dataclass of plain values that serialises to JSON and back.

``decide`` draws every random outcome (shuffles, deals, draws) and writes it into the events, so
``evolve`` never needs the generator: replaying the events reproduces the game exactly.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypeAlias

from domain.slots import builder


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Setup: who plays, the secret seed, the ruins set aside, and the shuffled discovery deck.

    ``ruins`` holds each ruin's starting state as ``(night, sleeves, claim)`` and ``vp`` the starting
    scores: all day, bare and 0 in a normal game; explicit in a position set up for a rule dispute.
    """

    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    rules_version: str
    seed: str
    set_aside: tuple[int, ...]
    discovery_deck: tuple[int, ...]
    market: tuple[int | None, ...]
    ruins: tuple[tuple[bool, tuple[int | None, ...], int | None], ...]
    vp: tuple[int, ...]
    claims_left: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """A round starts: all torches lit, the given hands dealt (claimed ruins already handed home)."""

    round: int
    showdown: bool
    participants: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]
    leader: int


@dataclass(frozen=True, slots=True)
class NightFlipChosen:
    """One seat's secret round-start choice (``ruin`` None = no flip); hidden until all have chosen."""

    seat: int
    ruin: int | None


@dataclass(frozen=True, slots=True)
class NightFlipsRevealed:
    """All seats have chosen: the flips (one entry per seat, None = no flip) happen together."""

    flips: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class DiscoveryBought:
    """A lit-torch purchase: ``price`` torches spent, the discovery sleeved; ``market`` is the row after
    the slide toward the cheap end, refilled at the dear end with ``drawn`` (None when the deck is empty)."""

    seat: int
    discovery: int
    ruin: int
    slot: int
    price: int
    market: tuple[int | None, ...]
    drawn: int | None


@dataclass(frozen=True, slots=True)
class ClaimSleeved:
    seat: int
    ruin: int


@dataclass(frozen=True, slots=True)
class RuinsPlayed:
    """Ruins leave ``seat``'s hand onto the pile as a set of ``count`` ruins of ``rank``."""

    seat: int
    ruins: tuple[int, ...]
    rank: int
    count: int
    lead: bool


@dataclass(frozen=True, slots=True)
class TorchesRelit:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class RuinsDrawn:
    """``seat`` takes ``ruins`` from the top of the draw pile (``reason``: dig or burden)."""

    seat: int
    ruins: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class DiscardRequired:
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class RuinsDiscarded:
    seat: int
    ruins: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerSkipped:
    """An exact rank match skipped ``seat``'s turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class WentOut:
    seat: int
    place: int
    award: int
    vp: int


@dataclass(frozen=True, slots=True)
class NextTurn:
    seat: int


@dataclass(frozen=True, slots=True)
class PileCleared:
    """Everyone else passed (or was skipped) in a row: the pile is discarded and ``leader`` leads."""

    leader: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The last holder ``last`` loses ``penalty`` VP; ``order`` is the full finishing order."""

    round: int
    last: int
    penalty: int
    vp: tuple[int, ...]
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameWon:
    seat: int
    how: str  # "instant" | "showdown"
    round: int


Event: TypeAlias = (
    GameStarted
    | RoundDealt
    | NightFlipChosen
    | NightFlipsRevealed
    | DiscoveryBought
    | ClaimSleeved
    | RuinsPlayed
    | TorchesRelit
    | RuinsDrawn
    | DiscardRequired
    | RuinsDiscarded
    | Passed
    | PlayerSkipped
    | WentOut
    | NextTurn
    | PileCleared
    | RoundEnded
    | GameWon
)

# Built on nearly every move: faster than the frozen __init__ (domain.slots). Shared events are in
# domain.ruins.caches.
new_ruins_played = builder(RuinsPlayed)


EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        RoundDealt,
        NightFlipChosen,
        NightFlipsRevealed,
        DiscoveryBought,
        ClaimSleeved,
        RuinsPlayed,
        TorchesRelit,
        RuinsDrawn,
        DiscardRequired,
        RuinsDiscarded,
        Passed,
        PlayerSkipped,
        WentOut,
        NextTurn,
        PileCleared,
        RoundEnded,
        GameWon,
    )
}
FIELDS: dict[type[Any], tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in EVENT_TYPES.values()
}


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple([from_json(v) if isinstance(v, list) else v for v in value])
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(event).__name__}
    for name in FIELDS[type(event)]:
        value = getattr(event, name)
        out[name] = dict(value) if name == "options" else _to_json(value)
    return out
