"""A bot that plays one seat over HTTP against the play API, with only the standard library.

It reads its seat's view (``GET /api/v1/games/<id>`` with ``Authorization: Bearer <seat token>``), waits
for its turn by polling with a bounded backoff, submits its choice (``POST /api/v1/games/<id>/actions``
with the version it acted on), reloads and retries when the game moved on under it (409), and stops
when the game is over. The bot sees exactly what the seat's view shows, nothing more.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.games import rules_for
from domain.ruins.bots import Bot, Seen

RETRYABLE_STATUSES = frozenset({502, 503, 504})


class ApiError(Exception):
    """The API refused a request: the HTTP status and the JSON error's code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class Unreachable(Exception):
    """The server could not be reached (or answered 502/503/504) for too long."""


@dataclass(frozen=True)
class Move:
    """One move this bot made: the version it acted on, what it played, and what came back."""

    number: int
    version: int  # the version the move was made on
    seat: int
    action: dict[str, Any]
    text: str
    new_version: int
    status: str


@dataclass(frozen=True)
class Step:
    """What one look at the game led to: ``moved``, ``waiting`` (not our turn), ``conflict`` (409), ``over``."""

    kind: str
    game: dict[str, Any]
    move: Move | None = None


class BotClient:
    """One seat of one game, played over HTTP by ``bot`` (its choices drawn from ``rng``)."""

    def __init__(
        self,
        url: str,
        game_id: str,
        token: str,
        bot: Bot,
        rng: random.Random | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.base = url.rstrip("/")
        self.game_id = game_id
        self.token = token
        self.bot = bot
        self.rng = rng or random.Random()
        self.timeout = timeout
        self.moves = 0
        self.conflicts = 0

    # -- HTTP -----------------------------------------------------------------------------------------------

    @property
    def game_url(self) -> str:
        return f"{self.base}/api/v1/games/{urllib.parse.quote(self.game_id, safe='')}"

    def _request(self, method: str, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                answer: dict[str, Any] = json.loads(response.read() or b"{}")
                return answer
        except urllib.error.HTTPError as error:
            raise _api_error(error) from None

    def fetch(self) -> dict[str, Any]:
        """The game as this seat sees it: view, version, to_act, status, legal_actions."""
        return self._request("GET", self.game_url)

    def submit(self, version: int, action: dict[str, Any]) -> dict[str, Any]:
        return self._request("POST", f"{self.game_url}/actions", {"version": version, "action": action})

    # -- playing --------------------------------------------------------------------------------------------

    def seat_of(self, game: dict[str, Any]) -> int:
        seat = game.get("seat", game["view"].get("viewer"))
        return int(seat)

    def choose(self, game: dict[str, Any]) -> dict[str, Any]:
        """The bot's pick among the legal actions offered, as the action's JSON."""
        rules = rules_for(game.get("kind", "ruins"))
        legal = [rules.action_from_dict(a) for a in game["legal_actions"]]
        action = self.bot.choose(Seen.from_view(game["view"]), legal, self.rng)
        chosen: dict[str, Any] = rules.action_to_dict(action)
        return chosen

    def play_turn(self, game: dict[str, Any]) -> Step:
        """Act on ``game`` (a fetched view) if it is this seat's turn; a 409 comes back as ``conflict``."""
        if game["status"] == "over":
            return Step("over", game)
        seat = self.seat_of(game)
        if seat not in game["to_act"] or not game["legal_actions"]:
            return Step("waiting", game)
        action = self.choose(game)
        try:
            result = self.submit(game["version"], action)
        except ApiError as error:
            if error.status == 409:
                self.conflicts += 1
                return Step("conflict", game)
            raise
        self.moves += 1
        rules = rules_for(game.get("kind", "ruins"))
        move = Move(
            number=self.moves,
            version=game["version"],
            seat=seat,
            action=action,
            text=str(rules.action_from_dict(action)),
            new_version=result["version"],
            status=result["status"],
        )
        return Step("moved", game, move)

    def step(self) -> Step:
        """Look once and act if it is this seat's turn."""
        return self.play_turn(self.fetch())

    def run(
        self,
        poll: float = 0.2,
        max_poll: float = 2.0,
        on_move: Callable[[Move], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        max_failures: int = 20,
    ) -> dict[str, Any]:
        """Play until the game is over; returns the final game as this seat sees it.

        While waiting, polls after ``poll`` seconds, backing off by half each time up to ``max_poll`` (back to
        ``poll`` whenever the game moved); a 409 reloads at once; unreachable server or 502/503/504 answers
        are retried with the same backoff, ``max_failures`` times in a row at most."""
        delay = poll
        failures = 0
        last_version: int | None = None
        while True:
            try:
                step = self.step()
            except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
                step = None
                reason: Exception = error
            except ApiError as error:
                if error.status not in RETRYABLE_STATUSES:
                    raise
                step = None
                reason = error
            if step is None:
                failures += 1
                if failures >= max_failures:
                    raise Unreachable(f"gave up after {failures} failed requests in a row: {reason}")
                sleep(delay)
                delay = min(delay * 1.5, max(max_poll, poll))
                continue
            failures = 0
            if step.kind == "over":
                return step.game
            if step.kind == "moved":
                assert step.move is not None
                if on_move is not None:
                    on_move(step.move)
                delay = poll
                continue
            if step.kind == "conflict":
                continue  # the game moved on: reload and decide again
            if step.game["version"] != last_version:
                delay = poll  # others are playing: keep looking often
            last_version = step.game["version"]
            sleep(delay)
            delay = min(delay * 1.5, max(max_poll, poll))


def _api_error(error: urllib.error.HTTPError) -> ApiError:
    try:
        body = json.loads(error.read() or b"{}")
        detail = body["error"]
        return ApiError(error.code, str(detail["code"]), str(detail["message"]))
    except (ValueError, KeyError, TypeError):
        return ApiError(error.code, "http_error", str(error.reason))
    finally:
        error.close()


def parse_tendencies(pairs: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """``["pass_rate=0.6", "lead=big"]`` -> ``{"pass_rate": 0.6, "lead": "big"}`` (numbers become floats)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"a tendency is key=value, like pass_rate=0.6 (got {pair!r})")
        try:
            out[key] = float(value)
        except ValueError:
            out[key] = value.strip()
    return out
