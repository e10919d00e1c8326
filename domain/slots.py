"""Building dataclass instances on an engine's hot path, faster than their generated ``__init__``.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``; setting the slot through
its member descriptor instead costs a quarter to a half as much (measured with the Ruins engine on
CPython 3.11: ``Play(...)`` 945 ns against 226 ns, ``Ruin(...)`` 407 against 196; the Ruins engine's
plays, events, ruins and bots' views built by their constructors instead cost 11% more instructions per
four-player random game, under callgrind on 2026-12-01). ``builder(cls)`` writes
that constructor once per class, as ``dataclasses`` writes ``__init__``: the instance it makes is the same
object the class's own constructor would make (same fields, equality, hash, repr and JSON).

A class whose instances are built from another object's parts (``Seen.from_state``) sets the slots itself
with ``slot_setters``: calling a builder from ``from_state`` added a call to every move (0.5% of a game).

A dataclass without slots (``GameState``, ``MoveFacts``) is built by ``with_fields``: the instance is made
with ``object.__new__`` and handed its instance dict whole, through the class's own ``__dict__`` descriptor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def builder(cls: Callable[P, T]) -> Callable[P, T]:
    """``cls``'s constructor (a slotted dataclass, fields in order, with their defaults), setting each slot
    through its member descriptor. Fields with a default factory, or not set by ``__init__``, are refused:
    none of the hot path's classes has one, and the generated code would have to repeat that logic."""
    klass: Any = cls  # a dataclass (typed as its constructor, so that the builder takes the same arguments)
    name = klass.__name__
    setters = slot_setters(klass)
    params: list[str] = []
    body: list[str] = ["    obj = new(cls)"]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    for i, f in enumerate(fields(klass)):
        if not f.init or f.default_factory is not MISSING:
            raise TypeError(f"builder() cannot build {name}: field {f.name} is not a plain argument")
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"default_{i}"] = f.default
            params.append(f"{f.name}=default_{i}")
        namespace[f"set_{i}"] = setters[i]
        body.append(f"    set_{i}(obj, {f.name})")
    source = f"def build_{name}({', '.join(params)}):\n" + "\n".join([*body, "    return obj"]) + "\n"
    exec(source, namespace)  # (source made above from the dataclass's own field names)
    built: Callable[P, T] = namespace[f"build_{name}"]
    built.__doc__ = f"``{name}(...)``, each slot set through its member descriptor (domain.slots)."
    return built


def slot_setters(cls: type[Any]) -> tuple[Callable[[Any, Any], None], ...]:
    """The member descriptors' setters of a slotted dataclass's fields, in field order."""
    return tuple(vars(cls)[f.name].__set__ for f in fields(cls))


def with_fields(cls: type[Any], fields: dict[str, Any]) -> Any:
    """An instance of ``cls`` (a dataclass without slots) whose instance dict is ``fields`` (taken, not
    copied); fields left out read their defaults from the class."""
    instance = object.__new__(cls)
    _DICT_SETTERS[cls](instance, fields)
    return instance


class _DictSetters(dict[type[Any], Callable[[Any, dict[str, Any]], None]]):
    """Each class's instance-dict setter, looked up once."""

    def __missing__(self, cls: type[Any]) -> Callable[[Any, dict[str, Any]], None]:
        setter: Callable[[Any, dict[str, Any]], None] = vars(cls)["__dict__"].__set__
        self[cls] = setter
        return setter


_DICT_SETTERS = _DictSetters()
