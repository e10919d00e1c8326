"""The container setup, checked by structure (tests/docker/test_stack.py builds and runs it for real).

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


def test_postgres_is_built_from_debian_packages_with_a_healthcheck_on_its_port(parsed: dict[str, Any] | None) -> None:
    if parsed is not None:
        postgres = parsed["services"]["postgres"]
        assert postgres["build"]["context"] == "postgres"
        assert postgres["build"]["args"]["BASE"] == "${DIGSITE_POSTGRES_BASE:-debian:bookworm-slim}"
        port = "${DIGSITE_POSTGRES_PORT:-5433}"
        assert argv(postgres["command"])[:2] == ["-p", port]
        health = argv(postgres["healthcheck"]["test"])
        assert "pg_isready" in health and health[health.index("-p") + 1] == port
    else:
        block = text_blocks(COMPOSE.read_text())["postgres"]
        assert "context: postgres" in block
        assert "healthcheck:" in block and "pg_isready" in block
    dockerfile = (DOCKER / "postgres" / "Dockerfile").read_text()
    assert "ARG BASE=debian:bookworm-slim" in dockerfile and "apt-get install" in dockerfile
    assert 'ENTRYPOINT ["digsite-postgres"]' in dockerfile and "USER postgres" in dockerfile


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
        assert words[0] == "gunicorn" and words[-1] == "service.serving.wsgi:app"
        bind = "${DIGSITE_BIND:-127.0.0.1}:${DIGSITE_API_PORT:-8000}"
        assert words[words.index("-b") + 1] == bind
        assert api["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert {"DIGSITE_DATABASE_URL", "DIGSITE_API_KEY"} <= set(api["environment"])
    else:
        block = text_blocks(COMPOSE.read_text())["api"]
        assert "gunicorn" in block and "service.serving.wsgi:app" in block
        assert re.search(r"migrate:\s*\n\s*condition:\s*service_completed_successfully", block)
        assert "<<: *digsite" in block and "environment:" not in block  # the shared block holds the URL and key


SIZING = ("-w", "--workers", "-k", "--worker-class", "--threads", "--worker-connections")


@pytest.mark.parametrize("service", ["api", "dashboard"])
def test_the_gunicorn_servers_are_sized_by_the_one_source_of_their_settings(
    parsed: dict[str, Any] | None, service: str
) -> None:
    """Both servers read service/serving/gunicorn_conf.py, which sizes them from
    DIGSITE_PUSH_MAX_WAITING; nothing on their
    command line overrides it (before: the API ran with -w 4 --threads 4, each worker holding 2 waits)."""
    if parsed is not None:
        found = parsed["services"][service]
        words = argv(found.get("entrypoint")) + argv(found.get("command"))
        assert "DIGSITE_PUSH_MAX_WAITING" in parsed["x-digsite"]["environment"]
    else:
        command = re.search(r"^\s*command:\s*(.+)$", text_blocks(COMPOSE.read_text())[service], re.M)
        assert command is not None
        words = re.findall(r'"([^"]*)"', command.group(1))
    assert words[words.index("-c") + 1] == "python:service.serving.gunicorn_conf"
    assert not [w for w in words if w.split("=")[0] in SIZING], words


def test_the_dockerfile_installs_the_project_as_a_non_root_digsite_image() -> None:
    lines = [line.strip() for line in DOCKERFILE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    froms = [line.split()[1] for line in lines if line.startswith("FROM ")]
    assert lines[0] == "ARG BASE=python:3.11-slim", "the base is a build argument, a public image by default"
    assert froms and all(base == "${BASE}" for base in froms)
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


def test_every_service_uses_the_hosts_network(parsed: dict[str, Any] | None) -> None:
    if parsed is None:
        pytest.skip("needs PyYAML")
    for name, service in parsed["services"].items():
        assert service["network_mode"] == "host", name
        assert "ports" not in service, f"{name}: host networking publishes no ports"


def test_the_dask_scheduler_and_worker_share_the_digsite_image_and_store(parsed: dict[str, Any] | None) -> None:
    if parsed is None:
        pytest.skip("needs PyYAML")
    services = parsed["services"]
    scheduler, worker = services["dask-scheduler"], services["dask-worker"]
    assert argv(scheduler["entrypoint"]) + argv(scheduler["command"])[:1] == ["dask", "scheduler"]
    port = "${DIGSITE_DASK_PORT:-8786}"
    assert argv(scheduler["command"])[argv(scheduler["command"]).index("--port") + 1] == port
    assert argv(worker["entrypoint"]) + argv(worker["command"])[:2] == ["dask", "worker", f"tcp://127.0.0.1:{port}"]
    for service in (scheduler, worker):
        assert service["image"] == services["api"]["image"]
        assert "DIGSITE_DATABASE_URL" in service["environment"]


def test_the_file_is_read_the_same_by_docker_compose_1_29() -> None:
    """Debian's docker-compose (1.29) runs the stack here: no top-level `name`, no build secrets, and no
    variable inside another's default, which it would leave half substituted."""
    text = COMPOSE.read_text()
    top = {line.split(":")[0] for line in text.splitlines() if re.match(r"^[a-z]", line)}
    assert top <= {"services", "volumes", "networks", "secrets", "configs"} | {t for t in top if t.startswith("x-")}
    assert not re.search(r"\$\{[^}]*\$\{", text), "a variable inside another's default"
    assert "secrets:" not in text


def test_pip_gets_the_certificate_bundle_as_a_build_secret_never_a_layer() -> None:
    text = DOCKERFILE.read_text()
    steps = [line for line in text.splitlines() if not line.startswith("#")]
    assert sum("--mount=type=secret,id=pip_cert" in line for line in steps) == 2
    assert not re.search(r"^(COPY|ADD)\b.*(cert|\.crt|\.pem)", "\n".join(steps), re.M | re.I)
