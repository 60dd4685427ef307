"""A hyphenated word is its parts everywhere texts are compared: the tokens
(alignment and noisy content), clean content, and the WER; a fragment (`buni-`)
stays a fragment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.text.tokens import tokenize
from tests.support.scoring import cats, run  # noqa: E402

DOC = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n{}\n</TEXT>\n</DOC>\n"


@pytest.mark.parametrize(
    ("written", "parts"),
    [
        ("34-year-old", ["34", "year", "old"]),
        ("Crans-Montana", ["crans", "montana"]),
        ("well-known", ["well", "known"]),
        ("buni- Bunting", ["buni-", "bunting"]),  # a fragment keeps its hyphen
        ("Glen Buni-, Bunting", ["glen", "buni-", "bunting"]),
    ],
)
def test_tokens_are_the_parts(written: str, parts: list[str]) -> None:
    assert [t.text for t in tokenize(written)] == parts


def test_clean_content_reads_the_parts() -> None:
    ref = '<E-D-1> :=\n  A: "Crans-Montana"\n'
    assert cats(run(ref, '<E-D-1> :=\n  A: "crans montana"\n')) == ["COR"]


def _write(tmp_path: Path, ref_text: str, hyp_text: str, ref_fill: str, hyp_fill: str) -> dict[str, Path]:
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


@pytest.mark.parametrize(
    ("ref_text", "hyp_text", "ref_fill", "hyp_fill"),
    [
        ("A 34-year-old man won.", "a thirty four year old man won", "34-year-old man", "thirty four year old man"),
        ("The race in Crans-Montana ended.", "the race in crans montana ended", "Crans-Montana", "crans montana"),
    ],
)
def test_content_extent_and_wer_through_the_scorer(
    tmp_path: Path, ref_text: str, hyp_text: str, ref_fill: str, hyp_fill: str
) -> None:
    paths = _write(tmp_path, ref_text, hyp_text, ref_fill, hyp_fill)
    result = score_files(paths["ref.tpl"], paths["hyp.tpl"], ref_text=paths["ref.sgml"], hyp_text=paths["hyp.sgml"])
    assert {p.kind: p.category for p in result.points} == {"content": "COR", "extent": "COR"}
    assert result.wer is not None and result.wer["wer"] == 0.0
    aligned = CliRunner().invoke(app, ["align", str(paths["ref.sgml"]), str(paths["hyp.sgml"]), "--json", "-"])
    assert aligned.exit_code == 0, aligned.output
    assert json.loads(aligned.stdout)["summary"]["wer"] == 0.0
