"""The release record of every game: each released rules version's data files still hold exactly what was
released. A rules change adds a version (domain/<game>/versions.py); it never edits a released one."""

from __future__ import annotations

import pytest

from domain.games import GAMES, rules_for
from domain.versions import data_digest

RELEASED = [
    (kind, release.name, role, path, digest)
    for kind in sorted(GAMES)
    for release in (rules_for(kind).VERSIONS.release(name) for name in rules_for(kind).VERSIONS.names)
    for role, (path, digest) in release.files.items()
]


@pytest.mark.parametrize(("kind", "version", "role", "path", "digest"), RELEASED)
def test_every_released_data_file_is_as_released(kind: str, version: str, role: str, path: str, digest: str) -> None:
    versions = rules_for(kind).VERSIONS
    found = data_digest(versions.folder(versions.release(version)).joinpath(path).read_bytes())
    assert found == digest, (
        f"{kind} rules version {version} was released with {path} of SHA-256 {digest}, and it is now {found}: "
        "games played under that version would replay under other rules. Restore the file, and make the change "
        f"a new version (a new entry in domain/{kind}/versions.py, the newest becomes current)"
    )


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_released_version_loads(kind: str) -> None:
    versions = rules_for(kind).VERSIONS
    for name in versions.names:
        assert versions.book(name) is versions.book(name)
    assert rules_for(kind).rules_version() == versions.current
