"""The container setup, checked by structure: no container engine runs on the development machines.

compose.yaml is parsed with PyYAML when it is installed; otherwise its service blocks are read as text
(indentation), which is enough for the same checks."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

DOCKER = Path(__file__).resolve().parents[2] / "docker"
COMPOSE = DOCKER / "compose.yaml"
DOCKERFILE = DOCKER / "Dockerfile"
SERVICES = ("postgres", "migrate", "api")


def text_blocks(text: str) -> dict[str, str]:
    """The text of each service under the top-level ``services:`` key, by indentation."""
    blocks: dict[str, list[str]] = {}
    inside, current = False, None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            inside, current = line.rstrip() == "services:", None
            continue
        if inside and re.match(r"^  [A-Za-z0-9_.-]+:\s*$", line):
            current = line.strip()[:-1]
            blocks[current] = []
        elif inside and current is not None:
            blocks[current].append(line)
    return {name: "\n".join(lines) for name, lines in blocks.items()}


def argv(value: Any) -> list[str]:
    """A compose command/entrypoint (a list, or a string split like a shell) as a list of words."""
    if value is None:
        return []
    return list(map(str, value)) if isinstance(value, list) else shlex.split(str(value))


@pytest.fixture(scope="module")
def parsed() -> dict[str, Any] | None:
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        return None
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def test_compose_declares_postgres_migrate_and_api(parsed: dict[str, Any] | None) -> None:
    blocks = text_blocks(COMPOSE.read_text())
    assert set(SERVICES) <= set(blocks)
    if parsed is not None:
        assert set(SERVICES) <= set(parsed["services"])


def test_postgres_is_version_16_with_a_healthcheck(parsed: dict[str, Any] | None) -> None:
    if parsed is not None:
        postgres = parsed["services"]["postgres"]
        assert postgres["image"] == "postgres:16"
        assert "pg_isready" in " ".join(argv(postgres["healthcheck"]["test"]))
    else:
        block = text_blocks(COMPOSE.read_text())["postgres"]
        assert re.search(r"image:\s*postgres:16\s*$", block, re.M)
        assert "healthcheck:" in block and "pg_isready" in block


def test_migrate_runs_db_upgrade_once_postgres_is_healthy(parsed: dict[str, Any] | None) -> None:
    if parsed is not None:
        migrate = parsed["services"]["migrate"]
        assert argv(migrate.get("entrypoint")) in ([], ["digsite"])  # the image's entrypoint is digsite
        assert argv(migrate["command"])[-2:] == ["db", "upgrade"]
        assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "DIGSITE_DATABASE_URL" in migrate["environment"]
    else:
        block = text_blocks(COMPOSE.read_text())["migrate"]
        command = re.search(r"^\s*command:\s*(.+)$", block, re.M)
        assert command is not None and re.search(r"\bdb\b\W+upgrade\b", command.group(1))
        assert re.search(r"postgres:\s*\n\s*condition:\s*service_healthy", block)


def test_api_runs_gunicorn_on_service_wsgi_after_the_migration(parsed: dict[str, Any] | None) -> None:
    if parsed is not None:
        api = parsed["services"]["api"]
        words = argv(api.get("entrypoint")) + argv(api.get("command"))
        assert words[0] == "gunicorn" and words[-1] == "service.wsgi:app"
        assert words[words.index("-w") + 1] == "4" and words[words.index("-b") + 1] == "0.0.0.0:8000"
        assert api["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert {"DIGSITE_DATABASE_URL", "DIGSITE_API_KEY"} <= set(api["environment"])
    else:
        block = text_blocks(COMPOSE.read_text())["api"]
        assert "gunicorn" in block and "service.wsgi:app" in block
        assert re.search(r"migrate:\s*\n\s*condition:\s*service_completed_successfully", block)
        assert "<<: *digsite" in block and "environment:" not in block  # the shared block holds the URL and key


def test_the_dockerfile_installs_the_project_as_a_non_root_digsite_image() -> None:
    lines = [line.strip() for line in DOCKERFILE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    froms = [line.split()[1] for line in lines if line.startswith("FROM ")]
    assert froms and froms[-1] == "python:3.11-slim"
    steps = " ".join(lines)
    assert re.search(r"pip (wheel|install)\b[^&]*\s\.(\s|$)", steps), "the project itself is built/installed"
    assert re.search(r"pip install\b", steps)
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    entrypoints = [line for line in lines if line.startswith("ENTRYPOINT ")]
    assert entrypoints and entrypoints[-1] == 'ENTRYPOINT ["digsite"]'


def test_the_build_context_keeps_the_files_the_wheel_needs() -> None:
    ignored = {
        line.strip()
        for line in (DOCKER / "Dockerfile.dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    for needed in ("pyproject.toml", "README.md", "domain", "service", "migrations"):
        assert needed not in ignored
    assert ".git" in ignored


def test_projections_and_dashboard_run_after_the_migration(parsed: dict[str, Any] | None) -> None:
    blocks = text_blocks(COMPOSE.read_text())
    assert {"projections", "dashboard"} <= set(blocks)
    assert '["projections", "run"]' in blocks["projections"]
    assert "dashboard.wsgi:create_app()" in blocks["dashboard"] and "gunicorn" in blocks["dashboard"]
    for name in ("projections", "dashboard"):
        assert "service_completed_successfully" in blocks[name]
    if parsed is not None:
        services = parsed["services"]
        assert argv(services["projections"]["command"]) == ["projections", "run"]
        assert argv(services["dashboard"]["entrypoint"]) == ["gunicorn"]
        assert services["dashboard"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_every_digsite_process_shares_the_secret_and_the_organiser_key() -> None:
    """Snapshots sealed by the API must be trusted by the projections, and the dashboard's sign-in needs the
    organisers' key: both come from one shared environment block that every Digsite service merges."""
    text = COMPOSE.read_text()
    shared = text.split("environment: &digsite-env", 1)[1].split("\nservices:", 1)[0]
    assert re.search(r"DIGSITE_SECRET_KEY: \$\{DIGSITE_SECRET_KEY:\?", shared), "a missing secret stops compose"
    assert "DIGSITE_API_KEY:" in shared
    blocks = text_blocks(text)
    for name in ("migrate", "api", "projections", "dashboard"):
        block = blocks[name]
        assert "<<: *digsite" in block
        assert "environment:" not in block or "<<: *digsite-env" in block, f"{name} replaces the shared environment"
