"""The replay's judgement stands after a ruling recorded once the game was over (docs/judge.md, *The service side*):
the ruling moves the game's last version on and changes no move, so the card shows the same figures. Called as the
page's callback, on a copy of the judged store of its own (the ruling changes the game)."""

from __future__ import annotations

from pathlib import Path

from dashboard import create_dashboard
from tests.dashboard.client import organiser
from tests.dashboard.conftest import access_settings
from tests.dashboard.judged import open_judged
from tests.dashboard.test_replay_judgement_access import judgement_response, notes_of, seats_of, shown
from tests.stores import Shelf


def test_a_result_adjusted_after_the_end_leaves_the_replay_s_judgement_standing(stores: Shelf, tmp_path: Path) -> None:
    judged = open_judged(stores, tmp_path)
    try:
        game_id = judged.facts["seated"]
        app = create_dashboard(judged.queries, judged.service, access=access_settings(failures=1000))
        card = shown(judgement_response(organiser(app), game_id))
        before = (notes_of(card), seats_of(card))
        assert before[0]
        adjusted = {"ruling": "adjust_result", "reason": "a scoring error", "result": {"ranking": [1, 0]}}
        judged.service.rulings.rule_on_game(game_id, adjusted)
        assert judged.service.stored_records(game_id)[-1]["type"] == "ruling"
        fresh = create_dashboard(judged.queries, judged.service, access=access_settings(failures=1000))
        after = shown(judgement_response(organiser(fresh), game_id))
        assert (notes_of(after), seats_of(after)) == before
    finally:
        judged.close()
