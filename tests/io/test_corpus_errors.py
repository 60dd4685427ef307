"""§1: the corpus reader (offsets, DOCIDs, extractable text, errors)."""

from __future__ import annotations

import pytest

from hub4eval.errors import InputError
from hub4eval.io.corpus import parse_corpus, read_corpus
from hub4eval.io.templettes import read_templates
from tests.support import EXAMPLES


def test_sample_offsets_and_docids():
    corpus = read_corpus(str(EXAMPLES / "sample" / "text.sgml"))
    assert corpus.segmented
    assert [d.docid for d in corpus.documents] == [
        "ABC19980307.1830.1415",
        "PRI19980302.2000.2923",
        "PRI19980317.2000.2025",
    ]
    doc = corpus.document("PRI19980302.2000.2923")
    assert doc.text.startswith("<DOC>") and doc.text.endswith("</DOC>")
    assert doc.text[295:326] == "defending champion south Africa"
    assert doc.text[14:35] == "PRI19980302.2000.2923"
    assert doc.line == 25


@pytest.mark.parametrize("example", ["sample", "clean"])
def test_every_reference_fill_reads_like_the_text_at_its_extent(example):
    corpus = read_corpus(str(EXAMPLES / example / "text.sgml"))
    tset = read_templates(str(EXAMPLES / example / "ref.tpl"))
    checked = 0
    for inst in tset.instances:
        doc = corpus.document(inst.docid)
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    extent = getattr(fill, "extent", None)
                    if extent is not None:
                        assert " ".join(doc.text[extent.start : extent.end].split()) == " ".join(fill.content.split())
                        checked += 1
    assert checked > 5


def test_annotation_and_tags_are_not_extractable():
    corpus = read_corpus(str(EXAMPLES / "sample" / "text.sgml"))
    text = corpus.document("ABC19980307.1830.1415").extractable_text()
    assert "voice-over" not in text and "<TURN>" not in text and "TURN" not in text
    assert "Anchorage,..." in text and "ABC19980307.1830.1415" in text


def test_no_document_tags_is_an_unsegmented_corpus():
    corpus = parse_corpus("egypt <time t=1.0> won the cup\n", "asr.txt")
    assert not corpus.segmented
    [doc] = corpus.documents
    assert doc.docid is None and doc.offset == 0
    assert doc.extractable_text().split() == ["egypt", "won", "the", "cup"]


def test_other_document_tags():
    corpus = parse_corpus("<STORY><ID> x1 </ID> hi </STORY>", "c", doc_tag="STORY", docno_tag="ID")
    assert corpus.documents[0].docid == "x1"


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("<DOC><DOCNO> A </DOCNO></DOC>\n<DOC><DOCNO> A </DOCNO></DOC>", "duplicate DOCNO A (first at line 1)", 2, 6),
        ("<DOC> no id </DOC>", "document has no <DOCNO> element", 1, 1),
        ("<DOC><DOCNO> A </DOCNO><DOCNO> B </DOCNO></DOC>", "document has two <DOCNO> elements", 1, 24),
        ("<DOC><DOCNO> A </DOCNO>\ntext", "document <DOC> is not closed", 1, 1),
        ("</DOC>", "</DOC> without an open document", 1, 1),
        ("<DOC><DOCNO> A </DOCNO> <DOC>", "<DOC> opened before the document opened at line 1 is closed", 1, 25),
        ("<DOC><DOCNO> A </DOCNO> a < b </DOC>", "'<' opens a tag that is never closed with '>'", 1, 27),
        ("<DOC><DOCNO> A </DOCNO><ANNOTATION> x </DOC>", "<ANNOTATION> element is not closed", 1, 24),
    ],
)
def test_errors_are_positioned(text, message, line, column):
    with pytest.raises(InputError) as info:
        parse_corpus(text, "c.sgml")
    assert info.value.message == message
    assert (info.value.path, info.value.line, info.value.column) == ("c.sgml", line, column)


def test_text_outside_documents_is_a_warning():
    corpus = parse_corpus("junk\n<DOC><DOCNO> A </DOCNO></DOC>", "c.sgml")
    assert [str(w) for w in corpus.warnings] == ["c.sgml:1:1: warning: text outside any document is ignored"]


def test_latin1_needs_encoding(tmp_path):
    path = tmp_path / "l.sgml"
    path.write_bytes("<DOC><DOCNO> A </DOCNO>\n\u00c9gypte</DOC>".encode("latin-1"))
    with pytest.raises(InputError) as info:
        read_corpus(str(path))
    assert (info.value.line, info.value.column) == (2, 1)
    corpus = read_corpus(str(path), encoding="latin-1")
    assert "\u00c9gypte" in corpus.documents[0].text
