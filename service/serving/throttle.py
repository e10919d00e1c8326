"""Wrong secrets, counted: the one throttle of every door, the API's and the dashboard's.

A door asks :meth:`Throttle.check` before it compares a secret, and reports each wrong one with
:meth:`Throttle.failed`. Failures are counted per kind of secret, so that wrong seat tokens never lock anyone
out of the organiser key and the reverse:

- the **organiser key** (``ORGANISER_KEY``): per client address. After ``failures`` wrong keys in ``window``
  seconds the address is refused, the right key included, until the oldest of them is ``window`` seconds old.
- a **seat token** (``SEAT_TOKEN``): per client address *and game*, and per address across every game with a
  higher ceiling (``across_games``, by default ten times as many). A player behind a venue's NAT who mistypes
  their own seat link shuts only their own game's door, for their address; the other players of the venue (one
  address for all of them) keep opening theirs. The ceiling bounds what trying many games buys a guesser:
  without it each game would add a fresh allowance.

A correct secret does not wipe the count: a guesser behind the same address as someone who holds the secret
(a venue's NAT, a proxy) would otherwise have it reset for them at every correct request. The counts age out.

While a door is shut it answers :class:`Throttled` (HTTP 429, ``Retry-After``) to every secret of that kind,
right or wrong, without comparing it: an answer that differed would tell the guesser which was right.

The counting is the `limits` library's moving window (``MovingWindowRateLimiter``): one rate-limit item per
count (``failures`` in ``window`` seconds, or ``across_games``), ``hit`` on a failure, ``test`` on a check, and the
window's stats for how long to wait. Flask-Limiter, built on the same library, limits the requests a route
answers; a door here counts only the wrong secrets among them, of a kind it learns once it has read the secret
(an API bearer is an organiser key or a seat token), and the dashboard's doors are a form and a link: so the
doors call the library's core themselves. Where the counts live is a `limits` storage: by default this
process's memory, bounded (``service.serving.failure_memory``: a check costs a look-up and nothing is written;
under several worker processes each counts for itself, as docs/api.md says); ``DIGSITE_THROTTLE_STORAGE``
names another (``redis://host:6379``: counts shared by every worker, at a round trip per check; while it cannot
be reached every check answers :class:`ThrottleUnavailable`, HTTP 503, and nothing is compared).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.errors import ConfigurationError, StorageError
from limits.storage import MovingWindowSupport, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from service.errors import ServiceError
from service.serving.failure_memory import BoundedMemoryStorage

ORGANISER_KEY = "organiser_key"
SEAT_TOKEN = "seat_token"
ACROSS_GAMES = 10  # by default an address may fail on seat tokens ten times as often over every game as on one

PROXIES_VARIABLE = "DIGSITE_TRUSTED_PROXIES"
STORAGE_VARIABLE = "DIGSITE_THROTTLE_STORAGE"
Count = tuple[RateLimitItem, tuple[str, ...]]  # an item of the moving window, and whose count it is


class Throttled(ServiceError):
    """Too many wrong secrets of one kind from this address: HTTP 429, retry after ``retry_after`` seconds."""

    status = 429

    def __init__(self, message: str, code: str, retry_after: int, per_game: bool = False) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after
        self.per_game = per_game  # shut for one game's seat tokens only (not for every game's)


class ThrottleUnavailable(ServiceError):
    """The storage the counts live in (DIGSITE_THROTTLE_STORAGE) cannot be reached: HTTP 503, try again shortly.
    No secret is compared meanwhile, right or wrong, as no failure could be counted."""

    status = 503
    code = "throttle_unavailable"


class Throttle:
    """Failed attempts per kind of secret (``ORGANISER_KEY``, ``SEAT_TOKEN``), as the module says. ``storage``: a
    `limits` storage to count in (default: this process's memory, ``size`` keys at most, on ``timer``'s clock)."""

    def __init__(
        self,
        failures: int = 5,
        window: float = 300.0,
        across_games: int | None = None,
        timer: Callable[[], float] = time.monotonic,
        size: int = 10_000,
        proxies: int = 0,
        storage: Storage | None = None,
    ) -> None:
        across_games = ACROSS_GAMES * failures if across_games is None else across_games
        if failures < 1 or across_games < failures or window <= 0:
            raise ValueError("a throttle allows at least one failure a game, no more than across games, in a window")
        if window != int(window):
            raise ValueError(f"a throttle's window is whole seconds (got {window})")
        self.failures, self.window, self.across_games = failures, window, across_games
        self.storage = storage if storage is not None else BoundedMemoryStorage(size, timer)
        # The clock the storage's times are on: ours is given; `limits`' own storages read the wall clock.
        self._timer = timer if storage is None else time.time
        self._limiter = MovingWindowRateLimiter(self.storage)
        seconds = int(window)
        self._items = {  # the three counts, each a key space of its own in the storage
            ORGANISER_KEY: RateLimitItemPerSecond(failures, seconds, namespace="digsite_organiser_key"),
            SEAT_TOKEN: RateLimitItemPerSecond(failures, seconds, namespace="digsite_seat_token"),
            "across": RateLimitItemPerSecond(across_games, seconds, namespace="digsite_seat_token_games"),
        }
        self.proxies = proxies  # reverse proxies in front, each adding to X-Forwarded-For (see ``who``)

    def who(self, remote_addr: str | None, forwarded_for: str | None) -> str:
        """The address a failure counts against: the peer's, or, behind ``proxies`` trusted reverse proxies, the
        address the outermost of them got the request from (the ``proxies``-th from the right of
        X-Forwarded-For; what a client wrote further left is its own say and is ignored). Without trusted
        proxies the header is ignored: anyone may send one."""
        if self.proxies and forwarded_for:
            hops = [hop.strip() for hop in forwarded_for.split(",")]
            if len(hops) >= self.proxies and hops[-self.proxies]:
                return hops[-self.proxies]
        return remote_addr or "?"

    def wait(self, kind: str, address: str, game: str | None = None) -> float:
        """Seconds until this address may try a secret of this kind (of this game) again; 0: now."""
        return max(self._waits(kind, address, game))

    def check(self, kind: str, address: str, game: str | None = None) -> None:
        """Raise :class:`Throttled` while the door is shut for this address."""
        waits = self._waits(kind, address, game)
        if max(waits) > 0:
            raise _refusal(kind, max(waits), per_game=game is not None and waits[0] > 0)

    def failed(self, kind: str, address: str, game: str | None = None) -> None:
        """One more wrong secret of this kind from this address (for this game). (A count already full stays
        full: the hit is refused and the door stays shut until its oldest failure ages out.)"""
        try:
            for item, whose in self._counts(kind, address, game):
                self._limiter.hit(item, *whose)
        except StorageError as error:
            raise _unreachable(error) from error

    def _counts(self, kind: str, address: str, game: str | None) -> list[Count]:
        """The counts a failure of this kind goes into."""
        if kind == ORGANISER_KEY:
            return [(self._items[ORGANISER_KEY], (address,))]
        if kind == SEAT_TOKEN:
            if game is None:
                raise ValueError("a seat token is counted per game")
            return [(self._items[SEAT_TOKEN], (address, game)), (self._items["across"], (address,))]
        raise ValueError(f"unknown kind of secret {kind!r}")

    def _waits(self, kind: str, address: str, game: str | None) -> list[float]:
        """For each count of this kind: the seconds until it allows another failure (0: it does now)."""
        counts = self._counts(kind, address, game)
        try:
            if all(self._limiter.test(item, *whose) for item, whose in counts):
                return [0.0] * len(counts)  # the usual case
            now = self._timer()
            waits = []
            for item, whose in counts:
                stats = self._limiter.get_window_stats(item, *whose)
                waits.append(max(0.0, stats.reset_time - now) if stats.remaining <= 0 else 0.0)
        except StorageError as error:
            raise _unreachable(error) from error
        return waits


def _unreachable(error: StorageError) -> ThrottleUnavailable:
    return ThrottleUnavailable(
        f"the counts of wrong secrets cannot be reached ({type(error.storage_error).__name__}); try again shortly"
    )


def _refusal(kind: str, left: float, per_game: bool = False) -> Throttled:
    """The answer of a shut door: which secret, and the whole seconds to wait (at least 1)."""
    seconds = max(1, math.ceil(left))
    if kind == ORGANISER_KEY:
        return Throttled(
            f"too many tries with a wrong organiser key from your address: wait {seconds} s, then try again",
            "too_many_wrong_keys",
            seconds,
        )
    where = "for this game " if per_game else ""
    return Throttled(
        f"too many tries with a wrong seat token {where}from your address: wait {seconds} s, then try again",
        "too_many_wrong_tokens",
        seconds,
        per_game,
    )


def trusted_proxies() -> int:
    """How many reverse proxies in front of this server add to X-Forwarded-For (DIGSITE_TRUSTED_PROXIES, default
    0): behind one, every client would otherwise count as the proxy's one address."""
    raw = os.environ.get(PROXIES_VARIABLE, "").strip() or "0"
    if not raw.isdigit() or int(raw) > 10:
        raise ValueError(f"{PROXIES_VARIABLE} must be a whole number of proxies from 0 to 10 (got {raw!r})")
    return int(raw)


def storage_uri() -> str:
    """Where the counts live (DIGSITE_THROTTLE_STORAGE): a `limits` storage URI, or "" for this process's memory."""
    return os.environ.get(STORAGE_VARIABLE, "").strip()


def storage_from_uri(uri: str) -> Storage | None:
    """The `limits` storage a URI names (``redis://host:6379``, ``memcached://...``), or None for "" (this
    process's memory). Raises ValueError, naming DIGSITE_THROTTLE_STORAGE, for one it cannot count in."""
    if not uri:
        return None
    try:
        storage = storage_from_string(uri, wrap_exceptions=True)  # its errors as limits' StorageError
    except ConfigurationError as error:
        raise ValueError(f"{STORAGE_VARIABLE} must name a storage the limits library can use ({error})") from None
    if not isinstance(storage, Storage) or not isinstance(storage, MovingWindowSupport):
        raise ValueError(f"{STORAGE_VARIABLE} must name a storage with a moving window, not async (got {uri!r})")
    return storage
