"""SCTK's own sclite test suite run with ``hub4eval sclite`` as the executable.

Needs a checkout of NIST SCTK (https://github.com/usnistgov/SCTK); nothing of
it is in this repository. Point ``HUB4EVAL_SCTK_DIR`` at the checkout (the
folder holding ``src/sclite/testdata``); without it the test is skipped.

The suite's driver, ``tsclite.sh``, runs with the executable directory set to
a temporary copy of ``src/sclite`` whose "sclite" is a wrapper calling
``python -m hub4eval sclite``; the copy has no makefile, so the driver leaves
out the tests that need GNU diff (``-d``) or the SLM toolkit (``-L``), as a
stock build does. Every test that has an expected ``base/*.raw`` must give
sclite's Sum row: #Snt, #Wrd, Corr, Sub, Del, Ins, Err, S.Err.

A test that needs an option hub4eval does not have would be listed in
``NEEDS`` with the option (reported as xfail, so the count of passing tests
stays visible); none is today: the 46 tests a stock build runs with an
expected ``base/*.raw`` all give sclite's Sum row.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCTK = os.environ.get("HUB4EVAL_SCTK_DIR")
TESTDATA = Path(SCTK, "src", "sclite", "testdata") if SCTK else None

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        TESTDATA is None or not (TESTDATA / "tsclite.sh").is_file(),
        reason="set HUB4EVAL_SCTK_DIR to an SCTK checkout (src/sclite/testdata/tsclite.sh) to run SCTK's sclite suite",
    ),
]

# Tests whose options hub4eval sclite refuses, with the option each needs.
NEEDS: dict[str, str] = {}

WRAPPER = """#!{python}
import json, os, sys
args = sys.argv[1:]
name = args[args.index("-n") + 1] if "-n" in args else "run"
folder = args[args.index("-O") + 1] if "-O" in args else "."
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, name + ".args.json"), "w") as out:
    json.dump(args, out)
sys.argv = ["hub4eval", "sclite", *args]
from hub4eval.cli import main
main()
"""

_SUM = re.compile(r"^\s*\|\s*Sum\s*\|([^|]*)\|([^|]*)\|")


def sum_row(path: Path) -> tuple[float, ...]:
    """The eight numbers of a .raw file's Sum row (#Snt #Wrd Corr Sub Del Ins Err S.Err)."""
    for line in path.read_text(encoding="latin-1").splitlines():
        match = _SUM.match(line)
        if match:
            return tuple(float(x) for x in (match.group(1) + " " + match.group(2)).split()[:8])
    raise AssertionError(f"no Sum row in {path}")


@pytest.fixture(scope="module")
def suite_run(tmp_path_factory) -> Path:
    """The suite's testdata copied into a temporary src/sclite, run by tsclite.sh; its testdata folder."""
    assert TESTDATA is not None
    root = tmp_path_factory.mktemp("sctk") / "sclite"
    shutil.copytree(TESTDATA, root / "testdata", ignore=shutil.ignore_patterns("out", "Failed.log"))
    wrapper = root / "hub4eval-sclite"
    wrapper.write_text(WRAPPER.format(python=sys.executable), encoding="utf-8")
    wrapper.chmod(0o755)
    environment = dict(os.environ)
    repository = str(Path(__file__).resolve().parents[2])
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [repository, environment.get("PYTHONPATH")]))
    subprocess.run(
        ["sh", "tsclite.sh", "-en", "hub4eval-sclite", "-nc"],
        cwd=root / "testdata",
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=1800,
        check=False,
    )
    return root / "testdata"


def expected_tests() -> list[str]:
    if TESTDATA is None or not (TESTDATA / "base").is_dir():
        return []
    return sorted(p.stem for p in (TESTDATA / "base").glob("*.raw"))


@pytest.mark.parametrize("test", expected_tests())
def test_the_sum_row_is_sclites(suite_run, test):
    out = suite_run / "out"
    arguments = out / f"{test}.args.json"
    if not arguments.exists():
        pytest.skip(f"{test} is not run by tsclite.sh without GNU diff and the SLM toolkit (a stock build)")
    args = json.loads(arguments.read_text(encoding="utf-8"))
    if "-d" in args or "-L" in args:
        pytest.skip(f"{test} needs GNU diff or the SLM toolkit")
    if test in NEEDS:
        pytest.xfail(f"{test} needs {NEEDS[test]}, which hub4eval sclite does not support")
    produced = out / f"{test}.raw"
    assert produced.exists(), f"hub4eval sclite {' '.join(args)} wrote no {produced.name}"
    assert sum_row(produced) == sum_row(suite_run / "base" / f"{test}.raw")
