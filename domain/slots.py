"""Building frozen, slotted dataclasses on the engine's hot path.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, which costs
about twice as much as setting the slot through its member descriptor. The hot-path builders
(``new_play``, ``ruins_played``, ``new_top``, ``new_ruin``, ``Seen.from_state``) make the instance with
``new`` and set every field with the setters from ``slot_setters``: the same object as the class's own
constructor would make (same fields, equality, hash, repr and JSON).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

new = object.__new__


def slot_setters(cls: type[Any]) -> tuple[Callable[[Any, Any], None], ...]:
    """The member descriptors' setters of a slotted dataclass's fields, in field order."""
    return tuple(vars(cls)[f.name].__set__ for f in fields(cls))
