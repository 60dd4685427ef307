"""§3 punctuation whiteout, checked against a character-by-character statement of the rule.

The rule, in words: every Unicode punctuation character becomes a space,
except an apostrophe with a letter or digit on both sides (a hyphen is whited
out everywhere: a hyphenated word is its parts, spec v1.2). The
oracle below reads each character's Unicode category itself; it shares
nothing with the module's regular expression (an earlier version of this test
compared the function with that very expression, and so could not fail).
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.text import normalize
from hub4eval.text.normalize import strip_premodifiers, whiteout_punctuation, whiteout_tags, whiteout_tags_by_line
from tests.support.scoring import cats, run

KEPT_INSIDE_WORDS = "'\u2019"  # apostrophes


def _oracle(text: str) -> str:
    out = []
    for k, ch in enumerate(text):
        if not unicodedata.category(ch).startswith("P"):
            out.append(ch)
            continue
        inside = 0 < k < len(text) - 1 and text[k - 1].isalnum() and text[k + 1].isalnum()
        out.append(ch if ch in KEPT_INSIDE_WORDS and inside else " ")
    return "".join(out)


def test_oracle_on_known_cases():
    # "_" is punctuation (connector, Pc) and is whited out like any other
    assert _oracle("isn't 2-0, 'x' -y- (uh) a_b") == "isn't 2 0   x   y   uh  a b"
    assert _oracle("Ä’s «ok»") == "Ä’s  ok "


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=12) | st.text(alphabet=st.sampled_from("ab1² _-'’.,Ä٣‐‑«»"), max_size=12))
def test_whiteout_follows_the_rule_character_by_character(text):
    result = normalize.whiteout_punctuation(text)
    assert len(result) == len(text)  # extents are unchanged by whiteout
    for k, (before, after) in enumerate(zip(text, result, strict=True)):
        assert after in (before, " "), (text, k)
    assert result == _oracle(text)


# ----------------------------------------------------------------------------
# Tests that kill mutants of hub4eval/text/normalize.py (mutation runs, tools/mutate.py; issue #21)
# Normalization (hub4eval/text/normalize.py): tests that kill its mutants (issue #21).
#
# The premodifier stripper is tested on its own, and through scoring with a
# reference and a hypothesis that are NOT stripped alike (a one-character slip
# mangles both sides of a comparison of equal strings in the same way, so
# such a comparison cannot notice it).
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "The " is 4 characters: the rest starts at index 4
        ("The host", ("host", 4)),
        ("the host of the tournament", ("host of the tournament", 4)),
        # leading blanks, two premodifiers and the blanks after each: 2 + 4 + 3 = 9 ("  the a  " then "b c")
        ("  the a  b c", ("b c", 9)),
        # "an" and "a" are words of their own, not prefixes of "another"
        ("another day", ("another day", 0)),
        ("A\tday", ("day", 2)),
        # only premodifiers: unchanged
        ("The", ("The", 0)),
        ("the a an", ("the a an", 0)),
        ("", ("", 0)),
        ("   ", ("   ", 0)),
        ("host", ("host", 0)),
    ],
)
def test_strip_premodifiers(text, expected):
    rest, removed = strip_premodifiers(text)
    assert (rest, removed) == expected
    assert text[removed:] == rest  # the count is exactly the characters cut from the start


def test_strip_premodifiers_with_a_custom_list_ignores_case():
    assert strip_premodifiers("THE host", ("the",)) == ("host", 4)
    assert strip_premodifiers("The host", ()) == ("The host", 0)
    assert strip_premodifiers("my the host", ("My", "THE")) == ("host", 7)


def test_premodifier_on_the_reference_only_moves_its_extent_by_its_length():
    # reference "The host" at 449-457: stripped to "host" at 453-457, which
    # the hypothesis "host" at 453-457 equals exactly (content and extent COR)
    ref = '<E-D1-1> :=\n    LOCATION: "The host" ##449#457#\n'
    hyp = '<E-D1-1> :=\n    LOCATION: "host" ##453#457#\n'
    assert cats(run(ref, hyp)) == ["COR", "COR"]
    # a hypothesis that starts one character earlier, at the space (452), is not
    # enclosed in the stripped reference extent 453-457
    early = '<E-D1-1> :=\n    LOCATION: "host" ##452#457#\n'
    assert cats(run(ref, early)) == ["COR", "INC"]


def test_a_fill_made_only_of_premodifiers_is_kept_whole():
    # stripping "the" from "the" would leave nothing to compare: the fill stays "the",
    # so a hypothesis "the" is correct and "a" is not
    ref = '<E-D1-1> :=\n    LOCATION: "the"\n'
    assert cats(run(ref, '<E-D1-1> :=\n    LOCATION: "the"\n')) == ["COR"]
    assert cats(run(ref, '<E-D1-1> :=\n    LOCATION: "a"\n')) == ["INC"]


def test_tag_whiteout_ignores_case_and_spans_lines():
    text = "a <Annotation kind='x'>(one\ntwo)</ANNOTATION > b <turn>c"
    out = whiteout_tags(text)
    assert len(out) == len(text)
    assert out.split() == ["a", "b", "c"]
    assert out.count("\n") == 1 and out.index("\n") == text.index("\n")  # newlines kept where they were


def test_tag_whiteout_with_no_non_extractable_elements_keeps_their_content():
    text = "a <ANNOTATION>x</ANNOTATION> b"
    assert whiteout_tags(text, ()).split() == ["a", "x", "b"]
    assert whiteout_tags(text, ("annotation",)).split() == ["a", "b"]


_TAG_PIECES = (
    "a",
    "b ",
    " ",
    "<",
    ">",
    "<s>",
    "</s>",
    "< x >",
    "<ANNOTATION>",
    "</annotation >",
    "<Annotation k=1>",
    "/",
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    lines=st.lists(st.lists(st.sampled_from(_TAG_PIECES), max_size=8).map("".join), min_size=1, max_size=6),
    non_extractable=st.sampled_from([("ANNOTATION",), (), ("s", "x")]),
)
def test_tags_whited_out_by_line_as_line_by_line(lines: list[str], non_extractable: tuple[str, ...]) -> None:
    """The oracle of whiteout_tags_by_line (the strings normalized all at once, a string a line)
    is whiteout_tags of each line alone; when it declines (None), an element may be there."""
    whited = whiteout_tags_by_line("\n".join(lines), non_extractable)
    if whited is None:
        assert non_extractable and any("<" in line for line in lines)
    else:
        assert whited.split("\n") == [whiteout_tags(line, non_extractable) for line in lines]


def test_tags_whited_out_by_line_leave_a_tag_across_lines_and_decline_an_element() -> None:
    assert whiteout_tags_by_line("x <s> y\n<a\nb> <t>") == "x     y\n<a\nb>    "
    assert whiteout_tags_by_line("<ANNOTATION>\n</ANNOTATION>") is None  # (across lines: declined all the same)
    assert whiteout_tags_by_line("<ANNOTATION>\n</ANNOTATION>", ()) == "            \n             "


def test_punctuation_short_cut_for_letters_and_digits():
    assert whiteout_punctuation("Egypt 2 0") == "Egypt 2 0"
    assert whiteout_punctuation("Egypt.") == "Egypt "
    assert whiteout_punctuation("a - b") == "a   b"


def _expected_whiteout(char: str) -> str:
    """`a<char>b` with <char> whited out when it is punctuation by its Unicode category;
    an apostrophe between two letters is word-internal and kept (a hyphen is not: a
    hyphenated word is its parts)."""
    if unicodedata.category(char).startswith("P") and char not in normalize.APOSTROPHES:
        return "a b"
    return f"a{char}b"


def test_the_punctuation_class_is_built_from_unicode_and_read_back_from_the_cache(monkeypatch, tmp_path):
    """With an empty cache directory the class is computed from the Unicode database and
    stored; a later process (the in-memory copy dropped) reads it back: both white out
    exactly the punctuation characters."""
    monkeypatch.setenv("HUB4EVAL_CACHE_DIR", str(tmp_path / "cache"))
    chars = [chr(code) for code in range(0x3100)]
    expected = [_expected_whiteout(c) for c in chars]
    assert expected.count("a b") > 300  # the sample holds many punctuation characters
    normalize._punctuation_pattern.cache_clear()
    try:
        assert [whiteout_punctuation(f"a{c}b") for c in chars] == expected
        assert list((tmp_path / "cache").iterdir())  # the class was stored
        normalize._punctuation_pattern.cache_clear()
        assert [whiteout_punctuation(f"a{c}b") for c in chars] == expected
    finally:
        normalize._punctuation_pattern.cache_clear()


def test_no_non_extractable_element_whites_out_tags_only() -> None:
    # With no element named, `<>` and `</>` are tags (blanked, same length) and the word
    # between them stays: an empty name must not make an element `<>...</>` of its own.
    assert whiteout_tags("a <> x </> b", ()) == "a    x     b"
    assert whiteout_tags("a <> x </> b", ()).split() == ["a", "x", "b"]


@pytest.mark.parametrize(("text", "expected"), [("the ann", ("ann", 4)), ("a then", ("then", 2))])
def test_a_word_that_begins_like_a_premodifier_is_not_one(text: str, expected: tuple[str, int]) -> None:
    # Each premodifier is matched as a whole word of the text: `ann` starts with `an` and
    # `then` with `the`, but neither is a premodifier, so stripping stops before it.
    assert strip_premodifiers(text) == expected
