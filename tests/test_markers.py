"""The marker scheme of tests/conftest.py on a throw-away suite (pytester): a test is marked by the fixtures it
uses, so the fast run leaves it out; a fixture reached at run time without its marker fails the test."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")
FAST = "not postgres and not browser and not docker and not slow"


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    """Our conftest with its servers faked: what it marks depends only on the fixtures' names."""
    conftest = CONFTEST.read_text("utf-8")
    pytester.makeconftest(
        conftest
        + """

@pytest.fixture(scope="session")
def postgres_url() -> str:
    return "postgresql://nowhere"


@pytest.fixture(scope="session")
def browser() -> str:
    return "chromium"


@pytest.fixture
def pg(postgres_url: str) -> str:
    return postgres_url
"""
    )
    pytester.makeini("[pytest]\nmarkers =\n    postgres\n    browser\n    docker\n    slow\n    alone\n")
    return pytester


def test_a_test_is_marked_by_the_fixtures_it_uses_even_through_another_fixture(suite: pytest.Pytester) -> None:
    suite.makepyfile(
        test_uses="""
def test_plain(): pass
def test_on_postgres(postgres_url): pass
def test_through_pg(pg): pass
def test_in_chromium(browser): pass
"""
    )
    suite.runpytest("-p", "no:dash", "-m", FAST).assert_outcomes(passed=1, deselected=3)
    suite.runpytest("-p", "no:dash", "-m", "postgres").assert_outcomes(passed=2, deselected=2)
    suite.runpytest("-p", "no:dash", "-m", "browser").assert_outcomes(passed=1, deselected=3)


def test_a_fixture_reached_at_run_time_needs_the_marker_on_its_parameter(suite: pytest.Pytester) -> None:
    suite.makepyfile(
        test_dynamic="""
import pytest

@pytest.fixture(params=["sqlite", "postgres", pytest.param("marked", marks=pytest.mark.postgres)])
def store(request):
    return request.getfixturevalue("postgres_url") if request.param != "sqlite" else "file"

def test_store(store): pass
"""
    )
    result = suite.runpytest("-p", "no:dash", "-m", FAST)
    result.assert_outcomes(passed=2, errors=1, deselected=1)  # [postgres] passes, then errs at its teardown
    result.stdout.fnmatch_lines(["*test_store?postgres? uses what the marker(s) ?'postgres'? stand for*"])
