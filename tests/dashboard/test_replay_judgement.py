"""The replay's judgement card (``dashboard.replay_judgement``) from a judgement made up here: the win-chance graph
plots what its heading says, the marks are docs/judge.md's, a forced move says so, and the seats' table is the
stored summary."""

from __future__ import annotations

import json
from typing import Any

from dashboard.replay_judgement import HEADING, SIGNS, horizon, notes, seats_table, section, win_chance
from domain.judge import ROUNDS_AHEAD
from tests.dashboard.client import by_id, components, text, tree

NAMES = ["Ana", "Beto"]


def estimate(win: float, place: float, value: float, playouts: int = 8) -> dict[str, Any]:
    return {"win": win, "place": place, "value": value, "playouts": playouts}


def move(version: int, seat: int, legal: int = 5, **figures: Any) -> dict[str, Any]:
    judged = legal > 1 and figures.get("judged", True)
    played, best = {"type": "play", "n": version}, figures.get("best", {"type": "play", "n": version})
    return {
        "index": version - 2,
        "version": version,
        "seat": seat,
        "judged": judged,
        "legal": legal,
        "played": played,
        "best": best if judged else None,
        "played_estimate": estimate(figures.get("win", 0.5), 1.5, 0.5) if judged else None,
        "best_estimate": estimate(figures.get("best_win", 0.5), 1.4, 0.6) if judged else None,
        "loss": figures.get("loss", 0.0) if judged else None,
        "accuracy": figures.get("accuracy", 100.0) if judged else None,
        "mark": figures.get("mark"),
    }


ANALYSIS = {
    "game_id": "g",
    "version": 7,
    "judge_version": 2,
    "budget": 8,
    "moves": [
        move(2, 0, win=0.4),
        move(3, 1, legal=1),  # forced
        move(4, 0, win=0.2, best={"type": "pass"}, best_win=0.5, loss=25.0, accuracy=30.0, mark="blunder"),
        move(5, 1, win=0.7),
        move(6, 1, win=0.6, best={"type": "pass"}, best_win=0.7, loss=6.0, accuracy=78.0, mark="inaccuracy"),
    ],
    "seats": [
        {"seat": 0, "judged": 2, "accuracy": 62.5, "mean_loss": 12.5, "inaccuracies": 0, "mistakes": 0, "blunders": 1},
        {"seat": 1, "judged": 2, "accuracy": 88.8, "mean_loss": 3.0, "inaccuracies": 1, "mistakes": 0, "blunders": 0},
    ],
}
WORDS = {v: {"played": f"Move {v}", "best": f"Better than {v}"} for v in (2, 4, 5, 6)}


def test_the_win_chance_graph_plots_each_seat_s_played_move_at_its_judged_decisions() -> None:
    fig = win_chance(ANALYSIS, NAMES, 4)
    assert "each seat played" in HEADING and "judged decisions" in HEADING
    ana, beto = fig.data
    assert (ana.name, list(ana.x), list(ana.y)) == ("Ana", [2, 4], [40.0, 20.0])
    assert (beto.name, list(beto.x), list(beto.y)) == ("Beto", [5, 6], [70.0, 60.0])  # (the forced move is no point)
    assert list(ana.customdata) == ["", "??"] and list(beto.customdata) == ["", "?!"]
    assert fig.layout.shapes[0].x0 == 4  # the cursor at the move shown, as on the VP chart


def test_each_decision_s_note_says_what_was_played_what_was_best_and_its_mark() -> None:
    told = notes(ANALYSIS, NAMES, WORDS)
    assert set(told) == {"2", "3", "4", "5", "6"}
    assert {v: n["mark"] for v, n in told.items()} == {
        "2": None,
        "3": None,
        "4": "blunder",
        "5": None,
        "6": "inaccuracy",
    }
    assert told["4"]["sign"] == SIGNS["blunder"] == "??" and SIGNS["mistake"] == "?" and SIGNS["inaccuracy"] == "?!"
    assert told["3"]["lines"] == ["Beto's move was forced (one legal move): not judged."]
    assert told["4"]["lines"] == [
        "Ana played: Move 4",
        "Worth: win chance 20 %, expected place 1.50 (8 playouts).",
        "The best move found: Better than 4",
        "Worth: win chance 50 %, expected place 1.40 (8 playouts).",
        "Loss 25.0 points of expected result, move accuracy 30: blunder ??.",
    ]
    assert told["2"]["lines"][2].startswith("The best move found: the move played")


def test_the_seats_table_is_the_stored_summary() -> None:
    table = tree(seats_table(ANALYSIS, NAMES))
    rows = [[text(c) for c in components(r, "Td")] for r in components(table, "Tr")][1:]
    assert rows == [["Ana", "62.5", "2", "0", "0", "1"], ["Beto", "88.8", "2", "1", "0", "0"]]


def test_a_game_in_play_has_no_card_and_one_not_judged_says_so() -> None:
    assert section(None, 1) == []
    unjudged = section({"analysis": None, "names": NAMES, "words": {}}, 1)
    assert "not been judged yet" in text(tree(unjudged))
    judged = tree(section({"analysis": ANALYSIS, "names": NAMES, "words": WORDS}, 1))
    assert by_id(judged, "replay-judge-graph")["props"]["figure"]["data"][0]["y"] == [40.0, 20.0]
    assert text(by_id(judged, "replay-judge-heading")) == HEADING  # (above the chart it plots)
    assert text(by_id(judged, "replay-judge-horizon")) == horizon(ROUNDS_AHEAD)  # (and how far its chances look)
    assert json.loads(by_id(judged, "replay-judge-data")["props"]["data-notes"]) == tree(notes(ANALYSIS, NAMES, WORDS))


def test_the_win_chances_say_how_far_the_judge_looks() -> None:
    """A playout cut at a round's end counts a lead on points as a win (docs/judge.md): a chance shown without
    saying so reads as the chance to win the game, which early in a game it is not."""
    assert "end of its round" in horizon(1) and "not a won game" in horizon(1)
    assert "its round and the 1 after it" in horizon(2)
    assert "game's end" in horizon(None) and "round" not in horizon(None)
