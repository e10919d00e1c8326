"""``evolve(state, event) -> state``: apply one fact. Never draws randomness, never judges a rule.

One handler per event kind; each records what its event says (every choice, draw and shuffle was made
by ``decide`` and written into the event).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from domain.arnak import events as ev
from domain.arnak.components import book
from domain.arnak.state import GameState, HeldAssistant, changed

T = TypeVar("T")
Handler = Callable[[GameState, Any], GameState]
_HANDLERS: dict[type[Any], Handler] = {}


def _handles(kind: type[Any]) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _HANDLERS[kind] = handler
        return handler

    return register


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """The state after ``event``. ``state`` is None only before ``GameStarted``."""
    if state is None:
        if not isinstance(event, ev.GameStarted):
            raise ValueError(f"a game starts with GameStarted, not {type(event).__name__}")
        return _started(event)
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not an Arnak event: {event!r}")
    return handler(state, event)


def replay(events: Sequence[ev.Event], state: GameState | None = None) -> GameState:
    """Fold ``evolve`` over events (from a fresh game, or on top of ``state``)."""
    if not events and state is None:
        raise ValueError("no events to replay")
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def _without(cards: tuple[T, ...], gone: Sequence[T]) -> tuple[T, ...]:
    out = list(cards)
    for card in gone:
        out.remove(card)
    return tuple(out)


def _player(state: GameState, seat: int, **changes: Any) -> GameState:
    return state.with_seat(seat, changed(state.seats[seat], **changes))


def _started(event: ev.GameStarted) -> GameState:
    return GameState(
        rules_version=event.rules_version,
        players=event.players,
        options=event.options,
        seed=event.seed,
        side=event.side,
        seats=event.seats,
        sites=event.sites,
        occupants=(),
        blocked=event.blocked,
        site_stacks=event.site_stacks,
        guardian_stack=event.guardian_stack,
        artifact_row=event.artifact_row,
        item_row=event.item_row,
        artifact_deck=event.artifact_deck,
        item_deck=event.item_deck,
        fear_deck=event.fear_deck,
        research_bonus=event.research_bonus,
        temple_bonus=event.temple_bonus,
        temple_stacks=event.temple_stacks,
        assistant_stacks=event.assistant_stacks,
        rescue=event.rescue,
        rival=event.rival,
    )


@_handles(ev.GameStarted)
def _(state: GameState, event: ev.GameStarted) -> GameState:
    return _started(event)


@_handles(ev.RoundStarted)
def _(state: GameState, event: ev.RoundStarted) -> GameState:
    return changed(
        state,
        round=event.round,
        first_player=event.first_player,
        turn=event.first_player,
        main_done=False,
        phase="play",
        keep_queue=(),
    )


@_handles(ev.CardsDrawn)
def _(state: GameState, event: ev.CardsDrawn) -> GameState:
    p = state.seats[event.seat]
    n = len(event.cards)
    deck = p.deck[: len(p.deck) - n] if event.bottom else p.deck[n:]
    return _player(state, event.seat, hand=(*p.hand, *event.cards), deck=deck)


@_handles(ev.ResourcesChanged)
def _(state: GameState, event: ev.ResourcesChanged) -> GameState:
    r = state.seats[event.seat].resources
    a, b, c, d, e = (have + change for have, change in zip(r, event.delta, strict=True))
    return _player(state, event.seat, resources=(a, b, c, d, e))


@_handles(ev.CardsToPlayArea)
def _(state: GameState, event: ev.CardsToPlayArea) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, hand=_without(p.hand, event.cards), play_area=(*p.play_area, *event.cards))


@_handles(ev.TravelChanged)
def _(state: GameState, event: ev.TravelChanged) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, travel=(*_without(p.travel, event.spent), *event.gained))


@_handles(ev.MainActionTaken)
def _(state: GameState, event: ev.MainActionTaken) -> GameState:
    return changed(state, main_done=True)


@_handles(ev.ArchaeologistPlaced)
def _(state: GameState, event: ev.ArchaeologistPlaced) -> GameState:
    return changed(state, occupants=tuple(sorted((*state.occupants, (event.space, event.seat)))))


@_handles(ev.IdolsTaken)
def _(state: GameState, event: ev.IdolsTaken) -> GameState:
    site = state.site(event.site)
    assert site is not None
    state = state.with_site(replace(site, idols=()))
    p = state.seats[event.seat]
    return _player(state, event.seat, idols=(*p.idols, *event.idols))


@_handles(ev.SiteRevealed)
def _(state: GameState, event: ev.SiteRevealed) -> GameState:
    site = state.site(event.site)
    assert site is not None
    level = book().site_tiles[event.tile].level
    stacks = list(state.site_stacks)
    stacks[level - 1] = _without(stacks[level - 1], [event.tile])
    return changed(state.with_site(replace(site, tile=event.tile)), site_stacks=(stacks[0], stacks[1]))


@_handles(ev.GuardianAwakened)
def _(state: GameState, event: ev.GuardianAwakened) -> GameState:
    site = state.site(event.site)
    assert site is not None
    state = state.with_site(replace(site, guardian=event.guardian))
    return changed(state, guardian_stack=_without(state.guardian_stack, [event.guardian]))


def _set_guardian(state: GameState, location: str, guardian: int | None) -> GameState:
    site = state.site(location)
    if site is not None:
        return state.with_site(replace(site, guardian=guardian))
    camps = tuple(c for c in state.camp_guardians if c[0] != location)
    return changed(state, camp_guardians=camps if guardian is None else tuple(sorted((*camps, (location, guardian)))))


@_handles(ev.GuardianOvercome)
def _(state: GameState, event: ev.GuardianOvercome) -> GameState:
    state = _set_guardian(state, event.site, None)
    p = state.seats[event.seat]
    return _player(state, event.seat, guardians=(*p.guardians, event.guardian))


@_handles(ev.CardBought)
def _(state: GameState, event: ev.CardBought) -> GameState:
    card = event.card
    if card in state.artifact_row:
        state = changed(state, artifact_row=tuple(c for c in state.artifact_row if c != card))
    elif card in state.item_row:
        state = changed(state, item_row=tuple(c for c in state.item_row if c != card))
    elif card in state.item_exile:
        state = changed(state, item_exile=_without(state.item_exile, [card]))
    elif state.artifact_deck[:1] == (card,):
        state = changed(state, artifact_deck=state.artifact_deck[1:])
    elif state.item_deck[:1] == (card,):
        state = changed(state, item_deck=state.item_deck[1:])
    if event.to == "rival":
        assert state.rival is not None
        return changed(state, rival=replace(state.rival, cards=(*state.rival.cards, card)))
    p = state.seats[event.seat]
    places = {
        "deck_bottom": {"deck": (*p.deck, card)},
        "deck_top": {"deck": (card, *p.deck)},
        "hand": {"hand": (*p.hand, card)},
        "play_area": {"play_area": (*p.play_area, card)},
    }
    return _player(state, event.seat, **places[event.to])


@_handles(ev.RowRefilled)
def _(state: GameState, event: ev.RowRefilled) -> GameState:
    added = () if event.card is None else (event.card,)
    if event.kind == "artifact":
        deck = state.artifact_deck[1:] if added else state.artifact_deck
        return changed(state, artifact_row=(*state.artifact_row, *added), artifact_deck=deck)
    deck = state.item_deck[1:] if added else state.item_deck
    return changed(state, item_row=(*state.item_row, *added), item_deck=deck)


@_handles(ev.CardPlayed)
def _(state: GameState, event: ev.CardPlayed) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, hand=_without(p.hand, [event.card]), play_area=(*p.play_area, event.card))


@_handles(ev.CardExiled)
def _(state: GameState, event: ev.CardExiled) -> GameState:
    p = state.seats[event.seat]
    card = event.card
    if event.source == "hand":
        state = _player(state, event.seat, hand=_without(p.hand, [card]))
    else:
        state = _player(state, event.seat, play_area=_without(p.play_area, [card]))
    kind = book().card(card).kind
    if kind == "item":
        return changed(state, item_exile=(*state.item_exile, card))
    if kind == "artifact":
        return changed(state, artifact_exile=(*state.artifact_exile, card))
    if kind == "fear":
        return changed(state, fear_deck=(card, *state.fear_deck))  # fear cards go on top of the fear deck
    return changed(state, removed=(*state.removed, card))


@_handles(ev.FearGained)
def _(state: GameState, event: ev.FearGained) -> GameState:
    p = state.seats[event.seat]
    if event.card is None:
        return _player(state, event.seat, fear_tiles=p.fear_tiles + 1)
    state = changed(state, fear_deck=_without(state.fear_deck, [event.card]))
    return _player(state, event.seat, play_area=(*p.play_area, event.card))


@_handles(ev.ResearchMoved)
def _(state: GameState, event: ev.ResearchMoved) -> GameState:
    return _player(state, event.seat, **{event.token: event.to})


@_handles(ev.TempleReached)
def _(state: GameState, event: ev.TempleReached) -> GameState:
    return _player(state, event.seat, temple_place=event.place)


@_handles(ev.BonusTileTaken)
def _(state: GameState, event: ev.BonusTileTaken) -> GameState:
    if event.space == "temple":
        return changed(state, temple_bonus=_without(state.temple_bonus, [event.tile]))
    return changed(state, research_bonus=tuple(b for b in state.research_bonus if b != (event.space, event.tile)))


@_handles(ev.TempleTileBought)
def _(state: GameState, event: ev.TempleTileBought) -> GameState:
    stacks = list(state.temple_stacks)
    stacks[event.stack] -= 1
    p = state.seats[event.seat]
    return _player(changed(state, temple_stacks=tuple(stacks)), event.seat, temple_tiles=(*p.temple_tiles, event.stack))


@_handles(ev.AssistantTaken)
def _(state: GameState, event: ev.AssistantTaken) -> GameState:
    stacks = list(state.assistant_stacks)
    stacks[event.stack] = _without(stacks[event.stack], [event.assistant])
    p = state.seats[event.seat]
    state = changed(state, assistant_stacks=tuple(stacks))
    return _player(state, event.seat, assistants=(*p.assistants, HeldAssistant(event.assistant)))


def _assistant(state: GameState, seat: int, assistant: int, **changes: Any) -> GameState:
    p = state.seats[seat]
    held = tuple(replace(a, **changes) if a.id == assistant else a for a in p.assistants)
    return _player(state, seat, assistants=held)


@_handles(ev.AssistantUpgraded)
def _(state: GameState, event: ev.AssistantUpgraded) -> GameState:
    return _assistant(state, event.seat, event.assistant, gold=True, exhausted=False)


@_handles(ev.AssistantUsed)
def _(state: GameState, event: ev.AssistantUsed) -> GameState:
    return _assistant(state, event.seat, event.assistant, exhausted=True)


@_handles(ev.AssistantRefreshed)
def _(state: GameState, event: ev.AssistantRefreshed) -> GameState:
    return _assistant(state, event.seat, event.assistant, exhausted=False)


@_handles(ev.BoonUsed)
def _(state: GameState, event: ev.BoonUsed) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, boons_used=(*p.boons_used, event.guardian))


@_handles(ev.IdolPlaced)
def _(state: GameState, event: ev.IdolPlaced) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, idols=_without(p.idols, [event.idol]), slots=(*p.slots, event.idol))


@_handles(ev.DecisionPending)
def _(state: GameState, event: ev.DecisionPending) -> GameState:
    return changed(state, pending=event.pending)


@_handles(ev.DecisionMade)
def _(state: GameState, event: ev.DecisionMade) -> GameState:
    return changed(state, pending=None)


@_handles(ev.Passed)
def _(state: GameState, event: ev.Passed) -> GameState:
    return _player(state, event.seat, passed=True)


@_handles(ev.NextTurn)
def _(state: GameState, event: ev.NextTurn) -> GameState:
    return changed(state, turn=event.seat, main_done=False)


@_handles(ev.ArchaeologistsReturned)
def _(state: GameState, event: ev.ArchaeologistsReturned) -> GameState:
    return changed(state, occupants=(), phase="round_end", keep_queue=event.keep_queue)


@_handles(ev.KeepDone)
def _(state: GameState, event: ev.KeepDone) -> GameState:
    return changed(state, keep_queue=tuple(s for s in state.keep_queue if s != event.seat))


@_handles(ev.DeckRebuilt)
def _(state: GameState, event: ev.DeckRebuilt) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, deck=(*p.deck, *event.order), play_area=())


@_handles(ev.RowRotated)
def _(state: GameState, event: ev.RowRotated) -> GameState:
    # The cards beside the moon staff are the first of each row (rows are kept nearest the staff first).
    artifacts, items = state.artifact_row, state.item_row
    if event.artifact is not None:
        artifacts = artifacts[1:]
        state = changed(state, artifact_exile=(*state.artifact_exile, event.artifact))
    if event.item is not None:
        items = items[1:]
        state = changed(state, item_exile=(*state.item_exile, event.item))
    return changed(state, artifact_row=artifacts, item_row=items)


@_handles(ev.RoundEnded)
def _(state: GameState, event: ev.RoundEnded) -> GameState:
    seats = tuple(
        changed(
            p,
            passed=False,
            travel=(),
            discover_discount=0,
            no_guardian_fear=False,
            all_planes=False,
            assistants=tuple(replace(a, exhausted=False) for a in p.assistants),
        )
        for p in state.seats
    )
    return changed(state, seats=seats, keep_queue=())


@_handles(ev.GameEnded)
def _(state: GameState, event: ev.GameEnded) -> GameState:
    return changed(state, phase="over", outcome=event.outcome, keep_queue=())


@_handles(ev.DiscoveryDiscount)
def _(state: GameState, event: ev.DiscoveryDiscount) -> GameState:
    return _player(state, event.seat, discover_discount=event.compasses)


@_handles(ev.GuardianFearWaived)
def _(state: GameState, event: ev.GuardianFearWaived) -> GameState:
    return _player(state, event.seat, no_guardian_fear=True)


@_handles(ev.AllTravelPlanes)
def _(state: GameState, event: ev.AllTravelPlanes) -> GameState:
    return _player(state, event.seat, all_planes=True)


@_handles(ev.ArchaeologistMoved)
def _(state: GameState, event: ev.ArchaeologistMoved) -> GameState:
    rest = [o for o in state.occupants if o != (event.source, event.seat)]
    return changed(state, occupants=tuple(sorted((*rest, (event.target, event.seat)))))


@_handles(ev.ArchaeologistRecalled)
def _(state: GameState, event: ev.ArchaeologistRecalled) -> GameState:
    return changed(state, occupants=tuple(o for o in state.occupants if o != (event.space, event.seat)))


@_handles(ev.SiteTileUsed)
def _(state: GameState, event: ev.SiteTileUsed) -> GameState:
    stacks = list(state.site_stacks)
    stacks[event.level - 1] = (*_without(stacks[event.level - 1], [event.tile]), event.tile)
    return changed(state, site_stacks=(stacks[0], stacks[1]))


@_handles(ev.AssistantSwapped)
def _(state: GameState, event: ev.AssistantSwapped) -> GameState:
    p = state.seats[event.seat]
    held = tuple(replace(a, id=event.theirs) if a.id == event.mine else a for a in p.assistants)
    stacks = list(state.assistant_stacks)
    stacks[event.stack] = (event.mine, *_without(stacks[event.stack], [event.theirs]))
    return _player(changed(state, assistant_stacks=tuple(stacks)), event.seat, assistants=held)


@_handles(ev.IdolUnslotted)
def _(state: GameState, event: ev.IdolUnslotted) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, slots=_without(p.slots, [event.idol]), idols=(*p.idols, event.idol))


@_handles(ev.RowItemExiled)
def _(state: GameState, event: ev.RowItemExiled) -> GameState:
    return changed(state, item_row=_without(state.item_row, [event.card]), item_exile=(*state.item_exile, event.card))


@_handles(ev.GuardianMoved)
def _(state: GameState, event: ev.GuardianMoved) -> GameState:
    return _set_guardian(_set_guardian(state, event.source, None), event.target, event.guardian)


@_handles(ev.CardReturnedToDeck)
def _(state: GameState, event: ev.CardReturnedToDeck) -> GameState:
    p = state.seats[event.seat]
    return _player(state, event.seat, hand=_without(p.hand, [event.card]), deck=(event.card, *p.deck))


@_handles(ev.DeckTopRevealed)
def _(state: GameState, event: ev.DeckTopRevealed) -> GameState:
    return state  # shown, not moved: the card stays on top of its deck


@_handles(ev.IdolDiscarded)
def _(state: GameState, event: ev.IdolDiscarded) -> GameState:
    return _player(state, event.seat, idols=_without(state.seats[event.seat].idols, [event.idol]))


@_handles(ev.AssistantRescued)
def _(state: GameState, event: ev.AssistantRescued) -> GameState:
    p = state.seats[event.seat]
    state = changed(state, rescue=_without(state.rescue, [event.assistant]))
    return _player(state, event.seat, assistants=(*p.assistants, HeldAssistant(event.assistant, exhausted=True)))


@_handles(ev.RivalStackShuffled)
def _(state: GameState, event: ev.RivalStackShuffled) -> GameState:
    assert state.rival is not None
    return changed(state, rival=replace(state.rival, stack=event.order, played=()))


@_handles(ev.RivalTileRevealed)
def _(state: GameState, event: ev.RivalTileRevealed) -> GameState:
    rival = state.rival
    assert rival is not None
    return changed(
        state, rival=replace(rival, stack=_without(rival.stack, [event.tile]), played=(*rival.played, event.tile))
    )


@_handles(ev.RivalIdolsTaken)
def _(state: GameState, event: ev.RivalIdolsTaken) -> GameState:
    rival = state.rival
    site = state.site(event.site)
    assert rival is not None and site is not None
    state = state.with_site(replace(site, idols=()))
    rival = replace(
        rival,
        face_up_idols=(*rival.face_up_idols, *event.face_up),
        negative_idols=(*rival.negative_idols, *event.negative),
    )
    return changed(state, rival=rival)


@_handles(ev.AssistantRemoved)
def _(state: GameState, event: ev.AssistantRemoved) -> GameState:
    state = changed(state, assistants_out=(*state.assistants_out, event.assistant))
    if event.stack < 0:
        return changed(state, rescue=_without(state.rescue, [event.assistant]))
    stacks = list(state.assistant_stacks)
    stacks[event.stack] = _without(stacks[event.stack], [event.assistant])
    return changed(state, assistant_stacks=tuple(stacks))
