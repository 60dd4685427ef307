"""examples/asr_ne: the tagged files are what make_example.py makes, and `hub4eval ne` on them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "asr_ne"
FILES = ("reference.sgml", "asr_tagged.sgml", "asr_tagged_unsegmented.sgml", "transcript_tagged.sgml")


def ne(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "160"}  # the width of the README's run (piped output)
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", "ne", *args], capture_output=True, text=True, cwd=EXAMPLE, env=env
    )


def regions(name: str) -> int:
    return len(re.findall(r"<(?:ENAMEX|TIMEX|NUMEX) ", (EXAMPLE / name).read_text()))


def test_make_example_regenerates_the_files(tmp_path):
    done = subprocess.run(
        [sys.executable, str(EXAMPLE / "make_example.py"), "--out", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    for name in FILES:
        assert (tmp_path / name).read_text() == (EXAMPLE / name).read_text(), name


def headline(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("F = "))


def test_counts_follow_from_the_regions():
    # different texts: every region has three points (TYPE, TEXT content, TEXT extent),
    # so POS = 3 x reference regions and ACT = 3 x tagged regions
    done = ne("reference.sgml", "asr_tagged.sgml")
    assert done.returncode == 0, done.stderr
    pos, act = (int(n) for n in re.search(r"POS (\d+)  ACT (\d+)", headline(done.stdout)).groups())
    assert (pos, act) == (3 * regions("reference.sgml"), 3 * regions("asr_tagged.sgml")) == (102, 63)
    # Grant Hill and Derek Jeter, the two PERSON regions, were both misheard: 6 MIS, nothing tagged
    person = next(line for line in done.stdout.splitlines() if line.strip().startswith("PERSON"))
    assert [cell.strip() for cell in person.split("│")[1:7]] == ["6", "0", "0", "0", "6", "0"]


@pytest.mark.slow
def test_segmented_and_unsegmented_agree():
    segmented = ne("reference.sgml", "asr_tagged.sgml")
    unsegmented = ne("reference.sgml", "asr_tagged_unsegmented.sgml")
    assert headline(segmented.stdout) == headline(unsegmented.stdout)


def unversioned(text: str) -> str:
    """The output without hub4eval's version (the signature line), so that a release changes no example."""
    return re.sub(r"hub4eval \d+\.\d+\.\d+\S*\|", "hub4eval VERSION|", text)


@pytest.mark.slow
def test_the_readme_shows_a_real_run():
    readme = (EXAMPLE / "README.md").read_text()
    block = readme.split("$ hub4eval ne reference.sgml asr_tagged.sgml\n", 1)[1].split("\n```", 1)[0]
    assert unversioned(ne("reference.sgml", "asr_tagged.sgml").stdout.rstrip("\n")) == unversioned(block)
    shown = readme.split('--versus transcript_tagged.sgml -q | grep -A2 "^B "\n', 1)[1].split("\n```", 1)[0]
    lines = ne("reference.sgml", "asr_tagged.sgml", "--versus", "transcript_tagged.sgml", "-q").stdout.splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith("B "))
    assert unversioned("\n".join(lines[first : first + 3])) == unversioned(shown)
