"""The ceiling's count of pairs of instance sets whose every instance is provably mapped to
the instance at its place in the other set: counted without mapping them.

The ceiling scores the reference against its projection (:mod:`hub4eval.scoring.projection`),
whose instances are the reference's, in the same order, each fill moved onto the hypothesis
text. The mapping nearly always pairs each projected instance with its own reference
instance; working that out for every candidate pair (:mod:`hub4eval.scoring.pairs`) was most
of the ceiling's time. Here the *diagonal* of a pair of sets (the i-th reference instance of
a type with the i-th hypothesis instance of that type) is checked against the greedy instead.

**Why the check is exact.** The greedy (:func:`hub4eval.scoring.greedy.greedy_map`) ranks
every pair of a type by its key (F desc, COR desc, INC + MIS + SPU asc, reference order,
hypothesis order) and takes the best pair whose two instances are free, again and again.
Suppose no pair (a, b) off the diagonal ranks before both diagonal pairs of its instances,
(a, a) and (b, b). Then the greedy takes the diagonal: else let (d, d) be the first diagonal
pair, in rank order, that it does not take; a pair taken before it holds d, (d, c) or (c, d)
with c != d, and ranks before (d, d); so it ranks after (c, c), which ranks before (d, d) and
was taken (d is the first not taken), holding c: that pair could not be taken. Every pair off
the diagonal is checked with its exact counts, so the check never passes where the greedy
would choose otherwise; where it fails, the pair of sets is mapped by the usual engine.

**The counts of a pair without its match record.** This applies where the engine's counts
do (:mod:`hub4eval.scoring.pairs`, steps 1 and 2): two *plain* instances (each scored slot
one text fill, a reference fill without minimal strings of its own: the instances a
:class:`~hub4eval.scoring.fill_tables.FillTable` covers, no pointer) have one point per slot
and aspect compared, COR or INC, and the rest decided by their shapes. Which aspects are
COR is read from the two tables' arrays as the engine reads it: a content is COR when the
two texts' numbers are equal (clean), or when the reference string's words are the words
the hypothesis string keeps (noisy; a reference string with optional words sends its pair
of sets to the engine), an extent when the hypothesis's lies in the reference's enclosure
and overlaps its extent. The counts and points of a pair are those of one real match of the
same two shapes, each compared point COR or INC as read (the first pair of each two shapes
is checked against its match record: a disagreement is a bug, and raises).

Pairs of sets that are not such pairs (other instances, a different number of instances
of a type, a type of more than :data:`MAX_GROUP` instances, options under which the tables
are not read: ``--min-map-f``, exact extents) are mapped by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from hub4eval.model import InstanceSet, PointerFill, TemplateSet
from hub4eval.scoring.fill_tables import NONE, FillTable
from hub4eval.scoring.mapping import CountedMatch, CountedSet, Mapper
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.pairs import _MAX_ASPECT_BITS, _points_with, _template, tabulate

Int = np.int64

SHORTCUT = True
"""Whether a count of a projection counts its diagonal pairs of sets here (tests turn it off:
every pair of sets then goes through the engine, the oracle)."""

MAX_GROUP = 64
"""Instances of one type of one set above which its pair of sets is mapped by the engine
(the check compares every pair of them)."""


def _never(fill: PointerFill) -> bool:
    return False  # no pointer in the pairs counted here


class Diagonal:
    """Of a count of ``ref`` against ``hyp`` (``Mapper.count_template_sets`` with extent
    functions, ``counting`` on), the pairs of sets, among the overlapping ones, whose
    instances are provably mapped to the instances at their places (see the module):
    called with the overlapping pairs (i, j) of sets, it gives their :class:`CountedSet`
    by pair."""

    def __init__(self, mapper: Mapper, ref: TemplateSet, hyp: TemplateSet, order: Sequence[str]) -> None:
        self.mapper = mapper
        self.ref = ref
        self.hyp = hyp
        self.order = order

    def __call__(self, overlapping: Sequence[tuple[int, int]]) -> dict[tuple[int, int], CountedSet]:
        mapper = self.mapper
        how = mapper.how
        if (
            not SHORTCUT
            or not mapper.counting
            or mapper.config.min_map_f
            or how.exact_extent
            or mapper.point_runs is not None
            or not overlapping
        ):
            return {}
        ref_sets, hyp_sets = self.ref.instance_sets, self.hyp.instance_sets
        # a set paired with several (or with another's): the greedy over sets decides, the engine maps
        if any(i != j for i, j in overlapping):
            return {}
        ref_table = tabulate(mapper, [inst for iset in ref_sets for inst in iset.instances], True)
        hyp_table = tabulate(mapper, [inst for iset in hyp_sets for inst in iset.instances], False)
        if ref_table is None or hyp_table is None:
            return {}
        return self._counted(overlapping, ref_sets, hyp_sets, ref_table, hyp_table)

    def _counted(
        self,
        overlapping: Sequence[tuple[int, int]],
        ref_sets: Sequence[InstanceSet],
        hyp_sets: Sequence[InstanceSet],
        ref_table: FillTable,
        hyp_table: FillTable,
    ) -> dict[tuple[int, int], CountedSet]:
        mapper = self.mapper
        how = mapper.how
        noisy = how.noisy and how.content
        fillers = how.fillers
        # the rows of each set in the tables (their instances, flat, in order)
        ref_start = np.zeros(len(ref_sets) + 1, dtype=Int)
        np.cumsum([len(iset.instances) for iset in ref_sets], out=ref_start[1:])
        hyp_start = np.zeros(len(hyp_sets) + 1, dtype=Int)
        np.cumsum([len(iset.instances) for iset in hyp_sets], out=hyp_start[1:])
        # what sends a pair of sets to the engine, by row: not plain, or a content read otherwise
        ref_odd = ~ref_table.covered
        hyp_odd = ~hyp_table.covered
        ref_content = hyp_content = None
        if how.content and noisy:
            ref_content = ref_table.words(mapper.ref_prep, fillers)[3]  # -1: some word optional
            hyp_content = hyp_table.words(mapper.hyp_prep, fillers)[4]
            ref_odd = ref_odd | _rows_with(ref_table, ref_content < 0)
        elif how.content:
            ref_content, hyp_content = ref_table.numbers, hyp_table.numbers
            ref_odd = ref_odd | _rows_with(ref_table, ref_content < 0)
            hyp_odd = hyp_odd | _rows_with(hyp_table, hyp_content < 0)
        # the groups (a type of a pair of sets) of the pairs of sets that may be counted here
        sets: list[int] = []
        group_sizes: list[int] = []
        ref_rows: list[int] = []
        hyp_rows: list[int] = []
        ref_odd_list = ref_odd.tolist()
        hyp_odd_list = hyp_odd.tolist()
        for j, _ in overlapping:
            ref_instances, hyp_instances = ref_sets[j].instances, hyp_sets[j].instances
            n = len(ref_instances)
            if n != len(hyp_instances):
                continue
            r0, h0 = int(ref_start[j]), int(hyp_start[j])
            if any(ref_odd_list[r0 : r0 + n]) or any(hyp_odd_list[h0 : h0 + n]):
                continue
            types = [inst.type for inst in ref_instances]
            if types != [inst.type for inst in hyp_instances]:
                continue
            first = types[0]
            if all(t == first for t in types):  # the usual set: one type
                if n > MAX_GROUP:
                    continue
                sets.append(j)
                group_sizes.append(n)
                ref_rows += range(r0, r0 + n)
                hyp_rows += range(h0, h0 + n)
                continue
            by_type: dict[str, list[int]] = {}
            for k, t in enumerate(types):
                by_type.setdefault(t, []).append(k)
            if max(map(len, by_type.values())) > MAX_GROUP:
                continue
            sets.append(j)
            for members in by_type.values():
                group_sizes.append(len(members))
                ref_rows += [r0 + k for k in members]
                hyp_rows += [h0 + k for k in members]
        if not sets:
            return {}
        sizes = np.asarray(group_sizes, dtype=Int)
        rows = (np.asarray(ref_rows, dtype=Int), np.asarray(hyp_rows, dtype=Int))
        try:
            keys, diagonal_combo, combos = self._keys(sizes, rows, ref_table, hyp_table, ref_content, hyp_content)
        except _TooManyAspects:
            return {}
        # the groups with a pair off the diagonal that ranks before both diagonal pairs of its instances
        n_groups = len(sizes)
        group_start = np.zeros(n_groups, dtype=Int)
        np.cumsum(sizes[:-1], out=group_start[1:])
        squares = sizes * sizes
        pair_start = np.zeros(n_groups, dtype=Int)
        np.cumsum(squares[:-1], out=pair_start[1:])
        pair_group = np.repeat(np.arange(n_groups, dtype=Int), squares)
        within = np.arange(len(pair_group), dtype=Int) - pair_start[pair_group]
        n = sizes[pair_group]
        a, b = within // n, within % n
        off = a != b
        diag_a = pair_start[pair_group] + a * (n + 1)
        diag_b = pair_start[pair_group] + b * (n + 1)
        before_a = _ranks_before(keys, diag_a, b < a)
        before_b = _ranks_before(keys, diag_b, a < b)
        bad = np.zeros(n_groups, dtype=bool)
        bad[pair_group[off & before_a & before_b]] = True
        # the matches of the diagonal, by set, in the order the engine lists them
        signatures: dict[int, tuple[Counts, int]] = {}
        counted: dict[tuple[int, int], CountedSet] = {}
        group = 0
        item = 0
        order = self.order
        ref_instances_all = ref_table.instances
        hyp_instances_all = hyp_table.instances
        for j in sets:
            ref_set, hyp_set = ref_sets[j], hyp_sets[j]
            n_instances = len(ref_set.instances)
            groups = []
            taken = 0
            while taken < n_instances:
                groups.append(group)
                taken += int(sizes[group])
                group += 1
            first_item = item
            item += n_instances
            if bad[groups].any():
                continue
            found: dict[int, CountedMatch] = {}  # by item
            for at in range(first_item, item):
                combo = int(diagonal_combo[at])
                entry = signatures.get(combo)
                if entry is None:
                    counts, points = combos[combo]
                    entry = signatures[combo] = (counts, mapper.signature(points))
                found[at] = CountedMatch(
                    ref_instances_all[ref_rows[at]], hyp_instances_all[hyp_rows[at]], entry[0], entry[1]
                )
            matches = list(found.values())
            if len(groups) > 1:  # several types: listed type by type, in the mapping's order
                rank = {name: k for k, name in enumerate(order)}
                matches.sort(key=lambda m: rank[m.ref.type])  # type: ignore[union-attr]
            counted[j, j] = CountedSet(ref_set, hyp_set, tuple(matches), Counts.total([m.counts for m in matches]))
        return counted

    def _keys(
        self,
        sizes: np.ndarray,
        rows: tuple[np.ndarray, np.ndarray],
        ref_table: FillTable,
        hyp_table: FillTable,
        ref_content: np.ndarray | None,
        hyp_content: np.ndarray | None,
    ) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray, list[tuple[Counts, Any]]]:
        """The greedy's key (-F, -COR, INC + MIS + SPU) of every pair of each group (the groups'
        items, ``sizes[g]`` of them each, at ``rows`` of the two tables: every pair of
        a group's items, by reference item then hypothesis item), the combination (two shapes
        and the COR aspects) of the diagonal pair of each item, and the counts and points of
        each combination."""
        mapper = self.mapper
        how = mapper.how
        squares = sizes * sizes
        n_groups = len(sizes)
        group_start = np.zeros(n_groups, dtype=Int)
        np.cumsum(sizes[:-1], out=group_start[1:])
        pair_start = np.zeros(n_groups, dtype=Int)
        np.cumsum(squares[:-1], out=pair_start[1:])
        pair_group = np.repeat(np.arange(n_groups, dtype=Int), squares)
        within = np.arange(len(pair_group), dtype=Int) - pair_start[pair_group]
        n = sizes[pair_group]
        item_a = group_start[pair_group] + within // n
        item_b = group_start[pair_group] + within % n
        ref_row = rows[0][item_a]
        hyp_row = rows[1][item_b]
        # the COR aspects of each pair, as bits of (slot, aspect) (Mapper.aspect_bits, as the engine's)
        bits = mapper.aspect_bits
        mask = np.zeros(len(ref_row), dtype=Int)
        ref_columns = ref_table.columns() if how.extent else None
        hyp_columns = hyp_table.columns() if how.extent else None
        hyp_slots = {name: s for s, name in enumerate(hyp_table.slot_names)}
        for s, name in enumerate(ref_table.slot_names):
            h = hyp_slots.get(name)
            if h is None:
                continue
            rf = ref_table.slot_fill[s][ref_row]
            hf = hyp_table.slot_fill[h][hyp_row]
            both = (rf >= 0) & (hf >= 0)
            if not both.any():
                continue
            at = np.flatnonzero(both)
            rf, hf = rf[at], hf[at]
            if ref_content is not None and hyp_content is not None:
                ok = ref_content[rf] == hyp_content[hf]
                mask[at] |= ok.astype(Int) << _bit(bits, name, "content")
            if ref_columns is not None and hyp_columns is not None:
                ok = _extent_ok(ref_columns, hyp_columns, rf, hf)
                mask[at] |= ok.astype(Int) << _bit(bits, name, "extent")
        # the shapes of the two instances (Mapper._shape: each table's are made once per distinct one)
        ref_shape = _shape_ids(ref_table, ref_row)
        hyp_shape = _shape_ids(hyp_table, hyp_row)
        n_hyp_shapes = int(hyp_shape.max()) + 1 if len(hyp_shape) else 1
        shape_pair = ref_shape * n_hyp_shapes + hyp_shape
        by_key = np.lexsort((mask, shape_pair))
        new = np.ones(len(by_key), dtype=bool)
        new[1:] = (np.diff(shape_pair[by_key]) != 0) | (np.diff(mask[by_key]) != 0)
        inverse = np.empty(len(by_key), dtype=Int)
        inverse[by_key] = np.cumsum(new) - 1
        firsts = by_key[new]
        templates: dict[int, Any] = {}
        combos: list[tuple[Counts, Any]] = []
        beta_squared = mapper.beta_squared
        f_key: list[float] = []
        cor_key: list[int] = []
        err_key: list[int] = []
        for p in firsts.tolist():
            pair = int(shape_pair[p])
            template = templates.get(pair)
            if template is None:
                template = templates[pair] = self._template(int(ref_row[p]), int(hyp_row[p]), int(mask[p]), ref_table, hyp_table)
            points = _points_with(template, int(mask[p]), bits)
            counts = Counts.tally([category for _, _, category in points])
            combos.append((counts, points))
            f_key.append(-counts.f_key(beta_squared))
            cor_key.append(-counts.cor)
            err_key.append(counts.errors)
        keys = (
            np.asarray(f_key, dtype=np.float64)[inverse],
            np.asarray(cor_key, dtype=Int)[inverse],
            np.asarray(err_key, dtype=Int)[inverse],
        )
        diagonal = pair_start[np.repeat(np.arange(n_groups, dtype=Int), sizes)] + (
            np.arange(len(rows[0]), dtype=Int) - np.repeat(group_start, sizes)
        ) * (np.repeat(sizes, sizes) + 1)
        return keys, inverse[diagonal], combos

    def _template(self, ref_row: int, hyp_row: int, mask: int, ref_table: FillTable, hyp_table: FillTable) -> Any:
        """The points of the match of the two instances, each compared point's category left
        out (``pairs._template``), checked against the COR aspects read of the pair."""
        mapper = self.mapper
        match = mapper.match_instance(ref_table.instances[ref_row], hyp_table.instances[hyp_row], {}, _never)
        template = _template(match)
        points = tuple(
            [(slot.name, verdict.kind, verdict.category) for slot in match.slots for _, _, vs in slot.pairs for verdict in vs]
        )
        if _points_with(template, mask, mapper.aspect_bits) != points:  # pragma: no cover - a bug
            raise AssertionError(f"rows {ref_row}, {hyp_row}: the COR aspects read are not those of the match")
        return template


def _rows_with(table: FillTable, fills: np.ndarray) -> np.ndarray:
    """Whether each row (instance) of ``table`` has a fill where ``fills`` is true."""
    return np.bincount(table.fill_inst[fills], minlength=len(table.instances)) > 0


def _bit(bits: dict[tuple[str, str], int], slot: str, kind: str) -> int:
    """The bit of (slot, kind) in the masks of COR aspects (``Mapper.aspect_bits``)."""
    bit = bits.get((slot, kind))
    if bit is None:
        if len(bits) >= _MAX_ASPECT_BITS:
            raise _TooManyAspects
        bit = bits[slot, kind] = len(bits)
    return bit


class _TooManyAspects(Exception):
    """More (slot, aspect) than the bits of a mask: the engine counts."""


def _extent_ok(
    ref_columns: tuple[np.ndarray, np.ndarray, Any],
    hyp_columns: tuple[np.ndarray, np.ndarray, Any],
    rf: np.ndarray,
    hf: np.ndarray,
) -> np.ndarray:
    """Whether the extent point of each fill pair is COR, as ``pairs._correct`` reads it: the
    hypothesis's extent enclosed in the reference's enclosing one and overlapping its one
    minimal extent (a table's reference fill has one, its maximal one)."""
    starts, ends, minimal = ref_columns
    ms, me = (starts, ends) if minimal is None else minimal
    a, b, c, d = starts[rf], ends[rf], hyp_columns[0][hf], hyp_columns[1][hf]
    ok = (a <= c) & (c <= b) & (a <= d) & (d <= b) & (c != NONE) & (a != NONE)
    s_, e_ = ms[rf], me[rf]
    overlaps = ((s_ <= c) & (c <= e_)) | ((s_ <= d) & (d <= e_)) | ((c <= s_) & (s_ <= d)) | ((c <= e_) & (e_ <= d))
    return ok & overlaps & (s_ != NONE)


def _shape_ids(table: FillTable, rows: np.ndarray) -> np.ndarray:
    """A number for each distinct shape of the instances at ``rows`` (a table makes each distinct
    shape once: equal shapes are one object)."""
    ids = np.fromiter(map(id, table.shapes), dtype=Int, count=len(table.shapes))
    _, inverse = np.unique(ids[rows], return_inverse=True)
    return inverse.reshape(-1).astype(Int)


def _ranks_before(keys: tuple[np.ndarray, np.ndarray, np.ndarray], other: np.ndarray, earlier: np.ndarray) -> np.ndarray:
    """Whether each pair ranks before the pair ``other`` (by index) in the greedy's order: a
    better key, or an equal one and ``earlier`` (what the two pairs' places decide)."""
    f, c, e = keys
    f2, c2, e2 = f[other], c[other], e[other]
    better = (f < f2) | ((f == f2) & ((c < c2) | ((c == c2) & (e < e2))))
    same = (f == f2) & (c == c2) & (e == e2)
    return better | (same & earlier)


__all__ = ["SHORTCUT", "Diagonal"]
