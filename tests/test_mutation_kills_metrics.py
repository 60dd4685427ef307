"""Counts and metrics: tests that kill the mutants of hub4eval/scoring/metrics.py (issue #21).

Every expected value is derived in a comment or computed independently from
precision and recall (F = (b^2 + 1) P R / (b^2 P + R)), never copied from a run.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hub4eval.scoring.metrics import CATEGORIES, METRICS, Counts

# POS = 3 + 1 + 4 = 8, ACT = 3 + 1 + 2 = 6: recall and precision differ, so any
# beta other than 1 gives another F than the default must.
UNEVEN = Counts(cor=3, inc=1, mis=4, spu=2, opt=5, rem=7)


def _f(cor: int, pos: int, act: int, beta: float = 1.0) -> float:
    """F from precision and recall, not from the formula in counts."""
    p, r = cor / act, cor / pos
    return (beta * beta + 1) * p * r / (beta * beta * p + r)


def test_metric_names_are_the_keys_of_metrics_in_order():
    assert METRICS == ("REC", "PRE", "F", "UND", "OVG", "SUB", "ERR", "SER")
    assert tuple(UNEVEN.metrics()) == METRICS


def test_one_point_of_each_category():
    fields = ("cor", "inc", "mis", "spu", "opt", "rem")
    for category, field in zip(CATEGORIES, fields, strict=True):
        unit = Counts.of(category)
        assert [getattr(unit, f) for f in fields] == [int(f == field) for f in fields]
        assert Counts.tally([category, category]) == unit + unit


def test_adding_counts_adds_every_category_including_opt_and_rem():
    a = Counts(cor=1, inc=2, mis=3, spu=4, opt=5, rem=6)
    b = Counts(cor=10, inc=20, mis=30, spu=40, opt=50, rem=60)
    expected = Counts(cor=11, inc=22, mis=33, spu=44, opt=55, rem=66)
    assert a + b == expected
    assert b + a == expected
    assert sum([a, b]) == expected
    assert Counts.total([a, b]) == expected
    assert Counts.total([a, b, a]) == expected + a
    assert Counts.total([]) == Counts()


def test_default_beta_is_one_where_recall_and_precision_differ():
    # REC = 3/8, PRE = 3/6: F1 = 2 * 3 / (8 + 6) = 3/7
    assert _f(3, 8, 6) == pytest.approx(3 / 7)
    assert UNEVEN.metrics()["F"] == pytest.approx(3 / 7)
    assert UNEVEN.as_dict()["F"] == pytest.approx(3 / 7)
    assert UNEVEN.f_exact() == Fraction(3, 7)
    assert UNEVEN.f_key() == 3 / 7


def test_f_key_and_f_exact_agree_with_f_from_precision_and_recall():
    for beta_squared in (Fraction(1), Fraction(1, 4), Fraction(4), Fraction(9, 4)):
        beta = float(beta_squared) ** 0.5
        expected = _f(3, 8, 6, beta)
        assert UNEVEN.f_exact(beta_squared) == pytest.approx(expected)
        assert UNEVEN.f_key(beta_squared) == pytest.approx(expected)
        assert UNEVEN.metrics(beta)["F"] == pytest.approx(expected)
    # beta^2 = 4 weighs recall: 5 * 3 / (4 * 8 + 6) = 15/38
    assert UNEVEN.f_exact(Fraction(4)) == Fraction(15, 38)
    assert UNEVEN.f_key(Fraction(4)) == 15 / 38


def test_f_is_zero_without_a_correct_point_even_with_nothing_at_all():
    for counts in (Counts(), Counts(opt=2, rem=1), Counts(mis=1), Counts(inc=1, spu=1)):
        assert counts.f_key() == 0.0
        assert counts.f_exact() == 0
        assert counts.f_exact(Fraction(4)) == 0
    # one correct point out of one on each side is F = 1, not 0
    assert Counts(cor=1).f_key() == 1.0
    assert Counts(cor=1).f_exact() == 1


@given(
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 40),
    st.sampled_from([Fraction(1), Fraction(1, 4), Fraction(4), Fraction(9, 25)]),
)
def test_f_key_is_the_exact_f_rounded(cor, inc, mis, spu, beta_squared):
    counts = Counts(cor=cor, inc=inc, mis=mis, spu=spu)
    exact = counts.f_exact(beta_squared)
    assert counts.f_key(beta_squared) == float(exact)
    if cor:
        beta = float(beta_squared) ** 0.5
        assert float(exact) == pytest.approx(_f(cor, cor + inc + mis, cor + inc + spu, beta))


def test_every_metric_of_uneven_counts():
    d = UNEVEN.as_dict()
    # POS 8, ACT 6; OPT and REM are reported but enter no metric
    assert {k: d[k] for k in ("POS", "ACT", "COR", "INC", "MIS", "SPU", "OPT", "REM")} == {
        "POS": 8,
        "ACT": 6,
        "COR": 3,
        "INC": 1,
        "MIS": 4,
        "SPU": 2,
        "OPT": 5,
        "REM": 7,
    }
    assert d["REC"] == pytest.approx(3 / 8)
    assert d["PRE"] == pytest.approx(3 / 6)
    assert d["UND"] == pytest.approx(4 / 8)
    assert d["OVG"] == pytest.approx(2 / 6)
    assert d["SUB"] == pytest.approx(1 / 4)  # INC / (COR + INC)
    assert d["ERR"] == pytest.approx(7 / 10)  # (INC + MIS + SPU) / (COR + INC + MIS + SPU)
    assert UNEVEN.errors == 7


def test_f_without_a_beta_is_f1():
    """The default weight is beta = 1: F = 2 P R / (P + R)."""
    assert UNEVEN.f() == pytest.approx(_f(3, 8, 6))
    assert UNEVEN.f() == UNEVEN.f(1.0)


def test_f_with_a_single_correct_point_is_not_zero():
    """COR = 1 of POS = 2, ACT = 1: P = 1, R = 1/2, F = 2/3 (only COR = 0 gives 0)."""
    assert Counts(cor=1, mis=1).f() == pytest.approx(2 / 3)
    assert Counts(cor=1, mis=1).f(2.0) == pytest.approx(_f(1, 2, 1, 2.0))


@pytest.mark.parametrize("beta", [0.0, -1.0])
def test_f_refuses_a_beta_that_is_not_positive(beta):
    """beta = 0 would silently give precision; the weight must be positive."""
    with pytest.raises(ValueError, match="beta must be positive"):
        Counts(cor=1, mis=1).f(beta)
