"""§7: corpora aligned, character extents mapped to columns."""

from __future__ import annotations

from hub4eval.io.corpus import parse_corpus
from hub4eval.model import Extent
from hub4eval.text.columns import align_corpora

# The procedure's example; DOCNO is made non-extractable so that the columns are
# exactly the procedure's (its example has no identifier element).
REF = "<DOC><DOCNO> D </DOCNO> The h- heart of General Motors </DOC>"
HYP = "<DOC><DOCNO> D </DOCNO> A part of General Motors       </DOC>"
HIDE = ("ANNOTATION", "DOCNO")


def _gm(text: str) -> Extent:
    start = text.index("General Motors")
    return Extent(start, start + len("General Motors"))


def test_general_motors_example_gives_4_5_on_both_sides():
    ref = parse_corpus(REF, "r", non_extractable=HIDE)
    hyp = parse_corpus(HYP, "h", non_extractable=HIDE)
    alignment = align_corpora(ref, hyp)
    [doc] = alignment.documents
    assert doc.rows() == [
        ("the", "a", 1),
        ("h-", "", 2),
        ("heart", "part", 1),
        ("of", "of", 0),
        ("general", "general", 0),
        ("motors", "motors", 0),
    ]
    assert alignment.ref_extent("D", _gm(REF)) == Extent(4, 5)
    assert alignment.hyp_extent("D", _gm(HYP)) == Extent(4, 5)
    assert alignment.wer_summary()["wer"] == 3 / 6


def test_extent_touching_no_word_maps_to_none():
    ref = parse_corpus(REF, "r", non_extractable=HIDE)
    alignment = align_corpora(ref, parse_corpus(HYP, "h", non_extractable=HIDE))
    blank = REF.index("Motors") + len("Motors") + 1
    assert alignment.ref_extent("D", Extent(blank, blank + 1)) is None
    # a partial word touches the word
    assert alignment.ref_extent("D", Extent(_gm(REF).start + 2, _gm(REF).start + 3)) == Extent(4, 4)


def test_unsegmented_hypothesis_like_segmented_one():
    ref = parse_corpus(REF + "\n" + REF.replace(" D ", " E ").replace("General", "Ford"), "r", non_extractable=HIDE)
    seg = align_corpora(
        ref, parse_corpus(HYP + "\n" + HYP.replace(" D ", " E ").replace("General", "Ford"), "h", non_extractable=HIDE)
    )
    raw = " A part of General Motors\n A part of Ford Motors\n"
    unseg = align_corpora(ref, parse_corpus(raw, "asr"))
    assert unseg.unsegmented and not seg.unsegmented
    assert seg.ref_extent("D", _gm(REF)) == Extent(4, 5)
    assert unseg.ref_extent("D", _gm(REF)) == Extent(4, 5)
    # second document: same relative columns, shifted by the first document's 6 columns
    e_ref = REF.replace("General", "Ford")
    start = e_ref.index("Ford Motors")
    assert unseg.ref_extent("E", Extent(start, start + 11)) == Extent(10, 11)
    hyp_start = raw.index("Ford Motors")
    assert unseg.hyp_extent(None, Extent(hyp_start, hyp_start + 11)) == Extent(10, 11)
    assert unseg.document_extent("D") == Extent(0, 5)
    assert unseg.document_extent("E") == Extent(6, 11)


def test_documents_on_one_side_are_reported():
    ref = parse_corpus(REF + REF.replace(" D ", " X "), "r.sgml", non_extractable=HIDE)
    hyp = parse_corpus(HYP + HYP.replace(" D ", " Y "), "h.sgml", non_extractable=HIDE)
    alignment = align_corpora(ref, hyp)
    assert [str(w) for w in alignment.warnings] == [
        "r.sgml: warning: document X of the reference text is not in the hypothesis text",
        "h.sgml: warning: document Y of the hypothesis text is not in the reference text",
    ]
    assert alignment.document_extent("X") == Extent(0, 5)  # aligned against nothing: deletions
    assert alignment.wer_summary()["deletions"] == 1 + 6
