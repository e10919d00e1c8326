"""Hidden information: ``view(state, seat)`` and ``redact_event`` show a seat exactly what the table shows it.

The strongest form is used: two positions that differ only in what a seat may not know (the other hands, every
deck's order, the stacks, the face-down idols, the seed) give that seat exactly the same view.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from domain import arnak
from domain.arnak.actions import Choose
from domain.arnak.bots import RandomBot
from domain.arnak.state import GameState
from tests.domain.arnak.helpers import game, with_player


def play_to(n: int, seed: int, steps: int, side: str = "bird") -> GameState:
    rng = random.Random(seed)
    state = arnak.new_game([f"p{i}" for i in range(n)], {"side": side}, seed=seed)
    bot = RandomBot(0.2)
    for _ in range(steps):
        if state.outcome is not None:
            break
        (seat,) = arnak.to_act(state)
        state = arnak.apply(state, bot.choose({}, arnak.legal_actions(state, seat), rng))
    return state


def _shuffled(rng: random.Random, cards: tuple[int, ...]) -> tuple[int, ...]:
    out = list(cards)
    rng.shuffle(out)
    return tuple(out)


def hide_differently(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A position ``seat`` cannot tell apart from ``state``. The idols it has not seen (the face-down ones on the
    sites, in the rival's negative stack, and in the other seats' supplies and slots) are dealt anew among those
    places, so a twin's face-down idols differ in kind, not only in order."""
    others = [s for s in range(len(state.seats)) if s != seat]
    rival = state.rival
    unseen = [i for site in state.sites for i in site.idols[1:]]
    unseen += [i for s in others for i in (*state.seats[s].idols, *state.seats[s].slots)]
    unseen += [] if rival is None else list(rival.negative_idols)
    idols = iter(_shuffled(rng, tuple(unseen)))

    def deal(count: int) -> tuple[int, ...]:
        return tuple(next(idols) for _ in range(count))

    sites = tuple(replace(s, idols=s.idols[:1] + deal(len(s.idols[1:]))) for s in state.sites)
    seats = []
    for s, p in enumerate(state.seats):
        if s == seat:
            seats.append(replace(p, deck=_shuffled(rng, p.deck)))
        else:  # another seat's hand and deck dealt anew from the same cards, same sizes
            mixed = _shuffled(rng, (*p.hand, *p.deck))
            seats.append(
                replace(
                    p,
                    hand=mixed[: len(p.hand)],
                    deck=mixed[len(p.hand) :],
                    idols=deal(len(p.idols)),
                    slots=deal(len(p.slots)),
                )
            )
    if rival is not None:
        rival = replace(rival, stack=_shuffled(rng, rival.stack), negative_idols=deal(len(rival.negative_idols)))
    pending = state.pending
    if pending is not None and pending.seat != seat:
        pending = replace(pending, options=tuple(reversed(pending.options)))
    return replace(
        state,
        seats=tuple(seats),
        seed=state.seed if state.outcome is not None else "another seed",
        site_stacks=(_shuffled(rng, state.site_stacks[0]), _shuffled(rng, state.site_stacks[1])),
        guardian_stack=_shuffled(rng, state.guardian_stack),
        artifact_deck=_shuffled(rng, state.artifact_deck),
        item_deck=_shuffled(rng, state.item_deck),
        fear_deck=_shuffled(rng, state.fear_deck),
        temple_bonus=_shuffled(rng, state.temple_bonus),
        assistant_stacks=tuple(s[:1] + _shuffled(rng, s[1:]) for s in state.assistant_stacks),
        sites=sites,
        pending=pending,
        rescue=_shuffled(rng, state.rescue),
        rival=rival,
    )


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 400), side=st.sampled_from(["bird", "snake"])
)
def test_a_seat_cannot_tell_apart_positions_that_differ_only_in_what_it_may_not_know(
    n: int, seed: int, steps: int, side: str
) -> None:
    state = play_to(n, seed, steps, side)
    rng = random.Random(seed)
    for seat in range(state.n_players):
        other = hide_differently(state, seat, rng)
        assert arnak.view(other, seat) == arnak.view(state, seat)
    json.dumps(arnak.view(state, None))


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others() -> None:
    state = game(3)
    seen = arnak.view(state, 1)
    assert [c["id"] for c in seen["seats"][1]["hand"]["cards"]] == list(state.seats[1].hand)
    assert seen["seats"][0]["hand"] == {"count": 5} and "cards" not in seen["seats"][2]["hand"]
    assert seen["seats"][1]["deck"] == {"count": 1}, "even the own deck is face down"
    assert "seed" not in seen and "stacks" not in seen
    referee = arnak.view(state)
    assert referee["seed"] == state.seed and referee["stacks"]["decks"][0] == list(state.seats[0].deck)


def test_the_referee_reads_every_event_a_seat_reads_only_what_it_may() -> None:
    state = play_to(3, 11, 120)
    events = [arnak.event_to_dict(e) for e in arnak.start(["a", "b", "c"], None, 11)]
    started, drawn = events[0], events[2]
    assert arnak.redact_event(started, None, False) == started
    for seat in range(3):
        mine = arnak.redact_event(started, seat, False)
        assert mine["seed"] is None and mine["item_deck"] == {"count": 35}
        assert all(p["deck"] == {"count": 6} for p in mine["seats"])
        assert all(len(s["idols"]) < 2 or s["idols"][1] == "hidden" for s in mine["sites"])
    assert drawn["type"] == "CardsDrawn" and drawn["seat"] == 0
    assert arnak.redact_event(drawn, 0, False) == drawn
    assert arnak.redact_event(drawn, 1, False)["cards"] == {"count": 5}
    assert arnak.redact_event(started, 1, True)["seed"] == "11", "the seed is public once the game is over"
    assert state.round >= 1


def test_the_narration_tells_each_event_and_hides_the_others_draws() -> None:
    """``describe``: one plain sentence per event; another seat's drawn cards are counted, not named."""
    events = arnak.start(["a", "b"], None, 3)
    drawn = next(e for e in events if type(e).__name__ == "CardsDrawn" and e.seat == 0)  # type: ignore[union-attr]
    assert "Funding" in arnak.describe(drawn, ["a", "b"], 0) or "Exploration" in arnak.describe(drawn, ["a", "b"], 0)
    assert arnak.describe(drawn, ["a", "b"], 1) == "a draws 5 cards"
    state = play_to(1, 5, 300, "snake")
    for event in arnak.start(["p0"], {"side": "snake"}, 5):
        line = arnak.describe(event, state.players, None)
        assert line and not line.startswith(type(event).__name__ + "(")


def test_the_narration_names_every_code_and_the_camps_read_alike_on_both_boards() -> None:
    """``describe`` says names, not ids (cards, sites, camps, research spaces, guardians, assistants); it is told no
    board side, which is right only while the camps give the same on both boards."""
    import re

    from domain.arnak.components import book

    boards = book().boards
    assert [(c.id, c.effect) for c in boards["bird"].camps] == [(c.id, c.effect) for c in boards["snake"].camps]
    codes = re.compile(r"\b(?:L[12]-\d|camp\d[ab]?|r\d+p\d+)\b|\(#\d+\)|\b(?:card|hand|play):\d|guardian \(?\d")
    for players, side, seed in ((["p0"], "snake", 5), (["p0", "p1", "p2"], "bird", 2)):
        state = arnak.new_game(players, {"side": side}, seed=seed)
        bot = RandomBot(0.2)
        rng = random.Random(seed)
        lines = []
        while state.outcome is None:
            seat = arnak.to_act(state)[0]
            events, state = arnak.step(state, bot.choose({}, arnak.legal_actions(state, seat), rng))
            lines += [arnak.describe(e, state.players, reader) for e in events for reader in (None, 0)]
        assert lines and not [line for line in lines if codes.search(line)]


def test_a_choice_among_hidden_cards_stays_hidden_from_the_other_seats() -> None:
    """Crystal Earring: the cards drawn, the one kept and the one put back are the player's secret."""
    from domain.arnak.actions import Choose, Play
    from tests.domain.arnak.helpers import act, card_named, with_player

    earring = card_named("Crystal Earring")
    state = with_player(game(2), 0, hand=(earring,), deck=(3, 4, 1), resources=(0, 0, 1, 0, 0))
    log = []
    for action in (Play(0, earring), Choose(0, "3"), Choose(0, "card:4"), Choose(0, "card:1")):
        state, events = act(state, action)
        log += [arnak.event_to_dict(e) for e in events]
    seen_by_1 = json.dumps([arnak.redact_event(e, 1, False) for e in log])
    for secret in ('"card:4"', '"card:1"', '"cards": [3, 4, 1]'):
        assert secret not in seen_by_1, secret
    seen_by_0 = json.dumps([arnak.redact_event(e, 0, False) for e in log])
    assert '"card:4"' in seen_by_0 and '"card:1"' in seen_by_0


def test_a_seat_reads_in_the_log_only_what_redaction_leaves_it() -> None:
    """The log line a seat reads (``describe(event, names, seat)``) must follow from the event as redacted for that
    seat: two events that redact to the same thing must read the same. Over random games on both boards this finds
    any narration that tells a seat a card drawn, kept or put back by another."""
    names = ["p0", "p1", "p2", "p3"]
    said: dict[tuple[int, str], tuple[str, str]] = {}
    hidden_choices = 0
    for seed in range(24):
        rng = random.Random(seed)
        state = arnak.new_game(names, {"side": ("bird", "snake")[seed % 2]}, seed=seed)
        bot = RandomBot(0.1)
        for _ in range(2000):
            if state.outcome is not None:
                break
            (seat,) = arnak.to_act(state)
            action = bot.choose({}, arnak.legal_actions(state, seat), rng)
            new = arnak.decide(state, action)
            state = arnak.replay(new, state)
            for event in new:
                data = arnak.event_to_dict(event)
                hidden_choices += data["type"] == "DecisionMade" and data.get("kind") in ("keep_one", "put_back")
                for reader in range(len(names)):
                    redacted = json.dumps(arnak.redact_event(data, reader, False), sort_keys=True)
                    line = arnak.describe(event, names, reader)
                    first = said.setdefault((reader, redacted), (line, json.dumps(data, sort_keys=True)))
                    assert first[0] == line, (
                        f"seat {reader} reads {line!r} for {data} but {first[0]!r} for {first[1]}: both redact to "
                        f"{redacted}"
                    )
    assert hidden_choices, "no game reached a hidden choice: play more games"


# --- "one face up, one face down": the face-down idol is its holder's secret ------------------------------------------


def _idol_at(state: GameState, site_id: str, place: int, idol: int) -> GameState:
    """``state`` with ``idol`` at ``place`` (0 face up, 1 face down) of site ``site_id``: the idol it replaces takes
    the place ``idol`` had, so both deals hold the same idols."""
    site = state.site(site_id)
    assert site is not None
    old = site.idols[place]
    swapped = {idol: old, old: idol}
    return replace(state, sites=tuple(replace(s, idols=tuple(swapped.get(i, i) for i in s.idols)) for s in state.sites))


def _logs_and_views(state: GameState, actions: list[arnak.Action], readers: range) -> dict[int, list[str]]:
    """Per reader: after each action, its view and the action's events as redacted and narrated for it."""
    seen: dict[int, list[str]] = {r: [] for r in readers}
    for action in actions:
        events = arnak.decide(state, action)
        state = arnak.replay(events, state)
        while state.pending is not None:  # a site tile's choice: the same answer in both games
            choice = Choose(state.pending.seat, state.pending.options[0])
            more = arnak.decide(state, choice)
            events, state = [*events, *more], arnak.replay(more, state)
        for reader in readers:
            log = [arnak.redact_event(arnak.event_to_dict(e), reader, False) for e in events]
            lines = [arnak.describe(e, state.players, reader) for e in events]
            seen[reader].append(json.dumps([log, lines, arnak.view(state, reader)], sort_keys=True))
    return seen


def test_one_face_up_one_face_down_the_face_down_idol_stays_hidden_from_every_seat_but_its_holder() -> None:
    """'2 idol tiles — one face up, one face down — on each level 2 dig site' and 'Idols ... sit face down on your
    board': two games alike but for the face-down idol of the site seat 0 discovers. Seat 0 takes both idols, then
    places both in slots (the second is the face-down one). Seats 1 and 2 read the same views, log events and lines
    in both games; seat 0, the holder, reads which idol it holds, so its differ."""
    from domain.arnak.actions import Discover, Payment, PlaceIdol

    state = with_player(game(3), 0, resources=(0, 6, 0, 0, 0), hand=(1, 3), deck=())  # red's two car cards
    up = 1  # a coin idol face up: it resolves without a choice
    state = _idol_at(state, "L2-1", 0, up)
    down_a, down_b = (s.idols[1] for s in state.sites if s.id in ("L2-1", "L2-2"))  # game B: the two swapped
    moves: list[arnak.Action] = [Discover(0, "L2-1", Payment((1, 3))), PlaceIdol(0, "tablets"), PlaceIdol(0, "draw")]
    game_a = _logs_and_views(state, moves, range(3))
    game_b = _logs_and_views(_idol_at(state, "L2-1", 1, down_b), moves, range(3))
    for other in (1, 2):
        for i, (a, b) in enumerate(zip(game_a[other], game_b[other], strict=True)):
            assert a == b, f"seat {other} tells the two games apart after move {i + 1}"
    assert [a != b for a, b in zip(game_a[0], game_b[0], strict=True)] == [True, True, True], "the holder knows"
    placed = json.loads(game_a[1][2])[0][0]
    assert placed["type"] == "IdolPlaced" and placed["idol"] == "hidden"
    taken = json.loads(game_a[1][0])[0]
    assert {"type": "IdolsTaken", "seat": 0, "site": "L2-1", "idols": [up, "hidden"]} in taken, "the face-up one shows"
    mine = json.loads(game_a[0][2])[2]["seats"][0]
    assert mine["idol_slots"] == [up, down_a] and mine["idols"] == {"count": 0, "ids": []}
    assert json.loads(game_a[1][2])[2]["seats"][0]["idol_slots"] == ["hidden", "hidden"]


def test_the_idol_discarded_at_the_rescue_space_stays_its_holders_secret() -> None:
    """'where you discard an idol from your supply to move your magnifying glass up': two snake games alike but for
    the idol in seat 0's supply (the face-down one of a Level II site); the other seats cannot tell them apart."""
    from domain.arnak.actions import Research

    base = arnak.new_game(["Ana", "Beto", "Carla"], {"side": "snake"}, seed="test")
    games = [
        _logs_and_views(with_player(base, 0, glass="r2p0", idols=(idol,)), [Research(0, "glass", "r3p0")], range(3))
        for idol in (7, 13)
    ]
    assert games[0][1] == games[1][1] and games[0][2] == games[1][2]
    assert games[0][0] != games[1][0]
    discarded = [e for e in json.loads(games[0][1][0])[0] if e["type"] == "IdolDiscarded"]
    assert discarded == [{"type": "IdolDiscarded", "seat": 0, "idol": "hidden"}]
