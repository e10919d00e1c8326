"""What the command service answers (``service.commands.application.Digsite``): a player, a tournament, a game
as a viewer sees it, a move's acknowledgement, a stored record. The API sends these as they are, and the OpenAPI
document's schemas for them are derived from these types (``service.api.responses``), so a field added here is a
field documented.

TypedDicts, so an answer stays a plain dict (``found["version"]``) that mypy checks wherever it is read. They come
from ``typing_extensions`` because pydantic, which derives their JSON Schema, reads only that TypedDict on Python
3.11 (the standard one from 3.12 on).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from service.json_schema_notes import TIMESTAMP, UUID, Note, note

Status = Literal["playing", "over"]
TO_ACT = note("Seats that may act now.")


class Player(TypedDict):
    """A player (a person or a bot)."""

    id: Annotated[str, UUID]
    name: str
    kind: Literal["human", "bot"]
    bot: Annotated[dict[str, Any] | None, note("A bot's settings, as given when it was created; null for a person.")]
    created_at: Annotated[str, TIMESTAMP]


class Tournament(TypedDict):
    """A tournament: rounds of games of one game under one set of rule options."""

    id: Annotated[str, UUID]
    name: str
    rounds: int
    game: str
    options: Annotated[
        dict[str, Any] | None,
        note(
            "The rule options every game of it plays with, as given when it was created (`{}`: the game's "
            "defaults; null: a tournament created before tournaments held them, whose games may have any)."
        ),
    ]
    clock: NotRequired[
        Annotated[
            dict[str, Any],
            note(
                "A timed tournament's time control, which every game of it plays under ({bank, increment} or "
                "{per_move}, seconds); absent: untimed. Given by the tournament itself (`getTournament`), not in "
                "lists."
            ),
        ]
    ]
    created_at: Annotated[str, TIMESTAMP]


class SeatToken(TypedDict):
    seat: int
    player: str
    token: str


class GameCreated(TypedDict):
    """A new game: its id, first version, seed commitment and the seats' secret tokens."""

    id: Annotated[str, UUID]
    version: int
    seed_commitment: Annotated[str, note('sha256("digsite-seed:" + seed), hex.')]
    tokens: Annotated[list[SeatToken], note("One secret token per seat. Shown only here: hand each to its player.")]


class Seated(TypedDict):
    """A seat of a game and the player in it."""

    seat: int
    id: str
    name: str


class GameResult(TypedDict):
    """How a game ended, the same summary for every game."""

    ranking: Annotated[list[int], note("Every seat, best first.")]
    winners: list[int]
    scores: Annotated[list[int], note("One per seat.")]
    detail: Annotated[dict[str, Any], note("The game's own detail.")]


# A game's view follows the game's own view schema, which the document holds per kind (service.api.schemas):
# service.api.responses says which, where the document is built.
VIEW = Note("The game as the caller may see it (hidden information only as that seat may know it): the game's view "
            "schema.")  # fmt: skip


class ClockSeat(TypedDict):
    """One seat's time: what it had left when its time last began to run (or stopped), and whether it runs."""

    seat: int
    left: Annotated[float, note("Seconds left at `since` (running), or now (stopped).")]
    running: bool
    since: Annotated[str | None, note("When its time began to run (null: stopped).")]
    deadline: Annotated[str | None, note("When its time runs out unless it moves first (null: stopped).")]


class Clock(TypedDict):
    """A timed game's clock, as every seat sees it (it changes only when a record lands: count down to
    `deadline`)."""

    control: Annotated[dict[str, Any], note("{bank, increment} or {per_move}, in seconds.")]
    paused: Annotated[bool, note("The organiser has paused the table: nobody's time runs, no move is taken.")]
    seats: list[ClockSeat]


class ClockChange(TypedDict):
    """The clock record stored: the game's new version and its clock."""

    version: int
    clock: Clock


class Game(TypedDict):
    """A game as one viewer sees it: a seat its view and legal actions, an organiser all."""

    id: Annotated[str, UUID]
    kind: str
    version: Annotated[int, note("The version shown (act on this one).")]
    latest_version: int
    status: Status
    players: list[Seated]
    labels: Annotated[dict[str, Any], note("tournament, round, table (as given).")]
    options: dict[str, Any]
    rules_version: str
    created_at: Annotated[str, TIMESTAMP]
    updated_at: Annotated[str, TIMESTAMP]
    seed_commitment: str
    seed: Annotated[str | None, note("null until the game is over.")]
    to_act: Annotated[list[int], TO_ACT]
    result: Annotated[GameResult | None, note("null while the game is on.")]
    view: Annotated[dict[str, Any], VIEW]
    clock: Annotated[Clock | None, note("Each seat's time (null: an untimed game).")]
    last_hash: NotRequired[Annotated[str, note("Organisers only: the head of the hash chain.")]]
    seat: NotRequired[Annotated[int, note("Seats only.")]]
    legal_actions: NotRequired[
        Annotated[
            list[dict[str, Any]],
            note("Seats only: every action the seat may post now (empty for a past version)."),
        ]
    ]


class Record(TypedDict):
    """A stored record of a game. hash = sha256 of canonical JSON {game, version, prev, body}; each record's
    prev_hash is the hash of the record before it."""

    type: Literal["created", "move", "timeout", "forfeit", "clock", "seed_revealed", "ruling"]
    game: Annotated[str, UUID]
    version: int
    hash: NotRequired[Annotated[str, note("Organisers (and seats once the game is over).")]]
    prev_hash: NotRequired[str]
    body: dict[str, Any]


class MoveAcknowledged(TypedDict):
    """A move that landed: the game's new version, and what happened as the seat may see it."""

    version: Annotated[int, note("The game's new version.")]
    events: Annotated[list[dict[str, Any]], note("As the seat may see them.")]
    status: Status
    to_act: Annotated[list[int], TO_ACT]


class Entry(TypedDict):
    """A player entered in a tournament."""

    id: Annotated[str, UUID]
    name: str


class SeatedPlayer(TypedDict):
    seat: Annotated[int, note("0 is the first seat.")]
    id: Annotated[str, UUID]
    name: str


class RoundTable(TypedDict):
    table: Annotated[int, note("1 is the first table.")]
    game: Annotated[str | None, note("The table's game (null in a dry run: nothing is created).")]
    status: Annotated[Status | None, note("The game's status (null in a dry run).")]
    players: Annotated[list[SeatedPlayer], note("In seat order.")]


class SeatedRound(TypedDict):
    """A round of a tournament: its tables, who sat out, how it was seated."""

    tournament: Annotated[str, UUID]
    round: int
    format: Literal["round_robin", "swiss", "csv"]
    table_size: Annotated[int, note("The largest table (tables of a round differ by at most one seat).")]
    seated: Annotated[bool, note("False for a dry run: how the round would be seated, nothing stored.")]
    status: Annotated[Status | None, note("`over` once every table's game is; null in a dry run.")]
    tables: list[RoundTable]
    byes: Annotated[list[Entry], note("The entries who sit this round out.")]
    forced_past: Annotated[
        list[Annotated[str, UUID]],
        note("Games of earlier rounds still in play when the organiser forced this round: they go on and count."),
    ]


class TournamentRounds(TypedDict):
    """A tournament's entries and seated rounds, and what comes next."""

    id: Annotated[str, UUID]
    name: str
    game: str
    rounds: Annotated[int, note("How many rounds the tournament has.")]
    entries: list[Entry]
    seated_rounds: list[SeatedRound]
    next_round: Annotated[int | None, note("The round to seat next; null once every round is seated.")]
    complete: Annotated[bool, note("Every round seated and every game of them over.")]


class SeatLink(TypedDict):
    """One seat's link: the dashboard's seat page for that game, with the seat's secret token."""

    round: int
    table: int
    seat: int
    player: Annotated[str, UUID]
    name: str
    game: Annotated[str, UUID]
    url: str


class ContinuedAs(TypedDict):
    """The new game a restart continues as: same players, options and seed, the moves up to the version."""

    id: Annotated[str, UUID]
    version: int
    tokens: Annotated[list[SeatToken], note("One new secret token per seat. Shown only here.")]


class Ruling(TypedDict):
    """An organiser's ruling on a game, as recorded (a record of type `ruling`: docs/events.md, *Rulings*)."""

    type: Literal["ruling"]
    game: Annotated[str, UUID]
    version: int
    hash: str
    prev_hash: str
    body: Annotated[dict[str, Any], note("`ruling`, `reason`, `details` (what it rules) and `at`.")]
    token: NotRequired[Annotated[SeatToken, note("A substitute's new seat token. Shown only here.")]]
    continued_as: NotRequired[ContinuedAs]


class Penalty(TypedDict):
    """An organiser's penalty: points off a player's tournament standing, with the reason."""

    ruling: Literal["penalty"]
    player: Annotated[str, UUID]
    points: int
    reason: str
    at: Annotated[str, TIMESTAMP]


class RulingList(TypedDict):
    """A game's rulings (oldest first), or a tournament's penalties."""

    rulings: list[Any]


class BroadcastDelay(TypedDict):
    """How far behind play spectators follow a tournament's games: ``moves`` behind or ``minutes`` behind."""

    moves: NotRequired[Annotated[int, note("Moves behind the game (0: every move as soon as it is recorded).")]]
    minutes: NotRequired[Annotated[float, note("Minutes behind: a record is shown once it is this old.")]]


class BroadcastSetting(TypedDict):
    """A tournament's broadcast: its delay, or null (off: spectators see its games once they are over)."""

    tournament: Annotated[str, UUID]
    delay: BroadcastDelay | None
