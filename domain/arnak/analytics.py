"""What Arnak's moves show about how each seat plays: the game's part of the analytics protocol (``domain.metrics``).

Every fact is read from the engine's own events (``events.py``): the main action taken (``MainActionTaken``, or
the rival's revealed action tile), each step of research (``ResearchMoved``), each card gained (``CardBought``),
fear taken and exiled, idols placed in slots, guardians overcome, assistants, and the score sheets the engine
wrote at the end (``GameEnded``). Nothing here judges a rule or works out a score; the round a fact belongs to is
the one the events say (a move that ends a round also starts the next one, and in a solo game the rival's first
turn of that round is part of it).

A move's facts go to the seat the event names, not always the seat that moved: the last pass of a round gives
every seat with an archaeologist beside a guardian its fear, and in a solo game the rival's turns are played
inside the human's moves. The rival's seat is marked (``rival``), so its rows can be left out of a field.

Tables (each stored as ``rm_arnak_<name>``; migrations/<dialect>/arnak/):

* ``seats``: per seat per game, counts added up move by move, what the seat is (kept), the score sheet (set);
* ``rounds``: per round per seat, the action mix and the pace of that round;
* ``purchases``: one row per card gained (bought from the row, or taken by an effect), with its kind and cost;
* ``guardians``: one row per guardian overcome, with the round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.arnak import events as ev
from domain.arnak import names
from domain.arnak.components import book
from domain.arnak.rival import rival_book
from domain.arnak.setup import start
from domain.arnak.state import GameState
from domain.arnak.view import HIDDEN_CHOICES
from domain.metrics import ROUND_TABLE, SEAT_TABLE, Breakdown, Column, Dimension, FactRow, FactTable, Metric

# -- the tables -------------------------------------------------------------------------------------------------

# The counts of a seat's play, per game (``seats``) and the first of them per round (``rounds``). Main actions by
# kind: ``researches`` counts research actions (temple tiles included), ``research_steps`` every step a token moved
# (an effect's free research too).
ACTION_COUNTS = ("main_actions", "digs", "discoveries", "overcomes", "buys", "card_plays", "researches",
                 "assistant_actions", "passes")  # fmt: skip
ROUND_COUNTS = (*ACTION_COUNTS, "research_steps", "cards_bought", "fear_taken", "guardians_overcome", "idols_placed")
SEAT_COUNTS = (
    *ROUND_COUNTS,
    "rounds_played",
    "site_actions",  # digs and discoveries
    "cards_played",  # every card played from the hand, free (lightning) ones too
    "glass_steps",
    "notebook_steps",
    "temple_tiles",
    "reached_temple",
    "items_bought",
    "artifacts_bought",
    "item_cost_sum",  # printed costs (coins) of the items gained
    "artifact_cost_sum",  # printed costs (compasses) of the artifacts gained
    "price_paid",  # coins and compasses actually paid for the cards gained
    "fear_exiled",
    "cards_exiled",  # other cards exiled: starting cards, items, artifacts
    "idols_taken",
    "guardian_round_sum",  # the rounds the guardians were overcome in, added up
    "boons_used",
    "assistants_taken",
    "assistants_upgraded",
    "assistants_used",
)
# What the seat is: set by the game's opening rows and kept.
SEAT_KEPT = (
    Column("rival", combine="keep"),  # 1: the solo rival's seat, played by the engine
    Column("solo", combine="keep"),  # 1: a solo game (the human's seat and the rival's)
    Column("difficulty", combine="keep"),  # the rival's difficulty (red tiles) in a solo game, else NULL
    Column("side", "text", "keep"),  # the board side
)
# Set when the game ends (from its score sheets), or when the seat reaches the temple.
SCORE_PARTS = ("research", "temple_tiles", "idols", "idol_slots", "guardians", "cards", "fear")
SEAT_SET = (
    Column("temple_place", combine="set"),  # 1 = the first to reach the Lost Temple
    *(Column(f"score_{part}", combine="set") for part in SCORE_PARTS),
    Column("solo_margin", combine="set"),  # a solo human's total minus the rival's
)

SEATS = FactTable(SEAT_TABLE, (Column("seat"),), (*SEAT_KEPT, *(Column(name) for name in SEAT_COUNTS), *SEAT_SET))
ROUNDS = FactTable(ROUND_TABLE, (Column("round"), Column("seat")), tuple(Column(name) for name in ROUND_COUNTS))
# Append tables: one row per occurrence (the read models add the move's version and the row's place in it); the
# key columns say what makes each fact unique in its game (a card is gained by one seat at most once a round; a
# guardian is overcome once).
PURCHASES = FactTable(
    "purchases",
    (Column("round"), Column("seat"), Column("card")),
    (
        Column("name", "text", "keep"),
        Column("kind", "text", "keep"),
        Column("cost", combine="keep"),
        Column("price", combine="keep"),
    ),
    append=True,
)
GUARDIANS = FactTable(
    "guardians", (Column("seat"), Column("guardian")), (Column("round", combine="keep"),), append=True
)
TABLES = (SEATS, ROUNDS, PURCHASES, GUARDIANS)

_SEAT_INDEX = {name: i for i, name in enumerate(SEAT_COUNTS)}
_ROUND_INDEX = {name: i for i, name in enumerate(ROUND_COUNTS)}
_SEAT_NONE = (None,) * len(SEAT_KEPT)
_SET_INDEX = {c.name: i for i, c in enumerate(SEAT_SET)}

# -- the catalogue ----------------------------------------------------------------------------------------------


def _share(name: str, label: str, column: str, grain: str = "seat") -> Metric:
    """A kind of action's share of the main actions: per seat, or round by round (the mix, stacked per round)."""
    if grain == "round":
        return Metric(name, label, (column,), ("main_actions",), "round", share=True, group=MIX_BY_ROUND)
    return Metric(name, label, (column,), ("main_actions",), "seat", share=True, group=MIX)


def _in(group: str, *metrics: Metric) -> tuple[Metric, ...]:
    return tuple(replace(m, group=group) for m in metrics)


def _shown_as_share(metric: Metric) -> Metric:
    return replace(metric, share=True)


MIX, MIX_BY_ROUND = "Action mix", "Action mix per round"


METRICS: tuple[Metric, ...] = (
    # the action mix: each kind's share of the main actions
    _share("dig_share", "main actions that dig", "digs"),
    _share("discover_share", "main actions that discover a site", "discoveries"),
    _share("research_share", "main actions that research", "researches"),
    _share("buy_share", "main actions that buy a card", "buys"),
    _share("play_share", "main actions that play a card", "card_plays"),
    _share("overcome_share", "main actions that overcome a guardian", "overcomes"),
    _share("assistant_share", "main actions taken by an assistant", "assistant_actions"),
    *_in(
        "Pace",
        Metric("main_actions_per_round", "main actions per round", ("main_actions",), ("rounds_played",)),
        Metric("digs_per_round", "digs per round", ("digs",), ("rounds_played",)),
        Metric("site_actions_per_round", "digs and discoveries per round", ("site_actions",), ("rounds_played",)),
        Metric("cards_played_per_round", "cards played per round", ("cards_played",), ("rounds_played",)),
    ),
    # dig vs discover
    *_in(
        "Dig vs discover",
        _shown_as_share(
            Metric(
                "discover_vs_dig", "site actions that discover (rather than dig)", ("discoveries",), ("site_actions",)
            )
        ),
    ),
    # research
    *_in(
        "Research",
        Metric("research_pace", "research steps per round", ("research_steps",), ("rounds_played",)),
        _shown_as_share(
            Metric("notebook_share", "research steps by the notebook", ("notebook_steps",), ("research_steps",))
        ),
        _shown_as_share(Metric("temple_rate", "games reaching the Lost Temple", ("reached_temple",), ("finished",))),
        Metric("temple_tiles_per_game", "temple tiles per game", ("temple_tiles",), ("finished",)),
    ),
    # cards
    *_in(
        "Cards bought",
        Metric("cards_bought_per_round", "cards gained per round", ("cards_bought",), ("rounds_played",)),
        Metric("items_per_game", "items gained per game", ("items_bought",), ("finished",)),
        Metric("artifacts_per_game", "artifacts gained per game", ("artifacts_bought",), ("finished",)),
        Metric("item_cost", "printed cost of the items gained (coins)", ("item_cost_sum",), ("items_bought",)),
        Metric(
            "artifact_cost",
            "printed cost of the artifacts gained (compasses)",
            ("artifact_cost_sum",),
            ("artifacts_bought",),
        ),
        Metric(
            "cards_exiled_per_game",
            "other cards exiled per game (starting cards, items, artifacts)",
            ("cards_exiled",),
            ("finished",),
        ),
    ),
    # fear
    *_in(
        "Fear",
        Metric("fear_per_game", "fear cards taken per game", ("fear_taken",), ("finished",)),
        Metric("fear_exiled_per_game", "fear cards exiled per game", ("fear_exiled",), ("finished",)),
        # not a share: the starting deck's fear cards were never taken but may be exiled, so it may pass 1
        Metric("fear_exiled_share", "fear cards exiled per fear card taken", ("fear_exiled",), ("fear_taken",)),
    ),
    # idols
    *_in(
        "Idols",
        Metric("idols_per_game", "idols taken per game", ("idols_taken",), ("finished",)),
        Metric("idol_slots_per_game", "idols placed in slots per game", ("idols_placed",), ("finished",)),
        Metric("idol_slot_use", "idols placed in slots per idol taken", ("idols_placed",), ("idols_taken",)),
    ),
    # guardians
    *_in(
        "Guardians",
        Metric("guardians_per_game", "guardians overcome per game", ("guardians_overcome",), ("finished",)),
        Metric(
            "guardian_round",
            "round a guardian is overcome in (average)",
            ("guardian_round_sum",),
            ("guardians_overcome",),
        ),
        Metric("boons_per_guardian", "boons used per guardian overcome", ("boons_used",), ("guardians_overcome",)),
    ),
    # assistants
    *_in(
        "Assistants",
        Metric("assistants_per_game", "assistants taken per game", ("assistants_taken",), ("finished",)),
        Metric("assistant_uses_per_round", "assistant uses per round", ("assistants_used",), ("rounds_played",)),
    ),
    # the score sheet, against the field
    *_in(
        "Score sheet",
        *(
            Metric(f"score_{part}", f"points from {part.replace('_', ' ')}", (f"score_{part}",), ("finished",))
            for part in SCORE_PARTS
        ),
        Metric("final_score", "points at the end", ("score",), ("finished",)),
    ),
    *_in(
        "Results",
        Metric("win_rate", "games won", ("won",), ("finished",), share=True),
        Metric("place", "place at the end (1 = first)", ("place",), ("finished",)),
    ),
    # solo, by difficulty (a dimension)
    *_in(
        "Solo against the rival",
        Metric(
            "solo_win_rate",
            "solo games won against the rival",
            ("won", "solo", "finished"),
            ("solo", "finished"),
            share=True,
        ),
        Metric("solo_margin", "points ahead of the rival (solo)", ("solo_margin",), ("solo", "finished")),
    ),
    Metric("think_ms", "think time per move (ms)", ("think_ms",), ("moves",), group="Think time"),
    # per round: how a seat's play changes over the game
    _share("round_dig_share", "dig", "digs", "round"),
    _share("round_discover_share", "discover", "discoveries", "round"),
    _share("round_research_share", "research", "researches", "round"),
    _share("round_buy_share", "buy", "buys", "round"),
    _share("round_play_share", "play a card", "card_plays", "round"),
    _share("round_overcome_share", "overcome a guardian", "overcomes", "round"),
    Metric("round_main_actions", "main actions in the round", ("main_actions",), (), "round"),
    Metric("round_research_steps", "research steps in the round", ("research_steps",), (), "round"),
    Metric("round_cards_bought", "cards gained in the round", ("cards_bought",), (), "round"),
    Metric("round_fear_taken", "fear cards taken in the round", ("fear_taken",), (), "round"),
    Metric("round_guardians", "guardians overcome in the round", ("guardians_overcome",), (), "round"),
    Metric("round_idols_placed", "idols placed in slots in the round", ("idols_placed",), (), "round"),
)

BREAKDOWNS: tuple[Breakdown, ...] = (
    Breakdown("cards_by_kind_cost", "cards gained, by kind and printed cost", "purchases", ("kind", "cost")),
    Breakdown("cards_by_name", "cards gained, by card", "purchases", ("kind", "name")),
    Breakdown("cards_by_round", "cards gained, by round and kind", "purchases", ("round", "kind")),
    Breakdown("cards_by_price", "cards gained, by kind and price paid", "purchases", ("kind", "price")),
    Breakdown("guardians_by_round", "guardians overcome, by round", "guardians", ("round",)),
)

DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("n_players", "players at the table", "game"),
    Dimension("side", "board side", "seat"),
    Dimension("seat", "seat", "seat"),
    Dimension("solo", "solo game against the rival", "seat", flag=True),
    Dimension("difficulty", "rival's difficulty (solo)", "seat"),
    Dimension("rival", "the rival's seat", "seat", flag=True),
    Dimension("round", "round", "round"),
)

# -- a move's facts ---------------------------------------------------------------------------------------------

# One word per kind of action (``rm_moves.kind``), from the action's stored type.
KINDS = {"dig": "dig", "discover": "discover", "overcome": "overcome", "buy": "buy", "play": "play",
         "research": "research", "temple_tile": "temple", "pass": "pass", "end_turn": "end",
         "use_assistant": "assistant", "use_boon": "boon", "place_idol": "idol", "choose": "choose"}  # fmt: skip
# The main-action column of a ``MainActionTaken`` (its ``action``) and of a rival's action tile (its ``kind``).
MAIN_COLUMNS = {"dig": "digs", "discover": "discoveries", "overcome": "overcomes", "buy": "buys", "play": "card_plays",
                "research": "researches", "assistant": "assistant_actions", "buy_item": "buys",
                "buy_artifact": "buys"}  # fmt: skip


class _Tally:
    """The rows a run of events adds, per seat and per round, added up as the events come."""

    __slots__ = ("appends", "round", "rounds", "seats", "sets")

    def __init__(self, round: int) -> None:
        self.round = round
        self.seats: dict[int, list[int]] = {}
        self.rounds: dict[tuple[int, int], list[int]] = {}
        self.sets: dict[int, list[Any]] = {}
        self.appends: list[FactRow] = []

    def add(self, seat: int, name: str, n: int = 1) -> None:
        counts = self.seats.get(seat)
        if counts is None:
            counts = self.seats[seat] = [0] * len(SEAT_COUNTS)
        counts[_SEAT_INDEX[name]] += n
        at = _ROUND_INDEX.get(name)
        if at is not None:
            key = (self.round, seat)
            per_round = self.rounds.get(key)
            if per_round is None:
                per_round = self.rounds[key] = [0] * len(ROUND_COUNTS)
            per_round[at] += n

    def set(self, seat: int, name: str, value: Any) -> None:
        values = self.sets.get(seat)
        if values is None:
            values = self.sets[seat] = [None] * len(SEAT_SET)
        values[_SET_INDEX[name]] = value

    def rows(self, kept: Mapping[int, tuple[Any, ...]] | None = None) -> Iterator[FactRow]:
        no_sets = (None,) * len(SEAT_SET)
        for seat in sorted({*self.seats, *self.sets, *(kept or {})}):
            counts = self.seats.get(seat) or [0] * len(SEAT_COUNTS)
            what = (kept or {}).get(seat, _SEAT_NONE)
            yield SEAT_TABLE, (seat, *what, *counts, *(self.sets.get(seat) or no_sets))
        for (round, seat), counts in sorted(self.rounds.items()):
            yield ROUND_TABLE, (round, seat, *counts)
        yield from self.appends


Handler = Callable[[_Tally, Any, "GameState"], None]


def _main(t: _Tally, e: ev.MainActionTaken, state: GameState) -> None:
    t.add(e.seat, "main_actions")
    t.add(e.seat, MAIN_COLUMNS[e.action])
    if e.action in ("dig", "discover"):
        t.add(e.seat, "site_actions")


def _rival_tile(t: _Tally, e: ev.RivalTileRevealed, state: GameState) -> None:
    assert state.rival is not None
    seat, kind = state.rival.seat, rival_book().tiles[e.tile].kind
    t.add(seat, "main_actions")
    t.add(seat, MAIN_COLUMNS[kind])
    if kind in ("dig", "discover"):
        t.add(seat, "site_actions")


def _research(t: _Tally, e: ev.ResearchMoved, state: GameState) -> None:
    t.add(e.seat, "research_steps")
    t.add(e.seat, "glass_steps" if e.token == "glass" else "notebook_steps")


def _temple(t: _Tally, e: ev.TempleReached, state: GameState) -> None:
    t.add(e.seat, "reached_temple")
    t.set(e.seat, "temple_place", e.place + 1)


def _bought(t: _Tally, e: ev.CardBought, state: GameState) -> None:
    card = book().card(e.card)
    t.add(e.seat, "cards_bought")
    t.add(e.seat, "price_paid", e.price)
    if card.kind == "item":
        t.add(e.seat, "items_bought")
        t.add(e.seat, "item_cost_sum", card.cost)
    elif card.kind == "artifact":
        t.add(e.seat, "artifacts_bought")
        t.add(e.seat, "artifact_cost_sum", card.cost)
    t.appends.append(("purchases", (t.round, e.seat, e.card, card.name, card.kind, card.cost, e.price)))


def _exiled(t: _Tally, e: ev.CardExiled, state: GameState) -> None:
    t.add(e.seat, "fear_exiled" if book().card(e.card).kind == "fear" else "cards_exiled")


def _overcome(t: _Tally, e: ev.GuardianOvercome, state: GameState) -> None:
    t.add(e.seat, "guardians_overcome")
    t.add(e.seat, "guardian_round_sum", t.round)
    t.appends.append(("guardians", (e.seat, e.guardian, t.round)))


def _round_started(t: _Tally, e: ev.RoundStarted, state: GameState) -> None:
    t.round = e.round
    for seat in range(state.n_players):
        t.add(seat, "rounds_played")


def _ended(t: _Tally, e: ev.GameEnded, state: GameState) -> None:
    totals = {score.seat: score.total for score in e.outcome.scores}
    for score in e.outcome.scores:
        for part in SCORE_PARTS:
            t.set(score.seat, f"score_{part}", getattr(score, part))
    if state.rival is not None:
        rival = state.rival.seat
        for seat in totals:
            if seat != rival:
                t.set(seat, "solo_margin", totals[seat] - totals[rival])


def _rival_idols(t: _Tally, e: ev.RivalIdolsTaken, state: GameState) -> None:
    assert state.rival is not None
    t.add(state.rival.seat, "idols_taken", len(e.face_up) + len(e.negative))


def _count(column: str, n: Callable[[Any], int] = lambda e: 1) -> Handler:
    def handler(t: _Tally, e: Any, state: GameState) -> None:
        t.add(e.seat, column, n(e))

    return handler


HANDLERS: dict[type[Any], Handler] = {
    ev.MainActionTaken: _main,
    ev.RivalTileRevealed: _rival_tile,
    ev.Passed: _count("passes"),
    ev.CardPlayed: _count("cards_played"),
    ev.ResearchMoved: _research,
    ev.TempleReached: _temple,
    ev.TempleTileBought: _count("temple_tiles"),
    ev.CardBought: _bought,
    ev.FearGained: _count("fear_taken"),
    ev.CardExiled: _exiled,
    ev.IdolsTaken: _count("idols_taken", lambda e: len(e.idols)),
    ev.RivalIdolsTaken: _rival_idols,
    ev.IdolPlaced: _count("idols_placed"),
    ev.GuardianOvercome: _overcome,
    ev.BoonUsed: _count("boons_used"),
    ev.AssistantTaken: _count("assistants_taken"),
    ev.AssistantRescued: _count("assistants_taken"),
    ev.AssistantUpgraded: _count("assistants_upgraded"),
    ev.AssistantUsed: _count("assistants_used"),
    ev.RoundStarted: _round_started,
    ev.GameEnded: _ended,
}


def tally(state: GameState, events: Iterable[ev.Event]) -> _Tally:
    """The facts of ``events`` played from ``state`` (whose round they start in). ``state`` answers only what
    stays the same through a game: its number of seats and which one is the rival."""
    t = _Tally(state.round)
    handlers = HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(t, event, state)
    return t


@dataclass(frozen=True, slots=True)
class MoveFacts:
    seat: int
    kind: str
    round: int
    summary: str
    _rows: tuple[FactRow, ...]

    def rows(self) -> Iterable[FactRow]:
        return self._rows


def summary(before: GameState, action: Mapping[str, Any]) -> str:
    """A few words for the move list, from the action, as any seat may read them: a choice names no card (it may
    be one of a hand, or one only its seat has seen), only the decision."""
    kind = action.get("type")
    side = before.side
    if kind in ("dig", "discover"):
        return f"{kind} at {names.space_label(str(action.get('space')), side)}"
    if kind == "overcome":
        return f"overcome the guardian at {names.location_label(str(action.get('site')), side)}"
    if kind in ("buy", "play"):
        return f"{kind} {names.card_name(int(action['card']))}"
    if kind == "research":
        token = "magnifying glass" if action.get("token") == "glass" else "notebook"
        return f"research: the {token} to {names.research_label(str(action.get('to')))}"
    if kind == "temple_tile":
        vp, _ = names.temple_stack(int(action["stack"]))
        return f"buy a {vp}-point temple tile"
    if kind == "use_assistant":
        return f"use {names.assistant_label(int(action['assistant']))}"
    if kind == "use_boon":
        return f"use a guardian's boon: {names.guardian_parts(int(action['guardian']))[1]}"
    if kind == "place_idol":
        return f"place an idol: {names.option_label(str(action.get('option')), side)}"
    if kind == "choose":
        pending = before.pending
        what = pending.kind if pending is not None else ""
        decision = names.DECISIONS.get(what, what.replace("_", " ") or "a choice")
        option = str(action.get("option"))
        if option.startswith(("hand:", "card:")) or what in HIDDEN_CHOICES:
            return f"decide {decision}"
        return f"decide {decision}: {names.option_label(option, side, what)}"
    return {"pass": "pass", "end_turn": "end the turn"}.get(str(kind), str(kind))


@dataclass(frozen=True)
class ArnakAnalytics:
    tables: Sequence[FactTable] = TABLES
    metrics: Sequence[Metric] = METRICS
    breakdowns: Sequence[Breakdown] = BREAKDOWNS
    dimensions: Sequence[Dimension] = DIMENSIONS

    def opening_rows(self, state: GameState) -> Iterable[FactRow]:
        """What each seat is (the rival's seat, a solo game's difficulty, the board side) and the opening's own
        facts: round 1 started, and in a solo game the rival's first turn, which the opening plays. The opening
        events are the engine's again (``start`` is deterministic in the players, options and seed)."""
        options = dict(state.options)
        humans = [name for seat, name in enumerate(state.players) if not state.is_rival(seat)]
        solo = int(state.rival is not None)
        kept = {
            seat: (
                int(state.is_rival(seat)),
                solo,
                int(options.get("difficulty", 0)) if solo else None,
                state.side,
            )
            for seat in range(state.n_players)
        }
        opening = start(humans, options, state.seed)
        return tuple(tally(state, opening).rows(kept))

    def move_facts(self, before: GameState, action: Mapping[str, Any], events: Sequence[ev.Event]) -> MoveFacts:
        kind = str(action.get("type"))
        t = tally(before, events)
        return MoveFacts(
            int(action["seat"]), KINDS.get(kind, kind), before.round, summary(before, action), tuple(t.rows())
        )


ANALYTICS = ArnakAnalytics()
