"""§5: the procedure's greedy mapping, one function for every level.

Form all candidate (reference, hypothesis) pairs with their points; take the
best pair, drop every pair sharing an object with it; repeat. Since a pair's
points do not depend on the other choices at the same level, sorting the
candidates once and scanning gives exactly that result in O(P log P).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TypeVar

from hub4eval.scoring.metrics import Counts

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
        min_f: when set above 0, only pairs with F > min_f are mapped; None
            or 0 maps every pair, F = 0 included (§5).

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
    threshold = Fraction(str(min_f)) if min_f else None  # 0 is the procedure (§5)
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


def greedy_map_sparse(
    n_ref: int,
    n_hyp: int,
    promising: Iterable[tuple[int, int]],
    counts_of: Callable[[int, int], Counts],
    beta_squared: Fraction = Fraction(1),
    min_f: float | None = None,
) -> list[tuple[int, int]]:
    """The (reference, hypothesis) pairs :func:`greedy_map` chooses among all
    ``n_ref * n_hyp`` pairs, counting only the pairs that matter.

    ``promising`` must hold every pair with a COR point (it may hold more).
    A pair without COR has F = 0 and ranks after every pair with F > 0, so
    the promising pairs with F > 0 are chosen first, exactly as the full
    scan would; the F = 0 pairs are then ranked only among the objects still
    unmapped, since a pair with a mapped object would be skipped.
    ``counts_of(i, j)`` is called at most once per pair, and not at all for
    a single pair that is mapped whatever its counts.

    Returns:
        The chosen pairs, best first.

    >>> table = {(0, 0): Counts(cor=1), (1, 1): Counts(inc=1), (1, 0): Counts(mis=2)}
    >>> greedy_map_sparse(2, 2, [(0, 0)], lambda i, j: table.get((i, j), Counts(mis=3)))
    [(0, 0), (1, 1)]
    """
    if not min_f:
        min_f = None  # 0 is the procedure: every pair is mapped (§5)
    if n_ref == 1 and n_hyp == 1 and min_f is None:
        return [(0, 0)]
    counted = {(i, j): counts_of(i, j) for i, j in promising}
    positive = [(i, j, c) for (i, j), c in counted.items() if c.cor]
    chosen = [(i, j) for i, j, _ in greedy_map(positive, lambda c: c, beta_squared, min_f)]
    if min_f is not None and min_f > 0:
        return chosen  # pairs with F = 0 are never mapped
    used_ref = {i for i, _ in chosen}
    used_hyp = {j for _, j in chosen}
    free_hyp = [j for j in range(n_hyp) if j not in used_hyp]
    rest = [
        (i, j, counted[i, j] if (i, j) in counted else counts_of(i, j))
        for i in range(n_ref)
        if i not in used_ref
        for j in free_hyp
    ]
    return chosen + [(i, j) for i, j, _ in greedy_map(rest, lambda c: c, beta_squared, min_f)]
