"""bench/judge.py's reading of a judgement at another significance (the stability curve of docs/performance.md,
section 37)."""

from __future__ import annotations

import json

from bench.judge import reported_at
from domain.judge import Trace

PLAYED = {"type": "play", "card": 1}
OTHER = {"type": "play", "card": 2}


def _trace(found: int, z: float) -> Trace:
    return Trace((PLAYED, OTHER), found, z)


def test_a_survivor_replaces_the_move_played_only_above_the_significance_asked() -> None:
    played, other = json.dumps(PLAYED, sort_keys=True), json.dumps(OTHER, sort_keys=True)
    traces = [_trace(1, 2.5), _trace(1, 3.5), _trace(0, 0.0)]
    assert reported_at(played, traces, 2.0) == [other, other, played]
    assert reported_at(played, traces, 3.0) == [played, other, played]
    assert reported_at(played, traces, 4.0) == [played, played, played]
