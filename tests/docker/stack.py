"""Building Digsite's images and running its compose stack for real, for tests/docker/test_stack.py.

No image registry is reachable on the development machines or in CI, so the images are built on a Debian
base made by ``docker/base-image.sh`` (debootstrap, then ``docker import``) unless DIGSITE_DOCKER_BASE names
another (``python:3.11-slim`` where a registry answers). Builds go through BuildKit with the host's network,
and pip's certificate bundle, where this machine's pip has one, is handed over as a build secret.

The stack is driven by ``docker compose`` when the plugin is there, else by Debian's ``docker-compose``.
A missing prerequisite skips, unless DIGSITE_REQUIRE_DOCKER is set (CI sets it): then it fails."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
COMPOSE_FILE = DOCKER / "compose.yaml"
BASE_IMAGE = "digsite-base:bookworm"  # what docker/base-image.sh makes
APP_IMAGE = "digsite:stack-test"
POSTGRES_IMAGE = "digsite-postgres:stack-test"
BUILD_SECONDS = 1800
COMMAND_SECONDS = 300


def unavailable(reason: str) -> None:
    if os.environ.get("DIGSITE_REQUIRE_DOCKER"):
        pytest.fail(f"Docker is required here: {reason}")
    pytest.skip(reason)


def quiet(
    argv: Sequence[str], timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout, env=env, check=False)


def tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def buildkit_cli() -> str:
    """A docker command line that builds with BuildKit: one with the buildx plugin, or Debian's docker.io
    (20.10, BuildKit built in). A newer CLI without buildx refuses BuildKit builds and cannot take secrets."""
    candidates = [c for c in (shutil.which("docker"), "/usr/bin/docker") if c and os.access(c, os.X_OK)]
    for cli in dict.fromkeys(candidates):
        if quiet([cli, "buildx", "version"]).returncode == 0:
            return cli
        found = re.search(r"version (\d+)\.", quiet([cli, "--version"]).stdout)
        if found and int(found.group(1)) < 23:
            return cli
    unavailable("no docker command line that builds with BuildKit (install buildx, or Debian's docker.io)")
    raise AssertionError("unreachable")


def compose_cli(docker: str) -> list[str]:
    if quiet([docker, "compose", "version"]).returncode == 0:
        return [docker, "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    unavailable("neither `docker compose` nor `docker-compose` is installed")
    raise AssertionError("unreachable")


def pip_setting(name: str) -> str | None:
    """One of this machine's pip settings (``global.cert``), from the environment or pip's configuration."""
    from_env = os.environ.get("PIP_" + name.split(".", 1)[1].upper().replace("-", "_"))
    if from_env:
        return from_env
    answer = quiet([sys.executable, "-m", "pip", "config", "get", name])
    return answer.stdout.strip() or None if answer.returncode == 0 else None


@dataclass
class Images:
    app: str
    postgres: str
    seconds: float  # how long building them took here (a few seconds when every layer is cached)


def build_images(docker: str) -> Images:
    """The base image (made once), then the application and database images on it; layers are cached."""
    if quiet([docker, "info"], timeout=30).returncode != 0:
        unavailable("Docker's daemon does not answer")
    started = time.monotonic()
    base = os.environ.get("DIGSITE_DOCKER_BASE") or BASE_IMAGE
    if base == BASE_IMAGE:
        can_make = os.geteuid() == 0 and shutil.which("debootstrap")
        if not can_make and quiet([docker, "image", "inspect", BASE_IMAGE]).returncode != 0:
            unavailable(f"{BASE_IMAGE} is missing and making it needs root and debootstrap")
        made = quiet(["bash", str(DOCKER / "base-image.sh")], timeout=BUILD_SECONDS)
        assert made.returncode == 0, f"docker/base-image.sh failed:\n{tail(made.stdout + made.stderr)}"
    secrets: list[str] = []
    cert = pip_setting("global.cert")
    if cert and Path(cert).is_file():
        secrets = ["--secret", f"id=pip_cert,src={cert}"]
    index = pip_setting("global.index-url")
    index_args = (
        ["--build-arg", f"PIP_INDEX_URL={index}"] if index and index.startswith(("http://", "https://")) else []
    )
    env = {**os.environ, "DOCKER_BUILDKIT": "1"}
    common = [docker, "build", "--network", "host", "--build-arg", f"BASE={base}", *secrets]
    for argv in (
        [*common, *index_args, "-f", str(DOCKER / "Dockerfile"), "-t", APP_IMAGE, str(ROOT)],
        [*common, "-t", POSTGRES_IMAGE, str(DOCKER / "postgres")],
    ):
        done = quiet(argv, timeout=BUILD_SECONDS, env=env)
        assert done.returncode == 0, f"{' '.join(argv[:2])} -t {argv[-2]} failed:\n{tail(done.stdout + done.stderr)}"
    return Images(APP_IMAGE, POSTGRES_IMAGE, time.monotonic() - started)


def free_ports(count: int) -> list[int]:
    """Ports free on 127.0.0.1 now, all different (held open together while they are picked)."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]


@dataclass
class Stack:
    """A running compose project: its ports, its organiser key, and ways to run commands in it."""

    compose: list[str]
    project: str
    env: dict[str, str]
    ports: dict[str, int]
    api_key: str
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def server(self) -> str:
        return f"http://127.0.0.1:{self.ports['api']}"

    @property
    def api(self) -> str:
        return f"{self.server}/api/v1"

    @property
    def dashboard(self) -> str:
        return f"http://127.0.0.1:{self.ports['dashboard']}"

    def run(self, *words: str, timeout: float = COMMAND_SECONDS) -> subprocess.CompletedProcess[str]:
        argv = [*self.compose, "-p", self.project, "-f", str(COMPOSE_FILE), *words]
        return quiet(argv, timeout=timeout, env=self.env)

    def exec(self, service: str, *argv: str, timeout: float = COMMAND_SECONDS) -> subprocess.CompletedProcess[str]:
        return self.run("exec", "-T", service, *argv, timeout=timeout)

    def logs(self) -> str:
        return tail(self.run("logs", "--no-color", "--tail", "30").stdout, 150)


@contextlib.contextmanager
def running_stack(images: Images, compose: list[str]) -> Iterator[Stack]:
    """``compose up`` on fresh ports under a project name of its own; always ``down -v`` afterwards."""
    import secrets

    project = f"digsitetest{secrets.token_hex(4)}"
    pg, api, dashboard, dask = free_ports(4)
    key = secrets.token_urlsafe(24)
    env = {
        **os.environ,
        "DIGSITE_IMAGE": images.app,
        "DIGSITE_POSTGRES_IMAGE": images.postgres,
        "DIGSITE_API_KEY": key,
        "DIGSITE_SECRET_KEY": secrets.token_urlsafe(32),
        "POSTGRES_PASSWORD": secrets.token_urlsafe(12),
        "DIGSITE_POSTGRES_PORT": str(pg),
        "DIGSITE_API_PORT": str(api),
        "DIGSITE_DASHBOARD_PORT": str(dashboard),
        "DIGSITE_DASK_PORT": str(dask),
        "DIGSITE_BIND": "127.0.0.1",
    }
    env["DIGSITE_DATABASE_URL"] = f"postgresql://digsite:{env['POSTGRES_PASSWORD']}@127.0.0.1:{pg}/digsite"
    ports = {"postgres": pg, "api": api, "dashboard": dashboard, "dask": dask}
    stack = Stack(compose, project, env, ports, key)
    try:
        started = time.monotonic()
        up = stack.run("up", "-d", "--no-build")
        assert up.returncode == 0, f"compose up failed:\n{tail(up.stdout + up.stderr)}\n{stack.logs()}"
        wait_until_ok(f"{stack.api}/health", stack, lambda body: json.loads(body).get("status") == "ok")
        wait_until_ok(f"{stack.dashboard}/", stack, lambda body: "<html" in body.lower())
        stack.timings["up"] = time.monotonic() - started
        yield stack
    finally:
        started = time.monotonic()
        down = stack.run("down", "-v", "--remove-orphans", "--timeout", "10")
        stack.timings["down"] = time.monotonic() - started
        assert down.returncode == 0, f"compose down failed:\n{tail(down.stdout + down.stderr)}"


def leftovers(docker: str, project: str) -> list[str]:
    """Containers and volumes of ``project`` that are still there."""
    label = f"label=com.docker.compose.project={project}"
    found = []
    for kind in (["ps", "-a"], ["volume", "ls"]):
        listed = quiet([docker, *kind, "-q", "--filter", label])
        assert listed.returncode == 0, listed.stderr
        found += listed.stdout.split()
    return found


def get(url: str, timeout: float = 10, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def send(url: str, body: Any, headers: dict[str, str], timeout: float = 10) -> tuple[int, Any]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read().decode())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait_until_ok(url: str, stack: Stack, good: Any, deadline_seconds: float = 180) -> None:
    """Poll ``url`` until it answers 200 with a body ``good`` accepts; fail with the stack's logs at the deadline."""
    deadline = time.monotonic() + deadline_seconds
    last = "no answer yet"
    while time.monotonic() < deadline:
        try:
            status, body = get(url, timeout=5)
            if status == 200 and good(body):
                return
            last = f"{status} {body[:200]}"
        except (OSError, ValueError) as error:
            last = repr(error)
        time.sleep(0.5)
    raise AssertionError(f"{url} not ready after {deadline_seconds:.0f} s (last: {last})\n{stack.logs()}")
