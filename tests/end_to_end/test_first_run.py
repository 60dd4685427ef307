"""The first run that aligns texts compiles the aligner's kernels (numba): it says so, once, on
stderr, instead of sitting silent for seconds; later runs load them from numba's cache. Like the
progress bars, the notice is for a terminal: not when stderr is piped, not with --quiet."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest

# end-to-end runs through real processes (the quick tier, pytest -m "not slow", leaves them out)
pytestmark = pytest.mark.slow

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


def run_on_a_terminal(cache: Path, *extra: str) -> tuple[int, str, str]:
    """(exit status, stdout, what stderr showed on a pseudo-terminal: progress bars too)."""
    master, slave = pty.openpty()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    shown: list[bytes] = []

    def read() -> None:  # at once, so that the terminal never fills and blocks the process
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the other end is closed: all is read
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hub4eval", *ARGS, *extra], stdout=subprocess.PIPE, stderr=slave, env=env, text=True
        )
        os.close(slave)
        stdout, _ = proc.communicate(timeout=600)
        reader.join(timeout=30)
    finally:
        os.close(master)
    return proc.returncode, stdout, b"".join(shown).decode("utf-8", "replace")


@pytest.mark.skipif(not hasattr(pty, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_an_empty_cache_is_announced_once_then_never_again(tmp_path: Path) -> None:
    status, first, shown = run_on_a_terminal(tmp_path / "cache")
    assert status == 0, shown
    assert shown.count(NOTICE) == 1  # once, not once per kernel
    status, again, shown = run_on_a_terminal(tmp_path / "cache")
    assert status == 0 and NOTICE not in shown
    assert again == first


@pytest.mark.skipif(not hasattr(pty, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_quiet_silences_the_notice_it_is_progress(tmp_path: Path) -> None:
    status, _, shown = run_on_a_terminal(tmp_path / "cache", "-q")
    assert status == 0 and NOTICE not in shown


def test_a_piped_stderr_gets_no_notice(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "hub4eval", *ARGS], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stderr == ""
