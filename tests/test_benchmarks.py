"""The benchmark scripts run from a fresh clone, wherever they are started.

`benchmarks/RESULTS.md` gives each figure with the command that made it, in
paths relative to the repository (or a scratch folder the reader names), so
anyone can measure again. These tests start every script from a temporary
working folder, as a reader of RESULTS.md would, and run the ones whose
figures the issue tracker asks for on tiny inputs: no timing is checked here
(speed is for the scripts themselves), only that they run and print their
table.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(path.name for path in BENCHMARKS.glob("*.py"))


def run(script: str, *arguments: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(BENCHMARKS.parent), os.environ.get("PYTHONPATH")])),
    }
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def table_rows(stdout: str) -> list[list[str]]:
    """The cells of every row of the markdown tables a script printed (its heading rows included)."""
    return [line.split("|")[1:-1] for line in stdout.splitlines() if line.startswith("| ") and "---" not in line]


def _asr_as_made(files: Path, hyp: str = "hyp.tpl") -> Path:
    """examples/asr (its unsegmented hypothesis, templettes ``hyp``) copied into ``files`` under
    the names bench_score_texts.py gives the files it makes."""
    asr = BENCHMARKS.parent / "examples" / "asr"
    files.mkdir()
    for name, source in (
        ("ref_e5.tpl", "ref.tpl"),
        ("hyp_e5_unsegmented.tpl", hyp),
        ("ref.sgml", "reference.sgml"),
        ("hyp_unsegmented.sgml", "asr_unsegmented.sgml"),
    ):
        (files / name).write_bytes((asr / source).read_bytes())
    return files


def test_every_script_is_listed() -> None:
    assert "bench_dense.py" in SCRIPTS and "bench_hub4.py" in SCRIPTS  # the glob found the folder


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS)
def test_help_from_another_folder(script: str, tmp_path: Path) -> None:
    done = run(script, "--help", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:"), done.stdout[:200]
    assert list(tmp_path.iterdir()) == []  # asking for help writes nothing


@pytest.mark.slow
def test_dense_benchmark_runs(tmp_path: Path) -> None:
    done = run(
        "bench_dense.py", "--events", "300", "--vocabulary", "20", "--json", "--dir", str(tmp_path), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    rows = table_rows(done.stdout)
    assert [row[0].strip() for row in rows[1:]] == ["tables", "--json"]
    assert all(row[1].strip() == "0" for row in rows[1:]), done.stdout  # every score exited 0
    assert str(tmp_path) not in done.stdout  # the table names the files relative to --dir


@pytest.mark.slow
def test_dense_benchmark_times_a_refusal(tmp_path: Path) -> None:
    # 12,000 events of one word: about 190 million pairs of fills written alike, over the bound
    done = run(
        "bench_dense.py", "--events", "12000", "--vocabulary", "1", "--refusal", "--dir", str(tmp_path), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    rows = table_rows(done.stdout)
    assert [row[0].strip() for row in rows[1:]] == ["score", "score --jobs 1"]
    assert all(row[1].strip() == "2" for row in rows[1:]), done.stdout  # every score refused
    assert "give more than 100,000,000 pairs to compare" in done.stdout


@pytest.mark.slow
def test_hub4_benchmark_runs(tmp_path: Path) -> None:
    # --dir relative to where the script is started (it runs hub4eval from the checkout)
    done = run(
        "bench_hub4.py",
        *("--stories", "3", "--story-words", "120", "--events", "2", "--runs", "1", "--dir", "made"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    rows = table_rows(done.stdout)
    assert [row[0].strip() for row in rows[1:]] == ["score -j1", "align", "score"]
    assert [path.name for path in (tmp_path / "made").iterdir()] == ["s3_w120_e2_wer0.25_seed1"]


def test_gen_text_makes_the_folder_of_its_prefix(tmp_path: Path) -> None:
    done = run("gen_text.py", "200", "--out", "new/folder/pair", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in (tmp_path / "new" / "folder").iterdir())


@pytest.mark.slow
def test_read_limit_benchmark_runs(tmp_path: Path) -> None:
    done = run(
        "bench_read_limit.py",
        *("--docs", "20", "--instances", "200", "--rounds", "1", "--texts", "--dir", str(tmp_path)),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    rows = table_rows(done.stdout)
    cases = [row[0].strip() for row in rows[1:] if not row[0].strip().startswith("read limit")]
    assert cases == [
        "check REF",
        "score",
        "score --json",
        "score --jobs 1",
        "score --jobs 1 --json",
        "text: check REF --text",
        "text: score --ref-text",
        "text: score --ref-text --json",
    ]
    assert str(tmp_path) not in done.stdout  # the table names the files, not where they are


@pytest.mark.slow
def test_json_writer_benchmark_runs(tmp_path: Path) -> None:
    done = run(
        "bench_json_writer.py",
        *("--docs", "20", "--instances", "200", "--rounds", "1", "--dir", str(tmp_path)),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert [row[0].strip() for row in table_rows(done.stdout)] == ["", "walk", "writer"]
    assert str(tmp_path) not in done.stdout


@pytest.mark.slow
def test_stages_times_a_command_without_changing_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # both processes draw their tables at one width
    # the examples' ASR texts differ: the score aligns them, maps, projects and scores the ceiling
    asr = BENCHMARKS.parent / "examples" / "asr"
    command = [
        *("score", str(asr / "ref.tpl"), str(asr / "hyp.tpl")),
        *("--ref-text", str(asr / "reference.sgml"), "--hyp-text", str(asr / "asr_unsegmented.sgml"), "--jobs", "1"),
    ]
    plain = subprocess.run(
        [sys.executable, "-m", "hub4eval", *command], cwd=BENCHMARKS.parent, capture_output=True, text=True
    )
    timed = run("stages.py", *command, cwd=tmp_path)
    assert timed.returncode == plain.returncode == 0, timed.stderr
    assert timed.stdout == plain.stdout  # the command's own output, untouched
    stages = [line.split("]", 1)[1].split("  ")[0].strip() for line in timed.stderr.splitlines() if line[:1] == "["]
    assert "align texts" in stages and "ceiling" in stages
    assert stages[-1].startswith("end ")  # printed before the command line ends the process
    assert "not found" not in timed.stderr
    refused = run("stages.py", "score", str(tmp_path / "missing.tpl"), str(asr / "hyp.tpl"), cwd=tmp_path)
    assert refused.returncode == 2  # the command's exit status passes through


def test_mapping_texts_benchmark_runs(tmp_path: Path) -> None:
    """bench_mapping_texts.py on examples/asr laid out as bench_score_texts.py names its files."""
    files = _asr_as_made(tmp_path / "files")
    for extra in ([], ["--normalized"]):
        done = run("bench_mapping_texts.py", str(files), "--rounds", "2", *extra, cwd=tmp_path, timeout=300)
        assert done.returncode == 0, done.stderr
        phases = [row[0].strip() for row in table_rows(done.stdout)]
        assert phases == ["system's mapping", "projection", "ceiling's mapping", "score, alignment given"]


@pytest.mark.slow
def test_shared_stages_benchmark_compares_the_same_work(tmp_path: Path) -> None:
    """bench_shared_stages.py on examples/asr laid out as bench_score_texts.py names its files:
    the shared stages of both commands timed, and the calls made inside align_texts the same."""
    _asr_as_made(tmp_path / "n1_d1_w0.0_s1")
    sizes = ("--words", "1", "--doc-words", "1", "--wer", "0.0", "--seed", "1")
    done = run(
        "bench_shared_stages.py",
        *sizes,
        *("--dir", str(tmp_path), "--forms", "unsegmented", "--runs", "1", "--calls"),
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    stages = [row[0].strip() for row in table_rows(done.stdout)]
    assert stages == ["stage", "read texts", "align texts", "sclite WER", "whole process"]
    assert "functions whose counts differ: 0" in done.stdout  # the same alignment, the same calls
    assert str(tmp_path) not in done.stdout
    missing = run("bench_shared_stages.py", "--dir", str(tmp_path / "none"), cwd=tmp_path, timeout=60)
    assert missing.returncode != 0 and "bench_score_texts.py" in missing.stderr


def test_score_counts_benchmark_times_both_counts(tmp_path: Path) -> None:
    """bench_score_counts.py on examples/asr laid out as bench_score_texts.py names its files:
    the system's count and the ceiling's made again (each checked to count the same) and timed."""
    files = _asr_as_made(tmp_path / "n1_d1_w0.0_s1", hyp="hyp_one_set.tpl")
    done = run(
        "bench_score_counts.py",
        *(str(files), "--forms", "unsegmented", "--runs", "1", "--rounds", "1"),
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    counts = [row[1].strip() for row in table_rows(done.stdout)]
    assert counts == ["count", "system", "ceiling", "both"]


@pytest.mark.slow
def test_report_benchmark_runs(tmp_path: Path) -> None:
    made = run(
        "bench_score_texts.py",
        *("--words", "3000", "--doc-words", "300", "--forms", "unsegmented", "--dir", str(tmp_path)),
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    [folder] = [path for path in tmp_path.iterdir() if path.is_dir()]
    done = run("bench_report.py", "--dir", str(folder), "--rounds", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [row[0].strip() for row in table_rows(done.stdout)[1:]] == [
        "read the texts (anchor)",
        "causes",
        "entity WER",
        "tallies",
        "tables",
        "all four parts",
    ]


def _timed_on_asr(script: str, runs: int, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``script`` (one that times a part of a score in its process: ``stages.runs_and_command``
    reads its ``--runs`` and the command line after ``--``) on examples/asr's unsegmented text."""
    examples = BENCHMARKS.parent / "examples" / "asr"
    done = run(
        script,
        *("--runs", str(runs), "--", "score", str(examples / "ref.tpl"), str(examples / "hyp.tpl")),
        *("--ref-text", str(examples / "reference.sgml"), "--hyp-text", str(examples / "asr_unsegmented.sgml")),
        "--quiet",
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.slow
def test_system_count_benchmark_compares_routes_that_agree(tmp_path: Path) -> None:
    done = _timed_on_asr("bench_system_count.py", 1, tmp_path)
    rows = {row[0].strip(): row for row in table_rows(done.stderr)}
    assert rows["count"][4].strip() == "True" and rows["causes"][4].strip() == "True", done.stderr
    assert "best of 1" in done.stderr


@pytest.mark.slow
def test_ceiling_benchmark_compares_routes_that_agree(tmp_path: Path) -> None:
    done = _timed_on_asr("bench_ceiling.py", 2, tmp_path)
    assert "(best of 2)" in done.stdout and "same counts: True" in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["--runs", "3", "--", "score", "r.tpl", "h.tpl", "--jobs", "1"],
            (3, ["score", "r.tpl", "h.tpl", "--jobs", "1"]),
        ),
        (["score", "r.tpl", "h.tpl"], (5, ["score", "r.tpl", "h.tpl"])),
    ],
)
def test_a_part_of_a_score_is_timed_for_runs_of_the_command_after_the_dashes(
    argv: list[str], expected: tuple[int, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """stages.runs_and_command: --runs (default 5) and the score's command line, the ``--``
    that separates it dropped (hub4eval would take a leading ``--`` too, so the end-to-end
    benchmark tests cannot tell)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    stages = __import__("stages")
    monkeypatch.setattr(sys, "argv", ["bench", *argv])
    assert stages.runs_and_command("timing", "what is repeated") == expected
