"""Frozen slotted dataclasses that are quick to make.

A frozen dataclass's ``__init__`` sets each field with
``object.__setattr__(self, name, value)``, because its own ``__setattr__``
refuses. That generic call looks the name up in the class for every field.
A large evaluation makes millions of these records (a million text fills with
their extents, slots and alternatives, the prepared fills and the slot matches),
and this setter cost was a sixth of a 10,000-document score
(``benchmarks/bench_score.py``).

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
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")


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
