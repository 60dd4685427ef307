"""The signature names a GLM by its rules' digest, never by its path; `align --json` carries one."""

from __future__ import annotations

import json
import shutil

from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.text.glm import default_glm, read_glm
from tests.support import EXAMPLES

ASR = EXAMPLES / "asr"
RULES = ";; a small mapping\nthe winners => winners / [ ] __ [ ]\ncairo => kairo / [ ] __ [ ]\n"


def _score_signature(*options: str) -> str:
    result = CliRunner().invoke(
        app,
        [
            "score",
            str(ASR / "ref.tpl"),
            str(ASR / "hyp.tpl"),
            "--ref-text",
            str(ASR / "reference.sgml"),
            "--hyp-text",
            str(ASR / "asr_unsegmented.sgml"),
            "--json",
            "-",
            "-q",
            *options,
        ],
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["signature"]


def test_same_glm_file_in_two_places_gives_the_same_signature(tmp_path):
    first, second = tmp_path / "one" / "mine.glm", tmp_path / "elsewhere" / "other-name.glm"
    first.parent.mkdir()
    second.parent.mkdir()
    first.write_text(RULES, encoding="utf-8")
    shutil.copy(first, second)
    signatures = [_score_signature("--glm", str(path)) for path in (first, second)]
    assert signatures[0] == signatures[1]
    assert str(tmp_path) not in signatures[0] and "mine" not in signatures[0]
    assert f"|glm:sha1:{read_glm(str(first)).digest[:8]}|" in signatures[0]


def test_different_rules_give_different_signatures(tmp_path):
    a, b = tmp_path / "a.glm", tmp_path / "b.glm"
    a.write_text(RULES, encoding="utf-8")
    b.write_text(RULES.replace("kairo", "qairo"), encoding="utf-8")
    assert _score_signature("--glm", str(a)) != _score_signature("--glm", str(b))


def test_shipped_glm_is_named_default_with_its_digest_and_none_is_none():
    assert f"|glm:default@sha1:{default_glm().digest[:8]}|" in _score_signature()
    assert "|glm:none|" in _score_signature("--glm", "none")


def test_a_glm_that_is_not_applied_shows_as_unused_not_as_its_path(tmp_path):
    path = tmp_path / "mine.glm"
    path.write_text(RULES, encoding="utf-8")
    sample = EXAMPLES / "sample"
    result = CliRunner().invoke(
        app, ["score", str(sample / "ref.tpl"), str(sample / "hyp.tpl"), "--glm", str(path), "--json", "-", "-q"]
    )
    assert result.exit_code == 0, result.output
    signature = json.loads(result.stdout)["signature"]
    assert "|glm:unused|" in signature and str(tmp_path) not in signature


def _align(*options: str) -> dict:
    result = CliRunner().invoke(
        app, ["align", str(ASR / "reference.sgml"), str(ASR / "asr_unsegmented.sgml"), "--json", "-", "-q", *options]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_align_json_carries_the_options_that_change_the_alignment(tmp_path):
    signature = _align()["signature"]
    parts = signature.split("|")
    assert parts[0].startswith("hub4eval ") and parts[1] == "texts:aligned"
    assert {p.split(":", 1)[0] for p in parts[2:]} == {
        "keep_punctuation",
        "case_sensitive",
        "non_extractable",
        "spoken_element",
        "glm",
        "spoken_forms",
        "unsegmented",
    }
    assert f"glm:default@sha1:{default_glm().digest[:8]}" in parts
    assert _align("--case-sensitive")["signature"] != signature
    assert (
        "non_extractable:ANNOTATION,DOCNO"
        in _align("--non-extractable", "ANNOTATION", "--non-extractable", "DOCNO")["signature"]
    )
    path = tmp_path / "mine.glm"
    path.write_text(RULES, encoding="utf-8")
    custom = _align("--glm", str(path))["signature"]
    assert f"glm:sha1:{read_glm(str(path)).digest[:8]}" in custom.split("|") and str(tmp_path) not in custom


def test_align_table_ends_with_the_signature():
    result = CliRunner().invoke(app, ["align", str(ASR / "reference.sgml"), str(ASR / "asr_unsegmented.sgml")])
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n").splitlines()[-1] == _align()["signature"]
