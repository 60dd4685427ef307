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


# --------------------------------------------------- intervals in bounded memory
#
# Up to _KEEP resamples, every resample's value is kept and the interval is
# numpy's percentile of them. Beyond, memory must not grow with the number of
# resamples: the same resamples (the same seed gives the same draws) are made
# again in four passes, and each pass reads 16 more bits of the order
# statistics the percentiles need, from a histogram of 65,536 counts (a float's
# bits, read as an integer with its sign turned, sort as the float does). The
# result is the same as keeping every value: the same order statistics, the
# same interpolation as numpy's.

_KEEP = 1_000_000  # resamples whose values are kept (8 MB per metric)
MAX_RESAMPLES = 10_000_000  # the most resamples a command accepts (see check_resamples)
_BITS = 16
_PASSES = 64 // _BITS

Chunks = Callable[[Progress | None], Iterator[dict[str, Any]]]


def check_resamples(n: int, option: str = "--bootstrap") -> None:
    """Refuse a number of resamples outside 0..MAX_RESAMPLES, naming the option and why.

    Raises:
        UsageError: ``n`` negative or above :data:`MAX_RESAMPLES`.
    """
    from hub4eval.errors import UsageError

    if n < 0:
        raise UsageError(f"{option} must be 0 or more, got {n}", hint=f"e.g. {option} 10000")
    if n > MAX_RESAMPLES:
        raise UsageError(
            f"{option} {n:,} is more than {MAX_RESAMPLES:,} resamples: more change no interval at the "
            "precision printed and take hours",
            hint=f"e.g. {option} 10000",
        )


def check_seed(seed: int, option: str = "--seed") -> None:
    """Refuse a negative random seed (numpy's generators take 0 or more), naming the option.

    Raises:
        UsageError: ``seed`` negative.
    """
    from hub4eval.errors import UsageError

    if seed < 0:
        raise UsageError(f"{option} must be 0 or more, got {seed}", hint=f"e.g. {option} {DEFAULT_SEED}")


def _keys(values: Any) -> Any:
    """The values (float64, no NaN) as uint64 integers that sort as the values do."""
    import numpy as np

    bits = values.view(np.uint64)
    sign = np.uint64(1 << 63)
    return np.where(bits & sign, ~bits, bits | sign)


def _value(key: int) -> float:
    import numpy as np

    bits = key ^ (1 << 63) if key >> 63 else ~key & ((1 << 64) - 1)
    return float(np.array([bits], dtype=np.uint64).view(np.float64)[0])


def _lerp(a: float, b: float, t: float) -> float:
    """numpy's linear interpolation between two order statistics (the same rounding)."""
    difference = b - a
    return b - difference * (1 - t) if t >= 0.5 else a + difference * t


def _streamed_intervals(chunks: Chunks, names: Sequence[str], level: float, progress: Progress | None) -> dict:
    """The percentile interval of each metric of ``chunks``, in memory independent of its length.

    ``chunks(progress)`` yields the same chunks (``{metric: values}``) every
    time it is called; it is called once per pass.
    """
    import numpy as np

    size = 1 << _BITS
    tail = (1 - level) / 2 * 100
    quantiles = [np.true_divide(tail, 100), np.true_divide(100 - tail, 100)]

    def passing(number: int) -> Progress | None:
        if progress is None:
            return None
        return lambda done, n: progress(number * n + done, _PASSES * n)

    # pass 1: how many values each metric has, and the histogram of their top bits
    counts = dict.fromkeys(names, 0)
    top = {name: np.zeros(size, dtype=np.int64) for name in names}
    for chunk in chunks(passing(0)):
        for name in names:
            values = chunk[name][~np.isnan(chunk[name])]
            counts[name] += values.size
            top[name] += np.bincount((_keys(values) >> np.uint64(64 - _BITS)).astype(np.int64), minlength=size)
    # the order statistics each interval needs: (metric, rank) -> [prefix found so far, rank within it]
    targets: dict[tuple[str, int], list[int]] = {}
    plans: dict[str, list[tuple[int, int, float]]] = {}
    for name in names:
        m = counts[name]
        if m == 0:
            continue
        plans[name] = []
        for q in quantiles:
            virtual = (m - 1) * q
            below = int(np.floor(virtual))
            above = min(below + 1, m - 1)
            plans[name].append((below, above, float(virtual - below)))
            for rank in (below, above):
                targets[(name, rank)] = [0, rank]

    def narrow(target: list[int], histogram: Any) -> None:
        cumulative = np.cumsum(histogram)
        bin_ = int(np.searchsorted(cumulative, target[1], side="right"))
        target[1] -= int(cumulative[bin_ - 1]) if bin_ else 0
        target[0] = (target[0] << _BITS) | bin_

    for (name, _), target in targets.items():
        narrow(target, top[name])
    for number in range(1, _PASSES):
        shift = np.uint64(64 - _BITS * (number + 1))
        known = np.uint64(64 - _BITS * number)
        histograms = {key: np.zeros(size, dtype=np.int64) for key in targets}
        for chunk in chunks(passing(number)):
            keys = {name: _keys(chunk[name][~np.isnan(chunk[name])]) for name in plans}
            for (name, rank), target in targets.items():
                inside = keys[name][(keys[name] >> known) == np.uint64(target[0])]
                histograms[name, rank] += np.bincount(
                    ((inside >> shift) & np.uint64(size - 1)).astype(np.int64), minlength=size
                )
        for key, target in targets.items():
            narrow(target, histograms[key])
    out: dict[str, tuple[float | None, float | None]] = {name: (None, None) for name in names}
    for name, plan in plans.items():
        low, high = (
            _lerp(_value(targets[name, below][0]), _value(targets[name, above][0]), gamma)
            for below, above, gamma in plan
        )
        out[name] = (low, high)
    return out


def _intervals(chunks: Chunks, names: Sequence[str], n: int, level: float, progress: Progress | None) -> dict:
    """Percentile intervals of each metric over ``n`` resamples: the values kept when
    there are few, else :func:`_streamed_intervals`."""
    import numpy as np

    if n > _KEEP:
        return _streamed_intervals(chunks, names, level, progress)
    values: dict[str, list[Any]] = {name: [] for name in names}
    for chunk in chunks(progress):
        for name in names:
            values[name].append(chunk[name])
    return {name: _percentiles(np.concatenate(arrays), level) for name, arrays in values.items()}


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
    _check(n, level)
    if not doc_counts or n == 0:
        return {m: (None, None) for m in ("REC", "PRE", "F")}
    array = _array(doc_counts)

    def chunks(report: Progress | None) -> Iterator[dict[str, Any]]:
        for (sums,) in _resampled_sums([array], n, seed, report):
            yield _metrics(sums, beta)

    return _intervals(chunks, ("REC", "PRE", "F"), n, level, progress)


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

    def chunks(report: Progress | None) -> Iterator[dict[str, Any]]:
        for sums_system, sums_ceiling in _resampled_sums(arrays, n, seed, report):
            f_system = _metrics(sums_system, beta)["F"]
            f_ceiling = _metrics(sums_ceiling, beta)["F"]
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(f_ceiling > 0, f_system / f_ceiling, np.nan)
            yield {"F": f_system, "ceiling_F": f_ceiling, "fraction_of_ceiling": ratio}

    return _intervals(chunks, names, n, level, progress)


__all__ = [
    "DEFAULT_SEED",
    "MAX_RESAMPLES",
    "bootstrap_intervals",
    "ceiling_intervals",
    "check_resamples",
    "check_seed",
    "document_counts",
]
