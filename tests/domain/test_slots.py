"""``domain.slots``: the fast builders make exactly the objects the classes' own constructors make."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from domain.slots import builder


@dataclass(frozen=True, slots=True)
class Sample:
    a: int
    b: tuple[int, ...] = ()
    c: str | None = None


def test_a_builder_makes_what_the_constructor_makes() -> None:
    build = builder(Sample)
    for args, kwargs in [((1,), {}), ((1, (2, 3)), {}), ((1, (2,), "x"), {}), ((1,), {"c": "y"})]:
        built, made = build(*args, **kwargs), Sample(*args, **kwargs)
        assert built == made and repr(built) == repr(made) and hash(built) == hash(made)
        assert type(built) is Sample
    with pytest.raises(TypeError):
        build()  # a required field is still required


def test_a_builder_refuses_a_field_it_could_not_build_as_the_constructor_does() -> None:
    @dataclass(frozen=True, slots=True)
    class WithFactory:
        items: list[int] = field(default_factory=list)

    with pytest.raises(TypeError, match="items is not a plain argument"):
        builder(WithFactory)
