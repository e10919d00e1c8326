"""Rules versions: an Arnak game plays, replays and shows itself under the version its first event names, whatever
version is current. ``arnak-1`` plays three seed sentences that ``arnak-0`` did not (docs/rules/arnak.md, section
1); games recorded under ``arnak-0`` still re-decide to exactly their recorded events."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain import arnak
from domain.arnak import events as ev
from domain.arnak.actions import Buy, EndTurn
from domain.arnak.rival import rival_book
from domain.arnak.state import GameState
from domain.arnak.versions import FIRST, VERSIONS
from domain.versions import UnknownRulesVersion
from tests.domain.arnak.helpers import act, card_named, kinds, with_player

RECORDED = json.loads((Path(__file__).parent / "data" / "arnak-0-games.json").read_text("utf-8"))["games"]


def test_new_games_are_created_under_the_newest_release_and_old_ones_can_still_be_dealt() -> None:
    assert VERSIONS.names[:2] == ("arnak-0", "arnak-1") and FIRST == "arnak-0"
    assert arnak.rules_version() == VERSIONS.current == VERSIONS.names[-1]
    new = arnak.new_game(["Ana", "Beto"], seed=1)
    assert new.rules_version == VERSIONS.current and arnak.view(new, 0)["rules_version"] == VERSIONS.current
    old = arnak.replay(arnak.start(["Ana", "Beto"], None, 1, rules_version="arnak-0"))
    assert old.rules_version == "arnak-0" and old.book.version == "arnak-0"
    assert arnak.view(old, 1)["rules_version"] == "arnak-0"
    assert replace(old, rules_version=new.rules_version) == new, "the versions deal alike"
    with pytest.raises(UnknownRulesVersion, match="arnak-9"):
        arnak.start(["Ana", "Beto"], None, 1, rules_version="arnak-9")


def test_a_snapshot_keeps_its_version_and_one_stored_before_states_named_it_is_the_first() -> None:
    old = arnak.replay(arnak.start(["Ana"], {"difficulty": 2}, 4, rules_version="arnak-0"))
    stored = json.loads(json.dumps(arnak.state_to_dict(old)))
    assert stored["rules_version"] == "arnak-0" and arnak.state_from_dict(stored) == old
    new = arnak.new_game(["Ana"], {"difficulty": 2}, seed=4)
    stored = json.loads(json.dumps(arnak.state_to_dict(new)))
    assert arnak.state_from_dict(stored).rules_version == VERSIONS.current
    del stored["rules_version"]
    assert arnak.state_from_dict(stored).rules_version == FIRST


def test_every_arnak_version_prints_the_same_components() -> None:
    """The engine reads the printed numbers from ``components.book()`` (the first release's files) and only a game's
    behaviour from its own version (``state.book.conduct``): right only while every release reads the same printed
    files. A version that changes a number must first move those reads onto ``state.book``."""
    first = VERSIONS.release(FIRST).files
    for name in VERSIONS.names:
        files = VERSIONS.release(name).files
        assert {role: files[role] for role in first} == first, name
        assert VERSIONS.book(name).cards == arnak.book().cards and VERSIONS.book(name).boards == arnak.book().boards


@pytest.mark.parametrize("recorded", RECORDED, ids=[g["seed"] for g in RECORDED])
def test_a_game_recorded_under_arnak_0_re_decides_to_its_recorded_events(recorded: dict[str, Any]) -> None:
    """Games the arnak-0 release recorded (``data/arnak-0-games.json``: actions and the digest of the event log), as
    ``digsite verify`` checks them: dealt from the seed under their version, every action re-decided. Each holds a
    move that ``arnak-1`` decides otherwise (an artifact bought; in the solo games, the rival's red discover tile in
    round 5), so the check would catch a game run under the current version."""
    opening = arnak.start(recorded["players"], recorded["options"] or None, recorded["seed"], rules_version="arnak-0")
    state = arnak.replay(opening)
    log = [arnak.event_to_dict(e) for e in opening]
    differ = 0
    for data in recorded["actions"]:
        action = arnak.action_from_dict(data)
        events = arnak.decide(state, action)
        differ += arnak.decide(replace(state, rules_version="arnak-1"), action) != events
        state = arnak.replay(events, state)
        log += [arnak.event_to_dict(e) for e in events]
    assert state.outcome is not None and len(log) == recorded["event_count"]
    assert (
        hashlib.sha256(json.dumps(log, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        == (recorded["events_sha256"])
    )
    assert differ, "the recording exercises no rule arnak-1 changed"


def _old(state: GameState) -> GameState:
    return replace(state, rules_version="arnak-0")


def test_arnak_0_refills_the_row_before_the_bought_artifact_resolves() -> None:
    jar = card_named("Stone Jar")
    state = with_player(arnak.new_game(["Ana", "Beto"], seed="test"), 0, resources=(0, 2, 0, 0, 0), deck=(5,))
    state = replace(state, artifact_row=(jar,), artifact_deck=tuple(c for c in state.artifact_deck if c != jar))
    assert kinds(act(_old(state), Buy(0, jar))[1])[-3:] == ["CardBought", "RowRefilled", "CardsDrawn"]
    assert kinds(act(state, Buy(0, jar))[1])[-3:] == ["CardBought", "CardsDrawn", "RowRefilled"]


def _rival_plays(state: GameState, tile: int) -> list[ev.Event]:
    assert state.rival is not None
    state = replace(state, rival=replace(state.rival, stack=(tile, *(t for t in state.rival.stack if t != tile))))
    return act(replace(state, main_done=True), EndTurn(0))[1]


def test_arnak_0_lets_the_red_discover_tile_discover_in_round_5() -> None:
    state = replace(arnak.new_game(["Ana"], {"difficulty": 1}, seed="solo"), round=5, occupants=())
    assert rival_book().tiles[7].colour == "red"
    assert any(isinstance(e, ev.SiteRevealed) for e in _rival_plays(_old(state), 7))
    assert not any(isinstance(e, ev.SiteRevealed) for e in _rival_plays(state, 7))


def test_arnak_0_lets_the_rival_dig_across_both_rows_of_level_1_by_the_arrow() -> None:
    state = replace(arnak.new_game(["Ana"], seed="solo"), occupants=())
    for location in ("L1-1", "L1-5"):
        site = state.site(location)
        assert site is not None
        state = state.with_site(replace(site, tile=1, idols=()))  # 1 coin + 2 tablets
    placed = [e.space for e in _rival_plays(_old(state), 1) if isinstance(e, ev.ArchaeologistPlaced)]
    assert placed == ["L1-1"], "arnak-0: Level I as one row, the left arrow takes the lower row's first site"
    assert [e.space for e in _rival_plays(state, 1) if isinstance(e, ev.ArchaeologistPlaced)] == ["L1-5"]


def test_arnak_0_breaks_ties_by_research_score_and_gives_a_solo_tie_to_the_rival() -> None:
    from domain.arnak.scoring import outcome_of

    base = arnak.new_game(["Ana", "Beto"], seed="test")
    duo = with_player(base, 0, glass="r4p0", deck=(*base.seats[0].deck, card_named("Dog")))  # 9 + 1 VP
    duo = with_player(duo, 1, glass="r3p0", notebook="r3p1")  # 6 + 4: more research points, the glass behind
    assert outcome_of(_old(duo)).winners == (1,) and outcome_of(duo).winners == (0,)
    solo = with_player(arnak.new_game(["Ana"], seed="solo"), 0, glass="r3p0")
    solo = with_player(solo, 1, glass="r2p0", guardians=(1, 2))  # a tie, the human's glass further along
    assert outcome_of(_old(solo)).winners == (1,) and outcome_of(solo).winners == (0,)
