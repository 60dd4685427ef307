"""Solving one gap exactly: the certified band DP, and Hirschberg when no band fits."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from hub4eval.text.align.codes import _Columns, _Vocab
from hub4eval.text.align.costs import INDEL

FULL_CELLS = 4_000_000
"""Largest ``n * m`` solved by one full-matrix DP (4 MB of traceback)."""
BAND_MAX_CELLS = 64_000_000
"""Largest band (cells, one byte each) run by the certified band DP."""
HIRSCHBERG_MAX_CELLS = 400_000_000
"""Largest ``n * m`` gap solved by Hirschberg when no certified band fits."""
_BAND_START = 8


def _band_cells(n: int, m: int, dlo: int, dhi: int) -> int:
    """Number of cells of a band (what ``_k_band`` allocates, one byte each)."""
    dlo, dhi = max(dlo, -m), min(dhi, n)
    i = np.arange(n + 1, dtype=np.int64)
    return int((np.minimum(m, i - dlo) - np.maximum(0, i - dhi) + 1).sum())


def _run_band(
    k: SimpleNamespace, r: np.ndarray, h: np.ndarray, dlo: int, dhi: int, voc: _Vocab, r_base: int, h_base: int
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    n, m = len(r), len(h)
    out_r = np.empty(n + m, np.int32)
    out_h = np.empty(n + m, np.int32)
    out_k = np.empty(n + m, np.int8)
    buf = np.empty(voc.maxlen + 2, np.int64)
    cost, ncols = k.band(r, h, dlo, dhi, voc.chars, voc.offs, voc.frag, buf, out_r, out_h, out_k, 0, r_base, h_base)
    return int(cost), out_r[:ncols], out_h[:ncols], out_k[:ncols]


def _certifying_width(cost: int, delta: int) -> int:
    """Smallest ``w >= 0`` with ``INDEL * (|delta| + 2w + 2) >= cost``."""
    units = -(-cost // INDEL)  # ceil: the bound must reach the cost itself
    return max(0, -(-(units - abs(delta) - 2) // 2))


def _certified_band(
    k: SimpleNamespace,
    r: np.ndarray,
    h: np.ndarray,
    voc: _Vocab,
    r_base: int,
    h_base: int,
    upper: int | None,
    budget: int,
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray] | None:
    """Band DP widened until it is provably optimal, or None if the band would exceed ``budget`` cells.

    A path touching a diagonal outside ``[min(0, n-m) - w, max(0, n-m) + w]``
    has at least ``|n-m| + 2w + 2`` insertions and deletions, so a band result
    costing at most ``INDEL * (|n-m| + 2w + 2)`` is optimal.

    Args:
        upper: a known upper bound of the optimal cost (e.g. a seeded
            alignment's), which fixes the band width in one run; None to start
            narrow and widen once.
        budget: largest band, in cells.
    """
    n, m = len(r), len(h)
    delta = n - m
    if upper is None:
        w = _BAND_START
    else:
        w = _certifying_width(upper, delta)
    while True:
        dlo, dhi = min(0, delta) - w, max(0, delta) + w
        if _band_cells(n, m, dlo, dhi) > budget:
            return None
        result = _run_band(k, r, h, dlo, dhi, voc, r_base, h_base)
        if (dlo <= -m and dhi >= n) or result[0] <= INDEL * (abs(delta) + 2 * w + 2):
            return result
        w = max(w + 1, _certifying_width(result[0], delta))


def _hirschberg(
    k: SimpleNamespace, r: np.ndarray, h: np.ndarray, voc: _Vocab, r_base: int, h_base: int, out: _Columns
) -> int:
    """Optimal alignment in linear space (Hirschberg); appends columns to ``out``, returns the cost."""
    n, m = len(r), len(h)
    if n * m <= FULL_CELLS or n <= 1:
        cost, cr, ch, ck = _run_band(k, r, h, -m, n, voc, r_base, h_base)
        out.add(cr, ch, ck)
        return cost
    mid = n // 2
    buf = np.empty(voc.maxlen + 2, np.int64)
    fwd = np.empty(m + 1, np.int64)
    bwd = np.empty(m + 1, np.int64)
    k.last_row(r[:mid], h, voc.chars, voc.offs, voc.frag, voc.lengths, voc.masks, buf, fwd)
    k.last_row(
        np.ascontiguousarray(r[mid:][::-1]),
        np.ascontiguousarray(h[::-1]),
        voc.chars,
        voc.offs,
        voc.frag,
        voc.lengths,
        voc.masks,
        buf,
        bwd,
    )
    split = int(np.argmin(fwd + bwd[::-1]))
    left = _hirschberg(k, r[:mid], h[:split], voc, r_base, h_base, out)
    right = _hirschberg(k, r[mid:], h[split:], voc, r_base + mid, h_base + split, out)
    return left + right


def _solve_gap(
    k: SimpleNamespace, r: np.ndarray, h: np.ndarray, voc: _Vocab, r_base: int, h_base: int, out: _Columns
) -> tuple[int, bool]:
    """Align a gap too large for the full matrix: certified band, else Hirschberg, else widest band.

    Returns:
        (cost, exact).
    """
    res = _certified_band(k, r, h, voc, r_base, h_base, None, BAND_MAX_CELLS)
    if res is not None:
        out.add(*res[1:])
        return res[0], True
    n, m = len(r), len(h)
    if n * m <= HIRSCHBERG_MAX_CELLS:
        return _hirschberg(k, r, h, voc, r_base, h_base, out), True
    # No exact method fits the budgets: the widest band that fits, not
    # certified; when even the narrowest band does not fit (lengths very
    # different), Hirschberg regardless of time (memory stays linear).
    delta = n - m

    def cells(w: int) -> int:
        return _band_cells(n, m, min(0, delta) - w, max(0, delta) + w)

    if cells(0) > BAND_MAX_CELLS:
        return _hirschberg(k, r, h, voc, r_base, h_base, out), True
    lo, hi = 0, n + m
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if cells(mid) <= BAND_MAX_CELLS:
            lo = mid
        else:
            hi = mid - 1
    res = _run_band(k, r, h, min(0, delta) - lo, max(0, delta) + lo, voc, r_base, h_base)
    out.add(*res[1:])
    return res[0], False
