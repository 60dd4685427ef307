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
   (The certification below is tried first: when it proves the seeded cost
   optimal, no run can be dropped, since a drop lowers the cost, and the
   check is skipped; the result is the same.)
   The seeded cost ``C`` bounds the optimum from above, so any path that leaves
   the band of diagonals ``[min(0, n-m) - w, max(0, n-m) + w]`` costs at least
   ``300 * (|n-m| + 2w + 2)`` (it needs that many insertions and deletions).
   With ``w`` chosen so that this bound is ``>= C``, the optimum lies in the
   band (Ukkonen's argument). The band is searched by a DP that skips every
   cell which provably lies on no path costing ``C`` or less
   (:mod:`.certify`: the cell's cost plus a *seed heuristic*, a lower bound of
   the cost of aligning the rest, exceeds ``C``; the pruning of A* as in exact
   aligners such as A*PA). The search ends with the band optimum and the band
   DP's own columns (same tie-breaking), so ``exact`` is True; at ~15% word
   errors it computes about 1/13 of the band's cells at 10,000 words. Inputs
   within ``BAND_MAX_CELLS`` get those columns; larger ones keep the seeded
   alignment when the search proves it optimal (the alignment is the one
   returned before certification existed, now with ``exact`` True), and get
   the search's columns when it finds a cheaper one.
3. The search needs a table of the heuristic (seed boundaries x band
   diagonals, at most ``certify.SEED_TABLE_MAX`` entries) and a cell budget
   (``certify.SEARCH_MAX_CELLS``). Beyond them (at ~15% word errors, above
   about 20,000 words) the seeded alignment is returned with ``exact=False``
   and ``gap`` = its cost minus a proven lower bound of the optimum: the
   better of the bound the search reached and the *absent-sequence bound*
   (``certify._absent_bound``: word sequences of up to ``ABSENT_MAX`` words of
   one text that occur nowhere in the other each force an error inside
   them, so disjoint ones add up; at ~15% word errors it proves about two
   thirds of the cost, a gap of about a third of the cost, from 20,000 to
   1,000,000 words).
   The seeded alignment is
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
``BAND_MAX_CELLS`` cells, the certifying search up to ``SEED_TABLE_MAX``
2-byte heuristic entries and ``SEARCH_MAX_CELLS`` cells, and Hirschberg's
recursion keeps two cost rows.

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

Modules, in the order a call goes through them: :mod:`.driver` (the entry
points), :mod:`.codes` (words as integers), :mod:`.seeded` (anchors and gaps
for long texts), :mod:`.certify` (the seed heuristic and the pruned band
search that proves the seeded alignment optimal or bounds its gap),
:mod:`.exact` (certified band and Hirschberg for one gap),
:mod:`.kernels` (the compiled DPs), :mod:`.costs` (costs, the result type,
the pure-Python reference).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hub4eval.text.align.costs import (
        COST_SCALE,
        DELETION,
        INSERTION,
        MATCH,
        SUBSTITUTION,
        Alignment,
        substitution_cost,
    )
    from hub4eval.text.align.driver import align_many, align_words

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

# The names above load their module (and numpy) on first use, not when a sibling
# module such as ``.sclite_net`` is imported: ``hub4eval sclite`` on a small file
# would otherwise spend a sixth of a second importing numpy it does not need.
_HOMES = {name: "costs" for name in __all__ if name not in ("align_many", "align_words")}
_HOMES.update(align_many="driver", align_words="driver")


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
