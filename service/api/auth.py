"""Who is calling: an organiser (``Authorization: Bearer <DIGSITE_API_KEY>``) or one seat of one game
(``Authorization: Bearer <seat token>``, as handed out when the game was created)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import ParamSpec, TypeVar, cast

from flask import current_app, request

from service.application import REFEREE, Digsite, Viewer
from service.errors import Forbidden, Unauthorized

P = ParamSpec("P")
R = TypeVar("R")
MAX_TOKEN_LENGTH = 512


def digsite() -> Digsite:
    """The service this app serves (``create_app`` put it in ``app.extensions``)."""
    return cast(Digsite, current_app.extensions["digsite"])


def bearer_token() -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("send 'Authorization: Bearer <organiser key or seat token>'", "missing_token")
    return token


def _is_organiser_key(token: str) -> bool:
    key = digsite().settings.api_key
    return key is not None and secrets.compare_digest(token.encode(), key.encode())


def organiser_key_sent() -> bool:
    """True for the organisers' key; a request that sends another bearer token is refused (401) rather than
    quietly answered as the public would be, so a mistyped key is noticed."""
    if _is_organiser_key(bearer_token()):
        return True
    raise Unauthorized("this is not the organisers' API key", "invalid_api_key")


def organiser_only(route: Callable[P, R]) -> Callable[P, R]:
    """Refuse the request unless it carries the organisers' key."""

    @functools.wraps(route)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        if digsite().settings.api_key is None:
            raise Forbidden(
                "organiser endpoints are off: set DIGSITE_API_KEY to turn them on", "organiser_api_disabled"
            )
        if not _is_organiser_key(bearer_token()):
            raise Unauthorized("this endpoint needs the organisers' API key", "invalid_api_key")
        return route(*args, **kwargs)

    return guarded


def viewer_for(game_id: str) -> Viewer:
    """The referee for the organisers' key, else the seat the token belongs to in this game."""
    token = bearer_token()
    if _is_organiser_key(token):
        return REFEREE
    if len(token) > MAX_TOKEN_LENGTH:
        raise Unauthorized("this seat token does not belong to this game", "invalid_token")
    return Viewer(digsite().seat_for_token(game_id, token))
