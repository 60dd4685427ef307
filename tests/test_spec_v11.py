"""The rules that scoring specification v1.1 pinned down (issue #15).

One test (or a few) per rule; each fails when its rule is broken. Expected
values are derived by hand in the comments.
"""

from __future__ import annotations

import json

from scoring_helpers import cats, run
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.config import ScoreConfig

runner = CliRunner()


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --min-map-f: 0 is the procedure, the threshold is on instance pairs only ------

ZERO_REF = "<E-D-1> :=\n  A: \"x\"\n"
ZERO_HYP = "<E-D-1> :=\n  A: \"y\"\n"


def test_min_map_f_zero_given_explicitly_maps_zero_f_pairs():
    # The only pair has F = 0 (one INC). The procedure maps it: one INC, not MIS + SPU.
    assert cats(run(ZERO_REF, ZERO_HYP)) == ["INC"]
    assert cats(run(ZERO_REF, ZERO_HYP, min_map_f=0.0)) == ["INC"]
    assert cats(run(ZERO_REF, ZERO_HYP, min_map_f=0)) == ["INC"]
    assert ScoreConfig(min_map_f=0.0).signature(version="x") == ScoreConfig().signature(version="x")


def test_min_map_f_zero_on_the_command_line_equals_the_default(tmp_path):
    ref, hyp = _write(tmp_path, "r.tpl", ZERO_REF), _write(tmp_path, "h.tpl", ZERO_HYP)
    default = runner.invoke(app, ["score", ref, hyp, "--json", "-"])
    zero = runner.invoke(app, ["score", ref, hyp, "--min-map-f", "0", "--json", "-"])
    assert default.exit_code == zero.exit_code == 0, zero.output
    assert json.loads(zero.stdout) == json.loads(default.stdout)
    assert json.loads(zero.stdout)["summary"]["INC"] == 1


def test_min_map_f_above_zero_leaves_weak_instance_pairs_unmapped():
    # F = 0 is not > 0.5: the instances stay unmapped, MIS for the reference, SPU for the hypothesis.
    assert sorted(cats(run(ZERO_REF, ZERO_HYP, min_map_f=0.5))) == ["MIS", "SPU"]


def test_min_map_f_applies_to_instance_pairs_only():
    # Instance pair: A COR, B INC, C INC -> COR 1, POS = ACT = 3, F = 2*1/(3+3) = 1/3 > 0.3: mapped.
    # Inside it the fill pair of B and the alternative pair of C have F = 0; the
    # threshold does not apply to them, so they are still paired (INC, not MIS + SPU).
    ref = '<E-D-1> :=\n  A: "x"\n  B: "p"\n  C: "p"\n   / "r"\n'
    hyp = '<E-D-1> :=\n  A: "x"\n  B: "q"\n  C: "q"\n'
    assert cats(run(ref, hyp, min_map_f=0.3)) == ["COR", "INC", "INC"]
    # and above the pair's F (1/3 is not > 0.34) the instances are not mapped at all
    assert sorted(cats(run(ref, hyp, min_map_f=0.34))) == ["MIS"] * 3 + ["SPU"] * 3


# Exact F for every finite beta > 0 -------------------------------------------

from fractions import Fraction  # noqa: E402

from conftest import EXAMPLES  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hub4eval.scoring.metrics import Counts  # noqa: E402

CLEAN = EXAMPLES / "clean"


def _reject_constant(name: str):
    raise AssertionError(f"invalid JSON constant {name}")


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50),
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
        assert f") = {100 * f:.1f}  REC" in table.stdout  # F(beta=...) = ...


def test_beta_must_be_finite_and_positive(tmp_path):
    ref, hyp = str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl")
    for beta in ("0", "-1", "inf", "nan", "1e400"):
        result = runner.invoke(app, ["score", ref, hyp, "--beta", beta])
        assert result.exit_code == 2, (beta, result.output)
        assert "--beta must be positive and finite" in result.output


def test_bootstrap_f_has_no_nan_for_huge_or_tiny_beta():
    import numpy as np

    from hub4eval.report.confidence import _metrics

    # rows: COR INC MIS SPU. Row 1: POS 3 ACT 2; row 2: nothing correct; row 3: nothing at all.
    sums = np.array([[1, 1, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]], dtype=np.float64)
    for beta, first in ((1e200, 1 / 3), (1e-300, 1 / 2)):  # the recall and precision limits
        f = _metrics(sums, beta)["F"]
        assert f[0] == first and f[1] == 0.0 and np.isnan(f[2])


# A pointer stays inside its instance set -------------------------------------

import pytest  # noqa: E402

from hub4eval.errors import InputError  # noqa: E402
from hub4eval.io.templettes import parse_templates  # noqa: E402


@pytest.mark.parametrize("role", ["reference", "hypothesis"])
def test_pointer_into_another_instance_set_is_an_input_error_at_the_pointer(role):
    text = "<T-D1-1> :=\n  A: x\n  EV: <E-D1-1>\n      <E-D2-1>\n<E-D1-1> :=\n  Y: a\n<E-D2-1> :=\n  Y: a\n"
    with pytest.raises(InputError) as caught:
        parse_templates(text, "t.tpl", role=role)
    error = caught.value
    # the second fill of EV, line 4, column 7 (after six blanks), names document D2 from D1
    assert (error.path, error.line, error.column) == ("t.tpl", 4, 7)
    assert "<E-D2-1>" in str(error) and "D1" in str(error)


def test_pointer_inside_its_instance_set_is_accepted():
    text = "<T-D1-1> :=\n  EV: <E-D1-1>\n<E-D1-1> :=\n  Y: a\n<E-D2-1> :=\n  Y: a\n"
    tset = parse_templates(text, "t.tpl", role="reference")
    assert [iset.docid for iset in tset.instance_sets] == ["D1", "D2"]


# Filler, fragment and parenthesized status from the raw token; the empty run ---

from hub4eval.text.tokens import tokenize  # noqa: E402


def test_percent_hesitation_is_a_filler_in_the_reference():
    # `%hesitation` is a filler (read before the whiteout turns it into `hesitation`), so it is
    # optional: the minimal string `%hesitation brazil` less it is `brazil`, inside the hypothesis.
    ref = '<E-D-1> :=\n  A: "%hesitation Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["COR"]


def test_percent_hesitation_is_dropped_from_the_hypothesis():
    ref = '<E-D-1> :=\n  A: "Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "%hesitation brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["COR"]


def test_a_word_spelled_like_a_filler_after_whiteout_is_not_one():
    # `hesitation` (no %) is a word: not optional, so the hypothesis `brazil` misses it.
    ref = '<E-D-1> :=\n  A: "hesitation Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["INC"]


def test_raw_token_status_examples():
    tokens = tokenize('uh, "(so)" (uh). buni-, -- glen')
    # (text, raw form less outer punctuation, parenthesized, fragment); `--` gives no token
    assert [(t.text, t.raw_form, t.parenthesized, t.fragment) for t in tokens] == [
        ("uh", "uh", False, False),  # `uh,`: the comma is outer punctuation, so a filler
        ("so", "(so)", True, False),  # leading `"` stripped, `(` kept: parenthesized
        ("uh", "(uh)", True, False),  # `(uh).`: trailing `.` stripped, `)` kept
        ("buni-", "buni-", False, True),  # `buni-,`: trailing `,` stripped, `-` kept: a fragment
        ("glen", "glen", False, False),
    ]


def test_hypothesis_of_fillers_only_is_correct_against_an_optional_minimal_string():
    # The empty run: hyp `um` keeps no word; the minimal string `uh` (a filler) less its
    # optional tokens is empty, a run of the empty hypothesis: COR.
    ref = '<E-D-1> :=\n  A: "Glen [uh] Bunting"\n'
    assert cats(run(ref, '<E-D-1> :=\n  A: "um"\n', content="noisy")) == ["COR"]
    # against a minimal string with a word in it the same hypothesis is wrong
    ref_word = '<E-D-1> :=\n  A: "Glen [Bunting]"\n'
    assert cats(run(ref_word, '<E-D-1> :=\n  A: "um"\n', content="noisy")) == ["INC"]


def test_empty_run_counts_when_many_instances_are_mapped():
    # 5 x 5 instances of one type: only pairs sharing a key are counted before the F = 0 pairs.
    # R3 (minimal string `uh`) with H1 (`uh` only) is the one COR pair, F = 1: it must be chosen
    # first, so H1 maps to R3 and there is exactly one COR.
    refs = "".join(
        f'<E-D-{i}> :=\n  A: "{"Glen [uh] Bunting" if i == 3 else f"x{i}"}"\n' for i in range(1, 6)
    )
    hyps = "".join(f'<E-D-{i}> :=\n  A: "{"uh" if i == 1 else f"y{i}"}"\n' for i in range(1, 6))
    result = run(refs, hyps, content="noisy")
    assert ("<E-D-3>", "<E-D-1>") in [(r, h) for r, h, _ in result.instance_pairs()]
    assert cats(result).count("COR") == 1
