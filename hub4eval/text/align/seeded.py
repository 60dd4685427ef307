"""The seeded route for long texts: unique n-gram anchors, checked, and exact gaps between them."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import numpy as np

from hub4eval.text.align import certify
from hub4eval.text.align import exact as budgets
from hub4eval.text.align.certify import _absent_bound, _certify
from hub4eval.text.align.codes import _Columns, _Vocab
from hub4eval.text.align.costs import Alignment
from hub4eval.text.align.exact import _band_cells, _certified_band, _certifying_width, _run_band, _solve_gap

ANCHOR_K = 4
"""Shortest anchor n-gram (see ``_anchor_length``)."""
ANCHOR_K_MAX = 16
"""Longest anchor n-gram."""
PRUNE_PASSES = 3
"""Passes of the anchor check (each pass re-aligns the gaps)."""
PRUNE_MAX_CELLS = 1_000_000
"""Largest window (cells) of the anchor check; larger windows keep their anchor."""


def _anchor_length(rc: np.ndarray, hc: np.ndarray) -> int:
    """Anchor n-gram length: long enough that a coincidental match is unlikely.

    With unigram entropy ``H`` (nats) a given n-gram pair matches by chance
    with probability about ``exp(-n H)``; ``n`` is chosen so that the expected
    number of chance matches over all ``len(ref) * len(hyp)`` position pairs
    is below 1/100 (4 for natural-language vocabularies, longer for tiny ones).
    """
    counts = np.bincount(np.concatenate((rc, hc)))
    p = counts[counts > 0] / counts.sum()
    entropy = float(-(p * np.log(p)).sum())
    if entropy <= 0:
        return ANCHOR_K_MAX
    need = np.log(100.0 * max(len(rc), 1) * max(len(hc), 1)) / entropy
    return int(min(ANCHOR_K_MAX, max(ANCHOR_K, np.ceil(need))))


def _anchor_runs(
    k: SimpleNamespace, rc: np.ndarray, hc: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of matches seeded by ``size``-grams unique in both sequences (longest increasing chain)."""
    empty = np.empty(0, np.int64)
    if len(rc) < size or len(hc) < size:
        return empty, empty, empty

    def grams(codes: np.ndarray) -> np.ndarray:
        # Polynomial hash modulo 2**64; collisions are harmless because
        # anchors are verified word by word below.
        x = codes.astype(np.uint64) + np.uint64(1)
        acc = x[: len(x) - size + 1].copy()
        for t in range(1, size):
            acc *= np.uint64(0x9E3779B97F4A7C15)
            acc ^= x[t : len(x) - size + 1 + t]
        return acc

    def unique(hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keys, first, counts = np.unique(hashes, return_index=True, return_counts=True)
        once = counts == 1
        return keys[once], first[once]

    rk, rp = unique(grams(rc))
    hk, hp = unique(grams(hc))
    _, ia, ib = np.intersect1d(rk, hk, assume_unique=True, return_indices=True)
    ai, aj = rp[ia], hp[ib]
    ok = np.ones(len(ai), dtype=bool)
    for t in range(size):
        ok &= rc[ai + t] == hc[aj + t]
    ai, aj = ai[ok], aj[ok]
    order = np.argsort(ai, kind="stable")
    ai, aj = ai[order], aj[order]
    chain = k.lis(aj)
    return k.runs(ai[chain].astype(np.int64), aj[chain].astype(np.int64), size)


def _batch(
    k: SimpleNamespace,
    r: np.ndarray,
    h: np.ndarray,
    rs: np.ndarray,
    re: np.ndarray,
    hs: np.ndarray,
    he: np.ndarray,
    voc: _Vocab,
    local: bool,
) -> tuple[np.ndarray, ...]:
    """Run ``_k_batch``; returns (out_r, out_h, out_k, seg_pos, seg_cols, seg_cost)."""
    total = int((re - rs).sum() + (he - hs).sum())
    out_r = np.empty(total, np.int32)
    out_h = np.empty(total, np.int32)
    out_k = np.empty(total, np.int8)
    nseg = len(rs)
    seg_pos = np.empty(nseg, np.int64)
    seg_cols = np.empty(nseg, np.int64)
    seg_cost = np.empty(nseg, np.int64)
    used = k.batch(
        r,
        h,
        rs,
        re,
        hs,
        he,
        voc.chars,
        voc.offs,
        voc.frag,
        voc.maxlen,
        budgets.FULL_CELLS,
        local,
        out_r,
        out_h,
        out_k,
        seg_pos,
        seg_cols,
        seg_cost,
    )
    return out_r[:used], out_h[:used], out_k[:used], seg_pos, seg_cols, seg_cost


def _seeded(
    k: SimpleNamespace, rc: np.ndarray, hc: np.ndarray, voc: _Vocab, ar: np.ndarray, ah: np.ndarray, al: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
    """Alignment matching the anchor runs, each gap between them aligned optimally.

    Returns:
        (ref index, hyp index, kinds, cost of each gap, every gap exact).
    """
    n, m = len(rc), len(hc)
    # Gaps (even segments) and runs (odd segments) alternate; the batch
    # kernel solves the runs and the small gaps, _solve_gap the large ones.
    rs = np.empty(2 * len(ar) + 1, np.int64)
    hs = np.empty_like(rs)
    re = np.empty_like(rs)
    he = np.empty_like(rs)
    rs[0::2] = np.concatenate(([0], ar + al))
    hs[0::2] = np.concatenate(([0], ah + al))
    re[0::2] = np.concatenate((ar, [n]))
    he[0::2] = np.concatenate((ah, [m]))
    rs[1::2], re[1::2] = ar, ar + al
    hs[1::2], he[1::2] = ah, ah + al
    out_r, out_h, out_k, seg_pos, seg_cols, seg_cost = _batch(k, rc, hc, rs, re, hs, he, voc, False)
    exact = True
    deferred = np.flatnonzero(seg_cols < 0)
    if len(deferred):
        cols = _Columns()
        start = 0
        for s in deferred:
            p = int(seg_pos[s])
            cols.add(out_r[start:p], out_h[start:p], out_k[start:p])
            seg_cost[s], gap_exact = _solve_gap(
                k, rc[rs[s] : re[s]], hc[hs[s] : he[s]], voc, int(rs[s]), int(hs[s]), cols
            )
            exact = exact and gap_exact
            start = p
        cols.add(out_r[start:], out_h[start:], out_k[start:])
        out_r, out_h, out_k = cols.arrays()
    return out_r, out_h, out_k, seg_cost[0::2], exact


def _certify_cost(k: SimpleNamespace, rc: np.ndarray, hc: np.ndarray, voc: _Vocab, cost: int) -> certify._Certificate:
    """``_certify`` on the band that certifies an alignment costing ``cost`` (Ukkonen's width)."""
    n, m = len(rc), len(hc)
    w = _certifying_width(cost, n - m)
    return _certify(k, rc, hc, voc, cost, min(0, n - m) - w, max(0, n - m) + w, certify.SEARCH_MAX_CELLS)


def _align_codes(k: SimpleNamespace, rc: np.ndarray, hc: np.ndarray, voc: _Vocab) -> Alignment:
    """Align two coded sequences (the strategy of the module docstring)."""
    n, m = len(rc), len(hc)
    if n * m <= budgets.FULL_CELLS:
        cost, cr, ch, ck = _run_band(k, rc, hc, -m, n, voc, 0, 0)
        return Alignment(cr, ch, cost, ck, True)
    ar, ah, al = _anchor_runs(k, rc, hc, _anchor_length(rc, hc))
    out_r, out_h, out_k, gap_cost, exact = _seeded(k, rc, hc, voc, ar, ah, al)
    first = int(gap_cost.sum())
    early = None
    if len(ar):
        # Certify before checking the runs: when the search finds this cost
        # optimal, no run can be dropped (a drop lowers the cost), so the
        # check would keep them all and certify this same cost again.
        early = _certify_cost(k, rc, hc, voc, first)
    if early is None or not (early.complete and early.cost == first):
        for passes in range(PRUNE_PASSES + 1):
            if passes:
                out_r, out_h, out_k, gap_cost, exact = _seeded(k, rc, hc, voc, ar, ah, al)
            if len(ar) == 0:
                break
            keep = np.ones(len(ar), dtype=np.bool_)
            if passes == PRUNE_PASSES or not k.prune(
                rc,
                hc,
                ar,
                ah,
                al,
                gap_cost,
                voc.chars,
                voc.offs,
                voc.frag,
                voc.lengths,
                voc.masks,
                voc.maxlen,
                PRUNE_MAX_CELLS,
                keep,
            ):
                break
            ar, ah, al = ar[keep], ah[keep], al[keep]
    cost = int(gap_cost.sum())
    if exact and len(ar) == 0:
        return Alignment(out_r, out_h, cost, out_k, True)
    # The seeded cost bounds the optimum: the band that certifies it
    # (Ukkonen), searched with the cells the seed heuristic prunes skipped
    # (each drop lowers the cost, so the same cost means the same runs and
    # the same certificate).
    n, m = len(rc), len(hc)
    w = _certifying_width(cost, n - m)
    dlo, dhi = min(0, n - m) - w, max(0, n - m) + w
    cert = early if early is not None and cost == first else _certify_cost(k, rc, hc, voc, cost)
    if cert.complete and cert.columns is not None:
        if cert.cost < cost or _band_cells(n, m, dlo, dhi) <= budgets.BAND_MAX_CELLS:
            cr, ch, ck = cert.columns
            return Alignment(cr, ch, cert.cost, ck, True)
        # Beyond the band budget the seeded alignment was always returned;
        # it still is, now proven optimal.
        return Alignment(out_r, out_h, cost, out_k, True)
    certified = _certified_band(k, rc, hc, voc, 0, 0, cost, budgets.BAND_MAX_CELLS)
    if certified is not None:
        return Alignment(certified[1], certified[2], certified[0], certified[3], True)
    if cert.lower >= cost:
        return Alignment(out_r, out_h, cost, out_k, True, cost - cert.lower)
    # Without a certificate: the better of the search's bound and that of the
    # word sequences one text lacks (it needs no table over the band), computed
    # when the guarantee is read (no score reads it).
    return Alignment(out_r, out_h, cost, out_k, False, 0, partial(_unproven_lower, cert.lower, cost, rc, hc, voc))


def _unproven_lower(searched: int, cost: int, rc: np.ndarray, hc: np.ndarray, voc: _Vocab) -> int:
    """The lower bound of an alignment the search did not certify (see :func:`_align_codes`): a
    function of arrays, so that an alignment made in a child is sent with it, not computed there."""
    from hub4eval.text.align.kernels import _kernels

    return max(searched, min(cost, _absent_bound(_kernels(), rc, hc, voc)))
