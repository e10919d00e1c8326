"""Skill ratings with their uncertainty, from finished games' places: OpenSkill's Plackett-Luce model.

Why this model (docs/judge.md, *Ratings*): both games seat up to four or five players and rank them all, ties
included. Plackett-Luce (Weng and Lin 2011, as the ``openskill`` package implements it) rates a whole ranking at
once, so one game moves every seat by what it says about each pair, where Glicko-2 and Elo would split a table into
pairwise games that are not independent. TrueSkill does the same with a factor graph, but it is patented and
trademarked by Microsoft; OpenSkill's models are published, permissively licensed, and reported by their authors
to rank multiplayer games about as well as TrueSkill, faster. Each rating is a normal belief: ``mu`` the estimate,
``sigma`` its standard deviation; ``low``/``high`` is the 95 % band and ``ordinal`` (mu - 3 sigma) the conservative
figure leaderboards order by, so a player with two lucky games does not top one.

Pure and deterministic: the same games in the same order give the same ratings (floating point on one platform),
which is what lets the projections rebuild them. Nothing here names a game: ratings are kept per game kind by the
caller (``Ratings``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the package's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 a game
BAND = 1.96  # the band shown around a rating: 95 % of a normal belief


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's skill in one game kind: the estimate and its uncertainty, after ``games`` rated games."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative skill (mu - 3 sigma): what a leaderboard orders by."""
        return self.mu - 3.0 * self.sigma

    @property
    def low(self) -> float:
        return self.mu - BAND * self.sigma

    @property
    def high(self) -> float:
        return self.mu + BAND * self.sigma


@dataclass(frozen=True, slots=True)
class Change:
    """What one rated game did to one player's rating."""

    player: str
    seat: int
    place: int
    before: Rating
    after: Rating


def rateable(players: Sequence[str]) -> bool:
    """A game is rated when it seats more than one player and none twice (a player cannot be ranked against
    themselves; a solo game against an engine's seat has one player)."""
    return len(players) > 1 and len(set(players)) == len(players)


def rate(before: Mapping[str, Rating], players: Sequence[str], places: Sequence[int]) -> list[Change]:
    """The changes one finished game makes: ``players`` by seat, ``places`` by seat (1 first, ties share a place),
    ``before`` the ratings so far (a player missing starts at the model's default). Raises ``ValueError`` for a game
    that is not ``rateable``."""
    if not rateable(players):
        raise ValueError(f"a game of players {list(players)} is not rated: it needs two or more distinct players")
    if len(places) != len(players):
        raise ValueError(f"{len(places)} places for {len(players)} players")
    olds = [before.get(p, Rating()) for p in players]
    teams = [[MODEL.create_rating([old.mu, old.sigma], name=p)] for p, old in zip(players, olds, strict=True)]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        Change(p, seat, places[seat], old, Rating(team[0].mu, team[0].sigma, old.games + 1))
        for seat, (p, old, team) in enumerate(zip(players, olds, rated, strict=True))
    ]


@dataclass
class Ratings:
    """Every player's rating per game kind, updated one finished game at a time in the order games finished."""

    by_kind: dict[str, dict[str, Rating]] = field(default_factory=dict)

    def get(self, kind: str, player: str) -> Rating:
        return self.by_kind.get(kind, {}).get(player, Rating())

    def add(self, kind: str, players: Sequence[str], places: Sequence[int]) -> list[Change]:
        """Rate one finished game of ``kind``; nothing (an empty list) for a game that is not ``rateable``."""
        if not rateable(players):
            return []
        table = self.by_kind.setdefault(kind, {})
        changes = rate(table, players, places)
        for change in changes:
            table[change.player] = change.after
        return changes
