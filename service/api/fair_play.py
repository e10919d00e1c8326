"""A tournament's fair-play report (organisers only): the signals' findings with the moves behind them, read from
the judge's stored judgements (``service.reading.fair_play``). The reporting function is the app's
``FAIR_PLAY_REPORTER`` setting when one is given (tests give a small hand-made one), else the signals' own."""

from __future__ import annotations

from flask import Blueprint, current_app

from service.api.auth import organiser_only, read_port
from service.api.openapi import ORGANISER, described, operation, ref
from service.api.validation import query_args
from service.reading import fair_play
from service.reading.results import FairPlay

bp = Blueprint("fair_play", __name__)


def reporter() -> fair_play.Reporter | None:
    """The reporting function this app was given (None: the signals' own)."""
    given: fair_play.Reporter | None = current_app.config.get("FAIR_PLAY_REPORTER")
    return given


@bp.get("/tournaments/<tournament_id>/fair-play")
@described(
    operation(
        "getFairPlay",
        "A tournament's fair-play report: players and pairs ranked by each signal, with the moves behind each.",
        tag="organisers",
        security=ORGANISER,
        ok=(200, "The report (docs/fair_play.md).", ref("schemas", "FairPlay")),
        errors=["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
        description="Organisers only: it names players whose play looks unusual, which is a measure to look into, "
        "never a verdict. It reads the tournament's finished games judged at the current judge version "
        "(`judged_games` of `finished_games`); `digsite analyse --tournament` judges the others "
        "(`unjudged_games`). 404 `unknown_tournament`.",
    )
)
@organiser_only
def tournament_fair_play(tournament_id: str) -> FairPlay:
    query_args()
    shown, _ = fair_play.fair_play(read_port(), tournament_id, reporter())
    return shown
