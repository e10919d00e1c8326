# ruff: noqa: F811  (the fixtures imported are redefined as parameters: how pytest shares them)
"""The judge's moves in the game's words (``dashboard.judged_moves``): named as the game's picker offers them at the
position before the move, the engine's words for a move the picker does not lay out."""

from __future__ import annotations

import pytest

from dashboard.judged_moves import judged_words, words
from dashboard.picker import Choice, Picker
from domain.games import game
from tests.dashboard.judged import Judged
from tests.dashboard.test_replay_judgement_access import judged  # noqa: F401  (the judged store)

RULES = game("ruins").rules


def test_a_move_is_named_as_its_picker_offers_it() -> None:
    dig = {"type": "dig", "site": 2, "cards": ["c1", "c2"]}
    copy = {"type": "dig", "site": 2, "cards": ["c1", "c3"]}
    picked = Picker(
        [
            Choice("At site 2", dig, group="Dig", cards=("c1", "c2"), alike=(copy,)),
            Choice("Pass", {"type": "pass"}, group="Pass"),
        ],
        cards=[{"value": "c1", "label": "Rope"}, {"value": "c2", "label": "Lantern"}],
    )
    assert words(picked, dig, RULES) == "Dig: At site 2 (Rope, Lantern)"
    assert words(picked, copy, RULES) == "Dig: At site 2 (Rope, Lantern)"  # an identical copy of a card: alike
    assert words(picked, {"type": "pass"}, RULES) == "Pass"  # (its group says what its words say)
    one_kind = Picker([Choice("Pass", {"type": "pass"}, group="Move")])
    assert words(one_kind, {"type": "pass"}, RULES) == "Pass"  # one kind of move: no group named


def test_a_move_the_picker_does_not_offer_is_the_engine_s_words() -> None:
    state = RULES.replay(RULES.start(["Ana", "Beto"], seed="words"))
    action = RULES.action_to_dict(next(iter(RULES.legal_actions(state, RULES.to_act(state)[0]))))
    assert words(Picker([]), action, RULES) == str(RULES.action_from_dict(action))


@pytest.mark.parametrize("which", ["cup", "arnak"])
def test_every_judged_move_of_a_finished_game_is_named_from_its_position(judged: Judged, which: str) -> None:
    game_id = judged.facts[which][0]
    records = judged.service.stored_records(game_id)
    analysis = judged.queries.judgements.of(game_id)
    assert analysis is not None
    rules = game(str(records[0]["body"]["kind"])).rules
    named = judged_words(records, analysis["moves"])
    judged_moves = [m for m in analysis["moves"] if m["judged"]]
    assert judged_moves and set(named) == {m["version"] for m in judged_moves}
    for m in judged_moves:
        # Both are legal there, so the picker offers both: never the engine's fallback words for a move it lays out.
        for side in ("played", "best"):
            assert named[m["version"]][side] != str(rules.action_from_dict(m[side]))
        if m["best"] == m["played"]:
            assert named[m["version"]]["best"] == named[m["version"]]["played"]
