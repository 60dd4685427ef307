"""Tests of the §7.2 word aligner: costs, the procedure example, the numba kernels
against the pure-Python reference DP (property tests), the seeded route for long
inputs, the batch entry point, and cross-checks with jiwer."""

from __future__ import annotations

import subprocess
import sys

import jiwer
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from hub4eval.text.align import (
    DELETION,
    INSERTION,
    MATCH,
    SUBSTITUTION,
    Alignment,
    align_many,
    align_words,
    codes,
    costs,
    exact,
    kernels,
    seeded,
    substitution_cost,
)
from hub4eval.text.align.costs import _align_reference, _column_cost

# monkeypatch sets the same module constants for every example, so a
# function-scoped fixture is fine here.
_QUIET = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=_QUIET)
FEW = settings(max_examples=40, deadline=None, suppress_health_check=_QUIET)

# A small vocabulary makes repeats, ties, cheap fragment pairs and similar spellings likely.
VOCAB = ("the", "a", "heart", "part", "hearts", "h-", "he-", "pa-", "of", "uh", "general", "motors", "mot-")
words = st.lists(st.sampled_from(VOCAB), max_size=14)


@st.composite
def related_pairs(draw, max_size: int = 30):
    """(ref, hyp) where hyp is ref edited: shared stretches with substitutions, deletions, insertions."""
    ref = draw(st.lists(st.sampled_from(VOCAB), max_size=max_size))
    hyp: list[str] = []
    for word in ref:
        op = draw(st.sampled_from(("keep", "keep", "keep", "sub", "del", "ins")))
        if op == "keep":
            hyp.append(word)
        elif op == "sub":
            hyp.append(draw(st.sampled_from(VOCAB)))
        elif op == "ins":
            hyp += [draw(st.sampled_from(VOCAB)), word]
    return ref, hyp


pairs = st.one_of(st.tuples(words, words), related_pairs())


def assert_valid(al: Alignment, ref: list[str], hyp: list[str]) -> None:
    """Columns cover every index once, in order; kinds agree with the words; cost is the columns' cost."""
    r, h, k = al.ref_index, al.hyp_index, al.kinds
    assert r.dtype == np.int32 and h.dtype == np.int32
    assert len(r) == len(h) == len(k) == al.columns
    assert np.array_equal(r[r >= 0], np.arange(len(ref)))
    assert np.array_equal(h[h >= 0], np.arange(len(hyp)))
    assert not np.any((r < 0) & (h < 0))
    for i, j, kind in zip(r.tolist(), h.tolist(), k.tolist(), strict=False):
        if i < 0:
            assert kind == INSERTION
        elif j < 0:
            assert kind == DELETION
        else:
            assert kind == (MATCH if ref[i] == hyp[j] else SUBSTITUTION)
    assert al.cost == _column_cost(ref, hyp, al)
    assert al.matches + al.substitutions + al.deletions + al.insertions == al.columns


def same_columns(a: Alignment, b: Alignment) -> bool:
    return (
        a.cost == b.cost
        and np.array_equal(a.ref_index, b.ref_index)
        and np.array_equal(a.hyp_index, b.hyp_index)
        and np.array_equal(a.kinds, b.kinds)
    )


# --- costs ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "cost"),
    [
        ("heart", "heart", 0),
        ("h-", "heart", 100),  # fragment whose stem prefixes the word
        ("heart", "h-", 100),
        ("h-", "h", 100),
        ("hea-", "heart", 100),
        ("he-", "h", 333),  # stem "he" does not prefix "h": lev 2 of max 3
        ("h-", "part", 400),
        ("heart", "part", 280),  # lev 2 of max 5
        ("hearts", "heart", 233),  # lev 1 of max 6: 200 + 33.3
        ("a", "the", 400),
        ("general", "generally", 244),  # lev 2 of max 9: 200 + 44.4
    ],
)
def test_substitution_cost_table(a: str, b: str, cost: int) -> None:
    assert substitution_cost(a, b) == cost


@given(st.text(min_size=1, max_size=12), st.text(min_size=1, max_size=12))
@PROPERTY
def test_substitution_cost_bounds(a: str, b: str) -> None:
    cost = substitution_cost(a, b)
    assert cost == substitution_cost(b, a)
    if a == b:
        assert cost == 0
    elif cost != costs.FRAGMENT:
        assert 200 <= cost <= 400 < 2 * costs.INDEL


word_text = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=10)
maybe_fragment = st.one_of(word_text, word_text.map(lambda w: w + "-"))


@given(st.lists(maybe_fragment, min_size=1, max_size=8))
@PROPERTY
def test_kernel_costs_match_rapidfuzz(vocab: list[str]) -> None:
    """The numba Levenshtein on code points (any Unicode, fragments) agrees with rapidfuzz."""
    k = kernels._kernels()
    (coded,), voc = codes._encode([vocab])
    buf = np.empty(voc.maxlen + 2, np.int64)
    for x, a in zip(coded.tolist(), vocab, strict=False):
        for y, b in zip(coded.tolist(), vocab, strict=False):
            assert k.lev(voc.chars, voc.offs, x, y, buf) == Levenshtein.distance(a, b)
            assert k.sub_cost(x, y, voc.chars, voc.offs, voc.frag, buf) == substitution_cost(a, b)


# --- alignments ---------------------------------------------------------------


def test_procedure_example() -> None:
    """§7.3: THE/A, H- deleted, HEART/PART, then matches; six columns."""
    ref = "the h- heart of general motors".split()
    hyp = "a part of general motors".split()
    al = align_words(ref, hyp)
    assert al.ref_index.tolist() == [0, 1, 2, 3, 4, 5]
    assert al.hyp_index.tolist() == [0, -1, 1, 2, 3, 4]
    assert al.kinds.tolist() == [SUBSTITUTION, DELETION, SUBSTITUTION, MATCH, MATCH, MATCH]
    assert al.cost == 400 + 300 + 280
    assert (al.matches, al.substitutions, al.deletions, al.insertions) == (3, 2, 1, 0)
    assert al.wer == 0.5
    assert same_columns(al, _align_reference(ref, hyp))


def test_heart_part_is_a_substitution_and_fragment_beats_other_words() -> None:
    assert align_words(["heart"], ["part"]).kinds.tolist() == [SUBSTITUTION]
    # The fragment pairs with the word it prefixes, not with its neighbour.
    al = align_words(["x", "heart"], ["h-"])
    assert al.hyp_index.tolist() == [-1, 0]


@pytest.mark.parametrize(
    ("ref", "hyp", "cost", "wer"),
    [
        ([], [], 0, None),
        ([], ["a", "b"], 600, None),
        (["a", "b"], [], 600, 1.0),
        (["a"], ["a"], 0, 0.0),
    ],
)
def test_empty_and_trivial(ref: list[str], hyp: list[str], cost: int, wer: float | None) -> None:
    al = align_words(ref, hyp)
    assert al.cost == cost and al.wer == wer and al.exact
    assert_valid(al, ref, hyp)


@given(pairs)
@PROPERTY
def test_kernel_equals_reference_dp(pair: tuple[list[str], list[str]]) -> None:
    """Same columns, cost and kinds as the pure-Python full-matrix DP (same tie-breaking)."""
    ref, hyp = pair
    al = align_words(ref, hyp)
    assert al.exact
    assert_valid(al, ref, hyp)
    assert same_columns(al, _align_reference(ref, hyp))


@given(pairs)
@FEW
def test_cost_is_symmetric(pair: tuple[list[str], list[str]]) -> None:
    ref, hyp = pair
    assert align_words(ref, hyp).cost == align_words(hyp, ref).cost


# --- the routes used for long inputs, forced on small ones ---------------------


@given(pair=pairs)
@FEW
def test_hirschberg_is_optimal(pair: tuple[list[str], list[str]], monkeypatch) -> None:
    ref, hyp = pair
    monkeypatch.setattr(exact, "FULL_CELLS", 4)  # recurse down to tiny leaves
    k = kernels._kernels()
    (rc, hc), voc = codes._encode((ref, hyp))
    cols = codes._Columns()
    cost = exact._hirschberg(k, rc, hc, voc, 0, 0, cols)
    r, h, kinds = cols.arrays()
    al = Alignment(r.astype(np.int32), h.astype(np.int32), cost, kinds)
    assert_valid(al, ref, hyp)
    assert cost == _align_reference(ref, hyp).cost


@given(pairs)
@PROPERTY
def test_certified_band_is_optimal(pair: tuple[list[str], list[str]]) -> None:
    """Started at the narrowest band (no upper bound) and widened once, the band DP is optimal."""
    ref, hyp = pair
    k = kernels._kernels()
    (rc, hc), voc = codes._encode((ref, hyp))
    for start in (0, 1):
        old = exact._BAND_START
        exact._BAND_START = start
        try:
            result = exact._certified_band(k, rc, hc, voc, 0, 0, None, 10**9)
        finally:
            exact._BAND_START = old
        assert result is not None
        al = Alignment(result[1], result[2], result[0], result[3])
        assert_valid(al, ref, hyp)
        assert al.cost == _align_reference(ref, hyp).cost


@given(pair=related_pairs(max_size=60))
@PROPERTY
def test_seeded_route_is_certified_when_the_band_fits(pair, monkeypatch) -> None:
    """Anchoring + gap DPs, then the certifying band: optimal, flagged exact."""
    ref, hyp = pair
    monkeypatch.setattr(exact, "FULL_CELLS", 0)
    al = align_words(ref, hyp)
    assert_valid(al, ref, hyp)
    assert al.exact
    assert al.cost == _align_reference(ref, hyp).cost


@pytest.mark.slow
@given(pair=related_pairs(max_size=60))
@PROPERTY
def test_seeded_route_without_certification(pair, monkeypatch) -> None:
    """With no band budget the seeded alignment stays valid and never beats the optimum;
    it is flagged exact only when no anchor was used (then the gap DP is the whole DP)."""
    ref, hyp = pair
    monkeypatch.setattr(exact, "FULL_CELLS", 2)
    monkeypatch.setattr(exact, "BAND_MAX_CELLS", 0)
    al = align_words(ref, hyp)
    assert_valid(al, ref, hyp)
    best = _align_reference(ref, hyp).cost
    assert al.cost >= best
    if al.exact:
        assert al.cost == best


@given(pair=related_pairs(max_size=40), budget=st.integers(0, 300))
@PROPERTY
def test_gap_fallbacks_without_hirschberg_budget(pair, budget: int, monkeypatch) -> None:
    """Gaps beyond every budget: the widest band that fits (not certified), or Hirschberg."""
    ref, hyp = pair
    monkeypatch.setattr(exact, "FULL_CELLS", 2)
    monkeypatch.setattr(exact, "HIRSCHBERG_MAX_CELLS", 0)
    monkeypatch.setattr(exact, "BAND_MAX_CELLS", budget)
    al = align_words(ref, hyp)
    assert_valid(al, ref, hyp)
    best = _align_reference(ref, hyp).cost
    assert al.cost >= best
    if al.exact:
        assert al.cost == best


@given(st.integers(0, 30), st.integers(0, 30), st.integers(-40, 5), st.integers(-5, 40))
@FEW
def test_band_cells_counts_the_kernel_allocation(n: int, m: int, dlo: int, dhi: int) -> None:
    dlo, dhi = min(dlo, 0, n - m), max(dhi, 0, n - m)
    expected = sum(1 for i in range(n + 1) for j in range(m + 1) if dlo <= i - j <= dhi)
    assert exact._band_cells(n, m, dlo, dhi) == expected


def test_anchor_runs_follow_unique_ngrams() -> None:
    k = kernels._kernels()
    ref = "a b c d e f g h x y".split()
    hyp = "a b c d e f g h z y".split()
    (rc, hc), _ = codes._encode((ref, hyp))
    rs, hs, ln = seeded._anchor_runs(k, rc, hc, 4)
    assert (rs.tolist(), hs.tolist(), ln.tolist()) == ([0], [0], [8])
    # A repeated 4-gram ("p q r s") is no anchor; overlapping anchors on one diagonal merge.
    ref = "p q r s t u v w p q r s".split()
    hyp = "t u v w p q r s".split()
    (rc, hc), _ = codes._encode((ref, hyp))
    rs, hs, ln = seeded._anchor_runs(k, rc, hc, 4)
    assert (rs.tolist(), hs.tolist(), ln.tolist()) == ([4], [0], [7])
    # Crossing anchors: the increasing chain keeps one of them.
    ref = "a b c d x y z w".split()
    hyp = "x y z w a b c d".split()
    (rc, hc), _ = codes._encode((ref, hyp))
    rs, hs, ln = seeded._anchor_runs(k, rc, hc, 4)
    assert (rs.tolist(), hs.tolist(), ln.tolist()) == ([4], [0], [4])


def _corpus(n: int, error_rate: float, seed: int) -> tuple[list[str], list[str]]:
    """A Zipf-like corpus and a hypothesis with substitutions, deletions, insertions and fragments."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(max(50, n // 10))]
    ranks = np.arange(1, len(vocab) + 1) ** -1.1
    ref = [vocab[i] for i in rng.choice(len(vocab), size=n, p=ranks / ranks.sum())]
    hyp: list[str] = []
    for word, u in zip(ref, rng.random(n), strict=False):
        if u < error_rate * 0.4:
            hyp.append(vocab[rng.integers(len(vocab))])
        elif u < error_rate * 0.6:
            continue
        elif u < error_rate * 0.8:
            hyp += ["uh", word]
        elif u < error_rate:
            hyp += [word[:2] + "-", word]
        else:
            hyp.append(word)
    return ref, hyp


def test_medium_input_is_certified_optimal() -> None:
    """3,000 words at 15% errors: seeded, then certified by the band; Hirschberg agrees on the cost."""
    ref, hyp = _corpus(3000, 0.15, 7)
    al = align_words(ref, hyp)
    assert al.exact
    assert_valid(al, ref, hyp)
    k = kernels._kernels()
    (rc, hc), voc = codes._encode((ref, hyp))
    assert exact._hirschberg(k, rc, hc, voc, 0, 0, codes._Columns()) == al.cost


@pytest.mark.slow
def test_long_input_linear_route() -> None:
    """200,000 words: too long for a certifying band, so the seeded alignment (valid, exact=False)."""
    ref, hyp = _corpus(200_000, 0.15, 3)
    al = align_words(ref, hyp)
    r, h = al.ref_index, al.hyp_index
    assert np.array_equal(r[r >= 0], np.arange(len(ref)))
    assert np.array_equal(h[h >= 0], np.arange(len(hyp)))
    assert not al.exact
    assert al.cost == int(np.where(al.kinds >= DELETION, costs.INDEL, 0).sum()) + sum(
        substitution_cost(ref[i], hyp[j])
        for i, j in zip(r[al.kinds == SUBSTITUTION].tolist(), h[al.kinds == SUBSTITUTION].tolist(), strict=False)
    )
    assert 0.10 < al.wer < 0.25


# --- batch entry point --------------------------------------------------------


@given(st.lists(pairs, max_size=8))
@FEW
def test_align_many_equals_align_words(batch) -> None:
    many = align_many(batch)
    assert len(many) == len(batch)
    for (ref, hyp), al in zip(batch, many, strict=False):
        assert_valid(al, ref, hyp)
        assert same_columns(al, align_words(ref, hyp))


def test_align_many_long_pair_falls_back(monkeypatch) -> None:
    monkeypatch.setattr(exact, "FULL_CELLS", 10)
    batch = [("a b c d e".split(), "a x c d".split()), (["a"], ["b"])]
    many = align_many(batch)
    for (ref, hyp), al in zip(batch, many, strict=False):
        assert_valid(al, ref, hyp)
        assert al.cost == _align_reference(ref, hyp).cost
    assert align_many([]) == []


# --- cross-checks with jiwer (unit costs) ---------------------------------------


def _jiwer_alignment(ref: list[str], hyp: list[str]) -> tuple[int, Alignment]:
    """jiwer's minimum number of errors and its alignment, as our columns."""
    out = jiwer.process_words(" ".join(ref), " ".join(hyp))
    rows: list[tuple[int, int]] = []
    for chunk in out.alignments[0]:
        if chunk.type in ("equal", "substitute"):
            rows += zip(
                range(chunk.ref_start_idx, chunk.ref_end_idx),
                range(chunk.hyp_start_idx, chunk.hyp_end_idx),
                strict=False,
            )
        elif chunk.type == "delete":
            rows += [(i, -1) for i in range(chunk.ref_start_idx, chunk.ref_end_idx)]
        else:
            rows += [(-1, j) for j in range(chunk.hyp_start_idx, chunk.hyp_end_idx)]
    r = np.array([x for x, _ in rows], dtype=np.int32)
    h = np.array([y for _, y in rows], dtype=np.int32)
    return out.substitutions + out.deletions + out.insertions, Alignment(r, h, 0, np.zeros(len(rows), np.int8))


@given(pairs.filter(lambda p: p[0] and p[1]))
@FEW
def test_against_jiwer(pair: tuple[list[str], list[str]]) -> None:
    """What is true for any inputs: jiwer minimizes the error count, we minimize the weighted cost.

    So our error count is at least jiwer's, and jiwer's alignment costs at
    least ours under the §7 costs. (They can differ: three cheap substitutions
    can beat a deletion plus an insertion around two matches.)
    """
    ref, hyp = pair
    ours = align_words(ref, hyp)
    jiwer_errors, theirs = _jiwer_alignment(ref, hyp)
    assert ours.errors >= jiwer_errors
    assert _column_cost(ref, hyp, theirs) >= ours.cost


@given(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=25), st.data())
@FEW
def test_error_counts_equal_jiwer_when_only_deletions_or_insertions_are_needed(ref, data) -> None:
    """When one side is a subsequence of the other, both find exactly ``len`` difference errors."""
    keep = data.draw(st.lists(st.booleans(), min_size=len(ref), max_size=len(ref)))
    sub = [w for w, k in zip(ref, keep, strict=False) if k]
    ours = align_words(ref, sub)
    assert ours.errors == ours.deletions == len(ref) - len(sub)
    if sub:  # jiwer rejects an empty reference
        assert ours.errors == _jiwer_alignment(ref, sub)[0]
        back = align_words(sub, ref)
        assert back.errors == back.insertions == _jiwer_alignment(sub, ref)[0]


def test_wer_matches_jiwer_on_a_corpus() -> None:
    """On a realistic corpus the error counts agree to within a fraction of a percent."""
    ref, hyp = _corpus(5000, 0.15, 11)
    ours = align_words(ref, hyp)
    theirs = jiwer.process_words(" ".join(ref), " ".join(hyp))
    assert ours.wer >= theirs.wer
    assert ours.wer - theirs.wer < 0.005


# --- packaging ------------------------------------------------------------------


def test_numba_is_imported_lazily() -> None:
    code = (
        "import sys, runpy\n"
        "import hub4eval.text.align\n"
        "sys.argv = ['hub4eval', '--help']\n"
        "try:\n    runpy.run_module('hub4eval', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "assert 'numba' not in sys.modules, 'numba imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("cost", "delta"), [(0, 0), (300, 0), (469_517, 3), (469_500, 3), (601, -5), (5000, 40)])
def test_certifying_width_reaches_the_cost(cost: int, delta: int) -> None:
    w = exact._certifying_width(cost, delta)
    assert costs.INDEL * (abs(delta) + 2 * w + 2) >= cost
    assert w == 0 or costs.INDEL * (abs(delta) + 2 * (w - 1) + 2) < cost


def test_only_the_package_module_writes_numba_cache(monkeypatch) -> None:
    """A copy imported under another name must not write cache entries hub4eval.text.align cannot load."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("align_copy", kernels.__file__)
    copy = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "align_copy", copy)
    spec.loader.exec_module(copy)
    assert type(copy._kernels().band._cache).__name__ == "NullCache"
    assert type(kernels._kernels().band._cache).__name__ != "NullCache"


# ----------------------------------------------------------------------------
# Rules the scoring specification v1.1 pinned down (issue #15): alignment costs and the tie rule
# ----------------------------------------------------------------------------


# Alignment costs and the tie rule (kept) -----------------------------------------


MAT, SUB, DEL, INS = MATCH, SUBSTITUTION, DELETION, INSERTION


def _columns(ref: str, hyp: str):
    r, h = ref.split(), hyp.split()
    a = align_words(r, h)
    cols = [
        (r[i] if i >= 0 else "", h[j] if j >= 0 else "", k)
        for i, j, k in zip(a.ref_index.tolist(), a.hyp_index.tolist(), a.kinds.tolist(), strict=True)
    ]
    return cols, a.cost


def test_substitution_costs_on_the_hundredths_scale():
    assert substitution_cost("heart", "heart") == 0
    assert substitution_cost("h-", "heart") == 100  # fragment whose stem `h` prefixes the word
    # heart/part: lev 2 (h->p, drop e), max length 5: 200 + 200*2/5 = 280
    assert substitution_cost("heart", "part") == 280
    # the/a: lev 3, max 3: 200 + 200 = 400; h-/a: `h` does not prefix `a`, lev 2, max 2: 400
    assert substitution_cost("the", "a") == 400 and substitution_cost("h-", "a") == 400
    # one letter differs in 16: 200 * 1/16 = 12.5, rounded half up to 13 (not to the even 12)
    assert substitution_cost("abcdefghijklmnop", "abcdefghijklmnoq") == 213
    assert substitution_cost("-", "a") == 400  # `-` alone is not a fragment: lev 1, max 1 -> 200 + 200


def test_general_motors_figure():
    # THE/A 400 + H- deleted 300 + HEART/PART 280 = 980. The other path of the same cost
    # (THE deleted 300 + H-/A 400 + HEART/PART 280 = 980) loses the tie: tracing back from the
    # end, at (the h-, a) a deletion (of h-) and the diagonal (h-/a) both cost 700, and the
    # deletion is preferred.
    cols, cost = _columns("the h- heart of general motors", "a part of general motors")
    assert cost == 980
    assert cols == [
        ("the", "a", SUB),
        ("h-", "", DEL),
        ("heart", "part", SUB),
        ("of", "of", MAT),
        ("general", "general", MAT),
        ("motors", "motors", MAT),
    ]
    assert [c for c, (_, h, _) in enumerate(cols) if h in ("general", "motors")] == [4, 5]  # ##4#5#


def test_tie_between_two_equal_cost_paths():
    # ref x y, hyp z: `x/z + y deleted` and `x deleted + y/z` both cost 400 + 300 = 700.
    # From the end (y, z): deletion of y (cost(x, z) 400 + 300) ties the diagonal y/z
    # (cost(x, -) 300 + 400); deletion first: y is deleted, x/z substituted.
    cols, cost = _columns("x y", "z")
    assert cost == 700 and cols == [("x", "z", SUB), ("y", "", DEL)]
    # ref z, hyp x y: insertion of y ties the diagonal z/y; insertion before the diagonal.
    cols, cost = _columns("z", "x y")
    assert cost == 700 and cols == [("z", "x", SUB), ("", "y", INS)]


def test_kernels_are_compiled_once_when_threads_ask_at_once() -> None:
    """``CompiledOnce``: the first caller makes them; threads asking meanwhile wait for it, and
    every caller gets the same object."""
    import threading
    import time

    from hub4eval.text.align.numba_cache import CompiledOnce

    made: list[object] = []

    def make() -> object:
        time.sleep(0.05)  # long enough for the other threads to ask while it is made
        made.append(object())
        return made[-1]

    compiled = CompiledOnce(make)
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(compiled())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1
    assert got == made * 4 and compiled() is made[0]
