"""Facts. Every event is a frozen dataclass of plain values (and the state's own small value types).

``decide`` draws every random outcome (the setup's shuffles, each round-end shuffle) and writes it into
the events, and every card drawn is named in its event: ``evolve`` never needs the generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from domain.arnak.components import Resources
from domain.arnak.plain import from_plain, to_plain
from domain.arnak.state import Outcome, Pending, Player, Rival, Site
from domain.errors import MalformedAction


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The whole setup: every seat's shuffled starting deck and resources, the board, the shuffled stacks."""

    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    rules_version: str
    seed: str
    side: str
    seats: tuple[Player, ...]
    sites: tuple[Site, ...]
    blocked: tuple[str, ...]
    site_stacks: tuple[tuple[int, ...], tuple[int, ...]]
    guardian_stack: tuple[int, ...]
    artifact_row: tuple[int, ...]
    item_row: tuple[int, ...]
    artifact_deck: tuple[int, ...]
    item_deck: tuple[int, ...]
    fear_deck: tuple[int, ...]
    research_bonus: tuple[tuple[str, int], ...]
    temple_bonus: tuple[int, ...]
    temple_stacks: tuple[int, ...]
    assistant_stacks: tuple[tuple[int, ...], ...]
    rescue: tuple[int, ...] = ()
    rival: Rival | None = None


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    first_player: int


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    seat: int
    cards: tuple[int, ...]
    bottom: bool = False  # drawn from the bottom of the deck


@dataclass(frozen=True, slots=True)
class ResourcesChanged:
    """``delta``: coin, compass, tablet, arrowhead, jewel (negative = paid)."""

    seat: int
    delta: Resources
    reason: str


@dataclass(frozen=True, slots=True)
class CardsToPlayArea:
    """Cards leave the hand for the play area without their effect: paid as travel, discarded, or not kept."""

    seat: int
    cards: tuple[int, ...]
    reason: str  # travel | discard | round_end


@dataclass(frozen=True, slots=True)
class TravelChanged:
    """Temporary travel icons gained (``gained``) or spent (``spent``)."""

    seat: int
    gained: tuple[str, ...] = ()
    spent: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MainActionTaken:
    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class ArchaeologistPlaced:
    seat: int
    space: str


@dataclass(frozen=True, slots=True)
class IdolsTaken:
    """The discoverer takes the site's idols (face down onto their board); only ``idols[0]`` was face up."""

    seat: int
    site: str
    idols: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SiteRevealed:
    site: str
    tile: int


@dataclass(frozen=True, slots=True)
class GuardianAwakened:
    site: str
    guardian: int


@dataclass(frozen=True, slots=True)
class GuardianOvercome:
    seat: int
    site: str
    guardian: int


@dataclass(frozen=True, slots=True)
class CardBought:
    """``card`` leaves the row for ``to`` (deck_bottom | play_area | hand | deck_top), ``price`` paid."""

    seat: int
    card: int
    price: int
    to: str


@dataclass(frozen=True, slots=True)
class RowRefilled:
    """The row slides toward the moon staff and ``card`` (None: the deck is empty) fills the far end."""

    kind: str  # item | artifact
    card: int | None


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardExiled:
    seat: int
    card: int
    source: str  # hand | play_area


@dataclass(frozen=True, slots=True)
class FearGained:
    """A fear card (``card``) into the play area, or a fear tile (``card`` None) when the fear deck is empty."""

    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class ResearchMoved:
    seat: int
    token: str
    to: str


@dataclass(frozen=True, slots=True)
class TempleReached:
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class BonusTileTaken:
    seat: int
    space: str  # a research space, or "temple" (the face-down stack)
    tile: int


@dataclass(frozen=True, slots=True)
class TempleTileBought:
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class AssistantTaken:
    seat: int
    stack: int
    assistant: int


@dataclass(frozen=True, slots=True)
class AssistantUpgraded:
    """Flipped to gold, and so refreshed."""

    seat: int
    assistant: int


@dataclass(frozen=True, slots=True)
class AssistantUsed:
    seat: int
    assistant: int


@dataclass(frozen=True, slots=True)
class AssistantRefreshed:
    seat: int
    assistant: int


@dataclass(frozen=True, slots=True)
class BoonUsed:
    seat: int
    guardian: int


@dataclass(frozen=True, slots=True)
class IdolPlaced:
    seat: int
    idol: int
    slot: int
    option: str


@dataclass(frozen=True, slots=True)
class DecisionPending:
    pending: Pending


@dataclass(frozen=True, slots=True)
class DecisionMade:
    seat: int
    option: str
    kind: str = ""  # the decision's kind (a hidden card chosen in a hidden draw is redacted by it)


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class NextTurn:
    seat: int


@dataclass(frozen=True, slots=True)
class ArchaeologistsReturned:
    """Every archaeologist goes home; round end begins and ``keep_queue`` decide, in order, what to keep."""

    round: int
    keep_queue: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KeepDone:
    seat: int


@dataclass(frozen=True, slots=True)
class DeckRebuilt:
    """The play area, shuffled into ``order``, goes under the deck."""

    seat: int
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RowRotated:
    """The artifact and item beside the moon staff are exiled and the staff moves one space right."""

    artifact: int | None
    item: int | None


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """Assistants refreshed, temporary travel gone, passes cleared."""

    round: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class DiscoveryDiscount:
    """``compasses`` off the seat's next discovery this round (0: used up)."""

    seat: int
    compasses: int


@dataclass(frozen=True, slots=True)
class GuardianFearWaived:
    seat: int


@dataclass(frozen=True, slots=True)
class AllTravelPlanes:
    seat: int


@dataclass(frozen=True, slots=True)
class ArchaeologistMoved:
    seat: int
    source: str
    target: str


@dataclass(frozen=True, slots=True)
class ArchaeologistRecalled:
    seat: int
    space: str


@dataclass(frozen=True, slots=True)
class SiteTileUsed:
    """The top tile of a site stack is shown, activated and put at the bottom of its stack."""

    level: int
    tile: int


@dataclass(frozen=True, slots=True)
class AssistantSwapped:
    """The seat's assistant ``mine`` goes face up on stack ``stack``; its top ``theirs`` takes its place (and level)."""

    seat: int
    mine: int
    stack: int
    theirs: int


@dataclass(frozen=True, slots=True)
class IdolUnslotted:
    seat: int
    idol: int


@dataclass(frozen=True, slots=True)
class RowItemExiled:
    card: int


@dataclass(frozen=True, slots=True)
class GuardianMoved:
    source: str
    target: str
    guardian: int


@dataclass(frozen=True, slots=True)
class CardReturnedToDeck:
    """A card from the hand goes back on top of the deck."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class DeckTopRevealed:
    """The top card of the item or artifact deck is shown to everyone (Precision Compass, Fishing Rod)."""

    kind: str
    card: int


@dataclass(frozen=True, slots=True)
class IdolDiscarded:
    """An idol from the seat's supply (never a slotted one) leaves the game: the snake side's rescue bridge."""

    seat: int
    idol: int


@dataclass(frozen=True, slots=True)
class AssistantRescued:
    """From the rescue space onto the seat's board, silver side up and exhausted."""

    seat: int
    assistant: int


@dataclass(frozen=True, slots=True)
class RivalStackShuffled:
    """Solo: the rival's ten action tiles, shuffled face down for the round (top first)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RivalTileRevealed:
    tile: int


@dataclass(frozen=True, slots=True)
class RivalIdolsTaken:
    """Solo: a new kind of idol stays face up; a duplicate or a face-down idol goes to the rival's negative stack."""

    site: str
    face_up: tuple[int, ...]
    negative: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AssistantRemoved:
    """Solo: the rival takes an assistant out of the game (``stack`` -1: the rescue space)."""

    stack: int
    assistant: int


Event: TypeAlias = (
    GameStarted
    | RoundStarted
    | CardsDrawn
    | ResourcesChanged
    | CardsToPlayArea
    | TravelChanged
    | MainActionTaken
    | ArchaeologistPlaced
    | IdolsTaken
    | SiteRevealed
    | GuardianAwakened
    | GuardianOvercome
    | CardBought
    | RowRefilled
    | CardPlayed
    | CardExiled
    | FearGained
    | ResearchMoved
    | TempleReached
    | BonusTileTaken
    | TempleTileBought
    | AssistantTaken
    | AssistantUpgraded
    | AssistantUsed
    | AssistantRefreshed
    | BoonUsed
    | IdolPlaced
    | DecisionPending
    | DecisionMade
    | Passed
    | NextTurn
    | ArchaeologistsReturned
    | KeepDone
    | DeckRebuilt
    | RowRotated
    | RoundEnded
    | GameEnded
    | DiscoveryDiscount
    | GuardianFearWaived
    | AllTravelPlanes
    | ArchaeologistMoved
    | ArchaeologistRecalled
    | SiteTileUsed
    | AssistantSwapped
    | IdolUnslotted
    | RowItemExiled
    | GuardianMoved
    | CardReturnedToDeck
    | DeckTopRevealed
    | IdolDiscarded
    | AssistantRescued
    | RivalStackShuffled
    | RivalTileRevealed
    | RivalIdolsTaken
    | AssistantRemoved
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        RoundStarted,
        CardsDrawn,
        ResourcesChanged,
        CardsToPlayArea,
        TravelChanged,
        MainActionTaken,
        ArchaeologistPlaced,
        IdolsTaken,
        SiteRevealed,
        GuardianAwakened,
        GuardianOvercome,
        CardBought,
        RowRefilled,
        CardPlayed,
        CardExiled,
        FearGained,
        ResearchMoved,
        TempleReached,
        BonusTileTaken,
        TempleTileBought,
        AssistantTaken,
        AssistantUpgraded,
        AssistantUsed,
        AssistantRefreshed,
        BoonUsed,
        IdolPlaced,
        DecisionPending,
        DecisionMade,
        Passed,
        NextTurn,
        ArchaeologistsReturned,
        KeepDone,
        DeckRebuilt,
        RowRotated,
        RoundEnded,
        GameEnded,
        DiscoveryDiscount,
        GuardianFearWaived,
        AllTravelPlanes,
        ArchaeologistMoved,
        ArchaeologistRecalled,
        SiteTileUsed,
        AssistantSwapped,
        IdolUnslotted,
        RowItemExiled,
        GuardianMoved,
        CardReturnedToDeck,
        DeckTopRevealed,
        IdolDiscarded,
        AssistantRescued,
        RivalStackShuffled,
        RivalTileRevealed,
        RivalIdolsTaken,
        AssistantRemoved,
    )
}


def event_to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(event).__name__}
    out.update(to_plain(event))
    return out


def event_from_dict(data: dict[str, Any]) -> Event:
    cls = EVENT_TYPES.get(data.get("type", ""))
    if cls is None:
        raise MalformedAction(f"unknown event type {data.get('type')!r}")
    try:
        event: Event = from_plain(cls, {k: v for k, v in data.items() if k != "type"}, cls.__name__)
    except TypeError as error:
        raise MalformedAction(f"malformed {cls.__name__} event: {error}") from None
    return event
