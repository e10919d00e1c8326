"""Backfilling the ledger: every stored game it lacks entered, each only once ``digsite verify`` holds for it; and
every record of a tournament stored before tournaments were chained, once the tournament's own checks hold.

Apart from ``service.integrity.ledger`` because it verifies through ``service.integrity.audit``, which reads
the ledger: the ledger itself knows nothing of the audit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from uuid import UUID

from service.integrity.audit import stored_game_ids, verify
from service.integrity.ledger import FINISHED_TOPIC, Entry, Ledger
from service.integrity.tournament_chain import (
    chained_hashes,
    check_tournament,
    stored_tournament_ids,
    tournament_records,
)

if TYPE_CHECKING:
    from service.commands.application import Digsite


@dataclass
class Backfill:
    entered: list[Entry] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (game, why): games that do not verify
    already: int = 0  # games the ledger already had whole
    tournaments_already: int = 0  # tournaments whose every record the ledger already had


def backfill(service: Digsite, progress: Callable[[str], None] | None = None) -> Backfill:
    """Enter in the ledger every stored game it lacks (its creation, and its end if it is over), each only if
    ``digsite verify`` holds for it (every check of its records); games that do not verify are reported and
    left out. A game in play when the ledger was made has its end entered live, and only its creation is
    backfilled. Safe to run again: games the ledger has are skipped."""
    ledger = Ledger(service)
    have: dict[str, set[str]] = {}
    for entry in ledger.entries():
        have.setdefault(entry.game, set()).add(entry.kind)
    result = Backfill()
    for game_id in stored_game_ids(service):
        kinds = have.get(game_id, set())
        if "created" in kinds:
            if "finished" in kinds or not _is_over(service, game_id):
                result.already += 1
            else:  # its end was due to be entered with its last record: not for a backfill to paper over
                result.refused.append(
                    (game_id, "the ledger has its creation but not its end: `digsite verify` says why")
                )
            if progress is not None:
                progress(game_id)
            continue
        report = verify(service, game_id, store_checks=False)
        if not report.ok:
            bad = report.first_bad
            why = (
                f"record {bad.version}: {bad.reason}"
                if bad
                else next(f"{c.name}: {c.detail}" for c in report.checks if not c.ok)
            )
            result.refused.append((game_id, why))
        else:
            records = service.stored_records(game_id)
            wanted = [("created", game_id, 1, records[0]["hash"])]
            if report.status == "over" and "finished" not in kinds:
                wanted.append(("finished", game_id, records[-1]["version"], records[-1]["hash"]))
            result.entered.extend(ledger.append(wanted))
        if progress is not None:
            progress(game_id)
    _backfill_tournaments(service, ledger, result)
    return result


def _backfill_tournaments(service: Digsite, ledger: Ledger, result: Backfill) -> None:
    """Enter the records of each tournament stored before tournaments were chained (those without a stored hash),
    with the hashes their chain gives, only if the tournament's checks hold (``tournament_chain``): a record written
    since, whose entry is missing, is reported by ``verify`` and never entered here."""
    entries = [e for e in ledger.entries() if e.kind == "tournament"]
    for tournament_id in stored_tournament_ids(service):
        records = tournament_records(service, tournament_id)
        report = check_tournament(tournament_id, records, entries)
        if not report.ok:
            failed = next(c for c in report.checks if not c.ok)
            result.refused.append((tournament_id, f"tournament: {failed.name}: {failed.detail}"))
        elif not report.uncovered:
            result.tournaments_already += 1
        else:
            hashes = chained_hashes(tournament_id, records)
            wanted = [("tournament", tournament_id, v, hashes[v - 1]) for v in report.uncovered]
            result.entered.extend(ledger.append(wanted))


def _is_over(service: Digsite, game_id: str) -> bool:
    last = service.app.recorder.select_events(UUID(game_id), desc=True, limit=1)
    return bool(last) and last[0].topic == FINISHED_TOPIC
