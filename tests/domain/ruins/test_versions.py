"""Rules versions: a game plays, replays and shows itself under the version it started under, whatever
version is current; released data never change; an unknown version is refused by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain import ruins
from domain.ruins.bots import RandomBot, Seen
from domain.ruins.caches import profile
from domain.ruins.simulate import play_game
from domain.ruins.state import Ruin
from domain.ruins.versions import VERSIONS
from domain.versions import Release, ReleasedDataChanged, UnknownRulesVersion
from tests.domain.ruins.trial import hand_size, trial_release

PLAYERS = ["Ana", "Beto", "Carla"]


def test_new_games_are_created_under_the_newest_release() -> None:
    assert VERSIONS.names[0] == "ruins-1"
    assert ruins.rules_version() == VERSIONS.current == VERSIONS.names[-1]
    state = ruins.new_game(PLAYERS, seed=1)
    assert state.book.version == VERSIONS.current
    assert ruins.view(state, 0)["rules_version"] == VERSIONS.current


def test_a_game_keeps_its_version_after_a_newer_one_is_released(tmp_path: Path) -> None:
    old = play_game(PLAYERS, [RandomBot()] * 3, "versions")
    with VERSIONS.trial(trial_release(tmp_path, "ruins-2", hand_size(8))):
        assert ruins.rules_version() == "ruins-2"
        # The stored game replays to the very same state, under its own rules...
        replayed = ruins.replay(list(old.events))
        assert replayed == old.state and replayed.book.version == "ruins-1"
        assert ruins.state_to_dict(replayed) == ruins.state_to_dict(old.state)
        # ... and every move is decided as it was: each round is dealt 9 a hand, not 8.
        state = ruins.replay(list(old.events[:2]))
        assert {len(h) for h in state.hands} == {9}
        # A new game gets the new rules, and so does its view and a bot reading it.
        new = ruins.new_game(PLAYERS, seed="versions")
        assert new.book.version == "ruins-2" and {len(h) for h in new.hands} == {8}
        seen = Seen.from_view(ruins.view(new, 0))
        assert seen.book.version == "ruins-2"
        # An old game can still be started under its version, and deals exactly what it dealt.
        assert ruins.start(PLAYERS, None, "versions", "ruins-1") == list(old.events[:2])
    assert ruins.rules_version() == "ruins-1"


def test_a_snapshot_keeps_its_version(tmp_path: Path) -> None:
    with VERSIONS.trial(trial_release(tmp_path, "ruins-2", hand_size(8))):
        state = ruins.new_game(PLAYERS, seed=3)
        stored = json.loads(json.dumps(ruins.state_to_dict(state)))
        assert stored["rules_version"] == "ruins-2"
        assert ruins.state_from_dict(stored).book.version == "ruins-2"
        assert ruins.state_from_dict(stored) == state


def test_a_snapshot_taken_before_states_named_their_version_is_read_as_the_first_version() -> None:
    state = ruins.new_game(PLAYERS, seed=4)
    stored = ruins.state_to_dict(state)
    del stored["rules_version"]
    assert ruins.state_from_dict(stored).book.version == "ruins-1"


def test_states_of_two_versions_are_not_equal(tmp_path: Path) -> None:
    with VERSIONS.trial(trial_release(tmp_path, "ruins-2", lambda data: None)):
        one = ruins.new_game(PLAYERS, seed=5, rules_version="ruins-1")
        two = ruins.new_game(PLAYERS, seed=5, rules_version="ruins-2")
        assert one.hands == two.hands  # the same data: the same deal
        assert one != two


def test_two_versions_never_share_a_cached_profile(tmp_path: Path) -> None:
    card = 0
    printed = VERSIONS.book("ruins-1").ruins[card]

    def renumber(data: dict[str, Any]) -> None:
        data["ruins"]["ruins"][card]["night_rank"] = printed.night_rank + 1

    night = Ruin(night=True)
    first = profile(VERSIONS.book("ruins-1"), card, night)  # cached under ruins-1 first
    with VERSIONS.trial(trial_release(tmp_path, "ruins-2", renumber)):
        assert profile(VERSIONS.book("ruins-2"), card, night).ranks == {printed.night_rank + 1}
        assert profile(VERSIONS.book("ruins-1"), card, night) is first
        assert first.ranks == {printed.night_rank}


def test_an_unknown_version_is_refused_by_name() -> None:
    with pytest.raises(UnknownRulesVersion, match=r"'ruins-9' was never released .*ruins-1"):
        ruins.new_game(PLAYERS, seed=1, rules_version="ruins-9")
    started = ruins.start(PLAYERS, None, 1)
    forged = ruins.event_from_dict({**ruins.event_to_dict(started[0]), "rules_version": "ruins-9"})
    with pytest.raises(UnknownRulesVersion, match="ruins-9"):
        ruins.replay([forged, *started[1:]])
    with pytest.raises(UnknownRulesVersion, match="ruins-9"):
        ruins.state_from_dict({**ruins.state_to_dict(ruins.replay(started)), "rules_version": "ruins-9"})


def test_a_released_name_is_never_reused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="ruins-1 is already released"):
        VERSIONS.add(trial_release(tmp_path, "ruins-1", hand_size(8)))
    assert VERSIONS.book("ruins-1").hand_size == 9


def test_a_trial_version_is_gone_after_its_trial(tmp_path: Path) -> None:
    with VERSIONS.trial(trial_release(tmp_path, "ruins-2", hand_size(8))):
        assert VERSIONS.book("ruins-2").hand_size == 8
    assert "ruins-2" not in VERSIONS and VERSIONS.current == "ruins-1"
    with pytest.raises(UnknownRulesVersion):
        VERSIONS.book("ruins-2")


def test_a_data_file_that_changed_after_its_release_is_refused(tmp_path: Path) -> None:
    release = trial_release(tmp_path, "ruins-2", hand_size(8))
    changed = tmp_path / "ruins-2" / "book.json"
    changed.write_text(changed.read_text().replace('"hand_size": 8', '"hand_size": 7'))
    with VERSIONS.trial(release), pytest.raises(ReleasedDataChanged, match=r"ruins-2 was released with ruins-2/book"):
        VERSIONS.book("ruins-2")


def test_a_file_only_reformatted_is_not_a_change(tmp_path: Path) -> None:
    release = trial_release(tmp_path, "ruins-2", hand_size(8))
    reformatted = tmp_path / "ruins-2" / "book.json"
    reformatted.write_text(json.dumps(json.loads(reformatted.read_text()), indent=4).replace("\n", "\r\n"))
    with VERSIONS.trial(release):
        assert VERSIONS.book("ruins-2").hand_size == 8


def test_a_version_with_its_own_code_is_loaded_by_its_own_loader(tmp_path: Path) -> None:
    """Where behaviour changes, the release carries the code: here a loader that builds another award chart."""
    base = trial_release(tmp_path, "ruins-2", lambda data: None)

    def load(name: str, data: Any) -> Any:
        from dataclasses import replace

        from domain.ruins.cards import load_book

        book = load_book(name, data)
        return replace(book, award_charts={n: tuple(2 * a for a in chart) for n, chart in book.award_charts.items()})

    release = Release(base.name, base.files, load=load, root=base.root)
    with VERSIONS.trial(release):
        assert VERSIONS.book("ruins-2").award(3, 1) == 2 * VERSIONS.book("ruins-1").award(3, 1)
