"""The Docker daemon's command line for the stack test: a test that asks for ``docker`` is marked ``docker``
(tests/conftest.py), and skipped without a daemon, or failed under CI (DIGSITE_REQUIRE_DOCKER=1)."""

from __future__ import annotations

import pytest

from tests.docker.stack import buildkit_cli


@pytest.fixture
def docker() -> str:
    """A docker command line that builds with BuildKit (tests/docker/stack.py: buildkit_cli)."""
    return buildkit_cli()
