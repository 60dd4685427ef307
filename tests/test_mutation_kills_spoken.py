"""Spoken and written number forms (hub4eval/text/spoken.py): tests that kill its
mutants (issue #21). Each checks the canonical words a user's text becomes."""

from __future__ import annotations

import pytest

from hub4eval.text.spoken import LANGUAGES, canonical_words


def words(text: str) -> list[str]:
    return [w for w, _, _ in canonical_words(text)]


@pytest.mark.parametrize(
    ("digits", "ordinal"),
    [
        ("1", "1st"),
        ("2", "2nd"),
        ("3", "3rd"),
        ("4", "4th"),
        ("11", "11th"),
        ("12", "12th"),
        ("13", "13th"),
        ("21", "21st"),
        ("101", "101st"),
        ("111", "111th"),
        ("112", "112th"),
        ("213", "213th"),
        ("1001", "1001st"),
    ],
)
def test_english_ordinal_suffixes(digits: str, ordinal: str) -> None:
    """-st/-nd/-rd by the last digit, except 11, 12 and 13 of every hundred."""
    assert LANGUAGES["en"].ordinal(digits) == ordinal


@pytest.mark.parametrize("day", ["11", "12", "13"])
def test_a_teen_day_after_a_month_is_th(day: str) -> None:
    assert words(f"July {day}") == ["july", f"{day}th"]
