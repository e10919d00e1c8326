"""The effect ops of particular cards and assistants: research or buy with a discount, relocating an
archaeologist, moving a guardian, drawing and keeping, the supply's assistants, and the round-long effects.

Each op registers itself with ``effects.OPS`` and, when it asks the player, its decision kind with
``effects.CHOICES``. Terms a decision needs later (a discount, where a card goes) travel as the first step of
its ``then``, an internal op that does nothing when run on its own.
"""

from __future__ import annotations

from domain.arnak import events as ev
from domain.arnak.components import Resources, book, negative, resources_of, steps_of
from domain.arnak.effects import (
    Step,
    Turn,
    _op,
    advance,
    ask,
    bridge_payable,
    buy_card,
    can_pay,
    cannot_start,
    choice,
    location_steps,
    pay_bridge,
    supported,
)
from domain.arnak.state import GameState, Pending


def _less(cost: Resources, discount: Resources) -> Resources:
    a, b, c, d, e = (max(0, x - y) for x, y in zip(cost, discount, strict=True))
    return (a, b, c, d, e)


@_op("_terms")
def _terms(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    return []  # the terms of a decision, read when it is answered; on their own they do nothing


# --------------------------------------------------------------------------------------------- research


def research_options(state: GameState, seat: int, step: Step) -> list[str]:
    """The research moves this effect allows: ``token>space``, and ``tile>stack`` once the glass is in the temple."""
    p = state.seats[seat]
    track = book().boards[state.side].track
    discount = resources_of(step.get("discount", {}))
    free = bool(step.get("free", False))
    options: list[str] = []
    for token in ("glass", "notebook"):
        if step.get("token", token) != token:
            continue
        here = p.glass if token == "glass" else p.notebook
        for bridge in track.bridges:
            if bridge.source != here:
                continue
            if token == "notebook" and (bridge.target == "temple" or track.row(bridge.target) > track.row(p.glass)):
                continue
            if bridge_payable(p, bridge, discount, free):
                options.append(f"{token}>{bridge.target}")
    if p.glass == "temple" and step.get("temple_tiles", False):
        for stack, left in enumerate(state.temple_stacks):
            if left > 0 and can_pay(p.resources, _less(book().temple_stacks[stack].cost, discount)):
                options.append(f"tile>{stack}")
    return options


@_op("research")
def _research(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    options = research_options(t.state, seat, step)
    if not options:
        return []
    terms = {"op": "_terms", "discount": step.get("discount", {}), "free": bool(step.get("free", False))}
    rest.insert(0, terms)
    return ask(t, seat, "research", [*options, "skip"], rest, card, optional=True)


@choice("research")
def _research_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    seat = pending.seat
    discount = resources_of(terms["discount"])
    what, target = option.split(">")
    if what == "tile":
        stack = int(target)
        cost = _less(book().temple_stacks[stack].cost, discount)
        t.emit(ev.ResourcesChanged(seat, negative(cost), "temple_tile"), ev.TempleTileBought(seat, stack))
        return then
    here = t.state.seats[seat].glass if what == "glass" else t.state.seats[seat].notebook
    track = book().boards[t.state.side].track
    bridge = next(b for b in track.bridges if b.source == here and b.target == target)
    pay_bridge(t, seat, bridge, discount, terms["free"])
    return [*advance(t, seat, what, target), *then]


# --------------------------------------------------------------------------------------------- buy


def _price(card_id: int, discount: int) -> int:
    return max(0, book().card(card_id).cost - discount)


@_op("buy")
def _buy(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Buy from the row with a discount; with ``deck_top``, the top card of the deck may be revealed and bought."""
    state = t.state
    coins, compasses = state.seats[seat].resources[:2]
    discount = int(step["discount"])
    options: list[str] = []
    if step["kind"] in ("item", "any"):
        options += [f"card:{c}" for c in state.item_row if _price(c, discount) <= coins]
    if step["kind"] in ("artifact", "any"):
        options += [
            f"card:{c}"
            for c in state.artifact_row
            if _price(c, discount) <= compasses and supported(book().card(c).effect)
        ]
    deck = state.item_deck if step["kind"] == "item" else state.artifact_deck
    if step.get("deck_top") and deck:
        options.append("deck")
    if not options:
        return []
    rest.insert(0, {"op": "_terms", "discount": discount, "kind": step["kind"]})
    return ask(t, seat, "buy", [*options, "skip"], rest, card, optional=True)


@choice("buy")
def _buy_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    seat = pending.seat
    if option == "deck":
        deck = t.state.item_deck if terms["kind"] == "item" else t.state.artifact_deck
        top = deck[0]
        t.emit(ev.DeckTopRevealed(terms["kind"], top))
        coins, compasses = t.state.seats[seat].resources[:2]
        have = coins if terms["kind"] == "item" else compasses
        if _price(top, terms["discount"]) > have or not supported(book().card(top).effect):
            return then  # shown, and too dear: it stays on the deck
        rest = [{"op": "_terms", "discount": terms["discount"]}, *then]
        return [{"op": "_offer_top", "card": top}, *rest]
    chosen = int(option.split(":")[1])
    return [*buy_card(t, seat, chosen, _price(chosen, terms["discount"])), *then]


@_op("_offer_top")
def _offer_top(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    return ask(t, seat, "buy_top", [f"card:{step['card']}", "skip"], rest, card, optional=True)


@choice("buy_top")
def _buy_top_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    chosen = int(option.split(":")[1])
    return [*buy_card(t, pending.seat, chosen, _price(chosen, terms["discount"]), from_row=False), *then]


# --------------------------------------------------------------------------------------------- round-long effects


@_op("travel_discount")
def _travel_discount(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """'Your next dig/discover costs 1 plane less and the discovery N compasses less': a held plane icon and a
    discovery discount, both until used or the end of the round (docs/rules/arnak.md)."""
    t.emit(ev.TravelChanged(seat, gained=tuple(step["icons"])))
    if step["compass"] > t.state.seats[seat].discover_discount:
        t.emit(ev.DiscoveryDiscount(seat, step["compass"]))
    return []


@_op("no_guardian_fear")
def _no_guardian_fear(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    t.emit(ev.GuardianFearWaived(seat))
    return []


@_op("all_travel_planes")
def _all_travel_planes(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    t.emit(ev.AllTravelPlanes(seat))
    return []


# --------------------------------------------------------------------------------------------- archaeologists


def _mine(state: GameState, seat: int) -> list[str]:
    return [space for space, s in state.occupants if s == seat]


def _free_targets(state: GameState, target: str) -> list[str]:
    board = book().boards[state.side]
    taken = {space for space, _ in state.occupants} | set(state.blocked)
    out: list[str] = []
    for loc in board.locations:
        site = state.site(loc.id)
        level1 = loc.level == 1 and site is not None and site.tile is not None
        if loc.level == 0 or (target == "camp_or_level1_unoccupied" and level1):
            out.extend(s.id for s in loc.spaces if s.id not in taken)
    return out


@_op("relocate")
def _relocate(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    state = t.state
    options = [f"{a}>{b}" for a in _mine(state, seat) for b in _free_targets(state, step["target"])]
    if not options:
        return []
    rest.insert(0, {"op": "_terms", "activations": step["activations"]})
    return ask(t, seat, "relocate", options, rest, card)


@choice("relocate")
def _relocate_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    source, target = option.split(">")
    t.emit(ev.ArchaeologistMoved(pending.seat, source, target))
    location = book().boards[t.state.side].spaces[target].location
    return [*location_steps(t.state, location, pending.seat) * terms["activations"], *then]


@_op("return_archaeologist")
def _return(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    options = [f"space:{s}" for s in _mine(t.state, seat)]
    if not options:
        return []
    return ask(t, seat, "return_archaeologist", [*options, "skip"], rest, card, optional=True)


@choice("return_archaeologist")
def _return_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    t.emit(ev.ArchaeologistRecalled(pending.seat, option.split(":", 1)[1]))
    return then


@_op("move_guardian")
def _move_guardian(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Guardian's Crown: a guardian from a site where you have an archaeologist to a camp or a discovered Level I site
    with no archaeologist and no guardian, then activate it."""
    state = t.state
    board = book().boards[state.side]
    mine = {board.spaces[s].location for s in _mine(state, seat)}
    occupied = {board.spaces[s].location for s, _ in state.occupants}
    sources = [location for location, _ in state.guardians_out() if location in mine]
    targets = []
    for loc in board.locations:
        site = state.site(loc.id)
        open_site = loc.level == 0 or (loc.level == 1 and site is not None and site.tile is not None)
        if open_site and loc.id not in occupied and state.guardian_at(loc.id) is None:
            targets.append(loc.id)
    options = [f"{a}>{b}" for a in sources for b in targets]
    if not options:
        return []
    return ask(t, seat, "move_guardian", options, rest, card)


@choice("move_guardian")
def _move_guardian_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    source, target = option.split(">")
    guardian = t.state.guardian_at(source)
    assert guardian is not None
    t.emit(ev.GuardianMoved(source, target, guardian))
    return [*location_steps(t.state, target, pending.seat), *then]


# --------------------------------------------------------------------------------------------- assistants and idols


def _side(assistant: int, gold: bool) -> str:
    printed = book().assistants[assistant]
    return printed.gold if gold else printed.silver


@_op("supply_assistant")
def _supply_assistant(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Use the silver or gold effect of a face-up assistant in the supply (it stays there)."""
    state = t.state
    gold = step["side"] == "gold"
    options = [
        f"stack:{i}"
        for i, stack in enumerate(state.assistant_stacks)
        if stack
        and supported(_side(stack[0], gold))
        and cannot_start(state, seat, _side(stack[0], gold)) is None
        and not book().assistants[stack[0]].main
    ]
    if not options:
        return []
    rest.insert(0, {"op": "_terms", "gold": gold})
    return ask(t, seat, "supply_assistant", options, rest, card)


@choice("supply_assistant")
def _supply_assistant_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    top = t.state.assistant_stacks[int(option.split(":")[1])][0]
    return [*steps_of(_side(top, terms["gold"])), *then]


@_op("swap_assistant")
def _swap_assistant(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    state = t.state
    options = [
        f"{a.id}>{i}" for a in state.seats[seat].assistants for i, stack in enumerate(state.assistant_stacks) if stack
    ]
    if not options:
        return []
    return ask(t, seat, "swap_assistant", options, rest, card)


@choice("swap_assistant")
def _swap_assistant_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    mine, stack = (int(x) for x in option.split(">"))
    t.emit(ev.AssistantSwapped(pending.seat, mine, stack, t.state.assistant_stacks[stack][0]))
    return then


@_op("unslot_idol")
def _unslot_idol(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Stone Key: the idol in the rightmost covered slot returns to the supply (slots fill from the left)."""
    slots = t.state.seats[seat].slots
    if slots:
        t.emit(ev.IdolUnslotted(seat, slots[-1]))
    return []


@_op("discard_travel")
def _discard_travel(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Assistant 2 (silver): spend 1 boot of travel, a card from the hand (any icon pays a boot) or a held icon."""
    p = t.state.seats[seat]
    options = [f"card:{c}" for c in p.hand] + [f"travel:{icon}" for icon in sorted(set(p.travel))]
    if not options:
        rest[:] = []  # nothing to spend: no arrowhead
        return []
    return ask(t, seat, "discard_travel", options, rest, card)


@choice("discard_travel")
def _discard_travel_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    what, value = option.split(":")
    if what == "card":
        t.emit(ev.CardsToPlayArea(pending.seat, (int(value),), "travel"))
    else:
        t.emit(ev.TravelChanged(pending.seat, spent=(value,)))
    return then


# --------------------------------------------------------------------------------------------- cards and the row


@_op("exile_row_item")
def _exile_row_item(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Ornate Hammer: the item at the far end of the row is exiled; the row is refilled once the effect is done."""
    row = t.state.item_row
    if row:
        t.emit(ev.RowItemExiled(row[-1]))
        rest.append({"op": "_refill_items"})
    return []


@_op("_refill_items")
def _refill_items(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    deck = t.state.item_deck
    t.emit(ev.RowRefilled("item", deck[0] if deck else None))
    return []


@_op("draw_keep")
def _draw_keep(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Obsidian and Crystal Earring: choose how many to draw, keep one, (Crystal) maybe put one back on top, and the
    rest go to the play area without their effects."""
    deck = t.state.seats[seat].deck
    most = min(step["up_to"], len(deck))
    if most == 0:
        return []
    rest.insert(0, {"op": "_terms", "source": step["source"], "back": step.get("may_return_top", 0)})
    return ask(t, seat, "draw_count", [str(n) for n in range(1, most + 1)], rest, card)


@choice("draw_count")
def _draw_count_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    seat, n = pending.seat, int(option)
    deck = t.state.seats[seat].deck
    bottom = terms["source"] == "bottom"
    cards = tuple(reversed(deck[len(deck) - n :])) if bottom else deck[:n]
    t.emit(ev.CardsDrawn(seat, cards, bottom=bottom))
    return [{"op": "_keep_one", "cards": list(cards), "back": terms["back"]}, *then]


@_op("_keep_one")
def _keep_one(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    cards = step["cards"]
    if len(cards) == 1:
        return []
    rest.insert(0, {"op": "_terms", "cards": cards, "back": step["back"]})
    return ask(t, seat, "keep_one", [f"card:{c}" for c in cards], rest, card)


@choice("keep_one")
def _keep_one_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    kept = int(option.split(":")[1])
    others = [c for c in terms["cards"] if c != kept]
    return [{"op": "_put_back", "cards": others, "back": terms["back"]}, *then]


@_op("_put_back")
def _put_back(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    cards = step["cards"]
    if step["back"] and cards:
        rest.insert(0, {"op": "_terms", "cards": cards})
        return ask(t, seat, "put_back", [*(f"card:{c}" for c in cards), "none"], rest, card, optional=True)
    if cards:
        t.emit(ev.CardsToPlayArea(seat, tuple(cards), "unused"))
    return []


@choice("put_back")
def _put_back_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    cards = terms["cards"]
    if option != "none":
        back = int(option.split(":")[1])
        t.emit(ev.CardReturnedToDeck(pending.seat, back))
        cards = [c for c in cards if c != back]
    return [{"op": "_put_back", "cards": cards, "back": 0}, *then]
