"""``hub4eval sclite`` against reports the real NIST sclite wrote on hub4eval's own inputs
(tests/data/sclite_cli/, see its README): the .sys, .raw and .pra files are byte-identical."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hub4eval.cli.sclite import run

DATA = Path(__file__).resolve().parents[1] / "data" / "sclite_cli"
RUNS = json.loads((DATA / "runs.json").read_text(encoding="utf-8"))["runs"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    for name in DATA.iterdir():
        if name.is_file() and name.suffix in (".trn", ".stm", ".ctm", ".lex"):
            shutil.copy(name, tmp_path / name.name)
    (tmp_path / "expected").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_reports_are_sclites_byte_for_byte(workdir, name):
    assert run(RUNS[name]) == 0
    expected = sorted((DATA / "expected").glob(f"{name}.*"))
    assert expected
    for path in expected:
        produced = (workdir / "expected" / path.name).read_bytes()
        if path.suffix == ".sgml":  # the creation date is the run's
            produced = re.sub(rb' creation_date="[^"]*"', b' creation_date=""', produced)
        assert produced == path.read_bytes(), path.name


def test_the_command_runs_as_a_program_and_prints_the_summary_by_default(workdir):
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "sclite", "-r", "ref.trn", "-h", "hyp.trn", "-i", "spu_id"],
        capture_output=True,
        text=True,
        cwd=workdir,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert proc.returncode == 0, proc.stderr
    expected = (DATA / "expected" / "trn_plain.sys").read_text(encoding="latin-1")
    assert expected in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-r", "ref.trn", "-h", "hyp.trn"], "utterance id type (-i)"),
        (
            ["-r", "ref.trn", "-h", "hyp.trn", "-i", "spu_id", "-L", "lm"],
            "-L (weights from an SLM language model) is not",
        ),
        (["-r", "ref.trn", "-h", "hyp.trn", "-i", "nope"], "utterance id type 'nope'"),
        (["-r", "ref.trn", "-h", "missing.trn", "-i", "spu_id"], "missing.trn"),
        (["-r", "ref.trn"], "give a reference and a hypothesis"),
        (["-r", "ref.trn", "-h", "ref.stm", "-i", "spu_id"], "ref.stm"),
    ],
)
def test_bad_arguments_and_files_are_one_line_and_status_2(workdir, args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "sclite", *args],
        capture_output=True,
        text=True,
        cwd=workdir,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_hypothesis_utterance_without_reference_is_an_error_naming_it(workdir):
    (workdir / "extra.trn").write_text("a b (spkZ-9)\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "sclite", "-r", "ref.trn", "-h", "extra.trn", "-i", "spu_id"],
        capture_output=True,
        text=True,
        cwd=workdir,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert proc.returncode == 2 and "extra.trn:1" in proc.stderr and "(spkZ-9)" in proc.stderr
