"""What the fair-play signals report: for each signal, a score per player or pair of the tournament, with the games
and the moves behind it. A score is a measure to look into, never a verdict (docs/fair_play.md)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SIGNALS = ("gifts", "soft_play", "kingmaking", "bot_like")


def by_chance(threshold: float, scored: int) -> float:
    """How many of ``scored`` subjects reach ``threshold`` by chance alone, on average, on a field with no cheat:
    the scores are z-scores there (docs/fair_play.md), so ``scored`` times the normal tail above the threshold
    (before the rule that the pattern repeat in two games, which only lowers it)."""
    return scored * (1.0 - statistics.NormalDist().cdf(threshold))


@dataclass(frozen=True, slots=True)
class Behind:
    """One move behind a finding: where it is (game, move number, the version to replay it at, the mover's seat and
    player) and what it weighed for the signal (``amount``, in the signal's own unit, docs/fair_play.md)."""

    game_id: str
    index: int
    version: int
    seat: int
    player: str
    amount: float

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "index": self.index, "version": self.version, "seat": self.seat,
                "player": self.player, "amount": round(self.amount, 4)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Finding:
    """One signal's score for one subject: a player (bot-like play), an ordered pair (gifts: giver, receiver;
    kingmaking: kingmaker, beneficiary) or an unordered pair (soft play, in sorted order)."""

    signal: str  # one of SIGNALS
    subject: tuple[str, ...]
    score: float  # the higher, the further from the field (the signal's scale, docs/fair_play.md)
    flagged: bool  # the score at or above the signal's threshold
    games: int  # games behind the score
    decisions: int  # judged decisions behind the score
    figures: Mapping[str, float] = field(default_factory=dict)  # the signal's own figures, named in the docs
    moves: tuple[Behind, ...] = ()  # the moves behind it, the weightiest first

    def to_dict(self) -> dict[str, Any]:
        return {
            "signal": self.signal,
            "subject": list(self.subject),
            "score": round(self.score, 4),
            "flagged": self.flagged,
            "games": self.games,
            "decisions": self.decisions,
            "figures": {k: round(v, 4) for k, v in sorted(self.figures.items())},
            "moves": [m.to_dict() for m in self.moves],
        }


@dataclass(frozen=True, slots=True)
class Report:
    """A tournament's fair-play report: every signal's findings, ranked by score (highest first)."""

    tournament_id: str
    games: int
    decisions: int
    thresholds: Mapping[str, float]
    findings: tuple[Finding, ...]

    def of(self, signal: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.signal == signal)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "games": self.games,
            "decisions": self.decisions,
            "thresholds": dict(self.thresholds),
            "signals": {s: [f.to_dict() for f in self.of(s)] for s in SIGNALS},
        }
