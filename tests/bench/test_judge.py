"""bench/judge.py's reading of a judgement at another significance (the stability curve of docs/performance.md,
section 37)."""

from __future__ import annotations

import json

from bench.judge import _positions, reported_at
from domain.games import GAMES
from domain.judge import SIGNIFICANCE, Judge, Trace

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


def test_read_at_the_judge_s_own_significance_it_is_what_the_judge_reported() -> None:
    """The bench re-reads the judge's rule over its traces; at ``SIGNIFICANCE`` that reading must give the judge's
    own reports, decision by decision, so the curve at other significances stands on the judge's rule."""
    found = GAMES["ruins"]
    traces: list[Trace] = []
    judge = Judge(found.rules, found.bots, budget=32, trace=traces.append)
    replaced = 0
    for _, index, state, move in _positions("ruins", 1, 40):
        traces.clear()
        run = judge.decision(state, move.seat, move.action, index, seed=0)
        if not run.judged:
            continue
        played, best = (json.dumps(a, sort_keys=True) for a in (run.played, run.best))
        assert reported_at(played, traces, SIGNIFICANCE) == [best]
        replaced += best != played
    assert replaced, "no decision here where the judge reported another move: the comparison would prove little"
