"""Bots playing seats over HTTP against the real play API, served in-process on both stores."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from werkzeug.serving import WSGIRequestHandler, make_server

from domain import ruins
from domain.ruins.bots import HeuristicBot, RandomBot
from service.api import create_app
from service.bots.seat_client import ApiError, BadAddress, BotChoice, BotClient, Move, Unreachable, parse_tendencies
from service.cli import main
from service.commands.application import Digsite, Viewer
from service.errors import Unavailable
from service.integrity import audit
from service.serving import push

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


def test_a_stale_version_is_refused_with_409_then_reloaded(service: Digsite, server: str) -> None:
    created = new_game(service, players=2, seed="stale")
    mine = clients(server, created)[0]
    seen = mine.fetch()
    assert seen["status"] == "playing" and 0 in seen["to_act"]  # the night flip: both seats choose
    # Seat 0 moves first from another device, through the service: what the bot read is now one version behind.
    other = service.game(created["id"], Viewer(0))
    service.submit(created["id"], Viewer(0), other["version"], other["legal_actions"][0])
    step = mine.play_turn(seen)
    assert step.kind == "conflict" and mine.conflicts == 1 and mine.moves == 0
    assert service.game(created["id"])["version"] == seen["version"] + 1  # the refused move changed nothing
    reloaded = mine.step()  # reload: the seat has chosen, and waits for the other
    assert reloaded.kind == "waiting" and reloaded.game["version"] == seen["version"] + 1
    assert stored_move_seats(service, created["id"]) == [0]


def test_a_secret_choice_is_played_though_another_seat_s_landed_since(service: Digsite, server: str) -> None:
    created = new_game(service, players=3, seed="stale")
    mine = clients(server, created)[0]
    seen = mine.fetch()
    assert seen["status"] == "playing" and 0 in seen["to_act"]  # the night flip: every seat chooses, in secret
    # Seat 1 chooses first, through the service: the bot's choice, on the version before, still stands.
    other = service.game(created["id"], Viewer(1))
    service.submit(created["id"], Viewer(1), other["version"], other["legal_actions"][0])
    step = mine.play_turn(seen)
    assert step.kind == "moved" and step.move is not None and mine.conflicts == 0
    assert (step.move.version, step.move.new_version) == (seen["version"], seen["version"] + 2)
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

    final = me.run(poll=0.1, max_poll=0.2, sleep=sleep, push=False)  # polling, as a server without push has it
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
        stranger.run(poll=0.01, sleep=never)  # at once: no retry
    assert (refused.value.status, refused.value.code) == (401, "invalid_token")
    unknown = BotClient(server, "no-such-game", created["tokens"][0]["token"], HeuristicBot())
    with pytest.raises(ApiError) as missing:
        unknown.fetch()
    assert missing.value.status == 404
    assert service.game(created["id"])["version"] == created["version"]


def free_port() -> int:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def never(seconds: float) -> None:
    raise AssertionError(f"the bot waited {seconds} s to retry what can never succeed")


def test_an_unreachable_server_is_retried_with_growing_jittered_backoff_until_the_time_bound() -> None:
    client = BotClient(f"http://127.0.0.1:{free_port()}", "game", "token", HeuristicBot(), timeout=2)
    now = [0.0]
    delays: list[float] = []
    said: list[str] = []

    def sleep(seconds: float) -> None:  # no real time passes
        delays.append(seconds)
        now[0] += seconds

    with pytest.raises(Unreachable, match=r"gave up after 10\.0 s and \d+ failed requests in a row") as gave_up:
        client.run(
            give_up_after=10, backoff=0.1, max_backoff=1.0, sleep=sleep, clock=lambda: now[0], on_trouble=said.append
        )
    assert "Connection refused" in str(gave_up.value)
    assert now[0] == pytest.approx(10.0)  # the bound is kept exactly: the last pause is cut to it
    for n, seconds in enumerate(delays[:-1]):  # each pause is drawn between half and all of a doubling ceiling
        ceiling = min(1.0, 0.1 * 2**n)
        assert ceiling / 2 <= seconds <= ceiling
    assert len(set(delays)) > len(delays) // 2  # jittered: bots that failed together do not retry together
    assert said == ["the server is not answering ([Errno 111] Connection refused); retrying for up to 10 s"]
    assert client.retries == len(delays)


class Flaky:
    """WSGI middleware: each caller's requests (by token) numbered in ``window`` meet trouble. A third of the reads
    and half of the moves are answered 503 (with Retry-After) unread; the other half of the moves are recorded by
    the API but their answer is lost (a 503 instead), as when a proxy gives up waiting. (Counted per caller: a
    seat whose move waits for its next turn makes no request for a while, and must meet the trouble too.)"""

    def __init__(self, app: Any, window: range) -> None:
        self.app = app
        self.window = window
        self.requests: Counter[str] = Counter()  # per caller
        self.lost_moves = 0
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        with self.lock:
            caller = environ.get("HTTP_AUTHORIZATION", "")
            self.requests[caller] += 1
            number = self.requests[caller]
        post = environ["REQUEST_METHOD"] == "POST"
        if number not in self.window or (not post and number % 3):
            return self.app(environ, start_response)
        if post and number % 2 == 0:
            statuses: list[str] = []
            b"".join(self.app(environ, lambda status, headers, exc_info=None: statuses.append(status)))
            if statuses[0].startswith("200"):
                with self.lock:
                    self.lost_moves += 1
        answer = b'{"error": {"code": "store_unavailable", "message": "the game store is unreachable"}}'
        start_response("503 SERVICE UNAVAILABLE", [("Content-Type", "application/json"), ("Retry-After", "0")])
        return [answer]


def test_bots_play_through_a_503_window_and_finish_without_playing_a_move_twice(service: Digsite) -> None:
    created = new_game(service, players=2, seed="flaky")
    flaky = Flaky(create_app(service=service), window=range(10, 40))
    httpd = make_server("127.0.0.1", 0, flaky, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        seats = clients(f"http://127.0.0.1:{httpd.server_port}", created)
        said: list[str] = []
        errors = in_threads(
            [
                lambda c=c: c.run(poll=0.005, max_poll=0.05, backoff=0.005, max_backoff=0.02, on_trouble=said.append)
                for c in seats
            ]
        )
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()
    assert errors == []
    assert service.game(created["id"])["status"] == "over"
    assert all(c.retries > 0 for c in seats) and len(flaky.requests) == 2 and min(flaky.requests.values()) > 40
    assert any(line.startswith("the server answers again after") for line in said)
    # Moves whose answer was lost were recorded once; the bot read the game again instead of posting them again.
    assert flaky.lost_moves > 0
    assert len(stored_move_seats(service, created["id"])) == sum(c.moves for c in seats) + flaky.lost_moves
    assert audit.verify(service, created["id"]).ok


def test_a_url_that_can_never_work_stops_the_bot_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    for url in ("127.0.0.1:8000", "ftp://127.0.0.1/", "http://", "http://127.0.0.1:99999"):
        with pytest.raises(BadAddress, match="URL"):
            BotClient(url, "game", "token", HeuristicBot())

    def unknown(*args: Any, **kwargs: Any) -> Any:  # no name lookup leaves the machine
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", unknown)
    client = BotClient("http://no-such-host.example:8000", "game", "token", HeuristicBot())
    with pytest.raises(BadAddress, match=r"cannot find the host 'no-such-host\.example'"):
        client.run(sleep=never)


@pytest.mark.parametrize("url", ["localhost:8000", "http://no-such-host.example:8000"])
def test_cli_bot_says_in_one_line_that_the_url_cannot_work(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    def unknown(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", unknown)
    started = time.monotonic()
    result = CliRunner().invoke(main, ["bot", "--url", url, "--game", "g"], env={"DIGSITE_SEAT_TOKEN": "t"})
    assert result.exit_code == 1 and time.monotonic() - started < 5
    (line,) = result.output.splitlines()
    assert line.startswith("Error: ") and ("http(s)://host" in line or "cannot find the host" in line)


def test_cli_bot_stops_at_once_on_a_refused_token_and_warns_about_token_on_the_command_line(
    service: Digsite, server: str, tmp_path: Path
) -> None:
    created = new_game(service, players=2)
    args = ["bot", "--url", server, "--game", created["id"]]
    refused = CliRunner().invoke(main, args, env={"DIGSITE_SEAT_TOKEN": "not-a-seat-token"})
    assert refused.exit_code == 1
    assert refused.output.splitlines() == [
        "Error: the server refused: this seat token does not belong to this game (401 invalid_token)"
    ]
    flagged = CliRunner().invoke(main, [*args, "--token", "not-a-seat-token"], env={"DIGSITE_SEAT_TOKEN": ""})
    assert flagged.exit_code == 1
    assert "warning: --token shows the seat token to every user of this machine" in flagged.stderr
    missing = CliRunner().invoke(main, args, env={"DIGSITE_SEAT_TOKEN": ""})
    assert missing.exit_code == 2 and "no seat token: set DIGSITE_SEAT_TOKEN" in missing.output
    shared = tmp_path / "token"
    shared.write_text("not-a-seat-token\n")
    shared.chmod(0o644)
    from_file = CliRunner().invoke(main, [*args, "--token-file", str(shared)], env={"DIGSITE_SEAT_TOKEN": ""})
    assert from_file.exit_code == 1 and "(401 invalid_token)" in from_file.stderr
    assert f"warning: other users may read the token file {shared}; chmod 600 it" in from_file.stderr
    assert service.game(created["id"])["version"] == created["version"]


def test_parse_tendencies() -> None:
    assert parse_tendencies(["pass_rate=0.6", "lead=big", "torch_rate=0"]) == {
        "pass_rate": 0.6,
        "lead": "big",
        "torch_rate": 0.0,
    }
    with pytest.raises(ValueError, match="key=value"):
        parse_tendencies(["pass_rate"])


@pytest.mark.parametrize("source", ["environment", "file"])
def test_cli_bot_plays_its_seat_and_prints_a_line_per_move(
    service: Digsite, server: str, source: str, tmp_path: Path
) -> None:
    created = new_game(service, players=3, seed="cli")
    others = clients(server, created)[1:]
    result: list[Any] = []
    token = created["tokens"][0]["token"]
    secret = tmp_path / "seat-0.token"
    secret.write_text(token + "\n")
    secret.chmod(0o600)
    token_args = ["--token-file", str(secret)] if source == "file" else []
    env = {"DIGSITE_SEAT_TOKEN": token if source == "environment" else ""}

    def cli_seat() -> None:
        result.append(
            CliRunner().invoke(
                main,
                [
                    *["bot", "--url", server, "--game", created["id"], "--bot", "heuristic"],
                    *["--tendency", "pass_rate=0.6", "--tendency", "lead=big"],
                    *["--poll", "0.01", "--max-poll", "0.05", "--seed", "7", *token_args],
                ],
                env=env,
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


def test_bots_named_by_policy_play_every_seat_of_an_arnak_game_over_http(server: str, service: Digsite) -> None:
    """``digsite bot`` knows the bot's name and tendencies before it knows the game: the client makes the game's
    own bot of that name on its first look, here Arnak's (two seats, each its own client, over HTTP)."""
    seats = [service.create_player(f"Bot {i}", kind="bot") for i in range(2)]
    created = service.create_game("arnak", seats, seed="arnak-http")
    choices = [BotChoice("heuristic", {"tendency": "dig-heavy"}), BotChoice("random", {"pass_weight": 0.2})]
    bots = [
        BotClient(server, created["id"], t["token"], choices[t["seat"]], random.Random(t["seat"]))
        for t in created["tokens"]
    ]
    finals: list[dict[str, Any]] = []
    errors = in_threads([lambda c=c: finals.append(c.run(poll=0.005, max_poll=0.05)) for c in bots])
    assert errors == []
    assert all(f["status"] == "over" and f["kind"] == "arnak" for f in finals)
    assert [type(c.bot).__name__ for c in bots] == ["HeuristicBot", "RandomBot"]
    assert sum(c.moves for c in bots) == len(stored_move_seats(service, created["id"])) > 0


class Counting:
    """WSGI middleware counting requests by method, route and status; with ``push=False`` the push channel answers
    404 ``not_found`` as on a server that has none."""

    def __init__(self, app: Any, push: bool = True) -> None:
        self.app, self.push = app, push
        self.seen: Counter[tuple[str, str, str]] = Counter()
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        path = environ["PATH_INFO"]
        route = "updates" if path.endswith("/updates") else "actions" if path.endswith("/actions") else "game"

        def counted(status: str, headers: Any, exc_info: Any = None) -> Any:
            with self.lock:
                self.seen[(environ["REQUEST_METHOD"], route, status.split()[0])] += 1
            return start_response(status, headers, exc_info)

        if route == "updates" and not self.push:
            counted("404 NOT FOUND", [("Content-Type", "application/json")])
            return [b'{"error": {"code": "not_found", "message": "no such route"}}']
        if route == "actions" and not self.push:
            environ = {**environ, "QUERY_STRING": ""}  # (such a server ignored a wait on a move: no `next`)
        return self.app(environ, counted)


@pytest.mark.parametrize("push", [True, False])
def test_bots_wait_on_the_push_channel_or_poll_conditionally_where_there_is_none(service: Digsite, push: bool) -> None:
    created = new_game(service, players=3, seed=f"push-{push}")
    counting = Counting(create_app(service=service), push=push)
    httpd = make_server("127.0.0.1", 0, counting, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    slept: list[float] = []
    try:
        seats = clients(f"http://127.0.0.1:{httpd.server_port}", created)

        def sleep(seconds: float) -> None:
            slept.append(seconds)
            time.sleep(seconds)

        errors = in_threads([lambda c=c: c.run(poll=0.005, max_poll=0.02, sleep=sleep) for c in seats])
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()
    assert errors == [] and service.game(created["id"])["status"] == "over"
    seen = counting.seen
    moves = sum(c.moves for c in seats)
    assert seen[("POST", "actions", "200")] == moves
    if push:
        # Each seat's move waits on the channel and is answered when the seat is to act again, with its next
        # turn: about one request a move, few separate waits, few reads.
        assert all(c.push for c in seats)
        assert sum(seen.values()) < 1.5 * moves  # (two requests a move before moves waited for the next turn)
        assert seen[("GET", "game", "200")] + seen[("GET", "game", "304")] < moves / 2
        assert len(slept) < moves / 2  # (a seat to act with nothing to do yet looks again after a pause)
    else:
        # Each seat found out once that there is no channel, then polled: unchanged games came back as 304s.
        assert not any(c.push for c in seats) and seen[("GET", "updates", "404")] == len(seats)
        assert seen[("GET", "game", "304")] > 0 and len(slept) > moves


def test_the_search_bot_plays_its_seat_over_http_from_the_api_s_view(server: str, service: Digsite) -> None:
    """The search bot draws its states from the view the API gives the seat (JSON), nothing else."""
    seats = [service.create_player(f"Searcher {i}", kind="bot") for i in range(2)]
    created = service.create_game("ruins", seats, seed="search-http")
    choices = [BotChoice("search", {"budget": 2.0}), BotChoice("heuristic", {})]
    bots = [
        BotClient(server, created["id"], t["token"], choices[t["seat"]], random.Random(t["seat"]))
        for t in created["tokens"]
    ]
    finals: list[dict[str, Any]] = []
    errors = in_threads([lambda c=c: finals.append(c.run(poll=0.005, max_poll=0.05)) for c in bots])
    assert errors == []
    assert all(f["status"] == "over" for f in finals)
    assert [type(c.bot).__name__ for c in bots] == ["SearchBot", "HeuristicBot"]
    assert bots[0].moves > 0


class SeatTrouble:
    """WSGI middleware, for one seat's token: its waits on the channel numbered in ``busy_waits`` are answered 503
    ``server_busy`` with ``Retry-After: 3`` (nothing done), and the streamed answer of its move numbered ``cut`` is
    cut off after its first line (the acknowledgement), as a lost connection would. What it answered is noted."""

    def __init__(self, app: Any, token: str, busy_waits: set[int], cut: int) -> None:
        self.app, self.token, self.busy_waits, self.cut = app, f"Bearer {token}", busy_waits, cut
        self.waits = self.moves = 0
        self.busy: list[tuple[float, float]] = []  # (when answered, the Retry-After asked)
        self.cut_after: list[dict[str, Any]] = []  # the acknowledgements sent before a cut
        self.arrivals: list[float] = []  # when each of the seat's requests came

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("HTTP_AUTHORIZATION") != self.token:
            return self.app(environ, start_response)
        self.arrivals.append(time.monotonic())
        if environ["PATH_INFO"].endswith("/updates"):
            self.waits += 1
            if self.waits in self.busy_waits:
                start_response("503 SERVICE UNAVAILABLE", [("Content-Type", "application/json"), ("Retry-After", "3")])
                self.busy.append((time.monotonic(), 3.0))
                return [b'{"error": {"code": "server_busy", "message": "too many waits held; ask again later"}}']
        elif environ["REQUEST_METHOD"] == "POST":
            self.moves += 1
            if self.moves == self.cut:
                return self._cut_after_first_line(self.app(environ, start_response))
        return self.app(environ, start_response)

    def _cut_after_first_line(self, answer: Any) -> Iterator[bytes]:
        lines = iter(answer)
        first = next(lines)
        self.cut_after.append(json.loads(first))
        yield first
        raise ConnectionResetError("the connection was lost after the acknowledgement")  # (the server drops it)


def test_a_bot_honours_every_busy_answer_and_keeps_a_move_acknowledged_before_its_connection_was_lost(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Busy answers are not trouble: a wait refused 503 with ``Retry-After`` (longer than the bot's own backoff),
    and a move whose wait failed once the move landed (its streamed answer's second line says when to ask again),
    are each asked again no sooner than the server said, and the bot says nothing of trouble. A move whose answer
    was cut off after its acknowledgement stands: the bot asks the channel, and never posts it again."""
    created = new_game(service, players=2, seed="busy")
    me, other = clients("http://placeholder", created)
    trouble = SeatTrouble(create_app(service=service), me.token, busy_waits={1, 2}, cut=4)
    real, posted_waits, failed = push.updates, [0], []

    def updates(service: Digsite, game_id: str, viewer: Viewer, *args: Any, **kwargs: Any) -> Any:
        if viewer.seat == 0 and "mark" in kwargs:  # (a move's own wait: POST /actions?wait)
            posted_waits[0] += 1
            if posted_waits[0] == 2:
                failed.append((time.monotonic(), 2.0))  # (a 503's Retry-After: 2 s)
                raise Unavailable("the server is holding as many waits as it may", "server_busy")
        return real(service, game_id, viewer, *args, **kwargs)

    monkeypatch.setattr(push, "updates", updates)
    httpd = make_server("127.0.0.1", 0, trouble, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    slept: list[tuple[float, float]] = []
    said: list[str] = []

    def sleep(seconds: float) -> None:
        slept.append((time.monotonic(), seconds))
        time.sleep(min(seconds, 0.01))  # (what is asked is checked, not waited for)

    try:
        for bot in (me, other):
            bot.base = f"http://127.0.0.1:{httpd.server_port}"
        errors = in_threads(
            [
                lambda: me.run(
                    poll=0.005, max_poll=0.02, backoff=0.005, max_backoff=0.02, sleep=sleep, on_trouble=said.append
                ),
                lambda: other.run(poll=0.005, max_poll=0.02),
            ]
        )
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()
    assert errors == [] and service.game(created["id"])["status"] == "over"
    assert len(trouble.busy) == 2 and len(failed) == 1 and len(trouble.cut_after) == 1
    for answered, retry_after in trouble.busy + failed:
        following = min(at for at in trouble.arrivals if at > answered)  # the seat's next request
        asked = [seconds for at, seconds in slept if answered < at < following]
        assert asked and max(asked) >= retry_after, (retry_after, asked)  # (the bot slept that long before it)
    assert said == [] and me.retries == 0  # busy is not trouble
    # The move cut off after its acknowledgement was recorded once, and the bot played on from there.
    assert trouble.cut_after[0]["version"] in [r["version"] for r in service.stored_records(created["id"])]
    assert stored_move_seats(service, created["id"]).count(0) == me.moves
