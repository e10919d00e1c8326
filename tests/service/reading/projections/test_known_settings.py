"""Bots with known settings, played through the real store and read models (SQLite), read back through
``service.reading.queries``: each tendency orders the bots as they were set. The in-memory checks of the same
(tests/domain/arnak/test_tendencies.py) use a stand-in for the read models; this one goes through the SQL.

Seeds are fixed and the numbers small (a few dozen four-player games per game), so the orders hold with a wide
margin: the figures asked about are the dashboard's, player by player, over finished games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.bots.simulation import Tournament, run_tournament
from service.commands.application import Digsite
from service.reading.catalogue import groups
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends

# Whole tournaments of every bot, played and projected: minutes on these machines (the fast run leaves them out).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sqlite_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Digsite]:
    db = Database.from_url(f"sqlite:///{tmp_path_factory.mktemp('known') / 'digsite.sqlite'}")
    backends.upgrade(db)
    svc = Digsite(Settings(database=db, api_key="organiser-key"))
    try:
        yield svc
    finally:
        svc.close()


def _played(service: Digsite, kind: str, games: int, pool: int, seed: str) -> tuple[Tournament, ReadPort]:
    tournament = run_tournament(service, kind=kind, players=4, games=games, seed=seed, pool=pool)
    follower = Follower(service.settings)
    try:
        follower.catch_up()
    finally:
        follower.close()
    return tournament, ReadPort.over(service.reader)


def _values(queries: ReadPort, kind: str, tournament: Tournament, metric: str) -> dict[str, float]:
    """The metric per bot name, from the read models (each bot's finished games of the tournament)."""
    found = {}
    for p in tournament.pool:
        row = queries.analytics.tendencies(kind, str(p["id"]), tournament=tournament.id)["metrics"][metric]
        assert row["n"], (p["name"], metric)  # every bot had the chance to show it
        found[p["name"]] = float(row["value"])
    return found


@pytest.fixture(scope="module")
def ruins(sqlite_service: Digsite) -> Iterator[tuple[Tournament, ReadPort]]:
    tournament, queries = _played(sqlite_service, "ruins", games=RUINS_GAMES, pool=12, seed="known-ruins")
    yield tournament, queries
    queries.close()


@pytest.fixture(scope="module")
def arnak(sqlite_service: Digsite) -> Iterator[tuple[Tournament, ReadPort]]:
    tournament, queries = _played(sqlite_service, "arnak", games=ARNAK_GAMES, pool=8, seed="known-arnak")
    yield tournament, queries
    queries.close()


RUINS_GAMES = 30  # 12 bots, 10 games each
ARNAK_GAMES = 24  # 8 bots, 12 games each


def _settings(tournament: Tournament, name: str) -> dict[str, Any]:
    record = next(p for p in tournament.pool if p["name"] == name)
    return dict(record["bot"]["tendencies"])


def _heuristic(tournament: Tournament, values: dict[str, float]) -> dict[str, float]:
    """The heuristic bots' values only: a random bot's choices follow no setting."""
    kinds = {p["name"]: p["bot"]["kind"] for p in tournament.pool}
    return {name: v for name, v in values.items() if kinds[name] == "heuristic"}


def _ordered_as_set(values: dict[str, float], settings: dict[str, Any]) -> None:
    """Bots set higher show higher: for every two bots with different settings, the values order the same way
    (bots with the same setting may come in any order)."""
    for a in settings:
        for b in settings:
            if settings[a] > settings[b]:
                assert values[a] > values[b], (a, b, values)


@pytest.mark.parametrize(
    ("metric", "setting"),
    [
        ("pass_rate_when_able", "pass_rate"),
        ("night_flips_per_round", "flip_rate"),
    ],
)
def test_ruins_rates_order_the_bots_as_set(ruins: tuple[Tournament, ReadPort], metric: str, setting: str) -> None:
    tournament, queries = ruins
    values = _heuristic(tournament, _values(queries, "ruins", tournament, metric))
    _ordered_as_set(values, {name: _settings(tournament, name)[setting] for name in values})


def test_ruins_torches_follow_the_torch_setting(ruins: tuple[Tournament, ReadPort]) -> None:
    """The hoarder (0) spends none, the spender (1.0) most; the other bots' torches also depend on what they
    hold and lead, so only the ends are asked."""
    tournament, queries = ruins
    values = _heuristic(tournament, _values(queries, "ruins", tournament, "torches_per_round"))
    rates = {name: _settings(tournament, name)["torch_rate"] for name in values}
    assert values[min(rates, key=lambda n: rates[n])] == 0
    assert max(values, key=lambda n: values[n]) == max(rates, key=lambda n: rates[n])


def test_ruins_lead_style_shows(ruins: tuple[Tournament, ReadPort]) -> None:
    tournament, queries = ruins
    sizes = _heuristic(tournament, _values(queries, "ruins", tournament, "lead_size"))
    ranks = _heuristic(tournament, _values(queries, "ruins", tournament, "lead_rank"))
    lead = {name: _settings(tournament, name)["lead"] for name in sizes}
    assert lead[max(sizes, key=lambda n: sizes[n])] == "big"
    assert lead[max(ranks, key=lambda n: ranks[n])] == "high"
    # a big lead beats a low one among bots set alike otherwise
    assert min(v for n, v in sizes.items() if lead[n] == "big") > sizes["Steady Sam"]


def test_ruins_eager_claimer_claims_earliest(ruins: tuple[Tournament, ReadPort]) -> None:
    """Claims are few (a ruin must be upgraded first): the eager claimer's show in their timing."""
    tournament, queries = ruins
    rounds = _heuristic(tournament, _values(queries, "ruins", tournament, "claim_round"))
    claim = {name: _settings(tournament, name)["claim_rate"] for name in rounds}
    assert claim[min(rounds, key=lambda n: rounds[n])] == max(claim.values())


def test_ruins_showdowns_and_think_time_read_right(ruins: tuple[Tournament, ReadPort]) -> None:
    """Shares stay shares (never above 1) and sub-millisecond think time is not rounded to nothing."""
    tournament, queries = ruins
    field = queries.analytics.tendencies("ruins", tournament=tournament.id)
    assert field["games"] == 4 * RUINS_GAMES
    rate = field["metrics"]["showdown_rate"]
    assert rate["n"] == RUINS_GAMES and 0 <= rate["value"] <= 1
    assert field["metrics"]["think_ms"]["value"] > 0


@pytest.mark.parametrize(
    ("tendency", "metrics"),
    [
        ("research-heavy", ["research_pace", "research_share"]),
        ("dig-heavy", ["digs_per_round"]),
        ("guardian-hunting", ["guardians_per_game"]),
        ("card-buying", ["cards_bought_per_round", "buy_share"]),
    ],
)
def test_arnak_each_bot_shows_its_tendency_most(
    arnak: tuple[Tournament, ReadPort], tendency: str, metrics: list[str]
) -> None:
    tournament, queries = arnak
    for metric in metrics:
        values = _values(queries, "arnak", tournament, metric)
        top = max(values, key=lambda n: values[n])
        assert _settings(tournament, top)["tendency"] == tendency, (metric, values)


def test_arnak_research_heavy_researches_most_per_round(arnak: tuple[Tournament, ReadPort]) -> None:
    tournament, queries = arnak
    research = next(p for p in tournament.pool if p["bot"]["tendencies"].get("tendency") == "research-heavy")
    mine = queries.analytics.per_round("arnak", "round_research_steps", str(research["id"]), tournament.id)
    field = {
        r["round"]: r["value"]
        for r in queries.analytics.per_round("arnak", "round_research_steps", None, tournament.id)
    }
    assert len(mine) == 5
    for row in mine[1:]:  # round 1: nobody has the resources for a bridge yet
        assert row["value"] > field[row["round"]], (row, field)


@pytest.mark.parametrize("kind", ["ruins", "arnak"])
def test_every_share_stays_a_share_for_every_bot(
    ruins: tuple[Tournament, ReadPort], arnak: tuple[Tournament, ReadPort], kind: str
) -> None:
    """What the catalogue calls a share is shown as a percentage: for no bot, and not for the field, is it above
    1 (a part of its denominator), per seat or round by round."""
    tournament, queries = ruins if kind == "ruins" else arnak
    for who in [None, *(str(p["id"]) for p in tournament.pool)]:
        found = queries.analytics.tendencies(kind, who, tournament=tournament.id)["metrics"]
        shares = {name: m["value"] for name, m in found.items() if m["share"] and m["value"] is not None}
        assert shares and all(0 <= v <= 1 for v in shares.values()), (who, shares)
    for name in groups(kind, ("round",)):
        for m in groups(kind, ("round",))[name]:
            if m.share:
                rows = queries.analytics.per_round(kind, m.name, None, tournament.id)
                assert rows and all(0 <= r["value"] <= 1 for r in rows), m.name


def test_the_field_at_a_player_s_table_sizes(sqlite_service: Digsite, ruins: tuple[Tournament, ReadPort]) -> None:
    """Like with like: the field asked at several table sizes counts the games at those sizes only."""
    _, queries = ruins
    threes = run_tournament(sqlite_service, kind="ruins", players=3, games=2, seed="known-threes", pool=3)
    follower = Follower(sqlite_service.settings)
    try:
        follower.catch_up()
    finally:
        follower.close()
    player = str(threes.pool[0]["id"])  # a persona is the same player in every tournament: it sat at 4 too
    assert queries.analytics.table_sizes("ruins", player) == (3, 4)
    assert queries.analytics.table_sizes("ruins", player, threes.id) == (3,)
    counted = {n: queries.analytics.tendencies("ruins", None, n_players=n)["games"] for n in (3, 4)}
    assert counted == {3: 6, 4: 4 * RUINS_GAMES}
    assert queries.analytics.tendencies("ruins", None, n_players=(3, 4))["games"] == sum(counted.values())
    assert queries.analytics.tendencies("ruins", None, n_players=(5,))["games"] == 0
