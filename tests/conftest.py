from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import EXAMPLES


@pytest.fixture
def examples() -> Path:
    return EXAMPLES
