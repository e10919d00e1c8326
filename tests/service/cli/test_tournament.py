"""``digsite tournament``: create, enter (people and bots), seat (a dry run), start-round with its links as CSV and
a printable sheet, status, play-bots to the end; refusals with their code and exit code, and nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from service.cli import main
from service.commands.application import Digsite


@pytest.fixture
def run(service: Digsite, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("DIGSITE_DATABASE_URL", service.settings.database.url)
    monkeypatch.setenv("DIGSITE_SECRET_KEY", "the event's secret")
    return CliRunner()


def _ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


def test_a_tournament_is_run_from_the_command_line(run: CliRunner, service: Digsite, tmp_path: Path) -> None:
    cup = _ok(run.invoke(main, ["tournament", "create", "Club night", "--game", "ruins", "--rounds", "2"])).strip()
    person = service.create_player("Ana")
    _ok(run.invoke(main, ["tournament", "enter", cup, person, "--bots", "3"]))
    preview = _ok(run.invoke(main, ["tournament", "seat", cup, "--table-size", "2"]))
    assert "dry run" in preview and service.rounds.status(cup)["seated_rounds"] == []
    links, printable = tmp_path / "links.csv", tmp_path / "sheet.html"
    started = run.invoke(
        main,
        ["tournament", "start-round", cup, "--table-size", "2", "--links", str(links), "--sheet", str(printable),
         "--base-url", "https://club.example"],
    )  # fmt: skip
    assert "round 1 (round_robin, tables of up to 2): playing" in _ok(started)
    rows = links.read_text().splitlines()
    assert rows[0].startswith("round,table,seat") and len(rows) == 5
    assert printable.read_text().count("<svg") == 4
    again = _ok(run.invoke(main, ["tournament", "links", cup, "1", "--base-url", "https://club.example"]))
    assert again == links.read_text()  # the same links, asked for again

    refused = run.invoke(main, ["tournament", "start-round", cup])
    assert refused.exit_code == 3 and "[round_in_play]" in refused.output
    assert len(service.rounds.status(cup)["seated_rounds"]) == 1
    bad = run.invoke(main, ["tournament", "start-round", cup, "--force", "--table-size", "9"])
    assert bad.exit_code == 1 and "[table_size_not_allowed]" in bad.output
    unknown = run.invoke(main, ["tournament", "status", "00000000-0000-4000-8000-000000000000"])
    assert unknown.exit_code == 1 and "[unknown_tournament]" in unknown.output
    shown = _ok(run.invoke(main, ["tournament", "status", cup]))
    assert "2 of 2 round(s)" not in shown
    # each entry with the id the other commands take (withdraw, the rulings' --player)
    assert f"  entry {person}\tAna" in shown.splitlines()
    assert sum(line.startswith("  entry ") for line in shown.splitlines()) == 4


def test_bots_play_a_tournament_to_its_end_from_the_command_line(run: CliRunner, service: Digsite) -> None:
    cup = _ok(run.invoke(main, ["tournament", "create", "Bots", "--game", "ruins", "--rounds", "2"])).strip()
    _ok(run.invoke(main, ["tournament", "enter", cup, "--bots", "4"]))
    _ok(run.invoke(main, ["tournament", "start-round", cup, "--format", "swiss", "--table-size", "2"]))
    played = _ok(run.invoke(main, ["tournament", "play-bots", cup]))
    assert "4 game(s) played" in played and "2 of 2 round(s) seated (complete)" in played
    complete = run.invoke(main, ["tournament", "start-round", cup])
    assert complete.exit_code == 3 and "[tournament_complete]" in complete.output


def test_play_bots_alongside_people_plays_only_bots_seats_to_the_end(run: CliRunner, service: Digsite) -> None:
    """With no person entered it runs to the end like play-bots; a person's seat is never played by it (the
    service's ``play_bot_turns`` test, tests/service/bots/test_seated_rounds.py)."""
    cup = _ok(run.invoke(main, ["tournament", "create", "Mixed", "--game", "ruins", "--rounds", "2"])).strip()
    _ok(run.invoke(main, ["tournament", "enter", cup, "--bots", "4"]))
    _ok(run.invoke(main, ["tournament", "start-round", cup, "--table-size", "2"]))
    played = _ok(run.invoke(main, ["tournament", "play-bots", cup, "--alongside-people"]))
    games = [t["game"] for r in service.rounds.status(cup)["seated_rounds"] for t in r["tables"]]
    moves = sum(1 for g in games if g for record in service.log(g, after=1) if record["type"] == "move")
    assert "2 of 2 round(s) seated (complete)" in played and f"{moves} bot move(s) played" in played


def test_a_csv_seating_file_is_read_and_a_bad_one_refused(run: CliRunner, service: Digsite, tmp_path: Path) -> None:
    cup = _ok(run.invoke(main, ["tournament", "create", "Cup", "--game", "ruins", "--rounds", "1"])).strip()
    players = [service.create_player(n) for n in ("A", "B", "C")]
    _ok(run.invoke(main, ["tournament", "enter", cup, *players]))
    seating = tmp_path / "seating.csv"
    seating.write_text(f"table,player\n1,{players[2]}\n1,{players[0]}\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("table;player\n1;x\n")
    refused = run.invoke(main, ["tournament", "start-round", cup, "--csv", str(bad)])
    assert refused.exit_code == 1 and "[invalid_csv]" in refused.output
    _ok(run.invoke(main, ["tournament", "start-round", cup, "--csv", str(seating)]))
    [table] = service.rounds.round(cup, 1)["tables"]
    assert [p["id"] for p in table["players"]] == [players[2], players[0]]


def test_the_broadcast_is_set_from_the_command_line_and_a_bad_delay_changes_nothing(
    run: CliRunner, service: Digsite
) -> None:
    from service.commands.broadcasts import delay_of

    cup = _ok(run.invoke(main, ["tournament", "create", "Club night", "--game", "ruins", "--rounds", "1"])).strip()
    assert _ok(run.invoke(main, ["tournament", "broadcast", cup, "--moves", "2"])) == "broadcast: 2 moves behind\n"
    refused = run.invoke(main, ["tournament", "broadcast", cup, "--minutes", "-5"])
    assert refused.exit_code == 1 and "[invalid_broadcast]" in refused.output
    assert run.invoke(main, ["tournament", "broadcast", cup, "--moves", "1", "--off"]).exit_code == 2
    assert delay_of(service, cup) == {"moves": 2}
    assert _ok(run.invoke(main, ["tournament", "broadcast", cup, "--off"])) == "broadcast: off\n"
    assert delay_of(service, cup) is None


def _stored(service: Digsite) -> int:
    """How many records the store holds: unchanged by a refused command."""
    return service.app.recorder.max_notification_id() or 0


def test_a_timed_broadcast_tournament_is_created_and_people_entered_without_the_api(
    run: CliRunner, service: Digsite
) -> None:
    from service.commands.broadcasts import delay_of

    made = run.invoke(
        main,
        ["tournament", "create", "Friday", "--game", "ruins", "--rounds", "2", "--clock", "bank=600,increment=10",
         "--on-timeout", "forfeit", "--broadcast-delay", "moves=3"],
    )  # fmt: skip
    cup = _ok(made).strip()
    assert service.tournament(cup)["clock"] == {"bank": 600, "increment": 10, "on_timeout": "forfeit"}
    assert delay_of(service, cup) == {"moves": 3}
    blitz = ["Blitz", "--game", "ruins", "--rounds", "1", "--clock", "per_move=60", "--broadcast-delay", "minutes=2.5"]
    per_move = _ok(run.invoke(main, ["tournament", "create", *blitz])).strip()
    assert service.tournament(per_move)["clock"] == {"per_move": 60} and delay_of(service, per_move) == {"minutes": 2.5}

    entered = _ok(
        run.invoke(main, ["tournament", "enter", cup, "--new", "Ines Ortega", "--new", "Luis", "--bots", "1"])
    )
    lines = entered.splitlines()
    ines, luis = (line.split("\t") for line in lines[:2])
    assert ines[1] == "Ines Ortega" and service.player(ines[0])["name"] == "Ines Ortega"
    assert [e["id"] for e in service.rounds.status(cup)["entries"]][:2] == [ines[0], luis[0]]
    assert "Friday: 3 entries" in lines[2]


@pytest.mark.parametrize(
    ("args", "code", "sentence"),
    [
        (["--clock", "per_move=0"], "invalid_clock", "the clock's 'per_move' must be more than 0"),
        (["--clock", "bank=ten"], "invalid_clock", "the clock's 'bank' must be a number of seconds"),
        (["--clock", "bank=60,per_move=5"], "invalid_clock", "a clock is {bank, increment} or {per_move}"),
        (["--clock", "60"], "invalid_clock", "the clock is written name=value"),
        (["--broadcast-delay", "moves=-1"], "invalid_broadcast", "'moves' must be a whole number from 0"),
        (["--broadcast-delay", "moves=1,minutes=2"], "invalid_broadcast", "by moves or by minutes, not both"),
        (["--broadcast-delay", "hours=1"], "invalid_broadcast", "not hours"),
        (["--clock", "per_move=30", "--broadcast-delay", "minutes=0"], "invalid_broadcast", "'minutes' must be"),
    ],
)
def test_a_bad_clock_or_delay_is_the_api_s_sentence_and_creates_nothing(
    run: CliRunner, service: Digsite, args: list[str], code: str, sentence: str
) -> None:
    before = _stored(service)
    refused = run.invoke(main, ["tournament", "create", "Bad", "--game", "ruins", "--rounds", "1", *args])
    assert refused.exit_code == 1 and f"[{code}]" in refused.output and sentence in refused.output, refused.output
    assert _stored(service) == before


def test_entering_new_people_into_an_unknown_tournament_registers_nobody(run: CliRunner, service: Digsite) -> None:
    before = _stored(service)
    unknown = run.invoke(main, ["tournament", "enter", "00000000-0000-4000-8000-000000000000", "--new", "Ines"])
    assert unknown.exit_code == 1 and "[unknown_tournament]" in unknown.output
    cup = service.create_tournament("Cup", 1, "ruins")
    after_cup = _stored(service)
    assert after_cup > before
    blank = run.invoke(main, ["tournament", "enter", cup, "--new", "Ana", "--new", "  "])
    assert blank.exit_code == 1 and "[invalid_player]" in blank.output
    assert _stored(service) == after_cup and service.rounds.status(cup)["entries"] == []


def test_an_organiser_pauses_a_table_and_adds_time_from_the_command_line(run: CliRunner, service: Digsite) -> None:
    cup = service.create_tournament("Timed", 1, "ruins", clock={"per_move": 60})
    service.rounds.enter(cup, [service.create_player(n) for n in ("Ana", "Beto")])
    service.rounds.seat_round(cup, "round_robin", 2)
    game = service.rounds.status(cup)["seated_rounds"][0]["tables"][0]["game"]
    assert game is not None
    paused = _ok(run.invoke(main, ["tournament", "clock", game, "pause", "--reason", "a spilled drink"]))
    assert "the clock is paused" in paused and service.game(game)["clock"]["paused"] is True  # type: ignore[index]
    again = run.invoke(main, ["tournament", "clock", game, "pause", "--reason", "twice"])
    assert again.exit_code == 3 and "[table_paused]" in again.output  # (a refusal for its state)
    added = _ok(
        run.invoke(main, ["tournament", "clock", game, "add", "--seconds", "30", "--seat", "2", "--reason", "x"])
    )
    left = {int(line.split()[1].rstrip(":")): int(line.split()[2]) for line in added.splitlines()[1:]}
    assert left[2] - left[1] == 30 and 55 <= left[1] <= 60  # (paused: nobody's time runs)
    clocks = [r["body"] for r in service.log(game, after=1) if r["type"] == "clock"]
    assert [c["change"] for c in clocks] == ["pause", "add"] and clocks[1]["seat"] == 1 and clocks[1]["seconds"] == 30
    untimed = service.create_tournament("Untimed", 1, "ruins")
    service.rounds.enter(untimed, [service.create_player(n) for n in ("Cy", "Di")])
    service.rounds.seat_round(untimed, "round_robin", 2)
    other = service.rounds.status(untimed)["seated_rounds"][0]["tables"][0]["game"]
    assert other is not None
    refused = run.invoke(main, ["tournament", "clock", other, "resume", "--reason", "x"])
    assert refused.exit_code == 3 and "[no_clock]" in refused.output
