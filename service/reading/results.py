"""What the read side answers: the lists' items, a tournament's standings, the push channel's updates, and the
rows the dashboard reads through the read port's query objects (``Lists``: games, players, tournaments;
``Replays``: a frame, a game's progress; ``Analytics``: tendencies and figures). The API sends the first three as
they are, and the OpenAPI document's schemas for them are derived from these types (``service.api.responses``): a
field added here is a field documented. A row read from SQL is given its type by a ``cast`` where it is read: the
columns its SELECT names are the type's keys.

TypedDicts from ``typing_extensions``, as in ``service.commands.results`` (which says why).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, final

from typing_extensions import TypedDict

from service.commands.results import TO_ACT, BroadcastDelay, Clock, Game, Record, Seated, Status
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
    penalty: Annotated[int, note("Tournament points the organiser's penalties took off (`points` is after them).")]
    notes: Annotated[list[str], note("The organiser's rulings on the player's games and standing, with the reasons.")]


class RulingNote(TypedDict):
    """An organiser's ruling the standings apply (docs/events.md, *Rulings*)."""

    subject: Annotated[str, note("The game it rules on, or the tournament (a penalty).")]
    ruling: str
    reason: str
    at: str
    note: str


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
    ruling: Annotated[str | None, note("The note of an organiser's ruling on this game or seat.")]


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
    rulings: Annotated[list[RulingNote], note("The organiser's rulings applied, oldest first.")]


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


# -- a delayed broadcast (service.serving.broadcast) ------------------------------------------------------------


class PublicGame(TypedDict):
    """A game as a spectator sees it at the version a broadcast shows: public information only (the engine's
    view for no seat at the table), no hashes, no seed until the game is over."""

    kind: str
    players: list[Seated]
    labels: dict[str, Any]
    options: dict[str, Any]
    status: Status
    to_act: Annotated[list[int], TO_ACT]
    result: Annotated[dict[str, Any] | None, note("null while the game is on.")]
    seed: Annotated[str | None, note("null until the game is over (and shown).")]
    view: Annotated[dict[str, Any], note("The game's view for a spectator: what every seat can see.")]
    clock: Annotated[
        Clock | None,
        note("A timed game's clock as it stood at the version shown (a deadline long past, with a delay); else null."),
    ]


@final
class Broadcast(TypedDict):
    """What a spectator may see of a game in play: its public view at the latest version the tournament's delay
    allows, and the records after `after` up to it, redacted as for a spectator."""

    id: Annotated[str, UUID]
    delay: BroadcastDelay
    version: Annotated[
        int,
        note("The version shown (`after` for the next call); 0: nothing is old enough to show yet."),
    ]
    status: Annotated[Status, note("The status at the version shown.")]
    records: Annotated[list[Record], note("The records after `after`, up to `version`, redacted for a spectator.")]
    ready: Annotated[bool, note("Whether a version after `after` is shown (false: the wait ran out first).")]
    game: Annotated[PublicGame | None, note("The game at `version` as a spectator sees it; null at version 0.")]


# -- the dashboard's rows (the read models, through the read side's queries) ---------------------------------------


class TournamentRow(TypedDict):
    """A tournament as its read model holds it (``rm_tournaments``)."""

    tournament_id: str
    name: str
    rounds: int
    game: str
    created_at: str


class TournamentListed(TournamentRow):
    """A tournament in the list of tournaments: with its games (of its own game) and how many are over."""

    games: int
    finished: int


class PlayerRow(TypedDict):
    """A player as its read model holds it (``rm_players``), with the totals the projection keeps."""

    player_id: str
    name: str
    kind: str
    bot: dict[str, Any] | None
    games: Annotated[int, note("Finished games.")]
    wins: int


class SeatRow(TypedDict):
    """A seat of a game's row: who sat there; in the games list, also their place and score (None in play)."""

    seat: int
    id: str
    name: str
    place: NotRequired[int | None]
    score: NotRequired[int | None]


class GameRow(TypedDict):
    """A game as its read model holds it (``rm_games``), its JSON read. The row also holds the game's own per-game
    facts (its fact tables keyed by the game alone; None for a game of another kind): only that game's code knows
    their names, so they are not typed here."""

    game_id: str
    kind: str
    tournament_id: str | None
    round_label: int | None
    table_label: int | None
    n_players: int
    players: list[SeatRow]
    status: str
    winner_seat: int | None
    winner_player: str | None
    winners: list[int]
    round: int
    moves: int
    started_at: str | None
    ended_at: str | None
    last_version: int
    detail: dict[str, Any]
    rounds: Annotated[int, note("The rounds reached: the core's `round` unless the game's facts say otherwise.")]
    win_how: Annotated[str | None, note("How the game was won, where its result's detail says.")]


class GamesPage(TypedDict):
    """A page of the games list and how many games match in all."""

    total: int
    rows: list[GameRow]


class MoveRow(TypedDict):
    """A move as its read model holds it (``rm_moves``)."""

    game_id: str
    version: int
    seat: int
    player_id: str
    kind: str
    round: int
    at: str
    think_ms: float | None
    summary: str


class ReplayLine(TypedDict):
    """One record of a replay's log: its version, who moved (None: the game's opening or the seed's reveal) and
    what happened, told from the replay's perspective."""

    version: int
    seat: int | None
    lines: list[str]


class ReplayFrame(Game):
    """One frame of a replay: the game as a seat (or the referee) saw it at a version, stopped after
    ``events_shown`` of the record's ``event_count`` events, with the log up to there."""

    events_shown: int
    event_count: int
    log: list[ReplayLine]


class RoundPoints(TypedDict):
    round: int
    scores: list[int]


class Progress(TypedDict):
    """Every seat's name and, after every version, the round and every seat's points."""

    names: list[str]
    points: list[RoundPoints]


class Timeline(TypedDict):
    """Every seat's points after every version (``vp``), and the round each version is in."""

    names: list[str]
    vp: list[list[int]]
    round: list[int]


class Tendency(TypedDict):
    """One metric's tendency as the pages read it: its value, sample size (0 when none) and how it is shown."""

    value: float | None
    n: int | float
    label: str
    grain: Literal["seat", "game", "round"]
    share: bool
    group: str


class Tendencies(TypedDict):
    """A player's (or the field's, player None) tendencies over finished games of a kind, by metric name."""

    player: str | None
    kind: str
    n_players: int | tuple[int, ...] | None
    games: int
    metrics: dict[str, Tendency]


class ByRound(TypedDict):
    """A metric's value in one round (of the games, or of a tournament), over ``n`` rows."""

    round: int
    value: float | None
    n: int | float | None


class ByDimension(TypedDict):
    """A metric's value for one value (``grp``) of a dimension, at one table size."""

    n_players: int
    grp: Any
    value: float | None
    n: int | float | None
    games: int


class Count(TypedDict):
    """How many seats (or games) had this value."""

    value: Any
    n: int


# -- a finished game's judgement (service.reading.judgements; docs/judge.md) ----------------------------------


class SeatFigures(TypedDict):
    """What a move is worth to every seat, in seat order (judge version 3 on: what fair play reads)."""

    wins: Annotated[list[float] | None, note("Each seat's chance to win, 0 to 1, in seat order.")]
    values: Annotated[list[float] | None, note("Each seat's expected result, 0 to 1, in seat order.")]


class MoveEstimate(SeatFigures):
    """What a move is worth to its mover, over the judge's playouts, and to every seat (``wins``, ``values``)."""

    win: Annotated[float, note("The chance to win (a shared win counts), 0 to 1.", minimum=0, maximum=1)]
    place: Annotated[float, note("The expected place, 1 first.", minimum=1)]
    value: Annotated[float, note("The expected result, 0 (sure last) to 1 (sure win).", minimum=0, maximum=1)]
    playouts: Annotated[int, note("The playouts behind these figures.", minimum=1)]


class JudgedMove(TypedDict):
    """One decision of the game: the move played and the best found, what each was worth, the loss between."""

    index: Annotated[int, note("The move's number in the game, 0 first.", minimum=0)]
    version: Annotated[int, note("The game's version the move recorded (its record in the log).", minimum=2)]
    seat: int
    judged: Annotated[bool, note("False for a forced move (one legal action): no figures.")]
    legal: Annotated[int, note("The legal actions the seat had.")]
    played: Annotated[dict[str, Any], note("The action played, as the game's actions are written.")]
    best: Annotated[dict[str, Any] | None, note("The best action found (the one played if none beat it).")]
    played_estimate: MoveEstimate | None
    best_estimate: MoveEstimate | None
    loss: Annotated[float, note("100 x (value of the best found - value of the move played), at least 0.")]
    accuracy: Annotated[float | None, note("The move's accuracy, 0 to 100 (lichess's curve of the loss).")]
    mark: Literal["inaccuracy", "mistake", "blunder"] | None
    options: Annotated[
        SeatFigures | None,
        note("Every seat's figures over the mover's options on average (every candidate the judge compared)."),
    ]


class JudgedSeat(TypedDict):
    """One seat's game: its judged moves, accuracy, mean loss and marks."""

    seat: int
    judged: Annotated[int, note("The seat's judged moves.")]
    accuracy: Annotated[float | None, note("0 to 100; null without a judged move.")]
    mean_loss: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


class Analysis(TypedDict):
    """A finished game judged: every decision, and each seat's accuracy (docs/judge.md)."""

    game_id: Annotated[str, UUID]
    version: Annotated[
        int, note("The version the game ended at, which keys its judgement (rulings since change no move).")
    ]
    judge_version: Annotated[int, note("The judge's version: a new one judges again.")]
    budget: Annotated[int, note("Playouts a decision.")]
    moves: list[JudgedMove]
    seats: list[JudgedSeat]


class RatingFigures(TypedDict):
    """A player's skill rating in one game kind (docs/judge.md, *Ratings*): a normal belief about their skill."""

    mu: Annotated[float, note("The estimate (a new player starts at 25).")]
    sigma: Annotated[float, note("Its standard deviation: the uncertainty left (a new player's: 25/3).")]
    low: Annotated[float, note("The 95 % band's lower end, mu - 1.96 sigma.")]
    high: Annotated[float, note("The 95 % band's upper end, mu + 1.96 sigma.")]
    ordinal: Annotated[float, note("The conservative skill, mu - 3 sigma: what leaderboards order by.")]
    games: Annotated[int, note("The rated games behind it.")]


class AccuracyFigures(TypedDict):
    """A player's mean accuracy over their judged seats of one game kind, at the judge's current version."""

    mean: Annotated[float, note("0 to 100: the mean of the player's seats' accuracy (docs/judge.md).")]
    games: Annotated[int, note("The judged games behind it.")]
    judge_version: int


class KindSkill(TypedDict):
    """What a player's finished games of one game kind say of their play."""

    kind: str
    rating: Annotated[RatingFigures | None, note("Null: no rated game of this kind yet.")]
    accuracy: Annotated[AccuracyFigures | None, note("Null: no judged game of this kind yet.")]


class RatingChange(TypedDict):
    """One rated game's change to a player's rating: before and after, and when the game finished."""

    game_id: Annotated[str, UUID]
    seat: int
    place: int
    ended_at: str | None
    before: RatingFigures
    after: RatingFigures


class LeaderboardEntry(TypedDict):
    """A place on a game kind's leaderboard."""

    rank: Annotated[int, note("1 first: by ordinal (mu - 3 sigma), highest first; equal ordinals share no rank.")]
    player: Annotated[str, UUID]
    name: str
    rating: RatingFigures


class FairPlayMove(TypedDict):
    """One move behind a fair-play finding: where it is and what it weighed for the signal."""

    game_id: Annotated[str, UUID]
    index: Annotated[int, note("The move's number in the game, 0 first.", minimum=0)]
    version: Annotated[int, note("The game's version that recorded it: the replay's position just after it.")]
    seat: Annotated[int, note("The mover's seat.")]
    player: Annotated[str, note("The player who held the seat at that move.")]
    amount: Annotated[float, note("What it weighed for the signal, in the signal's own unit (docs/fair_play.md).")]


class FairPlayFinding(TypedDict):
    """One signal's score for one player or pair: a measure to look into, never a verdict."""

    signal: Literal["gifts", "soft_play", "kingmaking", "bot_like"]
    subject: Annotated[list[str], note("The player, or the pair (in the signal's order: docs/fair_play.md).")]
    score: Annotated[float, note("The higher, the further from the field, on the signal's scale.")]
    flagged: Annotated[bool, note("The score at or above the signal's threshold.")]
    games: Annotated[int, note("The games behind the score.")]
    decisions: Annotated[int, note("The judged decisions behind the score.")]
    figures: Annotated[dict[str, float], note("The signal's own figures, named in docs/fair_play.md.")]
    moves: Annotated[list[FairPlayMove], note("The moves behind it, the weightiest first.")]


class FairPlay(TypedDict):
    """A tournament's fair-play report (docs/fair_play.md): each signal's findings ranked by score, and how many of
    its finished games the judge has judged at its current version (the report reads those only)."""

    tournament_id: Annotated[str, UUID]
    games: Annotated[int, note("The judged games the report read.")]
    decisions: Annotated[int, note("The judged decisions the report read.")]
    thresholds: Annotated[dict[str, float], note("Each signal's threshold: a score at or above it is flagged.")]
    signals: Annotated[dict[str, list[FairPlayFinding]], note("Each signal's findings, the highest score first.")]
    finished_games: Annotated[int, note("The tournament's finished games (a game forfeited out of time aside).")]
    judged_games: Annotated[int, note("Those judged at the current judge version.")]
    unjudged_games: Annotated[
        list[Annotated[str, UUID]], note("Those not judged yet: `digsite analyse --tournament` judges them.")
    ]
