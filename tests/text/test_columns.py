"""§7: corpora aligned; character extents become alignment columns.

The procedure's GENERAL MOTORS example with its own character offsets, the
touch rule against a brute-force scan, the two modes (segmented by DOCID,
unsegmented against the whole reference) agreeing on a hypothesis segmented
like the reference, documents present on one side only, the GLM, and the WER
counts.
"""

from __future__ import annotations

import bisect
import itertools
import json
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.api import score as score_sets
from hub4eval.api import texts_differ
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError
from hub4eval.io.corpus import parse_corpus, read_corpus
from hub4eval.io.templettes import parse_templates, read_templates
from hub4eval.model import Extent, TextFill
from hub4eval.text import column_extents
from hub4eval.text.column_extents import TokenRuns, _bisect_within, _run_extents, enclosures_of, extents_of
from hub4eval.text.columns import align_corpora
from hub4eval.text.glm import default_glm
from hub4eval.text.tokenized import document_tokens
from tests.support import EXAMPLES
from tests.support.scoring import cats

# The procedure's texts. Its documents have no identifier element; ours put
# <DOCNO> at the end (and make it non-extractable) so that every character
# before it keeps the procedure's offset.
PROC_REF = "<DOC> The h- heart of General Motors <DOCNO>D</DOCNO></DOC>"
PROC_HYP = "<DOC> A part of General Motors       <DOCNO>D</DOCNO></DOC>"
HIDE_DOCNO = ("ANNOTATION", "DOCNO")


def _extent(text: str, words: str, nth: int = 0) -> Extent:
    start = -1
    for _ in range(nth + 1):
        start = text.index(words, start + 1)
    return Extent(start, start + len(words))


def test_procedure_offsets_are_the_procedures():
    assert PROC_REF[22:36] == "General Motors"
    assert PROC_HYP[16:30] == "General Motors"


def test_general_motors_segmented():
    ref = parse_corpus(PROC_REF, "ref", non_extractable=HIDE_DOCNO)
    hyp = parse_corpus(PROC_HYP, "hyp", non_extractable=HIDE_DOCNO)
    alignment = align_corpora(ref, hyp)
    assert not alignment.unsegmented
    assert alignment.ref_extent("D", Extent(22, 36)) == Extent(4, 5)
    assert alignment.hyp_extent("D", Extent(16, 30)) == Extent(4, 5)
    [document] = alignment.documents
    assert document.rows() == [
        ("the", "a", 1),
        ("h-", "", 2),
        ("heart", "part", 1),
        ("of", "of", 0),
        ("general", "general", 0),
        ("motors", "motors", 0),
    ]
    # the tie rule of §7.2: h- is deleted, heart/part substituted
    assert alignment.ref_extent("D", _extent(PROC_REF, "h- heart")) == Extent(1, 2)
    assert alignment.hyp_extent("D", _extent(PROC_HYP, "part")) == Extent(2, 2)


def test_general_motors_unsegmented_hypothesis():
    """The procedure's HYP line read as raw ASR output: <DOC> is just a tag there."""
    hyp_text = "<DOC> A part of General Motors       </DOC>"
    ref = parse_corpus(PROC_REF, "ref", non_extractable=HIDE_DOCNO)
    hyp = parse_corpus(hyp_text, "hyp", doc_tag="STORY")  # no STORY tags: unsegmented
    assert not hyp.segmented and hyp_text[16:30] == "General Motors"
    alignment = align_corpora(ref, hyp)
    assert alignment.unsegmented
    assert alignment.ref_extent("D", Extent(22, 36)) == Extent(4, 5)
    assert alignment.hyp_extent(None, Extent(16, 30)) == Extent(4, 5)
    assert alignment.document_extent("D") == Extent(0, 5)


def test_docno_words_are_text_by_default():
    """DOCNO content is extractable (§1): it takes the first column on both sides."""
    ref = parse_corpus(PROC_REF, "ref")
    hyp = parse_corpus(PROC_HYP, "hyp")
    alignment = align_corpora(ref, hyp)
    assert alignment.ref_extent("D", Extent(22, 36)) == Extent(4, 5)  # D comes last here
    assert alignment.ref_extent("D", _extent(PROC_REF, "D</DOCNO>")) == Extent(6, 6)


def test_touch_rule_boundaries():
    ref = parse_corpus(PROC_REF, "ref", non_extractable=HIDE_DOCNO)
    alignment = align_corpora(ref, parse_corpus(PROC_HYP, "hyp", non_extractable=HIDE_DOCNO))
    gm = Extent(22, 36)
    assert alignment.ref_extent("D", Extent(gm.start - 1, gm.start)) is None  # the blank before
    assert alignment.ref_extent("D", Extent(gm.start - 1, gm.start + 1)) == Extent(4, 4)
    assert alignment.ref_extent("D", Extent(gm.end - 1, gm.end + 1)) == Extent(5, 5)
    assert alignment.ref_extent("D", Extent(0, 5)) is None  # the <DOC> tag holds no token
    assert alignment.ref_extent("D", Extent(0, len(PROC_REF))) == Extent(0, 5)
    assert alignment.ref_extent("nope", gm) is None
    assert alignment.hyp_extent(None, gm) is None  # segmented: None names no document


# ------------------------------------------------------------ random texts

_WORDS = ("egypt", "won", "the", "cup", "south", "africa", "h-", "2-0", "uh")


@st.composite
def _docs(draw):
    def body():
        words = draw(st.lists(st.sampled_from(_WORDS), max_size=12))
        gaps = draw(
            st.lists(
                st.sampled_from([" ", "  ", ", ", " <T> ", "\n"]), min_size=len(words) + 1, max_size=len(words) + 1
            )
        )
        return "".join(g + w for g, w in zip(gaps, words, strict=False)) + gaps[-1]

    ids = draw(st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=3, unique=True))
    ref = "".join(f"<DOC><DOCNO>{i}</DOCNO>{body()}</DOC>\n" for i in ids)
    hyp = "".join(f"<DOC><DOCNO>{i}</DOCNO>{body()}</DOC>\n" for i in ids)
    extents = draw(st.lists(st.tuples(st.integers(0, 120), st.integers(0, 40)), min_size=1, max_size=5))
    return ref, hyp, [Extent(a, a + n) for a, n in extents]


def _brute(tokens, columns, extent):
    touched = [c for t, c in zip(tokens, columns, strict=False) if t.start < extent.end and extent.start < t.end]
    return Extent(touched[0], touched[-1]) if touched else None


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(_docs())
def test_extents_match_a_brute_force_scan(case):
    ref_text, hyp_text, extents = case
    ref = parse_corpus(ref_text, "r", non_extractable=HIDE_DOCNO)
    hyp = parse_corpus(hyp_text, "h", non_extractable=HIDE_DOCNO)
    for unsegmented in (False, True):
        alignment = align_corpora(ref, hyp, unsegmented=unsegmented)
        for document in alignment.documents:
            ref_cols = {int(t): c for c, t in enumerate(document.alignment.ref_index) if t >= 0}
            hyp_cols = {int(t): c for c, t in enumerate(document.alignment.hyp_index) if t >= 0}
            ref_columns = [ref_cols[i] for i in range(len(document.ref_tokens))]
            hyp_columns = [hyp_cols[i] for i in range(len(document.hyp_tokens))]
            for extent in extents:
                hyp_id = None if unsegmented else document.hyp_docid
                assert alignment.hyp_extent(hyp_id, extent) == _brute(document.hyp_tokens, hyp_columns, extent)
                if not unsegmented:
                    got = alignment.ref_extent(document.ref_docid, extent)
                    assert got == _brute(document.ref_tokens, ref_columns, extent)
        if unsegmented:
            # the reference tokens are the documents' own, one after the other
            [document] = alignment.documents
            position = 0
            for doc in ref.documents:
                count = len(document_tokens(doc))
                tokens = document.ref_tokens[position : position + count]
                columns = ref_columns[position : position + count]
                for extent in extents:
                    assert alignment.ref_extent(doc.docid, extent) == _brute(tokens, columns, extent)
                position += count
            assert position == len(document.ref_tokens)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(_docs())
def test_a_text_aligned_with_itself_maps_both_sides_alike(case):
    ref_text, _, extents = case
    ref = parse_corpus(ref_text, "r")
    alignment = align_corpora(ref, parse_corpus(ref_text, "h"))
    assert alignment.wer_summary()["errors"] == 0
    for doc in ref.documents:
        for extent in extents:
            assert alignment.ref_extent(doc.docid, extent) == alignment.hyp_extent(doc.docid, extent)


# ------------------------------------------------------------ the two modes


def _reference_extents():
    tset = read_templates(str(EXAMPLES / "asr" / "ref.tpl"))
    for inst in tset.instances:
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if isinstance(fill, TextFill) and fill.extent is not None:
                        yield inst.docid, fill.extent


def test_segmented_like_the_reference_gives_the_same_relative_columns():
    ref = read_corpus(str(EXAMPLES / "asr" / "reference.sgml"))
    segmented_text = (EXAMPLES / "asr" / "asr_segmented.sgml").read_text(encoding="utf-8")
    hyp = read_corpus(str(EXAMPLES / "asr" / "asr_segmented.sgml"))
    glm = default_glm()
    by_docid = align_corpora(ref, hyp, glm=glm)
    as_stream = align_corpora(ref, hyp, glm=glm, unsegmented=True)
    assert not by_docid.unsegmented and as_stream.unsegmented
    checked = 0
    for docid, extent in _reference_extents():
        base = as_stream.document_extent(docid)
        local = by_docid.ref_extent(docid, extent)
        wide = as_stream.ref_extent(docid, extent)
        if extent == Extent(14, 35):  # DOC_NR: the <DOCNO> header is not spoken, it has no column
            assert local is None and wide is None
            continue
        assert local is not None and wide is not None
        # relative to the document's first reference word: an insertion before it (story 2's
        # `um`) is a column of this document alone, of the story before in the stream
        first = by_docid.document_extent(docid).start
        assert Extent(wide.start - base.start, wide.end - base.start) == Extent(local.start - first, local.end - first)
        checked += 1
    assert checked == 10  # 12 extents, less the two DOC_NR extents
    # hypothesis words: per-document offsets in one mode, file offsets in the other
    for doc in hyp.documents:
        for words in ("brazil", "rio the janeiro", "martina hinges", "melbourne"):
            if words not in doc.text:
                continue
            local = by_docid.hyp_extent(doc.docid, _extent(doc.text, words))
            in_file = _extent(segmented_text, words)
            wide = as_stream.hyp_extent(None, in_file)
            base = as_stream.document_extent(doc.docid)
            first = by_docid.document_extent(doc.docid).start
            assert Extent(wide.start - base.start, wide.end - base.start) == Extent(
                local.start - first, local.end - first
            )
    assert by_docid.wer_summary()["errors"] == as_stream.wer_summary()["errors"]


def test_unsegmented_asr_output_lands_in_the_right_documents():
    ref = read_corpus(str(EXAMPLES / "asr" / "reference.sgml"))
    raw = read_corpus(str(EXAMPLES / "asr" / "asr_unsegmented.sgml"))
    text = raw.documents[0].text
    alignment = align_corpora(ref, raw, glm=default_glm())
    assert alignment.unsegmented  # automatic: no document tags
    first, second = (alignment.document_extent(d.docid) for d in ref.documents)
    assert first.end < second.start
    for words, inside in (("brazil", first), ("two nil", first), ("hinges", second), ("melbourne", second)):
        column = alignment.hyp_extent(None, _extent(text, words))
        assert inside.start <= column.start <= column.end <= inside.end, words


def test_glm_makes_spoken_numbers_one_column():
    ref = read_corpus(str(EXAMPLES / "asr" / "reference.sgml"))
    raw = read_corpus(str(EXAMPLES / "asr" / "asr_unsegmented.sgml"))
    doc = ref.documents[0]
    with_glm = align_corpora(ref, raw, glm=default_glm())
    ref_score = with_glm.ref_extent(doc.docid, _extent(doc.text, "two to nothing"))
    hyp_score = with_glm.hyp_extent(None, _extent(raw.documents[0].text, "two nil"))
    # both the tokens 2 0 (a score is its two numbers), in the same two columns
    assert ref_score == hyp_score and ref_score.end == ref_score.start + 1
    without = align_corpora(ref, raw)
    assert (
        without.ref_extent(doc.docid, _extent(doc.text, "two to nothing")).end
        - without.ref_extent(doc.docid, _extent(doc.text, "two to nothing")).start
        == 2
    )


def test_glm_optional_tokens_are_aligned_like_words():
    """A filler keeps its column, so an extent touching only it still maps."""
    ref = parse_corpus("<DOC><DOCNO>D</DOCNO> goals for, uh, Brazil </DOC>", "r", non_extractable=HIDE_DOCNO)
    hyp = parse_corpus(" goals for brazil ", "h")
    alignment = align_corpora(ref, hyp, glm=default_glm())
    text = ref.documents[0].text
    assert alignment.ref_extent("D", _extent(text, "uh")) == Extent(2, 2)
    assert alignment.ref_extent("D", _extent(text, "Brazil")) == Extent(3, 3)
    assert alignment.hyp_extent(None, Extent(11, 17)) == Extent(3, 3)


# ------------------------------------------------------------ pairing, counts


def test_documents_on_one_side_are_warned_and_still_get_columns():
    ref = parse_corpus(
        "<DOC><DOCNO>A</DOCNO> one two </DOC><DOC><DOCNO>B</DOCNO> three four five </DOC>",
        "r.sgml",
        non_extractable=HIDE_DOCNO,
    )
    hyp_text = "<DOC><DOCNO>A</DOCNO> one too </DOC><DOC><DOCNO>C</DOCNO> six </DOC>"
    hyp = parse_corpus(hyp_text, "h.sgml", non_extractable=HIDE_DOCNO)
    alignment = align_corpora(ref, hyp)
    assert sorted(str(w) for w in alignment.warnings) == [
        "h.sgml: warning: document C of the hypothesis text is not in the reference text",
        "r.sgml: warning: document B of the reference text is not in the hypothesis text",
    ]
    b_text = ref.document("B").text
    assert alignment.ref_extent("B", _extent(b_text, "four five")) == Extent(1, 2)
    assert alignment.document_extent("B") == Extent(0, 2)
    c_text = hyp.document("C").text
    assert alignment.hyp_extent("C", _extent(c_text, "six")) == Extent(0, 0)
    rows = {(d["ref_docid"], d["hyp_docid"]): d for d in alignment.per_document()}
    assert rows[("B", None)]["deletions"] == 3 and rows[("B", None)]["wer"] == 1.0
    assert rows[(None, "C")]["insertions"] == 1 and rows[(None, "C")]["wer"] is None
    summary = alignment.wer_summary()
    assert (summary["ref_words"], summary["substitutions"], summary["deletions"], summary["insertions"]) == (5, 1, 3, 1)
    assert summary["wer"] == 5 / 5


def test_empty_hypothesis_text_is_a_warning():
    ref = parse_corpus(PROC_REF, "ref", non_extractable=HIDE_DOCNO)
    alignment = align_corpora(ref, parse_corpus("", "empty.txt"))
    assert [str(w) for w in alignment.warnings] == [
        "empty.txt: warning: the hypothesis text is empty: every reference word is deleted"
    ]
    assert alignment.wer_summary()["deletions"] == 6
    assert alignment.ref_extent("D", Extent(22, 36)) == Extent(4, 5)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(_docs(), st.booleans())
def test_counts_add_up(case, unsegmented):
    ref_text, hyp_text, _ = case
    alignment = align_corpora(parse_corpus(ref_text, "r"), parse_corpus(hyp_text, "h"), unsegmented=unsegmented)
    total = alignment.wer_summary()
    rows = alignment.per_document()
    for key in ("ref_words", "hyp_words", "matches", "substitutions", "deletions", "insertions"):
        assert total[key] == sum(row[key] for row in rows)
    for row in [*rows, total]:
        assert row["matches"] + row["substitutions"] + row["deletions"] == row["ref_words"]
        assert row["matches"] + row["substitutions"] + row["insertions"] == row["hyp_words"]
        assert row["errors"] == row["substitutions"] + row["deletions"] + row["insertions"]


def _owned_columns_by_owner(ref_index, sizes):
    """The former formulation: an owner document for every column, then two bisections of it."""
    import numpy as np

    if not sizes:
        return []
    bounds = np.cumsum(np.asarray(sizes, dtype=np.int64))
    if ref_index.size == 0 or bounds[-1] == 0:
        owner = np.zeros(ref_index.size, dtype=np.int64)
    else:
        last_ref = np.maximum.accumulate(np.where(ref_index >= 0, ref_index, -1))
        owner = np.searchsorted(bounds, np.maximum(last_ref, 0), side="right")
    starts = np.searchsorted(owner, np.arange(len(sizes)), side="left")
    ends = np.searchsorted(owner, np.arange(len(sizes)), side="right")
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=8),
    st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=40),
    st.sampled_from(["int32", "int64"]),
)
def test_owned_columns_agree_with_an_owner_per_column(sizes, gaps, dtype):
    """Every column's owner, as the former formulation found it: the reference
    tokens in order, each after some insertions (gaps), then trailing insertions."""
    import numpy as np

    from hub4eval.text.columns import _owned_columns

    columns: list[int] = []
    for token in range(sum(sizes)):
        columns += [-1] * gaps[token % len(gaps)] + [token]
    columns += [-1] * gaps[-1]
    ref_index = np.array(columns, dtype=dtype)
    assert _owned_columns(ref_index, sizes) == _owned_columns_by_owner(ref_index, sizes)


def test_unsegmented_columns_are_split_by_reference_document():
    """Insertions count in the document of the reference word before them."""
    import numpy as np

    from hub4eval.text.columns import _owned_columns

    # columns: ins, r0, r1, ins, ins, r2, ins   (documents of 2, 0 and 1 tokens)
    ref_index = np.array([-1, 0, 1, -1, -1, 2, -1], dtype=np.int32)
    assert _owned_columns(ref_index, [2, 0, 1]) == [(0, 5), (5, 5), (5, 7)]
    assert _owned_columns(ref_index, [0, 3]) == [(0, 0), (0, 7)]
    assert _owned_columns(np.array([-1, -1], dtype=np.int32), [0, 0]) == [(0, 2), (2, 2)]
    assert _owned_columns(np.array([], dtype=np.int32), [1]) == [(0, 0)]
    ref = parse_corpus(
        "<DOC><DOCNO>A</DOCNO> one two </DOC><DOC><DOCNO>B</DOCNO> three </DOC>", "r", non_extractable=HIDE_DOCNO
    )
    alignment = align_corpora(ref, parse_corpus("zero one two extra three four", "h"))
    rows = {row["ref_docid"]: row for row in alignment.per_document()}
    assert (rows["A"]["ref_words"], rows["A"]["insertions"]) == (2, 2)  # zero, extra
    assert (rows["B"]["ref_words"], rows["B"]["insertions"]) == (1, 1)  # four
    views = alignment.document_views()
    assert [(r, h) for r, h, _, _ in views] == [("A", None), ("B", None)]
    assert [w for _, _, d, c in views for w in d.rows(c)] == alignment.documents[0].rows()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["one", "two", "three", "uh", "four"]), max_size=12),
    st.lists(st.sampled_from(["one", "too", "three", "five", "four"]), max_size=12),
    st.data(),
)
def test_rows_of_some_columns_are_those_columns_of_all_rows(ref_words, hyp_words, data):
    """`rows(columns)` gives exactly those columns of `rows()`, on an unsegmented
    alignment (token arrays) and on a segmented one, gaps included."""
    ref_text = f"<DOC><DOCNO>A</DOCNO> {' '.join(ref_words)} </DOC>"
    for hyp_text in (" ".join(hyp_words), f"<DOC><DOCNO>A</DOCNO> {' '.join(hyp_words)} </DOC>"):
        alignment = align_corpora(
            parse_corpus(ref_text, "r", non_extractable=HIDE_DOCNO),
            parse_corpus(hyp_text, "h", non_extractable=HIDE_DOCNO),
        )
        for document in alignment.documents:
            every = document.rows()
            start = data.draw(st.integers(0, len(every)))
            stop = data.draw(st.integers(start, len(every)))
            assert document.rows(slice(start, stop)) == every[start:stop]


def test_a_few_columns_read_only_their_own_words(monkeypatch):
    """The words of a fill's columns are looked up one by one: asking for them
    must not make the word list of the whole text (a million words, for every
    error point of an unsegmented hypothesis, took minutes)."""
    from hub4eval.text.token_arrays import TokenArray

    ref = parse_corpus(
        "<DOC><DOCNO>A</DOCNO> one two </DOC><DOC><DOCNO>B</DOCNO> three </DOC>", "r", non_extractable=HIDE_DOCNO
    )
    alignment = align_corpora(ref, parse_corpus("zero one two extra three four", "h"))
    [document] = alignment.documents
    assert isinstance(document.hyp_tokens, TokenArray)

    def whole_text(self):
        raise AssertionError("the whole text's words were made")

    monkeypatch.setattr(TokenArray, "texts", whole_text)
    assert document.rows(slice(3, 5)) == [("", "extra", 3), ("three", "three", 0)]


def test_column_space_is_the_first_document_alignment_of_the_docid():
    """Documents on both sides, on one side only, and an unknown DOCID."""
    ref = parse_corpus(
        "<DOC><DOCNO>A</DOCNO> one </DOC><DOC><DOCNO>B</DOCNO> two </DOC>", "r", non_extractable=HIDE_DOCNO
    )
    hyp = parse_corpus(
        "<DOC><DOCNO>B</DOCNO> two </DOC><DOC><DOCNO>C</DOCNO> three </DOC>", "h", non_extractable=HIDE_DOCNO
    )
    alignment = align_corpora(ref, hyp)
    docids = [(d.ref_docid, d.hyp_docid) for d in alignment.documents]
    assert sorted(docids, key=str) == sorted([("A", None), ("B", "B"), (None, "C")], key=str)
    for reference, side in ((True, 0), (False, 1)):
        for docid in ("A", "B", "C", None, "Z"):
            first = next((n for n, pair in enumerate(docids) if pair[side] == docid), None)
            assert alignment.column_space(docid, reference=reference) == first, (docid, reference)


# ----------------------------------------------------------------------------
# Corpora aligned, character extents mapped to columns: small cases
# §7: corpora aligned, character extents mapped to columns.
# ----------------------------------------------------------------------------

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


# ----------------------------------------------------------------------------
# Rules the scoring specification v1.1 pinned down (issue #15): only the spoken element is aligned; when texts differ
# ----------------------------------------------------------------------------

runner = CliRunner()


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# Spoken text: only the text inside <TEXT> is aligned and counted in WER -----------


STORY = (
    "<DOC>\n<DOCNO> D1 </DOCNO>\n<DOCTYPE> NEWS STORY </DOCTYPE>\n<DATE_TIME> 01/20/1998 19:00 </DATE_TIME>\n"
    "<TEXT>\nBrazil beat Chile\n</TEXT>\n</DOC>\n"
)


def test_header_elements_are_not_aligned_against_an_unsegmented_hypothesis():
    # Spoken: `brazil beat chile` (3 words). Header words (D1, NEWS STORY, the date) are not
    # reference words: nothing is deleted, WER = 0 (v1.0 counted 6 header words as deletions).
    alignment = align_corpora(parse_corpus(STORY, "r.sgml"), parse_corpus("brazil beat chile\n", "h.txt"), glm=None)
    assert alignment.wer_summary()["ref_words"] == 3
    assert alignment.wer_summary()["errors"] == 0


def test_header_elements_are_not_aligned_in_segmented_mode_either():
    hyp = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\nbrazil beat chile\n</TEXT>\n</DOC>\n"
    alignment = align_corpora(parse_corpus(STORY, "r.sgml"), parse_corpus(hyp, "h.sgml"), glm=None)
    # reference: 3 spoken words; the hypothesis's DOCNO is outside its <TEXT> too
    assert alignment.wer_summary() == {
        **alignment.wer_summary(),
        "ref_words": 3,
        "hyp_words": 3,
        "matches": 3,
        "errors": 0,
    }


def test_a_document_without_the_spoken_element_is_all_spoken():
    # no <TEXT>: the DOCNO text `D1` is spoken too, so the reference has 4 words and the
    # hypothesis without it deletes one.
    ref = "<DOC>\n<DOCNO> D1 </DOCNO>\nBrazil beat Chile\n</DOC>\n"
    alignment = align_corpora(parse_corpus(ref, "r.sgml"), parse_corpus("brazil beat chile", "h.txt"), glm=None)
    assert (alignment.wer_summary()["ref_words"], alignment.wer_summary()["deletions"]) == (4, 1)


def test_spoken_element_option_is_in_the_signature_and_changes_the_words(tmp_path):
    ref = _write(tmp_path, "r.sgml", STORY)
    hyp = _write(tmp_path, "h.txt", "brazil beat chile\n")
    default = json.loads(runner.invoke(app, ["align", ref, hyp, "--glm", "none", "--json", "-"]).stdout)
    dated = runner.invoke(app, ["align", ref, hyp, "--glm", "none", "--spoken-element", "DATE_TIME", "--json", "-"])
    assert dated.exit_code == 0, dated.output
    # spoken is now `01/20/1998 19:00` -> tokens 01 20 1998 19 00 (5 words), none of them said
    assert default["summary"]["ref_words"] == 3
    assert json.loads(dated.stdout)["summary"]["ref_words"] == 5
    assert "spoken_element:TEXT" in ScoreConfig().signature(version="x")
    assert "spoken_element:DATE_TIME" in ScoreConfig(spoken_element="DATE_TIME").signature(version="x")


def test_library_corpus_follows_the_configs_spoken_element():
    start = STORY.index("Brazil")
    ref_tpl = parse_templates(f'<E-D1-1> :=\n  A: "Brazil" ##{start}#{start + 6}#\n', "r.tpl", role="reference")
    hyp_tpl = parse_templates('<E-asr-1> :=\n  A: "brazil" ##0#6#\n', "h.tpl", role="hypothesis")
    ref_corpus = parse_corpus(STORY, "r.sgml")
    hyp_corpus = parse_corpus("brazil beat chile\n", "h.txt")
    result = score_sets(ref_tpl, hyp_tpl, ref_corpus=ref_corpus, hyp_corpus=hyp_corpus)
    assert result.wer["ref_words"] == 3 and cats(result) == ["COR", "COR"]
    other = score_sets(
        ref_tpl,
        hyp_tpl,
        ref_corpus=ref_corpus,
        hyp_corpus=hyp_corpus,
        config=ScoreConfig(spoken_element="DOCTYPE"),
    )
    # spoken is now `NEWS STORY` only: `Brazil` has no column, its extent matches nothing
    assert other.wer["ref_words"] == 2
    assert "spoken_element:DOCTYPE" in other.signature


def test_reference_extent_in_a_header_element_matches_nothing_when_texts_differ():
    # the fill's extent covers `NEWS STORY` inside <DOCTYPE>: not spoken, no column: extent INC
    start = STORY.index("NEWS STORY")
    ref_tpl = parse_templates(f'<E-D1-1> :=\n  A: "news story" ##{start}#{start + 10}#\n', "r.tpl", role="reference")
    hyp_text = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\nnews story brazil beat chile\n</TEXT>\n</DOC>\n"
    at = hyp_text.index("news story")
    hyp_tpl = parse_templates(f'<E-D1-1> :=\n  A: "news story" ##{at}#{at + 10}#\n', "h.tpl", role="hypothesis")
    result = score_sets(
        ref_tpl, hyp_tpl, ref_corpus=parse_corpus(STORY, "r.sgml"), hyp_corpus=parse_corpus(hyp_text, "h.sgml")
    )
    assert [(p.kind, p.category) for p in result.points] == [("content", "COR"), ("extent", "INC")]


def test_unclosed_spoken_element_is_an_input_error():
    text = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\nBrazil beat Chile\n</DOC>\n"
    with pytest.raises(InputError) as caught:
        parse_corpus(text, "r.sgml")
    assert (caught.value.line, caught.value.column) == (3, 1)
    assert "<TEXT> element is not closed" in str(caught.value)


# When texts differ: only (DOCID, document text) and the segmentation count ----


def test_blank_lines_around_documents_do_not_make_texts_differ():
    plain = parse_corpus(STORY, "a.sgml")
    spaced = parse_corpus("\n\n\n" + STORY + "\n\n", "b.sgml")
    assert not texts_differ(plain, spaced)
    changed = parse_corpus(STORY.replace("Chile", "Chili"), "c.sgml")
    assert texts_differ(plain, changed)
    renamed = parse_corpus(STORY.replace("D1", "D2"), "d.sgml")
    assert texts_differ(plain, renamed)


def test_blank_lines_before_the_first_document_score_as_the_same_text(tmp_path):
    start = STORY.index("Brazil")
    ref = _write(tmp_path, "r.tpl", f'<E-D1-1> :=\n  A: "Brazil" ##{start}#{start + 6}#\n')
    hyp = _write(tmp_path, "h.tpl", f'<E-D1-1> :=\n  A: "brazil" ##{start}#{start + 6}#\n')
    a = _write(tmp_path, "a.sgml", STORY)
    b = _write(tmp_path, "b.sgml", "\n\n" + STORY)
    result = runner.invoke(app, ["score", ref, hyp, "--ref-text", a, "--hyp-text", b, "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "texts:same" in data["signature"]
    assert data["summary"]["COR"] == 2


# ------------------------------------------------------------ many extents at once


def _at_once(alignment, reference, docids, extents):
    """``extents_of`` of the extents, as ``ref_extent``/``hyp_extent`` give them (None: no token):
    the same by the compiled loop and in numpy (a process without numba loaded)."""
    starts = np.asarray([e.start for e in extents], dtype=np.int64)
    ends = np.asarray([e.end for e in extents], dtype=np.int64)
    routes = []
    for compiled in (True, False):
        with patch.object(column_extents, "_numba_loaded", return_value=compiled):
            first, last, found = extents_of(alignment, reference, docids, starts, ends)
        routes.append([Extent(int(a), int(b)) if ok else None for a, b, ok in zip(first, last, found, strict=True)])
    assert routes[0] == routes[1]
    return routes[0]


def _enclosures_at_once(alignment, docids, extents):
    starts = np.asarray([e.start for e in extents], dtype=np.int64)
    ends = np.asarray([e.end for e in extents], dtype=np.int64)
    starts, ends = enclosures_of(alignment, docids, starts, ends)
    return [Extent(int(a), int(b)) for a, b in zip(starts, ends, strict=True)]


@settings(max_examples=80, deadline=None)
@given(_docs())
def test_many_extents_map_at_once_as_each_one_maps(case):
    """``extents_of`` and ``enclosures_of`` (the mapping engine maps a run's fills with them)
    give each extent's ``ref_extent``/``hyp_extent`` and ``ref_enclosure``, in both modes,
    for documents the texts lack too."""
    ref_text, hyp_text, extents = case
    ref = parse_corpus(ref_text, "r", non_extractable=HIDE_DOCNO)
    hyp = parse_corpus(hyp_text, "h", non_extractable=HIDE_DOCNO)
    for unsegmented in (False, True):
        alignment = align_corpora(ref, hyp, unsegmented=unsegmented)
        docids = [doc.docid for doc in ref.documents] + ["nope"]
        pairs = [(docid, extent) for docid in docids for extent in extents]
        names = [docid for docid, _ in pairs]
        every = [extent for _, extent in pairs]
        assert _at_once(alignment, True, names, every) == [alignment.ref_extent(d, e) for d, e in pairs]
        hyp_names = [None if unsegmented else d for d in names]
        assert _at_once(alignment, False, hyp_names, every) == [
            alignment.hyp_extent(d, e) for d, e in zip(hyp_names, every, strict=True)
        ]
        mapped = [(d, alignment.ref_extent(d, e)) for d, e in pairs]
        found = [(d, e) for d, e in mapped if e is not None]
        expected = [alignment.ref_enclosure(d, e) for d, e in found]
        assert _enclosures_at_once(alignment, [d for d, _ in found], [e for _, e in found]) == expected


@pytest.mark.parametrize("inserted", [1, 15, 16, 17, 40])
@pytest.mark.parametrize("unsegmented", [False, True])
def test_an_enclosure_widens_over_a_long_run_of_insertions_at_once_as_alone(inserted, unsegmented):
    """A reference extent next to a run of inserted words is widened over all of them, however
    long the run (``enclosures_of`` widens short runs in numpy, the longer ones one by one)."""
    words = " ".join(f"x{k}" for k in range(inserted))
    ref = parse_corpus("<DOC><DOCNO>A</DOCNO>egypt won the cup</DOC>\n", "r", non_extractable=HIDE_DOCNO)
    hyp = parse_corpus(
        f"<DOC><DOCNO>A</DOCNO>egypt {words} won the {words} cup</DOC>\n", "h", non_extractable=HIDE_DOCNO
    )
    alignment = align_corpora(ref, hyp, unsegmented=unsegmented)
    text = ref.documents[0].text
    extents = [_extent(text, "won the"), _extent(text, "won"), _extent(text, "egypt won the cup"), _extent(text, "cup")]
    columns = [alignment.ref_extent("A", extent) for extent in extents]
    expected = [alignment.ref_enclosure("A", extent) for extent in columns]
    assert expected[0] == Extent(columns[0].start - inserted, columns[0].end + inserted)  # both runs taken in
    assert _enclosures_at_once(alignment, ["A"] * len(columns), columns) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 60), max_size=40), min_size=1, max_size=8),
    st.lists(st.tuples(st.integers(0, 7), st.integers(-5, 70)), max_size=60),
    st.booleans(),
)
def test_runs_bisected_together_give_what_bisect_gives_in_each(runs, targets, right):
    """``_bisect_within`` (every run halved in the same numpy steps) is ``bisect.bisect_right``
    (``right``) or ``bisect_left`` of each target in its own sorted run, as an index of all."""
    values: list[int] = []
    bounds = []
    for run in runs:
        bounds.append((len(values), len(values) + len(run)))
        values += sorted(run)
    asked = [(bounds[k % len(bounds)], target) for k, target in targets]
    expected = [
        (bisect.bisect_right if right else bisect.bisect_left)(values, target, low, high)
        for (low, high), target in asked
    ]
    found = _bisect_within(
        np.asarray(values, dtype=np.int32),
        np.asarray([low for (low, _), _ in asked], dtype=np.int64),
        np.asarray([high for (_, high), _ in asked], dtype=np.int64),
        np.asarray([target for _, target in asked], dtype=np.int64),
        right=right,
    )
    assert found.tolist() == expected


def _tokens_in_runs(runs: list[list[tuple[int, int]]]) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """The starts and ends of tokens drawn as (gap, width) in runs, one run after the other (in
    each, every token after the one before), and each run's [first, end) tokens."""
    starts: list[int] = []
    ends: list[int] = []
    bounds = []
    for tokens in runs:
        low = len(starts)
        position = 0
        for gap, width in tokens:
            starts.append(position + gap)
            ends.append(position + gap + width)
            position += gap + width
        bounds.append((low, len(starts)))
    return starts, ends, bounds


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 4)), max_size=40), min_size=1, max_size=8),
    st.lists(st.tuples(st.integers(0, 8), st.integers(-5, 70), st.integers(-3, 9)), max_size=60),
    st.sampled_from([np.int32, np.int64]),
)
def test_extents_bisected_in_their_runs_are_those_of_bisect(runs, asked, dtype):
    """``_run_extents`` (numba's loop under ``TokenRuns.extents`` and ``side_extents``) maps each
    extent in its own run of tokens as ``bisect`` does (``_Side.extent``), with tokens of
    either integer type, in any order and in order (where each is searched on from the one
    before); an empty run (a document not aligned) and an empty or reversed extent touch no
    token."""
    starts, ends, bounds = _tokens_in_runs(runs)
    bounds.append((0, 0))  # no run
    placed = [(bounds[min(k, len(bounds) - 1)], start, start + width) for k, start, width in asked]
    # in any order, and in order of their runs and offsets (each searched on from the one before)
    for order in (placed, sorted(placed)):
        first, last, found = _run_extents(
            np.asarray(starts, dtype),
            np.asarray(ends, dtype),
            np.arange(len(starts), dtype=np.int64) * 3 + 1,
            np.asarray([bound for (low, high), _, _ in order for bound in (low, high)], dtype=np.int64),
            np.asarray([start for _, start, _ in order], dtype=np.int32),  # the offsets in any type
            np.asarray([end for _, _, end in order], dtype=np.int64),
        )
        assert first.dtype == last.dtype == np.int64 and found.dtype == np.bool_
        for ((low, high), start, end), a, b, hit in zip(
            order, first.tolist(), last.tolist(), found.tolist(), strict=True
        ):
            i = bisect.bisect_right(ends, start, low, high)
            j = bisect.bisect_left(starts, end, low, high) - 1
            assert hit == (i <= j)
            assert (a, b) == ((3 * i + 1, 3 * j + 1) if i <= j else (0, 0))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 4)), max_size=40), min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 6), st.integers(-5, 70), st.integers(0, 9)), max_size=40),
    st.integers(1, 40),
)
def test_extents_in_runs_of_documents_are_those_of_bisect(documents, asked, repeats):
    """``TokenRuns.extents`` of extents that come a document at a time and of extents in any
    order, by the compiled loop and in numpy, are what ``bisect`` gives in each document's
    tokens; a document it does not have has none."""
    starts, ends, bounds = _tokens_in_runs(documents)
    runs = {f"d{number}": run for number, run in enumerate(bounds)}
    token_runs = TokenRuns(
        runs, np.asarray(starts, np.int32), np.asarray(ends, np.int32), np.arange(len(starts), dtype=np.int64) * 2
    )
    # each extent asked ``repeats`` times in a row: long stretches of one document (searched a run at a time)
    extents = [(f"d{doc}", start, start + width) for doc, start, width in asked for _ in range(repeats)]
    orders = (extents, extents[::-1], sorted(extents, key=lambda extent: extent[1]))
    for compiled, order in itertools.product((True, False), orders):  # the compiled loop; numpy
        docids = [docid for docid, _, _ in order]
        with patch.object(column_extents, "_numba_loaded", return_value=compiled):
            first, last, found = token_runs.extents(
                docids, np.asarray([a for _, a, _ in order], np.int64), np.asarray([b for _, _, b in order], np.int64)
            )
        for (docid, start, end), a, b, hit in zip(order, first.tolist(), last.tolist(), found.tolist(), strict=True):
            low, high = runs.get(docid, (0, 0))
            i = bisect.bisect_right(ends, start, low, high)  # as _Side.extent
            j = bisect.bisect_left(starts, end, low, high) - 1
            assert hit == (i <= j)
            assert (a, b) == ((2 * i, 2 * j) if i <= j else (0, 0))


def test_the_extents_loop_compiles_without_the_aligners_notice(tmp_path) -> None:
    """The loop compiles in a fraction of a second: an empty numba cache is not announced as the
    aligner compiling "about 10 s" (the notice, raised here as an error, would fail the run)."""
    import subprocess
    import sys

    code = (
        "import warnings\n"
        "import numpy as np\n"
        "from hub4eval.text.align.numba_cache import KernelCompileNotice\n"
        "from hub4eval.text.column_extents import _run_extents_kernel\n"
        "warnings.simplefilter('error', KernelCompileNotice)\n"
        "first, last = np.zeros(1, np.int64), np.zeros(1, np.int64)\n"
        "found = np.zeros(1, np.bool_)\n"
        "tokens = np.array([0, 4], np.int64), np.array([3, 7], np.int64), np.array([1, 2], np.int64)\n"
        "_run_extents_kernel()(*tokens, np.array([0, 2], np.int64), np.array([0]), np.array([7]), first, last, found)\n"
        "assert (first[0], last[0], bool(found[0])) == (1, 2, True)\n"
    )
    env = {**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "cache").rglob("*.nbi"))  # it was compiled into the empty cache, and cached
