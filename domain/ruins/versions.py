"""Ruins' released rules versions: the release record (``domain.versions`` says how versions work).

Each entry is a version as released: its name, and its data files under ``data/`` with the SHA-256 each
had then. A rules change adds an entry (new files, which may reuse an older version's unchanged ones) and
never edits one; the last entry is the current version, under which new games are created.
"""

from __future__ import annotations

from importlib import resources

from domain.ruins.cards import Book, load_book
from domain.versions import Release, Versions

VERSIONS: Versions[Book] = Versions(
    "ruins",
    resources.files("domain.ruins") / "data",
    load_book,
    [
        Release(
            "ruins-1",
            {
                "book": ("ruins-1/book.json", "0a26f4e3698faebdbdbd3ebda4c6a76d2ee7e28b4288f082cef06d869e66b501"),
                "ruins": ("ruins-1/ruins.json", "51258a6ba4c8757567af6b930b7f6e470f79e9bab9ea540b6241a03c648867c7"),
            },
        ),
    ],
)


def book_of(version: str | None = None) -> Book:
    """The rule book of ``version`` (``UnknownRulesVersion`` if it was never released); ``None``: the
    current version's, for a new game. The engine reads a game's book from its state (``state.book``)."""
    return VERSIONS.book(version)
