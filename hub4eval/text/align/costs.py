"""The alignment's costs, its result type, and a slow pure-Python reference aligner.

Costs are integers in hundredths of the specification's units (see the
package docstring); :func:`_align_reference` is the plain full-matrix DP
that the compiled kernels are tested against.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

COST_SCALE = 100
"""Integer cost units per unit of the alignment costs below (each is written multiplied by this)."""
INDEL = 300
"""Cost of an insertion or a deletion."""
FRAGMENT = 100
"""Cost of a fragment (``h-``) against a word its stem prefixes."""
SUB_BASE = 200
SUB_SPAN = 200
"""A substitution costs ``SUB_BASE + SUB_SPAN * normalized edit distance``."""

MATCH, SUBSTITUTION, DELETION, INSERTION = 0, 1, 2, 3
"""Column kinds, as stored in ``Alignment.kinds``."""


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
        gap: how far ``cost`` may exceed the minimum, at most: 0 when
            ``exact``, else ``cost`` minus a proven lower bound of the
            minimum (the minimum lies in ``[cost - gap, cost]``).

    ``exact`` and ``gap`` are given as the fifth and sixth arguments, or, for
    an alignment not proven optimal, as a function computing a lower bound of
    the minimum (``lower``, picklable): it is called when either is first
    read, since no score or report reads them and the bound of a long stream
    costs a tenth of a second or more.
    """

    ref_index: np.ndarray
    hyp_index: np.ndarray
    cost: int
    kinds: np.ndarray
    _exact: bool = True
    _gap: int = 0
    lower: Callable[[], int] | None = field(default=None, repr=False)

    def _settle(self) -> None:
        if self.lower is not None:
            lower = self.lower()
            object.__setattr__(self, "_exact", lower >= self.cost)
            object.__setattr__(self, "_gap", self.cost - lower)
            object.__setattr__(self, "lower", None)

    @property
    def exact(self) -> bool:
        """Whether ``cost`` is proven to be the minimum."""
        self._settle()
        return self._exact

    @property
    def gap(self) -> int:
        """How far ``cost`` may exceed the minimum, at most."""
        self._settle()
        return self._gap

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
    d = _levenshtein(a, b)
    mx = max(len(a), len(b))
    return SUB_BASE + (SUB_SPAN * d + mx // 2) // mx


def _levenshtein(a: str, b: str) -> int:
    """Character (code point) edit distance of ``a`` and ``b``, unit costs.

    Plain Python, two rows: only this reference function and its doctests
    use it (the aligner computes distances in its compiled kernels), so
    hub4eval needs no edit-distance package at run time.

    >>> _levenshtein("heart", "part"), _levenshtein("", "abc"), _levenshtein("né", "ne")
    (2, 3, 1)
    """
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def _is_fragment(word: str) -> bool:
    return len(word) > 1 and word.endswith("-")


def _align_reference(ref: Sequence[str], hyp: Sequence[str]) -> Alignment:
    """Slow full-matrix DP in pure Python: the reference for tests.

    Uses ``substitution_cost`` (plain-Python edit distances) and the module's
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


def _column_cost(ref: Sequence[str], hyp: Sequence[str], alignment: Alignment) -> int:
    """Recompute an alignment's cost from its columns (used by tests)."""
    total = 0
    for i, j in zip(alignment.ref_index.tolist(), alignment.hyp_index.tolist(), strict=True):
        total += INDEL if i < 0 or j < 0 else substitution_cost(ref[i], hyp[j])
    return total
