"""``evolve(state, event) -> state``: apply one fact. Never raises on a recorded event, never draws randomness.

One handler per event kind (eventsourcing's aggregate6 style). The handlers only record what the event
says; every decision (whose turn, who leads, what was drawn) was taken by ``decide`` and written down.

A handler writes the changes into a draft: a private copy of the state's fields (its instance dict),
which becomes the new state's once every handler has run. ``evolve`` drafts from one state for one event;
``replay`` drafts once for a whole run of events (a move's two or three, or a stored game's hundreds), so
the intermediate states nobody looks at are never built. The states handed out are never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.ruins import events as ev
from domain.ruins.cards import rulebook
from domain.ruins.profiles import profile, twins, with_profile
from domain.ruins.state import NOBODY, GameState, Outcome, Ruin, from_fields, new_ruin, new_top, without

Fields = dict[str, Any]  # a draft: every field of a GameState, by name


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _set_ruin(d: Fields, card: int, ruin: Ruin) -> None:
    """``card`` turned or took a sleeve: its profile, and whether it counts as two, follow it."""
    d["ruins"] = _put(d["ruins"], card, ruin)
    prof = profile(card, ruin)
    d["profiles"] = _put(d["profiles"], card, prof)
    d["twins"] = with_profile(d["twins"], card, prof)


Handler = Callable[[Fields, Any], None]
_HANDLERS: dict[type[Any], Handler] = {}


def _handles(kind: type[Any]) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _HANDLERS[kind] = handler
        return handler

    return register


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """The state after ``event``. ``state`` is None only before ``GameStarted``."""
    return replay((event,), state)


def replay(events: Sequence[ev.Event], state: GameState | None = None) -> GameState:
    """Fold ``evolve`` over events (from a fresh game, or on top of ``state``)."""
    if not events:
        if state is None:
            raise ValueError("no events to replay")
        return state
    if state is None:
        if type(events[0]) is not ev.GameStarted:
            raise ValueError(f"a game starts with GameStarted, not {type(events[0]).__name__}")
        draft: Fields = {}  # GameStarted fills it
    else:
        draft = state.__dict__.copy()
    try:
        for event in events:
            _HANDLERS[type(event)](draft, event)
    except KeyError:
        if type(event) not in _HANDLERS:
            raise TypeError(f"not a Ruins event: {event!r}") from None
        raise
    return from_fields(draft)  # (the one state built)


@_handles(ev.GameStarted)
def _(d: Fields, event: ev.GameStarted) -> None:
    """A new game: whatever came before is gone."""
    book = rulebook()
    n = len(event.players)
    ruins = tuple(new_ruin(night, tuple(sleeves), claim) for night, sleeves, claim in event.ruins)
    profiles = tuple(profile(card, ruin) for card, ruin in enumerate(ruins))
    state = GameState(
        players=event.players,
        options=event.options,
        seed=event.seed,
        set_aside=event.set_aside,
        ruins=ruins,
        profiles=profiles,
        twins=twins(profiles),
        vp=event.vp,
        claims_left=event.claims_left,
        torches=(book.torches,) * n,
        market=event.market,
        discovery_deck=event.discovery_deck,
    )
    d.clear()
    d.update(state.__dict__)


@_handles(ev.RoundDealt)
def _(d: Fields, event: ev.RoundDealt) -> None:
    held = {c for hand in event.hands for c in hand} | set(event.draw_pile) | set(d["set_aside"])
    d.update(
        round=event.round,
        showdown=event.showdown,
        participants=event.participants,
        round_start_vp=d["vp"],
        hands=event.hands,
        draw_pile=event.draw_pile,
        # Ruins neither dealt nor in the draw pile sit out this round (only in an explicit setup).
        discard=tuple(sorted(set(range(len(d["ruins"]))) - held)),
        pile=(),
        top=None,
        responded=NOBODY,
        phase="flip",
        leader=event.leader,
        turn=None,
        flip_choices=(),
        discarder=None,
        discard_count=0,
        finish_order=(),
        torches=(rulebook().torches,) * len(d["players"]),
    )


@_handles(ev.NightFlipChosen)
def _(d: Fields, event: ev.NightFlipChosen) -> None:
    d["flip_choices"] = (*d["flip_choices"], (event.seat, event.ruin))


@_handles(ev.NightFlipsRevealed)
def _(d: Fields, event: ev.NightFlipsRevealed) -> None:
    for card in event.flips:
        if card is not None:
            ruin = d["ruins"][card]
            _set_ruin(d, card, new_ruin(True, ruin.sleeves, ruin.claim))
    d.update(phase="play", turn=d["leader"], flip_choices=())


@_handles(ev.DiscoveryBought)
def _(d: Fields, event: ev.DiscoveryBought) -> None:
    card, seat = event.ruin, event.seat
    ruin = d["ruins"][card].with_sleeve(rulebook().position_index(event.discovery), event.discovery)
    torches = d["torches"]
    d["torches"] = _put(torches, seat, torches[seat] - event.price)
    _set_ruin(d, card, ruin)
    d["market"] = event.market
    if event.drawn is not None:
        d["discovery_deck"] = d["discovery_deck"][1:]


@_handles(ev.ClaimSleeved)
def _(d: Fields, event: ev.ClaimSleeved) -> None:
    card, seat = event.ruin, event.seat
    ruin = d["ruins"][card]
    d["ruins"] = _put(d["ruins"], card, new_ruin(ruin.night, ruin.sleeves, seat))
    d["claims_left"] = _put(d["claims_left"], seat, d["claims_left"][seat] - 1)


@_handles(ev.RuinsPlayed)
def _(d: Fields, event: ev.RuinsPlayed) -> None:
    seat, gone = event.seat, event.ruins
    hands = list(d["hands"])
    hands[seat] = without(hands[seat], gone)
    d["hands"] = tuple(hands)
    d["pile"] = d["pile"] + gone
    d["top"] = new_top(seat, event.rank, event.count)
    d["responded"] = NOBODY


@_handles(ev.TorchesRelit)
def _(d: Fields, event: ev.TorchesRelit) -> None:
    torches = d["torches"]
    d["torches"] = _put(torches, event.seat, torches[event.seat] + event.amount)


@_handles(ev.RuinsDrawn)
def _(d: Fields, event: ev.RuinsDrawn) -> None:
    hands = d["hands"]
    d["draw_pile"] = d["draw_pile"][len(event.ruins) :]
    d["hands"] = _put(hands, event.seat, tuple(sorted(hands[event.seat] + event.ruins)))


@_handles(ev.DiscardRequired)
def _(d: Fields, event: ev.DiscardRequired) -> None:
    d.update(phase="discard", discarder=event.seat, discard_count=event.count)


@_handles(ev.RuinsDiscarded)
def _(d: Fields, event: ev.RuinsDiscarded) -> None:
    hands = d["hands"]
    d.update(
        hands=_put(hands, event.seat, without(hands[event.seat], event.ruins)),
        discard=d["discard"] + event.ruins,
        phase="play",
        discarder=None,
        discard_count=0,
    )


@_handles(ev.Passed)
def _(d: Fields, event: ev.Passed) -> None:
    d["responded"] = d["responded"] | {event.seat}


@_handles(ev.PlayerSkipped)
def _(d: Fields, event: ev.PlayerSkipped) -> None:
    d["responded"] = d["responded"] | {event.seat}


@_handles(ev.WentOut)
def _(d: Fields, event: ev.WentOut) -> None:
    d["vp"] = _put(d["vp"], event.seat, event.vp)
    d["finish_order"] = (*d["finish_order"], event.seat)


@_handles(ev.NextTurn)
def _(d: Fields, event: ev.NextTurn) -> None:
    d["turn"] = event.seat


@_handles(ev.PileCleared)
def _(d: Fields, event: ev.PileCleared) -> None:
    d["discard"] = d["discard"] + d["pile"]
    d["pile"] = ()
    d["top"] = None
    d["responded"] = NOBODY
    d["turn"] = event.leader


@_handles(ev.RoundEnded)
def _(d: Fields, event: ev.RoundEnded) -> None:
    d.update(vp=event.vp, last_round_order=event.order, turn=None, phase="between")


@_handles(ev.GameWon)
def _(d: Fields, event: ev.GameWon) -> None:
    d.update(outcome=Outcome(event.seat, event.how, event.round), phase="over", turn=None)
