"""§5 for the instances of one type in one document, on compact data.

The greedy mapping ranks every (reference, hypothesis) instance pair of a type
by (F desc, COR desc, INC+MIS+SPU asc, reference order, hypothesis order) and
takes the best pair whose two instances are both free, again and again. A
document with 100,000 instances of a type has 10^10 such pairs, and tens of
millions of them can score a COR point; this module chooses exactly the pairs
the procedure chooses without making a record per pair:

1. **Candidate fill pairs, as arrays.** Most instances are *plain*: each scored
   slot holds one fill (a text fill or a pointer) and one alternative. For the
   plain instances, per slot and aspect (content, extent, pointer), the fills
   that can be COR together are those that share a key
   (:mod:`hub4eval.scoring.candidates`); the pairs sharing a key are made as
   two integer arrays, then kept only where the aspect really is COR: clean
   content keys are exact (sharing one *is* the COR), noisy content is decided
   once per distinct pair of strings, extents by comparing offsets in numpy,
   pointers by the mapping of their targets (exact keys too).
2. **Counts from COR codes.** For two plain instances, a slot's fill pair has
   one point per aspect, INC unless COR; so the counts of a pair are those of
   the same two instance *shapes* without any COR (which slots, extents,
   optional slots, REM pointers: ``Mapper._shape``), with k of its INC turned
   COR, k being how many of its aspects are COR: the number of times the pair
   appears in the verified arrays. POS and ACT do not change with k, so F =
   (p + q) k / (p POS + q ACT) and the errors are the shapes' less k. The
   counts of a pair without COR are taken from one real pair per two shapes
   (``Mapper.match_instance``), so no rule of §6 is written twice.
3. **Instances that are not plain** (a slot with several fills or
   alternatives: rare) are compared pair by pair as before, for the pairs that
   share a key with them.
4. **The greedy** sorts the pairs with a COR once (``numpy.lexsort`` on the tie
   key) and scans them; the pairs without COR (F = 0) rank after all of them
   and are taken among the instances left free by shapes
   (:func:`hub4eval.scoring.greedy.greedy_by_class`).

Memory is known before anything is made: the number of candidate pairs is the
sum over keys of the products of their holders on each side, counted in one
pass over the keys; above the bound the document is refused at once
(:class:`~hub4eval.scoring.greedy.TooManyPairs`). The arrays take about 24
bytes a candidate pair at their peak.

The chosen pairs are then scored by the mapper into the usual records
(points, reasons, drill-down), for them only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from hub4eval.model import Instance, PointerFill
from hub4eval.scoring.candidates import (
    hypothesis_content_key,
    hypothesis_extent_key,
    reference_content_keys,
    reference_extent_keys,
    sharing_pairs,
)
from hub4eval.scoring.fills import PreparedFill
from hub4eval.scoring.greedy import TooManyPairs, greedy_by_class
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.verdicts import clean_content_status, extent_status, noisy_content_ok

if TYPE_CHECKING:
    from hub4eval.scoring.mapping import InstanceMatch, Mapper

Int = np.int64
BYTES_PER_PAIR = 24  # peak bytes per candidate pair of the arrays below (codes, their sort, positions)


def _plain(view: Mapping[str, Any]) -> bool:
    """Whether every scored slot of an instance view holds one alternative of one fill."""
    for _, alternatives, single in view.values():
        if single is None and (len(alternatives) != 1 or len(alternatives[0]) != 1):
            return False
    return True


class _Aspect:
    """Candidate fill pairs of one slot and aspect: fills by position, keys by id."""

    __slots__ = (
        "kind",
        "ref_fills",
        "hyp_fills",
        "ref_inst",
        "hyp_inst",
        "ref_pos",
        "ref_kid",
        "hyp_kid",
        "wild",
        "n_keys",
    )

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "c" clean content, "w" noisy content, "x" extent, "p" pointer
        self.ref_fills: list[Any] = []
        self.hyp_fills: list[Any] = []
        self.ref_inst: list[int] = []
        self.hyp_inst: list[int] = []
        self.ref_pos: list[int] = []  # (ref position, key id) of every reference key a hypothesis holds
        self.ref_kid: list[int] = []
        self.hyp_kid: list[int] = []  # key id of each hypothesis fill, -1 for none
        self.wild: list[int] = []  # reference positions with too many keys: paired with every hypothesis
        self.n_keys = 0

    def count(self) -> int:
        """How many candidate pairs :meth:`pairs` makes."""
        hyp_kid = np.asarray(self.hyp_kid, dtype=Int)
        holders = np.bincount(hyp_kid[hyp_kid >= 0], minlength=self.n_keys)
        total = int(holders[np.asarray(self.ref_kid, dtype=Int)].sum()) if self.ref_kid else 0
        return total + len(self.wild) * len(self.hyp_fills)

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """(reference positions, hypothesis positions) of every pair that shares a key."""
        hyp_kid = np.asarray(self.hyp_kid, dtype=Int)
        has = np.flatnonzero(hyp_kid >= 0)
        kid = hyp_kid[has]
        order = np.argsort(kid, kind="stable")
        sorted_pos = has[order]
        holders = np.bincount(kid, minlength=self.n_keys)
        starts = np.cumsum(holders) - holders
        ref_pos = np.asarray(self.ref_pos, dtype=Int)
        ref_kid = np.asarray(self.ref_kid, dtype=Int)
        many = holders[ref_kid] if len(ref_kid) else np.zeros(0, dtype=Int)
        total = int(many.sum())
        rq = np.repeat(ref_pos, many)
        firsts = np.repeat(starts[ref_kid] - (np.cumsum(many) - many), many) if total else np.zeros(0, dtype=Int)
        hp = sorted_pos[firsts + np.arange(total, dtype=Int)] if total else np.zeros(0, dtype=Int)
        if self.wild:
            n = len(self.hyp_fills)
            rq = np.concatenate([rq, np.repeat(np.asarray(self.wild, dtype=Int), n)])
            hp = np.concatenate([hp, np.tile(np.arange(n, dtype=Int), len(self.wild))])
        return rq, hp


def _aspects(
    mapper: Mapper,
    ref_views: Sequence[Mapping[str, Any]],
    hyp_views: Sequence[Mapping[str, Any]],
    ref_plain: Sequence[bool],
    hyp_plain: Sequence[bool],
    mapping: Mapping[str, str],
) -> list[_Aspect]:
    """The candidate fill pairs of the plain instances, slot by slot and aspect by aspect."""
    how = mapper.how
    text_ref: dict[str, list[tuple[int, PreparedFill]]] = {}
    pointer_ref: dict[str, list[tuple[int, PointerFill]]] = {}
    for side, (views, plain, texts, pointers) in enumerate(
        ((ref_views, ref_plain, text_ref, pointer_ref), (hyp_views, hyp_plain, {}, {}))
    ):
        if side == 1:
            text_hyp, pointer_hyp = texts, pointers
        for index, view in enumerate(views):
            if not plain[index]:
                continue
            for name, (_, alternatives, single) in view.items():
                if single is not None:
                    texts.setdefault(name, []).append((index, single))
                else:
                    pointers.setdefault(name, []).append((index, alternatives[0][0]))
    aspects: list[_Aspect] = []

    def build(
        kind: str,
        refs: list[tuple[int, Any]],
        hyps: list[tuple[int, Any]],
        hyp_key: Callable[[Any], Any],
        ref_keys: Callable[[Any], list | None],
    ) -> None:
        aspect = _Aspect(kind)
        ids: dict[Any, int] = {}
        for j, fill in hyps:
            key = hyp_key(fill)
            aspect.hyp_inst.append(j)
            aspect.hyp_fills.append(fill)
            if key is None:
                aspect.hyp_kid.append(-1)
            else:
                aspect.hyp_kid.append(ids.setdefault(key, len(ids)))
        for q, (i, fill) in enumerate(refs):
            aspect.ref_inst.append(i)
            aspect.ref_fills.append(fill)
            keys = ref_keys(fill)
            if keys is None:
                aspect.wild.append(q)
                continue
            for key in keys:
                kid = ids.get(key)
                if kid is not None:
                    aspect.ref_pos.append(q)
                    aspect.ref_kid.append(kid)
        aspect.n_keys = len(ids)
        if aspect.ref_pos or aspect.wild:
            aspects.append(aspect)

    for name, refs in text_ref.items():
        hyps = text_hyp.get(name)
        if not hyps:
            continue
        if how.content:
            build(
                "w" if how.noisy else "c",
                refs,
                hyps,
                lambda f, name=name: hypothesis_content_key(name, f, how),
                lambda f, name=name: reference_content_keys(name, f, how),
            )
        if how.extent:
            build(
                "x",
                refs,
                hyps,
                lambda f, name=name: hypothesis_extent_key(name, f),
                lambda f, name=name: reference_extent_keys(name, f),
            )
    for name, refs in pointer_ref.items():
        hyps = pointer_hyp.get(name)
        if not hyps:
            continue

        def pointer_key(fill: PointerFill) -> list:
            mapped = mapping.get(fill.key)
            return [] if mapped is None else [mapped]

        build("p", refs, hyps, lambda f: f.key, pointer_key)
    return aspects


def _correct(aspect: _Aspect, rq: np.ndarray, hp: np.ndarray, mapper: Mapper) -> np.ndarray:
    """Which of the candidate fill pairs (positions ``rq``, ``hp``) are COR in the aspect."""
    kind = aspect.kind
    n = len(rq)
    if kind == "p" or (kind == "c" and not aspect.wild):
        return np.ones(n, dtype=bool)  # the key is the rule itself
    if kind == "c":  # a wildcard's pairs are compared one by one (they are few)
        ok = np.ones(n, dtype=bool)
        wild = set(aspect.wild)
        refs, hyps = aspect.ref_fills, aspect.hyp_fills
        for k in np.flatnonzero(np.isin(rq, np.asarray(aspect.wild, dtype=Int))).tolist():
            q = int(rq[k])
            if q in wild:
                ok[k] = clean_content_status(refs[q], hyps[int(hp[k])]) == "ok"
        return ok
    if kind == "w":  # once per distinct pair of strings
        ref_ids: dict[Any, int] = {}
        ref_sid = np.asarray(
            [ref_ids.setdefault((f.fill.content, f.fill.minimal_spans), len(ref_ids)) for f in aspect.ref_fills],
            dtype=Int,
        )
        hyp_ids: dict[str, int] = {}
        hyp_sid = np.asarray([hyp_ids.setdefault(f.fill.content, len(hyp_ids)) for f in aspect.hyp_fills], dtype=Int)
        combined = ref_sid[rq] * len(hyp_ids) + hyp_sid[hp]
        distinct, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
        fillers = mapper.how.fillers
        verdicts = np.asarray(
            [
                noisy_content_ok(aspect.ref_fills[int(rq[k])], aspect.hyp_fills[int(hp[k])], fillers)
                for k in first.tolist()
            ],
            dtype=bool,
        )
        return verdicts[inverse.reshape(-1)] if len(distinct) else np.zeros(0, dtype=bool)
    # extent: offsets compared in numpy; a reference with minimal strings of their own one by one
    refs, hyps = aspect.ref_fills, aspect.hyp_fills
    none = -(2**62)
    rs = np.asarray([f.maximal.extent.start for f in refs], dtype=Int)
    re_ = np.asarray([f.maximal.extent.end for f in refs], dtype=Int)
    own = np.asarray([f.minimals != (f.maximal,) for f in refs], dtype=bool)
    hs = np.asarray([f.maximal.extent.start if f.maximal.extent is not None else none for f in hyps], dtype=Int)
    he = np.asarray([f.maximal.extent.end if f.maximal.extent is not None else none for f in hyps], dtype=Int)
    a, b, c, d = rs[rq], re_[rq], hs[hp], he[hp]
    # enclosed; then the maximal string is the minimal one, and an enclosed extent overlaps it
    ok = (a <= c) & (c <= b) & (a <= d) & (d <= b) & (c != none)
    for k in np.flatnonzero(own[rq]).tolist():
        hyp = hyps[int(hp[k])]
        ok[k] = hyp.maximal.extent is not None and extent_status(refs[int(rq[k])], hyp) == "ok"
    return ok


def _estimate(aspects: Sequence[_Aspect]) -> int:
    return sum(aspect.count() for aspect in aspects)


def map_type(
    mapper: Mapper,
    refs: Sequence[Instance],
    hyps: Sequence[Instance],
    mapping: Mapping[str, str],
    removable: Callable[[PointerFill], bool],
    max_pairs: int,
) -> tuple[list[tuple[int, int]], dict[tuple[int, int], InstanceMatch]]:
    """The pairs the greedy chooses among the instances of one type, best first,
    and the matches made on the way (pairs with a COR, to be reused).

    Raises:
        TooManyPairs: more than ``max_pairs`` candidate pairs, counted before any is made.
    """
    n_ref, n_hyp = len(refs), len(hyps)
    ref_views = [mapper._view(r, True) for r in refs]
    hyp_views = [mapper._view(h, False) for h in hyps]
    ref_plain = [_plain(v) for v in ref_views]
    hyp_plain = [_plain(v) for v in hyp_views]
    aspects = _aspects(mapper, ref_views, hyp_views, ref_plain, hyp_plain, mapping)
    estimate = _estimate(aspects)
    if estimate > max_pairs:
        raise TooManyPairs(estimate)
    matched: dict[tuple[int, int], InstanceMatch] = {}

    def match(i: int, j: int) -> InstanceMatch:
        found = matched.get((i, j))
        if found is None:
            found = mapper.match_instance(refs[i], hyps[j], mapping, removable)
        return found

    # 1. the COR aspects of plain pairs, as instance pair codes i * n_hyp + j
    codes = []
    for aspect in aspects:
        rq, hp = aspect.pairs()
        ok = _correct(aspect, rq, hp, mapper)
        ref_inst = np.asarray(aspect.ref_inst, dtype=Int)
        hyp_inst = np.asarray(aspect.hyp_inst, dtype=Int)
        codes.append(ref_inst[rq[ok]] * n_hyp + hyp_inst[hp[ok]])
        del rq, hp, ok
    if codes:
        plain_codes, k = np.unique(np.concatenate(codes), return_counts=True)
    else:
        plain_codes, k = np.zeros(0, dtype=Int), np.zeros(0, dtype=Int)
    del codes

    # 2. pairs with an instance that is not plain: compared one by one
    other_codes: list[int] = []
    other_counts: list[Counts] = []
    odd_refs = [i for i in range(n_ref) if not ref_plain[i]]
    odd_hyps = [j for j in range(n_hyp) if not hyp_plain[j]]
    if odd_refs or odd_hyps:
        ref_keys = [mapper._keys(refs[i], True, mapping) for i in range(n_ref)]
        hyp_keys = [mapper._keys(hyps[j], False, mapping) for j in range(n_hyp)]
        found: set[tuple[int, int]] = set()
        limit = max_pairs - estimate
        if odd_refs:
            found |= {(odd_refs[a], j) for a, j in sharing_pairs([ref_keys[i] for i in odd_refs], hyp_keys, limit)}
        if odd_hyps:
            plain_refs = [i for i in range(n_ref) if ref_plain[i]]
            found |= {
                (plain_refs[a], odd_hyps[b])
                for a, b in sharing_pairs(
                    [ref_keys[i] for i in plain_refs], [hyp_keys[j] for j in odd_hyps], limit - len(found)
                )
            }
        for i, j in sorted(found):
            m = match(i, j)
            if m.counts.cor:
                matched[i, j] = m
                other_codes.append(i * n_hyp + j)
                other_counts.append(m.counts)

    # 3. the counts of every pair with a COR: its shapes' counts less k INC, plus k COR
    shapes: tuple[dict[int, Any], ...] = ({}, {})

    def shape(index: int, reference: bool) -> Any:
        known = shapes[reference]
        if index not in known:
            inst = refs[index] if reference else hyps[index]
            known[index] = mapper._shape(inst, reference, removable)
        return known[index]

    plain_i = plain_codes // n_hyp if n_hyp else plain_codes
    plain_j = plain_codes % n_hyp if n_hyp else plain_codes
    ref_shape_ids: dict[Any, int] = {}
    hyp_shape_ids: dict[Any, int] = {}
    ref_sid = np.full(n_ref, -1, dtype=Int)
    hyp_sid = np.full(n_hyp, -1, dtype=Int)
    for i in np.unique(plain_i).tolist():
        ref_sid[i] = ref_shape_ids.setdefault(shape(i, True), len(ref_shape_ids))
    for j in np.unique(plain_j).tolist():
        hyp_sid[j] = hyp_shape_ids.setdefault(shape(j, False), len(hyp_shape_ids))
    n_shapes = max(1, len(hyp_shape_ids))
    shape_pair = ref_sid[plain_i] * n_shapes + hyp_sid[plain_j]
    combo_key = k * (len(ref_shape_ids) * n_shapes) + shape_pair  # (k, shape pair)
    combos, first, inverse = np.unique(combo_key, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    base: dict[int, Counts] = {}  # shape pair -> the counts of its pairs without COR
    table: list[Counts] = []
    for at in first.tolist():
        pair = int(shape_pair[at])
        if pair not in base:
            i, j = int(plain_i[at]), int(plain_j[at])
            m = match(i, j)
            matched[i, j] = m
            c, cor = m.counts, int(k[at])
            if c.cor != cor:  # pragma: no cover - the COR codes and the comparison disagree
                raise AssertionError(f"pair {i}, {j}: {c.cor} COR points, {cor} COR codes")
            base[pair] = Counts(0, c.inc + cor, c.mis, c.spu, c.opt, c.rem)
        b, cor = base[pair], int(k[at])
        table.append(Counts(cor, b.inc - cor, b.mis, b.spu, b.opt, b.rem))
    other_index: dict[Counts, int] = {}
    other_combo = np.asarray(
        [other_index.setdefault(c, len(table) + len(other_index)) for c in other_counts], dtype=Int
    )
    table += list(other_index)
    all_codes = np.concatenate([plain_codes, np.asarray(other_codes, dtype=Int)])
    combo = np.concatenate([inverse.astype(Int), other_combo])
    del inverse, combo_key, shape_pair

    # 4. the greedy over the pairs with a COR (F > 0), then the F = 0 pairs by shapes
    beta_squared = mapper.beta_squared
    min_f = mapper.config.min_map_f or None
    f_key = np.asarray([-c.f_key(beta_squared) for c in table], dtype=np.float64)
    cor_key = np.asarray([-c.cor for c in table], dtype=Int)
    err_key = np.asarray([c.errors for c in table], dtype=Int)
    if min_f is not None:  # only pairs with F above it are mapped
        threshold = Fraction(str(min_f))
        keep = np.asarray([c.f_exact(beta_squared) > threshold for c in table], dtype=bool)
        wanted = keep[combo]
        all_codes, combo = all_codes[wanted], combo[wanted]
    ii = all_codes // max(1, n_hyp)
    jj = all_codes % max(1, n_hyp)
    order = np.lexsort((jj, ii, err_key[combo], cor_key[combo], f_key[combo]))
    chosen = _scan(ii[order], jj[order], n_ref, n_hyp)
    del order, combo
    if min_f is not None and min_f > 0:
        return chosen, matched  # pairs with F = 0 are never mapped
    used_ref = {i for i, _ in chosen}
    used_hyp = {j for _, j in chosen}
    if len(used_ref) == n_ref or len(used_hyp) == n_hyp:
        return chosen, matched
    positive = np.sort(all_codes)

    def errors_without_cor(i: int, j: int) -> int | None:
        code = i * n_hyp + j
        at = int(np.searchsorted(positive, code))
        if at < len(positive) and positive[at] == code:
            return None  # this pair has a COR
        return match(i, j).counts.errors

    ref_class = _LazyShapes(lambda i: shape(i, True), n_ref)
    hyp_class = _LazyShapes(lambda j: shape(j, False), n_hyp)
    chosen += greedy_by_class(n_ref, n_hyp, used_ref, used_hyp, (ref_class, hyp_class), errors_without_cor, max_pairs)
    return chosen, matched


class _LazyShapes(Sequence[Any]):
    """``[shape(i) for i in range(n)]``, each made when first read."""

    __slots__ = ("_shape", "_n")

    def __init__(self, shape: Callable[[int], Any], n: int) -> None:
        self._shape = shape
        self._n = n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self._shape(index)


def _scan(ii: np.ndarray, jj: np.ndarray, n_ref: int, n_hyp: int) -> list[tuple[int, int]]:
    """The greedy's scan of pairs in rank order: each pair whose two instances are free."""
    used_ref = bytearray(n_ref)
    used_hyp = bytearray(n_hyp)
    chosen: list[tuple[int, int]] = []
    room = min(n_ref, n_hyp)
    for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
        if used_ref[i] or used_hyp[j]:
            continue
        used_ref[i] = used_hyp[j] = 1
        chosen.append((i, j))
        if len(chosen) == room:
            break
    return chosen
