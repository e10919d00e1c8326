"""The Arnak module offers exactly the rules API the service expects of a game (``domain.games.GameRules``),
with the same function names and signatures as Ruins, so registering it later is one line."""

from __future__ import annotations

import inspect

from domain import arnak, ruins
from domain.games import GameRules

MEMBERS = [name for name in GameRules.__dict__ if not name.startswith("_")]


def test_arnak_has_every_member_of_the_game_rules_protocol() -> None:
    assert "start" in MEMBERS and "redact_event" in MEMBERS
    for name in MEMBERS:
        assert hasattr(arnak, name), f"domain.arnak lacks {name}"
    assert arnak.GAME == "arnak"


def test_each_function_has_the_same_signature_as_the_protocol_and_as_ruins() -> None:
    for name in MEMBERS:
        if name == "GAME":
            continue
        wanted = [(p.name, p.kind, p.default) for p in inspect.signature(getattr(GameRules, name)).parameters.values()]
        wanted = wanted[1:]  # the protocol's 'self'
        ours = [(p.name, p.kind, p.default) for p in inspect.signature(getattr(arnak, name)).parameters.values()]
        theirs = [(p.name, p.kind, p.default) for p in inspect.signature(getattr(ruins, name)).parameters.values()]
        assert ours == wanted, f"{name}: {ours} != {wanted}"
        assert ours == theirs, f"{name}: {ours} != ruins {theirs}"
