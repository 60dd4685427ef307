"""A hypothesis instance set's extent (§7.4, sets of an unsegmented hypothesis paired by
overlap) read without preparing its fills is the extent of its prepared fills.

The oracle is the definition: the smallest start and the largest end of the maximal
extents :meth:`~hub4eval.scoring.fills.FillPreparer.prepare` gives the set's text fills
(first extent, start moved past the premodifiers, mapped to alignment columns; a fill
touching no token left out). The sets are random fills over the recognizer output of
the shipped example: extents anywhere in the file, some touching no token (blanks,
tags), some empty, contents with premodifiers, several extents, fills without one.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import as_unsegmented, read_corpus
from hub4eval.model import Extent, FillAlternative, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.set_extents import HypSetExtents, hyp_set_extent, kept_set_extents
from hub4eval.text.columns import CorpusAlignment, align_corpora
from tests.support.reference_fills import EXAMPLES

CONTENTS = ("the winner", "an upset", "a", "the", "and then", "three to one", "", "the the match")


@cache
def _alignment() -> tuple[CorpusAlignment, int]:
    """The example's texts aligned (hypothesis unsegmented), and the hypothesis file's length."""
    ref = read_corpus(EXAMPLES / "asr" / "reference.sgml")
    hyp = as_unsegmented(read_corpus(EXAMPLES / "asr" / "asr_unsegmented.sgml"))
    return align_corpora(ref, hyp, unsegmented=True), sum(len(doc.text) for doc in hyp.documents)


def _preparer(alignment: CorpusAlignment, unsegmented: bool = True) -> FillPreparer:
    return FillPreparer(
        ScoreConfig(), map_extent=alignment.hyp_extent, reference=False, unsegmented=unsegmented, tokens=True
    )


@st.composite
def _fills(draw: st.DrawFn, length: int) -> TextFill:
    extents = []
    for _ in range(draw(st.integers(0, 2))):
        start = draw(st.integers(0, length))
        extents.append(Extent(start, draw(st.integers(start, min(length, start + 40)))))
    content = draw(st.sampled_from(CONTENTS))
    return TextFill(content, ((0, len(content)),), tuple(extents))


@st.composite
def _sets(draw: st.DrawFn, length: int) -> InstanceSet:
    instances = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        slots = []
        for name in ("WINNER", "LOSER")[: draw(st.integers(0, 2))]:
            alternatives = tuple(
                FillAlternative(tuple(draw(st.lists(_fills(length), min_size=1, max_size=2))))
                for _ in range(draw(st.integers(1, 2)))
            )
            slots.append(Slot(name, alternatives))
        if draw(st.booleans()):
            slots.append(Slot("EVENT", (FillAlternative((PointerFill("EVENT", "asr", 1),)),)))
        instances.append(Instance("EVENT", "asr", number, tuple(slots)))
    return InstanceSet("asr", tuple(instances))


def _prepared_extent(iset: InstanceSet, preparer: FillPreparer) -> Extent | None:
    """The definition: every text fill prepared, its maximal extent read."""
    starts, ends = [], []
    for inst in iset.instances:
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if isinstance(fill, TextFill) and fill.extent is not None:
                        extent = preparer.prepare(fill, inst.docid).maximal.extent
                        if extent is not None:
                            starts.append(extent.start)
                            ends.append(extent.end)
    return Extent(min(starts), max(ends)) if starts else None


@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_sets_extent_is_that_of_its_prepared_fills(data: st.DataObject) -> None:
    alignment, length = _alignment()
    iset = data.draw(_sets(length))
    assert hyp_set_extent(iset, _preparer(alignment)) == _prepared_extent(iset, _preparer(alignment))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.data())
def test_sets_extents_read_while_keeping_strings_are_those_read_after(data: st.DataObject) -> None:
    """kept_set_extents (the ceiling's projection: the judge's normalizations kept and the sets'
    extents read in one walk) against FillPreparer.keep_texts of every string, then
    hyp_set_extent of each set: the same extents, and the same strings normalized, kept and
    numbered, in the same order (as the pipeline sets the preparers up: the judge reads the
    hypothesis preparer's strings and numbers, and normalizes some more of its own)."""
    alignment, length = _alignment()
    tset = TemplateSet(tuple(data.draw(st.lists(_sets(length), min_size=1, max_size=3))), role="hypothesis")
    unsegmented = data.draw(st.booleans())
    known = data.draw(st.lists(st.sampled_from(CONTENTS), max_size=3))
    judged = data.draw(st.lists(st.sampled_from(CONTENTS), max_size=5))

    def preparers() -> tuple[FillPreparer, FillPreparer]:
        target, judge = _preparer(alignment, unsegmented), _preparer(alignment, unsegmented)
        target.normalize(known)
        judge.read_texts(target)
        judge.normalize(judged)
        return target, judge

    target, judge = preparers()
    judge.keep_texts(target, (fill.content for _, fill in tset.text_fills()))
    expected = [hyp_set_extent(iset, target) for iset in tset.instance_sets]
    kept_target, kept_judge = preparers()
    assert kept_set_extents(tset, kept_target, kept_judge) == expected
    assert list(kept_target.numbers.items()) == list(target.numbers.items())
    memo = kept_target.lookups()[0]
    for raw in [*CONTENTS, *(fill.content for _, fill in tset.text_fills())]:
        assert memo(raw) == target.lookups()[0](raw)


def test_a_set_whose_first_and_last_fills_touch_no_token_reads_the_others() -> None:
    """The fill that starts first and the one that ends last lie between words (blanks):
    the extent is that of the fills that touch tokens."""
    alignment, _ = _alignment()
    hyp = as_unsegmented(read_corpus(EXAMPLES / "asr" / "asr_unsegmented.sgml"))
    text = "".join(doc.text for doc in hyp.documents)
    blank = text.index("\n")  # a line end: touches no token
    words = [i for i in range(blank + 1, len(text) - 1) if text[i - 1].isspace() and text[i].isalpha()][:3]
    assert len(words) == 3
    fills = [
        TextFill("", ((0, 0),), (Extent(blank, blank + 1),)),
        TextFill("a", ((0, 1),), (Extent(words[0], words[0] + 1),)),
        TextFill("b", ((0, 1),), (Extent(words[1], words[1] + 1),)),
        TextFill("", ((0, 0),), (Extent(len(text) - 1, len(text)),)),
    ]
    assert text[-1].isspace()  # the last fill: the file's last character, a line end
    iset = InstanceSet("asr", (Instance("EVENT", "asr", 1, (Slot("WINNER", (FillAlternative(tuple(fills)),)),)),))
    expected = _prepared_extent(iset, _preparer(alignment))
    assert expected is not None
    assert expected == Extent(
        alignment.hyp_extent(None, fills[1].extents[0]).start, alignment.hyp_extent(None, fills[2].extents[0]).end
    )  # type: ignore[union-attr]
    assert hyp_set_extent(iset, _preparer(alignment)) == expected


@st.composite
def _plain_sets(draw: st.DrawFn, length: int) -> InstanceSet:
    """Sets whose slots mostly hold one text fill each (what a FillTable reads)."""
    instances = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        slots = []
        for name in ("WINNER", "LOSER", "COMMENT")[: draw(st.integers(0, 3))]:
            slots.append(Slot(name, (FillAlternative((draw(_fills(length)),)),)))
        instances.append(Instance("EVENT", "asr", number, tuple(slots)))
    return InstanceSet("asr", tuple(instances))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_extents_of_many_sets_are_those_of_each(data: st.DataObject) -> None:
    """``HypSetExtents.many`` (sets read into a table, their extents from its arrays; sets
    with a fill outside the table, such as an unscored slot's, or whose first span touches
    no token, one by one) gives every set's :func:`hyp_set_extent`."""
    from hub4eval.scoring import fill_tables

    alignment, length = _alignment()
    isets = data.draw(st.lists(st.one_of(_plain_sets(length), _sets(length)), min_size=1, max_size=6))
    preparer = _preparer(alignment)
    expected = [hyp_set_extent(iset, preparer) for iset in isets]
    instances = [inst for iset in isets for inst in iset.instances]
    unscored = data.draw(st.sampled_from([frozenset(), frozenset({"COMMENT"})]))
    fill_tables.register(fill_tables.FillTable(preparer, instances, False, unscored, alignment), preparer)
    assert HypSetExtents(preparer).many(isets) == expected
    assert HypSetExtents(_preparer(alignment)).many(isets) == expected  # no table: one by one


def test_known_extents_read_each_set_s_own_and_all_at_once() -> None:
    """``KnownExtents``: the extent given for each set, read by the set (or by a set of a run of
    the sets), and all at once (the list given, for the sets of the template set)."""
    from hub4eval.scoring.set_extents import KnownExtents

    sets = tuple(InstanceSet(f"D{k}", ()) for k in range(4))
    tset = TemplateSet(sets, role="hypothesis")
    extents = [Extent(0, 3), None, Extent(5, 9), Extent(5, 9)]
    known = KnownExtents(tset, extents)
    assert known.many(tset.instance_sets) == extents  # the list given
    assert known.many(list(tset.instance_sets)) == extents  # the same sets, read one by one
    assert [known(iset) for iset in sets] == extents
    run = TemplateSet(sets[2:], role="hypothesis")
    assert known.many(run.instance_sets) == extents[2:]
