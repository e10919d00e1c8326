"""What one move says about how its player plays: the raw material of the tendencies read models.

Pure: given the state before a move, the action and the events it caused, return plain facts. The
projections add them up per player and game; nothing here touches storage.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.ruins import events as ev
from domain.ruins.actions import Action, Discard, Flip, Pass, Play
from domain.ruins.legal import can_follow
from domain.ruins.state import GameState
from domain.slots import with_fields


@dataclass(frozen=True, slots=True)
class Purchase:
    discovery: int
    effect: str
    kind: str
    position: str
    price: int


@dataclass(frozen=True, slots=True)
class Claim:
    ruin: int
    rank: int  # the ruin's printed rank on its current side
    sleeves: int  # discoveries it carried once claimed


@dataclass
class MoveFacts:
    """Built for every move a projection reads, and most moves set only the first few fields: the rest
    keep their defaults, read from the class (no slots, for that reason) until a move sets them (see
    ``_facts``)."""

    seat: int
    kind: str  # play | pass | flip | discard
    round: int
    showdown: bool
    lead: bool = False
    size: int = 0  # ruins counted in a play
    rank: int = 0
    skipped_next: bool = False
    could_follow: bool | None = None  # on a follow turn: was a plain follow legal?
    torches_spent: int = 0
    purchases: tuple[Purchase, ...] = ()
    claims: tuple[Claim, ...] = ()
    night_flip: bool = False
    went_out: int | None = None  # place
    round_ended: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None  # (round, order, vp)
    winner: tuple[int, str] | None = None  # (seat, how)
    next_round: tuple[int, bool, tuple[int, ...]] | None = None  # (round, showdown, participants)


def _facts(seat: int, kind: str, round: int, showdown: bool) -> MoveFacts:
    """``MoveFacts(seat, kind, round, showdown)`` without the generated ``__init__`` setting all 17 fields:
    an equal object (equality, repr and every field read the same)."""
    facts: MoveFacts = with_fields(MoveFacts, {"seat": seat, "kind": kind, "round": round, "showdown": showdown})
    return facts


KINDS = {Play: "play", Pass: "pass", Flip: "flip", Discard: "discard"}
# Events that say nothing about tendencies; the most frequent ones, skipped first (this runs per move projected).
QUIET = frozenset({ev.NextTurn, ev.Passed, ev.PileCleared, ev.TorchesRelit, ev.RuinsDrawn, ev.DiscardRequired,
                   ev.RuinsDiscarded, ev.NightFlipChosen, ev.NightFlipsRevealed})  # fmt: skip


def move_facts(before: GameState, action: Action, events: list[ev.Event]) -> MoveFacts:
    book = before.book
    kind = KINDS[type(action)]
    facts = _facts(action.seat, kind, before.round, before.showdown)
    purchases: list[Purchase] = []
    claims: list[Claim] = []
    if (kind == "play" or kind == "pass") and before.top is not None:
        facts.could_follow = can_follow(before, action.seat)
    elif kind == "flip":
        facts.night_flip = action.ruin is not None  # type: ignore[union-attr]
    ruins = before.ruins
    for event in events:
        if type(event) in QUIET:
            continue
        if isinstance(event, ev.RuinsPlayed):
            facts.lead, facts.size, facts.rank = event.lead, event.count, event.rank
        elif isinstance(event, ev.DiscoveryBought):
            d = book.discoveries[event.discovery]
            effect = book.effects[d.effect]
            purchases.append(Purchase(event.discovery, d.effect, effect.kind, d.position, event.price))
            facts.torches_spent += event.price
            ruins = (
                *ruins[: event.ruin],
                ruins[event.ruin].with_sleeve(book.position_index(event.discovery), event.discovery),
                *ruins[event.ruin + 1 :],
            )
        elif isinstance(event, ev.ClaimSleeved):
            ruin = ruins[event.ruin]
            printed = book.ruins[event.ruin]
            rank = printed.night_rank if ruin.night else printed.day_rank
            claims.append(Claim(event.ruin, rank, sum(d is not None for d in ruin.sleeves)))
        elif isinstance(event, ev.PlayerSkipped):
            facts.skipped_next = True
        elif isinstance(event, ev.WentOut):
            facts.went_out = event.place
        elif isinstance(event, ev.RoundEnded):
            facts.round_ended = (event.round, event.order, event.vp)
        elif isinstance(event, ev.GameWon):
            facts.winner = (event.seat, event.how)
        elif isinstance(event, ev.RoundDealt):
            facts.next_round = (event.round, event.showdown, event.participants)
    if purchases:
        facts.purchases = tuple(purchases)
    if claims:
        facts.claims = tuple(claims)
    return facts
