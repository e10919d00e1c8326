"""Bots playing seats over HTTP against the real play API, served in-process on both stores."""

from __future__ import annotations

import random
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from werkzeug.serving import WSGIRequestHandler, make_server

from domain import ruins
from domain.ruins.bots import HeuristicBot, RandomBot
from service.api import create_app
from service.application import Digsite, Viewer
from service.botclient import ApiError, BotClient, Move, Unreachable, parse_tendencies
from service.cli import main

JOIN_SECONDS = 120  # a whole game over HTTP takes well under this; a hang fails instead of blocking


class QuietHandler(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """No access log line per request (a game is hundreds of them)."""


@pytest.fixture
def server(service: Digsite) -> Iterator[str]:
    """The API app around ``service``, served on a free local port in a daemon thread."""
    httpd = make_server("127.0.0.1", 0, create_app(service=service), threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()


def new_game(service: Digsite, players: int = 3, seed: str = "http") -> dict[str, Any]:
    seats = [service.create_player(f"Bot {i}", kind="bot") for i in range(players)]
    return service.create_game("ruins", seats, seed=seed)


def clients(url: str, created: dict[str, Any]) -> list[BotClient]:
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(pass_rate=0.5, lead="big"), HeuristicBot(torch_rate=1.0)]
    return [
        BotClient(url, created["id"], t["token"], bots[t["seat"]], random.Random(t["seat"])) for t in created["tokens"]
    ]


def stored_move_seats(service: Digsite, game_id: str) -> list[int]:
    return [r["body"]["seat"] for r in service.stored_records(game_id) if r["type"] == "move"]


def in_threads(targets: list[Any]) -> list[BaseException]:
    """Run each callable in its own thread; the errors they raised (none if all went well)."""
    errors: list[BaseException] = []

    def guarded(target: Any) -> None:
        try:
            target()
        except BaseException as error:  # reported to the test, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(t,), daemon=True) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_SECONDS)
    assert not any(t.is_alive() for t in threads), "a bot did not finish its game"
    return errors


def test_bots_play_a_whole_game_over_http_each_on_its_own_seat(service: Digsite, server: str) -> None:
    created = new_game(service)
    seats = clients(server, created)
    moves: dict[int, list[Move]] = {c: [] for c in range(3)}
    for _ in range(10_000):  # bounded: a game is a few hundred moves
        steps = [(seat, client.step()) for seat, client in enumerate(seats)]
        for seat, step in steps:
            if step.move is not None:
                moves[seat].append(step.move)
        if all(step.kind == "over" for _, step in steps):
            break
    final = service.game(created["id"])
    assert final["status"] == "over"
    # Every stored move was made by the client holding that seat, and each client moved only for its seat.
    assert Counter(stored_move_seats(service, created["id"])) == {s: len(m) for s, m in moves.items() if m}
    assert all(m.seat == seat for seat, made in moves.items() for m in made)
    assert sum(c.moves for c in seats) == final["version"] - 2  # created + moves + seed revealed
    for made in moves.values():  # each move acted on the version it read and got the next one back
        assert all(m.new_version > m.version for m in made)
        assert [m.version for m in made] == sorted(m.version for m in made)
    assert moves[final["view"]["outcome"]["winner"]][-1].status == "over"


def test_bots_in_threads_wait_for_their_turns_and_stop_at_the_end(service: Digsite, server: str) -> None:
    created = new_game(service, players=4, seed="threads")
    seats = clients(server, created)
    finals: dict[int, dict[str, Any]] = {}

    def play(seat: int) -> None:
        finals[seat] = seats[seat].run(poll=0.005, max_poll=0.05)

    errors = in_threads([lambda s=s: play(s) for s in range(4)])
    assert errors == []
    final = service.game(created["id"])
    assert final["status"] == "over"
    assert all(f["status"] == "over" and f["version"] == final["version"] for f in finals.values())
    assert Counter(stored_move_seats(service, created["id"])) == {s: c.moves for s, c in enumerate(seats)}


def test_a_stale_version_is_refused_with_409_then_reloaded_and_played(service: Digsite, server: str) -> None:
    created = new_game(service, players=2, seed="stale")
    mine = clients(server, created)[0]
    seen = mine.fetch()
    assert seen["status"] == "playing" and 0 in seen["to_act"]  # the night flip: both seats choose
    # Seat 1 moves first, through the service: what seat 0 read is now one version behind.
    other = service.game(created["id"], Viewer(1))
    service.submit(created["id"], Viewer(1), other["version"], other["legal_actions"][0])
    step = mine.play_turn(seen)
    assert step.kind == "conflict" and mine.conflicts == 1 and mine.moves == 0
    assert service.game(created["id"])["version"] == seen["version"] + 1  # the refused move changed nothing
    retried = mine.step()  # reload and decide again
    assert retried.kind == "moved" and retried.move is not None
    assert retried.move.version == seen["version"] + 1
    assert stored_move_seats(service, created["id"]) == [1, 0]


def test_waiting_backs_off_up_to_the_ceiling_and_starts_again_when_the_game_moves(
    service: Digsite, server: str
) -> None:
    created = new_game(service, players=2, seed="backoff")
    me, opponent = clients(server, created)
    delays: list[float] = []
    versions: list[int] = []

    def sleep(seconds: float) -> None:
        """The opponent plays after our bot has waited four times in a row (no real time passes)."""
        delays.append(seconds)
        version = service.game(created["id"])["version"]
        versions.append(version)
        if versions[-4:] == [version] * 4:
            while opponent.step().kind == "moved":
                pass

    final = me.run(poll=0.1, max_poll=0.2, sleep=sleep)
    assert final["status"] == "over" == service.game(created["id"])["status"]
    assert delays and max(delays) == 0.2  # bounded
    assert sorted({round(d, 9) for d in delays}) == [0.1, 0.15, 0.2]  # grows by half while nothing happens ...
    for before, after, seconds in zip(versions, versions[1:], delays[1:], strict=False):
        if after != before:
            assert seconds == 0.1  # ... and starts again from --poll once the game has moved


def test_a_wrong_token_stops_the_bot_with_the_apis_error(service: Digsite, server: str) -> None:
    created = new_game(service, players=2)
    stranger = BotClient(server, created["id"], "not-a-seat-token", HeuristicBot())
    with pytest.raises(ApiError) as refused:
        stranger.run(poll=0.01, sleep=lambda _: None)
    assert (refused.value.status, refused.value.code) == (401, "invalid_token")
    unknown = BotClient(server, "no-such-game", created["tokens"][0]["token"], HeuristicBot())
    with pytest.raises(ApiError) as missing:
        unknown.fetch()
    assert missing.value.status == 404
    assert service.game(created["id"])["version"] == created["version"]


def test_an_unreachable_server_is_retried_with_backoff_then_given_up() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = BotClient(f"http://127.0.0.1:{port}", "game", "token", HeuristicBot(), timeout=2)
    delays: list[float] = []
    with pytest.raises(Unreachable, match="5 failed requests"):
        client.run(poll=0.1, max_poll=0.3, sleep=delays.append, max_failures=5)
    assert delays == pytest.approx([0.1, 0.15, 0.225, 0.3])  # grows by half, up to the ceiling


def test_parse_tendencies() -> None:
    assert parse_tendencies(["pass_rate=0.6", "lead=big", "torch_rate=0"]) == {
        "pass_rate": 0.6,
        "lead": "big",
        "torch_rate": 0.0,
    }
    with pytest.raises(ValueError, match="key=value"):
        parse_tendencies(["pass_rate"])


def test_cli_bot_plays_its_seat_and_prints_a_line_per_move(service: Digsite, server: str) -> None:
    created = new_game(service, players=3, seed="cli")
    others = clients(server, created)[1:]
    result: list[Any] = []

    def cli_seat() -> None:
        result.append(
            CliRunner().invoke(
                main,
                [
                    *["bot", "--url", server, "--game", created["id"], "--bot", "heuristic"],
                    *["--tendency", "pass_rate=0.6", "--tendency", "lead=big"],
                    *["--poll", "0.01", "--max-poll", "0.05", "--seed", "7"],
                ],
                env={"DIGSITE_SEAT_TOKEN": created["tokens"][0]["token"]},
            )
        )

    errors = in_threads([cli_seat] + [lambda c=c: c.run(poll=0.005, max_poll=0.05) for c in others])
    assert errors == []
    (outcome,) = result
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.stdout.splitlines()
    made = [line for line in lines if line.startswith("move ")]
    assert len(made) == stored_move_seats(service, created["id"]).count(0) > 0
    assert all(" seat 0: 0 " in line for line in made)  # e.g. "move 3: v7 -> v8 seat 0: 0 play 4,9@2"
    assert lines[-1].startswith("game over at v") and "wins" in lines[-1]
    assert service.game(created["id"])["status"] == "over"


def test_cli_bot_refuses_an_unknown_tendency_before_connecting() -> None:
    result = CliRunner().invoke(
        main, ["bot", "--url", "http://127.0.0.1:9", "--game", "g", "--token", "t", "--tendency", "bravery=1"]
    )
    assert result.exit_code == 2 and "bravery" in result.output


def test_moves_round_trip_through_the_action_codec() -> None:
    """What the client prints is the engine's own reading of the JSON it sent."""
    action = ruins.Play(0, (4, 9), 2, (), ())
    assert str(ruins.action_from_dict(ruins.action_to_dict(action))) == "0 play 4,9@2"
