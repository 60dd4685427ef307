"""Written numbers longer than anyone says are kept as written (no int() of 4,300 digits)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hub4eval.text.spoken import MAX_DIGITS, canonical_words
from hub4eval.text.tokens import tokenize

ROOT = Path(__file__).resolve().parents[2]
ASR = ROOT / "examples" / "asr"
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
ENV.pop("HUB4EVAL_DEBUG", None)

LONG = "1" * 5000


@pytest.mark.parametrize(
    "text",
    [
        f"in {LONG} people",  # a day after a month? (int() of the digits)
        f"July {LONG}",
        f"nineteen {LONG}",  # a year?
        f"{LONG} thousand million",  # digits times scale words
        f"{LONG}.5 million",
        "in " + ",".join(["111"] * 1700) + " people",  # thousands separators
    ],
    ids=["day", "month", "year", "scaled", "decimal", "commas"],
)
def test_a_number_of_thousands_of_digits_is_kept_as_written(text):
    assert canonical_words(text) == [(t.text, t.start, t.end) for t in tokenize(text)]


def test_the_limit_is_per_raw_word():
    assert canonical_words("1" * MAX_DIGITS + " thousand") == [("1" * MAX_DIGITS + "000", 0, MAX_DIGITS + 9)]
    assert canonical_words("1" * (MAX_DIGITS + 1) + " thousand")[1][0] == "thousand"


def test_a_long_number_in_texts_that_differ_scores(tmp_path):
    """The campaign's case: texts that differ, spoken forms on (the default), a huge number in text and fill."""
    text = (ASR / "reference.sgml").read_text(encoding="utf-8")
    at = text.index("<TEXT>") + len("<TEXT>\n")
    (tmp_path / "ref.sgml").write_text(text[:at] + LONG + " " + text[at:], encoding="utf-8")
    shutil.copy(ASR / "asr_unsegmented.sgml", tmp_path / "asr.sgml")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hub4eval",
            "align",
            str(tmp_path / "asr.sgml"),
            str(tmp_path / "ref.sgml"),
            "--hyp-text-format",
            "sgml",
        ],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode in (0, 2) and "internal error" not in proc.stderr, proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "align", str(ASR / "reference.sgml"), str(tmp_path / "ref.sgml")],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr


def test_a_long_number_in_a_fill_scores(tmp_path):
    """A fill of 5,000 digits (and a scale word) with texts that differ: scored, not an internal error."""
    hyp = (ASR / "hyp.tpl").read_text(encoding="utf-8")
    at = hyp.index('"') + 1
    (tmp_path / "hyp.tpl").write_text(hyp[:at] + LONG + " thousand " + hyp[at:], encoding="utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hub4eval",
            "score",
            str(ASR / "ref.tpl"),
            str(tmp_path / "hyp.tpl"),
            "--ref-text",
            str(ASR / "reference.sgml"),
            "--hyp-text",
            str(ASR / "asr_unsegmented.sgml"),
            "--json",
            "-",
        ],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert LONG in proc.stdout  # the fill as written, in its points
