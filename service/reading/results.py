"""What the read side answers: the lists' items, a tournament's standings, the push channel's updates (and the
rows the dashboard reads through ``Queries``). The API sends these as they are, and the OpenAPI document's schemas
for them are derived from these types (``service.api.responses``): a field added here is a field documented.

TypedDicts from ``typing_extensions``, as in ``service.commands.results`` (which says why).
"""

from __future__ import annotations

from typing import Annotated, NotRequired, final

from typing_extensions import TypedDict

from service.commands.results import TO_ACT, Game, Record, Seated, Status
from service.json_schema_notes import UUID, note

# -- the lists (service.reading.listing) -------------------------------------------------------------------------


class GameSummary(TypedDict):
    """A game as the list of games shows it."""

    id: Annotated[str, UUID]
    kind: str
    tournament: str | None
    round: int | None
    table: int | None
    players: Annotated[list[Seated], note("seat, id, name.")]
    status: Status
    moves: int
    version: int
    started_at: str | None
    ended_at: str | None


# -- a tournament's standings (service.reading.standings) --------------------------------------------------------


class Standing(TypedDict):
    """One player's line in the standings."""

    rank: Annotated[int, note(minimum=1)]
    player_id: str
    name: str
    games: int
    wins: int
    points: int
    score: int
    average_place: float | None


class StandingsOf(TypedDict):
    """The tournament the standings are of."""

    tournament_id: str | None
    name: str | None
    game: str | None
    rounds: int | None


class CrossTableCell(TypedDict):
    """One game of a player in a round of the cross table."""

    game_id: str
    table: int | None
    finished: bool
    place: int | None
    n_players: int
    score: int | None
    points: int


class CrossTableLine(TypedDict):
    """A player's games, round by round (rounds by number, as text)."""

    player_id: str
    name: str
    rank: int
    rounds: dict[str, list[CrossTableCell]]


class Standings(TypedDict):
    """Who is leading: the standings now and after each round, and the cross table."""

    tournament: StandingsOf
    points_table: list[int] | None
    points_rule: str
    tie_breaks: list[str]
    rounds: list[int]
    standings: list[Standing]
    after_round: Annotated[dict[str, list[Standing]], note("The standings after each round (by number, as text).")]
    cross_table: list[CrossTableLine]


# -- the push channel (service.serving.push) ---------------------------------------------------------------------


@final
class Updates(TypedDict):
    """What is new in a game since a version, as the caller may read it."""

    id: Annotated[str, UUID]
    version: Annotated[int, note("The game's latest version (`after` for the next call).")]
    status: Status
    to_act: Annotated[list[int], TO_ACT]
    records: Annotated[
        list[Record],
        note(
            "The records after `after`, up to `version`, exactly as GET /games/{game_id}/log gives them to the "
            "caller (redacted for a seat while the game is on); at most 1000."
        ),
    ]
    ready: Annotated[bool, note("Whether what `until` names has happened (false: the wait ran out first).")]
    game: NotRequired[
        Annotated[Game, note("With `until=turn&include=game`, when ready: the game as the seat sees it.")]
    ]
    retry_after: NotRequired[
        Annotated[
            int,
            note(
                "In a move's `next` only (`POST .../actions?wait=S`): the server was holding as many waiting "
                "requests as it may and answered at once instead; ask the channel again after this many seconds. "
                "(`GET .../updates` says it with 503 `busy` and `Retry-After`.)"
            ),
        ]
    ]
