"""``legal_actions(state, seat)``: every concrete action a seat may take now, complete with its payment.

Choices that would multiply (which card to exile, which option, which assistant) are not folded into
the action: the engine asks them afterwards as a pending decision, answered with ``Choose``. So every
action listed here is accepted by ``decide`` as it stands, and a bot can pick one uniformly.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from domain.arnak.components import book
from domain.arnak.effects import bridge_payable, can_pay, cannot_start, start_needs, supported
from domain.arnak.events import Event
from domain.arnak.state import GameState
from domain.arnak.travel import payments, travel_icons


def to_act(state: GameState) -> list[int]:
    """The seats that may act now (one at a time in Arnak)."""
    if state.outcome is not None:
        return []
    if state.pending is not None:
        return [state.pending.seat]
    if state.phase == "play":
        return [state.turn]
    return []


def unaffected(events: Sequence[Event], seat: int) -> bool:
    """Whether a move ``seat`` chose before ``events`` (other seats' moves since) still stands: never in Arnak,
    where one seat acts at a time (``to_act``), so any move made since changed the game the seat chose on."""
    return False


def legal_actions(state: GameState, seat: int) -> list[Action]:
    if state.outcome is not None or not 0 <= seat < state.n_players:
        return []
    if state.pending is not None:
        if state.pending.seat != seat:
            return []
        return [Choose(seat, option) for option in state.pending.options]
    if state.phase != "play" or state.turn != seat or state.seats[seat].passed:
        return []
    out: list[Action] = []
    if not state.main_done:
        pay = _PayOptions(state, seat)
        out.extend(_digs(state, seat, pay))
        out.extend(_discoveries(state, seat, pay))
        out.extend(_overcomes(state, seat, pay))
        out.extend(_buys(state, seat))
        out.extend(_research(state, seat))
        out.append(Pass(seat))
    out.extend(_plays(state, seat))
    out.extend(_assistants(state, seat))
    out.extend(UseBoon(seat, g) for g in state.seats[seat].guardians if g not in state.seats[seat].boons_used)
    out.extend(_idols(state, seat))
    if state.main_done:
        out.append(EndTurn(seat))
    return out


def _free_spaces(state: GameState, seat: int) -> list[str]:
    if state.archaeologists_out(seat) >= book().archaeologists:
        return []
    taken = {space for space, _ in state.occupants} | set(state.blocked)
    return [s for s in book().boards[state.side].spaces if s not in taken]


class _PayOptions:
    """Every payment of a travel cost for one seat in one position, each cost worked out once.

    SPEED: the board's 22 spaces show only a handful of distinct costs (a boot, two boots, a car, a ship...), and
    listing the payments was a third of a random four-player game's time; asked once per cost, a game runs about
    1.5x faster (19 to 28 games per CPU second, measured with simulate.play_game and random bots)."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.player = state.seats[seat]
        self.icons = {c: travel_icons(self.player, c) for c in self.player.hand}
        self.known: dict[tuple[tuple[str, ...], int, int], list[Payment]] = {}

    def __call__(self, need: tuple[str, ...], discards: int, coins: int) -> list[Payment]:
        key = (need, discards, coins)
        if key not in self.known:
            p = self.player
            charter = book().plane_charter_coins
            self.known[key] = list(payments(p.hand, self.icons, p.travel, coins, charter, need, discards))
        return self.known[key]


def _digs(state: GameState, seat: int, pay: _PayOptions) -> list[Action]:
    b = book()
    board = b.boards[state.side]
    sites = {site.id: site for site in state.sites}
    coins = state.seats[seat].resources[0]
    out: list[Action] = []
    for space in _free_spaces(state, seat):
        where = board.spaces[space]
        site = sites.get(where.location)
        if site is None:
            effect = board.location(where.location).effect or "[]"
        elif site.tile is None:
            continue
        else:
            effect = b.site_tiles[site.tile].effect
        free = start_needs(effect) is None  # nothing to check per payment (most sites and camps)
        for payment in pay(where.cost, 0, coins):
            if free or cannot_start(state, seat, effect, hand_loss=len(payment.cards)) is None:
                out.append(Dig(seat, space, payment))
    return out


def _discoveries(state: GameState, seat: int, pay: _PayOptions) -> list[Action]:
    b = book()
    board = b.boards[state.side]
    sites = {site.id: site for site in state.sites}
    p = state.seats[seat]
    coins, compasses = p.resources[:2]
    out: list[Action] = []
    for space in _free_spaces(state, seat):
        where = board.spaces[space]
        site = sites.get(where.location)
        if site is None or site.tile is not None:
            continue
        level = board.location(where.location).level
        if not state.site_stacks[level - 1] or compasses < b.discover_compasses[level] - p.discover_discount:
            continue
        for payment in pay(where.cost, 0, coins):
            out.append(Discover(seat, space, payment))
    return out


def _overcomes(state: GameState, seat: int, pay: _PayOptions) -> list[Action]:
    b = book()
    spaces = b.boards[state.side].spaces
    mine = {spaces[space].location for space, s in state.occupants if s == seat}
    p = state.seats[seat]
    out: list[Action] = []
    for location, found in state.guardians_out():
        if location not in mine:
            continue
        guardian = b.guardians[found]
        if not can_pay(p.resources, guardian.cost):
            continue
        coins = p.resources[0] - guardian.cost[0]
        for payment in pay(guardian.travel, guardian.discards, coins):
            out.append(Overcome(seat, location, payment))
    return out


def _buys(state: GameState, seat: int) -> list[Action]:
    b = book()
    coins, compasses = state.seats[seat].resources[:2]
    out: list[Action] = [Buy(seat, c) for c in state.item_row if b.card(c).cost <= coins]
    out.extend(Buy(seat, c) for c in state.artifact_row if b.card(c).cost <= compasses and supported(b.card(c).effect))
    return out


def _research(state: GameState, seat: int) -> list[Action]:
    p = state.seats[seat]
    track = book().boards[state.side].track
    out: list[Action] = []
    if p.glass == "temple":  # the glass now buys temple tiles; the notebook still climbs
        for stack, left in enumerate(state.temple_stacks):
            if left > 0 and can_pay(p.resources, book().temple_stacks[stack].cost):
                out.append(TempleTile(seat, stack))
    bonus = {space for space, _ in state.research_bonus}
    for token, here in (("glass", p.glass), ("notebook", p.notebook)):
        for bridge in track.bridges:
            if bridge.source != here or not bridge_payable(p, bridge):
                continue
            if token == "notebook" and (bridge.target == "temple" or track.row(bridge.target) > track.row(p.glass)):
                continue
            out.append(Research(seat, token, bridge.target))
            if bridge.target in bonus:  # "You may resolve the row effect before the bonus tile if you prefer."
                out.append(Research(seat, token, bridge.target, row_first=True))
    return out


def _plays(state: GameState, seat: int) -> list[Action]:
    b = book()
    p = state.seats[seat]
    out: list[Action] = []
    for card_id in p.hand:
        card = b.card(card_id)
        if card.kind == "fear" or not supported(card.effect):
            continue
        if not card.free and state.main_done:
            continue
        if card.kind == "artifact" and p.resources[2] < b.artifact_play_tablets:
            continue
        if cannot_start(state, seat, card.effect, hand_loss=1) is None:
            out.append(Play(seat, card_id))
    return out


def _assistants(state: GameState, seat: int) -> list[Action]:
    b = book()
    out: list[Action] = []
    for held in state.seats[seat].assistants:
        printed = b.assistants[held.id]
        effect = printed.gold if held.gold else printed.silver
        if held.exhausted or not supported(effect) or (printed.main and state.main_done):
            continue
        if cannot_start(state, seat, effect) is None:
            out.append(UseAssistant(seat, held.id))
    return out


def _idols(state: GameState, seat: int) -> list[Action]:
    b = book()
    p = state.seats[seat]
    if not p.idols or len(p.slots) >= len(b.idol_slot_vp):
        return []
    return [
        PlaceIdol(seat, option.id)
        for option in b.idol_slot_options.values()
        if cannot_start(state, seat, option.effect) is None
    ]


def timeout_action(state: GameState, seat: int) -> Action | None:
    """What the server plays for ``seat`` when its time runs out (``None``: the seat has nothing to do now). The
    rules: a seat that "cannot or do[es] not want to take another main action" passes, and a turn whose main
    action is done ends. A pending choice (which the rules never let a seat skip) takes its first option, a design
    choice documented in docs/rules/arnak.md, *Time controls*."""
    legal = legal_actions(state, seat)
    if not legal:
        return None
    if state.pending is not None:
        return legal[0]
    if state.main_done:
        return EndTurn(seat)
    return Pass(seat)
