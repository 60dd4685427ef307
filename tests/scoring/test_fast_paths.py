"""The fast paths of the map phase (issue #20) give what the general code gives.

Each test fails if its shortcut is wrong: the key index against a brute-force
scan, the shared memo of normalized strings against a preparer of its own, the
shapes made on demand against shapes made up front, the written-out extent
enclosure and fill preparation against their definitions.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, TextFill
from hub4eval.scoring import candidates
from hub4eval.scoring.candidates import WILDCARD, reference_text_keys, sharing_pairs
from hub4eval.scoring.fills import FillPreparer, PreparedFill, PreparedString
from hub4eval.scoring.greedy import greedy_by_class
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.verdicts import TextComparison, extent_status

KEYS = st.sampled_from([("c", "S", "a"), ("c", "S", "b"), ("c", "T", "a"), ("x", "S", 1), WILDCARD])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(KEYS, max_size=4), max_size=5), st.lists(st.lists(KEYS, max_size=4), max_size=5))
def test_sharing_pairs_are_the_pairs_that_share_a_key_or_a_reference_wildcard(ref_keys, hyp_keys):
    expected = {
        (i, j) for i, rk in enumerate(ref_keys) for j, hk in enumerate(hyp_keys) if WILDCARD in rk or set(rk) & set(hk)
    }
    assert sharing_pairs(ref_keys, hyp_keys) == expected


def test_sharing_pairs_stops_past_the_limit():
    ref_keys = [[("c", "S", "a")], [("c", "S", "a")]]
    hyp_keys = [[("c", "S", "a")], [("c", "S", "a")]]
    assert len(sharing_pairs(ref_keys, hyp_keys, limit=4)) == 4
    with pytest.raises(candidates.TooManyPairs) as raised:
        sharing_pairs(ref_keys, hyp_keys, limit=3)
    assert raised.value.count == 4


@pytest.mark.parametrize(
    ("start", "end", "blocks"),
    [
        (0, 15, [0]),
        (16, 31, [1]),
        (12, 20, [0, 1]),
        (15, 16, [0, 1]),
        (10, 50, [0, 1, 2, 3]),
        # far into a document: the number of blocks decides the wildcard, not their numbers
        (16 * 300 + 12, 16 * 300 + 20, [300, 301]),
    ],
)
def test_extent_keys_are_the_blocks_the_extent_covers(start, end, blocks):
    prep = FillPreparer(ScoreConfig(), tokens=False)
    fill = prep.prepare(TextFill("x", ((0, 1),), (Extent(start, end),), (Extent(start, end),)), "D")
    keys = reference_text_keys("S", fill, TextComparison(content=False, extent=True))
    assert keys == [("x", "S", block) for block in blocks]


def test_an_extent_over_too_many_blocks_is_the_wildcard():
    prep = FillPreparer(ScoreConfig(), tokens=False)
    wide = Extent(0, 16 * 256)
    fill = prep.prepare(TextFill("x", ((0, 1),), (wide,), (wide,)), "D")
    assert reference_text_keys("S", fill, TextComparison(content=False, extent=True)) == [WILDCARD]
    narrower = Extent(0, 16 * 256 - 1)
    fill = prep.prepare(TextFill("x", ((0, 1),), (narrower,), (narrower,)), "D")
    assert len(reference_text_keys("S", fill, TextComparison(content=False, extent=True))) == 256


# -- the memo of normalized strings ----------------------------------------------------------


def _fill(content: str, start: int = 10) -> TextFill:
    extent = Extent(start, start + len(content))
    return TextFill(content, ((0, len(content)),), (extent,), (extent,))


@pytest.mark.parametrize("tokens", [False, True])
def test_a_hypothesis_preparer_sharing_the_reference_memo_prepares_as_its_own(tokens):
    config = ScoreConfig()
    ref_prep = FillPreparer(config, tokens=tokens)
    hyp_prep = FillPreparer(config, reference=False, tokens=tokens)
    alone = FillPreparer(config, reference=False, tokens=tokens)
    hyp_prep.share_texts(ref_prep)
    for content in ("The Cup, of Egypt", "the cup", "Egypt"):
        ref_prep.prepare(_fill(content), "D")
    for content in ("The Cup, of Egypt", "egypt", "Egypt"):
        assert hyp_prep.prepare(_fill(content), "D") == alone.prepare(_fill(content), "D")
    assert "egypt" in ref_prep._texts  # one memo: the hypothesis string was remembered there


def test_preparers_that_normalize_differently_keep_their_own_memo():
    ref_prep = FillPreparer(ScoreConfig(keep_punctuation=True))
    for hyp_prep in (
        FillPreparer(ScoreConfig(), reference=False),
        FillPreparer(ScoreConfig(keep_punctuation=True), reference=False, tokens=False),
        FillPreparer(ScoreConfig(keep_punctuation=True), reference=False, glm_apply=lambda tokens: tokens),
    ):
        hyp_prep.share_texts(ref_prep)
        ref_prep.prepare(_fill("Egypt, the cup"), "D")
        assert hyp_prep._texts is not ref_prep._texts
    same = FillPreparer(ScoreConfig(keep_punctuation=True), reference=False)
    same.share_texts(ref_prep)
    assert same._texts is ref_prep._texts
    assert same.prepare(_fill("Egypt, the cup"), "D").maximal.text == "egypt, the cup"


# -- a prepared fill (the maximal string written out in prepare) ------------------------------


def test_prepare_shifts_past_a_premodifier_then_maps_the_extent():
    calls = []

    def map_extent(docid, extent):
        calls.append((docid, extent))
        return Extent(extent.start * 10, extent.end * 10)

    fill = _fill("the cup", 100)  # 100..107, `the ` is 4 characters
    for unsegmented, docid in ((False, "D"), (True, None)):
        calls.clear()
        prep = FillPreparer(ScoreConfig(), map_extent=map_extent, reference=False, unsegmented=unsegmented)
        prepared = prep.prepare(fill, "D")
        assert calls == [(docid, Extent(104, 107))]
        assert prepared.maximal == PreparedString("cup", prepared.maximal.tokens, Extent(1040, 1070))
        assert prepared.minimals == (prepared.maximal,) and prepared.has_extent


def test_prepare_keeps_the_extent_without_premodifier_or_mapping():
    prep = FillPreparer(ScoreConfig(), tokens=False)
    prepared = prep.prepare(_fill("Cup", 7), "D")
    assert prepared == PreparedFill(
        _fill("Cup", 7), PreparedString("cup", (), Extent(7, 10)), (prepared.maximal,), True
    )
    assert prep.prepare(_fill("the cup", 100), "D").maximal.extent == Extent(104, 107)  # shifted, not mapped
    prepared = prep.prepare(TextFill("Cup", ((0, 3),)), "D")
    assert prepared.maximal.extent is None and prepared.has_extent is False
    assert prepared.minimals == (prepared.maximal,)


def test_a_mapped_away_extent_still_has_an_extent_point():
    prep = FillPreparer(ScoreConfig(), map_extent=lambda docid, extent: None, tokens=False)
    prepared = prep.prepare(_fill("cup"), "D")
    assert prepared.maximal.extent is None and prepared.has_extent is True


# -- enclosure, written out in extent_status ---------------------------------------------------


def _with_extent(start: int, end: int) -> PreparedFill:
    maximal = PreparedString("x", (), Extent(start, end))
    return PreparedFill(TextFill("x", ((0, 1),)), maximal, (maximal,), True)


@pytest.mark.parametrize(
    ("hyp", "status"),
    [
        ((10, 20), "ok"),
        ((12, 18), "ok"),
        ((9, 20), "not-enclosed"),
        ((10, 21), "not-enclosed"),
        ((21, 22), "not-enclosed"),
        ((5, 9), "not-enclosed"),
        ((20, 20), "ok"),
    ],
)
def test_extent_status_encloses_as_the_procedure(hyp, status):
    ref = _with_extent(10, 20)
    assert extent_status(ref, _with_extent(*hyp)) == status
    assert Extent(10, 20).encloses(Extent(*hyp)) == (status == "ok")


# -- classes read only when something is left over --------------------------------------------


class _Untouchable:
    def __getitem__(self, index):
        raise AssertionError("a class was read although nothing was left over")

    def __len__(self):
        return 2


@pytest.mark.parametrize(("n_ref", "n_hyp"), [(2, 2), (2, 1), (1, 2)])
def test_no_class_is_read_when_every_object_of_a_side_is_mapped(n_ref, n_hyp):
    used = set(range(min(n_ref, n_hyp)))
    classes = (_Untouchable(), _Untouchable())
    assert greedy_by_class(n_ref, n_hyp, set(used), set(used), classes, lambda i, j: 1, None) == []


def test_classes_are_read_when_both_sides_have_objects_left():
    with pytest.raises(AssertionError, match="nothing was left over"):
        greedy_by_class(2, 2, {0}, {0}, (_Untouchable(), _Untouchable()), lambda i, j: 1, None)


# -- single text fills left over, matched without match_slot -----------------------------------

REF = """<E-D-1> :=
    A: "cup" ##10#13#
    B: ? "egypt" ##20#25#
    C: "nil"
    D: "one" / "two"
    P: <E-D-2>
<E-D-2> :=
    A: "two"
"""
HYP = """<E-D-1> :=
    A: "cup" ##10#13#
    E: "spare" ##30#35#
    F: "plain"
    G: "x" "y"
"""


@pytest.mark.parametrize("compare", ["both", "content", "extent"])
def test_left_over_single_fills_match_as_match_slot_matches_them(compare):
    from hub4eval.io.templettes import parse_templates
    from hub4eval.scoring.mapping import Mapper

    config = ScoreConfig(compare=compare)
    [ref_set] = parse_templates(REF, "ref.tpl", "reference").instance_sets
    [hyp_set] = parse_templates(HYP, "hyp.tpl", "hypothesis").instance_sets
    mapper = Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))
    ref, hyp = ref_set.instances[0], hyp_set.instances[0]

    def removable(fill):
        return False

    def general(r, h):
        ref_view = mapper._view(r, True) if r is not None else {}
        hyp_view = mapper._view(h, False) if h is not None else {}
        slots = [mapper.match_slot(name, s, hyp_view.get(name), {}, removable) for name, s in ref_view.items()]
        slots += [
            mapper.match_slot(name, None, s, {}, removable) for name, s in hyp_view.items() if name not in ref_view
        ]
        return slots

    for r, h in ((ref, hyp), (ref, None), (None, hyp)):
        match = mapper.match_instance(r, h, {}, removable)
        expected = general(r, h)
        assert match.slots == tuple(expected)
        assert match.counts == Counts.total([slot.counts for slot in expected])
    # the fast paths were taken: optional slot B left over is OPT, spare E is SPU
    by_name = {slot.name: slot for slot in mapper.match_instance(ref, hyp, {}, removable).slots}
    assert {v.category for _, _, verdicts in by_name["B"].pairs for v in verdicts} == {"OPT"}
    assert {v.category for _, _, verdicts in by_name["E"].pairs for v in verdicts} == {"SPU"}
    assert by_name["E"].alternative is None and by_name["B"].alternative == 0
