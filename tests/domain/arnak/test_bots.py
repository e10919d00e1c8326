"""The bots: a random bot and a heuristic bot with tunable tendencies play whole games that replay exactly."""

from __future__ import annotations

import pytest

from domain import arnak
from domain.arnak import events as ev
from domain.arnak.bots import TENDENCIES, HeuristicBot, RandomBot
from domain.arnak.simulate import play_game

PLAYERS = ["a", "b", "c", "d"]


def test_a_seeded_game_is_reproducible_and_replays_from_its_events() -> None:
    bots = [RandomBot(), HeuristicBot("dig-heavy"), RandomBot(0.1), HeuristicBot("card-buying")]
    first = play_game(PLAYERS, bots, seed=11)
    second = play_game(PLAYERS, bots, seed=11)
    assert first.events == second.events and first.state.outcome is not None
    assert arnak.replay(first.events) == first.state


def test_the_heuristic_bot_outscores_the_random_bot() -> None:
    heuristic = random = 0
    for seed in range(12):
        played = play_game(PLAYERS[:2], [RandomBot(), HeuristicBot()], seed=seed)
        assert played.state.outcome is not None
        random += played.state.outcome.scores[0].total
        heuristic += played.state.outcome.scores[1].total
    assert heuristic > random + 12 * 3, (heuristic, random)


def _count(tendency: str, kinds: tuple[type, ...]) -> int:
    total = 0
    for seed in range(6):
        played = play_game(PLAYERS[:2], [HeuristicBot(tendency), HeuristicBot(tendency)], seed=seed)
        total += sum(isinstance(e, kinds) for e in played.events)
    return total


@pytest.mark.parametrize(
    ("tendency", "kinds"),
    [
        ("research-heavy", (ev.ResearchMoved, ev.TempleTileBought)),
        ("card-buying", (ev.CardBought,)),
        ("guardian-hunting", (ev.GuardianOvercome,)),
        ("dig-heavy", (ev.ArchaeologistPlaced,)),
    ],
)
def test_each_tendency_does_more_of_what_it_names(tendency: str, kinds: tuple[type, ...]) -> None:
    others = [t for t in TENDENCIES if t not in (tendency, "balanced")]
    mine = _count(tendency, kinds)
    assert all(mine >= _count(other, kinds) for other in others), tendency


def test_an_unknown_tendency_is_refused() -> None:
    with pytest.raises(ValueError, match="tendency"):
        HeuristicBot("reckless")
    assert set(TENDENCIES) == {"balanced", "dig-heavy", "research-heavy", "card-buying", "guardian-hunting"}
