"""What an attacker with write access to the database can and cannot hide, on both stores.

Every attack is made on the raw tables, as such an attacker would: snapshots edited, a finished game cut
short, a game deleted, record 1 rewritten with the chain recomputed after it, the ledger rewritten with its
chain recomputed. Each test says what ``verify`` catches without a checkpoint, and what only a signed
checkpoint issued before the attack catches (docs/audit.md, "What the audit proves").
"""

from __future__ import annotations

import hmac
import json
import logging
import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from eventsourcing.utils import get_topic

from domain import ruins
from domain.ruins.bots import RandomBot, Seen
from service.commands.application import Digsite, Viewer
from service.errors import Unauthorized
from service.integrity import checkpoint as checkpoints
from service.integrity.audit import verify, verify_store
from service.integrity.backfill import backfill
from service.integrity.ledger import GENESIS, Ledger, check_chain, entry_hash
from service.integrity.records import token_hash
from service.settings import Database, Settings
from service.store.aggregates import Game
from service.store.snapshots import SEAL_PREFIX, snapshot_key
from tests.service.integrity.test_audit import (
    check,
    delete_row,
    edit_row,
    finished_game,
    first_play,
    new_game,
    play,
    rehash_from,
)

# -- raw access, as an attacker with write access to the database has it ---------------------------------------


def _table(db: Database, name: str) -> str:
    if db.backend == "sqlite":
        return {"events": "stored_events", "snapshots": "stored_snapshots"}.get(name, f"digsite_{name}")
    return f'"{db.schema}".digsite_{name}'


def _key(db: Database, game_id: str) -> Any:
    return UUID(game_id).hex if db.backend == "sqlite" else UUID(game_id)


@contextmanager
def raw(db: Database) -> Iterator[Callable[..., list[Any]]]:
    """A connection of one's own to the store: ``sql(text, params)`` with ``?`` placeholders and ``{table}``
    names, committed at the end."""
    if db.backend == "sqlite":
        conn = sqlite3.connect(db.path)
        try:

            def run(text: str, params: tuple[Any, ...] = ()) -> list[Any]:
                return conn.execute(text.format_map(_Tables(db)), params).fetchall()

            yield run
            conn.commit()
        finally:
            conn.close()
        return
    import psycopg

    with psycopg.connect(db.psycopg_conninfo()) as pg:

        def run_pg(text: str, params: tuple[Any, ...] = ()) -> list[Any]:
            cursor = pg.execute(text.format_map(_Tables(db)).replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []

        yield run_pg


class _Tables(dict[str, str]):
    def __init__(self, db: Database) -> None:
        super().__init__()
        self.db = db

    def __missing__(self, name: str) -> str:
        return _table(self.db, name)


def delete_game(db: Database, game_id: str) -> None:
    with raw(db) as sql:
        sql("DELETE FROM {events} WHERE originator_id = ?", (_key(db, game_id),))


def cut_the_end(db: Database, service: Digsite, game_id: str) -> int:
    """Delete a finished game's winning move and seed reveal; returns the version it now ends at."""
    last = len(service.stored_records(game_id))
    delete_row(db, game_id, last)
    delete_row(db, game_id, last - 1)
    return last - 2


def ledger_rows(db: Database) -> list[dict[str, Any]]:
    columns = ("seq", "kind", "game_id", "version", "record_hash", "origin", "at", "prev_hash", "entry_hash")
    with raw(db) as sql:
        rows = sql(f"SELECT {', '.join(columns)} FROM {{ledger}} ORDER BY seq")
    return [dict(zip(columns, (str(v) if isinstance(v, UUID) else v for v in row), strict=True)) for row in rows]


def rewrite_ledger(db: Database, change: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
    """Change the ledger's rows, then renumber them and recompute the whole chain, as a forger who knows the
    scheme would: the stored chain holds again."""
    rows = change(ledger_rows(db))
    prev = GENESIS
    for seq, row in enumerate(rows, start=1):
        row["seq"], row["prev_hash"] = seq, prev
        row["entry_hash"] = prev = entry_hash(
            seq, row["kind"], row["game_id"], row["version"], row["record_hash"], row["origin"], row["at"], prev
        )
    with raw(db) as sql:
        sql("DELETE FROM {ledger}")
        for row in rows:
            sql(
                "INSERT INTO {ledger} (seq, kind, game_id, version, record_hash, origin, at, prev_hash, entry_hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                tuple(row.values()),
            )


def without_game(game_id: str) -> Callable[[list[dict[str, Any]]], list[dict[str, Any]]]:
    return lambda rows: [r for r in rows if r["game_id"] != game_id]


def snapshot_row(db: Database, game_id: str, version: int) -> bytes:
    with raw(db) as sql:
        rows = sql(
            "SELECT state FROM {snapshots} WHERE originator_id = ? AND originator_version = ?",
            (_key(db, game_id), version),
        )
    assert rows, f"no snapshot at version {version}"
    return bytes(rows[0][0])


def edit_snapshot(db: Database, game_id: str, version: int, edit: Callable[[dict[str, Any]], None]) -> None:
    """Edit a snapshot's JSON in place, keeping its seal line (the attacker cannot make a new one)."""
    seal_line, _, payload = snapshot_row(db, game_id, version).partition(b"\n")
    data = json.loads(payload)
    edit(data)
    state = seal_line + b"\n" + json.dumps(data, separators=(",", ":")).encode()
    with raw(db) as sql:
        sql(
            "UPDATE {snapshots} SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (state, _key(db, game_id), version),
        )


def swap_hands(snapshot: dict[str, Any]) -> None:
    hands = snapshot["state"]["state"]["_data_"]["hands"]
    hands[0], hands[1] = hands[1], hands[0]


def fresh(service: Digsite) -> Digsite:
    """Another process of the same deployment: same store and secret, nothing cached."""
    return Digsite(Settings(database=service.settings.database, secret_key=service.settings.secret_key))


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def audit(service: Digsite, checkpoint: checkpoints.Checkpoint | None = None) -> Any:
    return verify_store(service, checkpoint=checkpoint)


def report_of(store_audit: Any, game_id: str) -> Any:
    return next(r for r in store_audit.reports if r.game == game_id)


# -- the ledger is written with the records ----------------------------------------------------------------


def test_the_ledger_enters_each_game_at_its_creation_and_its_end(service: Digsite) -> None:
    done, in_play = finished_game(service, "a"), new_game(service, "b")
    play(service, in_play, moves=10)
    entries = Ledger(service).entries()
    records = service.stored_records(done)
    assert [(e.kind, e.game, e.version, e.record_hash, e.origin) for e in entries] == [
        ("created", done, 1, records[0]["hash"], "live"),
        ("finished", done, len(records), records[-1]["hash"], "live"),
        ("created", in_play, 1, service.stored_records(in_play)[0]["hash"], "live"),
    ]
    assert check_chain(entries).ok  # the PostgreSQL trigger and the Python hash agree
    store_audit = audit(service)
    assert store_audit.ok and store_audit.ledger.ok
    assert all(check(r, "ledger").ok for r in store_audit.reports)


def _last_move(service: Digsite, game_id: str) -> tuple[int, int, dict[str, Any]]:
    """Play a game up to the move that ends it; returns (version, seat, action) of that move, not played."""
    rng, bot = random.Random(3), RandomBot()
    while True:
        game = service.game(game_id)
        seat = game["to_act"][0]
        seen = service.game(game_id, Viewer(seat))
        legal = [ruins.action_from_dict(a) for a in seen["legal_actions"]]
        action = bot.choose(Seen.from_view(seen["view"]), legal, rng)
        state = service._current(UUID(game_id)).state
        if ruins.outcome(ruins.apply(state, action)) is not None:
            return seen["version"], seat, ruins.action_to_dict(action)
        service.submit(game_id, Viewer(seat), seen["version"], ruins.action_to_dict(action))


@contextmanager
def store_write_lock(db: Database) -> Iterator[None]:
    """Hold the store's write lock (another writer's transaction) so that appends queue up behind it."""
    if db.backend == "sqlite":
        conn = sqlite3.connect(db.path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()
        return
    import psycopg

    with psycopg.connect(db.psycopg_conninfo()) as pg:
        pg.execute(f'LOCK TABLE "{db.schema}".digsite_events IN EXCLUSIVE MODE')
        pg.execute(f'LOCK TABLE "{db.schema}".digsite_ledger IN SHARE ROW EXCLUSIVE MODE')
        yield
        pg.rollback()


def test_two_games_ending_at_once_take_turns_in_the_ledger(service: Digsite, database: Database) -> None:
    games = [new_game(service, "one"), new_game(service, "two")]
    last_moves = [_last_move(service, g) for g in games]
    players = [fresh(service) for _ in games]  # two processes, two connections
    results: list[Any] = []
    try:
        with store_write_lock(database):
            threads = [
                threading.Thread(target=lambda p=p, g=g, m=m: results.append(p.submit(g, Viewer(m[1]), m[0], m[2])))
                for p, g, m in zip(players, games, last_moves, strict=True)
            ]
            for thread in threads:
                thread.start()
            threading.Event().wait(0.5)  # both appends are now waiting for the lock
        for thread in threads:
            thread.join(timeout=30)
    finally:
        for p in players:
            p.close()
    assert [r["status"] for r in results] == ["over", "over"]
    entries = Ledger(service).entries()
    assert check_chain(entries).ok
    assert sorted(e.game for e in entries if e.kind == "finished") == sorted(games)
    assert audit(service).ok


# -- snapshots ------------------------------------------------------------------------------------------------


def test_a_snapshot_with_swapped_hands_is_named_and_never_served(
    service: Digsite, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = new_game(service)
    play(service, game_id, moves=60)  # a snapshot at version 50
    true_view = service.game(game_id, version=55)["view"]
    edit_snapshot(database, game_id, 50, swap_hands)

    report = verify(service, game_id)
    assert not report.ok and report.bad_snapshots == [50]
    snapshots = check(report, "snapshots")
    assert not snapshots.ok and "snapshot at version 50" in snapshots.detail and "state.hands" in snapshots.detail
    assert all(c.ok for c in report.checks if c.name != "snapshots")  # the records themselves are whole

    other = fresh(service)
    try:
        with caplog.at_level(logging.WARNING, logger="digsite.snapshots"):
            assert other.game(game_id, version=55)["view"] == true_view
            assert other.game(game_id)["view"] == service.game(game_id)["view"]
        assert "ignoring the snapshot" in caplog.text and "seal does not hold" in caplog.text
    finally:
        other.close()


def test_a_snapshot_with_a_forged_token_hash_is_named_and_the_forged_token_cannot_play(
    service: Digsite, database: Database
) -> None:
    players = [service.create_player(name) for name in ("Ana", "Beto", "Carla")]
    created = service.create_game("ruins", players, seed="tokens")
    game_id, real = created["id"], created["tokens"][0]["token"]
    play(service, game_id, moves=60)

    def forge(snapshot: dict[str, Any]) -> None:
        snapshot["state"]["token_hashes"][0] = token_hash("forged-token")

    edit_snapshot(database, game_id, 50, forge)
    report = verify(service, game_id)
    assert report.bad_snapshots == [50] and "token_hashes" in check(report, "snapshots").detail

    other = fresh(service)
    try:
        with pytest.raises(Unauthorized):
            other.seat_for_token(game_id, "forged-token")
        assert other.seat_for_token(game_id, real) == 0
    finally:
        other.close()


def test_a_snapshot_resealed_with_the_server_secret_is_served_but_verify_still_names_it(
    service: Digsite, database: Database
) -> None:
    """The limit: whoever holds the server secret can make the service serve a forged snapshot; the audit,
    which compares every snapshot with the records, still finds it."""
    game_id = new_game(service)
    play(service, game_id, moves=60)
    true_view = service.game(game_id, version=50)["view"]
    edit_snapshot(database, game_id, 50, swap_hands)

    _, _, payload = snapshot_row(database, game_id, 50).partition(b"\n")
    header = f"{game_id}\n50\n{get_topic(Game.Snapshot)}\n".encode()
    secret = snapshot_key(service.settings.server_secret())
    mac = hmac.new(secret, header + payload, "sha256").hexdigest().encode()
    with raw(database) as sql:
        sql(
            "UPDATE {snapshots} SET state = ? WHERE originator_id = ? AND originator_version = 50",
            (SEAL_PREFIX + mac + b"\n" + payload, _key(database, game_id)),
        )
    other = fresh(service)
    try:
        served = other.game(game_id, version=50)["view"]
        assert served != true_view  # the service trusted it
    finally:
        other.close()
    assert verify(service, game_id).bad_snapshots == [50]


def test_a_snapshot_whose_record_was_rewritten_is_not_used(
    service: Digsite, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = new_game(service)
    play(service, game_id, moves=60)

    def new_time(state: dict[str, Any]) -> None:
        state["at"] = "2000-01-01T00:00:00+00:00"

    edit_row(database, game_id, 50, new_time)
    rehash_from(database, service, game_id, 50)  # record 50 and every one after it rehashed
    other = fresh(service)
    try:
        with caplog.at_level(logging.WARNING, logger="digsite.snapshots"):
            assert other.game(game_id)["updated_at"] == service.stored_records(game_id)[-1]["body"]["at"]
            other.game(game_id, version=50)
        assert "not the one it was taken at" in caplog.text
    finally:
        other.close()
    assert verify(service, game_id).bad_snapshots == [50]  # its last_hash is no longer the records'


# -- cut short, deleted, rewritten ---------------------------------------------------------------------------


def test_a_finished_game_cut_short(service: Digsite, database: Database, key: Ed25519PrivateKey) -> None:
    game_id, other = finished_game(service, "a"), finished_game(service, "b")
    signed = checkpoints.issue(service, key)
    now_ends = cut_the_end(database, service, game_id)
    assert fresh(service).game(game_id)["status"] == "playing"  # back in play, its seed hidden again

    # Without a checkpoint: the ledger still holds the game's end.
    report = report_of(audit(service), game_id)
    ledger = check(report, "ledger")
    assert not ledger.ok and "the end of the game was removed" in ledger.detail and ledger.version == now_ends + 1
    assert all(c.ok for c in report.checks if c.name != "ledger")  # every other check passes

    # The attacker also removes the ledger entry of its end and recomputes the ledger's chain: ...
    rewrite_ledger(
        database, lambda rows: [r for r in rows if not (r["game_id"] == game_id and r["kind"] == "finished")]
    )
    assert audit(service).ok  # ... and without a checkpoint nothing shows

    # A checkpoint issued before the attack catches both.
    found = audit(service, signed)
    assert not found.ok and found.checkpoint is not None and not found.checkpoint.ok
    assert "not the one signed" in found.checkpoint.detail
    cut = report_of(found, game_id)
    assert not check(cut, "checkpoint").ok and "the end of the game was removed" in check(cut, "checkpoint").detail
    assert report_of(found, other).ok and report_of(found, other).coverage == "whole"


def test_a_deleted_game(service: Digsite, database: Database, key: Ed25519PrivateKey) -> None:
    game_id, kept = finished_game(service, "a"), finished_game(service, "b")
    signed = checkpoints.issue(service, key)
    delete_game(database, game_id)

    report = report_of(audit(service), game_id)  # without a checkpoint: the ledger names it
    assert not report.ok and not check(report, "records").ok and not check(report, "ledger").ok
    assert report.first_bad is not None and report.first_bad.version == 1

    rewrite_ledger(database, without_game(game_id))
    store_audit = audit(service)
    assert store_audit.ok and [r.game for r in store_audit.reports] == [kept]  # gone without a trace

    found = audit(service, signed)
    assert not found.ok
    gone = report_of(found, game_id)
    assert not gone.ok and "record 1 is missing" in check(gone, "checkpoint").detail


def test_record_1_rewritten_with_the_chain_recomputed(
    service: Digsite, database: Database, key: Ed25519PrivateKey
) -> None:
    game_id = finished_game(service)
    signed = checkpoints.issue(service, key)

    def forge_tokens(state: dict[str, Any]) -> None:
        state["token_hashes"] = [token_hash(f"forged-{i}") for i in range(len(state["token_hashes"]))]

    edit_row(database, game_id, 1, forge_tokens)
    rehash_from(database, service, game_id, 1)
    report = verify(service, game_id)
    assert check(report, "hash_chain").ok and check(report, "replay").ok  # the records alone hold...
    assert not check(report, "ledger").ok and check(report, "ledger").version == 1  # ...the ledger does not
    assert "record 1 was rewritten" in check(report, "ledger").detail

    records = service.stored_records(game_id)

    def follow(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for row in rows:
            if row["game_id"] == game_id:
                row["record_hash"] = records[row["version"] - 1]["hash"]
        return rows

    assert not check(report, "snapshots").ok  # the snapshots still hold the old record 1's token hashes...
    with raw(database) as sql:  # ...so the attacker deletes them (a cache: nothing misses them)
        sql("DELETE FROM {snapshots} WHERE originator_id = ?", (_key(database, game_id),))
    rewrite_ledger(database, follow)
    assert audit(service).ok  # the ledger rewritten to match: without a checkpoint nothing shows

    found = audit(service, signed)
    assert not found.ok and found.checkpoint is not None and not found.checkpoint.ok
    signed_check = check(report_of(found, game_id), "checkpoint")
    assert not signed_check.ok and signed_check.version == 1 and "record 1 was rewritten" in signed_check.detail


def test_record_1_of_a_game_in_play_rewritten_is_caught_by_the_ledger(service: Digsite, database: Database) -> None:
    game_id = new_game(service)
    play(service, game_id, moves=12)
    edit_row(database, game_id, 1, lambda s: s["token_hashes"].__setitem__(0, token_hash("forged")))
    rehash_from(database, service, game_id, 1)
    report = verify(service, game_id)
    assert [c.name for c in report.checks if not c.ok] == ["ledger"]
    assert report.first_bad is not None and report.first_bad.version == 1


def test_a_ledger_entry_rewritten_with_the_chain_recomputed(
    service: Digsite, database: Database, key: Ed25519PrivateKey
) -> None:
    game_id = finished_game(service)
    signed = checkpoints.issue(service, key)

    def earlier_end(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for row in rows:
            if row["kind"] == "finished":
                row["version"] -= 2
        return rows

    ledger_end = len(service.stored_records(game_id))
    rewrite_ledger(database, earlier_end)
    assert check_chain(Ledger(service).entries()).ok  # the stored chain holds again
    report = report_of(audit(service), game_id)  # without a checkpoint: the entry no longer fits the records
    ledger = check(report, "ledger")
    assert not ledger.ok and "its records were rewritten" in ledger.detail and ledger.version == ledger_end - 2

    found = audit(service, signed)
    assert found.checkpoint is not None and not found.checkpoint.ok
    assert "ledger entry 2 in the store is not the one signed" in found.checkpoint.detail
    assert check(report_of(found, game_id), "checkpoint").ok  # the game itself is as signed


def test_a_ledger_entry_edited_without_recomputing_the_chain(service: Digsite, database: Database) -> None:
    finished_game(service)
    with raw(database) as sql:
        sql("UPDATE {ledger} SET version = version - 2 WHERE kind = 'finished'")
    store_audit = audit(service)
    assert not store_audit.ledger.ok and "ledger entry 2 was changed" in store_audit.ledger.detail


# -- checkpoints ----------------------------------------------------------------------------------------------


def test_a_checkpoint_with_a_bad_signature_or_from_another_key_is_refused(
    service: Digsite, key: Ed25519PrivateKey
) -> None:
    finished_game(service)
    signed = checkpoints.issue(service, key)
    assert "the public key given" in checkpoints.check(signed, key.public_key())
    assert "only the key inside the checkpoint" in checkpoints.check(signed, None)

    with pytest.raises(checkpoints.CheckpointError, match="not by the public key given"):
        checkpoints.check(signed, Ed25519PrivateKey.generate().public_key())

    data = signed.to_dict()
    data["statement"]["ledger_size"] = 1  # claim less was signed
    with pytest.raises(checkpoints.CheckpointError, match="signature does not hold"):
        checkpoints.check(checkpoints.read(json.dumps(data)), key.public_key())

    data = signed.to_dict()
    data["signature"] = data["signature"][:-2] + ("00" if not data["signature"].endswith("00") else "01")
    with pytest.raises(checkpoints.CheckpointError, match="signature does not hold"):
        checkpoints.check(checkpoints.read(json.dumps(data)), None)

    forger = Ed25519PrivateKey.generate()  # a checkpoint re-signed with the forger's own key, key inside
    data = signed.to_dict()
    data["statement"]["public_key"] = checkpoints.raw_public(forger.public_key()).hex()
    data["statement"]["key_id"] = checkpoints.key_id(forger.public_key())
    from service.integrity.records import canonical

    data["signature"] = forger.sign(canonical(data["statement"])).hex()
    forged = checkpoints.read(json.dumps(data))
    assert "only the key inside" in checkpoints.check(forged, None)  # whole, but proves nothing of who signed
    with pytest.raises(checkpoints.CheckpointError, match="not by the public key given"):
        checkpoints.check(forged, key.public_key())

    data = signed.to_dict()
    data["entries"][0]["record_hash"] = "f" * 64  # entries that are not the signed ledger
    with pytest.raises(checkpoints.CheckpointError, match="entries"):
        checkpoints.check(checkpoints.read(json.dumps(data)), key.public_key())


def test_games_after_the_checkpoint_are_not_covered_not_errors(service: Digsite, key: Ed25519PrivateKey) -> None:
    done = finished_game(service, "a")
    in_play = new_game(service, "b")
    play(service, in_play, moves=6)
    signed = checkpoints.issue(service, key)
    play(service, in_play)  # it ends after the checkpoint
    later = finished_game(service, "c")  # created after it
    found = audit(service, signed)
    assert found.ok, [(r.game, [c for c in r.checks if not c.ok]) for r in found.reports]
    coverage = {r.game: r.coverage for r in found.reports}
    assert coverage == {done: "whole", in_play: "created", later: None}
    assert "not covered" in check(report_of(found, later), "checkpoint").detail
    assert "its end is not covered" in check(report_of(found, in_play), "checkpoint").detail


def test_checkpoint_coverage_for_the_dashboard(service: Digsite, key: Ed25519PrivateKey) -> None:
    done, in_play = finished_game(service, "a"), new_game(service, "b")
    assert checkpoints.checkpoint_coverage(service, done)["covered"] is None
    first = checkpoints.issue(service, key)
    coverage = checkpoints.checkpoint_coverage(service, done, key.public_key())
    assert coverage["covered"] == "whole" and coverage["ledger"] == {"created": 1, "finished": 2}
    assert coverage["checkpoint"]["ledger_size"] == first.ledger_size and coverage["checkpoint"]["ledger_agrees"]
    assert "the public key given" in coverage["checkpoint"]["signature_checked_with"]
    assert checkpoints.checkpoint_coverage(service, in_play)["covered"] == "created"
    play(service, in_play)
    assert checkpoints.checkpoint_coverage(service, in_play)["covered"] == "created"  # until the next checkpoint
    checkpoints.issue(service, key)
    assert checkpoints.checkpoint_coverage(service, in_play)["covered"] == "whole"
    # A copy signed by some other key is not counted when the organisers' key is given.
    assert checkpoints.checkpoint_coverage(service, done, Ed25519PrivateKey.generate().public_key()) == {
        **coverage,
        "covered": None,
        "checkpoint": None,
        "refused_copies": 2,
    }


def test_no_checkpoint_is_signed_over_a_ledger_that_does_not_hold(
    service: Digsite, database: Database, key: Ed25519PrivateKey
) -> None:
    game_id = finished_game(service)
    cut_the_end(database, service, game_id)
    with pytest.raises(checkpoints.CheckpointError, match="is missing"):
        checkpoints.issue(service, key)
    rewrite_ledger(database, without_game(game_id))
    finished_game(service, "b")
    with raw(database) as sql:
        sql("UPDATE {ledger} SET at = 'yesterday' WHERE seq = 1")
    with pytest.raises(checkpoints.CheckpointError, match="does not hold"):
        checkpoints.issue(service, key)
    assert Ledger(service).checkpoints() == []


# -- stores from before the ledger, and imports --------------------------------------------------------------


def test_backfill_enters_the_games_stored_before_the_ledger_once_they_verify(
    service: Digsite, database: Database
) -> None:
    done, in_play, tampered = finished_game(service, "a"), new_game(service, "b"), finished_game(service, "c")
    play(service, in_play, moves=6)
    rewrite_ledger(database, lambda rows: [])  # as a store upgraded from before the ledger
    edit_row(database, tampered, first_play(service, tampered), lambda s: s["action"].__setitem__("rank", 99))
    report = verify(service, done)
    assert not report.ok and "no entry for this game" in check(report, "ledger").detail

    play(service, in_play)  # ends after the upgrade: its end is entered live
    result = backfill(service)
    assert [g for g, _ in result.refused] == [tampered]
    assert {(e.game, e.kind) for e in result.entered} == {(done, "created"), (done, "finished"), (in_play, "created")}
    assert all(e.origin == "backfill" for e in result.entered)
    assert verify(service, done).ok and verify(service, in_play).ok
    assert not verify(service, tampered).ok
    again = backfill(service)
    assert again.entered == [] and again.already == 2 and [g for g, _ in again.refused] == [tampered]
    assert check_chain(Ledger(service).entries()).ok


def test_an_imported_game_enters_the_ledger_and_a_removed_one_cannot_come_back(
    service: Digsite, database: Database, request: pytest.FixtureRequest
) -> None:
    from service.integrity.transfer import import_lines
    from tests.service.conftest import another_store
    from tests.service.integrity.test_transfer import exported

    done, in_play = finished_game(service, "a"), new_game(service, "b")
    play(service, in_play, moves=8)
    lines = exported(service, done, in_play)
    with another_store(database, request) as other_db:
        other = Digsite(Settings(database=other_db))
        try:
            assert all(r.imported for r in import_lines(other, lines))
            kinds = [(e.game, e.kind) for e in Ledger(other).entries()]
            assert kinds == [(done, "created"), (done, "finished"), (in_play, "created")]
            assert verify_store(other).ok
            delete_game(other_db, done)
            (result,) = import_lines(other, exported(service, done))
            assert not result.imported and "the ledger of this store already names" in str(result.reason)
        finally:
            other.close()
