"""Which instance pairs can score a COR (hub4eval/scoring/candidates.py): tests that
kill its mutants (issue #21). They pin the keys as the module documents them:
extent blocks of 16 offsets, every substring of the maximal string holding a
minimal string, the wildcard only beyond 256 keys, the pair limit."""

from __future__ import annotations

import pytest

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, TextFill
from hub4eval.scoring import candidates
from hub4eval.scoring.candidates import (
    WILDCARD,
    hypothesis_text_keys,
    reference_text_keys,
    sharing_pairs,
)
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.greedy import TooManyPairs
from hub4eval.scoring.verdicts import TextComparison

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
