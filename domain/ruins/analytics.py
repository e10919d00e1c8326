"""What one move says about how its player plays: Ruins' part of the read models (``domain.metrics``).

Pure: given the state before a move, the action and the events it caused, return plain facts and the rows
they add to Ruins' fact tables (stored as ``rm_ruins_<table>``, created by ``migrations/<dialect>/ruins/``).
The projection combines the rows per column; nothing here touches storage.

Rounds are counted where they end, for every seat dealt into them, the Showdown included: a regular round ends
with ``RoundEnded`` (its full finishing order), the round an instant win cuts short and the Showdown end with
``GameWon`` (the winner went out first; the other participants get no place). So a rate per round (torches,
purchases, night flips, first outs) is over every round a seat played, and can never exceed what one round
allows. Whether a game reached the Showdown is a fact of the game (``games`` table, one row per game), not of
its participants.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.metrics import Breakdown, Column, Dimension, FactRow, FactTable, Metric
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


def _ints(*names: str) -> tuple[Column, ...]:
    return tuple(Column(n) for n in names)


# Per seat and game: counts a move adds to (all summed).
SEAT_COLUMNS = (
    "follow_turns",  # turns on which the seat had a play to follow
    "follow_turns_able",  # ... and a plain follow was legal
    "passes",
    "passes_able",  # passes although a plain follow was legal
    "plays",
    "leads",
    "lead_size_sum",
    "lead_rank_sum",
    "skips",
    "torches_spent",
    "purchases",
    "claims",
    "claim_round_sum",  # the rounds claims were made in, summed: when a seat claims, not only how often
    "night_flips",
    "rounds_played",  # every round dealt in and ended, the Showdown included
    "first_outs",
    "showdown",  # dealt into the Showdown
    "showdown_won",
    "led_round1",
)
SEATS = FactTable("seats", key=_ints("seat"), columns=_ints(*SEAT_COLUMNS))
# Per round and seat: what the seat did in that round, its place and VP when the round ended.
ROUNDS = FactTable(
    "rounds",
    key=_ints("round", "seat"),
    columns=(
        Column("played"),  # 1 once the round ended with the seat dealt in
        Column("first_out"),
        Column("place", combine="set"),  # None: the game ended before the seat went out
        Column("vp_end", combine="set"),
        *_ints("torches_spent", "purchases", "claims", "night_flips"),
    ),
)
# Per game: how far it went and how it was won.
GAMES = FactTable(
    "games",
    key=(),
    columns=(
        Column("rounds", combine="set"),  # regular rounds reached (the Showdown is not one of them)
        Column("showdown", combine="set"),  # 1: the game reached the Showdown
        Column("first_leader", combine="keep"),  # the seat leading round 1
        Column("win_how", "text", combine="set"),  # instant | showdown
    ),
)
PURCHASES = FactTable(
    "purchases",
    key=(),
    columns=(
        Column("seat"),
        Column("round"),
        Column("discovery"),
        Column("effect", "text"),
        Column("effect_kind", "text"),
        Column("position", "text"),
        Column("price"),
    ),
    append=True,
)
CLAIMS = FactTable(
    "claims",
    key=(),
    columns=_ints("seat", "round", "ruin", "rank", "sleeves"),
    append=True,
)
TABLES: tuple[FactTable, ...] = (SEATS, ROUNDS, GAMES, PURCHASES, CLAIMS)

_SLOT = {name: i for i, name in enumerate(SEAT_COLUMNS)}
_ZEROS = (0,) * len(SEAT_COLUMNS)
_PLAY_TAIL = _ZEROS[_SLOT["claim_round_sum"] + 1 :]  # the counts a play or a pass never adds to


def _seat_row(seat: int, **counts: int) -> FactRow:
    row = list(_ZEROS)
    for name, value in counts.items():
        row[_SLOT[name]] = value
    return ("seats", (seat, *row))


def _follow_row(
    seat: int,
    follow: int,
    able: int,
    passes: int,
    passes_able: int,
    plays: int = 0,
    leads: int = 0,
    size: int = 0,
    rank: int = 0,
    skips: int = 0,
    torches: int = 0,
    purchases: int = 0,
    claims: int = 0,
    claim_rounds: int = 0,
) -> FactRow:
    """A play's or a pass's seat row, built positionally (``_seat_row`` by name costs twice as much, and these
    are most of the moves projected): its columns in ``SEAT_COLUMNS`` order up to ``claim_round_sum``."""
    head = (seat, follow, able, passes, passes_able, plays, leads, size, rank, skips, torches, purchases, claims)
    return ("seats", (*head, claim_rounds, *_PLAY_TAIL))


def _round_row(
    round_no: int,
    seat: int,
    *,
    played: int = 0,
    first_out: int = 0,
    place: int | None = None,
    vp_end: int | None = None,
    torches: int = 0,
    purchases: int = 0,
    claims: int = 0,
    night_flips: int = 0,
) -> FactRow:
    return ("rounds", (round_no, seat, played, first_out, place, vp_end, torches, purchases, claims, night_flips))


@dataclass
class MoveFacts:
    """Built for every move a projection reads, and most moves set only the first few fields: the rest
    keep their defaults, read from the class (no slots, for that reason) until a move sets them (see
    ``_facts``)."""

    seat: int
    kind: str  # play | pass | flip | discard
    round: int
    showdown: bool
    record: Mapping[str, Any]  # the action as stored (for the summary)
    lead: bool = False
    size: int = 0  # ruins counted in a play
    rank: int = 0
    skipped_next: bool = False
    could_follow: bool | None = None  # on a follow turn: was a plain follow legal?
    torches_spent: int = 0
    purchases: tuple[Purchase, ...] = ()
    claims: tuple[Claim, ...] = ()
    night_flip: bool = False
    went_out: tuple[int, int, int] | None = None  # (seat, place, vp after)
    round_ended: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None  # (round, order, vp)
    winner: tuple[int, str, tuple[int, ...], tuple[int, ...]] | None = None  # (seat, how, participants, vp)
    next_round: tuple[int, bool, tuple[int, ...], int] | None = None  # (round, showdown, participants, rounds)

    @property
    def summary(self) -> str:
        action = self.record
        kind = action.get("type")
        if kind == "play":
            text = f"play {','.join(map(str, action.get('ruins', [])))} as {action.get('rank')}"
            if action.get("purchases"):
                text += f" +{len(action['purchases'])} discovery"
            if action.get("claims"):
                text += " +claim"
            return text
        if kind == "flip":
            return "flip" if action.get("ruin") is not None else "no flip"
        return str(kind)

    def rows(self) -> Iterable[FactRow]:
        """The rows of Ruins' tables this move adds to (see the module's docstring for when rounds count).
        Purchases and claims are append tables: the read models key them by the move and their order in it."""
        seat, kind, round_no = self.seat, self.kind, self.round
        could = self.could_follow
        rows: list[FactRow] = []
        follow = int(could is not None)
        able = int(bool(could))
        if kind == "play":
            bought, claimed = len(self.purchases), len(self.claims)
            lead = int(self.lead)
            torches = self.torches_spent
            rows.append(
                _follow_row(
                    seat,
                    follow,
                    able,
                    0,
                    0,
                    1,
                    lead,
                    self.size * lead,
                    self.rank * lead,
                    int(self.skipped_next),
                    torches,
                    bought,
                    claimed,
                    claimed * round_no,
                )
            )
            if torches or bought or claimed:
                rows.append(_round_row(round_no, seat, torches=torches, purchases=bought, claims=claimed))
            for p in self.purchases:
                rows.append(("purchases", (seat, round_no, p.discovery, p.effect, p.kind, p.position, p.price)))
            for c in self.claims:
                rows.append(("claims", (seat, round_no, c.ruin, c.rank, c.sleeves)))
        elif kind == "pass":
            rows.append(_follow_row(seat, follow, able, 1, able))
        elif self.night_flip:
            rows.append(_seat_row(seat, night_flips=1))
            rows.append(_round_row(round_no, seat, night_flips=1))
        if self.went_out is not None or self.round_ended is not None or self.winner or self.next_round:
            rows.extend(self._round_rows())
        return rows

    def _round_rows(self) -> Iterable[FactRow]:
        """Places, the ends of rounds, the next deal and the winner: the facts only some moves have."""
        round_no = self.round
        if self.went_out is not None:
            out, place, _ = self.went_out
            first = int(place == 1)
            yield _round_row(round_no, out, first_out=first, place=place)
            if first:
                yield _seat_row(out, first_outs=1)
        if self.round_ended is not None:
            ended, order, vp = self.round_ended
            for place, s in enumerate(order, start=1):
                yield _round_row(ended, s, played=1, place=place, vp_end=vp[s])
                yield _seat_row(s, rounds_played=1)
        if self.winner is not None:  # the round the win ends is played too (an instant win cuts it short)
            winner, how, participants, vp = self.winner
            for s in participants:
                yield _round_row(round_no, s, played=1, vp_end=vp[s])
                yield _seat_row(s, rounds_played=1, showdown_won=int(how == "showdown" and s == winner))
            yield ("games", (None, None, None, how))
        if self.next_round is not None:
            _, showdown, participants, regular = self.next_round
            yield ("games", (regular, int(showdown), None, None))
            if showdown:
                for s in participants:
                    yield _seat_row(s, showdown=1)


def _facts(seat: int, kind: str, round: int, showdown: bool, record: Mapping[str, Any]) -> MoveFacts:
    """``MoveFacts(seat, kind, round, showdown, record)`` without the generated ``__init__`` setting every
    field: an equal object (equality, repr and every field read the same)."""
    facts: MoveFacts = with_fields(
        MoveFacts, {"seat": seat, "kind": kind, "round": round, "showdown": showdown, "record": record}
    )
    return facts


KINDS = {Play: "play", Pass: "pass", Flip: "flip", Discard: "discard"}
# Events that say nothing about tendencies; the most frequent ones, skipped first (this runs per move projected).
QUIET = frozenset({ev.NextTurn, ev.Passed, ev.PileCleared, ev.TorchesRelit, ev.RuinsDrawn, ev.DiscardRequired,
                   ev.RuinsDiscarded, ev.NightFlipChosen, ev.NightFlipsRevealed})  # fmt: skip


def move_facts(
    before: GameState, action: Action, events: Sequence[ev.Event], record: Mapping[str, Any] | None = None
) -> MoveFacts:
    book = before.book
    kind = KINDS[type(action)]
    facts = _facts(action.seat, kind, before.round, before.showdown, {} if record is None else record)
    purchases: list[Purchase] = []
    claims: list[Claim] = []
    if (kind == "play" or kind == "pass") and before.top is not None:
        facts.could_follow = can_follow(before, action.seat)
    elif kind == "flip":
        facts.night_flip = action.ruin is not None  # type: ignore[union-attr]
    ruins = before.ruins
    went_out_vp: dict[int, int] = {}
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
            facts.went_out = (event.seat, event.place, event.vp)
            went_out_vp[event.seat] = event.vp
        elif isinstance(event, ev.RoundEnded):
            facts.round_ended = (event.round, event.order, event.vp)
        elif isinstance(event, ev.GameWon):
            vp = tuple(went_out_vp.get(s, v) for s, v in enumerate(before.vp))
            facts.winner = (event.seat, event.how, before.participants, vp)
        elif isinstance(event, ev.RoundDealt):
            regular = min(event.round, book.max_rounds)
            facts.next_round = (event.round, event.showdown, event.participants, regular)
    if purchases:
        facts.purchases = tuple(purchases)
    if claims:
        facts.claims = tuple(claims)
    return facts


# The tendencies the read models offer for Ruins (see ``domain.metrics`` for the grains, shares and groups).
SHOWN_FOLLOW, SHOWN_LEADS, SHOWN_TORCHES, SHOWN_CLAIMS, SHOWN_NIGHT, SHOWN_RESULTS = (
    "Following and passing",
    "Leads",
    "Torches and discoveries",
    "Claims",
    "Night flips",
    "Results",
)
METRICS: tuple[Metric, ...] = (
    Metric(
        "pass_rate_when_able",
        "passes when able to follow",
        ("passes_able",),
        ("follow_turns_able",),
        share=True,
        group=SHOWN_FOLLOW,
    ),
    Metric("pass_rate", "passes per follow turn", ("passes",), ("follow_turns",), share=True, group=SHOWN_FOLLOW),
    Metric("skip_rate", "plays that skip the next player", ("skips",), ("plays",), share=True, group=SHOWN_FOLLOW),
    Metric("lead_size", "ruins per lead", ("lead_size_sum",), ("leads",), group=SHOWN_LEADS),
    Metric("lead_rank", "rank of leads", ("lead_rank_sum",), ("leads",), group=SHOWN_LEADS),
    Metric("torches_per_round", "torches spent per round", ("torches_spent",), ("rounds_played",), group=SHOWN_TORCHES),
    Metric(
        "purchases_per_round", "discoveries bought per round", ("purchases",), ("rounds_played",), group=SHOWN_TORCHES
    ),
    Metric("claims_per_game", "claims used per game", ("claims",), group=SHOWN_CLAIMS),
    Metric("claim_round", "round of a claim (average)", ("claim_round_sum",), ("claims",), group=SHOWN_CLAIMS),
    Metric("night_flips_per_round", "night flips per round", ("night_flips",), ("rounds_played",), group=SHOWN_NIGHT),
    Metric(
        "first_out_rate", "rounds finished first", ("first_outs",), ("rounds_played",), share=True, group=SHOWN_RESULTS
    ),
    Metric("win_rate", "games won", ("won",), share=True, group=SHOWN_RESULTS),
    Metric(
        "win_rate_led_round1",
        "win rate when leading round 1",
        ("won", "led_round1"),
        ("led_round1",),
        share=True,
        group=SHOWN_RESULTS,
    ),
    Metric(
        "showdown_rate", "games reaching the Showdown", ("showdown",), grain="game", share=True, group=SHOWN_RESULTS
    ),
    Metric("showdown_win_rate", "Showdowns won", ("showdown_won",), ("showdown",), share=True, group=SHOWN_RESULTS),
    Metric("final_vp", "VP at the end", ("score",), group=SHOWN_RESULTS),
    Metric("think_ms", "think time per move (ms)", ("think_ms",), ("moves",), group="Think time"),
    # Per round (the Showdown is the round after the last regular one).
    Metric("vp_by_round", "VP at the end of the round", ("vp_end",), ("played",), grain="round"),
    Metric("torches_by_round", "torches spent", ("torches_spent",), ("played",), grain="round"),
    Metric("purchases_by_round", "discoveries bought", ("purchases",), ("played",), grain="round"),
    Metric("claims_by_round", "claims made", ("claims",), ("played",), grain="round"),
    Metric("first_out_by_round", "went out first", ("first_out",), ("played",), grain="round", share=True),
)

BREAKDOWNS: tuple[Breakdown, ...] = (
    Breakdown("places", "finishing place in a round", "rounds", ("round", "place")),
    Breakdown("discoveries", "discoveries bought", "purchases", ("effect", "effect_kind", "position"), ("price",)),
    Breakdown("claims", "claims, by rank and sleeves", "claims", ("rank", "sleeves")),
    Breakdown("claim_rounds", "claims, by round", "claims", ("round",)),
    Breakdown("win_how", "how games were won", "games", ("win_how",)),
    Breakdown("lengths", "rounds played per game", "games", ("rounds", "showdown")),
)

DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("n_players", "players at the table", "game"),
    Dimension("seat", "seat", "seat"),
    Dimension("led_round1", "led round 1", "seat", flag=True),
    Dimension("round", "round", "round"),
    Dimension("win_how", "how the game was won", "game"),
    Dimension("showdown", "reached the Showdown", "game", flag=True),
)


@dataclass(frozen=True)
class RuinsAnalytics:
    tables: Sequence[FactTable] = TABLES
    metrics: Sequence[Metric] = METRICS
    breakdowns: Sequence[Breakdown] = BREAKDOWNS
    dimensions: Sequence[Dimension] = DIMENSIONS

    def opening_rows(self, state: GameState) -> Iterable[FactRow]:
        """Who leads round 1, and a game that has started its first round without a Showdown yet."""
        return (("games", (1, 0, state.leader, None)), _seat_row(state.leader, led_round1=1))

    def move_facts(self, before: GameState, action: Mapping[str, Any], events: Sequence[ev.Event]) -> MoveFacts:
        return move_facts(before, action_from_record(action), events, action)


ANALYTICS = RuinsAnalytics()
