"""A tournament's own records (created, entries, withdrawals, seated rounds, broadcast, penalties) are chained and
entered in the ledger, on both stores; an insider's edit of the stored rows is caught by ``verify``, with the chain
recomputed or not (docs/audit.md, *What the audit proves*). A tournament stored before the chains is reported as
not covered, never as failing, until ``digsite ledger backfill`` enters it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner
from eventsourcing.utils import get_topic

from service.cli import main
from service.commands.application import Digsite
from service.integrity.audit import verify_store
from service.integrity.backfill import backfill
from service.integrity.ledger import KIND_OF_TOPIC, Ledger, check_chain
from service.integrity.records import GENESIS, tournament_record_hash
from service.integrity.tournament_chain import TournamentReport, verify_tournament
from service.integrity.transfer import _exists, import_lines
from service.settings import Database
from service.store.aggregates import TOURNAMENT_RECORDS
from tests.service.integrity.test_ledger import raw
from tests.service.integrity.test_transfer import exported

ROOT = Path(__file__).resolve().parents[3]


def cup_with_history(service: Digsite) -> str:
    """A tournament of four entries, one withdrawn, two rounds seated (the second forced), a penalty."""
    cup = service.create_tournament("Audit cup", 3, "ruins")
    players = [service.create_player(n) for n in ("Ana", "Beto", "Carla", "Dora", "Eli")]
    service.rounds.enter(cup, players)
    service.rounds.withdraw(cup, players[4])
    service.rounds.seat_round(cup, "round_robin", 2)
    service.rounds.seat_round(cup, "round_robin", 2, force=True)
    service.rulings.rule_on_tournament(
        cup, {"ruling": "penalty", "player": players[0], "points": 2, "reason": "late to table 1"}
    )
    return cup


def rows(db: Database, aggregate: str) -> list[tuple[int, str, dict[str, Any]]]:
    """(version, topic, stored JSON) of every stored row of ``aggregate``, in order."""
    key: Any = UUID(aggregate).hex if db.backend == "sqlite" else UUID(aggregate)
    with raw(db) as sql:
        found = sql(
            "SELECT originator_version, topic, state FROM {events} WHERE originator_id = ? ORDER BY originator_version",
            (key,),
        )
    return [(int(v), str(t), json.loads(bytes(s))) for v, t, s in found]


def forge(
    db: Database, aggregate: str, change: Callable[[list[tuple[str, dict[str, Any]]]], None], rehash: bool
) -> None:
    """Rewrite a tournament's stored rows in place as an insider would: ``change`` edits the (topic, state) list
    (and may drop some: the rows after the last are deleted); with ``rehash`` every hash is recomputed after it, so
    the stored chain holds again. Rows are updated, never inserted, so the ledger gains no entry."""
    found = rows(db, aggregate)
    records = [(topic, state) for _, topic, state in found]
    change(records)
    if rehash:
        prev = GENESIS
        for version, (topic, state) in enumerate(records, start=1):
            name = next(n for n, (cls, _) in TOURNAMENT_RECORDS.items() if get_topic(cls) == topic)
            body = {f: state[f] for f in TOURNAMENT_RECORDS[name][1]}
            state["hash"] = tournament_record_hash(aggregate, version, prev, body)
            if version > 1:
                state["prev_hash"] = prev
            prev = state["hash"]
    key: Any = UUID(aggregate).hex if db.backend == "sqlite" else UUID(aggregate)
    with raw(db) as sql:
        for version, (topic, state) in enumerate(records, start=1):
            sql(
                "UPDATE {events} SET topic = ?, state = ? WHERE originator_id = ? AND originator_version = ?",
                (topic, json.dumps(state).encode(), key, version),
            )
        sql("DELETE FROM {events} WHERE originator_id = ? AND originator_version > ?", (key, len(records)))


def audit(service: Digsite, cup: str) -> TournamentReport:
    [report] = verify_store(service, game_ids=[], tournament_ids=[cup]).tournaments
    return report


def failed(report: TournamentReport) -> tuple[str, int | None, str]:
    bad = next(c for c in report.checks if not c.ok)
    return bad.name, bad.version, bad.detail


def penalty_at(db: Database, cup: str) -> int:
    return next(v for v, topic, _ in rows(db, cup) if topic.endswith("PenaltyGiven"))


def test_every_record_of_a_tournament_is_chained_and_entered_in_the_ledger(service: Digsite) -> None:
    cup = cup_with_history(service)
    entries = [e for e in Ledger(service).entries() if e.kind == "tournament"]
    assert [e.version for e in entries] == list(range(1, 11))  # created, 5 entries, a withdrawal, 2 rounds, a penalty
    assert {e.game for e in entries} == {cup}
    assert check_chain(Ledger(service).entries()).ok
    report = verify_tournament(service, cup)
    assert report.ok and report.coverage == "whole" and report.records == 10, report.checks
    store = verify_store(service)
    assert store.ok and [t.tournament for t in store.tournaments] == [cup]


def test_a_penalty_s_points_edited_in_the_database_is_caught_by_its_own_hash(
    service: Digsite, database: Database
) -> None:
    cup = cup_with_history(service)
    at = penalty_at(database, cup)
    forge(database, cup, lambda records: records[at - 1][1].update(points=0), rehash=False)
    assert failed(audit(service, cup))[:2] == ("tournament_chain", at)


def test_a_penalty_s_points_edited_and_the_chain_recomputed_is_caught_by_the_ledger(
    service: Digsite, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    cup = cup_with_history(service)
    at = penalty_at(database, cup)
    forge(database, cup, lambda records: records[at - 1][1].update(points=0), rehash=True)
    name, version, detail = failed(audit(service, cup))
    assert (name, version) == ("tournament_chain", at) and "not the one the ledger entered" in detail
    assert not verify_store(service).ok
    monkeypatch.setenv("DIGSITE_DATABASE_URL", database.url)
    result = CliRunner().invoke(main, ["verify", "--all"])
    assert result.exit_code == 1, result.output
    assert f"FAIL tournament {cup}: first bad record {at}: tournament_chain" in result.output
    assert "1 tournament(s) checked: 0 verified" in result.output


def test_an_entry_deleted_as_it_stands_is_named_as_missing(service: Digsite, database: Database) -> None:
    cup = cup_with_history(service)
    key: Any = UUID(cup).hex if database.backend == "sqlite" else UUID(cup)
    with raw(database) as sql:
        sql("DELETE FROM {events} WHERE originator_id = ? AND originator_version = 3", (key,))
    assert failed(audit(service, cup))[:2] == ("tournament_records", 3)


def test_an_entry_deleted_and_the_rest_renumbered_and_rehashed_is_caught_by_the_ledger(
    service: Digsite, database: Database
) -> None:
    cup = cup_with_history(service)
    forge(database, cup, lambda records: records.pop(2), rehash=True)  # the second entry gone, versions closed up
    name, version, detail = failed(audit(service, cup))
    assert (name, version) == ("tournament_chain", 3) and "ledger" in detail


def test_rounds_reordered_are_caught_by_the_records_or_by_the_ledger(service: Digsite, database: Database) -> None:
    cup = cup_with_history(service)
    seated = [v for v, topic, _ in rows(database, cup) if topic.endswith("RoundSeated")]
    assert len(seated) == 2
    first, second = (v - 1 for v in seated)

    def swap_records(records: list[tuple[str, dict[str, Any]]]) -> None:
        records[first], records[second] = records[second], records[first]

    forge(database, cup, swap_records, rehash=True)
    assert failed(audit(service, cup))[:2] == ("tournament_records", seated[0])  # round 2 seated before round 1


def test_rounds_tables_swapped_with_their_numbers_kept_are_caught_by_the_ledger(
    service: Digsite, database: Database
) -> None:
    cup = cup_with_history(service)
    seated = [v for v, topic, _ in rows(database, cup) if topic.endswith("RoundSeated")]
    first, second = (v - 1 for v in seated)

    def swap_tables(records: list[tuple[str, dict[str, Any]]]) -> None:
        a, b = records[first][1], records[second][1]
        a["tables"], b["tables"] = b["tables"], a["tables"]

    forge(database, cup, swap_tables, rehash=True)
    name, version, detail = failed(audit(service, cup))
    assert (name, version) == ("tournament_chain", seated[0]) and "ledger" in detail


def test_a_tournament_stored_before_chains_is_not_covered_then_backfilled_then_chains_on(
    service: Digsite, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its rows as an earlier release stored them (no hash, no ledger entry): not covered, not failing; backfill
    enters each record; a new entry is then chained after them and entered live."""
    cup = cup_with_history(service)
    old = str(UUID(int=UUID(cup).int ^ 1))  # a second tournament, its rows those of an earlier release
    key: Any = UUID(old).hex if database.backend == "sqlite" else UUID(old)
    with raw(database) as sql:
        if database.backend == "postgresql":  # (an earlier release's store had no trigger for tournaments)
            sql("ALTER TABLE {events} DISABLE TRIGGER digsite_ledger_append")
        for version, topic, state in rows(database, cup):
            unchained = {k: v for k, v in state.items() if k not in ("hash", "prev_hash")}
            sql(
                "INSERT INTO {events} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
                (key, version, topic, json.dumps(unchained).encode()),
            )
        if database.backend == "postgresql":
            sql("ALTER TABLE {events} ENABLE TRIGGER digsite_ledger_append")
    report = audit(service, old)
    assert report.ok and report.coverage == "not covered" and report.uncovered == list(range(1, 11))
    assert "not covered" in report.checks[-1].detail
    assert verify_store(service).ok  # reported, not an error
    monkeypatch.setenv("DIGSITE_DATABASE_URL", database.url)
    result = CliRunner().invoke(main, ["verify", "--all"])
    assert result.exit_code == 0 and f"not covered: tournament {old}" in result.output, result.output

    done = backfill(service)
    assert [e.version for e in done.entered if e.game == old] == list(range(1, 11))
    assert all(e.origin == "backfill" for e in done.entered)
    assert done.tournaments_already == 1 and not done.refused
    assert audit(service, old).coverage == "whole"

    newcomer = service.create_player("Fede")
    service.rounds.enter(old, [newcomer])
    report = audit(service, old)
    assert report.ok and report.coverage == "whole" and report.records == 11
    assert check_chain(Ledger(service).entries()).ok
    assert backfill(service).tournaments_already == 2


def test_the_postgresql_trigger_enters_exactly_the_topics_the_sqlite_recorder_enters() -> None:
    trigger = (ROOT / "migrations" / "postgresql" / "0003_ledger_tournaments.sql").read_text()
    named = set(re.findall(r"'(service\.aggregates:[\w.]+)'", trigger))
    assert named == set(KIND_OF_TOPIC)


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda e: e["event"] == "penalty_given" and e.update(reason="no penalty at all"), id="penalty"),
        pytest.param(lambda e: e["event"] == "entry_added" and e.update(name="Someone else"), id="entry"),
    ],
)
def test_an_import_refuses_a_tournament_line_edited_in_the_file_and_takes_it_whole(
    service: Digsite, target: Digsite, edit: Callable[[dict[str, Any]], Any]
) -> None:
    cup = cup_with_history(service)
    game_id = next(iter(service.game_ids(tournament=cup)))
    lines = [json.loads(t) for t in exported(service, game_id)]
    [line] = [x for x in lines if x["type"] == "tournament"]
    assert [e["hash"] for e in line["events"]] == [e.record_hash for e in Ledger(service).entries_of(cup)][1:]
    edited = json.loads(json.dumps(line))
    assert [e for e in edited["events"] if edit(e) is not False]  # (the edit found its event)
    [refused] = import_lines(target, [json.dumps(edited if x is line else x) for x in lines])
    assert not refused.imported and "changed after it was exported" in str(refused.reason)
    assert not _exists(target, cup)
    [result] = import_lines(target, [json.dumps(x) for x in lines])
    assert result.imported and result.added_tournaments == [cup]
    report = verify_tournament(target, cup)
    assert report.ok and report.coverage == "whole"  # entered live in the new store's ledger, the same hashes
    assert [e.record_hash for e in Ledger(target).entries_of(cup)] == [
        e.record_hash for e in Ledger(service).entries_of(cup)
    ]
