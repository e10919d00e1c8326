"""What the fair-play signals read: the judged decisions of a tournament's games, each with the players at its table.

Every figure is the judge's (``domain.judge``, version 3 on): a seat's win chance and value (its expected result in
[0, 1]) after the move played, after the best move found, and on average over the mover's options (every candidate
the judge compared, on common draws): the reference a move's help or harm to another seat is measured from. Think
times come from the store's record times (the service) or the simulation's clock. Plain data, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.judge import Estimate


@dataclass(frozen=True, slots=True)
class Outlook:
    """Every seat's chances after a move, in seat order: win chance and value (the judge's ``Estimate``)."""

    wins: tuple[float, ...]
    values: tuple[float, ...]

    @classmethod
    def of(cls, estimate: Estimate) -> Outlook:
        return cls(tuple(estimate.wins), tuple(estimate.values))


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision (the judge's ``Judgement.judged`` true) of a game of the tournament."""

    game_id: str
    index: int  # the move's number in the game, 0 first (the judge's ``index``)
    version: int  # the game's version that recorded the move: the replay's position just after it
    seat: int  # the mover's seat
    players: tuple[str, ...]  # the player who held each seat at this move (a substitute from its move on)
    played: Outlook
    best: Outlook  # the best move found's (the move played's own when the judge found nothing better)
    options: Outlook  # the mover's options on average
    loss: float  # the judge's loss, points of expected result (0-100)
    matched: bool  # the move played is the best move found
    think_seconds: float | None  # from the seat's turn beginning to the move's record; None when unknown

    @property
    def player(self) -> str:
        return self.players[self.seat]

    @property
    def table_size(self) -> int:
        return len(self.players)


@dataclass(frozen=True, slots=True)
class TournamentEvidence:
    """A tournament's judged decisions, game by game in the order they were played."""

    tournament_id: str
    decisions: Sequence[Decision]
    games: int  # finished, judged games behind the decisions
