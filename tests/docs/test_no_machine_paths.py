"""No path of one machine in the repository: paths are relative to it, a temporary folder, or an environment variable.

A path such as a home or scratch folder means nothing on another machine (a
reader cannot follow it, a test that uses it is skipped everywhere else).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Folders that exist on one machine only (a user's, a scratch or work area, a fixed temporary path).
MACHINE_PATH = re.compile(r"(?<![\w.$~-])/(?:work|tmp|root|home|Users|scratch|mnt)/[\w.-]")
THIS = Path(__file__).resolve()


def _tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split("\0")
        return [ROOT / name for name in listed if name]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked sdist)
        skip = {".git", "__pycache__", ".hypothesis", ".pytest_cache", "build", "dist"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def test_the_pattern_finds_machine_paths_and_only_those():
    for found in ("see /work/scratch/x.tpl", "--dir /tmp/bench", "(/home/ann/sctk)", "`/root/.cache`"):
        assert MACHINE_PATH.search(found), found
    for fine in ("examples/asr/ref.tpl", "$SCRATCH/bench10k", "~/.cache/hub4eval", "/usr/bin/env", "a/tmp/b"):
        assert not MACHINE_PATH.search(fine), fine


def test_no_file_of_the_repository_names_a_path_of_one_machine():
    files = _tracked_files()
    assert len(files) > 100
    found = []
    for path in files:
        if path == THIS or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary
        for n, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "use a path relative to the repository, a temporary folder or an environment variable:\n" + (
        "\n".join(found)
    )
