"""ctm and stm recordings become documents with unambiguous names; a NUL byte is an error at its place."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hub4eval.errors import InputError
from hub4eval.io.formats import parse_text_corpus

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
ENV.pop("HUB4EVAL_DEBUG", None)

CTM_CLASH = "a 1 0 1 hello\na 2 0 1 world\na-1 1 0 1 other\n"
STM_CLASH = "a-2 1 s 0 1 first\na 1 s 0 1 hello\na 2 s 0 1 world\n"


def test_a_ctm_clash_is_an_error_naming_both_recordings():
    with pytest.raises(InputError) as caught:
        parse_text_corpus(CTM_CLASH, "x.ctm", "ctm")
    assert str(caught.value) == (
        "x.ctm:3:1: two recordings would both be document a-1: FILE a CHANNEL 1 (line 1) and "
        "FILE a-1 CHANNEL 1 (line 3) (hint: a recording on several channels is named FILE-CHANNEL; "
        "rename one of the two recordings)"
    )


def test_an_stm_clash_is_an_error_at_the_later_recording():
    with pytest.raises(InputError) as caught:
        parse_text_corpus(STM_CLASH, "x.stm", "stm")
    # a-2 (line 1) is one channel, so it is document a-2; a's channel 2 (line 3) would be a-2 too
    assert str(caught.value).startswith(
        "x.stm:3:1: two recordings would both be document a-2: FILE a-2 CHANNEL 1 (line 1) and FILE a CHANNEL 2"
    )


def test_names_without_a_clash_are_unchanged():
    corpus = parse_text_corpus("a 1 0 1 hello\na 2 0 1 world\nb 1 0 1 other\n", "x.ctm", "ctm")
    assert [d.docid for d in corpus.documents] == ["a-1", "a-2", "b"]


@pytest.mark.parametrize(
    ("form", "text", "column"),
    [
        ("ctm", "a\0b 1 0 1 hello\n", 2),
        ("ctm", "a 1\0 0 1 hello\n", 4),
        ("stm", "ok 1 s 0 1 fine\nrec\0 1 s 0 1 hello\n", 4),
        ("trn", "hello (u\0)\n", 9),
    ],
)
def test_a_nul_byte_is_an_error_at_its_position(form, text, column):
    with pytest.raises(InputError) as caught:
        parse_text_corpus(text, f"x.{form}", form)
    line = text[: text.index("\0")].count("\n") + 1
    assert str(caught.value).startswith(f"x.{form}:{line}:{column}: a NUL byte (\\x00) in a {form} file")


@pytest.mark.parametrize(("name", "content"), [("clash.ctm", CTM_CLASH), ("nul.stm", "a\0b 1 s 0 1 hello\n")])
def test_end_to_end_one_line_and_exit_2(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    for args in (["text", str(path)], ["align", str(path), str(path)]):
        proc = subprocess.run(
            [sys.executable, "-m", "hub4eval", *args], env=ENV, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 2, proc.stderr
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(
            f"{path}:1:" if "nul" in name else f"{path}:3:1:"
        )
