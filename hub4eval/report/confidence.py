"""Confidence by document-level bootstrap resampling.

Documents are the independent units of a broadcast-news evaluation, so a
resample draws as many documents as there are, with replacement, and scores
the sum of their counts. Counts per document are computed once and stacked
into a (documents x categories) array; a block of resamples is a
(resamples x documents) multinomial weight matrix (how many times each
document was drawn), and its matrix product with the count array gives every
resample's summed counts at once — never a re-scoring.

* :func:`bootstrap_intervals`: percentile intervals of REC, PRE and F.
* :func:`ceiling_intervals`: the system's F, the ceiling's F and their
  ratio, both results resampled on the same draws.
* :func:`hub4eval.report.systems.paired_bootstrap` (system A against system
  B) resamples with the same helpers.

numpy is imported inside the functions: the CLI imports this module only when
``--bootstrap`` or ``compare`` is used, and ``hub4eval --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from hub4eval.scoring.metrics import Counts

DEFAULT_SEED = 12345
DEFAULT_LEVEL = 0.95
_CELLS = 4_000_000  # weight-matrix cells per block: ~32 MB of float64, whatever the corpus size
_MAX_BLOCK = 2_000  # resamples per block at most, so a progress bar moves even for few documents

Progress = Callable[[int, int], None]


def document_counts(result: Any) -> dict[str, Counts]:
    """Counts of every document of a :class:`~hub4eval.scoring.result.ScoreResult`.

    Unlike ``result.by("document")``, a document whose instance sets gave no
    point at all (e.g. only optional instances, left unmatched) is kept with
    zero counts: it is still a document of the evaluation and is drawn like
    any other.
    """
    out: dict[str, Counts] = {}
    for docid, counts in result.set_counts():
        out[docid] = out.get(docid, Counts()) + counts
    for docid, counts in result.by("document").items():
        out.setdefault(docid, counts)
    return out


def _array(counts: Sequence[Counts]) -> Any:
    """The (documents x 4) array of COR, INC, MIS, SPU."""
    import numpy as np

    return np.array([[c.cor, c.inc, c.mis, c.spu] for c in counts], dtype=np.float64).reshape(-1, 4)


def _metrics(sums: Any, beta: float) -> dict[str, Any]:
    """REC, PRE and F of each row of summed counts (NaN where undefined, §4)."""
    import numpy as np

    cor, inc, mis, spu = sums.T
    pos, act = cor + inc + mis, cor + inc + spu
    # F = (1 + b^2) COR / (b^2 POS + ACT), written so that no b over- or
    # underflows: for b >= 1 divided through by b^2 (c = 1/b^2 may round to 0,
    # leaving REC), for b < 1 as it is (b^2 may round to 0, leaving PRE).
    if beta >= 1:
        c = 1 / (beta * beta)
        num, den = (1 + c) * cor, pos + c * act
    else:
        b2 = beta * beta
        num, den = (1 + b2) * cor, b2 * pos + act
    with np.errstate(divide="ignore", invalid="ignore"):
        return {
            "REC": np.where(pos > 0, cor / pos, np.nan),
            "PRE": np.where(act > 0, cor / act, np.nan),
            "F": np.where(pos + act > 0, np.where(cor > 0, num / den, 0.0), np.nan),
        }


def _resampled_sums(arrays: Sequence[Any], n: int, seed: int, progress: Progress | None = None) -> Iterator[list[Any]]:
    """Yield, block by block, the resampled count sums of each array (same draws for all).

    The weights of a block are multinomial (documents draws over documents,
    equal probabilities), built by counting uniform draws per row with one
    ``bincount`` — the same distribution as ``Generator.multinomial`` and
    several times faster for many documents. Each array's sums are then one
    matrix product ``weights @ counts``.
    """
    import numpy as np

    documents = arrays[0].shape[0]
    rng = np.random.default_rng(seed)
    block = max(1, min(n, _MAX_BLOCK, _CELLS // max(documents, 1)))
    done = 0
    while done < n:
        size = min(block, n - done)
        draws = rng.integers(0, documents, size=(size, documents), dtype=np.int64)
        draws += (np.arange(size, dtype=np.int64) * documents)[:, None]
        weights = np.bincount(draws.ravel(), minlength=size * documents)
        weights = weights.reshape(size, documents).astype(np.float64)
        yield [weights @ array for array in arrays]
        done += size
        if progress is not None:
            progress(done, n)


def _percentiles(data: Any, level: float) -> tuple[float | None, float | None]:
    import numpy as np

    data = data[~np.isnan(data)]
    if data.size == 0:
        return (None, None)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(data, [tail, 100 - tail])
    return (float(low), float(high))


def _check(n: int, level: float) -> None:
    if n < 0:
        raise ValueError(f"the number of resamples must be 0 or more, got {n}")
    if not 0 < level < 1:
        raise ValueError(f"the interval level must be between 0 and 1 (exclusive), got {level}")


def bootstrap_intervals(
    doc_counts: Sequence[Counts],
    n: int,
    seed: int = DEFAULT_SEED,
    beta: float = 1.0,
    level: float = DEFAULT_LEVEL,
    *,
    progress: Progress | None = None,
) -> dict[str, tuple[float | None, float | None]]:
    """Percentile intervals of REC, PRE and F over ``n`` document resamples.

    Args:
        doc_counts: counts of each document (see :func:`document_counts`).
        n: number of resamples.
        seed: random seed; the same counts, ``n`` and seed give the same intervals.
        beta: weight of recall in F.
        level: coverage of the interval (0.95: 2.5th to 97.5th percentile).
        progress: called as ``progress(done, n)`` after each block of resamples.

    Returns:
        ``{"REC": (low, high), "PRE": ..., "F": ...}``. A resample in which a
        metric is undefined (zero denominator) is left out for that metric;
        (None, None) when it is undefined in every resample, or with no
        documents or no resamples.

    Raises:
        ValueError: ``n`` negative or ``level`` not inside (0, 1).
    """
    import numpy as np

    _check(n, level)
    if not doc_counts or n == 0:
        return {m: (None, None) for m in ("REC", "PRE", "F")}
    values: dict[str, list[Any]] = {"REC": [], "PRE": [], "F": []}
    for (sums,) in _resampled_sums([_array(doc_counts)], n, seed, progress):
        for name, array in _metrics(sums, beta).items():
            values[name].append(array)
    return {name: _percentiles(np.concatenate(arrays), level) for name, arrays in values.items()}


def ceiling_intervals(
    system: dict[str, Counts],
    ceiling: dict[str, Counts],
    n: int,
    seed: int = DEFAULT_SEED,
    beta: float = 1.0,
    level: float = DEFAULT_LEVEL,
    *,
    progress: Progress | None = None,
) -> dict[str, tuple[float | None, float | None]]:
    """Percentile intervals of the system's F, the ceiling's F and their ratio.

    The two results are resampled together: each resample draws documents
    (the union of both results' DOCIDs, a DOCID missing on one side counting
    zero there) and scores the system and the ceiling on the same draw.

    Args:
        system: counts per document of the system (:func:`document_counts`).
        ceiling: the same for the projected reference.
        n, seed, beta, level, progress: as :func:`bootstrap_intervals`.

    Returns:
        ``{"F": ..., "ceiling_F": ..., "fraction_of_ceiling": ...}``, each
        (low, high); a resample where a value is undefined is left out for it.
    """
    import numpy as np

    _check(n, level)
    names = ("F", "ceiling_F", "fraction_of_ceiling")
    docids = list(dict.fromkeys([*system, *ceiling]))
    if not docids or n == 0:
        return {m: (None, None) for m in names}
    arrays = [_array([side.get(d, Counts()) for d in docids]) for side in (system, ceiling)]
    values: dict[str, list[Any]] = {m: [] for m in names}
    for sums_system, sums_ceiling in _resampled_sums(arrays, n, seed, progress):
        f_system = _metrics(sums_system, beta)["F"]
        f_ceiling = _metrics(sums_ceiling, beta)["F"]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(f_ceiling > 0, f_system / f_ceiling, np.nan)
        values["F"].append(f_system)
        values["ceiling_F"].append(f_ceiling)
        values["fraction_of_ceiling"].append(ratio)
    return {name: _percentiles(np.concatenate(chunks), level) for name, chunks in values.items()}


__all__ = ["DEFAULT_SEED", "bootstrap_intervals", "ceiling_intervals", "document_counts"]
