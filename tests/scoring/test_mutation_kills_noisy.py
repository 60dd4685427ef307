"""Noisy content comparison (hub4eval/scoring/noisy.py): tests that kill its mutants
(issue #21). The reason a user reads for an empty hypothesis names what was dropped."""

from __future__ import annotations

from hub4eval.scoring.noisy import noisy_content_correct
from hub4eval.text.tokens import tokenize


def test_the_reason_for_a_hypothesis_of_fillers_names_the_dropped_fillers() -> None:
    ref = tokenize("uh")  # a filler: optional, so the minimal string is optional tokens only
    assert noisy_content_correct(ref, [ref], tokenize("um")) == (
        True,
        "the hypothesis has no words once fillers are dropped (dropped: `um`), "
        "and the minimal string `uh` is made of optional tokens only",
    )


def test_the_reason_for_an_empty_hypothesis_names_nothing_dropped() -> None:
    ref = tokenize("uh")
    assert noisy_content_correct(ref, [ref], []) == (
        True,
        "the hypothesis has no words once fillers are dropped, "
        "and the minimal string `uh` is made of optional tokens only",
    )
