"""Building frozen, slotted dataclasses on the engine's hot path.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, which costs
about twice as much as setting the slot through its member descriptor. The hot-path builders
(``new_play``, ``ruins_played``, ``new_top``, ``new_ruin``, ``Seen.from_state``) make the instance with
``new`` and set every field with the setters from ``slot_setters``: the same object as the class's own
constructor would make (same fields, equality, hash, repr and JSON).

A dataclass without slots (``GameState``, ``MoveFacts``) is built by ``with_fields``: the instance is
made with ``new`` and handed its instance dict whole, through the class's own ``__dict__`` descriptor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

new = object.__new__


def slot_setters(cls: type[Any]) -> tuple[Callable[[Any, Any], None], ...]:
    """The member descriptors' setters of a slotted dataclass's fields, in field order."""
    return tuple(vars(cls)[f.name].__set__ for f in fields(cls))


def with_fields(cls: type[Any], fields: dict[str, Any]) -> Any:
    """An instance of ``cls`` (a dataclass without slots) whose instance dict is ``fields`` (taken, not
    copied); fields left out read their defaults from the class."""
    instance = new(cls)
    _DICT_SETTERS[cls](instance, fields)
    return instance


class _DictSetters(dict[type[Any], Callable[[Any, dict[str, Any]], None]]):
    """Each class's instance-dict setter, looked up once."""

    def __missing__(self, cls: type[Any]) -> Callable[[Any, dict[str, Any]], None]:
        setter: Callable[[Any, dict[str, Any]], None] = vars(cls)["__dict__"].__set__
        self[cls] = setter
        return setter


_DICT_SETTERS = _DictSetters()
