"""Certifying the seeded alignment: a seed heuristic, and the band DP pruned by it (A*-style).

The seeded alignment's cost ``U`` bounds the optimum from above. Ukkonen's
argument confines every path costing at most ``U`` to a band of diagonals
(see :mod:`.exact`), but at ~15% word errors that band is about ``U / 300``
diagonals wide: 15 million cells at 10,000 words. Most of them cannot lie on
a cheap path, and a lower bound ``h(i, j)`` of the cost of aligning the rest
of both texts from cell ``(i, j)`` shows it: a cell whose cost ``g`` plus
``h`` exceeds ``U`` lies on no path costing ``U`` or less, so the DP skips it
(the pruning of A* with an admissible heuristic, as in exact pairwise
aligners such as A*PA, Groot Koerkamp and Ivanov 2024, whose seed heuristic
this adapts to weighted costs).

Cost: the table has ``len(ref) / 2`` rows of band width; only the stretch of
each row that can be finite is stored, as uint16 shifted right as far as
the upper bound needs (rounded down, so still a lower bound; 2 bytes a
value, about 10 MB at 10,000 words and ~15% word errors: fresh memory is
what the first call in a process pays for in page faults). Its ~5 million
values take about a third of a certificate's time there (13 ms): a row is
computed in vectorized passes, and a value computes a seed's substitution
floors only where neither the cheapest conceivable pair (a fragment's 100,
any other pair's 200) nor moving diagonal decides it (2% of them). The
search likewise tries that bound before a pair's floor and its edit
distance; it computes ~1.2 million cells instead of the band's 15 million,
in about as much time as the table. A search stopped by its cell budget is run again with
the exact (int32) table, so that the lower bound it proves is that of the
exact heuristic. Its size is
what limits certification: a band ``U / 300`` diagonals wide grows with the
square of the text length, so beyond ``SEED_TABLE_MAX`` entries (at ~15%
word errors, about 20,000 words) no table is built. The proven lower bound
is then that of ``_absent_bound`` (end of this module): word sequences of one
text that the other lacks, A*PA's seeds without a match, weighted by the
cheapest error they force; about two thirds of the cost at ~15% word errors.

The heuristic (``_k_seed_table``): the reference is cut into seeds of two
words. Between two seed boundaries a path either changes diagonal (each step
costs an insertion or deletion, 300), or keeps it, and then it pays either an
insertion and a deletion (600) or the substitution of each word of the seed
with the hypothesis word on that diagonal, of which a cheap lower bound
(``_k_pair_floor``: lengths and letters the other word lacks, no edit
distance) is counted. The cheapest way through these per-seed costs, from
each boundary and diagonal to the end, is a backward DP over seed boundaries
(one row per seed, not per word). It never exceeds the true remaining cost,
so:

* every optimal path keeps all its cells, and the search ends with the band
  optimum: the alignment is *proven* optimal (``Alignment.exact``);
* the cells the traceback visits, and those it prefers to them on ties, keep
  the values of the full band DP, so the columns are the band DP's columns
  (the same alignment, byte for byte, as the unpruned band);
* when the search is stopped by its cell budget, the least ``g + h`` over the
  last complete row is a proven lower bound of the optimum, so the seeded
  alignment is returned with the proven gap ``U - lower bound``
  (``Alignment.gap``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from hub4eval.text.align.codes import _Vocab
from hub4eval.text.align.costs import FRAGMENT, INDEL, SUB_BASE, SUB_SPAN

SEED_LENGTH = 2
"""Words per seed (longer when the table would exceed ``SEED_TABLE_MAX``)."""
SEED_LENGTH_MAX = 8
"""Longest seed; beyond it the heuristic is not built (too coarse to prune: a seed costs at most 600)."""
SEED_TABLE_MAX = 16_000_000
"""Largest heuristic table (seed boundaries x band diagonals; only its finite part is stored, 2 bytes a value)."""
SEARCH_MAX_CELLS = 64_000_000
"""Largest number of cells the pruned DP computes (one byte of traceback each)."""
ABSENT_MAX = 6
"""Longest word sequence looked up by the absent-sequence bound (``_absent_bound``)."""


@dataclass(frozen=True, eq=False)
class _Certificate:
    """Outcome of the pruned search.

    Attributes:
        complete: the search finished; ``cost`` is the band optimum.
        cost: the band optimum (complete) or the upper bound it was given.
        lower: a proven lower bound of the band optimum (``cost`` when complete).
        columns: (ref index, hyp index, kinds) of the band DP's alignment, when complete.
        cells: cells computed (traceback bytes used).
    """

    complete: bool
    cost: int
    lower: int
    columns: tuple[np.ndarray, np.ndarray, np.ndarray] | None
    cells: int


def _seed_length(n: int, width: int) -> int:
    """Seed length: ``SEED_LENGTH``, longer when the table would exceed ``SEED_TABLE_MAX``."""
    need = -(-(n * width) // SEED_TABLE_MAX)
    return max(SEED_LENGTH, need)


def _boundaries(n: int, seed: int) -> np.ndarray:
    """Rows of the seed boundaries: every ``seed`` rows, from 0 to the last multiple of ``seed`` <= ``n``."""
    return np.arange(0, n // seed * seed + 1, seed, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class _SeedTable:
    """The seed heuristic as the search reads it (see ``_k_seed_table``).

    Attributes:
        store, toff, tlo, thi, shift: the packed values (``kernels._k_seed_value``).
        dlo: the band's lowest diagonal (band position ``p = d - dlo``).
        bnd: the rows of the seed boundaries (increasing, from 0; ``bnd[s + 1] - bnd[s]``
            words in seed ``s``).
        at_start: the exact value at boundary 0 on diagonal 0, a lower bound of the band optimum.
        entries: values stored.
    """

    store: np.ndarray
    toff: np.ndarray
    tlo: np.ndarray
    thi: np.ndarray
    shift: int
    dlo: int
    bnd: np.ndarray
    end: int
    at_start: int
    entries: int

    def value(self, s: int, d: int) -> int:
        """The stored lower bound at seed boundary ``s`` on diagonal ``d`` (``_TABLE_INF`` when infinite)."""
        from hub4eval.text.align.kernels import _TABLE_INF

        p = d - self.dlo
        if p < self.tlo[s] or p > self.thi[s]:
            return _TABLE_INF
        q = int(self.store[self.toff[s] + p])
        return _TABLE_INF if q == np.iinfo(self.store.dtype).max else q << self.shift

    def at(self, i: int, d: int) -> int:
        """The heuristic ``h`` of cell ``(i, i - d)`` as the search reads it: the next boundary's value, or after the last boundary the diagonal distance to the end."""
        if i > self.bnd[-1]:
            return INDEL * abs(d - self.end)
        return self.value(int(np.searchsorted(self.bnd, i)), d)


def _seed_table(
    k: SimpleNamespace,
    r: np.ndarray,
    h: np.ndarray,
    voc: _Vocab,
    dlo: int,
    dhi: int,
    bnd: np.ndarray,
    upper: int,
    exact: bool = False,
) -> _SeedTable:
    """The seed heuristic at every seed boundary ``bnd`` and band diagonal (``_k_seed_table``).

    The values are stored as uint16, shifted right as far as ``upper`` needs
    (rounded down: still lower bounds, in half the memory of int32), or
    exactly as int32 when ``exact``.
    """
    from hub4eval.text.align.kernels import _STORE_INF

    nseeds = len(bnd) - 1
    width = dhi - dlo + 1
    shift = max(0, upper // (_STORE_INF - 1)).bit_length()  # upper >> shift < _STORE_INF
    # Only the touched part of this allocation becomes memory (the finite stretches).
    if exact and shift:
        store = np.empty((nseeds + 1) * width, np.int32)
        shift = 0
    else:
        store = np.empty((nseeds + 1) * width, np.uint16)
    toff = np.empty(nseeds + 1, np.int64)
    tlo = np.empty(nseeds + 1, np.int64)
    thi = np.empty(nseeds + 1, np.int64)
    nxt = np.empty(width + 2, np.int64)
    cur = np.empty(width + 2, np.int64)
    stay = np.empty(width, np.int64)
    flags = np.zeros(-(-width // 8) * 8, np.uint8)  # read as uint64 words
    at_start, entries = k.seed_table(
        r,
        h,
        bnd,
        dlo,
        dhi,
        upper,
        voc.lengths,
        voc.masks,
        voc.frag,
        shift,
        np.iinfo(store.dtype).max,
        store,
        toff,
        tlo,
        thi,
        nxt,
        cur,
        stay,
        flags,
    )
    return _SeedTable(store, toff, tlo, thi, shift, dlo, bnd, len(r) - len(h), int(at_start), int(entries))


def _sub_cache() -> tuple[np.ndarray, np.ndarray]:
    """An empty substitution-cost cache for the kernels (keys -1: empty slots)."""
    from hub4eval.text.align.kernels import _CACHE_BITS

    return np.full(1 << _CACHE_BITS, -1, np.int64), np.empty(1 << _CACHE_BITS, np.int64)


def _certify(
    k: SimpleNamespace, r: np.ndarray, h: np.ndarray, voc: _Vocab, upper: int, dlo: int, dhi: int, max_cells: int
) -> _Certificate:
    """Search the band ``dlo <= i - j <= dhi`` for the optimum, pruned by the seed heuristic.

    Args:
        upper: the cost of a known alignment (the seeded one).
        dlo, dhi: the band; it must contain diagonals 0 and ``n - m`` and be
            wide enough that a path leaving it costs at least ``upper``
            (``exact._certifying_width``), so that its optimum, when it is
            ``upper`` or less, is the optimum.
        max_cells: the search's cell budget.

    Returns:
        The certificate; incomplete (with a lower bound) when the budget or
        the heuristic's table does not fit, or when the band holds no path
        costing ``upper`` or less (then ``upper`` is the optimum, but the
        columns are not the band's).
    """
    n, m = len(r), len(h)
    gap_only = INDEL * abs(n - m)
    dlo, dhi = max(dlo, -m), min(dhi, n)
    width = dhi - dlo + 1
    seed = _seed_length(n, width)
    if seed > SEED_LENGTH_MAX or INDEL * (n + m) >= 2**31:
        return _Certificate(False, upper, min(upper, gap_only), None, 0)
    bnd = _boundaries(n, seed)
    table = _seed_table(k, r, h, voc, dlo, dhi, bnd, upper)
    found = _search(k, r, h, voc, table, upper, dlo, dhi, max_cells)
    if not found.complete and found.lower < upper and table.shift > 0:
        # Stopped by the budget: its lower bound is that of the exact
        # heuristic only with the exact values (the stored ones are rounded down).
        table = _seed_table(k, r, h, voc, dlo, dhi, bnd, upper, exact=True)
        found = _search(k, r, h, voc, table, upper, dlo, dhi, max_cells)
    return found


def _search(
    k: SimpleNamespace,
    r: np.ndarray,
    h: np.ndarray,
    voc: _Vocab,
    table: _SeedTable,
    upper: int,
    dlo: int,
    dhi: int,
    max_cells: int,
) -> _Certificate:
    """The pruned band DP (``_k_astar``) with the heuristic ``table``; see ``_certify``."""
    n, m = len(r), len(h)
    gap_only = INDEL * abs(n - m)
    ckey, cval = _sub_cache()
    dirs = np.empty(max(0, max_cells), np.int8)
    rowlo = np.empty(n + 1, np.int64)
    rowstart = np.empty(n + 2, np.int64)
    cur = np.empty(m + 1, np.int64)
    prev = np.empty(m + 1, np.int64)
    out_r = np.empty(n + m, np.int32)
    out_h = np.empty(n + m, np.int32)
    out_k = np.empty(n + m, np.int8)
    buf = np.empty(voc.maxlen + 2, np.int64)
    status, value, ncols, cells = k.astar(
        r,
        h,
        dlo,
        dhi,
        upper,
        table.bnd,
        table.shift,
        table.store,
        table.toff,
        table.tlo,
        table.thi,
        voc.chars,
        voc.offs,
        voc.frag,
        voc.lengths,
        voc.masks,
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
    )
    if status == 0:
        return _Certificate(True, int(value), int(value), (out_r[:ncols], out_h[:ncols], out_k[:ncols]), int(cells))
    if status == 2:
        # No path of the band costs ``upper`` or less, and a path leaving the
        # band costs at least ``upper`` (Ukkonen): the optimum is ``upper``.
        return _Certificate(False, upper, upper, None, int(cells))
    # The table bounds the band optimum; when that exceeds ``upper`` the
    # optimum is ``upper`` itself (above), hence the cap.
    lower = max(int(value), table.at_start, gap_only)
    return _Certificate(False, upper, min(upper, lower), None, int(cells))


# ---------------------------------------------------------------------------
# A lower bound for texts too long for the seed table: sequences of one text
# that the other text lacks (the seeds without a match of A*PA's seed heuristic).


def _word_floors(voc: _Vocab, theirs: np.ndarray) -> np.ndarray:
    """Per vocabulary word: a lower bound of the cost of a column pairing it with any *other* word of ``theirs``.

    ``FRAGMENT`` when the word is a fragment or the stem of a fragment of
    ``theirs`` prefixes it (found through hashes of prefixes: a collision
    only lowers a floor); otherwise a substitution with edit distance 1
    between words as long as the longest of ``theirs``.
    """
    nvocab = len(voc.lengths)
    if len(theirs) == 0:
        return np.full(nvocab, FRAGMENT, np.int64)
    in_theirs = np.bincount(theirs, minlength=nvocab) > 0
    # A substitution's edit distance is at least 1 and at least the length difference.
    floors = np.full(nvocab, 1 << 40, np.int64)
    for other in np.unique(voc.lengths[in_theirs]).tolist():
        mx = np.maximum(np.maximum(voc.lengths, other), 1)
        dist = np.maximum(np.abs(voc.lengths - other), 1)
        np.minimum(floors, SUB_BASE + (SUB_SPAN * dist + mx // 2) // mx, out=floors)
    frag = voc.frag.astype(np.bool_)
    floors[frag] = FRAGMENT
    stems = np.flatnonzero(frag & in_theirs)
    if len(stems) == 0:
        return floors
    stem_len = voc.lengths[stems] - 1
    starts = voc.offs[:-1]
    prefix = np.zeros(nvocab, np.uint64)  # hash of each word's first q characters
    for q in range(1, int(stem_len.max()) + 1):
        longer = np.flatnonzero(voc.lengths >= q)
        prefix[longer] = prefix[longer] * np.uint64(0x100000001B3) ^ (
            voc.chars[starts[longer] + q - 1].astype(np.uint64) + np.uint64(1)
        )
        these = stems[stem_len == q]
        if len(these):
            floors[longer[np.isin(prefix[longer], prefix[these])]] = FRAGMENT
    return floors


def _absent_bound(k: SimpleNamespace, r: np.ndarray, h: np.ndarray, voc: _Vocab) -> int:
    """A lower bound of the optimal cost from word sequences of one text that the other lacks.

    If ``ref[i:i+L]`` occurs nowhere in the hypothesis, no alignment matches
    all its words in a row: it deletes one (300), substitutes one (at least
    ``_word_floors``) or inserts between two (300), inside those ``L`` rows.
    Disjoint such sequences pay separately, so the heaviest set of disjoint
    ones (``_k_absent_bound``; the sequences are found by ``_k_absent_lengths``) bounds the optimum; the same holds with the
    texts' roles swapped, and the larger of the two bounds is returned. It
    costs a few hashings of both texts (~0.5 s at a million words), with no
    table over the band, so it serves where the seed table does not fit.
    """
    nvocab = len(voc.lengths)
    best = 0
    for a, b in ((r, h), (h, r)):
        if len(a) == 0:
            continue
        length = np.empty(len(a), np.int64)
        k.absent_lengths(a, b, nvocab, ABSENT_MAX, length)
        floors = np.minimum(_word_floors(voc, b)[a], INDEL)
        # The weight of an interval: its cheapest word (a sliding minimum over up to ABSENT_MAX words).
        cost = floors.copy()
        for t in range(1, ABSENT_MAX):
            longer = np.flatnonzero(length > t)
            if len(longer) == 0:
                break
            cost[longer] = np.minimum(cost[longer], floors[longer + t])
        best = max(best, int(k.absent_bound(length, cost)))
    return best
