"""The two kinds of immutable record the package makes in bulk.

**The data model's records** (:class:`Record`, ``hub4eval.model``) are
``msgspec.Struct`` classes, frozen and untracked by the cyclic garbage
collector (``gc=False``: a record holds strings, numbers and other records,
never a cycle).  msgspec makes such a record about five times quicker than a
frozen dataclass and in less memory (no collector header), and parsing a
large templette file makes millions of them (``benchmarks/RESULTS.md``,
"Model records as msgspec structs").  A record's positions (line, column,
the path and warnings of a file) are for messages only and take no part in
equality, so that a set read back from its written form equals the
original: :func:`compare_without` gives a class the ``__eq__`` and
``__hash__`` a dataclass would have with ``field(compare=False)`` on those
fields.  To change a field of a record, make a new one with :data:`replace`
(msgspec's ``structs.replace``).

>>> @compare_without("line")
... class Word(Record, frozen=True):
...     text: str
...     line: int = 0
>>> Word("bulls", 3) == Word("bulls", 9), Word("bulls", 3)
(True, Word(text='bulls', line=3))

**Other frozen slotted dataclasses that are quick to make.**
A frozen dataclass's ``__init__`` sets each field with
``object.__setattr__(self, name, value)``, because its own ``__setattr__``
refuses. That generic call looks the name up in the class for every field.
A large evaluation makes millions of these records (the slot matches and
the points, for instance), and this setter cost was a sixth of a
10,000-document score (``benchmarks/bench_score.py``) when the model's
records were such dataclasses too.

:func:`quick_init` gives such a class an ``__init__`` with the same parameters
that sets each slot through the slot's own descriptor (``member.__set__``,
looked up once, when the class is made). The class stays the dataclass it was:
the same fields, equality, hash, repr and pickling, still frozen after
``__init__``. Only plain fields are supported (no ``default_factory``, no
``__post_init__``, no init-only or keyword-only fields); anything else is a
``TypeError`` when the class is defined, not a silent difference.

>>> from dataclasses import dataclass
>>> @quick_init
... @dataclass(frozen=True, slots=True)
... class Span:
...     start: int
...     end: int = 0
>>> Span(3), Span(3, 5) == Span(3, 5)
(Span(start=3, end=0), True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")
R = TypeVar("R", bound="Record")


replace = msgspec.structs.replace
"""``replace(record, **changes)``: a copy of a :class:`Record` with the
fields ``changes`` names set to new values (the record itself is unchanged)."""


class Record(msgspec.Struct, frozen=True, gc=False):
    """The base of the data model's records: a frozen ``msgspec.Struct``
    that the cyclic garbage collector does not track.

    Subclasses inherit both settings; each says ``frozen=True`` again
    (``class Extent(Record, frozen=True)``) for type checkers, which do not
    see msgspec's inheritance of it.  Their fields are set once, by
    ``__init__`` (positional or keyword, as a dataclass's); setting one
    afterwards raises AttributeError.  Equality and hash are over all the
    fields, unless :func:`compare_without` says otherwise.
    """


def compare_without(*names: str) -> Callable[[type[R]], type[R]]:
    """A class decorator: equality (``==``, ``!=``) and hash of the record class over its
    fields other than ``names``, as a dataclass's with
    ``field(compare=False)`` on them (equal only to a record of the very
    same class; the hash of the tuple of the compared fields).

    Raises:
        TypeError: a name is not a field of the class, or the class is not
            a :class:`Record`.
    """

    def decorate(cls: type[R]) -> type[R]:
        if not issubclass(cls, Record):
            raise TypeError(f"compare_without needs a Record class, not {cls.__qualname__}")
        fields = cls.__struct_fields__
        unknown = [name for name in names if name not in fields]
        if unknown:
            raise TypeError(f"compare_without: {cls.__qualname__} has no field {', '.join(unknown)}")
        compared = [name for name in fields if name not in names]
        mine = "(" + "".join(f"self.{name}, " for name in compared) + ")"
        theirs = "(" + "".join(f"other.{name}, " for name in compared) + ")"
        source = (
            "def __eq__(self, other):\n"
            "    if other.__class__ is self.__class__:\n"
            f"        return {mine} == {theirs}\n"
            "    return NotImplemented\n"
            "def __ne__(self, other):\n"
            "    if other.__class__ is self.__class__:\n"
            f"        return {mine} != {theirs}\n"
            "    return NotImplemented\n"
            "def __hash__(self):\n"
            f"    return hash({mine})\n"
        )
        namespace: dict[str, Any] = {}
        exec(source, namespace)  # as dataclasses itself makes __eq__ and __hash__
        for method in ("__eq__", "__ne__", "__hash__"):
            function = namespace[method]
            function.__qualname__ = f"{cls.__qualname__}.{method}"
            function.__module__ = cls.__module__
            setattr(cls, method, function)
        return cls

    return decorate


def quick_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of a frozen, slotted dataclass by one that sets the slots directly.

    Put it above ``@dataclass(frozen=True, slots=True)``, so that type checkers
    still see the dataclass.

    Raises:
        TypeError: ``cls`` is not a frozen dataclass with slots, or it has a
            field feature the quick ``__init__`` does not reproduce.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"quick_init needs a frozen dataclass with slots=True, not {cls.__qualname__}")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"quick_init: {cls.__qualname__} has __post_init__")
    namespace: dict[str, Any] = {}
    parameters, lines = [], []
    for field in dataclasses.fields(cls):
        if not field.init or field.kw_only or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"quick_init: field {cls.__qualname__}.{field.name} is not a plain field")
        name = field.name
        namespace[f"_set_{name}"] = cls.__dict__[name].__set__  # the slot's descriptor
        if field.default is dataclasses.MISSING:
            parameters.append(name)
        else:
            namespace[f"_default_{name}"] = field.default
            parameters.append(f"{name}=_default_{name}")
        lines.append(f"    _set_{name}(self, {name})")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(lines or ["    pass"]) + "\n"
    exec(source, namespace)  # as dataclasses itself makes __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]  # replacing the method is the point
    return cls
