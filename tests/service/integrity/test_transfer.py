"""Export to JSON Lines and import into another store of the same backend, verified on the way in."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from service.commands.application import Digsite
from service.integrity.audit import verify
from service.integrity.records import GENESIS, record_hash
from service.integrity.transfer import FORMAT, _exists, export_lines, import_lines, write_export
from tests.service.integrity.test_audit import finished_game, first_play, new_game, play


def exported(service: Digsite, *game_ids: str) -> list[str]:
    out = io.StringIO()
    write_export(service, game_ids, out)
    return out.getvalue().splitlines()


def stored_rows(service: Digsite) -> int:
    return len(service.app.recorder.select_notifications(start=None, limit=100_000))


def edit_line(lines: list[str], predicate: Any, edit: Any) -> list[str]:
    out, done = [], False
    for text in lines:
        line = json.loads(text)
        if not done and predicate(line):
            edit(line)
            done = True
        out.append(json.dumps(line))
    assert done
    return out


def is_play(line: dict[str, Any]) -> bool:
    return line["type"] == "move" and line["body"]["action"]["type"] == "play"


def bump_rank(line: dict[str, Any]) -> None:
    line["body"]["action"]["rank"] = line["body"]["action"]["rank"] % 13 + 1


def test_export_lines_hold_players_tournament_header_and_every_record(service: Digsite) -> None:
    tournament = service.create_tournament("Spring cup", rounds=3, kind="ruins")
    game_id = finished_game(service, tournament=tournament)
    lines = [json.loads(t) for t in exported(service, game_id)]
    records = service.stored_records(game_id)
    assert [line["type"] for line in lines[:5]] == ["player", "player", "player", "tournament", "game"]
    assert lines[4] == {
        "type": "game",
        "format": FORMAT,
        "game": game_id,
        "records": len(records),
        "last_hash": records[-1]["hash"],
    }
    assert lines[5:] == records


def test_export_then_import_round_trips_the_records_exactly(service: Digsite, target: Digsite) -> None:
    tournament = service.create_tournament("Spring cup", rounds=3, kind="ruins")
    game_id = finished_game(service, tournament=tournament)
    results = import_lines(target, exported(service, game_id))
    assert [(r.game, r.imported, r.reason) for r in results] == [(game_id, True, None)]
    assert target.stored_records(game_id) == service.stored_records(game_id)
    assert verify(target, game_id).ok
    players = service.game(game_id)["players"]
    assert sorted(results[0].added_players) == sorted(p["id"] for p in players)
    assert results[0].added_tournaments == [tournament]
    for p in players:
        assert target.player(p["id"]) == service.player(p["id"])
    assert target.tournament(tournament) == service.tournament(tournament)
    assert list(target.game_ids(tournament=tournament)) == [game_id]
    assert target.game(game_id)["view"] == service.game(game_id)["view"]


def test_a_tournament_keeps_its_rule_options_and_a_file_exported_before_them_still_imports(
    service: Digsite, target: Digsite, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tournament = service.create_tournament("Spring cup", rounds=3, kind="ruins", options={})
    game_id = finished_game(service, tournament=tournament)
    lines = [json.loads(t) for t in exported(service, game_id)]
    [line] = [line for line in lines if line["type"] == "tournament"]
    assert line["options"] == {}
    del line["options"], line["hash"]  # a file written before tournaments held their options (or were chained)
    [result] = import_lines(target, [json.dumps(line) for line in lines])
    assert result.imported and result.added_tournaments == [tournament]
    assert target.tournament(tournament)["options"] is None  # (its games may have any options of its game)


def test_a_game_in_play_imports_and_plays_on_in_the_new_store(service: Digsite, target: Digsite) -> None:
    game_id = new_game(service)
    play(service, game_id, moves=10)
    [result] = import_lines(target, exported(service, game_id))
    assert result.imported
    assert target.stored_records(game_id) == service.stored_records(game_id)
    play(target, game_id)  # the imported game goes on under its own hash chain
    assert target.game(game_id)["status"] == "over" and verify(target, game_id).ok


def test_a_tournament_export_carries_its_games_only(service: Digsite, target: Digsite) -> None:
    tournament = service.create_tournament("Spring cup", rounds=3, kind="ruins")
    inside = [finished_game(service, "t1", tournament), finished_game(service, "t2", tournament)]
    finished_game(service, "outside")
    lines = [json.loads(t) for t in exported(service, *service.game_ids(tournament=tournament))]
    assert [line["game"] for line in lines if line["type"] == "game"] == inside
    assert sum(line["type"] == "tournament" for line in lines) == 1
    results = import_lines(target, [json.dumps(line) for line in lines])
    assert all(r.imported for r in results) and [r.game for r in results] == inside
    assert list(target.game_ids()) == inside


def test_a_tampered_export_is_refused_and_nothing_is_written(service: Digsite, target: Digsite) -> None:
    game_id = finished_game(service)
    version = first_play(service, game_id)
    lines = edit_line(exported(service, game_id), is_play, bump_rank)
    [result] = import_lines(target, lines)
    assert not result.imported
    assert result.report is not None and result.report.first_bad is not None
    assert result.report.first_bad.version == version
    assert f"record {version}" in str(result.reason)
    assert stored_rows(target) == 0  # not the game, not its players either


def test_a_forged_export_with_a_consistent_chain_is_refused_by_the_rules(service: Digsite, target: Digsite) -> None:
    game_id = finished_game(service)
    version = first_play(service, game_id)
    lines = [json.loads(t) for t in edit_line(exported(service, game_id), is_play, bump_rank)]
    prev = GENESIS
    for line in lines:
        if line["type"] in ("created", "move", "seed_revealed"):
            line["prev_hash"] = prev
            line["hash"] = prev = record_hash(game_id, line["version"], prev, line["body"])
    next(line for line in lines if line["type"] == "game")["last_hash"] = prev
    [result] = import_lines(target, [json.dumps(line) for line in lines])
    assert not result.imported
    assert result.report is not None and result.report.first_bad is not None
    assert result.report.first_bad.version == version and result.report.first_bad.reason.startswith("replay")
    assert stored_rows(target) == 0


def test_a_truncated_export_is_refused(service: Digsite, target: Digsite) -> None:
    game_id = finished_game(service)
    [result] = import_lines(target, exported(service, game_id)[:-1])
    assert not result.imported and "header announces" in str(result.reason)
    assert stored_rows(target) == 0


def test_a_game_already_in_the_store_is_refused(service: Digsite) -> None:
    game_id = finished_game(service)
    before = stored_rows(service)
    [result] = import_lines(service, exported(service, game_id))
    assert not result.imported and "already exists" in str(result.reason)
    assert stored_rows(service) == before


def test_each_game_of_a_file_stands_alone(service: Digsite, target: Digsite) -> None:
    good, bad = finished_game(service, "good"), finished_game(service, "bad")
    lines = edit_line(exported(service, good, bad), lambda line: line.get("game") == bad and is_play(line), bump_rank)
    results = {r.game: r for r in import_lines(target, lines)}
    assert results[good].imported and not results[bad].imported
    assert list(target.game_ids()) == [good]
    assert target.stored_records(good) == service.stored_records(good)


def test_a_dry_run_verifies_and_writes_nothing(service: Digsite, target: Digsite) -> None:
    game_id = finished_game(service)
    [result] = import_lines(target, exported(service, game_id), dry_run=True)
    assert result.imported and result.report is not None and result.report.ok
    assert stored_rows(target) == 0


def test_export_lines_of_an_unknown_game_raise_before_writing(service: Digsite) -> None:
    from service.errors import NotFound

    with pytest.raises(NotFound):
        next(export_lines(service, ["00000000-0000-4000-8000-000000000000"]))


def test_lines_that_are_not_an_export_are_refused_not_raised(service: Digsite, target: Digsite) -> None:
    game_id = finished_game(service)
    lines = exported(service, game_id)
    results = import_lines(target, ["not json", *lines[:10], "{broken", *lines[10:]])
    assert [r.imported for r in results] == [False, False]
    assert "line 1 is not JSON" in str(results[0].reason)
    assert "is not JSON" in str(results[1].reason)
    assert stored_rows(target) == 0


@pytest.mark.parametrize("kind", ["player", "tournament"])
def test_an_export_whose_names_hold_a_nul_is_refused_and_nothing_is_written(
    service: Digsite, target: Digsite, kind: str
) -> None:
    """A NUL cannot be held by PostgreSQL text: once stored it would stop the read models."""
    game_id = finished_game(service, tournament=service.create_tournament("Spring cup", rounds=3, kind="ruins"))

    def add_nul(line: dict[str, Any]) -> None:
        line["name"] = "Spring\x00cup" if kind == "tournament" else "A\x00na"

    lines = edit_line(exported(service, game_id), lambda line: line["type"] == kind, add_nul)
    [result] = import_lines(target, lines)
    assert not result.imported and "U+0000" in str(result.reason) and kind in str(result.reason)
    assert stored_rows(target) == 0


def test_a_tournament_s_entries_and_seated_rounds_travel_with_its_games(service: Digsite, target: Digsite) -> None:
    """The export's tournament line carries its recorded entries and rounds; the import records them the same, and
    a line whose events are malformed is refused (nothing written)."""
    from service.bots.seated_rounds import enter_bots, play_rounds

    cup = service.create_tournament("Seated cup", 1, "ruins")
    bots = enter_bots(service, cup, 3)
    service.rounds.withdraw(cup, bots[2])
    service.rounds.seat_round(cup, "round_robin", 2)
    play_rounds(service, cup)
    [game_id] = service.game_ids(tournament=cup)
    lines = [json.loads(t) for t in exported(service, game_id)]
    [line] = [line for line in lines if line["type"] == "tournament"]
    assert [e["event"] for e in line["events"]] == ["entry_added"] * 3 + ["entry_withdrawn", "round_seated"]

    broken = [json.dumps({**x, "events": [{"event": "entry_added"}]} if x is line else x) for x in lines]
    [refused] = import_lines(target, broken)
    assert not refused.imported and "malformed" in str(refused.reason)
    assert list(target.game_ids(tournament=cup)) == [] and not _exists(target, cup)
    [result] = import_lines(target, [json.dumps(x) for x in lines])
    assert result.imported and result.added_tournaments == [cup]
    assert target.rounds.status(cup) == service.rounds.status(cup)


def test_a_tournament_s_broadcast_travels_with_its_games(service: Digsite, target: Digsite) -> None:
    """The broadcast's delay (``broadcast_set``) is one of the recorded events an export carries; a bad delay in a
    file is refused like any malformed event (nothing written)."""
    from service.commands.broadcasts import delay_of, set_broadcast

    cup = service.create_tournament("Broadcast cup", 1, "ruins")
    players = [service.create_player(n) for n in ("Ana", "Beto")]
    game_id = service.create_game("ruins", players, None, {"tournament": cup})["id"]
    set_broadcast(service, cup, minutes=2.5)
    lines = [json.loads(t) for t in exported(service, game_id)]
    [line] = [line for line in lines if line["type"] == "tournament"]
    [event] = line["events"]
    assert {k: v for k, v in event.items() if k not in ("at", "hash")} == {
        "event": "broadcast_set",
        "moves": None,
        "minutes": 2.5,
    }

    bad = {**event, "moves": -1, "minutes": None}
    [refused] = import_lines(target, [json.dumps({**x, "events": [bad]} if x is line else x) for x in lines])
    assert not refused.imported and "broadcast" in str(refused.reason) and not _exists(target, cup)
    [result] = import_lines(target, [json.dumps(x) for x in lines])
    assert result.imported and delay_of(target, cup) == {"minutes": 2.5}


def test_rulings_travel_with_their_game_and_tournament_and_verify_in_the_new_store(
    service: Digsite, target: Digsite
) -> None:
    from service.integrity.ledger import Ledger

    cup = service.create_tournament("Ruled cup", rounds=1, kind="ruins")
    game_id = finished_game(service, tournament=cup)
    service.rulings.rule_on_game(game_id, {"ruling": "annul", "reason": "two players swapped seats"})
    player = service.game(game_id)["players"][0]["id"]
    service.rulings.rule_on_tournament(cup, {"ruling": "penalty", "player": player, "points": 2, "reason": "late"})
    lines = exported(service, game_id)
    assert json.loads(lines[-1])["type"] == "ruling"

    tampered = [json.loads(line) for line in lines]
    tampered[-1]["body"]["reason"] = "nothing happened"
    [refused] = import_lines(target, [json.dumps(x) for x in tampered])
    assert not refused.imported and not _exists(target, game_id)

    [result] = import_lines(target, lines)
    assert result.imported, result.reason
    assert target.stored_records(game_id) == service.stored_records(game_id)
    assert verify(target, game_id).ok
    assert [e.kind for e in Ledger(target).entries_of(game_id)] == ["created", "finished", "ruling"]
    assert target.rulings.of_tournament(cup) == service.rulings.of_tournament(cup)
