"""Spoken forms, possessives and stacked mapping files through the whole scorer (issue #16).

Each case is a one-document reference text with written numbers, a
hypothesis text with the spoken words, and one templette per side whose
extents are computed from the texts (never typed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.scoring.noisy import noisy_content_correct
from hub4eval.text.glm import default_glm, parse_glm
from hub4eval.text.tokens import tokenize
from tests.support import ROOT

DOCID = "SYN20050704.1830.0100"


def _doc(text: str) -> str:
    return f"<DOC>\n<DOCNO> {DOCID} </DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n"


def _tpl(doc: str, fills: dict[str, str]) -> str:
    """A templette with one EVENT; each slot's fill is found in ``doc`` (offsets from its `<`)."""
    lines = [f"<EVENT-{DOCID}-1> :="]
    for slot, words in fills.items():
        start = doc.index(words)
        lines.append(f'    {slot}: "{words}" ##{start}#{start + len(words)}#')
    return "\n".join(lines) + "\n"


def _write(tmp_path: Path, ref_text: str, hyp_text: str, ref_fills: dict, hyp_fills: dict) -> dict[str, Path]:
    ref_doc, hyp_doc = _doc(ref_text), _doc(hyp_text)
    files = {
        "reference.sgml": ref_doc,
        "asr.sgml": hyp_doc,
        "ref.tpl": _tpl(ref_doc, ref_fills),
        "hyp.tpl": _tpl(hyp_doc, hyp_fills),
    }
    for name, content in files.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    return {name: tmp_path / name for name in files}


def _categories(paths: dict[str, Path], **options) -> dict[tuple[str, str], str]:
    result = score_files(
        paths["ref.tpl"],
        paths["hyp.tpl"],
        ref_text=paths["reference.sgml"],
        hyp_text=paths["asr.sgml"],
        config=ScoreConfig(**options),
    )
    return {(p.slot, p.kind): p.category for p in result.points if p.kind in ("content", "extent")}


REF = "The judge fined Acme $12,500 on March 17th, and Duke beat Navy 98-71."


def test_extent_over_a_multi_word_spoken_number_is_correct(tmp_path: Path) -> None:
    hyp = "the judge fined acme twelve thousand five hundred dollars on march seventeenth and duke beat navy ninety eight to seventy one"
    paths = _write(
        tmp_path,
        REF,
        hyp,
        {"AMOUNT": "$12,500", "DATE": "March 17th", "SCORE": "98-71"},
        {
            "AMOUNT": "twelve thousand five hundred dollars",
            "DATE": "march seventeenth",
            "SCORE": "ninety eight to seventy one",
        },
    )
    got = _categories(paths)
    # $12,500 = 12500 dollars, both tokens spanning `$12,500`; the spoken words are
    # the same two tokens spanning the five words: same columns, same tokens
    assert got == {(slot, kind): "COR" for slot in ("AMOUNT", "DATE", "SCORE") for kind in ("content", "extent")}
    # without spoken forms the written and spoken forms differ in content
    plain = _categories(paths, spoken_forms="none")
    assert plain[("AMOUNT", "content")] == plain[("SCORE", "content")] == "INC"


def test_a_number_the_recognizer_got_wrong_stays_an_error(tmp_path: Path) -> None:
    hyp = "the judge fined acme twelve thousand six hundred dollars on march seventh and duke beat navy ninety eight to seventy"
    paths = _write(
        tmp_path,
        REF,
        hyp,
        {"AMOUNT": "$12,500", "DATE": "March 17th", "SCORE": "98-71"},
        {"AMOUNT": "twelve thousand six hundred dollars", "DATE": "march seventh", "SCORE": "ninety eight to seventy"},
    )
    got = _categories(paths)
    # 12600 is not 12500, 7th is not 17th, 98 70 is not 98 71: content INC each
    assert [got[(slot, "content")] for slot in ("AMOUNT", "DATE", "SCORE")] == ["INC", "INC", "INC"]


def test_possessive_is_no_difference_in_noisy_content() -> None:
    ref = tokenize("Clinton's aides")
    assert noisy_content_correct(ref, [], tokenize("clinton aides"))[0]
    assert noisy_content_correct(tokenize("Jones"), [], tokenize("jones'"))[0]
    # a contraction is not a possessive: `it's` is not `it`
    assert not noisy_content_correct(tokenize("it's"), [], tokenize("it"))[0]
    assert not noisy_content_correct(tokenize("Clinton's"), [], tokenize("clintons"))[0]


def test_possessive_fill_through_the_scorer(tmp_path: Path) -> None:
    paths = _write(
        tmp_path,
        "President Clinton's plan passed.",
        "president clinton plan passed",
        {"WHO": "Clinton's"},
        {"WHO": "clinton"},
    )
    assert _categories(paths)[("WHO", "content")] == "COR"


def test_stacked_mapping_files_apply_in_order_and_are_named_in_the_signature(tmp_path: Path) -> None:
    # the shipped file maps `colour` to `color`; mine.glm maps `color` to `hue`:
    # the reference `colour` reaches `hue` only when both apply, in this order
    paths = _write(tmp_path, "The colour changed.", "the hue changed", {"WHAT": "colour"}, {"WHAT": "hue"})
    (tmp_path / "mine.glm").write_text("color => hue\n", encoding="utf-8")
    mine = parse_glm("color => hue\n").digest[:8]
    base = [
        "score",
        str(paths["ref.tpl"]),
        str(paths["hyp.tpl"]),
        "--ref-text",
        str(paths["reference.sgml"]),
        "--hyp-text",
        str(paths["asr.sgml"]),
        "--json",
        "-",
        "--quiet",
    ]

    def run(*glm: str) -> dict:
        result = CliRunner().invoke(app, [*base, *[a for g in glm for a in ("--glm", g)]])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    both = run("default", str(tmp_path / "mine.glm"))
    assert f"|glm:default@sha1:{default_glm().digest[:8]}+sha1:{mine}|" in both["signature"]
    assert str(tmp_path) not in both["signature"]
    assert _content(both) == "COR"
    assert _content(run(str(tmp_path / "mine.glm"), "default")) == "INC"  # mine first: `colour` is not `color` yet
    assert _content(run(str(tmp_path / "mine.glm"))) == "INC"  # a custom file alone replaces the default


def _content(data: dict) -> str:
    [point] = [p for p in data["points"] if p["kind"] == "content"]
    return point["category"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--spoken-forms", "fr"], "unknown --spoken-forms value 'fr' (hint: use en or none)"),
        (
            ["--glm", "none", "--glm", "default"],
            "--glm none cannot be combined with other mapping files (hint: give --glm none alone, or only files)",
        ),
    ],
)
def test_bad_options_are_one_line_and_exit_2_in_a_real_process(tmp_path: Path, args: list[str], message: str) -> None:
    paths = _write(tmp_path, "The colour changed.", "the hue changed", {"WHAT": "colour"}, {"WHAT": "hue"})
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "score", str(paths["ref.tpl"]), str(paths["hyp.tpl"]), *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2
    assert proc.stderr == message + "\n"


def test_align_command_takes_both_options(tmp_path: Path) -> None:
    paths = _write(tmp_path, REF, "the judge fined acme twelve thousand five hundred dollars", {}, {})
    runner = CliRunner()
    common = ["align", str(paths["reference.sgml"]), str(paths["asr.sgml"]), "--json", "-"]
    spoken = json.loads(runner.invoke(app, common).stdout)["summary"]
    plain = json.loads(runner.invoke(app, [*common, "--spoken-forms", "none"]).stdout)["summary"]
    # `$12,500` is `12500 dollars` with spoken forms: both hypothesis tokens match;
    # without, `12 500` against five words: no match there
    assert spoken["matches"] > plain["matches"]
    bad = runner.invoke(app, [*common, "--spoken-forms", "xx"])
    assert bad.exit_code == 2


def test_config_reads_one_glm_or_several() -> None:
    assert ScoreConfig(glm="mine.glm").glm == ("mine.glm",)
    assert ScoreConfig(glm=["default", "mine.glm"]).glm == ("default", "mine.glm")
    assert ScoreConfig(glm="none").glm_files == ()
    assert ScoreConfig().glm_files == ("default",)
    # spoken forms are named with the library version; none is just none
    assert "|spoken_forms:en@text2num-" in ScoreConfig().signature()
    assert "|spoken_forms:none|" in ScoreConfig(spoken_forms="none").signature()
