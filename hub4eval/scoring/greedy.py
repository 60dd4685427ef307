"""§5: the procedure's greedy mapping, one function for every level.

Form all candidate (reference, hypothesis) pairs with their points; take the
best pair, drop every pair sharing an object with it; repeat. Since a pair's
points do not depend on the other choices at the same level, sorting the
candidates once and scanning gives exactly that result in O(P log P).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import TypeVar

from hub4eval.scoring.metrics import Counts

T = TypeVar("T")


def tie_key(counts: Counts, ref_index: int, hyp_index: int, beta_squared: Fraction) -> tuple:
    """Sort key of a pair: higher F, higher COR, fewer INC+MIS+SPU, earlier ref, earlier hyp."""
    return (-counts.f_key(beta_squared), -counts.cor, counts.errors, ref_index, hyp_index)


def greedy_map(
    candidates: Iterable[tuple[int, int, T]],
    counts_of: Callable[[T], Counts],
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
    ranked = sorted(candidates, key=lambda item: tie_key(counts_of(item[2]), item[0], item[1], beta_squared))
    used_ref: set[int] = set()
    used_hyp: set[int] = set()
    chosen: list[tuple[int, int, T]] = []
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
    classes: tuple[Sequence[Hashable], Sequence[Hashable]] | None = None,
    max_pairs: int | None = None,
) -> list[tuple[int, int]]:
    """The (reference, hypothesis) pairs :func:`greedy_map` chooses among all
    ``n_ref * n_hyp`` pairs, counting only the pairs that matter.

    With ``classes`` (a class per reference and per hypothesis object such
    that two pairs of the same two classes without COR have the same counts),
    the F = 0 pairs are not counted one by one either: one pair per two
    classes is, so the leftovers cost about their number times the number of
    classes, not their square. ``max_pairs`` then bounds the class pairs
    (:class:`TooManyPairs`).

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
    if classes is not None:
        return chosen + _greedy_by_class(n_ref, n_hyp, used_ref, used_hyp, classes, counted, counts_of, max_pairs)
    free_hyp = [j for j in range(n_hyp) if j not in used_hyp]
    rest = [
        (i, j, counted[i, j] if (i, j) in counted else counts_of(i, j))
        for i in range(n_ref)
        if i not in used_ref
        for j in free_hyp
    ]
    return chosen + [(i, j) for i, j, _ in greedy_map(rest, lambda c: c, beta_squared, min_f)]


class TooManyPairs(Exception):
    """More candidate pairs than a bound: counting them would exhaust memory."""

    def __init__(self, count: int, group: int = 0) -> None:
        super().__init__(count)
        self.count = count
        self.group = group  # which of the groups mapped together (hub4eval.scoring.pairs.map_groups)


def _greedy_by_class(
    n_ref: int,
    n_hyp: int,
    used_ref: set[int],
    used_hyp: set[int],
    classes: tuple[Sequence[Hashable], Sequence[Hashable]],
    counted: dict[tuple[int, int], Counts],
    counts_of: Callable[[int, int], Counts],
    max_pairs: int | None,
) -> list[tuple[int, int]]:
    """:func:`greedy_by_class` with the counts of the pairs counted so far (a pair
    not counted has no COR: every pair with a COR was counted)."""

    def errors_without_cor(i: int, j: int) -> int | None:
        counts = counted.get((i, j))
        if counts is None:
            counts = counts_of(i, j)
        return None if counts.cor else counts.errors

    return greedy_by_class(n_ref, n_hyp, used_ref, used_hyp, classes, errors_without_cor, max_pairs)


def greedy_by_class(
    n_ref: int,
    n_hyp: int,
    used_ref: set[int],
    used_hyp: set[int],
    classes: tuple[Sequence[Hashable], Sequence[Hashable]],
    errors_without_cor: Callable[[int, int], int | None],
    max_pairs: int | None,
) -> list[tuple[int, int]]:
    """:func:`greedy_map` over the pairs of the unmapped objects, none of which has a COR.

    Every such pair has F = 0 and no COR, so the tie order ranks them by
    INC+MIS+SPU, then reference index, then hypothesis index, and a pair's
    INC+MIS+SPU depends only on the classes of its two objects. The counts of
    one pair without COR per two classes give every pair's rank
    (``errors_without_cor(i, j)``: its INC+MIS+SPU, None when it has a COR);
    for each value of INC+MIS+SPU in increasing order, each free reference
    object in file order takes the first free hypothesis object of a class at
    that value, which is what the sorted scan of all pairs takes.
    """
    free_refs = [i for i in range(n_ref) if i not in used_ref]
    free_hyps = [j for j in range(n_hyp) if j not in used_hyp]
    if not free_refs or not free_hyps:
        return []  # before any class is asked for: they may be computed on demand
    ref_class, hyp_class = classes
    free_hyp_by_class: dict[Hashable, list[int]] = {}
    for j in free_hyps:
        free_hyp_by_class.setdefault(hyp_class[j], []).append(j)
    ref_members: dict[Hashable, list[int]] = {}
    for i in range(n_ref):
        ref_members.setdefault(ref_class[i], []).append(i)
    hyp_members: dict[Hashable, list[int]] = {}
    for j in range(n_hyp):
        hyp_members.setdefault(hyp_class[j], []).append(j)
    ref_classes = list(dict.fromkeys(ref_class[i] for i in free_refs))
    hyp_classes = list(free_hyp_by_class)
    if max_pairs is not None and len(ref_classes) * len(hyp_classes) > max_pairs:
        raise TooManyPairs(len(ref_classes) * len(hyp_classes))

    def class_errors(a: Hashable, b: Hashable) -> int | None:
        # any pair of the two classes without COR
        for i in ref_members[a]:
            for j in hyp_members[b]:
                errors = errors_without_cor(i, j)
                if errors is not None:
                    return errors
        return None  # every pair of the two classes has a COR: none is left over

    levels: dict[Hashable, dict[int, list[Hashable]]] = {}  # ref class -> errors -> hyp classes
    values: set[int] = set()
    for a in ref_classes:
        by_value = levels[a] = {}
        for b in hyp_classes:
            errors = class_errors(a, b)
            if errors is not None:
                by_value.setdefault(errors, []).append(b)
                values.add(errors)
    next_free = dict.fromkeys(hyp_classes, 0)  # index of the first hypothesis not yet taken
    taken: set[int] = set()
    chosen: list[tuple[int, int]] = []
    for value in sorted(values):
        for i in free_refs:
            if i in used_ref:
                continue
            best = None
            for b in levels[ref_class[i]].get(value, ()):
                members, k = free_hyp_by_class[b], next_free[b]
                while k < len(members) and members[k] in taken:
                    k += 1
                next_free[b] = k
                if k < len(members) and (best is None or members[k] < best):
                    best = members[k]
            if best is not None:
                used_ref.add(i)
                taken.add(best)
                chosen.append((i, best))
    return chosen
