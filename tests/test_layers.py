"""The layers reach games only through the registry, and the service knows no screen.

Checked on the source (what the modules import) and on what importing the service actually loads."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from domain.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("service", "dashboard", "bench", "entrypoints")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _own_folder_of_a_game(path: Path) -> bool:
    """A game's own part of a layer: a module or folder named after its kind (``dashboard/games/ruins/``)."""
    return any(part == kind or part == f"{kind}.py" for kind in GAMES for part in path.relative_to(ROOT).parts)


def test_no_layer_imports_a_game_package_outside_that_game_s_own_folder() -> None:
    offenders = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            if _own_folder_of_a_game(path):
                continue
            packages = {f"domain.{kind}" for kind in GAMES}
            games = {n for n in _imports(path) if n in packages or n.startswith(tuple(f"{p}." for p in packages))}
            if games:
                offenders.append(f"{path.relative_to(ROOT)}: {sorted(games)}")
    assert offenders == []


def test_the_service_never_imports_the_dashboard() -> None:
    for path in sorted((ROOT / "service").rglob("*.py")):
        assert not any(n == "dashboard" or n.startswith("dashboard.") for n in _imports(path)), path
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, service.cli, service.api, service.bootstrap; "
         "print(sorted(m for m in sys.modules if m.split('.')[0] == 'dashboard'))"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout.strip()  # fmt: skip
    assert loaded == "[]"


def test_the_digsite_command_composes_the_service_s_commands_with_the_dashboard_s() -> None:
    from entrypoints.cli import main
    from service.cli import main as service_main

    assert main is service_main and {"dashboard", "up", "serve", "simulate"} <= set(main.commands)
