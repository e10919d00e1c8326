"""The API's read routes read through the read port (``service.reading.read_port``: the store's reader and the read
models), never through the command side: with the service's commands out of reach they answer as before, and a
move does not."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.commands.application import Digsite
from tests.service.api.support import act, new_players, ok, organiser, project, seat_headers


class CommandsOutOfReach(SimpleNamespace):
    """The service as a read route may see it: its settings (the organisers' key), nothing else."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a read route reached the command side: Digsite.{name}")


def test_every_read_route_answers_without_the_command_side(app: Flask, client: FlaskClient, service: Digsite) -> None:
    seats = new_players(client, 2)
    cup = ok(
        client.post("/api/v1/tournaments", json={"name": "Cup", "rounds": 1, "game": "ruins"}, headers=organiser()), 201
    )
    game = ok(
        client.post(
            "/api/v1/games",
            json={"game": "ruins", "seats": seats, "tournament": cup["id"], "round": 1, "table": 1},
            headers=organiser(),
        ),
        201,
    )
    seat = seat_headers(game, 0)
    ok(act(client, game["id"], seat, 1, {"type": "flip", "seat": 0, "ruin": None}))
    project(service)
    gid = game["id"]
    reads: list[tuple[str, dict[str, str]]] = [
        ("/api/v1/games", organiser()),
        (f"/api/v1/games/{gid}", organiser()),
        (f"/api/v1/games/{gid}", seat),
        (f"/api/v1/games/{gid}?version=1", seat),
        (f"/api/v1/games/{gid}/log", seat),
        (f"/api/v1/games/{gid}/log?after=1", organiser()),
        ("/api/v1/players", organiser()),
        (f"/api/v1/players/{seats[0]}", organiser()),
        ("/api/v1/leaderboards/ruins", organiser()),
        ("/api/v1/tournaments", {}),
        (f"/api/v1/tournaments/{cup['id']}", {}),
        (f"/api/v1/tournaments/{cup['id']}/standings", organiser()),
        (f"/api/v1/tournaments/{cup['id']}/standings?format=csv", {}),
    ]
    before = {(path, str(headers)): client.get(path, headers=headers) for path, headers in reads}
    tagged = client.get(f"/api/v1/games/{gid}", headers=seat)

    app.extensions["digsite"] = CommandsOutOfReach(settings=service.settings)
    for path, headers in reads:
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, (path, answer.get_data(as_text=True))
        assert answer.get_data() == before[(path, str(headers))].get_data(), path
    unchanged = client.get(f"/api/v1/games/{gid}", headers={**seat, "If-None-Match": tagged.headers["ETag"]})
    assert unchanged.status_code == 304
    refused = client.get(f"/api/v1/games/{gid}", headers={"Authorization": "Bearer not-a-token"})
    assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "invalid_token"

    # (the stand-in does refuse the command side: a move needs it)
    moved = act(client, gid, seat_headers(game, 1), 2, {"type": "flip", "seat": 1, "ruin": None})
    assert moved.status_code == 500
