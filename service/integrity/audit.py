"""Recheck a stored game from its records alone: the structure, the hash chain, the seed, and the rules.

Anyone holding a game's records can redo every step the referee took: the records must run 1..n, each
hash must cover its record and the one before, the seed must match the commitment published when the
game was created, and the rules, started from that seed, must deal the same opening and decide exactly
the recorded events for every recorded action. ``verify`` never raises on corrupt data: a record that
cannot be read or does not hold is reported as the first bad record, with the reason.

On a store, two more checks follow the records' own (``STORE_CHECKS``): every stored **snapshot** must hold
the state the records give at its version (the service serves from snapshots), and the game must be where
the store's **ledger** (``service.integrity.ledger``) says it was at its creation and at its end. Given a signed
checkpoint of the ledger (``service.integrity.checkpoint``), a last check compares the game with what was signed.
``verify_store`` adds the ledger's own chain and, with a checkpoint, the store's ledger against it. What
each check can and cannot prove, and against whom, is in docs/audit.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic
from psycopg.sql import SQL, Identifier

from domain.games import GAMES
from domain.games import game as game_of
from service.commands.application import Digsite, record_of
from service.errors import NotFound
from service.integrity.chain import MOVES
from service.integrity.checkpoint import Checkpoint, compare_ledger
from service.integrity.ledger import GAME_KINDS, Entry, Ledger, check_chain
from service.integrity.records import GENESIS, canonical, record_hash, seed_commitment
from service.integrity.ruling_checks import check_rulings
from service.integrity.tournament_chain import TournamentReport, stored_tournament_ids, verify_tournament
from service.store import clocks
from service.store.aggregates import Game
from service.store.snapshots import SealingMapper, seal_holds

# The fields of each record's body, exactly (a body with other fields was not written by Digsite).
BODY_FIELDS: dict[str, frozenset[str]] = {
    "created": frozenset(
        {
            "kind",
            "players",
            "names",
            "options",
            "labels",
            "seed_commitment",
            "token_hashes",
            "rules_version",
            "opening",
            "at",
        }
    ),
    "move": frozenset({"seat", "action", "events", "at", "rules_version"}),
    "timeout": frozenset({"seat", "action", "events", "at", "rules_version", "deadline"}),
    "clock": frozenset({"change", "seat", "seconds", "reason", "at"}),
    "forfeit": frozenset({"seat", "deadline", "result", "at"}),
    "seed_revealed": frozenset({"seed", "at"}),
    "ruling": frozenset({"ruling", "reason", "details", "at"}),
}
OPTIONAL_FIELDS = {"created": frozenset({"clock"})}  # (a timed game's record 1 holds its time control)

CHECKS = ("records", "hash_chain", "seed", "rules_version", "replay", "game_over", "clock", "rulings")
STORE_CHECKS = ("snapshots", "ledger")  # after CHECKS, for a game read from a store; then "checkpoint" if given

GAME_TOPICS = [
    Game.Created,
    Game.MoveRecorded,
    Game.TimedOut,
    Game.ClockChanged,
    Game.SeedRevealed,
    Game.RulingRecorded,
]


@dataclass(frozen=True)
class Check:
    """One check: ``ok``, a sentence saying what was found, and the first record it found bad (if any)."""

    name: str
    ok: bool
    detail: str
    version: int | None = None


@dataclass(frozen=True)
class BadRecord:
    version: int
    reason: str


@dataclass
class Report:
    game: str
    ok: bool
    checks: list[Check]
    first_bad: BadRecord | None
    records: int = 0
    status: str = "unknown"  # "over" | "playing" | "unknown" (the replay did not get that far)
    seed_public: bool = False
    last_hash: str | None = None
    kind: str | None = None
    rules_version: str | None = None
    bad_snapshots: list[int] = field(default_factory=list)  # versions of the snapshots that disagree with the records
    coverage: str | None = None  # with a checkpoint: "whole" (its end is signed), "created" (its record 1 is), None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ok": self.ok,
            "kind": self.kind,
            "status": self.status,
            "records": self.records,
            "seed_public": self.seed_public,
            "last_hash": self.last_hash,
            "rules_version": self.rules_version,
            "checks": [asdict(c) for c in self.checks],
            "first_bad": asdict(self.first_bad) if self.first_bad else None,
            "bad_snapshots": self.bad_snapshots,
            "coverage": self.coverage,
        }


# -- reading --------------------------------------------------------------------------------------------------


def read_records(service: Digsite, game_id: str) -> tuple[list[dict[str, Any]], list[BadRecord]]:
    """The game's records, and the stored rows that could not even be decoded (by version).

    Raises NotFound when nothing at all is stored under ``game_id``."""
    try:
        records = service.stored_records(game_id)
    except NotFound:
        raise
    except Exception:  # some row does not decode: read them one by one to name it
        return _read_row_by_row(service, game_id)
    if not records:
        raise NotFound(f"no game with id {game_id}", "unknown_game")
    return records, []


def _read_row_by_row(service: Digsite, game_id: str) -> tuple[list[dict[str, Any]], list[BadRecord]]:
    records: list[dict[str, Any]] = []
    unreadable: list[BadRecord] = []
    for stored in service.app.recorder.select_events(UUID(game_id)):
        try:
            records.append(record_of(service.app.mapper.to_domain_event(stored)))
        except Exception as error:
            unreadable.append(BadRecord(stored.originator_version, f"cannot be decoded ({_what(error)})"))
    if not records and not unreadable:
        raise NotFound(f"no game with id {game_id}", "unknown_game")
    return records, unreadable


def _what(error: BaseException) -> str:
    text = str(error)
    if len(text) > 200:
        text = text[:200] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


# -- verifying ------------------------------------------------------------------------------------------------


def verify(
    service: Digsite,
    game_id: str,
    *,
    store_checks: bool = True,
    ledger_entries: list[Entry] | None = None,
    checkpoint_entries: list[Entry] | None = None,
) -> Report:
    """Recheck a stored game (see the module docstring): its records, then (``store_checks``) its snapshots
    and its ledger entries (``ledger_entries``, else read from the store), then, given the entries a checkpoint
    signed for it (``checkpoint_entries``, [] if none), the game against the checkpoint.

    Raises NotFound only if nothing at all is known of the game: a game the ledger or the checkpoint names
    whose records are gone is reported, failing."""
    try:
        records, unreadable = read_records(service, str(game_id))
    except NotFound:
        if not store_checks:
            raise
        try:
            game_id = str(UUID(str(game_id)))
        except ValueError:
            raise NotFound(f"no game with id {game_id!r}", "unknown_game") from None
        if ledger_entries is None:
            ledger_entries = Ledger(service).entries_of(game_id)
        if not ledger_entries and not checkpoint_entries:
            raise
        records, unreadable = [], []
    game_id = str(UUID(str(game_id)))
    report = verify_records(records, game_id=game_id, unreadable=unreadable)
    if not store_checks:
        return report
    if ledger_entries is None:
        ledger_entries = Ledger(service).entries_of(game_id)
    snapshot_check, report.bad_snapshots = check_snapshots(service, game_id, len(records) + len(unreadable))
    checks = [*report.checks, snapshot_check, check_ledger(records, ledger_entries)]
    if checkpoint_entries is not None:
        signed = check_ledger(records, checkpoint_entries, name="checkpoint")
        checks.append(signed)
        kinds = {e.kind for e in checkpoint_entries}
        report.coverage = ("whole" if "finished" in kinds else "created" if kinds else None) if signed.ok else None
    return _finish(report, checks)


def verify_records(
    records: list[dict[str, Any]], game_id: str | None = None, unreadable: Iterable[BadRecord] = ()
) -> Report:
    """Recheck a game given as its records (as ``stored_records`` returns them, or read from an export)."""
    unreadable = list(unreadable)
    if game_id is None:
        game_id = str(records[0].get("game")) if records and isinstance(records[0], dict) else "?"
    report = Report(game=game_id, ok=False, checks=[], first_bad=None, records=len(records) + len(unreadable))
    checks: list[Check] = []

    records_check, intact = _check_records(records, game_id, unreadable)
    checks.append(records_check)
    checks.append(_check_hash_chain(records))
    created = records[0] if records and records[0].get("type") == "created" and _body(records[0]) else None
    if records and isinstance(records[-1], dict):
        report.last_hash = records[-1].get("hash") if isinstance(records[-1].get("hash"), str) else None
    if created is None:
        reason = "there is no readable created record to start from"
        checks.extend(Check(name, False, f"not checked: {reason}") for name in CHECKS[2:])
        return _finish(report, checks)

    body = _body(created)
    report.kind = body.get("kind") if isinstance(body.get("kind"), str) else None
    reveals = [r for r in records if r.get("type") == "seed_revealed"]
    report.seed_public = bool(reveals)
    opening_seed, seed_check = _check_seed(created, reveals)
    checks.append(seed_check)

    rules, version_check = _check_rules_version(records, report)
    checks.append(version_check)
    if rules is None or not version_check.ok:
        reason = "the rules it was played under are not known" if rules is not None else version_check.detail
        checks.append(Check("replay", False, f"not checked: {reason}"))
        checks.append(Check("game_over", False, f"not checked: {reason}"))
        checks.append(Check("clock", False, f"not checked: {reason}"))
        checks.append(Check("rulings", False, f"not checked: {reason}"))
        return _finish(report, checks)

    replay_check, state, last_move = _check_replay(rules, created, opening_seed, intact, report.rules_version)
    if replay_check.ok and len(intact) < len(records):
        replay_check = Check(
            "replay", False, f"{replay_check.detail}, up to record {len(intact)}; the records after it are broken"
        )
        state = None
    checks.append(replay_check)
    if state is None:
        checks.append(Check("game_over", False, "not checked: the replay did not reach the end of the records"))
        checks.append(Check("clock", False, "not checked: the replay did not reach the end of the records"))
        checks.append(Check("rulings", False, "not checked: the replay did not reach the end of the records"))
        return _finish(report, checks)
    over = rules.result(state) is not None or any(r.get("type") == "forfeit" for r in intact)
    report.status = "over" if over else "playing"
    checks.append(_check_game_over(over, reveals, last_move))
    checks.append(check_clock(rules, intact))
    checks.append(Check("rulings", *check_rulings(intact, rules, state)))
    return _finish(report, checks)


def _finish(report: Report, checks: list[Check]) -> Report:
    report.checks = checks
    report.ok = all(c.ok for c in checks)
    bad = [(c.version, i, c) for i, c in enumerate(checks) if not c.ok and c.version is not None]
    if bad:
        version, _, check = min(bad, key=lambda b: (b[0], b[1]))
        assert version is not None
        report.first_bad = BadRecord(version, f"{check.name}: {check.detail}")
    return report


def _body(record: Any) -> dict[str, Any]:
    body = record.get("body") if isinstance(record, dict) else None
    return body if isinstance(body, dict) else {}


def _check_records(
    records: list[dict[str, Any]], game_id: str, unreadable: list[BadRecord]
) -> tuple[Check, list[dict[str, Any]]]:
    """Versions 1..n without a gap, created first, at most one seed_revealed and only last, bodies exactly
    as Digsite writes them. Returns the check and the leading run of records that is intact (the replay
    stops where the structure breaks)."""
    problems: list[tuple[int, str]] = [(u.version, f"record {u.version} {u.reason}") for u in unreadable]
    undecodable = {u.version for u in unreadable}
    intact: list[dict[str, Any]] = []
    broken = False
    for i, record in enumerate(records):
        expected = i + 1
        if not isinstance(record, dict):
            problems.append((expected, f"record {expected} is not an object"))
            break
        version = record.get("version")
        kind = record.get("type")
        if version != expected:
            if expected in undecodable:
                pass  # already named above
            elif isinstance(version, int) and not isinstance(version, bool) and version > expected:
                problems.append((expected, f"record {expected} is missing (the versions jump to {version})"))
            else:
                problems.append((expected, f"record {expected} has version {version!r}"))
            break
        problem = None
        if record.get("game") != game_id:
            problem = f"record {version} belongs to game {record.get('game')!r}, not {game_id}"
        elif version == 1 and kind != "created":
            problem = f"record 1 is {kind!r}, not 'created'"
        elif version > 1 and kind == "created":
            problem = f"record {version} is a second 'created' record"
        elif kind not in BODY_FIELDS:
            problem = f"record {version} has an unknown type {kind!r}"
        elif kind == "seed_revealed" and any(r.get("type") != "ruling" for r in records[expected:]):
            problem = f"record {version} reveals the seed but is followed by a record other than a ruling"
        elif kind == "forfeit" and not (
            expected < len(records)
            and isinstance(records[expected], dict)
            and records[expected].get("type") == "seed_revealed"
        ):
            problem = f"record {version} forfeits the game but the seed's reveal does not follow it, last"
        elif not isinstance(record.get("body"), dict) or not (
            BODY_FIELDS[kind] <= set(record["body"]) <= BODY_FIELDS[kind] | OPTIONAL_FIELDS.get(kind, frozenset())
        ):
            problem = f"record {version} ({kind}) does not hold exactly the fields of a {kind} record"
        elif kind == "created" and not _seats_agree(record["body"]):
            problem = "record 1 does not name one player, one name and one token hash per seat"
        if problem:
            problems.append((expected, problem))
            broken = True
        if not broken:
            intact.append(record)
    if not records and not unreadable:
        problems.append((1, "no records are stored for this game"))
    if problems:
        version, text = min(problems)
        more = f" ({len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        return Check("records", False, text + more, version), intact
    reveal = "; the last move's end reveals the seed" if any(r.get("type") == "seed_revealed" for r in records) else ""
    return Check("records", True, f"versions 1 to {len(records)} without a gap, 'created' first{reveal}"), intact


def _seats_agree(body: dict[str, Any]) -> bool:
    seats = [body.get("players"), body.get("names"), body.get("token_hashes")]
    return (
        all(isinstance(s, list) and all(isinstance(x, str) for x in s) for s in seats)
        and len({len(s) for s in seats}) == 1  # type: ignore[arg-type]
        and isinstance(body.get("labels"), dict)
        and isinstance(body.get("options"), dict)
    )


def _check_hash_chain(records: list[dict[str, Any]]) -> Check:
    prev = GENESIS
    count = 0
    for record in records:
        if not isinstance(record, dict):
            return Check("hash_chain", False, "a record is not an object", None)
        version = record.get("version")
        where = version if isinstance(version, int) and not isinstance(version, bool) else None
        try:
            if record.get("prev_hash") != prev:
                return Check(
                    "hash_chain",
                    False,
                    f"record {version} names {str(record.get('prev_hash'))[:12]}... as the previous hash, "
                    f"but the record before it hashes to {prev[:12]}...",
                    where,
                )
            expected = record_hash(str(record.get("game")), record["version"], prev, record["body"])
        except Exception as error:
            return Check("hash_chain", False, f"record {version} cannot be hashed ({_what(error)})", where)
        if record.get("hash") != expected:
            return Check(
                "hash_chain",
                False,
                f"record {version} was changed after it was written: its content hashes to {expected[:12]}..., "
                f"not the stored {str(record.get('hash'))[:12]}...",
                where,
            )
        prev = expected
        count += 1
    if not count:
        return Check("hash_chain", False, "no records to check", None)
    return Check("hash_chain", True, f"{count} record hash(es) recomputed and chained; the last is {prev}")


def _opening_seed(created: dict[str, Any]) -> str | None:
    """The seed the game's opening events were dealt from, where its game keeps it (``GameRules.seed_of``)."""
    body = _body(created)
    opening, kind = body.get("opening"), body.get("kind")
    if not isinstance(opening, list) or not isinstance(kind, str) or kind not in GAMES:
        return None
    try:
        return game_of(kind).rules.seed_of(opening)
    except Exception:  # a damaged opening: no seed to be found in it
        return None


def _check_seed(created: dict[str, Any], reveals: list[dict[str, Any]]) -> tuple[str | None, Check]:
    """The seed the referee used (in the opening events) matches the commitment published at creation; once the
    game is over, the revealed seed is that same seed."""
    commitment = _body(created).get("seed_commitment")
    opening_seed = _opening_seed(created)
    if opening_seed is None:
        return None, Check("seed", False, "the opening events hold no seed", 1)
    if seed_commitment(opening_seed) != commitment:
        return opening_seed, Check(
            "seed", False, "the seed in the opening events does not match the commitment published at creation", 1
        )
    if not reveals:
        return opening_seed, Check(
            "seed",
            True,
            "the seed is not yet public (the game is not over); the referee's seed in the opening events matches "
            f"the commitment {commitment}",
        )
    reveal = reveals[-1]
    revealed = _body(reveal).get("seed")
    version = reveal.get("version") if isinstance(reveal.get("version"), int) else None
    if not isinstance(revealed, str) or seed_commitment(revealed) != commitment:
        return opening_seed, Check(
            "seed", False, f"the seed revealed in record {version} does not match the commitment {commitment}", version
        )
    if revealed != opening_seed:
        return opening_seed, Check(
            "seed", False, f"the seed revealed in record {version} is not the seed the game was dealt from", version
        )
    return opening_seed, Check(
        "seed", True, f"the revealed seed {revealed!r} matches the commitment {commitment} published at creation"
    )


def _check_rules_version(records: list[dict[str, Any]], report: Report) -> tuple[Any, Check]:
    """The game's rules version (its ``created`` record's) is one this Digsite released for its kind, and every
    move names that same version: a game is played under one version from its creation to its end, whatever
    version is current meanwhile. Sets ``report.rules_version`` to the game's version once it is known."""
    kind = report.kind
    try:
        rules = game_of(str(kind)).rules
        released = rules.VERSIONS
    except Exception as error:
        return None, Check("rules_version", False, f"cannot load the rules of game kind {kind!r} ({error})", 1)
    played = _body(records[0]).get("rules_version")
    if played not in released:
        return rules, Check(
            "rules_version",
            False,
            f"record 1 names rules version {played!r}, which this Digsite never released for {kind} (it has "
            f"{', '.join(released.names)}): verify it with a Digsite release that has the rules it was played under",
            1,
        )
    report.rules_version = played
    for record in records[1:]:
        if not isinstance(record, dict) or record.get("type") not in MOVES:
            continue
        named = _body(record).get("rules_version")
        if named != played:
            version = record.get("version")
            return rules, Check(
                "rules_version",
                False,
                f"record {version} names rules version {named!r}, but the game was created under {played!r} and "
                "a game is played under one version to its end",
                version if isinstance(version, int) and not isinstance(version, bool) else None,
            )
    current = "the current one" if played == released.current else f"the current one is {released.current}"
    return rules, Check("rules_version", True, f"every record was played under rules version {played} ({current})")


def _same(a: Any, b: Any) -> bool:
    """Equal as stored JSON (tuples and lists alike, key order ignored)."""
    return canonical(a) == canonical(b)


def _first_difference(recorded: list[Any], decided: list[Any]) -> str:
    for i, (r, d) in enumerate(zip(recorded, decided, strict=False)):
        if not _same(r, d):
            rt = r.get("type") if isinstance(r, dict) else type(r).__name__
            dt = d.get("type") if isinstance(d, dict) else type(d).__name__
            return f"event {i + 1}: recorded {rt}, the rules give {dt} with other values"
    return f"{len(recorded)} event(s) recorded, the rules give {len(decided)}"


def _check_replay(
    rules: Any, created: dict[str, Any], seed: str | None, records: list[dict[str, Any]], rules_version: str | None
) -> tuple[Check, Any, int]:
    """Deal the opening from the seed under the game's rules version, then re-decide every recorded action.
    Returns the check, the state after the last move (None if the replay stopped early) and the version of
    the last move."""
    body = _body(created)
    if seed is None:
        return Check("replay", False, "not checked: there is no seed to deal from"), None, 1
    try:
        options = body.get("options") or None
        dealt = rules.start(body.get("names"), options, seed, rules_version=rules_version)
        opening = [rules.event_to_dict(e) for e in dealt]
    except Exception as error:
        return Check("replay", False, f"the rules cannot start this game ({_what(error)})", 1), None, 1
    if not _same(body.get("opening"), opening):
        detail = _first_difference(list(body.get("opening") or []), opening)
        return Check("replay", False, f"the opening differs from the deal for this seed ({detail})", 1), None, 1
    state = rules.replay(dealt)
    moves, last_move = 0, 1
    for record in records[1:]:
        if record.get("type") == "ruling":
            continue  # (a ruling changes no rules state: ``check_rulings`` checks what it says)
        if record.get("type") == "clock":
            continue  # (the organiser's change of the clock: no move; the clock check rechecks it)
        if record.get("type") not in MOVES:
            break
        version, move = record["version"], record["body"]
        try:
            action = rules.action_from_dict(move["action"])
            if action.seat != move["seat"]:
                raise ValueError(f"the action is for seat {action.seat} but the record says seat {move['seat']}")
            if not _same(rules.action_to_dict(action), move["action"]):
                raise ValueError("the recorded action is not in the rules' own form")
            events = rules.decide(state, action)
        except Exception as error:
            return Check("replay", False, f"record {version}: the rules reject it ({_what(error)})", version), None, 0
        decided = [rules.event_to_dict(e) for e in events]
        if not _same(move["events"], decided):
            detail = _first_difference(list(move["events"]) if isinstance(move["events"], list) else [], decided)
            return (
                Check(
                    "replay", False, f"record {version}: the recorded events differ from the rules' ({detail})", version
                ),
                None,
                0,
            )
        for event in events:
            state = rules.evolve(state, event)
        moves += 1
        last_move = version
    return (
        Check(
            "replay", True, f"the opening and {moves} move(s) re-decided: the rules give exactly the recorded events"
        ),
        state,
        last_move,
    )


def check_clock(rules: Any, records: list[dict[str, Any]]) -> Check:
    """A timed game's clock folded again from its records' times (``service.store.clocks``, as the service folds
    it): every timeout names the deadline the records before it give its seat, was recorded no earlier, and plays
    the game's own default action for that seat (``timeout_action``); every move was recorded while no seat's time
    had run out and the table was not paused; a pause, resume and extra time each make sense where they stand.
    Run after the replay, which has checked every move's events: the states here are folded from them."""
    created = _body(records[0])
    control = created.get("clock")
    kinds = [r.get("type") for r in records[1:]]
    if control is None:
        timing = [k for k in kinds if k in ("timeout", "forfeit", "clock")]
        if timing:
            version = records[kinds.index(timing[0]) + 1].get("version")
            return Check("clock", False, f"record {version} times the game, which has no clock", version)
        return Check("clock", True, "the game is played without a clock")
    try:
        if clocks.check_control(control) != control:
            raise ValueError("not in its stored form")
        state = rules.replay([rules.event_from_dict(e) for e in created["opening"]])
        clock = clocks.started(control, len(created["players"]), rules.to_act(state), created["at"])
    except Exception as error:
        return Check("clock", False, f"record 1 holds a clock that cannot be read ({_what(error)})", 1)
    counts = {"move": 0, "timeout": 0, "clock": 0, "forfeit": 0}
    for record in records[1:]:
        kind, body, version = record["type"], record["body"], record["version"]
        if kind in ("seed_revealed", "ruling"):
            continue  # (a ruling stops no clock but by stopping the game: the rulings check sees no record follow)
        try:
            at = body["at"]
            now = clocks.micros(at)
            ends = clocks.deadlines(clock)
            problem = None
            if kind in MOVES and clock["paused"]:
                problem = f"seat {body['seat']} moved at {at}, while the table was paused"
            elif kind == "move" and any(when <= now for when in ends.values()):
                seat, when = min(((s, w) for s, w in ends.items() if w <= now), key=lambda sw: sw[1])
                problem = f"seat {body['seat']} moved at {at}, after seat {seat}'s time ran out at {clocks.iso(when)}"
            elif kind in ("timeout", "forfeit") and clocks.forfeits(control) != (kind == "forfeit"):
                rule = "forfeits the game" if clocks.forfeits(control) else "plays the game's default move"
                problem = f"a seat out of time {rule} under this clock, not a {kind} record"
            elif kind == "forfeit":
                seat = body["seat"]
                due = clocks.forfeit_result(rules.progress(state).scores, seat)
                if seat not in ends:
                    problem = f"seat {seat} forfeits, but its time was not running"
                elif body["deadline"] != clocks.iso(ends[seat]) or now < ends[seat]:
                    problem = (
                        f"the forfeit names the deadline {body['deadline']} and is recorded at {at}, but the times "
                        f"recorded before it give seat {seat} until {clocks.iso(ends[seat])}"
                    )
                elif not _same(body["result"], due):
                    problem = f"the forfeit's result is not the one the points give ({due})"
            elif kind == "timeout":
                seat = body["seat"]
                expected = rules.timeout_action(state, seat)
                if seat not in ends:
                    problem = f"seat {seat} is timed out, but its time was not running"
                elif body["deadline"] != clocks.iso(ends[seat]):
                    problem = (
                        f"the timeout names the deadline {body['deadline']}, but the times recorded before it give "
                        f"seat {seat} until {clocks.iso(ends[seat])}"
                    )
                elif now < ends[seat]:
                    problem = f"the timeout is recorded at {at}, before seat {seat}'s deadline {body['deadline']}"
                elif expected is None or not _same(rules.action_to_dict(expected), body["action"]):
                    problem = f"the timeout plays {body['action']}, not the game's default for seat {seat}"
            elif kind == "clock":
                change = body["change"]
                if (change == "pause" and clock["paused"]) or (change == "resume" and not clock["paused"]):
                    problem = f"the table is {'paused' if clock['paused'] else 'not paused'} already at this {change}"
                elif change == "add" and not (isinstance(body["seconds"], (int, float)) and body["seconds"] > 0):
                    problem = f"time added must be a number of seconds above 0, not {body['seconds']!r}"
                elif change not in ("pause", "resume", "add"):
                    problem = f"a change of the clock is pause, resume or add, not {change!r}"
            if problem:
                return Check("clock", False, f"record {version}: {problem}", version)
            counts[kind] += 1
            if kind in MOVES:
                for data in body["events"]:
                    state = rules.evolve(state, rules.event_from_dict(data))
                out = body["seat"] if kind == "timeout" else None
                clock = clocks.advanced(control, clock, at, rules.to_act(state), out)
            elif kind == "forfeit":
                clock = clocks.advanced(control, clock, at, [], body["seat"])
            elif body["change"] == "pause":
                clock = clocks.paused(clock, at)
            elif body["change"] == "resume":
                clock = clocks.resumed(clock, at, rules.to_act(state))
            else:
                clock = clocks.added(clock, body["seat"], body["seconds"])
        except Exception as error:
            return Check("clock", False, f"record {version}: its times cannot be folded ({_what(error)})", version)
    return Check(
        "clock",
        True,
        f"{counts['move']} move(s) made in time, {counts['timeout']} timeout(s) recorded at or after the deadline "
        f"the records give, each playing the game's default; {counts['clock']} change(s) of the clock"
        + (", and the forfeit of the seat out of time" if counts["forfeit"] else ""),
    )


def _check_game_over(over: bool, reveals: list[dict[str, Any]], last_move: int) -> Check:
    if over and not reveals:
        return Check(
            "game_over",
            False,
            f"the game ended with record {last_move} but no seed_revealed record follows it",
            last_move + 1,
        )
    if not over and reveals:
        version = reveals[-1].get("version")
        return Check(
            "game_over",
            False,
            f"record {version} reveals the seed but the game is not over after record {last_move}",
            version if isinstance(version, int) else None,
        )
    if over:
        return Check("game_over", True, f"the game ended with record {last_move} and the seed was revealed then")
    return Check("game_over", True, f"the game is still in play after record {last_move}, and no seed was revealed")


# -- what the store holds beside the records: snapshots and the ledger --------------------------------------

GAME_TOPIC = get_topic(Game)


def check_snapshots(service: Digsite, game_id: str, records: int) -> tuple[Check, list[int]]:
    """Every stored snapshot of the game against the state its records give at the snapshot's version (folded
    from record 1, as the service would without snapshots). The seal is not what is checked (an auditor need
    not hold the server secret); a snapshot not sealed with this server's secret is only noted, since the
    service ignores it. Returns the check and the versions of the bad snapshots."""
    snapshots = service.app.snapshots
    if snapshots is None:
        return Check("snapshots", True, "this service keeps no snapshots"), []
    uid = UUID(game_id)
    stored = list(snapshots.recorder.select_events(uid))
    if not stored:
        return Check("snapshots", True, "no snapshot is stored for this game"), []
    mapper = snapshots.mapper
    assert isinstance(mapper, SealingMapper)
    bad: dict[int, str] = {}
    found: dict[int, Any] = {}
    unsealed: list[int] = []
    for snapshot in stored:
        version = snapshot.originator_version
        try:
            decoded = mapper.open_unchecked(snapshot)
            if decoded.topic != GAME_TOPIC or not isinstance(decoded.state, dict):
                raise ValueError("it is not a snapshot of a game")
            found[version] = _normal(mapper, decoded.state)
        except Exception as error:
            bad[version] = f"cannot be read ({_what(error)})"
            continue
        if not seal_holds(mapper.key, snapshot):
            unsealed.append(version)
    expected: dict[int, Any] = {}
    try:
        game: Any = None
        event: Any
        for event in service.app.events.get(uid):
            game = event.mutate(game)
            if game.version in found:
                expected[game.version] = _normal(mapper, Game.Snapshot.take(game).state)
    except Exception as error:
        if found:
            reason = f"the records cannot be folded ({_what(error)})"
            return Check("snapshots", False, f"not checked: {reason}"), sorted(bad)
    for version, state in found.items():
        if version not in expected:
            bad[version] = f"is taken at version {version}, but the records end at version {records}"
        elif state != expected[version]:
            differ = ", ".join(_differences(state, expected[version])) or "the state"
            bad[version] = f"does not hold the state the records give at that version ({differ} differ)"
    if bad:
        named = "; ".join(f"the snapshot at version {v} {bad[v]}" for v in sorted(bad))
        return Check("snapshots", False, f"{named} (the service does not use it)"), sorted(bad)
    note = f"; {len(unsealed)} not sealed with this server's secret (the service ignores those)" if unsealed else ""
    versions = ", ".join(str(v) for v in sorted(found))
    return Check(
        "snapshots", True, f"{len(found)} snapshot(s) (version {versions}) hold the state the records give{note}"
    ), []


def _normal(mapper: SealingMapper, state: dict[str, Any]) -> Any:
    """A snapshot's state as plain JSON values (through the store's own transcoder), to compare."""
    return json.loads(mapper.transcoder.encode(state))


def _differences(a: Any, b: Any, path: str = "", depth: int = 0) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict) and depth < 4:
        found: list[str] = []
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                where = path if key == "_data_" else f"{path}.{key}" if path else str(key)
                found.extend(_differences(a.get(key), b.get(key), where, depth + 1))
        return found
    return [path or "the state"]


def _type_of(records: list[dict[str, Any]], version: int) -> Any:
    record = records[version - 1] if 0 < version <= len(records) else None
    return record.get("type") if isinstance(record, dict) else None


def _ruling_problems(
    records: list[dict[str, Any]], hashes: dict[int, Any], entries: list[Entry], name: str, source: str
) -> list[tuple[int, str]]:
    """Each ruling the ledger (or checkpoint) entered is there, as entered; each ruling record of the store was
    entered (a checkpoint may predate it): a ruling cannot be removed, rewritten or slipped in unseen."""
    problems = []
    entered = {e.version: e for e in entries if e.kind == "ruling"}
    for version, entry in sorted(entered.items()):
        if _type_of(records, version) != "ruling":
            problems.append(
                (
                    version,
                    f"{source} entered a ruling as record {version} (entry {entry.seq}), which "
                    "is missing or no longer a ruling",
                )
            )
        elif hashes.get(version) != entry.record_hash:
            problems.append(
                (
                    version,
                    f"record {version}, a ruling, hashes otherwise than {source} entered it "
                    f"(entry {entry.seq}): it was rewritten",
                )
            )
    if name == "ledger":
        for record in records:
            at = record.get("version") if isinstance(record, dict) else None
            if isinstance(record, dict) and record.get("type") == "ruling" and at not in entered:
                problems.append(
                    (
                        at if isinstance(at, int) else 0,
                        f"record {at} is a ruling the ledger never entered",
                    )
                )
    return problems


def check_ledger(records: list[dict[str, Any]], entries: list[Entry], name: str = "ledger") -> Check:
    """The game against what the ledger entered (``name="ledger"``: the store's entries of this game) or what a
    checkpoint signed (``name="checkpoint"``: the checkpoint's entries of this game): record 1 has the hash entered
    at its creation, and a game entered as finished has its records end exactly at the record entered then."""
    source = "the ledger" if name == "ledger" else "the checkpoint"
    hashes = {
        r["version"]: r.get("hash")
        for r in records
        if isinstance(r, dict) and isinstance(r.get("version"), int) and not isinstance(r.get("version"), bool)
    }
    last = max(hashes, default=0)
    over = any(isinstance(r, dict) and r.get("type") == "seed_revealed" for r in records)
    created = [e for e in entries if e.kind == "created"]
    finished = [e for e in entries if e.kind == "finished"]
    if not entries:
        if name == "checkpoint":
            return Check(
                name, True, "not covered: the checkpoint has no entry for this game (it entered the ledger after)"
            )
        return Check(
            name,
            False,
            "the ledger has no entry for this game: it was stored before the ledger existed (`digsite ledger backfill` "
            "enters it once it verifies), or its entries were removed",
        )
    problems: list[tuple[int, str]] = []
    later = 1 << 62  # problems of the ledger itself, not of a record: sorted after any record
    for entry in entries:
        if name == "ledger" and entry.computed_hash() != entry.entry_hash:
            problems.append((later, f"ledger entry {entry.seq} was changed after it was written"))
    if len(created) > 1 or len(finished) > 1:
        problems.append(
            (later, f"{source} enters this game {len(created)} time(s) as created and {len(finished)} as finished")
        )
    for entry in created[:1]:
        if entry.version != 1 or 1 not in hashes:
            problems.append((1, f"record 1 is missing, but {source} entered the game's creation (entry {entry.seq})"))
        elif hashes[1] != entry.record_hash:
            problems.append(
                (
                    1,
                    f"record 1 hashes to {str(hashes[1])[:12]}..., but {source} entered {entry.record_hash[:12]}... at "
                    f"the game's creation (entry {entry.seq}): record 1 was rewritten after the game was created",
                )
            )
    for entry in finished[:1]:
        if entry.version not in hashes:
            problems.append(
                (
                    min(last + 1, entry.version),
                    f"{source} says the game ended with record {entry.version} (entry {entry.seq}), but the records "
                    f"stop at {last}: the end of the game was removed"
                    if last < entry.version
                    else f"record {entry.version}, the game's end in {source} (entry {entry.seq}), is missing",
                )
            )
        elif hashes[entry.version] != entry.record_hash:
            problems.append(
                (
                    entry.version,
                    f"record {entry.version} hashes to {str(hashes[entry.version])[:12]}..., but the game ended with "
                    f"{entry.record_hash[:12]}... ({source}, entry {entry.seq}): its records were rewritten",
                )
            )
        elif any(_type_of(records, v) != "ruling" for v in range(entry.version + 1, last + 1)):
            problems.append(
                (
                    entry.version + 1,
                    f"records other than rulings follow the game's end (record {entry.version}, {source} entry "
                    f"{entry.seq})",
                )
            )
    problems.extend(_ruling_problems(records, hashes, entries, name, source))
    if over and not finished and name == "ledger":
        problems.append((last, f"the game is over (record {last}) but the ledger has no entry for its end"))
    if problems:
        version, text = min(problems)
        more = f" ({len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        return Check(name, False, text + more, None if version == later else version)
    parts = []
    verb = "entered" if name == "ledger" else "signed"
    if created:
        parts.append(f"record 1 is the one {verb} at the game's creation (ledger entry {created[0].seq})")
    if finished:
        end = finished[0]
        parts.append(f"the records end with record {end.version}, {verb} at the game's end (ledger entry {end.seq})")
    elif name == "checkpoint":
        parts.append("its end is not covered (it ended after the checkpoint, or is in play)")
    else:
        parts.append("the game is in play: its end is not entered yet")
    prefix = "covered by the checkpoint: " if name == "checkpoint" else ""
    return Check(name, True, prefix + "; ".join(parts))


# -- the whole store ------------------------------------------------------------------------------------------


def stored_game_ids(service: Digsite) -> Iterator[str]:
    """Every game id that has any record in the store (even a game whose created record was deleted),
    in order of first appearance in the log.

    One grouped query over the records' ids and topics: no record's body is read or decoded (reading every
    record to learn the ids took 269 s of a 30,000-game store's ``verify --all``, and grew faster than the
    store: docs/performance.md, growth)."""
    recorder: Any = service.app.recorder
    topics = [get_topic(t) for t in GAME_TOPICS]
    if service.settings.database.backend == "postgresql":
        query = SQL(
            "SELECT originator_id FROM {schema}.{table} WHERE topic = ANY(%s) "
            "GROUP BY originator_id ORDER BY MIN(notification_id)"
        ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn:
            rows = conn.execute(query, (topics,)).fetchall()
        ids = [str(UUID(str(row["originator_id"]))) for row in rows]
    else:  # (SQLite numbers the log by rowid)
        marks = ", ".join("?" * len(topics))
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT originator_id FROM {recorder.events_table_name} WHERE topic IN ({marks}) "
                "GROUP BY originator_id ORDER BY MIN(rowid)",
                topics,
            )
            ids = [str(UUID(row[0])) for row in cursor.fetchall()]  # (stored as hex without dashes)
    yield from ids


def games_to_verify(
    service: Digsite, entries: Iterable[Entry] | None = None, checkpoint: Checkpoint | None = None
) -> list[str]:
    """Every game with a record in the store, then every game only the ledger (``entries``, else the store's)
    or the checkpoint names: a game whose records are all gone is still verified, and fails."""
    ids = list(stored_game_ids(service))
    seen = set(ids)
    named = [e.game for e in (Ledger(service).entries() if entries is None else entries) if e.kind in GAME_KINDS]
    named += [e.game for e in checkpoint.entries if e.kind in GAME_KINDS] if checkpoint is not None else []
    for game_id in named:
        if game_id not in seen:
            seen.add(game_id)
            ids.append(game_id)
    return ids


def verify_all(
    service: Digsite, progress: Callable[[Report], None] | None = None, game_ids: Iterable[str] | None = None
) -> list[Report]:
    """Verify every game in the store and every game its ledger names (or the ids given); ``progress`` is
    called after each game."""
    return verify_store(service, progress, game_ids).reports


# What verifies the games of a store audit: (service, ids, ledger entries by game, signed entries by game or
# None, progress) -> one report per id, in the order of ids (``verify_each``, or a distributed one).
GamesVerifier = Callable[
    [Digsite, list[str], dict[str, list[Entry]], dict[str, list[Entry]] | None, Callable[[Report], None] | None],
    list[Report],
]


@dataclass
class StoreAudit:
    """Every game's report, every tournament's (its own records: ``service.integrity.tournament_chain``), the
    ledger's own chain, and (given a checkpoint) the store's ledger against it."""

    reports: list[Report]
    ledger: Check
    checkpoint: Check | None = None
    tournaments: list[TournamentReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            all(r.ok for r in self.reports)
            and all(t.ok for t in self.tournaments)
            and self.ledger.ok
            and (self.checkpoint is None or self.checkpoint.ok)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ledger": asdict(self.ledger),
            "checkpoint": asdict(self.checkpoint) if self.checkpoint else None,
            "tournaments": [t.to_dict() for t in self.tournaments],
        }


def verify_store(
    service: Digsite,
    progress: Callable[[Report], None] | None = None,
    game_ids: Iterable[str] | None = None,
    checkpoint: Checkpoint | None = None,
    verify_games: GamesVerifier | None = None,
    tournament_ids: Iterable[str] | None = None,
) -> StoreAudit:
    """Verify the games (every stored game, then every game only the ledger or the checkpoint names; or the
    ids given), the ledger's chain and, given a checkpoint whose signature was checked, the store's ledger up
    to it and every game it covers. ``verify_games`` verifies the games (default ``verify_each``, here, in
    order); the ledger's and the checkpoint's whole-store checks stay with the caller either way. The tournaments'
    own records are rechecked too (``tournament_ids``; by default every tournament of the store and every one only
    the ledger names, unless ``game_ids`` picks games: then none)."""
    entries = Ledger(service).entries()
    chain = check_chain(entries)
    ledger_check = Check("ledger", chain.ok, chain.detail, None)
    by_game: dict[str, list[Entry]] = {}
    for entry in entries:
        by_game.setdefault(entry.game, []).append(entry)
    signed: dict[str, list[Entry]] = {}
    checkpoint_check = None
    if checkpoint is not None:
        for entry in checkpoint.entries:
            signed.setdefault(entry.game, []).append(entry)
        ok, detail, _ = compare_ledger(checkpoint, entries)
        checkpoint_check = Check("checkpoint", ok, detail, None)
    ids = games_to_verify(service, entries, checkpoint) if game_ids is None else [str(UUID(str(g))) for g in game_ids]
    run = verify_games or verify_each
    reports = run(service, ids, by_game, signed if checkpoint is not None else None, progress)
    if tournament_ids is None:
        tournament_ids = stored_tournament_ids(service, entries) if game_ids is None else []
    tournaments = [verify_tournament(service, t, by_game.get(str(UUID(str(t))), [])) for t in tournament_ids]
    return StoreAudit(reports, ledger_check, checkpoint_check, tournaments)


def verify_each(
    service: Digsite,
    ids: list[str],
    by_game: dict[str, list[Entry]],
    signed: dict[str, list[Entry]] | None,
    progress: Callable[[Report], None] | None = None,
) -> list[Report]:
    """Verify the games ``ids`` in order, each against its ledger entries (``by_game``) and, given a checkpoint,
    the entries it signed for the game (``signed``; None without a checkpoint): the games' part of
    ``verify_store``, which a distributed verify (``service.cluster.dask_jobs``) runs on each worker's share."""
    reports = []
    for game_id in ids:
        try:
            report = verify(
                service,
                game_id,
                ledger_entries=by_game.get(game_id, []),
                checkpoint_entries=signed.get(game_id, []) if signed is not None else None,
            )
        except NotFound as error:  # deleted between listing and reading
            report = Report(game=game_id, ok=False, checks=[Check("records", False, error.message)], first_bad=None)
        reports.append(report)
        if progress is not None:
            progress(report)
    return reports
