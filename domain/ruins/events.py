"""Facts. Every event is a frozen dataclass of plain values that serialises to JSON and back.

``decide`` draws every random outcome (shuffles, deals, draws) and writes it into the events, so
``evolve`` never needs the generator: replaying the events reproduces the game exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from domain.errors import MalformedAction
from domain.slots import new as _new
from domain.slots import slot_setters


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

# Fast construction for the hot path (decide builds these on nearly every move). Events are immutable
# values: the four that carry nothing but a seat are shared, one per seat, and RuinsPlayed is built
# through its slots' member descriptors, skipping the frozen __init__'s object.__setattr__ per field.
# Same objects as the constructors give: same equality, hash, repr and JSON.
_SEATS = range(8)  # (``True in _SEATS``, hence the type check: True would be stored as JSON true)
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


_played_seat, _played_ruins, _played_rank, _played_count, _played_lead = slot_setters(RuinsPlayed)


_PLAYED: dict[tuple[int, tuple[int, ...], int, int, bool], RuinsPlayed] = {}


def ruins_played(seat: int, ruins: tuple[int, ...], rank: int, count: int, lead: bool) -> RuinsPlayed:
    """``RuinsPlayed(seat, ruins, rank, count, lead)``, built about twice as fast; a play of one ruin (most
    plays, and there are only so many) is built once and shared."""
    # (Only with ints: True == 1, but True is stored as JSON true.)
    shared = len(ruins) == 1 and type(seat) is int and type(rank) is int and type(ruins[0]) is int
    if shared:
        event = _PLAYED.get((seat, ruins, rank, count, lead))
        if event is not None:
            return event
    event = _new(RuinsPlayed)
    _played_seat(event, seat)
    _played_ruins(event, ruins)
    _played_rank(event, rank)
    _played_count(event, count)
    _played_lead(event, lead)
    if shared:
        if len(_PLAYED) >= 20_000:
            _PLAYED.clear()
        _PLAYED[seat, ruins, rank, count, lead] = event
    return event


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
_FIELDS: dict[type[Any], tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in EVENT_TYPES.values()
}


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple([_from_json(v) if isinstance(v, list) else v for v in value])
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(event).__name__}
    for name in _FIELDS[type(event)]:
        value = getattr(event, name)
        out[name] = dict(value) if name == "options" else _to_json(value)
    return out


# Per event type: its fields, and those that hold lists in JSON (tuples here). Decoding runs for every
# stored event a projection or a replay reads, so the work per type is decided once.
_TUPLE_FIELDS: dict[type[Any], frozenset[str]] = {
    cls: frozenset(f.name for f in dataclasses.fields(cls) if "tuple" in str(f.type)) for cls in EVENT_TYPES.values()
}


def _decoder(cls: type[Any]) -> Callable[[dict[str, Any]], Any]:
    """Build ``cls`` from its JSON form: each field in order, lists as tuples, ``options`` as sorted pairs."""
    lists = _TUPLE_FIELDS[cls]
    plan = tuple((name, 2 if name == "options" else 1 if name in lists else 0) for name in _FIELDS[cls])

    def decode(data: dict[str, Any]) -> Any:
        values = []
        for name, how in plan:  # in field order: the event is built from positional arguments
            value = data[name]
            if how == 1:
                value = _from_json(value)
            elif how == 2:
                value = tuple(sorted(value.items()))
            values.append(value)
        return cls(*values)

    return decode


# Six of every ten stored events carry nothing but a seat, and most others are plays: those are built
# by the hot path's shared or fast builders above (the same values ``cls(*fields)`` would give).
_DECODERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    **{name: _decoder(cls) for name, cls in EVENT_TYPES.items()},
    "NextTurn": lambda data: next_turn(data["seat"]),
    "Passed": lambda data: passed(data["seat"]),
    "PlayerSkipped": lambda data: player_skipped(data["seat"]),
    "PileCleared": lambda data: pile_cleared(data["leader"]),
    "RuinsPlayed": lambda data: ruins_played(
        data["seat"], _from_json(data["ruins"]), data["rank"], data["count"], data["lead"]
    ),
}


def event_from_dict(data: dict[str, Any]) -> Event:
    decode = _DECODERS.get(data.get("type", ""))
    if decode is None:
        raise MalformedAction(f"unknown event type {data.get('type')!r}")
    event: Event = decode(data)
    return event
