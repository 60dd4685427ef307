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

from hub4eval.errors import InputError
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


class TooManyPairs(Exception):
    """More candidate pairs than a bound: counting them would exhaust memory."""

    def __init__(self, count: int, group: int = 0, *, at_least: bool = False) -> None:
        super().__init__(count)
        self.count = count
        self.group = group  # which of the groups mapped together (hub4eval.scoring.pairs.map_groups)
        self.at_least = at_least  # count is a lower bound of the pairs (counted before they are made)

    def moved(self, group: int) -> TooManyPairs:
        """The same refusal, for the group of that index in the caller's list."""
        return TooManyPairs(self.count, group, at_least=self.at_least)


class PairsRefused(InputError):
    """The user's error for :class:`TooManyPairs`: a document refused, naming it and the count.

    An error of its own so that a run in groups of documents
    (:mod:`hub4eval.parallel`) can tell a refusal, which depends only on its
    document, from the errors it must leave to the whole files.
    """


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
