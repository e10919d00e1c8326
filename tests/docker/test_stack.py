"""The images built and the compose stack run for real: up on ports of its own, a whole game played through the
API by bots holding the seats' tokens, the game seen on the dashboard, `digsite verify` passing inside the stack,
a dask worker running Digsite's code on the same store, and everything taken down again.

Needs a Docker daemon (and, for the Debian base image, root and debootstrap): skipped without one, a failure
in CI (DIGSITE_REQUIRE_DOCKER=1, set by .ci/run). See tests/docker/stack.py and docker/README.md."""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from domain.ruins.bots import HeuristicBot, RandomBot
from service.bots.seat_client import BotClient
from tests.docker.stack import (
    Images,
    Stack,
    build_images,
    compose_cli,
    get,
    leftovers,
    quiet,
    running_stack,
    send,
)
from tests.service.api.polls import Polls, room_for_files

PLAYERS = ("Docker Ada", "Docker Basil", "Docker Cleo")
BURST_SECONDS = 60  # the longest a request may take while the workers take in 1,500 waits on a loaded machine
MOVE_LOOKS = 10_000  # bounded: a three-seat game is a few hundred moves

# Run by the scheduler's container: a task on the worker that opens the store the stack shares and reads the game.
ON_A_WORKER = """
import sys
from distributed import Client

def status(game_id):
    from service import bootstrap
    service = bootstrap.build()
    try:
        return service.game(game_id)["status"]
    finally:
        service.close()

with Client(sys.argv[2], timeout=60) as client:
    client.wait_for_workers(1, timeout=120)
    workers = list(client.scheduler_info()["workers"])
    print(client.submit(status, sys.argv[1], pure=False).result(timeout=120), len(workers))
"""


def organiser(stack: Stack) -> dict[str, str]:
    return {"Authorization": f"Bearer {stack.api_key}"}


def play_a_game(stack: Stack) -> dict[str, Any]:
    """Players and a Ruins game made with the organisers' key, then every seat played over HTTP with its token."""
    seats = []
    for name in PLAYERS:
        status, body = send(f"{stack.api}/players", {"name": name, "kind": "bot"}, organiser(stack))
        assert status == 201, body
        seats.append(body["id"])
    status, created = send(f"{stack.api}/games", {"game": "ruins", "seats": seats}, organiser(stack))
    assert status == 201, created
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(pass_rate=0.5)]
    clients = [
        BotClient(stack.server, created["id"], t["token"], bots[t["seat"]], random.Random(t["seat"]))
        for t in created["tokens"]
    ]
    for _ in range(MOVE_LOOKS):
        steps = [client.step() for client in clients]
        if all(step.kind == "over" for step in steps):
            break
    assert all(step.kind == "over" for step in steps), "the game did not end within the bound"
    assert sum(client.moves for client in clients) > 0
    status, final = get(f"{stack.api}/games/{created['id']}", headers=organiser(stack))
    assert status == 200, final
    game = json.loads(final)
    assert game["status"] == "over" and game["version"] == sum(c.moves for c in clients) + 2
    return {"id": created["id"], "moves": sum(c.moves for c in clients)}


def dash_callback(stack: Stack, outputs: list[tuple[str, str]], inputs: list[tuple[str, str, Any]], state: Any) -> Any:
    """One Dash callback, posted as the dashboard's page posts it (from its own origin)."""
    body = {
        "output": ".." + "...".join(f"{i}.{p}" for i, p in outputs) + "..",
        "outputs": [{"id": i, "property": p} for i, p in outputs],
        "inputs": [{"id": i, "property": p, "value": v} for i, p, v in inputs],
        "state": [{"id": i, "property": p, "value": v} for i, p, v in state],
        "changedPropIds": [f"{i}.{p}" for i, p, _ in inputs[:1]],
    }
    return send(f"{stack.dashboard}/_dash-update-component", body, {"Origin": stack.dashboard})


def games_list_names(stack: Stack, game_id: str) -> bool:
    """The dashboard's games list, as a spectator sees it (finished games are public), names the game."""
    from tests.dashboard.client import GAME_INPUTS, GAME_OUTPUTS

    inputs: list[tuple[str, str, Any]] = [(f, "value", None) for f in GAME_INPUTS]
    inputs += [("games-dates", "start_date", None), ("games-dates", "end_date", None)]
    inputs += [("games-prev", "n_clicks", None), ("games-next", "n_clicks", None)]
    status, body = dash_callback(stack, GAME_OUTPUTS, inputs, [("games-offset", "data", 0)])
    assert status == 200, body
    listed = json.dumps(body["response"]["games-results"])
    return f"/replay/{game_id}" in listed and all(name in listed for name in PLAYERS)


def wait_for(check: Any, what: str, stack: Stack, seconds: float = 120) -> None:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    raise AssertionError(f"{what} not seen within {seconds:.0f} s\n{stack.logs()}")


def holds_the_waits_it_is_sized_for(stack: Stack) -> None:
    """The API holds three quarters of the waits compose sizes it for (two workers of DIGSITE_PUSH_MAX_WAITING, by
    default 1,000 each: service/gunicorn_conf.py), none refused (the kernel spreads them over the workers unevenly,
    a few percent at most at this count), and still answers a health check and a move on new connections; a move in
    their game then wakes them all. Before, with -w 4 --threads 4, each worker held two."""
    held = 1500
    room_for_files(held + 200)
    seats = []
    for name in ("Docker Wanda", "Docker Walt"):
        status, body = send(f"{stack.api}/players", {"name": name, "kind": "bot"}, organiser(stack))
        assert status == 201, body
        seats.append(body["id"])
    status, created = send(f"{stack.api}/games", {"game": "ruins", "seats": seats}, organiser(stack))
    assert status == 201, created
    polls = Polls(stack.ports["api"], f"/games/{created['id']}/updates?after=1&wait=55", stack.api_key, held)
    # Asked while the workers take in the burst. A health check is slow on a machine this loaded (seconds, while a
    # worker's hundreds of threads share one interpreter) but must not call the store down: before, a fresh
    # connection for its probe ran out of time and it answered 503 'unreachable' (service/store/pgrecorder.py). The
    # generous timeouts let a slow answer count; its time is printed, not asserted.
    started = time.monotonic()
    status, health = get(f"{stack.api}/health", timeout=BURST_SECONDS)
    assert status == 200, f"{health}\n{stack.logs()}"
    health_seconds = time.monotonic() - started
    flip = {"type": "flip", "seat": 0, "ruin": None}
    token = {"Authorization": f"Bearer {created['tokens'][0]['token']}"}
    started = time.monotonic()
    url = f"{stack.api}/games/{created['id']}/actions"
    status, moved = send(url, {"version": 1, "action": flip}, token, timeout=BURST_SECONDS)
    assert status == 200, moved
    move_seconds = time.monotonic() - started
    answers = [polls.answers.get(timeout=120) for _ in range(held)]
    refused = [a for a in answers if a[0] != 200 or not a[2]["ready"]]
    assert not refused, f"{len(refused)} of {held} waits not held, e.g. {refused[:3]}\n{stack.logs()}"
    print(f"{held} waits: health {health_seconds:.2f} s, move {move_seconds:.2f} s during the burst", file=sys.stderr)


def check_stack(stack: Stack) -> None:
    game = play_a_game(stack)
    holds_the_waits_it_is_sized_for(stack)

    # The dashboard: the projections catch up, then its games list names the game and its replay answers.
    wait_for(lambda: games_list_names(stack, game["id"]), "the game on the dashboard's games list", stack)
    status, body = get(f"{stack.dashboard}/replay-frames/{game['id']}?part=0&moves=1")
    assert status == 200, body[:500]
    replay = json.loads(body)
    assert len(replay["moves"]) >= min(game["moves"], 1) and replay["frames"]

    # `digsite verify` inside the stack, on the stack's store: the game, then the whole store.
    for words in ([game["id"]], ["--all"]):
        verified = stack.exec("api", "digsite", "verify", *words)
        assert verified.returncode == 0, f"digsite verify {' '.join(words)}:\n{verified.stdout}\n{verified.stderr}"
        assert game["id"] in verified.stdout or "--all" in words, verified.stdout

    # The distributed engine: a worker registered with the scheduler runs Digsite's code on the same store.
    address = f"tcp://127.0.0.1:{stack.ports['dask']}"
    ran = stack.exec("dask-scheduler", "python", "-c", ON_A_WORKER, game["id"], address)
    assert ran.returncode == 0, f"{ran.stdout}\n{ran.stderr}"
    status_on_worker, workers = ran.stdout.split()[-2:]
    assert status_on_worker == "over" and int(workers) >= 1, ran.stdout


def test_the_stack_plays_a_game_shows_it_verifies_it_and_goes_away(docker: str) -> None:
    compose = compose_cli(docker)
    images: Images = build_images(docker)
    # The image runs as its own user, and pip's certificate bundle (a build secret) left nothing behind.
    inside = quiet(
        [
            docker,
            "run",
            "--rm",
            "--network",
            "none",
            "--entrypoint",
            "sh",
            images.app,
            "-c",
            "id -u; find / -xdev -name pip_cert 2>/dev/null | wc -l",
        ]
    )
    assert inside.returncode == 0 and inside.stdout.split() == ["10001", "0"], inside.stdout + inside.stderr
    with running_stack(images, compose) as stack:
        check_stack(stack)
        project = stack.project
    assert leftovers(docker, project) == [], "containers or volumes left behind"
    print(
        f"images {images.seconds:.1f} s, up {stack.timings['up']:.1f} s, down {stack.timings['down']:.1f} s",
        file=sys.stderr,
    )
