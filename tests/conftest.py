from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import EXAMPLES


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the fuzz tests out unless ``-m`` names them (``pytest -m fuzz``).

    Done here rather than with ``-m 'not fuzz'`` in addopts, which a second ``-m`` on the
    command line would replace: ``pytest -m "not slow"`` (the quick tier) would then run them.
    """
    if "fuzz" in (config.getoption("markexpr") or ""):
        return
    fuzz = [item for item in items if item.get_closest_marker("fuzz") is not None]
    if fuzz:
        config.hook.pytest_deselected(items=fuzz)
        items[:] = [item for item in items if item.get_closest_marker("fuzz") is None]
