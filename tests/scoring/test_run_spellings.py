"""A fill's later candidates ruled out from their letters keep none of them the reference fill's words.

:class:`hub4eval.scoring.run_spellings.RunSpellings` says, for many fills at once,
that no run of a fill's widened hypothesis tokens but its first candidate keeps
the usual reference fill's words (``plain``), reading only the letters the raw
words keep. The oracle is the full normalization of every such run's string
(:meth:`FillPreparer._normalize` without the word-by-word route, the kept words
the judge compares): random hypothesis texts of words that start numbers and
spelling rules (the shipped GLM), letters side by side (joined), fillers (which
letters side by side may spell), premodifiers, fragments (whose tokens end
before their hyphen, as the aligner's do), possessives, punctuation and tags,
cut into tokens at random; ``plain`` most often the kept words of one of the
runs, so that a wrong "ruled out" shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from itertools import accumulate
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.projection import Judge
from hub4eval.scoring.run_spellings import _LAST_BLANK, _UNREAD, RunSpellings, _blank_table
from hub4eval.scoring.word_by_word import WordByWord
from hub4eval.text.glm import apply_glm, default_glm

WORDS = (
    "red", "wings", "Beam", "vg", "y", "f", "b", "g", "h", "m", "a", "i", "o", "e", "u", "s", "k",
    "the", "an", "The", "uh", "um", "hm", "mm", "%hesitation", "q-", "cb-", "-", "--", ",",
    "it's", "jones'", "mr", "dr", "mail", "ok", "twenty", "two", "1994", "nil", "U.S.", "e-mail",
    "(uh)", "</s>", "<s>", "<b>", "caf\u00e9", "yf", "hmm", "redwings",
    "red h m wings", "x u s", "the red",  # (several words drawn at once: letters that spell a filler)
    "u <b> s", "u , s", "s-", "u-", "-s", "(u", "s)", "u's",  # (words around a rule's start: `u s`)
)  # fmt: skip
CONFIGS = {
    "default": ScoreConfig(),
    "case": ScoreConfig(case_sensitive=True),
    "no spoken forms": ScoreConfig(spoken_forms="none"),
    "punctuation kept": ScoreConfig(keep_punctuation=True),
}


def _tools(config: ScoreConfig, glm: bool) -> tuple[RunSpellings, FillPreparer]:
    glm_apply = partial(apply_glm, glm=default_glm()) if glm else None
    by_word = WordByWord.of(config, glm_apply)
    assert by_word is not None
    judge = SimpleNamespace(_blanks={}, mapper=SimpleNamespace(config=config))  # what Judge.blank reads
    spellings = RunSpellings(by_word, partial(Judge.blank, judge))  # type: ignore[arg-type]
    return spellings, FillPreparer(config, glm_apply=glm_apply, reference=False)  # the full normalization


@st.composite
def regions(draw: st.DrawFn) -> tuple[str, list[int], list[int]]:
    """A hypothesis text and its tokens (their starts and ends): runs of its words that are not
    tags (but, sometimes, one word between two tokens), a fragment's token ending before its hyphen."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=9))
    blanks = draw(st.lists(st.sampled_from((" ", " ", "\n", "  ")), min_size=len(words), max_size=len(words)))
    text, spans = "", []
    for word, blank in zip(words, blanks, strict=True):
        if text:
            text += blank
        spans.append((len(text), len(text) + len(word), word))
        text += word
    spans = [span for span in spans if not span[2].startswith("<")]
    if len(spans) > 2 and draw(st.integers(0, 3)) == 0:  # a word left between tokens (as `--` is)
        del spans[draw(st.integers(1, len(spans) - 2))]
    starts: list[int] = []
    ends: list[int] = []
    k = 0
    while k < len(spans):
        size = draw(st.integers(1, 3))
        group = spans[k : k + size]
        k += size
        end = group[-1][1]
        if group[-1][2].endswith("-") and len(group[-1][2]) > 1:
            end -= 1  # (the aligner's token of a fragment ends before its hyphen)
        starts.append(group[0][0])
        ends.append(end)
    return text, starts, ends


def _spans(data: st.DataObject, count: int) -> tuple[int, int, int, int]:
    """A fill's widened tokens of ``count`` and its first candidate's among them (first, last,
    wide_first, wide_last, as first_only's items hold them)."""
    wide_first = data.draw(st.integers(0, count - 1))
    wide_last = data.draw(st.integers(wide_first, count - 1))
    first = data.draw(st.integers(wide_first, wide_last))
    return first, data.draw(st.integers(first, wide_last)), wide_first, wide_last


@pytest.mark.parametrize("glm", [True, False])
@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=150, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_fill_ruled_out_has_no_later_run_that_keeps_its_words(config: str, glm: bool, data: st.DataObject) -> None:
    text, starts, ends = data.draw(regions())
    if not starts:
        return
    spellings, prep = _tools(CONFIGS[config], glm)

    def kept(i: int, j: int) -> tuple[str, ...]:
        noisy = prep._normalize(text[starts[i] : ends[j]], False)[3]
        assert noisy is not None
        return noisy.kept

    count = len(starts)
    wide_first = data.draw(st.integers(0, count - 1))
    wide_last = data.draw(st.integers(wide_first, count - 1))
    first = data.draw(st.integers(wide_first, wide_last))
    last = data.draw(st.integers(first, wide_last))
    runs = [(i, j) for i in range(wide_first, wide_last + 1) for j in range(i, wide_last + 1)]
    if data.draw(st.booleans()):
        plain = kept(*data.draw(st.sampled_from(runs)))  # the words of a run (perhaps the first candidate)
    else:
        plain = tuple(data.draw(st.lists(st.sampled_from(("red", "wings", "vg", "y", "yf", "hm", "b")), max_size=3)))
    if not plain:
        return
    (ruled_out,) = spellings.first_only(text, starts, ends, [(first, last, wide_first, wide_last, plain)])
    if ruled_out:
        for i, j in runs:
            if (i, j) != (first, last):
                assert kept(i, j) != plain, (text[starts[i] : ends[j]], plain)


@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=100, deadline=None, derandomize=True)
@given(data=st.data())
def test_fills_asked_together_are_each_answered_as_alone(config: str, data: st.DataObject) -> None:
    """Several fills asked at once (as the projection asks a batch): each answer is the one the fill
    gets asked alone, so a fill's words are never read against the next fill's."""
    text, starts, ends = data.draw(regions())
    if not starts:
        return
    spellings, prep = _tools(CONFIGS[config], True)
    items = []
    for _ in range(data.draw(st.integers(2, 4))):
        first, last, wide_first, wide_last = _spans(data, len(starts))
        noisy = prep._normalize(text[starts[first] : ends[last]], False)[3]
        assert noisy is not None
        plain = noisy.kept or ("q",)
        items.append((first, last, wide_first, wide_last, plain))
    together = spellings.first_only(text, starts, ends, items)
    assert together == [spellings.first_only(text, starts, ends, [item])[0] for item in items]


def test_a_fills_last_word_is_not_read_against_the_next_fills_first() -> None:
    spellings, _ = _tools(ScoreConfig(), True)
    # `x u` and `s y` are two fills' tokens: the first fill's `u` ends its region (no rule `u s`
    # across fills), asked together as alone
    text, starts, ends = "x u s y", [0, 2, 4, 6], [1, 3, 5, 7]
    items = [(0, 0, 0, 1, ("q",)), (2, 2, 2, 3, ("q",))]
    assert spellings.first_only(text, starts, ends, items) == [True, True]


def test_runs_of_whole_words_are_read_from_their_letters() -> None:
    spellings, _ = _tools(ScoreConfig(), True)
    text = "red wings beam y f"
    starts, ends = [0, 4, 10, 15], [3, 9, 14, 18]  # red, wings, beam, `y f` (one token, its letters joined)
    # the first candidate is all the tokens; of the runs after it, none keeps `red beam` ...
    assert spellings.first_only(text, starts, ends, [(0, 3, 0, 3, ("red", "beam"))]) == [True]
    # ... nor `beam y` (`y f` is one token, read whole: `yf`) ...
    assert spellings.first_only(text, starts, ends, [(0, 3, 0, 3, ("beam", "y"))]) == [True]
    # ... but `red wings` is the run of the first two tokens, and `yf` the last token's
    assert spellings.first_only(text, starts, ends, [(0, 3, 0, 3, ("red", "wings"))]) == [False]
    assert spellings.first_only(text, starts, ends, [(0, 2, 0, 3, ("yf",))]) == [False]
    # a run that keeps the words but is the first candidate itself is no later candidate
    assert spellings.first_only(text, starts, ends, [(0, 1, 0, 3, ("red", "wings"))]) == [True]
    # a fragment's token ends before its hyphen: a run that ends with it keeps it without the
    # hyphen (`cb`), a longer one keeps the raw word (`cb-`)
    assert (_kept("cb"), _kept("cb- mj")) == (("cb",), ("cb-", "mj"))
    assert spellings.first_only("cb- mj", [0, 4], [2, 6], [(0, 1, 0, 1, ("cb",))]) == [False]
    assert spellings.first_only("cb- mj", [0, 4], [2, 6], [(1, 1, 0, 1, ("cb-", "mj"))]) == [False]
    assert spellings.first_only("cb- mj", [0, 4], [2, 6], [(0, 0, 0, 1, ("cb", "mj"))]) == [True]
    # (a leading premodifier may be stripped: `the red` keeps `red`)
    text = "the red"
    assert spellings.first_only(text, [0, 4], [3, 7], [(1, 1, 0, 1, ("red",))]) == [False]


def test_regions_it_does_not_read_are_left_to_the_word_by_word_reading() -> None:
    spellings, _ = _tools(ScoreConfig(), True)
    # `u` may start the rule `u s`: not read before `s`, whatever the words asked for ...
    assert spellings.first_only("u s x", [0, 2, 4], [1, 3, 5], [(0, 2, 0, 2, ("q",))]) == [False]
    # ... but read before a word that does not go on with it, and where it ends the region
    # (no run holds a word after it)
    assert spellings.first_only("u x", [0, 2], [1, 3], [(0, 1, 0, 1, ("q",))]) == [True]
    assert spellings.first_only("x u s", [0, 2, 4], [1, 3, 5], [(0, 1, 0, 1, ("q",))]) == [True]
    # (and inside a token of several words: `u s` one token)
    assert spellings.first_only("x u s", [0, 2], [1, 5], [(0, 0, 0, 1, ("united", "states"))]) == [False]
    assert spellings.first_only("x u b", [0, 2], [1, 5], [(0, 0, 0, 1, ("united", "states"))]) == [True]
    # (the next word is the next raw word, even outside the tokens: `u s x` keeps `united states x`)
    assert _kept("u s x") == ("united", "states", "x")
    assert spellings.first_only("u s x", [0, 4], [1, 5], [(1, 1, 0, 1, ("united", "states", "x"))]) == [False]
    # a fragment's token ends before its hyphen: the run that ends with it reads `u s`
    assert spellings.first_only("u s-", [0, 2], [1, 3], [(0, 0, 0, 1, ("united", "states"))]) == [False]
    # a tag between the words is whited out (`u <b> s` keeps `united states`) ...
    assert _kept("u <b> s") == ("united", "states")
    assert spellings.first_only("x u <b> s", [0, 2], [1, 9], [(0, 0, 0, 1, ("united", "states"))]) == [False]
    # ... and so is punctuation (`u , s` too)
    assert _kept("u , s") == ("united", "states")
    assert spellings.first_only("u , s", [0, 2, 4], [1, 3, 5], [(0, 0, 0, 2, ("united", "states"))]) == [False]
    # a token cut inside a raw word, not before the hyphens that end it
    assert spellings.first_only("cb-x mj", [0, 5], [2, 7], [(0, 1, 0, 1, ("q",))]) == [False]
    # one-letter words side by side that may be joined into a filler (`h m`: `hm`, left out, so
    # that `red h m wings` keeps `red wings`, which its letters do not spell)
    assert _kept("red h m wings") == ("red", "wings")
    assert spellings.first_only("red h m wings", [0, 4, 6, 8], [3, 5, 7, 13], [(0, 0, 0, 3, ("red", "wings"))]) == [
        False
    ]


def _kept(text: str) -> tuple[str, ...]:
    """The kept words of a string, by the full normalization."""
    noisy = _tools(ScoreConfig(), True)[1]._normalize(text, False)[3]
    assert noisy is not None
    return noisy.kept


def _oracle(
    spellings: RunSpellings, text: str, starts: Sequence[int], ends: Sequence[int], items: Sequence[Any]
) -> list[bool]:
    """RunSpellings.first_only before its steps were done over the whole batch at once (a Python
    step per token and per item; its pieces read by the same _read): the oracle of its verdicts,
    every one, not only of the ruled-out ones' soundness (a verdict lost costs a fill read one by one)."""
    chunks: dict[str, Any] = {}

    def read(piece: str, after: Any = False) -> Any:
        found = spellings._read(piece, after)
        return False if found is _UNREAD else found

    size = len(text)
    tokens = [token for item in items for token in range(item[2], item[3] + 1)]
    token_starts = [starts[token] for token in tokens]
    token_ends = [ends[token] for token in tokens]
    heads = set(accumulate((item[3] - item[2] + 1 for item in items[:-1]), initial=0))
    word_ends = token_ends.copy()
    tails: dict[int, Any] = {}
    unread: set[int] = set()
    for k in [k for k, end in enumerate(token_ends) if end < size and not text[end].isspace()]:
        stop = end = token_ends[k]
        while stop < size and text[stop] == "-":
            stop += 1
        whole = chunks.setdefault(text[token_starts[k] : stop], read(text[token_starts[k] : stop]))
        tail = chunks.setdefault(text[token_starts[k] : end], read(text[token_starts[k] : end]))
        if stop == end or (stop < size and not text[stop].isspace()) or whole is False or tail is False:
            unread.add(k)
        elif any(char != "|" for char in whole[2]):
            unread.add(k)
        else:
            word_ends[k] = stop
            tails[k] = tail
    gap_starts = [token_starts[k] if k in heads else word_ends[k - 1] for k in range(len(tokens))]
    pieces = [text[start:end] for start, end in zip(token_starts, word_ends, strict=True)]
    gaps = [text[start:end] for start, end in zip(gap_starts, token_starts, strict=True)]
    for piece in set(pieces).union(gaps).difference(chunks):
        chunks[piece] = read(piece)
    found = [chunks[piece] for piece in pieces]
    if spellings.needy:
        for k in [k for k, own in enumerate(found) if own is False and k not in unread]:
            after = None
            if k + 1 < len(tokens) and k + 1 not in heads:
                following = pieces[k + 1].split()
                if gaps[k + 1].strip() or not following or "<" in following[0] or k + 1 in tails or k + 1 in unread:
                    continue
                after = following[0]
            found[k] = read(pieces[k], after)
    between = [chunks[gap] for gap in gaps]
    good = [
        (not start or text[start - 1].isspace())
        and (end >= size or text[end].isspace())
        and own is not False
        and gap is not False
        for start, end, own, gap in zip(token_starts, word_ends, found, between, strict=True)
    ]
    for k in unread:
        good[k] = False
    letters = [part[0] if part else "" for pair in zip(between, found, strict=True) for part in pair]
    runs = [part[2] if part else "" for pair in zip(between, found, strict=True) for part in pair]
    out: list[bool] = []
    at = 0
    for first, last, wide_first, wide_last, plain in items:
        a = at
        b = at = at + wide_last - wide_first + 1
        if False in good[a:b]:
            out.append(False)
            continue
        joined_runs = "".join(runs[2 * a : 2 * b])
        ending = [tails.get(k) for k in range(a, b)] if any(k in tails for k in range(a, b)) else None
        if ending is not None:
            joined_runs += "/" + "".join(
                part
                for k, tail in zip(range(a, b), ending, strict=True)
                for part in (runs[2 * k], runs[2 * k + 1] if tail is None else tail[2])
            )
        if spellings.fillers is not None and spellings.fillers.search(joined_runs):
            out.append(False)
            continue
        spelled = "".join(plain)
        joined = "".join(letters[2 * a : 2 * b])
        if ending is None and spelled not in joined:
            out.append(True)
            continue
        offsets = list(accumulate(map(len, letters[2 * a : 2 * b])))
        leads = [own[1] for own in found[a:b]]
        if ending is not None:
            leads = [
                lead if tail is None or tail[1] == lead else None for lead, tail in zip(leads, ending, strict=True)
            ]
        out.append(_oracle_none_keeps(joined, offsets, leads, spelled, first - wide_first, last - wide_first, ending))
    return out


def _oracle_none_keeps(
    letters: str, offsets: list[int], leads: list[Any], spelled: str, first: int, last: int, ending: list[Any] | None
) -> bool:
    want = len(spelled)
    for j in range(len(leads)):
        tail = None if ending is None else ending[j]
        if tail is None:
            stop = offsets[2 * j + 1]
            begin = stop - want
            if begin < 0 or letters[begin:stop] != spelled:
                continue
        else:
            head = letters[: offsets[2 * j]] + tail[0]
            begin = len(head) - want
            if begin < 0 or head[begin:] != spelled:
                continue
        for i in range(j + 1):
            if (i, j) == (first, last):
                continue
            start = offsets[2 * i]
            lead = leads[i]
            if (start <= begin) if lead is None else (begin - start in lead):
                return False
    return True


@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=150, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_batch_is_read_as_the_token_by_token_reading_reads_it(config: str, data: st.DataObject) -> None:
    """Every verdict of a batch (its steps over all its tokens at once, in numpy and maps) is the
    one the per-token reading (the oracle) gives, ruled out or not: several items, some of the
    text's first token (no blank before it), some holding plain's letters once or more."""
    text, starts, ends = data.draw(regions())
    if not starts:
        return
    spellings, prep = _tools(CONFIGS[config], data.draw(st.booleans()))
    items = []
    for _ in range(data.draw(st.integers(1, 5))):
        first, last, wide_first, wide_last = _spans(data, len(starts))
        i = data.draw(st.integers(wide_first, wide_last))
        noisy = prep._normalize(text[starts[i] : ends[data.draw(st.integers(i, wide_last))]], False)[3]
        assert noisy is not None
        plain = noisy.kept or tuple(
            data.draw(st.lists(st.sampled_from(("red", "y", "yf", "hm")), min_size=1, max_size=2))
        )
        items.append((first, last, wide_first, wide_last, plain))
    assert spellings.first_only(text, starts, ends, items) == _oracle(
        _tools(CONFIGS[config], spellings.needy)[0], text, starts, ends, items
    )


def test_a_batch_reads_each_item_apart_from_its_neighbours() -> None:
    spellings, _ = _tools(ScoreConfig(), True)
    # `q-x` (cut inside its raw word: not read) is the batch's first token; the next item's
    # tokens are read all the same
    text, starts, ends = "q-x red wings", [0, 4, 8], [1, 7, 13]
    items = [(0, 0, 0, 0, ("q",)), (1, 1, 1, 2, ("beam",))]
    assert spellings.first_only(text, starts, ends, items) == [False, True]
    # `h` ends one item and `m` starts the next: no filler `hm` read across them ...
    text, starts, ends = "red h m wings", [0, 4, 6, 8], [3, 5, 7, 13]
    items = [(0, 0, 0, 1, ("red",)), (3, 3, 2, 3, ("wings",))]
    assert spellings.first_only(text, starts, ends, items) == [True, True]
    # ... but one inside an item is
    assert spellings.first_only(text, starts, ends, [(0, 0, 0, 3, ("red",))]) == [False]
    # plain's letters held twice (`red red`): the run of the second `red` keeps them too
    text, starts, ends = "red red", [0, 4], [3, 7]
    assert spellings.first_only(text, starts, ends, [(0, 0, 0, 1, ("red",))]) == [False]
    assert spellings.first_only(text, starts, ends, [(0, 1, 0, 1, ("red", "red"))]) == [True]
    # held twice, the two overlapping (`red red` in `red red red`): the run of the last two keeps them
    text, starts, ends = "red red red", [0, 4, 8], [3, 7, 11]
    assert spellings.first_only(text, starts, ends, [(0, 1, 0, 2, ("red", "red"))]) == [False]
    # a later item whose first token is a fragment cut before its hyphen (`red-`) is read as alone
    text, starts, ends = "beam red- wings", [0, 5, 10], [4, 8, 15]
    items = [(0, 0, 0, 0, ("beam",)), (2, 2, 1, 2, ("red",))]
    alone = [spellings.first_only(text, starts, ends, [item])[0] for item in items]
    assert alone == [True, False]
    assert spellings.first_only(text, starts, ends, items) == alone


def test_blanks_are_those_of_str_isspace() -> None:
    table = _blank_table()
    assert [code for code in range(len(table)) if table[code]] == [
        code for code in range(0x110000) if chr(code).isspace()
    ]  # (none after the last)
    assert not table[_LAST_BLANK + 1]
    spellings, _ = _tools(ScoreConfig(), True)
    # a text that is not ASCII: its blanks read from its code points (U+3000 a blank, U+00E9 none)
    text = "caf\u00e9\u3000red\u2003wings"
    starts, ends = [0, 5, 9], [4, 8, 14]
    assert spellings.first_only(text, starts, ends, [(1, 2, 1, 2, ("red", "wings"))]) == [True]
    assert spellings.first_only(text, starts, [3, 8, 14], [(1, 2, 0, 2, ("red", "wings"))]) == [False]
    # a lone surrogate beside a token (a text made by hand; no file decodes to one): no blank
    assert spellings.first_only("red\ud800 wings", [0, 5], [3, 10], [(0, 0, 0, 1, ("red",))]) == [False]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(data=st.data())
def test_spaces_asked_together_are_each_answered_as_alone(data: st.DataObject) -> None:
    """Several column spaces asked as one batch (their texts joined): each space's verdicts are
    those it gets asked alone, its first and last words read at its text's edges (none asked:
    none answered)."""
    spellings, prep = _tools(ScoreConfig(), True)
    asked = []
    for _ in range(data.draw(st.integers(0, 3))):
        text, starts, ends = data.draw(regions())
        items = []
        for _ in range(data.draw(st.integers(0, 3)) if starts else 0):
            first, last, wide_first, wide_last = _spans(data, len(starts))
            noisy = prep._normalize(text[starts[first] : ends[last]], False)[3]
            assert noisy is not None
            items.append((first, last, wide_first, wide_last, noisy.kept or ("q",)))
        asked.append((text, starts, ends, items))
    assert spellings.first_only_spaces(asked) == [
        _tools(ScoreConfig(), True)[0].first_only(text, starts, ends, items) for text, starts, ends, items in asked
    ]
