"""`hub4eval align`: WER table, sclite-style aligned words, and a jiwer cross-check."""

from __future__ import annotations

import json

import jiwer
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.corpus import read_corpus
from hub4eval.textalign import document_tokens

from conftest import EXAMPLES

ASR = EXAMPLES / "asr"
runner = CliRunner()


def test_wer_table_and_show():
    result = runner.invoke(
        app, ["align", str(ASR / "reference.sgml"), str(ASR / "asr_unsegmented.sgml"), "--show", "--glm", "none"]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "(unsegmented)" in out
    assert "REF:" in out and "HYP:" in out and "Eval:" in out
    assert "JANEIRO" not in out  # a match stays lower case
    ref_line = next(line for line in out.splitlines() if line.startswith("REF:") and "de" in line.lower().split())
    assert " DE " in ref_line  # the substitution de/the is upper case


def test_json_counts_agree_with_jiwer_on_the_same_tokens():
    result = runner.invoke(
        app, ["align", str(ASR / "reference.sgml"), str(ASR / "asr_unsegmented.sgml"), "--glm", "none", "--json", "-"]
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
    assert "nope.sgml" in result.output and "Traceback" not in result.output
