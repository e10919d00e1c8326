"""Arnak's released rules versions: the release record (``domain.versions`` says how versions work).

Each entry is a version as released: its name, and its data files under ``data/`` with the SHA-256 each had
then. A rules change adds an entry and never edits one; the last entry is the current version, under which new
games are created. A game's state names its version (``GameState.rules_version``, from its ``GameStarted``) and
reads that version's behaviour from ``state.book`` (``components.Conduct``).

- ``arnak-0``: the first release.
- ``arnak-1``: the same printed components, played as the seed says where ``arnak-0`` followed the reference or
  its own choice: a bought artifact resolves before the row refills; the solo rival does nothing with a discover
  tile in round 5, and digs the topmost row's site; a tie goes to the player furthest along the research track
  by the tokens' places, in a solo game too (docs/rules/arnak.md, section 1).
"""

from __future__ import annotations

from importlib import resources

from domain.arnak.components import Book, load_book
from domain.versions import Release, Versions

_PRINTED = {
    "components": ("components.json", "607f5dd20f45ab801dd237f2bb25c9ff1535cf58e74b39164e19ac4726ad1a26"),
    "board": ("board.json", "15f33ca36d7349168ff6ab107345a59dffb24c6aea787c5f1be8739182e41dd7"),
    "cards": ("cards.json", "761c6b7665287a570945737d3b377e3b5d7a720f005fe705c1e1b7f4b71d9aec"),
    "rival": ("rival.json", "c48f98d390eeb866b42353955933206b9a6720e9eb20d234c5e187658da892f7"),
}

VERSIONS: Versions[Book] = Versions(
    "arnak",
    resources.files("domain.arnak") / "data",
    lambda name, data: load_book(data),
    [
        Release("arnak-0", dict(_PRINTED)),
        Release(
            "arnak-1",
            {
                **_PRINTED,
                "rules": ("arnak-1/rules.json", "5712c7da53d7c84e4eddc17e78d96b9b5fb266103af6da13f4da85b08e8b4c55"),
            },
        ),
    ],
)

FIRST = VERSIONS.names[0]  # the version of a state stored before states named theirs (docs/versions.md)
