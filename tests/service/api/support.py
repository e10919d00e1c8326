"""Helpers shared by the API tests: auth headers, setting up players and games over HTTP."""

from __future__ import annotations

import hashlib
from typing import Any

from flask.testing import FlaskClient

ORGANISER_KEY = "organiser-key"  # the key of the ``service`` fixture (tests/service/conftest.py)
NAMES = ("Ana", "Beto", "Carla", "Diego", "Elif", "Farid")


def strong_seed(label: str) -> str:
    """A seed of the form the API accepts (32 hex digits), deterministic in ``label``."""
    return hashlib.sha256(label.encode()).hexdigest()[:32]


def organiser() -> dict[str, str]:
    return {"Authorization": f"Bearer {ORGANISER_KEY}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ok(response: Any, status: int = 200) -> Any:
    """The JSON of a response that must have ``status`` (the error body is shown if not)."""
    assert response.status_code == status, (response.status_code, response.get_json())
    return response.get_json()


def new_players(client: FlaskClient, count: int) -> list[str]:
    return [ok(client.post("/api/v1/players", json={"name": n}, headers=organiser()), 201)["id"] for n in NAMES[:count]]


def new_game(client: FlaskClient, players: int = 3, **fields: Any) -> dict[str, Any]:
    """Create a game over HTTP; returns the answer (id, version, seed_commitment, tokens)."""
    body = {"game": "ruins", "seats": new_players(client, players), **fields}
    return ok(client.post("/api/v1/games", json=body, headers=organiser()), 201)  # type: ignore[no-any-return]


def seat_headers(created: dict[str, Any], seat: int) -> dict[str, str]:
    return bearer(created["tokens"][seat]["token"])


def look(client: FlaskClient, game_id: str, headers: dict[str, str], **query: Any) -> dict[str, Any]:
    return ok(client.get(f"/api/v1/games/{game_id}", headers=headers, query_string=query))  # type: ignore[no-any-return]


def act(client: FlaskClient, game_id: str, headers: dict[str, str], version: int, action: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/games/{game_id}/actions", json={"version": version, "action": action}, headers=headers)


def project(service: Any) -> None:
    """Bring the read models up to date (the lists and the standings read them)."""
    from service import bootstrap

    follower = bootstrap.follower(service.settings)
    try:
        follower.catch_up()
    finally:
        follower.close()
