"""What the API accepts, as JSON Schema: the routes check requests against these, and the OpenAPI document
publishes the same objects, so the two cannot drift apart."""

from __future__ import annotations

import functools
from typing import Any

from domain.games import GAMES
from service.stored_text import NAME_PATTERN, TEXT_PATTERN

MAX_INT = 2**53 - 1  # the largest integer every JSON reader holds exactly
UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
GAME_KINDS = sorted(GAMES)
# Seats per game, from each game's schemas.
GAME_SEATS: dict[str, tuple[int, int]] = {
    kind: (g.schemas.seats.low, g.schemas.seats.high) for kind, g in GAMES.items()
}

ID = {"type": "string", "format": "uuid", "pattern": UUID_PATTERN, "description": "An id (a UUID)."}
SCALAR = {"type": ["string", "number", "boolean", "null"], "maxLength": 200, "pattern": TEXT_PATTERN}
TEXT_RULE = "no control characters (tabs and line breaks included), lone surrogates or Unicode non-characters"


def name_refusal(code: str) -> dict[str, str]:
    return {"code": code, "message": "a name needs a character other than spaces"}


SEED_DIGITS = (32, 128)  # 32 hex digits: 128 bits, too many to try every seed against a published commitment
SEED = {
    "type": ["string", "null"],
    "pattern": f"^[0-9a-fA-F]{{{SEED_DIGITS[0]},{SEED_DIGITS[1]}}}$",
    "description": "The seed of every shuffle, 32 to 128 hexadecimal digits (at least 128 bits): drawn at "
    "random if absent. Only its commitment is shown until the game is over, and a seed that can be guessed "
    "would let a seat find every hand from that commitment: make one with `openssl rand -hex 16` or "
    "Python's `secrets.token_hex(16)`. Anything else is refused with 400 `weak_seed`.",
    "x-refusal": {
        "code": "weak_seed",
        "message": "a seed must be 32 to 128 hexadecimal digits drawn at random (at least 128 bits), or left "
        "out to have the server draw one; make one with `openssl rand -hex 16` or Python's "
        "`secrets.token_hex(16)`",
    },
}
SETTINGS_NAME = {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]{0,63}$"}

NEW_PLAYER: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100,
            "pattern": NAME_PATTERN,
            "description": f"Shown to every seat; not only spaces; {TEXT_RULE} (400 invalid_text).",
            "x-refusal": name_refusal("invalid_player"),
        },
        "kind": {"type": "string", "enum": ["human", "bot"], "default": "human"},
        "bot": {
            "type": ["object", "null"],
            "description": "For a bot: which bot and its tendencies, as flat settings "
            '(e.g. {"bot": "heuristic", "pass_rate": 0.2}).',
            "maxProperties": 32,
            "propertyNames": SETTINGS_NAME,
            "additionalProperties": SCALAR,
        },
    },
}

_SECONDS_LIMIT = 30 * 24 * 3600  # (service.store.clocks.LONGEST_SECONDS)
_SECONDS: dict[str, Any] = {"type": "number", "exclusiveMinimum": 0, "maximum": _SECONDS_LIMIT}
_ON_TIMEOUT: dict[str, Any] = {
    "type": "string",
    "enum": ["move", "forfeit"],
    "description": "A seat out of time: the game plays its default move for it (`move`, the default), or the seat "
    "forfeits the game, ranked last, and the game ends (`forfeit`, a tournament's rule).",
}
CLOCK: dict[str, Any] = {
    "description": "A time control (seconds): a time bank per player for the game plus an increment added each "
    "time the seat's turn ends (`{bank, increment}`, Board Game Arena's reflection time, Fischer's increment), or "
    "a limit per turn (`{per_move}`). A seat out of time is timed out: the game plays its default move for it. "
    "None: untimed. Zero or less, or any other shape: 400 invalid_clock.",
    "x-code": "invalid_clock",
    "oneOf": [
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["bank"],
            "properties": {
                "bank": _SECONDS,
                "increment": {"type": "number", "minimum": 0, "maximum": _SECONDS_LIMIT},
                "on_timeout": _ON_TIMEOUT,
            },
        },
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["per_move"],
            "properties": {"per_move": _SECONDS, "on_timeout": _ON_TIMEOUT},
        },
    ],
}

CLOCK_CHANGE: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["change", "reason"],
    "x-code": "invalid_clock_change",
    "properties": {
        "change": {
            "type": "string",
            "enum": ["pause", "resume", "add"],
            "description": "Pause the table (nobody's time runs, no move is taken), resume it, or add time.",
        },
        "reason": {"type": "string", "minLength": 1, "maxLength": 500, "description": "Why: kept in the record."},
        "seconds": {**_SECONDS, "description": "With `add`: the seconds given."},
        "seat": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 100,
            "description": "With `add`: the seat given time (none: every seat).",
        },
    },
}

NEW_TOURNAMENT: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "rounds", "game"],
    "properties": {
        "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 200,
            "pattern": NAME_PATTERN,
            "description": f"Not only spaces; {TEXT_RULE} (400 invalid_text).",
            "x-refusal": name_refusal("invalid_tournament"),
        },
        "rounds": {"type": "integer", "minimum": 1, "maximum": 1000},
        "game": {"type": "string", "enum": GAME_KINDS, "description": "The game every table of it plays."},
        "options": {
            "type": ["object", "null"],
            "description": "The rule options every game of it plays with, checked against the game's <Game>Options "
            "(400 invalid_setup); none: the game's defaults. Fixed now: a game of the tournament that asks for "
            "other options is refused (400 tournament_options_mismatch), one without options gets these.",
            "maxProperties": 32,
            "propertyNames": SETTINGS_NAME,
            "additionalProperties": SCALAR,
        },
        "clock": {**CLOCK, "description": CLOCK["description"] + " Every game of the tournament plays under it."},
    },
}

NEW_GAME: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["game", "seats"],
    "properties": {
        "game": {"type": "string", "enum": GAME_KINDS},
        "seats": {
            "type": "array",
            "minItems": min(low for low, _ in GAME_SEATS.values()),
            "maxItems": max(high for _, high in GAME_SEATS.values()),
            "items": ID,
            "description": "One player id per seat, in seat order ("
            + "; ".join(f"{kind}: {low} to {high} seats" for kind, (low, high) in sorted(GAME_SEATS.items()))
            + ").",
        },
        "options": {
            "type": ["object", "null"],
            "description": "Rule options of the game: each game's are published as <Game>Options and "
            "checked against it (400 invalid_setup). In a tournament: none plays the tournament's options, and "
            "others than the tournament's are refused (400 tournament_options_mismatch).",
            "maxProperties": 32,
            "propertyNames": SETTINGS_NAME,
            "additionalProperties": SCALAR,
        },
        "tournament": {
            **ID,
            "type": ["string", "null"],
            "description": "The tournament this game belongs to: the game must be the tournament's (400 "
            "tournament_game_mismatch), each player sits once (400 player_seated_twice), and the same players "
            "play one game at a table of a round (409 duplicate_game).",
        },
        "round": {"type": ["integer", "null"], "minimum": 1, "maximum": 1000, "description": "Tournament round."},
        "table": {"type": ["integer", "null"], "minimum": 1, "maximum": 100_000, "description": "Table number."},
        "seed": SEED,
        "clock": {
            **CLOCK,
            "description": CLOCK["description"] + " A tournament's game plays under the tournament's (another: "
            "400 tournament_clock_mismatch).",
        },
    },
}


def component(kind: str, part: str) -> str:
    """The OpenAPI component name of a game's schema part: ``RuinsAction``, ``ArnakOptions``."""
    return f"{kind.title().replace('_', '')}{part}"


# Schemas that others refer to by ``$ref`` ("#/components/schemas/<name>"), published under those names: each
# game's action, options and view, exactly as the game gives them.
COMPONENTS: dict[str, dict[str, Any]] = {
    component(kind, part): schema
    for kind, g in GAMES.items()
    for part, schema in (("Action", g.schemas.action), ("Options", g.schemas.options), ("View", g.schemas.view))
}


@functools.cache  # (one object per game: the request checker compiles each schema once)
def action_of(kind: str) -> dict[str, Any]:
    """The schema one game's actions are checked against once the game is known (400 malformed_action)."""
    return {"$ref": f"#/components/schemas/{component(kind, 'Action')}", "x-code": "malformed_action"}


@functools.cache
def options_of(kind: str) -> dict[str, Any]:
    """The schema one game's options are checked against (400 invalid_setup: options the game does not have)."""
    return {"$ref": f"#/components/schemas/{component(kind, 'Options')}", "x-code": "invalid_setup"}


ACTION: dict[str, Any] = {
    "description": "The action in the game's JSON form, as listed in `legal_actions`: its shape is checked "
    "here (400 malformed_action), against the game's own action schema once the game is known (400 "
    "malformed_action), and its legality by the rules (403/422).",
    "anyOf": [{"$ref": f"#/components/schemas/{component(kind, 'Action')}"} for kind in GAME_KINDS],
    "x-code": "malformed_action",
}

SUBMIT: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "action"],
    "properties": {
        "version": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_INT,
            "description": "The version of the game you acted on (from GET /games/{game_id}).",
        },
        "action": ACTION,
    },
}

NEW_BROADCAST: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "maxProperties": 1,
    "description": "The delay spectators follow the tournament's games in play with: `moves` behind or `minutes` "
    "behind (not both: 400 `invalid_broadcast`); `{}` turns the broadcast off.",
    "properties": {
        "moves": {"type": "integer", "minimum": 0, "maximum": 10_000, "description": "Moves behind (0: none)."},
        "minutes": {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 1440,
            "description": "Minutes behind: a record is shown once it is this old.",
        },
    },
}
NEW_ENTRIES: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["players"],
    "properties": {
        "players": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1000,
            "items": ID,
            "description": "The players to enter (people or bots, alike); all or none: one already entered is 409 "
            "`already_entered`, an unknown one 404 `unknown_player`.",
        }
    },
}

SEATING_FORMATS = ["round_robin", "swiss", "csv"]
REASON = {
    "type": "string",
    "maxLength": 2000,
    "description": "The organiser's reason, required (not empty); shown in the replay and the standings.",
}

NEW_GAME_RULING: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["ruling", "reason"],
    "properties": {
        "ruling": {
            "type": "string",
            "description": "`annul`, `restart`, `adjust_result`, `substitute` or `void_link`.",
        },
        "reason": REASON,
        "version": {"type": "integer", "description": "`restart`: the version the game goes on from."},
        "seat": {
            "type": "integer",
            "description": "`substitute`: the seat whose player changes; `void_link`: the seat whose link is voided.",
        },
        "player": {"type": "string", "description": "`substitute`: the player who takes the seat."},
        "result": {
            "type": "object",
            "description": "`adjust_result`: `ranking` (every seat, best first), optional `winners` (the first "
            "seats of the ranking; default the first) and `scores` (one per seat; default the engine's).",
        },
    },
}

NEW_TOURNAMENT_RULING: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["ruling", "reason", "player", "points"],
    "properties": {
        "ruling": {"type": "string", "description": "`penalty`."},
        "reason": REASON,
        "player": {"type": "string", "description": "The player (entered in or seated at the tournament)."},
        "points": {"type": "integer", "description": "Tournament points off the player's standing, 1 to 1000."},
    },
}

NEW_ROUND: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "format": {
            "type": "string",
            "enum": SEATING_FORMATS,
            "description": "How to seat the round (docs/events.md, *Seating formats*); default: the round before's, "
            "else `round_robin`.",
        },
        "table_size": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "The largest table; the round's tables differ by at most one seat. Default: the round "
            "before's, else the most the game seats. One the game does not allow: 400 `table_size_not_allowed`.",
        },
        "tables": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1000,
            "items": {"type": "array", "minItems": 1, "maxItems": 100, "items": ID},
            "description": "With `format: csv`: the organiser's seating, a list of tables, each the player ids in "
            "seat order (what a `table,player` CSV file says: `digsite tournament start-round --csv FILE` reads one); "
            "entries not seated sit out.",
        },
        "force": {
            "type": "boolean",
            "default": False,
            "description": "Seat the round though games of the round before are still in play (they go on and "
            "count when they end). Without it: 409 `round_in_play`.",
        },
        "round": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000,
            "description": "The round you mean to seat: refused (409 `round_already_seated`) if it is seated "
            "already, so that a request sent twice seats one round.",
        },
        "dry_run": {
            "type": "boolean",
            "default": False,
            "description": "Only say how the round would be seated: nothing is stored, no game is created.",
        },
    },
}

# The request bodies, by the component name the document publishes them under (an operation's ``body``).
REQUEST_BODIES: dict[str, dict[str, Any]] = {
    "NewPlayer": NEW_PLAYER,
    "NewTournament": NEW_TOURNAMENT,
    "NewEntries": NEW_ENTRIES,
    "NewBroadcast": NEW_BROADCAST,
    "NewGameRuling": NEW_GAME_RULING,
    "NewTournamentRuling": NEW_TOURNAMENT_RULING,
    "NewRound": NEW_ROUND,
    "NewGame": NEW_GAME,
    "Submit": SUBMIT,
    "ClockChange": CLOCK_CHANGE,
}


def path_id(name: str, what: str) -> dict[str, Any]:
    if name == "round_no":
        return {
            "name": name,
            "in": "path",
            "required": True,
            "description": "The round's number (1 is the first).",
            "schema": {"type": "integer", "minimum": 1},
        }
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": f"The {what}'s id.",
        "schema": {"type": "string", "format": "uuid"},
    }


def path_parameter(name: str) -> dict[str, Any]:
    """A route's path parameter: an id (``<game_id>``), or a game kind (``<kind>``: 404 ``unknown_game_kind`` for
    one Digsite does not play)."""
    if name == "kind":
        return {
            "name": name,
            "in": "path",
            "required": True,
            "description": "The game: one Digsite plays (404 `unknown_game_kind` otherwise).",
            "schema": {"type": "string", "enum": GAME_KINDS},
        }
    return path_id(name, name.removesuffix("_id"))


GAME_QUERY: list[dict[str, Any]] = [
    {
        "name": "version",
        "in": "query",
        "required": False,
        "description": "Show the game as it was at this version (1 = just created); default: now. "
        "A seat gets no legal actions for a past version.",
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_INT},
    }
]

# A game's tag is about 10 characters ("57-57-s1"): the limit leaves room for a list of a few, and is enforced.
IF_NONE_MATCH: dict[str, Any] = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of the game as you last read it: 304 if it has not changed since. Longer than 200 "
    "characters: 400 `malformed_request`.",
    "schema": {"type": "string", "maxLength": 200},
}

LOG_QUERY: list[dict[str, Any]] = [
    {
        "name": "after",
        "in": "query",
        "required": False,
        "description": "Only records after this version.",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_INT, "default": 0},
    },
    {
        "name": "limit",
        "in": "query",
        "required": False,
        "description": "At most this many records.",
        "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 1000},
    },
]

ANALYSIS_QUERY: list[dict[str, Any]] = [
    {
        "name": "budget",
        "in": "query",
        "required": False,
        "description": "The judgement at this budget (playouts a decision, as `digsite analyse --budget`); "
        "default: the largest the game is judged at.",
        "schema": {"type": "integer", "minimum": 4, "maximum": MAX_INT},
    }
]

MAX_WAIT_SECONDS = 55  # under the read timeout of common proxies (nginx: 60 s)

UPDATES_QUERY: list[dict[str, Any]] = [
    {
        "name": "after",
        "in": "query",
        "required": False,
        "description": "The version you know: only records after it are sent (0: from the start).",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_INT, "default": 0},
    },
    {
        "name": "wait",
        "in": "query",
        "required": False,
        "description": f"Seconds to wait (0 to {MAX_WAIT_SECONDS}) for what `until` names if it has not happened "
        "yet; the answer comes as soon as it does. 0: answer at once.",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_WAIT_SECONDS, "default": 0},
    },
    {
        "name": "until",
        "in": "query",
        "required": False,
        "description": "`record`: answer when a record after `after` lands; `turn` (seats only): when your seat "
        "is to act or the game is over (at once if it already is).",
        "schema": {"type": "string", "enum": ["record", "turn"], "default": "record"},
    },
    {
        "name": "include",
        "in": "query",
        "required": False,
        "description": "`game`: with `until=turn`, a ready answer also carries the game as your seat sees it "
        "(what GET /games/{game_id} answers), so you can act without another request.",
        "schema": {"type": "string", "enum": ["game"]},
    },
]


BROADCAST_QUERY: list[dict[str, Any]] = [
    {
        "name": "after",
        "in": "query",
        "required": False,
        "description": "The version you were shown: only records after it are sent (0: from the start).",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_INT, "default": 0},
    },
    {
        "name": "wait",
        "in": "query",
        "required": False,
        "description": f"Seconds to wait (0 to {MAX_WAIT_SECONDS}) for a version after `after` to become visible "
        "under the delay; the answer comes as soon as one does. 0: answer at once.",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_WAIT_SECONDS, "default": 0},
    },
]


SUBMIT_QUERY: list[dict[str, Any]] = [
    {
        "name": "wait",
        "in": "query",
        "required": False,
        "description": f"Seconds (0 to {MAX_WAIT_SECONDS}) to wait, once the move is recorded, for your seat's next "
        "turn or the game's end: the answer then also carries `next`, what GET "
        "/games/{game_id}/updates?after=<new version>&until=turn&include=game would answer (one request a move "
        "for a client that plays a whole game). With `Accept: application/x-ndjson` the move is acknowledged at once "
        "and `next` follows as a second line. A refused move is answered at once. 0: no `next`.",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_WAIT_SECONDS, "default": 0},
    },
]


def query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


QUERY_ID = {"type": "string", "pattern": UUID_PATTERN, "format": "uuid"}
PAGING: list[dict[str, Any]] = [
    query(
        "cursor",
        {"type": "string", "minLength": 1, "maxLength": 400, "pattern": "^[A-Za-z0-9_-]+$"},
        "Where the page starts: the `next` of the page before (none: the first page). 400 `invalid_cursor` for "
        "a cursor no list gave.",
    ),
    query("limit", {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}, "At most this many items."),
]
GAMES_QUERY: list[dict[str, Any]] = [
    query("kind", {"type": "string", "enum": GAME_KINDS}, "Only games of this game."),
    query("tournament", QUERY_ID, "Only this tournament's games."),
    query("round", {"type": "integer", "minimum": 1, "maximum": 1000}, "Only games of this tournament round."),
    query("status", {"type": "string", "enum": ["playing", "over"]}, "Only games in play, or only finished ones."),
    query("player", QUERY_ID, "Only games where this player holds a seat."),
    *PAGING,
]
TOURNAMENTS_QUERY: list[dict[str, Any]] = [
    query("game", {"type": "string", "enum": GAME_KINDS}, "Only tournaments of this game."),
    *PAGING,
]
STANDINGS_QUERY: list[dict[str, Any]] = [
    query(
        "points",
        {"type": "string", "maxLength": 80, "pattern": "^[0-9, ]*$"},
        "Tournament points by place, best place first (`3,1,0,0`); places past the list score 0. None: N-1 "
        "points for first at a table of N, down to 0 for last. 400 `invalid_points` for a table that cannot be read.",
    ),
    query("format", {"type": "string", "enum": ["json", "csv"]}, "`csv`: the standings as a spreadsheet file."),
]
PLAYERS_QUERY: list[dict[str, Any]] = [
    query("kind", {"type": "string", "enum": ["human", "bot"]}, "Only people, or only bots."),
    *PAGING,
]
LINKS_QUERY: list[dict[str, Any]] = [
    query(
        "format",
        {"type": "string", "enum": ["json", "csv", "html"]},
        "`csv`: a spreadsheet file, a line per seat; `html`: a printable sheet, a card per seat with the QR code of "
        "its link. Default: JSON.",
    ),
    query(
        "base_url",
        {"type": "string", "maxLength": 300, "pattern": "^https?://[^\\s?#]+$"},
        "Where players open the dashboard (its address as they reach it); default `http://127.0.0.1:8050`.",
    ),
]
