"""``evolve(state, event) -> state``: apply one fact. Never raises on a recorded event, never draws randomness.

One handler per event kind (eventsourcing's aggregate6 style). The handlers only record what the event
says; every decision (whose turn, who leads, what was drawn) was taken by ``decide`` and written down.

A handler writes the changes into a draft (``domain.ruins.draft``): a private, typed copy of the state's
fields, which becomes the new state once every handler has run. ``evolve`` drafts from one state for one
event; ``replay`` drafts once for a whole run of events. The states handed out are never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.ruins import events as ev
from domain.ruins.caches import profile, ruin, without
from domain.ruins.draft import Draft, draft, finish
from domain.ruins.profiles import twins, with_profile
from domain.ruins.state import NOBODY, GameState, Outcome, Ruin, new_top
from domain.ruins.versions import VERSIONS


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _set_ruin(d: Draft, card: int, ruin: Ruin) -> None:
    """``card`` turned or took a sleeve: its profile, and whether it counts as two, follow it."""
    d["ruins"] = _put(d["ruins"], card, ruin)
    prof = profile(d["book"], card, ruin)
    d["profiles"] = _put(d["profiles"], card, prof)
    d["twins"] = with_profile(d["twins"], card, prof)


Handler = Callable[[Draft, Any], None]
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
        first = events[0]
        if type(first) is not ev.GameStarted:
            raise ValueError(f"a game starts with GameStarted, not {type(first).__name__}")
        state, events = _started(first), events[1:]
        if not events:
            return state
    d: Draft = state.__dict__.copy()  # type: ignore[assignment]  # (``draft(state)``, inlined: once a move)
    try:
        for event in events:
            _HANDLERS[type(event)](d, event)
    except KeyError:
        if type(event) not in _HANDLERS:
            raise TypeError(f"not a Ruins event: {event!r}") from None
        raise
    return finish(d)  # (the one state built)


def _started(event: ev.GameStarted) -> GameState:
    """A new game, under the rules version it names."""
    book = VERSIONS.book(event.rules_version)
    n = len(event.players)
    ruins = tuple(ruin(night, tuple(sleeves), claim) for night, sleeves, claim in event.ruins)
    profiles = tuple(profile(book, card, each) for card, each in enumerate(ruins))
    return GameState(
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
        book=book,
    )


@_handles(ev.GameStarted)
def _(d: Draft, event: ev.GameStarted) -> None:
    """Whatever came before is gone."""
    d.update(draft(_started(event)))


@_handles(ev.RoundDealt)
def _(d: Draft, event: ev.RoundDealt) -> None:
    held = {c for hand in event.hands for c in hand} | set(event.draw_pile) | set(d["set_aside"])
    d["round"] = event.round
    d["showdown"] = event.showdown
    d["participants"] = event.participants
    d["round_start_vp"] = d["vp"]
    d["hands"] = event.hands
    d["draw_pile"] = event.draw_pile
    # Ruins neither dealt nor in the draw pile sit out this round (only in an explicit setup).
    d["discard"] = tuple(sorted(set(range(len(d["ruins"]))) - held))
    d["pile"] = ()
    d["top"] = None
    d["responded"] = NOBODY
    d["phase"] = "flip"
    d["leader"] = event.leader
    d["turn"] = None
    d["flip_choices"] = ()
    d["discarder"] = None
    d["discard_count"] = 0
    d["finish_order"] = ()
    d["torches"] = (d["book"].torches,) * len(d["players"])


@_handles(ev.NightFlipChosen)
def _(d: Draft, event: ev.NightFlipChosen) -> None:
    d["flip_choices"] = (*d["flip_choices"], (event.seat, event.ruin))


@_handles(ev.NightFlipsRevealed)
def _(d: Draft, event: ev.NightFlipsRevealed) -> None:
    for card in event.flips:
        if card is not None:
            turned = d["ruins"][card]
            _set_ruin(d, card, ruin(True, turned.sleeves, turned.claim))
    d["phase"] = "play"
    d["turn"] = d["leader"]
    d["flip_choices"] = ()


@_handles(ev.DiscoveryBought)
def _(d: Draft, event: ev.DiscoveryBought) -> None:
    card, seat = event.ruin, event.seat
    ruin = d["ruins"][card].with_sleeve(d["book"].position_index(event.discovery), event.discovery)
    torches = d["torches"]
    d["torches"] = _put(torches, seat, torches[seat] - event.price)
    _set_ruin(d, card, ruin)
    d["market"] = event.market
    if event.drawn is not None:
        d["discovery_deck"] = d["discovery_deck"][1:]


@_handles(ev.ClaimSleeved)
def _(d: Draft, event: ev.ClaimSleeved) -> None:
    card, seat = event.ruin, event.seat
    claimed = d["ruins"][card]
    d["ruins"] = _put(d["ruins"], card, ruin(claimed.night, claimed.sleeves, seat))
    d["claims_left"] = _put(d["claims_left"], seat, d["claims_left"][seat] - 1)


@_handles(ev.RuinsPlayed)
def _(d: Draft, event: ev.RuinsPlayed) -> None:
    seat, gone = event.seat, event.ruins
    hands = list(d["hands"])
    hands[seat] = without(hands[seat], gone)
    d["hands"] = tuple(hands)
    d["pile"] = d["pile"] + gone
    d["top"] = new_top(seat, event.rank, event.count)
    d["responded"] = NOBODY


@_handles(ev.TorchesRelit)
def _(d: Draft, event: ev.TorchesRelit) -> None:
    torches = d["torches"]
    d["torches"] = _put(torches, event.seat, torches[event.seat] + event.amount)


@_handles(ev.RuinsDrawn)
def _(d: Draft, event: ev.RuinsDrawn) -> None:
    hands = d["hands"]
    d["draw_pile"] = d["draw_pile"][len(event.ruins) :]
    d["hands"] = _put(hands, event.seat, tuple(sorted(hands[event.seat] + event.ruins)))


@_handles(ev.DiscardRequired)
def _(d: Draft, event: ev.DiscardRequired) -> None:
    d["phase"] = "discard"
    d["discarder"] = event.seat
    d["discard_count"] = event.count


@_handles(ev.RuinsDiscarded)
def _(d: Draft, event: ev.RuinsDiscarded) -> None:
    hands = d["hands"]
    d["hands"] = _put(hands, event.seat, without(hands[event.seat], event.ruins))
    d["discard"] = d["discard"] + event.ruins
    d["phase"] = "play"
    d["discarder"] = None
    d["discard_count"] = 0


@_handles(ev.Passed)
def _(d: Draft, event: ev.Passed) -> None:
    d["responded"] = d["responded"] | {event.seat}


@_handles(ev.PlayerSkipped)
def _(d: Draft, event: ev.PlayerSkipped) -> None:
    d["responded"] = d["responded"] | {event.seat}


@_handles(ev.WentOut)
def _(d: Draft, event: ev.WentOut) -> None:
    d["vp"] = _put(d["vp"], event.seat, event.vp)
    d["finish_order"] = (*d["finish_order"], event.seat)


@_handles(ev.NextTurn)
def _(d: Draft, event: ev.NextTurn) -> None:
    d["turn"] = event.seat


@_handles(ev.PileCleared)
def _(d: Draft, event: ev.PileCleared) -> None:
    d["discard"] = d["discard"] + d["pile"]
    d["pile"] = ()
    d["top"] = None
    d["responded"] = NOBODY
    d["turn"] = event.leader


@_handles(ev.RoundEnded)
def _(d: Draft, event: ev.RoundEnded) -> None:
    d["vp"] = event.vp
    d["last_round_order"] = event.order
    d["turn"] = None
    d["phase"] = "between"


@_handles(ev.GameWon)
def _(d: Draft, event: ev.GameWon) -> None:
    d["outcome"] = Outcome(event.seat, event.how, event.round)
    d["phase"] = "over"
    d["turn"] = None
