"""§1 corpus reader: offsets, extractable spans, unsegmented files, errors, speed.

``test_corpus_reader.py`` holds the positioned error messages; this file checks
the reader's invariants (against the sample templates and against a simple
reference model on random documents), the conventions the brief fixes
(characters not bytes, case-insensitive tags, warnings), and linear time.
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.errors import InputError
from hub4eval.io.corpus import as_unsegmented, parse_corpus, read_corpus
from hub4eval.io.templettes import read_templates
from hub4eval.model import TextFill
from tests.support import EXAMPLES


def _fold(text: str) -> str:
    return " ".join(text.split())


def _positions(spans):
    return {i for a, b in spans for i in range(a, b)}


# ------------------------------------------------------------ the sample


@pytest.mark.parametrize("side", ["ref", "hyp"])
def test_every_sample_extent_points_at_its_string(side):
    """Maximal and minimal extents of both sample templates read like their strings."""
    corpus = read_corpus(str(EXAMPLES / "sample" / "text.sgml"))
    tset = read_templates(str(EXAMPLES / "sample" / f"{side}.tpl"), "reference" if side == "ref" else "hypothesis")
    checked = 0
    for inst in tset.instances:
        doc = corpus.document(inst.docid)
        assert doc is not None, inst.docid
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if not isinstance(fill, TextFill) or fill.extent is None:
                        continue
                    e = fill.extent
                    assert _fold(doc.text[e.start : e.end]) == _fold(fill.content), (inst.key, slot.name)
                    if side == "ref":
                        for minimal, string in zip(fill.minimal_extents, fill.minimal_strings, strict=False):
                            assert _fold(doc.text[minimal.start : minimal.end]) == _fold(string)
                    checked += 1
    assert checked >= 9


def test_sample_documents_sit_at_their_file_offsets_and_lines():
    path = EXAMPLES / "sample" / "text.sgml"
    whole = path.read_text(encoding="utf-8")
    corpus = read_corpus(str(path))
    assert len(corpus.documents) == 3 and corpus.warnings == ()
    for doc in corpus.documents:
        assert whole[doc.offset : doc.offset + len(doc.text)] == doc.text
        assert doc.line == whole.count("\n", 0, doc.offset) + 1
        assert re.fullmatch(r"<DOC>.*</DOC>", doc.text, re.S)
        # extractable spans are sorted, disjoint, inside the text and hold no tag characters
        previous = 0
        for a, b in doc.extractable:
            assert previous <= a < b <= len(doc.text)
            assert "<" not in doc.text[a:b] and ">" not in doc.text[a:b]
            previous = b
    text = corpus.document("PRI19980302.2000.2923").text
    assert text[295:326] == "defending champion south Africa"
    assert text[14:35] == "PRI19980302.2000.2923"


# ------------------------------------------------------------ conventions


def test_offsets_count_characters_not_bytes():
    text = "<DOC><DOCNO> É1 </DOCNO> Égypte → Brésil </DOC>"
    doc = parse_corpus(text).documents[0]
    start = text.index("Brésil")
    assert doc.text[start : start + 6] == "Brésil"
    assert doc.docid == "É1"


def test_second_document_offsets_restart_at_its_tag():
    text = "<DOC><DOCNO> A </DOCNO> x </DOC>\n\n<DOC><DOCNO> B </DOCNO> hello </DOC>\n"
    corpus = parse_corpus(text)
    b = corpus.document("B")
    assert b.offset == text.index("<DOC><DOCNO> B")
    assert b.line == 3
    assert b.text[b.text.index("hello") :].startswith("hello")
    assert b.extractable_text().split() == ["B", "hello"]


def test_tags_and_elements_match_case_insensitively():
    corpus = parse_corpus("<doc><DocNo> a-1 </dOCNO> keep <annotation> drop </Annotation> this </Doc>")
    [doc] = corpus.documents
    assert doc.docid == "a-1"
    assert doc.extractable_text().split() == ["a-1", "keep", "this"]


def test_docid_is_the_non_blank_characters_of_the_docno():
    corpus = parse_corpus("<DOC><DOCNO>\n  AB C\t19 \n</DOCNO></DOC>")
    assert corpus.documents[0].docid == "ABC19"


def test_custom_non_extractable_elements():
    text = "<DOC><DOCNO> A </DOCNO><TURN> hi <NOTE> no </NOTE> <ANNOTATION> yes </ANNOTATION></TURN></DOC>"
    doc = parse_corpus(text, non_extractable=("note", "DOCNO")).documents[0]
    assert doc.extractable_text().split() == ["hi", "yes"]


def test_unsegmented_file_keeps_file_offsets_and_skips_time_tags():
    text = '<time sec=12.3> egypt <s> won </s>\n<time sec="14.0">the cup\n'
    corpus = parse_corpus(text, "asr.txt")
    assert not corpus.segmented and corpus.warnings == ()
    [doc] = corpus.documents
    assert (doc.docid, doc.offset, doc.line, doc.text) == (None, 0, 1, text)
    words = [
        doc.text[m.start() + a : m.end() + a] for a, b in doc.extractable for m in re.finditer(r"\S+", doc.text[a:b])
    ]
    assert words == ["egypt", "won", "the", "cup"]
    cup = text.index("cup")
    assert any(a <= cup and cup + 3 <= b for a, b in doc.extractable)


def test_the_asr_example_segmented_and_unsegmented():
    unsegmented = read_corpus(str(EXAMPLES / "asr" / "asr_unsegmented.sgml"))
    segmented = read_corpus(str(EXAMPLES / "asr" / "asr_segmented.sgml"))
    reference = read_corpus(str(EXAMPLES / "asr" / "reference.sgml"))
    assert not unsegmented.segmented and segmented.segmented
    assert [d.docid for d in segmented.documents] == [d.docid for d in reference.documents]
    # the same words, once the segmented file's identifiers are left out
    words = [w for d in segmented.documents for w in d.extractable_text().split() if w != d.docid]
    assert words == unsegmented.documents[0].extractable_text().split()


def test_as_unsegmented_keeps_file_offsets():
    text = "junk? no: blank\n<DOC><DOCNO> A </DOCNO> one </DOC>\n<DOC><DOCNO> B </DOCNO> two </DOC>"
    text = text.replace("junk? no: blank", "               ")
    stream = as_unsegmented(parse_corpus(text, "h"))
    [doc] = stream.documents
    assert not stream.segmented and doc.docid is None and len(doc.text) == len(text)
    assert doc.extractable_text().split() == ["A", "one", "B", "two"]
    two = text.index("two")
    assert doc.text[two : two + 3] == "two"


def test_text_after_the_last_document_is_a_warning():
    corpus = parse_corpus("<DOC><DOCNO> A </DOCNO></DOC>\n\n  trailing words\n", "c.sgml")
    assert [str(w) for w in corpus.warnings] == ["c.sgml:3:3: warning: text outside any document is ignored"]
    assert [d.docid for d in corpus.documents] == ["A"]


def test_whitespace_between_documents_is_fine():
    corpus = parse_corpus("\n \t<DOC><DOCNO> A </DOCNO></DOC>\n\n<DOC><DOCNO> B </DOCNO></DOC>\n")
    assert corpus.warnings == () and len(corpus.documents) == 2


def test_empty_file_has_no_words():
    """An empty file parses; whether that is an error is the caller's decision.

    (A reference text that is empty is an error of ``score``, an empty
    hypothesis text a warning of the aligner: see docs/input-errors.md.)
    """
    corpus = parse_corpus("", "e.sgml")
    assert not corpus.segmented
    assert [doc.extractable_text() for doc in corpus.documents] == [""]  # one document, no words


# ------------------------------------------------------------ errors


def test_duplicate_docno_names_both_lines():
    with pytest.raises(InputError) as info:
        parse_corpus("<DOC><DOCNO> A </DOCNO></DOC>\n\n\n<DOC>\n<DOCNO> A </DOCNO></DOC>", "c.sgml")
    assert str(info.value).startswith("c.sgml:5:1: duplicate DOCNO A (first at line 1)")
    assert "hint:" in str(info.value)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("<DOC><DOCNO> A </DOCNO> x </DOC>\n</DOC>", "c.sgml:2:1: </DOC> without an open document"),
        ("<DOC><DOCNO> A </DOCNO> x </DOC>\n<DOC", "c.sgml:2:1: '<' opens a tag that is never closed"),
        ("<DOC><DOCNO> A </DOCNO></DOC>\n<DOC><DOCNO> B </DOC>", "c.sgml:2:6: <DOCNO> element is not closed"),
        ("<DOC><DOCNO> </DOCNO></DOC>", "c.sgml:1:6: empty <DOCNO> element"),
        (
            "<DOC><DOCNO> A </DOCNO><ANNOTATION></DOC>\n<DOC><DOCNO> B </DOCNO></ANNOTATION></DOC>",
            "c.sgml:1:24: <ANNOTATION> element is not closed",
        ),
    ],
)
def test_more_positioned_errors(text, start):
    with pytest.raises(InputError) as info:
        parse_corpus(text, "c.sgml")
    assert str(info.value).startswith(start)
    assert "hint:" in str(info.value) and "\n" not in str(info.value)


def test_file_errors(tmp_path):
    with pytest.raises(InputError) as info:
        read_corpus(str(tmp_path / "missing.sgml"))
    assert "missing.sgml" in str(info.value) and "no such file" in str(info.value)
    with pytest.raises(InputError) as info:
        read_corpus(str(tmp_path))
    assert "directory" in str(info.value)


def test_bad_byte_is_positioned_and_hints_latin1(tmp_path):
    path = tmp_path / "bad.sgml"
    path.write_bytes(b"<DOC><DOCNO> A </DOCNO>\n\xc3\xa9t\xe9 </DOC>")  # valid é, then a latin-1 é
    with pytest.raises(InputError) as info:
        read_corpus(str(path))
    assert (info.value.line, info.value.column) == (2, 3)
    assert "latin-1" in info.value.hint


# ------------------------------------------------------------ against a model

_WORD = st.text(alphabet="abcXYZ019.,-'é ", min_size=1, max_size=6)


@st.composite
def _documents(draw):
    """A random corpus built from pieces whose extractability is known."""
    pieces: list[tuple[str, bool]] = []
    ids = draw(st.lists(st.from_regex(r"[A-Z][A-Z0-9.]{0,5}", fullmatch=True), min_size=1, max_size=3, unique=True))
    for docid in ids:
        pieces.append((draw(st.sampled_from(["", "\n", " \n\t"])), False))
        pieces.append(("<DOC>", False))
        docno = [("<DOCNO>", False), (f" {docid} ", True), ("</DOCNO>", False)]
        units: list[list[tuple[str, bool]]] = []
        for _ in range(draw(st.integers(0, 6))):
            kind = draw(st.sampled_from(["word", "word", "tag", "annotation"]))
            if kind == "word":
                units.append([(draw(_WORD), True)])
            elif kind == "tag":
                tag = draw(st.sampled_from(["<TURN>", "</TURN>", "<time sec=1.5>", '<s id="x">', "<br/>"]))
                units.append([(tag, False)])
            else:
                units.append([("<ANNOTATION>", False), (draw(_WORD), False), ("</annotation>", False)])
        units.insert(draw(st.integers(0, len(units))), docno)  # the DOCNO element need not come first
        pieces.extend(piece for unit in units for piece in unit)
        pieces.append(("</DOC>", False))
    return ids, pieces


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_documents())
def test_extractable_spans_match_a_model(case):
    ids, pieces = case
    text = "".join(p for p, _ in pieces)
    expected: set[int] = set()
    position = 0
    for piece, extractable in pieces:
        if extractable:
            expected.update(range(position, position + len(piece)))
        position += len(piece)
    corpus = parse_corpus(text, "r.sgml")
    assert [d.docid for d in corpus.documents] == ids
    got = {doc.offset + i for doc in corpus.documents for i in _positions(doc.extractable)}
    assert got == expected
    for doc in corpus.documents:
        assert text[doc.offset : doc.offset + len(doc.text)] == doc.text


# ------------------------------------------------------------ speed


@pytest.mark.slow
def test_ten_megabytes_parse_in_linear_time():
    words = " ".join(["the", "cup", "<time sec=1.0>", "Égypte,", "2-0"] * 20)
    one = f"<DOC>\n<DOCNO> D{{}} </DOCNO>\n<TEXT>\n{words}\n<ANNOTATION> x </ANNOTATION>\n</TEXT>\n</DOC>\n"
    small = "".join(one.format(i) for i in range(2_000))
    large = "".join(one.format(i) for i in range(20_000))
    assert len(large) > 10_000_000 // 2
    large = large + "".join(one.format(f"b{i}") for i in range(20_000))
    assert len(large) > 10_000_000

    def timed(text):  # CPU seconds: a loaded machine slows the wall clock, not this
        began = time.process_time()
        corpus = parse_corpus(text, "big.sgml")
        return time.process_time() - began, corpus

    small_time, _ = timed(small)
    large_time, corpus = timed(large)
    assert len(corpus.documents) == 40_000
    # 20x the text: linear is ~20x; quadratic would be ~400x (the speed itself: benchmarks/)
    assert large_time < 60 * max(small_time, 0.01)


@pytest.mark.slow
def test_long_unsegmented_stream_is_fast():
    text = "".join(f"<time sec={i}> word{i % 97} and more words here\n" for i in range(200_000))
    began = time.process_time()
    corpus = parse_corpus(text, "asr.txt")
    assert time.process_time() - began < 5.0  # CPU seconds; about 0.5 s, a quadratic scan takes minutes
    assert not corpus.segmented and len(corpus.documents[0].extractable) == 200_000


def test_stray_closing_tag_of_a_non_extractable_element():
    """A misspelt opening tag would silently make the element's content text."""
    with pytest.raises(InputError) as info:
        parse_corpus("<DOC><DOCNO> A </DOCNO>\n<ANOTATION> (on camera) </ANNOTATION> words </DOC>", "c.sgml")
    assert str(info.value) == (
        "c.sgml:2:25: </ANNOTATION> without an open <ANNOTATION> (hint: check the spelling of the opening "
        "<ANNOTATION> tag: without it the element's content would be read as text)"
    )


def test_the_sample_with_a_misspelt_annotation_tag(tmp_path):
    """The row of docs/input-errors.md, through the CLI."""
    from typer.testing import CliRunner

    from hub4eval.cli import app

    text = (EXAMPLES / "sample" / "text.sgml").read_text(encoding="utf-8")
    (tmp_path / "text.sgml").write_text(text.replace("<ANNOTATION>  (on camera)", "<ANOTATION>  (on camera)"))
    result = CliRunner().invoke(app, ["align", str(tmp_path / "text.sgml"), str(tmp_path / "text.sgml")])
    assert result.exit_code == 2
    row = next(
        line
        for line in (EXAMPLES.parent / "docs" / "input-errors.md").read_text().splitlines()
        if line.startswith("| stray closing tag of a non-extractable element")
    )
    message = row.split("| `")[-1].rstrip("` |").replace("\\|", "|")
    assert result.stderr.strip() == str(tmp_path / message)


def test_nested_non_extractable_element_hides_all_of_it():
    doc = parse_corpus(
        "<DOC><DOCNO> A </DOCNO> a <ANNOTATION> b <ANNOTATION> c </ANNOTATION> d </ANNOTATION> e </DOC>"
    ).documents[0]
    assert doc.extractable_text().split() == ["A", "a", "e"]


def test_a_document_is_found_by_docid_in_a_corpus_of_many():
    """`Corpus.document` answers from an index made once (it is asked per
    instance set and per document alignment); the first document of a DOCID
    wins, a missing one is None, and a changed copy has its own index."""
    from hub4eval.model import Corpus, Document
    from hub4eval.util.records import replace

    docs = tuple(Document(f"D{k}", f"text {k}", 0, 1, ((0, 6),)) for k in range(2000))
    corpus = Corpus((*docs, Document("D7", "again", 0, 1, ((0, 5),))))
    assert all(corpus.document(doc.docid) is doc for doc in docs)
    assert corpus.document("D7") is docs[7] and corpus.document("nope") is None
    smaller = replace(corpus, documents=docs[:10])
    assert smaller.document("D11") is None and smaller.document("D3") is docs[3]
    assert corpus == Corpus(corpus.documents)  # the index is no field: equality is the documents'
