"""Content strings normalized word by word (one at a time or all at once) normalize as the full normalization does.

:class:`hub4eval.scoring.word_by_word.WordByWord` puts a string's tokens and
noisy words together from its words, each worked out once, when no rule
reads across them. The oracle is :meth:`FillPreparer._normalize` without it:
random strings of words that start numbers, spelling rules (the shipped GLM)
and runs of letters, premodifiers, fillers, fragments, parentheses, tags,
possessives and punctuation, under the options that change a normalization,
must come out the same (text, premodifier count, tokens with their spans and
flags, noisy words; and the kept words the projection's judge reads without
the tokens), and the word-by-word path must be the one taken for plain words.
"""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.word_by_word import WordByWord, number_new, numbers_of, run_tuples
from hub4eval.text.glm import apply_glm, default_glm, parse_glm, stack_glms

WORDS = (
    # plain words, and letters (joined when side by side; `a` and `i` are words too)
    "red", "Wings", "beam", "xfbl", "zq", "a", "i", "I", "b", "x", "z", "A",
    # premodifiers, fillers, fragments, possessives and contractions
    "the", "The", "an", "and", "uh", "Uh,", "um", "%hesitation", "hmm", "s-", "a-", "buni-",
    "clinton's", "Jones'", "it's", "'s", "o'neil",
    # numbers and spelling rules of the shipped GLM
    "twenty", "one", "1994", "$12,500", "5th", "second", "percent", "point", "nil", "nothing",
    "u", "s", "k", "mail", "gonna", "cannot", "okay", "mr.", "dr", "jr", "vs", "co", "o", "e",
    # punctuation, abbreviations, parentheses and tags
    "--", "-", ",", "...", "U.S.", "n.c.a.a.", "p.m.", "rock-and-roll", "e-mail", "'quoted'", '"q"',
    "(uh)", "(uh", "huh)", "x)", "<b>", "</b>", "x<y", "caf\u00e9", "NBC's",
)  # fmt: skip
PLAIN_WORDS = ("red", "wings", "beam", "the", "an", "a", "i", "b", "x", "z", "uh", "um", "u", "s", "o", "k", "e",
               "twenty", "1994", "4", "mail", "</s>", "<s>", "WINGS", "The", "UH")  # fmt: skip
BLANKS = (" ", " ", " ", "  ", "\t", "\u00a0")

GLMS = {
    "none": None,
    "default": default_glm(),
    # a second GLM stacked on the shipped one: words only the second one rewrites, on their
    # own (`beam`, `zq`), also with the next word (`wings`), or only after `red` (`xfbl`)
    "stacked": stack_glms(
        [
            default_glm(),
            parse_glm("beam => team\nzq => { zq / @ }\nwings => wing\nwings beam => wingbeam\nxfbl => fbl / red __"),
        ]
    ),
}
CONFIGS = {
    "default": ScoreConfig(),
    "case": ScoreConfig(case_sensitive=True),
    "punctuation": ScoreConfig(keep_punctuation=True),
    "no spoken forms": ScoreConfig(spoken_forms="none"),
    "no premodifiers": dataclasses.replace(ScoreConfig(), premodifiers=()),
}


@st.composite
def content_strings(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=7))
    blanks = draw(st.lists(st.sampled_from(BLANKS), min_size=len(words) + 1, max_size=len(words) + 1))
    return "".join(blank + word for blank, word in zip(blanks, [*words, ""], strict=True))


def _preparers(config: str, glm: str) -> tuple[FillPreparer, FillPreparer]:
    glm_apply = None if GLMS[glm] is None else partial(apply_glm, glm=GLMS[glm])
    full = FillPreparer(CONFIGS[config], glm_apply=glm_apply, reference=False)
    by_words = FillPreparer(CONFIGS[config], glm_apply=glm_apply, reference=False)
    by_words.by_words()
    assert by_words.by_word is not None
    return full, by_words


@pytest.mark.parametrize("glm", sorted(GLMS))
@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=300, deadline=None, derandomize=True)
@given(strings=st.lists(content_strings(), min_size=1, max_size=8))
def test_word_by_word_normalizes_as_the_full_normalization(config: str, glm: str, strings: list[str]) -> None:
    full, by_words = _preparers(config, glm)
    assert by_words.by_word is not None
    for raw in strings:  # several strings: the words worked out for one are read for the next
        kept = by_words.by_word.kept(raw)
        assert by_words._normalize(raw, False) == full._normalize(raw, False), raw
        assert by_words._normalize(raw) == full._normalize(raw), raw  # remembered and numbered alike
        noisy = full._normalize(raw, False)[3]
        assert kept is None or kept == noisy.kept, raw  # what the judge reads of a candidate


@pytest.mark.parametrize(
    ("raw", "by_word"),
    [
        ("red wings beam", True),
        ("Red  Wings,\tbeam", True),
        ("x b xfbl", True),  # letters apart
        ("x b z xfbl", True),  # letters side by side: joined (`xbz`), the words read once each
        ("red a b xfbl", True),  # `a` a word of its own, `b` alone: nothing joined
        ("red uh wings", True),  # a rule of one word without a context (`uh` optional), in its word
        ("red (uh) wings", True),  # a parenthesis closed in its word
        ("u s", False),  # a spelling rule starts at `u` (`u s` is `united states`)
        ("twenty one", False),  # a number
        ("the red wings", True),  # a premodifier, stripped: the tokens are the rest's
        ("u x", True),  # `u` starts only longer rules (`u s`), which `x` does not go on with
        ("u xfbl s", True),
        ("red o\tk", False),  # `o k` is `okay`: a rule across the two words
        ("red (uh wings)", False),  # a parenthesis left open: the next word is inside it
        ("red <b>wings</b>", False),  # a tag
    ],
)
def test_plain_words_take_the_word_by_word_path(raw: str, by_word: bool) -> None:
    full, by_words = _preparers("default", "default")
    assert by_words.by_word is not None
    assert (by_words.by_word.normalize(raw) is not None) == by_word
    assert (by_words.by_word.kept(raw) is not None) == by_word
    assert by_words._normalize(raw) == full._normalize(raw)


def test_a_glm_it_cannot_read_leaves_every_string_to_the_full_normalization() -> None:
    glm = default_glm()
    preparer = FillPreparer(ScoreConfig(), glm_apply=lambda tokens: apply_glm(tokens, glm), reference=False)
    preparer.by_words()
    assert preparer.by_word is None


@pytest.mark.parametrize("glm", sorted(GLMS))
@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), blanks=st.lists(st.sampled_from(BLANKS), min_size=6)
)
def test_runs_of_words_keep_what_their_strings_keep(config: str, glm: str, words: list[str], blanks: list[str]) -> None:
    """What the projection's judge reads of a run of whole words without its string: kept_words,
    and kept_of within the reach runs() gives, are the kept words of the full normalization
    of the run's string (whatever the blanks between its words) where they are not None; a
    word is foreign only when that string keeps a word the allowed ones lack; and the words
    worked out without the tokenizer (plain ASCII words) are those worked out with it."""
    full, by_words = _preparers(config, glm)
    by_word = by_words.by_word
    assert by_word is not None
    allowed = frozenset(("red", "wings", "beam", "a", "b", "x", "z"))
    found, reach, foreign = by_word.runs(words, allowed)
    for a in range(len(words)):
        for b in range(a, len(words)):
            raw = "".join(blank + word for blank, word in zip(blanks, words[a : b + 1], strict=False))
            kept = full._normalize(raw, False)[3].kept
            from_words = by_word.kept_words(words[a : b + 1])
            assert from_words is None or from_words == kept, raw
            if b <= reach[a]:
                assert from_words == by_word.kept_of(found[a : b + 1]), raw
                if any(foreign[a : b + 1]):
                    assert not set(kept) <= allowed, raw
    slow = FillPreparer(CONFIGS[config], glm_apply=by_words.glm_apply, reference=False)
    slow.by_words()
    assert slow.by_word is not None
    slow.by_word._plain_word = lambda raw: None  # type: ignore[method-assign]
    for word in words:
        assert by_word._word(word) == slow.by_word._word(word), word


def _word_keys_as_words(preparer: FillPreparer, entry: tuple[tuple[int, ...], int, int, int]) -> tuple[object, ...]:
    """A word-key entry with its numbers read back as the words and phrases they number."""
    words = {number: word for word, number in preparer.words.items()}
    phrases = {number: phrase for phrase, number in preparer.phrases.items()}
    keys, hyp_word, said, kept = entry
    return tuple(words[k] for k in keys), words[hyp_word], None if said < 0 else phrases[said], phrases[kept]


def _column_entries(
    preparer: FillPreparer, strings: list[str], fillers: frozenset[str]
) -> list[tuple[tuple[int, ...], int, int, int]]:
    """The word keys of ``strings`` as the fill tables read them (:meth:`FillPreparer.word_columns`,
    arrays), put back into :meth:`FillPreparer.word_keys_of`'s records."""
    offsets, keys = preparer.word_columns(strings, fillers, 0)
    flat = keys.tolist()
    return list(
        zip(
            [tuple(flat[a:b]) for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True)],
            *(preparer.word_columns(strings, fillers, which).tolist() for which in (2, 3, 4)),
            strict=True,
        )
    )


@pytest.mark.parametrize("glm", sorted(GLMS))
@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    strings=st.lists(
        st.one_of(
            content_strings(),
            st.lists(st.sampled_from(PLAIN_WORDS), min_size=0, max_size=6).map(" ".join),  # most fills: plain words
        ),
        min_size=1,
        max_size=12,
    )
)
def test_strings_normalized_all_at_once_as_one_by_one(config: str, glm: str, strings: list[str]) -> None:
    """The oracle of :meth:`FillPreparer.normalize` (``WordByWord.normalize_many``, strings with tags,
    premodifiers, runs of letters, fillers, numbers and spelling rules among them) is the full
    normalization one string at a time: the same memo (text, premodifier count, tokens with their
    spans and flags, noisy words, number of the text, in the same order), and the same word keys
    (:meth:`FillPreparer.word_keys_of`, worked out with them) as ``_word_entry`` makes one by one,
    word for word and phrase for phrase."""
    _normalized_all_at_once_as_one_by_one(config, glm, strings)


_MIXED = st.lists(
    st.one_of(content_strings(), st.lists(st.sampled_from(PLAIN_WORDS), min_size=0, max_size=6).map(" ".join)),
    min_size=1,
    max_size=10,
)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(first=_MIXED, second=_MIXED, other_words=st.booleans())
def test_strings_normalized_in_two_calls_keep_the_word_keys_of_one_by_one(
    first: list[str], second: list[str], other_words: bool
) -> None:
    """A preparer that normalizes strings twice reads the numbers of the words it numbered the
    first time (``WordByWord`` remembers them with its token templates), unless its words are
    another preparer's by then (:meth:`FillPreparer.share_texts`): the second call's word keys
    read back as the words one by one gives them."""
    glm_apply = partial(apply_glm, glm=GLMS["default"])
    one = FillPreparer(CONFIGS["default"], glm_apply=glm_apply, reference=False)
    many = FillPreparer(CONFIGS["default"], glm_apply=glm_apply, reference=False)
    many.normalize(first)
    if other_words:  # numbered afresh in the other preparer's words
        many.share_texts(FillPreparer(CONFIGS["default"], glm_apply=glm_apply, reference=False))
    many.normalize(second)
    fillers = one._key_fillers
    expected = [_word_keys_as_words(one, one._word_entry(raw, fillers)) for raw in second]
    assert [_word_keys_as_words(many, entry) for entry in many.word_keys_of(second, fillers)] == expected
    assert [_word_keys_as_words(many, entry) for entry in _column_entries(many, second, fillers)] == expected


@pytest.mark.parametrize(
    "strings",
    [
        ["red\nwings", "red wings", "b\nx z"],  # a line break among the blanks (the strings are not one a line)
        [" ".join(["red", "b", "x", "wings", "uh"] * 5), "red", "wings " * 20],  # more words than are zipped
        [" ".join(f"w{k}" for k in range(40)), "the " + " ".join(f"w{k}" for k in range(17)), ""],
        ["u s", "red", "twenty one", "x b", "(uh)", "wings"],  # left out, made, left out, made...
    ],
)
def test_long_strings_and_line_breaks_normalized_all_at_once_as_one_by_one(strings: list[str]) -> None:
    _normalized_all_at_once_as_one_by_one("default", "default", strings)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(sizes=st.lists(st.integers(0, 40), max_size=30))
def test_runs_are_tuples_of_their_slices(sizes: list[int]) -> None:
    """run_tuples, which zips the runs of each size from their columns (the longest sliced), makes
    each run's tuple of the flat values, in order."""
    flat = [f"v{k}" for k in range(sum(sizes))]
    starts = np.cumsum([0, *sizes])[:-1]
    found = run_tuples(np, np.asarray(flat, dtype=object), starts, np.asarray(sizes, dtype=np.int64))
    assert found == [tuple(flat[a : a + size]) for a, size in zip(starts.tolist(), sizes, strict=True)]


def _normalized_all_at_once_as_one_by_one(config: str, glm: str, strings: list[str]) -> None:
    glm_apply = None if GLMS[glm] is None else partial(apply_glm, glm=GLMS[glm])
    one = FillPreparer(CONFIGS[config], glm_apply=glm_apply, reference=False)
    many = FillPreparer(CONFIGS[config], glm_apply=glm_apply, reference=False)
    for raw in strings:
        if one._texts.get(raw) is None:
            one._normalize(raw)
    many.normalize(strings)
    if many._word_by_word() is not None:  # each string's word keys made with it, not on demand below
        assert set(strings) <= many._word_keys.keys() | many._word_columns.rows.keys()
    assert list(many._texts) == list(one._texts)
    for raw, made in one._texts.items():
        found = many._texts[raw]
        assert found == made, raw
        assert (found[3].words, found[3].optional, found[3].kept) == (made[3].words, made[3].optional, made[3].kept), (
            raw
        )
        assert found[3].fillers is made[3].fillers
    assert list(many.numbers.items()) == list(one.numbers.items())
    fillers = one._key_fillers
    expected = [_word_keys_as_words(one, one._word_entry(raw, fillers)) for raw in strings]
    assert [_word_keys_as_words(many, entry) for entry in many.word_keys_of(strings, fillers)] == expected
    assert [_word_keys_as_words(many, entry) for entry in _column_entries(many, strings, fillers)] == expected


def test_words_not_classed_yet_are_classed_as_one_by_one() -> None:
    """normalize_many reads each new word's class (whether a number may start at it) from the
    spoken forms' table in one look-up, and classes first, in order, the words the table does not
    hold yet: strings of words that no test of this process has seen (number words among them,
    written in a case of their own: the table is read case by case) are left out or made as one
    by one, though normalized all at once first."""
    from itertools import product

    from hub4eval.text.spoken import _words

    classes = _words("en").classes

    def unseen(word: str) -> str:
        for cases in product((str.lower, str.upper), repeat=len(word)):
            written = "".join(case(char) for case, char in zip(cases, word, strict=True))
            if written not in classes:
                return written
        raise AssertionError(word)  # (every case of it seen: the test would read no new word)

    seventy, hundred, plain = unseen("seventy"), unseen("hundred"), unseen("qvzx")
    strings = [f"{seventy} {plain}", f"{plain} x y", f"the {hundred}", f"{plain} {seventy} one", "red wings"]
    many = FillPreparer(CONFIGS["case"], reference=False)
    many.normalize(strings)  # (before anything else reads them)
    assert {seventy, hundred, plain} <= classes.keys()
    one = FillPreparer(CONFIGS["case"], reference=False)
    for raw in strings:
        one._normalize(raw)
    assert list(many._texts) == list(one._texts)
    assert all(many._texts[raw] == made for raw, made in one._texts.items())
    fillers = one._key_fillers
    expected = [_word_keys_as_words(one, one._word_entry(raw, fillers)) for raw in strings]
    assert [_word_keys_as_words(many, entry) for entry in many.word_keys_of(strings, fillers)] == expected


@pytest.mark.parametrize(
    ("raw", "at_once"),
    [
        ("red wings beam", True),
        ("the red  wings", True),  # a premodifier stripped, blanks folded
        ("b x z red", True),  # letters joined
        ("red </s> <s> b x", True),  # tags whited out first
        ("red uh wings", True),  # a one-word spelling rule (optional)
        ("u x", True),  # `u` starts only longer rules, which `x` does not go on with
        ("u s", False),  # `u s` is `united states`: a rule across words
        ("twenty one", False),  # a number
        ("red, wings", False),  # punctuation
        ("caf\u00e9", False),  # not ASCII
    ],
)
def test_plain_strings_are_normalized_all_at_once(raw: str, at_once: bool) -> None:
    full, _ = _preparers("default", "default")
    by_word = WordByWord.of(full.config, full.glm_apply)
    assert by_word is not None
    left, made = by_word.normalize_many([raw])
    assert (left == []) == at_once
    if at_once:
        assert (made[0][0], made[1][0], made[2][0], made[3][0]) == full._normalize(raw, False)[:4]


@pytest.mark.parametrize("glm", sorted(GLMS))
@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    words=st.lists(st.sampled_from(PLAIN_WORDS + WORDS), min_size=1, max_size=6),
    blanks=st.lists(st.sampled_from((" ", " ", "  ", "\t")), min_size=6),
    plain=st.lists(
        st.sampled_from(("red", "wings", "beam", "b", "x", "z", "ab", "bx", "mister", "twenty")), min_size=1
    ),
)
def test_a_word_missing_from_literal_words_is_kept_by_no_run_of_them(
    config: str, glm: str, words: list[str], blanks: list[str], plain: list[str]
) -> None:
    """The projection keeps a fill's first candidate without reading its later ones when a word of
    the reference fill is neither a raw word of the region nor made of its one-letter words, and
    every raw word there is literal: then the full normalization of no run of those words keeps
    the reference fill's words (``mr`` spelled ``mister``, ``twenty`` read as a number, a
    possessive stripped would; they are not literal)."""
    from hub4eval.scoring.projection import _missing_word

    full, by_words = _preparers(config, glm)
    by_word = by_words.by_word
    assert by_word is not None
    region = "".join(blank + word for blank, word in zip(blanks, words, strict=False)).strip()
    if not (_missing_word(plain, region) and all(map(by_word.literal, region.split()))):
        return
    raws = region.split()
    for a in range(len(raws)):
        for b in range(a, len(raws)):
            raw = "".join(blank + word for blank, word in zip(blanks, raws[a : b + 1], strict=False))
            assert full._normalize(raw, False)[3].kept != tuple(plain), raw


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    known=st.lists(st.tuples(st.sampled_from("abcde")), max_size=4, unique=True),
    keys=st.lists(st.lists(st.sampled_from("abcdef"), max_size=3).map(tuple), max_size=12),
)
def test_keys_numbered_one_look_up_each_as_numbered_in_bulk(known: list[tuple[str, ...]], keys: list) -> None:
    """numbers_of (one ``setdefault`` a key) against the bulk way it replaced: the new keys
    numbered first in order of first sight (``number_new``), then every key's number read;
    the same numbers, the same dictionary in the same order, whatever it held before."""
    mine = {key: number for number, key in enumerate(known)}
    theirs = dict(mine)
    found = numbers_of(mine, keys)
    number_new(theirs, keys)
    assert found == [theirs[key] for key in keys]
    assert list(mine.items()) == list(theirs.items())
