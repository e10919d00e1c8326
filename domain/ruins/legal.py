"""``legal_actions(state, seat)``: every action a seat may take now, sorted and deterministic.

Plays are listed without crafting. Crafting is described as options of a play: ``craft_options``
lists each purchase or claim that may be added to a given play and keeps it legal. ``decide`` checks
any concrete action, crafted or not.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from domain.errors import DomainError
from domain.ruins.actions import Action, Discard, Flip, Pass, Play, Purchase
from domain.ruins.cards import rulebook
from domain.ruins.state import GameState, Profile


def legal_actions(state: GameState, seat: int) -> list[Action]:
    if state.outcome is not None or not 0 <= seat < state.n_players:
        return []
    if state.phase == "flip":
        if seat not in state.participants or any(s == seat for s, _ in state.flip_choices):
            return []
        day = [c for c in state.hands[seat] if not state.ruins[c].night]
        return [Flip(seat, None), *(Flip(seat, c) for c in day)]
    if state.phase == "discard":
        if seat != state.discarder:
            return []
        return [Discard(seat, combo) for combo in combinations(state.hands[seat], state.discard_count)]
    if state.phase != "play" or state.turn != seat:
        return []
    actions: list[Action] = [] if state.top is None else [Pass(seat)]
    actions.extend(plays(state, seat))
    return actions


_Analysis = tuple[dict[int, list[int]], dict[int, int]]
_HANDS: dict[tuple[tuple[int, ...], int], tuple[tuple[Profile, ...], _Analysis]] = {}


def _analyse(hand: tuple[int, ...], profiles: tuple[Profile, ...]) -> _Analysis:
    """Which cards of ``hand`` can count as each rank, and the weight of any card that is not 1.

    Cached by the hand and the identity of the profiles tuple: around an exchange the same hand is
    asked again with the same (unchanged) ruins, and this is the engine's hottest loop."""
    key = (hand, id(profiles))
    hit = _HANDS.get(key)
    if hit is not None and hit[0] is profiles:
        return hit[1]
    by_rank: dict[int, list[int]] = {}
    weights: dict[int, int] = {}
    for card in hand:
        prof = profiles[card]
        if prof.weight != 1:
            weights[card] = prof.weight
        for rank in prof.ranks:
            by_rank.setdefault(rank, []).append(card)
    analysis = ({rank: by_rank[rank] for rank in sorted(by_rank)}, weights)
    if len(_HANDS) > 50_000:
        _HANDS.clear()
    _HANDS[key] = (profiles, analysis)
    return analysis


def plays(state: GameState, seat: int) -> list[Play]:
    """Every uncrafted play: leads of any size, or follows of the right count at equal or higher rank."""
    by_rank, weights = _analyse(state.hands[seat], state.profiles)
    top = state.top
    out: list[Play] = []
    if top is None:
        for rank, cards in by_rank.items():
            for size in range(1, len(cards) + 1):
                out.extend(Play(seat, combo, rank) for combo in combinations(cards, size))
        return out
    count = top.count
    for rank, cards in by_rank.items():
        if rank < top.rank or (len(cards) < count and not weights):
            continue
        if not weights:
            out.extend(Play(seat, combo, rank) for combo in combinations(cards, count))
        else:  # a twin counts as two ruins: find every subset whose weights add up to the count
            for size in range(1, min(len(cards), count) + 1):
                out.extend(
                    Play(seat, combo, rank)
                    for combo in combinations(cards, size)
                    if sum(weights.get(c, 1) for c in combo) == count
                )
    return out


def can_follow(state: GameState, seat: int) -> bool:
    """Whether ``seat`` has any uncrafted follow of the play to beat (cheaper than listing them all)."""
    top = state.top
    if top is None:
        return False
    by_rank, weights = _analyse(state.hands[seat], state.profiles)
    for rank, cards in by_rank.items():
        if rank < top.rank:
            continue
        if not weights:
            if len(cards) >= top.count:
                return True
        elif any(
            sum(weights.get(c, 1) for c in combo) == top.count
            for size in range(1, min(len(cards), top.count) + 1)
            for combo in combinations(cards, size)
        ):
            return True
    return False


def craft_options(state: GameState, play: Play) -> list[Play]:
    """The plays made of ``play`` plus one more purchase or claim, each still legal."""
    from domain.ruins.decide import decide  # local: decide imports the rules this module also uses

    book = rulebook()
    seat = play.seat
    spent = 0
    market = list(state.market)
    for p in play.purchases:
        if p.discovery in market:
            slot = market.index(p.discovery)
            spent += book.market_prices[slot]
            market = market[:slot] + market[slot + 1 :] + [None]
    torches = state.torches[seat] - spent
    sleeves = {c: state.ruins[c].sleeves for c in play.ruins}
    for p in play.purchases:
        pos = book.position_index(p.discovery)
        sleeves[p.ruin] = (*sleeves[p.ruin][:pos], p.discovery, *sleeves[p.ruin][pos + 1 :])
    candidates: list[Play] = []
    for slot, d in enumerate(market):
        if d is None or book.market_prices[slot] > torches:
            continue
        pos = book.position_index(d)
        for card in play.ruins:
            if sleeves[card][pos] is None:
                candidates.append(replace(play, purchases=(*play.purchases, Purchase(d, card))))
    if state.claims_left[seat] > len(play.claims):
        for card in play.ruins:
            if state.ruins[card].claim is None and card not in play.claims:
                candidates.append(replace(play, claims=(*play.claims, card)))
    legal = []
    for candidate in candidates:
        try:
            decide(state, candidate)
        except DomainError:
            continue
        legal.append(candidate)
    return legal


def to_act(state: GameState) -> list[int]:
    """The seats that may act now (several during the simultaneous night-flip choice)."""
    if state.outcome is not None:
        return []
    if state.phase == "flip":
        chosen = {s for s, _ in state.flip_choices}
        return [s for s in state.participants if s not in chosen]
    if state.phase == "discard":
        return [] if state.discarder is None else [state.discarder]
    return [] if state.turn is None else [state.turn]
