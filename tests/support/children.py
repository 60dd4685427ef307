"""The children a test's code starts, recorded (:class:`hub4eval.util.forked.Beside`)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from hub4eval.util import forked


def recording_beside(note: Callable[..., None]) -> type[forked.Beside[Any]]:
    """A :class:`~hub4eval.util.forked.Beside` that calls ``note(function, *args, **kwargs)`` as each is made."""

    class Recording(forked.Beside):  # type: ignore[type-arg]
        def __init__(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
            note(function, *args, **kwargs)
            super().__init__(function, *args, **kwargs)

    return Recording


def started_children(monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> list[str]:
    """The names of the functions of the children started through the ``Beside`` of each of
    ``modules`` (patched there), in the order they are started."""
    started: list[str] = []
    recording = recording_beside(lambda function, *_, **__: started.append(function.__name__))
    for module in modules:
        monkeypatch.setattr(module, "Beside", recording)
    return started
