"""Bootstrap options are bounded, and the intervals' memory does not grow with the resamples.

Up to ``_KEEP`` resamples every value is kept; beyond, the same resamples are
made again in passes that find the exact order statistics (confidence.py).
Both ways must give the same intervals, bit for bit.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import hub4eval.report.confidence as confidence
from hub4eval.report.confidence import MAX_RESAMPLES, bootstrap_intervals, ceiling_intervals
from hub4eval.report.systems import paired_bootstrap
from hub4eval.scoring.metrics import Counts

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "sample"
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
ENV.pop("HUB4EVAL_DEBUG", None)


def documents(seed: int, n: int) -> list[Counts]:
    rnd = random.Random(seed)
    return [
        Counts(cor=rnd.randint(0, 9), inc=rnd.randint(0, 3), mis=rnd.randint(0, 3), spu=rnd.randint(0, 3))
        for _ in range(n)
    ]


@pytest.mark.parametrize("n", [1, 2, 3, 10, 999, 2500])
@pytest.mark.parametrize("level", [0.95, 0.5, 0.999])
def test_streamed_intervals_equal_kept_ones(monkeypatch, n, level):
    docs, other = documents(1, 40), documents(2, 40)
    ceiling = {str(i): c for i, c in enumerate(documents(3, 40))}
    system = {str(i): c for i, c in enumerate(docs)}
    kept = (
        bootstrap_intervals(docs, n, 7, level=level),
        ceiling_intervals(system, ceiling, n, 7, level=level),
        paired_bootstrap(docs, other, n, 7, level=level),
    )
    monkeypatch.setattr(confidence, "_KEEP", 0)  # every n is "many": the passes
    streamed = (
        bootstrap_intervals(docs, n, 7, level=level),
        ceiling_intervals(system, ceiling, n, 7, level=level),
        paired_bootstrap(docs, other, n, 7, level=level),
    )
    assert streamed == kept


def test_streamed_intervals_handle_negative_and_undefined_values(monkeypatch):
    # differences of F are negative and positive; a document set with no points leaves F undefined
    docs = [Counts(cor=1), Counts(spu=2), Counts(mis=1), Counts()]
    other = [Counts(inc=1), Counts(cor=3), Counts(), Counts(cor=1, spu=1)]
    kept = paired_bootstrap(docs, other, 300, 3), bootstrap_intervals([Counts()] * 3, 50, 1)
    monkeypatch.setattr(confidence, "_KEEP", 0)
    assert (paired_bootstrap(docs, other, 300, 3), bootstrap_intervals([Counts()] * 3, 50, 1)) == kept
    assert kept[1] == {"REC": (None, None), "PRE": (None, None), "F": (None, None)}


def _peak(n: int) -> int:
    docs = documents(5, 30)
    tracemalloc.start()
    try:
        bootstrap_intervals(docs, n, 1)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_resamples(monkeypatch):
    _peak(1_000)  # numpy's first use allocates; measure after it
    kept_small, kept_large = _peak(20_000), _peak(400_000)
    assert kept_large > kept_small + 9_000_000  # kept: 3 metrics x 8 bytes x 400,000 and a copy
    monkeypatch.setattr(confidence, "_KEEP", 1_000)
    small, large = _peak(20_000), _peak(400_000)
    # the passes hold their histograms (65,536 counts per order statistic) and one block, whatever n
    assert abs(large - small) < 500_000, (small, large)


def _refused(*args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", *args], env=ENV, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and len(proc.stderr.splitlines()) == 1, proc.stderr
    return proc.stderr.strip()


REF, HYP = str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl")


@pytest.mark.parametrize("command", [["score", REF, HYP], ["compare", REF, HYP, HYP]])
def test_too_many_resamples_are_refused_up_front(command):
    line = _refused(*command, "--bootstrap", "100000000000")
    assert line.startswith(f"--bootstrap 100,000,000,000 is more than {MAX_RESAMPLES:,} resamples")


@pytest.mark.parametrize("command", [["score", REF, HYP, "--bootstrap", "5"], ["compare", REF, HYP, HYP]])
def test_a_negative_seed_names_the_option(command):
    assert _refused(*command, "--seed", "-1") == "--seed must be 0 or more, got -1 (hint: e.g. --seed 12345)"


def test_too_many_jobs_are_refused_with_the_limit():
    from hub4eval.api import max_jobs

    line = _refused("score", REF, HYP, "--jobs", "100000")
    assert line.startswith(f"--jobs 100,000 is more processes than this machine can run at once (at most {max_jobs()}")


def test_a_huge_seed_is_a_seed():
    assert bootstrap_intervals(documents(1, 5), 20, 2**200)["F"][0] is not None
