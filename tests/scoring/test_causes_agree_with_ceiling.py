"""Causes agree with the ceiling: an error point is lost to recognition only when
the ceiling's own projection of that reference slot is an error too.

The texts (hand-made, the recognizer's errors placed on purpose): the first
mention of `Harbor Steel` was heard as `door to ration`, the second heard
right; `Mayor Whitfield` was heard as `mayor with you`.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app

REF_TEXT = (
    "Harbor Steel said on Monday that its plant in Gary will close. Mayor Whitfield "
    "said the town would fight. Shares of Harbor Steel fell in New York trading."
)
HYP_TEXT = (
    "door to ration said on monday that its plant in gary will close mayor with you "
    "said the town would fight shares of harbor steel fell in new york trading"
)
DOC = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n{}\n</TEXT>\n</DOC>\n"


def _at(doc: str, words: str, nth: int = 0) -> str:
    start = -1
    for _ in range(nth + 1):
        start = doc.index(words, start + 1)
    return f'"{words}" ##{start}#{start + len(words)}#'


def _files(tmp_path: Path, org_alternatives: bool) -> dict[str, Path]:
    ref_doc, hyp_doc = DOC.format(REF_TEXT), DOC.format(HYP_TEXT)
    org = f"    ORG: {_at(ref_doc, 'Harbor Steel')}\n"
    if org_alternatives:
        org += f"       / {_at(ref_doc, 'Harbor Steel', 1)}\n"
    ref_tpl = f"<EVENT-D1-1> :=\n{org}    WHO: {_at(ref_doc, 'Mayor Whitfield')}\n"
    # the extractor: the second mention with a word too many (content and extent INC against
    # either mention), and the mayor as the recognizer gave him
    hyp_tpl = (
        f"<EVENT-D1-1> :=\n    ORG: {_at(hyp_doc, 'harbor steel fell')}\n    WHO: {_at(hyp_doc, 'mayor with you')}\n"
    )
    paths = {}
    for name, text in {
        "reference.sgml": ref_doc,
        "asr.sgml": hyp_doc,
        "ref.tpl": ref_tpl,
        "hyp.tpl": hyp_tpl,
    }.items():
        paths[name] = tmp_path / name
        paths[name].write_text(text)
    return paths


def _causes(paths: dict[str, Path]) -> dict[tuple[str, str], tuple[str, str | None]]:
    result = score_files(
        paths["ref.tpl"], paths["hyp.tpl"], ref_text=paths["reference.sgml"], hyp_text=paths["asr.sgml"]
    )
    return {(p.slot, p.kind): (p.category, p.cause) for p in result.points}


def test_an_error_on_a_slot_the_ceiling_reaches_is_extraction(tmp_path: Path) -> None:
    causes = _causes(_files(tmp_path, org_alternatives=True))
    # ORG: INC against both mentions; the scorer pairs it with the first (ties: first),
    # which was misheard; but the ceiling takes the second mention, heard right, and
    # scores COR in content and extent: the extractor chose worse
    assert causes[("ORG", "content")] == ("INC", "extraction")
    assert causes[("ORG", "extent")] == ("INC", "extraction")
    # WHO: `mayor with you` is the best any extractor can write: the ceiling's content
    # point is INC too, so the recognizer is to blame
    assert causes[("WHO", "content")] == ("INC", "recognition")


def test_without_another_mention_the_recognizer_is_blamed(tmp_path: Path) -> None:
    # the reference names only the first (misheard) mention: the ceiling cannot reach it
    # in content (`door to ration`), so the content error is the recognizer's; its extent,
    # though, the ceiling gets right, and the extractor's extent is elsewhere: extraction
    causes = _causes(_files(tmp_path, org_alternatives=False))
    assert causes[("ORG", "content")] == ("INC", "recognition")
    assert causes[("ORG", "extent")] == ("INC", "extraction")


def test_json_and_the_cause_table_agree(tmp_path: Path) -> None:
    paths = _files(tmp_path, org_alternatives=True)
    run = CliRunner().invoke(
        app,
        [
            "score",
            str(paths["ref.tpl"]),
            str(paths["hyp.tpl"]),
            "--ref-text",
            str(paths["reference.sgml"]),
            "--hyp-text",
            str(paths["asr.sgml"]),
            "--json",
            "-",
        ],
    )
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    points = {(p["slot"], p["kind"]): p["cause"] for p in data["points"]}
    assert points[("EVENT.ORG", "content")] == "extraction"
    assert data["by_cause"]["by_slot"]["EVENT.ORG"]["recognition"] == {"INC": 0, "MIS": 0, "SPU": 0}


def test_explain_gives_the_causes_score_gives(tmp_path: Path) -> None:
    paths = _files(tmp_path, org_alternatives=True)
    args = [str(paths["ref.tpl"]), str(paths["hyp.tpl"]), "--ref-text", str(paths["reference.sgml"])]
    args += ["--hyp-text", str(paths["asr.sgml"])]
    shown = CliRunner().invoke(app, ["explain", *args, "--cause", "extraction", "--slot", "EVENT.ORG"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.count("lost to extraction") == 2 and "2 points (INC 2)" in shown.stdout
