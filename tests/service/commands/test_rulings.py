"""Rulings (service/commands/rulings.py) on both stores: each is a record, never an edit; bad input changes
nothing; a ruling stands in ``verify`` and the ledger like a move, and tampering with one is found."""

from __future__ import annotations

from typing import Any

import pytest

from service.commands.application import Digsite, Viewer
from service.errors import BadRequest, Conflict, NotFound, ServiceError
from service.integrity.audit import verify, verify_records
from service.integrity.records import record_hash
from service.settings import Database
from tests.service.integrity.test_audit import delete_row, edit_row, finished_game, new_game, play, rehash_from


def rule(service: Digsite, game_id: str, ruling: str, reason: str = "the organiser's reason", **more: Any) -> Any:
    return service.rulings.rule_on_game(game_id, {"ruling": ruling, "reason": reason, **more})


def failed(service: Digsite, game_id: str) -> dict[str, str]:
    return {c.name: c.detail for c in verify(service, game_id).checks if not c.ok}


def test_an_annulment_is_a_record_after_the_end_and_the_game_still_verifies(service: Digsite) -> None:
    game_id = finished_game(service)
    before = service.stored_records(game_id)
    record = rule(service, game_id, "annul", "two players swapped seats")
    after = service.stored_records(game_id)
    assert after[:-1] == before  # nothing edited: one record more
    assert after[-1]["type"] == "ruling" and record["body"]["reason"] == "two players swapped seats"
    assert record["body"]["details"] == {"in_play": False}
    assert failed(service, game_id) == {}


def test_an_annulled_game_in_play_takes_no_more_moves(service: Digsite) -> None:
    game_id = new_game(service)
    play(service, game_id, 3)
    rule(service, game_id, "annul", "a misdeal")
    seen = service.game(game_id, Viewer(service.game(game_id)["to_act"][0]))
    with pytest.raises(Conflict) as refused:
        service.submit(game_id, Viewer(seen["seat"]), seen["version"], seen["legal_actions"][0])
    assert refused.value.code == "game_stopped"
    with pytest.raises(Conflict):
        rule(service, game_id, "annul")
    assert failed(service, game_id) == {}


def test_an_adjusted_result_keeps_the_engines_own_beside_it(service: Digsite) -> None:
    game_id = finished_game(service)
    engine = service.game(game_id)["result"]
    assert engine is not None
    ranking = list(reversed(engine["ranking"]))
    record = rule(service, game_id, "adjust_result", "a scoring error", result={"ranking": ranking})
    details = record["body"]["details"]
    assert details["result"]["ranking"] == ranking and details["result"]["winners"] == ranking[:1]
    assert details["engine_result"]["ranking"] == engine["ranking"]
    assert service.game(game_id)["result"] == engine  # the game's own result is the engine's, as played
    assert failed(service, game_id) == {}


def test_a_substitute_holds_the_seat_with_a_new_token_and_the_old_one_opens_nothing(service: Digsite) -> None:
    game_id = new_game(service)
    play(service, game_id, 2)
    dora = service.create_player("Dora")
    record = rule(service, game_id, "substitute", "Ana left ill", seat=0, player=dora)
    assert record["body"]["details"]["player"] == dora
    assert service.seat_for_token(game_id, record["token"]["token"]) == 0
    assert service.game(game_id)["players"][0]["name"] == "Dora"
    seat_view = service.log(game_id, Viewer(1))[-1]
    assert "token_hash" not in seat_view["body"]["details"]  # (a seat never reads another seat's token hash)
    play(service, game_id)
    assert failed(service, game_id) == {}


def test_a_restart_continues_as_a_new_game_from_the_same_deal(service: Digsite) -> None:
    game_id = new_game(service)
    play(service, game_id, 6)
    record = rule(service, game_id, "restart", "a card was played from the wrong row", version=4)
    new = record["continued_as"]
    old_records, new_records = service.stored_records(game_id), service.stored_records(new["id"])
    assert new["version"] == 4 and len(new_records) == 4
    assert [r["body"]["action"] for r in new_records[1:]] == [r["body"]["action"] for r in old_records[1:4]]
    assert new_records[0]["body"]["labels"]["restart_of"] == {"game": game_id, "version": 4}
    assert record["body"]["details"] == {"version": 4, "continued_as": new["id"]}
    assert failed(service, game_id) == {} and failed(service, new["id"]) == {}
    seat = service.game(new["id"])["to_act"][0]
    assert service.seat_for_token(new["id"], new["tokens"][seat]["token"]) == seat
    play(service, new["id"])
    assert failed(service, new["id"]) == {}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruling": "annul", "reason": "   "}, "invalid_ruling"),
        ({"ruling": "annul"}, "invalid_ruling"),
        ({"ruling": "erase", "reason": "x"}, "invalid_ruling"),
        ({"ruling": "restart", "reason": "x", "version": 999}, "unknown_version"),
        ({"ruling": "restart", "reason": "x", "version": "3"}, "invalid_ruling"),
        (
            {"ruling": "substitute", "reason": "x", "seat": 0, "player": "00000000-0000-4000-8000-000000000000"},
            "unknown_player",
        ),
        (
            {"ruling": "substitute", "reason": "x", "seat": 7, "player": "00000000-0000-4000-8000-000000000000"},
            "invalid_ruling",
        ),
        ({"ruling": "adjust_result", "reason": "x", "result": {"ranking": [0, 1, 2]}}, "game_in_play"),
        ("annul", "malformed_request"),
    ],
)
def test_a_bad_ruling_is_refused_with_its_code_and_changes_nothing(service: Digsite, body: Any, code: str) -> None:
    game_id = new_game(service)
    play(service, game_id, 2)
    before = service.stored_records(game_id)
    with pytest.raises(ServiceError) as refused:
        service.rulings.rule_on_game(game_id, body)
    assert refused.value.code == code and isinstance(refused.value, BadRequest | NotFound | Conflict)
    assert service.stored_records(game_id) == before


def test_a_ruling_on_an_unknown_game_is_not_found(service: Digsite) -> None:
    with pytest.raises(NotFound):
        rule(service, "00000000-0000-4000-8000-000000000000", "annul")


def test_a_rulings_reason_edited_in_the_database_is_found(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    version = rule(service, game_id, "annul", "a misdeal")["version"]

    def soften(state: dict[str, Any]) -> None:
        state["reason"] = "nothing happened"

    edit_row(database, game_id, version, soften)
    assert "hash_chain" in failed(service, game_id)
    rehash_from(database, service, game_id, version)  # a forger who rehashes is caught by the ledger
    assert "ledger" in failed(service, game_id)


def test_a_deleted_ruling_after_the_end_is_found_by_the_ledger(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    version = rule(service, game_id, "annul", "a misdeal")["version"]
    delete_row(database, game_id, version)
    service.live.forget(service.handle(game_id).uid)
    assert "ruling" in failed(service, game_id)["ledger"]


def _rehashed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records with their chain recomputed, as a forger who knows the scheme would (in memory)."""
    prev = records[0]["prev_hash"]
    for record in records:
        record["prev_hash"] = prev
        record["hash"] = prev = record_hash(record["game"], record["version"], prev, record["body"])
    return records


def test_a_forged_ruling_with_a_consistent_chain_is_caught_by_the_rulings_check(service: Digsite) -> None:
    """Past the hash chain (rehashed) and without the ledger (records alone): what the ruling says is checked."""
    over = finished_game(service)
    ranking = service.game(over)["result"]["ranking"]  # type: ignore[index]
    rule(service, over, "adjust_result", "miscount", result={"ranking": list(reversed(ranking))})
    records = service.stored_records(over)
    assert verify_records(records).ok
    forged = [dict(r, body=dict(r["body"])) for r in records]
    forged[-1]["body"]["details"] = {**forged[-1]["body"]["details"], "engine_result": {"ranking": [], "scores": []}}
    report = verify_records(_rehashed(forged))
    assert [c.name for c in report.checks if not c.ok] == ["rulings"]

    in_play = new_game(service, "forged-move")
    play(service, in_play, 3)
    rule(service, in_play, "annul", "a misdeal")
    records = service.stored_records(in_play)
    moved = [dict(r) for r in records[:-1]]
    forged = [*moved[:-1], {**records[-1], "version": moved[-1]["version"]}, {**moved[-1], "version": len(records)}]
    report = verify_records(_rehashed(forged))  # (the annulment moved before the last move: a move after it)
    assert "rulings" in [c.name for c in report.checks if not c.ok]


def test_a_penalty_is_recorded_on_the_tournament_with_its_reason(service: Digsite) -> None:
    tournament = service.create_tournament("Open", 2, "ruins")
    game_id = new_game(service, tournament=tournament)
    ana = service.game(game_id)["players"][0]["id"]
    given = service.rulings.rule_on_tournament(
        tournament, {"ruling": "penalty", "player": ana, "points": 2, "reason": "late to the table"}
    )
    assert given["points"] == 2
    assert service.rulings.of_tournament(tournament) == [
        {"ruling": "penalty", "player": ana, "points": 2, "reason": "late to the table", "at": given["at"]}
    ]
    for bad, code in [
        ({"ruling": "penalty", "player": ana, "points": 0, "reason": "x"}, "invalid_ruling"),
        ({"ruling": "penalty", "player": ana, "points": 2, "reason": ""}, "invalid_ruling"),
        ({"ruling": "penalty", "player": game_id, "points": 2, "reason": "x"}, "unknown_player"),
    ]:
        with pytest.raises(ServiceError) as refused:
            service.rulings.rule_on_tournament(tournament, bad)
        assert refused.value.code == code
    assert len(service.rulings.of_tournament(tournament)) == 1
