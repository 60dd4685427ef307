"""What a fuzz module's runs ended in, reported once at its end (tests/properties/test_fuzz*.py)."""

from __future__ import annotations

import os
from collections import Counter


def report_outcomes(outcomes: Counter[str], label: str) -> None:
    """Print the outcomes (pytest -s) and append them to the file named by
    $HUB4EVAL_FUZZ_REPORT (docs/input-errors.md records the numbers of a
    `pytest -m fuzz` run); nothing when no run was counted."""
    if not outcomes:
        return
    line = f"{label}: " + ", ".join(f"{key} {value}" for key, value in sorted(outcomes.items()))
    print("\n" + line)
    target = os.environ.get("HUB4EVAL_FUZZ_REPORT")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
