"""Single-fill verdicts and noisy comparison (hub4eval/scoring/verdicts.py, noisy.py):
tests that kill their mutants (issue #21).

Prepared fills are built by hand where a branch cannot be reached from a
templette with raw offsets: a reference extent that touches no aligned word
(the aligner maps it to nothing) and a minimal string without an extent.
"""

from __future__ import annotations

import pytest

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, PointerFill, TextFill
from hub4eval.scoring.fills import PreparedFill, PreparedString
from hub4eval.scoring.noisy import is_optional_reference, kept_hypothesis_tokens, noisy_content_correct
from hub4eval.scoring.verdicts import (
    TextComparison,
    Verdict,
    clean_content_status,
    compare_pointer,
    compare_text,
    extent_status,
    format_reason,
    unpaired_pointer,
    unpaired_text,
)
from hub4eval.text.tokens import Token, tokenize
from tests.support.scoring import cats, counts, run


def _s(text: str, extent: Extent | None = None) -> PreparedString:
    return PreparedString(text, tuple(tokenize(text)), extent)


def _fill(maximal: PreparedString, minimals: tuple[PreparedString, ...] = (), has_extent: bool | None = None):
    has = maximal.extent is not None if has_extent is None else has_extent
    return PreparedFill(TextFill(maximal.text, ((0, len(maximal.text)),)), maximal, minimals or (maximal,), has)


BOTH = TextComparison(content=True, extent=True)
EXTENT_ONLY = TextComparison(content=False, extent=True)
CONTENT_ONLY = TextComparison(content=True, extent=False)


# -- clean content ------------------------------------------------------------------


def test_cor_reason_names_the_minimal_string_that_matched_not_the_first():
    ref = _fill(_s("south africa"), (_s("south"), _s("africa")))
    hyp = _fill(_s("africa"))
    [content] = compare_text(ref, hyp, CONTENT_ONLY)
    assert content.category == "COR"
    assert content.reason == "hypothesis `africa` is inside `south africa` and contains the minimal string `africa`"


def test_clean_content_statuses_and_reasons():
    ref = _fill(_s("defending champion south africa"), (_s("south africa"),))
    assert clean_content_status(ref, _fill(_s("champion south africa"))) == "ok"
    assert clean_content_status(ref, _fill(_s("defending champion"))) == "no-minimal"
    assert clean_content_status(ref, _fill(_s("egypt"))) == "outside"
    [inc] = compare_text(ref, _fill(_s("egypt")), CONTENT_ONLY)
    assert (inc.category, inc.reason) == (
        "INC",
        "hypothesis `egypt` is not inside the reference maximal string `defending champion south africa`",
    )
    two = _fill(_s("a b c"), (_s("a"), _s("c")))
    [inc] = compare_text(two, _fill(_s("b")), CONTENT_ONLY)
    assert inc.reason == "hypothesis `b` does not contain any minimal string: `a` or `c`"


# -- extents ------------------------------------------------------------------------


def test_extent_statuses():
    ref = _fill(_s("the host of it", Extent(10, 24)), (_s("host", Extent(14, 18)),))
    assert extent_status(ref, _fill(_s("host", Extent(14, 18)))) == "ok"
    assert extent_status(ref, _fill(_s("of it", Extent(19, 24)))) == "no-minimal"
    assert extent_status(ref, _fill(_s("it x", Extent(22, 26)))) == "not-enclosed"
    # the ends count: a hypothesis equal to the reference extent is enclosed
    assert extent_status(ref, _fill(_s("the host of it", Extent(10, 24)))) == "ok"


def test_minimal_overlap_at_a_single_shared_end_counts():
    ref = _fill(_s("a host b", Extent(0, 10)), (_s("host", Extent(2, 6)),))
    assert extent_status(ref, _fill(_s("x", Extent(6, 8)))) == "ok"
    assert extent_status(ref, _fill(_s("x", Extent(7, 8)))) == "no-minimal"


def test_reference_extent_touching_no_aligned_word():
    # the reference fill has an extent, but the aligner mapped it to nothing
    ref = _fill(_s("brazil", None), has_extent=True)
    hyp = _fill(_s("brazil", Extent(3, 9)))
    assert extent_status(ref, hyp) == "ref-unaligned"
    content, extent = compare_text(ref, hyp, BOTH)
    assert content.category == "COR"
    assert (extent.kind, extent.category, extent.reason) == (
        "extent",
        "INC",
        "the reference extent touches no aligned word",
    )
    # and the hypothesis side
    hyp_unaligned = _fill(_s("brazil", None), has_extent=True)
    ref_aligned = _fill(_s("brazil", Extent(3, 9)))
    assert extent_status(ref_aligned, hyp_unaligned) == "hyp-unaligned"
    # both unaligned: the hypothesis is reported first
    assert extent_status(ref, hyp_unaligned) == "hyp-unaligned"


def test_minimal_string_without_an_extent_matches_no_hypothesis_extent():
    # the first minimal string has no extent (None): it is skipped, the second one is found
    ref = _fill(_s("a b c", Extent(0, 5)), (_s("a", None), _s("c", Extent(4, 5))))
    hyp = _fill(_s("c", Extent(4, 5)))
    assert extent_status(ref, hyp) == "ok"
    [extent] = compare_text(ref, hyp, EXTENT_ONLY)
    assert extent.reason == "extent 4..5 enclosed in 0..5, overlaps minimal 4..5"
    only_none = _fill(_s("a b c", Extent(0, 5)), (_s("a", None),))
    assert extent_status(only_none, hyp) == "no-minimal"
    [extent] = compare_text(only_none, hyp, EXTENT_ONLY)
    assert extent.reason == "extent 4..5 enclosed in 0..5 but overlaps no minimal extent (none)"


def test_extent_reasons():
    ref = _fill(_s("the host", Extent(10, 18)))
    [ok] = compare_text(ref, _fill(_s("host", Extent(14, 18))), EXTENT_ONLY)
    assert (ok.category, ok.reason) == ("COR", "extent 14..18 enclosed in 10..18, overlaps minimal 10..18")
    [out] = compare_text(ref, _fill(_s("host x", Extent(14, 20))), EXTENT_ONLY)
    assert (out.category, out.reason) == ("INC", "extent 14..20 not enclosed in 10..18")
    bracketed = _fill(_s("the host", Extent(10, 18)), (_s("host", Extent(14, 18)),))
    [none] = compare_text(bracketed, _fill(_s("the", Extent(10, 12))), EXTENT_ONLY)
    assert none.reason == "extent 10..12 enclosed in 10..18 but overlaps no minimal extent (14..18)"


# -- what is compared: one-sided extents, --compare ------------------------------------


@pytest.mark.parametrize(
    ("how", "ref_extent", "hyp_extent", "expected"),
    [
        # both sides without an extent: no extent point in any mode
        (BOTH, None, None, [("content", "COR")]),
        (EXTENT_ONLY, None, None, []),
        # one side with an extent: an extent point, INC, naming the side without one
        (BOTH, Extent(0, 5), None, [("content", "COR"), ("extent", "INC")]),
        (BOTH, None, Extent(0, 5), [("content", "COR"), ("extent", "INC")]),
        (EXTENT_ONLY, Extent(0, 5), None, [("extent", "INC")]),
        (EXTENT_ONLY, None, Extent(0, 5), [("extent", "INC")]),
        (EXTENT_ONLY, Extent(0, 5), Extent(0, 5), [("extent", "COR")]),
        (CONTENT_ONLY, Extent(0, 5), Extent(9, 10), [("content", "COR")]),
    ],
)
def test_points_of_a_pair_by_mode_and_sides_with_extents(how, ref_extent, hyp_extent, expected):
    ref, hyp = _fill(_s("egypt", ref_extent)), _fill(_s("egypt", hyp_extent))
    verdicts = compare_text(ref, hyp, how)
    assert [(v.kind, v.category) for v in verdicts] == expected
    reasons = {
        "no-hyp-extent": "the hypothesis fill has no extent",
        "no-ref-extent": "the reference fill has no extent",
    }
    if ref_extent is not None and hyp_extent is None:
        assert verdicts[-1].reason == reasons["no-hyp-extent"]
    if ref_extent is None and hyp_extent is not None:
        assert verdicts[-1].reason == reasons["no-ref-extent"]


@pytest.mark.parametrize("compare", ["extent", "content", "both"])
@pytest.mark.parametrize("reference", [True, False])
@pytest.mark.parametrize("optional_slot", [True, False])
@pytest.mark.parametrize("with_extent", [True, False])
def test_unpaired_fills_by_mode(compare, reference, optional_slot, with_extent):
    config = ScoreConfig(compare=compare)
    fill = _fill(_s("egypt", Extent(0, 5) if with_extent else None))
    verdicts = unpaired_text(fill, config, reference=reference, optional_slot=optional_slot)
    kinds = []
    if compare in ("content", "both"):
        kinds.append("content")  # --compare extent: an unpaired fill has no content point
    if compare in ("extent", "both") and with_extent:
        kinds.append("extent")
    category = "SPU" if not reference else "OPT" if optional_slot else "MIS"
    assert [(v.kind, v.category) for v in verdicts] == [(k, category) for k in kinds]
    reason = {
        "SPU": "no reference fill for this hypothesis fill",
        "MIS": "no hypothesis fill for this reference fill",
        "OPT": "reference fill in an optional slot left unmatched",
    }[category]
    assert all(v.reason == reason for v in verdicts)


def test_compare_extent_through_scoring():
    # WINNER: extents on both sides, equal: one extent COR; LOSER: reference extent only: extent INC;
    # SCORE: no extents: no point at all; LOCATION: reference only, with an extent: extent MIS;
    # DATE: hypothesis only, without an extent: no point
    ref = (
        '<E-D1-1> :=\n    WINNER: "Egypt" ##0#5#\n    LOSER: "Zambia" ##10#16#\n'
        '    SCORE: "2-0"\n    LOCATION: "Cairo" ##20#25#\n'
    )
    hyp = '<E-D1-1> :=\n    WINNER: "Egypt" ##0#5#\n    LOSER: "Zambia"\n    SCORE: "2-0"\n    DATE: "today"\n'
    result = run(ref, hyp, compare="extent")
    assert [(p.slot, p.kind, p.category) for p in result.points] == [
        ("WINNER", "extent", "COR"),
        ("LOSER", "extent", "INC"),
        ("LOCATION", "extent", "MIS"),
    ]
    both = run(ref, hyp, compare="both")
    # content: WINNER, LOSER, SCORE COR; LOCATION MIS; DATE SPU. extent as above.
    assert counts(both) == {"COR": 4, "INC": 1, "MIS": 2, "SPU": 1, "OPT": 0, "REM": 0}


# -- pointers -----------------------------------------------------------------------


def test_pointer_verdicts():
    ref, hyp = PointerFill("EV", "D", 1), PointerFill("EV", "D", 9)
    cor = compare_pointer(ref, hyp, {"<EV-D-1>": "<EV-D-9>"})
    assert (cor.kind, cor.category, cor.reason) == ("pointer", "COR", "<EV-D-1> is mapped to <EV-D-9>")
    inc = compare_pointer(ref, hyp, {})
    assert (inc.category, inc.reason) == (
        "INC",
        "pointer: reference instance <EV-D-1> is mapped to nothing, hypothesis points to <EV-D-9>",
    )
    left_over = [
        unpaired_pointer(hyp, reference=False),
        unpaired_pointer(ref, reference=True),
        unpaired_pointer(ref, reference=True, optional_slot=True),
        unpaired_pointer(ref, reference=True, removed=True),
        # a hypothesis pointer is SPU even in an optional slot or to a removed instance
        unpaired_pointer(hyp, reference=False, optional_slot=True, removed=True),
    ]
    assert [(v.kind, v.category, v.reason) for v in left_over] == [
        ("pointer", "SPU", "no reference pointer for <EV-D-9>"),
        ("pointer", "MIS", "no hypothesis pointer for <EV-D-1>"),
        ("pointer", "OPT", "<EV-D-1> in an optional slot left unmatched"),
        ("pointer", "REM", "<EV-D-1> points to an optional instance that no hypothesis instance matched"),
        ("pointer", "SPU", "no reference pointer for <EV-D-9>"),
    ]


def test_verdict_equality_and_lazy_reason():
    calls = []

    def reason(a, b):
        calls.append((a, b))
        return "{0}-{1}", (str(a), str(b))

    lazy = Verdict("content", "COR", reason, 1, 2)
    assert calls == []
    assert lazy.reason_parts() == ("{0}-{1}", ("1", "2")) and calls == [(1, 2)]
    assert Verdict.parts_of([lazy, Verdict("content", "MIS", "{0} as {1}")]) == [
        ("{0}-{1}", ("1", "2")),
        ("{0} as {1}", ()),  # a plain text: its own template, never formatted
    ]
    calls.clear()
    assert lazy == Verdict("content", "COR", "1-2")
    assert lazy.reason == "1-2" and calls == [(1, 2)]
    assert lazy.reason_parts() == ("{0}-{1}", ("1", "2"))  # the text made once and kept, the parts as before
    assert lazy != Verdict("content", "INC", "1-2") and lazy != Verdict("extent", "COR", "1-2")
    assert hash(lazy) == hash(Verdict("content", "COR", "1-2"))
    assert lazy.__eq__("x") is NotImplemented
    assert repr(lazy) == "Verdict('content', 'COR', '1-2')"
    assert Verdict("content", "MIS", "{0} as {1}").reason == "{0} as {1}"
    assert format_reason("{0} and {1}{0}", ("a", "{1}")) == "a and {1}a"


def test_text_comparison_defaults_compare_content_and_extent_cleanly():
    how = TextComparison()
    assert (how.content, how.extent, how.noisy, how.fillers) == (True, True, False, frozenset())
    with pytest.raises(AttributeError):
        how.noisy = True  # type: ignore[misc]  # frozen: one comparison serves a whole evaluation


def test_unpaired_reference_fill_outside_an_optional_slot_by_default():
    fill = _fill(_s("egypt", Extent(0, 5)))
    assert [v.category for v in unpaired_text(fill, ScoreConfig(), reference=True)] == ["MIS", "MIS"]


def test_text_comparison_from_the_options():
    how = TextComparison.of(ScoreConfig(compare="extent", fillers=("UH", "Er")), noisy=True)
    assert (how.content, how.extent, how.noisy, how.fillers) == (False, True, True, frozenset({"uh", "er"}))


# -- noisy ----------------------------------------------------------------------------


def test_noisy_optional_tokens_and_kept_hypothesis_tokens():
    fillers = frozenset({"uh"})
    assert is_optional_reference(Token("UH", 0, 2), fillers)
    assert is_optional_reference(Token("x", 0, 1, parenthesized=True), fillers)
    assert is_optional_reference(Token("x", 0, 1, optional=True), fillers)
    assert not is_optional_reference(Token("x", 0, 1), fillers)
    hyp = [Token("a", 0, 1), Token("Uh", 2, 4), Token("b", 5, 6, optional=True), Token("c", 7, 8)]
    assert [t.text for t in kept_hypothesis_tokens(hyp, fillers)] == ["a", "c"]


def test_noisy_cor_reason_names_the_minimal_string_that_matched():
    ref = tokenize("south africa")
    ok, reason = noisy_content_correct(ref, [tokenize("south"), tokenize("africa")], tokenize("africa"))
    assert ok
    assert reason == (
        "hypothesis tokens `africa` are a run of the reference `south africa` and contain the minimal string `africa`"
    )


def test_noisy_runs_must_be_contiguous_and_complete():
    ref = tokenize("glen uh bunting of scotland")
    # skipping the filler is allowed, skipping a word is not
    assert noisy_content_correct(ref, [ref], tokenize("glen bunting of scotland"))[0]
    assert not noisy_content_correct(ref, [tokenize("bunting")], tokenize("glen of scotland"))[0]
    # a run of the reference, not a subsequence: "glen scotland" skips words
    assert not noisy_content_correct(ref, [tokenize("glen")], tokenize("glen scotland"))[0]
    # the hypothesis may be longer than the minimal string, in the run
    assert noisy_content_correct(ref, [tokenize("bunting")], tokenize("bunting of"))[0]
    # a minimal string with an optional token at its end or its start still matches
    assert noisy_content_correct(ref, [tokenize("glen uh")], tokenize("glen"))[0]
    assert noisy_content_correct(ref, [tokenize("uh bunting")], tokenize("bunting of"))[0]
    # a hypothesis with a word the reference run lacks
    assert not noisy_content_correct(ref, [tokenize("glen")], tokenize("glen x"))[0]
    assert not noisy_content_correct(ref, [tokenize("scotland")], tokenize("of scotland x"))[0]


def test_noisy_hypothesis_of_fillers_only():
    ref = tokenize("glen bunting")
    # the empty run is a run of every sequence, but no minimal string here is all optional
    assert noisy_content_correct(ref, [ref], tokenize("uh um")) == (
        False,
        "the hypothesis has no words once fillers are dropped (dropped: `uh um`), "
        "and no minimal string `glen bunting` is made of optional tokens only",
    )
    assert noisy_content_correct(ref, [ref], ()) == (
        False,
        "the hypothesis has no words once fillers are dropped, "
        "and no minimal string `glen bunting` is made of optional tokens only",
    )


def test_noisy_without_minimal_strings_uses_the_maximal_string():
    ref = tokenize("glen bunting")
    assert noisy_content_correct(ref, [], tokenize("glen bunting"))[0]
    assert not noisy_content_correct(ref, [], tokenize("glen"))[0]


def test_noisy_reason_for_a_hypothesis_outside_the_reference():
    ref = tokenize("glen buni- bunting")
    ok, reason = noisy_content_correct(ref, [ref], tokenize("glen x"))
    assert not ok
    assert (
        reason == "hypothesis tokens `glen x` are not a run of the reference `glen buni- bunting` (optional: `buni-`)"
    )
    ok, reason = noisy_content_correct(tokenize("a b"), [tokenize("a b")], tokenize("c"))
    assert reason == "hypothesis tokens `c` are not a run of the reference `a b`"


def test_clean_comparison_of_a_fragment_reference_is_exact():
    ref = '<E-D1-1> :=\n    WINNER: "Glen Buni- Bunting"\n'
    hyp = '<E-D1-1> :=\n    WINNER: "glen bunting"\n'
    assert cats(run(ref, hyp)) == ["INC"]  # clean comparison: the strings differ


# Which minimal a correct point's reason names (gaps of an independent mutation audit) -----

# `south africa` with the minimal strings `south` (0..5) and `africa` (6..12)
SOUTH_AFRICA = '<E-D-1> :=\n  A: "[south] [africa]" ##0#12#0#5#6#12#\n'


@pytest.mark.parametrize("content", ["clean", "noisy"])
def test_a_correct_reason_names_the_minimal_string_the_hypothesis_contains(content: str) -> None:
    # `africa` contains only the second minimal string: the reason names it, not the first
    content_point, extent_point = run(SOUTH_AFRICA, '<E-D-1> :=\n  A: "africa" ##6#12#\n', content=content).points
    assert content_point.category == extent_point.category == "COR"
    assert content_point.reason.endswith("the minimal string `africa`")
    # the hypothesis extent 6..12 overlaps the minimal extent 6..12, not 0..5 (which ends where it starts)
    assert extent_point.reason == "extent 6..12 enclosed in 0..12, overlaps minimal 6..12"


@pytest.mark.parametrize("content", ["clean", "noisy"])
def test_a_correct_reason_names_the_first_minimal_when_the_hypothesis_holds_both(content: str) -> None:
    # `south africa` contains both minimal strings and its extent overlaps both: the first
    # in the reference's order is named
    content_point, extent_point = run(SOUTH_AFRICA, '<E-D-1> :=\n  A: "south africa" ##0#12#\n', content=content).points
    assert "the minimal string `south`" in content_point.reason
    assert extent_point.reason == "extent 0..12 enclosed in 0..12, overlaps minimal 0..5"


def test_a_reason_of_its_own_is_shown_as_written_even_with_braces() -> None:
    # A noisy reason is a finished text (a template without fields): with punctuation kept,
    # the tokens `{b}` and `{c}` appear in it and must not be read as format fields.
    (point,) = run(
        '<E-D-1> :=\n  A: "{b}"\n', '<E-D-1> :=\n  A: "{c}"\n', content="noisy", keep_punctuation=True
    ).points
    assert point.reason == "hypothesis tokens `{c}` are not a run of the reference `{b}`"
    plain = Verdict("content", "SPU", "no reference fill for this hypothesis fill")
    assert plain.reason_parts() == ("no reference fill for this hypothesis fill", ())


# -- the JSON of a reason (reason_json): the --json writer's quick path -------------------

import json  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hub4eval.scoring.verdicts import reason_json  # noqa: E402

# texts the JSON encoder escapes (quote, backslash, control characters) or keeps (ensure_ascii=False)
_JSON_TEXTS = st.text(alphabet=st.sampled_from(['"', "\\", "\t", "\x01", "é", "\u2028", "a", "b", " ", "{", "}"]))
_EXTENTS = st.one_of(st.none(), st.builds(lambda a, n: Extent(a, a + n), st.integers(0, 9), st.integers(0, 9)))


@st.composite
def _prepared(draw, reference: bool) -> PreparedFill:
    maximal = PreparedString(draw(_JSON_TEXTS), (), draw(_EXTENTS))
    minimals: tuple[PreparedString, ...] = (maximal,)
    enclosure = None
    if reference and draw(st.booleans()):  # minimal strings of its own (brackets), one or two
        minimals = tuple(
            PreparedString(draw(st.sampled_from([maximal.text, maximal.text[:2], "a"])), (), draw(_EXTENTS))
            for _ in range(draw(st.integers(1, 2)))
        )
    if reference and maximal.extent is not None and draw(st.booleans()):  # widened over insertions
        enclosure = Extent(maximal.extent.start, maximal.extent.end + draw(st.integers(0, 3)))
    has_extent = maximal.extent is not None or draw(st.booleans())
    return PreparedFill(TextFill(maximal.text, ((0, len(maximal.text)),)), maximal, minimals, has_extent, enclosure)


def _verdicts(ref: PreparedFill, hyp: PreparedFill, keys: tuple[str, str, str]) -> list[Verdict]:
    ref_pointer, hyp_pointer = PointerFill("E", keys[0], 1), PointerFill("E", keys[1], 2)
    # the reference pointer's instance mapped to nothing, to another instance, or to the one the hypothesis points to
    mapping = {"none": {}, "other": {ref_pointer.key: "<E-x-3>"}, "same": {ref_pointer.key: hyp_pointer.key}}[keys[2]]
    verdicts = list(compare_text(ref, hyp, BOTH)) + list(compare_text(ref, hyp, TextComparison(exact_extent=True)))
    verdicts.append(compare_pointer(ref_pointer, hyp_pointer, mapping))
    verdicts += [unpaired_pointer(hyp_pointer, reference=False), unpaired_pointer(ref_pointer, reference=True)]
    for reference in (True, False):
        verdicts += unpaired_text(ref, ScoreConfig(), reference=reference, optional_slot=True)
    return verdicts


@given(
    _prepared(reference=True),
    _prepared(reference=False),
    st.tuples(_JSON_TEXTS, _JSON_TEXTS, st.sampled_from(["none", "other", "same"])),
)
def test_the_json_of_a_reason_is_the_reason_json_encodes(ref, hyp, keys):
    # the same text as json.dumps gives (ensure_ascii=False, as the --json writer's encoder),
    # before the reason is read (written out for the usual reasons) and after (the kept text)
    fresh = _verdicts(ref, hyp, keys)
    expected = [json.dumps(v.reason, ensure_ascii=False) for v in _verdicts(ref, hyp, keys)]
    assert [reason_json(v) for v in fresh] == expected
    assert [reason_json(v) for v in fresh] == [json.dumps(v.reason, ensure_ascii=False) for v in fresh]


# -- the JSON of a reason given by a point's kind and category (a count's points) ----------

from hub4eval.scoring.verdicts import pointer_reason_json, text_reason_json, unpaired_reason_json  # noqa: E402


@given(
    _prepared(reference=True),
    _prepared(reference=False),
    st.sampled_from([BOTH, TextComparison(noisy=True), TextComparison(exact_extent=True)]),
)
def test_the_reason_of_a_compared_text_point_is_that_of_its_verdict(ref, hyp, how):
    # the category the mapping decided is enough: the reason is the verdict's, read from the same statuses
    for verdict in compare_text(ref, hyp, how):
        assert text_reason_json(verdict.kind, verdict.category == "COR", ref, hyp, how) == reason_json(verdict)


@given(st.tuples(_JSON_TEXTS, _JSON_TEXTS, st.sampled_from(["none", "other", "same"])))
def test_the_reason_of_a_pointer_point_is_that_of_its_verdict(keys):
    ref_pointer, hyp_pointer = PointerFill("E", keys[0], 1), PointerFill("E", keys[1], 2)
    mapped = {"none": None, "other": "<E-x-3>", "same": hyp_pointer.key}[keys[2]]
    mapping = {} if mapped is None else {ref_pointer.key: mapped}
    verdict = compare_pointer(ref_pointer, hyp_pointer, mapping)
    assert pointer_reason_json(ref_pointer, hyp_pointer, mapped) == reason_json(verdict)
    for reference, optional, removed in (
        (False, False, False),
        (True, True, False),
        (True, False, True),
        (True, False, False),
    ):
        fill = ref_pointer if reference else hyp_pointer
        left = unpaired_pointer(fill, reference=reference, optional_slot=optional, removed=removed)
        assert unpaired_reason_json(left.category, fill) == reason_json(left)


@given(_prepared(reference=True))
def test_the_reason_of_a_text_fill_left_over_is_that_of_its_verdict(fill):
    for reference, optional in ((True, False), (True, True), (False, False)):
        for verdict in unpaired_text(fill, ScoreConfig(), reference=reference, optional_slot=optional):
            assert unpaired_reason_json(verdict.category) == reason_json(verdict)
