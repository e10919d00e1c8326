"""A bot that plays one seat over HTTP against the play API, with only the standard library.

It reads its seat's view (``GET /api/v1/games/<id>`` with ``Authorization: Bearer <seat token>``), waits
for its turn on the push channel (``GET /api/v1/games/<id>/updates?until=turn&include=game``: the server
answers when the seat is to act, with the view to act on), submits its choice (``POST
/api/v1/games/<id>/actions?wait=S`` with the version it acted on, asking for the streamed answer: its first
line, at once, says the move landed; its second comes once the seat is to act again, with that turn, so a game
costs one request a move), reloads and retries when the game moved on under it (409), and stops when the game
is over. A server without the push channel (404 ``not_found`` for it) is
polled instead, conditionally (``If-None-Match``: an unchanged game is a 304 without a body), with a bounded
backoff. The bot sees exactly what the seat's view shows, nothing more.

Trouble on the way is retried or not by whether it can pass. A server that is down, restarting or
overloaded (connection refused or reset, a timeout, 5xx such as 503 ``store_unavailable``, 429) is retried
with exponential backoff and jitter (never sooner than its ``Retry-After``) for up to ``give_up_after`` seconds
in a row. A server too busy to hold a wait (503 or 429 with ``Retry-After`` on the push channel, other than a
store outage; or a wait answered at once with ``retry_after``) is asked again after that long, without counting
as trouble: the bot is only waiting for its turn. What can never succeed stops the bot at once: a URL that is
not http(s), a host name that does not resolve, and 400/401/403/404/422 answers. Retrying is always safe: after
any failure the bot reads the game again before it decides, and a move is posted with the version it was decided
on, so a move that did land before its answer was lost is never played twice (the server refuses the stale version
with 409).
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.games import game as game_of
from domain.policies import Policy

# Answers that no retry can change: the request itself is wrong, or this token may not do it.
PERMANENT_STATUSES = frozenset({400, 401, 403, 404, 405, 410, 413, 415, 422})
PUSH_WAIT = 25.0  # seconds a wait on the push channel may last before it is asked again
NDJSON = "application/x-ndjson"  # a move's streamed answer: the acknowledgement, then the next turn
# With Retry-After, on a wait: the server would not hold it (unless the code says the store is down).
BUSY_STATUSES = frozenset({429, 503})
PASSING = (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException, json.JSONDecodeError)


class ApiError(Exception):
    """The API refused a request: the HTTP status and the JSON error's code and message."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after

    @property
    def permanent(self) -> bool:
        return self.status in PERMANENT_STATUSES


class NoPush(Exception):
    """The server has no push channel (an older server): the bot polls instead."""


class Unreachable(Exception):
    """The server could not be reached, or answered with a passing error, for longer than the bot waits."""


class BadAddress(Exception):
    """The server's address can never work: not an http(s) URL, or a host name that does not resolve."""


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
    following: dict[str, Any] | None = None  # with a move posted with a wait: the push channel's next answer


@dataclass(frozen=True)
class BotChoice:
    """A bot named by its policy and tendencies, made once the game it plays is known (its kind comes with the
    first look at the game): ``digsite bot`` is told which bot to play before it knows the game."""

    policy: str
    tendencies: dict[str, Any]

    def make(self, kind: str) -> Policy[Any]:
        return game_of(kind).bots.make(self.policy, **self.tendencies)


class BotClient:
    """One seat of one game, played over HTTP by ``bot`` (a policy, or a ``BotChoice`` made into one for the
    game's kind on the first look; its choices drawn from ``rng``)."""

    def __init__(
        self,
        url: str,
        game_id: str,
        token: str,
        bot: Policy[Any] | BotChoice,
        rng: random.Random | None = None,
        timeout: float = 10.0,
    ) -> None:
        check_url(url)
        self.base = url.rstrip("/")
        self.game_id = game_id
        self.token = token
        self.bot = bot
        self.rng = rng or random.Random()
        self.timeout = timeout
        self.moves = 0
        self.conflicts = 0
        self.retries = 0  # failed requests retried, over the whole game
        self.jitter = random.Random()  # backoff jitter; kept apart from the bot's (perhaps seeded) choices
        self.push = True  # until the server shows it has no push channel
        self.busy = 0.0  # seconds the push channel asked to wait before asking again (it held no wait)
        self.move_wait = 0.0  # seconds a posted move waits for this seat's next turn (``run`` sets it)
        self._seen: tuple[str, dict[str, Any]] | None = None  # the last game read and its ETag

    # -- HTTP -----------------------------------------------------------------------------------------------

    @property
    def game_url(self) -> str:
        return f"{self.base}/api/v1/games/{urllib.parse.quote(self.game_id, safe='')}"

    def _request(
        self,
        method: str,
        url: str,
        body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float | None = None,
        stream: bool = False,
    ) -> dict[str, Any]:
        """The JSON answer; a 304 answers the game last read (see ``fetch``). With ``stream``, a move's streamed
        answer is asked for and read as ``_streamed`` says (a server that does not stream answers JSON as before)."""
        accept = f"{NDJSON}, application/json" if stream else "application/json"
        headers = {"Authorization": f"Bearer {self.token}", "Accept": accept, **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                if stream and response.headers.get_content_type() == NDJSON:
                    return self._streamed(response)
                answer: dict[str, Any] = json.loads(response.read() or b"{}")
                tag = response.headers.get("ETag")
                if tag and method == "GET" and url == self.game_url:
                    self._seen = (tag, answer)
                return answer
        except urllib.error.HTTPError as error:
            if error.code == 304 and self._seen is not None:
                error.close()
                return self._seen[1]
            raise _api_error(error) from None
        except urllib.error.URLError as error:
            reason = error.reason
            if isinstance(reason, socket.gaierror) and reason.errno != socket.EAI_AGAIN:
                host = urllib.parse.urlsplit(self.base).hostname
                raise BadAddress(f"cannot find the host {host!r} of {self.base}: {reason.strerror or reason}") from None
            if isinstance(reason, ssl.SSLCertVerificationError):
                raise BadAddress(f"the TLS certificate of {self.base} is not valid: {reason}") from None
            raise

    def _streamed(self, response: Any) -> dict[str, Any]:
        """A move's streamed answer: the first line is the move's acknowledgement (it landed), returned with the second
        line as ``next`` if that line is the seat's next turn or a wait that ran out. Once the first line is read the
        move stands, so a second line that is an error (the wait failed: ``retry_after`` says when to ask the channel
        again), or that never comes (the connection was lost), leaves the answer without ``next``: the bot asks the
        push channel, which tells it where the game is."""
        answer: dict[str, Any] = json.loads(response.readline())
        try:
            following = json.loads(response.readline() or b"null")
        except PASSING:
            following = None
        if isinstance(following, dict) and "error" not in following:
            answer["next"] = following
        elif isinstance(following, dict):
            self.busy = float(following.get("retry_after") or 0)
        return answer

    def fetch(self) -> dict[str, Any]:
        """The game as this seat sees it: view, version, to_act, status, legal_actions (asked conditionally: if it
        has not changed since the last read, the server says so in a 304 and the last read is used)."""
        headers = {"If-None-Match": self._seen[0]} if self._seen is not None else {}
        return self._request("GET", self.game_url, headers=headers)

    def wait_for_turn(self, version: int, wait: float = PUSH_WAIT) -> dict[str, Any] | None:
        """The game as this seat sees it once this seat is to act or the game is over, told by the push channel
        (up to ``wait`` seconds after ``version``); None if the wait ran out. Raises ``NoPush`` if the server has
        no push channel."""
        query = urllib.parse.urlencode({"after": version, "wait": int(wait), "until": "turn", "include": "game"})
        try:
            answer = self._request("GET", f"{self.game_url}/updates?{query}", timeout=wait + self.timeout)
        except ApiError as error:
            if (error.status, error.code) in ((404, "not_found"), (405, "method_not_allowed")):
                raise NoPush(str(error)) from None
            if error.status in BUSY_STATUSES and error.retry_after and error.code != "store_unavailable":
                self.busy = error.retry_after  # too busy to hold the wait: ask again then (not trouble)
                return None
            raise
        self.busy = float(answer.get("retry_after") or 0)  # the server would not hold the wait: ask again later
        game: dict[str, Any] | None = answer.get("game")
        return game

    def submit(self, version: int, action: dict[str, Any], wait: float = 0) -> dict[str, Any]:
        """Post a move; with ``wait``, the answer comes with this seat's next turn as ``next`` (the push channel's
        answer), one request a move instead of two."""
        body = {"version": version, "action": action}
        self.busy = 0.0
        if not wait:
            return self._request("POST", f"{self.game_url}/actions", body)
        url = f"{self.game_url}/actions?wait={int(wait)}"
        try:
            return self._request("POST", url, body, timeout=wait + self.timeout, stream=True)
        except ApiError as error:
            if (error.status, error.code) != (400, "malformed_request") or "wait" not in error.message:
                raise
        self.move_wait = 0  # a server that does not take the wait (nothing was played): post, then wait apart
        return self._request("POST", f"{self.game_url}/actions", body)

    # -- playing --------------------------------------------------------------------------------------------

    def seat_of(self, game: dict[str, Any]) -> int:
        seat = game.get("seat", game["view"].get("viewer"))
        return int(seat)

    def policy(self, kind: str) -> Policy[Any]:
        if isinstance(self.bot, BotChoice):
            self.bot = self.bot.make(kind)
        return self.bot

    def choose(self, game: dict[str, Any]) -> dict[str, Any]:
        """The bot's pick among the legal actions offered, as the action's JSON."""
        rules = game_of(game["kind"]).rules
        legal = [rules.action_from_dict(a) for a in game["legal_actions"]]
        action = self.policy(game["kind"]).choose(game["view"], legal, self.rng)
        return rules.action_to_dict(action)

    def play_turn(self, game: dict[str, Any]) -> Step:
        """Act on ``game`` (a fetched view) if it is this seat's turn; a 409 comes back as ``conflict``."""
        if game["status"] == "over":
            return Step("over", game)
        seat = self.seat_of(game)
        if seat not in game["to_act"] or not game["legal_actions"]:
            return Step("waiting", game)
        action = self.choose(game)
        try:
            result = self.submit(game["version"], action, self.move_wait)
        except ApiError as error:
            if error.status == 409:
                self.conflicts += 1
                return Step("conflict", game)
            raise
        self.moves += 1
        rules = game_of(game["kind"]).rules
        move = Move(
            number=self.moves,
            version=game["version"],
            seat=seat,
            action=action,
            text=str(rules.action_from_dict(action)),
            new_version=result["version"],
            status=result["status"],
        )
        return Step("moved", game, move, result.get("next"))

    def step(self) -> Step:
        """Look once and act if it is this seat's turn."""
        return self.play_turn(self.fetch())

    def run(
        self,
        poll: float = 0.2,
        max_poll: float = 2.0,
        on_move: Callable[[Move], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        give_up_after: float = 300.0,
        backoff: float = 0.2,
        max_backoff: float = 5.0,
        on_trouble: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        push: bool = True,
        push_wait: float = PUSH_WAIT,
    ) -> dict[str, Any]:
        """Play until the game is over; returns the final game as this seat sees it.

        While waiting, waits on the push channel (``push``; up to ``push_wait`` seconds a call): the server
        answers as soon as this seat is to act, with the game to act on. Without it (``push=False``, or a server
        that has none), polls after ``poll`` seconds, backing off by half each time up to ``max_poll`` (back to
        ``poll`` whenever the game moved). A 409 reloads at once. A failure that may pass is retried after
        ``backoff`` seconds, doubling up to ``max_backoff`` (each delay drawn between half and all of that, and
        at least the server's ``Retry-After``), for up to ``give_up_after`` seconds in a row, then raises
        ``Unreachable``; one that cannot pass (``ApiError.permanent``, ``BadAddress``) is raised at once.
        ``on_trouble`` hears, in one line each, when failures start and when the server answers again."""
        self.push = self.push and push
        self.move_wait = push_wait if self.push else 0
        delay = poll
        failures = 0
        trouble_since = 0.0
        last_version: int | None = None
        waiting_on: int | None = None  # the version to wait after, on the push channel
        turn: dict[str, Any] | None = None  # the game to act on, as the answer to the last move brought it
        while True:
            try:
                if turn is not None:
                    step, turn = self.play_turn(turn), None
                elif waiting_on is not None:
                    turn = self.wait_for_turn(waiting_on, push_wait)
                    if turn is None and self.busy:
                        sleep(self.busy)  # (the version is unchanged: ask again then)
                        continue
                    waiting_on = None
                    step = self.play_turn(turn) if turn is not None else self.step()
                else:
                    step = self.step()
            except NoPush:
                self.push, waiting_on, self.move_wait = False, None, 0  # an older server: poll it
                continue
            except ApiError as error:
                if error.permanent:
                    raise
                step, reason, wait_at_least = None, f"{error.status} {error.code}: {error.message}", error.retry_after
            except PASSING as error:  # the server is down, restarting, or the answer was lost on the way
                step, reason, wait_at_least = None, _describe(error), None
            if step is None:
                now = clock()
                if failures == 0:
                    trouble_since = now
                    if on_trouble is not None:
                        on_trouble(f"the server is not answering ({reason}); retrying for up to {give_up_after:g} s")
                failures += 1
                waited = now - trouble_since
                if waited >= give_up_after:
                    raise Unreachable(
                        f"gave up after {waited:.1f} s and {failures} failed requests in a row; the last: {reason}"
                    )
                pause = min(max_backoff, backoff * 2 ** min(failures - 1, 30))
                pause = self.jitter.uniform(pause / 2, pause)
                if wait_at_least is not None:
                    pause = max(pause, wait_at_least)  # never sooner than the server asked (within the bound below)
                self.retries += 1
                sleep(min(pause, give_up_after - waited))
                continue
            if failures:
                if on_trouble is not None:
                    waited = clock() - trouble_since
                    on_trouble(f"the server answers again after {waited:.1f} s ({failures} failed requests)")
                failures = 0
            if step.kind == "over":
                return step.game
            if step.kind == "moved":
                assert step.move is not None
                if on_move is not None:
                    on_move(step.move)
                delay = poll
                if step.following is not None:  # the move's answer waited for this seat's next turn
                    self.busy = float(step.following.get("retry_after") or 0)
                    turn = step.following.get("game")
                    if turn is None:  # the wait ran out (or the server would not hold it): wait again
                        waiting_on = step.following["version"]
                elif self.push:  # (its wait failed, or the answer had none: the channel says where the game is)
                    waiting_on = step.move.new_version
                if turn is None and self.busy:
                    sleep(self.busy)  # the server asked for that long before the channel is asked
                continue
            if step.kind == "conflict":
                continue  # the game moved on: reload and decide again
            if self.push and self.seat_of(step.game) not in step.game["to_act"]:
                waiting_on = step.game["version"]  # the server answers when this seat is to act
                continue
            # Polling (or to act with nothing to do yet, until others have chosen): look again after a while.
            if step.game["version"] != last_version:
                delay = poll  # others are playing: keep looking often
            last_version = step.game["version"]
            sleep(delay)
            delay = min(delay * 1.5, max(max_poll, poll))


def check_url(url: str) -> None:
    """Refuse at once a base URL that can never work (no http/https scheme, no host, a bad port)."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number in range)
    except ValueError as error:
        raise BadAddress(f"not a usable URL {url!r}: {error}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadAddress(f"the server's URL must be http(s)://host[:port], like http://127.0.0.1:8000 (got {url!r})")


def _describe(error: BaseException) -> str:
    reason = getattr(error, "reason", None)
    if isinstance(error, urllib.error.URLError) and reason is not None:
        return str(reason)
    return str(error) or type(error).__name__


def _api_error(error: urllib.error.HTTPError) -> ApiError:
    try:
        retry_after: float | None = float(error.headers.get("Retry-After", ""))
    except (TypeError, ValueError):  # absent, or an HTTP date: the backoff decides alone
        retry_after = None
    try:
        body = json.loads(error.read() or b"{}")
        detail = body["error"]
        return ApiError(error.code, str(detail["code"]), str(detail["message"]), retry_after)
    except (ValueError, KeyError, TypeError, OSError):  # not our JSON (e.g. a proxy's page), or cut short
        return ApiError(error.code, "http_error", str(error.reason), retry_after)
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
