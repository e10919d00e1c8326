"""A small hand-made fair-play reporter for the service's tests: the real signals are another module's (and their
own tests'); these tests check what the service does with a report, so the report is made plainly from the
evidence: per signal one finding, its subject the first decisions' players, its moves those decisions."""

from __future__ import annotations

from service.analysis.fair_play.evidence import TournamentEvidence
from service.analysis.fair_play.findings import SIGNALS, Behind, Finding, Report

THRESHOLDS = {signal: 1.0 for signal in SIGNALS}
SCORES = {"gifts": 2.0, "soft_play": 0.5, "kingmaking": 0.25, "bot_like": 1.5}  # gifts and bot-like play flagged


def reporter(evidence: TournamentEvidence) -> Report:
    """Per signal one finding (flagged for ``gifts`` and ``bot_like``) over the evidence's first three decisions;
    none without a decision."""
    first = list(evidence.decisions[:3])
    if not first:
        return Report(evidence.tournament_id, evidence.games, 0, THRESHOLDS, ())
    mover = first[0]
    other = mover.players[(mover.seat + 1) % mover.table_size]
    moves = tuple(Behind(d.game_id, d.index, d.version, d.seat, d.player, 1.0 + d.loss) for d in first)
    subjects = {"gifts": (mover.player, other), "soft_play": tuple(sorted((mover.player, other))),
                "kingmaking": (mover.player, other), "bot_like": (mover.player,)}  # fmt: skip
    findings = tuple(
        Finding(
            signal,
            subjects[signal],
            SCORES[signal],
            SCORES[signal] >= THRESHOLDS[signal],
            1,
            len(first),
            {"share": 0.25},
            moves,
        )
        for signal in SIGNALS
    )
    return Report(evidence.tournament_id, evidence.games, len(evidence.decisions), THRESHOLDS, findings)
