from fractions import Fraction

import pytest

from hub4eval.scoring.metrics import Counts


def test_pos_act_and_f():
    c = Counts(cor=6, inc=2, mis=2, spu=4)
    d = c.as_dict()
    assert (d["POS"], d["ACT"]) == (10, 12)
    assert d["REC"] == pytest.approx(0.6)
    assert d["PRE"] == pytest.approx(0.5)
    assert d["F"] == pytest.approx(2 * 6 / (10 + 12))
    assert d["UND"] == pytest.approx(0.2)
    assert d["OVG"] == pytest.approx(4 / 12)
    assert d["SUB"] == pytest.approx(2 / 8)
    assert d["ERR"] == pytest.approx(8 / 14)


def test_beta_weights_recall():
    c = Counts(cor=6, inc=2, mis=2, spu=4)
    pre, rec = 0.5, 0.6
    for beta in (0.5, 2.0):
        expected = (beta**2 + 1) * pre * rec / (beta**2 * pre + rec)
        assert c.metrics(beta)["F"] == pytest.approx(expected)


def test_undefined_metrics_are_none():
    d = Counts().as_dict()
    assert all(d[m] is None for m in ("REC", "PRE", "F", "UND", "OVG", "SUB", "ERR", "SER"))
    only_missing = Counts(mis=3).as_dict()
    assert only_missing["PRE"] is None and only_missing["REC"] == 0.0
    assert only_missing["F"] == 0.0  # F defined whenever POS + ACT > 0


def test_unscored_categories_do_not_enter_pos_or_act():
    c = Counts(cor=1, opt=5, rem=3)
    assert (c.pos, c.act) == (1, 1)


def test_counts_add_and_sum():
    assert sum([Counts(cor=1), Counts(mis=2), Counts(spu=1)]) == Counts(cor=1, mis=2, spu=1)


def test_f_exact_ties_are_exact():
    assert Counts(cor=1, inc=1).f_exact() == Counts(cor=2, inc=2).f_exact() == Fraction(1, 2)
