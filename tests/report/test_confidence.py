"""Document-level bootstrap: intervals, paired comparison, `score --bootstrap`."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.report.confidence import (
    DEFAULT_SEED,
    _array,
    _resampled_sums,
    bootstrap_intervals,
    document_counts,
)
from hub4eval.report.systems import paired_bootstrap
from hub4eval.scoring.metrics import Counts
from tests.support import EXAMPLES
from tests.support.scoring import run

CLEAN = EXAMPLES / "clean"
runner = CliRunner()


def random_documents(seed: int = 1, n: int = 200) -> list[Counts]:
    rnd = random.Random(seed)
    return [
        Counts(cor=rnd.randint(0, 9), inc=rnd.randint(0, 3), mis=rnd.randint(0, 3), spu=rnd.randint(0, 3))
        for _ in range(n)
    ]


# ---------------------------------------------------------------- resampling


def test_each_resample_draws_as_many_documents_as_there_are():
    ones = np.ones((37, 1))
    sums = np.concatenate([s for (s,) in _resampled_sums([ones], 500, seed=3)])
    assert sums.shape == (500, 1) and set(sums[:, 0]) == {37.0}


@pytest.mark.parametrize("cells", [10**9, 25 * 7])  # one block; blocks of 7 resamples
def test_weights_times_counts_equal_summing_the_drawn_documents(monkeypatch, cells):
    import hub4eval.report.confidence as bootstrap

    monkeypatch.setattr(bootstrap, "_CELLS", cells)
    docs = random_documents(n=25)
    array = _array(docs)
    sums = np.concatenate([s for (s,) in _resampled_sums([array], 40, seed=5)])
    # The same generator calls, gathered and summed directly:
    rng, block, expected = np.random.default_rng(5), min(40, cells // 25), []
    for start in range(0, 40, block):
        draws = rng.integers(0, 25, size=(min(block, 40 - start), 25), dtype=np.int64)
        expected.append(array[draws].sum(axis=1))
    assert np.array_equal(sums, np.concatenate(expected))


# ---------------------------------------------------------------- intervals


def test_same_seed_same_intervals_other_seed_other_intervals():
    docs = random_documents()
    first = bootstrap_intervals(docs, 2000, seed=7)
    assert first == bootstrap_intervals(docs, 2000, seed=7)
    assert first != bootstrap_intervals(docs, 2000, seed=8)
    assert bootstrap_intervals(docs, 500) == bootstrap_intervals(docs, 500, seed=DEFAULT_SEED)


def test_interval_contains_the_point_estimate_and_narrows_with_more_documents():
    docs = random_documents()
    point = sum(docs, Counts()).metrics()
    intervals = bootstrap_intervals(docs, 2000, seed=7)
    for metric in ("REC", "PRE", "F"):
        low, high = intervals[metric]
        assert 0 <= low < point[metric] < high <= 1
    wide = bootstrap_intervals(docs[:20], 2000, seed=7)["F"]
    narrow = bootstrap_intervals(docs * 10, 2000, seed=7)["F"]
    assert narrow[1] - narrow[0] < intervals["F"][1] - intervals["F"][0] < wide[1] - wide[0]


def test_lower_level_gives_a_narrower_interval():
    docs = random_documents()
    low95, high95 = bootstrap_intervals(docs, 2000, seed=1)["F"]
    low80, high80 = bootstrap_intervals(docs, 2000, seed=1, level=0.8)["F"]
    assert low95 <= low80 < high80 <= high95


def test_beta_weighs_recall():
    docs = [Counts(cor=5, mis=5), Counts(cor=5, spu=0), Counts(cor=2, mis=6)] * 10
    recall_heavy = bootstrap_intervals(docs, 500, seed=2, beta=10.0)["F"]
    assert recall_heavy == pytest.approx(bootstrap_intervals(docs, 500, seed=2)["REC"], abs=0.02)


def test_undefined_metrics_and_empty_input():
    assert bootstrap_intervals([], 100, 1) == {"REC": (None, None), "PRE": (None, None), "F": (None, None)}
    assert bootstrap_intervals(random_documents(), 0, 1)["F"] == (None, None)
    no_hypothesis = [Counts(mis=3), Counts(mis=1)]
    intervals = bootstrap_intervals(no_hypothesis, 100, 1)
    assert intervals["REC"] == (0.0, 0.0) and intervals["PRE"] == (None, None) and intervals["F"] == (0.0, 0.0)


def test_single_perfect_document_is_a_point():
    assert bootstrap_intervals([Counts(cor=4)], 50, 1)["F"] == (1.0, 1.0)


@pytest.mark.parametrize(("n", "level"), [(-1, 0.95), (10, 0.0), (10, 1.0), (10, 1.5)])
def test_bad_arguments(n, level):
    with pytest.raises(ValueError):
        bootstrap_intervals(random_documents(), n, 1, level=level)


def test_progress_reports_blocks_up_to_n(monkeypatch):
    import hub4eval.report.confidence as bootstrap

    monkeypatch.setattr(bootstrap, "_CELLS", 200 * 100)  # blocks of 100 resamples over 200 documents
    seen = []
    bootstrap_intervals(random_documents(), 250, 1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(100, 250), (200, 250), (250, 250)]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.builds(Counts, st.integers(0, 20), st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)),
        min_size=1,
        max_size=30,
    ),
    st.integers(0, 2**32 - 1),
)
def test_intervals_are_ordered_fractions(docs, seed):
    for low, high in bootstrap_intervals(docs, 200, seed).values():
        assert (low is None) == (high is None)
        if low is not None:
            assert 0 <= low <= high <= 1


# ---------------------------------------------------------------- paired


def test_identical_systems_difference_zero_p_one():
    docs = random_documents()
    same = paired_bootstrap(docs, docs, 1000)
    assert same["difference"] == 0.0 and same["p_value"] == 1.0 and same["p_two_sided"] == 1.0
    assert same["interval"] == (0.0, 0.0)


def test_clearly_better_system_small_p_and_interval_around_the_difference():
    docs = random_documents()
    worse = [Counts(cor=max(0, c.cor - 3), inc=c.inc + 3, mis=c.mis, spu=c.spu) for c in docs]
    better = paired_bootstrap(docs, worse, 1000, seed=4)
    assert better["difference"] > 0 and better["p_value"] < 0.01
    low, high = better["interval"]
    assert 0 < low < better["difference"] < high
    swapped = paired_bootstrap(worse, docs, 1000, seed=4)
    assert swapped["difference"] == pytest.approx(-better["difference"])
    assert swapped["p_value"] == better["p_value"]  # same draws, mirrored differences
    assert swapped["interval"] == pytest.approx((-high, -low))


def test_pairing_matters_a_small_consistent_gain_is_significant():
    # B turns one correct point into an incorrect one in every 10th document: tiny but
    # consistent, so the paired test sees it while the two systems' own intervals overlap.
    docs = random_documents(n=300)
    slightly_worse = [
        Counts(cor=c.cor - 1, inc=c.inc + 1, mis=c.mis, spu=c.spu) if i % 10 == 0 and c.cor else c
        for i, c in enumerate(docs)
    ]
    result = paired_bootstrap(docs, slightly_worse, 2000, seed=1)
    assert result["p_value"] < 0.001
    # while the unpaired intervals of the two systems overlap
    a = bootstrap_intervals(docs, 2000, seed=1)["F"]
    b = bootstrap_intervals(slightly_worse, 2000, seed=2)["F"]
    assert b[1] > a[0]


def test_paired_is_deterministic_under_a_seed():
    docs, other = random_documents(1), random_documents(2)
    first = paired_bootstrap(docs, other, 500, seed=3)
    assert first == paired_bootstrap(docs, other, 500, seed=3)
    # the seed is what makes it so: another seed draws other resamples, hence another interval
    again = paired_bootstrap(docs, other, 500, seed=4)
    assert again["interval"] != first["interval"] and again["seed"] == 4
    # while the point estimates do not depend on resampling at all
    assert (again["F_A"], again["F_B"], again["difference"]) == (first["F_A"], first["F_B"], first["difference"])


def test_paired_needs_the_same_documents():
    with pytest.raises(ValueError, match="same documents"):
        paired_bootstrap(random_documents(n=3), random_documents(n=4), 10)


def test_paired_with_undefined_f():
    result = paired_bootstrap([Counts()], [Counts(cor=1)], 100)
    assert result["difference"] is None and result["p_value"] is None


# ---------------------------------------------------------------- document counts


def test_document_counts_sum_to_the_total_and_keep_pointless_documents():
    clean = score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl")
    counts = document_counts(clean)
    assert sum(counts.values(), Counts()) == clean.total
    assert {d: c for d, c in counts.items() if c != Counts()} == {
        d: c for d, c in clean.by("document").items() if c != Counts()
    }
    only_optional = run(
        '<T-A-1> :=\n  C: "q"\n<T-B-1> :=\n  OBJ_STATUS: OPTIONAL\n  C: "r"\n', '<T-A-1> :=\n  C: "q"\n'
    )
    assert document_counts(only_optional) == {"A": Counts(cor=1), "B": Counts()}


# ---------------------------------------------------------------- CLI


def test_score_bootstrap_json_and_table():
    args = ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--bootstrap", "500"]
    result = runner.invoke(app, [*args, "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    boot = data["bootstrap"]
    assert (boot["resamples"], boot["seed"], boot["level"]) == (500, 12345, 0.95)
    for metric in ("REC", "PRE", "F"):
        low, high = boot[metric]
        assert low <= data["summary"][metric] <= high
    table = runner.invoke(app, args)
    lines = table.stdout.splitlines()
    headline = next(i for i, line in enumerate(lines) if line.startswith("F = "))
    assert lines[headline + 1].startswith("95% intervals (500 document resamples, seed 12345): REC ")
    assert "F " in lines[headline + 1]


def test_score_bootstrap_seed_option():
    base = ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--bootstrap", "300", "--json", "-"]
    a = json.loads(runner.invoke(app, [*base, "--seed", "1"]).stdout)["bootstrap"]
    b = json.loads(runner.invoke(app, [*base, "--seed", "1"]).stdout)["bootstrap"]
    assert a == b and a["seed"] == 1


def test_score_without_bootstrap_has_no_bootstrap_key():
    data = json.loads(
        runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--json", "-"]).stdout
    )
    assert "bootstrap" not in data


def test_score_negative_bootstrap_exit_2():
    result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--bootstrap", "-5"])
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == (
        "",
        "--bootstrap must be 0 or more, got -5 (hint: e.g. --bootstrap 10000)\n",
    )


def test_progress_bar_silent_when_not_a_terminal():
    result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--bootstrap", "3000"])
    assert result.exit_code == 0
    assert "bootstrap resamples" not in result.output and "mapping documents" not in result.output


def test_progress_bar_shown_on_a_terminal(monkeypatch):
    import io

    from rich.console import Console

    from hub4eval.cli import score as score_cli

    buffer = io.StringIO()

    def terminal_console(*args, **kwargs):
        return Console(file=buffer, force_terminal=True, width=80)

    monkeypatch.setattr(score_cli, "Console", terminal_console)
    with score_cli.progress_bar("bootstrap resamples", quiet=False) as advance:
        assert advance is not None
        advance(50, 100)
        advance(100, 100)
    assert "bootstrap resamples" in buffer.getvalue()
    with score_cli.progress_bar("bootstrap resamples", quiet=True) as advance:
        assert advance is None
