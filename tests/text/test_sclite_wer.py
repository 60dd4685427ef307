"""hub4eval.text.align.sclite: agreement with alignments made by the real NIST sclite
(tests/data/sclite/, see its README), and agreement of the linear-memory
divide-and-conquer path with a plain full-matrix DP of the same rule on
random, tie-heavy inputs."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hub4eval.text.align.sclite as sw
from tests.support import DATA

HERE = str(DATA.parent)
FIXTURES = os.path.join(HERE, "data", "sclite", "sclite_cases.json")


# ------------------------------------------------------------------ helpers
def oracle(ref, hyp):
    """Plain full-matrix transcription of sclite's net_dp.c rule."""
    n, m = len(ref), len(hyp)
    D = [[0] * (m + 1) for _ in range(n + 1)]
    B = [[""] * (m + 1) for _ in range(n + 1)]
    for j in range(1, m + 1):
        D[0][j] = D[0][j - 1] + 3
        B[0][j] = "I"
    for i in range(1, n + 1):
        D[i][0] = D[i - 1][0] + 3
        B[i][0] = "D"
        for j in range(1, m + 1):
            s = D[i - 1][j - 1] + (0 if ref[i - 1] == hyp[j - 1] else 4)
            d = D[i - 1][j] + 3
            ins = D[i][j - 1] + 3
            if s <= d and s <= ins:
                D[i][j], B[i][j] = s, "X"
            elif d < ins:
                D[i][j], B[i][j] = d, "D"
            else:
                D[i][j], B[i][j] = ins, "I"
    ops = []
    i, j = n, m
    while i > 0 or j > 0:
        x = B[i][j]
        if x == "X":
            ops.append(("C" if ref[i - 1] == hyp[j - 1] else "S", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif x == "D":
            ops.append(("D", i - 1, None))
            i -= 1
        else:
            ops.append(("I", None, j - 1))
            j -= 1
    return ops[::-1]


@contextlib.contextmanager
def forced_split(
    base_area=8,
    chunk_t=3,
    chunk_w=2,
    guide_w=1,
    cap=1,
    checkpoint_rows=10**9,
    trace_cells=None,
    chunk_words=10**9,
):
    """Shrink the thresholds so that even tiny inputs go through the
    divide-and-conquer + pruning + chunk-bound machinery (``trace_cells``: the
    back pointers a pruned pass may store to trace its path at once, 0 for
    none: every sub-problem split in halves; ``chunk_words``: the reference
    length from which the chunks grow, none by default)."""
    names = (
        "_BASE_AREA",
        "_CHUNK_T",
        "_CHUNK_W",
        "_GUIDE_W",
        "_BIGRAM_CAP",
        "_CHECKPOINT_ROWS",
        "_TRACE_CELLS",
        "_CHUNK_WORDS",
    )
    old = {k: getattr(sw, k) for k in names}
    sw._BASE_AREA, sw._CHUNK_T, sw._CHUNK_W, sw._GUIDE_W, sw._BIGRAM_CAP = (base_area, chunk_t, chunk_w, guide_w, cap)
    sw._CHECKPOINT_ROWS = checkpoint_rows
    sw._CHUNK_WORDS = chunk_words
    if trace_cells is not None:
        sw._TRACE_CELLS = trace_cells
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(sw, k, v)


def as_tuples(al):
    return [tuple(o) for o in al.ops]


def check_consistent(al, ref, hyp):
    i = j = 0
    for op, ri, hj in al.ops:
        if op in "CS":
            assert ri == i and hj == j
            assert (ref[i] == hyp[j]) == (op == "C")
            i += 1
            j += 1
        elif op == "D":
            assert ri == i and hj is None
            i += 1
        else:
            assert ri is None and hj == j
            j += 1
    assert i == len(ref) and j == len(hyp)
    ops = al.op_string()
    assert (al.correct, al.substitutions, al.deletions, al.insertions) == (
        ops.count("C"),
        ops.count("S"),
        ops.count("D"),
        ops.count("I"),
    )


# ------------------------------------------------------------------ fixtures
with open(FIXTURES) as _f:
    FIX = json.load(_f)
CASES = FIX["cases"]


def _words(s):
    # sclite default is case-insensitive (it lower-cases ref and hyp)
    return s.lower().split()


def test_fixture_metadata():
    assert FIX["sctk_commit"] == "9688a26882a688132a5e414cadcb4c19b6fffaba"
    assert "sclite" in FIX["sclite_command"] and "-i rm" in FIX["sclite_command"]
    assert len(CASES) > 500
    groups = {c["group"] for c in CASES}
    assert {"edge", "exhaustive_ab", "random_small_vocab", "realistic", "case", "long"} <= groups


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_sclite_fixture(case):
    ref, hyp = _words(case["ref"]), _words(case["hyp"])
    al = sw.sclite_align(ref, hyp)
    assert [al.correct, al.substitutions, al.deletions, al.insertions] == case["counts"]
    assert al.op_string() == case["ops"]
    check_consistent(al, ref, hyp)


@pytest.mark.parametrize("checkpoint_rows", [10**9, 4])
@pytest.mark.parametrize("trace_cells", [0, 40, None])
def test_fixtures_via_divide_and_conquer(checkpoint_rows, trace_cells):
    with forced_split(checkpoint_rows=checkpoint_rows, trace_cells=trace_cells):
        for case in CASES:
            ref, hyp = _words(case["ref"]), _words(case["hyp"])
            if len(ref) * len(hyp) > 300_000:
                continue  # the long ones are covered with default settings below
            al = sw.sclite_align(ref, hyp)
            assert al.op_string() == case["ops"], case["id"]


@pytest.mark.parametrize("checkpoint_rows", [10**9, 64])
@pytest.mark.parametrize("trace_cells", [0, None])
def test_long_fixtures_via_divide_and_conquer_default_chunks(checkpoint_rows, trace_cells):
    split = {"base_area": 1 << 10, "chunk_t": 32, "chunk_w": 32, "guide_w": 8, "cap": 8}
    with forced_split(**split, checkpoint_rows=checkpoint_rows, trace_cells=trace_cells):
        for case in (c for c in CASES if c["group"] == "long"):
            ref, hyp = _words(case["ref"]), _words(case["hyp"])
            al = sw.sclite_align(ref, hyp)
            assert al.op_string() == case["ops"], case["id"]


def test_full_matrix_reference_matches_fixtures():
    for case in CASES:
        ref, hyp = _words(case["ref"]), _words(case["hyp"])
        assert sw.sclite_align_full(ref, hyp).op_string() == case["ops"], case["id"]


# ------------------------------------------------------------------ property tests
small_vocab = st.sampled_from(["a", "b", "c"])
seqs = st.lists(small_vocab, max_size=40)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ref=seqs, hyp=seqs)
def test_split_path_equals_full_dp_small_vocab(ref, hyp):
    expected = oracle(ref, hyp)
    with forced_split():
        got = sw.sclite_align(ref, hyp)
    assert as_tuples(got) == expected
    check_consistent(got, ref, hyp)


@st.composite
def edited_pairs(draw):
    """A reference of up to 400 words and a hypothesis made from it by random edits (up to about
    40% of the words), so that the chunk bounds, their far parts and the suffix bounds all prune."""
    vocab = draw(st.integers(3, 60))
    rng = random.Random(draw(st.integers(0, 2**32)))
    ref = [rng.randrange(vocab) for _ in range(draw(st.integers(40, 400)))]
    rate = draw(st.floats(0.0, 0.4))
    hyp = []
    for word in ref:
        roll = rng.random()
        if roll < rate / 3:
            continue  # deleted
        hyp.append(rng.randrange(vocab) if roll < 2 * rate / 3 else word)
        if rng.random() < rate / 3:
            hyp.append(rng.randrange(vocab))  # inserted
    return ref, hyp


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pair=edited_pairs(),
    t=st.sampled_from([8, 16, 32]),
    w=st.integers(2, 24),
    checkpoint=st.sampled_from([10**9, 16, 40]),
    trace=st.sampled_from([0, 500, None]),
    grown=st.sampled_from([10**9, 30]),
)
def test_long_edited_pairs_give_the_full_dp(pair, t, w, checkpoint, trace, grown):
    # chunk bounds over whole chunks and the rest of each row's chunk, checkpoints on chunk
    # boundaries, traced or halved sub-problems, chunks of t words or grown with the reference's
    # length (beyond 30 words): the full matrix's alignment every time
    ref, hyp = pair
    a, b = np.array(ref, np.int64), np.array(hyp, np.int64)
    expected = sw._base_align(a, b, 0, len(a), 0, len(b))[:3]
    with forced_split(
        base_area=64,
        chunk_t=t,
        chunk_w=w,
        guide_w=3,
        cap=4,
        checkpoint_rows=checkpoint,
        trace_cells=trace,
        chunk_words=grown,
    ):
        got = sw._align_codes(a, b)
    assert [x.tolist() for x in got] == [x.tolist() for x in expected]


def test_chunks_grow_with_the_square_root_of_a_long_reference():
    # 1,024 words (a band of 512 diagonals either side) up to 100,000 reference words; then
    # 1,024 * sqrt(n / 100,000) rounded to a multiple of 256, at most 4,096: at the HUB-4 size
    # (398,562 words after the GLM) 1,024 * 1.996 = 2,044, so 2,048; at 10 million words 4,096.
    assert sw._chunk_length(50_000) == (1024, 512)
    assert sw._chunk_length(100_000) == (1024, 512)
    assert sw._chunk_length(398_562) == (2048, 1024)
    assert sw._chunk_length(1_000_000) == (3328, 1664)  # 1,024 * 3.162 = 3,238: 12.65 quarters, 13
    assert sw._chunk_length(10_000_000) == (4096, 2048)
    with forced_split(chunk_t=8, chunk_w=4, chunk_words=30):
        assert sw._chunk_length(30) == (8, 4)
        assert sw._chunk_length(120) == (16, 8)  # 8 * 2 = 16
        assert sw._chunk_length(10_000) == (32, 16)  # at most four times 8


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ref=st.lists(st.sampled_from(["a", "b"]), max_size=60),
    hyp=st.lists(st.sampled_from(["a", "b"]), max_size=60),
    base=st.sampled_from([4, 16, 64, 256]),
    t=st.integers(2, 6),
    w=st.integers(0, 4),
    g=st.integers(0, 3),
    cap=st.integers(0, 3),
    checkpoint=st.sampled_from([10**9, 2, 3, 5]),
    trace=st.sampled_from([0, 30, 200, None]),
)
def test_split_path_any_thresholds(ref, hyp, base, t, w, g, cap, checkpoint, trace):
    # trace: 0 splits every sub-problem in halves, 30 or 200 traces those whose back pointers fit
    expected = oracle(ref, hyp)
    with forced_split(base, t, w, g, cap, checkpoint, trace):
        got = sw.sclite_align(ref, hyp)
    assert as_tuples(got) == expected


def cheapest_placements(a, b, r0, r1):
    """For each row r of a[r0:r1]: the least cost of aligning a[r:r1] to ANY substring of b (all
    those reference words consumed, sclite's costs), by a plain backward DP over the whole of b."""
    m = len(b)
    below = [0] * (m + 1)  # row r1: free end
    out = [0] * (r1 - r0)
    for r in range(r1 - 1, r0 - 1, -1):
        row = [0] * (m + 1)
        for c in range(m, -1, -1):
            v = below[c] + 3  # deletion of a[r]
            if c < m:
                v = min(v, below[c + 1] + (0 if a[r] == b[c] else 4), row[c + 1] + 3)
            row[c] = v
        out[r - r0] = min(row)  # free start
        below = row
    return out


def test_chunk_lower_bounds_never_exceed_the_cheapest_placement_of_a_chunk():
    # The pruning is exact only while each chunk's bound, and each row's bound of the rest of its
    # chunk, is at most what the cheapest placement of those reference words anywhere in the
    # hypothesis costs (the far bound, from bigram kappas, is the subtle part; a chunk's ops on
    # any path cost at least that). The hypothesis is the reference with a few edits (so bigrams
    # match), and the guide's centers are moved so that the cheap placements fall outside the near
    # band, where the far bound decides. (Seeded cases rather than hypothesis: a bound too tight
    # shows in about one chunk of twenty cases, which shrinking toward tiny inputs rarely reaches.)
    rng = random.Random(11)
    for _ in range(1500):
        ref = [rng.randrange(40) for _ in range(rng.randrange(8, 70))]
        hyp = list(ref)
        for _ in range(rng.randrange(25)):
            k, kind = rng.randrange(len(hyp) + 1), rng.randrange(3)
            if kind == 0 and k < len(hyp):
                del hyp[k]
            elif kind == 1 and k < len(hyp):
                hyp[k] = rng.randrange(40)
            else:
                hyp.insert(k, rng.randrange(40))
        t, w, cap, shift = rng.randrange(2, 13), rng.randrange(5), rng.randrange(7), rng.randrange(-20, 21)
        a, b = np.array(ref, np.int64), np.array(hyp, np.int64)
        n, m = len(a), len(b)
        centers = np.clip(np.round(np.arange(n + 1) * (m / n)).astype(np.int64) + shift, 0, m)
        starts = sw._chunk_starts(n, t)
        suffix = np.full(n + 1, -1, np.int64)
        blo, bhi, positions = sw._bigram_hits(a, b)
        # the guide's row minima: only the band's width depends on them (from none to w)
        least = np.cumsum([rng.randrange(4) for _ in range(n + 1)]).astype(np.int64)
        lbs = sw._chunk_lower_bounds(a, sw._reversed(b), starts, centers, least, w, blo, bhi, positions, cap, suffix)
        assert suffix[n] == 0
        for k, bound in enumerate(lbs):
            r0, r1 = int(starts[k]), int(starts[k + 1])
            cheapest = cheapest_placements(ref, hyp, r0, r1)
            assert bound <= cheapest[0], (ref, hyp, t, w, cap, shift, k)
            assert suffix[r0] == bound
            for r in range(r0, r1):
                assert 0 <= suffix[r] <= cheapest[r - r0], (ref, hyp, t, w, cap, shift, r)


@settings(max_examples=400, deadline=None)
@given(
    kappas=st.lists(st.integers(-30, 30), max_size=25),
    klo=st.integers(-15, 15),
    width=st.integers(0, 20),
    most=st.integers(0, 25),
)
def test_far_counts_are_the_fullest_windows_reaching_outside_the_band(kappas, klo, width, most):
    # For each e: the most kappas a window [x, x + e] holds that starts left of the band or ends
    # right of it, counted window by window (the kernel only looks at windows with an end on a
    # kappa or on the band's edge).
    khi = klo + width
    kap = np.array(sorted(kappas), np.int64)
    expected = []
    for e in range(most + 1):
        best = 0
        for x in range(-80, 80):
            if x < klo or x + e > khi:
                best = max(best, sum(1 for k in kappas if x <= k <= x + e))
        expected.append(best)
    assert sw._far_counts(kap, klo, khi, most).tolist() == expected


def band_placements(a, b, klo, khi):
    """For each row r of a: the least cost of aligning a[r:] to a substring of b by a path whose
    every cell (o, c) keeps c - o in [klo, khi] (cells outside the band never taken), by a plain
    backward DP row by row (the kernel goes by anti-diagonals)."""
    n, m = len(a), len(b)
    inf = float("inf")

    def inside(o, c):
        return 0 <= c <= m and klo <= c - o <= khi

    below = [0 if inside(n, c) else inf for c in range(m + 1)]  # row n: free end, in the band
    out = [inf] * n
    for r in range(n - 1, -1, -1):
        row = [inf] * (m + 1)
        for c in range(m, -1, -1):
            if not inside(r, c):
                continue
            v = below[c] + 3  # deletion of a[r]
            if c < m:
                v = min(v, below[c + 1] + (0 if a[r] == b[c] else 4), row[c + 1] + 3)
            row[c] = v
        out[r] = min(row)  # free start
        below = row
    return out


def semiglobal_band(a, b, klo, khi):
    """The kernel's row minima (int32 work arrays, the hypothesis reversed as it reads it)."""
    a, b = np.array(a, np.int64), np.array(b, np.int64)
    near = np.empty(len(a), np.int32)
    work = [np.empty(len(a) + 5, np.int32) for _ in range(3)]
    least = sw._semiglobal_band(a, 0, len(a), sw._reversed(b), len(b), klo, khi, near, *work)
    assert least == near[0]
    return near.tolist()


@settings(max_examples=300, deadline=None)
@given(
    ref=st.lists(st.integers(0, 5), min_size=1, max_size=30),
    hyp=st.lists(st.integers(0, 5), max_size=30),
)
def test_the_band_placements_of_a_band_holding_everything_are_the_cheapest(ref, hyp):
    # The near bound of every suffix of a chunk (the backward DP over the band) is the least cost
    # of the suffix's placements in the band: with a band that holds every cell, the cheapest
    # placement anywhere.
    assert semiglobal_band(ref, hyp, -len(ref), len(hyp)) == cheapest_placements(ref, hyp, 0, len(ref))


@settings(max_examples=300, deadline=None)
@given(
    ref=st.lists(st.integers(0, 5), min_size=1, max_size=30),
    hyp=st.lists(st.integers(0, 5), max_size=30),
    klo=st.integers(-12, 12),
    width=st.integers(0, 24),
)
def test_the_band_placements_are_those_of_the_paths_inside_the_band(ref, hyp, klo, width):
    # A narrow band, anywhere (partly or wholly outside the hypothesis too): the anti-diagonal
    # kernel's row minima are a row-by-row DP's over the cells inside it (a row whose cells cannot
    # reach the last row inside the band has none: the kernel's INF, 2**30).
    expected = band_placements(ref, hyp, klo, klo + width)
    got = semiglobal_band(ref, hyp, klo, klo + width)
    assert got == [2**30 if x == float("inf") else x for x in expected]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ref=st.lists(st.integers(0, 3), max_size=80),
    hyp=st.lists(st.integers(0, 3), max_size=80),
    base=st.sampled_from([4, 16, 64]),
    wide=st.booleans(),
)
def test_int32_codes_and_either_work_type_give_the_full_dp(ref, hyp, base, wide):
    # the align path passes the token ids (int32) as codes, and the passes share
    # int32 work arrays unless the costs could overflow them (then int64)
    a, b = np.array(ref, np.int32), np.array(hyp, np.int32)
    expected = sw._base_align(a.astype(np.int64), b.astype(np.int64), 0, len(a), 0, len(b))[:3]
    old = sw._INT32_COSTS
    try:
        sw._INT32_COSTS = 0 if wide else old
        with forced_split(base):
            got = sw._align_codes(a, b)
    finally:
        sw._INT32_COSTS = old
    assert [x.tolist() for x in got] == [x.tolist() for x in expected]


def test_work_arrays_are_int32_only_while_every_cost_fits():
    assert sw._work(10, 20, 2)[0].dtype == np.int32 and len(sw._work(10, 20, 5)) == 5
    assert len(sw._work(10, 20, 1)[0]) == 21
    old = sw._INT32_COSTS
    try:
        sw._INT32_COSTS = 3 * 30
        assert sw._work(10, 20, 1)[0].dtype == np.int64
        sw._INT32_COSTS = 3 * 30 + 1
        assert sw._work(10, 20, 1)[0].dtype == np.int32
    finally:
        sw._INT32_COSTS = old


def test_default_path_equals_full_dp_medium():
    """Medium inputs through the default machinery (only the base-case area is
    lowered) against the numba full-matrix DP, incl. tie-heavy vocabularies."""
    rng = random.Random(5)
    old = sw._BASE_AREA
    sw._BASE_AREA = 1 << 12
    try:
        for V, n, rate in [("abc", 1500, 0.3), ("ab", 1200, 0.5), (None, 3000, 0.15), (None, 2500, 0.4)]:
            if V is None:
                vocab = [f"w{k}" for k in range(3000)]
                weights = [1.0 / (k + 1) for k in range(3000)]
                ref = rng.choices(vocab, weights, k=n)
            else:
                vocab, weights = list(V), None
                ref = rng.choices(vocab, k=n)
            hyp = []
            for w_ in ref:
                x = rng.random()
                if x < rate / 3:
                    continue
                hyp.append(rng.choices(vocab, weights)[0] if x < 2 * rate / 3 else w_)
                if rng.random() < rate / 3:
                    hyp.append(rng.choices(vocab, weights)[0])
            if V is None:  # large local drift: delete a block, insert another
                hyp = hyp[: n // 3] + hyp[n // 3 + 250 :]
                hyp[2 * n // 3 : 2 * n // 3] = rng.choices(vocab, weights, k=250)
            a, b, _ = sw._encode(ref, hyp)
            o1, r1, h1 = sw._align_codes(a, b)
            o2, r2, h2, _ = sw._base_align(a, b, 0, len(a), 0, len(b))
            assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(h1, h2)
    finally:
        sw._BASE_AREA = old


def test_empty_and_trivial():
    assert sw.sclite_align([], []).ops == ()
    al = sw.sclite_align([], ["x", "y"])
    assert (al.correct, al.substitutions, al.deletions, al.insertions) == (0, 0, 0, 2)
    al = sw.sclite_align(["x", "y"], [])
    assert (al.correct, al.substitutions, al.deletions, al.insertions) == (0, 0, 2, 0)
    assert al.wer == 1.0
    al = sw.sclite_align(["a", "a", "b"], ["a", "b", "a"])
    assert al.op_string() == "DCCI"
    assert al.cost == 6


def test_case_sensitive_comparison_is_callers_job():
    assert sw.sclite_align(["Hello"], ["hello"]).op_string() == "S"
    assert sw.sclite_align(["hello"], ["hello"]).op_string() == "C"


@pytest.mark.slow
def test_200k_words_runs():
    rng = np.random.default_rng(11)
    V = 20000
    p = 1.0 / np.arange(1, V + 1)
    p /= p.sum()
    n = 200_000
    ref_i = rng.choice(V, size=n, p=p)
    hyp_i = []
    r = rng.random(n)
    for k in range(n):
        if r[k] < 0.09:
            hyp_i.append((int(ref_i[k]) + 1) % V)  # substitution
        elif r[k] < 0.12:
            continue  # deletion
        else:
            hyp_i.append(int(ref_i[k]))
        if r[k] > 0.97:
            hyp_i.append(7)  # insertion
    ref = [f"w{x}" for x in ref_i]
    hyp = [f"w{x}" for x in hyp_i]
    t = time.process_time()  # CPU seconds: steady on a loaded machine
    al = sw.sclite_align(ref, hyp)
    dt = time.process_time() - t
    check_consistent(al, ref, hyp)
    assert al.ref_length == n and al.hyp_length == len(hyp)
    assert dt < 120, dt


# ------------------------------------------------------------------ end to end: trn files through `hub4eval align`


def test_align_command_on_the_fixture_trn_files_prints_sclites_counts(tmp_path):
    """The fixtures' utterances written back as the trn files sclite read (same ids, same words):
    `hub4eval align` gives every utterance (a document) and the total sclite's counts."""
    from typer.testing import CliRunner

    from hub4eval.cli import app

    # words the tokenizer keeps as they are (after lower-casing, as sclite does): no punctuation
    plain = [c for c in CASES if all(w.isalnum() for w in (c["ref"] + " " + c["hyp"]).split())]
    assert len(plain) > 700
    (tmp_path / "ref.trn").write_text("".join(f"{c['ref']} ({c['id']})\n" for c in plain))
    (tmp_path / "hyp.trn").write_text("".join(f"{c['hyp']} ({c['id']})\n" for c in plain))
    result = CliRunner().invoke(
        app,
        [
            "align",
            str(tmp_path / "ref.trn"),
            str(tmp_path / "hyp.trn"),
            "--glm",
            "none",
            "--spoken-forms",
            "none",
            "--json",
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    keys = ("matches", "substitutions", "deletions", "insertions")
    got = {row["ref_docid"]: [row[k] for k in keys] for row in data["documents"]}
    assert got == {c["id"]: c["counts"] for c in plain}
    assert [data["summary"][k] for k in keys] == [sum(c["counts"][k] for c in plain) for k in range(4)]
    assert data["summary"]["alignment"] == "sclite"
    # the weighted alignment used for extents differs on some utterances, and says so
    assert any("weighted_alignment" in row for row in data["documents"])


def _sclite_binary() -> str | None:
    import shutil

    return os.environ.get("HUB4EVAL_SCLITE") or shutil.which("sclite")


@pytest.mark.skipif(
    _sclite_binary() is None,
    reason="no sclite binary (set HUB4EVAL_SCLITE=/path/to/sclite, built from usnistgov/SCTK): "
    "the stored fixtures above are checked instead",
)
def test_live_sclite_agrees_on_the_asr_example_tokens(tmp_path):
    """With a real sclite at hand: the ASR example's normalized tokens, one utterance per
    reference document, scored by sclite and by `hub4eval align` on the same trn files."""
    import importlib.util

    from typer.testing import CliRunner

    from hub4eval.cli import app
    from hub4eval.io.corpus import read_corpus
    from hub4eval.text.tokenized import document_tokens

    spec = importlib.util.spec_from_file_location(
        "make_sclite_fixtures", os.path.join(os.path.dirname(HERE), "benchmarks", "make_sclite_fixtures.py")
    )
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    examples = os.path.join(os.path.dirname(HERE), "examples", "asr")
    ref = read_corpus(os.path.join(examples, "reference.sgml"))
    hyp = read_corpus(os.path.join(examples, "asr_segmented.sgml"))
    cases = [
        {
            "id": f"spk00_{k:05d}",
            "ref": [t.text for t in document_tokens(r)],
            "hyp": [t.text for t in document_tokens(hyp.document(r.docid))],
        }
        for k, r in enumerate(ref.documents)
    ]
    paths, _ = maker.run_sclite(_sclite_binary(), cases, str(tmp_path))
    sclite_counts = {key: [sum(op == x for op, _, _ in items) for x in "CSDI"] for key, items in paths.items()}
    result = CliRunner().invoke(
        app,
        [
            "align",
            str(tmp_path / "ref.trn"),
            str(tmp_path / "hyp.trn"),
            "--glm",
            "none",
            "--spoken-forms",
            "none",
            "--json",
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["documents"]
    keys = ("matches", "substitutions", "deletions", "insertions")
    assert {row["ref_docid"]: [row[k] for k in keys] for row in rows} == sclite_counts


def test_align_says_which_alignment_each_count_comes_from(tmp_path):
    """abcd abce / abce abcf: sclite deletes abcd and inserts abcf (3 + 0 + 3 = 6 < two
    substitutions, 4 + 4 = 8); the weighted alignment for extents substitutes twice
    (each 200 + round(200 * 1/4) = 250 hundredths, 500 < 600)."""
    from typer.testing import CliRunner

    from hub4eval.cli import app

    (tmp_path / "r.trn").write_text("abcd abce (u1)\n")
    (tmp_path / "h.trn").write_text("abce abcf (u1)\n")
    args = ["align", str(tmp_path / "r.trn"), str(tmp_path / "h.trn")]
    result = CliRunner().invoke(app, [*args, "--show"])
    assert result.exit_code == 0, result.output
    assert "Word error rate (sclite alignment)" in result.stdout
    assert "aligned words: the weighted alignment used for extents" in result.stdout
    assert (
        "WER (sclite alignment) = 100.0  (ref words 2  sub 0  del 1  ins 1); "
        "the alignment used for extents: 100.0  (sub 2  del 0  ins 0)"
    ) in result.stdout.splitlines()
    summary = json.loads(CliRunner().invoke(app, [*args, "--json", "-"]).stdout)["summary"]
    assert (summary["matches"], summary["substitutions"], summary["deletions"], summary["insertions"]) == (1, 0, 1, 1)
    assert summary["alignment"] == "sclite"
    assert summary["weighted_alignment"] == {
        "matches": 0,
        "substitutions": 2,
        "deletions": 0,
        "insertions": 0,
        "errors": 2,
        "wer": 1.0,
    }


# ------------------------------------------------------------------ counts of a corpus (hub4eval.text.wer): tests that kill its mutants (tools/mutate.py)

_REF = (
    "<DOC>\n<DOCNO> D0 </DOCNO>\n<TEXT>\nthe heart of general motors\n</TEXT>\n</DOC>\n"
    "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\ngeneral motors\n</TEXT>\n</DOC>\n"
)
_SEGMENTED = (
    "<DOC>\n<DOCNO> D0 </DOCNO>\n<TEXT>\nthe part of general motors\n</TEXT>\n</DOC>\n"
    "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\ngeneral motors heart\n</TEXT>\n</DOC>\n"
)
_STREAM = "<s> the part of general motors </s>\n<s> general motors heart </s>\n"
# By hand: D0 `heart` -> `part` is one substitution (4 matches); D1 gains `heart` after its last
# word, one insertion (2 matches), which unsegmented belongs to D1, the document of the
# reference word before it. The same counts whether the hypothesis is segmented or a stream.
_D0 = {"ref_words": 5, "hyp_words": 5, "matches": 4, "substitutions": 1, "deletions": 0, "insertions": 0}
_D1 = {"ref_words": 2, "hyp_words": 3, "matches": 2, "substitutions": 0, "deletions": 0, "insertions": 1}
_TOTAL = {"ref_words": 7, "hyp_words": 8, "matches": 6, "substitutions": 1, "deletions": 0, "insertions": 1}


@pytest.mark.parametrize("hypothesis", [_SEGMENTED, _STREAM], ids=["segmented", "unsegmented"])
def test_sclite_counts_from_the_tokens_alone_per_document_and_overall(hypothesis):
    """sclite_counts (counted before the weighted alignment, from the tokens) gives one row per
    reference document and their sum, segmented (each pair aligned on its own) and unsegmented
    (the stream aligned once and split by document)."""
    from hub4eval.io.corpus import parse_corpus
    from hub4eval.text.columns import align_corpora
    from hub4eval.text.tokenized import tokenize_corpora
    from hub4eval.text.wer import corpus_wer, sclite_counts

    ref, hyp = parse_corpus(_REF, "r"), parse_corpus(hypothesis, "h")
    counts = sclite_counts(tokenize_corpora(ref, hyp))
    assert counts == ([_D0, _D1], _TOTAL)
    # and corpus_wer gives the same rows from them as when it counts them itself
    alignment = align_corpora(ref, hyp)
    assert corpus_wer(alignment, counts) == corpus_wer(alignment)


@pytest.mark.parametrize("hypothesis", [_SEGMENTED, _STREAM], ids=["segmented", "unsegmented"])
def test_the_summary_alone_counts_the_whole_texts(hypothesis):
    """corpus_wer_summary, what a score keeps, gives corpus_wer's summary (the sum of the two
    documents' rows above, _TOTAL) without the rows, from sclite's counts or counting them itself."""
    from hub4eval.io.corpus import parse_corpus
    from hub4eval.text.columns import align_corpora
    from hub4eval.text.tokenized import tokenize_corpora
    from hub4eval.text.wer import corpus_wer, corpus_wer_summary, sclite_counts

    ref, hyp = parse_corpus(_REF, "r"), parse_corpus(hypothesis, "h")
    alignment = align_corpora(ref, hyp)
    for summary in (
        corpus_wer_summary(alignment),
        corpus_wer_summary(alignment, sclite_counts(tokenize_corpora(ref, hyp))),
    ):
        assert {k: summary[k] for k in _TOTAL} == _TOTAL
        assert (summary["errors"], summary["wer"], summary["alignment"]) == (2, 2 / 7, "sclite")
        assert summary == corpus_wer(alignment)["summary"]


def test_weighted_alignment_is_reported_only_where_its_counts_differ():
    """Here both alignments agree (one substitution, one insertion: nothing cheaper either
    way), so no row carries a `weighted_alignment`; only the label `sclite`."""
    from hub4eval.io.corpus import parse_corpus
    from hub4eval.text.columns import align_corpora
    from hub4eval.text.wer import corpus_wer

    wer = corpus_wer(align_corpora(parse_corpus(_REF, "r"), parse_corpus(_SEGMENTED, "h")))
    for row in [wer["summary"], *wer["documents"]]:
        assert row["alignment"] == "sclite"
        assert "weighted_alignment" not in row
    assert [row["ref_docid"] for row in wer["documents"]] == ["D0", "D1"]
    assert {k: wer["summary"][k] for k in _TOTAL} == _TOTAL


def test_a_reference_without_documents_against_a_stream_is_one_row():
    """A plain-text reference (no DOC, so no document ids) against a stream: unsegmented,
    but with no documents to split the stream by, so one row (ids None) with every count.
    By hand: `heart` -> `part`, one substitution, 2 matches."""
    from hub4eval.io.corpus import parse_corpus
    from hub4eval.text.columns import align_corpora
    from hub4eval.text.tokenized import tokenize_corpora
    from hub4eval.text.wer import corpus_wer, sclite_counts

    ref, hyp = parse_corpus("the heart of\n", "r"), parse_corpus("<s> the part of </s>\n", "h")
    row = {"ref_words": 3, "hyp_words": 3, "matches": 2, "substitutions": 1, "deletions": 0, "insertions": 0}
    tokenized = tokenize_corpora(ref, hyp)
    assert tokenized.unsegmented and not tokenized.spans
    assert sclite_counts(tokenized) == ([row], row)
    alignment = align_corpora(ref, hyp)
    for wer in (corpus_wer(alignment), corpus_wer(alignment, sclite_counts(tokenized))):
        [document] = wer["documents"]
        assert (document["ref_docid"], document["hyp_docid"]) == (None, None)
        assert {k: document[k] for k in row} == row
        assert {k: wer["summary"][k] for k in row} == row


def test_pair_counts_take_token_lists_arrays_or_one_of_each():
    """pair_counts codes plain token sequences itself and takes a TokenArray's ids as they
    are: any mix gives the same counts. By hand: `a b c d` / `a x c d e`: b -> x one
    substitution, e one insertion, 3 matches."""
    from hub4eval.text.token_arrays import TokenArray, Vocabulary
    from hub4eval.text.tokens import Token
    from hub4eval.text.wer import pair_counts

    def tokens(text: str) -> list[Token]:
        return [Token(word, 2 * k, 2 * k + 1) for k, word in enumerate(text.split())]

    vocabulary = Vocabulary()
    ref, hyp = tokens("a b c d"), tokens("a x c d e")
    ref_array, hyp_array = TokenArray.of(ref, vocabulary), TokenArray.of(hyp, vocabulary)
    expected = {"ref_words": 4, "hyp_words": 5, "matches": 3, "substitutions": 1, "deletions": 0, "insertions": 1}
    pairs = [(ref, hyp), (ref, hyp_array), (ref_array, hyp), (ref_array, hyp_array)]
    assert pair_counts(pairs) == [expected] * 4


def test_stream_counts_split_by_document_sizes_even_none():
    """One stream `a b c d` / `a x c d e` (b -> x, e inserted after d), split by the
    reference documents' token counts: [2, 2] gives `a b`/`a x` (1 match, 1 substitution)
    and `c d`/`c d e` (2 matches, the insertion after d); [4, 0] an empty second document;
    no documents ([]) no rows, and the total every time."""
    from hub4eval.text.token_arrays import TokenArray, Vocabulary
    from hub4eval.text.tokens import Token
    from hub4eval.text.wer import stream_counts

    vocabulary = Vocabulary()

    def tokens(text: str) -> TokenArray:
        return TokenArray.of([Token(word, 2 * k, 2 * k + 1) for k, word in enumerate(text.split())], vocabulary)

    ref, hyp = tokens("a b c d"), tokens("a x c d e")
    keys = ("ref_words", "hyp_words", "matches", "substitutions", "deletions", "insertions")

    def row(*values: int) -> dict[str, int]:
        return dict(zip(keys, values, strict=True))

    total = row(4, 5, 3, 1, 0, 1)
    assert stream_counts(ref, hyp, [2, 2]) == ([row(2, 2, 1, 1, 0, 0), row(2, 3, 2, 0, 0, 1)], total)
    assert stream_counts(ref, hyp, [4, 0]) == ([total, row(0, 0, 0, 0, 0, 0)], total)
    assert stream_counts(ref, hyp, []) == ([], total)


@pytest.mark.parametrize("cells, most", [(1, 2), (1, 1 << 20)])
def test_checkpoints_too_many_to_store_grow_or_fall_back_to_halving(cells, most, monkeypatch):
    # The first pass stores its checkpoint rows' cells in a buffer of _CHECKPOINT_CELLS; a band
    # wider than that is given room for every column (up to _CHECKPOINT_CELLS_MAX), beyond which
    # the rectangle is halved as before. Either way the path is the full matrix's.
    rng = random.Random(3)
    ref = [rng.choice("abcdefgh") for _ in range(400)]
    hyp = [w if rng.random() < 0.7 else rng.choice("abcdefgh") for w in ref]
    a, b, _ = sw._encode(ref, hyp)
    expected = sw._base_align(a, b, 0, len(a), 0, len(b))[:3]
    monkeypatch.setattr(sw, "_CHECKPOINT_CELLS", cells)
    monkeypatch.setattr(sw, "_CHECKPOINT_CELLS_MAX", most)
    passes = []
    original = sw._forward_checkpoints

    def counted(*args):
        result = original(*args)
        passes.append(int(result[0]))
        return result

    monkeypatch.setattr(sw, "_forward_checkpoints", counted)
    with forced_split(base_area=64, chunk_t=16, chunk_w=8, guide_w=4, cap=4, checkpoint_rows=40):
        got = sw._align_codes(a, b)
    assert [x.tolist() for x in got] == [x.tolist() for x in expected]
    assert passes[0] == -2  # the first buffer was too small
    assert (passes[-1] >= 0) == (most > 2)  # room enough: the pass ends; else halving
