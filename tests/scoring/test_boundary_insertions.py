"""Boundary insertions: an inserted hypothesis word right at the edge of a
reference extent is neither inside nor outside it, so for the enclosure test
the reference maximal extent is widened over the runs of insertion columns
immediately before its first column and after its last (docs/alignment.md).

Each case aligns two real texts with the scorer; the columns of the
expectations are derived by hand in the comments (insertions and deletions
cost 3, a substitution 2 to 4: `ouagadougou`/`wagga` is a substitution, `do`
and `go` are inserted after it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hub4eval.api import score_files
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import parse_corpus
from hub4eval.model import Extent
from hub4eval.scoring.fills import FillPreparer
from hub4eval.text.align import INSERTION
from hub4eval.text.columns import align_corpora

DOCID = "D1"


def _doc(text: str) -> str:
    return f"<DOC>\n<DOCNO> {DOCID} </DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n"


def _fill(doc: str, words: str, slot: str = "A") -> str:
    start = doc.index(words)
    return f'    {slot}: "{words}" ##{start}#{start + len(words)}#'


def _score(tmp_path: Path, ref_text: str, hyp_text: str, ref_words: str, hyp_words: str, segmented: bool = True):
    ref_doc = _doc(ref_text)
    hyp_doc = _doc(hyp_text) if segmented else hyp_text + "\n"
    (tmp_path / "ref.sgml").write_text(ref_doc)
    (tmp_path / "hyp.sgml").write_text(hyp_doc)
    (tmp_path / "ref.tpl").write_text(f"<E-{DOCID}-1> :=\n{_fill(ref_doc, ref_words)}\n")
    hyp_id = DOCID if segmented else "asr1"
    (tmp_path / "hyp.tpl").write_text(f"<E-{hyp_id}-1> :=\n{_fill(hyp_doc, hyp_words)}\n")
    return score_files(
        tmp_path / "ref.tpl",
        tmp_path / "hyp.tpl",
        ref_text=tmp_path / "ref.sgml",
        hyp_text=tmp_path / "hyp.sgml",
        config=ScoreConfig(),
    )


def _extent_point(result):
    [point] = [p for p in result.points if p.kind == "extent"]
    return point


@pytest.mark.parametrize("segmented", [True, False])
def test_split_last_word_is_enclosed(tmp_path: Path, segmented: bool) -> None:
    # REF: we | landed | in | ouagadougou | *** | *** | today
    # HYP: we | landed | in | wagga       | do  | go  | today
    # columns 0..6; the reference extent is 3..3, widened over the insertions 4, 5
    # to 3..5; the hypothesis `wagga do go` is 3..5: enclosed, overlaps 3..3: COR
    result = _score(
        tmp_path,
        "We landed in Ouagadougou today.",
        "we landed in wagga do go today",
        "Ouagadougou",
        "wagga do go",
        segmented,
    )
    point = _extent_point(result)
    assert point.category == "COR", point.reason
    assert "with the inserted words at its edges 3..5" in point.reason


def test_split_word_before_the_extent_is_enclosed(tmp_path: Path) -> None:
    # REF: mayor | *** | whitfield | said      HYP: mayor | with | you | said ?
    # `whitfield` -> `with you`: the aligner puts one word in the substitution and the
    # other as an insertion on one side of it; either side is now enclosed.
    result = _score(tmp_path, "Mayor Whitfield said no.", "mayor with you said no", "Whitfield", "with you")
    point = _extent_point(result)
    assert point.category == "COR", point.reason


def test_words_beyond_the_insertions_are_still_outside(tmp_path: Path) -> None:
    # as above, but the hypothesis extent reaches `today` (column 6, a match outside 3..5)
    result = _score(
        tmp_path,
        "We landed in Ouagadougou today.",
        "we landed in wagga do go today",
        "Ouagadougou",
        "wagga do go today",
    )
    point = _extent_point(result)
    assert point.category == "INC"
    assert "not enclosed in 3..3 (with the inserted words at its edges 3..5)" in point.reason


def test_an_insertion_only_hypothesis_at_the_edge_still_needs_the_minimal_extent(tmp_path: Path) -> None:
    # the hypothesis `do go` (4..5) is enclosed in the widened 3..5, but the
    # minimal-extent test is unchanged: 4..5 does not overlap the minimal 3..3
    result = _score(
        tmp_path, "We landed in Ouagadougou today.", "we landed in wagga do go today", "Ouagadougou", "do go"
    )
    point = _extent_point(result)
    assert point.category == "INC"
    assert "overlaps no minimal extent" in point.reason


def test_insertions_not_at_the_edge_do_not_widen(tmp_path: Path) -> None:
    # REF: the | big | red | *** | dog     HYP: the | big | red | uh | dog  -- reference `big`
    # is 1..1; the insertion at 3 is not next to it: a hypothesis `big red uh` is outside
    result = _score(tmp_path, "The big red dog.", "the big red uh dog", "big", "big red uh")
    assert _extent_point(result).category == "INC"


def test_widening_is_only_for_the_enclosure_test() -> None:
    # the prepared fill keeps its maximal extent; the widening is a separate field
    ref = parse_corpus(_doc("We landed in Ouagadougou today."), "ref.sgml")
    hyp = parse_corpus(_doc("we landed in wagga do go today"), "hyp.sgml")
    alignment = align_corpora(ref, hyp)
    [document] = alignment.documents
    assert [int(k) for k in document.alignment.kinds][4:6] == [INSERTION, INSERTION]
    preparer = FillPreparer(ScoreConfig(), map_extent=alignment.ref_extent, widen=alignment.ref_enclosure)
    from hub4eval.model import TextFill

    text = _doc("We landed in Ouagadougou today.")
    start = text.index("Ouagadougou")
    fill = TextFill("Ouagadougou", ((0, 11),), (Extent(start, start + 11),), (Extent(start, start + 11),))
    prepared = preparer.prepare(fill, DOCID)
    assert prepared.maximal.extent == Extent(3, 3)
    assert prepared.minimals[0].extent == Extent(3, 3)
    assert prepared.enclosure == Extent(3, 5)
    assert alignment.ref_enclosure(DOCID, Extent(0, 1)) == Extent(0, 1)  # no insertion at its edges
