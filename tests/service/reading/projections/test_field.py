"""The field's figures kept as sums by the projection (``service.reading.projections.field``, read by
``service.reading.figures_from_sums``): the same answers as the queries over every fact row
(``service.reading.figures_from_rows``), read from a few rows, on both backends."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from domain.games import GAMES
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading import catalogue
from service.reading.catalogue import breakdowns
from service.reading.projections import field
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.reading.scope import Scope
from tests.service.integrity.test_audit import new_game, play


def same(mine: Any, theirs: Any) -> bool:
    """Equal, floats to rounding (the sums add in another order than the database's aggregate)."""
    if isinstance(mine, float) or isinstance(theirs, float):
        return mine is not None and theirs is not None and math.isclose(mine, theirs, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return mine.keys() == theirs.keys() and all(same(mine[k], theirs[k]) for k in mine)
    if isinstance(mine, list) and isinstance(theirs, list):
        return len(mine) == len(theirs) and all(same(a, b) for a, b in zip(mine, theirs, strict=True))
    return bool(mine == theirs)


def both(kept: Callable[[], Any], afresh: Callable[[], Any]) -> tuple[Any, Any]:
    """The sums' answer and the rows', or none from the sums where the rows refuse (a dimension a metric's grain
    does not record): the sums answer None or refuse too, and the rows' refusal is what the pages get."""
    try:
        theirs = afresh()
    except catalogue.UnknownName:
        with contextlib.suppress(catalogue.UnknownName):
            assert kept() is None
        return None, None
    return kept(), theirs


@pytest.fixture
def queries(service: Digsite) -> Iterator[ReadPort]:
    found = ReadPort.over(service.reader)
    try:
        yield found
    finally:
        found.close()


def a_season(service: Digsite) -> dict[str, str]:
    """Every registered game in two tournaments at two table sizes, and a game left in play: each kind's first
    tournament's id."""
    first = {}
    for kind in GAMES:
        first[kind] = run_tournament(service, kind=kind, players=2, games=2, seed=f"field-{kind}").id
        run_tournament(service, kind=kind, players=3, games=1, seed=f"field-{kind}-3")
    play(service, new_game(service, "field-in-play"), moves=40)
    return first


def assert_the_field_s_figures_are_those_of_every_row(queries: ReadPort, kind: str, tournament: str | None) -> int:
    """Every figure of the field the pages ask for, kept and afresh, at every table size asked; how many."""
    compared = 0
    metrics = catalogue.analytics_of(kind)[0]
    sums, rows = queries.analytics.sums, queries.analytics.rows
    for sizes in (None, 2, (2, 3)):
        scope = Scope(kind, None, tournament, sizes)
        pairs = [
            both(lambda s=scope: sums.tendencies(s), lambda s=scope: rows.tendencies(s)),
            both(lambda s=scope: sums.distributions(s), lambda s=scope: rows.distributions(s)),
        ]
        for finished_only in (True, False):
            asked = Scope(kind, None, tournament, sizes, finished_only)
            for m in (m for m in metrics if m.grain == "round"):
                pairs.append(
                    both(
                        lambda s=asked, n=m.name: sums.per_round(s, n),
                        lambda s=asked, n=m.name: rows.per_round(s, n),
                    )
                )
            for name in breakdowns(kind):
                pairs.append(
                    both(
                        lambda s=asked, n=name: sums.breakdown(s, n),
                        lambda s=asked, n=name: rows.breakdown(s, n),
                    )
                )
        for m in (m for m in metrics if m.grain != "round"):
            for dimension in catalogue.dimensions_of(kind):
                pairs.append(
                    both(
                        lambda s=scope, n=m.name, d=dimension: sums.by_dimension(s, n, d),
                        lambda s=scope, n=m.name, d=dimension: rows.by_dimension(s, n, d),
                    )
                )
        for mine, theirs in pairs:
            assert same(mine, theirs), (kind, tournament, sizes, mine, theirs)
            compared += theirs is not None
    return compared


def lose_the_sums(follower: Follower) -> None:
    with follower.read_models.tracker.datastore.transaction(commit=True) as curs:
        curs.execute(follower.read_models._q(f"DELETE FROM {{p}}{field.TABLE}"))


@pytest.mark.slow
def test_every_figure_of_the_field_kept_as_sums_is_the_one_every_row_gives(
    service: Digsite, follower: Follower, queries: ReadPort
) -> None:
    firsts = a_season(service)
    follower.catch_up()
    assert field.complete(queries.db.rows)
    for kind, tournament in firsts.items():
        assert queries.analytics.tendencies(kind)["games"] > 0
        for scope in (None, tournament):
            assert assert_the_field_s_figures_are_those_of_every_row(queries, kind, scope) > 50
    # Games go on finishing, one batch at a time: the sums follow.
    play(service, new_game(service, "field-later"))
    follower.catch_up()
    for kind in firsts:
        assert_the_field_s_figures_are_those_of_every_row(queries, kind, None)


def test_the_field_s_figures_are_read_from_the_sums_not_from_every_row(
    service: Digsite, follower: Follower, queries: ReadPort
) -> None:
    a_season(service)
    follower.catch_up()
    kind = next(iter(GAMES))
    name = next(iter(breakdowns(kind)))
    table = catalogue.breakdown(kind, name)[2]
    kept = queries.analytics.breakdown(kind, name)
    assert kept
    with follower.read_models.tracker.datastore.transaction(commit=True) as curs:
        curs.execute(follower.read_models._q(f"DELETE FROM {{p}}{table}"))
    assert queries.analytics.rows.breakdown(Scope(kind), name) == []  # every row: gone
    queries.analytics._field.clear()  # (not kept from before: read again)
    assert queries.analytics.breakdown(kind, name) == kept  # the sums: still there


def test_sums_not_yet_complete_are_not_read_and_the_next_batch_fills_them_from_every_finished_game(
    service: Digsite, follower: Follower, queries: ReadPort
) -> None:
    """A store whose read models are from before the sums (or whose sums were lost): the pages compute the field
    afresh meanwhile, and the projection's next batch sums every finished game once."""
    a_season(service)
    follower.catch_up()
    kind = next(iter(GAMES))
    analytics = queries.analytics
    before = analytics.sums.tendencies(Scope(kind))
    assert before is not None
    lose_the_sums(follower)
    assert not field.complete(queries.db.rows)
    assert analytics.sums.tendencies(Scope(kind)) is None
    assert same(analytics.tendencies(kind), before)  # computed afresh
    run_tournament(service, kind=kind, players=2, games=1, seed="field-after")
    follower.catch_up()
    assert field.complete(queries.db.rows)
    after = analytics.sums.tendencies(Scope(kind))
    assert after is not None
    assert after["games"] == before["games"] + 2
    assert_the_field_s_figures_are_those_of_every_row(queries, kind, None)


def test_a_store_upgraded_from_before_the_sums_has_them_once_the_projection_starts_with_no_new_record(
    service: Digsite, follower: Follower, queries: ReadPort
) -> None:
    a_season(service)
    follower.catch_up()
    kind = next(iter(GAMES))
    lose_the_sums(follower)  # as the migration leaves them
    started = Follower(service.settings)  # `digsite projections run`
    try:
        assert started.catch_up() == 0
    finally:
        started.close()
    assert field.complete(queries.db.rows)
    assert_the_field_s_figures_are_those_of_every_row(queries, kind, None)
