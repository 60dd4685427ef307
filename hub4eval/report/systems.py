"""Comparing two systems: the paired bootstrap on the same document resamples.

The p-value is the share of resamples in which the difference F(A) - F(B)
does not keep the sign of the observed difference (it is zero or has the
opposite sign): the paired bootstrap test of Koehn (2004), one-sided in the
direction observed. ``p_two_sided`` = min(1, 2 p) is reported beside it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from hub4eval.report.confidence import (
    DEFAULT_LEVEL,
    DEFAULT_SEED,
    Progress,
    _array,
    _check,
    _intervals,
    _metrics,
    _resampled_sums,
)
from hub4eval.scoring.metrics import Counts


def paired_bootstrap(
    counts_a: Sequence[Counts],
    counts_b: Sequence[Counts],
    n: int,
    seed: int = DEFAULT_SEED,
    beta: float = 1.0,
    level: float = DEFAULT_LEVEL,
    *,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """F(A) - F(B) with a paired bootstrap p-value and percentile interval.

    Both systems are summed over the same drawn documents in every resample
    (``counts_a[i]`` and ``counts_b[i]`` must be the same document; give a
    system zero counts for a document it lacks).

    Args:
        counts_a: counts of each document for system A.
        counts_b: counts of the same documents, in the same order, for B.
        n: number of resamples.
        seed: random seed.
        beta: weight of recall in F.
        level: coverage of the interval of the difference.
        progress: called as ``progress(done, n)`` after each block of resamples.

    Returns:
        ``{"F_A", "F_B", "difference", "interval": (low, high), "p_value",
        "p_two_sided", "resamples", "seed", "level"}``. ``p_value`` is the share
        of resamples whose difference is zero or of the sign opposite to the
        observed one (1.0 when the observed difference is zero); None values
        when F is undefined or there is nothing to resample.

    Raises:
        ValueError: the two sequences differ in length, ``n`` negative or
            ``level`` not inside (0, 1).
    """
    import numpy as np

    _check(n, level)
    if len(counts_a) != len(counts_b):
        raise ValueError(
            f"paired bootstrap needs the counts of the same documents for A and B "
            f"(got {len(counts_a)} and {len(counts_b)})"
        )
    f_a = sum(counts_a, Counts()).metrics(beta)["F"]
    f_b = sum(counts_b, Counts()).metrics(beta)["F"]
    difference = None if f_a is None or f_b is None else f_a - f_b
    result: dict[str, Any] = {
        "F_A": f_a,
        "F_B": f_b,
        "difference": difference,
        "interval": (None, None),
        "p_value": None,
        "p_two_sided": None,
        "resamples": n,
        "seed": seed,
        "level": level,
    }
    if not counts_a or n == 0 or difference is None:
        return result
    arrays = [_array(counts_a), _array(counts_b)]
    # counted in the first pass over the resamples (there are several when they are many)
    tally = {"passes": 0, "size": 0, "flips": 0}

    def chunks(report: Progress | None) -> Iterator[dict[str, Any]]:
        counting = tally["passes"] == 0
        tally["passes"] += 1
        for sums_a, sums_b in _resampled_sums(arrays, n, seed, report):
            diffs = _metrics(sums_a, beta)["F"] - _metrics(sums_b, beta)["F"]
            if counting:
                data = diffs[~np.isnan(diffs)]
                tally["size"] += int(data.size)
                if difference > 0:
                    tally["flips"] += int(np.count_nonzero(data <= 0))
                elif difference < 0:
                    tally["flips"] += int(np.count_nonzero(data >= 0))
                else:
                    tally["flips"] += int(data.size)
            yield {"difference": diffs}

    interval = _intervals(chunks, ("difference",), n, level, progress)["difference"]
    if tally["size"] == 0:
        return result
    p_value = tally["flips"] / tally["size"]
    result["interval"] = interval
    result["p_value"] = p_value
    result["p_two_sided"] = min(1.0, 2 * p_value)
    return result


__all__ = ["paired_bootstrap"]
