"""The greedy over classes (``greedy_by_class``) chooses what the full greedy chooses.

With classes, the pairs left over once every pair with a COR is mapped are not
counted one by one: one pair without COR per two classes stands for all of
them. The full scan (:func:`greedy_map` over every pair) is the definition;
each test compares the fast path (the pairs with a COR by the full greedy, then
the classes for the rest, as :func:`hub4eval.scoring.pairs.map_groups` does) with it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.scoring.greedy import greedy_by_class, greedy_map
from hub4eval.scoring.metrics import Counts


def _full(table: dict[tuple[int, int], Counts], min_f: float | None = None) -> list[tuple[int, int]]:
    """What the procedure maps: the greedy over every pair."""
    return [(i, j) for i, j, _ in greedy_map([(i, j, c) for (i, j), c in table.items()], lambda c: c, min_f=min_f)]


def _by_class(n_ref, n_hyp, table, classes, asked=None) -> list[tuple[int, int]]:
    """The pairs with a COR by the full greedy, then :func:`greedy_by_class` over the objects left."""
    chosen = _full({pair: c for pair, c in table.items() if c.cor})

    def errors_without_cor(i: int, j: int) -> int | None:
        if asked is not None:
            asked.append((i, j))
        return None if table[i, j].cor else table[i, j].errors

    used_ref, used_hyp = {i for i, _ in chosen}, {j for _, j in chosen}
    return chosen + greedy_by_class(n_ref, n_hyp, used_ref, used_hyp, classes, errors_without_cor, None)


def test_leftover_pairs_of_equal_counts_are_taken_in_file_order() -> None:
    # Every pair has F = 0 and 2 errors: the tie order is then reference index, hypothesis
    # index, so reference 0 takes hypothesis 0 and reference 1 the first free one, 1.
    # (Class x holds hypotheses 0 and 2: taking "the next of class x" would give (1, 2).)
    classes = (["r", "r"], ["x", "y", "x"])
    table = {(i, j): Counts(mis=1, spu=1) for i in range(2) for j in range(3)}
    chosen = _by_class(2, 3, table, classes)
    assert chosen == [(0, 0), (1, 1)]
    assert chosen == _full(table)


def test_a_class_pair_holding_a_cor_pair_ranks_its_leftovers_by_their_own_counts() -> None:
    # Reference 0 and 1 are of class a, hypotheses 0 and 1 of class x, hypothesis 2 of class y.
    # (0, 0) has a COR and is mapped first. Left over: reference 1 against hypothesis 1
    # (class pair a-x, no COR, 3 errors) and hypothesis 2 (a-y, 1 error). The full scan takes
    # (1, 2): 1 error ranks before 3. Ranking a-x by its COR pair (0, 0), which has 0 errors,
    # would take (1, 1) instead.
    table = {
        (0, 0): Counts(cor=1),
        (0, 1): Counts(inc=1, mis=1, spu=1),
        (1, 0): Counts(inc=1, mis=1, spu=1),
        (1, 1): Counts(inc=1, mis=1, spu=1),
        (0, 2): Counts(mis=1),
        (1, 2): Counts(mis=1),
    }
    classes = (["a", "a"], ["x", "x", "y"])
    chosen = _by_class(2, 3, table, classes)
    assert chosen == _full(table) == [(0, 0), (1, 2)]


@st.composite
def _classed_tables(draw):
    """A table of counts where two pairs of the same two classes without COR have the same counts
    (what ``classes`` promises), with COR pairs anywhere."""
    n_ref, n_hyp = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    ref_class = draw(st.lists(st.sampled_from("abc"), min_size=n_ref, max_size=n_ref))
    hyp_class = draw(st.lists(st.sampled_from("xyz"), min_size=n_hyp, max_size=n_hyp))
    errors = st.builds(Counts, inc=st.integers(0, 2), mis=st.integers(0, 2), spu=st.integers(0, 2))
    by_class = {(a, b): draw(errors) for a in "abc" for b in "xyz"}
    with_cor = st.builds(Counts, cor=st.integers(1, 2), inc=st.integers(0, 2), mis=st.integers(0, 2))
    table = {}
    for i in range(n_ref):
        for j in range(n_hyp):
            cor = draw(st.booleans()) and draw(st.booleans())  # about one pair in four
            table[i, j] = draw(with_cor) if cor else by_class[ref_class[i], hyp_class[j]]
    return n_ref, n_hyp, (ref_class, hyp_class), table


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_classed_tables())
def test_the_greedy_over_classes_chooses_what_the_full_scan_chooses(case) -> None:
    n_ref, n_hyp, classes, table = case
    asked: list[tuple[int, int]] = []
    assert _by_class(n_ref, n_hyp, table, classes, asked) == _full(table)
    assert len(asked) == len(set(asked))  # each pair asked once at most
