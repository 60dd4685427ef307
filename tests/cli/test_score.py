"""End-to-end `hub4eval score`: options, reports, exit codes (runner and subprocess)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hub4eval.cli import app
from tests.support import EXAMPLES

CLEAN = EXAMPLES / "clean"
SAMPLE = EXAMPLES / "sample"
runner = CliRunner()


def score_json(*args: str) -> dict:
    result = runner.invoke(app, ["score", *args, "--json", "-"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_to_stdout_is_the_only_output():
    data = score_json(str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"))
    assert data["summary"]["COR"] == 13
    assert data["summary"]["F"] == 26 / 51


def test_compare_content_only_halves_text_points():
    both = score_json(str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"))
    content = score_json(str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--compare", "content")
    assert set(content["by_kind"]) == {"pointer", "content"}
    assert content["by_kind"]["content"] == both["by_kind"]["content"]


def test_beta_changes_f_only():
    data = score_json(str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--beta", "2")
    summary = data["summary"]
    rec, pre = summary["REC"], summary["PRE"]
    assert abs(summary["F"] - 5 * pre * rec / (4 * pre + rec)) < 1e-12


def test_unscored_slot_option_replaces_the_default():
    data = score_json(
        str(SAMPLE / "ref.tpl"),
        str(SAMPLE / "hyp.tpl"),
        "--unscored-slot",
        "DATE",
        "--unscored-slot",
        "COMMENT",
    )
    assert "SPORTS_EVENT.DATE" not in data["by_slot"]
    assert "TEMPLATE.DOC_NR" in data["by_slot"]


def test_premodifiers_option():
    data = score_json(str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--premodifiers", "")
    # "the next day" vs "next day": the minimal string (whole) is no longer inside the hypothesis
    assert data["by_slot"]["SPORTS_EVENT.DATE"]["INC"] == 1


def test_table_headline_and_signature():
    result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.startswith("SPORTS_EVENT.WINNER") for line in lines)
    assert any(line.startswith("ALL") and " 31 " in line for line in lines)
    # SER = (INC + MIS + SPU) / POS = (2 + 16 + 5) / 31 = 74.2%
    assert "F = 51.0  SER = 74.2  REC = 41.9  PRE = 65.0" in result.stdout
    assert "hub4eval 0.1.0|texts:none|compare:both" in result.stdout


def test_by_document_sorted_worst_first():
    result = runner.invoke(
        app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--by", "document", "--sort", "F"]
    )
    assert result.exit_code == 0, result.output
    docs = [line.split()[0] for line in result.stdout.splitlines() if line[:3] in ("ABC", "CNN", "VOA")]
    assert docs == ["ABC19980113.1830.0200", "CNN19980112.1600.0100", "VOA19980111.2300.0414"]


def test_show_mapping_lists_pairs_with_f():
    result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--show-mapping"])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.startswith("<SPORTS_EVENT-VOA19980111.2300.0414-2>"))
    assert row.split()[-1] == "80.0"


def test_csv_rows(tmp_path):
    out = tmp_path / "s.csv"
    result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--csv", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    winner = next(r for r in rows if r["name"] == "SPORTS_EVENT.WINNER")
    assert (winner["COR"], winner["MIS"], winner["SPU"]) == ("4", "2", "2")
    assert rows[-1]["level"] == "all" and rows[-1]["COR"] == "13"


def test_bad_option_values_exit_2_with_one_line():
    for args, message in (
        (
            ["--compare", "words"],
            "invalid value for '--compare': 'words' is not one of 'both', 'content', 'extent' "
            "(hint: see hub4eval score --help)",
        ),
        (["--beta", "0"], "--beta must be positive and finite, got 0.0 (hint: e.g. --beta 1)"),
        (
            ["--by", "slot"],
            "invalid value for '--by': 'slot' is not one of 'document', 'type' (hint: see hub4eval score --help)",
        ),
        (["--min-map-f", "1.5"], "--min-map-f must be in [0, 1), got 1.5"),
    ):
        result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), *args])
        assert result.exit_code == 2, (args, result.output)
        assert (result.stdout, result.stderr) == ("", message + "\n")


def test_missing_file_is_one_line_exit_2(tmp_path):
    result = runner.invoke(app, ["score", str(tmp_path / "nope.tpl"), str(CLEAN / "hyp.tpl")])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"{tmp_path / 'nope.tpl'}: no such file (hint: check the path and the current directory)\n"


@pytest.mark.parametrize("columns", [None, "80"])
def test_real_subprocess_scores_the_sample(columns):
    # piped: the width is $COLUMNS when set (readline sets it in some terminals), else 160;
    # at 80 columns the headline's counts go on a line of their own
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"} | ({"COLUMNS": columns} if columns else {})
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "score", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl")],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    # the sample's templettes carry extents and no text is given: said once
    assert proc.stderr == (
        "warning: no texts given: extents are compared as raw character offsets (give --ref-text, and "
        "--hyp-text for ASR output, to check them against the text and to align different texts)\n"
    )
    # the procedure's sample: 13 points (6 content, 6 extent, 1 pointer), all correct
    metrics, counts = (
        "F = 100.0  SER = 0.0  REC = 100.0  PRE = 100.0",
        "(POS 13  ACT 13  COR 13  INC 0  MIS 0  SPU 0  OPT 0  REM 0)",
    )
    lines = proc.stdout.splitlines()
    if columns is None:
        assert f"{metrics}  {counts}" in lines
    else:
        assert lines[lines.index(metrics) + 1] == counts
    all_row = next(line for line in proc.stdout.splitlines() if line.startswith("ALL "))
    assert all_row.replace("│", " ").split()[1:9] == ["13", "13", "13", "0", "0", "0", "0", "0"]
    assert proc.stdout.rstrip().splitlines()[-1].startswith("hub4eval 0.1.0|texts:none|compare:both|")


def test_signature_names_every_option_and_the_glm_digest():
    from dataclasses import fields

    from hub4eval.config import ScoreConfig

    signature = ScoreConfig().signature(texts="aligned", glm_digest="0123456789abcdef")
    for field in fields(ScoreConfig):
        assert f"|{field.name}:" in signature
    assert "glm:default@sha1:01234567" in signature


def test_sort_by_an_error_rate_puts_the_highest_first():
    result = runner.invoke(
        app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--by", "document", "--sort", "UND"]
    )
    assert result.exit_code == 0, result.output
    docs = [line.split()[0] for line in result.stdout.splitlines() if line[:3] in ("ABC", "CNN", "VOA")]
    # UND: CNN 100.0, VOA 16.7, ABC undefined (no reference points): last
    assert docs == ["CNN19980112.1600.0100", "VOA19980111.2300.0414", "ABC19980113.1830.0200"]


def test_input_errors_keep_their_fields_when_pickled():
    """Errors cross process boundaries intact (e.g. a library user scoring in a process pool)."""
    import pickle

    from hub4eval.errors import UsageError

    error = pickle.loads(pickle.dumps(UsageError("m", "p", 1, 2, hint="h")))
    assert type(error) is UsageError and (error.path, error.line, error.column, error.hint) == ("p", 1, 2, "h")
    assert str(error) == "p:1:2: m (hint: h)"
