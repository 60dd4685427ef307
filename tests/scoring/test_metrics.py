import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.scoring.metrics import CATEGORIES, METRICS, Counts
from tests.support import EXAMPLES


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


# ----------------------------------------------------------------------------
# Tests that kill mutants of hub4eval/scoring/metrics.py (mutation runs, tools/mutate.py; issue #21)
# Counts and metrics: tests that kill the mutants of hub4eval/scoring/metrics.py (issue #21).
#
# Every expected value is derived in a comment or computed independently from
# precision and recall (F = (b^2 + 1) P R / (b^2 P + R)), never copied from a run.
# ----------------------------------------------------------------------------

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


# ----------------------------------------------------------------------------
# Rules the scoring specification v1.1 pinned down (issue #15): exact F for every finite beta
# ----------------------------------------------------------------------------

runner = CliRunner()


# Exact F for every finite beta > 0 -------------------------------------------


CLEAN = EXAMPLES / "clean"


def _reject_constant(name: str):
    raise AssertionError(f"invalid JSON constant {name}")


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 50),
    st.sampled_from([1e-300, 1e-200, 1e-20, 0.3, 1.0, 2.0, 1e20, 1e200, 1e300, 1.7976931348623157e308]),
)
def test_f_is_the_exact_formula_for_any_finite_beta(cor, inc, mis, spu, beta):
    counts = Counts(cor=cor, inc=inc, mis=mis, spu=spu)
    f = counts.metrics(beta)["F"]
    if counts.pos + counts.act == 0:
        assert f is None  # undefined only when POS = ACT = 0
        return
    b2 = Fraction(str(beta)) ** 2  # the formula in exact rational arithmetic, rounded once
    assert f == float((1 + b2) * cor / (b2 * counts.pos + counts.act))
    assert 0.0 <= f <= 1.0


def test_f_limits_of_huge_and_tiny_beta():
    # COR 1, INC 1, MIS 1: POS 3, ACT 2. b -> infinity: F -> COR/POS = 1/3 (recall);
    # b -> 0: F -> COR/ACT = 1/2 (precision). The naive float formula gives NaN and None here.
    counts = Counts(cor=1, inc=1, mis=1)
    assert counts.metrics(1e200)["F"] == 1 / 3
    assert counts.metrics(1e-300)["F"] == 1 / 2
    assert Counts(mis=1).metrics(1e-300)["F"] == 0.0  # POS > 0, nothing correct: 0, not undefined


def test_huge_and_tiny_beta_in_json_tables_and_html(tmp_path):
    ref, hyp = str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl")
    base = json.loads(runner.invoke(app, ["score", ref, hyp, "--json", "-"]).stdout)["summary"]
    # clean example: COR 13, POS 31, ACT 20 (F = 26/51 with beta 1)
    expected = {"1e200": base["REC"], "1e-300": base["PRE"]}  # 13/31 and 13/20, the limits
    for beta, f in expected.items():
        html = tmp_path / f"r{beta}.html"
        result = runner.invoke(app, ["score", ref, hyp, "--beta", beta, "--json", "-", "--html", str(html)])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout, parse_constant=_reject_constant)
        assert data["summary"]["F"] == f
        assert "NaN" not in html.read_text(encoding="utf-8")
        table = runner.invoke(app, ["score", ref, hyp, "--beta", beta])
        assert table.exit_code == 0, table.output
        # F(beta=...) = ...  SER = (INC 2 + MIS 16 + SPU 5) / POS 31 = 74.2, whatever beta
        assert f") = {100 * f:.1f}  SER = 74.2  REC" in table.stdout


def test_beta_must_be_finite_and_positive(tmp_path):
    ref, hyp = str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl")
    # the value as read back: 1e400 overflows to inf
    for beta, shown in (("0", "0.0"), ("-1", "-1.0"), ("inf", "inf"), ("nan", "nan"), ("1e400", "inf")):
        result = runner.invoke(app, ["score", ref, hyp, "--beta", beta])
        assert result.exit_code == 2, (beta, result.output)
        assert (result.stdout, result.stderr) == (
            "",
            f"--beta must be positive and finite, got {shown} (hint: e.g. --beta 1)\n",
        )


def test_bootstrap_f_has_no_nan_for_huge_or_tiny_beta():
    import numpy as np

    from hub4eval.report.confidence import _metrics

    # rows: COR INC MIS SPU. Row 1: POS 3 ACT 2; row 2: nothing correct; row 3: nothing at all.
    sums = np.array([[1, 1, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]], dtype=np.float64)
    for beta, first in ((1e200, 1 / 3), (1e-300, 1 / 2)):  # the recall and precision limits
        f = _metrics(sums, beta)["F"]
        assert f[0] == first and f[1] == 0.0 and np.isnan(f[2])


def test_counts_add_only_to_counts_and_to_the_zero_sum_starts_from():
    # __radd__ exists for sum(), which starts from 0; any other number is a mistake
    assert 0 + Counts(cor=1) == Counts(cor=1)
    assert sum([Counts(cor=1), Counts(inc=2)]) == Counts(cor=1, inc=2)
    with pytest.raises(TypeError):
        1 + Counts(cor=1)  # noqa: B018
