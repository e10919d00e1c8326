"""What the query objects really answer is what their result types say (``service.reading.results``): a row read
from SQL is given its type by a ``cast``, which mypy takes on trust; here pydantic checks the promise on real
rows of a played tournament, every declared key present and of its declared type (strictly: no text for a
number), on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from service import bootstrap
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading import results
from service.reading.catalogue import metrics
from tests.service.api.support import project


def holds(kind: Any, value: Any) -> None:
    """``value`` is a ``kind`` (a result type), checked strictly; extra keys (a game's own facts) are allowed."""
    TypeAdapter(kind).validate_python(value, strict=True)


def test_the_query_objects_answer_what_their_types_say(service: Digsite) -> None:
    cup = run_tournament(service, kind="ruins", players=3, games=2, seed="typed-results", pool=3)
    service.create_game("ruins", [p["id"] for p in cup.pool[:2]], labels={"tournament": cup.id, "round": 2})
    project(service)
    read = bootstrap.read_port(service)
    try:
        lists, replays, analytics = read.lists, read.replays, read.analytics
        holds(list[results.TournamentListed], lists.tournaments())
        holds(results.TournamentRow, lists.tournament(cup.id))
        players = lists.players()
        holds(list[results.PlayerRow], players)
        holds(list[results.PlayerRow], lists.find_players(players[0]["name"][:3]))
        page = lists.games()
        assert len(page["rows"]) == 3 and {row["status"] for row in page["rows"]} == {"over", "playing"}
        holds(results.GamesPage, page)
        game = cup.games[0].id
        holds(results.GameRow, lists.game_row(game))
        holds(list[results.MoveRow], lists.moves(game))
        holds(results.ReplayFrame, replays.replay(game, 3))
        holds(results.ReplayFrame, replays.replay(game, 3, seat=1, events=1))
        holds(results.Progress, replays.progress(game))
        holds(results.Timeline, replays.vp_timeline(game))
        player = players[0]["player_id"]
        for who in (player, None):  # a player's figures from the rows, the field's from the projection's sums
            holds(results.Tendencies, analytics.tendencies("ruins", who))
            holds(dict[str, list[results.Count]], analytics.distributions("ruins"))
            holds(list[results.ByDimension], analytics.by_dimension("ruins", "win_rate", "seat", who))
        holds(list[results.ByRound], analytics.trend(next(iter(metrics("ruins"))), cup.id))
    finally:
        read.close()


def test_a_row_that_differs_from_its_type_is_refused() -> None:
    """The check above can fail: a missing key, text for a number, a status no game has."""
    row: dict[str, Any] = {"tournament_id": "t", "name": "Cup", "rounds": 2, "game": "ruins", "created_at": "now"}
    holds(results.TournamentRow, row)
    for changed in ({"rounds": "2"}, {"name": None}, {"created_at": 1}):
        with pytest.raises(ValidationError):
            holds(results.TournamentRow, {**row, **changed})
    with pytest.raises(ValidationError):
        holds(results.TournamentRow, {k: v for k, v in row.items() if k != "game"})
