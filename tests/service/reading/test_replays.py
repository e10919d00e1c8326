"""The log a replay and the play page show (``service.reading.replays.entries``): one entry per version, in the engine's
words for its reader."""

from __future__ import annotations

import pytest

from domain.games import game
from domain.play import play_game
from service.commands.application import Digsite
from service.reading.replays import entries, evolved, steps


@pytest.mark.parametrize("kind", ["ruins", "arnak"])
def test_every_move_says_what_it_did_even_one_that_only_hands_the_turn_on(service: Digsite, kind: str) -> None:
    """A line that only says who acts next is left to the table, unless it is all a move did (Arnak's end of a
    turn): an entry that showed nothing read as a move that changed nothing."""
    played = game(kind)
    names = ["Ana", "Beto"]
    seats = [service.create_player(n) for n in names]
    result = play_game(played.rules, names, [played.bots.make("heuristic")] * 2, seed=f"log-{kind}")
    actions = [played.rules.action_to_dict(a) for a in result.actions]
    game_id = service.store_scripted_game(kind, seats, actions, seed=f"log-{kind}")
    records = service.stored_records(game_id)
    for reader in (None, 0, 1):
        log = entries(records, reader)
        assert [e.version for e in log] == [r["version"] for r in records]
        moves = [e for e in log if e.seat is not None]
        assert len(moves) == len(actions)
        for entry in moves:
            assert any(line for line in entry.lines), entry
        # Ending a turn is a move of its own in Arnak: its entry says who ended it, then whose turn it is now (the
        # next seat's name alone, beside the mover's, read as the next seat's move).
        only_turn = [
            e for e in moves if [x for x in e.lines if x] == [e.lines[-1]] and str(e.lines[-1]).endswith(" to act")
        ]
        assert bool(only_turn) == (kind == "arnak")
        for entry in only_turn:
            assert str(entry.lines[-1]).startswith(f"{names[entry.seat]} ends their turn; "), entry


@pytest.mark.parametrize("kind", ["ruins", "arnak"])
def test_a_log_from_a_later_version_and_frames_from_a_kept_state_are_the_whole_games(
    service: Digsite, kind: str
) -> None:
    """The play page tells only its last moves and a replay's part starts from a state kept at its boundary: both
    are exactly what the whole game from its first record gives, for every reader."""
    played = game(kind)
    names = ["Ana", "Beto"]
    seats = [service.create_player(n) for n in names]
    result = play_game(played.rules, names, [played.bots.make("heuristic")] * 2, seed=f"since-{kind}")
    actions = [played.rules.action_to_dict(a) for a in result.actions][:60]
    game_id = service.store_scripted_game(kind, seats, actions, seed=f"since-{kind}")
    records = service.stored_records(game_id)
    for reader in (None, 0, 1):
        whole = entries(records, reader)
        assert [e.version for e in whole] == [r["version"] for r in records]
        for since in (1, 2, 30, len(records)):
            assert entries(records, reader, since=since) == whole[since - 1 :]
        every = list(steps(records, reader))
        # A replay's part asks for the versions whole or the frames within them: the same frames, the others unviewed.
        assert list(steps(records, reader, whole=True)) == [s for s in every if s.whole]
        assert list(steps(records, reader, whole=False)) == [s for s in every if not s.whole]
        assert any(not s.whole for s in every)
        for boundary in (1, 25, 50):
            kept = (boundary, evolved(records, boundary))
            assert list(steps(records, reader, boundary + 1, start=kept)) == [s for s in every if s.version > boundary]


def test_a_ruling_shows_in_the_log_and_the_replay_with_its_reason_even_after_the_game_was_read(
    service: Digsite,
) -> None:
    from service.reading.replays import Replays
    from tests.service.integrity.test_audit import finished_game

    game_id = finished_game(service, "log-ruling")
    replays = Replays(service.reader)
    before = replays.records(game_id)  # (a finished game's records, kept)
    service.rulings.rule_on_game(game_id, {"ruling": "annul", "reason": "two players swapped seats"})
    records = replays.records(game_id)
    assert len(records) == len(before) + 1 and records[-1]["type"] == "ruling"
    line = entries(records, 1)[-1]
    assert line.seat is None and line.lines == [
        "Organiser's ruling: the game is annulled. Reason: two players swapped seats"
    ]
    frame = replays.replay(game_id, len(records), seat=0)
    assert frame["log"][-1]["lines"] == line.lines
