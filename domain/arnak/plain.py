"""Frozen dataclasses <-> plain JSON values, driven by the classes' type hints.

Actions, events and states are all frozen dataclasses of ints, strings, booleans, tuples, optional
values and other such dataclasses. ``to_plain`` writes lists for tuples and dicts for dataclasses;
``from_plain`` rebuilds the value and checks every type on the way (``TypeError`` with the path on a
mismatch), so input from outside cannot build a value of the wrong shape.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Union, get_args, get_origin


def to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    return value


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_plain(kind: Any, data: Any, path: str = "value") -> Any:
    origin = get_origin(kind)
    if kind is Any:
        return data
    if origin in (Union, types.UnionType):
        errors = []
        for option in get_args(kind):
            try:
                return from_plain(option, data, path)
            except TypeError as error:
                errors.append(str(error))
        raise TypeError(f"{path}: {data!r} matches none of {kind}")
    if kind is type(None):
        if data is not None:
            raise TypeError(f"{path}: expected null, not {data!r}")
        return None
    if origin is tuple:
        if not isinstance(data, list):
            raise TypeError(f"{path}: expected a list, not {data!r}")
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise TypeError(f"{path}: expected {len(args)} items, not {len(data)}")
        return tuple(from_plain(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if dataclasses.is_dataclass(kind):
        assert isinstance(kind, type)
        if not isinstance(data, dict):
            raise TypeError(f"{path}: expected an object, not {data!r}")
        hints = _hints(kind)
        names = [f.name for f in dataclasses.fields(kind)]
        extra = set(data) - set(names)
        if extra:
            raise TypeError(f"{path}: unexpected field(s) {sorted(map(str, extra))}")
        values = {}
        for f in dataclasses.fields(kind):
            if f.name in data:
                values[f.name] = from_plain(hints[f.name], data[f.name], f"{path}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise TypeError(f"{path}: missing field {f.name!r}")
        return kind(**values)
    if kind is bool:
        if not isinstance(data, bool):
            raise TypeError(f"{path}: expected true or false, not {data!r}")
        return data
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise TypeError(f"{path}: expected an integer, not {data!r}")
        return data
    if kind is str:
        if not isinstance(data, str):
            raise TypeError(f"{path}: expected a string, not {data!r}")
        return data
    raise TypeError(f"{path}: cannot read a {kind}")
