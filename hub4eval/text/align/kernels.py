"""The numba kernels: Levenshtein and substitution costs, the band DP, batches, anchors, certification.

Plain Python functions, compiled on first use by :func:`_kernels` (numba's
on-disk cache, :mod:`hub4eval.text.align.numba_cache`, makes later runs skip
compilation).

Why one module of about 1,000 lines: the kernels call each other through this
module's globals, which :func:`_kernels` rebinds to their compiled
dispatchers; a kernel in another module would call the plain Python function
of one here (hundreds of times slower), or each module would need its own
rebinding and numba cache keyed to it. Each kernel is one DP or one table
(the seed heuristic's table and the pruned search, ``_k_seed_table`` and
``_k_astar``, are most of the length), documented where it is defined; what
they compute, and the pure-Python reference the tests compare them with, is in
:mod:`hub4eval.text.align.costs` and :mod:`hub4eval.text.align.certify`.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

# ---------------------------------------------------------------------------
# numba kernels: plain functions here, compiled lazily by _kernels(), which
# rebinds each module-level name to its compiled dispatcher so that kernels
# calling each other resolve to compiled code.
from hub4eval.text.align.costs import DELETION, FRAGMENT, INDEL, INSERTION, MATCH, SUB_BASE, SUB_SPAN, SUBSTITUTION
from hub4eval.text.align.numba_cache import CompiledOnce, cached_njit

_BIG = 1 << 60
"""Infinity for the band DP's cost arrays (int64)."""
_FLOOR_LEN = 24
_FLOOR_TABLE = np.array(
    [SUB_BASE + (SUB_SPAN * d + mx // 2) // max(mx, 1) for d in range(_FLOOR_LEN) for mx in range(_FLOOR_LEN)],
    np.int64,
)
"""``SUB_BASE + round(SUB_SPAN * d / mx)`` for short words (``d <= mx < _FLOOR_LEN``), without a division."""
_TABLE_INF = 1 << 30
"""Values of the heuristic on no path costing at most the upper bound."""
_STORE_INF = 65535
"""Largest value of the uint16 heuristic table (see ``_k_seed_table``)."""
_CACHE_BITS = 16
"""The substitution-cost cache of the pruned search has ``2 ** _CACHE_BITS`` slots."""


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


def _k_batch(
    r, h, rs, re, hs, he, chars, offs, frag, maxlen, full_cells, local, out_r, out_h, out_k, seg_pos, seg_cols, seg_cost
):  # pragma: no cover - compiled
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
            cost, ncols = _k_band(
                r[rs[s] : re[s]], h[hs[s] : he[s]], -m, n, chars, offs, frag, buf, out_r, out_h, out_k, pos, rb, hb
            )
            seg_cols[s] = ncols
            seg_cost[s] = cost
            pos += ncols
        else:
            seg_cols[s] = -1
            seg_cost[s] = 0
    return pos


def _k_last_row(r, h, chars, offs, frag, lengths, masks, buf, row):  # pragma: no cover - compiled
    """Last row of the DP of ``r`` against ``h`` (costs against every prefix of ``h``), into ``row``.

    The edit distance of a substitution is computed only when its lower bound
    (``_k_pair_floor``) does not already lose to an insertion or deletion.
    """
    m = h.shape[0]
    for j in range(m + 1):
        row[j] = j * INDEL
    for i in range(1, r.shape[0] + 1):
        diag = row[0]
        row[0] = i * INDEL
        ri = r[i - 1]
        li = lengths[ri]
        mi = masks[ri]
        fi = frag[ri]
        for j in range(1, m + 1):
            up = row[j]
            hj = h[j - 1]
            best = up + INDEL
            if row[j - 1] + INDEL < best:
                best = row[j - 1] + INDEL
            if ri == hj:
                if diag < best:
                    best = diag
            elif diag + _k_pair_floor(li, mi, fi, lengths[hj], masks[hj], frag[hj]) < best:
                c = diag + _k_sub_cost(ri, hj, chars, offs, frag, buf)
                if c < best:
                    best = c
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


def _k_prune(
    r, h, ar, ah, al, gap_cost, chars, offs, frag, lengths, masks, maxlen, max_cells, keep
):  # pragma: no cover
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
            _k_last_row(r[last_r:end_r], h[last_h:end_h], chars, offs, frag, lengths, masks, buf, row)
            if row[wh] < before + after:
                keep[t] = False
                dropped += 1
                before = row[wh]
                continue
        last_r = ar[t] + al[t]
        last_h = ah[t] + al[t]
        before = after
    return dropped


def _k_popcount(x):  # pragma: no cover - compiled
    """Bits set in ``x`` (uint64); LLVM compiles this loop to one population-count instruction."""
    c = 0
    while x:
        x &= x - np.uint64(1)
        c += 1
    return np.int64(c)


def _k_pair_floor(la, ma, fa, lb, mb, fb):  # pragma: no cover - compiled
    """A lower bound of the substitution cost of two different words, without an edit distance.

    Each word is given by its length, its character buckets (``_Vocab.masks``)
    and whether it is a fragment. The edit distance is at least 1, the length
    difference, and the number of buckets of either word the other lacks; a
    fragment may make the pair cost ``FRAGMENT``.
    """
    if fa or fb:
        return FRAGMENT
    mx = la if la > lb else lb
    d = la - lb if la > lb else lb - la
    if d < 1:
        d = 1
    x = _k_popcount(ma & ~mb)
    if x > d:
        d = x
    x = _k_popcount(mb & ~ma)
    if x > d:
        d = x
    if mx < _FLOOR_LEN:
        return _FLOOR_TABLE[d * _FLOOR_LEN + mx]
    return SUB_BASE + (SUB_SPAN * d + mx // 2) // mx


def _k_sub_cached(a, b, chars, offs, frag, buf, ckey, cval):  # pragma: no cover - compiled
    """``_k_sub_cost`` through a direct-mapped cache (``ckey``: pair keys, -1 when empty)."""
    key = a * (offs.shape[0] - 1) + b
    slot = (key ^ (key >> _CACHE_BITS) ^ (key >> (2 * _CACHE_BITS))) & ((1 << _CACHE_BITS) - 1)
    if ckey[slot] == key:
        return cval[slot]
    c = _k_sub_cost(a, b, chars, offs, frag, buf)
    ckey[slot] = key
    cval[slot] = c
    return c


def _k_seed_table(
    r, h, bnd, dlo, dhi, upper, wlen, masks, frag, shift, top, store, toff, tlo, thi, nxt, cur, stay, flags
):  # pragma: no cover
    """Backward DP of the seed heuristic, at every seed boundary and band diagonal.

    The reference is cut into ``S = len(r) // seed`` seeds of ``seed`` words
    (boundary ``s`` is row ``s * seed``). The value at boundary ``s`` and
    diagonal ``d = i - j`` is a lower bound of the cost of any path of the
    band from a cell of row ``s * seed`` on diagonal ``d`` to the end. Between
    two boundaries a path either changes diagonal by ``t`` (at least ``t``
    insertions or deletions: ``INDEL * t``), or keeps it: then it either has
    at least one insertion and one deletion (``2 * INDEL``), or it pairs each
    word of the seed with the hypothesis word on that diagonal (at least the
    sum of their ``_k_pair_floor``). After the last boundary only the
    diagonal change to ``n - m`` is counted. The values are
    ``INDEL``-Lipschitz in ``d``, so a diagonal change of one per seed is
    enough, and the seed's own cost is only computed (and only as far as
    needed) where keeping the diagonal can beat changing it.

    Paths costing more than ``upper`` do not matter: a path reaching diagonal
    ``d`` has paid at least ``INDEL * |d|``, so a value with ``INDEL * |d| +
    value > upper`` lies on no path costing ``upper`` or less and counts as
    ``_TABLE_INF`` (so do the values next to no finite one). Every path
    costing at most ``upper`` still finds its own seed steps, so the values
    bound its remaining cost; only boundaries near the end, where the values
    are small, stay wide.

    Storage (what the search reads): only the stretch ``tlo[s] .. thi[s]``
    (band positions ``p = d - dlo``) of each boundary is kept, as
    ``store[toff[s] + p]``: uint16, the value shifted right by ``shift`` bits
    (rounded down), so that shifted back it is still a lower bound, in half
    the memory of int32 (fresh memory is what the first call in a process
    pays for most). The caller chooses ``shift`` so that ``upper >> shift <
    _STORE_INF`` (or an int32 store and ``shift = 0`` for exact values), and
    an infinite value is stored as ``top``, the largest value of the store's
    type: shifted back it exceeds ``upper``, so the search needs no test to
    prune the cells it reaches. Boundaries are packed
    from the end of ``store`` backwards. The DP
    itself runs on exact values in the two rows ``nxt`` and ``cur`` (int64,
    band width plus one ``_BIG`` on each side), with two scratch rows: ``stay``
    (int64, band width) and ``flags`` (uint8, band width rounded up to a
    multiple of 8, read as uint64 words).

    Returns:
        (exact value at boundary 0 on diagonal 0, entries of ``store`` used).
    """
    n = r.shape[0]
    m = h.shape[0]
    nseeds = bnd.shape[0] - 1
    width = dhi - dlo + 1
    end = n - m
    cap = 2 * INDEL
    longest = 1
    for s in range(nseeds):
        if bnd[s + 1] - bnd[s] > longest:
            longest = bnd[s + 1] - bnd[s]
    # The hypothesis words' lengths, buckets and fragment flags, in text order
    # (the inner loop walks the hypothesis).
    hl = np.empty(m, np.int64)
    hm = np.empty(m, np.uint64)
    hf = np.empty(m, np.uint8)
    for j in range(m):
        hl[j] = wlen[h[j]]
        hm[j] = masks[h[j]]
        hf[j] = frag[h[j]]
    sw = np.empty(longest, np.int64)
    sl = np.empty(longest, np.int64)
    sm = np.empty(longest, np.uint64)
    sf = np.empty(longest, np.uint8)
    lo = width
    hi = -1
    for p in range(width):
        d = dlo + p
        x = d - end
        value = INDEL * (x if x >= 0 else -x)
        if value + INDEL * (d if d >= 0 else -d) > upper:
            value = _TABLE_INF
        else:
            if lo == width:
                lo = p
            hi = p
        cur[p + 1] = value
    nxt[0] = nxt[width + 1] = cur[0] = cur[width + 1] = _BIG
    pos = store.shape[0]
    plo = lo if lo < width else 0
    phi = hi if hi >= 0 else -1
    for s in range(nseeds, -1, -1):
        if s < nseeds:
            nxt, cur = cur, nxt
            a = bnd[s]
            seed = bnd[s + 1] - a
            plo = lo - 1 if lo > 0 else 0
            phi = hi + 1 if hi + 1 < width else width - 1
            if lo == width:  # no finite value at the next boundary
                plo = 0
                phi = -1
            lo = width
            hi = -1
            for t in range(seed):  # the seed's words, hoisted out of the diagonal loop
                rw = r[a + t]
                sw[t] = rw
                sl[t] = wlen[rw]
                sm[t] = masks[rw]
                sf[t] = frag[rw]
            # Three passes over the stretch, the first two without branches (where
            # staying beats moving follows no pattern a processor predicts, and
            # LLVM vectorizes them): (1) ``stay[p]``, the cheap bound of the
            # seed's cost on diagonal ``dlo + p`` (different words: a fragment
            # pair costs at least FRAGMENT, others SUB_BASE; ``cap`` where the
            # seed leaves the hypothesis); (2) the value with that bound, and a
            # flag byte where the bound lets staying beat moving (about 2% of the
            # values); (3) at the flags only, the substitution floors.
            # (Unsigned indices here too: with numba's test for negative ones,
            # LLVM does not vectorize these loops, four times slower.)
            for p in range(plo, phi + 1):
                stay[np.uint64(p)] = 0
            for t in range(seed):
                rw = sw[t]
                jtop = a + t - dlo  # the hypothesis word on band position p is h[jtop - p]
                vlo = max(jtop - (m - 1), plo)
                vhi = min(jtop, phi)
                for p in range(plo, min(vlo, phi + 1)):
                    stay[np.uint64(p)] = cap
                for p in range(max(vhi + 1, plo), phi + 1):
                    stay[np.uint64(p)] = cap
                word_cost = FRAGMENT if sf[t] else SUB_BASE
                for p in range(vlo, vhi + 1):
                    jw = np.uint64(jtop - p)
                    c = FRAGMENT if hf[jw] else word_cost
                    stay[np.uint64(p)] += c if h[jw] != rw else 0
            flagged = 0
            for p in range(plo, phi + 1):
                # Band position p is at index p + 1 of the rows (padded with _BIG);
                # unsigned indices spare numba's test for negative ones.
                q = np.uint64(p)
                move = min(nxt[q], nxt[q + np.uint64(2)]) + INDEL
                here = nxt[q + np.uint64(1)]
                st = stay[q]
                f = (here + st < move) & (st < cap)
                flags[q] = f
                flagged += f
                value = min(here + min(st, cap), move)
                cur[q + np.uint64(1)] = _TABLE_INF if value + INDEL * abs(dlo + p) > upper else value
            if flagged:
                # The flag bytes eight at a time; each set bit of a word is one flag
                # (its byte: the set bits below it, over 8). Bytes outside the
                # stretch are stale.
                words = flags.view(np.uint64)
                for wi in range(plo >> 3, (phi >> 3) + 1):
                    x = words[wi]
                    while x:
                        low = x & (~x + np.uint64(1))
                        x ^= low
                        p = (wi << 3) + (_k_popcount(low - np.uint64(1)) >> 3)
                        if p < plo or p > phi:
                            continue
                        q = np.uint64(p)
                        here = nxt[q + np.uint64(1)]
                        move = min(nxt[q], nxt[q + np.uint64(2)]) + INDEL
                        st = 0
                        j = a - dlo - p
                        for t in range(seed):
                            if sw[t] != h[j]:
                                st += _k_pair_floor(sl[t], sm[t], sf[t], hl[j], hm[j], hf[j])
                                if st >= cap or here + st >= move:
                                    break
                            j += 1
                        value = min(here + min(st, cap), move)
                        cur[q + np.uint64(1)] = _TABLE_INF if value + INDEL * abs(dlo + p) > upper else value
            for p in range(plo, phi + 1):
                if cur[np.uint64(p + 1)] < _TABLE_INF:
                    lo = p
                    break
            if lo < width:
                for p in range(phi, lo - 1, -1):
                    if cur[np.uint64(p + 1)] < _TABLE_INF:
                        hi = p
                        break
            # Guards: the next boundary reads up to two positions beyond this stretch.
            for p in (plo - 2, plo - 1, phi + 1, phi + 2):
                if 0 <= p < width:
                    cur[p + 1] = _TABLE_INF
        # Keep the stretch that can be finite.
        if lo == width:
            tlo[s] = 0
            thi[s] = -1
            toff[s] = pos
            continue
        pos -= hi - lo + 1
        tlo[s] = lo
        thi[s] = hi
        toff[s] = pos - lo
        for p in range(lo, hi + 1):
            v = cur[np.uint64(p + 1)]
            store[np.uint64(pos + p - lo)] = top if v >= _TABLE_INF else v >> shift
    # Read only inside the last stretch kept: elsewhere the row holds stale values.
    at0 = cur[1 - dlo] if tlo[0] <= -dlo <= thi[0] else _TABLE_INF
    return at0, store.shape[0] - pos


def _k_seed_value(store, toff, tlo, thi, shift, s, p):  # pragma: no cover - compiled
    """The stored seed heuristic at boundary ``s``, band position ``p`` (``_TABLE_INF`` when infinite)."""
    if p < tlo[s] or p > thi[s]:
        return _TABLE_INF
    return np.int64(store[toff[s] + p]) << shift


def _k_astar(
    r,
    h,
    dlo,
    dhi,
    upper,
    bnd,
    shift,
    store,
    toff,
    tlo,
    thi,
    chars,
    offs,
    frag,
    wlen,
    masks,
    buf,
    ckey,
    cval,
    dirs,
    rowlo,
    rowstart,
    cur,
    prev,
    out_r,
    out_h,
    out_k,
):  # pragma: no cover - compiled
    """The band DP of ``_k_band``, computing only cells that can lie on a path costing at most ``upper``.

    A cell ``(i, j)`` is kept when its cost ``g`` plus the seed heuristic
    ``h(i, j)`` (the stored heuristic at the next seed boundary, see ``_k_seed_table``;
    after the last boundary the diagonal distance to ``n - m``) is at most
    ``upper``; other cells count as unreachable. Every optimal path keeps
    every cell (``h`` never exceeds the true remaining cost), and every cell
    the band DP's traceback visits, or prefers to it, keeps its band value,
    so the cost and the columns are those of ``_k_band`` on the same band.
    Traceback directions of the kept stretch of each row take one byte per
    cell in ``dirs``; when ``dirs`` is full the search stops.

    Returns:
        (status, value, ncols, cells): status 0 when complete (value: the
        band optimum, columns in ``out_*[:ncols]``), 1 when ``dirs`` ran out
        (value: a lower bound of the band optimum, the least ``g + h`` over
        the kept cells of the last complete row).
    """
    n = r.shape[0]
    m = h.shape[0]
    if dlo < -m:
        dlo = -m
    if dhi > n:
        dhi = n
    end = n - m
    nseeds = bnd.shape[0] - 1
    last = bnd[nseeds]
    cap = dirs.shape[0]
    # Row 0: insertions only.
    lower = upper
    plo = 0
    phi = -1
    rowlo[0] = 0
    rowstart[0] = 0
    jmax = -dlo if -dlo < m else m
    used = 0
    for j in range(jmax + 1):
        g = j * INDEL
        d = -j
        if last > 0:
            hv = _k_seed_value(store, toff, tlo, thi, shift, 0, d - dlo)
        else:
            x = d - end
            hv = INDEL * (x if x >= 0 else -x)
        if g + hv > upper:
            break
        if used >= cap:
            return 1, 0, 0, used
        cur[j] = g
        dirs[used] = 2
        used += 1
        phi = j
        if g + hv < lower:
            lower = g + hv
    rowstart[1] = used
    s = 0
    for i in range(1, n + 1):
        prev, cur = cur, prev
        if s < nseeds and bnd[s] < i:  # the first boundary at or after row i
            s += 1
        j0 = plo if plo > i - dhi else i - dhi
        if j0 < 0:
            j0 = 0
        jend = i - dlo if i - dlo < m else m
        ri = r[i - 1]
        fi = frag[ri]
        lo = -1
        hi = -1
        rowlo[i] = j0
        base = used - j0
        row_lower = _BIG
        left = _BIG  # cur[j - 1], unreachable before j0
        # The heuristic of cell (i, j), hoisted out of the loop over j (the
        # compiler cannot tell that the stores to the rows leave these alone):
        # store[hrow - j] for hjlo <= j <= hjhi, else infinite; after the last
        # boundary, the diagonal distance to the end.
        seeded_row = i <= last
        hrow = toff[s] + i - dlo
        hjlo = i - dlo - thi[s]
        hjhi = i - dlo - tlo[s]
        # j >= j0 >= plo: prev[j] holds a value of the previous row for j <= phi.
        # ``diag`` is prev[j - 1] (carried from the step before), or _BIG.
        diag = prev[np.uint64(j0 - 1)] if plo < j0 <= phi + 1 else _BIG
        j = j0
        while j <= jend:
            if j > phi + 1 and left >= _BIG:
                break
            if base + j >= cap:
                return 1, lower, 0, used
            uj = np.uint64(j)  # unsigned indices spare numba's test for negative ones
            if j <= phi:
                above = prev[uj]
                best = above + INDEL
            else:
                above = best = _BIG
            step = 1
            c = left + INDEL
            if c < best:
                best = c
                step = 2
            if diag < best:
                hj = h[uj - np.uint64(1)]
                c = diag
                if ri != hj:
                    # often enough to lose without an edit distance: first the
                    # least any pair costs (FRAGMENT with a fragment, else
                    # SUB_BASE), then the pair's floor
                    c += FRAGMENT if fi or frag[hj] else SUB_BASE
                    if c < best:
                        c = diag + _k_pair_floor(wlen[ri], masks[ri], fi, wlen[hj], masks[hj], frag[hj])
                        if c < best:
                            c = diag + _k_sub_cached(ri, hj, chars, offs, frag, buf, ckey, cval)
                if c < best:
                    best = c
                    step = 0
            diag = above
            dirs[np.uint64(base + j)] = step
            if best < _BIG:
                if seeded_row:
                    hv = np.int64(store[np.uint64(hrow - j)]) << shift if hjlo <= j <= hjhi else _TABLE_INF
                else:
                    hv = INDEL * abs(i - j - end)
                if best + hv <= upper:
                    if lo < 0:
                        lo = j
                    hi = j
                    if best + hv < row_lower:
                        row_lower = best + hv
                else:
                    best = _BIG
            cur[uj] = best
            left = best
            j += 1
        used = base + j
        rowstart[i + 1] = used
        if lo < 0:
            return 2, 0, 0, used  # impossible when upper is a path's cost
        plo = lo
        phi = hi
        lower = row_lower
    if phi < m:
        return 2, 0, 0, used
    cost = cur[m]
    # Traceback (as in _k_band).
    i = n
    j = m
    w = n + m - 1
    while i > 0 or j > 0:
        if i == 0:
            step = 2
        elif j == 0:
            step = 1
        else:
            step = dirs[rowstart[i] + j - rowlo[i]]
        if step == 0:
            out_r[w] = i - 1
            out_h[w] = j - 1
            out_k[w] = MATCH if r[i - 1] == h[j - 1] else SUBSTITUTION
            i -= 1
            j -= 1
        elif step == 1:
            out_r[w] = i - 1
            out_h[w] = -1
            out_k[w] = DELETION
            i -= 1
        else:
            out_r[w] = -1
            out_h[w] = j - 1
            out_k[w] = INSERTION
            j -= 1
        w -= 1
    ncols = n + m - 1 - w
    if w + 1 != 0:
        for t in range(ncols):
            out_r[t] = out_r[w + 1 + t]
            out_h[t] = out_h[w + 1 + t]
            out_k[t] = out_k[w + 1 + t]
    return 0, cost, ncols, used


def _k_absent_lengths(a, b, nvocab, longest, out):  # pragma: no cover - compiled
    """``out[i]``: the least ``L <= longest`` such that ``a[i:i+L]`` occurs nowhere in ``b``, else 0.

    Single words through a presence table of the vocabulary; longer sequences
    through an open-addressing hash set of ``b``'s 32-bit sequence hashes, one
    size at a time (products stay below 2 ** 64, so the kernel also runs as
    plain Python without overflow warnings). A hash collision can only make a
    sequence look present (``out`` stays 0 or gets a larger ``L``), never
    absent.
    """
    na = a.shape[0]
    nb = b.shape[0]
    present = np.zeros(nvocab, np.uint8)
    for j in range(nb):
        present[b[j]] = 1
    for i in range(na):
        out[i] = 0 if present[a[i]] else 1
    bits = 4
    while (1 << bits) < 2 * nb + 2:
        bits += 1
    shift = np.uint64(32 - bits if bits < 32 else 0)
    mask = np.uint64((1 << bits) - 1)
    keys = np.empty(1 << bits, np.uint64)
    used = np.empty(1 << bits, np.uint8)
    mul = np.uint64(0x01000193)  # FNV-1's 32-bit prime
    low = np.uint64(0xFFFFFFFF)
    spread = np.uint64(0x9E3779B1)
    for size in range(2, longest + 1):
        if na < size:
            break
        used[:] = 0
        for j in range(nb - size + 1):
            x = np.uint64(b[j]) + np.uint64(1)
            for t in range(1, size):
                x = ((x * mul) & low) ^ (np.uint64(b[j + t]) + np.uint64(1))
            slot = (((x & low) * spread) >> shift) & mask
            while used[slot] and keys[slot] != x:
                slot = (slot + np.uint64(1)) & mask
            used[slot] = 1
            keys[slot] = x
        for i in range(na - size + 1):
            if out[i] != 0:
                continue
            x = np.uint64(a[i]) + np.uint64(1)
            for t in range(1, size):
                x = ((x * mul) & low) ^ (np.uint64(a[i + t]) + np.uint64(1))
            slot = (((x & low) * spread) >> shift) & mask
            found = False
            while used[slot]:
                if keys[slot] == x:
                    found = True
                    break
                slot = (slot + np.uint64(1)) & mask
            if not found:
                out[i] = size


def _k_absent_bound(length, cost):  # pragma: no cover - compiled
    """Largest total cost of disjoint intervals ``[i, i + length[i])`` (``length[i] = 0``: none at ``i``).

    ``cost[i]`` is the weight of the interval starting at ``i``; a backward DP
    over start positions (weighted interval scheduling) picks the disjoint
    intervals of largest total weight.
    """
    n = length.shape[0]
    best = np.zeros(n + 1, np.int64)
    for i in range(n - 1, -1, -1):
        b = best[i + 1]
        if length[i] > 0:
            c = cost[i] + best[i + length[i]]
            if c > b:
                b = c
        best[i] = b
    return best[0]


_KERNEL_NAMES = (
    "_k_lev",
    "_k_prefix_stem",
    "_k_sub_cost",
    "_k_band",
    "_k_batch",
    "_k_last_row",
    "_k_lis",
    "_k_runs",
    "_k_prune",
    "_k_popcount",
    "_k_pair_floor",
    "_k_sub_cached",
    "_k_seed_table",
    "_k_seed_value",
    "_k_astar",
    "_k_absent_lengths",
    "_k_absent_bound",
)


def _compile() -> SimpleNamespace:
    """The kernels compiled (or loaded from numba's on-disk cache), each module-level name
    rebound to its dispatcher: :func:`_kernels`, once."""
    import numba

    g = globals()
    # numba keys its cache by source file, but the cached code refers to
    # the module by name: a copy loaded under another name (``python -m
    # doctest hub4eval/text/align/kernels.py`` imports it as ``kernels``) would write
    # entries that hub4eval.text.align.kernels cannot load. Only cache the real module.
    cache = __name__ == "hub4eval.text.align.kernels"
    for name in _KERNEL_NAMES:
        if not isinstance(g[name], numba.core.dispatcher.Dispatcher):
            g[name] = cached_njit(numba, g[name], cache)
    return SimpleNamespace(**{name[3:]: g[name] for name in _KERNEL_NAMES})


_kernels = CompiledOnce(_compile)
"""The kernels, compiled (or loaded from numba's on-disk cache) on first use."""
