"""Who is calling: an organiser (``Authorization: Bearer <DIGSITE_API_KEY>``) or one seat of one game
(``Authorization: Bearer <seat token>``, as handed out when the game was created).

Wrong secrets are throttled per kind (``service.serving.throttle``, the same throttle as the dashboard's): a wrong
organiser key counts against the caller's address, a wrong token on a game's endpoints against the address and
that game. A shut door answers 429 with ``Retry-After`` before any secret is compared."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import ParamSpec, TypeVar, cast

from flask import current_app, request

from service.caller_values import parse_uuid
from service.commands.application import REFEREE, Digsite, Viewer
from service.commands.live_games import GameHandle
from service.errors import Forbidden, Unauthorized
from service.reading.read_port import ReadPort
from service.serving.throttle import ORGANISER_KEY, SEAT_TOKEN, Throttle

P = ParamSpec("P")
R = TypeVar("R")
MAX_TOKEN_LENGTH = 512


def digsite() -> Digsite:
    """The service this app serves (``create_app`` put it in ``app.extensions``): the command side, for what
    creates or plays (and the push channel's waits, which hear of moves through it)."""
    return cast(Digsite, current_app.extensions["digsite"])


def read_port() -> ReadPort:
    """What the read routes read through (``create_app`` put it in ``app.extensions``): the store's reader and the
    read models, nothing that can play a move."""
    return cast(ReadPort, current_app.extensions["digsite_read"])


def throttle() -> Throttle:
    """This app's count of wrong secrets (``create_app`` put it in ``app.extensions``)."""
    return cast(Throttle, current_app.extensions["digsite_throttle"])


def client_address() -> str:
    """Whom a wrong secret counts against (behind trusted proxies, the client they name: ``Throttle.who``)."""
    return throttle().who(request.remote_addr, request.headers.get("X-Forwarded-For"))


def bearer_token() -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("send 'Authorization: Bearer <organiser key or seat token>'", "missing_token")
    return token


def _is_organiser_key(token: str) -> bool:
    key = digsite().settings.api_key
    return key is not None and secrets.compare_digest(token.encode(), key.encode())


def _check_organiser_key(message: str) -> None:
    """Refuse (401, counted) a token that is not the organisers' key; 429 while this address may not try."""
    token = bearer_token()
    throttle().check(ORGANISER_KEY, client_address())
    if not _is_organiser_key(token):
        throttle().failed(ORGANISER_KEY, client_address())
        raise Unauthorized(message, "invalid_api_key")


def organiser_key_sent() -> bool:
    """On an endpoint anyone may read: False without an ``Authorization`` header, True for the organisers' key;
    any other bearer token (a seat token included) is refused (401) rather than quietly answered as the public
    would be, so a mistyped key is noticed."""
    if "Authorization" not in request.headers:
        return False
    _check_organiser_key("this is not the organisers' API key")
    return True


def organiser_only(route: Callable[P, R]) -> Callable[P, R]:
    """Refuse the request unless it carries the organisers' key."""

    @functools.wraps(route)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        if digsite().settings.api_key is None:
            raise Forbidden(
                "organiser endpoints are off: set DIGSITE_API_KEY to turn them on", "organiser_api_disabled"
            )
        _check_organiser_key("this endpoint needs the organisers' API key")
        return route(*args, **kwargs)

    return guarded


def viewer_for(game_id: str, handle: GameHandle | None = None) -> Viewer:
    """The referee for the organisers' key, else the seat the token belongs to in this game.

    Any token may be tried here, so every wrong one counts against this game's door for the caller's address,
    and while that door is shut it is shut to the organisers' key too: were the key let through, a guesser would
    learn it by the answer (their own endpoints stay open to organisers meanwhile). A request that goes on to use
    the game (a move) passes its ``handle`` (``Digsite.handle``), so the game is looked up once for all of it."""
    token = bearer_token()
    game = str(parse_uuid(game_id, "game"))  # one count per game, however its id is spelt
    throttle().check(SEAT_TOKEN, client_address(), game)
    if _is_organiser_key(token):
        return REFEREE
    try:
        if len(token) > MAX_TOKEN_LENGTH:
            raise Unauthorized("this seat token does not belong to this game", "invalid_token")
        seat = handle.seat_for_token(token) if handle else read_port().reader.seat_for_token(game, token)
        return Viewer(seat)
    except Unauthorized:
        throttle().failed(SEAT_TOKEN, client_address(), game)
        raise
