"""The layers reach games only through the registry, the service knows no screen, no module imports a higher
layer, no modules import each other in a circle, and imports stay at the top of their modules.

Checked on the source (what the modules import, with ``ast``) and on what importing the service actually loads."""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

from domain.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("service", "dashboard", "bench", "entrypoints")
PACKAGES = ("domain", *LAYERS)

# Lowest first. A module may import its own layer and those below; the most specific prefix names its layer.
LAYER_ORDER: tuple[tuple[str, ...], ...] = (
    ("domain",),  # the rules engines: pure, they import nothing of Digsite's
    ("service", "service.settings", "service.errors", "service.caller_values", "service.stored_text"),
    # The store, and the records' format the commands write into it (their hashes and chain):
    ("service.store", "service.integrity.records", "service.integrity.chain"),
    ("service.commands",),  # writing: creating games, players and tournaments, playing moves
    ("service.reading", "service.integrity", "service.analysis"),  # reading, verifying and judging what was stored
    ("service.bootstrap",),  # the composition root: builds the service and its read side from settings
    ("service.serving", "service.api", "service.cli", "service.bots", "service.cluster"),  # the doors and jobs
    ("dashboard", "entrypoints"),
    ("bench",),
)

# The only imports inside functions, each for a start-up cost measured with ``python -X importtime`` (or a
# platform): (module file, imported module) -> why.
IMPORTS_IN_FUNCTIONS = {
    ("dashboard/__init__.py", "dashboard.app"): "Dash and Plotly, 4.4 s to import; `dashboard` alone is light",
    ("service/cluster/dask_jobs.py", "distributed"): "Dask: the optional `cluster` extra, and 1.2 s to import",
    ("service/cluster/dask_jobs.py", "distributed.comm.addressing"): "Dask, as above",
    ("bench/checking.py", "service.api"): "a child process imports the tree it measures (the code before or after)",
    ("bench/checking.py", "service.api.validation"): "as above",
    ("service/serving/capacity.py", "resource"): "Unix only (as gunicorn is); push.py reads the module everywhere",
}


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once for all the checks of a process (they only read it): parsing every
    module again for each check was half of these tests' time."""
    return ast.parse(path.read_text(), str(path))


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _module_files() -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _module_files()


def _imported(path: Path) -> list[tuple[str, int, bool]]:
    """Each import of one of ours in ``path``: (module, line, inside a function), type-only imports included. A name
    imported from a package is its submodule when it is one."""
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend((alias.name, child.lineno, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    name = f"{child.module}.{alias.name}"
                    found.append((name if name in MODULES else child.module, child.lineno, in_function))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(_tree(path), False)
    return found


def _graph() -> dict[str, set[str]]:
    return {name: {m for m, _, _ in _imported(path) if m in MODULES and m != name} for name, path in MODULES.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        circles.append(sorted(component))
    return circles


def _layer(module: str) -> int:
    best, rank = -1, -1
    for number, prefixes in enumerate(LAYER_ORDER):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), number
    assert rank >= 0, f"{module} is in no layer: add it to LAYER_ORDER"
    return rank


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert _circles(_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_no_module_imports_a_higher_layer() -> None:
    upward = [
        f"{MODULES[name].relative_to(ROOT)} imports {target}"
        for name, targets in _graph().items()
        for target in sorted(targets)
        if _layer(target) > _layer(name)
    ]
    assert upward == []


@pytest.mark.parametrize(("module", "layer"), [("service.store.pgrecorder", 2), ("service.integrity.chain", 2),
                                               ("service.integrity.audit", 4), ("service.cli.db", 6)])  # fmt: skip
def test_the_most_specific_prefix_names_a_module_s_layer(module: str, layer: int) -> None:
    assert _layer(module) == layer


def test_imports_inside_functions_are_only_those_a_start_up_cost_asks_for() -> None:
    found = {
        (str(path.relative_to(ROOT)), node.module if isinstance(node, ast.ImportFrom) else alias.name)
        for path in MODULES.values()
        for function in ast.walk(_tree(path))
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(function)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert found <= set(IMPORTS_IN_FUNCTIONS), sorted(found - set(IMPORTS_IN_FUNCTIONS))


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


# The API's routes that read (GET) and still ask the command side, each with its reason: the rest read through the
# read port (``service.api.auth.read_port``). tests/service/api/test_read_routes.py checks the same on the answers.
READ_ROUTES_ON_THE_COMMAND_SIDE = {
    ("service/api/games.py", "updates"): "the push channel's waits hear of moves from the service (Hub.landed)",
    ("service/api/games.py", "broadcast"): "a broadcast's wait hears of moves as the push channel's do (Hub.landed)",
    ("service/api/meta.py", "health"): "the store's health is the command side's own connection",
    ("service/api/rounds.py", "links"): "seat links hold tokens made from the server secret, which the read side "
    "does not hold",
}


def _read_routes_asking_the_command_side(path: Path) -> set[str]:
    """The functions of ``path`` routed with ``@bp.get`` that call ``digsite()`` (the command side)."""
    found = set()
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.FunctionDef):
            continue
        routed = any(
            isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "get"
            for d in node.decorator_list
        )
        calls = {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
        if routed and "digsite" in calls:
            found.add(node.name)
    return found


def test_the_api_s_read_routes_read_through_the_read_port() -> None:
    found = {
        (str(path.relative_to(ROOT)), name)
        for path in sorted((ROOT / "service" / "api").glob("*.py"))
        for name in _read_routes_asking_the_command_side(path)
    }
    assert found == set(READ_ROUTES_ON_THE_COMMAND_SIDE)


def test_the_read_route_finder_finds_a_read_route_on_the_command_side(tmp_path: Path) -> None:
    source = tmp_path / "routes.py"
    source.write_text(
        "@bp.get('/x')\ndef x():\n    return digsite().game()\n\n@bp.post('/y')\ndef y():\n    digsite()\n"
    )
    assert _read_routes_asking_the_command_side(source) == {"x"}
