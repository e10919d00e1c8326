"""A tournament's fair-play evidence read from the store, and its report for organisers (docs/fair_play.md, *On the
service*): the judged decisions of its finished games (``rm_judged_moves`` at the current judge version, each game
at its largest budget) with the players at each table and each move's think time from the stored record times.

The signals are computed by a reporting function given as a parameter (``Reporter``; by default
``service.analysis.fair_play.signals.report``): this module reads, it does not score. Nothing
here names a game.

Think time: from the seat's turn beginning (the game's previous move, or its creation for the first) to the move's
record, less every interval the organiser's clock held the table paused in between (a ``clock`` record ``pause``
to the next ``resume``). Other records in between (a ruling, time added) do not restart the turn. A move the game
made for a seat out of time (a ``timeout`` record) has no think time: the seat chose nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from service.analysis.fair_play import signals
from service.analysis.fair_play.evidence import Decision, Outlook, TournamentEvidence
from service.analysis.fair_play.findings import Report
from service.analysis.judging import finished
from service.reading.read_port import ReadPort
from service.reading.results import FairPlay, JudgedMove, SeatFigures
from service.store.read_models import GAMES_TABLE

SUBSTITUTE = "substitute"  # the ruling that seats another player (service.commands.rulings)
Reporter = Callable[[TournamentEvidence], Report]


def default_reporter(evidence: TournamentEvidence) -> Report:
    """The fair-play signals' report (``service.analysis.fair_play.signals.report``, at its own thresholds)."""
    return signals.report(evidence)


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which of the tournament's finished games are judged at the current judge version (``judged``) and which
    are not yet (``unjudged``), by id, in the order they were played."""

    judged: tuple[str, ...]
    unjudged: tuple[str, ...]

    @property
    def finished(self) -> int:
        return len(self.judged) + len(self.unjudged)


@dataclass(frozen=True, slots=True)
class MoveFigures:
    """The judge's figures for one decision, as the fair-play page shows a move behind a finding."""

    game_id: str
    index: int
    version: int
    seat: int
    players: tuple[str, ...]
    loss: float
    played: SeatFigures
    best: SeatFigures
    options: SeatFigures


def _time(at: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(at)) if at else None
    except ValueError:
        return None


def think_times(records: Sequence[dict[str, Any]]) -> dict[int, float | None]:
    """Each move record's think time in seconds, by version (the module's docstring says how it is counted)."""
    out: dict[int, float | None] = {}
    turn: datetime | None = None
    paused_at: datetime | None = None
    paused = 0.0
    for record in records:
        kind, at = record["type"], _time(record["body"].get("at"))
        if kind == "created":
            turn, paused_at, paused = at, None, 0.0
        elif kind == "clock" and at is not None:
            change = record["body"].get("change")
            if change == "pause" and paused_at is None:
                paused_at = at
            elif change == "resume" and paused_at is not None:
                paused += (at - paused_at).total_seconds()
                paused_at = None
        elif kind in ("move", "timeout"):
            seconds = None
            if kind == "move" and at is not None and turn is not None:
                seconds = max(0.0, (at - turn).total_seconds() - paused)
            out[int(record["version"])] = seconds
            turn, paused_at, paused = at, None, 0.0
    return out


def seat_holders(records: Sequence[dict[str, Any]]) -> Callable[[int], tuple[str, ...]]:
    """Who held each seat at a version: the created record's players, a substitute from the move its ruling names
    (``from_version``) on."""
    players = tuple(str(p) for p in records[0]["body"]["players"])
    rulings = [r["body"]["details"] for r in records if r["type"] == "ruling" and r["body"].get("ruling") == SUBSTITUTE]
    changes = sorted((int(d["from_version"]), int(d["seat"]), str(d["player"])) for d in rulings)

    def at(version: int) -> tuple[str, ...]:
        held = list(players)
        for start, seat, player in changes:
            if start <= version:
                held[seat] = player
        return tuple(held)

    return at


def _outlook(figures: SeatFigures | None) -> Outlook | None:
    if figures is None or figures["wins"] is None or figures["values"] is None:
        return None
    return Outlook(tuple(figures["wins"]), tuple(figures["values"]))


def decisions_of(game_id: str, records: Sequence[dict[str, Any]], moves: Iterable[JudgedMove]) -> list[Decision]:
    """The judged decisions of one game (its stored judgement's ``moves``), with the players and think times."""
    holders = seat_holders(records)
    thinking = think_times(records)
    out = []
    for move in moves:
        played, best = _outlook(move["played_estimate"]), _outlook(move["best_estimate"])
        options = _outlook(move["options"])
        if not move["judged"] or played is None or best is None or options is None:
            continue
        version = int(move["version"])
        matched = move["best"] is None or move["best"] == move["played"]
        seat, loss = int(move["seat"]), float(move["loss"])
        where = (game_id, int(move["index"]), version, seat, holders(version))
        out.append(Decision(*where, played, best, options, loss, matched, thinking.get(version)))
    return out


@dataclass(frozen=True, slots=True)
class Gathered:
    """A tournament's evidence, which of its games it covers, and every decision's figures by (game, version)."""

    evidence: TournamentEvidence
    coverage: Coverage
    moves: dict[tuple[str, int], MoveFigures]


def gather(port: ReadPort, tournament_id: str) -> Gathered:
    """Tournament ``tournament_id``'s evidence from the store (404 ``unknown_tournament`` for no such tournament).
    Its finished games in the order played (round, then table); a game forfeited out of time ended outside the
    rules and is never judged, so it is not counted."""
    found = port.reader.tournament(tournament_id)
    tid = str(found["id"])
    rows = port.db.rows(
        f"SELECT game_id FROM {{p}}{GAMES_TABLE.name} WHERE tournament_id = ? AND status = 'over' "
        "ORDER BY round_label, table_label, started_at, game_id",
        (tid,),
    )
    decisions: list[Decision] = []
    judged, unjudged = [], []
    figures: dict[tuple[str, int], MoveFigures] = {}
    for row in rows:
        game_id = str(row["game_id"])
        records = port.reader.stored_records(game_id)
        if not finished(records):
            continue
        analysis = port.judgements.of(game_id)  # (rulings since the game's end leave its judgement standing)
        if analysis is None:
            unjudged.append(game_id)
            continue
        judged.append(game_id)
        found_here = decisions_of(game_id, records, analysis["moves"])
        decisions += found_here
        for d in found_here:
            figures[(game_id, d.version)] = MoveFigures(
                game_id, d.index, d.version, d.seat, d.players, d.loss,
                *(_figures(o) for o in (d.played, d.best, d.options)),
            )  # fmt: skip
    evidence = TournamentEvidence(tid, tuple(decisions), len(judged))
    return Gathered(evidence, Coverage(tuple(judged), tuple(unjudged)), figures)


def _figures(outlook: Outlook) -> SeatFigures:
    return {"wins": list(outlook.wins), "values": list(outlook.values)}


def answer(report: Report, coverage: Coverage) -> FairPlay:
    """The report as the API answers it: ``Report.to_dict()`` and the games it covers."""
    shown: dict[str, Any] = report.to_dict()
    shown |= {
        "finished_games": coverage.finished,
        "judged_games": len(coverage.judged),
        "unjudged_games": list(coverage.unjudged),
    }
    return cast(FairPlay, shown)


def fair_play(port: ReadPort, tournament_id: str, reporter: Reporter | None = None) -> tuple[FairPlay, Gathered]:
    """Tournament ``tournament_id``'s fair-play report (``reporter``, by default the signals'), with what it read."""
    gathered = gather(port, tournament_id)
    report = (reporter or default_reporter)(gathered.evidence)
    return answer(report, gathered.coverage), gathered
