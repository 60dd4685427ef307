"""What a fill looks like when compared (hub4eval/scoring/fills.py): tests that kill
its mutants (issue #21): premodifier stripping moves the extent, reference
fills whose minimal strings have no extent, the preparer's defaults.
"""

from __future__ import annotations

import numpy as np
import pytest

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, TextFill
from hub4eval.scoring.fills import FillPreparer, WordColumns
from tests.support.scoring import cats, run


def test_a_stripped_premodifier_moves_the_extent_start_past_it() -> None:
    """`the hingis` at 100..110 is compared as `hingis` at 104..110 (`the ` is 4 characters)."""
    ref = """
        <E-D-1> :=
            WINNER: "hingis" ##104#110#
    """
    hyp = """
        <E-D-1> :=
            WINNER: "the hingis" ##100#110#
    """
    assert cats(run(ref, hyp)) == ["COR", "COR"]
    # without premodifiers the hypothesis starts before the reference extent
    assert cats(run(ref, hyp, premodifiers=())) == ["INC", "INC"]


def test_the_stripped_extent_of_a_reference_fill_decides_enclosure() -> None:
    """The reference `the hingis` is compared from 104: a hypothesis from 102 starts outside it."""
    ref = """
        <E-D-1> :=
            WINNER: "the [hingis]" ##100#110#
    """
    inside, outside = (
        f"""
        <E-D-1> :=
            WINNER: "hingis" ##{start}#110#
        """
        for start in (104, 102)
    )
    assert cats(run(ref, inside), "extent") == ["COR"]
    assert cats(run(ref, outside), "extent") == ["INC"]


def test_a_bracketed_reference_fill_without_extent_keeps_its_minimal_string() -> None:
    """`[hingis] martina` without extent: `hingis` is correct (it holds the minimal string),
    `martina` is not (it holds none)."""
    ref = """
        <E-D-1> :=
            WINNER: "[hingis] martina"
    """
    hyp = """
        <E-D-1> :=
            WINNER: "{}"
    """
    assert cats(run(ref, hyp.format("hingis"))) == ["COR"]
    assert cats(run(ref, hyp.format("martina"))) == ["INC"]
    assert cats(run(ref, hyp.format("hingis martina"))) == ["COR"]


def test_given_minimal_extents_are_used_even_for_a_whole_bracketed_string() -> None:
    """`[martina hingis]` with its maximal extent and a minimal extent given apart from it:
    the hypothesis must overlap the given minimal extent, not just the maximal one."""
    ref = """
        <E-D-1> :=
            WINNER: "[martina hingis]" ##100#114#108#114#
    """
    hyp = """
        <E-D-1> :=
            WINNER: "martina" ##{}#
    """
    assert cats(run(ref, hyp.format("100#107")), "extent") == ["INC"]  # overlaps no minimal extent
    assert cats(run(ref, hyp.format("100#114")), "extent") == ["COR"]


def test_a_preparer_prepares_reference_fills_with_tokens_by_default() -> None:
    """FillPreparer(config): a reference side (minimal strings from the brackets) with tokens."""
    fill = TextFill("the martina hingis", ((12, 18),), (Extent(0, 18),), (Extent(12, 18),), bracketed=True)
    prepared = FillPreparer(ScoreConfig()).prepare(fill, "D")
    assert prepared.maximal.text == "martina hingis"
    assert prepared.maximal.extent == Extent(4, 18)
    assert [t.text for t in prepared.maximal.tokens] == ["martina", "hingis"]
    assert [(m.text, m.extent) for m in prepared.minimals] == [("hingis", Extent(12, 18))]
    assert [t.text for t in prepared.minimals[0].tokens] == ["hingis"]
    # a hypothesis side: the maximal string is its only string
    hypothesis = FillPreparer(ScoreConfig(), reference=False, tokens=False).prepare(fill, "D")
    assert hypothesis.minimals == (hypothesis.maximal,)
    assert hypothesis.maximal.tokens == ()


def test_a_minimal_string_s_premodifier_moves_its_extent_and_the_mapper_sees_the_document() -> None:
    """`martina [the hingis]` at 100..120: the minimal string `the hingis` (108..120) is compared
    as `hingis` from 112 (`the ` is 4 characters), then mapped; the mapper gets the document
    when offsets count per document and None when they count from the start of the file."""
    fill = TextFill("martina the hingis", ((8, 18),), (Extent(100, 118),), (Extent(108, 118),), bracketed=True)
    seen: list[tuple[str | None, Extent]] = []

    def mapper(docid: str | None, extent: Extent) -> Extent:
        seen.append((docid, extent))
        return Extent(extent.start * 10, extent.end * 10)

    plain = FillPreparer(ScoreConfig()).prepare(fill, "D")
    assert [m.extent for m in plain.minimals] == [Extent(112, 118)]  # shifted past "the "
    assert plain.maximal.extent == Extent(100, 118)  # "martina" is no premodifier: unchanged
    mapped = FillPreparer(ScoreConfig(), map_extent=mapper).prepare(fill, "D")
    assert [m.extent for m in mapped.minimals] == [Extent(1120, 1180)]
    assert seen == [("D", Extent(100, 118)), ("D", Extent(112, 118))]
    seen.clear()
    unsegmented = FillPreparer(ScoreConfig(), map_extent=mapper, unsegmented=True).prepare(fill, "D")
    assert [m.extent for m in unsegmented.minimals] == [Extent(1120, 1180)]
    assert seen == [(None, Extent(100, 118)), (None, Extent(112, 118))]


def test_a_minimal_string_without_premodifier_keeps_its_extent() -> None:
    """`[martina] hingis` at 0..14: the minimal `martina` keeps 0..7 (nothing removed)."""
    fill = TextFill("martina hingis", ((0, 7),), (Extent(0, 14),), (Extent(0, 7),), bracketed=True)
    prepared = FillPreparer(ScoreConfig()).prepare(fill, "D")
    assert [m.extent for m in prepared.minimals] == [Extent(0, 7)]


def test_a_fill_without_extent_whose_premodifier_is_removed_has_no_extent() -> None:
    """`the hingis` with no extent: `hingis`, and still no extent (nothing to shift)."""
    fill = TextFill("the hingis", ((0, 10),))
    for side in (True, False):
        prepared = FillPreparer(ScoreConfig(), reference=side).prepare(fill, "D")
        assert prepared.maximal.extent is None
        assert prepared.maximal.text == "hingis"


def test_a_prepared_fill_cannot_be_changed_once_made() -> None:
    fill = TextFill("the cup", ((0, 7),), (Extent(100, 107),), (Extent(100, 107),))
    prepared = FillPreparer(ScoreConfig(), reference=True).prepare(fill, "D")
    for record, name in ((prepared, "has_extent"), (prepared.maximal, "text")):
        with pytest.raises(AttributeError):
            setattr(record, name, None)
    # equal strings are equal whether or not their noisy reading was made (it is left out)
    maximal = prepared.maximal
    bare = type(maximal)(maximal.text, maximal.tokens, maximal.extent)
    assert maximal.noisy is not None and bare == maximal and hash(bare) == hash(maximal)


def test_strings_normalized_before_give_the_fills_prepared_without_them(monkeypatch) -> None:
    """``normalize`` makes a string's normalization ahead (e.g. while the texts are aligned
    elsewhere): each string once, and the prepared fill is the one made without it."""
    fill = TextFill("the U.S. Open", ((9, 13),), (Extent(3, 16),), (Extent(12, 16),), True, True)  # the U.S. [Open]
    config = ScoreConfig()
    plain = FillPreparer(config).prepare(fill, "D")
    ahead = FillPreparer(config)
    ahead.normalize(["the U.S. Open", "Open", "Open"])
    assert list(ahead._texts) == ["the U.S. Open", "Open"]  # each once (all at once, or one by one)
    made: list[str] = []
    normalize = FillPreparer._normalize
    monkeypatch.setattr(FillPreparer, "_normalize", lambda self, raw: made.append(raw) or normalize(self, raw))
    assert not fill.minimal_is_maximal and ahead.prepare(fill, "D") == plain
    assert made == []  # nothing normalized a second time


@pytest.mark.parametrize("raw", ["the Red Wings", "twenty one", "uh Glen Buni- Bunting's", "Red   wings"])
def test_a_content_string_not_remembered_is_the_remembered_one_and_leaves_no_trace(raw: str) -> None:
    preparer = FillPreparer(ScoreConfig(), reference=False)
    passing = preparer.content_string(raw, remember=False)
    assert preparer._texts == {} and preparer.numbers == {}  # nothing kept, nothing numbered
    kept = preparer.content_string(raw)
    assert raw in preparer._texts and kept.number == 0
    assert (passing.text, passing.tokens, passing.noisy, passing.extent) == (kept.text, kept.tokens, kept.noisy, None)
    assert passing.number == -1
    # a text numbered before keeps its number, also when not remembered
    assert FillPreparer.content_string(preparer, " ".join(raw.split()) + " ", remember=False).number == 0


def test_word_rows_kept_by_a_caller_read_the_columns_they_were_found_in() -> None:
    """A fill table keeps the rows of its strings; if the preparer's columns were then replaced
    (``share_texts`` with a preparer that normalized other strings), the rows still read the
    columns they index, not the new ones."""
    config = ScoreConfig()
    strings = ["red wings", "the beam", "red wings uh"]
    mine = FillPreparer(config, reference=False)
    mine.normalize(strings)
    fillers = mine._key_fillers
    rows = mine.word_rows(strings, fillers)
    assert rows is not False and rows[1].tolist()[:2] == [0, 1]  # (the filler's string: a record)
    before = [mine.word_columns(strings, fillers, which, rows) for which in (0, 2, 3, 4)]
    other = FillPreparer(config, reference=False)
    other.normalize(["x y z", "q", "red wings", "a b c d"])
    mine.share_texts(other)
    after = [mine.word_columns(strings, fillers, which, rows) for which in (0, 2, 3, 4)]
    assert [a.tolist() for a in after[0]] == [b.tolist() for b in before[0]]
    assert [a.tolist() for a in after[1:]] == [b.tolist() for b in before[1:]]


def test_rows_of_strings_added_twice_skip_the_odd_ones_and_count_from_the_rows_before() -> None:
    """WordColumns.add gives each string but the ``odd`` ones its row among all the rows added
    so far (an odd string's row is there, unread: its keys are a record)."""
    columns = WordColumns()

    def add(strings: list[str], odd: list[int]) -> None:  # (row r: one key, r; hypothesis word and phrase r)
        n = len(strings)
        base = 0 if columns.hyp_words is None else len(columns.hyp_words)
        values = np.arange(base, base + n)
        columns.add(strings, odd, np.arange(n + 1), values, values, values)

    add(["a", "b", "c"], [])
    add(["d", "e", "f", "g", "h"], [0, 2, 4])
    add(["i", "j"], [1])
    assert columns.rows == {"a": 0, "b": 1, "c": 2, "e": 4, "g": 6, "i": 8}
    assert columns.entry(6) == ((6,), 6, 6, 6)


def test_known_strings_are_the_memos_lookups_all_at_once() -> None:
    # FillPreparer.known reads the memo as lookups()' get reads it, one string at a time: with its
    # own memo, and with one that reads another preparer's (read_texts, the projection's judge):
    # strings normalized there, here, in both, and in neither (None)
    config = ScoreConfig()
    other, mine = FillPreparer(config), FillPreparer(config)
    other.normalize(["red wings", "the detroit red wings", "two"])
    mine.read_texts(other)
    mine.normalized("blue jays")  # remembered here only
    mine.normalized("two")  # other's
    asked = ["red wings", "blue jays", "two", "never seen", "the detroit red wings", "blue jays"]
    for preparer in (other, mine):
        get = preparer.lookups()[0]
        expected = [get(raw) for raw in asked]
        assert preparer.known(asked) == expected
    assert mine.known(asked)[1] is not None and other.known(asked)[1] is None  # (the memos differ)
    assert mine.known(asked)[3] is None and mine.known(asked)[0] is other.known(asked)[0]


def test_strings_normalized_a_few_at_a_time_are_those_normalized_all_at_once(monkeypatch) -> None:
    """``normalize`` works through its strings a stretch at a time (less memory at once): the same
    records, the texts numbered in the same order, and word keys that tell the same words and
    phrases apart (their numbers are only compared with each other), whatever the stretch."""
    from hub4eval.scoring import fills

    strings = [
        "the Detroit Red Wings",
        "Red Wings",
        "uh Glen Buni- Bunting's",
        "twenty one",
        "the U. S. Open",
        "Red Wings",  # again: normalized once
        "red   wings",
        "(um) the beam",
        "a <b>tagged</b> word",
        "Bunting's",
        "two",
    ]

    def normalized(stretch: int) -> FillPreparer:
        monkeypatch.setattr(fills, "_STRETCH", stretch)
        preparer = FillPreparer(ScoreConfig(), reference=False)
        preparer.normalize(strings)
        return preparer

    whole = normalized(len(strings))
    stretches: list[list[str]] = []  # what each call of normalize_many is given
    normalize_many = FillPreparer._normalize_many
    monkeypatch.setattr(
        FillPreparer,
        "_normalize_many",
        lambda self, batch, fresh: stretches.append(fresh) or normalize_many(self, batch, fresh),
    )
    stretched = normalized(2)
    assert [len(stretch) for stretch in stretches] == [2] * 5  # (10 strings once each, "Red Wings" twice)
    assert [raw for stretch in stretches for raw in stretch] == list(dict.fromkeys(strings))
    assert list(stretched._texts.items()) == list(whole._texts.items())
    assert list(stretched.numbers.items()) == list(whole.numbers.items())

    def keys(preparer: FillPreparer) -> list[tuple[object, ...]]:
        words = {number: word for word, number in preparer.words.items()}
        phrases = {number: phrase for phrase, number in preparer.phrases.items()}
        return [
            (tuple(words[k] for k in found), words[hyp_word], phrases.get(said), phrases[kept])
            for found, hyp_word, said, kept in preparer.word_keys_of(strings, preparer._key_fillers)
        ]

    assert keys(stretched) == keys(whole)
