"""``evolve(state, event) -> state``: apply one fact. Never raises on a recorded event, never draws randomness.

One handler per event kind (eventsourcing's aggregate6 style). The handlers only record what the event
says; every decision (whose turn, who leads, what was drawn) was taken by ``decide`` and written down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from domain.ruins import events as ev
from domain.ruins.cards import rulebook
from domain.ruins.rules import profile
from domain.ruins.state import GameState, Outcome, Ruin, Top, updated


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _without(hand: tuple[int, ...], gone: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c for c in hand if c not in gone)


Handler = Callable[[Any, Any], GameState]
_HANDLERS: dict[type[Any], Handler] = {}


def _handles(kind: type[Any]) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _HANDLERS[kind] = handler
        return handler

    return register


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """The state after ``event``. ``state`` is None only before ``GameStarted``."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not a Ruins event: {event!r}")
    return handler(state, event)


@_handles(ev.GameStarted)
def _(state: None, event: ev.GameStarted) -> GameState:
    book = rulebook()
    n = len(event.players)
    ruins = tuple(Ruin(night, tuple(sleeves), claim) for night, sleeves, claim in event.ruins)
    return GameState(
        players=event.players,
        options=event.options,
        seed=event.seed,
        set_aside=event.set_aside,
        ruins=ruins,
        profiles=tuple(profile(card, ruin) for card, ruin in enumerate(ruins)),
        vp=event.vp,
        claims_left=event.claims_left,
        torches=(book.torches,) * n,
        market=event.market,
        discovery_deck=event.discovery_deck,
    )


@_handles(ev.RoundDealt)
def _(state: GameState, event: ev.RoundDealt) -> GameState:
    held = {c for hand in event.hands for c in hand} | set(event.draw_pile) | set(state.set_aside)
    return updated(
        state,
        round=event.round,
        showdown=event.showdown,
        participants=event.participants,
        round_start_vp=state.vp,
        hands=event.hands,
        draw_pile=event.draw_pile,
        # Ruins neither dealt nor in the draw pile sit out this round (only in an explicit setup).
        discard=tuple(c for c in range(len(state.ruins)) if c not in held),
        pile=(),
        top=None,
        responded=frozenset(),
        phase="flip",
        leader=event.leader,
        turn=None,
        flip_choices=(),
        discarder=None,
        discard_count=0,
        finish_order=(),
        torches=(rulebook().torches,) * state.n_players,
    )


@_handles(ev.NightFlipChosen)
def _(state: GameState, event: ev.NightFlipChosen) -> GameState:
    return updated(state, flip_choices=(*state.flip_choices, (event.seat, event.ruin)))


@_handles(ev.NightFlipsRevealed)
def _(state: GameState, event: ev.NightFlipsRevealed) -> GameState:
    ruins, profiles = state.ruins, state.profiles
    for card in event.flips:
        if card is not None:
            ruins = _put(ruins, card, replace(ruins[card], night=True))
            profiles = _put(profiles, card, profile(card, ruins[card]))
    return updated(state, ruins=ruins, profiles=profiles, phase="play", turn=state.leader, flip_choices=())


@_handles(ev.DiscoveryBought)
def _(state: GameState, event: ev.DiscoveryBought) -> GameState:
    ruin = state.ruins[event.ruin].with_sleeve(rulebook().position_index(event.discovery), event.discovery)
    return updated(
        state,
        torches=_put(state.torches, event.seat, state.torches[event.seat] - event.price),
        ruins=_put(state.ruins, event.ruin, ruin),
        profiles=_put(state.profiles, event.ruin, profile(event.ruin, ruin)),
        market=event.market,
        discovery_deck=state.discovery_deck[1:] if event.drawn is not None else state.discovery_deck,
    )


@_handles(ev.ClaimSleeved)
def _(state: GameState, event: ev.ClaimSleeved) -> GameState:
    return updated(
        state,
        ruins=_put(state.ruins, event.ruin, replace(state.ruins[event.ruin], claim=event.seat)),
        claims_left=_put(state.claims_left, event.seat, state.claims_left[event.seat] - 1),
    )


@_handles(ev.RuinsPlayed)
def _(state: GameState, event: ev.RuinsPlayed) -> GameState:
    return updated(
        state,
        hands=_put(state.hands, event.seat, _without(state.hands[event.seat], event.ruins)),
        pile=state.pile + event.ruins,
        top=Top(event.seat, event.rank, event.count),
        responded=frozenset(),
    )


@_handles(ev.TorchesRelit)
def _(state: GameState, event: ev.TorchesRelit) -> GameState:
    return updated(state, torches=_put(state.torches, event.seat, state.torches[event.seat] + event.amount))


@_handles(ev.RuinsDrawn)
def _(state: GameState, event: ev.RuinsDrawn) -> GameState:
    hand = tuple(sorted(state.hands[event.seat] + event.ruins))
    return updated(
        state,
        draw_pile=state.draw_pile[len(event.ruins) :],
        hands=_put(state.hands, event.seat, hand),
    )


@_handles(ev.DiscardRequired)
def _(state: GameState, event: ev.DiscardRequired) -> GameState:
    return updated(state, phase="discard", discarder=event.seat, discard_count=event.count)


@_handles(ev.RuinsDiscarded)
def _(state: GameState, event: ev.RuinsDiscarded) -> GameState:
    return updated(
        state,
        hands=_put(state.hands, event.seat, _without(state.hands[event.seat], event.ruins)),
        discard=state.discard + event.ruins,
        phase="play",
        discarder=None,
        discard_count=0,
    )


@_handles(ev.Passed)
def _(state: GameState, event: ev.Passed) -> GameState:
    return updated(state, responded=state.responded | {event.seat})


@_handles(ev.PlayerSkipped)
def _(state: GameState, event: ev.PlayerSkipped) -> GameState:
    return updated(state, responded=state.responded | {event.seat})


@_handles(ev.WentOut)
def _(state: GameState, event: ev.WentOut) -> GameState:
    return updated(state, vp=_put(state.vp, event.seat, event.vp), finish_order=(*state.finish_order, event.seat))


@_handles(ev.NextTurn)
def _(state: GameState, event: ev.NextTurn) -> GameState:
    return updated(state, turn=event.seat)


@_handles(ev.PileCleared)
def _(state: GameState, event: ev.PileCleared) -> GameState:
    return updated(
        state, discard=state.discard + state.pile, pile=(), top=None, responded=frozenset(), turn=event.leader
    )


@_handles(ev.RoundEnded)
def _(state: GameState, event: ev.RoundEnded) -> GameState:
    return updated(state, vp=event.vp, last_round_order=event.order, turn=None, phase="between")


@_handles(ev.GameWon)
def _(state: GameState, event: ev.GameWon) -> GameState:
    return updated(state, outcome=Outcome(event.seat, event.how, event.round), phase="over", turn=None)


def replay(events: list[ev.Event] | tuple[ev.Event, ...], state: GameState | None = None) -> GameState:
    """Fold ``evolve`` over events (from a fresh game, or on top of ``state``)."""
    current: Any = state
    for event in events:
        current = evolve(current, event)
    if current is None:
        raise ValueError("no events to replay")
    result: GameState = current
    return result
