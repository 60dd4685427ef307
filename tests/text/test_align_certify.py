"""Tests of the certification of long alignments: the seed heuristic never exceeds the true
remaining cost, and the pruned band DP returns the band DP's cost and columns (ties included)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.text.align import align_words, certify, codes, exact, kernels, seeded
from hub4eval.text.align.costs import INDEL, _align_reference, substitution_cost

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Few words, fragments and near spellings: ties, cheap fragment pairs and chance matches are likely.
VOCAB = ("the", "a", "heart", "part", "hearts", "h-", "he-", "pa-", "of", "uh", "general", "motors", "mot-")


@st.composite
def related(draw, max_size: int = 24):
    """(ref, hyp): hyp is ref with substitutions, deletions and insertions, or an unrelated list."""
    ref = draw(st.lists(st.sampled_from(VOCAB), max_size=max_size))
    if draw(st.booleans()):
        return ref, draw(st.lists(st.sampled_from(VOCAB), max_size=max_size))
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


def remaining_costs(ref: list[str], hyp: list[str]) -> list[list[int]]:
    """``T[i][j]``: the least cost of aligning ``ref[i:]`` with ``hyp[j:]`` (plain DP, backwards)."""
    n, m = len(ref), len(hyp)
    t = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                continue
            best = None
            if i < n:
                best = t[i + 1][j] + INDEL
            if j < m:
                c = t[i][j + 1] + INDEL
                best = c if best is None or c < best else best
            if i < n and j < m:
                c = t[i + 1][j + 1] + substitution_cost(ref[i], hyp[j])
                best = c if c < best else best
            t[i][j] = best
    return t


def coded(ref: list[str], hyp: list[str]):
    (rc, hc), voc = codes._encode((ref, hyp))
    return kernels._kernels(), rc, hc, voc, voc.masks


def prefix_costs(ref: list[str], hyp: list[str]) -> list[list[int]]:
    """``F[i][j]``: the least cost of aligning ``ref[:i]`` with ``hyp[:j]``."""
    back = remaining_costs(ref[::-1], hyp[::-1])
    return [[back[len(ref) - i][len(hyp) - j] for j in range(len(hyp) + 1)] for i in range(len(ref) + 1)]


@pytest.mark.slow
@given(
    pair=related(),
    seed=st.integers(1, 4),
    slack=st.one_of(st.none(), st.integers(0, 1500), st.integers(60_000, 200_000)),
    exact_values=st.booleans(),
)
@PROPERTY
def test_seed_heuristic_never_exceeds_the_remaining_cost(
    pair, seed: int, slack: int | None, exact_values: bool
) -> None:
    """h(i, j) (the table at the next seed boundary) <= the true cost of aligning the rest.

    Without an upper bound this holds at every cell; with one (the optimum plus
    ``slack``), at every cell through which some path costs at most the bound.
    Both as stored for the search (uint16, rounded down when the bound is
    large) and exactly (int32).
    """
    ref, hyp = pair
    k, rc, hc, voc, _ = coded(ref, hyp)
    n, m = len(ref), len(hyp)
    truth = remaining_costs(ref, hyp)
    upper = 10**9 if slack is None else truth[0][0] + slack
    table = certify._seed_table(k, rc, hc, voc, -m, n, certify._boundaries(n, seed), upper, exact_values)
    assert (table.shift == 0) if exact_values else (upper >> table.shift) < kernels._STORE_INF
    prefix = prefix_costs(ref, hyp)
    for i in range(n + 1):
        for j in range(m + 1):
            if prefix[i][j] + truth[i][j] > upper:
                continue
            h = table.at(i, i - j)
            assert h <= truth[i][j], (i, j, h, truth[i][j])


def reference_seed_table(k, rc, hc, voc, bnd, dlo: int, dhi: int, upper: int) -> list[dict[int, int]]:
    """The seed heuristic's recurrence written out plainly: per boundary, {band position: finite value}.

    At the last boundary the diagonal distance to the end; before it, on each
    diagonal, the least of moving one diagonal (the next boundary's value
    beside, plus an insertion or deletion) and staying (the next boundary's
    value on the diagonal, plus the seed's substitution floors, at most
    ``2 * INDEL``, or ``2 * INDEL`` where the seed leaves the hypothesis); a
    value whose diagonal alone costs more than ``upper`` beside it is
    infinite, and only positions next to a finite value are reached.
    """
    n, m = len(rc), len(hc)
    inf = kernels._TABLE_INF

    def floor(a: int, b: int) -> int:
        if a == b:
            return 0
        return int(k.pair_floor(voc.lengths[a], voc.masks[a], voc.frag[a], voc.lengths[b], voc.masks[b], voc.frag[b]))

    width = dhi - dlo + 1
    last = {}
    for p in range(width):
        d = dlo + p
        value = INDEL * abs(d - (n - m))
        if value + INDEL * abs(d) <= upper:
            last[p] = value
    rows = [last]
    for s in range(len(bnd) - 2, -1, -1):
        nxt = rows[-1]
        row = {}
        reach = {q for p in nxt for q in (p - 1, p, p + 1) if 0 <= q < width}
        for p in sorted(reach):
            d = dlo + p
            move = min(nxt.get(p - 1, inf), nxt.get(p + 1, inf)) + INDEL
            stay = 0
            for t in range(int(bnd[s + 1] - bnd[s])):
                i, j = int(bnd[s]) + t, int(bnd[s]) + t - d
                if not 0 <= j < m:
                    stay = 2 * INDEL
                    break
                stay += floor(int(rc[i]), int(hc[j]))
            value = min(nxt.get(p, inf) + min(stay, 2 * INDEL), move)
            if value + INDEL * abs(d) <= upper:
                row[p] = value
        rows.append(row)
    return rows[::-1]


@pytest.mark.slow
@given(
    pair=related(max_size=30),
    seed=st.integers(1, 4),
    slack=st.one_of(st.none(), st.integers(0, 1500)),
    widen=st.integers(0, 30),
)
@PROPERTY
def test_seed_table_is_its_recurrence(pair, seed: int, slack: int | None, widen: int) -> None:
    """Every stored value (exact table) is the recurrence's, and the stored stretches are its finite ones.

    The kernel computes the substitution floors only where a cheap bound lets
    staying beat moving; this pins that short cut to the values it stands for.
    """
    ref, hyp = pair
    k, rc, hc, voc, _ = coded(ref, hyp)
    n, m = len(ref), len(hyp)
    upper = 10**6 if slack is None else _align_reference(ref, hyp).cost + slack
    w = exact._certifying_width(upper, n - m) + widen
    dlo, dhi = max(min(0, n - m) - w, -m), min(max(0, n - m) + w, n)
    bnd = certify._boundaries(n, seed)
    table = certify._seed_table(k, rc, hc, voc, dlo, dhi, bnd, upper, exact=True)
    want = reference_seed_table(k, rc, hc, voc, bnd, dlo, dhi, upper)
    for s, row in enumerate(want):
        got = {p: table.value(s, dlo + p) for p in range(dhi - dlo + 1)}
        assert {p: v for p, v in got.items() if v < kernels._TABLE_INF} == row, s
        if row:
            assert (table.tlo[s], table.thi[s]) == (min(row), max(row))
    assert table.at_start == want[0].get(-dlo, kernels._TABLE_INF)


@given(a=st.text("ab", max_size=8), b=st.text("abc-", max_size=8))
@PROPERTY
def test_substitution_floor_is_a_lower_bound(a: str, b: str) -> None:
    words = [w for w in (a, b) if w]
    if len(set(words)) < 2:
        return
    k, rc, hc, voc, masks = coded([a], [b])
    lengths = voc.lengths
    x, y = int(rc[0]), int(hc[0])
    floor = k.pair_floor(lengths[x], masks[x], voc.frag[x], lengths[y], masks[y], voc.frag[y])
    assert floor <= substitution_cost(a, b)
    assert k.pair_floor(lengths[y], masks[y], voc.frag[y], lengths[x], masks[x], voc.frag[x]) == floor


@given(pair=related(), slack=st.integers(0, 2000), widen=st.integers(0, 6))
@PROPERTY
def test_pruned_search_is_the_band_dp(pair, slack: int, widen: int) -> None:
    """Given any upper bound, the pruned search returns the band DP's cost and exactly its columns."""
    ref, hyp = pair
    k, rc, hc, voc, _ = coded(ref, hyp)
    n, m = len(ref), len(hyp)
    best = _align_reference(ref, hyp).cost
    upper = best + slack
    w = exact._certifying_width(upper, n - m) + widen
    dlo, dhi = min(0, n - m) - w, max(0, n - m) + w
    band_cost, br, bh, bk = exact._run_band(k, rc, hc, dlo, dhi, voc, 0, 0)
    cert = certify._certify(k, rc, hc, voc, upper, dlo, dhi, 10**6)
    if band_cost > upper:
        # The optimum lies exactly on Ukkonen's bound, outside the band: proven, no columns.
        assert not cert.complete and cert.lower == upper == best
        return
    assert cert.complete and cert.columns is not None
    assert cert.cost == band_cost == best  # the certifying band holds the optimum
    for got, want in zip(cert.columns, (br, bh, bk), strict=True):
        assert np.array_equal(got, want)
    assert cert.cells <= exact._band_cells(n, m, dlo, dhi)


@given(pair=related(max_size=30), budget=st.integers(0, 200))
@PROPERTY
def test_stopped_search_proves_a_lower_bound(pair, budget: int) -> None:
    """A search stopped by its cell budget still bounds the optimum from below."""
    ref, hyp = pair
    k, rc, hc, voc, _ = coded(ref, hyp)
    n, m = len(ref), len(hyp)
    best = _align_reference(ref, hyp).cost
    upper = best + 300
    w = exact._certifying_width(upper, n - m)
    cert = certify._certify(k, rc, hc, voc, upper, min(0, n - m) - w, max(0, n - m) + w, budget)
    if cert.complete:
        assert cert.cost == cert.lower == best
    else:
        assert cert.columns is None
        assert INDEL * abs(n - m) <= cert.lower <= best <= cert.cost == upper


def noisy_text(seed: int, n: int) -> tuple[list[str], list[str]]:
    """n reference words from 800 made-up ones and a hypothesis at ~15% errors:
    6% substitutions, 4% deletions, 5% fillers `uh` inserted."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}x{'y' * (i % 7)}" for i in range(800)]
    ref = [vocab[i] for i in rng.integers(0, len(vocab), n)]
    hyp: list[str] = []
    for word, u in zip(ref, rng.random(len(ref)), strict=True):
        if u < 0.06:
            hyp.append(vocab[rng.integers(len(vocab))])
        elif u < 0.10:
            continue
        elif u < 0.15:
            hyp += ["uh", word]
        else:
            hyp.append(word)
    return ref, hyp


def test_search_computes_few_cells_on_a_long_text() -> None:
    """4,000 words at ~15% errors: certified with a fraction of the band's cells, same alignment as the band."""
    ref, hyp = noisy_text(5, 4000)
    k, rc, hc, voc, _ = coded(ref, hyp)
    n, m = len(ref), len(hyp)
    al = align_words(ref, hyp)
    assert al.exact and al.gap == 0
    w = exact._certifying_width(al.cost, n - m)
    dlo, dhi = min(0, n - m) - w, max(0, n - m) + w
    cert = certify._certify(k, rc, hc, voc, al.cost, dlo, dhi, 10**8)
    band_cost, br, bh, bk = exact._run_band(k, rc, hc, dlo, dhi, voc, 0, 0)
    assert cert.cost == band_cost == al.cost
    assert np.array_equal(al.ref_index, br) and np.array_equal(al.hyp_index, bh)
    # The heuristic must pay: a handful of diagonals per row instead of the whole band.
    assert cert.cells * 4 < exact._band_cells(n, m, dlo, dhi)


# The absent-sequence bound: for texts whose seed table does not fit.


@pytest.mark.slow
@given(pair=related(max_size=30))
@PROPERTY
def test_absent_bound_never_exceeds_the_optimum(pair) -> None:
    ref, hyp = pair
    k, rc, hc, voc, _ = coded(ref, hyp)
    assert certify._absent_bound(k, rc, hc, voc) <= _align_reference(ref, hyp).cost


@given(pair=related(max_size=30))
@PROPERTY
def test_absent_lengths_are_the_shortest_missing_sequences(pair) -> None:
    ref, hyp = pair
    k, rc, hc, voc, _ = coded(ref, hyp)
    length = np.empty(len(rc), np.int64)
    k.absent_lengths(rc, hc, len(voc.lengths), certify.ABSENT_MAX, length)
    grams = {tuple(hyp[j : j + size]) for size in range(1, certify.ABSENT_MAX + 1) for j in range(len(hyp) - size + 1)}
    for i in range(len(ref)):
        missing = [
            size
            for size in range(1, min(certify.ABSENT_MAX, len(ref) - i) + 1)
            if tuple(ref[i : i + size]) not in grams
        ]
        assert length[i] == (missing[0] if missing else 0), (i, ref, hyp)


@given(
    word=st.sampled_from(VOCAB + ("hearth", "motorcar", "x")),
    theirs=st.lists(st.sampled_from(VOCAB + ("hearth", "motorcar", "x")), min_size=1, max_size=6),
)
@PROPERTY
def test_word_floor_is_a_lower_bound(word: str, theirs: list[str]) -> None:
    """No column pairing ``word`` with a different word of ``theirs`` costs less than its floor."""
    k, rc, hc, voc, _ = coded([word], theirs)
    floor = int(certify._word_floors(voc, hc)[rc[0]])
    for other in theirs:
        if other != word:
            assert floor <= substitution_cost(word, other), (word, other, floor)


def test_long_text_gets_a_meaningful_proven_gap(monkeypatch) -> None:
    """Without the seed table (too large), the gap comes from the absent sequences: far below the cost."""
    ref, hyp = noisy_text(7, 6000)
    exact_alignment = align_words(ref, hyp)
    assert exact_alignment.exact
    monkeypatch.setattr(certify, "SEED_LENGTH_MAX", 0)  # no table: as beyond ~20,000 words
    monkeypatch.setattr(exact, "BAND_MAX_CELLS", 0)
    al = align_words(ref, hyp)
    assert not al.exact and al.cost == exact_alignment.cost
    k, rc, hc, voc, _ = coded(ref, hyp)
    assert al.gap == al.cost - certify._absent_bound(k, rc, hc, voc)
    # The length difference alone would leave a gap of ~99% of the cost.
    assert al.gap < 0.5 * al.cost


def test_the_absent_bound_is_computed_when_the_guarantee_is_read(monkeypatch) -> None:
    """No score reads ``exact`` or ``gap``: the bound of an uncertified alignment waits until one is read,
    also in a pickled copy (the result of a child), which is sent the bound's inputs, not the bound."""
    import pickle

    ref, hyp = noisy_text(7, 6000)
    monkeypatch.setattr(certify, "SEED_LENGTH_MAX", 0)
    monkeypatch.setattr(exact, "BAND_MAX_CELLS", 0)
    calls = []
    bound = seeded._absent_bound
    monkeypatch.setattr(seeded, "_absent_bound", lambda *args: calls.append(1) or bound(*args))
    al = align_words(ref, hyp)
    copy = pickle.loads(pickle.dumps(al))
    assert calls == [] and al.lower is not None
    k, rc, hc, voc, _ = coded(ref, hyp)
    expected = (False, al.cost - certify._absent_bound(k, rc, hc, voc))
    assert (al.exact, al.gap) == expected and calls == [1]
    assert (al.exact, al.gap) == expected and calls == [1] and al.lower is None  # computed once
    assert (copy.exact, copy.gap) == expected and calls == [1, 1]


# The stored table (uint16, rounded down) and the run check skipped after an early certificate.


def _band_for(cost: int, n: int, m: int) -> tuple[int, int]:
    w = exact._certifying_width(cost, n - m)
    return max(min(0, n - m) - w, -m), min(max(0, n - m) + w, n)


def test_stored_values_are_rounded_down_exact_values() -> None:
    """Each stored value, shifted back, is the exact table's value rounded down to its unit: a lower bound."""
    ref, hyp = noisy_text(11, 1500)
    k, rc, hc, voc, _ = coded(ref, hyp)
    n, m = len(ref), len(hyp)
    upper = align_words(ref, hyp).cost + 900
    assert upper >= 65534  # values above uint16's range: the table is stored shifted
    dlo, dhi = _band_for(upper, n, m)
    bnd = certify._boundaries(n, 2)
    packed = certify._seed_table(k, rc, hc, voc, dlo, dhi, bnd, upper)
    exact_table = certify._seed_table(k, rc, hc, voc, dlo, dhi, bnd, upper, exact=True)
    assert packed.shift > 0 and exact_table.shift == 0 and packed.store.dtype == np.uint16
    assert packed.at_start == exact_table.at_start
    for s in range(0, len(bnd), 37):
        for d in range(dlo, dhi + 1, 5):
            want = exact_table.value(s, d)
            got = packed.value(s, d)
            assert got == (want >> packed.shift << packed.shift if want < kernels._TABLE_INF else want), (s, d)


@pytest.mark.slow
@given(budget=st.integers(0, 200_000))
@settings(max_examples=25, deadline=None)
def test_stopped_search_reports_the_exact_tables_bound(budget: int) -> None:
    """A search stopped by its budget gives the lower bound of the exact table, not that of the rounded one."""
    ref, hyp = noisy_text(12, 1500)
    k, rc, hc, voc, _ = coded(ref, hyp)
    n, m = len(ref), len(hyp)
    upper = align_words(ref, hyp).cost + 600
    dlo, dhi = _band_for(upper, n, m)
    got = certify._certify(k, rc, hc, voc, upper, dlo, dhi, budget)
    table = certify._seed_table(k, rc, hc, voc, dlo, dhi, certify._boundaries(n, 2), upper, exact=True)
    want = certify._search(k, rc, hc, voc, table, upper, dlo, dhi, budget)
    assert (got.complete, got.cost, got.lower) == (want.complete, want.cost, want.lower)
    if got.complete:
        for a, b in zip(got.columns, want.columns, strict=True):
            assert np.array_equal(a, b)


@pytest.mark.slow
@given(seed=st.integers(0, 10**6), n=st.integers(2100, 3000), rate=st.sampled_from((0.05, 0.15, 0.3, 0.6)))
@settings(max_examples=20, deadline=None)
def test_early_certificate_changes_nothing(seed: int, n: int, rate: float) -> None:
    """Certifying before the run check returns what the check followed by the certificate returns."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(60)] + ["uh", "w1-", "w2-"]
    ref = [vocab[i] for i in rng.integers(0, 60, n)]
    hyp: list[str] = []
    for word in ref:
        u = rng.random()
        if u < rate / 3:
            hyp.append(vocab[rng.integers(len(vocab))])
        elif u < 2 * rate / 3:
            hyp += ["uh", word]
        elif u >= rate:
            hyp.append(word)
    got = align_words(ref, hyp)
    calls = []
    original = seeded._certify_cost

    def first_fails(*args):
        calls.append(1)
        if len(calls) == 1:
            return certify._Certificate(False, args[-1], 0, None, 0)  # as if the early search had failed
        return original(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seeded, "_certify_cost", first_fails)
        want = align_words(ref, hyp)
    assert calls  # the seeded route, with runs to check
    assert (got.cost, got.exact, got.gap) == (want.cost, want.exact, want.gap)
    for a, b in ((got.ref_index, want.ref_index), (got.hyp_index, want.hyp_index), (got.kinds, want.kinds)):
        assert np.array_equal(a, b)


def test_exact_table_keeps_every_value_below_its_types_top() -> None:
    """In the exact (int32) table only the type's largest value means infinite: 65,535 is a value like any other."""
    k = kernels._kernels()
    store = np.array([65535, np.iinfo(np.int32).max, 7], np.int32)
    bounds = np.array([0], np.int64), np.array([0], np.int64), np.array([2], np.int64)
    table = certify._SeedTable(store, *bounds, 0, 0, np.array([0], np.int64), 0, 0, 3)
    assert [table.value(0, d) for d in range(4)] == [65535, kernels._TABLE_INF, 7, kernels._TABLE_INF]
    assert int(k.seed_value(store, *bounds, 0, 0, 0)) == 65535
    assert int(k.seed_value(store, *bounds, 0, 0, 1)) > 2**31 - 2  # prunes any cell: larger than any cost
    packed = np.array([65535, 100], np.uint16)
    assert int(k.seed_value(packed, *bounds, 3, 0, 0)) == 65535 << 3  # shifted back: above any bound it was made for
    assert int(k.seed_value(packed, *bounds, 3, 0, 1)) == 800
