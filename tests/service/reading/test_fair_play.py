"""A tournament's fair-play evidence read from the store (``service.reading.fair_play``): think times from the record
times less the clock's pauses, the seat's holder a substitute from its move on, and, on SQLite and PostgreSQL, a
bot tournament judged at a tiny budget read back decision by decision as the judge stored it, the games not judged
yet named. The signals' own scores are not this module's (a hand-made reporter stands in for them)."""

from __future__ import annotations

from typing import Any

import pytest

from service.analysis import stored
from service.analysis.fair_play.evidence import TournamentEvidence
from service.analysis.fair_play.findings import Report
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.fair_play import fair_play, gather, seat_holders, think_times
from service.reading.read_port import ReadPort
from service.settings import Database
from tests.service.api.support import project
from tests.service.integrity.test_audit import new_game, play

BUDGET = 4  # playouts a decision: the figures' quality is the judge's tests'; these read them back


def record(kind: str, version: int, at: str, **body: Any) -> dict[str, Any]:
    return {"type": kind, "version": version, "body": {"at": f"2026-12-05T10:{at}+00:00", **body}}


def test_think_time_runs_from_the_previous_move_less_the_clock_s_pauses_and_a_timeout_has_none() -> None:
    records = [
        record("created", 1, "00:00", players=["a", "b"]),
        record("move", 2, "00:07", seat=0),  # 7 s after the creation
        record("clock", 3, "00:10", change="pause"),
        record("clock", 4, "01:10", change="resume"),  # a minute paused: not the seat's thinking
        record("ruling", 5, "01:20", ruling="annul"),  # another record: the turn goes on
        record("move", 6, "01:30", seat=1),  # 83 s after the last move, 60 of them paused
        record("timeout", 7, "02:30", seat=0),
        record("move", 8, "02:31.500000", seat=1),
    ]
    assert think_times(records) == {2: 7.0, 6: 23.0, 7: None, 8: 1.5}


def test_a_substitute_holds_the_seat_from_the_move_its_ruling_names_on() -> None:
    records = [
        record("created", 1, "00:00", players=["a", "b", "c"]),
        record("move", 2, "00:01", seat=0),
        record("ruling", 3, "00:02", ruling="substitute", details={"seat": 1, "player": "s", "from_version": 4}),
        record("move", 4, "00:03", seat=1),
    ]
    held = seat_holders(records)
    assert (held(2), held(4), held(9)) == (("a", "b", "c"), ("a", "s", "c"), ("a", "s", "c"))


def test_a_judged_bot_tournament_reads_back_decision_by_decision_with_its_unjudged_games_named(
    service: Digsite, database: Database
) -> None:
    cup = run_tournament(service, kind="ruins", players=3, games=2, pool=3, seed="fair", name="Cup")
    project(service)
    port = ReadPort.over(service.reader)
    try:
        before = gather(port, cup.id)
        assert before.coverage.judged == () and set(before.coverage.unjudged) == {g.id for g in cup.games}
        assert before.evidence.decisions == () and before.evidence.games == 0

        first = cup.games[0].id
        records = service.stored_records(first)
        judged = judge_records(records, BUDGET)
        stored.write(database, judged)
        seen: list[TournamentEvidence] = []

        def reporter(evidence: TournamentEvidence) -> Report:
            seen.append(evidence)
            return Report(evidence.tournament_id, evidence.games, len(evidence.decisions), {"gifts": 1.0}, ())

        shown, gathered = fair_play(port, cup.id, reporter)
        [evidence] = seen
        assert (shown["judged_games"], shown["unjudged_games"], shown["finished_games"]) == (1, [cup.games[1].id], 2)
        assert (shown["tournament_id"], shown["games"], shown["thresholds"]) == (cup.id, 1, {"gifts": 1.0})

        players = tuple(str(p) for p in records[0]["body"]["players"])
        times = think_times(records)
        expected = [m for m in judged.judgement.moves if m.judged]
        assert [d.index for d in evidence.decisions] == [m.index for m in expected]
        for decision, move in zip(evidence.decisions, expected, strict=True):
            version = judged.versions[move.index]
            assert (decision.game_id, decision.version, decision.seat) == (first, version, move.seat)
            assert decision.players == players and decision.player == players[move.seat]
            assert move.played_estimate is not None and move.options is not None
            assert decision.played.values == pytest.approx(move.played_estimate.values, abs=1e-4)
            assert decision.options.wins == pytest.approx(move.options.wins, abs=1e-4)
            assert decision.loss == pytest.approx(move.loss, abs=1e-3)
            assert decision.matched == (move.best == move.played)
            assert decision.think_seconds == times[version] and decision.think_seconds is not None
            assert gathered.moves[(first, version)].loss == decision.loss

        # A ruling after the end (a result adjusted) changes no move: the judgement made before it still counts.
        adjusted = {"ruling": "adjust_result", "reason": "a scoring error", "result": {"ranking": [2, 1, 0]}}
        service.rulings.rule_on_game(first, adjusted)
        after = gather(port, cup.id)
        assert after.coverage.judged == (first,) and after.evidence.decisions == evidence.decisions
    finally:
        port.close()


def test_a_substitute_s_moves_are_theirs_in_a_judged_tournament_game(service: Digsite, database: Database) -> None:
    cup = service.create_tournament("Sub cup", 1, "ruins")
    game_id = new_game(service, "fair-sub", tournament=cup)
    play(service, game_id, moves=12)
    stand_in = service.create_player("Dora")
    service.rulings.rule_on_game(game_id, {"ruling": "substitute", "reason": "ill", "seat": 1, "player": stand_in})
    play(service, game_id)
    records = service.stored_records(game_id)
    [ruling] = [r for r in records if r["type"] == "ruling"]
    first_own = int(ruling["body"]["details"]["from_version"])
    original = str(records[0]["body"]["players"][1])
    stored.write(database, judge_records(records, BUDGET))
    project(service)
    port = ReadPort.over(service.reader)
    try:
        decisions = gather(port, cup).evidence.decisions
    finally:
        port.close()
    seat1 = [d for d in decisions if d.seat == 1]
    assert {d.player for d in seat1 if d.version >= first_own} == {stand_in}
    assert {d.player for d in seat1 if d.version < first_own} == {original}
    assert all(d.players[1] == (stand_in if d.version >= first_own else original) for d in decisions)
