"""Moving games between stores as JSON Lines, verified on the way in.

An export is a stream of JSON objects, one per line, each with a ``type``:

- ``player`` / ``tournament``: a player or tournament some following game refers to (as ``player()`` /
  ``tournament()`` return them), written once per file, before the first game that needs it; a tournament with
  entries or seated rounds also carries them as recorded, in order (``events``: ``entry_added``,
  ``entry_withdrawn``, ``round_seated``, each with its recorded fields), and an import records them the same;
- ``game``: the header of one game: ``{"type": "game", "format": "digsite-export/1", "game": id,
  "records": n, "last_hash": hash}``;
- ``created`` / ``move`` / ``seed_revealed`` / ``ruling``: that game's stored records (an organiser's rulings
  among them, chained like moves), exactly as ``stored_records``
  returns them (with ``version``, ``hash``, ``prev_hash`` and the full ``body``), right after its header.

Import reads the stream game by game, checks the header against the records (count and last hash),
verifies the records (``service.integrity.audit``: hash chain, seed, rules) and writes a game only if every check
holds and its id is new to the store (and to its ledger); a refused game writes nothing at all. An imported
game enters the store's ledger as it is written (its creation, and its end if it is over: ``service.integrity.ledger``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any
from uuid import UUID

from service.commands.application import Digsite
from service.commands.rounds import malformed_events
from service.errors import NotFound, ServiceError
from service.integrity.audit import Report, verify_records
from service.integrity.ledger import Ledger
from service.integrity.records import GENESIS, tournament_record_hash
from service.integrity.tournament_chain import chained_hashes, tournament_records
from service.stored_text import InvalidText, check_text

FORMAT = "digsite-export/1"
RECORD_TYPES = ("created", "move", "timeout", "forfeit", "clock", "seed_revealed", "ruling")
PLAYER_FIELDS = {"type", "id", "name", "kind", "bot", "created_at"}
TOURNAMENT_FIELDS = {"type", "id", "name", "rounds", "game", "options", "clock", "created_at", "hash"}
# A tournament line of a file exported before tournaments held their rule options, their clock or their chain's
# hashes (read as ``None``: a line without hashes imports as before, and its chain starts in the new store).
OLD_TOURNAMENT_FIELDS = TOURNAMENT_FIELDS - {"options", "clock", "hash"}


# -- export ---------------------------------------------------------------------------------------------------


def export_lines(service: Digsite, game_ids: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The export of the given games, line by line (players and tournaments before the first game that
    refers to them)."""
    written: set[str] = set()
    for game_id in game_ids:
        records = service.stored_records(game_id)
        if not records:
            raise NotFound(f"no game with id {game_id}", "unknown_game")
        body = records[0]["body"] if records[0].get("type") == "created" else {}
        related = [("player", p) for p in body.get("players", [])]
        tournament_id = (body.get("labels") or {}).get("tournament")
        if tournament_id:
            related.append(("tournament", tournament_id))
        for kind, related_id in related:
            if related_id in written:
                continue
            written.add(related_id)
            try:
                found: dict[str, Any] = dict(
                    service.player(related_id) if kind == "player" else service.tournament(related_id)
                )
            except ServiceError:
                continue  # not in this store: the game still names it by id (and a player by name)
            if kind == "tournament":
                found.update(_chained_events(service, related_id))
            yield {"type": kind, **found}
        yield {
            "type": "game",
            "format": FORMAT,
            "game": records[0]["game"],
            "records": len(records),
            "last_hash": records[-1]["hash"],
        }
        yield from records


def _chained_events(service: Digsite, tournament_id: str) -> dict[str, Any]:
    """A tournament line's ``hash`` (its record 1's) and ``events`` (its records after it, each with its fields and
    its ``hash``: the chain an import recomputes, so a line edited in the file is refused)."""
    records = tournament_records(service, tournament_id)
    hashes = chained_hashes(tournament_id, records)
    out: dict[str, Any] = {"hash": hashes[0]}
    events = [{"event": r["type"], **r["body"], "hash": h} for r, h in zip(records[1:], hashes[1:], strict=True)]
    if events:  # (none: the line as before tournaments had entries and rounds)
        out["events"] = events
    return out


@dataclass
class Exported:
    games: int = 0
    records: int = 0
    in_play: list[str] = field(default_factory=list)  # games not over: their export holds the secret seed


def write_export(service: Digsite, game_ids: Iterable[str], out: IO[str]) -> Exported:
    """Write the export to ``out``; returns what was written."""
    summary = Exported()
    last: dict[str, Any] | None = None
    revealed = False  # (the game's seed is public: rulings may follow its reveal)
    for line in export_lines(service, game_ids):
        if line["type"] == "game":
            summary.games += 1
            if last is not None and not revealed:
                summary.in_play.append(last["game"])
            revealed = False
        elif line["type"] in RECORD_TYPES:
            summary.records += 1
            last = line
            revealed = revealed or line["type"] == "seed_revealed"
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
    if last is not None and not revealed:
        summary.in_play.append(last["game"])
    return summary


# -- import ---------------------------------------------------------------------------------------------------


@dataclass
class Imported:
    """What became of one game of the file: imported, or refused with the reason (nothing written)."""

    game: str
    imported: bool
    records: int = 0
    reason: str | None = None
    report: Report | None = None
    added_players: list[str] = field(default_factory=list)  # created in this store with the game
    added_tournaments: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "imported": self.imported,
            "records": self.records,
            "reason": self.reason,
            "added_players": self.added_players,
            "added_tournaments": self.added_tournaments,
            "warnings": self.warnings,
            "first_bad": (
                {"version": self.report.first_bad.version, "reason": self.report.first_bad.reason}
                if self.report and self.report.first_bad
                else None
            ),
        }


@dataclass
class _Block:
    header: dict[str, Any]
    line: int
    records: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def read_blocks(
    lines: Iterable[str],
) -> Iterator[tuple[_Block | None, str | None, dict[str, dict[str, Any]], dict[str, dict[str, Any]]]]:
    """Split the stream into games. Yields (block, None, players, tournaments) per game, or (None, error,
    ...) for a line that belongs to no game."""
    players: dict[str, dict[str, Any]] = {}
    tournaments: dict[str, dict[str, Any]] = {}
    block: _Block | None = None
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        line: dict[str, Any] = {}
        problem: str | None = None
        try:
            parsed = json.loads(text)
        except ValueError as error:
            problem = f"line {number} is not JSON ({error})"
        else:
            if isinstance(parsed, dict):
                line = parsed
            else:
                problem = f"line {number} is not a JSON object"
        kind = line.get("type")
        if kind == "game":
            if block is not None:
                yield block, None, players, tournaments
            block = _Block(header=line, line=number)
            continue
        if kind in RECORD_TYPES:
            if block is None:
                yield None, f"line {number}: a {kind} record before any game header", players, tournaments
            else:
                block.records.append(line)
            continue
        if kind == "player" and set(line) == PLAYER_FIELDS:
            players[str(line["id"])] = line
            continue
        if kind == "tournament" and OLD_TOURNAMENT_FIELDS <= set(line) - {"events"} <= TOURNAMENT_FIELDS:
            tournaments[str(line["id"])] = {"options": None, "clock": None, "hash": None, **line}
            continue
        problem = problem or f"line {number} is not a player, tournament, game header or game record ({kind!r})"
        if block is not None:
            block.errors.append(problem)
        else:
            yield None, problem, players, tournaments
    if block is not None:
        yield block, None, players, tournaments


def import_lines(service: Digsite, lines: Iterable[str], dry_run: bool = False) -> list[Imported]:
    """Import every game of an export; each game is verified and written whole, or refused and not written."""
    results = []
    for block, error, players, tournaments in read_blocks(lines):
        if block is None:
            results.append(Imported(game="?", imported=False, reason=error))
            continue
        results.append(_import_block(service, block, players, tournaments, dry_run))
    return results


def _import_block(
    service: Digsite,
    block: _Block,
    players: dict[str, dict[str, Any]],
    tournaments: dict[str, dict[str, Any]],
    dry_run: bool,
) -> Imported:
    header = block.header
    game_id = str(header.get("game"))
    result = Imported(game=game_id, imported=False, records=len(block.records))
    try:
        game_id = str(UUID(game_id))
        result.game = game_id
    except ValueError:
        result.reason = f"the game header on line {block.line} has no valid game id"
        return result
    if header.get("format") != FORMAT:
        result.reason = f"unknown export format {header.get('format')!r} (this Digsite reads {FORMAT})"
        return result
    if block.errors:
        result.reason = block.errors[0]
        return result
    if header.get("records") != len(block.records):
        result.reason = f"the header announces {header.get('records')} records but the file holds {len(block.records)}"
        return result
    if not block.records or header.get("last_hash") != block.records[-1].get("hash"):
        result.reason = "the last record's hash is not the one the header announces"
        return result
    report = verify_records(block.records, game_id=game_id)
    result.report = report
    if not report.ok:
        bad = report.first_bad
        failed = next(c for c in report.checks if not c.ok)
        result.reason = (
            f"verification failed at record {bad.version}: {bad.reason}"
            if bad
            else f"verification failed: {failed.name}: {failed.detail}"
        )
        return result
    body = block.records[0]["body"]
    wanted_players = []
    for player_id in body["players"]:
        if player_id in players:
            wanted_players.append(_plain(players[player_id]))
        elif not _exists(service, player_id):
            result.warnings.append(f"player {player_id} is neither in the file nor in this store")
    wanted_tournaments = []
    tournament_id = body["labels"].get("tournament")
    if isinstance(tournament_id, str):
        if tournament_id in tournaments:
            wanted_tournaments.append(_plain(tournaments[tournament_id]))
        elif not _exists(service, tournament_id):
            result.warnings.append(f"tournament {tournament_id} is neither in the file nor in this store")
    problem = _check_texts(block.records, wanted_players, wanted_tournaments) or _check_aggregates(
        wanted_players, wanted_tournaments
    )
    if problem:
        result.reason = problem
        return result
    if _exists(service, game_id):
        result.reason = f"a game with id {game_id} already exists in this store"
        return result
    if Ledger(service).entries_of(game_id):  # its records were removed from this store: never stored twice
        result.reason = f"the ledger of this store already names game {game_id} (its records were removed)"
        return result
    if dry_run:
        result.imported = True
        return result
    try:
        added = set(service.import_game(block.records, wanted_players, wanted_tournaments))
    except ServiceError as error:
        result.reason = error.message
        return result
    result.imported = True
    result.added_players = [p["id"] for p in wanted_players if p["id"] in added]
    result.added_tournaments = [t["id"] for t in wanted_tournaments if t["id"] in added]
    return result


def _plain(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "type"}


def _exists(service: Digsite, aggregate_id: str) -> bool:
    try:
        uid = UUID(str(aggregate_id))
    except ValueError:
        return False
    return bool(service.app.recorder.select_events(uid, limit=1))


def _check_aggregates(players: list[dict[str, Any]], tournaments: list[dict[str, Any]]) -> str | None:
    for player in players:
        if not (
            _is_uuid(player["id"])
            and isinstance(player["name"], str)
            and player["name"]
            and player["kind"] in ("human", "bot")
            and (player["bot"] is None or isinstance(player["bot"], dict))
            and isinstance(player["created_at"], str)
        ):
            return f"the player line for {player['id']!r} is malformed"
    for tournament in tournaments:
        rounds = tournament["rounds"]
        if not (
            _is_uuid(tournament["id"])
            and isinstance(tournament["name"], str)
            and isinstance(rounds, int)
            and not isinstance(rounds, bool)
            and isinstance(tournament["game"], str)
            and (tournament["options"] is None or _flat_settings(tournament["options"]))
            and (tournament["clock"] is None or _flat_settings(tournament["clock"]))
            and isinstance(tournament["created_at"], str)
        ):
            return f"the tournament line for {tournament['id']!r} is malformed"
        events = tournament.get("events", [])
        hashed = tournament["hash"] is not None
        if hashed and not (isinstance(events, list) and all(isinstance(e, dict) and "hash" in e for e in events)):
            return f"the tournament line for {tournament['id']!r} is malformed: its events lack their hashes"
        unhashed = [{k: v for k, v in e.items() if k != "hash"} if isinstance(e, dict) else e for e in events]
        problem = malformed_events(unhashed) if isinstance(events, list) else malformed_events(events)
        if problem:
            return f"the tournament line for {tournament['id']!r} is malformed: {problem}"
        if hashed:
            problem = _chain_problem(tournament, unhashed)
            if problem:
                return f"the tournament line for {tournament['id']!r} was changed after it was exported: {problem}"
    return None


def _chain_problem(tournament: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
    """Where the line's records stop hashing to the hashes it carries (None: every one does)."""
    tournament_id = tournament["id"]
    body = {name: tournament[name] for name in ("name", "rounds", "game", "options", "clock")}
    prev = tournament_record_hash(tournament_id, 1, GENESIS, {**body, "at": tournament["created_at"]})
    if prev != tournament["hash"]:
        return "its record 1 (the tournament itself) does not hash to the hash the line carries"
    for version, (event, given) in enumerate(zip(events, tournament.get("events", []), strict=True), start=2):
        prev = tournament_record_hash(tournament_id, version, prev, {k: v for k, v in event.items() if k != "event"})
        if prev != given["hash"]:
            return f"its record {version} ({event['event']}) does not hash to the hash the line carries"
    return None


def _flat_settings(value: Any) -> bool:
    """Rule options as a game stores them: names (not starting with '_', which the store's codec reserves) with
    plain values."""
    return isinstance(value, dict) and all(
        isinstance(name, str) and not name.startswith("_") and (v is None or isinstance(v, (str, int, float, bool)))
        for name, v in value.items()
    )


def _check_texts(
    records: list[dict[str, Any]], players: list[dict[str, Any]], tournaments: list[dict[str, Any]]
) -> str | None:
    """Every text a game brings must be storable (``service.stored_text``): a control character, say a NUL that
    PostgreSQL text cannot hold, would stop the read models once stored."""
    try:
        for record in records:
            check_text(record, f"record {record.get('version')}")
        for player in players:
            check_text(player, f"the player line for {player['id']}")
        for tournament in tournaments:
            check_text(tournament, f"the tournament line for {tournament['id']}")
    except InvalidText as error:
        return error.message
    return None


def _is_uuid(value: Any) -> bool:
    """A UUID in its canonical form (the form game records refer to it by)."""
    try:
        return isinstance(value, str) and str(UUID(value)) == value
    except ValueError:
        return False
