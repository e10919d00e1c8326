"""The API's answers as types, and their JSON Schemas for the OpenAPI document, derived from those types.

Each answer a route sends is a TypedDict: the command service's (``service.commands.results``), the read side's
(``service.reading.results``), or the API's own envelopes below (a list's page, the health check, an error). The
document's response schemas follow from them (``component_schemas``): pydantic's ``TypeAdapter.json_schema``
derives JSON Schema (Draft 2020-12, the dialect of OpenAPI 3.1) from the types and their fields' notes
(``service.json_schema_notes``), and tests/service/api/test_responses.py checks that what every documented route
really answers validates against the published schema.

Pydantic and not msgspec (which also derives schemas from TypedDicts): it is installed already wherever Digsite is
(Dash requires it), so deriving the schemas adds no package. Importing it costs a server process 0.09 s of CPU and
3 MB (beside 1.14 s and 59 MB for the API; median of 7), and deriving the schemas 0.12 s, once, when the document
is first asked for: too little to import it inside the function that uses it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, final

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema
from typing_extensions import TypedDict

from service.api import schemas
from service.commands.results import (
    BroadcastSetting,
    ClockChange,
    Game,
    GameCreated,
    MoveAcknowledged,
    Penalty,
    Player,
    Record,
    Ruling,
    RulingList,
    SeatedRound,
    SeatLink,
    Tournament,
    TournamentRounds,
)
from service.json_schema_notes import UUID, note
from service.reading.results import (
    Analysis,
    Broadcast,
    FairPlay,
    GameSummary,
    KindSkill,
    LeaderboardEntry,
    Standings,
    Updates,
)

NEXT = note(
    "The cursor of the next page (pass it as `cursor`); null on the last page. A page may hold fewer items than "
    "`limit` and still have a next one."
)


class ErrorDetail(TypedDict):
    code: Annotated[str, note("A stable machine-readable code.")]
    message: Annotated[str, note("A sentence for people.")]


class Error(TypedDict):
    """Every refusal: a stable code and a sentence."""

    error: ErrorDetail


class Health(TypedDict):
    status: Literal["ok"]


class HealthDown(TypedDict):
    status: Literal["down"]
    store: Literal["unreachable", "read_only"]
    message: str


class Created(TypedDict):
    id: Annotated[str, UUID]


class MoveResult(MoveAcknowledged):
    """The move's answer: its acknowledgement, and with `?wait=S` the seat's next turn."""

    next: NotRequired[
        Annotated[
            Updates,
            note(
                "With `?wait=S`: your seat's next turn (or the game's end), as GET "
                "/games/{game_id}/updates?after=<version>&until=turn&include=game answers it."
            ),
        ]
    ]


@final
class WaitFailed(TypedDict):
    """A move's wait for its seat's next turn that failed once the move had landed (the store went down, the server
    held as many waits as it may): the error the wait met, beside `ready` false and the seconds of its
    `Retry-After`. The second line of a streamed move's answer; a single answer leaves `next` out instead."""

    error: ErrorDetail
    ready: Literal[False]
    retry_after: NotRequired[int]


class Log(TypedDict):
    records: list[Record]


class GameList(TypedDict):
    games: list[GameSummary]
    next: Annotated[str | None, NEXT]


class TournamentList(TypedDict):
    tournaments: list[Tournament]
    next: Annotated[str | None, NEXT]


class PlayerList(TypedDict):
    players: list[Player]
    next: Annotated[str | None, NEXT]


class PlayerProfile(Player):
    """A player, and what their finished games say of their play in each game."""

    skills: Annotated[
        list[KindSkill], note("Per game kind the player has a rating or a judged game in, by the kind's name.")
    ]


class Leaderboard(TypedDict):
    """A page of a game kind's leaderboard: players by ordinal (mu - 3 sigma), highest first."""

    kind: str
    players: list[LeaderboardEntry]
    next: Annotated[str | None, NEXT]


class SeatLinks(TypedDict):
    links: Annotated[list[SeatLink], note("A line per seat, table by table, in seat order.")]


# The answers the document names, by their component's name (each type's own name: the names clients know).
ANSWERS: tuple[type[Any], ...] = (
    Error,
    Health,
    HealthDown,
    Created,
    Player,
    Standings,
    Tournament,
    GameCreated,
    Game,
    MoveResult,
    ClockChange,
    WaitFailed,
    Record,
    Log,
    Analysis,
    Updates,
    Broadcast,
    BroadcastSetting,
    GameSummary,
    GameList,
    TournamentList,
    PlayerList,
    PlayerProfile,
    Leaderboard,
    TournamentRounds,
    SeatedRound,
    SeatLinks,
    Ruling,
    Penalty,
    RulingList,
    FairPlay,
)
REF = "#/components/schemas/{model}"


class Closed(GenerateJsonSchema):
    """JSON Schema as pydantic derives it, without the titles it makes up from names, and each object closed."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def typed_dict_schema(self, schema: Any) -> Any:
        out = super().typed_dict_schema(schema)
        out.pop("title", None)
        if "description" in out:  # (a docstring's lines, as one paragraph)
            out["description"] = " ".join(out["description"].split())
        out["additionalProperties"] = False
        return out


ERROR_EXAMPLE = {"error": {"code": "stale_version", "message": "the game is at version 7 but ..."}}


def component_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every answer (and of the objects they hold), by component name, each object closed
    (``additionalProperties: false``: a field not in its type is a field not documented)."""
    adapters = [(answer.__name__, "serialization", TypeAdapter(answer)) for answer in ANSWERS]
    refs, found = TypeAdapter.json_schemas(adapters, ref_template=REF, schema_generator=Closed)  # type: ignore[arg-type]
    components: dict[str, dict[str, Any]] = found["$defs"]
    assert all(ref == {"$ref": REF.format(model=name)} for (name, _), ref in refs.items()), refs
    # What the types leave to the rest of the document: a game's view follows its game's own view schema.
    view = components["Game"]["properties"]["view"]
    view["oneOf"] = [{"$ref": REF.format(model=schemas.component(kind, "View"))} for kind in schemas.GAME_KINDS]
    view.pop("type", None)
    view.pop("additionalProperties", None)
    components["Error"]["examples"] = [ERROR_EXAMPLE]
    return components
