from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from tests.support import EXAMPLES

# No Hypothesis deadline: its default (200 ms per example) is a timing test, and the
# machines that run these are shared and noisy (a first call has failed at 396 ms under
# load). Speed is measured in benchmarks/, against anchors of the same run.
settings.register_profile("hub4eval", deadline=None)
settings.load_profile("hub4eval")


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
