"""Confidence by document-level bootstrap resampling.

Documents are the independent units of a broadcast-news evaluation, so a
resample draws as many documents as there are, with replacement, and scores
the sum of their counts. Counts per document are computed once; a resample is
a row of drawn document indices whose counts are gathered and summed with
numpy, chunk by chunk — never a re-scoring.

* :func:`bootstrap_intervals`: percentile intervals of REC, PRE and F.
* :func:`paired_bootstrap`: system A against system B on the same resamples;
  the p-value is the share of resamples in which the difference F(A) - F(B)
  does not have the sign of the observed difference (0 or the opposite sign),
  the usual one-sided paired-bootstrap test (Koehn 2004); a two-sided reading
  doubles it (capped at 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .metrics import Counts

DEFAULT_SEED = 12345
_CHUNK = 2000  # resamples per matrix product: bounds memory at ~chunk x documents


def _matrix(counts: Sequence[Counts]) -> Any:
    import numpy as np

    return np.array([[c.cor, c.inc, c.mis, c.spu] for c in counts], dtype=np.float64).reshape(-1, 4)


def _metrics(sums: Any, beta: float) -> dict[str, Any]:
    import numpy as np

    cor, inc, mis, spu = sums.T
    pos, act = cor + inc + mis, cor + inc + spu
    b2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        return {
            "REC": np.where(pos > 0, cor / pos, np.nan),
            "PRE": np.where(act > 0, cor / act, np.nan),
            "F": np.where(b2 * pos + act > 0, (b2 + 1) * cor / (b2 * pos + act), np.nan),
        }


def _resampled_sums(matrices: Sequence[Any], n: int, seed: int):  # noqa: ANN202
    """Yield, chunk by chunk, the resampled count sums of each matrix (same draws for all).

    A resample is ``documents`` indices drawn with replacement; its sums are a
    gather-and-add per count column (faster than multinomial weights and a
    matrix product, which spend their time drawing the weights).
    """
    import numpy as np

    documents = matrices[0].shape[0]
    rng = np.random.default_rng(seed)
    columns = [[np.ascontiguousarray(matrix[:, k]) for k in range(matrix.shape[1])] for matrix in matrices]
    done = 0
    while done < n:
        size = min(_CHUNK, n - done)
        index = rng.integers(0, documents, size=(size, documents), dtype=np.int32)
        yield [np.stack([column[index].sum(axis=1) for column in matrix_columns], axis=1)
               for matrix_columns in columns]
        done += size


def bootstrap_intervals(
    doc_counts: Sequence[Counts], n: int, seed: int = DEFAULT_SEED, beta: float = 1.0, level: float = 0.95
) -> dict[str, tuple[float | None, float | None]]:
    """Percentile intervals of REC, PRE and F over ``n`` document resamples.

    Args:
        doc_counts: counts of each document.
        n: number of resamples.
        seed: random seed (the same seed gives the same intervals).
        beta: weight of recall in F.
        level: coverage of the interval.

    Returns:
        ``{"REC": (low, high), "PRE": ..., "F": ...}``; (None, None) for a
        metric undefined in every resample (or with no documents).
    """
    import numpy as np

    if not doc_counts or n <= 0:
        return {m: (None, None) for m in ("REC", "PRE", "F")}
    values: dict[str, list[Any]] = {"REC": [], "PRE": [], "F": []}
    for (sums,) in _resampled_sums([_matrix(doc_counts)], n, seed):
        for name, array in _metrics(sums, beta).items():
            values[name].append(array)
    tail = (1 - level) / 2 * 100
    out: dict[str, tuple[float | None, float | None]] = {}
    for name, arrays in values.items():
        data = np.concatenate(arrays)
        data = data[~np.isnan(data)]
        if data.size == 0:
            out[name] = (None, None)
        else:
            low, high = np.percentile(data, [tail, 100 - tail])
            out[name] = (float(low), float(high))
    return out


def paired_bootstrap(
    counts_a: Sequence[Counts],
    counts_b: Sequence[Counts],
    n: int,
    seed: int = DEFAULT_SEED,
    beta: float = 1.0,
    level: float = 0.95,
) -> dict[str, Any]:
    """F(A) - F(B) with a paired bootstrap p-value and interval.

    ``counts_a[i]`` and ``counts_b[i]`` must be the same document.

    Returns:
        ``{"F_A", "F_B", "difference", "interval": (low, high), "p_value", "n", "seed"}``.
    """
    import numpy as np

    if len(counts_a) != len(counts_b):
        raise ValueError("paired bootstrap needs the counts of the same documents for A and B")
    total_a, total_b = sum(counts_a, Counts()), sum(counts_b, Counts())
    f_a = total_a.metrics(beta)["F"]
    f_b = total_b.metrics(beta)["F"]
    difference = None if f_a is None or f_b is None else f_a - f_b
    result: dict[str, Any] = {
        "F_A": f_a, "F_B": f_b, "difference": difference, "interval": (None, None),
        "p_value": None, "n": n, "seed": seed,
    }
    if not counts_a or n <= 0 or difference is None:
        return result
    diffs = []
    for sums_a, sums_b in _resampled_sums([_matrix(counts_a), _matrix(counts_b)], n, seed):
        diffs.append(_metrics(sums_a, beta)["F"] - _metrics(sums_b, beta)["F"])
    data = np.concatenate(diffs)
    data = data[~np.isnan(data)]
    if data.size == 0:
        return result
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(data, [tail, 100 - tail])
    if difference > 0:
        flips = np.count_nonzero(data <= 0)
    elif difference < 0:
        flips = np.count_nonzero(data >= 0)
    else:
        flips = data.size
    result["interval"] = (float(low), float(high))
    result["p_value"] = float(flips / data.size)
    return result
