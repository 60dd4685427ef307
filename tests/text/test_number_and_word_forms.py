"""Number and word forms that real recognizer output showed (spec v1.2): each
pair is content- and extent-correct when the recognizer said the words.

Each case is scored end to end: a reference text with the written form, a
hypothesis text with the spoken words, one fill per side found in its text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hub4eval.api import score_files
from hub4eval.config import ScoreConfig
from hub4eval.text.spoken import join_letters, spoken_forms
from hub4eval.text.tokens import tokenize

DOC = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n{}\n</TEXT>\n</DOC>\n"

# (reference sentence, reference fill, hypothesis sentence, hypothesis fill)
PAIRS = [
    ("A 34-year-old man won.", "34-year-old man", "a thirty four year old man won", "thirty four year old man"),
    ("The race in Crans-Montana ended.", "Crans-Montana", "the race in crans montana ended", "crans montana"),
    ("It left at 7:45 p.m. today.", "7:45 p.m.", "it left at seven forty five pm today", "seven forty five pm"),
    ("It left at 7:45 p.m. today.", "7:45 p.m.", "it left at seven forty five p m today", "seven forty five p m"),
    ("It left at 7:05 a.m. today.", "7:05 a.m.", "it left at seven oh five a m today", "seven oh five a m"),
    ("The N.C.A.A. said so.", "N.C.A.A.", "the ncaa said so", "ncaa"),
    ("The N.C.A.A. said so.", "N.C.A.A.", "the n c a a said so", "n c a a"),
    ("It cost $38.25 each.", "$38.25", "it cost thirty eight dollars and twenty five cents each",
     "thirty eight dollars and twenty five cents"),
    ("It cost $38.25 each.", "$38.25", "it cost thirty eight twenty five each", "thirty eight twenty five"),
    ("It cost $0.25 each.", "$0.25", "it cost twenty five cents each", "twenty five cents"),
    ("A Boeing 737 landed.", "Boeing 737", "a boeing seven thirty seven landed", "boeing seven thirty seven"),
    ("Flight 1549 landed.", "Flight 1549", "flight fifteen forty nine landed", "flight fifteen forty nine"),
    ("Flight 1234 landed.", "Flight 1234", "flight twelve thirty four landed", "flight twelve thirty four"),
    ("Flight 2108 landed.", "Flight 2108", "flight twenty one oh eight landed", "flight twenty one oh eight"),
    ("After 9/11 it changed.", "9/11", "after nine eleven it changed", "nine eleven"),
    ("He is No. 1 now.", "No. 1", "he is number one now", "number one"),
    ("On March 3rd, 1998 it began.", "March 3rd, 1998", "on march third nineteen ninety eight it began",
     "march third nineteen ninety eight"),
]  # fmt: skip


def _write(tmp_path: Path, ref_text: str, ref_fill: str, hyp_text: str, hyp_fill: str) -> dict[str, Path]:
    ref_doc, hyp_doc = DOC.format(ref_text), DOC.format(hyp_text)
    r, h = ref_doc.index(ref_fill), hyp_doc.index(hyp_fill)
    files = {
        "ref.sgml": ref_doc,
        "hyp.sgml": hyp_doc,
        "ref.tpl": f'<E-D1-1> :=\n  A: "{ref_fill}" ##{r}#{r + len(ref_fill)}#\n',
        "hyp.tpl": f'<E-D1-1> :=\n  A: "{hyp_fill}" ##{h}#{h + len(hyp_fill)}#\n',
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return {name: tmp_path / name for name in files}


def _points(paths: dict[str, Path], **options) -> dict[str, str]:
    result = score_files(
        paths["ref.tpl"],
        paths["hyp.tpl"],
        ref_text=paths["ref.sgml"],
        hyp_text=paths["hyp.sgml"],
        config=ScoreConfig(**options),
    )
    return {p.kind: p.category for p in result.points}


@pytest.mark.parametrize(("ref_text", "ref_fill", "hyp_text", "hyp_fill"), PAIRS, ids=[f"{p[1]}/{p[3]}" for p in PAIRS])
def test_said_right_is_correct(tmp_path: Path, ref_text: str, ref_fill: str, hyp_text: str, hyp_fill: str) -> None:
    paths = _write(tmp_path, ref_text, ref_fill, hyp_text, hyp_fill)
    assert _points(paths) == {"content": "COR", "extent": "COR"}


@pytest.mark.parametrize(
    ("ref_text", "ref_fill", "hyp_text", "hyp_fill"),
    [
        ("It cost $38.25 each.", "$38.25", "it cost thirty eight dollars and twenty six cents each",
         "thirty eight dollars and twenty six cents"),
        ("A Boeing 737 landed.", "Boeing 737", "a boeing seven thirty eight landed", "boeing seven thirty eight"),
        ("It left at 7:45 p.m. today.", "7:45 p.m.", "it left at seven forty four pm today", "seven forty four pm"),
        ("The N.C.A.A. said so.", "N.C.A.A.", "the n c a said so", "n c a"),
        ("He is No. 1 now.", "No. 1", "he is number two now", "number two"),
    ],
)  # fmt: skip
def test_said_wrong_is_still_an_error(
    tmp_path: Path, ref_text: str, ref_fill: str, hyp_text: str, hyp_fill: str
) -> None:
    paths = _write(tmp_path, ref_text, ref_fill, hyp_text, hyp_fill)
    assert _points(paths)["content"] == "INC"


def _forms(text: str) -> list[str]:
    return [t.text for t in join_letters(spoken_forms(tokenize(text), text), text)]


def test_canonical_forms() -> None:
    assert _forms("$38.25") == ["38", "dollars", "25", "cents"]
    assert [t.optional for t in spoken_forms(tokenize("$38.25"), "$38.25")] == [False, True, False, True]
    assert _forms("$38.00") == _forms("thirty eight dollars") == ["38", "dollars"]
    assert _forms("$3.25 million") == ["3250000", "dollars"]  # a scaled amount keeps its decimal reading
    assert _forms("7:45") == _forms("seven forty five") == ["745"]
    assert _forms("10:30") == _forms("ten thirty") == ["10", "30"]  # two numbers of two digits: a pair
    assert _forms("seven five") == _forms("7-5") == ["7", "5"]  # a score: the second is one digit
    assert _forms("No. 1") == ["number", "1"]
    assert _forms("no one") == ["no", "one"]  # `no` said, not written with a period
    assert _forms("a U S soldier") == ["a", "us", "soldier"]  # `a` is a word of its own
    assert _forms("seven a m") == ["7", "am"]  # ... but a letter after a number


def test_spoken_forms_none_keeps_the_written_forms(tmp_path: Path) -> None:
    paths = _write(tmp_path, *PAIRS[10])  # Boeing 737 / boeing seven thirty seven
    assert _points(paths, spoken_forms="none")["content"] == "INC"
