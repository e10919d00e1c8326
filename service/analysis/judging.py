"""A stored game judged: its records (``service.integrity.chain.record_of``, plain JSON) turned into the engine's
opening and moves, then ``domain.judge.Judge``. Pure and picklable both ways (records in, a ``GameJudgement``
out), so a worker process or a Dask worker runs it without a store of its own; nothing here names a game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.games import game as game_of
from domain.judge import GameJudgement, Judge, Move
from service.integrity.chain import MOVES


class NotFinished(ValueError):
    """Only a finished game is judged: in play, a judgement would tell a seat what it cannot see."""


@dataclass(frozen=True, slots=True)
class Judged:
    """A game's judgement, with what keys it in the read models beside the judge's own version and budget."""

    game_id: str
    end_version: int  # the version the game ended at (``end_version``): the judgement's key, whatever follows it
    versions: tuple[int, ...]  # the game's version each move recorded, in the moves' order
    judgement: GameJudgement


def finished(records: Sequence[dict[str, Any]]) -> bool:
    """A game is over once its seed is revealed (the service reveals it as the last record, as the log says); a game a
    seat forfeited (out of time) ended outside the rules, with nothing for the judge to judge its play against."""
    return any(r["type"] == "seed_revealed" for r in records) and not any(r["type"] == "forfeit" for r in records)


def end_version(records: Sequence[dict[str, Any]]) -> int:
    """The version a finished game ended at (its seed revealed), which keys the judgement of its moves. Only an
    organiser's ruling may follow the end (``verify`` holds it), and a ruling changes no move played (a restart
    makes a new game): so a ruling recorded after the end moves the game's last version on but leaves the judgement
    standing, where a key at the last version would go stale. For a game without a later ruling the two are the
    same, which is how rows stored under the last version are still found."""
    return max(int(r["version"]) for r in records if r["type"] == "seed_revealed")


def judge_records(records: Sequence[dict[str, Any]], budget: int) -> Judged:
    """Every move of the finished game ``records`` judged at ``budget`` playouts a decision. The judge's seed is
    the game's id: the same game, judge version and budget give the same rows wherever they are computed."""
    created = records[0]
    game_id = str(created["game"])
    if not finished(records):
        raise NotFinished(f"game {game_id} is not over: only finished games are judged")
    found = game_of(created["body"]["kind"])
    rules = found.rules
    opening = [rules.event_from_dict(e) for e in created["body"]["opening"]]
    played = [r for r in records if r["type"] in MOVES]
    moves = [
        Move(
            r["body"]["seat"],
            rules.action_from_dict(r["body"]["action"]),
            [rules.event_from_dict(e) for e in r["body"]["events"]],
        )
        for r in played
    ]
    seats = len(created["body"]["players"])
    judgement = Judge(rules, found.bots, budget=budget).game(opening, moves, seed=game_id, seats=seats)
    return Judged(game_id, end_version(records), tuple(int(r["version"]) for r in played), judgement)
