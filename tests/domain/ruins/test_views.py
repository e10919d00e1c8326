"""Hidden information: what ``view(state, seat)`` and ``describe(event, players, seat)`` let a seat learn.

The seed: each player 'may secretly flip 1 ruin in hand'; hands are held (only the number of cards in a
hand shows at the table); the ruin deck is reshuffled and dealt and the discovery deck is 'a face-down deck'.
Design (docs and view.py): the game seed, which fixes every shuffle, is hidden until the game is over.

The strongest form of 'does not reveal' is used where possible: two positions that differ only in what a
seat may not know must give that seat exactly the same view (or narration).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain import ruins
from domain.ruins import book_of
from domain.ruins import events as ev
from domain.ruins.bots import HeuristicBot, RandomBot, Seen
from domain.ruins.describe import describe, ruin_name
from domain.ruins.state import GameState

PLAYERS = ["Ana", "Beto", "Carla", "Diego", "Eva"]


def play_to(n_players: int, seed: int, bot_seed: int, steps: int) -> GameState:
    """The position after ``steps`` actions of a bot game (or its end, if sooner)."""
    rng = random.Random(bot_seed)
    bots = [RandomBot(craft_rate=0.5) if s % 2 else HeuristicBot(pass_rate=0.3) for s in range(n_players)]
    state = ruins.new_game(PLAYERS[:n_players], seed=seed)
    for _ in range(steps):
        if state.outcome is not None:
            break
        seat = rng.choice(ruins.to_act(state))
        action = bots[seat].choose(Seen.from_state(state, seat), ruins.legal_actions(state, seat), rng)
        state = ruins.apply(state, action)
    return state


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    n_players = draw(st.integers(min_value=2, max_value=5), label="players")
    seed = draw(st.integers(min_value=0, max_value=10**6), label="seed")
    bot_seed = draw(st.integers(min_value=0, max_value=10**6), label="bot seed")
    # Mostly mid-game; the flip phase at 0..n-1 steps; 600 steps reach the end of most games.
    steps = draw(
        st.one_of(st.integers(0, n_players - 1), st.integers(0, 300), st.just(600)),
        label="steps",
    )
    return play_to(n_players, seed, bot_seed, steps)


def hide_differently(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A position the seat cannot tell apart from ``state``: the other hands and the draw pile dealt anew
    from the same ruins (same sizes), the discovery deck reshuffled, the other seats' secret night-flip
    choices changed, and (while the game is on) another seed. A claimed ruin stays in its owner's hand: the deal
    sends it home, and every seat knows it (domain/ruins/sampling.py)."""
    hands = list(state.hands)
    homed = {s: tuple(c for c in hand if state.ruins[c].claim == s) for s, hand in enumerate(state.hands)}
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand if c not in homed[s]]
    hidden += state.draw_pile
    rng.shuffle(hidden)
    for s, hand in enumerate(state.hands):
        if s != seat:
            need = len(hand) - len(homed[s])
            hands[s] = tuple(sorted(homed[s] + tuple(hidden[:need])))
            del hidden[:need]
    deck = list(state.discovery_deck)
    rng.shuffle(deck)
    choices = tuple(
        (s, ruin) if s == seat else (s, rng.choice([None, *(c for c in hands[s] if not state.ruins[c].night)]))
        for s, ruin in state.flip_choices
    )
    return replace(
        state,
        hands=tuple(hands),
        draw_pile=tuple(hidden),
        discovery_deck=tuple(deck),
        flip_choices=choices,
        seed=state.seed if state.outcome is not None else state.seed + "-other",
    )


def round_trips_as_json(data: dict[str, Any]) -> bool:
    return bool(json.loads(json.dumps(data)) == data)


@settings(max_examples=60, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_a_seat_cannot_tell_positions_apart_that_differ_only_in_hidden_information(
    state: GameState, rng: random.Random
) -> None:
    """Other hands ('secretly' held), the draw pile and the face-down discovery deck, other seats' secret
    night flips and the seed do not show in a seat's view: changing them changes nothing the seat sees."""
    for seat in range(state.n_players):
        other = hide_differently(state, seat, rng)
        assert ruins.view(other, seat) == ruins.view(state, seat)
    if state.outcome is None:  # the referee sees everything, the seed at least differs
        assert ruins.view(other, None) != ruins.view(state, None)


@settings(max_examples=60, deadline=None)
@given(positions())
def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others(state: GameState) -> None:
    for seat in range(state.n_players):
        seen = ruins.view(state, seat)
        assert seen["viewer"] == seat
        for entry, hand in zip(seen["hands"], state.hands, strict=True):
            assert entry["count"] == len(hand)
            if entry["seat"] == seat:
                assert entry["ruins"] == list(hand)
            else:
                assert set(entry) == {"seat", "count"}, "another seat's ruins are hidden"
        assert seen["draw_pile"] == {"count": len(state.draw_pile)}, "the draw pile shows its size only"
        assert seen["discovery_deck"] == {"count": len(state.discovery_deck)}, "the face-down deck: size only"
        chosen = dict(state.flip_choices)
        for flip in seen["flips"]:
            assert flip["chosen"] == (flip["seat"] in chosen)
            if flip["seat"] == seat and flip["seat"] in chosen:
                assert flip["ruin"] == chosen[seat], "a seat sees its own secret flip"
            else:
                assert "ruin" not in flip, "another seat's night flip stays secret until the reveal"
        if state.outcome is None:
            assert "seed" not in seen, "the seed fixes every shuffle: hidden while the game is on"
        else:
            assert seen["seed"] == state.seed, "once the game is over the seed is shown, to audit the shuffles"


@settings(max_examples=60, deadline=None)
@given(positions())
def test_the_referee_sees_everything(state: GameState) -> None:
    seen = ruins.view(state, None)
    assert seen["viewer"] == "referee"
    assert [entry["ruins"] for entry in seen["hands"]] == [list(hand) for hand in state.hands]
    assert seen["draw_pile"] == {"count": len(state.draw_pile), "order": list(state.draw_pile)}
    assert seen["discovery_deck"] == {"count": len(state.discovery_deck), "order": list(state.discovery_deck)}
    chosen = dict(state.flip_choices)
    for flip in seen["flips"]:
        if flip["seat"] in chosen:
            assert flip["ruin"] == chosen[flip["seat"]]
    assert seen["seed"] == state.seed


@settings(max_examples=60, deadline=None)
@given(positions())
def test_every_view_is_plain_json(state: GameState) -> None:
    """Views travel over HTTP: json.dumps accepts them and reading the JSON back gives the same dict
    (no tuples, sets or non-string keys inside)."""
    for seat in [None, *range(state.n_players)]:
        seen = ruins.view(state, seat)
        json.dumps(seen)
        assert round_trips_as_json(seen)


def test_the_night_flip_choice_is_secret_until_all_have_chosen() -> None:
    """'Each player may secretly flip 1 ruin in hand from day to night' - revealed when all have chosen."""
    state = ruins.new_game(PLAYERS[:3], seed="flip-secret")
    assert state.phase == "flip"
    ruin = state.hands[1][0]
    state = ruins.apply(state, ruins.Flip(1, ruin))
    assert state.phase == "flip"

    own = {f["seat"]: f for f in ruins.view(state, 1)["flips"]}
    assert own[1] == {"seat": 1, "chosen": True, "ruin": ruin}
    for seat in (0, 2):
        flips = {f["seat"]: f for f in ruins.view(state, seat)["flips"]}
        assert flips[1] == {"seat": 1, "chosen": True}, "others learn only that Beto has chosen"
        assert flips[seat] == {"seat": seat, "chosen": False}
        assert ruins.view(state, seat)["ruins"][ruin]["side"] == "day", "not flipped before the reveal"
    assert {f["seat"]: f for f in ruins.view(state, None)["flips"]}[1]["ruin"] == ruin

    # Flipping nothing looks the same to the others as flipping a ruin.
    no_flip = ruins.apply(ruins.new_game(PLAYERS[:3], seed="flip-secret"), ruins.Flip(1, None))
    for seat in (0, 2):
        assert ruins.view(no_flip, seat) == ruins.view(state, seat)

    state = ruins.apply(ruins.apply(state, ruins.Flip(0, None)), ruins.Flip(2, None))
    assert state.phase == "play"
    for seat in (0, 1, 2, None):
        seen = ruins.view(state, seat)
        assert seen["ruins"][ruin]["side"] == "night", "the flips are revealed together"


def test_the_seed_is_shown_once_the_game_is_over() -> None:
    state = play_to(2, seed=1234, bot_seed=1, steps=10_000)
    assert state.outcome is not None
    for seat in (0, 1):
        assert ruins.view(state, seat)["seed"] == state.seed == "1234"
        assert ruins.view(state, seat)["outcome"]["winner"] == state.outcome.winner
    before_end = ruins.new_game(PLAYERS[:2], seed=1234)
    for seat in (0, 1):
        assert "seed" not in ruins.view(before_end, seat)
    assert ruins.view(before_end, None)["seed"] == "1234"


# --------------------------------------------------------------------------- describe()


def named(card: int) -> str:
    """How the log names a ruin: as its card reads."""
    return ruin_name(book_of(), card)


def test_describe_names_ruins_as_their_cards_read_never_by_number() -> None:
    book = book_of()
    played = ev.RuinsPlayed(0, (14, 31), book.ruins[14].day_rank, 2, lead=True)
    text = describe(played, PLAYERS[:3], None)
    assert named(14) in text and named(31) in text
    assert named(14) == f"{book.ruins[14].day_rank}\u2600/{book.ruins[14].night_rank}\u263e"
    assert "#" not in text and "(" not in text, "no card number, no bracketed ranks"


def test_describe_names_upgrades_as_the_table_does_and_a_penalty_of_nothing_in_words() -> None:
    """The log says "+3" where the table's upgrade says "+3" (never the rule book's code "plus3"), and a last
    holder who loses nothing "loses no VP" (not "-0 VP")."""
    book = book_of()
    plus3 = next(d.id for d in book.discoveries if d.effect == "plus3")
    twin = next(d.id for d in book.discoveries if d.effect == "twin")
    bought = describe(ev.DiscoveryBought(0, plus3, 14, 0, 2, (), None), PLAYERS[:3], None)
    assert "a +3 upgrade" in bought and "plus" not in bought
    setup = ev.GameStarted(tuple(PLAYERS[:3]), (), book.version, "seed", (), (), (plus3, twin), (), (0, 0, 0), ())
    started = describe(setup, PLAYERS[:3], None)
    assert "market: +3, twin" in started
    nothing = describe(ev.RoundEnded(1, 2, 0, (3, 2, 0), (0, 1, 2)), PLAYERS[:3], None)
    assert "-0" not in nothing and "loses no VP" in nothing
    lost = describe(ev.RoundEnded(book.max_rounds + 1, 2, 2, (3, 2, 1), (0, 1, 2)), PLAYERS[:3], None)
    assert lost.startswith("The Showdown ends") and "loses 2 VP" in lost


def test_describe_keeps_a_drawn_ruin_secret_from_other_readers() -> None:
    """A dig or a burden draws ruins into a hand: only the drawer (and the referee) learn which."""
    dig = ev.RuinsDrawn(1, (14, 31), "dig")
    other = ev.RuinsDrawn(1, (2, 47), "dig")
    for reader in (0, 2):
        text = describe(dig, PLAYERS[:3], reader)
        assert text == describe(other, PLAYERS[:3], reader)
        assert named(14) not in text and named(31) not in text
        assert "2 ruins" in text, "the others do see how many were drawn"
    for reader in (1, None):
        text = describe(dig, PLAYERS[:3], reader)
        assert named(14) in text and named(31) in text
    burden = ev.RuinsDrawn(2, (9,), "burden")
    assert named(9) not in describe(burden, PLAYERS[:3], 0)
    assert named(9) in describe(burden, PLAYERS[:3], 2)


def test_describe_keeps_a_secret_night_flip_from_other_readers() -> None:
    chosen = ev.NightFlipChosen(2, 23)
    none = ev.NightFlipChosen(2, None)
    for reader in (0, 1):
        text = describe(chosen, PLAYERS[:3], reader)
        assert text == describe(none, PLAYERS[:3], reader), "flipping or not looks the same to the others"
        assert named(23) not in text
    assert named(23) in describe(chosen, PLAYERS[:3], 2)
    assert named(23) in describe(chosen, PLAYERS[:3], None)


def hide_in_event(event: ev.Event, reader: int, rng: random.Random) -> ev.Event:
    """The same event with what ``reader`` may not know changed."""
    if isinstance(event, ev.RuinsDrawn) and event.seat != reader:
        return replace(event, ruins=tuple(rng.sample(range(50), len(event.ruins))))
    if isinstance(event, ev.NightFlipChosen) and event.seat != reader:
        return replace(event, ruin=rng.choice([None, *range(50)]))
    if isinstance(event, ev.RoundDealt):
        pool = [c for s, hand in enumerate(event.hands) if s != reader for c in hand] + list(event.draw_pile)
        rng.shuffle(pool)
        hands = list(event.hands)
        for s, hand in enumerate(event.hands):
            if s != reader:
                hands[s], pool = tuple(sorted(pool[: len(hand)])), pool[len(hand) :]
        return replace(event, hands=tuple(hands), draw_pile=tuple(pool))
    if isinstance(event, ev.GameStarted):
        deck = list(event.discovery_deck)
        rng.shuffle(deck)
        return replace(event, discovery_deck=tuple(deck), seed=event.seed + "-other")
    return event


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=2, max_value=5),
    st.integers(min_value=0, max_value=10**6),
    st.randoms(use_true_random=False),
)
def test_describe_tells_a_reader_nothing_hidden_over_a_whole_game(
    n_players: int, seed: int, rng: random.Random
) -> None:
    """Over every event of a bot game: other seats' draws and flips, the deal and the face-down deck
    read the same to a seat whatever they were."""
    players = PLAYERS[:n_players]
    state = ruins.new_game(players, seed=seed)
    log: list[ev.Event] = list(ruins.start(players, seed=seed))
    bots = [RandomBot(craft_rate=0.5)] * n_players
    while state.outcome is None:
        seat = rng.choice(ruins.to_act(state))
        new = ruins.decide(
            state, bots[seat].choose(Seen.from_state(state, seat), ruins.legal_actions(state, seat), rng)
        )
        log.extend(new)
        state = ruins.replay(new, state)
    assert any(isinstance(e, ev.RuinsDrawn) for e in log) or any(isinstance(e, ev.NightFlipChosen) for e in log)
    for event in log:
        for reader in range(n_players):
            assert describe(hide_in_event(event, reader, rng), players, reader) == describe(event, players, reader)
