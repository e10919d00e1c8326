"""Commands a seat can give. Each is a frozen dataclass with a JSON dict form (``{"type": ..., ...}``).

Travel is paid by a ``Payment``: cards from the hand (each card's travel icons), temporary travel icons
held from effects, and planes chartered for 2 coins each. Main actions: ``Dig``, ``Discover``,
``Overcome``, ``Buy``, ``Play`` (a card without the lightning bolt), ``Research``, ``TempleTile``,
``Pass``. Free actions: ``Play`` (a lightning card), ``UseAssistant``, ``UseBoon``, ``PlaceIdol``.
``EndTurn`` closes a turn after its main action; ``Choose`` answers the engine's pending decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from domain.arnak.plain import from_plain, to_plain
from domain.errors import MalformedAction


@dataclass(frozen=True, slots=True)
class Payment:
    cards: tuple[int, ...] = ()  # from the hand, into the play area
    travel: tuple[str, ...] = ()  # temporary travel icons held
    charter: int = 0  # planes chartered for 2 coins each


@dataclass(frozen=True, slots=True)
class Dig:
    seat: int
    space: str
    payment: Payment = Payment()


@dataclass(frozen=True, slots=True)
class Discover:
    seat: int
    space: str
    payment: Payment = Payment()


@dataclass(frozen=True, slots=True)
class Overcome:
    seat: int
    site: str
    payment: Payment = Payment()


@dataclass(frozen=True, slots=True)
class Buy:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Research:
    """Move the glass or the notebook to ``to``; ``row_first`` resolves the row effect before the bonus tile."""

    seat: int
    token: str  # glass | notebook
    to: str
    row_first: bool = False


@dataclass(frozen=True, slots=True)
class TempleTile:
    """Research once the glass is in the Lost Temple: buy a tile from temple-tile stack ``stack``."""

    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    seat: int


@dataclass(frozen=True, slots=True)
class UseAssistant:
    seat: int
    assistant: int


@dataclass(frozen=True, slots=True)
class UseBoon:
    seat: int
    guardian: int


@dataclass(frozen=True, slots=True)
class PlaceIdol:
    """Place an idol from the supply in the leftmost open idol slot and resolve the printed ``option``."""

    seat: int
    option: str


@dataclass(frozen=True, slots=True)
class Choose:
    seat: int
    option: str


Action: TypeAlias = (
    Dig
    | Discover
    | Overcome
    | Buy
    | Play
    | Research
    | TempleTile
    | Pass
    | EndTurn
    | UseAssistant
    | UseBoon
    | PlaceIdol
    | Choose
)

ACTION_TYPES: dict[str, type[Any]] = {
    "dig": Dig,
    "discover": Discover,
    "overcome": Overcome,
    "buy": Buy,
    "play": Play,
    "research": Research,
    "temple_tile": TempleTile,
    "pass": Pass,
    "end_turn": EndTurn,
    "use_assistant": UseAssistant,
    "use_boon": UseBoon,
    "place_idol": PlaceIdol,
    "choose": Choose,
}
_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def action_to_dict(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": _NAMES[type(action)]}
    out.update(to_plain(action))
    return out


def action_from_dict(data: Any) -> Action:
    """Parse the JSON form; raises ``MalformedAction`` with a sentence on any shape error."""
    if not isinstance(data, dict):
        raise MalformedAction("an action must be a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of {sorted(ACTION_TYPES)}")
    if "seat" not in data:
        raise MalformedAction("an action must name its 'seat'")
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        action: Action = from_plain(ACTION_TYPES[kind], fields, kind)
    except TypeError as error:
        raise MalformedAction(f"malformed {kind} action: {error}") from None
    return action
