"""Rules versions: every version a game has released is kept, so every stored game replays under its own rules.

A game keeps a table of its releases (``Versions``), oldest first; the newest is the current one, under
which new games are created. Each release names its data files and the SHA-256 each had when it was
released: that table is the release record. A rules change adds a release (new data files, and a loader
of its own where code changed) and never edits one, and ``book`` refuses a file whose digest moved, so a
game played under an old version is never replayed under data that merely carries its name.

A game with one version needs only its table::

    VERSIONS = Versions("arnak", resources.files("domain.arnak") / "data", load, [
        Release("arnak-1", {"components": ("components.json", "<sha256>")}),
    ])

The engine then takes its rule book from the game's state (which took it from the version its first event
names), never from a global "current" lookup; ``current`` is for creating new games only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any, Generic, TypeVar

from domain.errors import DomainError

Book = TypeVar("Book")
Loader = Callable[[str, Mapping[str, Any]], Book]  # (version name, each role's parsed JSON) -> the rule book


class UnknownRulesVersion(DomainError):
    """A game names a rules version this Digsite has not released."""

    code = "unknown_rules_version"


class ReleasedDataChanged(RuntimeError):
    """A released version's data file no longer holds what was released: a bug in this Digsite, not in a game."""


def data_digest(raw: bytes) -> str:
    """The SHA-256 of a JSON data file's content, canonical (sorted keys, no spaces): line endings and
    indentation are not a change of rules, any value is."""
    canonical = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class Release(Generic[Book]):
    """One released rules version: its ``name`` (as games record it), its data ``files`` (role: path under the
    data folder and the digest it was released with), and ``load`` when its code differs from the game's
    default loader. ``root`` is where its files are when not in the game's data folder (a trial version)."""

    name: str
    files: Mapping[str, tuple[str, str]]
    load: Callable[[str, Mapping[str, Any]], Book] | None = None
    root: Traversable | None = None


class Versions(Generic[Book]):
    """One game's released rules versions, oldest first; each one's rule book is loaded once, on first use."""

    def __init__(self, game: str, data: Traversable, load: Loader[Book], releases: Iterable[Release[Book]]) -> None:
        self.game = game
        self._data = data
        self._load = load
        self._releases: dict[str, Release[Book]] = {}
        self._books: dict[str, Book] = {}
        for release in releases:
            self.add(release)

    @property
    def current(self) -> str:
        """The newest version: the one new games are created under."""
        return next(reversed(self._releases))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._releases)

    def __contains__(self, name: object) -> bool:
        return name in self._releases

    def release(self, name: str) -> Release[Book]:
        """The release called ``name``; ``UnknownRulesVersion`` (naming it) if there is none."""
        release = self._releases.get(name) if isinstance(name, str) else None
        if release is None:
            raise UnknownRulesVersion(
                f"{self.game} rules version {name!r} was never released by this Digsite (it has "
                f"{', '.join(self._releases)}): a game played under it needs a Digsite release that has it"
            )
        return release

    def book(self, name: str | None = None) -> Book:
        """The rule book of version ``name``; ``None`` (new games only): the current version's."""
        if name is None:
            name = self.current
        found = self._books.get(name)
        if found is None:
            release = self.release(name)
            found = self._books[name] = (release.load or self._load)(name, self.read(release))
        return found

    def folder(self, release: Release[Book]) -> Traversable:
        """The folder ``release``'s file paths are under."""
        return release.root or self._data

    def read(self, release: Release[Book]) -> dict[str, Any]:
        """Each of the release's data files, parsed, once its digest is checked against the release record."""
        root = self.folder(release)
        data: dict[str, Any] = {}
        for role, (path, released) in release.files.items():
            raw = root.joinpath(path).read_bytes()
            found = data_digest(raw)
            if found != released:
                raise ReleasedDataChanged(
                    f"{self.game} rules version {release.name} was released with {path} of SHA-256 {released}, but "
                    f"that file now has {found}: a released version never changes (restore the file, and put the "
                    "change in a new version)"
                )
            data[role] = json.loads(raw)
        return data

    def add(self, release: Release[Book]) -> None:
        """Release a new version; it becomes the current one. A released name is never reused."""
        if release.name in self._releases:
            raise ValueError(f"{self.game} rules version {release.name} is already released; add a new version")
        self._releases[release.name] = release

    @contextmanager
    def trial(self, release: Release[Book]) -> Iterator[None]:
        """``release`` added as the current version for the duration of the block, then taken out (tests, and
        trying a rules change on stored games before releasing it)."""
        self.add(release)
        try:
            yield
        finally:
            del self._releases[release.name]
            self._books.pop(release.name, None)
