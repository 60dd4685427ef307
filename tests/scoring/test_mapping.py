"""Greedy mapping (hub4eval/scoring/greedy.py, mapping.py): tests that kill their mutants (issue #21).

The mapping ranks candidate pairs by higher F, then higher COR, then fewer
INC + MIS + SPU, then file order. The earlier tests never had two pairs where
higher F and higher COR disagree, so "highest F first" could be dropped
unnoticed: every case below is built so that each key of the order decides.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from hub4eval.api import score, score_files
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError
from hub4eval.io.templettes import parse_templates
from hub4eval.model import Extent
from hub4eval.scoring import mapping
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.greedy import TooManyPairs, greedy_by_class, greedy_map, tie_key
from hub4eval.scoring.mapping import Mapper, _overlapping
from hub4eval.scoring.metrics import Counts
from hub4eval.util.records import replace
from tests.support import EXAMPLES, ROOT
from tests.support.mapping_oracle import use_brute_force
from tests.support.scoring import cats, counts, run

# F = 2 COR / (POS + ACT) with beta = 1:
HIGH_F = Counts(cor=1)  # POS 1, ACT 1: F = 1, one COR
MORE_COR = Counts(cor=2, inc=3)  # POS 5, ACT 5: F = 4/10, two COR


def _pairs(chosen):
    return [(r, h) for r, h, _ in chosen]


def test_higher_f_beats_more_cor():
    # both pairs want hypothesis 0; the one with higher F wins, wherever it is listed
    assert _pairs(greedy_map([(0, 0, MORE_COR), (1, 0, HIGH_F)], lambda c: c)) == [(1, 0)]
    assert _pairs(greedy_map([(0, 0, HIGH_F), (1, 0, MORE_COR)], lambda c: c)) == [(0, 0)]
    assert tie_key(HIGH_F, 1, 0, Fraction(1)) < tie_key(MORE_COR, 0, 0, Fraction(1))


def test_beta_decides_which_pair_has_the_higher_f():
    # COR 2, MIS 3: REC 2/5, PRE 1.  COR 1, SPU 1: REC 1, PRE 1/2.
    recall_poor = Counts(cor=2, mis=3)
    precision_poor = Counts(cor=1, spu=1)
    # beta^2 = 1: F = 4/7 against 2/3: the second wins
    candidates = [(0, 0, recall_poor), (1, 0, precision_poor)]
    assert _pairs(greedy_map(candidates, lambda c: c)) == [(1, 0)]
    # beta^2 = 1/4 (precision weighs more): 5/4*2 / (1/4*5 + 2) = 10/13 against 5/4 / (1/4 + 2) = 5/9
    assert _pairs(greedy_map(candidates, lambda c: c, Fraction(1, 4))) == [(0, 0)]


def test_equal_f_then_more_cor_then_fewer_errors_then_file_order():
    # F = 1 both; two COR beat one
    assert _pairs(greedy_map([(0, 0, Counts(cor=1)), (1, 0, Counts(cor=2))], lambda c: c)) == [(1, 0)]
    # F = 4/8 both, COR 2 both; errors 2 (INC 2) beat errors 4 (MIS 2 + SPU 2)
    fewer = Counts(cor=2, inc=2)
    more = Counts(cor=2, mis=2, spu=2)
    assert fewer.f_exact() == more.f_exact() == Fraction(1, 2)
    assert _pairs(greedy_map([(0, 0, more), (1, 0, fewer)], lambda c: c)) == [(1, 0)]
    # all equal: the earlier reference, then the earlier hypothesis
    assert _pairs(greedy_map([(1, 0, fewer), (0, 0, fewer)], lambda c: c)) == [(0, 0)]
    assert _pairs(greedy_map([(0, 1, fewer), (0, 0, fewer)], lambda c: c)) == [(0, 0)]


def test_each_object_is_mapped_once():
    a, b = Counts(cor=3), Counts(cor=2)
    # (0,0) is best; (0,1) and (1,0) share an object with it; (1,1) is left
    chosen = greedy_map([(0, 0, a), (0, 1, a), (1, 0, a), (1, 1, b)], lambda c: c)
    assert _pairs(chosen) == [(0, 0), (1, 1)]


def test_min_f_maps_only_pairs_strictly_above_it():
    half = Counts(cor=1, inc=1)  # F = 1/2
    assert _pairs(greedy_map([(0, 0, half)], lambda c: c, min_f=0.5)) == []
    assert _pairs(greedy_map([(0, 0, half)], lambda c: c, min_f=0.4)) == [(0, 0)]
    # 0 is the procedure: every pair is mapped, F = 0 pairs too (also when given explicitly)
    assert _pairs(greedy_map([(0, 0, Counts(mis=1))], lambda c: c, min_f=0.0)) == [(0, 0)]
    # without a threshold a lone pair is mapped whatever its counts
    assert _pairs(greedy_map([(0, 0, Counts(mis=1))], lambda c: c)) == [(0, 0)]
    assert _pairs(greedy_map([(0, 0, Counts(mis=1)), (1, 1, Counts(spu=1))], lambda c: c)) == [(0, 0), (1, 1)]


# -- through scoring: the same choices made by the instance mapping ---------------

HYP = '<EV-D-1> :=\n    A: "x"\n    B: "y"\n    C: "c"\n'
# against HYP: COR 1 (A), SPU 2 (B, C): POS 1, ACT 3, F = 2/4
FEW_COR = '<EV-D-1> :=\n    A: "x"\n'
# against HYP: COR 2 (A, B), INC 1 (C), MIS 3 (D, E, G): POS 6, ACT 3, F = 4/9
MANY_COR = '<EV-D-2> :=\n    A: "x"\n    B: "y"\n    C: "p"\n    D: "p"\n    E: "p"\n    G: "p"\n'


def test_instance_mapping_prefers_higher_f_to_more_cor():
    for ref in (FEW_COR + MANY_COR, MANY_COR + FEW_COR):
        result = run(ref, HYP)
        mapped = {(r, h) for r, h, _ in result.instance_pairs() if r and h}
        assert mapped == {("<EV-D-1>", "<EV-D-1>")}
        # mapped pair: COR 1, SPU 2; <EV-D-2> unmapped: 6 MIS
        assert counts(result) == {"COR": 1, "INC": 0, "MIS": 6, "SPU": 2, "OPT": 0, "REM": 0}


def test_instance_mapping_uses_the_beta_of_the_options():
    # beta = 0.5 (b^2 = 1/4): F = 5/4 COR / (1/4 POS + ACT):
    # FEW_COR 5/4 / (1/4 + 3) = 5/13 = 0.385; MANY_COR 10/4 / (6/4 + 3) = 5/9 = 0.556
    result = run(FEW_COR + MANY_COR, HYP, beta=0.5)
    assert {(r, h) for r, h, _ in result.instance_pairs() if r and h} == {("<EV-D-2>", "<EV-D-1>")}
    # mapped pair: COR 2, INC 1, MIS 3; <EV-D-1> unmapped: 1 MIS
    assert counts(result) == {"COR": 2, "INC": 1, "MIS": 4, "SPU": 0, "OPT": 0, "REM": 0}


def test_slot_alternative_with_the_higher_f_is_chosen():
    # reference alternatives for the slot: ("x" "q" "r") or ("x"); hypothesis ("x" "y")
    # first: COR 1, MIS 2, SPU 1: F = 2/(3+2) = 2/5; second: COR 1, SPU 1: F = 2/(1+2) = 2/3
    ref = '<EV-D-1> :=\n    A: "x"\n       "q"\n       "r"\n     / "x"\n'
    hyp = '<EV-D-1> :=\n    A: "x"\n       "y"\n'
    result = run(ref, hyp)
    assert counts(result) == {"COR": 1, "INC": 0, "MIS": 0, "SPU": 1, "OPT": 0, "REM": 0}
    assert cats(result) == ["COR", "SPU"]


def test_an_instance_pointing_to_two_types_is_mapped_after_both():
    # the template is first in the file and points to two types: both must be mapped
    # before its pointers are compared, or the second pointer would find no mapping (INC)
    text = '<T-D-1> :=\n    EVENT: <EV-D-1>\n    WHO: <P-D-1>\n<EV-D-1> :=\n    W: "a"\n<P-D-1> :=\n    N: "b"\n'
    result = run(text, text)
    assert sorted((p.slot, p.kind, p.category) for p in result.points) == [
        ("EVENT", "pointer", "COR"),
        ("N", "content", "COR"),
        ("W", "content", "COR"),
        ("WHO", "pointer", "COR"),
    ]


@pytest.mark.parametrize(
    ("ref", "where", "cycle"),
    [
        # T is outside the cycle: the message names only the types in it
        (
            "<T-D-1> :=\n  E: <A-D-1>\n<A-D-1> :=\n  X: <B-D-1>\n<B-D-1> :=\n  Y: <A-D-1>\n",
            "ref.tpl:6:6",
            "A -> B -> A",
        ),
        # a type pointing to itself
        ('<A-D-1> :=\n  X: <A-D-2>\n<A-D-2> :=\n  Y: "a"\n', "ref.tpl:2:6", "A -> A"),
    ],
)
def test_a_cycle_of_pointer_types_is_one_error_at_the_pointer_that_closes_it(ref, where, cycle):
    with pytest.raises(InputError) as caught:
        run(ref, "")
    assert str(caught.value) == (
        f"{where}: instance types point to each other in a cycle ({cycle}); pointer points cannot be decided "
        "(hint: a type may only point to types that do not point back to it)"
    )


def test_an_empty_slot_has_no_fill_to_pair():
    # B is empty on one side: the fill on the other side is left over (SPU or MIS)
    full = '<E-D-1> :=\n    A: "x"\n    B: "y"\n'
    empty = '<E-D-1> :=\n    A: "x"\n    B:\n'
    assert [(p.slot, p.category) for p in run(empty, full).points] == [("A", "COR"), ("B", "SPU")]
    assert [(p.slot, p.category) for p in run(full, empty).points] == [("A", "COR"), ("B", "MIS")]
    assert [(p.slot, p.category) for p in run(empty, empty).points] == [("A", "COR")]


def test_a_mapper_compares_clean_text_unless_told_noisy():
    config = ScoreConfig()
    ref_prep, hyp_prep = FillPreparer(config), FillPreparer(config, reference=False)
    assert Mapper(config, ref_prep, hyp_prep).how.noisy is False
    assert Mapper(config, ref_prep, hyp_prep, noisy=True).how.noisy is True


def test_a_text_fill_and_a_pointer_are_never_compared():
    # slot A holds a text fill on one side and a pointer on the other: both are left over
    ref = '<T-D-1> :=\n    A: "x"\n<EV-D-1> :=\n    W: "w"\n'
    hyp = '<T-D-1> :=\n    A: <EV-D-1>\n<EV-D-1> :=\n    W: "w"\n'
    points = sorted((p.slot, p.kind, p.category) for p in run(ref, hyp).points)
    assert points == [("A", "content", "MIS"), ("A", "pointer", "SPU"), ("W", "content", "COR")]
    # two fills each, a text fill and a pointer: each pairs with its own kind
    ref2 = '<T-D-1> :=\n    A: "x"\n       <EV-D-1>\n<EV-D-1> :=\n    W: "w"\n'
    hyp2 = '<T-D-1> :=\n    A: <EV-D-1>\n       "x"\n<EV-D-1> :=\n    W: "w"\n'
    points = sorted((p.slot, p.kind, p.category) for p in run(ref2, hyp2).points)
    assert points == [("A", "content", "COR"), ("A", "pointer", "COR"), ("W", "content", "COR")]


def test_points_of_a_slot_follow_the_reference_fills_then_the_hypothesis_fills():
    # the greedy pairs x-x and y-y (hypothesis fills 1 and 0); the points come in
    # reference order (x, y), then the hypothesis fill left over (z)
    ref = '<E-D-1> :=\n    A: "x"\n       "y"\n'
    hyp = '<E-D-1> :=\n    A: "z"\n       "y"\n       "x"\n'
    points = run(ref, hyp).points
    assert [(p.ref.fill if p.ref else None, p.hyp.fill if p.hyp else None, p.category) for p in points] == [
        ('"x"', '"x"', "COR"),
        ('"y"', '"y"', "COR"),
        (None, '"z"', "SPU"),
    ]


def test_slot_matches_record_the_chosen_reference_alternative():
    # one fill a side: alternative 0; two alternatives: the second is the better one (see
    # test_slot_alternative_with_the_higher_f_is_chosen)
    one = run('<EV-D-1> :=\n    A: "x"\n', '<EV-D-1> :=\n    A: "x"\n')
    two = run('<EV-D-1> :=\n    A: "x"\n       "q"\n       "r"\n     / "x"\n', '<EV-D-1> :=\n    A: "x"\n       "y"\n')
    [slot_one] = one.matches[0].instances[0].slots
    [slot_two] = two.matches[0].instances[0].slots
    assert (slot_one.alternative, slot_two.alternative) == (0, 1)


def test_overlap_search_with_a_reference_extent_inside_another():
    # sorted by start, (0, 100) then (10, 20): their ends are not in order, so a
    # bisection over the ends would miss (0, 100), which overlaps (50, 60)
    refs = [Extent(0, 100), Extent(10, 20)]
    assert _overlapping(refs, [Extent(50, 60), Extent(15, 15)]) == [(0, 0), (0, 1), (1, 1)]


def test_instance_sets_are_paired_by_docid_unless_both_sides_have_extents():
    ref = parse_templates('<E-D1-1> :=\n    A: "x"\n', "ref.tpl", role="reference")
    hyp = parse_templates('<E-D1-1> :=\n    A: "x"\n', "hyp.tpl", role="hypothesis")
    config = ScoreConfig()

    def mapper():
        return Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))

    # an extent function for one side only: still by DOCID
    [match] = mapper().match_template_sets(ref, hyp, ref_extent=lambda s: None)
    assert (match.ref is not None, match.hyp is not None, match.counts.cor) == (True, True, 1)
    # both: by overlap, and extents that overlap nothing leave both sets unmapped
    matches = mapper().match_template_sets(ref, hyp, ref_extent=lambda s: None, hyp_extent=lambda s: None)
    assert [(m.ref is not None, m.hyp is not None) for m in matches] == [(True, False), (False, True)]


def test_a_pair_with_a_correct_content_and_a_wrong_extent_counts_one_cor_and_one_inc():
    # the content and extent points of a fill pair are both counted: R1 against the hypothesis
    # is COR 1 (content) and INC 1 (extent), F = 2/4; R2 is COR 2, MIS 1, F = 4/5 and is mapped.
    # Counting the content point twice would give R1 F = 1 and map it instead.
    hyp = '<E-D1-1> :=\n    A: "x" ##0#1#\n'
    r1 = '<E-D1-1> :=\n    A: "x" ##5#6#\n'
    r2 = '<E-D1-2> :=\n    A: "x" ##0#1#\n    B: "q"\n'
    for ref in (r1 + r2, r2 + r1):
        result = run(ref, hyp)
        assert {(r, h) for r, h, _ in result.instance_pairs() if r and h} == {("<E-D1-2>", "<E-D1-1>")}
        # R1 unmapped: its content and extent points are MIS, with B of R2
        assert counts(result) == {"COR": 2, "INC": 0, "MIS": 3, "SPU": 0, "OPT": 0, "REM": 0}
    # the pair's own counts, as the mapping ranks it
    [match] = run(r1, hyp).matches
    [pair] = match.instances
    assert pair.counts == Counts(cor=1, inc=1)


def test_a_hypothesis_slot_given_alternatives_through_the_api_keeps_only_its_first():
    # the reader refuses '/' in a hypothesis, but a template set made in Python may hold it:
    # the scorer then reads the first alternative only
    ref = parse_templates('<E-D1-1> :=\n    A: "x"\n', "ref.tpl", role="reference")

    def hypothesis(text):
        return replace(parse_templates(text, "hyp.tpl", role="reference"), role="hypothesis")

    first = score(ref, hypothesis('<E-D1-1> :=\n    A: "x"\n     / "y"\n'), config=ScoreConfig())
    second = score(ref, hypothesis('<E-D1-1> :=\n    A: "y"\n     / "x"\n'), config=ScoreConfig())
    assert [(p.category, p.hyp.fill) for p in first.points] == [("COR", '"x"')]
    assert [(p.category, p.hyp.fill) for p in second.points] == [("INC", '"y"')]


def _pointing(n, target):
    # n instances of EV, each with one pointer slot W to a P instance
    return "".join(f"<EV-D1-{i}> :=\n    W: <P-D1-{target(i)}>\n" for i in range(1, n + 1))


def test_instances_sharing_only_pointers_are_found_by_their_pointer_keys():
    # 5 x 5 instance pairs of EV, more than are all counted: only the pairs sharing a key
    # are counted before the F = 0 pairs. EV instances hold a pointer only, so the key a
    # reference pointer shares with a COR hypothesis pointer (through the P mapping, which
    # is a cyclic shift, not its own inverse) is what finds each COR pair.
    n = 5
    ref_ps = "".join(f'<P-D1-{k}> :=\n    N: "w{k}"\n' for k in range(1, n + 1))
    hyp_ps = "".join(f'<P-D1-{k % n + 1}> :=\n    N: "w{k}"\n' for k in range(1, n + 1))
    ref = ref_ps + _pointing(n, lambda i: i)
    hyp = hyp_ps + _pointing(n, lambda j: j)
    result = run(ref, hyp)
    pairs = {(r, h) for r, h, _ in result.instance_pairs() if r and h}
    assert {(r, h) for r, h in pairs if r.startswith("<EV")} == {
        (f"<EV-D1-{i}>", f"<EV-D1-{i % n + 1}>") for i in range(1, n + 1)
    }
    assert counts(result) == {"COR": 2 * n, "INC": 0, "MIS": 0, "SPU": 0, "OPT": 0, "REM": 0}


# -- instances left over without COR, past the all-pairs limit: ranked by their shapes ----------
#
# With more than 16 instance pairs of a type, the pairs without a COR are ranked by the
# shapes of their instances (Mapper._shape): one pair per two shapes is counted for all.
# In each case below, two reference instances GOOD and BAD would get the same shape if the
# shape missed one fact; GOOD is first, so its counts would stand for BAD's. Against the
# hypotheses X1 and X2 (same shape) GOOD has 1 error and BAD 2; against Y both have 1.
# The greedy takes GOOD-X1 and BAD-Y (one error each), and the first extra instance (4
# reference instances with three other slots) gets X2. Had BAD the shape of GOOD, it would
# take X2 (1 error by GOOD's counts) and the extra instance Y.

_EXTRAS = "".join(f'<EV-D1-1{k}> :=\n    B: "b{k}"\n    C: "c{k}"\n    D: "d{k}"\n' for k in range(4))
_SHAPE_CASES = {
    # a text fill and a pointer: a pointer is never compared with a text fill
    "text or pointer": (
        '<P-D1-1> :=\n    N: "w"\n<EV-D1-1> :=\n    A: "a"\n<EV-D1-2> :=\n    A: <P-D1-1>\n',
        '<P-D1-8> :=\n    N: "w"\n<P-D1-9> :=\n    N: "v"\n'
        '<EV-D1-1> :=\n    A: "x1"\n<EV-D1-2> :=\n    A: "x2"\n<EV-D1-3> :=\n    A: <P-D1-9>\n',
    ),
    # a pointer to an optional instance left unmapped (REM, no error) or to a required one (MIS)
    "removable pointer": (
        '<Q-D1-1> :=\n    N: "q"\n    OBJ_STATUS: OPTIONAL\n<P-D1-1> :=\n    N: "w"\n'
        "<EV-D1-1> :=\n    A: <Q-D1-1>\n<EV-D1-2> :=\n    A: <P-D1-1>\n",
        '<P-D1-8> :=\n    N: "w"\n<P-D1-9> :=\n    N: "v"\n'
        '<EV-D1-1> :=\n    A: "x1"\n<EV-D1-2> :=\n    A: "x2"\n<EV-D1-3> :=\n    A: <P-D1-9>\n',
    ),
    # a fill in an optional slot (OPT, no error) or in a required one (MIS)
    "optional slot": (
        '<EV-D1-1> :=\n    A: ? "a"\n<EV-D1-2> :=\n    A: "b"\n',
        '<EV-D1-1> :=\n    B: "x1"\n<EV-D1-2> :=\n    B: "x2"\n<EV-D1-3> :=\n    A: "y"\n',
    ),
}


@pytest.mark.parametrize("case", list(_SHAPE_CASES))
def test_instances_left_over_are_ranked_by_shapes_that_tell_their_errors_apart(case, monkeypatch):
    ref, hyp = _SHAPE_CASES[case]
    expected = {
        ("<EV-D1-1>", "<EV-D1-1>"),  # GOOD-X1
        ("<EV-D1-2>", "<EV-D1-3>"),  # BAD-Y
        ("<EV-D1-10>", "<EV-D1-2>"),  # the first extra instance gets X2
    }

    def ev_pairs(result):
        return {(r, h) for r, h, _ in result.instance_pairs() if r and h and r.startswith("<EV")}

    shaped = run(ref + _EXTRAS, hyp)
    assert ev_pairs(shaped) == expected
    # the same mapping as counting every pair
    use_brute_force(monkeypatch)
    counted = run(ref + _EXTRAS, hyp)
    assert ev_pairs(counted) == expected
    assert counts(shaped) == counts(counted)


def test_too_many_pairs_names_the_reference_document(monkeypatch):
    # paired by overlap, a reference set and a hypothesis set can have different DOCIDs:
    # the error names the reference document
    monkeypatch.setattr(mapping, "MAX_CANDIDATE_PAIRS", 10)

    def events(docid):  # 5 instances with the same content: all 25 pairs can score a COR
        return "".join(f'<EVENT-{docid}-{k}> :=\n    NAME: "same"\n' for k in range(1, 6))

    ref = parse_templates(events("D1"), "ref.tpl", role="reference")
    hyp = parse_templates(events("D2"), "hyp.tpl", role="hypothesis")
    config = ScoreConfig()
    mapper = Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))
    whole = Extent(0, 10)
    with pytest.raises(InputError) as caught:
        mapper.match_template_sets(ref, hyp, ref_extent=lambda s: whole, hyp_extent=lambda s: whole)
    assert str(caught.value).startswith(
        "document D1, type EVENT: 5 reference and 5 hypothesis instances give more than 10 pairs to compare"
    )
    # one reference instance against 17 (past the all-pairs limit): the message is made from that one
    one = parse_templates('<EVENT-D1-1> :=\n    NAME: "same"\n', "ref.tpl", role="reference")
    many = parse_templates(
        "".join(f'<EVENT-D1-{k}> :=\n    NAME: "same"\n' for k in range(1, 18)), "hyp.tpl", role="hypothesis"
    )
    with pytest.raises(InputError) as caught:
        Mapper(config, FillPreparer(config), FillPreparer(config, reference=False)).match_template_sets(one, many)
    assert str(caught.value).startswith(
        "document D1, type EVENT: 1 reference and 17 hypothesis instances give more than 10 pairs to compare"
    )


def test_the_pair_limit_is_the_one_the_docs_give():
    # docs/input-errors.md and docs/conventions.md tell users when a run stops with "too many pairs"
    docs = ROOT / "docs"
    for name in ("input-errors.md", "conventions.md"):
        text = " ".join((docs / name).read_text(encoding="utf-8").split())
        assert f"more than {mapping.MAX_CANDIDATE_PAIRS:,} " in text, name


def test_the_class_pairs_of_objects_left_over_are_bounded():
    # 2 reference and 3 hypothesis objects, each its own class: 6 class pairs, none with a COR
    def counts_of(i, j):
        return Counts(mis=1, spu=1)

    classes = ([0, 1], ["a", "b", "c"])

    def errors(i, j):
        return counts_of(i, j).errors

    assert greedy_by_class(2, 3, set(), set(), classes, errors, None) == [(0, 0), (1, 1)]
    assert greedy_by_class(2, 3, set(), set(), classes, errors, 6) == [(0, 0), (1, 1)]
    with pytest.raises(TooManyPairs) as caught:
        greedy_by_class(2, 3, set(), set(), classes, errors, 5)
    assert caught.value.count == 6


# ----------------------------------------------------------------------------
# Progress callbacks, the overlap search and the pointer reason
# Scoring progress callbacks, the overlap search of §7.4, and the pointer reason.
# ----------------------------------------------------------------------------

CLEAN = EXAMPLES / "clean"


def test_progress_callback_counts_every_reference_set_and_bar_is_quiet_when_piped():
    seen = []
    score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl", progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    from hub4eval.cli.score import progress_bar

    with progress_bar("x", quiet=False) as advance:  # not a terminal under pytest
        assert advance is None


def test_overlapping_sets_found_by_bisection_match_all_pairs():
    refs = [Extent(0, 9), Extent(10, 19), None, Extent(20, 29)]
    hyps = [Extent(5, 12), None, Extent(19, 20), Extent(30, 40), Extent(29, 29)]
    brute = sorted((i, j) for i, r in enumerate(refs) for j, h in enumerate(hyps) if r and h and r.overlaps(h))
    assert _overlapping(refs, hyps) == brute == [(0, 0), (1, 0), (1, 2), (3, 2), (3, 4)]


def test_overlap_search_falls_back_when_reference_extents_overlap_each_other():
    refs = [Extent(0, 20), Extent(10, 30)]
    hyps = [Extent(15, 16), Extent(25, 26)]
    assert _overlapping(refs, hyps) == [(0, 0), (1, 0), (1, 1)]


def test_pointer_reason_names_both_instances():
    ref = '<T-D-1> :=\n  EVENT: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n<EV-D-2> :=\n  W: "b"\n'
    hyp = '<T-D-1> :=\n  EVENT: <EV-D-3>\n<EV-D-2> :=\n  W: "a"\n<EV-D-3> :=\n  W: "b"\n'
    [pointer] = [p for p in run(ref, hyp).points if p.kind == "pointer"]
    assert pointer.reason == "pointer: reference instance <EV-D-1> mapped to <EV-D-2>, hypothesis points to <EV-D-3>"


# ----------------------------------------------------------------------------
# Rules the scoring specification v1.1 pinned down (issue #15): --min-map-f is on instance pairs only
# ----------------------------------------------------------------------------

runner = CliRunner()


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --min-map-f: 0 is the procedure, the threshold is on instance pairs only ------

ZERO_REF = '<E-D-1> :=\n  A: "x"\n'
ZERO_HYP = '<E-D-1> :=\n  A: "y"\n'


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


def _type_order_walked(ref, hyp) -> tuple[str, ...]:
    """The oracle of :func:`mapping.type_order`: one walk over every slot of both sets, the
    edges made as it goes (as the function was written before each set's edges were kept)."""
    from hub4eval.model import PointerFill, TextFill

    edges: dict[str, list] = {}
    for tset in (ref, hyp):
        for inst in tset.instances:
            targets = edges.setdefault(inst.type, [])
            for slot in inst.slots:
                for alternative in slot.alternatives:
                    for fill in alternative.fills:
                        if type(fill) is TextFill:
                            continue
                        if type(fill) is PointerFill and all(t != fill.type for t, _, _ in targets):
                            targets.append((fill.type, fill, tset.path))
                            edges.setdefault(fill.type, [])
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(node: str) -> None:
        state[node] = 1
        for target, _, _ in edges[node]:
            if state.get(target) == 1:
                raise InputError("cycle")
            if state.get(target) is None:
                visit(target)
        state[node] = 2
        order.append(node)

    for node in edges:
        if state.get(node) is None:
            visit(node)
    return tuple(order)


def _typed_sets(draw, role: str):
    """Template sets of several types whose instances point to each other's types."""
    from hypothesis import strategies as st

    from hub4eval.model import FillAlternative, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill

    types = ["A", "B", "C", "D"]
    instances = []
    for number in range(1, draw(st.integers(0, 8)) + 1):
        slots = []
        for name in draw(st.lists(st.sampled_from(["S", "T", "U"]), max_size=3, unique=True)):
            fills = []
            for _ in range(draw(st.integers(1, 2))):
                if draw(st.booleans()):
                    fills.append(PointerFill(draw(st.sampled_from(types)), "D1", draw(st.integers(1, 3))))
                else:
                    fills.append(TextFill("x", ((0, 1),)))
            slots.append(Slot(name, (FillAlternative(tuple(fills)),)))
        instances.append(Instance(draw(st.sampled_from(types)), "D1", number, tuple(slots)))
    return TemplateSet((InstanceSet("D1", tuple(instances)),), role=role, path=f"{role}.tpl")


def test_the_type_order_from_each_sets_edges_is_the_walk_of_both():
    """``type_order`` merges the edges of each set (kept for the next count of the same set)
    into the order one walk over both sets gives, cycles refused alike, whichever set's edges
    were kept before."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.data())
    def check(data):
        ref = data.draw(st.composite(lambda d: _typed_sets(d, "reference"))())
        hyp = data.draw(st.composite(lambda d: _typed_sets(d, "hypothesis"))())
        mapping._EDGES.clear()
        if data.draw(st.booleans()):
            mapping._edges_of(ref)  # the reference's edges kept, as after the system's count
        try:
            expected: tuple[str, ...] | None = _type_order_walked(ref, hyp)
        except InputError:
            expected = None
        for _ in range(2):  # walked, then kept
            if expected is None:
                with pytest.raises(InputError, match="cycle"):
                    mapping.type_order(ref, hyp)
            else:
                assert mapping.type_order(ref, hyp) == expected

    check()


def test_the_type_order_of_sets_read_into_tables_is_the_walk_of_both():
    """The instances a FillTable read as complete (one text fill in each slot) hold no
    pointer: their slots are not walked again, and the order is the walk's."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from hub4eval.scoring.fill_tables import FillTable

    @settings(max_examples=200, deadline=None)
    @given(st.data())
    def check(data):
        sets = [
            data.draw(st.composite(lambda d, role=role: _typed_sets(d, role))()) for role in ("reference", "hypothesis")
        ]
        unscored = data.draw(st.sampled_from([frozenset(), frozenset({"T"})]))
        plain = tuple(
            FillTable(
                FillPreparer(ScoreConfig(), reference=reference), tset.instances, reference, unscored, None
            ).complete.tolist()
            for tset, reference in zip(sets, (True, False), strict=True)
        )
        mapping._EDGES.clear()
        try:
            expected: tuple[str, ...] | None = _type_order_walked(*sets)
        except InputError:
            expected = None
        if expected is None:
            with pytest.raises(InputError, match="cycle"):
                mapping.type_order(*sets, plain)
        else:
            assert mapping.type_order(*sets, plain) == expected

    check()
