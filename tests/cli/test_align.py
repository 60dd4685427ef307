"""`hub4eval align`: WER table, sclite-style aligned words, and a jiwer cross-check."""

from __future__ import annotations

import json
import re

import jiwer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.io.corpus import read_corpus
from hub4eval.text.tokenized import document_tokens
from tests.support import EXAMPLES

ASR = EXAMPLES / "asr"
runner = CliRunner()


def test_wer_table_and_show():
    result = runner.invoke(
        app, ["align", str(ASR / "reference.sgml"), str(ASR / "asr_unsegmented.sgml"), "--show", "--glm", "none"]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert [line for line in out.splitlines() if line.startswith("id:")] == [
        "id: ABC19980120.1830.0500",
        "id: ABC19980120.1830.0600",
    ]
    assert "REF:" in out and "HYP:" in out and "Eval:" in out
    assert "JANEIRO" not in out  # a match stays lower case
    ref_line = next(line for line in out.splitlines() if line.startswith("REF:") and "de" in line.lower().split())
    assert " DE " in ref_line  # the substitution de/the is upper case


def test_json_counts_agree_with_jiwer_on_the_same_tokens():
    result = runner.invoke(
        app,
        [
            "align",
            str(ASR / "reference.sgml"),
            str(ASR / "asr_unsegmented.sgml"),
            "--glm",
            "none",
            "--spoken-forms",
            "none",
            "--json",
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    ref = [t.text for d in read_corpus(str(ASR / "reference.sgml")).documents for t in document_tokens(d)]
    hyp = [t.text for d in read_corpus(str(ASR / "asr_unsegmented.sgml")).documents for t in document_tokens(d)]
    assert summary["ref_words"] == len(ref)
    measures = jiwer.process_words(" ".join(ref), " ".join(hyp))
    jiwer_errors = measures.substitutions + measures.deletions + measures.insertions
    # jiwer minimizes the error count, we minimize the §7 weighted cost: never fewer errors
    assert summary["errors"] >= jiwer_errors
    assert summary["errors"] == jiwer_errors  # on this text the two agree
    assert summary["ref_words"] - summary["deletions"] - summary["substitutions"] == summary["matches"]


def test_identical_texts_have_zero_wer():
    text = str(EXAMPLES / "sample" / "text.sgml")
    result = runner.invoke(app, ["align", text, text, "--json", "-"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["summary"]["wer"] == 0.0


def test_missing_file_is_exit_2():
    result = runner.invoke(app, ["align", "nope.sgml", str(ASR / "reference.sgml")])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "nope.sgml: no such file (hint: check the path and the current directory)\n"


# ------------------------------------------------------------ exact tables


def _table_rows(out: str) -> dict[str, list[str]]:
    """DOCUMENT -> [REF WORDS, MATCH, SUB, DEL, INS, WER] from the rich table."""
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.replace("┃", "│").split("│")]
        if len(cells) == 7 and cells[1].isdigit():
            rows[cells[0]] = cells[1:]
    return rows


def test_unsegmented_table_is_per_reference_document():
    result = runner.invoke(
        app,
        [
            "align",
            str(ASR / "reference.sgml"),
            str(ASR / "asr_unsegmented.sgml"),
            "--glm",
            "none",
            "--spoken-forms",
            "none",
        ],
    )
    assert result.exit_code == 0, result.output
    # Only the text inside <TEXT> is spoken (the DOCNO header is not aligned). Without the GLM:
    # story 1, 23 words: two/two, to/nil S, nothing D, de/the S, buni- D, uh D -> 18 match, 2 S, 3 D;
    # the `um` the recognizer put between the stories counts against the story before: 1 I.
    # Story 2, 13 words: hingis/hinges S -> 12 match. ALL: 36 words, 3 S 3 D 1 I = 7/36 = 19.4%.
    assert _table_rows(result.stdout) == {
        "ABC19980120.1830.0500": ["23", "18", "2", "3", "1", "26.1"],
        "ABC19980120.1830.0600": ["13", "12", "1", "0", "0", "7.7"],
        "ALL": ["36", "30", "3", "3", "1", "19.4"],
    }
    assert "unsegmented hypothesis" in result.stdout


def test_segmented_table_with_the_default_glm():
    result = runner.invoke(app, ["align", str(ASR / "reference.sgml"), str(ASR / "asr_segmented.sgml")])
    assert result.exit_code == 0, result.output
    # spoken words only (inside <TEXT>); the GLM makes `two to nothing` and `two nil` one token 2-0
    assert _table_rows(result.stdout) == {
        # spoken words only (no DOCNO); the/de, buni- and uh deleted; "two to nothing"
        # and "two nil" are both the two tokens 2 0 (spoken forms): 22 words, 3 errors
        "ABC19980120.1830.0500": ["22", "19", "1", "2", "0", "13.6"],
        # um inserted, hinges/hingis; "six three, six three" is 6 3 6 3 on both sides
        "ABC19980120.1830.0600": ["13", "12", "1", "0", "1", "15.4"],
        "ALL": ["35", "31", "2", "2", "1", "14.3"],  # 5 / 35 = 14.3 %
    }
    assert "unsegmented hypothesis" not in result.stdout


def test_forcing_unsegmented_on_a_segmented_hypothesis_gives_the_same_errors():
    args = ["align", str(ASR / "reference.sgml"), str(ASR / "asr_segmented.sgml"), "--json", "-"]
    by_docid = json.loads(runner.invoke(app, args).stdout)
    as_stream = json.loads(runner.invoke(app, [*args, "--unsegmented"]).stdout)
    assert by_docid["summary"] == as_stream["summary"]
    # story 1: the/de S, buni- D, uh D; story 2: um I, hinges/hingis S. As one stream, the `um`
    # inserted before the first word of story 2 counts against the story before it.
    assert [d["errors"] for d in by_docid["documents"]] == [3, 2]
    assert [d["errors"] for d in as_stream["documents"]] == [4, 1]
    assert [d["hyp_docid"] for d in as_stream["documents"]] == [None, None]


def test_show_prints_pra_rows():
    result = runner.invoke(app, ["align", str(ASR / "reference.sgml"), str(ASR / "asr_segmented.sgml"), "--show"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("id:")] == [
        "id: ABC19980120.1830.0500",
        "id: ABC19980120.1830.0600",
    ]
    ref = [line for line in lines if line.startswith("REF:")]
    hyp = [line for line in lines if line.startswith("HYP:")]
    evals = [line for line in lines if line.startswith("Eval:")]
    assert ref[0].split()[1:4] == ["in", "soccer", "brazil"]  # matches stay lower case; no DOCNO words
    first_ref, first_hyp = ref[0].split(), hyp[0].split()
    assert "BUNI-" in first_ref and "***" in first_hyp and "THE" in first_hyp and "DE" in first_ref
    assert ref[1].split()[1] == "***" and hyp[1].split()[1] == "UM"  # an insertion
    # the columns line up: each REF cell starts where its HYP cell does, and so do Eval labels
    for r, h, e in zip(ref, hyp, evals, strict=False):
        starts = [m.start() for m in re.finditer(r"\S+", r)]
        assert starts == [m.start() for m in re.finditer(r"\S+", h)]
        assert {m.start() for m in re.finditer(r"\S+", e)} <= set(starts)
    assert evals[0].split()[1:] == ["S", "D", "D"]
    assert evals[1].split()[1:] == ["I", "S"]


def test_one_sided_documents_are_rows_and_warnings(tmp_path):
    (tmp_path / "r.sgml").write_text("<DOC><DOCNO> A </DOCNO> one two </DOC>\n<DOC><DOCNO> B </DOCNO> three </DOC>\n")
    (tmp_path / "h.sgml").write_text("<DOC><DOCNO> A </DOCNO> one two </DOC>\n<DOC><DOCNO> C </DOCNO> four </DOC>\n")
    result = runner.invoke(app, ["align", str(tmp_path / "r.sgml"), str(tmp_path / "h.sgml")])
    assert result.exit_code == 0, result.output
    assert _table_rows(result.stdout) == {
        "A": ["3", "3", "0", "0", "0", "0.0"],
        "B": ["2", "0", "0", "2", "0", "100.0"],
        "C (hypothesis only)": ["0", "0", "0", "0", "2", "-"],
        "ALL": ["5", "3", "0", "2", "2", "80.0"],
    }
    assert "document B of the reference text is not in the hypothesis text" in result.stderr
    assert "document C of the hypothesis text is not in the reference text" in result.stderr


def test_corpus_options(tmp_path):
    (tmp_path / "r.sgml").write_bytes(
        "<STORY><ID> s1 </ID> Égypte won <NOTE> not text </NOTE> the cup </STORY>\n".encode("latin-1")
    )
    (tmp_path / "h.sgml").write_bytes("<STORY><ID> s1 </ID> egypt won the cup </STORY>\n".encode("latin-1"))
    args = ["align", str(tmp_path / "r.sgml"), str(tmp_path / "h.sgml"), "--glm", "none"]
    bad = runner.invoke(app, args)
    assert bad.exit_code == 2 and "latin-1" in bad.stderr and "r.sgml:1:" in bad.stderr
    result = runner.invoke(
        app,
        [
            *args,
            "--encoding",
            "latin-1",
            "--doc-tag",
            "STORY",
            "--docno-tag",
            "ID",
            "--non-extractable",
            "note",
            "--json",
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    [document] = json.loads(result.stdout)["documents"]
    assert document["ref_docid"] == "s1"
    assert (document["ref_words"], document["substitutions"], document["matches"]) == (5, 1, 4)  # égypte/egypt


def test_directory_and_bad_corpus_are_one_line(tmp_path):
    result = runner.invoke(app, ["align", str(tmp_path), str(ASR / "reference.sgml")])
    assert result.exit_code == 2 and "directory" in result.stderr
    (tmp_path / "dup.sgml").write_text("<DOC><DOCNO> A </DOCNO></DOC>\n<DOC><DOCNO> A </DOCNO></DOC>\n")
    result = runner.invoke(app, ["align", str(tmp_path / "dup.sgml"), str(ASR / "reference.sgml")])
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "dup.sgml:2:6: duplicate DOCNO A (first at line 1) (hint: every document of a corpus needs its own identifier)"
    )
    assert len(result.stderr.strip().splitlines()) == 1


def test_every_option_has_help():
    import typer.main

    command = typer.main.get_command(app).commands["align"]
    names = {param.name for param in command.params}
    assert {"show", "unsegmented", "glm", "encoding", "doc_tag", "docno_tag", "non_extractable"} <= names
    for param in command.params:
        assert getattr(param, "help", None), param.name


# ------------------------------------------------------------ against jiwer

_VOCAB = ("egypt", "won", "the", "cup", "south", "africa", "h-", "heart", "part", "a")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_VOCAB), max_size=15), st.lists(st.sampled_from(_VOCAB), max_size=15))
def test_never_fewer_errors_than_jiwer(ref, hyp):
    """jiwer minimizes the error count; §7.2 minimizes a weighted cost, so never fewer errors."""
    from hub4eval.text.align import align_words

    ours = align_words(ref, hyp)
    if not ref:
        assert ours.errors == len(hyp)
        return
    if not hyp:
        assert ours.errors == len(ref)
        return
    theirs = jiwer.process_words(" ".join(ref), " ".join(hyp))
    assert ours.errors >= theirs.substitutions + theirs.deletions + theirs.insertions


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(_VOCAB), min_size=1, max_size=15), st.data())
def test_equal_to_jiwer_on_pure_edits(ref, data):
    """Only deletions, only insertions, or only substitutions: both count the same errors."""
    from hub4eval.text.align import align_words

    kind = data.draw(st.sampled_from(["delete", "insert", "substitute"]))
    positions = sorted(data.draw(st.sets(st.integers(0, len(ref) - 1))))
    if kind == "delete":
        hyp = [w for i, w in enumerate(ref) if i not in positions]
    elif kind == "insert":
        hyp = [x for i, w in enumerate(ref) for x in ((["zzz"] if i in positions else []) + [w])]
    else:
        hyp = ["qqq" if i in positions else w for i, w in enumerate(ref)]
    ours = align_words(ref, hyp)
    assert ours.errors == len(positions)
    if hyp:
        theirs = jiwer.process_words(" ".join(ref), " ".join(hyp))
        assert ours.errors == theirs.substitutions + theirs.deletions + theirs.insertions
        if kind == "substitute":
            assert (ours.substitutions, theirs.substitutions) == (len(positions), len(positions))


def test_reference_without_documents_is_an_error(tmp_path):
    raw = tmp_path / "asr.txt"
    raw.write_text("egypt won the cup\n")
    result = runner.invoke(app, ["align", str(raw), str(ASR / "reference.sgml")])
    assert result.exit_code == 2
    assert "the reference text has no document tags" in result.output and "Traceback" not in result.output
