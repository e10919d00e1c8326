"""Every refused request gets the right 4xx status and code as JSON, and changes nothing: the game's stream
is as it was and nothing at all was stored (the store's last notification id did not move)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.persistence import OperationalError
from flask.testing import FlaskClient

from service.api import create_app
from service.commands.application import Digsite
from service.settings import Settings
from tests.service.api.support import act, bearer, new_game, new_players, ok, organiser, seat_headers, strong_seed


@dataclass(frozen=True)
class Table:
    """A game in its round-1 flip phase, at version 2 (seat 2 has chosen), and what the cases need."""

    game: str
    other_game: str
    tokens: list[str]
    other_token: str
    hand: list[int]  # seat 0's hand
    not_in_hand: int
    players: list[str]
    tournament: str

    def path(self, template: str) -> str:
        return template.format(game=self.game, other_game=self.other_game, player=self.players[0], random=uuid4())


@pytest.fixture
def table(client: FlaskClient) -> Table:
    created = new_game(client, players=3, seed=strong_seed("refusals"))
    other = new_game(client, players=2)
    ok(act(client, created["id"], seat_headers(created, 2), 1, {"type": "flip", "seat": 2, "ruin": None}))
    hands = ok(client.get(f"/api/v1/games/{created['id']}", headers=organiser()))["view"]["hands"]
    tournament = ok(
        client.post("/api/v1/tournaments", json={"name": "Cup", "rounds": 2, "game": "ruins"}, headers=organiser()), 201
    )
    return Table(
        game=created["id"],
        other_game=other["id"],
        tokens=[t["token"] for t in created["tokens"]],
        other_token=other["tokens"][0]["token"],
        hand=hands[0]["ruins"],
        not_in_hand=hands[1]["ruins"][0],
        players=new_players(client, 6),
        tournament=tournament["id"],
    )


@dataclass(frozen=True)
class Case:
    id: str
    status: int
    code: str
    method: str = "POST"
    path: str = "/api/v1/games/{game}/actions"
    auth: str = "seat0"  # seat0 | seat1 | organiser | none | other_game | a literal Authorization header
    body: Any = None  # a JSON value, raw bytes, or a function of the Table giving either
    content_type: str = "application/json"


def flip(seat: int = 0, ruin: Any = None, version: Any = 2) -> Callable[[Table], Any]:
    return lambda t: {"version": version, "action": {"type": "flip", "seat": seat, "ruin": ruin}}


def move(action: Any, version: Any = 2) -> dict[str, Any]:
    return {"version": version, "action": action}


def game_body(**fields: Any) -> Callable[[Table], Any]:
    return lambda t: {"game": "ruins", "seats": t.players[:3], **fields}


MOVES = [
    Case("bad JSON", 400, "malformed_request", body=b'{"version": 2, "action": '),
    Case("empty body", 400, "malformed_request", body=b""),
    Case("not UTF-8", 400, "malformed_request", body=b'{"version": 2, "action": {"type": "\xff"}}'),
    Case("NaN", 400, "malformed_request", body=b'{"version": NaN, "action": {"type": "pass", "seat": 0}}'),
    Case("overflowing float", 400, "malformed_request", body=b'{"version": 1e999, "action": {}}'),
    Case("repeated key", 400, "malformed_request", body=b'{"version": 2, "version": 2, "action": {}}'),
    Case("lone surrogate", 400, "invalid_text", body=b'{"version": 2, "action": {"type": "\\ud800"}}'),
    Case("NUL in the action", 400, "invalid_text", body=b'{"version": 2, "action": {"type": "fl\\u0000ip"}}'),
    Case("deep nesting", 400, "malformed_request", body=b"[" * 30_000 + b"]" * 30_000),
    # (read as JSON, but deeper than the schema validator goes)
    Case(
        "deep nesting, readable",
        400,
        "malformed_request",
        body=b'{"version": 2, "action": ' + b"[[" * 300 + b"]]" * 300 + b"}",
    ),
    Case("5000-digit number", 400, "malformed_request", body=b'{"version": ' + b"9" * 5000 + b', "action": {}}'),
    Case("body too large", 413, "payload_too_large", body=b'{"pad": "' + b"x" * 70_000 + b'"}'),
    Case("not JSON content", 415, "unsupported_media_type", body=b"version=2", content_type="text/plain"),
    Case("body is a list", 400, "malformed_request", body=[2, {"type": "pass", "seat": 0}]),
    Case("unknown field", 400, "malformed_request", body=lambda t: {**flip()(t), "urgent": True}),
    Case("missing action", 400, "malformed_request", body={"version": 2}),
    Case("missing version", 400, "malformed_request", body={"action": {"type": "flip", "seat": 0, "ruin": None}}),
    Case("version as string", 400, "malformed_request", body=flip(version="2")),
    Case("version as bool", 400, "malformed_request", body=flip(version=True)),
    Case("version as fraction", 400, "malformed_request", body=flip(version=2.5)),
    Case("huge version", 400, "malformed_request", body=flip(version=10**30)),
    Case("negative version", 400, "malformed_request", body=flip(version=-2)),
    Case("version zero", 400, "malformed_request", body=flip(version=0)),
    Case("action as string", 400, "malformed_action", body=move("0 flip -")),
    Case("action of no form", 400, "malformed_action", body=move({"seat": 0})),
    Case("action with a float seat", 400, "malformed_action", body=flip(seat=0.5)),
    Case("unknown action type", 400, "malformed_action", body=move({"type": "steal", "seat": 0})),
    Case("unknown action field", 400, "malformed_action", body=move({"type": "pass", "seat": 0, "twice": 1})),
    Case("seat as bool", 400, "malformed_action", body=move({"type": "flip", "seat": False, "ruin": None})),
    Case("ruins not a list", 400, "malformed_action", body=move({"type": "play", "seat": 0, "ruins": 3, "rank": 1})),
    Case("huge ruin", 422, "rule_violation", body=flip(ruin=10**30)),
    Case("negative ruin", 422, "rule_violation", body=flip(ruin=-1)),
    Case("ruin not in hand", 422, "rule_violation", body=lambda t: flip(ruin=t.not_in_hand)(t)),
    Case("second flip", 422, "rule_violation", auth="seat2", body=flip(seat=2)),
    Case("out of turn", 403, "not_your_turn", body=move({"type": "pass", "seat": 0})),
    Case("huge seat", 403, "not_your_seat", body=flip(seat=10**30)),
    Case("wrong seat", 403, "not_your_seat", body=flip(seat=1)),
    # (seat 0 on version 1 stands: only seat 2's secret flip came since; seat 2's own flip makes its version 1 stale)
    Case("stale version", 409, "stale_version", auth="seat2", body=flip(seat=2, version=1)),
    Case("future version", 409, "stale_version", body=flip(version=3)),
    Case("organiser key used to move", 403, "seat_token_required", auth="organiser", body=flip()),
    Case("no token", 401, "missing_token", auth="none", body=flip()),
    Case("basic auth", 401, "missing_token", auth="Basic b3JnOmtleQ==", body=flip()),
    Case("bad token", 401, "invalid_token", auth="Bearer not-a-seat-token", body=flip()),
    Case("very long token", 401, "invalid_token", auth="Bearer " + "x" * 5000, body=flip()),
    Case("non-ASCII token", 401, "invalid_token", auth="Bearer sécret", body=flip()),
    Case("another game's token", 401, "invalid_token", auth="other_game", body=flip()),
    Case("unknown game", 404, "unknown_game", path="/api/v1/games/{random}/actions", body=flip()),
    Case("malformed game id", 404, "unknown_game", path="/api/v1/games/not-a-uuid/actions", body=flip()),
    Case("wrong method", 405, "method_not_allowed", method="GET"),
]

READS = [
    Case("version not a number", 400, "malformed_request", "GET", "/api/v1/games/{game}?version=abc"),
    Case("negative version", 400, "malformed_request", "GET", "/api/v1/games/{game}?version=-1"),
    Case("huge version", 400, "malformed_request", "GET", "/api/v1/games/{game}?version=" + "9" * 40),
    Case("version past the end", 404, "unknown_version", "GET", "/api/v1/games/{game}?version=3"),
    Case("version twice", 400, "malformed_request", "GET", "/api/v1/games/{game}?version=1&version=2"),
    Case("unknown parameter", 400, "malformed_request", "GET", "/api/v1/games/{game}?verbose=1"),
    Case("no token", 401, "missing_token", "GET", "/api/v1/games/{game}", auth="none"),
    Case("bad token", 401, "invalid_token", "GET", "/api/v1/games/{game}/log", auth="Bearer nope"),
    Case("limit zero", 400, "malformed_request", "GET", "/api/v1/games/{game}/log?limit=0"),
    Case("limit too big", 400, "malformed_request", "GET", "/api/v1/games/{game}/log?limit=1001"),
    Case("negative after", 400, "malformed_request", "GET", "/api/v1/games/{game}/log?after=-1"),
    Case("after as float", 400, "malformed_request", "GET", "/api/v1/games/{game}/log?after=1.5"),
    Case("unknown game", 404, "unknown_game", "GET", "/api/v1/games/{random}", auth="organiser"),
    Case("malformed game id", 404, "unknown_game", "GET", "/api/v1/games/12345/log", auth="organiser"),
    Case("unknown player", 404, "unknown_player", "GET", "/api/v1/players/{random}", auth="organiser"),
    Case("a game is no player", 404, "unknown_player", "GET", "/api/v1/players/{game}", auth="organiser"),
    Case("player without key", 401, "missing_token", "GET", "/api/v1/players/{player}", auth="none"),
    Case("player with seat token", 401, "invalid_api_key", "GET", "/api/v1/players/{player}"),
    Case("unknown tournament", 404, "unknown_tournament", "GET", "/api/v1/tournaments/{random}", auth="none"),
    Case("unknown route", 404, "not_found", "GET", "/api/v1/nothing-here"),
    Case("outside the API", 404, "not_found", "GET", "/"),
    Case("delete a game", 405, "method_not_allowed", "DELETE", "/api/v1/games/{game}", auth="organiser"),
]


def text_cases() -> list[Case]:
    """Text that may not be stored, in every free-text field a create request stores (all 400 invalid_text)."""
    bad = {
        "NUL": "a\x00b",
        "tab": "a\tb",
        "line break": "a\nb",
        "DEL": "a\x7fb",
        "C1 control": "a\x85b",
        "lone surrogate": "a\ud800b",
        "non-character": "a\ufffeb",
        "astral non-character": "a\U0010ffffb",
    }
    where: dict[str, tuple[str, Callable[[str], Callable[[Table], Any]]]] = {
        "player name": ("/api/v1/players", lambda text: lambda t: {"name": text}),
        "bot setting": ("/api/v1/players", lambda text: lambda t: {"name": "Zoe", "kind": "bot", "bot": {"s": text}}),
        "bot setting name": (
            "/api/v1/players",
            lambda text: lambda t: {"name": "Zoe", "kind": "bot", "bot": {"s" + text: 1}},
        ),
        "tournament name": ("/api/v1/tournaments", lambda text: lambda t: {"name": text, "rounds": 2, "game": "ruins"}),
        "game option": ("/api/v1/games", lambda text: game_body(options={"speed": text})),
        "seed": ("/api/v1/games", lambda text: game_body(seed="0" * 32 + text)),
    }
    cases = []
    for field_name, (path, body) in where.items():
        for what, text in bad.items():
            if field_name != "player name" and what not in ("NUL", "lone surrogate"):
                continue  # every kind of bad text in one field; the two worst in every other field
            cases.append(
                Case(f"{field_name} with {what}", 400, "invalid_text", path=path, auth="organiser", body=body(text))
            )
    return cases


def weak_seed_cases() -> list[Case]:
    seeds = {"4711": "4711", "31 hex digits": "a" * 31, "129 hex digits": "a" * 129, "not hex": "g" * 32}
    return [
        Case(f"game: seed {what}", 400, "weak_seed", path="/api/v1/games", auth="organiser", body=game_body(seed=seed))
        for what, seed in seeds.items()
    ]


CREATES = [
    *text_cases(),
    *weak_seed_cases(),
    Case("player: seat token", 401, "invalid_api_key", path="/api/v1/players", body={"name": "Zoe"}),
    Case("player: no name", 400, "malformed_request", path="/api/v1/players", auth="organiser", body={}),
    Case("player: name not text", 400, "malformed_request", path="/api/v1/players", auth="organiser", body={"name": 5}),
    Case("player: blank name", 400, "invalid_player", path="/api/v1/players", auth="organiser", body={"name": "  "}),
    Case(
        "player: long name",
        400,
        "malformed_request",
        path="/api/v1/players",
        auth="organiser",
        body={"name": "x" * 101},
    ),
    Case(
        "player: unknown kind",
        400,
        "malformed_request",
        path="/api/v1/players",
        auth="organiser",
        body={"name": "Zoe", "kind": "robot"},
    ),
    Case(
        "player: nested bot",
        400,
        "malformed_request",
        path="/api/v1/players",
        auth="organiser",
        body={"name": "Zoe", "kind": "bot", "bot": {"tendencies": {"pass_rate": 1}}},
    ),
    Case(
        "player: reserved bot key",
        400,
        "malformed_request",
        path="/api/v1/players",
        auth="organiser",
        body={"name": "Zoe", "kind": "bot", "bot": {"_type_": "uuid_hex", "_data_": "zz"}},
    ),
    Case(
        "tournament: rounds as bool",
        400,
        "malformed_request",
        path="/api/v1/tournaments",
        auth="organiser",
        body={"name": "Cup", "rounds": True},
    ),
    Case(
        "tournament: no rounds",
        400,
        "malformed_request",
        path="/api/v1/tournaments",
        auth="organiser",
        body={"name": "Cup", "rounds": 0},
    ),
    Case(
        "tournament: huge rounds",
        400,
        "malformed_request",
        path="/api/v1/tournaments",
        auth="organiser",
        body={"name": "Cup", "rounds": 10**20},
    ),
    Case(
        "tournament: rounds as text",
        400,
        "malformed_request",
        path="/api/v1/tournaments",
        auth="organiser",
        body={"name": "Cup", "rounds": "3"},
    ),
    Case(
        "tournament: no game (there is no default game)",
        400,
        "malformed_request",
        path="/api/v1/tournaments",
        auth="organiser",
        body={"name": "Cup", "rounds": 3},
    ),
    Case(
        "tournament: unknown game",
        400,
        "malformed_request",
        path="/api/v1/tournaments",
        auth="organiser",
        body={"name": "Cup", "rounds": 3, "game": "chess"},
    ),
    Case("game: seat token", 401, "invalid_api_key", path="/api/v1/games", body=game_body()),
    Case("game: no key", 401, "missing_token", path="/api/v1/games", auth="none", body=game_body()),
    Case(
        "game: unknown field",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(private=True),
    ),
    Case(
        "game: unknown game",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(game="chess"),
    ),
    Case("game: no seats", 400, "malformed_request", path="/api/v1/games", auth="organiser", body={"game": "ruins"}),
    Case(
        "game: seats not a list",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=lambda t: {"game": "ruins", "seats": t.players[0]},
    ),
    Case(
        "game: malformed player id",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body={"game": "ruins", "seats": ["ana", "beto"]},
    ),
    Case(
        "game: unknown player",
        404,
        "unknown_player",
        path="/api/v1/games",
        auth="organiser",
        body=lambda t: {"game": "ruins", "seats": [*t.players[:2], str(uuid4())]},
    ),
    Case(
        "game: one seat (each game has its own seat range: Ruins seats 2 to 5, solo Arnak 1)",
        400,
        "invalid_setup",
        path="/api/v1/games",
        auth="organiser",
        body=lambda t: {"game": "ruins", "seats": t.players[:1]},
    ),
    Case(
        "game: six seats",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=lambda t: {"game": "ruins", "seats": t.players},
    ),
    Case(
        "game: too many seats",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=lambda t: {"game": "ruins", "seats": t.players * 6},
    ),
    Case(
        "game: unknown option",
        400,
        "invalid_setup",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(options={"speed": 2}),
    ),
    Case(
        "game: nested option",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(options={"speed": {"x": 1}}),
    ),
    Case(
        "game: round as bool",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(round=True),
    ),
    Case(
        "game: negative round",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(round=-1),
    ),
    Case(
        "game: huge table",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(table=10**18),
    ),
    Case("game: empty seed", 400, "weak_seed", path="/api/v1/games", auth="organiser", body=game_body(seed="")),
    Case(
        "game: seed as number", 400, "malformed_request", path="/api/v1/games", auth="organiser", body=game_body(seed=7)
    ),
    Case(
        "game: unknown tournament",
        404,
        "unknown_tournament",
        path="/api/v1/games",
        auth="organiser",
        body=lambda t: game_body(tournament=str(uuid4()))(t),
    ),
    Case(
        "game: malformed tournament",
        400,
        "malformed_request",
        path="/api/v1/games",
        auth="organiser",
        body=game_body(tournament="spring"),
    ),
]


def headers(case: Case, table: Table) -> dict[str, str]:
    if case.auth == "none":
        return {}
    if case.auth == "organiser":
        return organiser()
    if case.auth == "other_game":
        return bearer(table.other_token)
    if case.auth.startswith("seat"):
        return bearer(table.tokens[int(case.auth[4:])])
    return {"Authorization": case.auth}


def stored(service: Digsite, table: Table) -> tuple[Any, ...]:
    return service.stored_records(table.game), service.app.recorder.max_notification_id()


def refuse(client: FlaskClient, service: Digsite, table: Table, case: Case) -> None:
    body = case.body(table) if callable(case.body) else case.body
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    before = stored(service, table)
    answer = client.open(
        table.path(case.path),
        method=case.method,
        data=data,
        headers=headers(case, table),
        content_type=case.content_type,
    )
    assert answer.status_code == case.status, answer.get_data(as_text=True)[:500]
    assert answer.is_json
    error = answer.get_json()["error"]
    assert error["code"] == case.code and isinstance(error["message"], str) and error["message"]
    assert stored(service, table) == before
    if case.status == 401:
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    if case.status == 405:
        assert {"GET", "POST"} & set(answer.headers["Allow"].split(", "))


# One table per group of cases (setting up a store is the slow part); each case is its own subtest.
@pytest.mark.parametrize("cases", [MOVES, READS, CREATES], ids=["moves", "reads", "creates"])
def test_a_refused_request_is_answered_in_json_and_changes_nothing(
    cases: list[Case], client: FlaskClient, service: Digsite, table: Table, subtests: pytest.Subtests
) -> None:
    assert len({case.id for case in cases}) == len(cases)
    for case in cases:
        with subtests.test(case.id):
            refuse(client, service, table, case)


def test_without_an_api_key_organiser_endpoints_are_off_but_seats_still_play(service: Digsite) -> None:
    closed = Digsite(Settings(database=service.settings.database, api_key=None))
    try:
        client = create_app(service=closed).test_client()
        for method, path in (("POST", "/api/v1/players"), ("POST", "/api/v1/games"), ("POST", "/api/v1/tournaments")):
            answer = client.open(path, method=method, json={"name": "x"}, headers=organiser())
            assert (answer.status_code, answer.get_json()["error"]["code"]) == (403, "organiser_api_disabled")
        players = [closed.create_player(name) for name in ("Ana", "Beto")]
        created = closed.create_game("ruins", players, seed="closed")
        seat = seat_headers(created, 0)
        assert ok(client.get(f"/api/v1/games/{created['id']}", headers=seat))["seat"] == 0
        answer = client.get(f"/api/v1/games/{created['id']}", headers=organiser())  # no key: no referee either
        assert (answer.status_code, answer.get_json()["error"]["code"]) == (401, "invalid_token")
        ok(act(client, created["id"], seat, 1, {"type": "flip", "seat": 0, "ruin": None}))
    finally:
        closed.close()


def test_an_unexpected_failure_is_logged_and_answered_500_without_details(
    client: FlaskClient, service: Digsite, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(service.reader, "tournament", broken)  # (the read route reads through the reader)
    with caplog.at_level(logging.ERROR):
        answer = client.get(f"/api/v1/tournaments/{uuid4()}")
    assert answer.status_code == 500 and answer.get_json()["error"]["code"] == "internal_error"
    assert "secret internals" not in answer.get_data(as_text=True)
    assert any(record.exc_info and "secret internals" in str(record.exc_info[1]) for record in caplog.records)


def test_an_unreachable_store_is_answered_503(
    client: FlaskClient, service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(service.reader, "tournament", down)
    answer = client.get(f"/api/v1/tournaments/{uuid4()}")
    assert (answer.status_code, answer.get_json()["error"]["code"]) == (503, "store_unavailable")


def test_a_chunked_body_over_the_limit_is_refused_whole_not_cut(client: FlaskClient, service: Digsite) -> None:
    """A body sent without a length through a server that takes the chunks apart (as werkzeug's and gunicorn's
    do: ``wsgi.input_terminated``): 413 when longer than the limit, even when its first 64 KiB are valid JSON."""
    name = json.dumps({"name": "Ana"}).encode()
    cut = name + b" " * (64 * 1024 - len(name))

    def post_chunked(body: bytes) -> Any:
        return client.post(
            "/api/v1/players",
            input_stream=io.BytesIO(body),
            headers={**organiser(), "Transfer-Encoding": "chunked", "Content-Type": "application/json"},
            environ_overrides={"wsgi.input_terminated": True},
        )

    before = service.app.recorder.max_notification_id()
    answer = post_chunked(cut + b"x" * 200_000)
    assert answer.status_code == 413 and answer.get_json()["error"]["code"] == "payload_too_large"
    assert post_chunked(cut + b"x").status_code == 413  # one byte over
    assert service.app.recorder.max_notification_id() == before
    assert ok(post_chunked(cut), 201)["id"]  # exactly the limit is fine


@pytest.mark.parametrize("length", [2_100, 100_000])
def test_a_url_over_the_limit_is_refused_in_json(client: FlaskClient, length: int) -> None:
    for path in ("/api/v1/health?pad=", "/api/v1/no-such-route/"):
        answer = client.get(path + "x" * length)
        assert answer.status_code == 414 and answer.get_json()["error"]["code"] == "uri_too_long"
    assert client.get("/api/v1/health?pad=" + "x" * 1_900).status_code == 200  # under it: the route answers
