"""The audit on both stores: a bot-played game verifies, and tampering with the stored rows is caught and
pinned on the record that was changed (the rows are edited in the database directly, as an insider would)."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain import ruins
from domain.ruins.bots import RandomBot, Seen
from service.commands.application import Digsite, Viewer
from service.errors import NotFound
from service.integrity.audit import CHECKS, STORE_CHECKS, stored_game_ids, verify, verify_all
from service.integrity.records import GENESIS, record_hash
from service.settings import Database

# -- helpers shared by the transfer and CLI tests ---------------------------------------------------------


def new_game(service: Digsite, seed: str = "audit", tournament: str | None = None) -> str:
    players = [service.create_player(name) for name in ("Ana", "Beto", "Carla")]
    labels = {"tournament": tournament, "round": 1, "table": 1} if tournament else None
    return str(service.create_game("ruins", players, labels=labels, seed=seed)["id"])


def play(service: Digsite, game_id: str, moves: int | None = None, seed: int = 1) -> int:
    """Random-bot moves through the service until the game is over (or ``moves`` were made)."""
    rng, bot, made = random.Random(seed), RandomBot(), 0
    while (moves is None or made < moves) and (game := service.game(game_id))["status"] == "playing":
        seat = game["to_act"][0]
        seen = service.game(game_id, Viewer(seat))
        legal = [ruins.action_from_dict(a) for a in seen["legal_actions"]]
        action = bot.choose(Seen.from_view(seen["view"]), legal, rng)
        service.submit(game_id, Viewer(seat), seen["version"], ruins.action_to_dict(action))
        made += 1
    return made


def finished_game(service: Digsite, seed: str = "audit", tournament: str | None = None) -> str:
    game_id = new_game(service, seed, tournament)
    play(service, game_id)
    assert service.game(game_id)["status"] == "over"
    return game_id


def _sqlite_key(game_id: str) -> str:
    return UUID(game_id).hex


def read_row(db: Database, game_id: str, version: int) -> dict[str, Any]:
    """The library's stored JSON of one record of a game, decoded."""
    if db.backend == "sqlite":
        with sqlite3.connect(db.path) as conn:
            row = conn.execute(
                "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                (_sqlite_key(game_id), version),
            ).fetchone()
    else:
        import psycopg

        with psycopg.connect(db.psycopg_conninfo()) as conn:
            row = conn.execute(
                f'SELECT state FROM "{db.schema}".digsite_events WHERE originator_id = %s AND originator_version = %s',
                (UUID(game_id), version),
            ).fetchone()
    assert row is not None, f"no stored row for version {version}"
    decoded: dict[str, Any] = json.loads(bytes(row[0]))
    return decoded


def write_row(db: Database, game_id: str, version: int, state: bytes) -> None:
    if db.backend == "sqlite":
        with sqlite3.connect(db.path) as conn:
            changed = conn.execute(
                "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (state, _sqlite_key(game_id), version),
            ).rowcount
    else:
        import psycopg

        with psycopg.connect(db.psycopg_conninfo()) as conn:
            changed = conn.execute(
                f'UPDATE "{db.schema}".digsite_events SET state = %s '
                "WHERE originator_id = %s AND originator_version = %s",
                (state, UUID(game_id), version),
            ).rowcount
    assert changed == 1


def edit_row(db: Database, game_id: str, version: int, edit: Callable[[dict[str, Any]], None]) -> None:
    """Decode a stored row's JSON, let ``edit`` change it, encode it back in place."""
    state = read_row(db, game_id, version)
    edit(state)
    write_row(db, game_id, version, json.dumps(state, separators=(",", ":")).encode())


def delete_row(db: Database, game_id: str, version: int) -> None:
    if db.backend == "sqlite":
        with sqlite3.connect(db.path) as conn:
            conn.execute(
                "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                (_sqlite_key(game_id), version),
            )
    else:
        import psycopg

        with psycopg.connect(db.psycopg_conninfo()) as conn:
            conn.execute(
                f'DELETE FROM "{db.schema}".digsite_events WHERE originator_id = %s AND originator_version = %s',
                (UUID(game_id), version),
            )


def rehash_from(db: Database, service: Digsite, game_id: str, start: int) -> None:
    """Recompute the hash chain from record ``start`` on, as a forger who knows the scheme would."""
    records = service.stored_records(game_id)
    prev = records[start - 2]["hash"] if start > 1 else GENESIS
    for record in records[start - 1 :]:
        new = record_hash(game_id, record["version"], prev, record["body"])

        def fix(state: dict[str, Any], prev: str = prev, new: str = new) -> None:
            state["hash"] = new
            if "prev_hash" in state:
                state["prev_hash"] = prev

        edit_row(db, game_id, record["version"], fix)
        prev = new


def first_play(service: Digsite, game_id: str) -> int:
    """The version of the first recorded play."""
    return next(
        r["version"] for r in service.stored_records(game_id) if r["body"].get("action", {}).get("type") == "play"
    )


def bump_rank(state: dict[str, Any]) -> None:
    state["action"]["rank"] = state["action"]["rank"] % 13 + 1


def check(report: Any, name: str) -> Any:
    return next(c for c in report.checks if c.name == name)


# -- a clean game -----------------------------------------------------------------------------------------


def test_a_bot_played_game_verifies_on_every_check(service: Digsite) -> None:
    game_id = finished_game(service)
    records = service.stored_records(game_id)
    report = verify(service, game_id)
    assert report.ok, report.to_dict()
    assert [c.name for c in report.checks] == [*CHECKS, *STORE_CHECKS]
    assert all(c.ok for c in report.checks)
    assert report.first_bad is None
    assert report.status == "over" and report.seed_public
    assert report.records == len(records) and report.last_hash == records[-1]["hash"]
    assert str(len(records) - 2) in check(report, "replay").detail  # every move re-decided


def test_a_game_in_play_verifies_with_the_referees_seed_without_publishing_it(service: Digsite) -> None:
    game_id = new_game(service, seed="secret-seed-in-play")
    play(service, game_id, moves=8)
    report = verify(service, game_id)
    assert report.ok, report.to_dict()
    assert report.status == "playing" and not report.seed_public
    assert "not yet public" in check(report, "seed").detail
    assert "secret-seed-in-play" not in json.dumps(report.to_dict())


def test_an_unknown_game_is_not_found(service: Digsite) -> None:
    with pytest.raises(NotFound):
        verify(service, "00000000-0000-4000-8000-000000000000")
    with pytest.raises(NotFound):
        verify(service, "not-a-game-id")


# -- tampering in the database ----------------------------------------------------------------------------


def test_a_plays_rank_edited_in_the_database_names_that_record(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    version = first_play(service, game_id)
    edit_row(database, game_id, version, bump_rank)
    report = verify(service, game_id)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad.version == version
    assert "hash_chain" in report.first_bad.reason
    assert check(report, "hash_chain").version == version


def test_a_dealt_hand_edited_in_the_database_names_that_record(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    version = next(
        r["version"]
        for r in service.stored_records(game_id)
        if r["type"] == "move" and any(e["type"] == "RoundDealt" for e in r["body"]["events"])
    )

    def swap_a_card(state: dict[str, Any]) -> None:
        dealt = next(e for e in state["events"] if e["type"] == "RoundDealt")
        a, b = dealt["hands"][0], dealt["hands"][1]
        a[0], b[0] = b[0], a[0]

    edit_row(database, game_id, version, swap_a_card)
    report = verify(service, game_id)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad.version == version


def test_a_forgery_with_a_recomputed_chain_is_caught_by_the_rules(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    version = first_play(service, game_id)
    edit_row(database, game_id, version, bump_rank)
    rehash_from(database, service, game_id, version)
    report = verify(service, game_id)
    assert check(report, "hash_chain").ok  # the forger got the arithmetic right...
    assert not check(report, "replay").ok  # ...but the rules do not give that record
    assert report.first_bad is not None and report.first_bad.version == version
    assert report.first_bad.reason.startswith("replay")


def test_a_deleted_record_is_named_as_missing(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    delete_row(database, game_id, 5)
    report = verify(service, game_id)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad.version == 5
    assert "missing" in report.first_bad.reason


def test_a_deleted_seed_reveal_is_caught(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    last = len(service.stored_records(game_id))
    delete_row(database, game_id, last)
    report = verify(service, game_id)
    assert not check(report, "game_over").ok
    assert report.first_bad is not None and report.first_bad.version == last


def test_two_records_with_swapped_contents_are_caught(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    first, second = read_row(database, game_id, 6), read_row(database, game_id, 9)
    write_row(database, game_id, 6, json.dumps(second).encode())
    write_row(database, game_id, 9, json.dumps(first).encode())
    report = verify(service, game_id)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad.version == 6


def test_a_forged_seed_fails_the_seed_check(service: Digsite, database: Database) -> None:
    game_id = finished_game(service, seed="the-real-seed")
    last = len(service.stored_records(game_id))

    def forge(state: dict[str, Any]) -> None:
        state["seed"] = "a-convenient-seed"

    edit_row(database, game_id, last, forge)
    report = verify(service, game_id)
    assert not check(report, "seed").ok and not check(report, "hash_chain").ok
    assert report.first_bad is not None and report.first_bad.version == last
    rehash_from(database, service, game_id, last)  # even with a consistent chain
    report = verify(service, game_id)
    assert check(report, "hash_chain").ok
    assert not check(report, "seed").ok and check(report, "seed").version == last
    assert report.first_bad is not None and report.first_bad.version == last


def test_a_row_that_no_longer_decodes_is_reported_not_raised(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    write_row(database, game_id, 7, b'{"timestamp": not json')
    report = verify(service, game_id)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad.version == 7
    assert "cannot be decoded" in report.first_bad.reason


def test_a_game_under_a_rules_version_never_released_is_named_and_not_replayed(
    service: Digsite, database: Database
) -> None:
    game_id = finished_game(service)
    edit_row(database, game_id, 1, lambda state: state.update(rules_version="ruins-9"))
    rehash_from(database, service, game_id, 1)
    report = verify(service, game_id)
    version_check = check(report, "rules_version")
    assert not version_check.ok and version_check.version == 1
    assert "'ruins-9'" in version_check.detail and "never released" in version_check.detail
    assert ruins.rules_version() in version_check.detail  # what this Digsite has
    assert check(report, "replay").detail.startswith("not checked")
    assert check(report, "hash_chain").ok


def test_a_move_under_another_version_than_its_game_is_named(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    move = first_play(service, game_id)
    edit_row(database, game_id, move, lambda state: state.update(rules_version="ruins-0"))
    rehash_from(database, service, game_id, move)
    report = verify(service, game_id)
    version_check = check(report, "rules_version")
    assert not version_check.ok and version_check.version == move
    assert "'ruins-0'" in version_check.detail and f"created under {ruins.rules_version()!r}" in version_check.detail


# -- the whole store --------------------------------------------------------------------------------------


def test_verify_all_reports_every_game_even_one_whose_created_record_was_deleted(
    service: Digsite, database: Database
) -> None:
    clean, edited, headless = finished_game(service, "a"), finished_game(service, "b"), finished_game(service, "c")
    edit_row(database, edited, first_play(service, edited), bump_rank)
    delete_row(database, headless, 1)
    assert list(service.game_ids()) == [clean, edited]  # the store's own listing no longer sees it
    assert list(stored_game_ids(service)) == [clean, edited, headless]
    seen: list[str] = []
    reports = {r.game: r for r in verify_all(service, progress=lambda r: seen.append(r.game))}
    assert seen == [clean, edited, headless]
    assert reports[clean].ok
    assert not reports[edited].ok and reports[edited].first_bad is not None
    assert reports[edited].first_bad.version == first_play(service, edited)
    assert not reports[headless].ok and reports[headless].first_bad is not None
    assert reports[headless].first_bad.version == 1
