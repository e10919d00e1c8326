"""Who may see what on the dashboard: the one place the decision is made.

A :class:`Visitor` is derived from the request's signed session cookie (``dashboard.session``) and handed
to every data function (``dashboard.data.Data``), which asks this module before it reads anything:

- an **organiser** (signed in with the organiser key) sees everything: every game, in play or over,
  from the referee's seat or any seat's;
- a **spectator** (anyone, without signing in, while spectator mode is on) sees finished games only,
  from any perspective (once a game is over its seed is revealed and everything about it is public),
  and players' and aggregate statistics computed from finished games only; a game in play does not
  exist for a spectator, in lists or by its id, except on its broadcast page (``/broadcast/<game>``) while
  its tournament broadcasts it: the public view only, behind by the organiser's delay
  (``service.serving.broadcast``);
- a **player** who proved a seat of a game with that seat's token sees that game from that seat only
  while it is in play (never the referee's view, never another seat's), and from every perspective
  once it is over.

With spectator mode off (``DIGSITE_DASHBOARD_SPECTATORS=0``) a visitor who is neither an organiser nor
a player of the game sees nothing but the sign-in page.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from uuid import UUID

from werkzeug.exceptions import Forbidden

from service.serving.throttle import storage_uri, trusted_proxies

REFEREE = "referee"

# One answer for "no such game" and "a game you may not see": a visitor who may not see a game in play
# cannot even learn that it exists by trying ids.
HIDDEN_GAME = (
    "This game cannot be shown to you: there is no such game, or it is still in play. Players: open the seat "
    "link you were given (or enter your seat token below). Organisers: sign in."
)


# A game in play that its tournament does not broadcast (or no such game): the same words either way.
NOT_BROADCAST = (
    "This game is not broadcast: there is no such game, or its tournament's organiser has not turned its "
    "broadcast on. Finished games can be replayed from the games list."
)


class Denied(Forbidden):
    """Raised by a data function asked for something the visitor may not see: HTTP 403, no data."""

    def __init__(self, reason: str = "you may not see this: sign in as an organiser") -> None:
        super().__init__(description=reason)
        self.reason = reason


@dataclass(frozen=True)
class Visitor:
    """Who is asking, as the server knows it from the session cookie (never from what the browser says)."""

    organiser: bool = False
    seats: Mapping[str, int] = field(default_factory=dict)  # game id -> the seat its token proved
    spectators: bool = True  # the deployment's spectator mode (anonymous visitors may see finished games)

    @property
    def sees_finished(self) -> bool:
        """May this visitor see finished games, the games list, players and aggregates?"""
        return self.organiser or self.spectators

    @property
    def anonymous(self) -> bool:
        return not self.organiser and not self.seats

    def seat_in(self, game_id: str) -> int | None:
        return self.seats.get(str(game_id))


SPECTATOR = Visitor()
ORGANISER = Visitor(organiser=True)


def perspectives(visitor: Visitor, game_id: str, over: bool, seats: int) -> tuple[str, ...]:
    """The perspectives ``visitor`` may replay game ``game_id`` from ("referee", "0", "1", ...); empty: none,
    and the game is not shown at all. ``over``: the game has ended (its seed is revealed)."""
    everything = (REFEREE, *(str(s) for s in range(seats)))
    if visitor.organiser:
        return everything
    mine = visitor.seat_in(game_id)
    if over and (visitor.spectators or mine is not None):
        return everything
    if not over and mine is not None and 0 <= mine < seats:
        return (str(mine),)
    return ()


def require_organiser(
    visitor: Visitor, reason: str = "a tournament's rounds and seat links are for organisers: sign in as an organiser"
) -> None:
    """A tournament's entries, rounds and seat links (the links are the seats' keys), its fair-play report (it names
    players whose play looks unusual): organisers only."""
    if not visitor.organiser:
        raise Denied(reason)


def require_lists(visitor: Visitor) -> None:
    """Games lists, players and aggregates: organisers, and spectators while spectator mode is on."""
    if not visitor.sees_finished:
        raise Denied("spectator mode is off: sign in as an organiser")


def list_status(visitor: Visitor, requested: str | None) -> str | None:
    """The status filter a games list runs with: an organiser's own; anyone else's forced to finished
    games ("over"). Returns "" when the request cannot match anything the visitor may see."""
    require_lists(visitor)
    if visitor.organiser:
        return requested or None
    if requested in (None, "", "over"):
        return "over"
    return ""


def finished_only(visitor: Visitor) -> bool:
    """Statistics for anyone but an organiser are computed from finished games only."""
    require_lists(visitor)
    return not visitor.organiser


def canonical_id(text: str | None) -> str | None:
    """A game id as the store writes it (a UUID's canonical form), or None for anything else."""
    if not text or len(text) > 64:
        return None
    try:
        return str(UUID(text))
    except ValueError:
        return None


# -- the deployment's settings --------------------------------------------------------------------------------


def _flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be 1 or 0 (got {raw!r})")


@dataclass(frozen=True)
class AccessSettings:
    """How the dashboard lets people in (environment variables in brackets):

    - ``api_key``: the organiser key (DIGSITE_API_KEY, the API's); None: nobody can sign in as organiser;
    - ``secret``: what signs the session cookie (``Settings.server_secret()``: DIGSITE_SECRET_KEY, else a file);
    - ``spectators``: anonymous visitors may watch finished games (DIGSITE_DASHBOARD_SPECTATORS, default 1);
    - ``secure_cookie``: "auto" (Secure when the request came over HTTPS, directly or as the proxy's
      X-Forwarded-Proto says), "always" or "never" (DIGSITE_DASHBOARD_SECURE_COOKIE: auto, 1 or 0);
    - ``session_hours``: how long a sign-in or a seat lasts (DIGSITE_DASHBOARD_SESSION_HOURS, default 12);
    - ``failures``, ``window``, ``delay``: at most ``failures`` wrong organiser keys per client address in
      ``window`` seconds, and as many wrong seat tokens per address and game, each answered after ``delay``
      seconds; ``seat_failures_across_games``: wrong seat tokens per address over every game
      (``service.serving.throttle``);
    - ``trusted_proxies``: reverse proxies in front that add to X-Forwarded-For, whose client is then the
      address counted (DIGSITE_TRUSTED_PROXIES, default 0: the header is ignored);
    - ``throttle_storage``: where those counts live, a `limits` storage URI (DIGSITE_THROTTLE_STORAGE, default
      "": this process's memory).
    """

    api_key: str | None
    secret: bytes
    spectators: bool = True
    secure_cookie: str = "auto"
    session_hours: float = 12.0
    failures: int = 5
    window: float = 300.0
    delay: float = 0.5
    seat_failures_across_games: int | None = None  # None: ten times ``failures``
    trusted_proxies: int = 0
    throttle_storage: str = ""

    def __post_init__(self) -> None:
        if self.secure_cookie not in ("auto", "always", "never"):
            raise ValueError(f"secure_cookie must be auto, always or never (got {self.secure_cookie!r})")
        if not 0 < self.session_hours <= 24 * 7:
            raise ValueError(f"a dashboard session lasts between 0 and 168 hours (got {self.session_hours})")
        if len(self.secret) < 16:
            raise ValueError("the server secret is too short to sign sessions with")

    @classmethod
    def from_env(cls, settings: object, **overrides: object) -> AccessSettings:
        """From the environment and the service's ``Settings`` (its organiser key and server secret)."""
        secure = os.environ.get("DIGSITE_DASHBOARD_SECURE_COOKIE", "").strip().lower() or "auto"
        secure = {"1": "always", "true": "always", "yes": "always", "0": "never", "false": "never", "no": "never"}.get(
            secure, secure
        )
        if secure not in ("auto", "always", "never"):
            raise ValueError(f"DIGSITE_DASHBOARD_SECURE_COOKIE must be auto, 1 or 0 (got {secure!r})")
        hours_text = os.environ.get("DIGSITE_DASHBOARD_SESSION_HOURS", "").strip()
        try:
            hours = float(hours_text) if hours_text else 12.0
        except ValueError:
            raise ValueError(f"DIGSITE_DASHBOARD_SESSION_HOURS must be a number (got {hours_text!r})") from None
        values: dict[str, object] = {
            "api_key": getattr(settings, "api_key", None),
            "secret": settings.server_secret(),  # type: ignore[attr-defined]
            "spectators": _flag("DIGSITE_DASHBOARD_SPECTATORS", True),
            "secure_cookie": secure,
            "session_hours": hours,
            "trusted_proxies": trusted_proxies(),
            "throttle_storage": storage_uri(),
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]
