"""`hub4eval sclite --glm`: the inputs filtered as csrfilt.sh filters them, then scored as sclite scores them.

The expected Sum rows (tests/data/csrfilt/sclite_sums.txt) are sclite's, after
SCTK's csrfilt.sh, on our own inputs (origin and commands in that folder's
README). They need SCTK's whole GLM files, which are not shipped: set
HUB4EVAL_SCTK_GLM to the folder holding en20030506.glm and en20090415.glm
(doc/trans_rules of an SCTK checkout).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "csrfilt"
EXCERPT = Path(__file__).resolve().parents[1] / "data" / "glm" / "en20090415_excerpt.glm"


def _runs() -> list[tuple[str, str, str, str, list[str]]]:
    runs = []
    for line in (DATA / "sclite_sums.txt").read_text().splitlines():
        glm, inputs, kind, dh, *row = line.split()
        runs.append((glm, inputs, kind, dh, row))
    return runs


def _sclite(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", "sclite", *args], capture_output=True, text=True, cwd=DATA, check=False
    )


def _sum_row(stdout: str) -> list[str]:
    [row] = [line for line in stdout.splitlines() if "| Sum " in line]
    return row.replace("|", " ").split()[1:]


@pytest.mark.parametrize(("glm", "inputs", "kind", "dh", "expected"), _runs(), ids=lambda v: str(v))
def test_sum_rows_equal_sclite_after_csrfilt(glm, inputs, kind, dh, expected):
    folder = os.environ.get("HUB4EVAL_SCTK_GLM")
    if not folder:
        pytest.skip("HUB4EVAL_SCTK_GLM is not set: no copy of SCTK's doc/trans_rules (whole GLM files, not shipped)")
    path = Path(folder) / f"{glm}.glm"
    if not path.exists():
        pytest.skip(f"HUB4EVAL_SCTK_GLM={folder} holds no {glm}.glm")
    if kind == "trn":
        files = ["-r", f"{inputs}.ref.trn", "trn", "-h", f"{inputs}.hyp.trn", "trn", "-i", "spu_id"]
    else:
        files = ["-r", f"{inputs}.ref.stm", "stm", "-h", f"{inputs}.hyp.ctm", "ctm"]
    extra = ["--glm-dh"] if dh == "-dh" else []
    result = _sclite(*files, "-o", "rsum", "stdout", "--glm", str(path), *extra)
    assert result.returncode == 0, result.stderr
    assert _sum_row(result.stdout) == expected


def test_the_hypothesis_side_gets_alternatives_and_sclite_takes_the_best():
    # talk.hyp.trn against talk.ref.trn with the excerpt of en20090415.glm: its "hyp"
    # section (lines 96-) holds [WE'RE] => [{WE ARE / WE WERE}] and
    # [THAT'S] => [{THAT'S / THAT IS / THAT HAS}]-like rules; of the excerpt's rules only
    # WE'RE occurs here. spk1-002: ref "we were there but we are not now and you cannot
    # say it" (13 words); hyp "{we are / we were} there but {we are / we were} not now
    # and you can't say it": the first alternation fits by "we were", the second by
    # "we are", so the only error is can't/cannot: 12 correct, 1 substitution.
    result = _sclite(
        "-r", "talk.ref.trn", "trn", "-h", "talk.hyp.trn", "trn", "-i", "spu_id",
        "-o", "pra", "stdout", "--glm", str(EXCERPT),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    block = result.stdout.split("id: (spk1-002)")[1].split("id:")[0]
    assert "Scores: (#C #S #D #I) 12 1 0 0" in block
    # the reference side gets no "hyp" rule: without the sides both texts would be rewritten
    both = _sclite(
        "-r", "talk.ref.trn", "trn", "-h", "talk.hyp.trn", "trn", "-i", "spu_id",
        "-o", "pra", "stdout", "--glm", str(EXCERPT), "--glm-no-sides",
    )  # fmt: skip
    block = both.stdout.split("id: (spk1-002)")[1].split("id:")[0]
    # no -t: the "hyp" section applies to neither side, so "we're" stays one word:
    # ref "we were there but we are not" vs hyp "we're there but we're not": each
    # we're is a substitution for one word and the other is deleted (2 S, 2 D), plus
    # can't/cannot: 8 correct, 3 substitutions, 2 deletions
    assert "Scores: (#C #S #D #I) 8 3 2 0" in block


def test_glm_options_need_a_glm_and_a_missing_glm_is_one_line():
    result = _sclite("-r", "talk.ref.trn", "trn", "-h", "talk.hyp.trn", "trn", "--glm-dh")
    assert result.returncode == 2 and "need a --glm FILE" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    result = _sclite("-r", "talk.ref.trn", "trn", "-h", "talk.hyp.trn", "trn", "--glm", "missing.glm")
    assert result.returncode == 2 and "missing.glm" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("name", sorted(p.name for p in (DATA / "csrfilt_out").iterdir()))
def test_the_filtered_files_are_csrfilts(name):
    from hub4eval.text.csrfilt import CsrfiltOptions, csrfilt_text
    from hub4eval.text.glm import read_glm

    folder = os.environ.get("HUB4EVAL_SCTK_GLM")
    if not folder:
        pytest.skip("HUB4EVAL_SCTK_GLM is not set: no copy of SCTK's doc/trans_rules (whole GLM files, not shipped)")
    glm, *flags, inputs, side, form = name.split(".")
    source = DATA / f"{inputs}.{side}.{form}"
    options = CsrfiltOptions(form, side, delete_hyphens=flags == ["dh"])
    ours = csrfilt_text(source.read_text(), read_glm(Path(folder) / f"{glm}.glm"), options, str(source))
    assert ours == (DATA / "csrfilt_out" / name).read_text()


@pytest.mark.parametrize(
    ("glm", "scores"),
    [
        # "you can not say it" against "you can't say it": unfiltered, can't is a
        # substitution for "can" and "not" is deleted (3 correct); the shipped en.glm's
        # negations turn can't into "can not" on the hypothesis side, so all 5 are correct
        ([], "3 1 1 0"),
        (["--glm", "none"], "3 1 1 0"),
        (["--glm", "default"], "5 0 0 0"),
    ],
)
def test_default_names_the_shipped_glm_and_none_filters_nothing(tmp_path, glm, scores):
    (tmp_path / "r.trn").write_text("you can not say it (s1-001)\n")
    (tmp_path / "h.trn").write_text("you can't say it (s1-001)\n")
    result = subprocess.run(
        [sys.executable, "-m", "hub4eval", "sclite", "-r", "r.trn", "trn", "-h", "h.trn", "trn", "-i", "spu_id",
         "-o", "pra", "stdout", *glm],
        capture_output=True, text=True, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"Scores: (#C #S #D #I) {scores}" in result.stdout


@pytest.mark.parametrize(
    ("glm", "message"),
    [
        (["--glm", "none", "--glm", "default"], "--glm none cannot be combined with other mapping files"),
        (["--glm", "none", "--glm-dh"], "--glm-dh and --glm-no-sides need a --glm FILE"),
    ],
)
def test_none_alone_or_not_at_all(tmp_path, glm, message):
    (tmp_path / "r.trn").write_text("a (s1-001)\n")
    result = _sclite("-r", str(tmp_path / "r.trn"), "trn", "-h", str(tmp_path / "r.trn"), "trn", "-i", "spu_id", *glm)
    assert result.returncode == 2
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr
