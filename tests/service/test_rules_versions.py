"""A rules change through the service: games stored under version N still load, play on and verify under N
once N+1 is released and current, and new games are created under N+1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.ruins.versions import VERSIONS
from service.commands.application import Digsite
from service.integrity.audit import verify
from service.settings import Database, Settings
from tests.domain.ruins.trial import hand_size, trial_release
from tests.service.integrity.test_audit import check, finished_game, new_game, play


def dealt_hand_sizes(service: Digsite, game_id: str) -> set[int]:
    """The size of every hand dealt in the game's records (the opening's and every later round's)."""
    events: list[dict[str, Any]] = []
    for record in service.stored_records(game_id):
        events.extend(record["body"].get("opening") or record["body"].get("events") or [])
    return {len(hand) for e in events if e["type"] == "RoundDealt" for hand in e["hands"] if hand}


def test_games_of_the_old_version_verify_and_play_on_while_new_games_take_the_new_one(
    service: Digsite, database: Database, tmp_path: Path
) -> None:
    old = VERSIONS.current
    finished = finished_game(service, seed="finished before")
    in_play = new_game(service, seed="in play across the release")
    play(service, in_play, moves=60)  # past a snapshot (every 50 versions)
    assert service.game(in_play)["status"] == "playing"

    with VERSIONS.trial(trial_release(tmp_path, "ruins-next", hand_size(8))):
        for game_id in (finished, in_play):
            report = verify(service, game_id)
            assert report.ok, report.to_dict()
            assert report.rules_version == old and old in check(report, "rules_version").detail

        # The game in play goes on under its own rules, in this service and in a fresh one (from the store).
        play(service, in_play, moves=40)
        fresh = Digsite(Settings(database=database, api_key="organiser-key"))
        try:
            assert fresh.game(in_play)["view"]["rules_version"] == old
            play(fresh, in_play)
            assert fresh.game(in_play)["status"] == "over"
        finally:
            fresh.close()
        records = service.stored_records(in_play)
        assert {r["body"]["rules_version"] for r in records if r["type"] in ("created", "move")} == {old}
        assert dealt_hand_sizes(service, in_play) == {9}
        assert verify(service, in_play).ok

        # A new game is created under the new version, and is dealt its hands of 8.
        created = finished_game(service, seed="after the release")
        game = service.game(created)
        assert game["rules_version"] == game["view"]["rules_version"] == "ruins-next"
        assert dealt_hand_sizes(service, created) == {8}
        report = verify(service, created)
        assert report.ok and report.rules_version == "ruins-next", report.to_dict()

    # Without the new version (a Digsite that never released it) that game cannot be verified, and says why.
    report = verify(service, created)
    assert not report.ok and "'ruins-next'" in check(report, "rules_version").detail
    assert verify(service, finished).ok
