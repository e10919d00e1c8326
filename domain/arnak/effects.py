"""The effect language's interpreter: runs a list of steps for a seat, emitting events as it goes.

A step that needs the player's choice (which card to exile, which option, which assistant...) records a
``Pending`` decision holding the steps still to run, and the run stops; ``resolve`` applies the seat's
``Choose`` and runs on. A decision with a single option is not asked: it is taken (nothing is hidden by
that, the option being forced).

The general ops are here, the ops of particular cards in ``card_ops.py``; both register in ``OPS`` (and their
decision kinds in ``CHOICES``). Every printed effect uses only registered ops today; should data ever name an
op that is not (``supported`` says), the engine refuses that card rather than play it wrongly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from domain.arnak import events as ev
from domain.arnak.components import NONE as NO_RESOURCES
from domain.arnak.components import RESOURCES, Bridge, Resources, book, negative, resources_of, steps_of, steps_text
from domain.arnak.evolve import evolve
from domain.arnak.state import GameState, Pending, Player


class Turn:
    """The events of one decision, and the state they lead to (each event applied as it is emitted)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, *events: ev.Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)


Step = dict[str, Any]
# A handler runs one step and returns the steps to run before the rest (often none), or None when it
# recorded a pending decision (the run stops; the decision's ``then`` holds the rest).
Handler = Callable[[Turn, int, Step, list[Step], "int | None"], "list[Step] | None"]
OPS: dict[str, Handler] = {}
# Decision kinds of the card ops (card_ops.py): apply the option, return the steps to run next.
Choice = Callable[[Turn, Pending, str, list[Step]], list[Step]]
CHOICES: dict[str, Choice] = {}
ACTIVATE_TARGETS = (
    "camp_unoccupied",
    "camp_any",
    "level1_discovered",
    "own_site",
    "level1_stack_top",
    "level2_stack_top",
)


def _op(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        OPS[name] = handler
        return handler

    return register


def choice(kind: str) -> Callable[[Choice], Choice]:
    def register(handler: Choice) -> Choice:
        CHOICES[kind] = handler
        return handler

    return register


@cache
def supported(text: str) -> bool:
    """Can the interpreter run every step of this effect (and of its options)? (Asked of the same printed effects
    over and over, by legal_actions.)"""
    for step in steps_of(text):
        if step["op"] not in OPS:
            return False
        if step["op"] == "activate" and step["target"] not in ACTIVATE_TARGETS:
            return False
        for option in step.get("options", ()):
            if not supported(steps_text(option)):
                return False
    return True


def can_pay(have: Resources, cost: Resources) -> bool:
    # a loop, not all() over a generator: 0.35 µs instead of 0.75, asked about 700 times a four-player game
    for h, c in zip(have, cost, strict=True):  # noqa: SIM110
        if h < c:
            return False
    return True


def cannot_start(state: GameState, seat: int, text: str, hand_loss: int = 0) -> str | None:
    """Why the effect cannot start (its leading costs cannot be paid), or None. ``hand_loss``: cards that
    will have left the hand by then (the card being played, the travel paid)."""
    needs = start_needs(text)
    if needs is None:
        return None
    p = state.seats[seat]
    cost, discards = needs
    if len(p.hand) - hand_loss >= discards and can_pay(p.resources, cost):
        return None
    owed = [0] * len(RESOURCES)
    hand = len(p.hand) - hand_loss
    for step in steps_of(text):
        if step["op"] == "pay":
            for i, amount in enumerate(resources_of(step["res"])):
                owed[i] += amount
            if not all(h >= o for h, o in zip(p.resources, owed, strict=True)):
                return f"the effect costs {_res_text(step['res'])} and you cannot pay it"
        elif step["op"] == "discard":
            if hand < step["n"]:
                return f"the effect needs {step['n']} card(s) to discard from your hand"
            hand -= step["n"]
        elif step["op"] != "exile_self":
            return None
    raise AssertionError(f"start_needs and cannot_start disagree on {text}")


@cache
def start_needs(text: str) -> tuple[Resources, int] | None:
    """What an effect's leading steps (its costs, before the first step that is not one) need: the resources in
    all, and the cards to discard (None: nothing, as for most effects). It can start exactly when both are at
    hand, each cost and discard being a positive amount.

    SPEED: ``legal_actions`` asks whether an effect can start for every dig payment, card, assistant and idol slot
    effect (about 3,000 times a four-player game), and most effects have no leading cost. Working the steps out
    once per text (here), then checking a dig space once when its effect has no cost (``legal._digs``, which also
    looks the sites up once per listing), took a four-player random game from 163 to 138 million instructions
    (callgrind). The texts are the printed effects and their options: 123 in 300 games of every kind."""
    owed = [0] * len(RESOURCES)
    discards = 0
    for step in steps_of(text):
        if step["op"] == "pay":
            for i, amount in enumerate(resources_of(step["res"])):
                assert amount >= 0, text
                owed[i] += amount
        elif step["op"] == "discard":
            assert step["n"] >= 0, text
            discards += step["n"]
        elif step["op"] != "exile_self":
            break
    if not any(owed) and not discards:
        return None
    a, b, c, d, e = owed
    return (a, b, c, d, e), discards


def _res_text(res: dict[str, int]) -> str:
    return ", ".join(f"{n} {r}" for r, n in res.items())


def run(t: Turn, seat: int, steps: list[Step] | tuple[Step, ...], card: int | None = None) -> None:
    """Run ``steps`` for ``seat`` until they are done or a decision is pending."""
    queue = list(steps)
    while queue:
        step = queue.pop(0)
        inserted = OPS[step["op"]](t, seat, step, queue, card)
        if inserted is None:
            return
        queue[:0] = inserted


def run_text(t: Turn, seat: int, text: str, card: int | None = None) -> None:
    run(t, seat, steps_of(text), card)


def ask(
    t: Turn,
    seat: int,
    kind: str,
    options: list[str],
    rest: list[Step],
    card: int | None,
    branches: tuple[str, ...] = (),
    optional: bool = False,
) -> list[Step] | None:
    """Record a pending decision (or take the only option at once, when there is no real choice)."""
    if len(options) == 1 and not optional:
        pending = Pending(seat, kind, tuple(options), steps_text(rest), branches, card, 0, optional)
        follow = apply_choice(t, pending, options[0])
        rest[:] = []
        return follow
    t.emit(ev.DecisionPending(Pending(seat, kind, tuple(options), steps_text(rest), branches, card, 0, optional)))
    return None


def resolve(t: Turn, option: str) -> None:
    """The pending decision is answered with ``option``: apply it and run the rest of the effect."""
    pending = t.state.pending
    assert pending is not None
    t.emit(ev.DecisionMade(pending.seat, option, pending.kind))
    follow = apply_choice(t, pending, option)
    run(t, pending.seat, follow, pending.card)


def _number(option: str) -> int:
    return int(option.split(":", 1)[1])


def apply_choice(t: Turn, pending: Pending, option: str) -> list[Step]:
    """Apply ``option`` of ``pending``; return the steps to run next (the decision's own, then ``then``)."""
    seat, state = pending.seat, t.state
    then = list(steps_of(pending.then))
    kind = pending.kind
    if option == "skip":
        return then
    if kind == "exile":
        source, number = option.split(":")
        t.emit(ev.CardExiled(seat, int(number), "hand" if source == "hand" else "play_area"))
    elif kind == "discard":
        t.emit(ev.CardsToPlayArea(seat, (_number(option),), "discard"))
    elif kind == "choose":
        index = int(option)
        follow = list(steps_of(pending.branches[index]))
        if pending.picks > 1:  # "choose 2 different": the same choice again, without this option
            others = [json.loads(b) for i, b in enumerate(pending.branches) if i != index]
            follow.append({"op": "choose", "options": others, "picks": pending.picks - 1})
        return follow + then
    elif kind == "upgrade":
        better = book().upgrades[option]
        t.emit(ev.ResourcesChanged(seat, resources_of({option: -1, better: 1}), "upgrade"))
    elif kind == "take_assistant":
        stack = _number(option)
        t.emit(ev.AssistantTaken(seat, stack, state.assistant_stacks[stack][0]))
    elif kind == "upgrade_assistant":
        t.emit(ev.AssistantUpgraded(seat, _number(option)))
    elif kind == "refresh_assistant":
        t.emit(ev.AssistantRefreshed(seat, _number(option)))
    elif kind == "gain_card":
        return _gain_card(t, seat, _number(option), pending.card, then)
    elif kind == "overcome":
        location = option.split(":", 1)[1]
        guardian = state.guardian_at(location)
        assert guardian is not None
        t.emit(ev.GuardianOvercome(seat, location, guardian))
    elif kind == "keep":
        if option == "done":
            t.emit(ev.KeepDone(seat))
        else:
            t.emit(ev.CardsToPlayArea(seat, (_number(option),), "round_end"))
    elif kind in ("activate", "activate_own"):
        location = option.split(":", 1)[1]
        extra: list[Step] = []
        if kind == "activate_own" and book().boards[state.side].location(location).level == 2:
            extra = [{"op": "pay", "res": {"compass": 2}}]
        return [*extra, *location_steps(t.state, location, seat), *then]
    else:
        return CHOICES[kind](t, pending, option, then)
    return then


def location_steps(state: GameState, location: str, seat: int) -> list[Step]:
    """What activating a camp or a discovered site does (a site's effect is its site tile's)."""
    loc = book().boards[state.side].location(location)
    if loc.effect is not None:
        return list(steps_of(loc.effect))
    site = state.site(location)
    assert site is not None and site.tile is not None
    return list(steps_of(book().site_tiles[site.tile].effect))


# --------------------------------------------------------------------------------------------- the ops


@_op("gain")
def _gain(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    t.emit(ev.ResourcesChanged(seat, resources_of(step["res"]), "gain"))
    return []


@_op("pay")
def _pay(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    cost = resources_of(step["res"])
    if not can_pay(t.state.seats[seat].resources, cost):
        rest[:] = []  # what the cost would have bought is not gained
        return []
    t.emit(ev.ResourcesChanged(seat, negative(cost), "pay"))
    return []


@_op("draw")
def _draw(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    deck = t.state.seats[seat].deck
    if deck:  # an empty deck draws nothing: the play area is shuffled in only at the end of the round
        t.emit(ev.CardsDrawn(seat, deck[: step["n"]]))
    return []


@_op("draw_bottom")
def _draw_bottom(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    deck = t.state.seats[seat].deck
    n = min(step["n"], len(deck))
    if n:
        t.emit(ev.CardsDrawn(seat, tuple(reversed(deck[len(deck) - n :])), bottom=True))
    return []


@_op("fear")
def _fear(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    gain_fear(t, seat)
    return []


def gain_fear(t: Turn, seat: int) -> None:
    """A fear card from the top of the fear deck into the play area; a fear tile when the deck is empty."""
    deck = t.state.fear_deck
    t.emit(ev.FearGained(seat, deck[0] if deck else None))


@_op("exile_self")
def _exile_self(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    if card is not None and card in t.state.seats[seat].play_area:
        t.emit(ev.CardExiled(seat, card, "play_area"))
    return []


@_op("exile")
def _exile(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    p = t.state.seats[seat]
    options = [f"hand:{c}" for c in p.hand] + [f"play:{c}" for c in p.play_area]
    optional = bool(step.get("optional", False))
    if not options:
        return []
    if optional:
        options.append("skip")
    return ask(t, seat, "exile", options, rest, card, optional=optional)


@_op("discard")
def _discard(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    hand = t.state.seats[seat].hand
    if not hand:
        return []
    if step["n"] > 1:
        rest.insert(0, {"op": "discard", "n": step["n"] - 1})
    return ask(t, seat, "discard", [f"card:{c}" for c in hand], rest, card)


@_op("choose")
def _choose(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    branches = tuple(steps_text(option) for option in step["options"])
    options = [str(i) for i, text in enumerate(branches) if cannot_start(t.state, seat, text) is None]
    if not options:
        return []
    pending = Pending(seat, "choose", tuple(options), steps_text(rest), branches, card, int(step.get("picks", 1)))
    if len(options) == 1:
        rest[:] = []
        return apply_choice(t, pending, options[0])
    t.emit(ev.DecisionPending(pending))
    return None


@_op("upgrade")
def _upgrade(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    have = dict(zip(RESOURCES, t.state.seats[seat].resources, strict=True))
    options = [r for r in book().upgrades if have[r] > 0]
    if not options:
        return []
    return ask(t, seat, "upgrade", options, rest, card)


@_op("gain_per")
def _gain_per(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    state = t.state
    p = state.seats[seat]
    count_of = step["count"]
    if count_of == "idols":
        count = len(p.idols) + len(p.slots)
    elif count_of == "archaeologists_out":
        count = state.archaeologists_out(seat)
    elif count_of == "guardians_owned_and_beside":
        mine = {book().boards[state.side].spaces[space].location for space, s in state.occupants if s == seat}
        count = len(p.guardians) + sum(1 for location, _ in state.guardians_out() if location in mine)
    else:
        raise AssertionError(f"unknown count {count_of!r}")
    count = min(count, step.get("max", count))
    if count:
        per = resources_of(step["res"])
        a, b, c, d, e = (x * count for x in per)
        t.emit(ev.ResourcesChanged(seat, (a, b, c, d, e), "gain"))
    return []


@_op("travel")
def _travel(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    t.emit(ev.TravelChanged(seat, gained=tuple(step["icons"])))
    return []


@_op("take_assistant")
def _take_assistant(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    state = t.state
    if len(state.seats[seat].assistants) >= book().assistant_spots:
        return []
    options = [f"stack:{i}" for i, stack in enumerate(state.assistant_stacks) if stack]
    if not options:
        return []
    return ask(t, seat, "take_assistant", options, rest, card)


@_op("upgrade_assistant")
def _upgrade_assistant(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    options = [f"assistant:{a.id}" for a in t.state.seats[seat].assistants if not a.gold]
    if not options:
        return []
    return ask(t, seat, "upgrade_assistant", options, rest, card)


@_op("refresh_assistant")
def _refresh_assistant(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    options = [f"assistant:{a.id}" for a in t.state.seats[seat].assistants if a.exhausted]
    if not options:
        return []
    if step["n"] > 1:
        rest.insert(0, {"op": "refresh_assistant", "n": step["n"] - 1})
    return ask(t, seat, "refresh_assistant", options, rest, card)


@_op("gain_card")
def _gain_card_step(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    state = t.state
    if step["source"] == "item_exile":
        row = state.item_exile
    else:
        row = state.item_row if step["kind"] == "item" else state.artifact_row
    if not row:
        return []
    # Where the card goes (and whether it resolves) travels with the decision as its first 'then' step.
    terms = {"op": "_placed", "to": step["to"], "resolve": bool(step.get("resolve", False)), "source": step["source"]}
    rest.insert(0, terms)
    return ask(t, seat, "gain_card", [f"card:{c}" for c in row], rest, card)


@_op("_placed")
def _placed(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    return []  # read by _gain_card; on its own (no card chosen) it does nothing


def _gain_card(t: Turn, seat: int, chosen: int, card: int | None, then: list[Step]) -> list[Step]:
    placed, then = then[0], then[1:]
    kind = book().card(chosen).kind
    deck = t.state.artifact_deck if kind == "artifact" else t.state.item_deck
    t.emit(ev.CardBought(seat, chosen, 0, placed["to"]))
    if placed["source"] == "row":
        t.emit(ev.RowRefilled(kind, deck[0] if deck else None))
    if placed["resolve"]:
        effect = book().card(chosen).effect
        if supported(effect) and cannot_start(t.state, seat, effect) is None:
            return [*steps_of(effect), *then]
    return then


@_op("pass_and_gain")
def _pass_and_gain(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    t.emit(ev.ResourcesChanged(seat, resources_of(step["res"]), "gain"), ev.Passed(seat))
    rest[:] = []  # passing ends everything: "once you pass you can take no further actions at all"
    return []


@_op("temple_bonus")
def _temple_bonus(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    stack = t.state.temple_bonus
    if not stack:
        return []
    t.emit(ev.BonusTileTaken(seat, "temple", stack[0]))
    return list(steps_of(book().bonus_tiles[stack[0]].effect))


@_op("overcome")
def _overcome(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    state = t.state
    spaces = book().boards[state.side].spaces
    mine = {spaces[space].location for space, s in state.occupants if s == seat}
    others = {spaces[space].location for space, s in state.occupants if s != seat}
    where = step["where"]
    options = [
        f"site:{location}"
        for location, _ in state.guardians_out()
        if where == "any"
        or (where == "occupied" and location in mine)
        or (where == "no_other_player" and location not in others)
    ]
    if not options:
        return []
    return ask(t, seat, "overcome", options, rest, card)


@_op("activate")
def _activate(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    state = t.state
    board = book().boards[state.side]
    occupied = {board.spaces[space].location for space, _ in state.occupants}
    target = step["target"]
    if target in ("level1_stack_top", "level2_stack_top"):
        level = 1 if target == "level1_stack_top" else 2
        stack = state.site_stacks[level - 1]
        if not stack:
            return []
        # design: the tile is shown, activated and put at the bottom of its stack (docs/rules/arnak.md)
        t.emit(ev.SiteTileUsed(level, stack[0]))
        return list(steps_of(book().site_tiles[stack[0]].effect))
    mine = {board.spaces[space].location for space, s in state.occupants if s == seat}
    kind = "activate"
    options: list[str] = []
    for loc in board.locations:
        site = state.site(loc.id)
        discovered = loc.level == 0 or (site is not None and site.tile is not None)
        if target == "camp_unoccupied":
            ok = loc.level == 0 and loc.id not in occupied
        elif target == "camp_any":
            ok = loc.level == 0
        elif target == "level1_discovered":
            ok = loc.level == 1 and discovered
        else:  # own_site: a Level II site costs 2 more compasses (Tent)
            ok = loc.id in mine and discovered
            kind = "activate_own"
        steps = location_steps(state, loc.id, seat) if ok else []
        if ok and kind == "activate_own" and loc.level == 2:
            steps = [{"op": "pay", "res": step.get("level2_extra", {})}, *steps]
        if ok and cannot_start(state, seat, steps_text(steps)) is None:
            options.append(f"site:{loc.id}")
    if not options:
        return []
    if step.get("times", 1) > 1:
        rest.insert(0, {**step, "times": step["times"] - 1})
    return ask(t, seat, kind, options, rest, card)


@_op("_reveal_site")
def _reveal_site(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Discovery, 2: "Take the top tile from the matching stack, place it face up ... and immediately resolve it"."""
    stack = t.state.site_stacks[step["level"] - 1]
    if not stack:
        return []
    t.emit(ev.SiteRevealed(step["site"], stack[0]))
    return list(steps_of(book().site_tiles[stack[0]].effect))


@_op("_awaken_guardian")
def _awaken_guardian(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Discovery, 3: "Awaken a guardian: place the top guardian tile face up on that location"."""
    stack = t.state.guardian_stack
    if stack:
        t.emit(ev.GuardianAwakened(step["site"], stack[0]))
    return []


# ------------------------------------------------------------------------------------ shared mechanics


def advance(t: Turn, seat: int, token: str, to: str, row_first: bool = False) -> list[Step]:
    """Move a research token (already paid for): the Lost Temple's arrival, or the space's bonus tile (first come,
    first served) and the row effect, in the order chosen. Returns the steps still to run."""
    state = t.state
    track = book().boards[state.side].track
    t.emit(ev.ResearchMoved(seat, token, to))
    if to == "temple":
        place = sum(1 for other in state.seats if other.temple_place is not None)
        t.emit(ev.TempleReached(seat, place))
        return [{"op": "temple_bonus"}]
    glass_effect, notebook_effect = track.effects[track.row(to)]
    row_steps = list(steps_of(glass_effect if token == "glass" else notebook_effect))
    bonus_steps: list[Step] = []
    tiles = [tile for space, tile in state.research_bonus if space == to]
    if len(tiles) == 1:  # "strictly first come, first served"
        t.emit(ev.BonusTileTaken(seat, to, tiles[0]))
        bonus_steps = list(steps_of(book().bonus_tiles[tiles[0]].effect))
    elif tiles:  # the snake side's Dreadful Tales: the arriving token chooses one of the tiles there
        bonus_steps = [{"op": "_choose_bonus", "space": to}]
    return row_steps + bonus_steps if row_first else bonus_steps + row_steps


def bridge_payable(player: Player, bridge: Bridge, discount: Resources = NO_RESOURCES, free: bool = False) -> bool:
    """Can ``player`` pay ``bridge`` (less ``discount``; nothing when ``free``)? Idols come from the supply only."""
    if free:
        return True
    if len(player.idols) < bridge.idols:
        return False
    if discount == NO_RESOURCES:
        return can_pay(player.resources, bridge.cost)
    a, b, c, d, e = (max(0, c - d) for c, d in zip(bridge.cost, discount, strict=True))
    return can_pay(player.resources, (a, b, c, d, e))


def pay_bridge(t: Turn, seat: int, bridge: Bridge, discount: Resources = NO_RESOURCES, free: bool = False) -> None:
    if free:
        return
    a, b, c, d, e = (-max(0, x - y) for x, y in zip(bridge.cost, discount, strict=True))
    if a or b or c or d or e:
        t.emit(ev.ResourcesChanged(seat, (a, b, c, d, e), "research"))
    for idol in t.state.seats[seat].idols[: bridge.idols]:
        t.emit(ev.IdolDiscarded(seat, idol))


@_op("_choose_bonus")
def _choose_bonus(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    tiles = [tile for space, tile in t.state.research_bonus if space == step["space"]]
    if not tiles:
        return []
    rest.insert(0, {"op": "_bonus_space", "space": step["space"]})
    return ask(t, seat, "bonus_tile", [f"tile:{tile}" for tile in tiles], rest, card)


@_op("_bonus_space")
def _bonus_space(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    return []  # the terms of a bonus-tile choice; on their own they do nothing


@choice("bonus_tile")
def _bonus_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    terms, then = then[0], then[1:]
    tile = _number(option)
    t.emit(ev.BonusTileTaken(pending.seat, terms["space"], tile))
    return [*steps_of(book().bonus_tiles[tile].effect), *then]


@_op("rescue_assistant")
def _rescue_assistant(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Snake side: 'search the assistant stack, and place your choice on your board exhausted'."""
    state = t.state
    if not state.rescue or len(state.seats[seat].assistants) >= book().assistant_spots:
        return []
    return ask(t, seat, "rescue_assistant", [f"assistant:{a}" for a in state.rescue], rest, card)


@choice("rescue_assistant")
def _rescue_chosen(t: Turn, pending: Pending, option: str, then: list[Step]) -> list[Step]:
    t.emit(ev.AssistantRescued(pending.seat, _number(option)))
    return then


def buy_card(t: Turn, seat: int, card_id: int, price: int, from_row: bool = True) -> list[Step]:
    """Pay ``price`` and take ``card_id`` from the row: an item to the bottom of the deck, an artifact to the play
    area, where it resolves free of its tablet (its own costs paid, or skipped when they cannot be). "Then refill
    the row": after the artifact's effect (its last step, so a decision inside the effect comes first), or, under
    a version whose ``Conduct`` says so, as the card leaves the row. Returns the steps still to run."""
    card = book().card(card_id)
    item = card.kind == "item"
    if price:
        t.emit(ev.ResourcesChanged(seat, resources_of({"coin" if item else "compass": -price}), "buy"))
    t.emit(ev.CardBought(seat, card_id, price, "deck_bottom" if item else "play_area"))
    runs = not item and supported(card.effect) and cannot_start(t.state, seat, card.effect) is None
    effect = steps_of(card.effect) if runs else ()
    refill: list[Step] = [{"op": "_refill_row", "kind": card.kind}] if from_row else []
    if not t.state.book.conduct.refill_after_artifact_effect:
        run(t, seat, refill)  # arnak-0: the row refilled before the artifact resolved
        return list(effect)
    return [*effect, *refill]


@_op("_refill_row")
def _refill_row(t: Turn, seat: int, step: Step, rest: list[Step], card: int | None) -> list[Step] | None:
    """Buying, then: "refill the row by sliding the cards toward the moon staff and adding a new card from the deck
    to the empty space"."""
    deck = t.state.item_deck if step["kind"] == "item" else t.state.artifact_deck
    t.emit(ev.RowRefilled(step["kind"], deck[0] if deck else None))
    return []
