"""What the tests share: the repository's paths (here), random template sets
(:mod:`tests.support.strategies`) and templette-text-in, result-out scoring
(:mod:`tests.support.scoring`). Fixtures live in ``tests/conftest.py``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DATA = ROOT / "tests" / "data"
