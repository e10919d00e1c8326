"""The conformance suite: every registered game (``domain.games.GAMES``) meets the game protocol, in the style of
OpenSpiel's ``games_sim_test.py`` run over all its registered games.

The types are mypy's job (``domain.games`` assigns each module to a ``GameRules[...]`` variable); here, behaviour:
random bot games (every seat count the game has, every policy it lists) replay to the same state, round-trip
through JSON, stay within the game's schemas, and show each seat only what it may know, in its view and in the
records of the moves.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema_rs
import pytest

from domain.errors import SetupError
from domain.games import GAMES, Game
from domain.metrics import COMMON_COLUMNS, ROUND_TABLE
from domain.play import SeatView, play_game
from domain.policies import Policy
from domain.protocol import GameRules
from domain.search import SEARCH
from tests.domain.twins import HIDDEN_TWINS, SHOWN_AT_THE_TABLE

KINDS = sorted(GAMES)
GAMES_PER_TABLE = 2  # per seat count and game: enough to reach every phase, few enough for the 2-core budget


class Checked:
    """A policy that asserts it is only ever offered a non-empty list and answers with a legal action: one of the
    list, or one the rules accept (a game may list its actions' plain forms only: Ruins lists plays without the
    purchases and claims a player may add to them)."""

    def __init__(self, rules: GameRules[Any, Any, Any], inner: Policy[Any]) -> None:
        self.rules, self.inner, self.name = rules, inner, inner.name
        self.choices = self.beyond_the_list = 0

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        assert legal, "a seat to act always has a legal action"
        action = self.inner.choose(view, legal, rng)
        if action not in legal:
            assert isinstance(view, SeatView) and action.seat == view.seat, f"{self.name} chose for another seat"
            self.rules.decide(view.state, action)  # raises on an illegal action
            self.beyond_the_list += 1
        self.choices += 1
        return action

    def tendencies(self) -> dict[str, Any]:
        return self.inner.tendencies()


@dataclass(frozen=True)
class Played:
    kind: str
    players: int
    seed: str
    state: Any
    actions: tuple[Any, ...]
    events: tuple[Any, ...]
    opening: int  # how many of the events are the opening's


def _tables(kind: str) -> Iterator[tuple[int, int]]:
    seats = GAMES[kind].schemas.seats
    for players in range(seats.low, seats.high + 1):
        for i in range(GAMES_PER_TABLE):
            yield players, i


@pytest.fixture(scope="module", params=KINDS)
def played(request: pytest.FixtureRequest) -> list[Played]:
    """Random bot games of one kind: at each table the game's own policies take turns seat by seat."""
    kind: str = request.param
    found = GAMES[kind]
    policies = sorted(p for p in found.bots.policies if p != SEARCH)  # the search bot: tests/domain/test_search.py
    out = []
    for players, i in _tables(kind):
        names = [f"P{s}" for s in range(players)]
        bots = [Checked(found.rules, found.bots.make(policies[(s + i) % len(policies)])) for s in range(players)]
        seed = f"conformance-{players}-{i}"
        game = play_game(found.rules, names, bots, seed)
        assert sum(b.choices for b in bots) == len(game.actions)
        opening = len(found.rules.start(names, None, seed))
        out.append(Played(kind, players, seed, game.state, game.actions, game.events, opening))
    return out


# -- the parts ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_every_protocol_member_is_a_function_of_the_game_with_the_protocol_s_parameters(kind: str) -> None:
    rules = GAMES[kind].rules
    members = [n for n, v in vars(GameRules).items() if callable(v) and not n.startswith("_")]
    assert {"decide", "step", "result", "progress", "seed_of", "redact_action"} <= set(members)
    for name in members:
        ours = inspect.signature(getattr(rules, name)).parameters
        wanted = list(inspect.signature(getattr(GameRules, name)).parameters)[1:]  # without self
        assert list(ours) == wanted, f"{kind}.{name}{tuple(ours)} is not {name}{tuple(wanted)}"


@pytest.mark.parametrize("kind", KINDS)
def test_the_registry_names_each_game_by_its_kind_and_its_schemas_are_json_schemas(kind: str) -> None:
    found: Game[Any, Any, Any] = GAMES[kind]
    assert found.kind == kind and found.title
    for schema in (found.schemas.action, found.schemas.options, found.schemas.view):
        jsonschema_rs.validator_for(schema)  # raises on a schema that is not one
        assert json.loads(json.dumps(schema)) == schema
    assert 1 <= found.schemas.seats.low <= found.schemas.seats.high
    assert jsonschema_rs.validator_for(found.schemas.options).is_valid({})


@pytest.mark.parametrize("kind", KINDS)
def test_the_options_schema_says_what_the_engine_takes(kind: str) -> None:
    """Every option's default and each value of an enumerated option start a game; an option the schema does not
    have, or a value outside it, is refused by the schema and by the engine alike."""
    found = GAMES[kind]
    validator = jsonschema_rs.validator_for(found.schemas.options)
    names = [f"P{s}" for s in range(found.schemas.seats.low)]
    properties: dict[str, Any] = found.schemas.options.get("properties", {})
    for option, schema in properties.items():
        for value in [schema["default"], *schema.get("enum", [])] if "default" in schema else schema.get("enum", []):
            assert validator.is_valid({option: value})
            assert found.rules.start(names, {option: value}, "seed")
        if "maximum" in schema:
            assert not validator.is_valid({option: schema["maximum"] + 1})
            with pytest.raises(SetupError):
                found.rules.start(names, {option: schema["maximum"] + 1}, "seed")
    assert not validator.is_valid({"no_such_option": 1})
    with pytest.raises(SetupError):
        found.rules.start(names, {"no_such_option": 1}, "seed")


@pytest.mark.parametrize("kind", KINDS)
def test_every_policy_and_persona_is_made_from_its_name_and_tendencies(kind: str) -> None:
    bots = GAMES[kind].bots
    assert bots.policies and bots.personas
    for name, maker in bots.policies.items():
        policy = maker()
        assert policy.name == name
        rebuilt = bots.make(name, **policy.tendencies())
        assert rebuilt.tendencies() == policy.tendencies()
    for persona in bots.personas:
        policy = bots.from_record(persona.record)
        assert policy.name == persona.policy and policy.tendencies() == dict(persona.tendencies)
    assert len({p.name for p in bots.personas}) == len(bots.personas)


@pytest.mark.parametrize("kind", KINDS)
def test_the_analytics_catalogue_names_plain_columns(kind: str) -> None:
    analytics = GAMES[kind].analytics
    if analytics is None:
        pytest.skip(f"{kind} has no analytics part yet: the read models keep only the common rows")
    names = [m.name for m in analytics.metrics]
    assert len(set(names)) == len(names)
    for metric in analytics.metrics:
        assert metric.numerator and all(c.isidentifier() and c.islower() for c in metric.columns())
    assert {"moves", "think_ms"} <= {c for m in analytics.metrics for c in m.columns()} | set(COMMON_COLUMNS)


def _columns_at(analytics: Any, grain: str) -> set[str]:
    """The columns a metric of this grain may name (as the read models' queries find them:
    service/reading/catalogue.py)."""
    tables = [t for t in analytics.tables if not t.append]
    per_game = {c for t in tables if not t.key for c in t.column_names()}
    if grain == "seat":
        per_seat = {c for t in tables if t.key_names() == ("seat",) for c in t.column_names()}
        return {*COMMON_COLUMNS, "seat", "n_players", *per_seat, *per_game}
    if grain == "game":
        return {"moves", "round", "n_players", *per_game}
    return {c for t in tables if t.name == ROUND_TABLE for c in t.column_names()}


@pytest.mark.parametrize("kind", KINDS)
def test_the_analytics_catalogue_is_over_the_game_s_own_tables(kind: str) -> None:
    """Every metric names columns its grain's rows have, every breakdown a table and columns it declares; tables
    and columns have plain names the read models can store as ``rm_<kind>_<table>``."""
    analytics = GAMES[kind].analytics
    if analytics is None:
        pytest.skip(f"{kind} has no analytics part yet: the read models keep only the common rows")
    names = [t.name for t in analytics.tables]
    assert len(set(names)) == len(names)
    for table in analytics.tables:
        columns = table.stored_columns()
        assert len(set(columns)) == len(columns) and all(c.isidentifier() and c.islower() for c in columns)
        assert table.name.isidentifier() and table.name.islower()
    for metric in analytics.metrics:
        assert metric.columns() <= _columns_at(analytics, metric.grain), metric.name
    by_name = {t.name: t for t in analytics.tables}
    for breakdown in analytics.breakdowns:
        assert breakdown.table in by_name, breakdown.name
        assert {*breakdown.by, *breakdown.average} <= set(by_name[breakdown.table].column_names()), breakdown.name
    every = {c for t in analytics.tables for c in t.column_names()} | {*COMMON_COLUMNS, "seat", "n_players"}
    assert all(d.name in every for d in analytics.dimensions)


def test_every_move_s_fact_rows_fit_the_tables_the_game_declares(played: list[Played]) -> None:
    """A move's facts (and a game's opening rows) are rows of declared tables, each as long as its columns."""
    kind = played[0].kind
    found = GAMES[kind]
    analytics = found.analytics
    if analytics is None:
        pytest.skip(f"{kind} has no analytics part yet: the read models keep only the common rows")
    widths = {t.name: len(t.column_names()) for t in analytics.tables}
    rows_seen: set[str] = set()
    for game in played:
        rules = found.rules
        state = rules.replay(list(game.events[: game.opening]), None)
        rows = list(analytics.opening_rows(state))
        for action in game.actions:
            events, after = rules.step(state, action)
            facts = analytics.move_facts(state, rules.action_to_dict(action), events)
            assert facts.kind.isidentifier() and isinstance(facts.round, int) and isinstance(facts.summary, str)
            assert 0 <= facts.seat < game.players
            rows.extend(facts.rows())
            state = after
        for name, values in rows:
            assert len(values) == widths[name], name
            rows_seen.add(name)
    assert rows_seen == set(widths)  # every table is filled by some game


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_a_hidden_information_twin_for_these_tests(kind: str) -> None:
    assert kind in HIDDEN_TWINS, f"add a twin builder for {kind} to tests/domain/twins.py"


# -- random games ---------------------------------------------------------------------------------------------


def test_replaying_the_events_gives_the_state_play_reached(played: list[Played]) -> None:
    for game in played:
        rules = GAMES[game.kind].rules
        assert rules.replay(list(game.events)) == game.state
        assert rules.result(game.state) is not None, "every game ends"


def test_actions_events_and_states_round_trip_through_json(played: list[Played]) -> None:
    for game in played:
        rules = GAMES[game.kind].rules
        for action in game.actions:
            assert rules.action_from_dict(json.loads(json.dumps(rules.action_to_dict(action)))) == action
        for event in game.events:
            assert rules.event_from_dict(json.loads(json.dumps(rules.event_to_dict(event)))) == event
        assert rules.state_from_dict(json.loads(json.dumps(rules.state_to_dict(game.state)))) == game.state


def test_the_seed_is_where_the_game_says_and_the_result_is_the_common_summary(played: list[Played]) -> None:
    for game in played:
        rules = GAMES[game.kind].rules
        opening = [rules.event_to_dict(e) for e in game.events[: game.opening]]
        assert rules.seed_of(opening) == game.seed
        assert rules.seed_of(opening[1:] if opening[0].get("seed") == game.seed else []) is None
        result = rules.result(game.state)
        assert result is not None
        everyone = rules.view(game.state, None)["players"]
        assert sorted(result.ranking) == list(range(len(everyone))) and len(result.scores) == len(everyone)
        assert result.winners and set(result.winners) <= set(result.ranking)
        assert result.ranking[: len(result.winners)] == tuple(sorted(result.winners, key=result.ranking.index))
        assert json.loads(json.dumps(result.to_dict())) == result.to_dict()
        assert rules.progress(game.state).scores == result.scores or game.kind == "ruins"


def test_the_action_schema_accepts_every_legal_action_and_the_view_schema_every_view(played: list[Played]) -> None:
    for game in played:
        found = GAMES[game.kind]
        rules, actions = found.rules, jsonschema_rs.validator_for(found.schemas.action)
        views = jsonschema_rs.validator_for(found.schemas.view)
        state = rules.replay(list(game.events[: game.opening]))
        for i, action in enumerate(game.actions):
            if i % 5 == 0:  # every legal action of every fifth position
                for seat in rules.to_act(state):
                    for legal in rules.legal_actions(state, seat):
                        data = rules.action_to_dict(legal)
                        assert actions.is_valid(data), (game.kind, data)
                for seat in [None, *range(len(rules.view(state)["players"]))]:
                    assert views.is_valid(rules.view(state, seat))
            assert actions.is_valid(rules.action_to_dict(action))
            state = rules.step(state, action)[1]


def test_only_the_seats_to_act_have_legal_actions(played: list[Played]) -> None:
    for game in played:
        rules = GAMES[game.kind].rules
        state = rules.replay(list(game.events[: game.opening]))
        everyone = range(len(rules.view(state)["players"]))
        for i, action in enumerate(game.actions):
            acting = rules.to_act(state)
            assert acting and action.seat in acting
            if i % 7 == 0:
                for seat in everyone:
                    assert bool(rules.legal_actions(state, seat)) == (seat in acting), (game.kind, i, seat)
            state = rules.step(state, action)[1]
        assert rules.to_act(state) == [] or rules.result(state) is not None


# Only the games that craft moves (a game without crafting has no test here to skip).
@pytest.mark.parametrize("played", [k for k in KINDS if GAMES[k].craft_steps is not None], indirect=True)
def test_a_game_s_crafting_takes_every_legal_move_and_offers_only_legal_ones(played: list[Played]) -> None:
    """``Game.craft_steps`` (a game that crafts moves): any legal move is asked, and a kind that is never crafted
    has no steps (no error); every step offered is a move of the same seat that the rules accept."""
    found = GAMES[played[0].kind]
    craft = found.craft_steps
    assert craft is not None
    rules, offered = found.rules, 0
    for game in played:
        state = rules.replay(list(game.events[: game.opening]))
        for i, action in enumerate(game.actions):
            if i % 5 == 0:
                for seat in rules.to_act(state):
                    for legal in rules.legal_actions(state, seat)[:8]:
                        for more in craft(state, legal):
                            assert more.seat == seat and more != legal
                            rules.decide(state, more)  # raises on an illegal move
                            offered += 1
            state = rules.step(state, action)[1]
    assert offered, "some move of these games could be crafted"


def test_a_move_said_to_stand_after_another_seat_s_faces_the_same_choice(played: list[Played]) -> None:
    """``unaffected(events, seat)``: the service plays a move the seat chose before another seat's move as if it
    were chosen after it. Sound only if the seat's legal actions are the same after that move, and never for the
    seat's own move (a repeat, not a choice made at the same time)."""
    for game in played:
        rules = GAMES[game.kind].rules
        state = rules.replay(list(game.events[: game.opening]))
        for action in game.actions:
            events, after = rules.step(state, action)
            assert not rules.unaffected(events, action.seat)
            for seat in rules.to_act(state):
                if seat != action.seat and rules.unaffected(events, seat):
                    assert rules.legal_actions(after, seat) == rules.legal_actions(state, seat), (game.kind, seat)
            state = after


def test_a_seat_cannot_tell_apart_positions_that_differ_only_in_what_it_may_not_know(played: list[Played]) -> None:
    rng = random.Random(0)
    for game in played:
        rules, twin = GAMES[game.kind].rules, HIDDEN_TWINS[game.kind]
        state = rules.replay(list(game.events[: game.opening]))
        for i, action in enumerate(game.actions):
            if i % 11 == 0:
                for seat in range(len(rules.view(state)["players"])):
                    other = twin(state, seat, rng)
                    assert rules.view(other, seat) == rules.view(state, seat), (game.kind, i, seat)
                    assert rules.view(other, None) != rules.view(state, None), "the twin differs"
            state = rules.step(state, action)[1]


def _redacted(rules: GameRules[Any, Any, Any], action: Any, events: Sequence[Any], seat: int) -> Any:
    action_data, event_data = rules.action_to_dict(action), [rules.event_to_dict(e) for e in events]
    return (
        rules.redact_action(action_data, event_data, seat),
        [rules.redact_event(e, seat, False) for e in event_data],
    )


def test_what_a_seat_s_view_cannot_tell_apart_the_records_do_not_tell_apart_either(played: list[Played]) -> None:
    """For a move and a seat that did not make it: another legal move of that position that leads to a different
    position (the referee's view differs) which the seat's view cannot tell apart (a secret choice) must leave
    the move's redacted record (action and events) the same too. (Two moves that lead to the same position may
    differ in public ways, like the order effects were resolved in.)"""
    rng = random.Random(1)
    compared = tolerated = 0
    shown = SHOWN_AT_THE_TABLE.get(played[0].kind)
    for game in played:
        rules = GAMES[game.kind].rules
        state = rules.replay(list(game.events[: game.opening]))
        for action in game.actions:
            events, after = rules.step(state, action)
            alternatives = [a for a in rules.legal_actions(state, action.seat) if a != action]
            for other in rng.sample(alternatives, min(6, len(alternatives))):
                other_events, other_after = rules.step(state, other)
                if rules.view(other_after, None) == rules.view(after, None):
                    continue
                for seat in range(len(rules.view(state)["players"])):
                    if seat == action.seat or rules.view(other_after, seat) != rules.view(after, seat):
                        continue
                    compared += 1
                    mine, theirs = _redacted(rules, action, events, seat), _redacted(rules, other, other_events, seat)
                    if mine != theirs and shown is not None and shown(state, action):
                        tolerated += 1
                        continue
                    assert mine == theirs, (game.kind, seat, action, other)
            state = after
        assert rules.redact_action(rules.action_to_dict(action), [], None) == rules.action_to_dict(action)
    assert compared, "some moves were secret choices another seat could not tell apart"
    if shown is not None:
        assert tolerated, f"{played[0].kind}: cards shown at the table no longer show; drop SHOWN_AT_THE_TABLE's entry"


def test_the_referee_reads_every_record_as_it_is(played: list[Played]) -> None:
    for game in played:
        rules = GAMES[game.kind].rules
        for event in game.events:
            data = rules.event_to_dict(event)
            assert rules.redact_event(data, None, False) == data


def test_the_in_process_policies_see_the_seat_s_view(played: list[Played]) -> None:
    """A ``SeatView`` is exactly ``view(state, seat)``: what an in-process bot sees is what the API would show."""
    game = played[0]
    rules = GAMES[game.kind].rules
    seat_view = SeatView(rules, game.state, 0)
    assert dict(seat_view) == rules.view(game.state, 0) and len(seat_view) == len(rules.view(game.state, 0))


def test_the_timeout_action_is_a_legal_move_of_every_seat_to_act(played: list[Played]) -> None:
    """What the service plays for a seat out of time (``timeout_action``) is a move the rules accept, for that
    seat, wherever it may be asked: every seat to act at every point of the games played."""
    for game in played[:2]:
        rules = GAMES[game.kind].rules
        state = rules.replay(game.events[: game.opening])
        for action in game.actions:
            for seat in rules.to_act(state):
                chosen = rules.timeout_action(state, seat)
                assert chosen is not None and chosen.seat == seat
                rules.decide(state, chosen)  # (raises on a move the rules refuse)
            _, state = rules.step(state, action)
        assert all(rules.timeout_action(state, seat) is None for seat in range(game.players))  # over: none
