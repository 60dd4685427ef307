"""The shortcuts of the instance mapping give the procedure's result exactly.

- :mod:`hub4eval.scoring.candidates`: a fill pair that scores a COR always shares a key;
- pointer-only slots are paired in linear time as the greedy would pair them;
- end to end, scoring with the key index equals scoring every pair (the brute-force
  greedy of tests/support/mapping_oracle.py).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import load_glm, score
from hub4eval.config import ScoreConfig
from hub4eval.model import (
    Extent,
    FillAlternative,
    Instance,
    InstanceSet,
    PointerFill,
    Slot,
    TemplateSet,
    TextFill,
)
from hub4eval.scoring import candidates, mapping
from hub4eval.scoring.candidates import (
    WILDCARD,
    hypothesis_pointer_key,
    hypothesis_text_keys,
    reference_pointer_key,
    reference_text_keys,
    sharing_pairs,
)
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.greedy import TooManyPairs, greedy_map
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.verdicts import TextComparison, compare_pointer, compare_text
from hub4eval.text.glm import apply_glm
from tests.support.mapping_oracle import use_brute_force
from tests.support.strategies import template_sets

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Words that exercise §3 and the noisy rules: premodifiers, fillers, fragments,
# parentheses, punctuation, case, GLM spellings.
WORDS = ("The", "the", "cup", "Cup,", "egypt", "uh", "buni-", "bunting", "(uh)", "2-0", "two", "nil", "a", "o'neil")


@st.composite
def contents(draw) -> str:
    return " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5)))


@st.composite
def reference_fills(draw) -> TextFill:
    content = draw(contents())
    spans = ((0, len(content)),)
    if draw(st.booleans()):  # a minimal string: any run of characters inside the content
        a = draw(st.integers(0, len(content)))
        b = draw(st.integers(a, len(content)))
        spans = ((a, b),) + (((0, len(content)),) if draw(st.booleans()) else ())
    extents: tuple[Extent, ...] = ()
    minimal_extents: tuple[Extent, ...] = ()
    if draw(st.booleans()):
        start = draw(st.integers(0, 300))
        extents = (Extent(start, start + len(content) + draw(st.integers(0, 80))),)
        minimal_extents = tuple(Extent(start + a, start + b) for a, b in spans)
    return TextFill(content, spans, extents, minimal_extents, bracketed=len(spans) > 1 or spans[0] != (0, len(content)))


@st.composite
def hypothesis_fills(draw) -> TextFill:
    content = draw(contents())
    extents: tuple[Extent, ...] = ()
    if draw(st.booleans()):
        start = draw(st.integers(0, 300))
        extents = (Extent(start, start + draw(st.integers(0, 40))),)
    return TextFill(content, ((0, len(content)),), extents, extents)


COMPARISONS = [
    TextComparison(content, extent, noisy, frozenset({"uh", "um"}))
    for content in (True, False)
    for extent in (True, False)
    for noisy in (False, True)
    if content or extent
]


@pytest.fixture(scope="module")
def glm_apply():
    glm = load_glm("default")
    return lambda tokens: apply_glm(tokens, glm=glm)


@st.composite
def hypothesis_fills_like(draw, refs: list[TextFill]) -> TextFill:
    """A hypothesis fill, often cut out of a reference fill (content, extent or both)."""
    fill = draw(hypothesis_fills())
    ref = draw(st.sampled_from(refs))
    content = fill.content
    if draw(st.booleans()):
        a = draw(st.integers(0, len(ref.content)))
        content = ref.content[a : draw(st.integers(a, len(ref.content)))] or content
    extents = fill.extents
    if ref.extents and draw(st.booleans()):
        start = draw(st.integers(ref.extent.start, ref.extent.end))
        extents = (Extent(start, draw(st.integers(start, ref.extent.end))),)
    return TextFill(content, ((0, len(content)),), extents, extents)


@pytest.mark.slow
@SETTINGS
@given(st.lists(reference_fills(), min_size=1, max_size=4), st.data())
def test_a_fill_pair_with_a_cor_point_shares_a_key(glm_apply, refs, data):
    hyps = data.draw(st.lists(hypothesis_fills_like(refs), min_size=1, max_size=4))
    config = ScoreConfig()
    ref_prep = FillPreparer(config, glm_apply=glm_apply, reference=True)
    hyp_prep = FillPreparer(config, glm_apply=glm_apply, reference=False)
    prepared_refs = [ref_prep.prepare(f, "D") for f in refs]
    prepared_hyps = [hyp_prep.prepare(f, "D") for f in hyps]
    for how, block in [(how, block) for how in COMPARISONS for block in (64, 5)]:
        with pytest.MonkeyPatch.context() as patch:  # small blocks: extents cross block bounds
            patch.setattr(candidates, "_BLOCK", block)
            shared = sharing_pairs(
                [list(reference_text_keys("S", f, how)) for f in prepared_refs],
                [list(hypothesis_text_keys("S", f, how)) for f in prepared_hyps],
            )
        for i, ref in enumerate(prepared_refs):
            for j, hyp in enumerate(prepared_hyps):
                if any(v.category == "COR" for v in compare_text(ref, hyp, how)):
                    assert (i, j) in shared, (how, ref, hyp)


def test_keys_tell_apart_fills_that_cannot_score():
    config = ScoreConfig()
    prep = FillPreparer(config, reference=True)
    how = TextComparison(True, True, False)
    ref = prep.prepare(TextFill("Egypt", ((0, 5),), (Extent(0, 5),), (Extent(0, 5),)), "D")
    far = prep.prepare(TextFill("Ghana", ((0, 5),), (Extent(900, 905),), (Extent(900, 905),)), "D")
    near = prep.prepare(TextFill("Ghana", ((0, 5),), (Extent(2, 5),), (Extent(2, 5),)), "D")
    same = prep.prepare(TextFill("egypt", ((0, 5),), (Extent(900, 905),), (Extent(900, 905),)), "D")
    shared = sharing_pairs(
        [list(reference_text_keys("S", ref, how))],
        [list(hypothesis_text_keys("S", f, how)) for f in (far, near, same)],
    )
    assert shared == {(0, 1), (0, 2)}  # `far` differs in content and extent: never counted
    other_slot = sharing_pairs([list(reference_text_keys("S", ref, how))], [list(hypothesis_text_keys("T", same, how))])
    assert other_slot == set()


def test_a_reference_fill_with_too_many_substrings_matches_its_whole_slot():
    config = ScoreConfig()
    how = TextComparison(True, False, False)
    content = "x" * 80
    ref = FillPreparer(config, reference=True).prepare(TextFill(content, ((40, 41),)), "D")
    hyp = FillPreparer(config, reference=False).prepare(TextFill("unrelated", ((0, 9),)), "D")
    assert candidates.WILDCARD in set(reference_text_keys("S", ref, how))
    assert sharing_pairs([list(reference_text_keys("S", ref, how))], [list(hypothesis_text_keys("S", hyp, how))]) == {
        (0, 0)
    }


def test_pointer_keys_follow_the_instance_mapping():
    ref = PointerFill("EV", "D", 1)
    mapped = {ref.key: "<EV-D-7>"}
    assert reference_pointer_key("E", ref, mapped) == hypothesis_pointer_key("E", PointerFill("EV", "D", 7))
    assert reference_pointer_key("E", ref, {}) is None


# -- greedy over promising pairs -------------------------------------------------

counts = st.builds(
    Counts,
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 1),
    st.integers(0, 1),
)


# -- pointer slots ----------------------------------------------------------------

pointers = st.builds(PointerFill, st.just("EV"), st.just("D"), st.integers(1, 4))


@SETTINGS
@given(
    st.lists(pointers, max_size=6),
    st.lists(pointers, max_size=6),
    st.dictionaries(st.integers(1, 4), st.integers(1, 4)),
)
def test_pointer_slots_pair_as_the_greedy_does(refs, hyps, numbers):
    instance_mapping = {f"<EV-D-{a}>": f"<EV-D-{b}>" for a, b in numbers.items()}
    candidates = []
    for i, ref in enumerate(refs):
        for j, hyp in enumerate(hyps):
            verdict = compare_pointer(ref, hyp, instance_mapping)
            candidates.append((i, j, Counts.of(verdict.category)))
    expected = sorted((i, j) for i, j, _ in greedy_map(candidates, lambda c: c))
    assert sorted(mapping._pointer_pairs(refs, hyps, instance_mapping)) == expected


# -- end to end ---------------------------------------------------------------------


def _scored(ref, hyp, config, brute_force, monkeypatch):
    with monkeypatch.context() as patch:
        if brute_force:
            use_brute_force(patch)
        return json.dumps(score(ref, hyp, config=config).to_json(), sort_keys=True)


@pytest.mark.slow
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    template_sets(reference=True, max_events=7),
    template_sets(reference=False, max_events=7),
    st.sampled_from(["both", "content", "extent"]),
    st.sampled_from(["clean", "noisy"]),
    st.sampled_from([None, 0.0, 0.5]),
)
def test_scoring_with_the_key_index_equals_scoring_every_pair(monkeypatch, ref, hyp, compare, content, min_f):
    config = ScoreConfig(compare=compare, content=content, min_map_f=min_f)
    assert _scored(ref, hyp, config, False, monkeypatch) == _scored(ref, hyp, config, True, monkeypatch)


def test_many_events_of_one_document_score_as_with_every_pair(monkeypatch):
    """A larger, hand-built document: 30 events each side, shuffled, some changed."""

    def event(number: int, winner: str, start: int) -> Instance:
        fill = TextFill(
            winner, ((0, len(winner)),), (Extent(start, start + len(winner)),), (Extent(start, start + len(winner)),)
        )
        return Instance("EV", "D1", number, (Slot("WINNER", (FillAlternative((fill,)),)),))

    names = [f"team {k}" for k in range(30)]
    refs = [event(k + 1, names[k], 20 * k) for k in range(30)]
    hyps = [event(k + 1, names[(7 * k) % 30] if k % 5 else "nobody", 20 * ((7 * k) % 30) + (k % 3)) for k in range(30)]
    template = lambda events, role: Instance(  # noqa: E731
        "TEMPLATE",
        "D1",
        1,
        (Slot("EVENT", (FillAlternative(tuple(PointerFill("EV", "D1", e.number) for e in events)),)),),
    )
    ref = TemplateSet((InstanceSet("D1", (template(refs, "r"), *refs)),), role="reference")
    hyp = TemplateSet((InstanceSet("D1", (template(hyps, "h"), *hyps)),), role="hypothesis")
    for config in (ScoreConfig(), ScoreConfig(content="noisy"), ScoreConfig(compare="extent")):
        assert _scored(ref, hyp, config, False, monkeypatch) == _scored(ref, hyp, config, True, monkeypatch)
    result = score(ref, hyp)
    assert result.total.cor > 0 and result.total.inc > 0


def test_a_possessive_shares_the_key_of_the_word_without_it(monkeypatch):
    """Noisy content compares words less a trailing possessive, so the keys do
    too: `clinton aides` can be COR against `Clinton's aides`, and the key
    index must count that pair before the F = 0 pairs (it did not: the pair
    went to the leftovers and was mapped to another instance)."""

    def event(number: int, text: str, start: int) -> Instance:
        extent = (Extent(start, start + len(text)),)
        fill = TextFill(text, ((0, len(text)),), extent, extent)
        return Instance("EV", "D1", number, (Slot("WINNER", (FillAlternative((fill,)),)),))

    refs = [event(1, "Clinton's aides", 0)] + [event(k + 2, f"team{k}", 100 * k + 1000) for k in range(4)]
    hyps = [event(k + 1, f"other{k}", 100 * k + 9000) for k in range(4)] + [event(5, "clinton aides", 5000)]
    ref = TemplateSet((InstanceSet("D1", tuple(refs)),), role="reference")
    hyp = TemplateSet((InstanceSet("D1", tuple(hyps)),), role="hypothesis")
    config = ScoreConfig(content="noisy", compare="content")
    assert _scored(ref, hyp, config, False, monkeypatch) == _scored(ref, hyp, config, True, monkeypatch)
    assert score(ref, hyp, config=config).total.cor == 1


def test_the_key_of_a_noisy_hypothesis_is_its_longest_kept_word():
    from hub4eval.scoring.candidates import hypothesis_text_keys
    from hub4eval.scoring.fills import FillPreparer

    config = ScoreConfig(content="noisy")
    prepare = FillPreparer(config, reference=False, tokens=True).prepare
    how = TextComparison.of(config, noisy=True)
    keys = [
        hypothesis_text_keys("X", prepare(TextFill(t, ((0, len(t)),)), "D"), how)
        for t in ("uh of Clinton's y", "uh", "ab cd")
    ]
    assert keys == [[("w", "X", "clinton")], [("w", "X", "")], [("w", "X", "ab")]]


# ----------------------------------------------------------------------------
# Tests that kill mutants of hub4eval/scoring/candidates.py (mutation runs, tools/mutate.py; issue #21)
# Which instance pairs can score a COR (hub4eval/scoring/candidates.py): tests that
# kill its mutants (issue #21). They pin the keys as the module documents them:
# extent blocks of 16 offsets, every substring of the maximal string holding a
# minimal string, the wildcard only beyond 256 keys, the pair limit.
# ----------------------------------------------------------------------------

CONTENT = TextComparison(True, False, False)
EXTENT = TextComparison(False, True, False)


def ref_fill(content: str, spans, extent: Extent | None = None):
    extents = (extent,) if extent is not None else ()
    minimal = tuple(Extent(extent.start + a, extent.start + b) for a, b in spans) if extent is not None else ()
    fill = TextFill(content, tuple(spans), extents, minimal, bracketed=True)
    return FillPreparer(ScoreConfig(), reference=True).prepare(fill, "D")


def hyp_fill(content: str, extent: Extent | None = None):
    extents = (extent,) if extent is not None else ()
    fill = TextFill(content, ((0, len(content)),), extents, extents)
    return FillPreparer(ScoreConfig(), reference=False).prepare(fill, "D")


# ---------------------------------------------------------------- extent blocks


B = 16  # offsets per extent block, as the module documents it


def test_extent_blocks_are_16_offsets_wide() -> None:
    assert candidates._BLOCK == B


@pytest.mark.parametrize(("start", "block"), [(0, 0), (B - 1, 0), (B, 1), (2 * B - 1, 1), (2 * B, 2)])
def test_a_hypothesis_extent_key_is_the_block_of_its_start(start: int, block: int) -> None:
    assert hypothesis_text_keys("S", hyp_fill("x", Extent(start, start + 1)), EXTENT) == [("x", "S", block)]


@pytest.mark.parametrize(
    ("extent", "blocks"),
    [
        (Extent(0, B - 1), [0]),
        (Extent(0, B), [0, 1]),
        (Extent(B - 1, B), [0, 1]),
        (Extent(B + 6, 3 * B + 8), [1, 2, 3]),
    ],
)
def test_a_reference_extent_has_the_key_of_every_block_it_covers(extent: Extent, blocks: list[int]) -> None:
    keys = reference_text_keys("S", ref_fill("x", [(0, 1)], extent), EXTENT)
    assert keys == [("x", "S", b) for b in blocks]


def test_a_reference_extent_over_256_blocks_or_more_gets_the_wildcard() -> None:
    """256 keys (blocks 0..255) are kept; one more block (0..256) is too many."""
    kept = reference_text_keys("S", ref_fill("x", [(0, 1)], Extent(0, 255 * B)), EXTENT)
    assert kept == [("x", "S", b) for b in range(256)]
    assert reference_text_keys("S", ref_fill("x", [(0, 1)], Extent(0, 256 * B)), EXTENT) == [WILDCARD]


def test_only_hypotheses_starting_inside_the_reference_blocks_pair_with_it() -> None:
    ref = reference_text_keys("S", ref_fill("x", [(0, 1)], Extent(B, 2 * B - 1)), EXTENT)
    hyps = [hypothesis_text_keys("S", hyp_fill("x", Extent(s, s + 1)), EXTENT) for s in (10, B, 2 * B - 1, 2 * B)]
    assert sharing_pairs([ref], hyps) == {(0, 1), (0, 2)}


# ---------------------------------------------------------------- content substrings


def content_keys(content: str, spans) -> set:
    keys = reference_text_keys("S", ref_fill(content, spans), CONTENT)
    assert WILDCARD not in keys
    return {text for kind, slot, text in keys if kind == "c" and slot == "S"}


def test_content_keys_are_the_substrings_holding_a_minimal_string() -> None:
    """`abcde` with minimal `c` (at 2): starts 0..2, ends 3..5, 3 x 3 substrings."""
    expected = {"abcde"[a:b] for a in range(3) for b in range(3, 6)}
    assert len(expected) == 9
    assert content_keys("abcde", [(2, 3)]) == expected


def test_content_keys_of_a_minimal_string_at_the_start_or_the_end() -> None:
    assert content_keys("abcde", [(0, 2)]) == {"ab", "abc", "abcd", "abcde"}
    assert content_keys("abcde", [(3, 5)]) == {"de", "cde", "bcde", "abcde"}


def test_content_keys_of_a_minimal_string_found_twice() -> None:
    """`xaya` with minimal `a`: every substring holding the first or the second `a`."""
    expected = {"xaya"[s:e] for at in (1, 3) for s in range(at + 1) for e in range(at + 1, 5)}
    assert content_keys("xaya", [(1, 2)]) == expected


def test_two_minimal_strings_give_the_keys_of_both() -> None:
    expected = {"abcd"[s:e] for at in (0, 3) for s in range(at + 1) for e in range(at + 1, 5)}
    assert content_keys("abcd", [(0, 1), (3, 4)]) == expected


def test_a_hypothesis_inside_the_maximal_string_holding_the_minimal_one_pairs_with_it() -> None:
    ref = reference_text_keys("S", ref_fill("abcde", [(2, 3)]), CONTENT)
    hyps = [hypothesis_text_keys("S", hyp_fill(text), CONTENT) for text in ("bcd", "ab", "abcde", "c", "de")]
    assert sharing_pairs([ref], hyps) == {(0, 0), (0, 2), (0, 3)}


def test_256_content_keys_are_kept_and_257_give_the_wildcard() -> None:
    """A minimal `a` at the start of `a` + n x `b` is held by the n + 1 prefixes from it."""
    kept = content_keys("a" + "b" * 255, [(0, 1)])
    assert len(kept) == 256
    many = reference_text_keys("S", ref_fill("a" + "b" * 256, [(0, 1)]), CONTENT)
    assert many == [WILDCARD]


def test_a_bound_counts_the_substrings_of_every_minimal_occurrence() -> None:
    """`a` at 15 of 31 distinct characters: 16 starts x 16 ends = 256 keys, kept."""
    text = "bcdefghijklmnop" + "a" + "qrstuvwxyz01234"
    assert len(text) == 31 and text.index("a") == 15
    assert len(content_keys(text, [(15, 16)])) == 256
    # one more character after the `a`: 16 x 17 = 272 > 256
    assert reference_text_keys("S", ref_fill(text + "5", [(15, 16)]), CONTENT) == [WILDCARD]


# ---------------------------------------------------------------- sharing pairs


def test_a_hypothesis_holding_a_key_twice_pairs_once_and_others_still_pair() -> None:
    ref = [("c", "S", "k")]
    hyps = [[("c", "S", "k"), ("c", "S", "k")], [("c", "S", "k")], [("c", "S", "z")], [("c", "S", "k")]]
    assert sharing_pairs([ref], hyps) == {(0, 0), (0, 1), (0, 3)}


def test_the_wildcard_pairs_with_every_hypothesis_and_only_it_does() -> None:
    hyps = [[("c", "S", "k")], [("x", "S", 3)], []]
    assert sharing_pairs([[WILDCARD], [("c", "S", "k")]], hyps) == {(0, 0), (0, 1), (0, 2), (1, 0)}


def test_the_pair_limit_allows_exactly_the_limit() -> None:
    refs = [[("c", "S", "k")], [("c", "S", "k")]]
    hyps = [[("c", "S", "k")], [("c", "S", "k")]]
    assert len(sharing_pairs(refs, hyps, limit=4)) == 4
    with pytest.raises(TooManyPairs) as caught:
        sharing_pairs(refs, hyps, limit=3)
    assert caught.value.count == 4
