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
from itertools import accumulate, compress, repeat
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

import numpy as np

from hub4eval.model import Extent, Instance, InstanceSet, PointerFill, TemplateSet, TextFill
from hub4eval.scoring.fill_tables import NONE, FillTable, spans_of_sets
from hub4eval.scoring.mapping import CountedMatch, CountedSet, Mapper
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.noisy import kept_correct
from hub4eval.scoring.pairs import (
    aspect_bit,
    column_mapper,
    counted_with,
    distinct_combos,
    extents_correct,
    point_template,
    points_with,
    tabulate,
)
from hub4eval.scoring.set_extents import KnownExtents, kept_set_extents
from hub4eval.text.column_extents import map_in_place

Int = np.int64

SHORTCUT = True
"""Whether a count of a projection counts its diagonal pairs of sets here (tests turn it off:
every pair of sets then goes through the engine, the oracle)."""

MAX_GROUP = 64
"""Instances of one type of one set above which its pair of sets is mapped by the engine
(the check compares every pair of them)."""


_type = attrgetter("type")
_content, _extents, _start, _end = attrgetter("content"), attrgetter("extents"), attrgetter("start"), attrgetter("end")
_first = itemgetter(0)
_removed, _number = itemgetter(1), itemgetter(4)  # of a normalized string: premodifier characters removed, text number


def _never(fill: PointerFill) -> bool:
    return False  # no pointer in the pairs counted here


class Diagonal:
    """Of a count of ``ref`` against ``hyp`` (``Mapper.count_template_sets`` with extent
    functions, ``counting`` on), the pairs of sets, among the overlapping ones, whose
    instances are provably mapped to the instances at their places (see the module):
    called with the overlapping pairs (i, j) of sets, it gives their :class:`CountedSet`
    by pair. The reference's fills are read from its :class:`FillTable` (made for the
    system's count); the hypothesis's (a projection, counted once) are read here, for the
    pairs of sets it counts only."""

    def __init__(
        self, mapper: Mapper, ref: TemplateSet, hyp: TemplateSet, order: Sequence[str], fills: ProjectionFills
    ) -> None:
        self.mapper = mapper
        self.ref = ref
        self.hyp = hyp
        self.order = order
        self.fills = fills  # of hyp

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
            or self.fills.source is not self.hyp
        ):
            return {}
        # a set paired with several (or with another's): the greedy over sets decides, the engine maps
        if any(i != j for i, j in overlapping):
            return {}
        ref_table = tabulate(mapper, self.ref.instances, True)
        if ref_table is None:
            return {}
        try:
            return self._counted(overlapping, self.ref.instance_sets, self.hyp.instance_sets, ref_table)
        except _TooManyAspects:
            return {}

    def _counted(
        self,
        overlapping: Sequence[tuple[int, int]],
        ref_sets: Sequence[InstanceSet],
        hyp_sets: Sequence[InstanceSet],
        ref_table: FillTable,
    ) -> dict[tuple[int, int], CountedSet]:
        mapper = self.mapper
        how = mapper.how
        # the groups (a type of a pair of sets) of the pairs of sets that may be counted here: of
        # each pair of sets of as many instances, plain, of the same types in the same places
        hyp = self.fills
        ref_start = np.zeros(len(ref_sets) + 1, dtype=Int)
        np.cumsum([len(iset.instances) for iset in ref_sets], out=ref_start[1:])
        hyp_start = np.asarray(hyp.set_start, dtype=Int)
        js = np.asarray([j for j, _ in overlapping], dtype=Int)
        n = ref_start[js + 1] - ref_start[js]
        js = js[(n > 0) & (n == hyp_start[js + 1] - hyp_start[js])]
        n = ref_start[js + 1] - ref_start[js]
        set_of_row = np.repeat(np.arange(len(js), dtype=Int), n)
        offset = np.arange(len(set_of_row), dtype=Int) - np.repeat(np.cumsum(n) - n, n)
        ref_rows = ref_start[js][set_of_row] + offset
        hyp_rows = hyp_start[js][set_of_row] + offset
        ref_types = list(map(_type, ref_table.instances))
        type_ids = {name: k for k, name in enumerate(dict.fromkeys(ref_types))}
        ref_type = np.fromiter(map(type_ids.__getitem__, ref_types), Int, len(ref_types))
        hyp_type = np.fromiter(map(type_ids.get, hyp.types, repeat(-1)), Int, len(hyp.types))
        hyp_odd = np.zeros(len(hyp.items), dtype=bool)
        hyp_odd[hyp.odd] = True
        row_ok = ref_table.covered[ref_rows] & ~hyp_odd[hyp_rows] & (ref_type[ref_rows] == hyp_type[hyp_rows])
        first_type = ref_type[ref_rows[np.cumsum(n) - n]]
        one_type = ref_type[ref_rows] == first_type[set_of_row]
        set_ok = np.bincount(set_of_row[~row_ok], minlength=len(js)) == 0
        set_one_type = np.bincount(set_of_row[~one_type], minlength=len(js)) == 0
        usual = set_ok & set_one_type & (n <= MAX_GROUP)  # one type: one group
        taken = usual[set_of_row]
        sets = js[usual].tolist()
        set_groups = [1] * len(sets)  # of each set: its number of groups
        group_sizes = n[usual].tolist()
        ref_rows_list = ref_rows[taken].tolist()
        hyp_rows_list = hyp_rows[taken].tolist()
        for s in np.flatnonzero(set_ok & ~set_one_type).tolist():  # several types (rare): a group each
            j = int(js[s])
            r0, h0 = int(ref_start[j]), int(hyp_start[j])
            by_type: dict[str, list[int]] = {}
            for k, inst in enumerate(ref_sets[j].instances):
                by_type.setdefault(inst.type, []).append(k)
            if max(map(len, by_type.values())) > MAX_GROUP:
                continue
            sets.append(j)
            set_groups.append(len(by_type))
            for members in by_type.values():
                group_sizes.append(len(members))
                ref_rows_list += [r0 + k for k in members]
                hyp_rows_list += [h0 + k for k in members]
        if not sets:
            return {}
        sizes = np.asarray(group_sizes, dtype=Int)
        pairs = _Pairs(sizes)
        ref_row = np.asarray(ref_rows_list, dtype=Int)
        hyp_row = np.asarray(hyp_rows_list, dtype=Int)
        content = _Contents(mapper, ref_table, hyp) if how.content else None
        keys, diagonal_combo, combos = self._keys(pairs, ref_table, ref_row, hyp_row, content)
        # the groups with a pair off the diagonal that ranks before both diagonal pairs of its instances
        a, b = pairs.item_a - pairs.group_start[pairs.group], pairs.item_b - pairs.group_start[pairs.group]
        before_a = _ranks_before(keys, pairs.diagonal[pairs.item_a], b < a)
        before_b = _ranks_before(keys, pairs.diagonal[pairs.item_b], a < b)
        bad = np.zeros(len(sizes), dtype=bool)
        bad[pairs.group[(a != b) & before_a & before_b]] = True
        set_of_group = np.repeat(np.arange(len(sets), dtype=Int), set_groups)
        # the matches of the diagonal, by set, in the order the engine lists them
        set_sizes = np.bincount(set_of_group, weights=sizes, minlength=len(sets)).astype(Int)
        good = np.bincount(set_of_group[bad], minlength=len(sets)) == 0
        if not good.any():
            return {}
        item_good = np.repeat(good, set_sizes)
        combo_of = diagonal_combo[item_good]
        values = np.asarray([(c.cor, c.inc, c.mis, c.spu, c.opt, c.rem) for c, _ in combos], dtype=Int).reshape(-1, 6)
        new_match = tuple.__new__
        matches = list(
            map(
                new_match,
                repeat(CountedMatch),
                zip(
                    map(ref_table.instances.__getitem__, ref_row[item_good].tolist()),
                    map(hyp.items.__getitem__, hyp_row[item_good].tolist()),
                    *zip(*map(combos.__getitem__, combo_of.tolist()), strict=True),
                    strict=True,
                ),
            )
        )
        good_sizes = set_sizes[good]
        starts = np.zeros(len(good_sizes), dtype=Int)
        np.cumsum(good_sizes[:-1], out=starts[1:])
        totals = list(map(tuple, np.add.reduceat(values[combo_of], starts, axis=0).tolist()))
        made = {total: Counts(*total) for total in dict.fromkeys(totals)}  # each distinct sum, one record
        good_sets = np.flatnonzero(good).tolist()
        good_js = [sets[s] for s in good_sets]
        ends = (starts + good_sizes).tolist()
        found = list(map(matches.__getitem__, map(slice, starts.tolist(), ends)))
        rank = {name: k for k, name in enumerate(self.order)}
        for k, s in enumerate(good_sets):
            if set_groups[s] > 1:  # several types (rare): listed type by type, in the mapping's order
                found[k].sort(key=lambda m: rank[m.ref.type])  # type: ignore[union-attr]
        made_sets = map(
            new_match,
            repeat(CountedSet),
            zip(
                map(ref_sets.__getitem__, good_js),
                map(hyp_sets.__getitem__, good_js),
                map(tuple, found),
                map(made.__getitem__, totals),
                strict=True,
            ),
        )
        return dict(zip(zip(good_js, good_js, strict=True), made_sets, strict=True))

    def _keys(
        self, pairs: _Pairs, ref_table: FillTable, ref_row: np.ndarray, hyp_row: np.ndarray, content: _Contents | None
    ) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray, list[tuple[Counts, int]]]:
        """The greedy's key (-F, -COR, INC + MIS + SPU) of every pair of ``pairs`` (a pair
        with a content not read exactly has it COR: the best it can be), the combination (two
        shapes and the COR aspects) of the diagonal pair of each item, and the counts and
        signature of each combination (``pairs.counted_with``, as the engine's counts give them)."""
        mapper = self.mapper
        how = mapper.how
        hyp = self.fills
        rows = ref_row[pairs.item_a]
        items = hyp_row[pairs.item_b]
        # the COR aspects of each pair, as bits of (slot, aspect) (Mapper.aspect_bits, as the engine's)
        mask = np.zeros(len(rows), dtype=Int)
        exact = np.ones(len(rows), dtype=bool)
        ref_columns = ref_table.columns() if how.extent else None
        for s, name in enumerate(ref_table.slot_names):
            rf = ref_table.slot_fill[s][rows]
            hf = hyp.slot_fill(name)[items]
            at = np.flatnonzero((rf >= 0) & (hf >= 0))
            if not len(at):
                continue
            rf, hf = rf[at], hf[at]
            if content is not None:
                ok, guessed = content.correct(rf, hf, pairs.item_a[at] == pairs.item_b[at])
                mask[at] |= ok.astype(Int) << _bit(mapper, name, "content")
                exact[at[guessed]] = False
            if ref_columns is not None:
                ok = _extent_ok(ref_columns, hyp.columns, rf, hf)
                mask[at] |= ok.astype(Int) << _bit(mapper, name, "extent")
        # the shapes of the two instances (Mapper._shape: a table makes each distinct one once)
        ref_shape = _shape_ids(ref_table, rows)
        hyp_shape = hyp.shape[items]
        shape_pair = ref_shape * max(1, hyp.n_shapes) + hyp_shape
        firsts, inverse = distinct_combos(shape_pair, mask)
        # each shape pair's template from the match of one of its pairs, read exactly if any is
        exact_at = np.flatnonzero(exact)
        known, first_exact = np.unique(shape_pair[exact_at], return_index=True)
        examples = dict(zip(known.tolist(), exact_at[first_exact].tolist(), strict=True))
        templates: dict[int, int] = {}
        combos: list[tuple[Counts, int]] = []
        beta_squared = mapper.beta_squared
        f_key: list[float] = []
        cor_key: list[int] = []
        err_key: list[int] = []
        for p in firsts.tolist():
            pair = int(shape_pair[p])
            template = templates.get(pair)
            if template is None:
                q = examples.get(pair, p)
                template = templates[pair] = self._template(
                    ref_table.instances[int(rows[q])], hyp.items[int(items[q])], int(mask[q]), bool(exact[q])
                )
            found = counted_with(mapper, template, int(mask[p]))
            combos.append(found)
            counts = found[0]
            f_key.append(-counts.f_key(beta_squared))
            cor_key.append(-counts.cor)
            err_key.append(counts.errors)
        keys = (
            np.asarray(f_key, dtype=np.float64)[inverse],
            np.asarray(cor_key, dtype=Int)[inverse],
            np.asarray(err_key, dtype=Int)[inverse],
        )
        return keys, inverse[pairs.diagonal], combos

    def _template(self, ref: Instance, hyp: Instance, mask: int, exact: bool) -> int:
        """The number (``Mapper.template``) of the points of the match of the two instances, each
        compared point's category left out (``pairs.point_template``), checked against the COR
        aspects read of the pair (when read exactly)."""
        mapper = self.mapper
        match = mapper.match_instance(ref, hyp, {}, _never)
        template = point_template(match)
        if exact:
            points = tuple(
                [
                    (slot.name, verdict.kind, verdict.category)
                    for slot in match.slots
                    for _, _, vs in slot.pairs
                    for verdict in vs
                ]
            )
            if points_with(template, mask, mapper.aspect_bits) != points:  # pragma: no cover - a bug
                raise AssertionError(f"{ref.key}, {hyp.key}: the COR aspects read are not those of the match")
        return mapper.template(template)


class _Pairs:
    """Every (reference item, hypothesis item) pair of each group of items (``sizes[g]``
    consecutive items each), by reference item then hypothesis item, as arrays."""

    def __init__(self, sizes: np.ndarray) -> None:
        n_groups = len(sizes)
        squares = sizes * sizes
        self.group_start = np.zeros(n_groups, dtype=Int)
        np.cumsum(sizes[:-1], out=self.group_start[1:])
        pair_start = np.zeros(n_groups, dtype=Int)
        np.cumsum(squares[:-1], out=pair_start[1:])
        self.group = np.repeat(np.arange(n_groups, dtype=Int), squares)  # of each pair
        within = np.arange(len(self.group), dtype=Int) - pair_start[self.group]
        n = sizes[self.group]
        self.item_a = self.group_start[self.group] + within // n
        self.item_b = self.group_start[self.group] + within % n
        self.item_group = np.repeat(np.arange(n_groups, dtype=Int), sizes)  # of each item
        # the pair (x, x) of each item x
        self.diagonal = pair_start[self.item_group] + (
            np.arange(len(self.item_group), dtype=Int) - self.group_start[self.item_group]
        ) * (sizes[self.item_group] + 1)


class ProjectionFills:
    """The text fills of the ceiling's projection (an unsegmented hypothesis) read at once
    (:func:`read_fills`): each fill's string handed to ``keep`` (the judge's normalizations
    kept, see :func:`hub4eval.scoring.set_extents.kept_set_extents`), its extent, less the premodifiers
    its content loses, mapped to the one column space with all the others at once, and so
    the extents of the sets (:attr:`set_extents`, as :func:`~hub4eval.scoring.set_extents.hyp_set_extent`
    gives them: the columns of the fill of the smallest span that touches a token, to those
    of the first fill of the largest end that does); and, for :class:`Diagonal`, the fills
    as the engine reads them: of each instance (an *item*, the sets' instances in order),
    its type and shape (a number) and of each scored slot its one fill's content, text number
    and compared extent (:meth:`slot_fill`). An item that is not plain (a pointer, a slot of
    several fills) is :attr:`odd`. :attr:`source`: the template set read.

    Only for a preparer whose extents are mapped by the alignment's own ``hyp_extent``, of
    an unsegmented hypothesis (:meth:`of`: None otherwise)."""

    @classmethod
    def of(
        cls, tset: TemplateSet, mapper_unscored: frozenset[str], prep: Any, keep: Callable[[str], Any]
    ) -> ProjectionFills | None:
        alignment = column_mapper(prep, False)
        if alignment is None or not prep.unsegmented:
            return None
        return cls(tset, mapper_unscored, prep, keep, alignment)

    def __init__(
        self, tset: TemplateSet, unscored: frozenset[str], prep: Any, keep: Callable[[str], Any], alignment: Any
    ) -> None:
        self.source = tset
        self.items = items = [inst for iset in tset.instance_sets for inst in iset.instances]
        self.set_start = [0, *accumulate([len(iset.instances) for iset in tset.instance_sets])]
        self.types = list(map(_type, items))  # of each item
        get, normalize = prep.lookups()
        read = read_fills(items, unscored, get, normalize, keep)
        self.contents = read.contents
        self.slot_names = read.slot_names
        self.fill_item = read.fill_item
        self.fill_slot = read.fill_slot
        self.numbers = read.numbers
        starts, ends = read.starts, read.ends
        odd = read.odd
        # the shape of each item: the (slot, has an extent) of its usual scored slots (its rows of
        # a scored slot), numbered in the order of first sight; an item of a shape with a slot's
        # name twice (Mapper._view reads the first), or with another scored slot, is odd: the
        # engine maps it
        scored = np.flatnonzero(self.fill_slot >= 0)
        codes = self.fill_slot[scored] * 2 + (starts[scored] != NONE)
        self.shape, firsts = _numbered_runs(codes, self.fill_item[scored], len(items), 2 * len(self.slot_names))
        self.n_shapes = len(firsts)
        first_items = np.asarray(firsts, dtype=Int)
        owned = self.fill_item[scored]
        bounds = np.searchsorted(owned, first_items), np.searchsorted(owned, first_items + 1)
        twice = [
            number
            for number, (a, b) in enumerate(zip(bounds[0].tolist(), bounds[1].tolist(), strict=True))
            if len(set(self.fill_slot[scored[a:b]].tolist())) != b - a
        ]
        if twice:
            odd += np.flatnonzero(np.isin(self.shape, twice)).tolist()
        self.odd = np.asarray(odd, dtype=Int)
        self.slot_fills = [np.full(len(items), -1, dtype=Int) for _ in self.slot_names]
        for s, fill_of in enumerate(self.slot_fills):
            mine = np.flatnonzero(self.fill_slot == s)
            fill_of[self.fill_item[mine]] = mine
        at = np.flatnonzero(starts != NONE)
        chars = starts[at], ends[at]
        # (mapped in the order of their starts: the tokens are searched in that order, quicker)
        map_in_place(alignment, False, None, starts, ends, at[np.argsort(chars[0], kind="stable")], False, NONE)
        self.columns = (starts, ends)
        self.set_extents = self._extents_of_sets(at, chars)

    def _extents_of_sets(self, at: np.ndarray, chars: tuple[np.ndarray, np.ndarray]) -> list[Extent | None]:
        """The extent of each set: of its fills whose span touches a token, the columns of the
        smallest span's start to those of the first fill of the largest end (see the class)."""
        n_sets = len(self.set_start) - 1
        out: list[Extent | None] = [None] * n_sets
        mapped = self.columns[0][at] != NONE
        at, starts, ends = at[mapped], chars[0][mapped], chars[1][mapped]
        if not len(at):
            return out
        item_set = np.repeat(np.arange(n_sets, dtype=Int), np.diff(self.set_start))
        spanned, low, high = spans_of_sets(item_set[self.fill_item[at]], starts, ends)
        first_column = self.columns[0][at[low]]
        last_column = self.columns[1][at[high]]
        for s, first, last in zip(spanned.tolist(), first_column.tolist(), last_column.tolist(), strict=True):
            out[s] = Extent(first, last)
        return out

    def slot_fill(self, name: str) -> np.ndarray:
        """The fill of slot ``name`` of each item (-1: none)."""
        if name in self.slot_names:
            return self.slot_fills[self.slot_names.index(name)]
        return np.full(len(self.items), -1, dtype=Int)


def _numbered_runs(codes: np.ndarray, owners: np.ndarray, n: int, top: int) -> tuple[np.ndarray, list[int]]:
    """Of ``n`` owners whose codes (each in 0 .. ``top`` - 1) are ``codes[k]`` for ``owners[k]``
    (in order, by owner): a number for each distinct sequence of codes, in the order of the
    owner that first has it, and that first owner of each number."""
    count = np.bincount(owners, minlength=n)
    base = top + 1
    longest = int(count.max()) if n else 0
    if base**longest < 1 << 62:  # each sequence as one number (digits 1 .. base - 1)
        place = np.arange(len(codes), dtype=Int) - np.repeat(np.cumsum(count) - count, count)
        digits = (codes + 1) * np.power(base, place)
        keys = np.zeros(n, dtype=Int)
        np.add.at(keys, owners, digits)
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(first), dtype=Int)
        rank[order] = np.arange(len(first), dtype=Int)
        return rank[inverse.reshape(-1)], first[order].tolist()
    bounds = [0, *accumulate(count.tolist())]
    as_list = codes.tolist()
    sequences = [tuple(as_list[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    numbers: dict[tuple[int, ...], int] = {}
    firsts: list[int] = []
    shape = np.empty(n, dtype=Int)
    for k, key in enumerate(sequences):
        number = numbers.get(key)
        if number is None:
            number = numbers[key] = len(numbers)
            firsts.append(k)
        shape[k] = number
    return shape, firsts


class ReadFills(NamedTuple):
    """What :func:`read_fills` reads of the text fills of a sequence of instances (*items*)."""

    contents: list[str]
    """The content string of each fill read: each text fill of an item that has an extent or
    is the one fill of a scored slot of one alternative (a *usual* slot), in order."""
    fill_item: np.ndarray
    """The item of each."""
    fill_slot: np.ndarray
    """Its slot's number in :attr:`slot_names` (-1: unscored, or not a usual slot)."""
    numbers: np.ndarray
    """The number of its normalized text."""
    starts: np.ndarray
    """The start of its first extent, moved past the premodifiers its content loses (:data:`NONE`: no extent)."""
    ends: np.ndarray
    """The end of its first extent (:data:`NONE`: no extent)."""
    slot_names: list[str]
    """The names of the scored usual slots, in the order first met."""
    odd: list[int]
    """The items with a scored slot that is not usual, in order."""


def read_fills(
    items: Sequence[Instance],
    unscored: frozenset[str],
    get: Callable[[str], Any],
    normalize: Callable[[str], Any],
    keep: Callable[[str], Any],
) -> ReadFills:
    """The text fills of ``items`` as :class:`ProjectionFills` reads them, each string
    normalized as ``get(raw) or keep(raw) or normalize(raw)`` reads it (a preparer's memo,
    the judge's normalizations kept, else a new one; see :meth:`FillPreparer.lookups`), every
    text fill's in order, also of a fill not read (as one loop over the fills, one at a time,
    would: the texts are numbered in that order).

    One walk over the objects gathers each text fill and its slot's name; what is read of
    them (strings, normalizations, extents) is read a column at a time afterwards (``map``
    over the list, in C), not a few steps of Python per fill: reading a million-word
    projection's 40,000 fills one by one was most of the time of its set-up."""
    found: list[TextFill] = []  # every text fill, in order
    names: list[str | None] = []  # of each: the name of its slot when usual (one text fill), else None
    held: list[int] = []  # of each item: the fills found up to its last
    odd: list[int] = []
    text_fill = TextFill
    add_fill, add_name, add_held = found.append, names.append, held.append
    for k, inst in enumerate(items):
        plain = True
        for slot in inst.slots:
            alternatives = slot.alternatives
            if (
                len(alternatives) == 1
                and len(fills := alternatives[0].fills) == 1
                and type(fill := fills[0]) is text_fill
            ):  # the usual slot
                add_fill(fill)
                add_name(slot.name)
                continue
            # any other slot: every string kept and every extent read; the item is not plain
            if plain and slot.name not in unscored:
                plain = False
            for alternative in alternatives:
                for fill in alternative.fills:
                    if type(fill) is text_fill:
                        add_fill(fill)
                        add_name(None)
        if not plain:
            odd.append(k)
        add_held(len(found))
    n = len(found)
    contents = list(map(_content, found))
    # the strings in the memo read at once; those not there, in order
    norms = list(map(get, contents))
    if not all(norms):
        for place, norm in enumerate(norms):
            if norm is None:
                raw = contents[place]
                norms[place] = get(raw) or keep(raw) or normalize(raw)
    extents = list(map(_extents, found))
    has = np.fromiter(map(bool, extents), dtype=bool, count=n)
    starts = np.full(n, NONE, dtype=Int)
    ends = np.full(n, NONE, dtype=Int)
    firsts = list(map(_first, extents if has.all() else compress(extents, has.tolist())))
    starts[has] = np.fromiter(map(_start, firsts), dtype=Int, count=len(firsts))
    ends[has] = np.fromiter(map(_end, firsts), dtype=Int, count=len(firsts))
    removed = np.fromiter(map(_removed, norms), dtype=Int, count=n)
    moved = np.flatnonzero(has & (removed != 0))
    starts[moved] = np.minimum(starts[moved] + removed[moved], ends[moved])  # as fills._shifted
    # the scored slots' names numbered as first met (-1: not scored; None: not a usual slot)
    slot_ids = _Numbered({None: -1, **dict.fromkeys(unscored, -1)})
    fill_slot = np.fromiter(map(slot_ids.__getitem__, names), dtype=Int, count=n)
    numbers = np.fromiter(map(_number, norms), dtype=Int, count=n)
    ends_of_items = np.fromiter(held, dtype=Int, count=len(held))
    fill_item = np.repeat(np.arange(len(items), dtype=Int), np.diff(ends_of_items, prepend=0))
    kept = has | (fill_slot >= 0)  # (a fill of a slot not scored, or not usual, without an extent: not read)
    if not kept.all():
        contents = list(compress(contents, kept.tolist()))
        fill_item, fill_slot, numbers = fill_item[kept], fill_slot[kept], numbers[kept]
        starts, ends = starts[kept], ends[kept]
    slot_names = [name for name, sid in slot_ids.items() if name is not None and sid >= 0]
    return ReadFills(contents, fill_item, fill_slot, numbers, starts, ends, slot_names, odd)


class _Numbered(dict[str | None, int]):
    """Names numbered as they are first asked for (0, 1, ...; a name given a number when made keeps it)."""

    __slots__ = ("next",)

    def __init__(self, given: dict[str | None, int]) -> None:
        super().__init__(given)
        self.next = 0

    def __missing__(self, name: str | None) -> int:
        number = self[name] = self.next
        self.next += 1
        return number


class _Contents:
    """Whether the content point of fill pairs is COR, as the engine reads it: clean, when
    the two texts' numbers are equal; noisy, when the reference string's words (none of
    them optional) are the words the hypothesis string keeps (:meth:`FillPreparer.word_keys_of`:
    equal phrase numbers), else, for a diagonal pair, by the noisy comparison of the two
    strings, and for the others taken as COR (the best the pair can be: enough for the check)."""

    def __init__(self, mapper: Mapper, ref_table: FillTable, hyp: ProjectionFills) -> None:
        how = mapper.how
        self.mapper = mapper
        self.noisy = how.noisy
        self.ref_table = ref_table
        self.hyp = hyp
        if not how.noisy:
            self.ref_keys, self.hyp_keys = ref_table.numbers, hyp.numbers
            return
        fillers = how.fillers
        self.ref_keys = ref_table.words(mapper.ref_prep, fillers, 3)  # its words' phrases; -1: some word optional
        # (the hypothesis strings that are reference strings, most, are read from the preparers' memo)
        entries = mapper.hyp_prep.word_keys_of(hyp.contents, fillers)
        kept = np.fromiter(map(itemgetter(3), entries), dtype=Int, count=len(entries))
        self.hyp_keys = kept

    def correct(self, rf: np.ndarray, hf: np.ndarray, diagonal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Whether the content of each fill pair is COR, and which were not read exactly (taken as COR)."""
        ok = self.ref_keys[rf] == self.hyp_keys[hf]
        if not self.noisy:
            return ok, np.zeros(0, dtype=Int)
        odd = self.ref_keys[rf] < 0
        if not odd.any():
            return ok, np.zeros(0, dtype=Int)
        guessed = np.flatnonzero(odd & ~diagonal)
        ok[guessed] = True
        mapper = self.mapper
        fillers = mapper.how.fillers
        ref_words, hyp_words = mapper.ref_prep.noisy_words, mapper.hyp_prep.noisy_words
        ref_fills, contents = self.ref_table.fills, self.hyp.contents
        for at in np.flatnonzero(odd & diagonal).tolist():
            words = ref_words(ref_fills[int(rf[at])].content, fillers)
            ok[at] = kept_correct(words, (words,), hyp_words(contents[int(hf[at])], fillers).kept)
        return ok, guessed


def _bit(mapper: Mapper, slot: str, kind: str) -> int:
    """The bit of (slot, kind) in the masks of COR aspects (``pairs.aspect_bit``)."""
    bit = aspect_bit(mapper, slot, kind)
    if bit is None:
        raise _TooManyAspects
    return bit


class _TooManyAspects(Exception):
    """More (slot, aspect) than the bits of a mask: the engine counts."""


def _extent_ok(
    ref_columns: tuple[np.ndarray, np.ndarray, Any],
    hyp_columns: tuple[np.ndarray, np.ndarray],
    rf: np.ndarray,
    hf: np.ndarray,
) -> np.ndarray:
    """Whether the extent point of each fill pair is COR, as ``pairs._correct`` reads it: the
    hypothesis's extent enclosed in the reference's enclosing one and overlapping its one
    minimal extent (a table's reference fill has one, its maximal one)."""
    starts, ends, minimal = ref_columns
    ms, me = (starts, ends) if minimal is None else minimal
    return extents_correct(starts[rf], ends[rf], ms[rf], me[rf], hyp_columns[0][hf], hyp_columns[1][hf])


def _shape_ids(table: FillTable, rows: np.ndarray) -> np.ndarray:
    """A number for each distinct shape of the instances at ``rows`` (a table makes each distinct
    shape once: equal shapes are one object)."""
    ids = np.fromiter(map(id, table.shapes), dtype=Int, count=len(table.shapes))
    _, inverse = np.unique(ids[rows], return_inverse=True)
    return inverse.reshape(-1).astype(Int)


def _ranks_before(
    keys: tuple[np.ndarray, np.ndarray, np.ndarray], other: np.ndarray, earlier: np.ndarray
) -> np.ndarray:
    """Whether each pair ranks before the pair ``other`` (by index) in the greedy's order: a
    better key, or an equal one and ``earlier`` (what the two pairs' places decide)."""
    f, c, e = keys
    f2, c2, e2 = f[other], c[other], e[other]
    better = (f < f2) | ((f == f2) & ((c < c2) | ((c == c2) & (e < e2))))
    same = (f == f2) & (c == c2) & (e == e2)
    return better | (same & earlier)


class ReadProjection(NamedTuple):
    """What the ceiling reads of the projection of an unsegmented hypothesis before counting it."""

    extents: KnownExtents
    """The extents of its sets, by which they are paired with the reference's (§7.4)."""
    fills: ProjectionFills | None
    """Its fills as :class:`Diagonal` reads them (None: its sets are mapped by the engine only)."""


def read_projection(
    projected: TemplateSet, unscored: frozenset[str], hyp_prep: Any, judge_prep: Any, fills: bool
) -> ReadProjection:
    """The ceiling's set-up of the projection of an unsegmented hypothesis, in one walk over its
    fills: the judge's normalizations of its strings kept (``judge_prep``'s, given ``hyp_prep``,
    which then maps the projection), its sets' extents and, with ``fills`` (a count whose
    diagonal may be counted here), its :class:`ProjectionFills` when the preparer's extents are
    mapped as they read them."""
    if fills:
        found = ProjectionFills.of(projected, unscored, hyp_prep, judge_prep.keeper(hyp_prep))
        if found is not None:
            return ReadProjection(KnownExtents(projected, found.set_extents), found)
    return ReadProjection(KnownExtents(projected, kept_set_extents(projected, hyp_prep, judge_prep)), None)


__all__ = ["SHORTCUT", "Diagonal", "ReadProjection", "read_projection"]
