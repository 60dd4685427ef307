"""`hub4eval compare REF HYP_A HYP_B`: two systems, a paired bootstrap over documents."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.report.confidence import document_counts
from hub4eval.report.systems import paired_bootstrap
from hub4eval.scoring.metrics import Counts
from tests.support import EXAMPLES

SAMPLE, CLEAN, ASR = EXAMPLES / "sample", EXAMPLES / "clean", EXAMPLES / "asr"
runner = CliRunner()


def compare(*args, json_out: bool = False):
    argv = ["compare", *[str(a) for a in args]]
    if json_out:
        argv += ["--json", "-"]
    result = runner.invoke(app, argv)
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def worse_sample(tmp_path):
    """The sample hypothesis with two fills spoilt: WINNER wrong, DATE gone."""
    text = (SAMPLE / "hyp.tpl").read_text()
    text = text.replace('WINNER: "Egypt" ##332#337#', 'WINNER: "Nigeria" ##100#107#')
    text = text.replace('    DATE: "03/02/1998" ##89#99#\n', "")
    path = tmp_path / "worse.tpl"
    path.write_text(text)
    return path


def test_sample_against_a_worse_copy(worse_sample):
    result = compare(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", worse_sample, "--bootstrap", "1000", json_out=True)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["F_A"] == 1.0
    b = score_files(SAMPLE / "ref.tpl", worse_sample)
    assert data["F_B"] == pytest.approx(b.total.metrics()["F"])
    assert data["difference"] == pytest.approx(1.0 - data["F_B"]) and data["difference"] > 0
    # One of the 3 documents has all the points: a resample that draws it has the observed F of
    # both systems (counts scaled), one that does not leaves F undefined and is left out. So the
    # difference never flips: p = 0, and the interval is the observed difference itself.
    assert data["documents"] == 3
    assert data["p_value"] == 0.0 and data["p_two_sided"] == 0.0
    assert data["interval"] == [pytest.approx(data["difference"])] * 2
    assert (data["resamples"], data["seed"], data["level"]) == (1000, 12345, 0.95)
    assert data["A"].endswith("hyp.tpl") and data["B"].endswith("worse.tpl")


def test_text_output_names_both_systems_difference_interval_and_p(worse_sample):
    result = compare(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", worse_sample, "--bootstrap", "500", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("A  ") and lines[0].endswith("REM 0)") and "F = 100.0" in lines[0]
    assert lines[1].startswith("B  ") and str(worse_sample) in lines[1]
    f_b = score_files(SAMPLE / "ref.tpl", worse_sample).total.metrics()["F"]
    assert lines[2].startswith(f"F(A) - F(B) = {100 * (1 - f_b):.1f} points  95% interval ")
    assert "p = 0.0000  (two-sided 0.0000)" in lines[2]
    assert lines[3] == (
        "paired bootstrap: 500 document resamples over 3 documents, seed 3; "
        "p = share of resamples where the difference is 0 or of the opposite sign"
    )
    assert lines[4].startswith("hub4eval ")  # the signature


def test_same_system_twice_p_is_one():
    result = compare(CLEAN / "ref.tpl", CLEAN / "hyp.tpl", CLEAN / "hyp.tpl", "--bootstrap", "200", json_out=True)
    data = json.loads(result.stdout)
    assert data["difference"] == 0.0 and data["p_value"] == 1.0 and data["interval"] == [0.0, 0.0]


def test_matches_the_library_over_the_union_of_documents(tmp_path):
    # B has no instances for one document: it still takes part, with zero counts for B.
    lines = (CLEAN / "hyp.tpl").read_text().split("\n\n")
    kept = [block for block in lines if "CNN19980112.1600.0100" not in block]
    b_path = tmp_path / "b.tpl"
    b_path.write_text("\n\n".join(kept))
    result = compare(CLEAN / "ref.tpl", CLEAN / "hyp.tpl", b_path, "--bootstrap", "700", "--seed", "11", json_out=True)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    a = document_counts(score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl"))
    b = document_counts(score_files(CLEAN / "ref.tpl", b_path))
    documents = list(dict.fromkeys([*a, *b]))
    assert data["documents"] == len(documents) == 3
    expected = paired_bootstrap(
        [a.get(d, Counts()) for d in documents], [b.get(d, Counts()) for d in documents], 700, 11
    )
    assert data["p_value"] == expected["p_value"]
    assert data["interval"] == list(expected["interval"])
    assert data["difference"] == pytest.approx(expected["difference"])


def test_seed_determinism(tmp_path):
    worse = tmp_path / "b.tpl"
    worse.write_text((CLEAN / "hyp.tpl").read_text().replace('"Melbourne"', '"Sydney"'))
    args = (CLEAN / "ref.tpl", CLEAN / "hyp.tpl", worse, "--bootstrap", "400")
    first = json.loads(compare(*args, "--seed", "5", json_out=True).stdout)
    assert first == json.loads(compare(*args, "--seed", "5", json_out=True).stdout)
    assert first["F_A"] == pytest.approx(26 / 51) and 0 < first["p_value"] < 1


def test_with_texts_both_systems_aligned(tmp_path):
    worse = tmp_path / "b.tpl"
    worse.write_text((ASR / "hyp.tpl").read_text().replace('"brazil" ##14#20#', '"chile" ##26#31#'))
    result = compare(
        ASR / "ref.tpl",
        ASR / "hyp.tpl",
        worse,
        "--ref-text",
        ASR / "reference.sgml",
        "--hyp-text",
        ASR / "asr_unsegmented.sgml",
        "--bootstrap",
        "300",
        json_out=True,
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["difference"] > 0 and "texts:aligned" in data["signature"]


def test_json_to_a_file_and_table_to_stdout(tmp_path, worse_sample):
    out = tmp_path / "c.json"
    result = compare(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", worse_sample, "--bootstrap", "100", "--json", out)
    assert result.exit_code == 0 and "F(A) - F(B)" in result.stdout
    assert json.loads(out.read_text())["resamples"] == 100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bootstrap", "0"], "--bootstrap must be at least 1, got 0"),
        (["--json", "/nonexistent/dir/c.json"], "cannot write the --json output"),
    ],
)
def test_usage_errors_are_one_line_exit_2(args, message):
    result = compare(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", SAMPLE / "hyp.tpl", *args)
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_missing_hypothesis_file_exit_2(tmp_path):
    result = compare(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", tmp_path / "nope.tpl")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{tmp_path / 'nope.tpl'}: no such file (hint: check the path and the current directory)\n"


def test_help_lists_the_options():
    result = runner.invoke(app, ["compare", "--help"])
    assert result.exit_code == 0
    for option in ("--bootstrap", "--seed", "--ref-text", "--hyp-text", "--json", "--quiet"):
        assert option in result.output
