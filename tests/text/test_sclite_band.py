"""The banded Python alignment of plain words (``plain_ops``) makes every choice the full matrix makes,
and ``PlainPath`` reads as the path of those choices."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.text.align.sclite_net import NetWord, PathEntry, PlainPath, plain_ops


def full_matrix_ops(a: list[str], b: list[str]) -> str:
    """sclite's rule on the whole matrix (substitution 4, insertion and deletion 3; the diagonal when no
    dearer than both, else a deletion when strictly cheaper than the insertion, else the insertion)."""
    n, m = len(a), len(b)
    cost = [[3 * j for j in range(m + 1)]] + [[3 * i] + [0] * m for i in range(1, n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost[i][j] = min(
                cost[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else 4), cost[i - 1][j] + 3, cost[i][j - 1] + 3
            )
    ops, i, j = [], n, m
    while i > 0 or j > 0:
        if i == 0 or j == 0:
            ops.append("D" if i else "I")
            i, j = (i - 1, j) if i else (i, j - 1)
            continue
        diagonal = cost[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else 4)
        deletion, insertion = cost[i - 1][j] + 3, cost[i][j - 1] + 3
        if diagonal <= deletion and diagonal <= insertion:
            ops.append("C" if a[i - 1] == b[j - 1] else "S")
            i, j = i - 1, j - 1
        elif deletion < insertion:
            ops.append("D")
            i -= 1
        else:
            ops.append("I")
            j -= 1
    return "".join(reversed(ops))


# two or three words: ties between equally cheap alignments everywhere
few_words = st.lists(st.sampled_from(["a", "b", "c"]), max_size=25)


@settings(max_examples=400, deadline=None)
@given(few_words, few_words)
def test_the_band_makes_the_full_matrix_choices(ref, hyp):
    assert plain_ops(ref, hyp) == full_matrix_ops(ref, hyp)


def test_a_bound_too_small_at_first_is_doubled():
    # 40 words against 40 others: cost 160, far above the first bound (3 * 0 + max(9, 80 // 3) = 26)
    ref = [f"r{k}" for k in range(40)]
    hyp = [f"h{k}" for k in range(40)]
    assert plain_ops(ref, hyp) == "S" * 40 == full_matrix_ops(ref, hyp)
    shifted = ["x", "y", *ref]  # two insertions at the front, off the band of a zero-cost guess
    assert plain_ops(ref, shifted) == full_matrix_ops(ref, shifted) == "II" + "C" * 40


def test_a_plain_path_reads_as_its_entries():
    path = PlainPath("CSDI", ["a", "b", "c"], ["a", "x", "y"])
    assert len(path) == 4
    assert list(path) == [
        PathEntry("C", NetWord("a"), NetWord("a")),
        PathEntry("S", NetWord("b"), NetWord("x")),
        PathEntry("D", NetWord("c"), None),
        PathEntry("I", None, NetWord("y")),
    ]
    assert path[1].op == "S" and path == tuple(path)
