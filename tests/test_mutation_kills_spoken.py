"""Spoken and written number forms (hub4eval/text/spoken/): tests that kill its
mutants (issue #21). Each checks the canonical words a user's text becomes."""

from __future__ import annotations

import dataclasses

import pytest

from hub4eval.text import spoken
from hub4eval.text.spoken import LANGUAGES, canonical_words, spoken_forms
from hub4eval.text.tokens import tokenize


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


def test_a_language_record_is_frozen() -> None:
    """A Language is shared by every call (the per-language caches hold it): it cannot be changed."""
    english = LANGUAGES["en"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        english.decimal_word = "comma"  # type: ignore[misc]
    assert english.decimal_word == "point"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # every year head from 13 to 20 joins a following 10..99 (19 94 -> 1994)
        ("thirteen ninety four", ["1394"]),
        ("nineteen ten", ["1910"]),
        ("twenty ten", ["2010"]),
        # 12 is no year head: two numbers
        ("twelve ninety four", ["12", "94"]),
    ],
)
def test_year_heads(text: str, expected: list[str]) -> None:
    assert words(text) == expected


@pytest.mark.parametrize(
    ("symbol", "unit"),
    [("$", "dollars"), ("£", "pounds"), ("€", "euros"), ("¥", "yen")],
)
def test_each_currency_symbol_gives_its_unit_word(symbol: str, unit: str) -> None:
    text = f"{symbol}5"
    assert canonical_words(text) == [("5", 0, 2), (unit, 0, 2)]


def test_a_cent_sign_after_the_digits_gives_cents() -> None:
    assert canonical_words("5¢") == [("5", 0, 2), ("cents", 0, 2)]


@pytest.mark.parametrize(
    ("spoken", "unit"),
    [
        ("dollar", "dollars"),
        ("dollars", "dollars"),
        ("cent", "cents"),
        ("cents", "cents"),
        ("pound", "pounds"),
        ("pounds", "pounds"),
        ("euro", "euros"),
        ("euros", "euros"),
        ("percent", "percent"),
    ],
)
def test_each_unit_word_after_a_number_is_a_unit(spoken: str, unit: str) -> None:
    """After a day-like number, a unit word keeps the number a cardinal (`July 5 dollars`
    is an amount, not the 5th), and the unit word is written in its plural form."""
    assert words(f"two {spoken}") == ["2", unit]
    assert words(f"July 5 {spoken}") == ["july", "5", unit]


def test_per_cent_after_a_day_like_number_is_percent() -> None:
    assert words("July 5 per cent") == ["july", "5", "percent"]


def test_the_words_of_a_hyphenated_number_keep_the_default_lower_case() -> None:
    """spoken_forms is case-insensitive unless told otherwise: `Year-Old` split out of
    `6-Year-Old` is lower-cased like every other token."""
    assert words("a 6-Year-Old") == ["a", "6", "year", "old"]


def test_a_plural_ordinal_stays_a_word_like_a_plural_scale_word() -> None:
    """`thirds` (a fraction's denominator) stays a word, as `hundreds` does; `third` is an ordinal."""
    assert words("two thirds") == ["2", "thirds"]
    assert words("hundreds") == ["hundreds"]
    assert words("two third") == ["2", "3rd"]


def test_a_percent_sign_of_its_own_carries_no_marks() -> None:
    """`5 %`: the unit token made for the separate sign is neither parenthesized nor optional."""
    text = "cost 5 %"
    out = spoken_forms(tokenize(text), text)
    assert [(t.text, t.start, t.end, t.parenthesized, t.optional) for t in out] == [
        ("cost", 0, 4, False, False),
        ("5", 5, 6, False, False),
        ("percent", 7, 8, False, False),
    ]


def test_case_sensitive_number_words_are_classified_in_lower_case() -> None:
    """With case-sensitive tokens, `Seventeen` is looked up as `seventeen`; the per-language
    caches are emptied first so that no earlier test has classified the lower-case word."""
    spoken._words.cache_clear()
    try:
        text = "Seventeen Ninety"
        out = spoken_forms(tokenize(text, case_sensitive=True), text, case_sensitive=True)
        assert [(t.text, t.start, t.end) for t in out] == [("1790", 0, len(text))]
    finally:
        spoken._words.cache_clear()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a suffix after a decimal or after a currency amount is no written number:
        # the tokens stay as the tokenizer cut them
        ("3.5th", ["3", "5th"]),
        ("$4th", ["$4th"]),
        ("1.5s", ["1", "5s"]),
        ("$1990s", ["$1990s"]),
        ("$5%", ["$5"]),
        ("$5¢", ["$5¢"]),
    ],
)
def test_odd_written_numbers_are_left_to_the_tokenizer(text: str, expected: list[str]) -> None:
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("July 4TH", ["July", "4th"]),
        ("the 1990S", ["the", "1990s"]),
        ("5%", ["5", "percent"]),
        # the month is recognized whatever its case: the day after it is an ordinal
        ("July 4", ["July", "4th"]),
    ],
)
def test_written_suffixes_are_canonical_in_case_sensitive_text(text: str, expected: list[str]) -> None:
    """The suffix of a written ordinal or plural is lower-cased even when other words keep their case,
    and glue words are recognized in any case."""
    out = spoken_forms(tokenize(text, case_sensitive=True), text, case_sensitive=True)
    assert [t.text for t in out] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a written form spans its raw word from the first character to the last
        ("the 21st", [("the", 0, 3), ("21st", 4, 8)]),
        ("(21st)", [("21st", 1, 5)]),
        ("the 1990's", [("the", 0, 3), ("1990s", 4, 10)]),
        ("up 5%", [("up", 0, 2), ("5", 3, 5), ("percent", 3, 5)]),
        # the parts of a hyphenated word keep their own spans
        ("a 6-year-old", [("a", 0, 1), ("6", 2, 3), ("year", 4, 8), ("old", 9, 12)]),
        ("seven-five", [("7", 0, 5), ("5", 6, 10)]),
    ],
)
def test_spans_of_written_forms(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert canonical_words(text) == expected


def test_a_run_of_words_inside_a_hyphenated_number_is_no_range() -> None:
    """`to-the` between two number parts is two words, not the range word `to` alone."""
    assert canonical_words("seven-to-the-five") == [("7", 0, 5), ("to", 6, 8), ("the", 9, 12), ("5", 13, 17)]
    assert words("seven-to-five") == ["7", "5"]


@pytest.mark.parametrize("text", ["five (well)-known", "five well-(known)", "five {well}-known"])
def test_a_hyphenated_word_without_a_number_part_is_left_as_the_tokenizer_made_it(text: str) -> None:
    """Next to a number, `(well)-known` keeps the tokenizer's tokens exactly, marks and raw
    form included (the raw form is what noisy comparison reads)."""
    tokens = tokenize(text)
    out = spoken_forms(tokens, text)
    assert out[0].text == "5"
    assert out[1:] == tokens[1:]
    assert all(t.form is not None for t in out[1:])


@pytest.mark.parametrize("offset", [0, 100])
def test_a_raw_word_cut_by_the_window_edge_is_read_whole_once(offset: int) -> None:
    """`a.b.c.d-5` is four tokens before the number `d-5`, so the two-token window around
    it starts inside the raw word; the window grows to the whole raw word, whose tokens
    come out once each, at their spans plus the tokenizer's offset."""
    text = "x a.b.c.d-5 y"
    out = spoken_forms(tokenize(text, offset=offset), text, offset=offset)
    expected = [("x", 0, 1), ("a", 2, 3), ("b", 4, 5), ("c", 6, 7), ("d", 8, 9), ("5", 10, 11), ("y", 12, 13)]
    assert [(t.text, t.start - offset, t.end - offset) for t in out] == expected


@pytest.mark.parametrize("mark", ["...", ".", "!?"])
def test_a_kept_punctuation_token_next_to_a_number_stays(mark: str) -> None:
    """With punctuation kept, a raw word of punctuation only (no letter or digit to start a
    core) comes out as the tokenizer made it."""
    text = f"five {mark}"
    out = spoken_forms(tokenize(text, keep_punctuation=True), text)
    assert [t.text for t in out] == ["5", mark]


def test_a_written_third_keeps_its_suffix() -> None:
    assert words("the 3rd of May") == ["the", "3rd", "of", "may"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (".5", [("0.5", 0, 2)]),  # the whole text
        (".5 percent", [("0.5", 0, 2), ("percent", 3, 10)]),  # at the very start of the text
        ("a rise of (.5) percent", [("a", 0, 1), ("rise", 2, 6), ("of", 7, 9), ("0.5", 11, 13), ("percent", 15, 22)]),
    ],
)
def test_a_decimal_without_its_leading_zero(text: str, expected: list[tuple[str, int, int]]) -> None:
    """`.5` is 0.5 wherever it stands: first in the text, or after an opening parenthesis (the
    point starts the core only when a digit follows it)."""
    assert canonical_words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("twenty (five of them)", ["20", "5", "of", "them"]),
        ("twenty, five", ["20", "5"]),
        ("twenty five", ["25"]),
    ],
)
def test_punctuation_between_number_words_keeps_them_apart(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_second_before_of_at_the_end_of_the_text_stays_a_word() -> None:
    """`second of` with nothing after `of`: no month follows, so `second` is not a day."""
    assert words("the second of") == ["the", "second", "of"]
    assert words("the second of july") == ["the", "2nd", "of", "july"]


@pytest.mark.parametrize("offset", [0, 7])
@pytest.mark.parametrize(
    ("text", "spans"),
    [
        # two tokens before the number and three from it, raw words kept whole
        ("a b c d seven e f g h", [(2, 7)]),
        ("the u.s.a seven e f g", [(1, 7)]),  # `u.s.a` is three tokens of one raw word: all of it
        ("seven e f g-h i j", [(0, 3)]),
        ("a b seven c d e f g h i j k five l", [(0, 5), (10, 14)]),
        ("a b seven c d e five l", [(0, 8)]),  # windows that meet are one
        ("a b seven c d e five l m n o", [(0, 9)]),  # ... up to three tokens from the last number
        ("a b seven c d e f g five h i j", [(0, 5), (6, 11)]),  # one token between: two windows
        ("seven e f.g.h i", [(0, 5)]),  # the end inside `f.g.h` moves to the end of the raw word
        ("seven e f.g h i five", [(0, 7)]),  # ... where it meets the next number's window
    ],
)
def test_the_windows_around_numbers(text: str, spans: list[tuple[int, int]], offset: int) -> None:
    """Which tokens each number's window takes (the raw text is read only there), whatever the
    tokenizer's offset."""
    tokens = tokenize(text, offset=offset)
    words_en = spoken._words("en")
    hits = [i for i, token in enumerate(tokens) if spoken.number_start(words_en, token.text)]
    windows = spoken.number_windows(tokens, text, offset, words_en, False, hits)
    assert [(a, b) for a, b, _ in windows] == spans


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("growth of 3.75 %", [("growth", 0, 6), ("of", 7, 9), ("3.75", 10, 14), ("percent", 15, 16)]),
        ("growth of 3.75 %.", [("growth", 0, 6), ("of", 7, 9), ("3.75", 10, 14), ("percent", 15, 16)]),
        ("growth of 3.75 % .", [("growth", 0, 6), ("of", 7, 9), ("3.75", 10, 14), ("percent", 15, 16)]),
        ("(up 5 %)", [("up", 1, 3), ("5", 4, 5), ("percent", 6, 7)]),
        ("up 5 %, then 6", [("up", 0, 2), ("5", 3, 4), ("percent", 5, 6), ("then", 8, 12), ("6", 13, 14)]),
        ("5 %, 6 %. 7", [("5", 0, 1), ("percent", 2, 3), ("6", 5, 6), ("percent", 7, 8), ("7", 10, 11)]),
        # not a sign of its own: a filler written with a percent sign
        ("up 5 %hesitation and", [("up", 0, 2), ("5", 3, 4), ("hesitation", 6, 16), ("and", 17, 20)]),
    ],
)
def test_a_percent_sign_apart_from_its_number(text: str, expected: list[tuple[str, int, int]]) -> None:
    """`5 %` reads as `5 percent` (the word spans the sign), with closing punctuation after the
    sign or not (`5 %, 6 %. 7` is three numbers, two of them percentages)."""
    assert canonical_words(text) == expected


def test_a_written_decimal_times_a_scale_word_keeps_its_fraction() -> None:
    assert words("1.2345 thousand") == ["1234.5"]
    assert words("2.5 thousand") == ["2500"]


def test_point_after_written_digits_is_no_leading_zero() -> None:
    """`point five` alone is 0.5, but after written digits the point belongs to them (`7 point
    five` is not 7 and 0.5; the library does not join written digits with spoken ones, so the
    words stay as they are)."""
    assert words("point five percent") == ["0.5", "percent"]
    assert words("it was 7 point five") == ["it", "was", "7", "point", "5"]


@pytest.mark.parametrize(
    "text",
    [
        "it fell by five ( % )",  # a percent sign beyond the number's raw words is not its unit
        "five-per-cent ( %",
        "Yeltsin paid $12,500 in 1994, fifty eight point five percent",
        "July second, seven to five",
        "the u.s.a won seven-to-five in nineteen ninety four",
        "two and a half million (uh) dollars",
        "a.b.c.d-5 and .5 %, then 6",
    ],
)
def test_the_tokenizer_offset_only_shifts_the_spans(text: str) -> None:
    """Texts are cut from a corpus at an offset: the canonical words are the same, each span
    shifted by it."""
    at_zero = [(t.text, t.start, t.end) for t in spoken_forms(tokenize(text), text)]
    shifted = [(t.text, t.start - 7, t.end - 7) for t in spoken_forms(tokenize(text, offset=7), text, offset=7)]
    assert shifted == at_zero
    if text.startswith("it fell"):
        assert [w for w, _, _ in at_zero] == ["it", "fell", "by", "5"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$5 million", ["5000000", "dollars"]),
        ("3 thousand people", ["3000", "people"]),
        ("3.5 million", ["3500000"]),
        ("three million", ["3000000"]),
    ],
)
def test_written_digits_times_a_scale_word(text: str, expected: list[str]) -> None:
    """A scale word after written digits multiplies them, as after spoken ones."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("twenty & five", ["20", "5"]),
        ("nineteen / ninety four", ["19", "94"]),
        ("twenty -- five", ["20", "5"]),
        ("fifty / fifty", ["50", "50"]),
    ],
)
def test_a_mark_standing_alone_keeps_number_words_apart(text: str, expected: list[str]) -> None:
    """A raw word of punctuation only, between two number words, separates them as a comma does
    (it used to join `twenty & five` into 25 and `nineteen / ninety four` into 1994)."""
    assert words(text) == expected


def test_second_of_a_month_after_other_words() -> None:
    assert words("on the second of july") == ["on", "the", "2nd", "of", "july"]
    assert words("in 1990 the second of july") == ["in", "1990", "the", "2nd", "of", "july"]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Bob's", "Bob"),
        ("A's", "A"),  # the Oakland A's: one letter before the possessive
        ("s'", "s"),
        ("Jones'", "Jones"),
        ("JONES'", "JONES"),
        ("class", "class"),  # an s at the end is not a possessive
        ("boss", "boss"),
        ("FAX'", "FAX'"),  # an apostrophe after another letter is a closing quote
        ("'s", "'s"),
        ("s", "s"),
    ],
)
def test_possessives_are_stripped_and_nothing_else(word: str, expected: str) -> None:
    assert spoken.strip_possessive(word) == expected


def test_a_spoken_decade_alone_is_a_decade() -> None:
    assert words("sixties") == ["60s"]
    assert words("the sixties") == ["the", "60s"]


def test_and_a_half_inside_a_hyphenated_word_without_a_scale_stays_words() -> None:
    """`-and-a-half-` becomes 0.5 only before a scale word (`two-and-a-half-million`); before
    anything else it comes back as the tokenizer cut it, and what follows it comes once."""
    assert canonical_words("the two-and-a-half-7 win") == [
        ("the", 0, 3),
        ("2", 4, 7),
        ("and", 8, 11),
        ("a", 12, 13),
        ("half", 14, 18),
        ("7", 19, 20),
        ("win", 21, 24),
    ]
    assert words("a two-and-a-half-million deal") == ["a", "2500000", "deal"]
