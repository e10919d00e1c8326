"""Property tests: many random legal Ruins games, checked after every action.

Each hypothesis example is one whole game for 2, 3, 4 or 5 players. Hypothesis draws the game seed, the
bot seed and the bots (``RandomBot`` with crafting mixed with ``HeuristicBot`` with random tendencies).
``DIGSITE_PROPERTY_GAMES`` sets the games per player count (default 250: about 1000 games for the file).

After EVERY action the cheap invariants are checked in full: conservation of ruins and discoveries,
permanent upgrades, VP/torch/claim bounds, the profile cache, the JSON round trip of every event, and that
only the seats to act have legal actions. SPEED: the dearer checks run on a random half of the steps
(``DEEP_RATE``) and are sampled there: up to ``LEGAL_SAMPLE`` legal actions per acting seat are re-decided
(all of them when there are that few), one of those plays is extended ``CRAFT_DEPTH`` times with
``craft_options`` (every option re-decided), and ``ILLEGAL_SAMPLE`` mutated illegal actions are tried.
Replaying the events and re-deciding the recorded actions run once per game over the whole game, plus one
replay of a random prefix. Measured: the default 4 x 250 games take about 2 minutes of CPU (the raw engine
plays them in about 20 s).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_event
from hypothesis import strategies as st

from domain import ruins
from domain.errors import GameOver, RuleViolation
from domain.ruins import events as ev
from domain.ruins.actions import Action, Discard, Flip, Pass, Play, Purchase
from domain.ruins.bots import HeuristicBot, RandomBot, Seen
from domain.ruins.caches import profile
from domain.ruins.simulate import play_game
from domain.ruins.state import GameState

BOOK = ruins.book_of()
RUIN_IDS = frozenset(range(len(BOOK.ruins)))
DISCOVERY_IDS = frozenset(range(len(BOOK.discoveries)))
GAMES = int(os.environ.get("DIGSITE_PROPERTY_GAMES", "250"))
LEGAL_SAMPLE = 3
ILLEGAL_SAMPLE = 2
CRAFT_DEPTH = 2
DEEP_RATE = 0.5  # the share of steps that also get the legal/illegal action checks (for speed)
STATE_FIELDS = tuple(f.name for f in dataclasses.fields(GameState))

GAME_SETTINGS = settings(
    max_examples=GAMES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

bots = st.one_of(
    st.builds(RandomBot, craft_rate=st.floats(0.0, 0.9)),
    st.builds(
        HeuristicBot,
        pass_rate=st.floats(0.0, 1.0),
        torch_rate=st.floats(0.0, 0.95),
        claim_rate=st.floats(0.0, 1.0),
        lead=st.sampled_from(["low", "high", "big"]),
        flip_rate=st.floats(0.0, 1.0),
    ),
)
game_seeds = st.one_of(st.integers(min_value=0, max_value=2**63), st.text(max_size=12))


def max_actions(n_players: int) -> int:
    """A bound from the rules: per round n flips; each play moves >= 1 ruin from a hand to the pile, and
    mid-round ruins reach hands only from the draw pile, so <= 50 plays; between plays at most n - 1
    passes; at most one discard per play. At most 4 rounds plus the Showdown."""
    per_round = n_players + len(BOOK.ruins) * (n_players + 1)
    return (BOOK.max_rounds + 1) * per_round


def test_the_components_match_the_seed() -> None:
    """'50 ruin cards (5 each of ranks 1-10)' and '39 discovery cards (13 top, 13 middle, 13 bottom position)'."""
    assert len(BOOK.ruins) == 50
    assert sorted(r.day_rank for r in BOOK.ruins) == sorted(list(range(1, 11)) * 5)
    assert len(BOOK.discoveries) == 39
    for position in BOOK.positions:
        assert sum(1 for d in BOOK.discoveries if d.position == position) == 13


# --------------------------------------------------------------------------- invariants


def check_state(state: GameState) -> None:
    """Invariants of a single state."""
    places = [
        *(c for hand in state.hands for c in hand),
        *state.draw_pile,
        *state.pile,
        *state.discard,
        *state.set_aside,
    ]
    assert sorted(places) == sorted(RUIN_IDS), "every ruin is in exactly one of hands/draw pile/pile/discard/set aside"

    sleeved = [d for ruin in state.ruins for d in ruin.sleeves if d is not None]
    discoveries = [*(d for d in state.market if d is not None), *state.discovery_deck, *sleeved]
    assert sorted(discoveries) == sorted(DISCOVERY_IDS), "every discovery is in the market, the deck or a sleeve"
    for ruin in state.ruins:
        for position, d in enumerate(ruin.sleeves):
            assert d is None or BOOK.position_index(d) == position, "a discovery sits in its own sleeve position"

    assert len(state.market) == len(BOOK.market_prices)
    assert all(BOOK.vp_min <= v <= BOOK.vp_max for v in state.vp), f"VP on the 0-10 track: {state.vp}"
    assert all(0 <= t <= BOOK.torches for t in state.torches), f"0-3 lit torches: {state.torches}"
    assert all(0 <= c <= BOOK.claims for c in state.claims_left), f"0-2 claims left: {state.claims_left}"
    used = Counter(ruin.claim for ruin in state.ruins)
    for seat in range(state.n_players):
        assert used[seat] + state.claims_left[seat] == BOOK.claims, "2 claim cards per player, each used once per game"
    for seat in range(state.n_players):
        if seat not in state.participants:
            assert not state.hands[seat], "only the round's participants hold ruins"
    assert not set(state.set_aside) & {c for hand in state.hands for c in hand}


def check_profiles(state: GameState, before: GameState | None = None) -> None:
    """The engine's per-ruin profile cache (when it keeps one) matches the ruins. After a step only the ruins
    or cached profiles that changed need checking: the rest were checked before."""
    cached = getattr(state, "profiles", ())
    if not cached:
        return
    old_ruins = before.ruins if before is not None else (None,) * len(state.ruins)
    old_profiles = getattr(before, "profiles", ()) or (None,) * len(state.ruins)
    for card, ruin in enumerate(state.ruins):
        if ruin is not old_ruins[card] or cached[card] is not old_profiles[card]:
            assert cached[card] == profile(BOOK, card, ruin), f"stale cached profile of ruin {card}"


def check_transition(before: GameState, after: GameState) -> None:
    """Upgrades are forever: a sleeve, a claim or a night side once set stays on that ruin."""
    for card, (old, new) in enumerate(zip(before.ruins, after.ruins, strict=True)):
        for position, d in enumerate(old.sleeves):
            if d is not None:
                assert new.sleeves[position] == d, f"ruin {card} lost its discovery {d}"
        if old.claim is not None:
            assert new.claim == old.claim, f"ruin {card} lost the claim of seat {old.claim}"
        if old.night:
            assert new.night, f"ruin {card} flipped back to day: the flip to night is permanent"
    assert after.set_aside == before.set_aside, "set-aside ruins stay out for the whole game"


def round_trip(event: ev.Event) -> None:
    data = json.loads(json.dumps(ruins.event_to_dict(event)))
    assert ruins.event_from_dict(data) == event


# --------------------------------------------------------------------------- legal actions


def check_legal_accepted(state: GameState, legal: dict[int, list[Action]], rng: random.Random) -> None:
    """Only the seats to act have legal actions; up to ``LEGAL_SAMPLE`` of each seat's (all when that few)
    are accepted by decide, and one sampled play, crafted ``CRAFT_DEPTH`` times over with craft_options, too."""
    for seat in range(state.n_players):
        if seat not in legal:
            assert ruins.legal_actions(state, seat) == [], f"seat {seat} may not act now"
    crafted_from: list[Play] = []
    for seat, actions in legal.items():
        assert actions, f"seat {seat} is to act but has no legal action"
        sample = actions if len(actions) <= LEGAL_SAMPLE else rng.sample(actions, LEGAL_SAMPLE)
        for action in sample:
            assert ruins.decide(state, action), f"legal action {action} produced no event"
        crafted_from.extend(a for a in sample if isinstance(a, Play))
    if not crafted_from:
        return
    play = rng.choice(crafted_from)
    for _ in range(CRAFT_DEPTH):  # craft again and again: each option is the play plus one purchase or claim
        options = ruins.craft_options(state, play)
        for option in options:
            assert option.ruins == play.ruins and option.rank == play.rank
            added = (len(option.purchases) - len(play.purchases), len(option.claims) - len(play.claims))
            assert added in ((1, 0), (0, 1)), f"{option} is not {play} plus one purchase or claim"
            assert option.purchases[: len(play.purchases)] == play.purchases
            assert option.claims[: len(play.claims)] == play.claims
            assert ruins.decide(state, option)
        if not options:
            return
        play = rng.choice(options)


# --------------------------------------------------------------------------- illegal actions


def weight(state: GameState, cards: tuple[int, ...]) -> int:
    return sum(profile(BOOK, c, state.ruins[c]).weight for c in cards)


def not_in(hand: tuple[int, ...], rng: random.Random) -> int:
    return rng.choice(sorted(RUIN_IDS - set(hand)))


def dear_purchases(state: GameState, play: Play) -> tuple[Purchase, ...] | None:
    """Purchases onto ``play``'s ruins, dearest first, until one costs more lit torches than are left."""
    market = list(state.market)
    torches = state.torches[play.seat]
    sleeves = {c: list(state.ruins[c].sleeves) for c in play.ruins}
    bought: list[Purchase] = []
    while True:
        choice = None
        for slot in reversed(range(len(market))):
            d = market[slot]
            if d is None:
                continue
            free = [c for c in play.ruins if sleeves[c][BOOK.position_index(d)] is None]
            if free:
                choice = (slot, d, free[0])
                break
        if choice is None:
            return None
        slot, d, card = choice
        bought.append(Purchase(d, card))
        price = BOOK.market_prices[slot]
        if price > torches:
            return tuple(bought)
        torches -= price
        sleeves[card][BOOK.position_index(d)] = d
        market = market[:slot] + market[slot + 1 :] + [None]


def occupied_purchases(state: GameState, play: Play) -> tuple[Purchase, ...] | None:
    """An affordable purchase into a sleeve position that is already taken (by an old or a new discovery)."""
    torches = state.torches[play.seat]
    for slot, d in enumerate(state.market):
        if d is None or BOOK.market_prices[slot] > torches:
            continue
        pos = BOOK.position_index(d)
        for card in play.ruins:
            if state.ruins[card].sleeves[pos] is not None:
                return (Purchase(d, card),)
    for slot, d in enumerate(state.market):  # two purchases for the same position on one ruin
        if d is None or BOOK.market_prices[slot] > torches:
            continue
        pos = BOOK.position_index(d)
        after = [*state.market[:slot], *state.market[slot + 1 :], None]
        for slot2, d2 in enumerate(after):
            if d2 is None or BOOK.position_index(d2) != pos:
                continue
            if BOOK.market_prices[slot] + BOOK.market_prices[slot2] > torches:
                continue
            return (Purchase(d, play.ruins[0]), Purchase(d2, play.ruins[0]))
    return None


Maker = Callable[[], Action | None]


def illegal_makers(state: GameState, legal: dict[int, list[Action]], rng: random.Random) -> list[tuple[str, Maker]]:
    """Ways to break a rule here, each labelled and built lazily (only the sampled ones are built) by
    mutating a legal action or the position. A maker returns None when the position does not allow it."""
    n = state.n_players
    seats = list(legal)
    base = rng.choice([a for actions in legal.values() for a in actions])
    idle = [s for s in range(n) if s not in seats]
    out: list[tuple[str, Maker]] = [
        ("a seat not to act", lambda: replace(base, seat=rng.choice(idle)) if idle else None),
        ("a seat that does not exist", lambda: replace(base, seat=rng.choice([n, n + 1, -1]))),
    ]

    if state.phase == "flip":
        seat = rng.choice(seats)
        hand = state.hands[seat]
        night = [c for c in hand if state.ruins[c].night]
        return [
            *out,
            ("flipping a ruin not in the hand", lambda: Flip(seat, not_in(hand, rng))),
            ("flipping a night ruin again", lambda: Flip(seat, rng.choice(night)) if night else None),
            ("a play before the flips are done", lambda: Play(seat, hand[:1], min(ranks_of(state, hand[0])))),
            ("a pass before the flips are done", lambda: Pass(seat)),
            ("a discard with no dig", lambda: Discard(seat, hand[:1])),
        ]

    holders = [s for s in range(n) if state.hands[s]]

    def late_flip() -> Action:
        holder = rng.choice(holders)
        return Flip(holder, rng.choice(state.hands[holder]))

    out.append(("a flip outside the flip phase", late_flip))
    out.append(("a no-flip outside the flip phase", lambda: Flip(rng.randrange(n), None)))

    if state.phase == "discard":
        seat = state.discarder
        assert seat is not None
        hand = state.hands[seat]
        count = state.discard_count
        return [
            *out,
            ("a play while a discard is due", lambda: Play(seat, hand[:1], min(ranks_of(state, hand[0])))),
            ("a pass while a discard is due", lambda: Pass(seat)),
            ("discarding too many", lambda: Discard(seat, hand[: count + 1]) if len(hand) > count else None),
            ("discarding too few", lambda: Discard(seat, hand[: count - 1])),
            ("discarding a ruin not in the hand", lambda: Discard(seat, (not_in(hand, rng), *hand[: count - 1]))),
        ]

    assert state.phase == "play", state.phase
    seat = state.turn
    assert seat is not None
    hand = state.hands[seat]
    top = state.top
    out.append(("a discard with no dig", lambda: Discard(seat, hand[:1])))
    if top is None:
        out.append(("a pass by the leader", lambda: Pass(seat)))
    else:

        def sets(keep: Callable[[Play], bool]) -> Action | None:
            found = [p for p in ruins.plays(replace(state, top=None), seat) if keep(p)]
            return rng.choice(found) if found else None

        out.append(("a follow of the wrong count", lambda: sets(lambda p: weight(state, p.ruins) != top.count)))
        out.append(
            (
                "a follow of a lower rank",
                lambda: sets(lambda p: weight(state, p.ruins) == top.count and p.rank < top.rank),
            )
        )
    plays = [a for a in legal[seat] if isinstance(a, Play)]
    if not plays:
        return out
    play = rng.choice(plays)
    rest = [c for c in hand if c not in play.ruins]
    left = state.claims_left[seat]
    claimed = [c for c in play.ruins if state.ruins[c].claim is not None]
    affordable = [
        d for slot, d in enumerate(state.market) if d is not None and BOOK.market_prices[slot] <= state.torches[seat]
    ]

    def with_purchases(purchases: tuple[Purchase, ...] | None) -> Action | None:
        return None if purchases is None else replace(play, purchases=purchases)

    def impossible_rank() -> Action:
        possible = frozenset.intersection(*(ranks_of(state, c) for c in play.ruins))
        return replace(play, rank=rng.choice([r for r in range(BOOK.wild_rank_max + 2) if r not in possible]))

    missing = sorted(DISCOVERY_IDS - set(state.market))
    return [
        *out,
        ("a ruin not in the hand", lambda: replace(play, ruins=(not_in(hand, rng), *play.ruins[1:]))),
        ("a ruin twice in one play", lambda: replace(play, ruins=(*play.ruins, play.ruins[0]))),
        ("an empty play", lambda: replace(play, ruins=())),
        ("a rank the ruins cannot be", impossible_rank),
        ("a purchase costing more torches than lit", lambda: with_purchases(dear_purchases(state, play))),
        ("a second discovery in an occupied position", lambda: with_purchases(occupied_purchases(state, play))),
        ("buying a discovery not in the market", lambda: with_purchases((Purchase(missing[0], play.ruins[0]),))),
        (
            "crafting a ruin not played",
            lambda: with_purchases((Purchase(affordable[0], rest[0]),)) if rest and affordable else None,
        ),
        ("claiming a ruin not played", lambda: replace(play, claims=(rest[0],)) if rest else None),
        ("a claim when none left", lambda: replace(play, claims=(play.ruins[0],)) if left == 0 else None),
        (
            "more claims than left",
            lambda: replace(play, claims=play.ruins[: left + 1]) if 0 < left < len(play.ruins) else None,
        ),
        ("a second claim on one ruin", lambda: replace(play, claims=claimed[:1]) if claimed else None),
        (
            "the same ruin claimed twice",
            lambda: replace(play, claims=(play.ruins[0], play.ruins[0])) if left >= 2 else None,
        ),
    ]


def ranks_of(state: GameState, card: int) -> frozenset[int]:
    return profile(BOOK, card, state.ruins[card]).ranks


def check_illegal_rejected(state: GameState, legal: dict[int, list[Action]], rng: random.Random) -> None:
    """Up to ``ILLEGAL_SAMPLE`` random illegal actions are refused with a RuleViolation naming the rule, and
    leave the state unchanged. The state is a frozen value of immutable parts (``hash`` succeeds only on
    hashable contents), so an equal hash and the very same field objects afterwards mean it is unchanged."""
    makers = illegal_makers(state, legal, rng)
    rng.shuffle(makers)
    fields = tuple(getattr(state, name) for name in STATE_FIELDS)
    digest = hash(state)
    tried: list[str] = []
    for label, make in makers:
        action = make()
        if action is None:
            continue
        try:
            ruins.decide(state, action)
        except RuleViolation as error:
            assert str(error), f"{label}: the refusal names no rule"
        else:
            pytest.fail(f"{label}: {action} was accepted in phase {state.phase!r} (top {state.top})")
        tried.append(f"{label}: {action}")
        if len(tried) == ILLEGAL_SAMPLE:
            break
    assert hash(state) == digest, f"a refused action changed the state: {tried}"
    assert all(getattr(state, n) is v for n, v in zip(STATE_FIELDS, fields, strict=True)), tried


# --------------------------------------------------------------------------- the game loop


def play_checked_game(
    n_players: int, game_seed: int | str, bot_seed: int, seat_bots: list[RandomBot | HeuristicBot]
) -> GameState:
    """Play one game with the given bots, checking everything along the way; return the final state."""
    rng = random.Random(bot_seed)
    players = [f"player{i}" for i in range(n_players)]
    events = list(ruins.start(players, None, game_seed))
    for event in events:
        round_trip(event)
    state = ruins.replay(events)
    check_state(state)
    check_profiles(state)
    history: list[tuple[int, GameState]] = [(len(events), state)]
    actions: list[Action] = []
    bound = max_actions(n_players)

    while state.outcome is None:
        assert len(actions) < bound, f"no winner after {bound} actions"
        seats = ruins.to_act(state)
        assert seats, f"nobody may act in phase {state.phase!r}, yet the game is not over"
        legal = {seat: ruins.legal_actions(state, seat) for seat in seats}
        if rng.random() < DEEP_RATE:
            check_legal_accepted(state, legal, rng)
            check_illegal_rejected(state, legal, rng)

        seat = rng.choice(seats)
        action = seat_bots[seat].choose(Seen.from_state(state, seat), legal[seat], rng)
        new = ruins.decide(state, action)
        assert new
        before = state
        for event in new:
            round_trip(event)
            state = ruins.evolve(state, event)
        check_state(state)
        check_transition(before, state)
        check_profiles(state, before)
        actions.append(action)
        events.extend(new)
        history.append((len(events), state))

    check_game_over(state, events)
    # Replaying all events with evolve from scratch gives the live state, at the end and at a random step.
    replayed = ruins.replay(events)
    assert replayed == state
    check_profiles(replayed)
    cut, at_cut = rng.choice(history)
    assert ruins.replay(events[:cut]) == at_cut
    # Re-deciding the recorded actions from the start reproduces the recorded events.
    opening = list(ruins.start(players, None, game_seed))
    again = ruins.replay(opening)
    redecided = list(opening)
    for action in actions:
        new = ruins.decide(again, action)
        redecided.extend(new)
        again = ruins.replay(new, again)
    assert redecided == events
    assert again == state
    return state


def check_game_over(state: GameState, events: list[ev.Event]) -> None:
    """'There are two ways to win, and both demand going out first': one winner, who went out first."""
    result = ruins.outcome(state)
    assert result is not None
    won = [e for e in events if isinstance(e, ev.GameWon)]
    assert len(won) == 1 and events[-1] == won[0], "exactly one GameWon, and it is the last event"
    assert (result.winner, result.how, result.round) == (won[0].seat, won[0].how, won[0].round)
    assert result.winner in state.participants, "the winner played the final round"
    assert state.finish_order[:1] == (result.winner,), "the winner went out first"
    assert result.round == state.round
    if result.how == "instant":
        assert state.round_start_vp[result.winner] >= BOOK.instant_win_vp, "an instant win needs 9+ VP at round start"
        assert not state.showdown
    else:
        assert result.how == "showdown"
        assert state.showdown and state.round == BOOK.max_rounds + 1, "the Showdown follows round 4"
    assert ruins.to_act(state) == []
    for seat in range(state.n_players):
        assert ruins.legal_actions(state, seat) == []
        with pytest.raises(GameOver):
            ruins.decide(state, Pass(seat))


@pytest.mark.slow
@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
@GAME_SETTINGS
@given(data=st.data(), game_seed=game_seeds, bot_seed=st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_keep_every_invariant(
    n_players: int, data: st.DataObject, game_seed: int | str, bot_seed: int
) -> None:
    """Random legal games for 2-5 players: cards and discoveries are conserved, 'upgrades are forever',
    VP stay on the 0-10 track, torches 0-3, claims 0-2; legal actions are accepted, mutated ones refused;
    the game ends with exactly one winner; events replay and re-decide exactly and round-trip as JSON."""
    seat_bots = data.draw(st.lists(bots, min_size=n_players, max_size=n_players), label="bots")
    final = play_checked_game(n_players, game_seed, bot_seed, seat_bots)
    assert final.outcome is not None
    note_event(f"won by {final.outcome.how} in round {final.outcome.round}")  # see --hypothesis-show-statistics


def tendencies(rng: random.Random) -> RandomBot | HeuristicBot:
    """The same mix of bots as the ``bots`` strategy, drawn from a plain generator."""
    if rng.random() < 0.5:
        return RandomBot(craft_rate=rng.uniform(0.0, 0.9))
    return HeuristicBot(
        pass_rate=rng.random(),
        torch_rate=rng.uniform(0.0, 0.95),
        claim_rate=rng.random(),
        lead=rng.choice(["low", "high", "big"]),
        flip_rate=rng.random(),
    )


def test_the_random_games_reach_every_rule() -> None:
    """The property games are only as good as the positions they reach: the same bot mix, on fixed seeds,
    buys and claims, digs and discards, burdens, skips, clears the pile, ends rounds, and wins both ways
    ('instant win' and 'the Showdown')."""
    rng = random.Random(2024)
    kinds: Counter[str] = Counter()
    wins: set[str] = set()
    for game in range(80):
        n_players = 2 + game % 4
        played = play_game([f"p{i}" for i in range(n_players)], [tendencies(rng) for _ in range(n_players)], game)
        kinds.update(type(e).__name__ for e in played.events)
        kinds.update(f"drawn by {e.reason}" for e in played.events if isinstance(e, ev.RuinsDrawn))
        assert played.state.outcome is not None
        wins.add(played.state.outcome.how)
    missing = set(ev.EVENT_TYPES) | {"drawn by dig", "drawn by burden"}
    assert missing - set(kinds) == set()
    assert wins == {"instant", "showdown"}


def test_the_bots_purchase_options_are_exactly_the_engines_legal_crafts() -> None:
    """The bots' shortcut (a discovery keeps a legal play legal, but for an extra-ruin on a follow) agrees
    with ``decide`` on every option it offers, and misses none that craft_options finds."""
    from domain.ruins.bots import HeuristicBot, RandomBot, Seen, purchase_options
    from domain.ruins.simulate import play_game

    checked = 0
    for seed in range(4):
        played = play_game(["a", "b", "c"], [RandomBot(craft_rate=0.5), HeuristicBot(), RandomBot()], f"shop-{seed}")
        state = ruins.new_game(["a", "b", "c"], seed=f"shop-{seed}")
        for action in played.actions:
            if isinstance(action, ruins.Play) and not action.purchases and not action.claims:
                offered = purchase_options(Seen.from_state(state, action.seat), action)
                engine = [p for p in ruins.craft_options(state, action) if p.purchases]
                assert sorted(map(str, offered)) == sorted(map(str, engine))
                checked += 1
            state = ruins.apply(state, action)
    assert checked > 100
