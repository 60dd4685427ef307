"""The records of util/records: the model's Record classes (msgspec structs
whose equality leaves out positions, as a dataclass's compare=False fields),
and quick_init, whose quick __init__ builds the same frozen dataclass as
dataclass's own."""

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
from hub4eval import model
from hub4eval.model import Extent, TextFill
from hub4eval.util import records
from hub4eval.util.records import Record, compare_without, quick_init, replace


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


def test_model_records_pickle_back_equal_with_their_positions_and_stay_frozen():
    extent = Extent(3, 9)
    fill = TextFill("Bulls", ((0, 5),), (extent,), (extent,), False, True, 12, 5)
    again = pickle.loads(pickle.dumps(fill))
    assert again == fill and (again.line, again.column) == (12, 5)
    with pytest.raises(AttributeError):
        again.line = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        extent.start = 0  # type: ignore[misc]
    assert (again.line, extent.start) == (12, 3)


def test_replace_makes_a_changed_copy_and_leaves_the_record_unchanged():
    fill = TextFill("Bulls", ((0, 5),), (), (), False, True, 12, 5)
    moved = replace(fill, line=3)
    assert (moved.line, moved.content, fill.line) == (3, "Bulls", 12)
    assert moved == fill  # the line takes no part in equality
    assert replace(fill, content="Bears") != fill


def record_twins():
    """The same record as a dataclass with compare=False and as a Record with compare_without."""

    @dataclass(frozen=True)
    class Plain:
        content: str
        spans: tuple = ()
        line: int = field(default=0, compare=False)
        column: int = field(default=0, compare=False)

    @compare_without("line", "column")
    class Struct(Record, frozen=True):
        content: str
        spans: tuple = ()
        line: int = 0
        column: int = 0

    return Plain, Struct


@given(
    st.tuples(st.sampled_from("ab"), st.sampled_from([(), (1,)]), st.integers(0, 2), st.integers(0, 2)),
    st.tuples(st.sampled_from("ab"), st.sampled_from([(), (1,)]), st.integers(0, 2), st.integers(0, 2)),
)
def test_compare_without_compares_as_a_dataclass_with_compare_false(a, b):
    plain, struct = record_twins()
    assert (struct(*a) == struct(*b)) == (plain(*a) == plain(*b))
    assert (struct(*a) != struct(*b)) == (plain(*a) != plain(*b))
    if struct(*a) == struct(*b):
        assert hash(struct(*a)) == hash(struct(*b))
    assert repr(struct(*a)).partition("(")[2] == repr(plain(*a)).partition("(")[2]  # the fields, all of them
    assert struct(*a) != plain(*a) and struct(*a) != a  # only a record of the same class is equal


def test_compare_without_refuses_what_it_cannot_do():
    class NotARecord:
        line: int = 0

    class Word(Record, frozen=True):
        text: str

    with pytest.raises(TypeError, match="compare_without needs a Record"):
        compare_without("line")(NotARecord)  # type: ignore[type-var]
    with pytest.raises(TypeError, match="has no field line"):
        compare_without("line")(Word)


def test_the_model_is_made_of_frozen_records_the_collector_does_not_track():
    classes = [
        value for value in vars(model).values() if isinstance(value, type) and value.__module__ == model.__name__
    ]
    assert {cls.__name__ for cls in classes} >= {"Extent", "TextFill", "Instance", "TemplateSet", "Corpus"}
    for cls in classes:
        assert issubclass(cls, Record) and cls.__struct_config__.frozen, cls
        # the corpus keeps its index by DOCID in an instance dictionary, and a template set
        # what its reader found of its fills, which msgspec allows only on a tracked record;
        # a run makes two of each
        assert cls.__struct_config__.gc == (cls in (model.Corpus, model.TemplateSet)), cls


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


def test_scoring_records_use_it():
    # which ones may change as records move to msgspec where that measures faster
    assert any(cls.__module__.startswith("hub4eval.scoring.") for cls in package_records())


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
