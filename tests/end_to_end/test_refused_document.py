"""A document whose instances would give more candidate pairs than memory holds, through a real
process: the one-line error and exit status 2, the same for every ``--jobs``, and an error the
whole files report first (a broken fill in a later document) still wins over the refusal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hub4eval.scoring.mapping import MAX_CANDIDATE_PAIRS

# end-to-end runs through real processes (the quick tier, pytest -m "not slow", leaves them out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# One more instance than the square root of the bound on each side, every one with the same
# content: (DENSE + 1) ** 2 pairs can score a COR, more than the bound (10,001 ** 2 at 100,000,000).
DENSE = int(MAX_CANDIDATE_PAIRS**0.5) + 1


def _document(docid: str, contents: list[str]) -> str:
    return "".join(f'<EVENT-{docid}-{k}> :=\n    NAME: "{content}"\n' for k, content in enumerate(contents, 1))


def _files(folder: Path, after: str = "") -> tuple[Path, Path]:
    """Three usual documents, the dense one, three usual documents (``after`` ends the hypothesis)."""
    text = "".join(
        [
            *(_document(f"A{n}", ["one", "two"]) for n in range(3)),
            _document("DENSE", ["same"] * DENSE),
            *(_document(f"B{n}", ["three", "four"]) for n in range(3)),
        ]
    )
    ref, hyp = folder / "ref.tpl", folder / "hyp.tpl"
    ref.write_text(text, encoding="utf-8")
    hyp.write_text(text + after, encoding="utf-8")
    return ref, hyp


def _score(ref: Path, hyp: Path, jobs: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "hub4eval", "score", str(ref), str(hyp), "--jobs", jobs],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return done.returncode, lines[0]


def test_a_refused_document_is_one_line_and_status_2_for_every_number_of_jobs(tmp_path):
    ref, hyp = _files(tmp_path)
    # the count is of the pairs of fills written alike, the one slot of every instance: DENSE ** 2
    expected = (
        f"document DENSE, type EVENT: {DENSE:,} reference and {DENSE:,} hypothesis instances give more than "
        f"{MAX_CANDIDATE_PAIRS:,} pairs to compare (at least {DENSE**2:,}, "
    )
    # --jobs 1: the small files are scored whole, in one process; --jobs 2: in groups of documents
    outcomes = [_score(ref, hyp, jobs) for jobs in ("1", "2")]
    for status, line in outcomes:
        assert status == 2
        assert line.startswith(expected), line
        assert "this would exhaust the memory of the machine (hint: " in line
    assert outcomes[0] == outcomes[1]


def test_a_broken_fill_in_a_later_document_wins_over_the_refusal(tmp_path):
    ref, hyp = _files(tmp_path, after='<EVENT-B2-3> :=\n    NAME: "unterminated\n')
    line_number = len(hyp.read_text(encoding="utf-8").splitlines())  # the broken fill is the last line
    outcomes = [_score(ref, hyp, jobs) for jobs in ("1", "2")]
    for status, line in outcomes:
        assert status == 2
        assert line.startswith(f"{hyp}:{line_number}:"), line
        assert "pairs to compare" not in line
    assert outcomes[0] == outcomes[1]
