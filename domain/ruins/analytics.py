"""What one move says about how its player plays: the raw material of the tendencies read models.

Pure: given the state before a move, the action and the events it caused, return plain facts. The
projections add them up per player and game; nothing here touches storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.metrics import Dimension, Metric
from domain.ruins import events as ev
from domain.ruins.actions import Action, Discard, Flip, Pass, Play
from domain.ruins.codec import action_from_record
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

    def counters(self) -> Mapping[str, int]:
        """What this move adds to its seat's per-game counts (columns of ``rm_player_games``)."""
        out = {"moves": 1}
        if self.could_follow is not None:
            out["follow_turns"] = 1
            out["follow_turns_able"] = int(self.could_follow)
        if self.kind == "pass":
            out["passes"] = 1
            out["passes_able"] = int(bool(self.could_follow))
        elif self.kind == "play":
            out["plays"] = 1
            if self.lead:
                out.update(leads=1, lead_size_sum=self.size, lead_rank_sum=self.rank)
            out["skips"] = int(self.skipped_next)
            out["torches_spent"] = self.torches_spent
            out["purchases"] = len(self.purchases)
            out["claims"] = len(self.claims)
        elif self.night_flip:
            out["night_flips"] = 1
        return out


def _facts(seat: int, kind: str, round: int, showdown: bool) -> MoveFacts:
    """``MoveFacts(seat, kind, round, showdown)`` without the generated ``__init__`` setting all 17 fields:
    an equal object (equality, repr and every field read the same)."""
    facts: MoveFacts = with_fields(MoveFacts, {"seat": seat, "kind": kind, "round": round, "showdown": showdown})
    return facts


KINDS = {Play: "play", Pass: "pass", Flip: "flip", Discard: "discard"}
# Events that say nothing about tendencies; the most frequent ones, skipped first (this runs per move projected).
QUIET = frozenset({ev.NextTurn, ev.Passed, ev.PileCleared, ev.TorchesRelit, ev.RuinsDrawn, ev.DiscardRequired,
                   ev.RuinsDiscarded, ev.NightFlipChosen, ev.NightFlipsRevealed})  # fmt: skip


def move_facts(before: GameState, action: Action, events: Sequence[ev.Event]) -> MoveFacts:
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


# The tendencies the read models offer for Ruins: each a ratio of sums of per-seat-per-game columns.
METRICS: tuple[Metric, ...] = (
    Metric("pass_rate_when_able", "passes when able to follow", ("passes_able",), ("follow_turns_able",)),
    Metric("pass_rate", "passes per follow turn", ("passes",), ("follow_turns",)),
    Metric("lead_size", "ruins per lead", ("lead_size_sum",), ("leads",)),
    Metric("lead_rank", "rank of leads", ("lead_rank_sum",), ("leads",)),
    Metric("skip_rate", "plays that skip the next player", ("skips",), ("plays",)),
    Metric("torches_per_round", "torches spent per round", ("torches_spent",), ("rounds_played",)),
    Metric("purchases_per_round", "discoveries bought per round", ("purchases",), ("rounds_played",)),
    Metric("claims_per_game", "claims used per game", ("claims",)),
    Metric("night_flips_per_round", "night flips per round", ("night_flips",), ("rounds_played",)),
    Metric("first_out_rate", "rounds finished first", ("first_outs",), ("rounds_played",)),
    Metric("win_rate", "games won", ("won",)),
    Metric("win_rate_led_round1", "win rate when leading round 1", ("won", "led_round1"), ("led_round1",)),
    Metric("showdown_rate", "games reaching the Showdown", ("showdown",)),
    Metric("showdown_win_rate", "Showdowns won", ("showdown_won",), ("showdown",)),
    Metric("final_vp", "VP at the end", ("final_vp",)),
    Metric("think_ms", "think time per move (ms)", ("think_ms",), ("moves",)),
)

DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("n_players", "players at the table", "game"),
    Dimension("seat", "seat", "seat"),
    Dimension("led_round1", "led round 1", "seat"),
    Dimension("round", "round", "round"),
    Dimension("win_how", "how the game was won", "game"),
)


@dataclass(frozen=True)
class RuinsAnalytics:
    metrics: Sequence[Metric] = METRICS
    dimensions: Sequence[Dimension] = DIMENSIONS

    def move_facts(self, before: GameState, action: Mapping[str, Any], events: Sequence[ev.Event]) -> MoveFacts:
        return move_facts(before, action_from_record(action), events)


ANALYTICS = RuinsAnalytics()
