"""Every game's move picker lays out exactly the engine's legal actions: each once, unchanged (or, the same move
with identical copies of a card, once for them all), reachable by picking its cards (and kind of move), with words
for every option and no two options worded alike; a game without a picker of its own lists them in the engine's
words. Checked along random games of every registered game."""

from __future__ import annotations

import json
import random

import pytest

from dashboard.pages.play import picker_of
from dashboard.picker import matching, plain_picker
from domain.games import GAMES, game


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_picker_offers_every_legal_action_once_and_each_is_reachable(kind: str) -> None:
    rules = game(kind).rules
    seats = max(2, game(kind).schemas.seats.low)
    state = rules.replay(rules.start([f"p{i}" for i in range(seats)], None, seed=7))
    rng, looked = random.Random(kind), 0
    for _ in range(120):
        if rules.result(state) is not None:
            break
        seat = rules.to_act(state)[0]
        legal = [rules.action_to_dict(a) for a in rules.legal_actions(state, seat)]
        for pick, own in ((picker_of(kind), True), (plain_picker(kind), False)):
            picked = pick(rules.view(state, seat), legal, seat)
            laid = picked.to_dict()
            values = [json.loads(c["value"]) for c in laid["choices"]]
            values += [dict(a) for c in picked.choices for a in c.alike]
            assert sorted(json.dumps(v, sort_keys=True) for v in values) == sorted(
                json.dumps(a, sort_keys=True) for a in legal
            )
            assert all(c["label"] for c in laid["choices"])
            if own:
                worded = [(c["group"], c["label"], c["cards"]) for c in laid["choices"]]
                assert len(worded) == len(set(map(str, worded))), f"two options read alike: {worded}"
            hand = {c["value"] for c in laid["cards"]}
            for choice in laid["choices"]:
                if choice["cards"] is not None:
                    assert set(choice["cards"]) <= hand, "a choice's cards are the seat's to pick"
                offered = matching(laid, choice["group"], choice["cards"])
                assert choice["value"] in [o["value"] for o in offered]
        looked += 1
        state = rules.replay(rules.decide(state, rng.choice(rules.legal_actions(state, seat))), state)
    assert looked > 20


@pytest.mark.parametrize("kind", list(GAMES))
def test_every_card_and_mark_the_picker_offers_is_pickable_on_the_seats_table(kind: str) -> None:
    """What a move is picked with on the table (a picker card, a choice's mark) is drawn on that seat's own table
    with the same value (``data-pick``), so a pick there is the form's pick; a value drawn pickable for one seat
    is never another seat's hidden card (its hand is not drawn for this seat at all)."""
    from dashboard.games import renderer
    from dashboard.html_text import to_html

    rules = game(kind).rules
    seats = max(2, game(kind).schemas.seats.low)
    state = rules.replay(rules.start([f"p{i}" for i in range(seats)], None, seed=11))
    rng, looked, marked = random.Random(kind), 0, 0
    for step in range(90):
        if rules.result(state) is not None:
            break
        seat = rules.to_act(state)[0]
        if step % 6 == 0:
            view = rules.view(state, seat)
            legal = [rules.action_to_dict(a) for a in rules.legal_actions(state, seat)]
            laid = picker_of(kind)(view, legal, seat).to_dict()
            players = [{"seat": s, "name": f"p{s}"} for s in range(seats)]
            frame = {"view": view, "players": players, "to_act": [seat], "version": step + 1, "last": None}
            drawn = to_html(renderer(kind).draw_table(frame))
            wanted = {c["value"] for c in laid["cards"]} | {m for c in laid["choices"] for m in c.get("marks", [])}
            for value in wanted:
                assert f'data-pick="{value}"' in drawn, (kind, value)
            marked += len(wanted)
            looked += 1
        state = rules.replay(rules.decide(state, rng.choice(rules.legal_actions(state, seat))), state)
    assert looked >= 5 and (marked > 0 or renderer(kind).picker is None)
