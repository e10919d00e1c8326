"""``decide(state, action) -> events``: judge an action against the rules and say what happens.

Raises a ``RuleViolation`` (or ``NotYourTurn`` / ``GameOver``) whose message names the rule broken;
a refused action returns nothing and, the state being immutable, changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.errors import GameOver, NotYourTurn, RuleViolation
from domain.ruins import events as ev
from domain.ruins.actions import Action, Discard, Flip, Pass, Play
from domain.ruins.caches import next_turn, passed, pile_cleared, player_skipped, profile, ruins_played, without
from domain.ruins.evolve import replay
from domain.ruins.setup import deal, next_round_leader
from domain.ruins.state import GameState, Profile, Ruin


def decide(state: GameState, action: Action) -> list[ev.Event]:
    if state.outcome is not None:
        who = state.players[state.outcome.winner]
        raise GameOver(f"the game is over: {who} won ({state.outcome.how})")
    if not 0 <= action.seat < len(state.players):
        raise RuleViolation(f"there is no {{seat}} in a {state.n_players}-player game", seat=action.seat)
    kind = type(action)  # (the exact types first: a play or a pass, nearly every time)
    if kind is Play or (kind is not Pass and isinstance(action, Play)):
        return _play(state, action)  # type: ignore[arg-type]
    if isinstance(action, Pass):
        return _pass(state, action)
    if isinstance(action, Flip):
        return _flip(state, action)
    if isinstance(action, Discard):
        return _discard(state, action)
    raise RuleViolation(f"not a Ruins action: {action!r}")


def _check_turn(state: GameState, seat: int) -> None:
    if state.phase == "flip":
        raise NotYourTurn("a round starts with every player choosing their night flip (or none) before anyone plays")
    if state.phase == "discard":
        raise NotYourTurn("{seat} must first discard after their dig", seat=state.discarder)
    if state.turn != seat:
        raise NotYourTurn("it is {turn}'s turn, not {seat}'s", turn=state.turn, seat=seat)


def _flip(state: GameState, action: Flip) -> list[ev.Event]:
    seat = action.seat
    if state.phase != "flip":
        raise NotYourTurn("a ruin can be flipped to night only at the start of a round, before the lead")
    if seat not in state.participants:
        raise NotYourTurn("{seat} is not playing this round", seat=seat)
    chosen = {s for s, _ in state.flip_choices}
    if seat in chosen:
        raise RuleViolation("each player may flip at most 1 ruin per round, and this seat has already chosen")
    if action.ruin is not None:
        if action.ruin not in state.hands[seat]:
            raise RuleViolation(f"you may only flip a ruin in your own hand; ruin {action.ruin} is not in it")
        if state.ruins[action.ruin].night:
            raise RuleViolation(f"the flip to night is permanent: ruin {action.ruin} is already on its night side")
    events: list[ev.Event] = [ev.NightFlipChosen(seat, action.ruin)]
    if len(chosen) + 1 == len(state.participants):
        flips = dict(state.flip_choices)
        flips[seat] = action.ruin
        events.append(ev.NightFlipsRevealed(tuple(flips.get(s) for s in range(state.n_players))))
    return events


def _discard(state: GameState, action: Discard) -> list[ev.Event]:
    if state.phase != "discard" or state.discarder != action.seat:
        raise NotYourTurn("a discard is only made right after your own dig")
    if len(action.ruins) != state.discard_count or len(set(action.ruins)) != len(action.ruins):
        raise RuleViolation(f"after a dig you discard exactly {state.discard_count} different ruin(s)")
    missing = [c for c in action.ruins if c not in state.hands[action.seat]]
    if missing:
        raise RuleViolation(f"you can only discard ruins from your own hand; {missing} not in it")
    return [ev.RuinsDiscarded(action.seat, action.ruins)]


def _pass(state: GameState, action: Pass) -> list[ev.Event]:
    seat = action.seat
    if state.turn != seat or state.phase != "play":
        _check_turn(state, seat)
    top = state.top
    if top is None:
        raise RuleViolation("the leader must play: you may pass only when following another player's play")
    responders = len(state.responded) + (seat not in state.responded)
    return [passed(seat), _after_response(state, state.hands, top.seat, responders, seat)]


def _after_response(
    state: GameState, hands: Sequence[tuple[int, ...]], owner: int, responders: int, last: int
) -> ev.Event:
    """Pile cleared once every other player still holding cards has passed (or been skipped) in a row.

    Only holders can pass or be skipped, and nobody goes out without playing (which resets the count),
    so comparing the number of responders with the number of other holders is enough."""
    participants = state.participants
    if len(participants) == len(hands):  # everyone is dealt in: the holders are the non-empty hands
        holders = len(hands) - hands.count(())
    else:
        holders = len([s for s in participants if hands[s]])
    if responders >= holders - (1 if hands[owner] else 0):
        return pile_cleared(owner if hands[owner] else _next_holder(state, hands, owner))
    return next_turn(_next_holder(state, hands, last))


# The seats after each seat, clockwise, ending with itself: _CLOCKWISE[n][seat] (n players).
_CLOCKWISE = tuple(tuple(tuple((seat + step) % n for step in range(1, n + 1)) for seat in range(n)) for n in range(9))


def _next_holder(state: GameState, hands: Sequence[tuple[int, ...]], seat: int) -> int:
    participants = state.participants
    for other in _CLOCKWISE[len(hands)][seat]:  # (one hand per seat)
        if hands[other] and other in participants:
            return other
    raise AssertionError("no player holds cards")  # a round ends before this can happen


def _triggers(profiles: Sequence[Profile]) -> tuple[int, int, int]:
    """The torches ``profiles`` relight, the ruins they dig and the burden they give when played."""
    relight = dig = burden = 0
    for prof in profiles:
        relight += prof.relight
        dig += prof.dig
        burden += prof.burden
    return relight, dig, burden


def _check_set(played: tuple[int, ...], hand: tuple[int, ...]) -> None:
    if not played:
        raise RuleViolation("a play must contain at least one ruin")
    if len(set(played)) != len(played):
        raise RuleViolation("each ruin can be played only once in a play")
    for card in played:
        if card not in hand:
            raise RuleViolation(f"you can only play ruins from your own hand; ruin {card} is not in it")


def _play(state: GameState, action: Play) -> list[ev.Event]:
    seat = action.seat
    if state.turn != seat or state.phase != "play":
        _check_turn(state, seat)
    played = action.ruins
    hand = state.hands[seat]
    if len(played) != 1:
        _check_set(played, hand)
    elif played[0] not in hand:  # (one ruin: the only check that can fail)
        raise RuleViolation(f"you can only play ruins from your own hand; ruin {played[0]} is not in it")

    # Crafting first: legality is judged after crafting.
    events: list[ev.Event] = []
    if action.purchases or action.claims:
        torches, profiles = _craft(state, action, events)
    else:
        all_profiles = state.profiles
        torches, profiles = state.torches[seat], [all_profiles[c] for c in played]
    rank = action.rank
    count = len(played)
    effects = False  # most ruins have none: they count as one and trigger nothing
    for card, prof in zip(played, profiles, strict=True):
        if rank not in prof.ranks:
            raise RuleViolation(
                f"a set is ruins of one rank: ruin {card} cannot count as rank {rank} "
                f"(it can be {', '.join(map(str, sorted(prof.ranks)))})"
            )
        if prof.effects:
            count += prof.weight - 1  # a twin counts as two ruins
            effects = True
    top = state.top
    if top is not None:
        if count != top.count:
            raise RuleViolation(f"a follow must be exactly {top.count} ruin(s), like the lead; this play is {count}")
        if rank < top.rank:
            raise RuleViolation(f"a follow must be of equal or higher rank than {top.rank}")
    events.append(ruins_played(seat, played, rank, count, top is None))

    hands = list(state.hands)
    hands[seat] = without(hand, played)
    burden = 0
    dug: tuple[int, ...] = ()
    if effects:
        # Triggered effects fire from what the ruins carried when they were played: a discovery sleeved
        # in this very play works from the ruin's next play on (docs/rules/ruins.md).
        relight, dig, burden = _triggers([state.profiles[c] for c in played] if action.purchases else profiles)
        dug = _relight_and_dig(state, seat, relight, dig, torches, hands, events)

    if not hands[seat] and _go_out(state, seat, hands, events):
        return events

    if burden:
        target = _next_holder(state, hands, seat)
        forced = state.draw_pile[len(dug) :][:burden]
        if forced and target != seat:
            events.append(ev.RuinsDrawn(target, forced, "burden"))
            hands[target] = hands[target] + forced

    # Matching the rank exactly skips the next player; the skip counts toward 'everyone else passed'.
    responders, turn_from = 0, seat
    if top is not None and rank == top.rank:
        skipped = _next_holder(state, hands, seat)
        if skipped != seat:
            events.append(player_skipped(skipped))
            responders, turn_from = 1, skipped
    events.append(_after_response(state, hands, seat, responders, turn_from))
    if dug:
        events.append(ev.DiscardRequired(seat, len(dug)))
    return events


def _relight_and_dig(
    state: GameState,
    seat: int,
    relight: int,
    dig: int,
    torches: int,
    hands: list[tuple[int, ...]],
    events: list[ev.Event],
) -> tuple[int, ...]:
    """Relight torches (up to all of them) and dig (draw) ruins, unless the play emptied the hand; return the
    ruins dug (the top of the draw pile)."""
    relight = min(relight, state.book.torches - torches)
    if relight > 0:
        events.append(ev.TorchesRelit(seat, relight))
    dug: tuple[int, ...] = ()
    if hands[seat] and dig:
        dug = state.draw_pile[:dig]
        if dug:
            events.append(ev.RuinsDrawn(seat, dug, "dig"))
            hands[seat] = hands[seat] + dug
    return dug


def _craft(state: GameState, action: Play, events: list[ev.Event]) -> tuple[int, list[Profile]]:
    """Apply the play's purchases and claims to the played ruins, in order; return the torches left and
    the played ruins' profiles after crafting."""
    book = state.book
    seat = action.seat
    ruins: dict[int, Ruin] = {c: state.ruins[c] for c in action.ruins}
    torches = state.torches[seat]
    market = list(state.market)
    deck = list(state.discovery_deck)
    for purchase in action.purchases:
        d, card = purchase.discovery, purchase.ruin
        if d not in market:
            raise RuleViolation(f"discovery {d} is not in the market")
        if card not in ruins:
            raise RuleViolation(f"crafting upgrades only the ruins you are playing now; ruin {card} is not among them")
        slot = market.index(d)
        price = book.market_prices[slot]
        if price > torches:
            raise RuleViolation(f"discovery {d} costs {price} lit torch(es) and you have {torches} lit")
        pos = book.position_index(d)
        sleeves = ruins[card].sleeves
        if sleeves[pos] is not None:
            raise RuleViolation(
                f"ruin {card} already holds a discovery at the {book.positions[pos]} position "
                "(at most 3 per ruin, one per position)"
            )
        torches -= price
        ruins[card] = ruins[card].with_sleeve(pos, d)
        # The row slides toward the cheap end and the dear end is refilled from the deck.
        drawn = deck.pop(0) if deck else None
        market = market[:slot] + market[slot + 1 :] + [drawn]
        events.append(ev.DiscoveryBought(seat, d, card, slot, price, tuple(market), drawn))
    if len(action.claims) > state.claims_left[seat]:
        raise RuleViolation(
            f"you have {state.claims_left[seat]} claim card(s) left (2 per player, each used once per game)"
        )
    for card in action.claims:
        if card not in ruins:
            raise RuleViolation(f"a claim goes only on a ruin you are playing now; ruin {card} is not among them")
        if ruins[card].claim is not None:
            raise RuleViolation(f"ruin {card} already carries a claim (one claim per ruin)")
        ruins[card] = replace(ruins[card], claim=seat)
        events.append(ev.ClaimSleeved(seat, card))

    crafted = {p.ruin for p in action.purchases}
    return torches, [profile(book, c, ruins[c]) if c in crafted else state.profiles[c] for c in action.ruins]


def _go_out(state: GameState, seat: int, hands: list[tuple[int, ...]], events: list[ev.Event]) -> bool:
    """Score going out; end the round or the game when that follows. True when play stops here."""
    book = state.book
    place = len(state.finish_order) + 1
    award = 0 if state.showdown else book.award(len(state.participants), place)
    vp = min(book.vp_max, state.vp[seat] + award)
    events.append(ev.WentOut(seat, place, award, vp))
    if state.showdown:
        events.append(ev.GameWon(seat, "showdown", state.round))
        return True
    if place == 1 and state.round_start_vp[seat] >= book.instant_win_vp:
        events.append(ev.GameWon(seat, "instant", state.round))
        return True
    holders = [s for s in state.participants if hands[s]]
    if len(holders) > 1:
        return False
    last = holders[0]
    scores = list(state.vp)
    scores[seat] = vp
    penalty = min(book.last_holder_penalty, scores[last] - book.vp_min)
    scores[last] -= penalty
    order = (*state.finish_order, seat, last)
    events.append(ev.RoundEnded(state.round, last, penalty, tuple(scores), order))
    if state.round < book.max_rounds:
        participants = tuple(range(state.n_players))
        showdown = False
    else:
        first = order[0]
        best = max(scores[s] for s in state.participants if s != first)
        tied = [s for s in state.participants if s != first and scores[s] == best]
        participants = tuple(sorted([first, *tied]))
        showdown = True
    leader = next_round_leader(tuple(scores), participants, order)
    # Upgrades made in this very play travel with their ruins: take them from evolve, the one place
    # that applies events (only the crafting events touch ``ruins``).
    ruins = replay([e for e in events if isinstance(e, (ev.DiscoveryBought, ev.ClaimSleeved))], state).ruins
    round_no = state.round + 1
    events.append(
        deal(book, state.seed, state.n_players, round_no, showdown, participants, leader, ruins, state.set_aside)
    )
    return True
