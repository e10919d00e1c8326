"""The live pages' one waiting request: ``GET <prefix>live/<game>?after=V&wait=S`` answers as soon as the game
has moved past version ``V`` (or after ``S`` seconds, at most 25) with its version, status and the seats to act;
``broadcast-live/<game>`` the same for the broadcast page, as soon as a version after ``V`` becomes visible under
the tournament's delay (its version and status only).

It waits on the service's push channel (``service.serving.push.updates``), so an open page holds one request at a
time and no page polls. The door is the replay's: the visitor must be allowed to open the game
(``Data.open``: an organiser, a player of it through their seat, anyone once it is over), checked on every
request; anything else is 403 with no data. It says nothing a page of the game does not show: no records,
no view (the page then draws the new moves through the frames or the play page's callback, for its own
perspective)."""

from __future__ import annotations

import json
from typing import Any

import dash
from flask import Response, request

from dashboard.access import Denied
from dashboard.context import Context
from service.errors import NotFound, ServiceError

LIVE_PATH = "live/"
BROADCAST_LIVE_PATH = "broadcast-live/"  # the broadcast page's (``broadcast_response``)
DEFAULT_WAIT_SECONDS = 20.0


def register(app: dash.Dash, ctx: Context) -> None:
    prefix = app.config.routes_pathname_prefix
    app.server.add_url_rule(
        f"{prefix}{LIVE_PATH}<game_id>",
        f"{prefix.replace('/', '_')}digsite_live",
        lambda game_id: live_response(ctx, game_id),
    )
    app.server.add_url_rule(
        f"{prefix}{BROADCAST_LIVE_PATH}<game_id>",
        f"{prefix.replace('/', '_')}digsite_broadcast_live",
        lambda game_id: live_response(ctx, game_id, broadcast=True),
    )


def live_response(ctx: Context, game_id: str, broadcast: bool = False) -> Response:
    """The waiting request of a live page: the play page's (``Data.wait_for_move``), or with ``broadcast`` the
    broadcast page's, answered when a new version becomes visible under the delay (``Data.broadcast``; only its
    version and status: the page's callback draws the rest)."""
    after_text, wait_text = request.args.get("after", "0"), request.args.get("wait", str(DEFAULT_WAIT_SECONDS))
    if not after_text.isdigit() or len(after_text) > 9:
        return _answer(400, {"error": {"code": "bad_version", "message": "after must be a version, a whole number"}})
    try:
        wait = float(wait_text)
    except ValueError:
        return _answer(400, {"error": {"code": "bad_wait", "message": "wait must be a number of seconds"}})
    try:
        if broadcast:
            shown = ctx.data.broadcast(ctx.visitor(), game_id, int(after_text), wait)
            found = {"version": shown["version"], "status": shown["status"]}
        else:
            found = ctx.data.wait_for_move(ctx.visitor(), game_id, int(after_text), wait)
    except Denied as refused:
        return _answer(403, {"error": {"code": "denied", "message": refused.reason}})
    except NotFound as missing:
        return _answer(404, {"error": {"code": missing.code, "message": missing.message}})
    except ServiceError as error:
        return _answer(error.status, {"error": {"code": error.code, "message": error.message}})
    return _answer(200, found)


def _answer(status: int, body: dict[str, Any]) -> Response:
    headers = {"Cache-Control": "no-store", "Vary": "Cookie"}
    return Response(json.dumps(body, separators=(",", ":")), status, headers, content_type="application/json")
