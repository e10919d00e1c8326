"""Every read-model table, declared once: the generic core here, and each registered game's fact tables from its
own declaration (``Analytics.tables`` in ``domain/<game>/``), never named here. ``digsite db upgrade`` makes the
store's tables match these (``service.store.backends``); a new table, column or index is a change here (or in
the game's analytics part) and nothing else: see docs/projections.md, *Where a new table goes*.

The projection writes them (``service/reading/projections/``) and the queries read them; every one is derived
from the event store, so a table whose rows change shape is rebuilt rather than converted.
"""

from __future__ import annotations

from functools import cache

from domain.games import GAMES
from domain.metrics import FactTable
from service.store.schema import Column, Index, Table

# The projection's position in the log, reset with the read models when they are rebuilt: the library's tracking
# table (made by the store's migrations) and the row of the application the projection follows.
PROJECTION_NAME = "Digsite"
TRACKING_TABLE = {"postgresql": "digsite_projection_tracking", "sqlite": "tracking"}


def _text(name: str, *, not_null: bool = True, default: str | None = None) -> Column:
    return Column(name, "text", not_null, default)


def _int(name: str, *, not_null: bool = True, default: str | None = None) -> Column:
    return Column(name, "int", not_null, default)


def _count(name: str) -> Column:
    """A number that adds up from 0."""
    return Column(name, "int", True, "0")


# The one-column keys below are not declared NOT NULL: SQLite, unlike PostgreSQL, does not imply it, and the stores
# made before these declarations have them so.
PLAYERS = Table(
    "rm_players",
    (
        _text("player_id", not_null=False),
        _text("name"),
        _text("kind"),
        _text("bot", not_null=False),
        _text("created_at", not_null=False),
        _count("games"),  # finished games, kept on the row (docs/performance.md, section 7)
        _count("wins"),
    ),
    primary_key=("player_id",),
    indexes=(Index("rm_players_name", ("name", "player_id")),),  # a picker's search reads names in order
)

TOURNAMENTS = Table(
    "rm_tournaments",
    (
        _text("tournament_id", not_null=False),
        _text("name"),
        _int("rounds", not_null=False),
        _text("game", not_null=False),
        _text("created_at", not_null=False),
        _text("options", not_null=False),  # NULL: projected before tournaments held options
    ),
    primary_key=("tournament_id",),
)

GAMES_TABLE = Table(
    "rm_games",
    (
        _text("game_id", not_null=False),
        _text("kind"),
        _text("tournament_id", not_null=False),
        _int("round_label", not_null=False),
        _int("table_label", not_null=False),
        _int("n_players"),
        _text("players"),
        _text("status"),
        _int("winner_seat", not_null=False),
        _text("winner_player", not_null=False),
        _text("winners", default="'[]'"),
        _count("round"),
        _count("moves"),
        _text("started_at", not_null=False),
        _text("ended_at", not_null=False),
        _int("last_version", default="1"),
        _text("detail", not_null=False),
    ),
    primary_key=("game_id",),
    indexes=(
        Index("rm_games_tournament", ("tournament_id", "round_label", "table_label")),
        Index("rm_games_kind_status", ("kind", "status")),
    ),
)

PLAYER_GAMES = Table(
    "rm_player_games",
    (
        _text("game_id"),
        _int("seat"),
        _text("player_id"),
        _text("kind"),
        _int("n_players"),
        _count("finished"),
        _count("won"),
        _int("place", not_null=False),
        _int("score", not_null=False),
        _count("moves"),
        Column("think_ms", "real", True, "0"),  # a fraction: sub-millisecond moves count
    ),
    primary_key=("game_id", "seat"),
    indexes=(
        Index("rm_player_games_player", ("player_id", "finished", "kind")),
        Index("rm_player_games_kind", ("kind", "finished", "n_players")),
    ),
)

MOVES = Table(
    "rm_moves",
    (
        _text("game_id"),
        _int("version"),
        _int("seat"),
        _text("player_id"),
        _text("kind"),
        _int("round"),
        _text("at"),
        Column("think_ms", "real"),
        _text("summary"),
    ),
    primary_key=("game_id", "version"),
)

# The field's figures kept as sums (service/reading/projections/field.py).
FIELD_SUMS = Table(
    "rm_field_sums",
    (
        _text("kind"),
        _text("scope"),
        _text("figure"),
        _int("n_players"),
        _text("grp"),
        _text("measure"),
        Column("total", "real", True),
    ),
    primary_key=("kind", "scope", "figure", "n_players", "grp", "measure"),
)

# An organiser's rulings (service/commands/rulings.py): a game's (``subject_id`` the game) and a tournament's penalties
# (``subject_id`` the tournament), for the standings to apply, each with its reason.
RULINGS = Table(
    "rm_rulings",
    (
        _text("subject_id"),
        _int("version"),
        _text("ruling"),
        _text("reason"),
        _text("details"),  # JSON: what it rules (a penalty's player and points)
        _text("at"),
    ),
    primary_key=("subject_id", "version"),
)

# Skill ratings (service/reading/projections/ratings.py; docs/judge.md, *Ratings*). Every finished game, with the
# notification id of the record that finished it: the order games are rated in (kept by the distributed rebuild's
# shares too, whose coordinator rates every game in that order at its end).
FINISHES = Table(
    "rm_game_finishes",
    (
        _text("game_id", not_null=False),
        _text("kind"),
        _int("finish_id"),  # the notification id of the record that finished the game
        _text("ended_at", not_null=False),
    ),
    primary_key=("game_id",),
    indexes=(Index("rm_game_finishes_order", ("finish_id",)),),
)

# One row a seat of a rated game: the player's rating in the game's kind before and after it.
RATING_CHANGES = Table(
    "rm_rating_changes",
    (
        _text("game_id"),
        _int("seat"),
        _text("kind"),
        _text("player_id"),
        _int("place"),
        _int("finish_id"),
        _text("ended_at", not_null=False),
        Column("mu_before", "real", True),
        Column("sigma_before", "real", True),
        Column("mu_after", "real", True),
        Column("sigma_after", "real", True),
        _int("games"),  # the player's rated games of the kind, this one included
    ),
    primary_key=("game_id", "seat"),
    indexes=(Index("rm_rating_changes_player", ("player_id", "kind", "finish_id")),),
)

# Each player's current rating per game kind; ``ordinal`` (mu - 3 sigma) is what a leaderboard orders by.
RATINGS = Table(
    "rm_ratings",
    (
        _text("kind"),
        _text("player_id"),
        Column("mu", "real", True),
        Column("sigma", "real", True),
        Column("ordinal", "real", True),
        _int("games"),
        _int("finish_id"),  # the last game that changed it
    ),
    primary_key=("kind", "player_id"),
    indexes=(
        Index("rm_ratings_board", ("kind", "ordinal", "player_id")),  # a leaderboard, in order
        Index("rm_ratings_player", ("player_id", "kind")),  # a player's ratings (GET /players/{id})
    ),
)

CORE: tuple[Table, ...] = (
    *(PLAYERS, TOURNAMENTS, GAMES_TABLE, MOVES, PLAYER_GAMES, FIELD_SUMS),
    *(FINISHES, RATING_CHANGES, RATINGS),
    RULINGS,
)


def _real(name: str, *, not_null: bool = False) -> Column:
    return Column(name, "real", not_null)


# The judge's judgements of finished games (``domain.judge``, written by ``digsite analyse``: service/analysis/).
# Derived data like the rest, but not projected: each game's rows are computed by the judge, written in one
# transaction, and kept by a projections rebuild (docs/judge.md, *The service side*). A judgement is keyed by the
# game, the game's last version, the judge's version and its budget.
JUDGEMENT_KEY = (_text("game_id"), _int("last_version"), _int("judge_version"), _int("budget"))

ESTIMATES = ("played", "best", "options")  # the estimates whose every-seat figures a decision's row keeps

# One row a decision: the move played and the best found (the engine's action dicts as JSON), what each is worth
# to the mover (win chance, expected place, value in [0, 1]), the loss (points of 0-100), accuracy and mark.
# A forced move (``judged`` 0) has the move played alone.
JUDGED_MOVES = Table(
    "rm_judged_moves",
    (
        *JUDGEMENT_KEY,
        _int("idx"),  # the move's number in the game, 0 first
        _int("version"),  # the game's version the move recorded
        _int("seat"),
        _int("judged"),  # 1 judged, 0 forced (one legal action) or not sampleable
        _int("legal"),
        _text("played"),
        _text("best", not_null=False),
        _real("played_win"),
        _real("played_place"),
        _real("played_value"),
        _real("best_win"),
        _real("best_place"),
        _real("best_value"),
        _int("playouts", not_null=False),  # the estimate's playouts behind each figure
        _real("loss", not_null=True),
        _real("accuracy"),
        _text("mark", not_null=False),
        # Every seat's figures (judge version 3 on), each a JSON list in seat order: win chances and values after
        # the move played, after the best found, and over the mover's options on average (what fair play reads).
        # NULL for a forced move and for rows of an earlier judge version, kept by the upgrade that added them.
        *(_text(f"{which}_{figure}", not_null=False) for which in ESTIMATES for figure in ("wins", "values")),
    ),
    primary_key=("game_id", "last_version", "judge_version", "budget", "idx"),
)

# One row a seat: its judged moves, accuracy (NULL without a judged move), mean loss, and marks counted.
JUDGED_SEATS = Table(
    "rm_judged_seats",
    (
        *JUDGEMENT_KEY,
        _int("seat"),
        _int("judged"),
        _real("accuracy"),
        _real("mean_loss"),
        _count("inaccuracies"),
        _count("mistakes"),
        _count("blunders"),
    ),
    primary_key=("game_id", "last_version", "judge_version", "budget", "seat"),
)

JUDGEMENTS: tuple[Table, ...] = (JUDGED_MOVES, JUDGED_SEATS)
# Tables the projection does not write: an upgrade that rebuilds the projected ones leaves their rows alone.
NOT_PROJECTED = frozenset(t.name for t in JUDGEMENTS)


def stored_name(kind: str, table: str) -> str:
    """A game's fact table ``table`` is stored as ``rm_<kind>_<table>``."""
    return f"rm_{kind}_{table}"


def fact_table(kind: str, table: FactTable) -> Table:
    """How a game's fact table is stored: ``game_id``, then (an append table: each row a move's) ``version`` and
    ``idx``, then the table's key and value columns. Key columns are NOT NULL. A value that adds up is NOT NULL, and
    starts at 0 where rows are combined; a value that is set or kept may be NULL until a fact gives it one."""
    ids = [_text("game_id")]
    if table.append:
        ids += [_int("version"), _int("idx")]
    key = [Column(c.name, c.type, True) for c in table.key]
    values = [
        Column(c.name, c.type, c.combine == "add", "0" if c.combine == "add" and not table.append else None)
        for c in table.columns
    ]
    primary = ("game_id", *(("version", "idx") if table.append else table.key_names()))
    return Table(stored_name(kind, table.name), (*ids, *key, *values), primary)


def game_tables(kind: str) -> tuple[Table, ...]:
    """The stored tables of a registered game's fact tables (none without an analytics part)."""
    analytics = GAMES[kind].analytics
    return tuple(fact_table(kind, t) for t in analytics.tables) if analytics is not None else ()


@cache  # the registry is fixed at import
def every_table() -> tuple[Table, ...]:
    """Every read model: the core's, then each registered game's, in registry order, then the judge's."""
    return (*CORE, *(t for kind in GAMES for t in game_tables(kind)), *JUDGEMENTS)
