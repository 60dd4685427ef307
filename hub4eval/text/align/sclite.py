"""Word alignment and WER counts exactly as NIST sclite computes them.

``sclite_align(ref, hyp)`` returns the same correct/substitution/deletion/
insertion counts *and the same alignment* that sclite (SCTK, commit 9688a26,
``src/sclite/net_dp.c``) produces for two plain word sequences, including its
tie-breaking among equal-cost alignments. This is the alignment whose counts ``score`` and
``align`` print (counted by :mod:`hub4eval.text.wer`); the §7.2 weighted
alignment (the rest of :mod:`hub4eval.text.align`) stays the one that
normalizes extents. Same dynamic programme, another cost model.

The rule being reproduced (``net_dp.c``, ``wwd_WORD`` in ``word.c``):

    D[0][0] = 0, D[0][j] = 3j (insertions), D[i][0] = 3i (deletions)
    sub = D[i-1][j-1] + (0 if ref[i] == hyp[j] else 4)
    del = D[i-1][j]   + 3
    ins = D[i][j-1]   + 3
    if sub <= del and sub <= ins: diagonal (C or S)
    elif del < ins:               deletion
    else:                         insertion
    trace back from (n, m) following these back pointers.

So among equal-cost predecessors a cell prefers the diagonal, then the
insertion, then the deletion; ref ``a a b`` / hyp ``a b a`` gives ``D C C I``.
Words are compared exactly (the caller normalizes case etc.; sclite lower-cases
by default). Tokens that sclite's trn reader treats specially (``@``,
``{a / b}`` alternations, ``(w)`` with ``-D``, ``;`` tags, a trailing ``*``)
are not interpreted: every token is a plain word.

Memory is linear in len(ref) + len(hyp) (sclite itself refuses more than
65,533 words per utterance and needs a quadratic matrix), and the result is
*identical* to the full-matrix traceback (not merely another optimal
alignment). Why: the sclite path restricted to the rectangle before (or
after) any of its cells is that sub-problem's sclite path (the sub-problem's
optimal predecessors of a path cell are a subset of the global ones that
contains the global choice). Every pass is pruned A*-style: a cell is kept
while g + h <= t, with t an upper bound on the sub-problem's optimum (at the
top, the cost of a real path from a band DP guided by rare-bigram anchors;
below, the exact optimum from the pass above) and h an admissible lower
bound of the rest (below). Every cell of every optimal path is kept with its
exact value, and so are the predecessors the traceback chooses between, so
the choices along the sclite path do not change. The guide and anchors only
affect speed.

The lower bound h of a cell on row i: 3 * |diagonal offset to the end|, or
the bounds of the reference chunks below row i plus a bound of the rest of
row i's own chunk. Chunks are 1,024 words (2,048 at the HUB-4 size: they
grow with the square root of a reference beyond 100,000 words, see
:func:`_chunk_length`). A chunk's bound is the least cost of its
placements (free start and end in the hypothesis) whose cells stay within
half a chunk's length of diagonals of the guide's, by an exact backward DP
over that band (so the DP gives the bound of every suffix of the chunk at
once; computed by anti-diagonals, whose cells do not depend on each other,
so that the loop over them is vectorized), unless a bigram filter cannot
exclude that a placement touching a diagonal outside the band is cheaper
(then the filter's bound). The band is wider than a third of a chunk's cost
(about 1.32 a word at 38 % WER): a placement that reaches the guide's
diagonals from outside it pays 3 a diagonal. At the HUB-4 size (400,000
words, 38 % WER after the default GLM) the bounds sum to 473 below the
optimum of 527,241 (1,066 with chunks of 1,024 words; chunks of 256 words
in a band of 128 diagonals, the design before that, left 9,507, and
nothing for the rest of a row's chunk): the slack of the first pass, which
sets its width.

The first pass over a long reference does not halve it: it records, on up to
128 checkpoint rows (at least 2,048 rows apart, on chunk boundaries), the
cell at which the sclite path leaves each of them (each cell's chain of back
pointers carries the column at which it left the checkpoint row before; the
chains restart on every checkpoint row, whose cells are kept until the pass
ends). The sub-problems between consecutive crossings then have exact costs,
so their passes are narrow: one pass each that stores every computed cell's
back pointer (a byte) and traces the path back (:func:`_pruned_align`), or,
when that would take more than 32 MB, halving as before (a pass finds where
the path crosses the middle row).

Complexity: memory O(len(ref) + len(hyp)) plus a fixed 2**21-cell base case
(~19 MB), the checkpoint rows' kept cells (at most 2**24, 4 or 8 bytes
each) and a traced sub-problem's back pointers (at most 32 MB); time
O(cells kept), O(n*m) in the worst case (unrelated or tiny-vocabulary
inputs). At the HUB-4 size: 98 million cells in the first pass (250 a
reference word), 6 million in the traced sub-problems, 891 million in the
chunk bounds' band DPs (vectorized: 0.17 ns a cell); about 0.7 s of CPU in
all (2 s with chunks of 1,024 words and their band DPs row by row, 6.3 s
with the design before).

Kernels are compiled by numba with ``cache=True``; this module imports numba,
so it is itself imported only inside the functions that need it (``hub4eval
--help`` must not load numba). Tested against 844 utterances aligned by the
real sclite (``tests/data/sclite/``, regenerated by
``benchmarks/make_sclite_fixtures.py``).

Why one module of about 1,400 lines: the numba kernels (the base DP, the
forward split and its checkpointed first pass, the traced pass, the guide
pass, the anchor track, the chunk bounds) are the
steps of one divide and conquer that share its work arrays, its code layout
and its invariant (every cell of every optimal path kept with its exact
value); apart, each would be a kernel whose correctness depends on private
details of the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numba
import numpy as np

from hub4eval.text.align.numba_cache import cached_njit


def njit(cache: bool = True) -> Any:
    """``numba.njit(cache=True)`` with the aligner's protection of the on-disk
    cache: a damaged cache is removed with one warning and the kernel compiled
    afresh (see :func:`hub4eval.text.align.numba_cache.cached_njit`). Only the
    package module caches (a copy imported under another name would write
    entries the package cannot load)."""
    return lambda function: cached_njit(numba, function, cache and __name__ == "hub4eval.text.align.sclite")


__all__ = [
    "AlignedOp",
    "SCliteAlignment",
    "sclite_align",
    "sclite_align_full",
    "COST_CORRECT",
    "COST_SUBSTITUTION",
    "COST_INSERTION",
    "COST_DELETION",
]

COST_CORRECT = 0
COST_SUBSTITUTION = 4
COST_INSERTION = 3
COST_DELETION = 3

OP_C, OP_S, OP_D, OP_I = 0, 1, 2, 3
_OP_NAMES = ("C", "S", "D", "I")

_INF = np.int64(1) << np.int64(60)

# Base case: full matrix with back pointers when (rows+1)*(cols+1) <= this.
_BASE_AREA = 1 << 21
# Guide (upper bound) band half width, chunk length and near window for the
# chunk lower bounds (up to _CHUNK_WORDS reference words), bigram posting-list cap.
_GUIDE_W = 64
_CHUNK_T = 1024
_CHUNK_W = 512
_BIGRAM_CAP = 48
_CHUNK_WORDS = 100_000
"""Reference words up to which the chunks are ``_CHUNK_T`` long; beyond, they grow with the
square root of the length (see :func:`_chunk_length`)."""
_ANCHOR_T = 256
"""Reference words per chunk of the anchor track (at most ``_CHUNK_T``)."""
_TRACE_CELLS = 1 << 25
"""Most back pointers (one byte each) a pruned pass stores to trace a sub-problem's path at once
(:func:`_pruned_align`); a wider one is split in halves."""


class AlignedOp(NamedTuple):
    op: str  # "C", "S", "D" or "I"
    ref_index: int | None  # index into ref (None for insertions)
    hyp_index: int | None  # index into hyp (None for deletions)


@dataclass(frozen=True)
class SCliteAlignment:
    correct: int
    substitutions: int
    deletions: int
    insertions: int
    ops: tuple[AlignedOp, ...]

    @property
    def ref_length(self) -> int:
        return self.correct + self.substitutions + self.deletions

    @property
    def hyp_length(self) -> int:
        return self.correct + self.substitutions + self.insertions

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def cost(self) -> int:
        return (
            COST_SUBSTITUTION * self.substitutions + COST_DELETION * self.deletions + COST_INSERTION * self.insertions
        )

    @property
    def wer(self) -> float:
        n = self.ref_length
        if n == 0:
            return 0.0 if self.insertions == 0 else float("inf")
        return self.errors / n

    def op_string(self) -> str:
        return "".join(o.op for o in self.ops)


# --------------------------------------------------------------------------
# numba kernels
# --------------------------------------------------------------------------


@njit(cache=True)
def _base_align(a, b, i0, i1, j0, j1):
    """Full-matrix sclite DP + traceback on the sub-rectangle.

    Returns (ops, ri, hj) in forward order, global indices (-1 = none)."""
    R = i1 - i0
    C = j1 - j0
    D = np.empty((R + 1, C + 1), np.int64)
    bp = np.empty((R + 1, C + 1), np.uint8)  # 0 diag, 1 del, 2 ins
    D[0, 0] = 0
    bp[0, 0] = 255
    for c in range(1, C + 1):
        D[0, c] = D[0, c - 1] + 3
        bp[0, c] = 2
    for r in range(1, R + 1):
        D[r, 0] = D[r - 1, 0] + 3
        bp[r, 0] = 1
        ar = a[i0 + r - 1]
        for c in range(1, C + 1):
            s = D[r - 1, c - 1]
            if ar != b[j0 + c - 1]:
                s += 4
            dl = D[r - 1, c] + 3
            ins = D[r, c - 1] + 3
            if s <= dl and s <= ins:
                D[r, c] = s
                bp[r, c] = 0
            elif dl < ins:
                D[r, c] = dl
                bp[r, c] = 1
            else:
                D[r, c] = ins
                bp[r, c] = 2
    nmax = R + C
    ops = np.empty(nmax, np.int8)
    ri = np.empty(nmax, np.int64)
    hj = np.empty(nmax, np.int64)
    k = nmax
    r = R
    c = C
    while r > 0 or c > 0:
        k -= 1
        x = bp[r, c]
        if x == 0:
            if a[i0 + r - 1] == b[j0 + c - 1]:
                ops[k] = 0
            else:
                ops[k] = 1
            ri[k] = i0 + r - 1
            hj[k] = j0 + c - 1
            r -= 1
            c -= 1
        elif x == 1:
            ops[k] = 2
            ri[k] = i0 + r - 1
            hj[k] = -1
            r -= 1
        else:
            ops[k] = 3
            ri[k] = -1
            hj[k] = j0 + c - 1
            c -= 1
    return ops[k:].copy(), ri[k:].copy(), hj[k:].copy(), D[R, C]


@njit(cache=True)
def _forward_split(a, b, i0, i1, j0, j1, t, mid, hrow, prev, cur, plab, clab, midval):
    """Pruned forward pass over the sub-rectangle (local coords r, c).

    ``prev cur plab clab midval``: work arrays of at least C + 1 cells (any
    contents), of an integer type that holds every cost (3 * (R + C)).

    Cells are kept while g + h <= t, h = max(hrow[r], 3*|Delta - (r - c)|)
    (admissible).  From row `mid` on, each cell carries the column at which
    its sclite back-pointer chain enters row `mid`.

    Returns (cost, split_col, cost_at_split, cells_computed); cost = -1 if
    the end cell was pruned (t too small)."""
    R = i1 - i0
    C = j1 - j0
    Delta = R - C
    INF = np.int64(1) << np.int64(60)
    cells = 0
    # row 0
    plo = 0
    phi = -1
    h0 = hrow[0]
    for c in range(C + 1):
        v = np.int64(3 * c)
        dd = Delta + c
        if dd < 0:
            dd = -dd
        h = 3 * dd
        if h < h0:
            h = h0
        if v + h > t:
            break
        prev[c] = v
        phi = c
    cells += phi + 1
    if phi < 0:
        return np.int64(-1), np.int64(-1), np.int64(-1), cells
    if mid == 0:
        for c in range(plo, phi + 1):
            plab[c] = c
            midval[c] = prev[c]
    for r in range(1, R + 1):
        ar = a[i0 + r - 1]
        hr = hrow[r]
        lo = -1
        hi = -1
        c = plo
        # prev[c - 1] and cur[c - 1] carried from the step before (as int64,
        # whatever the work arrays' type): no reload, no conversion
        up_left = INF  # prev[c - 1] while plo <= c - 1 <= phi
        left = INF  # cur[c - 1] while c > plo
        while c <= C:
            if up_left < INF:
                s = up_left
                if ar != b[np.uint64(j0 + c - 1)]:
                    s += 4
            else:
                s = INF
            if c <= phi:
                up = np.int64(prev[np.uint64(c)])
                dl = up + 3
            else:
                up = INF
                dl = INF
            ins = left + 3 if left < INF else INF
            if s <= dl and s <= ins:
                v = s
                ch = 0
            elif dl < ins:
                v = dl
                ch = 1
            else:
                v = ins
                ch = 2
            cur[np.uint64(c)] = v
            left = v
            up_left = up
            if r > mid:
                if ch == 0:
                    clab[np.uint64(c)] = plab[np.uint64(c - 1)]
                elif ch == 1:
                    clab[np.uint64(c)] = plab[np.uint64(c)]
                else:
                    clab[np.uint64(c)] = clab[np.uint64(c - 1)]
            elif r == mid:
                clab[np.uint64(c)] = c
                midval[np.uint64(c)] = v
            dd = Delta - r + c
            if dd < 0:
                dd = -dd
            h = 3 * dd
            if h < hr:
                h = hr
            if v < INF and v + h <= t:
                if lo < 0:
                    lo = c
                hi = c
            elif c > phi:
                # beyond the diagonal reach only insertions continue and
                # g + h is non-decreasing along them: nothing further lives.
                break
            c += 1
        cells += c - plo
        if lo < 0:
            return np.int64(-1), np.int64(-1), np.int64(-1), cells
        tmp = prev
        prev = cur
        cur = tmp
        tmp = plab
        plab = clab
        clab = tmp
        plo = lo
        phi = hi
    if not (plo <= C and C <= phi):
        return np.int64(-1), np.int64(-1), np.int64(-1), cells
    lab = plab[C]
    return np.int64(prev[C]), np.int64(lab), np.int64(midval[lab]), cells


@njit(cache=True)
def _forward_checkpoints(a, b, i0, i1, j0, j1, t, every, hrow, prev, cur, plab, clab, store_lab, store_val, los, offs):
    """:func:`_forward_split` with a split every ``every`` rows instead of one.

    At each checkpoint row ``k * every`` (``0 < k * every < R``) the computed
    cells are stored (``store_lab``: the column at which the cell's sclite
    back-pointer chain leaves the checkpoint row before, ``store_val``: its
    cost; from ``offs[k - 1]``, ``los[k - 1]`` being the first column), and
    the chains restart there, so that following the labels back from the end
    cell gives a cell of the sclite path on every checkpoint row.

    Returns (cost, last label, cells computed, checkpoints stored); cost = -1
    if the end cell was pruned (t too small), -2 if ``store_*`` are too small."""
    R = i1 - i0
    C = j1 - j0
    Delta = R - C
    INF = np.int64(1) << np.int64(60)
    cells = 0
    cap = store_lab.shape[0]
    plo = 0
    phi = -1
    h0 = hrow[0]
    for c in range(C + 1):
        v = np.int64(3 * c)
        dd = Delta + c
        if dd < 0:
            dd = -dd
        h = 3 * dd
        if h < h0:
            h = h0
        if v + h > t:
            break
        prev[c] = v
        plab[c] = c
        phi = c
    cells += phi + 1
    if phi < 0:
        return np.int64(-1), np.int64(-1), cells, 0
    k = 0
    offs[0] = 0
    for r in range(1, R + 1):
        ar = a[i0 + r - 1]
        hr = hrow[r]
        lo = -1
        hi = -1
        c = plo
        # the cells above-left, above and left, carried as values (int64) and labels
        up_left = INF
        up_left_lab = np.int64(0)
        left = INF
        left_lab = np.int64(0)
        while c <= C:
            if c <= phi:
                up = np.int64(prev[np.uint64(c)])
                up_lab = np.int64(plab[np.uint64(c)])
            else:
                up = INF
                up_lab = np.int64(0)
            s = up_left + (np.int64(4) if ar != b[np.uint64(j0 + c - 1)] else np.int64(0))
            dl = up + 3
            ins = left + 3
            # sclite's choice without branches: the diagonal when no dearer than both, then the
            # deletion when cheaper than the insertion, else the insertion
            diag = (s <= dl) & (s <= ins)
            dele = dl < ins
            v = s if diag else (dl if dele else ins)
            lab = up_left_lab if diag else (up_lab if dele else left_lab)
            cur[np.uint64(c)] = v
            clab[np.uint64(c)] = lab
            left = v
            left_lab = lab
            up_left = up
            up_left_lab = up_lab
            dd = Delta - r + c
            if dd < 0:
                dd = -dd
            h = 3 * dd
            if h < hr:
                h = hr
            if v + h <= t:
                if lo < 0:
                    lo = c
                hi = c
            elif c > phi:
                # beyond the diagonal reach only insertions continue and
                # g + h is non-decreasing along them: nothing further lives.
                break
            c += 1
        if r % every == 0 and r < R:  # a checkpoint row: stored, and the chains restart on it
            end = c if c <= C else C + 1
            q = offs[k]
            if q + end - plo > cap:
                return np.int64(-2), np.int64(-1), cells, k
            for x in range(plo, end):
                store_lab[q + x - plo] = clab[x]
                store_val[q + x - plo] = cur[x]
                clab[x] = x
            los[k] = plo
            offs[k + 1] = q + end - plo
            k += 1
        cells += c - plo
        if lo < 0:
            return np.int64(-1), np.int64(-1), cells, k
        tmp = prev
        prev = cur
        cur = tmp
        tmp = plab
        plab = clab
        clab = tmp
        plo = lo
        phi = hi
    if not (plo <= C and C <= phi):
        return np.int64(-1), np.int64(-1), cells, k
    return np.int64(prev[C]), np.int64(plab[C]), cells, k


@njit(cache=True)
def _pruned_align(a, b, i0, i1, j0, j1, t, hrow, prev, cur, bp, rlo, roff):
    """The pass of :func:`_forward_split` with each computed cell's back
    pointer stored (``bp``: one byte a cell, row r's from ``roff[r]``, its
    first column ``rlo[r]``; ``rlo``, ``roff``: R + 2 cells), then the
    traceback from the end cell: the sub-rectangle's sclite path in one pass
    instead of a split after split. The same cells are computed with the same
    values, so the path is the full matrix's (every cell of an optimal path
    is kept with its exact value, and so are the predecessors the traceback
    chooses between).

    Returns (ops, ri, hj, cost) as :func:`_base_align` (global indices); cost
    = -1 if the end cell was pruned (t too small), -2 if ``bp`` is too small."""
    R = i1 - i0
    C = j1 - j0
    Delta = R - C
    INF = np.int64(1) << np.int64(60)
    cap = bp.shape[0]
    none = np.empty(0, np.int8)
    nothing = np.empty(0, np.int64)
    plo = 0
    phi = -1
    h0 = hrow[0]
    for c in range(C + 1):
        v = np.int64(3 * c)
        dd = Delta + c
        if dd < 0:
            dd = -dd
        h = 3 * dd
        if h < h0:
            h = h0
        if v + h > t:
            break
        prev[c] = v
        phi = c
    if phi < 0:
        return none, nothing, nothing, np.int64(-1)
    if phi + 1 > cap:
        return none, nothing, nothing, np.int64(-2)
    bp[0] = 255
    for c in range(1, phi + 1):
        bp[c] = 2
    rlo[0] = 0
    roff[0] = 0
    roff[1] = phi + 1
    for r in range(1, R + 1):
        ar = a[i0 + r - 1]
        hr = hrow[r]
        lo = -1
        hi = -1
        c = plo
        q = roff[r] - plo  # bp[q + c] is cell c of row r
        up_left = INF
        left = INF
        while c <= C:
            if q + c >= cap:
                return none, nothing, nothing, np.int64(-2)
            if up_left < INF:
                s = up_left
                if ar != b[np.uint64(j0 + c - 1)]:
                    s += 4
            else:
                s = INF
            if c <= phi:
                up = np.int64(prev[np.uint64(c)])
                dl = up + 3
            else:
                up = INF
                dl = INF
            ins = left + 3 if left < INF else INF
            if s <= dl and s <= ins:
                v = s
                ch = 0
            elif dl < ins:
                v = dl
                ch = 1
            else:
                v = ins
                ch = 2
            cur[np.uint64(c)] = v
            bp[np.uint64(q + c)] = ch
            left = v
            up_left = up
            dd = Delta - r + c
            if dd < 0:
                dd = -dd
            h = 3 * dd
            if h < hr:
                h = hr
            if v < INF and v + h <= t:
                if lo < 0:
                    lo = c
                hi = c
            elif c > phi:
                break
            c += 1
        end = c if c <= C else C + 1  # the cells computed: plo .. end - 1
        rlo[r] = plo
        roff[r + 1] = q + end
        if lo < 0:
            return none, nothing, nothing, np.int64(-1)
        tmp = prev
        prev = cur
        cur = tmp
        plo = lo
        phi = hi
    if not (plo <= C and C <= phi):
        return none, nothing, nothing, np.int64(-1)
    cost = np.int64(prev[C])
    nmax = R + C
    ops = np.empty(nmax, np.int8)
    ri = np.empty(nmax, np.int64)
    hj = np.empty(nmax, np.int64)
    k = nmax
    r = R
    c = C
    while r > 0 or c > 0:
        k -= 1
        at = roff[r] + c - rlo[r]
        if c < rlo[r] or at >= roff[r + 1]:  # a path cell not computed: cannot happen while t >= optimum
            return none, nothing, nothing, np.int64(-3)
        x = bp[at]
        if x == 0:
            if a[i0 + r - 1] == b[j0 + c - 1]:
                ops[k] = 0
            else:
                ops[k] = 1
            ri[k] = i0 + r - 1
            hj[k] = j0 + c - 1
            r -= 1
            c -= 1
        elif x == 1:
            ops[k] = 2
            ri[k] = i0 + r - 1
            hj[k] = -1
            r -= 1
        else:
            ops[k] = 3
            ri[k] = -1
            hj[k] = j0 + c - 1
            c -= 1
    return ops[k:].copy(), ri[k:].copy(), hj[k:].copy(), cost


@njit(cache=True)
def _guide_pass(a, b, W, track, prev, cur):
    """Band DP used only to get an upper bound on the optimum and a rough
    per-row path position.  Row window: +-W around the previous row's cheapest
    cell, widened to also cover +-W around `track[r]` (anchor track; empty
    array = none); if the two disagree by more than 4W the track wins.

    ``prev cur``: work arrays as for :func:`_forward_split` (m + 1 cells).

    Returns (cost of the best path inside the band -- a real path, hence an
    upper bound on the optimum --, per-row column of the cheapest cell, per-row
    cost of that cell)."""
    n = a.shape[0]
    m = b.shape[0]
    has_track = track.shape[0] == n + 1
    INF = np.int64(1) << np.int64(60)
    centers = np.empty(n + 1, np.int64)
    least = np.empty(n + 1, np.int64)
    plo = 0
    phi = min(m, W)
    if has_track and track[0] + W > phi:
        phi = min(m, track[0] + W)
    best = INF
    bc = 0
    for c in range(plo, phi + 1):
        prev[c] = 3 * c
        if prev[c] < best:
            best = prev[c]
            bc = c
    centers[0] = bc
    least[0] = best
    for r in range(1, n + 1):
        ctr = centers[r - 1] + 1
        if ctr > m:
            ctr = m
        lo = ctr - W
        hi = ctr + W
        if has_track:
            tc = track[r]
            if ctr - tc > 4 * W or tc - ctr > 4 * W:
                lo = tc - W
                hi = tc + W
            else:
                if tc - W < lo:
                    lo = tc - W
                if tc + W > hi:
                    hi = tc + W
        # keep every cell of the window reachable: plo <= lo <= phi + 1
        if lo > phi + 1:
            lo = phi + 1
        if lo < plo:
            lo = plo
        if hi > m:
            hi = m
        if r == n:
            hi = m
        if hi < lo:
            hi = lo
        ar = a[r - 1]
        best = INF
        bc = lo
        for c in range(lo, hi + 1):
            if c - 1 >= plo and c - 1 <= phi:
                s = prev[c - 1]
                if ar != b[c - 1]:
                    s += 4
            else:
                s = INF
            if c >= plo and c <= phi:
                dl = prev[c] + 3
            else:
                dl = INF
            if c > lo:
                ins = cur[c - 1] + 3
            else:
                ins = INF
            v = s
            if dl < v:
                v = dl
            if ins < v:
                v = ins
            cur[c] = v
            # follow the cheapest cell of the row (ties: leftmost)
            if v < best:
                best = v
                bc = c
        centers[r] = bc
        least[r] = best
        tmp = prev
        prev = cur
        cur = tmp
        plo = lo
        phi = hi
    return np.int64(prev[m]), centers, least


@njit(cache=True)
def _anchor_track(a, b, T, blo, bhi, hpos, cap, wa, minw):
    """Rough global path: for every T-word ref chunk, the hyp start position
    supported by most rare-bigram hits (kappa = hyp pos - chunk offset, window
    of width 2*wa+1), then the heaviest chain of chunk anchors increasing in
    both coordinates (weighted LIS), linearly interpolated per row between
    (0,0), the anchors (kT, s_k) and (n,m).  Heuristic only: it steers the
    guide band, correctness never depends on it."""
    n = a.shape[0]
    m = b.shape[0]
    K = n // T
    s_k = np.full(K, -1, np.int64)
    w_k = np.zeros(K, np.int64)
    for k in range(K):
        r0 = k * T
        total = 0
        for o in range(T - 1):
            if bhi[r0 + o] - blo[r0 + o] <= cap:
                total += bhi[r0 + o] - blo[r0 + o]
        if total == 0:
            continue
        kap = np.empty(total, np.int64)
        q = 0
        for o in range(T - 1):
            if bhi[r0 + o] - blo[r0 + o] <= cap:
                for idx in range(blo[r0 + o], bhi[r0 + o]):
                    kap[q] = hpos[idx] - o
                    q += 1
        kap.sort()
        bestc = 0
        bi = 0
        jj = 0
        for ii in range(total):
            if jj < ii:
                jj = ii
            while jj < total and kap[jj] <= kap[ii] + 2 * wa:
                jj += 1
            if jj - ii > bestc:
                bestc = jj - ii
                bi = ii
        if bestc >= minw:
            sk = kap[bi + bestc // 2]
            if sk < 0:
                sk = 0
            if sk > m:
                sk = m
            s_k[k] = sk
            w_k[k] = bestc
    # heaviest chain, s strictly increasing with k
    bestw = np.zeros(K, np.int64)
    back = np.full(K, -1, np.int64)
    top = -1
    topw = 0
    for k in range(K):
        if s_k[k] < 0:
            continue
        bw = 0
        bk = -1
        for k2 in range(k - 1, -1, -1):
            if s_k[k2] >= 0 and s_k[k2] < s_k[k] and bestw[k2] > bw:
                bw = bestw[k2]
                bk = k2
        bestw[k] = bw + w_k[k]
        back[k] = bk
        if bestw[k] > topw:
            topw = bestw[k]
            top = k
    # collect chain (reverse), build points
    cnt = 0
    k = top
    while k >= 0:
        cnt += 1
        k = back[k]
    pr = np.empty(cnt + 2, np.int64)
    pc = np.empty(cnt + 2, np.int64)
    pr[0] = 0
    pc[0] = 0
    k = top
    idx = cnt
    while k >= 0:
        pr[idx] = k * T
        pc[idx] = s_k[k]
        idx -= 1
        k = back[k]
    pr[cnt + 1] = n
    pc[cnt + 1] = m
    track = np.empty(n + 1, np.int64)
    seg = 0
    for r in range(n + 1):
        while seg + 1 < cnt + 1 and pr[seg + 1] <= r:
            seg += 1
        r0 = pr[seg]
        r1 = pr[seg + 1] if seg + 1 <= cnt + 1 else n
        c0 = pc[seg]
        c1 = pc[seg + 1]
        if r1 > r0:
            track[r] = c0 + (c1 - c0) * (r - r0) // (r1 - r0)
        else:
            track[r] = c0
        if track[r] > m:
            track[r] = m
    return track


@njit(cache=True)
def _semiglobal_band(a, r0, r1, brev, m, klo, khi, near, A0, A1, A2):
    """For every row r of the chunk a[r0:r1], ``near[r - r0]``: the least cost
    of aligning a[r:r1] to a hyp substring (all those ref words consumed),
    over the paths whose every cell (o, c) (o the row within the chunk, c the
    hyp column) keeps its diagonal c - o in [klo, khi]. A backward DP from
    the chunk's last row (free end) whose row minima are the free starts.
    Returns near[0].

    ``brev``: the hypothesis reversed after a word no code equals
    (``brev[m - c]`` is ``b[c]``, ``brev[0]`` is -1), ``m`` its length;
    ``near`` (T cells) and ``A0 A1 A2`` (T + 5 cells): int32 work arrays.

    The cells are computed by anti-diagonals (d = o + c, from the last): a
    cell's three successors, (o + 1, c + 1), (o + 1, c) and (o, c + 1), lie on
    the two anti-diagonals after its own, so the cells of one anti-diagonal
    are independent and the loop over them is vectorized (a row's cells wait
    on each other through the insertions). ``A0 A1 A2`` hold the
    anti-diagonals d, d + 1 and d + 2 by row (index o + 2), INF around the
    cells in the band (so that a successor outside the band, the hypothesis
    or the chunk is never taken), the chunk's last row 0 (the free end)."""
    T = r1 - r0
    INF = np.int32(1 << 30)
    for o in range(T):
        near[o] = INF
    for x in range(T + 5):
        A0[x] = INF
        A1[x] = INF
        A2[x] = INF
    dmax = T + min(m, T + khi)  # the last cell: row T, the last column of the band or of b
    dmin = max(0, klo)  # the first: row 0, column klo (or 0)
    for d in range(dmax, dmin - 1, -1):
        tmp = A2
        A2 = A1
        A1 = A0
        A0 = tmp
        # the rows of anti-diagonal d in the band: 0 <= o <= T, 0 <= d - o <= m, klo <= d - 2o <= khi
        olo = max(0, d - m, -((khi - d) // 2))
        ohi = min(T, d, (d - klo) // 2)
        # INF beside them (anti-diagonal d + 3's values are still there)
        for x in range(max(olo, 0), olo + 2):
            A0[x] = INF
        for x in range(max(ohi + 3, 0), min(ohi + 5, T + 5)):
            A0[x] = INF
        if olo > ohi:
            continue
        top = ohi
        if ohi == T:
            A0[T + 2] = 0
            top = T - 1
        if top < olo:
            continue
        # unsigned indices: no wraparound test, so the loop is vectorized
        at = np.uint64(olo + 2)
        row = np.uint64(r0 + olo)
        col = np.uint64(m - d + olo)
        first = np.uint64(olo)
        one = np.uint64(1)
        for i in range(np.uint64(top + 1 - olo)):
            s = A2[at + i + one] + np.int32(4) * np.int32(a[row + i] != brev[col + i])
            dl = A1[at + i + one] + np.int32(3)
            ins = A1[at + i] + np.int32(3)
            v = min(s, dl, ins)
            A0[at + i] = v
            near[first + i] = min(near[first + i], v)
    return near[0]


@njit(cache=True)
def _far_counts(kap, klo, khi, E):
    """For every e in 0 .. E: the most of the sorted kappas ``kap`` that a window [x, x + e]
    reaching outside [klo, khi] holds (x < klo, or x + e > khi), as ``out[e]``.

    The best window of one side has an end on a kappa or on the band's edge (a window slid
    toward the band until one of its ends meets a kappa, or the edge, holds all it held): so
    for each kappa outside the band, the windows from it toward the band, one kappa at a time
    up to a width E (a span of d holding j kappas: out[e] >= j for every e >= d), and the
    windows from the edge outward, then the running maximum over e."""
    N = kap.shape[0]
    out = np.zeros(E + 1, np.int64)
    if E < 0 or N == 0:
        return out
    # left: windows [x, x + e] with x <= klo - 1, from the kappas there and from klo - 1
    stop = np.searchsorted(kap, klo - 1, side="right")  # kap[:stop] <= klo - 1
    for ii in range(stop):
        x = kap[ii]
        jj = ii
        while jj < N and kap[jj] - x <= E:
            span = kap[jj] - x
            if jj - ii + 1 > out[span]:
                out[span] = jj - ii + 1
            jj += 1
    jj = stop
    if stop > 0 and kap[stop - 1] == klo - 1:  # the edge on a kappa: counted above
        jj = N
    while jj < N and kap[jj] - (klo - 1) <= E:
        span = kap[jj] - (klo - 1)
        if jj - stop + 1 > out[span]:
            out[span] = jj - stop + 1
        jj += 1
    # right: windows [y - e, y] with y >= khi + 1, from the kappas there and from khi + 1
    first = np.searchsorted(kap, khi + 1)  # kap[first:] >= khi + 1
    for jj in range(first, N):
        y = kap[jj]
        ii = jj
        while ii >= 0 and y - kap[ii] <= E:
            span = y - kap[ii]
            if jj - ii + 1 > out[span]:
                out[span] = jj - ii + 1
            ii -= 1
    ii = first - 1
    if first < N and kap[first] == khi + 1:
        ii = -1
    while ii >= 0 and (khi + 1) - kap[ii] <= E:
        span = (khi + 1) - kap[ii]
        if first - ii > out[span]:
            out[span] = first - ii
        ii -= 1
    for e in range(1, E + 1):
        if out[e - 1] > out[e]:
            out[e] = out[e - 1]
    return out


@njit(cache=True)
def _chunk_lower_bounds(a, brev, starts, centers, least, W2, blo, bhi, hpos, cap, suffix):
    """Admissible lower bound on the cost of the ops that consume each chunk
    a[starts[k]:starts[k + 1]] in ANY alignment, and in ``suffix[r]`` (n + 1
    cells) one of the ops that consume a[r:starts[k + 1]] for every row r of
    chunk k (``suffix[n] = 0``): min(the exact semi-global
    cost of the placements inside a band of diagonals around the guide's
    (``W2`` either side, or fewer when the guide's cost of the chunk is low:
    ``least`` holds the guide's row minima), a q-gram (bigram) bound for the
    placements that touch a diagonal outside it).

    Diagonals are local: a cell (o, c) of the chunk (o its row within the
    chunk, c a hyp column) lies on diagonal c - o. A placement starting at
    column x0 with D deletions and I insertions keeps every cell, and the
    kappa (hyp position minus row) of every bigram it matches, within
    [x0 - D, x0 + I]: so one that touches a diagonal left of the band has its
    kappas in a window [x, x + e] (e >= D + I its edits) with x < klo, and
    one that touches a diagonal right of it in one with x + e > khi. Such a
    window must hold (T - 1) - 2e of the chunk's matched bigrams (each edit
    breaks at most two), the bigrams too frequent to list counting as
    matched everywhere. The band must be wider than a third of the chunk's
    near cost for the far bound to exceed it: a window that reaches the
    guide's own diagonals then needs that many edits.

    A suffix of the chunk is bounded the same way: its near cost comes from
    the same backward DP, and its far bound from the chunk's windows (a
    suffix's bigrams are some of the chunk's, so the windows hold at least as
    many of them: (L - 1) - 2e for a suffix of L words)."""
    K = starts.shape[0] - 1
    lbs = np.zeros(K, np.int64)
    suffix[starts[K]] = 0
    m = brev.shape[0] - 1
    most = 0
    for k in range(K):
        if starts[k + 1] - starts[k] > most:
            most = starts[k + 1] - starts[k]
    nears = np.empty(most, np.int32)
    A0 = np.empty(most + 5, np.int32)
    A1 = np.empty(most + 5, np.int32)
    A2 = np.empty(most + 5, np.int32)
    for k in range(K):
        r0 = starts[k]
        r1 = starts[k + 1]
        T = r1 - r0
        for r in range(r0, r1):
            suffix[r] = 0
        if T < 2:
            continue  # a single word may cost nothing (a match anywhere)
        kmin = centers[r0]
        kmax = centers[r0]
        for r in range(r0, r1 + 1):
            d = centers[r] - (r - r0)
            if d < kmin:
                kmin = d
            if d > kmax:
                kmax = d
        # half width: W2, or less when the guide's cost of the chunk (its row minima's rise over
        # the chunk, ``least``) says a narrower band is still wider than a third of that cost
        # (and an eighth of W2 more): a far window that reaches the guide's diagonals then needs
        # more edits than the chunk costs near them. Only the speed depends on it.
        width = (least[r1] - least[r0]) // 3 + W2 // 8
        if width > W2:
            width = W2
        if width < 0:
            width = 0
        klo = kmin - width
        khi = kmax + width
        near = np.int64(_semiglobal_band(a, r0, r1, brev, m, klo, khi, nears, A0, A1, A2))
        if near == 0:
            continue
        # bigram filter for 'far' placements
        freq = 0
        total = 0
        for o in range(r0, r1 - 1):
            if bhi[o] - blo[o] > cap:
                freq += 1
            else:
                total += bhi[o] - blo[o]
        kap = np.empty(total, np.int64)
        q = 0
        for o in range(r0, r1 - 1):
            if bhi[o] - blo[o] <= cap:
                for idx in range(blo[o], bhi[o]):
                    kap[q] = hpos[idx] - (o - r0)
                    q += 1
        kap.sort()
        # The smallest e such that a far placement with e edits is possible: with
        # reach(e) = M(e) + freq + 2e (M(e) the most kappas in a far window of width e;
        # increasing in e), the first e with 3e >= near or reach(e) >= T - 1. Found on a
        # grid of e (every STEP) and then one by one within the last step.
        # no e beyond is tried: 3e < near, and reach(e) >= 2e >= T - 1 from e = T / 2 on
        most_e = min((near - 1) // 3, T)
        far_counts = _far_counts(kap, klo, khi, most_e)
        STEP = max(1, T // 128)
        grid = np.empty(T // STEP + 2, np.int64)  # reach at e = 0, STEP, 2 STEP, ...
        points = 0
        e = 0
        while 3 * e < near:
            grid[points] = far_counts[e] + freq + 2 * e
            points += 1
            if grid[points - 1] >= T - 1:
                break
            e += STEP
        if e > 0:
            e = e - STEP + 1 if e >= STEP else 0
            while 3 * e < near and far_counts[e] + freq + 2 * e < T - 1:
                e += 1
        far = 3 * e
        lbs[k] = near if near < far else far
        # each suffix of L words: every e below the first grid point with reach >= L - 1, so the
        # one before it, fails
        j = 0
        for r in range(r1 - 1, r0 - 1, -1):
            length = r1 - r
            while j < points and grid[j] < length - 1:
                j += 1
            bound = 3 * ((j - 1) * STEP + 1) if j > 0 else 0
            if bound > far:
                bound = far
            if nears[r - r0] < bound:
                bound = nears[r - r0]
            suffix[r] = bound
        suffix[r0] = lbs[k]  # the whole chunk's, exact
    return lbs


# --------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------


def _bigram_hits(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each bigram of the reference occurs in the hypothesis: the positions of the
    hypothesis's bigrams sorted by bigram (``hpos``, stable: in order of position within one),
    and for the reference's bigram a[i], a[i + 1] those of ``hpos[blo[i]:bhi[i]]``."""
    V = np.int64(max(int(a.max()) if len(a) else 0, int(b.max()) if len(b) else 0) + 1)
    keys = np.multiply(b[:-1], V, dtype=np.int64)  # int64 whatever the codes' type
    keys += b[1:]
    hpos = np.argsort(keys, kind="stable")
    keys = keys[hpos]
    wanted = np.multiply(a[:-1], V, dtype=np.int64)
    wanted += a[1:]
    order = np.argsort(wanted)  # searched in order: a third of the time of searches all over the keys
    wanted = wanted[order]
    blo = np.empty(len(wanted), np.int64)
    bhi = np.empty(len(wanted), np.int64)
    blo[order] = np.searchsorted(keys, wanted)
    bhi[order] = np.searchsorted(keys, wanted, side="right")
    return blo, bhi, hpos.astype(np.int64, copy=False)


def _reversed(b: np.ndarray) -> np.ndarray:
    """``b`` reversed after a word no code equals, as :func:`_semiglobal_band` reads it."""
    out = np.empty(len(b) + 1, b.dtype)
    out[0] = -1
    out[1:] = b[::-1]
    return out


def _encode(ref: Sequence[str], hyp: Sequence[str]):
    vocab: dict[str, int] = {}
    a = np.fromiter((vocab.setdefault(w, len(vocab)) for w in ref), dtype=np.int64, count=len(ref))
    b = np.fromiter((vocab.setdefault(w, len(vocab)) for w in hyp), dtype=np.int64, count=len(hyp))
    return a, b, max(len(vocab), 1)


class _Heuristic:
    """Per-chunk lower bounds, chunk k being rows starts[k] .. starts[k + 1];
    hrow(i0, i1) gives, for every row i in [i0, i1], a lower bound on the cost
    of consuming ref words a[i:i1] (the chunks wholly inside)."""

    def __init__(self, lbs: np.ndarray, starts: np.ndarray, T: int, suffix: np.ndarray | None = None):
        self.T = T  # the chunks' length (all but the last)
        self.starts = starts
        self.prefix = np.concatenate([[0], np.cumsum(lbs)]).astype(np.int64)
        self.suffix = suffix  # the bound of the rest of each row's chunk (None: not known)

    def hrow(self, i0: int, i1: int) -> np.ndarray:
        i = np.arange(i0, i1 + 1, dtype=np.int64)
        kend = max(int(np.searchsorted(self.starts, i1, side="right")) - 1, 0)  # the chunks before it end by i1
        if self.suffix is None:
            kstart = np.minimum(np.searchsorted(self.starts, i), kend)  # the first chunk starting at i or below
            return self.prefix[kend] - self.prefix[kstart]
        # the rest of row i's chunk, when it ends by i1, and the chunks after it
        after = np.searchsorted(self.starts, i, side="right")  # the chunk after row i's
        own = np.where(after <= kend, self.suffix[i], 0)
        after = np.minimum(after, kend)
        return own + self.prefix[kend] - self.prefix[after]


def _zero_heuristic():
    return _Heuristic(np.zeros(0, np.int64), np.zeros(1, np.int64), 1)


def _chunk_length(n: int) -> tuple[int, int]:
    """The chunks' length for a reference of n words, and their band's half width (in the same
    ratio as ``_CHUNK_W`` to ``_CHUNK_T``): ``_CHUNK_T`` up to ``_CHUNK_WORDS`` words, then
    growing with the square root of n (a multiple of a quarter of ``_CHUNK_T``, at most four
    times as long).

    Each chunk boundary leaves a little slack between the sum of the bounds and the optimum
    (about 2.7 at 38 % WER, the free ends of the chunks' placements), and each row's pass
    keeps the cells within the slack of the chunks below it: the first pass's cells grow as
    n * (n / T), the bounds' band cells as n * T. At 400,000 words chunks of 2,048 words left
    a slack of 473 instead of 1,066, and the first pass 98 million cells instead of 202, for
    0.05 s more in the bounds."""
    T = _CHUNK_T
    if n > _CHUNK_WORDS:
        step = max(1, _CHUNK_T // 4)
        T = max(T, min(4 * _CHUNK_T, round(_CHUNK_T * (n / _CHUNK_WORDS) ** 0.5 / step) * step))
    return T, T * _CHUNK_W // _CHUNK_T


def _chunk_starts(n: int, T: int) -> np.ndarray:
    """The first row of each chunk, then n: chunks of T rows, the last one shorter when T does not divide n."""
    return np.append(np.arange(0, n, T, dtype=np.int64), np.int64(n))


_INT32_COSTS = 2**31 - 8
"""Costs (at most 3 * (len(ref) + len(hyp)): every path's) below this fit the int32 work arrays."""


def _work(n: int, m: int, count: int) -> list[np.ndarray]:
    """``count`` work arrays of m + 1 cells for the passes, int32 when every cost fits (half the memory)."""
    kind = np.int32 if 3 * (n + m) < _INT32_COSTS else np.int64
    return [np.empty(m + 1, kind) for _ in range(count)]


_CHECKPOINT_ROWS = 2048
"""Fewest rows between the checkpoints of the first pass over a long reference (see :func:`_checkpointed`)."""
_CHECKPOINTS = 128
"""Most checkpoint rows of the first pass (their cells are stored until the pass ends)."""
_CHECKPOINT_CELLS = 1 << 22
"""Cells the checkpoints of the first pass may store at first."""
_CHECKPOINT_CELLS_MAX = 1 << 24
"""Most cells they may store (4 or 8 bytes each); a wider band is split in halves as before."""


def _checkpointed(
    a: np.ndarray, b: np.ndarray, upper: int, heur: _Heuristic, work: list[np.ndarray], stats: dict | None
) -> list[tuple[int, int, int, int, int]] | None:
    """The sub-problems between the points where the sclite path crosses every
    :data:`_CHECKPOINT_ROWS`-th row, each with its exact cost, from one pruned
    forward pass over the whole rectangle (:func:`_forward_checkpoints`), or
    None when the reference is too short for two checkpoints.

    Halving the rectangle again and again (each half a new pass) computed
    about twice the cells of the first pass; one pass that records where the
    path crosses many rows leaves sub-problems small enough for the narrow
    passes their exact costs allow. The path is the same: each crossing is a
    cell of the sclite path (the chain of back pointers from the end cell),
    kept with its exact cost, and the sclite path restricted to the rectangle
    between two of its cells is that sub-problem's sclite path.
    """
    n, m = len(a), len(b)
    every = max(_CHECKPOINT_ROWS, -(-n // (_CHECKPOINTS + 1)))
    if heur.T > 1:  # whole chunks between checkpoints: every chunk's bound counts in the sub-problems
        every = -(-every // heur.T) * heur.T
    if n < 2 * every or (n + 1) * (m + 1) <= _BASE_AREA:
        return None
    points = (n - 1) // every
    prev, cur, plab, clab, _ = work
    los = np.empty(points, np.int64)
    offs = np.empty(points + 1, np.int64)
    size = min(_CHECKPOINT_CELLS, points * (m + 1))
    t = upper
    while True:
        store_lab = np.empty(size, plab.dtype)
        store_val = np.empty(size, prev.dtype)
        hrow = heur.hrow(0, n)
        cost, last, cells, stored = _forward_checkpoints(
            a, b, 0, n, 0, m, np.int64(t), every, hrow, prev, cur, plab, clab, store_lab, store_val, los, offs
        )
        if stats is not None:
            stats["cells"] += int(cells)
            stats["passes"] += 1
        if cost == -2:  # more cells than stored: room for every column of every checkpoint row, or halves
            if size >= min(points * (m + 1), _CHECKPOINT_CELLS_MAX):
                return None
            size = min(points * (m + 1), _CHECKPOINT_CELLS_MAX)
            continue
        if cost < 0 and t < 3 * (n + m):
            t = 3 * (n + m)  # as in _align_codes: the trivial bound, never below the optimum
            continue
        if cost < 0:
            raise RuntimeError("internal error: pruning bound below optimum")
        break
    del hrow
    # the crossings, from the last checkpoint row back to the first
    rows = [every * (k + 1) for k in range(points)]
    columns = [0] * points
    costs = [0] * points
    column = int(last)
    for k in range(points - 1, -1, -1):
        columns[k] = column
        q = int(offs[k]) + column - int(los[k])
        costs[k] = int(store_val[q])
        column = int(store_lab[q])
    del store_lab, store_val
    corners = [(0, 0, 0), *zip(rows, columns, costs, strict=True), (n, m, int(cost))]
    stack = []
    for (i0, j0, g0), (i1, j1, g1) in zip(corners, corners[1:], strict=False):
        stack.append((i0, i1, j0, j1, g1 - g0))
    stack.reverse()  # the first sub-problem on top: the pieces come out in order
    return stack


def _traced(
    a: np.ndarray, b: np.ndarray, i0: int, i1: int, j0: int, j1: int, t: int, hrow: np.ndarray, work, stats
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
    """:func:`_pruned_align` of the sub-rectangle, with room for its back pointers made as needed
    (at most :data:`_TRACE_CELLS`), or None when they would need more (the caller splits it)."""
    R, C = i1 - i0, j1 - j0
    if 16 * (R + 2) > _TRACE_CELLS:  # the rows' offsets alone would take more
        return None
    most = min((R + 1) * (C + 1), _TRACE_CELLS)
    size = min(most, max(1 << 20, 256 * (R + 1)))
    rlo = np.empty(R + 2, np.int64)
    roff = np.empty(R + 2, np.int64)
    while size > 0:
        bp = np.empty(size, np.uint8)
        o, r, h, cost = _pruned_align(a, b, i0, i1, j0, j1, np.int64(t), hrow, work[0], work[1], bp, rlo, roff)
        if cost != -2:
            if stats is not None:
                stats["cells"] += int(roff[R + 1]) if cost >= 0 else 0
                stats["passes"] += 1
            return o, r, h, int(cost)
        if size >= most:
            break
        size = most
    return None


def _align_codes(a: np.ndarray, b: np.ndarray, use_chunks: bool = True, stats: dict | None = None):
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        if n == 0:
            ops = np.full(m, OP_I, np.int8)
            return ops, np.full(m, -1, np.int64), np.arange(m, dtype=np.int64)
        ops = np.full(n, OP_D, np.int8)
        return ops, np.arange(n, dtype=np.int64), np.full(n, -1, np.int64)
    if (n + 1) * (m + 1) <= _BASE_AREA:
        o, r, h, _ = _base_align(a, b, 0, n, 0, m)
        return o, r, h

    heur = _zero_heuristic()
    track = np.zeros(0, np.int64)
    if use_chunks and n >= 2 * _CHUNK_T and m >= 2:
        blo, bhi, hpos = _bigram_hits(a, b)
        track = _anchor_track(a, b, min(_ANCHOR_T, _CHUNK_T), blo, bhi, hpos, _BIGRAM_CAP, 8, 6)
        upper, centers, least = _guide_pass(a, b, _GUIDE_W, track, *_work(n, m, 2))
        T, W = _chunk_length(n)
        starts = _chunk_starts(n, T)
        suffix = np.empty(n + 1, np.int64)
        lbs = _chunk_lower_bounds(a, _reversed(b), starts, centers, least, W, blo, bhi, hpos, _BIGRAM_CAP, suffix)
        heur = _Heuristic(lbs, starts, T, suffix)
        del blo, bhi, hpos
    else:
        upper, centers, least = _guide_pass(a, b, _GUIDE_W, track, *_work(n, m, 2))
    del centers, least, track
    work = _work(n, m, 5)  # one set for every pass (a pass reads only cells it wrote)
    if stats is not None:
        stats["upper_bound"] = int(upper)
        stats["chunk_lb_total"] = int(heur.prefix[-1])
        stats["cells"] = 0
        stats["passes"] = 0

    pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    # explicit stack of sub-problems (i0, i1, j0, j1, t, exact)
    # 3(n+m) (delete everything, insert everything) is always an upper bound.
    upper = min(int(upper), 3 * (n + m))
    stack = _checkpointed(a, b, upper, heur, work, stats)
    if stack is None:
        stack = [(0, n, 0, m, upper)]
    top = len(stack) == 1
    while stack:
        i0, i1, j0, j1, t = stack.pop()
        R, C = i1 - i0, j1 - j0
        if R == 0 or C == 0 or (R + 1) * (C + 1) <= _BASE_AREA or R < 2:
            if R == 0:
                pieces.append((np.full(C, OP_I, np.int8), np.full(C, -1, np.int64), np.arange(j0, j1, dtype=np.int64)))
            elif C == 0:
                pieces.append((np.full(R, OP_D, np.int8), np.arange(i0, i1, dtype=np.int64), np.full(R, -1, np.int64)))
            else:
                o, r, h, _ = _base_align(a, b, i0, i1, j0, j1)
                pieces.append((o, r, h))
            continue
        hrow = heur.hrow(i0, i1)
        traced = _traced(a, b, i0, i1, j0, j1, t, hrow, work, stats)
        if traced is not None:
            o, r, h, cost = traced
            if cost >= 0:
                pieces.append((o, r, h))
                top = False
                continue
            if cost == -1 and top and t < 3 * (n + m):
                stack.append((i0, i1, j0, j1, 3 * (n + m)))  # as below
                continue
            raise RuntimeError("internal error: pruning bound below optimum")
        mid = R // 2
        cost, col, cmid, cells = _forward_split(a, b, i0, i1, j0, j1, np.int64(t), mid, hrow, *work)
        if stats is not None:
            stats["cells"] += int(cells)
            stats["passes"] += 1
        if cost < 0 and top and t < 3 * (n + m):
            # t must be >= the optimum; the guide band always yields a real
            # path, but be defensive: retry with the trivial bound.
            stack.append((i0, i1, j0, j1, 3 * (n + m)))
            continue
        if cost < 0:  # cannot happen when t >= optimum
            raise RuntimeError("internal error: pruning bound below optimum")
        top = False
        # process top first: push bottom, then top
        stack.append((i0 + mid, i1, j0 + int(col), j1, int(cost - cmid)))
        stack.append((i0, i0 + mid, j0, j0 + int(col), int(cmid)))
    del work
    # one column at a time, each freed once joined: pieces and all three joined were 34 bytes a column
    ops_pieces, ri_pieces, hj_pieces = (list(column) for column in zip(*pieces, strict=True))
    del pieces
    ops = np.concatenate(ops_pieces)
    del ops_pieces
    ri = np.concatenate(ri_pieces)
    del ri_pieces
    hj = np.concatenate(hj_pieces)
    return ops, ri, hj


def _to_alignment(ops: np.ndarray, ri: np.ndarray, hj: np.ndarray, with_ops: bool = True) -> SCliteAlignment:
    counts = np.bincount(ops.astype(np.int64), minlength=4)
    tup: tuple[AlignedOp, ...] = ()
    if with_ops:
        names = _OP_NAMES
        tup = tuple(
            AlignedOp(names[o], None if r < 0 else r, None if h < 0 else h)
            for o, r, h in zip(ops.tolist(), ri.tolist(), hj.tolist(), strict=False)
        )
    return SCliteAlignment(int(counts[OP_C]), int(counts[OP_S]), int(counts[OP_D]), int(counts[OP_I]), tup)


def sclite_align(ref: Sequence[str], hyp: Sequence[str], *, with_ops: bool = True) -> SCliteAlignment:
    """Align `hyp` to `ref` exactly as sclite does (linear memory).

    Words are compared with ==; normalise case beforehand if you want
    sclite's default case-insensitive behaviour.  With ``with_ops=False``
    the ``ops`` tuple is left empty (saves time/memory for huge inputs)."""
    a, b, _ = _encode(ref, hyp)
    ops, ri, hj = _align_codes(a, b)
    return _to_alignment(ops, ri, hj, with_ops)


def sclite_align_arrays(ref: Sequence[str], hyp: Sequence[str]):
    """Like sclite_align but returns numpy arrays (op codes 0=C,1=S,2=D,3=I;
    ref index; hyp index; -1 where absent) -- compact for huge inputs."""
    a, b, _ = _encode(ref, hyp)
    return _align_codes(a, b)


def sclite_align_full(ref: Sequence[str], hyp: Sequence[str]) -> SCliteAlignment:
    """Reference implementation: one full (n+1)x(m+1) matrix, quadratic
    memory.  Same rule; use only for small inputs / testing."""
    a, b, _ = _encode(ref, hyp)
    n, m = len(a), len(b)
    o, r, h, _ = _base_align(a, b, 0, n, 0, m)
    return _to_alignment(o, r, h, True)
