"""Tests of §8.2 spoken/written number forms (hub4eval/text/spoken/)."""

from __future__ import annotations

import dataclasses
import doctest

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from hub4eval.scoring.noisy import noisy_content_correct
from hub4eval.text import spoken
from hub4eval.text.align import align_words
from hub4eval.text.glm import apply_glm, default_glm
from hub4eval.text.spoken import LANGUAGES, canonical_words, spoken_forms, strip_possessive
from hub4eval.text.tokens import Token, tokenize


def words(text: str) -> list[str]:
    return [w for w, _, _ in canonical_words(text)]


def forms(text: str, **options) -> tuple[Token, ...]:
    return spoken_forms(tokenize(text), text, **options)


# ---------------------------------------------------------------- §8.2 equivalence classes

# (canonical words, written forms, spoken forms): every form of a row gives the
# canonical words, so written -> canonical == spoken -> canonical.
CLASSES = [
    # cardinals; thousands separators never matter
    (["48"], ["48"], ["forty eight", "forty-eight"]),
    (["63"], ["63"], ["sixty three"]),
    (
        ["4250"],
        ["4,250", "4250"],
        ["four thousand two hundred fifty", "forty two hundred fifty", "four thousand two hundred and fifty"],
    ),
    (["1100", "mile"], ["1,100 mile"], ["eleven hundred mile", "one thousand one hundred mile"]),
    (["100", "people"], ["100 people"], ["a hundred people", "one hundred people"]),
    (["1000000"], ["1,000,000", "1000000"], ["a million", "one million"]),
    # digits then scale words, as some transcripts write them
    (["4200"], ["4,200", "4 thousand two hundred"], ["four thousand two hundred", "forty two hundred"]),
    (["300", "troops"], ["300 troops", "3 hundred troops"], ["three hundred troops"]),
    (["350"], ["350", "3 hundred fifty"], ["three hundred fifty", "three hundred and fifty"]),
    (["200000"], ["200,000", "2 hundred thousand"], ["two hundred thousand"]),
    (["3005"], ["3,005", "3 thousand and five"], ["three thousand and five"]),
    (["3200000"], ["3,200,000", "3 million two hundred thousand"], ["three million two hundred thousand"]),
    (["3500000000"], ["3,500,000,000", "3.5 thousand million"], ["three point five thousand million"]),
    # years
    (["1994"], ["1994"], ["nineteen ninety four", "nineteen ninety-four", "nineteen hundred ninety four"]),
    (["2005"], ["2005"], ["two thousand five", "two thousand and five", "twenty oh five"]),
    (["1905"], ["1905"], ["nineteen oh five"]),
    (["1990s"], ["1990s", "1990's"], ["nineteen nineties"]),
    (["the", "90s"], ["the '90s", "the 90s"], ["the nineties"]),
    # ordinals
    (["21st"], ["21st", "21ST"], ["twenty first", "twenty-first"]),
    (["13th"], ["13th"], ["thirteenth"]),
    (["july", "4th"], ["July 4th", "July 4"], ["july fourth"]),
    (["july", "2nd"], ["July 2nd", "July 2"], ["july second"]),
    (["july", "22nd"], ["July 22nd", "July 22"], ["july twenty second"]),
    (["the", "2nd", "of", "july"], ["the 2nd of July"], ["the second of july"]),
    (["jan", "5th"], ["Jan. 5"], ["jan fifth"]),
    (["july", "4th", "1996"], ["July 4, 1996"], ["july fourth nineteen ninety six"]),
    # money
    (["12500", "dollars"], ["$12,500", "$12500", "12,500 dollars"], ["twelve thousand five hundred dollars"]),
    (["50000", "dollars"], ["$50,000."], ["fifty thousand dollars"]),
    (
        ["3500000", "dollars"],
        ["$3.5 million", "$3,500,000", "$3.5-million"],
        [
            "three point five million dollars",
            "three and a half million dollars",
            "three million five hundred thousand dollars",
        ],
    ),
    (["1", "dollars"], ["$1"], ["one dollar"]),
    (["20", "pounds"], ["£20"], ["twenty pounds"]),
    (["50", "cents"], ["50¢"], ["fifty cents"]),
    (["5", "percent"], ["5%", "5 %"], ["five percent", "five per cent"]),
    # decimals
    (["0.45"], ["0.45", ".45"], ["point four five", "zero point four five"]),
    (["0.32"], ["0.32"], ["point three two"]),
    (["3.14"], ["3.14"], ["three point one four"]),
    # scores and ranges
    (["7", "5"], ["7-5", "7 to 5", "7-to-5"], ["seven to five", "seven five", "seven-five"]),
    (["6", "3"], ["6-3"], ["six to three"]),
    (["2", "0"], ["2-0"], ["two to nothing", "two to zero", "two zero", "two nil", "two to nil", "two-nil"]),
    (["10", "15", "percent"], ["10-15%", "10 to 15 percent"], ["ten to fifteen percent"]),
    # durations and lists keep their words
    (["3", "hours", "2", "minutes"], ["3 hours, 2 minutes"], ["three hours two minutes"]),
    (["5", "6", "7"], ["5, 6, 7"], ["five six seven"]),
]


@pytest.mark.parametrize(
    "canonical,form",
    [(c, f) for c, written, said in CLASSES for f in written + said],
)
def test_every_form_reaches_the_canonical_words(canonical: list[str], form: str) -> None:
    assert words(form) == canonical


@pytest.mark.parametrize("canonical,written,said", CLASSES)
def test_written_and_spoken_agree(canonical, written, said) -> None:
    results = {tuple(words(f)) for f in written + said}
    assert results == {tuple(canonical)}


# ---------------------------------------------------------------- spans


def spans(text: str) -> list[tuple[str, int, int]]:
    return canonical_words(text)


def test_a_spoken_number_is_one_token_spanning_all_its_words() -> None:
    assert spans("sixty three teams") == [("63", 0, 11), ("teams", 12, 17)]
    text = "in nineteen ninety four"
    assert spans(text) == [("in", 0, 2), ("1994", 3, len(text))]
    assert spans("forty two hundred fifty") == [("4250", 0, 23)]


def test_written_money_spans_from_the_symbol_through_the_last_digit() -> None:
    text = "worth $12,500."
    assert spans(text) == [("worth", 0, 5), ("12500", 6, 13), ("dollars", 6, 13)]
    assert text[6:13] == "$12,500"


def test_spoken_money_keeps_the_unit_word_span() -> None:
    text = "twelve thousand five hundred dollars"
    assert spans(text) == [("12500", 0, 28), ("dollars", 29, 36)]


def test_scaled_money_spans_number_and_scale_word() -> None:
    text = "$3.5 million"
    assert spans(text) == [("3500000", 0, 12), ("dollars", 0, 12)]
    text = "three point five million dollars"
    assert spans(text) == [("3500000", 0, 24), ("dollars", 25, 32)]


def test_digits_before_scale_words_are_one_number_spanning_both() -> None:
    """The library reads `4 thousand two hundred` as 4 and 1200 (it does not
    read digits); the digits multiply the leading scale words and the rest
    is added, as `four thousand two hundred` is read."""
    text = "about 4 thousand two hundred people"
    assert spans(text) == [("about", 0, 5), ("4200", 6, 28), ("people", 29, 35)]
    assert spans("$3 hundred") == [("300", 0, 10), ("dollars", 0, 10)]
    assert words("2 hundred thousand five hundred") == ["200500"]


_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_RESTS = {"": 0, " five": 5, " and five": 5, " forty two": 42, " two hundred": 200, " six hundred thousand": 600_000}


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=999),
    st.sampled_from(sorted(_SCALES)),
    st.sampled_from(sorted(_RESTS)),
)
def test_digits_times_a_scale_plus_a_smaller_rest(digits: int, scale: str, rest: str) -> None:
    assume(_RESTS[rest] < _SCALES[scale])
    assert words(f"{digits} {scale}{rest}") == [str(digits * _SCALES[scale] + _RESTS[rest])]


@pytest.mark.parametrize(
    "text,expected",
    [
        # no reading of the digits times the scale words: left as the library reads them
        ("2 hundred three thousand", ["2", "103000"]),  # 3000 is not below a hundred
        ("3.5 hundred", ["3.5", "100"]),  # a decimal takes a thousand or more
        ("3.5 thousand two hundred", ["3.5", "1200"]),  # and scale words alone
        ("3, hundred", ["3", "100"]),  # punctuation keeps them apart
        ("4 thousand 200", ["4000", "200"]),  # written digits start a number of their own
        ("the 4th hundred", ["the", "4th", "100"]),  # an ordinal multiplies nothing
        ("3 hundreds", ["3", "hundreds"]),  # a plural scale stays a word
    ],
)
def test_digits_before_scale_words_that_have_no_reading_stay_apart(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_scores_split_at_the_hyphen_with_their_own_spans() -> None:
    assert spans("won 7-5") == [("won", 0, 3), ("7", 4, 5), ("5", 6, 7)]
    assert spans("seven to five") == [("7", 0, 5), ("5", 9, 13)]


def test_a_hundred_absorbs_the_article() -> None:
    assert spans("a hundred people") == [("100", 0, 9), ("people", 10, 16)]


def test_decimals_span_the_point() -> None:
    assert spans("point four five") == [("0.45", 0, 15)]
    assert spans("rate .45") == [("rate", 0, 4), ("0.45", 5, 8)]


def test_offset_and_extractable_spans() -> None:
    text = "<DOC><TEXT>sixty three</TEXT> <X>$12,500</X></DOC>"
    pieces = ((11, 22), (33, 40))
    tokens = tokenize(text, pieces, offset=1000)
    out = spoken_forms(tokens, text, offset=1000)
    assert [(t.text, t.start, t.end) for t in out] == [
        ("63", 1011, 1022),
        ("12500", 1033, 1040),
        ("dollars", 1033, 1040),
    ]


def test_a_tag_glued_to_a_number_is_not_part_of_it() -> None:
    text = "<TEXT>63</TEXT>"
    out = spoken_forms(tokenize(text, ((6, 8),)), text)
    assert [(t.text, t.start, t.end) for t in out] == [("63", 6, 8)]


def test_extent_over_the_written_amount_touches_both_produced_tokens() -> None:
    ref_text = "first prize is worth $50,000."
    hyp_text = "first prize is worth fifty thousand dollars"
    ref = forms(ref_text)
    hyp = forms(hyp_text)
    assert [t.text for t in ref] == [t.text for t in hyp]
    a, b = ref_text.index("$"), ref_text.index(".")
    assert [t.text for t in ref if t.end > a and t.start < b] == ["50000", "dollars"]
    c = hyp_text.index("fifty")
    assert [t.text for t in hyp if t.end > c] == ["50000", "dollars"]


# ---------------------------------------------------------------- untouched


def test_text_without_numbers_comes_back_as_it_was() -> None:
    text = "The h- heart of (uh) General Motors, isn't it? -- U.S. e-mail"
    tokens = tokenize(text)
    out = spoken_forms(tokens, text)
    assert out == tokens
    assert all(a is b for a, b in zip(out, tokens, strict=True))


def test_words_around_numbers_are_the_same_token_objects() -> None:
    text = "Egypt beat South Africa 2-0 in twelve years, (uh) buni- Bunting said"
    tokens = tokenize(text)
    out = spoken_forms(tokens, text)
    numbers = {"2", "0", "12"}
    kept = [t for t in out if t.text not in numbers]
    originals = [t for t in tokens if t.text not in {"2", "0", "twelve"}]
    assert kept == originals
    assert all(a is b for a, b in zip(kept, originals, strict=True))


def test_fragments_and_marks_survive() -> None:
    out = forms("six- sixty (sixty three) twen- twenty")
    assert [(t.text, t.parenthesized) for t in out] == [
        ("six-", False),
        ("60", False),
        ("63", True),
        ("twen-", False),
        ("20", False),
    ]
    assert out[0].fragment


def test_words_that_only_look_like_numbers() -> None:
    assert words("someone won one's heart") == ["someone", "won", "one's", "heart"]
    assert words("hundreds of people") == ["hundreds", "of", "people"]
    assert words("thousands died") == ["thousands", "died"]
    assert words("the point is") == ["the", "point", "is"]
    assert words("the one who knows") == ["the", "one", "who", "knows"]
    assert words("no one knows") == ["no", "one", "knows"]
    assert words("one another") == ["one", "another"]
    assert words("up to five") == ["up", "to", "5"]
    assert words("o'clock O'Neill") == ["o'clock", "o'neill"]


def test_lang_none_is_the_identity_and_unknown_languages_fail() -> None:
    tokens = tokenize("sixty three")
    assert spoken_forms(tokens, "sixty three", lang="none") == tokens
    assert spoken_forms(tokens, "sixty three", lang=None) == tokens
    with pytest.raises(ValueError, match="unknown spoken-forms language"):
        spoken_forms(tokens, "sixty three", lang="xx")


# ---------------------------------------------------------------- misrecognitions stay errors


@pytest.mark.parametrize(
    "written,said,same",
    [
        ("58", "fifty eight", True),
        ("58", "fifty nine", False),
        ("1994", "nineteen ninety four", True),
        ("1994", "nineteen ninety five", False),
        ("$12,500", "twelve thousand five hundred dollars", True),
        ("$12,500", "twelve thousand five hundred", False),
        ("$12,500", "twelve thousand six hundred dollars", False),
        ("0.45", "point four five", True),
        ("0.45", "point four six", False),
        ("21st", "twenty first", True),
        ("21st", "twenty third", False),
        ("7-5", "seven to five", True),
        ("7-5", "seven to six", False),
        ("7-5", "seventy five", False),
        ("4,250", "forty two hundred", False),
    ],
)
def test_a_number_is_equal_only_when_the_words_were_right(written, said, same) -> None:
    assert (words(written) == words(said)) is same


# ---------------------------------------------------------------- ambiguity rules


def test_second_is_an_ordinal_only_in_a_date() -> None:
    assert words("july second") == ["july", "2nd"]
    assert words("on may second") == ["on", "may", "2nd"]
    assert words("the second of july") == ["the", "2nd", "of", "july"]
    assert words("july twenty second") == ["july", "22nd"]
    assert words("the second time") == ["the", "second", "time"]
    assert words("one second") == ["1", "second"]
    assert words("a thirty second ad") == ["a", "30", "second", "ad"]
    assert words("second place") == ["second", "place"]
    assert words("thirty seconds") == ["30", "seconds"]


def test_to_is_dropped_only_between_two_numbers_and_never_merges_them() -> None:
    assert words("two to three hundred") == ["2", "300"]
    assert words("twenty to five") == ["20", "5"]  # never 25
    assert words("nineteen to ninety") == ["19", "90"]  # never 1990
    assert words("went to five schools") == ["went", "to", "5", "schools"]
    assert words("from five to the end") == ["from", "5", "to", "the", "end"]
    assert words("july fourth to july fifth") == ["july", "4th", "to", "july", "5th"]
    assert words("$5 to $10") == ["5", "dollars", "to", "10", "dollars"]


def test_numbers_separated_by_punctuation_stay_apart() -> None:
    assert words("twenty, five") == ["20", "5"]
    assert words("twenty -- five") == ["20", "5"]
    assert words("nineteen. ninety four") == ["19", "94"]
    assert words("in 1995, five people died") == words("in nineteen ninety five five people died")


def test_year_readings_are_limited_to_year_like_heads() -> None:
    assert words("eleven thirty") == ["11", "30"]  # a time, not 1130
    assert words("twelve fifteen") == ["12", "15"]
    # a digit and a number 10..99 are read in groups (spec v1.2), as `7:50` is written
    assert words("seven fifty") == words("7:50") == ["750"]
    assert words("nineteen ninety four ninety five") == words("1994-95")
    assert words("twenty twenty") == ["2020"]


def test_point_is_decimal_only_next_to_number_words() -> None:
    assert words("at that point two people left") == ["at", "that", "point", "2", "people", "left"]
    assert words("point five") == ["0.5"]
    assert words("one point zero five") == ["1.05"]


# ---------------------------------------------------------------- options and the pipeline


def test_case_sensitive_tokens_keep_the_case_of_other_words() -> None:
    text = "Sixty-Three Year-Old Yeltsin"
    out = spoken_forms(tokenize(text, case_sensitive=True), text, case_sensitive=True)
    assert [t.text for t in out] == ["63", "Year", "Old", "Yeltsin"]  # a hyphenated word is its parts


def test_keep_punctuation_tokens() -> None:
    text = "paid $12,500, then 7-5."
    out = spoken_forms(tokenize(text, keep_punctuation=True), text)
    assert [t.text for t in out] == ["paid", "12500", "dollars", "then", "7", "5"]


def test_hyphenated_words_are_their_parts() -> None:
    assert spans("6-year-old") == [("6", 0, 1), ("year", 2, 6), ("old", 7, 10)]
    assert words("34-year-old") == words("thirty four year old") == ["34", "year", "old"]
    assert words("F-16") == words("f sixteen") == ["f", "16"]
    assert words("well-known") == words("well known") == ["well", "known"]
    assert words("Crans-Montana") == words("crans montana") == ["crans", "montana"]
    assert words("buni- Bunting") == ["buni-", "bunting"]  # a fragment stays a fragment


def test_glm_runs_after_and_leaves_canonical_numbers_alone() -> None:
    glm = default_glm()
    for text in ("seven to five", "7-5"):
        assert [t.text for t in apply_glm(forms(text), glm)] == ["7", "5"]
    assert [t.text for t in apply_glm(forms("uh nineteen ninety four"), glm)] == ["uh", "1994"]


def test_noisy_content_and_alignment_see_identical_tokens() -> None:
    ref_text = "The Bulls won 98-85 on July 4, earning $3.5 million, up .45 percent"
    hyp_text = "the bulls won ninety eight to eighty five on july fourth earning three point five million dollars up point four five percent"
    ref, hyp = forms(ref_text), forms(hyp_text)
    assert [t.text for t in ref] == [t.text for t in hyp]
    alignment = align_words([t.text for t in ref], [t.text for t in hyp])
    assert alignment.errors == 0
    assert noisy_content_correct(ref, [ref], hyp)[0]
    wrong = forms("the bulls won ninety eight to eighty six")
    assert not noisy_content_correct(ref, [ref], wrong)[0]


# ---------------------------------------------------------------- misreadings found by mutation testing


def test_a_word_that_is_no_number_word_keeps_numbers_on_its_two_sides_apart() -> None:
    """Written digits, markup-free hyphenated words and other non-words between
    two number words are never dropped, and the numbers never join across them."""
    assert spans("twenty 1990s three") == [("20", 0, 6), ("1990s", 7, 12), ("3", 13, 18)]
    assert words("twenty e-mail five") == ["20", "e", "mail", "5"]
    assert words("two U.S. million") == ["2", "u", "s", "1000000"]
    assert words("one hundred 7-5 two") == ["100", "7", "5", "2"]
    assert words("sixty three $3.5 million") == ["63", "3500000", "dollars"]  # was 63000000
    assert words("$3.5 million 4,250 thirteenth") == ["3500000", "dollars", "4250", "13th"]
    assert spans("twenty six- five") == [("20", 0, 6), ("six-", 7, 10), ("5", 12, 16)]


def test_hyphenated_and_a_half_reads_like_the_spaced_words() -> None:
    assert spans("two-and-a-half-million") == [("2500000", 0, 22)]
    assert words("two-and-a-half-million dollars") == words("two and a half million dollars")
    assert words("$2.5-million") == words("two-and-a-half-million dollars") == ["2500000", "dollars"]
    # without a scale word after it, the hyphenated word comes back as its parts
    assert spans("two-and-a-half years") == [
        ("2", 0, 3),
        ("and", 4, 7),
        ("a", 8, 9),
        ("half", 10, 14),
        ("years", 15, 20),
    ]


@pytest.mark.parametrize(
    ("spoken", "written", "expected"),
    [
        ("five per cent dollar bond", "5 percent dollar bond", ["5", "percent", "dollars", "bond"]),
        ("one per cent cent", "1 percent cent", ["1", "percent", "cents"]),
        ("twenty five per cent cent", "25 percent cent", ["25", "percent", "cents"]),
        ("Five Per Cent dollar", "5 Percent dollar", ["5", "percent", "dollars"]),
        ("one-per-cent cent", "1% cent", ["1", "percent", "cents"]),
        # the window reaches one token further, not two
        ("five per cent dollar cent", "5 percent dollar cent", ["5", "percent", "dollars", "cent"]),
        ("five per", "5 per", ["5", "per"]),
    ],
)
def test_a_unit_of_two_words_reaches_as_far_as_its_written_form(spoken: str, written: str, expected: list[str]) -> None:
    # `per cent` takes two tokens where `percent` takes one: the words after it
    # are read as they are after `percent`, so normalizing twice changes nothing
    assert words(spoken) == words(written) == expected
    assert words(" ".join(expected)) == expected


def test_a_score_zero_of_two_words_reaches_as_far_as_a_written_zero() -> None:
    assert words("one to nothing cent") == words("1 0 cent") == ["1", "0", "cents"]
    assert words("nothing happened") == ["nothing", "happened"]


def test_a_decimal_the_library_reads_from_an_ordinal_is_a_cardinal() -> None:
    # text2num reads `first point one` as 1.1 and calls it ordinal; written
    # `1.1` is a cardinal, so a unit word after either is read alike
    assert words("first point one cent") == words("1.1 cent") == ["1.1", "cents"]
    assert words("twenty first cent") == ["21st", "cent"]  # a true ordinal takes no unit


def test_hyphenated_per_cent_is_percent() -> None:
    assert spans("five-per-cent") == [("5", 0, 4), ("percent", 5, 13)]
    assert words("5-per-cent") == words("five per-cent") == words("5%") == ["5", "percent"]
    # not after a number, it stays the word it was
    assert spans("per-cent five") == [("per", 0, 3), ("cent", 4, 8), ("5", 9, 13)]


def test_a_plural_ordinal_is_a_fraction_and_stays_a_word() -> None:
    """`three hundredths` is 3/100, not 300: the denominator stays a word (as
    `hundreds` does), the numerator is a cardinal."""
    assert spans("three hundredths") == [("3", 0, 5), ("hundredths", 6, 16)]
    assert words("two thirds") == ["2", "thirds"]
    assert words("three tenths of a second") == ["3", "tenths", "of", "a", "second"]
    assert words("five thousandths") == ["5", "thousandths"]
    # the singular is still an ordinal
    assert words("the three hundredth anniversary") == ["the", "300th", "anniversary"]
    assert words("the hundredth time") == ["the", "100th", "time"]


@pytest.mark.parametrize("gap", [" ", "   ", "    ", "         ", "\t\t\t\t", " \n "])
def test_a_percent_sign_after_any_whitespace_is_percent(gap: str) -> None:
    text = f"cost 5{gap}%"
    assert spans(text) == [("cost", 0, 4), ("5", 5, 6), ("percent", len(text) - 1, len(text))]
    assert words(f"cost 5{gap}% more") == ["cost", "5", "percent", "more"]


# ---------------------------------------------------------------- possessives


@pytest.mark.parametrize(
    "word,stripped",
    [
        ("yeltsin's", "yeltsin"),
        ("Yeltsin\u2019s", "Yeltsin"),
        ("jones'", "jones"),
        ("yeltsin", "yeltsin"),
        ("it's", "it's"),
        ("let's", "let's"),
        ("'s", "'s"),
        ("s", "s"),
        ("", ""),
    ],
)
def test_strip_possessive(word: str, stripped: str) -> None:
    assert strip_possessive(word) == stripped


def test_possessive_and_bare_name_compare_equal_once_stripped() -> None:
    a = [strip_possessive(t.text) for t in tokenize("Yeltsin's")]
    b = [strip_possessive(t.text) for t in tokenize("yeltsin")]
    assert a == b


# ---------------------------------------------------------------- module doctests


def test_doctests() -> None:
    result = doctest.testmod(spoken.forms)
    assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------- properties

_VOCAB = [
    "one",
    "two",
    "three",
    "twenty",
    "nineteen",
    "ninety",
    "four",
    "hundred",
    "thousand",
    "million",
    "first",
    "second",
    "twenty-first",
    "point",
    "zero",
    "oh",
    "and",
    "a",
    "half",
    "to",
    "nothing",
    "nil",
    "dollars",
    "per",
    "cent",
    "percent",
    "july",
    "may",
    "Jan.",
    "of",
    "the",
    "who",
    "nineties",
    "hundreds",
    "$12,500",
    "$3.5",
    "0.45",
    ".45",
    "7-5",
    "6-year-old",
    "21st",
    "1990's",
    "5%",
    "%",
    "(sixty",
    "three)",
    "six-",
    "--",
    ",",
    "U.S.",
    "12:30",
    "1,100",
    "2-0.",
    "<TURN>",
    "e-mail",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_VOCAB), st.sampled_from([" ", "  ", ", ", "\n"])), max_size=14))
def test_any_text_keeps_ordered_spans_inside_the_text(pieces) -> None:
    text = "".join(w + sep for w, sep in pieces)
    tokens = tokenize(text)
    out = spoken_forms(tokens, text)
    starts = [t.start for t in out]
    ends = [t.end for t in out]
    assert starts == sorted(starts) and ends == sorted(ends)
    assert all(0 <= t.start < t.end <= len(text) for t in out)
    assert all(t.text and not t.text.isspace() and " " not in t.text for t in out)
    # every produced token lies over input tokens' raw words (never over other text)
    covered = [text[t.start : t.end] for t in out]
    assert all(c.strip() == c for c in covered)


_PLAIN_VOCAB = [w for w in _VOCAB if w.replace("-", "").replace("'", "").isalnum()]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PLAIN_VOCAB), max_size=14))
@example(
    pieces=["one", "nil", "to", "nothing"],
)  # a score word read as 0 must open a window like a number
@example(
    pieces=["one", "per", "cent", "cent"],
)  # a unit of two words must let the window reach the unit after it, as `percent` does
@example(
    pieces=["first", "point", "one", "cent"],
)  # the library's `1.1` from an ordinal is a cardinal: it takes the unit word
@example(
    pieces=["one", "to", "nothing", "cent"],
)  # `to nothing` is a 0 of two words: its window reaches as far as a number's
def test_canonical_words_are_their_own_canonical_form(pieces) -> None:
    """Without punctuation (which the canonical text no longer has), the
    normalization is idempotent: a partly normalized text changes no further."""
    first = words(" ".join(pieces))
    assert words(" ".join(first)) == first


# ----------------------------------------------------------------------------
# Tests that kill mutants of hub4eval/text/spoken/ (mutation runs, tools/mutate.py; issue #21)
# Spoken and written number forms (hub4eval/text/spoken/): tests that kill its
# mutants (issue #21). Each checks the canonical words a user's text becomes.
# ----------------------------------------------------------------------------


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


# `second` next to other numbers and months (gaps of an independent mutation audit) -------


def test_second_before_a_decimal_stays_a_word_and_the_decimal_is_not_joined_to_it() -> None:
    # No month before `second`, no `of <month>` after it: a word. `point five` alone has no
    # whole part: it stays `point 5`, never `0.5`, and `second` is not read as its whole part.
    assert words("second point five") == ["second", "point", "5"]
    assert words("second point 5") == ["second", "point", "5"]


def test_second_before_in_and_a_month_is_not_a_day() -> None:
    # only `of <month>` after `second` makes it a day (`the second of may`), not `in <month>`
    assert words("second in may") == ["second", "in", "may"]
    assert words("the second of may") == ["the", "2nd", "of", "may"]


def test_second_after_a_month_and_another_second_is_a_day_both_times() -> None:
    # The search back from a `second` steps over number words to the month; the first
    # `second` (a day, 2nd) is a number word, so the second one reaches `july` too. Two
    # ordinals are never one number: two tokens.
    assert words("july second second") == ["july", "2nd", "2nd"]


@given(
    st.lists(
        st.sampled_from(["two", "nil", "seven", "a", "m", "1994", "twenty-one", "glen", "second", "per"]), max_size=8
    )
)
def test_the_tokens_that_get_a_window_are_those_number_start_names(texts: list[str]) -> None:
    """spoken_forms finds its windows' tokens with number_hits, number_start written out: the same
    indices as asking number_start of each token, the first time and every time after."""
    from hub4eval.text.spoken.language import _words
    from hub4eval.text.spoken.window import number_hits, number_start

    words = _words("en")
    tokens = [Token(text, 0, len(text)) for text in texts]
    expected = [i for i, text in enumerate(texts) if number_start(words, text)]
    assert number_hits(words, tokens) == expected
    assert number_hits(words, tokens) == expected
