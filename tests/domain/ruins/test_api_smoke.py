"""The public API holds together: a seeded game plays to the end and replays exactly."""

from domain import ruins
from domain.ruins.bots import HeuristicBot, RandomBot
from domain.ruins.evolve import replay
from domain.ruins.simulate import play_game


def test_a_seeded_game_is_reproducible_and_replays_from_its_events() -> None:
    bots = [RandomBot(), HeuristicBot(), RandomBot()]
    first = play_game(["a", "b", "c"], bots, seed=11)
    second = play_game(["a", "b", "c"], bots, seed=11)
    assert first.events == second.events
    assert first.state.outcome is not None
    assert replay(first.events) == first.state


def test_redeciding_the_recorded_actions_gives_the_recorded_events() -> None:
    played = play_game(["a", "b", "c", "d"], [HeuristicBot()] * 4, seed="audit")
    state = ruins.new_game(["a", "b", "c", "d"], seed="audit")
    events = list(ruins.start(["a", "b", "c", "d"], seed="audit"))
    for action in played.actions:
        new = ruins.decide(state, action)
        events.extend(new)
        for event in new:
            state = ruins.evolve(state, event)
    assert tuple(events) == played.events
