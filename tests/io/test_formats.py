"""Text corpora in ctm, trn, stm and plain text (hub4eval.io.formats) and `hub4eval text`.

Per format: a small file, the corpus it becomes (DOCIDs, each document's text
and where it starts in the corpus text), a round trip through `hub4eval text`,
malformed lines as one-line errors; then the ASR example scored with ctm, trn
and plain-text hypotheses built from asr_unsegmented.sgml's words gives the
same points as the SGML file itself.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.errors import InputError, UsageError
from hub4eval.io.corpus import parse_corpus
from hub4eval.io.formats import (
    corpus_text,
    parse_text_corpus,
    read_text_corpus,
    text_format_for,
)
from tests.support import EXAMPLES, ROOT

ASR = EXAMPLES / "asr"
runner = CliRunner()

CTM = """;; recognizer output
rec1 1 0.00 0.25 In
rec1 1 0.25 0.40 soccer 0.91
rec1 1 0.70 0.50 Brazil
rec2 1 3.10 0.30 um 0.20
rec2 1 3.40 0.50 tennis
"""
TRN = """in soccer brazil (story1)
beat chile (story1)
(story2)
;; a comment
um in tennis (story3)
"""
STM = """;; category "0" "" ""
rec1 1 spk1 0.00 2.00 <o,f0,male> in soccer brazil
rec1 1 spk1 2.00 3.00 ignore_time_segment_in_scoring
rec1 1 spk2 3.00 4.50 beat chile
rec2 A spk3 0.00 1.00 um
rec2 B spk4 0.00 1.00 in tennis
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _docs(corpus) -> list[tuple[str | None, str, int]]:
    return [(d.docid, d.text, d.offset) for d in corpus.documents]


# ----------------------------------------------------------------- corpora


def test_ctm_one_document_per_recording_words_joined_by_spaces():
    corpus = parse_text_corpus(CTM, "a.ctm", "ctm")
    # "In soccer Brazil" is 16 characters, then "\n": rec2 starts at 17
    assert _docs(corpus) == [("rec1", "In soccer Brazil", 0), ("rec2", "um tennis", 17)]
    assert corpus.segmented
    assert [d.line for d in corpus.documents] == [2, 5]
    assert corpus_text(corpus) == "In soccer Brazil\num tennis\n"


def test_ctm_recording_with_two_channels_is_two_documents():
    corpus = parse_text_corpus("f A 0 1 hello\nf B 0 1 there\nf A 1 1 world\ng 1 0 1 x\n", "b.ctm", "ctm")
    assert _docs(corpus) == [("f-A", "hello world", 0), ("f-B", "there", 12), ("g", "x", 18)]


def test_trn_one_document_per_utterance_id_consecutive_lines_joined():
    corpus = parse_text_corpus(TRN, "a.trn", "trn")
    # story1: "in soccer brazil" (16) + "\n" + "beat chile" (10) = 27 characters; story2
    # is empty and starts at 28; story3 at 29
    assert _docs(corpus) == [
        ("story1", "in soccer brazil\nbeat chile", 0),
        ("story2", "", 28),
        ("story3", "um in tennis", 29),
    ]
    assert corpus_text(corpus) == "in soccer brazil\nbeat chile\n\num in tennis\n"


def test_trn_id_is_the_last_parentheses():
    corpus = parse_text_corpus("a (b) c (utt-1)\r\n", "c.trn", "trn")
    assert _docs(corpus) == [("utt-1", "a (b) c", 0)]


def test_stm_one_document_per_recording_one_line_per_segment():
    corpus = parse_text_corpus(STM, "a.stm", "stm")
    # labels and the ignored segment are not text; rec2 has two channels
    assert _docs(corpus) == [
        ("rec1", "in soccer brazil\nbeat chile", 0),
        ("rec2-A", "um", 28),
        ("rec2-B", "in tennis", 31),
    ]


def test_txt_is_one_unsegmented_document_of_the_whole_file():
    text = "<s> raw text </s>\n  kept as is\n"
    corpus = parse_text_corpus(text, "a.txt", "txt")
    assert not corpus.segmented
    assert _docs(corpus) == [(None, text, 0)]
    assert corpus.documents[0].extractable == ((0, len(text)),)


def test_sgml_is_read_as_before():
    text = (ASR / "reference.sgml").read_text()
    assert read_text_corpus(str(ASR / "reference.sgml")) == parse_corpus(text)


@pytest.mark.parametrize(
    ("name", "given", "expected"),
    [
        ("x.ctm", None, "ctm"),
        ("x.TRN", None, "trn"),
        ("x.stm", None, "stm"),
        ("x.txt", None, "txt"),
        ("x.sgml", None, "sgml"),
        ("x.sgm", None, "sgml"),
        ("x.hyp", None, "sgml"),
        ("x.ctm", "trn", "trn"),
        ("x.ctm", "SGML", "sgml"),
    ],
)
def test_format_by_extension_or_option(name, given, expected):
    assert text_format_for(name, given) == expected


def test_unknown_format_is_a_usage_error_listing_the_choices():
    with pytest.raises(UsageError, match=r"unknown --text-format value 'ctn'.*use sgml, ctm, trn, stm or txt"):
        text_format_for("x.ctm", "ctn")


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["r1", "r2", "r3"]),
            st.lists(st.text("abcé'-", min_size=1, max_size=6), max_size=4),
        ),
        max_size=12,
    )
)
@settings(max_examples=150, deadline=None)
def test_every_word_is_at_its_offset(lines):
    """trn and ctm: every word of the file is found, in order, at the offsets of the built text."""
    # trn with consecutive lines of one id merged, so ids never come back
    merged: list[tuple[str, list[str]]] = []
    for docid, words in lines:
        if merged and merged[-1][0] == docid:
            merged[-1][1].extend(words)
        elif docid not in [d for d, _ in merged]:
            merged.append((docid, list(words)))
    trn = "".join(f"{' '.join(words)} ({docid})\n" for docid, words in merged)
    ctm = "".join(f"{docid} 1 0.0 0.1 {word}\n" for docid, words in merged for word in words)
    for text, form in ((trn, "trn"), (ctm, "ctm")):
        corpus = parse_text_corpus(text, "x", form)
        whole = corpus_text(corpus)
        for document, (docid, words) in zip(
            corpus.documents, [m for m in merged if m[1] or form == "trn"], strict=True
        ):
            assert document.docid == docid
            found = [(m.group(0), m.start()) for m in re.finditer(r"\S+", document.text)]
            assert [w for w, _ in found] == words
            for word, start in found:  # a document offset + the corpus offset = the corpus text
                assert whole[document.offset + start : document.offset + start + len(word)] == word


# ----------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "a.ctm",
            "rec1 1 0.0 0.2 in\nrec1 1 0.2 soccer\n",
            "a.ctm:2:18: a ctm line has 5 or 6 fields, found 4 (hint: a line reads "
            "FILE CHANNEL BEGIN DURATION WORD [CONFIDENCE], separated by blanks)",
        ),
        (
            "a.ctm",
            "rec1 1 0.0 0.2 in 0.5 extra\n",
            "a.ctm:1:23: a ctm line has 5 or 6 fields, found 7 (hint: a line reads "
            "FILE CHANNEL BEGIN DURATION WORD [CONFIDENCE], separated by blanks)",
        ),
        (
            "a.ctm",
            "rec1 1 zero 0.2 in\n",
            "a.ctm:1:8: BEGIN time 'zero' is not a number (hint: a line reads "
            "FILE CHANNEL BEGIN DURATION WORD [CONFIDENCE])",
        ),
        (
            "a.trn",
            "hello world (u1)\nno id here\n",
            "a.trn:2:11: a trn line ends with its utterance id in parentheses "
            "(hint: write the words, then the id: 'the words here (speaker1-utt001)')",
        ),
        (
            "a.trn",
            "a (u1)\nb (u2)\nc (u1)\n",
            "a.trn:3:3: utterance id u1 comes back after other ids (first at line 1) "
            "(hint: keep the lines of one utterance together, or give each its own id)",
        ),
        (
            "a.trn",
            "a ( )\n",
            "a.trn:1:3: utterance id '( )' is empty or holds blanks (hint: an utterance id is one word, "
            "e.g. (speaker1-utt001))",
        ),
        (
            "a.stm",
            "rec1 1 spk 0.0\n",
            "a.stm:1:1: an stm line has at least 5 fields, found 4 (hint: a line reads "
            "FILE CHANNEL SPEAKER BEGIN END [<LABELS>] TRANSCRIPT, separated by blanks)",
        ),
        (
            "a.stm",
            "rec1 1 spk 2.0 1.5 words\n",
            "a.stm:1:16: segment ends (1.5) before it begins (2.0) "
            "(hint: END is the time the segment ends, not its duration)",
        ),
        (
            "a.stm",
            "rec1 1 spk 0.0 1.0 <o,f0 words\n",
            "a.stm:1:20: '<' opens a label that is never closed with '>' "
            "(hint: labels are written <o,f0,male> before the transcript)",
        ),
    ],
)
def test_malformed_line_is_one_positioned_error(tmp_path, monkeypatch, name, text, message):
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(text)
    with pytest.raises(InputError) as caught:
        read_text_corpus(name)
    assert str(caught.value) == message
    result = runner.invoke(app, ["text", name])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == message + "\n"


def test_unknown_document_and_unknown_format_exit_2(tmp_path):
    path = _write(tmp_path, "a.trn", TRN)
    result = runner.invoke(app, ["text", str(path), "--doc", "story9"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"{path}: no document story9 in the corpus (hint: its documents are story1, story2, story3)\n"
    )
    for command in (["text", str(path)], ["align", str(path), str(path)]):
        result = runner.invoke(app, [*command, "--text-format", "ctn"])
        assert result.exit_code == 2, command
        assert result.stderr == (
            "invalid value for '--text-format': 'ctn' is not one of 'sgml', 'ctm', 'trn', 'stm', 'txt' "
            f"(hint: see hub4eval {command[0]} --help)\n"
        )
    # upper case is accepted like the extensions
    assert runner.invoke(app, ["text", str(path), "--text-format", "TRN"]).stdout == corpus_text(
        read_text_corpus(str(path))
    )


# ----------------------------------------------------------------- hub4eval text


@pytest.mark.parametrize(("name", "text"), [("a.ctm", CTM), ("a.trn", TRN), ("a.stm", STM)])
def test_text_command_prints_the_corpus_text_and_each_document(tmp_path, name, text):
    path = _write(tmp_path, name, text)
    corpus = read_text_corpus(str(path))
    result = runner.invoke(app, ["text", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == corpus_text(corpus)
    for document in corpus.documents:
        one = runner.invoke(app, ["text", str(path), "--doc", document.docid])
        assert one.stdout == document.text  # nothing added, not even a newline
        assert result.stdout[document.offset : document.offset + len(document.text)] == document.text
    # the printed text, read back as plain text, is one document with the same words
    again = read_text_corpus(str(_write(tmp_path, "again.txt", result.stdout)))
    assert again.documents[0].text.split() == [w for d in corpus.documents for w in d.text.split()]


def test_text_command_on_sgml_prints_the_file_and_its_documents():
    path = ASR / "reference.sgml"
    result = runner.invoke(app, ["text", str(path)])
    assert result.stdout == path.read_text()
    one = runner.invoke(app, ["text", str(path), "--doc", "ABC19980120.1830.0600"])
    assert one.stdout.startswith("<DOC>") and one.stdout.endswith("</DOC>")
    assert one.stdout == parse_corpus(path.read_text()).document("ABC19980120.1830.0600").text


def test_text_command_in_a_real_process(tmp_path):
    path = _write(tmp_path, "words.ctm", "x 1 0 1 héllo\nx 1 1 1 wörld\n")
    done = subprocess.run(
        [sys.executable, "-m", "hub4eval", "text", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8") == "héllo wörld\n"
    bad = _write(tmp_path, "bad.ctm", "x 1 0 héllo\n")
    done = subprocess.run(
        [sys.executable, "-m", "hub4eval", "text", str(bad)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"{bad}:1:12: a ctm line has 5 or 6 fields")
    assert "Traceback" not in done.stderr


# ----------------------------------------------------------------- scoring with ctm/trn/txt hypotheses


def _sgml_words() -> list[tuple[str, int, int]]:
    """(word, start, end) of asr_unsegmented.sgml's words, offsets from the start of the file."""
    corpus = parse_corpus((ASR / "asr_unsegmented.sgml").read_text())
    [document] = corpus.documents
    return [
        (m.group(0), a + m.start(), a + m.end())
        for a, b in document.extractable
        for m in re.finditer(r"\S+", document.text[a:b])
    ]


def _sentences() -> list[list[str]]:
    """The words of each <s> sentence of asr_unsegmented.sgml."""
    text = (ASR / "asr_unsegmented.sgml").read_text()
    return [s.split() for s in re.findall(r"<s>(.*?)</s>", text)]


def _moved_hyp(tmp_path: Path, built_text: str) -> Path:
    """hyp.tpl with every extent moved from the SGML file's offsets to ``built_text``'s."""
    old = _sgml_words()
    new = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"\S+", built_text)]
    assert [w for w, _, _ in old] == [w for w, _, _ in new]
    starts = {s: s2 for (_, s, _), (_, s2, _) in zip(old, new, strict=True)}
    ends = {e: e2 for (_, _, e), (_, _, e2) in zip(old, new, strict=True)}
    text = re.sub(
        r"##(\d+)#(\d+)#",
        lambda m: f"##{starts[int(m.group(1))]}#{ends[int(m.group(2))]}#",
        (ASR / "hyp.tpl").read_text(),
    )
    return _write(tmp_path, "hyp.tpl", text)


def _points(result) -> list[tuple]:
    """Every point, the hypothesis fill without its extent (its offsets differ by construction)."""
    return sorted(
        (p.slot, p.kind, p.category, p.reason, str(p.ref), re.sub(r" ##[0-9#]+", "", str(p.hyp))) for p in result.points
    )


@pytest.mark.parametrize("form", ["ctm", "trn", "txt"])
def test_asr_example_scores_the_same_from_ctm_trn_and_plain_text(tmp_path, form):
    sentences = _sentences()
    if form == "ctm":
        content = "".join(f"asr 1 {k * 0.3:.2f} 0.30 {w}\n" for k, w in enumerate(w for s in sentences for w in s))
    elif form == "trn":
        content = "".join(f"{' '.join(s)} (asr_{k})\n" for k, s in enumerate(sentences))
    else:
        content = "\n".join(" ".join(s) for s in sentences)
    hyp_text = _write(tmp_path, f"hyp.{form}", content)
    built = corpus_text(read_text_corpus(str(hyp_text)), source=content if form == "txt" else None)
    hyp_tpl = _moved_hyp(tmp_path, built)
    expected = score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )
    from hub4eval.config import ScoreConfig

    # ctm and trn name their documents (asr, asr_0...): the stream is read unsegmented as the SGML file is
    config = ScoreConfig(unsegmented=True if form != "txt" else None)
    got = score_files(ASR / "ref.tpl", hyp_tpl, ref_text=ASR / "reference.sgml", hyp_text=hyp_text, config=config)
    assert _points(got) == _points(expected)
    assert got.total == expected.total
    assert (got.total.cor, got.total.inc, got.total.mis, got.total.spu) == (
        18,
        2,
        2,
        3,
    )  # tests/end_to_end/test_asr_example.py
    assert got.wer == expected.wer


def test_cli_scores_a_ctm_hypothesis_given_by_option(tmp_path):
    sentences = _sentences()
    content = "".join(f"asr 1 {k}.0 1.0 {w}\n" for k, w in enumerate(w for s in sentences for w in s))
    hyp_text = _write(tmp_path, "hyp.words", content)  # unknown extension: --hyp-text-format says ctm
    hyp_tpl = _moved_hyp(tmp_path, " ".join(w for s in sentences for w in s) + "\n")
    args = ["score", str(ASR / "ref.tpl"), str(hyp_tpl), "--ref-text", str(ASR / "reference.sgml")]
    result = runner.invoke(app, [*args, "--hyp-text", str(hyp_text), "--hyp-text-format", "ctm", "--unsegmented"])
    assert result.exit_code == 0, result.output
    assert "F = 80.0  SER = 31.8  REC = 81.8  PRE = 78.3" in result.stdout  # the SGML hypothesis's score
    wrong = runner.invoke(app, [*args, "--hyp-text", str(hyp_text), "--unsegmented"])  # read as SGML: no words
    assert "F = 80.0" not in wrong.stdout


def test_library_facade_reads_formats_and_aligns_like_sclite(tmp_path):
    import hub4eval

    corpus = hub4eval.read_text_corpus(str(_write(tmp_path, "a.ctm", CTM)))
    assert hub4eval.corpus_text(corpus) == "In soccer Brazil\num tennis\n"
    # a b c / a c d: C D C I costs 3 + 3 = 6, less than C S S (4 + 4 = 8)
    assert hub4eval.sclite_align("a b c".split(), "a c d".split()).op_string() == "CDCI"
