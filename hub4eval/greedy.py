"""§5: the procedure's greedy mapping, one function for every level.

Form all candidate (reference, hypothesis) pairs with their points; take the
best pair, drop every pair sharing an object with it; repeat. Since a pair's
points do not depend on the other choices at the same level, sorting the
candidates once and scanning gives exactly that result in O(P log P).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TypeVar

from .metrics import Counts

T = TypeVar("T")


def tie_key(counts: Counts, ref_index: int, hyp_index: int, beta_squared: Fraction) -> tuple:
    """Sort key of a pair: higher F, higher COR, fewer INC+MIS+SPU, earlier ref, earlier hyp."""
    return (-counts.f_key(beta_squared), -counts.cor, counts.errors, ref_index, hyp_index)


def greedy_map(
    candidates: Iterable[tuple[int, int, T]],
    counts_of: callable,
    beta_squared: Fraction = Fraction(1),
    min_f: float | None = None,
) -> list[tuple[int, int, T]]:
    """Choose pairs greedily.

    Args:
        candidates: (reference index, hypothesis index, payload) triples; the
            indices give the file order used to break ties.
        counts_of: payload -> :class:`Counts` of the pair.
        beta_squared: beta**2 of F.
        min_f: when set, only pairs with F > min_f are mapped.

    Returns:
        The chosen triples, best first.

    >>> pairs = [(0, 0, Counts(cor=1, inc=1)), (0, 1, Counts(cor=2)), (1, 1, Counts(cor=2))]
    >>> [(r, h) for r, h, _ in greedy_map(pairs, lambda c: c)]
    [(0, 1)]
    """
    ranked = sorted(
        candidates, key=lambda item: tie_key(counts_of(item[2]), item[0], item[1], beta_squared)
    )
    used_ref: set[int] = set()
    used_hyp: set[int] = set()
    chosen = []
    threshold = None if min_f is None else Fraction(str(min_f))
    if len(ranked) == 1 and threshold is None:
        return list(ranked)
    for ref_index, hyp_index, payload in ranked:
        if ref_index in used_ref or hyp_index in used_hyp:
            continue
        if threshold is not None and counts_of(payload).f_exact(beta_squared) <= threshold:
            continue
        used_ref.add(ref_index)
        used_hyp.add(hyp_index)
        chosen.append((ref_index, hyp_index, payload))
    return chosen
