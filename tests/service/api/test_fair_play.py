"""``GET /tournaments/{id}/fair-play``: organisers only, every other caller refused exactly as the other organiser
routes refuse them (a seat's token, a wrong key, none), an unknown tournament 404 with its code, and the report as
the reporter gave it with the games it covers. The reporter is a small hand-made one (the signals are not this
route's): tests/service/fair_play_support.py."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from service.analysis import stored
from service.analysis.fair_play.findings import SIGNALS
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading import fair_play
from service.reading.read_port import ReadPort
from tests.service import fair_play_support
from tests.service.api.support import bearer, new_game, ok, organiser, project, seat_headers

NO_SUCH = "00000000-0000-4000-8000-000000000000"


def test_the_report_is_for_organisers_only_and_answers_what_the_reporter_gave(
    app: Flask, client: FlaskClient, service: Digsite
) -> None:
    app.config["FAIR_PLAY_REPORTER"] = fair_play_support.reporter
    cup = run_tournament(service, kind="ruins", players=2, games=2, pool=2, seed="fair-api", name="Cup")
    judged = cup.games[0].id
    stored.write(service.settings.database, judge_records(service.stored_records(judged), 4))
    project(service)
    route = f"/api/v1/tournaments/{cup.id}/fair-play"

    seat = seat_headers(new_game(client, players=2), 0)
    for headers in ({}, seat, bearer("not-the-key")):
        refused, rulings = client.get(route, headers=headers), client.get(f"/api/v1/tournaments/{cup.id}/rulings",
                                                                          headers=headers)  # fmt: skip
        assert refused.status_code in (401, 403)
        assert (refused.status_code, refused.get_json()["error"]["code"]) == (
            rulings.status_code, rulings.get_json()["error"]["code"],
        )  # fmt: skip
        assert "signals" not in refused.get_json()
    missing = client.get(f"/api/v1/tournaments/{NO_SUCH}/fair-play", headers=organiser())
    assert (missing.status_code, missing.get_json()["error"]["code"]) == (404, "unknown_tournament")

    shown = ok(client.get(route, headers=organiser()))
    port = ReadPort.over(service.reader)
    try:
        gathered = fair_play.gather(port, cup.id)
    finally:
        port.close()
    expected = fair_play_support.reporter(gathered.evidence).to_dict()
    assert {k: shown[k] for k in expected} == expected
    assert (shown["judged_games"], shown["finished_games"], shown["unjudged_games"]) == (1, 2, [cup.games[1].id])
    assert shown["signals"]["gifts"][0]["moves"][0]["game_id"] == judged


def test_by_default_the_report_is_the_signals_own_over_the_tournament_s_judged_games(
    client: FlaskClient, service: Digsite
) -> None:
    """No reporter given: the route answers the fair-play signals' report (service.analysis.fair_play.signals), every
    signal present at its threshold, every finding about the tournament's players and backed by its judged games."""
    cup = run_tournament(service, kind="ruins", players=3, games=2, pool=3, seed="fair-api-real", name="Real")
    for played in cup.games:
        stored.write(service.settings.database, judge_records(service.stored_records(played.id), 4))
    project(service)

    shown = ok(client.get(f"/api/v1/tournaments/{cup.id}/fair-play", headers=organiser()))
    assert set(shown["signals"]) == set(SIGNALS) and set(shown["thresholds"]) == set(SIGNALS)
    assert shown["judged_games"] == 2 and shown["decisions"] > 0
    players = {p["id"] for p in cup.pool}
    findings = [f for signal in SIGNALS for f in shown["signals"][signal]]
    assert findings  # three players who met twice: pairs and players scored, flagged or not
    for finding in findings:
        assert set(finding["subject"]) <= players
        assert {m["game_id"] for m in finding["moves"]} <= {g.id for g in cup.games}
