"""``decide(state, action) -> events``: judge an action against the rules and say what happens.

Raises a ``RuleViolation`` (or ``NotYourTurn`` / ``GameOver``) whose message names the rule broken; a
refused action returns nothing and, the state being immutable, changes nothing.

The events of an action are worked out in order on a ``Turn`` (each applied as it is emitted), so a
later step sees what an earlier one did: a card drawn by an effect can be exiled by the next step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.arnak import events as ev
from domain.arnak.actions import (
    Action,
    Buy,
    Choose,
    Dig,
    Discover,
    EndTurn,
    Overcome,
    Pass,
    Payment,
    PlaceIdol,
    Play,
    Research,
    TempleTile,
    UseAssistant,
    UseBoon,
)
from domain.arnak.components import RESOURCES, Resources, book, negative, resources_of, steps_of
from domain.arnak.effects import (
    Turn,
    advance,
    bridge_payable,
    buy_card,
    can_pay,
    cannot_start,
    gain_fear,
    pay_bridge,
    resolve,
    run,
    run_text,
    supported,
)
from domain.arnak.rival import rival_turn
from domain.arnak.rounds import rival_order, round_start, shuffled
from domain.arnak.scoring import outcome_of
from domain.arnak.state import GameState, Pending
from domain.arnak.travel import pays, travel_icons
from domain.errors import GameOver, NotYourTurn, RuleViolation

MAIN = (Dig, Discover, Overcome, Buy, Research, TempleTile, Pass)


def decide(state: GameState, action: Action) -> list[ev.Event]:
    return step(state, action)[0]


def step(state: GameState, action: Action) -> tuple[list[ev.Event], GameState]:
    """``decide``, and the state its events lead to (which decide works out anyway, applying each event as it is
    emitted): the game loop uses it rather than evolve every event a second time.

    SPEED: a four-player random game spent a third of its time in evolve, half of it re-applying the events decide
    had just applied; with step, 28 to 33 games per CPU second (simulate.play_game)."""
    if state.outcome is not None:
        raise GameOver("the game is over: five rounds have been played and scored")
    if not isinstance(action.seat, int) or not 0 <= action.seat < state.n_players:
        raise RuleViolation(f"there is no {{seat}} in a {state.n_players}-player game", seat=action.seat)
    if state.is_rival(action.seat):
        raise NotYourTurn("the rival's turns are taken by its action tiles, never by a player")
    t = Turn(state)
    if state.pending is not None:
        if state.pending.seat != action.seat:
            raise NotYourTurn(f"{{seat}} must first decide ({state.pending.kind})", seat=state.pending.seat)
        if not isinstance(action, Choose):
            raise RuleViolation(f"an effect is waiting for your decision ({state.pending.kind}); answer it first")
        if action.option not in state.pending.options:
            raise RuleViolation(f"{action.option!r} is not one of the options {list(state.pending.options)}")
        resolve(t, action.option)
    else:
        if isinstance(action, Choose):
            raise RuleViolation("there is no decision to make now")
        _check_turn(state, action)
        HANDLERS[type(action)](t, action)
    settle(t)
    return t.events, t.state


def _check_turn(state: GameState, action: Action) -> None:
    seat = action.seat
    if state.phase != "play":
        raise NotYourTurn("the round is ending; only its round-end decisions are taken now")
    if state.turn != seat:
        raise NotYourTurn("it is {turn}'s turn, not {seat}'s", turn=state.turn, seat=seat)
    if state.seats[seat].passed:
        raise RuleViolation("once you pass you can take no further actions at all this round")
    main = isinstance(action, MAIN) or (isinstance(action, Play) and _is_main(action.card))
    if isinstance(action, UseAssistant):
        main = (
            any(a.id == action.assistant for a in state.seats[seat].assistants)
            and book().assistants[action.assistant].main
        )
    if main and state.main_done:
        raise RuleViolation("you take exactly one main action per turn, and you have taken it: end your turn")
    if isinstance(action, EndTurn) and not state.main_done:
        raise RuleViolation("take your main action (or pass) before ending your turn")


def _is_main(card: int) -> bool:
    c = book().cards.get(card)
    return c is None or not c.free


# ------------------------------------------------------------------------------------------ turn flow


def settle(t: Turn) -> None:
    """After an action: if nothing is pending, move the game on (next turn, the rival's turns in solo, round end,
    next round, scoring) until a seat must act."""
    while t.state.pending is None and t.state.outcome is None:
        state = t.state
        if state.phase == "round_end":
            if not _round_end_step(t):
                return
            continue
        if state.seats[state.turn].passed:
            nxt = _next_unpassed(state)
            if nxt is None:
                _begin_round_end(t)
                continue
            t.emit(ev.NextTurn(nxt))
            continue
        if state.is_rival(state.turn):
            rival_turn(t)
            if not t.state.seats[state.turn].passed:
                nxt = _next_unpassed(t.state)
                t.emit(ev.NextTurn(state.turn if nxt is None else nxt))
            continue
        return


def _next_unpassed(state: GameState) -> int | None:
    n = state.n_players
    for step in range(1, n + 1):
        seat = (state.turn + step) % n
        if not state.seats[seat].passed:
            return seat
    return None


def _begin_round_end(t: Turn) -> None:
    """'Return all archaeologists to your board. If one was at a site with a guardian, add a fear card.'"""
    state = t.state
    spaces = book().boards[state.side].spaces
    for space, seat in state.occupants:
        # (the rival "returns its archaeologists but never gains fear cards")
        exempt = state.seats[seat].no_guardian_fear or state.is_rival(seat)
        if state.guardian_at(spaces[space].location) is not None and not exempt:
            gain_fear(t, seat)
    last = state.round >= book().rounds
    n = state.n_players
    order = [(state.first_player + i) % n for i in range(n)]
    queue = () if last else tuple(s for s in order if t.state.seats[s].hand)
    t.emit(ev.ArchaeologistsReturned(state.round, queue))
    if last:  # "After round 5 ... skip the rest and go straight to scoring."
        t.emit(ev.GameEnded(outcome_of(t.state)))


def _round_end_step(t: Turn) -> bool:
    """One round-end decision to ask (True: asked or finished; the caller loops until something waits)."""
    state = t.state
    if state.keep_queue:
        seat = state.keep_queue[0]
        hand = state.seats[seat].hand
        if not hand:
            t.emit(ev.KeepDone(seat))
            return True
        options = ("done", *(f"card:{c}" for c in hand))
        t.emit(ev.DecisionPending(Pending(seat, "keep", options)))
        return True
    # Everyone has decided: shuffle play areas under decks, refresh, rotate the row, next round.
    for seat, p in enumerate(state.seats):
        if p.play_area:
            t.emit(ev.DeckRebuilt(seat, shuffled(state.seed, f"rebuild:{state.round}:{seat}", p.play_area)))
    t.emit(
        ev.RowRotated(
            state.artifact_row[0] if state.artifact_row else None, state.item_row[0] if state.item_row else None
        )
    )
    next_round = state.round + 1
    for kind, want in (("artifact", next_round), ("item", 6 - next_round)):
        while True:
            row = t.state.artifact_row if kind == "artifact" else t.state.item_row
            deck = t.state.artifact_deck if kind == "artifact" else t.state.item_deck
            if len(row) >= want or not deck:
                break
            t.emit(ev.RowRefilled(kind, deck[0]))
    t.emit(ev.RoundEnded(state.round))
    rival = state.rival
    first = rival.seat if rival is not None else (state.first_player + 1) % state.n_players
    t.emit(*round_start(t.state.seats, next_round, first))
    if rival is not None:  # the rival "is always the start player", with its stack shuffled anew
        t.emit(ev.RivalStackShuffled(rival_order(state.seed, next_round, rival.tiles)))
    return True


# ------------------------------------------------------------------------------------------ payments


def _pay_travel(
    t: Turn, seat: int, payment: Payment, need: tuple[str, ...], discards: int, what: str, extra: Resources
) -> None:
    """Check and pay ``need`` travel icons, ``discards`` discards and the resources ``extra``."""
    state = t.state
    p = state.seats[seat]
    b = book()
    if len(set(payment.cards)) != len(payment.cards):
        raise RuleViolation("each card can pay only once")
    missing = [c for c in payment.cards if c not in p.hand]
    if missing:
        raise RuleViolation(f"you can only pay with cards from your hand; {missing} not in it")
    held = list(p.travel)
    for icon in payment.travel:
        if icon not in held:
            raise RuleViolation(f"you hold no temporary {icon!r} travel icon to spend")
        held.remove(icon)
    if payment.charter < 0:
        raise RuleViolation("a number of chartered planes cannot be negative")
    coins = payment.charter * b.plane_charter_coins
    a, c2, c3, c4, c5 = extra
    total = (a + coins, c2, c3, c4, c5)
    if not can_pay(p.resources, total):
        raise RuleViolation(
            f"{what} costs {_describe(total)} (with {payment.charter} chartered plane(s)): you cannot pay it"
        )
    icons = [travel_icons(p, c) for c in payment.cards]
    if not pays(icons, payment.travel, payment.charter, need, discards):
        cost = " + ".join(need) or "nothing"
        raise RuleViolation(
            f"this payment does not pay the travel cost of {what} ({cost}"
            f"{f' + {discards} discard(s)' if discards else ''}): a plane pays any icon, a car or a ship pays "
            "a boot, 2 coins charter a plane, and every card paid must be needed"
        )
    if payment.cards:
        t.emit(ev.CardsToPlayArea(seat, payment.cards, "travel"))
    if payment.travel:
        t.emit(ev.TravelChanged(seat, spent=payment.travel))
    if any(total):
        t.emit(ev.ResourcesChanged(seat, negative(total), "pay"))


def _describe(r: Resources) -> str:
    return ", ".join(f"{n} {name}" for name, n in zip(RESOURCES, r, strict=True) if n) or "nothing"


NOTHING: Resources = (0, 0, 0, 0, 0)


# ------------------------------------------------------------------------------------------ main actions


def _space(state: GameState, space: str) -> tuple[str, int]:
    board = book().boards[state.side]
    if space not in board.spaces:
        raise RuleViolation(f"there is no dig-site space {space!r} on the {state.side} side")
    if space in state.blocked:
        raise RuleViolation(f"space {space} is blocked at this player count")
    if state.occupant(space) is not None:
        raise RuleViolation(f"space {space} is taken: you need an empty space at the site")
    if state.archaeologists_out(state.turn) >= book().archaeologists:
        raise RuleViolation("you have no available archaeologist: both are already out")
    loc = board.spaces[space].location
    return loc, board.location(loc).level


def _dig(t: Turn, action: Dig) -> None:
    state, seat = t.state, action.seat
    loc, _ = _space(state, action.space)
    site = state.site(loc)
    if site is not None and site.tile is None:
        raise RuleViolation(f"{loc} is not discovered yet: discover it (pay compasses) to go there first")
    steps = _location_effect(state, loc)
    why = cannot_start(state, seat, steps, hand_loss=len(action.payment.cards))
    if why:
        raise RuleViolation(f"you cannot dig at {loc}: {why}")
    t.emit(ev.MainActionTaken(seat, "dig"))
    need = book().boards[state.side].spaces[action.space].cost
    _pay_travel(t, seat, action.payment, need, 0, f"digging at {loc}", NOTHING)
    t.emit(ev.ArchaeologistPlaced(seat, action.space))
    run_text(t, seat, steps)


def _location_effect(state: GameState, loc: str) -> str:
    location = book().boards[state.side].location(loc)
    if location.effect is not None:
        return location.effect
    site = state.site(loc)
    assert site is not None and site.tile is not None
    return book().site_tiles[site.tile].effect


def _discover(t: Turn, action: Discover) -> None:
    state, seat = t.state, action.seat
    loc, level = _space(state, action.space)
    site = state.site(loc)
    if site is None:
        raise RuleViolation(f"{loc} is a camp: there is nothing to discover there (dig at it instead)")
    if site.tile is not None:
        raise RuleViolation(f"{loc} is already discovered: dig at it instead")
    if not state.site_stacks[level - 1]:
        raise RuleViolation(f"the Level {level} site tiles are all used")
    discount = state.seats[seat].discover_discount
    compasses = max(0, book().discover_compasses[level] - discount)
    t.emit(ev.MainActionTaken(seat, "discover"))
    if discount:
        t.emit(ev.DiscoveryDiscount(seat, 0))
    need = book().boards[state.side].spaces[action.space].cost
    _pay_travel(t, seat, action.payment, need, 0, f"discovering {loc}", resources_of({"compass": compasses}))
    t.emit(ev.ArchaeologistPlaced(seat, action.space))
    # 1. the face-up idol (all idols go to the board; only the face-up one resolves), 2. the site tile,
    # 3. a guardian: written as steps, so that a decision in one of them leaves the others to follow.
    steps: list[dict[str, object]] = []
    if site.idols:
        t.emit(ev.IdolsTaken(seat, loc, site.idols))
        steps.extend(steps_of(book().idols[site.idols[0]].effect))
    steps.append({"op": "_reveal_site", "site": loc, "level": level})
    steps.append({"op": "_awaken_guardian", "site": loc})
    run(t, seat, steps)


def _overcome(t: Turn, action: Overcome) -> None:
    state, seat = t.state, action.seat
    found = state.guardian_at(action.site) if isinstance(action.site, str) else None
    if found is None:
        raise RuleViolation(f"there is no guardian at {action.site!r} to overcome")
    spaces = book().boards[state.side].spaces
    if not any(spaces[space].location == action.site and s == seat for space, s in state.occupants):
        raise RuleViolation("you overcome a guardian only with an archaeologist already at its site")
    guardian = book().guardians[found]
    t.emit(ev.MainActionTaken(seat, "overcome"))
    _pay_travel(t, seat, action.payment, guardian.travel, guardian.discards, "this guardian", guardian.cost)
    t.emit(ev.GuardianOvercome(seat, action.site, found))


def _buy(t: Turn, action: Buy) -> None:
    state, seat = t.state, action.seat
    card = book().cards.get(action.card)
    p = state.seats[seat]
    if card is None or (action.card not in state.item_row and action.card not in state.artifact_row):
        raise RuleViolation(f"card {action.card} is not in the card row")
    if card.kind == "item" and p.resources[0] < card.cost:
        raise RuleViolation(f"{card.name} costs {card.cost} coin(s); you have {p.resources[0]}")
    if card.kind == "artifact":
        if p.resources[1] < card.cost:
            raise RuleViolation(f"{card.name} costs {card.cost} compass(es); you have {p.resources[1]}")
        if not supported(card.effect):
            raise RuleViolation(f"{card.name}'s effect is not built yet in this engine, so it cannot be bought")
    t.emit(ev.MainActionTaken(seat, "buy"))
    # "resolve its effect without paying the activation cost" (docs/rules/arnak.md, choice 6)
    run(t, seat, buy_card(t, seat, card.id, card.cost), card.id)


def _play(t: Turn, action: Play) -> None:
    state, seat = t.state, action.seat
    p = state.seats[seat]
    card = book().cards.get(action.card)
    if card is None or action.card not in p.hand:
        raise RuleViolation(f"you can only play a card from your own hand; {action.card} is not in it")
    if card.kind == "fear":
        raise RuleViolation("fear cards have no effect at all: they cannot be played (only paid as travel)")
    if not supported(card.effect):
        raise RuleViolation(f"{card.name}'s effect is not built yet in this engine")
    tablets = book().artifact_play_tablets if card.kind == "artifact" else 0
    if p.resources[2] < tablets:
        raise RuleViolation("playing an artifact from your hand requires paying its tablet cost first")
    why = cannot_start(state, seat, card.effect, hand_loss=1)
    if why:
        raise RuleViolation(f"you cannot play {card.name}: {why}")
    if not card.free:
        t.emit(ev.MainActionTaken(seat, "play"))
    if tablets:
        t.emit(ev.ResourcesChanged(seat, resources_of({"tablet": -tablets}), "activation"))
    t.emit(ev.CardPlayed(seat, card.id))
    run_text(t, seat, card.effect, card.id)


def _research(t: Turn, action: Research) -> None:
    state, seat = t.state, action.seat
    p = state.seats[seat]
    track = book().boards[state.side].track
    if action.token not in ("glass", "notebook"):
        raise RuleViolation("research moves your magnifying glass ('glass') or your notebook ('notebook')")
    here = p.glass if action.token == "glass" else p.notebook
    if here == "temple":
        raise RuleViolation("your magnifying glass is in the Lost Temple: research now buys temple tiles")
    bridge = next((b for b in track.bridges if b.source == here and b.target == action.to), None)
    if bridge is None:
        raise RuleViolation(f"there is no bridge from {here} to {action.to!r} on the research track")
    if action.token == "notebook":
        if action.to == "temple":
            raise RuleViolation("the notebook never enters the Lost Temple")
        if track.row(action.to) > track.row(p.glass):
            raise RuleViolation("the notebook can never move ahead of the magnifying glass")
    if not bridge_payable(p, bridge):
        idols = f" and {bridge.idols} idol(s) from your supply" if bridge.idols else ""
        raise RuleViolation(f"this bridge costs {_describe(bridge.cost)}{idols}: you cannot pay it")
    if action.row_first and action.to not in {space for space, _ in state.research_bonus}:
        raise RuleViolation(
            "there is no bonus tile on that space, so there is nothing to resolve the row effect before"
        )
    t.emit(ev.MainActionTaken(seat, "research"))
    pay_bridge(t, seat, bridge)
    run(t, seat, advance(t, seat, action.token, action.to, action.row_first))


def _temple_tile(t: Turn, action: TempleTile) -> None:
    state, seat = t.state, action.seat
    p = state.seats[seat]
    if p.glass != "temple":
        raise RuleViolation("only a magnifying glass in the Lost Temple can pay for temple tiles")
    stacks = book().temple_stacks
    if not 0 <= action.stack < len(stacks):
        raise RuleViolation(f"there is no temple-tile stack {action.stack}")
    if state.temple_stacks[action.stack] <= 0:
        raise RuleViolation(f"temple-tile stack {action.stack} is empty")
    cost = stacks[action.stack].cost
    if not can_pay(p.resources, cost):
        raise RuleViolation(f"this temple tile costs {_describe(cost)}: you cannot pay it")
    t.emit(ev.MainActionTaken(seat, "research"))
    t.emit(ev.ResourcesChanged(seat, negative(cost), "temple_tile"), ev.TempleTileBought(seat, action.stack))


def _pass(t: Turn, action: Pass) -> None:
    t.emit(ev.Passed(action.seat))


def _end_turn(t: Turn, action: EndTurn) -> None:
    state = t.state
    nxt = _next_unpassed(state)  # this very seat again when everyone else has passed
    t.emit(ev.NextTurn(state.turn if nxt is None else nxt))


# ------------------------------------------------------------------------------------------ free actions


def _use_assistant(t: Turn, action: UseAssistant) -> None:
    state, seat = t.state, action.seat
    held = next((a for a in state.seats[seat].assistants if a.id == action.assistant), None)
    if held is None:
        raise RuleViolation(f"assistant {action.assistant} is not on your board")
    if held.exhausted:
        raise RuleViolation("this assistant is exhausted: it cannot be used again until it is refreshed")
    printed = book().assistants[held.id]
    effect = printed.gold if held.gold else printed.silver
    if not supported(effect):
        raise RuleViolation("this assistant's effect is not built yet in this engine")
    why = cannot_start(state, seat, effect)
    if why:
        raise RuleViolation(f"you cannot use this assistant: {why}")
    if printed.main:
        t.emit(ev.MainActionTaken(seat, "assistant"))
    t.emit(ev.AssistantUsed(seat, held.id))
    run_text(t, seat, effect)


def _use_boon(t: Turn, action: UseBoon) -> None:
    state, seat = t.state, action.seat
    p = state.seats[seat]
    if action.guardian not in p.guardians:
        raise RuleViolation(f"guardian {action.guardian} is not beside your board")
    if action.guardian in p.boons_used:
        raise RuleViolation("a guardian's boon is usable once: this one is already flipped")
    boon = book().guardians[action.guardian].boon
    t.emit(ev.BoonUsed(seat, action.guardian))
    run_text(t, seat, boon)


def _place_idol(t: Turn, action: PlaceIdol) -> None:
    state, seat = t.state, action.seat
    p = state.seats[seat]
    b = book()
    if not p.idols:
        raise RuleViolation("you have no idol in your supply to place")
    if len(p.slots) >= len(b.idol_slot_vp):
        raise RuleViolation("every idol slot on your board is already covered")
    option = b.idol_slot_options.get(action.option)
    if option is None:
        raise RuleViolation(
            f"idol slot effect {action.option!r} does not exist; choose from {sorted(b.idol_slot_options)}"
        )
    why = cannot_start(state, seat, option.effect)
    if why:
        raise RuleViolation(f"you cannot choose this idol slot effect: {why}")
    t.emit(ev.IdolPlaced(seat, p.idols[0], len(p.slots), action.option))
    run_text(t, seat, option.effect)


HANDLERS: dict[type[Any], Callable[[Turn, Any], None]] = {
    Dig: _dig,
    Discover: _discover,
    Overcome: _overcome,
    Buy: _buy,
    Play: _play,
    Research: _research,
    TempleTile: _temple_tile,
    Pass: _pass,
    EndTurn: _end_turn,
    UseAssistant: _use_assistant,
    UseBoon: _use_boon,
    PlaceIdol: _place_idol,
}
