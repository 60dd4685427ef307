"""Set-up mistakes of a first real run, through a real process: texts that do not fit the
templettes (CRLF line ends, another version of the text, texts swapped, ASR offsets without
--hyp-text), what --quiet keeps, and the note when extents are compared as raw offsets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# end-to-end runs through real processes (the quick tier, pytest -m "not slow", leaves them out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ROOT / "examples" / "clean"
ASR = ROOT / "examples" / "asr"
SAMPLE = ROOT / "examples" / "sample"
RAW_NOTE = (
    "warning: no texts given: extents are compared as raw character offsets (give --ref-text, and "
    "--hyp-text for ASR output, to check them against the text and to align different texts)"
)


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", *map(str, args)], capture_output=True, text=True, check=False, cwd=ROOT
    )


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" or "valid" not in proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


@pytest.fixture
def crlf(tmp_path: Path) -> Path:
    path = tmp_path / "text_crlf.sgml"
    path.write_bytes((CLEAN / "text.sgml").read_bytes().replace(b"\n", b"\r\n"))
    return path


def test_a_crlf_text_is_an_error_that_names_crlf(crlf: Path) -> None:
    # was: a warning per fill, then a score, exit 0 (and nothing at all with -q)
    for quiet in ((), ("-q",)):
        line = one_line(run("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--ref-text", crlf, *quiet))
        assert line.startswith(f"{CLEAN / 'ref.tpl'}:3:13: 21 of 21 text fills do not fit the text {crlf}")
        assert "the text has CRLF line ends; offsets count LF files" in line and "--force" in line


def test_force_scores_anyway_and_quiet_keeps_the_count(crlf: Path) -> None:
    forced = run("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--ref-text", crlf, "--force")
    assert forced.returncode == 0, forced.stderr
    assert forced.stderr.count("does not match the text") >= 21
    quiet = run("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--ref-text", crlf, "--force", "-q")
    assert quiet.returncode == 0, quiet.stderr
    # -q silences the per-fill lines, never the count that says the score is not what it seems
    assert quiet.stderr.splitlines() == [
        f"{CLEAN / 'ref.tpl'}:3:13: warning: 21 of 21 text fills do not fit the text {crlf}: their extent "
        "points are scored on offsets that do not point at their words",
        f"{CLEAN / 'hyp.tpl'}:3:13: warning: 11 of 11 text fills do not fit the text {crlf}: their extent "
        "points are scored on offsets that do not point at their words",
    ]


def test_check_never_calls_a_file_valid_when_its_fills_do_not_fit(crlf: Path, tmp_path: Path) -> None:
    line = one_line(run("check", CLEAN / "ref.tpl", "--text", crlf))
    assert "CRLF" in line
    # one fill of 21 that does not fit: warnings, then not valid (exit 2), never "valid ..."
    ref = tmp_path / "ref.tpl"
    ref.write_text(
        (CLEAN / "ref.tpl").read_text(encoding="utf-8").replace('"Conchita Martinez"', '"Conchita Martines"')
    )
    line = one_line(run("check", ref, "--text", CLEAN / "text.sgml"))
    assert line.startswith(f"{ref}:") and "not valid against" in line
    assert "1 of 21 text fills do not fit" in line and "'Conchita Martines' does not match the text" in line


def test_another_version_of_the_text_is_an_error(tmp_path: Path) -> None:
    # one more word per story: every later offset of the story is shifted
    text = tmp_path / "reference_v2.sgml"
    text.write_text(
        (ASR / "reference.sgml")
        .read_text(encoding="utf-8")
        .replace("Brazil beat", "Brazil, as expected, beat")
        .replace("Martina Hingis", "the Swiss Martina Hingis"),
        encoding="utf-8",
    )
    line = one_line(
        run("score", ASR / "ref.tpl", ASR / "hyp.tpl", "--ref-text", text, "--hyp-text", ASR / "asr_unsegmented.sgml")
    )
    assert "9 of 12 text fills do not fit the text" in line and "is this the text the file was made from?" in line


def test_swapped_texts_say_so() -> None:
    # a segmented ASR text with the reference's DOCIDs given as the reference, and the other way round
    line = one_line(
        run(
            "score",
            ASR / "ref.tpl",
            ASR / "hyp.tpl",
            "--ref-text",
            ASR / "asr_segmented.sgml",
            "--hyp-text",
            ASR / "reference.sgml",
        )
    )
    assert "--ref-text and --hyp-text swapped?" in line


def test_asr_offsets_without_hyp_text_name_hyp_text(tmp_path: Path) -> None:
    # the extractor wrote the reference's DOCIDs but counted offsets in the ASR file
    hyp = tmp_path / "hyp.tpl"
    text = (ASR / "hyp_one_set.tpl").read_text(encoding="utf-8").replace("-asr-", "-ABC19980120.1830.0500-")
    hyp.write_text(text, encoding="utf-8")
    line = one_line(run("score", ASR / "ref.tpl", hyp, "--ref-text", ASR / "reference.sgml"))
    assert "hypothesis offsets run past every document of the reference text" in line
    assert "give the ASR text with --hyp-text" in line
    # the extractor's own DOCID: not in the reference text, and the hint says which text is missing
    line = one_line(run("score", ASR / "ref.tpl", ASR / "hyp_one_set.tpl", "--ref-text", ASR / "reference.sgml"))
    assert "document asr (of <TEMPLATE-asr-1>) is not in the text corpus" in line and "--hyp-text" in line


def test_one_extent_outside_without_hyp_text_mentions_hyp_text(tmp_path: Path) -> None:
    hyp = tmp_path / "hyp.tpl"
    hyp.write_text(
        (CLEAN / "hyp.tpl").read_text(encoding="utf-8").replace("##14#35#", "##914#935#", 1), encoding="utf-8"
    )
    line = one_line(run("score", CLEAN / "ref.tpl", hyp, "--ref-text", CLEAN / "text.sgml"))
    assert "lies outside document" in line and "--hyp-text" in line


def test_raw_offsets_are_said_once_without_texts() -> None:
    proc = run("score", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl")
    assert proc.returncode == 0 and proc.stderr.splitlines() == [RAW_NOTE]
    both = run("compare", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", SAMPLE / "hyp.tpl", "--bootstrap", "10")
    assert both.returncode == 0 and both.stderr.splitlines() == [RAW_NOTE]
    with_text = run("score", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "--ref-text", SAMPLE / "text.sgml")
    assert with_text.returncode == 0 and with_text.stderr == ""
    assert run("score", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "-q").stderr == ""


def test_no_note_when_the_templettes_carry_no_extents(tmp_path: Path) -> None:
    path = tmp_path / "t.tpl"
    path.write_text('<T-D-1> :=\n    NAME: "a"\n', encoding="utf-8")
    proc = run("score", path, path)
    assert proc.returncode == 0 and proc.stderr == ""


def test_swapped_texts_with_unsegmented_asr_output_say_so() -> None:
    line = one_line(
        run(
            "score",
            ASR / "ref.tpl",
            ASR / "hyp.tpl",
            "--ref-text",
            ASR / "asr_unsegmented.sgml",
            "--hyp-text",
            ASR / "reference.sgml",
        )
    )
    assert line.startswith(f"{ASR / 'asr_unsegmented.sgml'}:1:1: the reference text has no document tags")
    assert "--ref-text and --hyp-text swapped?" in line
