"""A tournament's own records (its creation, entries, withdrawals, seated rounds, broadcast settings, penalties), their
hash chain and their ledger entries, as ``digsite verify`` rechecks them.

Each event of a tournament is a record of its chain (``service.store.aggregates.Tournament.trigger_event``): its
hash covers its body (the event's own fields), its version and the hash of the record before it, keyed by the
tournament's id (``service.integrity.records.tournament_record_hash``). The ledger enters every one of them
(kind ``tournament``) in the transaction that stores it. A tournament has no rules to replay, so the ledger pins
each record, not only the first and the last as it does for a game.

A tournament stored before tournaments were chained has records without a stored hash: their hashes are what
their bodies give, and they have no ledger entry until ``digsite ledger backfill`` enters them. Until then
``verify`` reports them as *not covered*, which is no failure: nothing said what they were before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.utils import get_topic

from service.integrity.ledger import Entry, Ledger
from service.integrity.records import GENESIS, tournament_record_hash
from service.store.aggregates import RECORD_TYPE, Tournament, record_body

if TYPE_CHECKING:
    from service.commands.application import Digsite

CHECKS = ("tournament_records", "tournament_chain")


@dataclass(frozen=True)
class TournamentCheck:
    name: str
    ok: bool
    detail: str
    version: int | None = None  # the first record it found bad


@dataclass
class TournamentReport:
    tournament: str
    ok: bool
    checks: list[TournamentCheck]
    records: int = 0
    coverage: str = "not covered"  # "whole": every record entered; "partly": the older ones are not; "not covered"
    uncovered: list[int] = field(default_factory=list)  # the versions no ledger entry pins (stored before chains)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "ok": self.ok,
            "records": self.records,
            "coverage": self.coverage,
            "uncovered": self.uncovered,
            "checks": [asdict(c) for c in self.checks],
        }


# -- reading ------------------------------------------------------------------------------------------------------


def tournament_records(service: Digsite, tournament_id: str) -> list[dict[str, Any]]:
    """The tournament's stored events as records: ``{"type", "tournament", "version", "hash", "prev_hash", "body"}``,
    ``hash``/``prev_hash`` as stored (None for a record stored before tournaments were chained). A stored row that
    cannot be decoded, or is no tournament record, is ``{"type": None, "version", "problem"}``."""
    uid = UUID(str(tournament_id))
    out: list[dict[str, Any]] = []
    for stored in service.app.recorder.select_events(uid):
        version = stored.originator_version
        try:
            event: Any = service.app.mapper.to_domain_event(stored)
            kind = RECORD_TYPE[type(event)]
            body = record_body(event)
        except Exception as error:  # (an edited row: reported, never raised)
            out.append({"type": None, "version": version, "problem": f"{type(error).__name__}: {error}"})
            continue
        prev = getattr(event, "prev_hash", GENESIS if event.hash is not None else None)
        record = {"type": kind, "tournament": str(uid), "version": version, "hash": event.hash, "prev_hash": prev}
        out.append({**record, "body": body})
    return out


def chained_hashes(tournament_id: str, records: list[dict[str, Any]]) -> list[str]:
    """The hash of each record as the chain gives it (recomputed from the bodies, record 1 on, up to the first
    unreadable one)."""
    prev, out = GENESIS, []
    for record in records:
        if record["type"] is None:  # (an unreadable record: the chain stops there)
            break
        prev = tournament_record_hash(str(tournament_id), record["version"], prev, record["body"])
        out.append(prev)
    return out


def stored_tournament_ids(service: Digsite, entries: Iterable[Entry] = ()) -> list[str]:
    """Every tournament created in the store (in order of creation), then every one only the ledger's ``entries``
    name (its records deleted: verified, and failing)."""
    ids: list[str] = []
    start = None
    while True:
        batch = service.app.recorder.select_notifications(
            start=start, limit=500, topics=[get_topic(Tournament.Created)], inclusive_of_start=False
        )
        if not batch:
            break
        ids.extend(str(UUID(str(n.originator_id))) for n in batch)
        start = batch[-1].id
    seen = set(ids)
    for entry in entries:
        if entry.kind == "tournament" and entry.game not in seen:
            seen.add(entry.game)
            ids.append(entry.game)
    return ids


# -- checking -----------------------------------------------------------------------------------------------------


def check_tournament(tournament_id: str, records: list[dict[str, Any]], entries: list[Entry]) -> TournamentReport:
    """The tournament's records (``tournament_records``) against their own chain and the ledger's ``entries`` of
    kind ``tournament`` for it: ``tournament_records`` (versions 1..n, ``created`` first and only first, rounds
    seated in order 1, 2, 3, ...), ``tournament_chain`` (every stored hash and previous hash is the one the chain
    gives, and every entry the ledger has for the tournament names a record with the hash the chain gives it; a
    record stored with its hash has its entry)."""
    tournament_id = str(UUID(str(tournament_id)))
    mine = [e for e in entries if e.kind == "tournament" and e.game == tournament_id]
    report = TournamentReport(tournament_id, False, [], records=len(records))
    structure = _check_structure(records, bool(mine))
    report.checks.append(structure)
    if not structure.ok:
        report.checks.append(TournamentCheck("tournament_chain", False, "not checked: the records do not hold"))
        return report
    chain, report.uncovered = _check_chain(tournament_id, records, mine)
    report.checks.append(chain)
    report.ok = all(c.ok for c in report.checks)
    covered = len(records) - len(report.uncovered)
    report.coverage = "whole" if not report.uncovered else ("partly" if covered else "not covered")
    return report


def _check_structure(records: list[dict[str, Any]], entered: bool) -> TournamentCheck:
    name = "tournament_records"
    if not records:
        why = "its records are gone, but the ledger names it" if entered else "it has no records"
        return TournamentCheck(name, False, why, 1)
    rounds = 0
    for expected, record in enumerate(records, start=1):
        version = record["version"]
        if version != expected:
            return TournamentCheck(
                name, False, f"record {expected} is missing (the records jump to {version})", expected
            )
        if record["type"] is None:
            return TournamentCheck(name, False, f"record {version} cannot be read: {record['problem']}", version)
        if (record["type"] == "created") != (version == 1):
            return TournamentCheck(name, False, f"record {version} is a {record['type']} record", version)
        if record["type"] == "round_seated":
            rounds += 1
            if record["body"]["round"] != rounds:
                seated = record["body"]["round"]
                why = f"record {version} seats round {seated} where round {rounds} comes next"
                return TournamentCheck(name, False, why, version)
    return TournamentCheck(
        name, True, f"records 1 to {len(records)} without a gap, 'created' first, {rounds} round(s) in order"
    )


def _check_chain(
    tournament_id: str, records: list[dict[str, Any]], entries: list[Entry]
) -> tuple[TournamentCheck, list[int]]:
    name = "tournament_chain"
    hashes = chained_hashes(tournament_id, records)
    by_version = {e.version: e for e in entries}
    hashed_before = False
    uncovered: list[int] = []
    for record, computed in zip(records, hashes, strict=True):
        version, stored, prev = record["version"], record["hash"], record["prev_hash"]
        expected_prev = GENESIS if version == 1 else hashes[version - 2]
        if stored is None and hashed_before:
            return TournamentCheck(name, False, f"record {version} has lost its hash", version), uncovered
        if stored is not None:
            hashed_before = True
            if stored != computed:
                why = (
                    f"record {version} was changed after it was written (it hashes to {computed[:12]}..., "
                    f"not the stored {stored[:12]}...)"
                )
                return TournamentCheck(name, False, why, version), uncovered
            if prev != expected_prev:
                why = (
                    f"record {version} names {str(prev)[:12]}... as the record before it, which hashes to "
                    f"{expected_prev[:12]}..."
                )
                return TournamentCheck(name, False, why, version), uncovered
        entry = by_version.pop(version, None)
        if entry is None:
            if stored is not None:  # (written since chains: its entry was written with it)
                why = f"record {version} has no ledger entry, though it was written with one (entry removed?)"
                return TournamentCheck(name, False, why, version), uncovered
            uncovered.append(version)
        elif entry.record_hash != computed:
            why = (
                f"record {version} is not the one the ledger entered (entry {entry.seq}: {entry.record_hash[:12]}...; "
                f"the records give {computed[:12]}...)"
            )
            return TournamentCheck(name, False, why, version), uncovered
    if by_version:
        version = min(by_version)
        why = f"the ledger entered record {version} (entry {by_version[version].seq}), which is not in the store"
        return TournamentCheck(name, False, why, version), uncovered
    detail = f"{len(records)} record hash(es) recomputed and chained; the last is {hashes[-1][:12]}..."
    if uncovered:
        detail += (
            f"; records {_span(uncovered)} were stored before tournaments were chained and are not covered by the "
            "ledger (`digsite ledger backfill` enters them)"
        )
    else:
        detail += "; each is the one the ledger entered"
    return TournamentCheck(name, True, detail), uncovered


def _span(versions: list[int]) -> str:
    return f"{versions[0]} to {versions[-1]}" if len(versions) > 1 else str(versions[0])


def verify_tournament(service: Digsite, tournament_id: str, entries: list[Entry] | None = None) -> TournamentReport:
    """Recheck one stored tournament against the store's ledger (``entries``: its entries, else read)."""
    from_ledger = entries if entries is not None else Ledger(service).entries_of(tournament_id)
    return check_tournament(tournament_id, tournament_records(service, tournament_id), from_ledger)
