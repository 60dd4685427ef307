"""The first run that aligns texts compiles the aligner's kernels (numba): it says so, once, on
stderr, instead of sitting silent for seconds; later runs load them from numba's cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ASR = ROOT / "examples" / "asr"
ARGS = [
    "score",
    str(ASR / "ref.tpl"),
    str(ASR / "hyp.tpl"),
    "--ref-text",
    str(ASR / "reference.sgml"),
    "--hyp-text",
    str(ASR / "asr_unsegmented.sgml"),
]
NOTICE = "hub4eval: compiling the aligner (once, about 10 s; numba keeps it in its cache for later runs)"


def run(cache: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", *ARGS, *extra], capture_output=True, text=True, check=False, env=env
    )


def test_an_empty_cache_is_announced_once_then_never_again(tmp_path: Path) -> None:
    first = run(tmp_path / "cache")
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines() == [NOTICE]  # once, not once per kernel
    again = run(tmp_path / "cache")
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout == first.stdout


def test_quiet_silences_the_notice_it_is_progress(tmp_path: Path) -> None:
    proc = run(tmp_path / "cache", "-q")
    assert proc.returncode == 0 and proc.stderr == ""
