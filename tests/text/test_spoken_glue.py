"""Spoken number forms (hub4eval/text/spoken/): tests that kill the mutants of the glue
around the number library (``_glue``: years, decades, scale words, ``a hundred``, days
after a month, unit and range words; issue #21). Each checks the canonical words a
user's text becomes."""

from __future__ import annotations

import pytest

from hub4eval.text.spoken import canonical_words, spoken_forms
from hub4eval.text.tokens import tokenize


def words(text: str) -> list[str]:
    return [w for w, _, _ in canonical_words(text)]


def marked(text: str) -> list[tuple[str, bool, bool]]:
    """(canonical word, parenthesized, optional) of every word of ``text``."""
    return [(t.text, t.parenthesized, t.optional) for t in spoken_forms(tokenize(text), text)]


# ---------------------------------------------------------------- years


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nineteen ten", ["1910"]),
        ("nineteen ninety nine", ["1999"]),
        ("twenty ninety nine", ["2099"]),
        # past 99 a year head and the number after it stay two numbers
        ("nineteen one hundred", ["19", "100"]),
        # nor is a number said with `and` a year's tail
        ("nineteen ninety and four", ["19", "94"]),
    ],
)
def test_a_year_is_a_head_and_a_tail_from_10_to_99(text: str, expected: list[str]) -> None:
    """`nineteen ninety nine` is the year 1999: a head (13 to 20) and a tail of 10 to 99 said in
    one or two words."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nineteen oh one", ["1901"]),
        ("nineteen oh nine", ["1909"]),
        ("twenty oh nine", ["2009"]),
        # `oh` is followed by one digit, 1 to 9: nothing else makes a year
        ("nineteen oh zero", ["19", "oh", "0"]),
        ("nineteen oh ten", ["19", "oh", "10"]),
    ],
)
def test_a_year_with_oh_takes_one_digit_from_1_to_9(text: str, expected: list[str]) -> None:
    """`nineteen oh five` is 1905: `oh` and one digit 1..9 after a year head."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # punctuation before the sentence or the phrase does not matter
        ("He left. In nineteen ninety four he came back", ["he", "left", "in", "1994", "he", "came", "back"]),
        ("He left. In nineteen oh five he came back", ["he", "left", "in", "1905", "he", "came", "back"]),
        ('"Born in nineteen oh five," he said', ["born", "in", "1905", "he", "said"]),
        ("(late nineteen nineties)", ["late", "1990s"]),
        # punctuation inside the year keeps its parts apart
        ("in nineteen, ninety four", ["in", "19", "94"]),
        ("Was it nineteen? Oh five.", ["was", "it", "19", "oh", "5"]),
        ("in nineteen, oh five", ["in", "19", "oh", "5"]),
        ("nineteen oh, five", ["19", "oh", "5"]),
        ("highs near nineteen, twenties inland", ["highs", "near", "19", "20s", "inland"]),
        ("highs of eighteen, nineteen, twenties", ["highs", "of", "18", "19", "20s"]),
    ],
)
def test_punctuation_inside_a_year_keeps_its_parts_apart(text: str, expected: list[str]) -> None:
    """A comma, full stop or question mark between the words of a year (`nineteen, ninety four`)
    makes them separate numbers; punctuation before the year, even just before the word ahead of
    it, does not."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in nineteen oh five and nineteen oh nine", ["in", "1905", "and", "1909"]),
        ("the nineteen nineties were good", ["the", "1990s", "were", "good"]),
    ],
)
def test_the_words_after_a_year_are_kept(text: str, expected: list[str]) -> None:
    """A year replaces its own words only: the word after it is kept."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("from nineteen ninety to nineteen ninety four", ["from", "1990", "1994"]),
        ("from nineteen oh five to nineteen oh nine", ["from", "1905", "1909"]),
        ("from a hundred to two hundred", ["from", "100", "200"]),
        ("3.5 million to 4 million", ["3500000", "4000000"]),
        ("two and a half million to three million", ["2500000", "3000000"]),
    ],
)
def test_a_range_between_numbers_read_by_the_glue_drops_to(text: str, expected: list[str]) -> None:
    """A year, `a hundred` or a multiplied-out amount is a cardinal like any other: `to` between
    two of them is a range word and is dropped, as the hyphen of `1990-1994` is."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("glued", "plain"),
    [
        ("nineteen ninety four and a half million", "one thousand nine hundred ninety four and a half million"),
        ("nineteen oh five and a half million", "one thousand nine hundred five and a half million"),
        ("a hundred and a half million", "one hundred and a half million"),
        ("two and a half million and a half billion", "two million five hundred thousand and a half billion"),
    ],
)
def test_a_number_read_by_the_glue_takes_and_a_half_like_any_spoken_number(glued: str, plain: str) -> None:
    """A year, `a hundred` and `two and a half million` are spoken numbers: `and a half <scale>`
    after them scales them as it scales the same number said in full."""
    assert words(glued) == words(plain)
    assert len(words(glued)) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the nineteen nineties", [("the", False, False), ("1990s", False, False)]),
        ("the (nineteen nineties)", [("the", False, False), ("1990s", True, False)]),
    ],
)
def test_a_decade_year_carries_the_marks_of_both_its_words(text: str, expected: list[tuple[str, bool, bool]]) -> None:
    """The token `1990s` of `nineteen nineties` is parenthesized if its words are, and not
    optional when they are not."""
    assert marked(text) == expected


# ---------------------------------------------------------------- scale words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3.5 thousand", ["3500"]),
        ("3 million", ["3000000"]),
        ("$2 thousand", ["2000", "dollars"]),
        ("two and a half thousand", ["2500"]),
        ("two and a half million", ["2500000"]),
    ],
)
def test_a_scale_word_from_a_thousand_up_multiplies_the_number_before_it(text: str, expected: list[str]) -> None:
    """`3.5 thousand` is 3500 and `two and a half thousand` 2500: a scale word (thousand,
    million, ...) after written digits, a decimal or `X and a half` multiplies it out."""
    assert words(text) == expected


def test_a_scale_word_after_a_full_stop_does_not_multiply() -> None:
    """`exit 3. Thousand Oaks`: a sentence ends between the digits and the scale word."""
    assert words("We drove past exit 3. Thousand Oaks was next") == [
        "we",
        "drove",
        "past",
        "exit",
        "3",
        "1000",
        "oaks",
        "was",
        "next",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("about two and a half million people", ["about", "2500000", "people"]),
        ("the two and a half million", ["the", "2500000"]),
    ],
)
def test_the_word_before_x_and_a_half_million_is_kept(text: str, expected: list[str]) -> None:
    """`two and a half million` replaces its own words only: the word before it is kept."""
    assert words(text) == expected


# ---------------------------------------------------------------- days


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("July 1", ["july", "1st"]),
        ("july one", ["july", "1st"]),
        ("July 31", ["july", "31st"]),
        ("july thirty one", ["july", "31st"]),
        # no month has a 32nd
        ("July 32", ["july", "32"]),
        ("july thirty two", ["july", "32"]),
    ],
)
def test_a_day_after_a_month_is_1_to_31(text: str, expected: list[str]) -> None:
    """A cardinal right after a month is the day, an ordinal: `July 4` is `july 4th`, for 1 to 31."""
    assert words(text) == expected


# ---------------------------------------------------------------- units, scores and ranges


def test_every_unit_word_after_an_amount_is_plural() -> None:
    """`a twenty euro cent coin`: both unit words after the number take their canonical
    (plural) form, as they do after written digits."""
    assert words("a twenty euro cent coin") == ["a", "20", "euros", "cents", "coin"]
    assert words("a 20 euro cent coin") == ["a", "20", "euros", "cents", "coin"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("from two per cent to three per cent", ["from", "2", "percent", "to", "3", "percent"]),
        ("won two to nil at home", ["won", "2", "0", "at", "home"]),
        ("won seven to nothing, lost two to nothing", ["won", "7", "0", "lost", "2", "0"]),
    ],
)
def test_the_word_after_per_cent_or_a_score_is_kept(text: str, expected: list[str]) -> None:
    """`per cent` and the `to nothing` of a score are read, and the word after them stays (`to`
    after an amount with a unit is no range word)."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("from 2.5 to 3", ["from", "2.5", "3"]),
        ("from 2 to 2.5", ["from", "2", "2.5"]),
        ("two point five to three", ["2.5", "3"]),
        ("two to two point five", ["2", "2.5"]),
    ],
)
def test_a_range_word_between_decimals_is_dropped(text: str, expected: list[str]) -> None:
    """`to` between two numbers is dropped when either is a decimal, as between whole numbers."""
    assert words(text) == expected


def test_the_zero_of_a_score_spans_its_own_word() -> None:
    """`seven to nothing`: the 0 replaces `nothing` (the dropped `to` is no part of it)."""
    assert canonical_words("seven to nothing") == [("7", 0, 5), ("0", 9, 16)]
    assert canonical_words("won two to nil at home") == [
        ("won", 0, 3),
        ("2", 4, 7),
        ("0", 11, 14),
        ("at", 15, 17),
        ("home", 18, 22),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("seven to nothing", [("7", False, False), ("0", False, False)]),
        ("seven to (nothing)", [("7", False, False), ("0", True, False)]),
        ("seven (to) nothing", [("7", False, False), ("0", False, False)]),
        ("rose five per (cent)", [("rose", False, False), ("5", False, False), ("percent", True, False)]),
        ("rose five (per) cent", [("rose", False, False), ("5", False, False), ("percent", True, False)]),
    ],
)
def test_score_zeros_and_units_carry_the_marks_of_the_words_they_replace(
    text: str, expected: list[tuple[str, bool, bool]]
) -> None:
    """The 0 of `to nothing` carries the marks of `nothing` alone; `percent` those of both `per`
    and `cent`."""
    assert marked(text) == expected


def test_a_score_read_from_words_reads_as_the_written_score() -> None:
    """`from two to nothing to three two` is `from 2-0 to 3-2`: the zero of a score is a
    cardinal, so `to` after it is a range word."""
    spoken_score = words("the score went from two to nothing to three two")
    assert spoken_score == words("the score went from 2-0 to 3-2")
    assert spoken_score == ["the", "score", "went", "from", "2", "0", "3", "2"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in nineteen nineties dollar terms", ["in", "1990s", "dollars", "terms"]),
        ("rates in the twenties per cent", ["rates", "in", "the", "20s", "percent"]),
    ],
)
def test_a_unit_word_after_a_spoken_decade_takes_its_canonical_form(text: str, expected: list[str]) -> None:
    """After a spoken decade (`nineteen nineties`, `twenties`) a unit word is made canonical as
    after any spoken number: `dollar` -> `dollars`, `per cent` -> `percent`."""
    assert words(text) == expected


def test_a_unit_word_after_five_per_cent_reads_as_after_five_percent() -> None:
    """`a five-per-cent dollar bond` is `a 5% dollar bond`: the unit word after the percentage is
    made canonical whichever way the percentage is written."""
    expected = ["a", "5", "percent", "dollars", "bond"]
    assert words("a five-per-cent dollar bond") == expected
    assert words("a five percent dollar bond") == expected
    assert words("a 5% dollar bond") == expected


# Scale words and dashes (gaps of an independent mutation audit) -------------------------


def test_a_scale_word_after_a_scaled_number_adds_as_the_words_would() -> None:
    # Written digits before scale words are read as the words would be: `four million
    # thousand` is 4,000,000 + 1,000 to the number library (as `four million one thousand`),
    # never 4,000,000 x 1,000.
    assert words("4 million thousand") == ["4001000"]
    assert words("four million thousand") == ["4001000"]
    assert words("4 million one thousand") == ["4001000"]


def test_and_a_half_after_a_decimal_is_left_as_words() -> None:
    # `and a half` joins a whole number (`five and a half thousand` is 5500); after a decimal
    # it is not added: `2.5` stays, the words stay, and `thousand` alone is 1000.
    assert words("two point five and a half thousand") == ["2.5", "and", "a", "half", "1000"]
    assert words("five and a half thousand") == ["5500"]


def test_a_doubled_hyphen_is_a_dash_that_keeps_the_words() -> None:
    # One hyphen joins a number (`twenty-five` is 25); a doubled one is a dash, not a
    # hyphen: the raw word is left to the tokenizer, whose words are not read as numbers.
    assert words("twenty--five") == ["twenty", "five"]
    assert words("twenty-five") == ["25"]
