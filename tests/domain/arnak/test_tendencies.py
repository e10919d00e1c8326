"""Arnak's analytics read the bots as they were set: each heuristic bot's tendency shows as its metric, highest
among the five (``domain.arnak.bots.TENDENCIES``), over four-player games where every tendency sits at every seat.
Facts are added up by an in-memory stand-in for the read models (``tally.Tally``), per the tables' column rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.arnak import ANALYTICS
from domain.games import GAMES
from domain.metrics import Metric
from tests.domain.arnak.tally import Tally

GAME = replace(GAMES["arnak"], analytics=ANALYTICS)  # whether or not the registry offers it yet
TENDENCIES = ("research-heavy", "dig-heavy", "guardian-hunting", "card-buying", "balanced")
GAMES_PLAYED = 40  # about a second; the same order held over 40 games of other seeds
METRICS: dict[str, Metric] = {m.name: m for m in ANALYTICS.metrics}


@pytest.fixture(scope="module")
def tally() -> Tally:
    found = Tally(GAME)
    for i in range(GAMES_PLAYED):
        who = [TENDENCIES[(i + k) % len(TENDENCIES)] for k in range(4)]  # each sits out one game in five
        found.play(who, [GAME.bots.make("heuristic", tendency=w) for w in who], f"tendencies-{i}")
    return found


def leader(tally: Tally, metric: str) -> str:
    values = {who: tally.metric(METRICS[metric], who) or 0.0 for who in TENDENCIES}
    return max(values, key=lambda who: values[who])


@pytest.mark.parametrize(
    ("tendency", "metrics"),
    [
        ("research-heavy", ["research_pace", "research_share", "score_research", "temple_rate"]),
        ("dig-heavy", ["digs_per_round", "dig_share", "site_actions_per_round"]),
        ("guardian-hunting", ["guardians_per_game", "overcome_share", "score_guardians", "fear_per_game"]),
        ("card-buying", ["cards_bought_per_round", "buy_share"]),
    ],
)
def test_each_bot_shows_its_tendency_most(tally: Tally, tendency: str, metrics: list[str]) -> None:
    for metric in metrics:
        assert leader(tally, metric) == tendency, metric


def test_the_research_heavy_bot_researches_most_in_every_round(tally: Tally) -> None:
    steps = METRICS["round_research_steps"]
    for round in range(2, 6):  # round 1: nobody has the resources for a bridge yet
        values = {who: tally.metric(steps, who, round=round) or 0.0 for who in TENDENCIES}
        assert max(values, key=lambda who: values[who]) == "research-heavy", (round, values)


def test_the_facts_add_up_to_the_engine_s_own_totals(tally: Tally) -> None:
    """The score sheet's parts add up to the score the result gives; every seat played five rounds; the append
    tables hold one row per card gained and per guardian overcome; the rounds add up to the game."""
    seats = ANALYTICS.tables[0].column_names()
    rounds = ANALYTICS.tables[1].column_names()
    for game in tally.played:
        for (seat,), values in game.tables["seats"].items():
            row: dict[str, Any] = dict(zip(seats, values, strict=True))
            parts = [row[c] for c in seats if c.startswith("score_")]
            assert sum(parts) == game.common[seat]["score"]
            assert row["rounds_played"] == 5 and row["rival"] == 0 and row["solo"] == 0 and row["side"] == "bird"
            assert row["cards_bought"] == sum(1 for key in game.tables.get("purchases", {}) if key[1] == seat)
            assert row["guardians_overcome"] == sum(1 for key in game.tables.get("guardians", {}) if key[0] == seat)
            per_round = [dict(zip(rounds, v, strict=True)) for k, v in game.tables["rounds"].items() if k[1] == seat]
            assert len(per_round) == 5
            for column in rounds[2:]:
                assert sum(r[column] for r in per_round) == row[column], column


def test_solo_results_read_by_the_rival_s_difficulty() -> None:
    """The same bot against the rival at its easiest and hardest: the harder rival beats it by more."""
    solo = Tally(GAME)
    for difficulty in (0, 5):
        for i in range(8):
            bot = GAME.bots.make("heuristic", tendency="research-heavy")
            solo.play([f"level {difficulty}"], [bot], f"solo-{i}", {"difficulty": difficulty})
    margin, wins = METRICS["solo_margin"], METRICS["solo_win_rate"]
    easy, hard = solo.metric(margin, difficulty=0), solo.metric(margin, difficulty=5)
    assert easy is not None and hard is not None and easy > hard
    assert (solo.metric(wins, difficulty=0) or 0) >= (solo.metric(wins, difficulty=5) or 0)
    rival = [g.tables["seats"][(1,)] for g in solo.played]
    names = ANALYTICS.tables[0].column_names()
    for values in rival:
        row = dict(zip(names, values, strict=True))
        assert row["rival"] == 1 and row["solo_margin"] is None and row["main_actions"] > 0
