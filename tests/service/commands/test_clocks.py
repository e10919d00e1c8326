"""Time controls enforced by the service: deadlines from the stored records only, timeouts recorded once, the
organiser's pause and extra time, on both stores. Every test tells the time with an injected clock: none waits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from service.commands.application import Digsite, Viewer
from service.errors import BadRequest, Conflict
from service.integrity.audit import verify
from service.settings import Database, Settings

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> str:
        return self.at.isoformat()

    def wait(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(database: Database, clock: Clock) -> Iterator[Digsite]:
    svc = Digsite(Settings(database=database, api_key="organiser-key"), clock=clock)
    try:
        yield svc
    finally:
        svc.close()


def _game(service: Digsite, clock: dict[str, Any] | None, kind: str = "ruins", seats: int = 3) -> str:
    players = [service.create_player(f"P{i}") for i in range(seats)]
    return service.create_game(kind, players, seed="clocked", clock=clock)["id"]


def _move(service: Digsite, game_id: str, seat: int | None = None, index: int = 0) -> dict[str, Any]:
    """The ``index``-th legal action of the seat to act (the first seat to act unless given)."""
    game = service.game(game_id)
    seat = game["to_act"][0] if seat is None else seat
    seen = service.game(game_id, Viewer(seat))
    return dict(service.submit(game_id, Viewer(seat), seen["version"], seen["legal_actions"][index]))


def test_a_clock_of_zero_or_less_or_of_an_unknown_shape_is_refused_and_nothing_is_stored(timed: Digsite) -> None:
    players = [timed.create_player(f"P{i}") for i in range(3)]
    for bad in ({"bank": 0}, {"bank": -5, "increment": 1}, {"per_move": 0}, {"bank": 60, "increment": -1},
                {"bank": 60, "per_move": 10}, {"minutes": 5}, {"bank": True}, "5+3"):  # fmt: skip
        with pytest.raises(BadRequest) as refused:
            timed.create_game("ruins", players, clock=bad)  # type: ignore[arg-type]
        assert refused.value.code == "invalid_clock"
    assert list(timed.game_ids()) == []
    with pytest.raises(BadRequest) as refused:
        timed.create_tournament("Cup", 2, "ruins", clock={"per_move": -1})
    assert refused.value.code == "invalid_clock"


def test_the_clock_runs_for_the_seat_to_act_and_adds_the_increment_when_its_turn_ends(
    timed: Digsite, clock: Clock
) -> None:
    game_id = _game(timed, {"bank": 60, "increment": 5})
    shown = timed.game(game_id)["clock"]
    running = [s["seat"] for s in shown["seats"] if s["running"]]
    assert running == timed.game(game_id)["to_act"]
    assert {s["left"] for s in shown["seats"]} == {60}
    mover = running[0]
    clock.wait(12.5)
    _move(timed, game_id, mover)
    seats = timed.game(game_id)["clock"]["seats"]
    if not seats[mover]["running"]:  # its turn ended: 60 - 12.5 + 5
        assert seats[mover]["left"] == 52.5
    else:  # (the same seat acts on: charged, no increment yet)
        assert seats[mover]["left"] == 47.5
    # Deadlines are the running seats' time left after the moment their time began to run.
    for seat in seats:
        if seat["running"]:
            began = datetime.fromisoformat(seat["since"])
            assert datetime.fromisoformat(seat["deadline"]) == began + timedelta(seconds=seat["left"])


def test_a_move_after_the_deadline_is_refused_and_the_timeout_recorded_once_with_the_games_default(
    timed: Digsite, clock: Clock
) -> None:
    game_id = _game(timed, {"per_move": 30})
    before = timed.game(game_id)
    seat = before["to_act"][0]
    seen = timed.game(game_id, Viewer(seat))
    clock.wait(30.001)
    with pytest.raises(Conflict) as refused:
        timed.submit(game_id, Viewer(seat), seen["version"], seen["legal_actions"][0])
    assert refused.value.code == "out_of_time"
    records = timed.stored_records(game_id)
    timeouts = [r for r in records if r["type"] == "timeout"]
    assert [r["body"]["seat"] for r in timeouts][:1] == [seat]
    first = timeouts[0]["body"]
    assert first["deadline"] == (START + timedelta(seconds=30)).isoformat()
    assert first["at"] == clock()
    # The action is the game's own default for that seat at that point, nothing the seat chose.
    from domain.games import game as game_of

    rules = game_of("ruins").rules
    state = timed.reader.state_at(game_id, timeouts[0]["version"] - 1)
    assert first["action"] == rules.action_to_dict(rules.timeout_action(state, seat))
    # Noticing again at the same moment records nothing more.
    assert timed.enforce_clock(game_id) == []
    assert timed.stored_records(game_id) == records
    assert verify(timed, game_id).ok


def test_deadlines_come_from_the_stored_records_so_a_fresh_service_enforces_them(
    timed: Digsite, clock: Clock, database: Database
) -> None:
    game_id = _game(timed, {"bank": 20, "increment": 10})
    running = timed.game(game_id)["to_act"]  # (Ruins opens with a choice every seat makes at once)
    clock.wait(21)
    restarted = Digsite(Settings(database=database, api_key="organiser-key"), clock=clock)
    try:
        assert restarted.enforce_clock(game_id) == running  # each timed out once: then 10 s each (the increment)
        assert timed.enforce_clock(game_id) == []  # the first service reads the timeouts, records none
    finally:
        restarted.close()
    assert sum(r["type"] == "timeout" for r in timed.stored_records(game_id)) >= 1
    assert verify(timed, game_id).ok


def test_an_untimed_game_has_no_clock_and_nothing_is_ever_timed_out(timed: Digsite, clock: Clock) -> None:
    game_id = _game(timed, None)
    assert timed.game(game_id)["clock"] is None
    assert "clock" not in timed.stored_records(game_id)[0]["body"]  # record 1 as before clocks
    clock.wait(10**6)
    assert timed.enforce_clock(game_id) == []
    _move(timed, game_id)
    with pytest.raises(Conflict) as refused:
        timed.change_clock(game_id, "pause", "a break")
    assert refused.value.code == "no_clock"


def test_the_organiser_pauses_resumes_and_adds_time_each_a_clock_record_with_its_reason(
    timed: Digsite, clock: Clock
) -> None:
    game_id = _game(timed, {"bank": 60, "increment": 0})
    seat = timed.game(game_id)["to_act"][0]
    chosen = timed.game(game_id, Viewer(seat))["legal_actions"][0]  # (chosen before the pause, sent during it)
    clock.wait(10)
    paused = timed.change_clock(game_id, "pause", "fire alarm")
    assert paused["clock"]["paused"] and not any(s["running"] for s in paused["clock"]["seats"])
    assert paused["clock"]["seats"][seat]["left"] == 50
    clock.wait(3600)  # nobody's time runs while the table is paused
    assert timed.enforce_clock(game_id) == []
    seen = timed.game(game_id, Viewer(seat))
    with pytest.raises(Conflict) as refused:
        timed.submit(game_id, Viewer(seat), seen["version"], chosen)
    assert refused.value.code == "table_paused"
    with pytest.raises(Conflict):
        timed.change_clock(game_id, "pause", "again")
    resumed = timed.change_clock(game_id, "resume", "all clear")
    assert resumed["clock"]["seats"][seat]["deadline"] == (clock.at + timedelta(seconds=50)).isoformat()
    added = timed.change_clock(game_id, "add", "the lights went out", seconds=15, seat=seat)
    assert added["clock"]["seats"][seat]["left"] == 65
    records = [r for r in timed.stored_records(game_id) if r["type"] == "clock"]
    assert [(r["body"]["change"], r["body"]["reason"]) for r in records] == [
        ("pause", "fire alarm"),
        ("resume", "all clear"),
        ("add", "the lights went out"),
    ]
    refused_changes: list[dict[str, Any]] = [
        {"change": "stop", "reason": "x"},
        {"change": "add", "reason": "x", "seconds": 0},
        {"change": "pause", "reason": " "},
        {"change": "add", "reason": "x", "seconds": 5, "seat": 9},
    ]
    for bad in refused_changes:
        with pytest.raises(BadRequest):
            timed.change_clock(game_id, **bad)
    assert verify(timed, game_id).ok


def test_a_tournaments_games_inherit_its_clock_and_may_not_name_another(timed: Digsite) -> None:
    tournament = timed.create_tournament("Blitz", 2, "ruins", clock={"per_move": 45})
    assert timed.tournament(tournament)["clock"] == {"per_move": 45}
    players = [timed.create_player(f"P{i}") for i in range(3)]
    game_id = timed.create_game("ruins", players, labels={"tournament": tournament})["id"]
    assert timed.game(game_id)["clock"]["control"] == {"per_move": 45}
    with pytest.raises(BadRequest) as refused:
        timed.create_game("ruins", players, labels={"tournament": tournament}, clock={"per_move": 90})
    assert refused.value.code == "tournament_clock_mismatch"


def _replanted(records: list[dict[str, Any]], game_id: str, kind: str = "timeout", **body: Any) -> list[dict[str, Any]]:
    """The records with every ``kind`` record's body changed so, and every hash after it recomputed (a forger who
    rewrites the chain: the hash check alone cannot tell)."""
    from service.integrity.records import record_hash

    planted = [dict(r, body=dict(r["body"])) for r in records]
    for record in planted[1:]:
        if record["type"] == kind:
            record["body"].update(body)
    for i, record in enumerate(planted):
        prev = planted[i - 1]["hash"] if i else record["prev_hash"]
        record["prev_hash"] = prev
        record["hash"] = record_hash(game_id, record["version"], prev, record["body"])
    return planted


@pytest.mark.parametrize("forged", ["at", "at and deadline"])
def test_a_timeout_planted_before_its_deadline_fails_verify(timed: Digsite, clock: Clock, forged: str) -> None:
    from service.integrity.audit import verify_records

    game_id = _game(timed, {"per_move": 30})
    clock.wait(31)
    timed.enforce_clock(game_id)
    records = timed.stored_records(game_id)
    assert verify_records(records).ok
    early = (START + timedelta(seconds=10)).isoformat()
    # Recorded 20 s before the seat's time ran out: with its true deadline, or with the deadline forged too.
    changed = {"at": early} if forged == "at" else {"at": early, "deadline": early}
    report = verify_records(_replanted(records, game_id, **changed))
    assert not report.ok
    failed = [c for c in report.checks if not c.ok]
    assert [c.name for c in failed] == ["clock"]
    expected = "before seat" if forged == "at" else "the times recorded before it give"
    assert expected in failed[0].detail


def test_a_move_let_in_after_a_deadline_fails_verify(timed: Digsite, clock: Clock) -> None:
    from service.integrity.audit import verify_records

    game_id = _game(timed, {"per_move": 30})
    clock.wait(10)
    _move(timed, game_id)
    records = timed.stored_records(game_id)
    assert verify_records(records).ok
    late = (START + timedelta(seconds=40)).isoformat()  # every seat's time had run out at 30 s
    report = verify_records(_replanted(records, game_id, "move", at=late))
    failed = [c for c in report.checks if not c.ok]
    assert [c.name for c in failed] == ["clock"] and "time ran out" in failed[0].detail


@pytest.mark.parametrize(("kind", "seats"), [("ruins", 3), ("arnak", 2)])
def test_a_table_where_nobody_moves_is_played_to_its_end_by_timeouts_and_verifies(
    timed: Digsite, clock: Clock, kind: str, seats: int
) -> None:
    """Every seat out of time at every turn: the games' default moves end the game (the seed revealed after the
    last timeout), every record verifies, and the read models count the timeouts as the seats' moves."""
    from tests.service.api.support import project

    game_id = _game(timed, {"per_move": 60}, kind, seats)
    timed.change_clock(game_id, "pause", "the venue opens late")
    clock.wait(600)
    timed.change_clock(game_id, "resume", "doors open")
    for _ in range(5000):
        if timed.game(game_id)["status"] == "over":
            break
        clock.wait(60)
        assert timed.enforce_clock(game_id)
    records = timed.stored_records(game_id)
    assert timed.game(game_id)["status"] == "over" and records[-1]["type"] == "seed_revealed"
    assert {r["type"] for r in records} == {"created", "clock", "timeout", "seed_revealed"}
    assert verify(timed, game_id).ok
    project(timed)
    from service.reading.read_port import ReadPort

    read = ReadPort.over(timed.reader)
    try:
        row = read.lists.game_row(game_id)
    finally:
        read.close()
    assert row["status"] == "over" and row["last_version"] == len(records)
    assert row["moves"] == sum(r["type"] == "timeout" for r in records)


def test_a_timed_games_clock_is_in_its_replay_frames_and_its_export_imports_and_verifies(
    timed: Digsite, clock: Clock, database: Database, request: pytest.FixtureRequest
) -> None:
    from service.integrity.transfer import export_lines, import_lines
    from service.reading.read_port import ReadPort
    from tests.service.conftest import another_store

    tournament = timed.create_tournament("Rapid", 1, "ruins", clock={"bank": 90, "increment": 3})
    players = [timed.create_player(f"P{i}") for i in range(3)]
    game_id = timed.create_game("ruins", players, labels={"tournament": tournament})["id"]
    clock.wait(5)
    _move(timed, game_id)
    timed.change_clock(game_id, "add", "a long ruling at the table", seconds=30)
    clock.wait(200)
    assert timed.enforce_clock(game_id)
    read = ReadPort.over(timed.reader)
    try:
        first = read.replays.replay(game_id, 1)["clock"]
        assert first is not None and {s["left"] for s in first["seats"]} == {90}
        later = read.replays.replay(game_id, 3)["clock"]  # after the move and the time added
        assert later is not None and all(s["left"] >= 115 for s in later["seats"])
    finally:
        read.close()
    lines = [json.dumps(line) for line in export_lines(timed, [game_id])]
    with another_store(database, request) as other:
        target = Digsite(Settings(database=other))
        try:
            [imported] = import_lines(target, lines)
            assert imported.imported, imported.reason
            assert target.tournament(tournament)["clock"] == {"bank": 90, "increment": 3}
            assert target.stored_records(game_id) == timed.stored_records(game_id)
            assert verify(target, game_id).ok
        finally:
            target.close()


def test_a_paused_table_has_nobody_to_act_so_seats_wait_for_the_resume(timed: Digsite, clock: Clock) -> None:
    from service.serving import push

    game_id = _game(timed, {"bank": 60, "increment": 0})
    running = timed.game(game_id)["to_act"]
    timed.change_clock(game_id, "pause", "lunch")
    seen = timed.game(game_id, Viewer(running[0]))
    assert seen["to_act"] == [] and seen["legal_actions"] == []
    waited = push.updates(timed, game_id, Viewer(running[0]), seen["version"], 0, "turn")
    assert not waited["ready"] and waited["to_act"] == []  # (a wait for its turn holds until the resume lands)
    timed.change_clock(game_id, "resume", "back")
    seen = timed.game(game_id, Viewer(running[0]))
    assert seen["to_act"] == running and seen["legal_actions"]


def test_a_timeout_s_secret_choice_is_hidden_from_the_other_seats_as_a_chosen_one_is(
    timed: Digsite, clock: Clock
) -> None:
    """Ruins' night flip is secret until every seat has chosen: one seat flips a ruin, another runs out of time
    (its default: no flip), and a third, still to choose, reads both records alike ("hidden"), though what they
    hide differs (a ruin, none)."""
    game_id = _game(timed, {"bank": 60, "increment": 0})
    assert timed.game(game_id)["view"]["phase"] == "flip"
    flipper = timed.game(game_id, Viewer(0))
    flip = next(a for a in flipper["legal_actions"] if a["ruin"] is not None)
    timed.submit(game_id, Viewer(0), flipper["version"], flip)
    timed.change_clock(game_id, "add", "seat 3 gets a minute more", seconds=60, seat=2)
    clock.wait(61)
    assert timed.enforce_clock(game_id) == [1]  # (seat 0 has chosen; seat 2 has a minute more)
    log = timed.log(game_id, Viewer(2))
    chosen = next(r for r in log if r["type"] == "move")["body"]["action"]
    timed_out = next(r for r in log if r["type"] == "timeout")["body"]["action"]
    assert chosen == {**flip, "ruin": "hidden"} and timed_out == {"type": "flip", "seat": 1, "ruin": "hidden"}
    referee = {r["type"]: r["body"]["action"] for r in timed.log(game_id) if r["type"] in ("move", "timeout")}
    assert referee["move"]["ruin"] is not None and referee["timeout"]["ruin"] is None  # (the facts differ)


def test_under_a_forfeit_clock_a_seat_out_of_time_forfeits_ranked_last_and_the_game_ends(
    timed: Digsite, clock: Clock
) -> None:
    from service.integrity.audit import verify_records
    from service.reading.read_port import ReadPort
    from service.reading.standings import PointsTable, report
    from tests.service.api.support import project

    tournament = timed.create_tournament("Strict", 1, "arnak", clock={"per_move": 60, "on_timeout": "forfeit"})
    players = [timed.create_player(f"P{i}") for i in range(3)]
    labels = {"tournament": tournament, "round": 1, "table": 1}
    game_id = timed.create_game("arnak", players, labels=labels)["id"]
    for _ in range(4):  # a few moves in time: the points so far decide the others' places
        clock.wait(10)
        _move(timed, game_id)
    seat = timed.game(game_id)["to_act"][0]
    seen = timed.game(game_id, Viewer(seat))
    clock.wait(61)
    with pytest.raises(Conflict) as refused:
        timed.submit(game_id, Viewer(seat), seen["version"], seen["legal_actions"][0])
    assert refused.value.code == "out_of_time"
    over = timed.game(game_id)
    assert over["status"] == "over" and over["to_act"] == [] and over["seed"] is not None
    assert over["result"] is not None and over["result"]["ranking"][-1] == seat
    assert seat not in over["result"]["winners"] and over["result"]["detail"] == {"forfeit": seat}
    records = timed.stored_records(game_id)
    assert [r["type"] for r in records[-2:]] == ["forfeit", "seed_revealed"]
    assert verify(timed, game_id).ok
    # A forfeit that names another result fails verify, though its hash chain is rebuilt.
    forged = dict(records[-2]["body"]["result"], winners=[seat])
    planted = verify_records(_replanted(records, game_id, "forfeit", result=forged))
    assert [c.name for c in planted.checks if not c.ok] == ["clock"]
    # The read models and the standings count it as the game's end, the seat last.
    project(timed)
    read = ReadPort.over(timed.reader)
    try:
        assert read.lists.game_row(game_id)["status"] == "over"
        rows = read.lists.tournament_seats(tournament, finished_only=True)
        table = report({"tournament_id": tournament, **timed.tournament(tournament)}, rows, PointsTable.parse(None))
    finally:
        read.close()
    placed = {line["player_id"]: line for line in table["standings"]}
    assert placed[players[seat]]["average_place"] == 3 and placed[players[seat]]["wins"] == 0


def test_a_seated_round_s_games_play_under_the_tournament_s_clock_and_a_timeout_can_end_its_last_table(
    timed: Digsite, clock: Clock
) -> None:
    tournament = timed.create_tournament("Seated", 2, "ruins", clock={"per_move": 30, "on_timeout": "forfeit"})
    players = [timed.create_player(f"P{i}") for i in range(4)]
    timed.rounds.enter(tournament, players)
    seated = timed.rounds.seat_round(tournament, "round_robin", 2)
    games = [table["game"] for table in seated["tables"]]
    control = timed.tournament(tournament)["clock"]
    assert len(games) == 2 and all(timed.game(g)["clock"]["control"] == control for g in games)
    clock.wait(31)
    for game_id in games:  # every table out of time: each game forfeited, the round over
        assert timed.enforce_clock(game_id)
        assert timed.game(game_id)["status"] == "over"
    assert len(timed.rounds.status(tournament)["seated_rounds"]) == 2  # the next, seated when the last table ended


def test_an_annulled_timed_game_is_never_timed_out_and_its_clock_takes_no_change(timed: Digsite, clock: Clock) -> None:
    """A ruling that stops a game (service/commands/rulings.py) stops its clock: nothing is recorded after it."""
    game_id = _game(timed, {"per_move": 30})
    timed.rulings.rule_on_game(game_id, {"ruling": "annul", "reason": "a misdeal"})
    clock.wait(31)
    assert timed.enforce_clock(game_id) == []
    with pytest.raises(Conflict) as refused:
        timed.change_clock(game_id, "add", "a lost minute", seconds=60)
    assert refused.value.code == "game_stopped"
    records = timed.stored_records(game_id)
    assert [r["type"] for r in records] == ["created", "ruling"]
    from service.integrity.audit import verify_records

    assert verify_records(records).ok


def test_a_forfeited_games_adjusted_result_keeps_the_forfeits_beside_it(timed: Digsite, clock: Clock) -> None:
    from service.integrity.audit import verify_records

    game_id = _game(timed, {"per_move": 30, "on_timeout": "forfeit"}, kind="arnak")
    clock.wait(31)
    timed.enforce_clock(game_id)
    forfeited = timed.game(game_id)["result"]
    assert forfeited is not None
    ranking = list(reversed(forfeited["ranking"]))
    ruled = timed.rulings.rule_on_game(
        game_id, {"ruling": "adjust_result", "reason": "the clock was not started", "result": {"ranking": ranking}}
    )
    kept = ruled["body"]["details"]["engine_result"]
    assert kept["ranking"] == forfeited["ranking"] and kept["scores"] == forfeited["scores"]
    assert verify_records(timed.stored_records(game_id)).ok
