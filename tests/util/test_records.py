"""quick_init: the quick __init__ builds the same frozen dataclass as dataclass's own."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import inspect
import pickle
import pkgutil
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hub4eval
from hub4eval.model import Extent, TextFill
from hub4eval.util import records
from hub4eval.util.records import quick_init


def twins():
    """The same dataclass twice: with dataclass's __init__ and with quick_init's."""

    def make():
        @dataclass(frozen=True, slots=True)
        class Fill:
            content: str
            spans: tuple = ()
            quoted: bool = True
            line: int = field(default=0, compare=False)

        return Fill

    plain = make()
    return plain, quick_init(make())


@given(st.text(), st.lists(st.integers(), max_size=3).map(tuple), st.booleans(), st.integers())
def test_same_fields_equality_and_repr_as_dataclass_init(content, spans, quoted, line):
    plain, quick = twins()
    a, b = plain(content, spans, quoted, line), quick(content, spans, quoted, line)
    assert dataclasses.astuple(a) == dataclasses.astuple(b)
    assert repr(a) == repr(b)
    assert quick(content, spans, quoted, line) == b
    assert hash(quick(content, spans, quoted, line + 1)) == hash(b)  # line is compare=False


def test_defaults_keywords_and_signature():
    plain, quick = twins()
    assert quick("x") == quick(content="x", spans=(), quoted=True, line=0)
    assert dataclasses.astuple(quick("x", quoted=False)) == dataclasses.astuple(plain("x", quoted=False))
    assert str(inspect.signature(quick.__init__)) == str(inspect.signature(plain.__init__))
    with pytest.raises(TypeError):
        quick()  # content is required


def test_still_frozen():
    _, quick = twins()
    fill = quick("x", (1,), False, 7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fill.content = "y"  # type: ignore[misc]


def test_package_records_pickle_back_equal_with_their_positions():
    extent = Extent(3, 9)
    fill = TextFill("Bulls", ((0, 5),), (extent,), (extent,), False, True, 12, 5)
    again = pickle.loads(pickle.dumps(fill))
    assert again == fill and (again.line, again.column) == (12, 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        again.line = 1  # type: ignore[misc]


def test_refuses_what_it_would_not_reproduce():
    @dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclass(slots=True)
    class NotFrozen:
        x: int

    @dataclass(frozen=True, slots=True)
    class Factory:
        x: list = field(default_factory=list)

    @dataclass(frozen=True, slots=True)
    class PostInit:
        x: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True, kw_only=True)
    class KeywordOnly:
        x: int

    for cls in (NoSlots, NotFrozen, Factory, PostInit, KeywordOnly):
        with pytest.raises(TypeError, match="quick_init"):
            quick_init(cls)


def package_records():
    """Every class of hub4eval given a quick __init__."""
    found = []
    for info in pkgutil.walk_packages(hub4eval.__path__, prefix="hub4eval."):
        if info.name == "hub4eval.__main__":
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                if value.__init__.__qualname__ == f"{value.__qualname__}.__init__" and "_set_" in str(
                    value.__init__.__code__.co_names
                ):
                    found.append(value)
    return found


def test_the_model_and_mapping_records_use_it():
    names = {cls.__name__ for cls in package_records()}
    # (prepared fills are msgspec Structs, made faster still: tests/scoring/test_fills.py)
    assert {"Extent", "TextFill", "Slot", "Instance", "SlotMatch", "Counts", "Point"} <= names


@pytest.mark.parametrize("cls", package_records(), ids=lambda cls: cls.__name__)
def test_package_records_take_their_fields_in_order(cls):
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in parameters] == [f.name for f in fields]
    assert [p.default for p in parameters] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]


def test_docstring_example():
    assert doctest.testmod(records).failed == 0
