"""The read side is a read port: the query objects the dashboard and the API read through (``ReadPort``: lists,
replays, analytics) hold no path to anything that plays a move or creates a game; playing goes through the command
side (``Digsite``) only."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

from service import bootstrap
from service.commands.application import Digsite

WRITING = ("submit", "move", "create_game", "create_player", "create_tournament", "import_game", "handle")


def reachable(root: object) -> Iterator[object]:
    """Every object of this project reachable from ``root``: through attributes, containers, bound methods and
    closures (the library's own objects, such as the store's repository, are not walked into)."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, dict):
            todo.extend([*item.keys(), *item.values()])
            continue
        if isinstance(item, (list, tuple, set, frozenset)):
            todo.extend(item)
            continue
        if inspect.ismethod(item):
            todo.append(item.__self__)
            continue
        if inspect.isfunction(item):
            todo.extend(cell.cell_contents for cell in item.__closure__ or ())
            continue
        module = type(item).__module__
        if not module.startswith(("service.", "dashboard.", "domain.")):
            continue
        yield item
        todo.extend(vars(item).values() if hasattr(item, "__dict__") else ())


def writers(root: object) -> list[str]:
    return [
        f"{type(o).__qualname__} (can {[n for n in WRITING if callable(getattr(o, n, None))]})"
        for o in reachable(root)
        if isinstance(o, Digsite) or any(callable(getattr(o, name, None)) for name in WRITING)
    ]


def test_the_read_side_holds_no_path_to_a_command(service: Digsite) -> None:
    read = bootstrap.read_port(service)
    try:
        assert writers(service) != []  # (the walk finds a writer where there is one)
        assert writers(read) == []
        assert any(o is service.reader for o in reachable(read))  # (and the walk reached the reader)
        for query_object in (read.lists, read.replays, read.analytics):
            assert writers(query_object) == []
    finally:
        read.close()


def test_the_reader_answers_without_the_service(service: Digsite) -> None:
    """What the read side asks of the store: a game's records, a game as a seat sees it, a state at a version."""
    players = [service.create_player(name) for name in ("Ada", "Bo")]
    created = service.create_game("ruins", players, seed="read-port")
    read = bootstrap.read_port(service)
    reader: Any = read.replays.reader
    records = reader.stored_records(created["id"])
    assert [r["version"] for r in records] == [1]
    assert reader.game(created["id"])["version"] == 1 == service.game(created["id"])["version"]
    assert reader.state_at(created["id"], 1) is not None
    read.close()
