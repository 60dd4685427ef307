"""§7.2 word aligner: minimum-cost alignment of reference and hypothesis tokens.

This module owns the word alignment used to normalize extents when the
reference and hypothesis texts differ (§7), and the WER of the hypothesis text.

Costs (§7.2), on an integer scale of 100 per spec unit (``COST_SCALE``) so that
every comparison and every tie is exact:

* match (identical words): 0;
* insertion, deletion: 300 (3 units);
* fragment substitution: 100 (1 unit) when one word is a fragment (``h-``:
  longer than one character, trailing hyphen) whose stem (``h``) is a prefix
  of the other word (``heart``, ``h``, ``hi-``); cheaper than any other
  substitution;
* any other substitution: ``200 + round(200 * lev(a, b) / max(len a, len b))``
  (2 to 4 units, rounding half up on the integer scale), where ``lev`` is the
  character Levenshtein distance of the two words (code points). ``heart``/
  ``part`` costs 280, so it aligns as one substitution, never as a deletion
  plus an insertion (any substitution costs less than 600).

Words are compared exactly as given; the caller has already normalized them.

Tie-breaking: among equal-cost paths the traceback, from the end backwards,
prefers a deletion (reference word against nothing), then an insertion, then
the diagonal step (match or substitution). So a tied deletion or insertion
lands as late as possible, which reproduces the procedure's example
(``the h- heart`` / ``a part``: THE/A, H- deleted, HEART/PART, rather than
THE deleted, H-/A). ``_align_reference`` applies the same
rule, and on inputs solved by one full-matrix DP (``len(ref) * len(hyp) <=
FULL_CELLS``) the two return identical columns. Elsewhere the output is still a
deterministic function of the input, and the cost is optimal as stated below,
but among equally cheap alignments another one may be returned.

Optimality guarantee (what ``Alignment.exact`` records):

1. ``len(ref) * len(hyp) <= FULL_CELLS``: one full-matrix DP; optimal.
2. Larger inputs: the aligner first builds a *seeded* alignment. Anchors are
   n-grams that occur exactly once in the reference and exactly once in the
   hypothesis (n = 4 for natural vocabularies, longer when the word entropy is
   low, see ``_anchor_length``); the longest chain of anchors increasing in both is kept
   (patience-diff style) and overlapping anchors on one diagonal merge into
   runs of matches. Each gap between runs is aligned optimally (full matrix
   DP, certified band DP or Hirschberg's linear-space DP; see ``_solve_gap``).
   Then every run is checked (``_k_prune``, up to ``PRUNE_PASSES`` passes): a
   run is dropped when the optimal alignment of the window between its
   neighbouring runs, ignoring it, is cheaper than the two gaps around it.
   The seeded cost ``C`` bounds the optimum from above, so any path that leaves
   the band of diagonals ``[min(0, n-m) - w, max(0, n-m) + w]`` costs at least
   ``300 * (|n-m| + 2w + 2)`` (it needs that many insertions and deletions).
   With ``w`` chosen so that this bound is ``>= C``, the band DP is *provably
   optimal* (Ukkonen's argument); it is run whenever the band has at most
   ``BAND_MAX_CELLS`` cells (at ~15% word errors, up to about 10,000 words),
   and ``exact`` is True.
3. Beyond that budget the seeded alignment is returned with ``exact=False``:
   a valid alignment whose ``cost`` is exactly the cost of its columns,
   optimal among the alignments that contain its anchor runs, and such that
   no single run could be removed at a lower cost (when the last pass drops
   nothing). It is not
   proven globally optimal: a coincidental n-gram match that survives the
   check could cost more than the optimum. Measured: in 20,000 random
   small-vocabulary cases forced onto this route (6,204 used anchors) and on
   synthetic 20,000-word (15% and 30% WER) and 50,000-word (15% WER) corpora,
   optimum from a wide certified band, the seeded cost always equalled the
   optimum (``benchmarks/RESULTS.md``). A gap between anchors is aligned
   optimally unless it exceeds every budget (``HIRSCHBERG_MAX_CELLS`` and a
   band of ``BAND_MAX_CELLS``), which only long stretches sharing no anchor
   reach; it then gets the widest band that fits, and ``exact`` is False.

Memory is linear in ``len(ref) + len(hyp)``: the full matrix is used only up
to ``FULL_CELLS`` cells (one byte of traceback per cell), bands up to
``BAND_MAX_CELLS`` cells, and Hirschberg's recursion keeps two cost rows.

Kernels and caching: the DP kernels (the ``_k_*`` functions) are plain Python
functions that ``_kernels()`` compiles with ``numba.njit(cache=True)`` on
first use; numba is never imported at module import time (``hub4eval --help``
must stay fast). Compiled code is cached on disk by numba: in
``$NUMBA_CACHE_DIR`` when set, else in ``hub4eval/__pycache__`` beside this
file when that is writable, else in the user-wide cache directory
(e.g. ``~/.cache/numba``). A fresh cache costs a few seconds of compilation on the
first call in a process; later processes load it in well under a second. The
cache is invalidated when this file changes. The module caches only when
imported as ``hub4eval.text.align`` (see ``_kernels``). With ``NUMBA_DISABLE_JIT=1`` the
same kernels run as (slow) Python.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

__all__ = [
    "COST_SCALE",
    "DELETION",
    "INSERTION",
    "MATCH",
    "SUBSTITUTION",
    "Alignment",
    "align_many",
    "align_words",
    "substitution_cost",
]

COST_SCALE = 100
"""Integer cost units per spec unit (§7.2 costs are multiplied by this)."""
INDEL = 300
"""Cost of an insertion or a deletion."""
FRAGMENT = 100
"""Cost of a fragment (``h-``) against a word its stem prefixes."""
SUB_BASE = 200
SUB_SPAN = 200
"""A substitution costs ``SUB_BASE + SUB_SPAN * normalized edit distance``."""

MATCH, SUBSTITUTION, DELETION, INSERTION = 0, 1, 2, 3
"""Column kinds, as stored in ``Alignment.kinds``."""

FULL_CELLS = 4_000_000
"""Largest ``n * m`` solved by one full-matrix DP (4 MB of traceback)."""
BAND_MAX_CELLS = 64_000_000
"""Largest band (cells, one byte each) run by the certified band DP."""
HIRSCHBERG_MAX_CELLS = 400_000_000
"""Largest ``n * m`` gap solved by Hirschberg when no certified band fits."""
ANCHOR_K = 4
"""Shortest anchor n-gram (see ``_anchor_length``)."""
ANCHOR_K_MAX = 16
"""Longest anchor n-gram."""
PRUNE_PASSES = 3
"""Passes of the anchor check (each pass re-aligns the gaps)."""
PRUNE_MAX_CELLS = 1_000_000
"""Largest window (cells) of the anchor check; larger windows keep their anchor."""
_BAND_START = 8
_BIG = 1 << 60


@dataclass(frozen=True, eq=False)
class Alignment:
    """A word alignment: columns in order, each a match, substitution, deletion or insertion.

    Every reference index and every hypothesis index appears exactly once, in
    increasing order.

    Attributes:
        ref_index: int32, per column the reference token index, or -1 for an
            insertion.
        hyp_index: int32, per column the hypothesis token index, or -1 for a
            deletion.
        cost: total cost on the integer scale (``COST_SCALE`` per spec unit:
            insertion/deletion 300, match 0, substitution 100 to 400).
        kinds: int8, per column ``MATCH``, ``SUBSTITUTION``, ``DELETION`` or
            ``INSERTION``.
        exact: True when ``cost`` is proven to be the minimum (see the module
            docstring); False only for very long inputs aligned via anchors.
    """

    ref_index: np.ndarray
    hyp_index: np.ndarray
    cost: int
    kinds: np.ndarray
    exact: bool = True

    @property
    def columns(self) -> int:
        """Number of columns."""
        return int(self.ref_index.shape[0])

    def _count(self, kind: int) -> int:
        return int(np.count_nonzero(self.kinds == kind))

    @property
    def matches(self) -> int:
        """Columns pairing identical words."""
        return self._count(MATCH)

    @property
    def substitutions(self) -> int:
        """Columns pairing different words."""
        return self._count(SUBSTITUTION)

    @property
    def deletions(self) -> int:
        """Reference words aligned with nothing."""
        return self._count(DELETION)

    @property
    def insertions(self) -> int:
        """Hypothesis words aligned with nothing."""
        return self._count(INSERTION)

    @property
    def errors(self) -> int:
        """Substitutions + deletions + insertions."""
        return self.columns - self.matches

    @property
    def wer(self) -> float | None:
        """Word error rate, ``errors / len(ref)``; None when the reference is empty."""
        n_ref = self.columns - self.insertions
        return None if n_ref == 0 else self.errors / n_ref


# ---------------------------------------------------------------------------
# Costs (pure Python; the reference for the kernels)


def substitution_cost(a: str, b: str) -> int:
    """Cost of aligning word ``a`` with word ``b`` in one column (§7.2).

    Args:
        a: a normalized word.
        b: a normalized word.

    Returns:
        0 for identical words, ``FRAGMENT`` (100) when one is a fragment whose
        stem prefixes the other, else ``200 + round(200 * lev / max_len)``.

    >>> substitution_cost("heart", "heart"), substitution_cost("h-", "heart")
    (0, 100)
    >>> substitution_cost("heart", "part"), substitution_cost("a", "the")
    (280, 400)
    """
    if a == b:
        return 0
    if (_is_fragment(a) and b.startswith(a[:-1])) or (_is_fragment(b) and a.startswith(b[:-1])):
        return FRAGMENT
    from rapidfuzz.distance import Levenshtein

    d = Levenshtein.distance(a, b)
    mx = max(len(a), len(b))
    return SUB_BASE + (SUB_SPAN * d + mx // 2) // mx


def _is_fragment(word: str) -> bool:
    return len(word) > 1 and word.endswith("-")


def _align_reference(ref: Sequence[str], hyp: Sequence[str]) -> Alignment:
    """Slow full-matrix DP in pure Python: the reference for tests.

    Uses ``substitution_cost`` (rapidfuzz distances) and the module's
    tie-breaking rule (deletion, then insertion, then diagonal).

    Args:
        ref: reference words.
        hyp: hypothesis words.

    Returns:
        The optimal alignment.
    """
    n, m = len(ref), len(hyp)
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    move = [[0] * (m + 1) for _ in range(n + 1)]
    for j in range(1, m + 1):
        cost[0][j] = j * INDEL
        move[0][j] = 2
    for i in range(1, n + 1):
        cost[i][0] = i * INDEL
        move[i][0] = 1
        for j in range(1, m + 1):
            best, step = cost[i - 1][j] + INDEL, 1
            if cost[i][j - 1] + INDEL < best:
                best, step = cost[i][j - 1] + INDEL, 2
            diagonal = cost[i - 1][j - 1] + substitution_cost(ref[i - 1], hyp[j - 1])
            if diagonal < best:
                best, step = diagonal, 0
            cost[i][j] = best
            move[i][j] = step
    cols: list[tuple[int, int, int]] = []
    i, j = n, m
    while i > 0 or j > 0:
        step = move[i][j]
        if step == 0:
            cols.append((i - 1, j - 1, MATCH if ref[i - 1] == hyp[j - 1] else SUBSTITUTION))
            i, j = i - 1, j - 1
        elif step == 1:
            cols.append((i - 1, -1, DELETION))
            i -= 1
        else:
            cols.append((-1, j - 1, INSERTION))
            j -= 1
    cols.reverse()
    return Alignment(
        ref_index=np.array([c[0] for c in cols], dtype=np.int32),
        hyp_index=np.array([c[1] for c in cols], dtype=np.int32),
        cost=cost[n][m],
        kinds=np.array([c[2] for c in cols], dtype=np.int8),
    )


# ---------------------------------------------------------------------------
# numba kernels: plain functions here, compiled lazily by _kernels(), which
# rebinds each module-level name to its compiled dispatcher so that kernels
# calling each other resolve to compiled code.


def _k_lev(chars, offs, a, b, buf):  # pragma: no cover - compiled
    """Levenshtein distance of vocabulary words ``a`` and ``b`` (code points)."""
    a0 = offs[a]
    la = offs[a + 1] - a0
    b0 = offs[b]
    lb = offs[b + 1] - b0
    while la > 0 and lb > 0 and chars[a0] == chars[b0]:
        a0 += 1
        b0 += 1
        la -= 1
        lb -= 1
    while la > 0 and lb > 0 and chars[a0 + la - 1] == chars[b0 + lb - 1]:
        la -= 1
        lb -= 1
    if la == 0:
        return lb
    if lb == 0:
        return la
    for j in range(lb + 1):
        buf[j] = j
    for i in range(1, la + 1):
        diag = buf[0]
        buf[0] = i
        ca = chars[a0 + i - 1]
        for j in range(1, lb + 1):
            up = buf[j]
            best = diag if ca == chars[b0 + j - 1] else diag + 1
            if up + 1 < best:
                best = up + 1
            if buf[j - 1] + 1 < best:
                best = buf[j - 1] + 1
            buf[j] = best
            diag = up
    return buf[lb]


def _k_prefix_stem(chars, offs, frag_word, other):  # pragma: no cover - compiled
    """Whether the stem of fragment ``frag_word`` (without its hyphen) prefixes ``other``."""
    f0 = offs[frag_word]
    stem = offs[frag_word + 1] - f0 - 1
    o0 = offs[other]
    if offs[other + 1] - o0 < stem:
        return False
    for t in range(stem):
        if chars[f0 + t] != chars[o0 + t]:
            return False
    return True


def _k_sub_cost(a, b, chars, offs, frag, buf):  # pragma: no cover - compiled
    """``substitution_cost`` on vocabulary codes."""
    if a == b:
        return 0
    if frag[a] and _k_prefix_stem(chars, offs, a, b):
        return FRAGMENT
    if frag[b] and _k_prefix_stem(chars, offs, b, a):
        return FRAGMENT
    d = _k_lev(chars, offs, a, b, buf)
    la = offs[a + 1] - offs[a]
    lb = offs[b + 1] - offs[b]
    mx = la if la > lb else lb
    return SUB_BASE + (SUB_SPAN * d + mx // 2) // mx


def _k_band(r, h, dlo, dhi, chars, offs, frag, buf, out_r, out_h, out_k, pos, r_base, h_base):  # pragma: no cover
    """DP of ``r`` against ``h`` restricted to diagonals ``dlo <= i - j <= dhi``.

    The band must contain diagonals 0 and ``n - m``; ``dlo = -m, dhi = n`` is
    the full matrix. Traceback directions take one byte per band cell. The
    columns are written in order to ``out_*[pos:pos + ncols]`` with indices
    offset by ``r_base``/``h_base``; the slots up to ``pos + n + m`` are used
    as scratch.

    Returns:
        (cost, ncols).
    """
    n = r.shape[0]
    m = h.shape[0]
    if dlo < -m:
        dlo = -m
    if dhi > n:
        dhi = n
    width = dhi - dlo + 1
    rowstart = np.empty(n + 2, np.int64)
    total = 0
    for i in range(n + 1):
        jlo = i - dhi if i > dhi else 0
        jhi = i - dlo if i - dlo < m else m
        rowstart[i] = total
        total += jhi - jlo + 1
    rowstart[n + 1] = total
    dirs = np.empty(total, np.int8)
    prev = np.full(width + 2, _BIG, np.int64)
    cur = np.full(width + 2, _BIG, np.int64)
    # Row 0: position of column j in a row i is j + dhi - i + 1.
    jhi0 = -dlo if -dlo < m else m
    for j in range(jhi0 + 1):
        cur[j + dhi + 1] = j * INDEL
        dirs[j] = 2
    for i in range(1, n + 1):
        prev, cur = cur, prev
        jlo = i - dhi if i > dhi else 0
        jhi = i - dlo if i - dlo < m else m
        pbase = dhi - i + 1
        cur[jlo + pbase - 1] = _BIG
        cur[jhi + pbase + 1] = _BIG
        base = rowstart[i] - jlo
        ri = r[i - 1]
        for j in range(jlo, jhi + 1):
            p = j + pbase
            # Priority on ties: deletion, insertion, diagonal (module docstring).
            best = prev[p + 1] + INDEL
            step = 1
            c = cur[p - 1] + INDEL
            if c < best:
                best = c
                step = 2
            if j > 0 and prev[p] < best:
                hj = h[j - 1]
                c = prev[p] if ri == hj else prev[p] + _k_sub_cost(ri, hj, chars, offs, frag, buf)
                if c < best:
                    best = c
                    step = 0
            cur[p] = best
            dirs[base + j] = step
    cost = cur[m + dhi - n + 1]
    # Traceback, writing columns backwards from the end of the scratch area.
    i = n
    j = m
    w = pos + n + m - 1
    while i > 0 or j > 0:
        if i == 0:
            step = 2
        elif j == 0:
            step = 1
        else:
            jlo = i - dhi if i > dhi else 0
            step = dirs[rowstart[i] + j - jlo]
        if step == 0:
            out_r[w] = r_base + i - 1
            out_h[w] = h_base + j - 1
            out_k[w] = MATCH if r[i - 1] == h[j - 1] else SUBSTITUTION
            i -= 1
            j -= 1
        elif step == 1:
            out_r[w] = r_base + i - 1
            out_h[w] = -1
            out_k[w] = DELETION
            i -= 1
        else:
            out_r[w] = -1
            out_h[w] = h_base + j - 1
            out_k[w] = INSERTION
            j -= 1
        w -= 1
    ncols = pos + n + m - 1 - w
    if w + 1 != pos:
        for t in range(ncols):
            out_r[pos + t] = out_r[w + 1 + t]
            out_h[pos + t] = out_h[w + 1 + t]
            out_k[pos + t] = out_k[w + 1 + t]
    return cost, ncols


def _k_batch(r, h, rs, re, hs, he, chars, offs, frag, maxlen, full_cells, local,
             out_r, out_h, out_k, seg_pos, seg_cols, seg_cost):  # pragma: no cover - compiled
    """Align many segment pairs ``r[rs:re]`` / ``h[hs:he]`` in one call.

    Identical segments become runs of matches; segments with at most
    ``full_cells`` cells are solved by the full DP; larger ones are left to
    the caller (``seg_cols = -1``). Columns are written contiguously in
    segment order; ``seg_pos`` is where each segment's columns start.

    Returns:
        Total number of columns written.
    """
    buf = np.empty(maxlen + 2, np.int64)
    pos = 0
    for s in range(rs.shape[0]):
        n = re[s] - rs[s]
        m = he[s] - hs[s]
        rb = 0 if local else rs[s]
        hb = 0 if local else hs[s]
        seg_pos[s] = pos
        same = n == m
        if same:
            for t in range(n):
                if r[rs[s] + t] != h[hs[s] + t]:
                    same = False
                    break
        if same:
            for t in range(n):
                out_r[pos + t] = rb + t
                out_h[pos + t] = hb + t
                out_k[pos + t] = MATCH
            seg_cols[s] = n
            seg_cost[s] = 0
            pos += n
        elif n * m <= full_cells:
            cost, ncols = _k_band(r[rs[s]:re[s]], h[hs[s]:he[s]], -m, n, chars, offs, frag, buf,
                                  out_r, out_h, out_k, pos, rb, hb)
            seg_cols[s] = ncols
            seg_cost[s] = cost
            pos += ncols
        else:
            seg_cols[s] = -1
            seg_cost[s] = 0
    return pos


def _k_last_row(r, h, chars, offs, frag, buf, row):  # pragma: no cover - compiled
    """Last row of the DP of ``r`` against ``h`` (costs against every prefix of ``h``), into ``row``."""
    m = h.shape[0]
    for j in range(m + 1):
        row[j] = j * INDEL
    for i in range(1, r.shape[0] + 1):
        diag = row[0]
        row[0] = i * INDEL
        ri = r[i - 1]
        for j in range(1, m + 1):
            up = row[j]
            hj = h[j - 1]
            best = diag if ri == hj else diag + _k_sub_cost(ri, hj, chars, offs, frag, buf)
            if up + INDEL < best:
                best = up + INDEL
            if row[j - 1] + INDEL < best:
                best = row[j - 1] + INDEL
            row[j] = best
            diag = up


def _k_lis(vals):  # pragma: no cover - compiled
    """Indices of a longest strictly increasing subsequence of ``vals`` (patience sorting)."""
    size = vals.shape[0]
    tails = np.empty(size + 1, np.int64)
    prevs = np.empty(size + 1, np.int64)
    length = 0
    for t in range(size):
        v = vals[t]
        lo = 0
        hi = length
        while lo < hi:
            mid = (lo + hi) // 2
            if vals[tails[mid]] < v:
                lo = mid + 1
            else:
                hi = mid
        prevs[t] = tails[lo - 1] if lo > 0 else -1
        tails[lo] = t
        if lo == length:
            length += 1
    res = np.empty(length, np.int64)
    if length > 0:
        t = tails[length - 1]
        for q in range(length - 1, -1, -1):
            res[q] = t
            t = prevs[t]
    return res


def _k_runs(ai, aj, k):  # pragma: no cover - compiled
    """Merge a chain of k-gram anchors (increasing in both) into runs of matches.

    Anchors on the same diagonal that overlap or touch extend the current run;
    an anchor that overlaps the current run on another diagonal is dropped.

    Returns:
        (ref starts, hyp starts, lengths) of the runs.
    """
    size = ai.shape[0]
    rs = np.empty(size, np.int64)
    hs = np.empty(size, np.int64)
    ln = np.empty(size, np.int64)
    cnt = 0
    for t in range(size):
        i = ai[t]
        j = aj[t]
        if cnt > 0:
            ci = rs[cnt - 1]
            cj = hs[cnt - 1]
            cl = ln[cnt - 1]
            if i - j == ci - cj and i <= ci + cl:
                if i + k - ci > cl:
                    ln[cnt - 1] = i + k - ci
                continue
            if i < ci + cl or j < cj + cl:
                continue
        rs[cnt] = i
        hs[cnt] = j
        ln[cnt] = k
        cnt += 1
    return rs[:cnt], hs[:cnt], ln[:cnt]


def _k_prune(r, h, ar, ah, al, gap_cost, chars, offs, frag, maxlen, max_cells, keep):  # pragma: no cover
    """One left-to-right pass dropping anchor runs that do not pay for themselves.

    Run ``t`` is dropped when the optimal DP of the window from the end of the
    last kept run to the start of run ``t + 1`` (so ignoring run ``t``) costs
    less than the two gaps around it. Windows of more than ``max_cells`` cells
    are not checked (the run is kept). ``gap_cost[t]`` is the cost of the gap
    before run ``t`` (``gap_cost[len(ar)]``: after the last run); ``keep`` is
    updated in place.

    Returns:
        Number of runs dropped.
    """
    buf = np.empty(maxlen + 2, np.int64)
    nruns = ar.shape[0]
    n = r.shape[0]
    m = h.shape[0]
    dropped = 0
    last_r = 0
    last_h = 0
    before = gap_cost[0]
    for t in range(nruns):
        if not keep[t]:
            continue
        # Next kept run after t.
        u = t + 1
        while u < nruns and not keep[u]:
            u += 1
        end_r = ar[u] if u < nruns else n
        end_h = ah[u] if u < nruns else m
        after = gap_cost[u]
        wr = end_r - last_r
        wh = end_h - last_h
        if wr * wh <= max_cells:
            row = np.empty(wh + 1, np.int64)
            _k_last_row(r[last_r:end_r], h[last_h:end_h], chars, offs, frag, buf, row)
            if row[wh] < before + after:
                keep[t] = False
                dropped += 1
                before = row[wh]
                continue
        last_r = ar[t] + al[t]
        last_h = ah[t] + al[t]
        before = after
    return dropped


_KERNEL_NAMES = ("_k_lev", "_k_prefix_stem", "_k_sub_cost", "_k_band", "_k_batch", "_k_last_row", "_k_lis", "_k_runs",
                 "_k_prune")
_kernel_lock = threading.Lock()
_compiled: SimpleNamespace | None = None


def _kernels() -> SimpleNamespace:
    """Compile (or load from numba's on-disk cache) the kernels on first use."""
    global _compiled
    with _kernel_lock:
        if _compiled is None:
            import numba

            g = globals()
            # numba keys its cache by source file, but the cached code refers to
            # the module by name: a copy loaded under another name (``python -m
            # doctest hub4eval/align.py`` imports it as ``align``) would write
            # entries that hub4eval.text.align cannot load. Only cache the real module.
            cache = __name__ == "hub4eval.text.align"
            for name in _KERNEL_NAMES:
                if not isinstance(g[name], numba.core.dispatcher.Dispatcher):
                    g[name] = numba.njit(cache=cache, nogil=True)(g[name])
            _compiled = SimpleNamespace(**{name[3:]: g[name] for name in _KERNEL_NAMES})
        return _compiled


# ---------------------------------------------------------------------------
# Encoding


@dataclass(frozen=True, eq=False)
class _Vocab:
    """Integer-coded words: code points of word ``c`` are ``chars[offs[c]:offs[c+1]]``."""

    chars: np.ndarray  # int32
    offs: np.ndarray  # int64, size V + 1
    frag: np.ndarray  # uint8, 1 for a fragment
    maxlen: int


def _encode(seqs: Iterable[Sequence[str]]) -> tuple[list[np.ndarray], _Vocab]:
    """Code words as int32 (one shared vocabulary dict, first occurrence order)."""
    vocab: dict[str, int] = {}
    coded = []
    for seq in seqs:
        codes = []
        append = codes.append
        get = vocab.get
        for word in seq:
            c = get(word)
            if c is None:
                c = vocab[word] = len(vocab)
            append(c)
        coded.append(np.array(codes, dtype=np.int32))
    words = list(vocab)
    lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words))
    offs = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offs[1:])
    chars = np.frombuffer("".join(words).encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int32)
    frag = np.fromiter((_is_fragment(w) for w in words), dtype=np.uint8, count=len(words))
    maxlen = int(lengths.max()) if len(words) else 0
    return coded, _Vocab(chars, offs, frag, maxlen)


# ---------------------------------------------------------------------------
# Drivers


class _Columns:
    """Growing list of column pieces (ref, hyp, kind arrays) in order."""

    def __init__(self) -> None:
        self.r: list[np.ndarray] = []
        self.h: list[np.ndarray] = []
        self.k: list[np.ndarray] = []

    def add(self, r: np.ndarray, h: np.ndarray, k: np.ndarray) -> None:
        self.r.append(r)
        self.h.append(h)
        self.k.append(k)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not self.r:
            return np.empty(0, np.int32), np.empty(0, np.int32), np.empty(0, np.int8)
        if len(self.r) == 1:
            return self.r[0], self.h[0], self.k[0]
        return np.concatenate(self.r), np.concatenate(self.h), np.concatenate(self.k)


def _band_cells(n: int, m: int, dlo: int, dhi: int) -> int:
    """Number of cells of a band (what ``_k_band`` allocates, one byte each)."""
    dlo, dhi = max(dlo, -m), min(dhi, n)
    i = np.arange(n + 1, dtype=np.int64)
    return int((np.minimum(m, i - dlo) - np.maximum(0, i - dhi) + 1).sum())


def _run_band(k: SimpleNamespace, r: np.ndarray, h: np.ndarray, dlo: int, dhi: int, voc: _Vocab,
              r_base: int, h_base: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
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


def _certified_band(k: SimpleNamespace, r: np.ndarray, h: np.ndarray, voc: _Vocab, r_base: int, h_base: int,
                    upper: int | None, budget: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray] | None:
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


def _hirschberg(k: SimpleNamespace, r: np.ndarray, h: np.ndarray, voc: _Vocab, r_base: int, h_base: int,
                out: _Columns) -> int:
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
    k.last_row(r[:mid], h, voc.chars, voc.offs, voc.frag, buf, fwd)
    k.last_row(np.ascontiguousarray(r[mid:][::-1]), np.ascontiguousarray(h[::-1]),
               voc.chars, voc.offs, voc.frag, buf, bwd)
    split = int(np.argmin(fwd + bwd[::-1]))
    left = _hirschberg(k, r[:mid], h[:split], voc, r_base, h_base, out)
    right = _hirschberg(k, r[mid:], h[split:], voc, r_base + mid, h_base + split, out)
    return left + right


def _solve_gap(k: SimpleNamespace, r: np.ndarray, h: np.ndarray, voc: _Vocab, r_base: int, h_base: int,
               out: _Columns) -> tuple[int, bool]:
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


def _anchor_runs(k: SimpleNamespace, rc: np.ndarray, hc: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray,
                                                                                         np.ndarray]:
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
            acc ^= x[t: len(x) - size + 1 + t]
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


def _batch(k: SimpleNamespace, r: np.ndarray, h: np.ndarray, rs: np.ndarray, re: np.ndarray, hs: np.ndarray,
           he: np.ndarray, voc: _Vocab, local: bool) -> tuple[np.ndarray, ...]:
    """Run ``_k_batch``; returns (out_r, out_h, out_k, seg_pos, seg_cols, seg_cost)."""
    total = int((re - rs).sum() + (he - hs).sum())
    out_r = np.empty(total, np.int32)
    out_h = np.empty(total, np.int32)
    out_k = np.empty(total, np.int8)
    nseg = len(rs)
    seg_pos = np.empty(nseg, np.int64)
    seg_cols = np.empty(nseg, np.int64)
    seg_cost = np.empty(nseg, np.int64)
    used = k.batch(r, h, rs, re, hs, he, voc.chars, voc.offs, voc.frag, voc.maxlen, FULL_CELLS, local,
                   out_r, out_h, out_k, seg_pos, seg_cols, seg_cost)
    return out_r[:used], out_h[:used], out_k[:used], seg_pos, seg_cols, seg_cost


def _seeded(k: SimpleNamespace, rc: np.ndarray, hc: np.ndarray, voc: _Vocab, ar: np.ndarray, ah: np.ndarray,
            al: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
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
            seg_cost[s], gap_exact = _solve_gap(k, rc[rs[s]:re[s]], hc[hs[s]:he[s]], voc, int(rs[s]), int(hs[s]), cols)
            exact = exact and gap_exact
            start = p
        cols.add(out_r[start:], out_h[start:], out_k[start:])
        out_r, out_h, out_k = cols.arrays()
    return out_r, out_h, out_k, seg_cost[0::2], exact


def _align_codes(k: SimpleNamespace, rc: np.ndarray, hc: np.ndarray, voc: _Vocab) -> Alignment:
    """Align two coded sequences (the strategy of the module docstring)."""
    n, m = len(rc), len(hc)
    if n * m <= FULL_CELLS:
        cost, cr, ch, ck = _run_band(k, rc, hc, -m, n, voc, 0, 0)
        return Alignment(cr, ch, cost, ck, True)
    ar, ah, al = _anchor_runs(k, rc, hc, _anchor_length(rc, hc))
    for _ in range(PRUNE_PASSES + 1):
        out_r, out_h, out_k, gap_cost, exact = _seeded(k, rc, hc, voc, ar, ah, al)
        if len(ar) == 0:
            break
        keep = np.ones(len(ar), dtype=np.bool_)
        if _ == PRUNE_PASSES or not k.prune(rc, hc, ar, ah, al, gap_cost, voc.chars, voc.offs, voc.frag,
                                            voc.maxlen, PRUNE_MAX_CELLS, keep):
            break
        ar, ah, al = ar[keep], ah[keep], al[keep]
    cost = int(gap_cost.sum())
    if exact and len(ar) == 0:
        return Alignment(out_r, out_h, cost, out_k, True)
    # The seeded cost bounds the optimum: a band wide enough to certify it.
    certified = _certified_band(k, rc, hc, voc, 0, 0, cost, BAND_MAX_CELLS)
    if certified is not None:
        return Alignment(certified[1], certified[2], certified[0], certified[3], True)
    return Alignment(out_r, out_h, cost, out_k, False)


def align_words(ref: Sequence[str], hyp: Sequence[str]) -> Alignment:
    """Minimum-cost word alignment of ``ref`` with ``hyp`` (§7.2).

    Args:
        ref: reference words, already normalized (lower case, punctuation
            whited out, fragments keep their trailing hyphen).
        hyp: hypothesis words, normalized the same way.

    Returns:
        The alignment; see the module docstring for costs, tie-breaking and
        the optimality guarantee (``Alignment.exact``).

    >>> a = align_words("the h- heart of general motors".split(), "a part of general motors".split())
    >>> [(int(r), int(h)) for r, h in zip(a.ref_index, a.hyp_index)]
    [(0, 0), (1, -1), (2, 1), (3, 2), (4, 3), (5, 4)]
    >>> a.cost, a.substitutions, a.deletions, a.wer
    (980, 2, 1, 0.5)
    """
    k = _kernels()
    (rc, hc), voc = _encode((ref, hyp))
    return _align_codes(k, rc, hc, voc)


def align_many(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> list[Alignment]:
    """Align many (reference, hypothesis) pairs, e.g. sentence by sentence, in one kernel call.

    Equivalent to ``[align_words(r, h) for r, h in pairs]`` but without the
    per-pair Python overhead.

    Args:
        pairs: (reference words, hypothesis words) pairs.

    Returns:
        One alignment per pair, in order.
    """
    k = _kernels()
    refs: list[Sequence[str]] = []
    hyps: list[Sequence[str]] = []
    for ref, hyp in pairs:
        refs.append(ref)
        hyps.append(hyp)
    if not refs:
        return []
    (r, h), voc = _encode(([w for s in refs for w in s], [w for s in hyps for w in s]))
    rlen = np.fromiter((len(s) for s in refs), dtype=np.int64, count=len(refs))
    hlen = np.fromiter((len(s) for s in hyps), dtype=np.int64, count=len(hyps))
    re = np.cumsum(rlen)
    he = np.cumsum(hlen)
    rs = re - rlen
    hs = he - hlen
    out_r, out_h, out_k, seg_pos, seg_cols, seg_cost = _batch(k, r, h, rs, re, hs, he, voc, True)
    result: list[Alignment] = []
    for s in range(len(refs)):
        cols = int(seg_cols[s])
        if cols < 0:
            result.append(_align_codes(k, r[rs[s]:re[s]], h[hs[s]:he[s]], voc))
            continue
        p = int(seg_pos[s])
        result.append(Alignment(out_r[p:p + cols], out_h[p:p + cols], int(seg_cost[s]), out_k[p:p + cols], True))
    return result


def _column_cost(ref: Sequence[str], hyp: Sequence[str], alignment: Alignment) -> int:
    """Recompute an alignment's cost from its columns (used by tests)."""
    total = 0
    for i, j in zip(alignment.ref_index.tolist(), alignment.hyp_index.tolist()):
        total += INDEL if i < 0 or j < 0 else substitution_cost(ref[i], hyp[j])
    return total

