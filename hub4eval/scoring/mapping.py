"""§5: the bottom-up greedy mapping of two template sets, and its points.

Levels: instance sets (by DOCID, or by overlapping extents for an unsegmented
hypothesis, §7.4) -> instances of one type, types in pointer-dependency order
-> slots by name -> the best reference fill-alternative -> single fills. Each
level uses :func:`hub4eval.scoring.greedy.greedy_map`. Candidate pairs carry only
verdicts and counts; points with their fills are made for the chosen mapping,
and when only counts are asked for (:meth:`Mapper.count_template_sets`), most
chosen pairs keep only their counts and the signature of their points, taken
from one match record per kind of pair (two shapes and the COR aspects; two
shapes without any COR; pointers that pair alike).

Why one module of about 1,150 lines: it is the :class:`Mapper`, whose
per-instance caches (prepared slot views, candidate keys, shapes, the counted
points of a shape) serve both ways of mapping, with the match records it makes
and the functions that read those records back as points; a split would pass
the caches between modules that have no other user. The records and the point
readers could move to a module of their own if it grows further.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from itertools import chain
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError
from hub4eval.model import Extent, Fill, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill
from hub4eval.scoring.candidates import (
    Key,
    hypothesis_pointer_key,
    hypothesis_text_keys,
    reference_pointer_key,
    reference_text_keys,
)
from hub4eval.scoring.fills import FillPreparer, PreparedFill
from hub4eval.scoring.greedy import PairsRefused, TooManyPairs, greedy_map, tie_key
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.points import FillRef, Point
from hub4eval.scoring.verdicts import (
    TextComparison,
    Verdict,
    compare_pointer,
    compare_text,
    unpaired_pointer,
    unpaired_text,
)
from hub4eval.util.records import quick_init

if TYPE_CHECKING:
    from hub4eval.scoring.counted_points import CountedRun
    from hub4eval.scoring.pairs import Group

_TALLIES: dict[tuple[str, ...], Counts] = {}
_indices = itemgetter(0, 1)  # (reference index, hypothesis index) of a chosen fill pair
_type_of = attrgetter("type")
_SECOND = itemgetter(1)

Item = PreparedFill | PointerFill  # a single fill as the mapping compares it
_ONE_TEXT = ((((True, False),),), (((True, True),),))  # the fills of a slot of one text fill, by has_extent


# A scored slot of an instance with its fills prepared (see Mapper._view): the
# slot, its alternatives (a hypothesis keeps only its first), and the text
# fill when the slot is exactly one (the common case), else None.  A plain
# tuple: there is one per slot of every instance.
SlotView = tuple[Slot, tuple[tuple[Item, ...], ...], PreparedFill | None]


def _counts(verdicts: Sequence[Verdict]) -> Counts:
    key = (verdicts[0].category, verdicts[1].category) if len(verdicts) == 2 else tuple([v.category for v in verdicts])
    counts = _TALLIES.get(key)
    if counts is None:
        counts = _TALLIES[key] = Counts.tally(key)
    return counts


FillPairs = tuple[tuple[int | None, int | None, tuple[Verdict, ...]], ...]
"""(reference fill index, hypothesis fill index, verdicts) of every fill pair or
fill left over (the other index None) of two alternatives."""


@quick_init
@dataclass(frozen=True, slots=True)
class SlotMatch:
    """A slot pair: the chosen reference alternative against the hypothesis fills."""

    name: str
    alternative: int | None  # index of the chosen reference alternative
    ref_items: tuple[Item, ...]
    hyp_items: tuple[Item, ...]
    pairs: FillPairs
    counts: Counts


@quick_init
@dataclass(frozen=True, slots=True)
class InstanceMatch:
    """A mapped pair, or an instance mapped to nothing (the other side None)."""

    ref: Instance | None
    hyp: Instance | None
    slots: tuple[SlotMatch, ...]
    counts: Counts


@quick_init
@dataclass(frozen=True, slots=True)
class SetMatch:
    """Two instance sets mapped to each other, or one mapped to nothing."""

    ref: InstanceSet | None
    hyp: InstanceSet | None
    instances: tuple[InstanceMatch, ...]
    counts: Counts

    @property
    def docid(self) -> str:
        return self.ref.docid if self.ref is not None else self.hyp.docid  # type: ignore[union-attr]


Signature = tuple[tuple[str, str, str], ...]
"""(slot, kind, category) of each point of an instance match, in the order of its points."""


class CountedMatch(NamedTuple):
    """What a count needs of an :class:`InstanceMatch`: its instances, counts, and the
    number of the signature of its points (``Mapper.signatures``)."""

    ref: Instance | None
    hyp: Instance | None
    counts: Counts
    signature: int


_COUNTED_MATCH = partial(tuple.__new__, CountedMatch)  # of (ref, hyp, counts, signature), as CountedMatch(*them)


class CountedSet(NamedTuple):
    """What a count needs of a :class:`SetMatch`: its instance matches as :class:`CountedMatch`."""

    ref: InstanceSet | None
    hyp: InstanceSet | None
    instances: tuple[CountedMatch, ...]
    counts: Counts

    @property
    def docid(self) -> str:
        return self.ref.docid if self.ref is not None else self.hyp.docid  # type: ignore[union-attr]


def _numbered(item: Signature, numbers: dict[Signature, int], items: list[Signature]) -> int:
    """The number of ``item`` in ``items`` (``numbers`` its index), given it at its first sight."""
    found = numbers.get(item)
    if found is None:
        found = numbers[item] = len(items)
        items.append(item)
    return found


def type_order(
    ref: TemplateSet, hyp: TemplateSet, without_pointers: tuple[Sequence[bool] | None, ...] = (None, None)
) -> tuple[str, ...]:
    """Types so that a type comes after every type its instances point to (§5).

    ``without_pointers``: of each set, whether each of its instances is known to hold no
    pointer (its slots are not read), or None.

    Raises:
        InputError: the type-pointer graph has a cycle.
    """
    edges: dict[str, list[tuple[str, PointerFill, str]]] = {}
    for tset, plain in zip((ref, hyp), without_pointers, strict=True):
        # each set's own edges (kept for the next count of the same set), added as one walk
        # over both sets would add them: the types in order of first sight, one edge per
        # pair of types, named by its first pointer
        own = _edges_of(tset, plain)
        for node in own:
            edges.setdefault(node, [])
        for node, pointed in own.items():
            targets = edges[node]
            for edge in pointed:
                if all(t != edge[0] for t, _, _ in targets):
                    targets.append(edge)
    order: list[str] = []
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target, fill, path in edges[node]:
            if state.get(target) == 1:
                cycle = (
                    " -> ".join(trail[trail.index(target) :] + [node, target])
                    if target in trail
                    else f"{node} -> {target}"
                )
                raise InputError(
                    f"instance types point to each other in a cycle ({cycle}); pointer points cannot be decided",
                    path,
                    fill.line or None,
                    fill.column or None,
                    hint="a type may only point to types that do not point back to it",
                )
            if state.get(target) is None:
                visit(target, trail + [node])
        state[node] = 2
        order.append(node)

    for node in edges:
        if state.get(node) is None:
            visit(node, [])
    return tuple(order)


_EDGES: dict[int, tuple[TemplateSet, dict[str, list[tuple[str, PointerFill, str]]]]] = {}
_EDGES_KEPT = 4  # the template sets whose edges are kept (a score counts its reference twice)


def _edges_of(tset: TemplateSet, plain: Sequence[bool] | None = None) -> dict[str, list[tuple[str, PointerFill, str]]]:
    """The edges of :func:`type_order` of one template set: each instance type (in order of
    first sight, a pointer's target type when it is first pointed to) and the types its
    instances point to, each with the first pointer to it. The edges of the last few sets
    are kept (with the set, whose ``id()`` names it). ``plain``: whether each instance (in
    the order of ``tset.instances``) is known to hold no pointer, or None."""
    kept = _EDGES.get(id(tset))
    if kept is not None and kept[0] is tset:
        return kept[1]
    edges: dict[str, list[tuple[str, PointerFill, str]]] = {}
    path = tset.path
    known = iter(plain) if plain is not None else None
    if plain is not None and all(plain):  # no pointer anywhere: the types alone, in order of first sight
        every = chain.from_iterable(iset.instances for iset in tset.instance_sets)
        edges = {type_name: [] for type_name in dict.fromkeys(map(_type_of, every))}
        known = None
        instance_sets: Sequence[InstanceSet] = ()
    else:
        instance_sets = tset.instance_sets
    for iset in instance_sets:
        for inst in iset.instances:
            targets = edges.setdefault(inst.type, [])
            if known is not None and next(known):
                continue  # no pointer: nothing to read
            for slot in inst.slots:
                alternatives = slot.alternatives
                if len(alternatives) == 1 and len(fills := alternatives[0].fills) == 1 and type(fills[0]) is TextFill:
                    continue  # the usual slot, one text fill: no pointer
                for alternative in alternatives:
                    for fill in alternative.fills:
                        # one edge per pair of types: the first pointer names it in messages
                        if type(fill) is PointerFill and all(t != fill.type for t, _, _ in targets):
                            targets.append((fill.type, fill, path))
                            edges.setdefault(fill.type, [])
    if len(_EDGES) >= _EDGES_KEPT:
        del _EDGES[next(iter(_EDGES))]
    _EDGES[id(tset)] = (tset, edges)
    return edges


class Mapper:
    """Maps a reference template set to a hypothesis template set."""

    def __init__(
        self,
        config: ScoreConfig,
        ref_prep: FillPreparer,
        hyp_prep: FillPreparer,
        *,
        noisy: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.config = config
        self.progress = progress  # called with the number of reference instance sets done
        self.ref_prep = ref_prep
        self.hyp_prep = hyp_prep
        hyp_prep.share_texts(ref_prep)  # when they normalize alike: each string once
        self.noisy = noisy
        self.beta_squared: Fraction = config.beta_squared
        self.unscored = frozenset(config.unscored_slots)
        self.how = TextComparison.of(config, noisy)
        # Per side (index 1: reference, 0: hypothesis), by id() of the instance,
        # which the value keeps alive: its slot views and its candidate keys.
        self._views: tuple[dict[int, tuple[Instance, dict[str, SlotView]]], ...] = ({}, {})
        self._text_keys: tuple[dict[int, tuple[Instance, list[Key], list[tuple[str, PointerFill]]]], ...] = ({}, {})
        # A hypothesis instance mapped to nothing, by id(): its points do not depend on
        # the reference set or the mapping, and an unsegmented hypothesis set is tried
        # against every reference set it overlaps.
        self._lone_hyps: dict[int, tuple[Instance, InstanceMatch]] = {}
        self.shapes: tuple[dict[int, tuple[Instance, Hashable]], ...] = ({}, {})  # hypothesis shapes: see _shape
        self.hyp_sides: dict[tuple[int, ...], Any] = {}  # hub4eval.scoring.pairs._HypSide by the instances' id()
        # Counting only (count_template_sets): the (slot, kind, category) of the points of each
        # instance match, each distinct sequence once, by its number.
        self.counting = False
        # False while the sets mapped hold no pointer in a scored slot (count_template_sets
        # knows it from its fill tables): then no one reads the mapping of the instances
        self.pointers = True
        # The one type of every instance of the sets mapped, when count_template_sets knows it
        # from its fill tables (None: not known): the sets' instances are not sorted by type
        self.one_type: str | None = None
        self.signatures: list[Signature] = []
        self._signature_ids: dict[Signature, int] = {}
        # hub4eval.scoring.pairs._counted: the bit of each (slot, kind) in its masks of COR aspects,
        # the points of pairs of one shape pair with its compared points' categories left
        # out (by number), and (counts, signature) by (template, mask)
        self.aspect_bits: dict[tuple[str, str], int] = {}
        self.templates: list[Signature] = []
        self._template_ids: dict[Signature, int] = {}
        self.counted_points: dict[tuple[int, int], tuple[Counts, int]] = {}
        self._lone_points: dict[tuple[bool, bool, Hashable], tuple[Counts, int]] = {}  # see _lone_counted
        # Counting only: given each run of instance sets just counted, with what their points
        # need (hub4eval.scoring.counted_points), before the run's caches are dropped; and
        # the match records made for the counts of the run, by id() of their two instances.
        self.point_runs: Callable[[CountedRun], None] | None = None
        self._records: dict[tuple[int, int], InstanceMatch] = {}
        self.point_layouts: Any = None  # hub4eval.scoring.counted_points.Layouts, made with the first run
        self._pointer_points: dict[Hashable, tuple[Counts, int]] = {}  # see _pair_counted
        self._cor_free_points: dict[Hashable, tuple[Counts, int]] = {}  # see counted_without_cor
        # Noisy content verdicts of fill pairs compared by the engine (hub4eval.scoring.pairs), read
        # again for the match records of the chosen pairs: by what decides one, the reference
        # fill's content string (with its minimal spans when it has minimal strings of its own)
        # and the hypothesis fill's; dropped with the other caches of a run.
        self.noisy_verdicts: dict[tuple[Hashable, str], bool] = {}

    def signature(self, points: Signature) -> int:
        """The number of a sequence of points' (slot, kind, category) in :attr:`signatures`."""
        return _numbered(points, self._signature_ids, self.signatures)

    def _lone_counted(
        self, inst: Instance, reference: bool, mapping: Mapping[str, str], removable: Callable[[PointerFill], bool]
    ) -> CountedMatch:
        """:meth:`_counted` of an instance mapped to nothing: its points depend only on its
        shape (see :meth:`_shape`) and, for a reference, whether it is optional, so they
        are counted once per shape."""
        key = (reference, reference and inst.optional, self._shape(inst, reference, removable))
        found = self._lone_points.get(key)
        if found is None:
            if reference:
                counted = self._counted(self.match_instance(inst, None, mapping, removable))
            else:
                counted = self._counted(self._lone_hyp(inst))
            found = self._lone_points[key] = (counted.counts, counted.signature)
        return CountedMatch(inst, None, *found) if reference else CountedMatch(None, inst, *found)

    def _pair_counted(
        self, ref: Instance, hyp: Instance, mapping: Mapping[str, str], removable: Callable[[PointerFill], bool]
    ) -> CountedMatch:
        """:meth:`_counted` of ``match_instance(ref, hyp, ...)``. When every scored slot of
        both instances holds only pointers (a document's template instance, which points to
        its events, is such an instance, mapped as a pair of its own), the points are those
        of an earlier pair whose pointers pair alike (:meth:`_pointer_key`): counted once."""
        # writing points (--json), each pair's record is kept: its entries are written from it
        key = self._pointer_key(ref, hyp, mapping, removable) if self.point_runs is None else None
        found = self._pointer_points.get(key) if key is not None else None
        if found is None:
            counted = self._counted(self.match_instance(ref, hyp, mapping, removable))
            if key is None:
                return counted
            found = self._pointer_points[key] = (counted.counts, counted.signature)
        return CountedMatch(ref, hyp, *found)

    def _pointer_key(
        self, ref: Instance, hyp: Instance, mapping: Mapping[str, str], removable: Callable[[PointerFill], bool]
    ) -> Hashable | None:
        """What decides the points of a pair of instances whose scored slots hold only
        pointers, in one alternative (None: not such a pair).

        :meth:`match_fills` pairs the pointers of a slot with :func:`_pointer_pairs` and lists
        the pairs by reference pointer, then the reference pointers left over, then the
        hypothesis pointers left over. A pointer pair is COR when the reference's target is
        mapped to the hypothesis's (:func:`~hub4eval.scoring.verdicts.compare_pointer`),
        else INC; a reference pointer left over is OPT in an optional slot, else REM when
        ``removable`` says so, else MIS; a hypothesis pointer left over is SPU. So per slot,
        in the order :meth:`match_instance` lists the slots: its name, whether it is
        optional, of each reference pointer whether it is paired COR, paired INC, or left
        over (and then whether it is removable), and how many hypothesis pointers are left
        over decide the points, whatever the pointers' targets and order."""
        ref_view = self._view(ref, True)
        hyp_view = self._view(hyp, False)
        key: list[Hashable] = []
        for name, (slot, alternatives, single) in ref_view.items():
            if single is not None or len(alternatives) != 1:
                return None
            ref_items = alternatives[0]
            hyp_slot = hyp_view.get(name)
            hyp_items = hyp_slot[1][0] if hyp_slot is not None and hyp_slot[1] else ()
            if any(type(item) is not PointerFill for item in (*ref_items, *hyp_items)):
                return None
            ref_pointers = cast(Sequence[PointerFill], ref_items)
            hyp_pointers = cast(Sequence[PointerFill], hyp_items)
            targets = [mapping.get(pointer.key) for pointer in ref_pointers]
            # 2, 3: left over, and whether removable (a pointer whose target is mapped is not)
            codes = [
                2 if target is not None else 2 + removable(pointer)
                for pointer, target in zip(ref_pointers, targets, strict=True)
            ]
            pairs = _pointer_pairs(ref_pointers, hyp_pointers, mapping) if ref_items and hyp_items else []
            for i, j in pairs:
                codes[i] = targets[i] == hyp_pointers[j].key  # 1 COR, 0 INC
            key.append((name, slot.optional, len(hyp_items) - len(pairs), tuple(codes)))
        for name, (_, alternatives, single) in hyp_view.items():
            if name in ref_view:
                continue
            if (
                single is not None
                or len(alternatives) != 1
                or any(type(item) is not PointerFill for item in alternatives[0])
            ):
                return None
            key.append((name, len(alternatives[0])))
        return tuple(key)

    def counted_without_cor(
        self, ref_shape: Hashable, hyp_shape: Hashable, make: Callable[[], InstanceMatch], *, chosen: bool = False
    ) -> tuple[Counts, int]:
        """The counts and points' signature of a pair of instances without any COR point, of
        these shapes (:meth:`_shape`): ``make()`` gives its match record, made for the first
        pair of each two shapes only. Without a COR, every compared aspect is INC, and the
        shapes decide which points there are, in which order (see :meth:`_shape`). A pair
        ``chosen`` by the mapping has its record made and kept when points are written."""
        key = (ref_shape, hyp_shape)
        found = self._cor_free_points.get(key)
        if found is None or (chosen and self.point_runs is not None):  # writing points: its record is kept
            counted = self._counted(make())
            found = self._cor_free_points[key] = (counted.counts, counted.signature)
        return found

    def template(self, points: Signature) -> int:
        """The number of a template in :attr:`templates` (see :mod:`hub4eval.scoring.pairs`)."""
        return _numbered(points, self._template_ids, self.templates)

    def _counted(self, match: InstanceMatch) -> CountedMatch:
        """The counts and the points' signature of a match record."""
        points = tuple(
            [
                (slot.name, verdict.kind, verdict.category)
                for slot in match.slots
                for _, _, verdicts in slot.pairs
                for verdict in verdicts
            ]
        )
        if self.point_runs is not None:
            self._records[id(match.ref), id(match.hyp)] = match  # its points are written from it
        return CountedMatch(match.ref, match.hyp, match.counts, self.signature(points))

    # -- per-instance preparation --------------------------------------------

    def _view(self, inst: Instance, reference: bool) -> dict[str, SlotView]:
        """The scored slots of an instance with their fills prepared, computed once."""
        views = self._views[reference]
        cached = views.get(id(inst))
        if cached is not None:
            return cached[1]
        prepare = (self.ref_prep if reference else self.hyp_prep).prepare
        docid, unscored = inst.docid, self.unscored
        view: dict[str, SlotView] = {}
        for slot in inst.slots:
            name = slot.name
            if name in unscored or name in view:
                continue
            alternatives = slot.alternatives
            if len(alternatives) > 1 and not reference:
                alternatives = alternatives[:1]
            if len(alternatives) == 1 and len(fills := alternatives[0].fills) == 1:  # the common slot
                fill = fills[0]
                if type(fill) is TextFill:
                    single = prepare(fill, docid)
                    view[name] = (slot, ((single,),), single)
                else:
                    view[name] = (slot, ((cast(PointerFill, fill),),), None)
                continue
            prepared = tuple(
                [
                    tuple(
                        [prepare(f, docid) if type(f) is TextFill else cast(PointerFill, f) for f in alternative.fills]
                    )
                    for alternative in alternatives
                ]
            )
            view[name] = (slot, prepared, None)
        views[id(inst)] = (inst, view)
        return view

    def _keys(self, inst: Instance, reference: bool, mapping: Mapping[str, str]) -> list[Key]:
        """Keys shared by any two instances that can score a COR (see :mod:`hub4eval.scoring.candidates`)."""
        cache = self._text_keys[reference]
        cached = cache.get(id(inst))
        if cached is None:
            text_keys: list[Key] = []
            pointers: list[tuple[str, PointerFill]] = []
            how = self.how
            text_keys_of = reference_text_keys if reference else hypothesis_text_keys
            for name, (_, alternatives, single) in self._view(inst, reference).items():
                if single is not None:  # the common slot: one text fill
                    text_keys += text_keys_of(name, single, how)
                    continue
                for alternative in alternatives:
                    for item in alternative:
                        if type(item) is PreparedFill:
                            text_keys += text_keys_of(name, item, how)
                        else:
                            pointers.append((name, item))  # type: ignore[arg-type]
            cached = cache[id(inst)] = (inst, text_keys, pointers)
        _, keys, pointers = cached
        if not pointers:
            return keys
        keys = list(keys)
        for name, fill in pointers:
            if reference:
                pointer_key = reference_pointer_key(name, fill, mapping)
                if pointer_key is not None:
                    keys.append(pointer_key)
            else:
                keys.append(hypothesis_pointer_key(name, fill))
        return keys

    def _shape(self, inst: Instance, reference: bool, removable: Callable[[PointerFill], bool]) -> Hashable:
        """What decides the counts of a pair of instances when the pair has no COR.

        Without a COR every compared aspect of a fill pair is INC, so the counts
        depend only on which slots there are, their alternatives and fills
        (pointer or text, with an extent part or not), optional slots, and
        which reference pointers would be REM; not on any content or offset.
        Two pairs without COR whose instances have the same shapes have the
        same counts (:func:`hub4eval.scoring.pairs.map_groups` counts one pair per two shapes).
        A hypothesis's shape depends on nothing else, so it is made once.
        """
        if not reference:
            cached = self.shapes[0].get(id(inst))
            if cached is None:
                cached = self.shapes[0][id(inst)] = (inst, self._shape_of(inst, False, removable))
            return cached[1]
        return self._shape_of(inst, True, removable)

    def _shape_of(self, inst: Instance, reference: bool, removable: Callable[[PointerFill], bool]) -> Hashable:
        """The shape of the scored slots of :meth:`_view`, read from the instance itself:
        whether a fill has an extent part needs no prepared fill."""
        shape: list[tuple[str, bool, tuple[tuple[tuple[bool, bool], ...], ...]]] = []
        unscored = self.unscored
        seen: set[str] = set()
        for slot in inst.slots:
            name = slot.name
            if name in unscored or name in seen:
                continue
            seen.add(name)
            alternatives = slot.alternatives
            if len(alternatives) == 1 and len(fills := alternatives[0].fills) == 1 and type(fills[0]) is TextFill:
                # the common slot: one text fill (as below, without the comprehensions)
                shape.append((name, reference and slot.optional, _ONE_TEXT[bool(fills[0].extents)]))
                continue
            if len(alternatives) > 1 and not reference:
                alternatives = alternatives[:1]  # a hypothesis's first alternative, as _view keeps it
            shape.append(
                (
                    name,
                    reference and slot.optional,
                    tuple(
                        tuple(
                            (True, bool(fill.extents))
                            if type(fill) is TextFill
                            else (False, reference and removable(fill))  # type: ignore[arg-type]
                            for fill in alternative.fills
                        )
                        for alternative in alternatives
                    ),
                )
            )
        return tuple(shape)

    def _forget(self) -> None:
        """Drop the per-instance caches (the matches keep what they need)."""
        for caches in (self._views, self._text_keys, self.shapes):
            for cache in caches:
                cache.clear()
        self._lone_hyps.clear()
        self.hyp_sides.clear()
        self.noisy_verdicts.clear()

    def _lone_hyp(self, hyp: Instance) -> InstanceMatch:
        """``match_instance(None, hyp, ...)``, made once per instance."""
        cached = self._lone_hyps.get(id(hyp))
        if cached is None:
            cached = self._lone_hyps[id(hyp)] = (hyp, self.match_instance(None, hyp, {}, _never))
        return cached[1]

    def _noisy_ok(self, ref: PreparedFill, hyp: PreparedFill) -> bool | None:
        """The noisy content verdict of two fills when the engine compared them (see
        :attr:`noisy_verdicts`), else None."""
        fill, minimals = ref.fill, ref.minimals
        key = fill.content if len(minimals) == 1 and minimals[0] is ref.maximal else (fill.content, fill.minimal_spans)
        return self.noisy_verdicts.get((key, hyp.fill.content))

    # -- single fills -------------------------------------------------------

    def match_fills(
        self,
        ref_items: Sequence[Item],
        hyp_items: Sequence[Item],
        *,
        optional_slot: bool,
        mapping: Mapping[str, str],
        removable: Callable[[PointerFill], bool],
    ) -> tuple[FillPairs, Counts]:
        """Greedy between the single fills of two alternatives (§5); leftovers MIS/SPU."""
        config, how = self.config, self.how
        if len(ref_items) == 1 and len(hyp_items) == 1:
            ref_item, hyp_item = ref_items[0], hyp_items[0]
            if isinstance(ref_item, PreparedFill) and isinstance(hyp_item, PreparedFill):
                verdicts = compare_text(ref_item, hyp_item, how)
                return ((0, 0, verdicts),), _counts(verdicts)
        chosen: list[tuple[int, int, tuple[tuple[Verdict, ...], Counts]]]
        if not ref_items or not hyp_items:
            chosen = []  # an instance mapped to nothing, or a slot on one side only
        elif all(type(item) is PointerFill for item in (*ref_items, *hyp_items)):
            chosen = []
            for i, j in _pointer_pairs(ref_items, hyp_items, mapping):  # type: ignore[arg-type]
                verdicts = (compare_pointer(ref_items[i], hyp_items[j], mapping),)  # type: ignore[arg-type]
                chosen.append((i, j, (verdicts, _counts(verdicts))))
        else:
            chosen = greedy_map(self._fill_candidates(ref_items, hyp_items, mapping), lambda p: p[1], self.beta_squared)
        pairs: list[tuple[int | None, int | None, tuple[Verdict, ...]]] = []
        tallies: list[Counts] = []
        used_ref, used_hyp = set(), set()
        for i, j, (verdicts, counts) in sorted(chosen, key=_indices):
            pairs.append((i, j, verdicts))
            tallies.append(counts)
            used_ref.add(i)
            used_hyp.add(j)
        for i, item in enumerate(ref_items):
            if i in used_ref:
                continue
            if isinstance(item, PointerFill):
                verdicts = (
                    unpaired_pointer(item, reference=True, optional_slot=optional_slot, removed=removable(item)),
                )
            else:
                verdicts = unpaired_text(item, config, reference=True, optional_slot=optional_slot)
            pairs.append((i, None, verdicts))
            tallies.append(_counts(verdicts))
        for j, item in enumerate(hyp_items):
            if j in used_hyp:
                continue
            if isinstance(item, PointerFill):
                verdicts = (unpaired_pointer(item, reference=False),)
            else:
                verdicts = unpaired_text(item, config, reference=False)
            pairs.append((None, j, verdicts))
            tallies.append(_counts(verdicts))
        return tuple(pairs), Counts.total(tallies)

    def _fill_candidates(
        self, ref_items: Sequence[Item], hyp_items: Sequence[Item], mapping: Mapping[str, str]
    ) -> list[tuple[int, int, tuple[tuple[Verdict, ...], Counts]]]:
        """Every comparable fill pair with its verdicts and counts."""
        candidates = []
        for i, ref_item in enumerate(ref_items):
            for j, hyp_item in enumerate(hyp_items):
                if isinstance(ref_item, PointerFill) and isinstance(hyp_item, PointerFill):
                    verdicts: tuple[Verdict, ...] = (compare_pointer(ref_item, hyp_item, mapping),)
                elif isinstance(ref_item, PreparedFill) and isinstance(hyp_item, PreparedFill):
                    verdicts = compare_text(ref_item, hyp_item, self.how)
                else:
                    continue  # a pointer and a text fill are never compared
                candidates.append((i, j, (verdicts, _counts(verdicts))))
        return candidates

    # -- slots --------------------------------------------------------------

    def match_slot(
        self,
        name: str,
        ref_slot: SlotView | None,
        hyp_slot: SlotView | None,
        mapping: Mapping[str, str],
        removable: Callable[[PointerFill], bool],
    ) -> SlotMatch:
        """The hypothesis alternative against the best reference alternative (§5)."""
        hyp_items: tuple[Item, ...] = ()
        if hyp_slot is not None and hyp_slot[1]:
            hyp_items = hyp_slot[1][0]
        alternatives = ref_slot[1] if ref_slot is not None else ()
        optional = ref_slot is not None and ref_slot[0].optional
        if not alternatives:
            pairs, counts = self.match_fills(
                (), hyp_items, optional_slot=optional, mapping=mapping, removable=removable
            )
            return SlotMatch(name, None, (), hyp_items, pairs, counts)
        if len(alternatives) == 1:
            index = 0
            pairs, counts = self.match_fills(
                alternatives[0],
                hyp_items,
                optional_slot=optional,
                mapping=mapping,
                removable=removable,
            )
        else:
            best: tuple[tuple, int, FillPairs, Counts] | None = None
            for k, alternative in enumerate(alternatives):
                pairs, counts = self.match_fills(
                    alternative,
                    hyp_items,
                    optional_slot=optional,
                    mapping=mapping,
                    removable=removable,
                )
                key = tie_key(counts, k, 0, self.beta_squared)
                if best is None or key < best[0]:
                    best = (key, k, pairs, counts)
            assert best is not None
            _, index, pairs, counts = best
        return SlotMatch(name, index, alternatives[index], hyp_items, pairs, counts)

    # -- instances ----------------------------------------------------------

    def match_instance(
        self,
        ref: Instance | None,
        hyp: Instance | None,
        mapping: Mapping[str, str],
        removable: Callable[[PointerFill], bool],
    ) -> InstanceMatch:
        """Points of a pair (or of one instance against nothing) over the scored slots."""
        if ref is not None and hyp is None and ref.optional:
            return InstanceMatch(ref, None, (), Counts())  # unmapped optional: nothing at all
        ref_view = self._view(ref, True) if ref is not None else {}
        hyp_view = self._view(hyp, False) if hyp is not None else {}
        how, config = self.how, self.config
        noisy = bool(how.noisy and how.content and self.noisy_verdicts)  # verdicts the engine worked out
        slots = []
        for name, ref_slot in ref_view.items():
            hyp_slot = hyp_view.get(name)
            single = ref_slot[2]
            if single is None:
                slots.append(self.match_slot(name, ref_slot, hyp_slot, mapping, removable))
            elif hyp_slot is None:
                # one text fill left over: what match_slot gives, without the greedy
                verdicts = unpaired_text(single, config, reference=True, optional_slot=ref_slot[0].optional)
                slots.append(SlotMatch(name, 0, ref_slot[1][0], (), ((0, None, verdicts),), _counts(verdicts)))
            elif hyp_slot[2] is not None:
                # the common case, one text fill on each side: no greedy needed
                known = self._noisy_ok(single, hyp_slot[2]) if noisy else None
                verdicts = compare_text(single, hyp_slot[2], how, known)
                slots.append(SlotMatch(name, 0, ref_slot[1][0], hyp_slot[1][0], ((0, 0, verdicts),), _counts(verdicts)))
            else:
                slots.append(self.match_slot(name, ref_slot, hyp_slot, mapping, removable))
        for name, hyp_slot in hyp_view.items():
            if name in ref_view:
                continue
            if hyp_slot[2] is not None:  # one text fill left over, as above
                verdicts = unpaired_text(hyp_slot[2], config, reference=False)
                slots.append(SlotMatch(name, None, (), hyp_slot[1][0], ((None, 0, verdicts),), _counts(verdicts)))
            else:
                slots.append(self.match_slot(name, None, hyp_slot, mapping, removable))
        return InstanceMatch(ref, hyp, tuple(slots), Counts.total([slot.counts for slot in slots]))

    def match_groups(
        self, set_pairs: Sequence[tuple[InstanceSet | None, InstanceSet | None]], order: Sequence[str]
    ) -> list[Any]:
        """:meth:`match_sets` of each pair of instance sets, mapped together type by type.

        The instances of a type depend only on the types before it in the same
        pair of sets (through the pointers), so each type is mapped for every pair
        at once (:func:`hub4eval.scoring.pairs.map_groups`), then the next type.
        """
        from hub4eval.scoring.pairs import Group, map_groups  # numpy: imported when a type is mapped

        new_group = partial(tuple.__new__, Group)  # of its fields, as Group(*them)
        one_type = self.one_type
        states = [_SetState(ref, hyp, one_type) for ref, hyp in set_pairs]
        counting = self.counting
        for type_name in order:
            work = [(state, state.group(type_name, new_group)) for state in states]
            paired = [group for _, group in work if group.refs and group.hyps]
            try:
                chosen = iter(map_groups(self, paired, MAX_CANDIDATE_PAIRS) if paired else ())
            except TooManyPairs as error:
                group = paired[error.group]
                raise _too_many_pairs(group.refs, group.hyps, type_name, error.count, error.at_least) from None
            for state, (refs, hyps, _, removable) in work:
                if not refs and not hyps:
                    continue
                mapping, matches = state.mapping, state.matches
                pairs, counted = next(chosen) if refs and hyps else ([], {})
                by_ref: dict[int, Any]
                if counting and not self.pointers and len(pairs) == len(refs) == len(hyps):
                    # every instance paired (the usual document), each pair counted without a
                    # record: the matches in reference order, as below
                    ranked = sorted(pairs)  # by reference (each once)
                    entries: list[Any] = list(map(counted.get, ranked))
                    if set(map(type, entries)) == {tuple}:
                        partners = map(hyps.__getitem__, map(_SECOND, ranked))
                        counts, signatures = zip(*entries, strict=True)
                        matches += map(_COUNTED_MATCH, zip(refs, partners, counts, signatures, strict=True))
                        continue
                if counting:
                    by_ref = {}
                    for i, j in pairs:
                        found = counted.get((i, j))
                        if type(found) is tuple:  # counts and signature, without a record (pairs._counted)
                            by_ref[i] = CountedMatch(refs[i], hyps[j], *found)
                        else:
                            by_ref[i] = (
                                self._counted(found)
                                if found is not None
                                else self._pair_counted(refs[i], hyps[j], mapping, removable)
                            )
                else:
                    by_ref = {
                        i: counted.get((i, j)) or self.match_instance(refs[i], hyps[j], mapping, removable)
                        for i, j in pairs
                    }
                if self.pointers:  # (only a pointer reads which instances are mapped)
                    for i, j in pairs:
                        mapping[refs[i].key] = hyps[j].key
                mapped_hyp = {j for _, j in pairs}
                for i, r in enumerate(refs):
                    if i in by_ref:
                        matches.append(by_ref[i])
                    elif counting:
                        matches.append(self._lone_counted(r, True, mapping, removable))
                    else:
                        matches.append(self.match_instance(r, None, mapping, removable))
                for j, h in enumerate(hyps):
                    if j not in mapped_hyp:
                        matches.append(self._lone_counted(h, False, mapping, _never) if counting else self._lone_hyp(h))
        return [
            (CountedSet if counting else SetMatch)(
                state.ref, state.hyp, tuple(state.matches), Counts.total([m.counts for m in state.matches])
            )
            for state in states
        ]

    def match_sets(self, ref: InstanceSet | None, hyp: InstanceSet | None, order: Sequence[str]) -> SetMatch:
        """Map the instances of two instance sets, type by type in dependency order."""
        return self.match_groups([(ref, hyp)], order)[0]

    # -- instance sets ------------------------------------------------------

    def _match_in_runs(
        self,
        set_pairs: Sequence[tuple[InstanceSet | None, InstanceSet | None]],
        order: Sequence[str],
        *,
        forget: bool,
    ) -> list[SetMatch]:
        """:meth:`match_groups` of the pairs of sets, a run of about :data:`_CHUNK_INSTANCES`
        instances at a time; with ``forget``, the caches are dropped after each run and
        progress is reported (one call per reference set)."""
        matches: list[SetMatch] = []
        for chunk in _chunks(set_pairs):
            try:
                done = self.match_groups(chunk, order)
                matches += done
                if self.point_runs is not None and self.counting:
                    from hub4eval.scoring.counted_points import CountedRun

                    # the run's points, written while its prepared fills are at hand
                    self.point_runs(CountedRun.of(done, self, self._records))
                    self._records = {}
            except InputError:
                if len(chunk) == 1:
                    raise  # mapping its one pair of sets again would give the same error
                # a document refused: the first one in order is named, mapping them one by one
                for ref_set, hyp_set in chunk:
                    matches.append(self.match_sets(ref_set, hyp_set, order))
                raise  # pragma: no cover - the first refusal is raised above
            if forget:
                self._forget()  # each run is mapped once: its memory is reused for the next
                if self.progress is not None:
                    for ref_set, _ in chunk:
                        if ref_set is not None:
                            self.progress(1)  # one call per reference set, as the callers count
        return matches

    def count_template_sets(
        self,
        ref: TemplateSet,
        hyp: TemplateSet,
        order: Sequence[str] | None = None,
        *,
        ref_extent: Callable[[InstanceSet], Extent | None] | None = None,
        hyp_extent: Callable[[InstanceSet], Extent | None] | None = None,
        counted: Callable[[list[tuple[int, int]]], Mapping[tuple[int, int], Any]] | None = None,
    ) -> tuple[CountedSet, ...]:
        """:meth:`match_template_sets` (instance sets by DOCID, or by overlap with the extent
        functions), giving of each instance match only its counts and the signature of its
        points (see :class:`CountedMatch`): most of the pairs' match records are never made."""
        from hub4eval.scoring.pairs import tabulate  # numpy: imported when a type is mapped

        self.counting = True
        try:
            # the fills of both sides read at once, for every run of documents (and, the
            # reference's, for a later count of it with the same preparer: the ceiling's)
            # (a hypothesis counted by ``counted`` is read there, for what it counts)
            tables = (
                tabulate(self, ref.instances, True),
                tabulate(self, hyp.instances, False) if counted is None else None,
            )
            # every instance in a table holds only text fills in its scored slots: no pointer
            # reads the mapping of the instances (nor which reference instances are removable);
            # a side not tabulated here may hold some
            self.pointers = not all(t is not None and bool(t.covered.all()) for t in tables)
            ref_table, hyp_table = tables
            if ref_table is not None and hyp_table is not None:
                # every instance of both sets in a table: the tables know their types
                types = dict.fromkeys([*ref_table.types, *hyp_table.types])
                self.one_type = next(iter(types)) if len(types) == 1 else None
                if order is None and bool(ref_table.complete.all()) and bool(hyp_table.complete.all()):
                    order = tuple(types)  # no pointer anywhere: the types in order of first sight (type_order)
            if order is None:  # the instances of one usual text fill a slot hold no pointer
                order = type_order(ref, hyp, tuple(None if t is None else t.complete.tolist() for t in tables))
            return self.match_template_sets(  # type: ignore[return-value]
                ref, hyp, ref_extent=ref_extent, hyp_extent=hyp_extent, order=order, counted=counted
            )
        finally:
            self.counting = False
            self.pointers = True
            self.one_type = None

    def match_template_sets(
        self,
        ref: TemplateSet,
        hyp: TemplateSet,
        *,
        ref_extent: Callable[[InstanceSet], Extent | None] | None = None,
        hyp_extent: Callable[[InstanceSet], Extent | None] | None = None,
        order: Sequence[str] | None = None,
        counted: Callable[[list[tuple[int, int]]], Mapping[tuple[int, int], Any]] | None = None,
    ) -> tuple[SetMatch, ...]:
        """Map instance sets: by DOCID, or (with extent functions) by overlap (§7.4).

        ``order``: :func:`type_order` of the two sets when the caller has it already (a
        worker of :mod:`hub4eval.parallel` reads it from the pointers the reader listed),
        instead of a walk over every slot of every instance. ``counted``: given the pairs
        (i, j) of overlapping sets, the matches of those it has made already (the ceiling's:
        :class:`hub4eval.scoring.ceiling_count.Diagonal`); the others are mapped here."""
        if order is None:
            order = type_order(ref, hyp)
        if ref_extent is None or hyp_extent is None:
            hyp_by_docid = {iset.docid: iset for iset in hyp.instance_sets}
            set_pairs: list[tuple[InstanceSet | None, InstanceSet | None]] = [
                (iset, hyp_by_docid.pop(iset.docid, None)) for iset in ref.instance_sets
            ]
            set_pairs += [(None, iset) for iset in hyp.instance_sets if iset.docid in hyp_by_docid]
            return tuple(self._match_in_runs(set_pairs, order, forget=True))
        ref_extents = [ref_extent(iset) for iset in ref.instance_sets]
        many = getattr(hyp_extent, "many", None)  # all the sets' extents at once (set_extents.HypSetExtents)
        hyp_extents = many(hyp.instance_sets) if many is not None else [hyp_extent(iset) for iset in hyp.instance_sets]
        overlapping = _overlapping(ref_extents, hyp_extents)
        done = counted(overlapping) if counted is not None else {}
        rest = [pair for pair in overlapping if pair not in done] if done else overlapping
        # a hypothesis set is kept prepared for every reference set it overlaps (no forgetting)
        mapped = self._match_in_runs(
            [(ref.instance_sets[i], hyp.instance_sets[j]) for i, j in rest], order, forget=False
        )
        if done:
            found = dict(zip(rest, mapped, strict=True))
            mapped = [done[pair] if pair in done else found[pair] for pair in overlapping]
        candidates = [(i, j, match) for (i, j), match in zip(overlapping, mapped, strict=True)]
        if len({i for i, _ in overlapping}) == len({j for _, j in overlapping}) == len(overlapping):
            chosen = candidates  # no two pairs share a set: the greedy takes every one, whatever its counts
        else:
            chosen = greedy_map(candidates, lambda m: m.counts, self.beta_squared)
        by_ref = {i: m for i, _, m in chosen}
        mapped_hyp = {j for _, j, _ in chosen}
        matches = [
            by_ref[i] if i in by_ref else self.match_sets(iset, None, order) for i, iset in enumerate(ref.instance_sets)
        ]
        matches += [
            self.match_sets(None, iset, order) for j, iset in enumerate(hyp.instance_sets) if j not in mapped_hyp
        ]
        return tuple(matches)


# More candidate pairs than this in one type of one document would take more
# memory than a usual machine has (about 24 bytes each at the peak of the
# compact engine, see hub4eval.scoring.pairs): the run stops with a clear error
# instead, from a count made before any pair is compared.
MAX_CANDIDATE_PAIRS = 100_000_000
_BYTES_PER_PAIR = 24  # hub4eval.scoring.pairs.BYTES_PER_PAIR (not imported: it imports numpy)


def _too_many_pairs(
    refs: Sequence[Instance], hyps: Sequence[Instance], type_name: str, count: int, at_least: bool = False
) -> PairsRefused:
    return pairs_refused((refs or hyps)[0].docid, len(refs), len(hyps), type_name, count, at_least)


def pairs_refused(docid: str, n_ref: int, n_hyp: int, type_name: str, count: int, at_least: bool) -> PairsRefused:
    """The error of a type of a document whose ``n_ref`` by ``n_hyp`` instances give ``count``
    candidate pairs (``at_least``: a lower bound of them), more than :data:`MAX_CANDIDATE_PAIRS`."""
    gigabytes = count * _BYTES_PER_PAIR / 1e9
    how_many = (
        f"at least {count:,}, {gigabytes:,.1f} GB or more" if at_least else f"{count:,}, about {gigabytes:,.1f} GB"
    )
    return PairsRefused(
        f"document {docid}, type {type_name}: {n_ref:,} reference and {n_hyp:,} hypothesis instances "
        f"give more than {MAX_CANDIDATE_PAIRS:,} pairs to compare ({how_many}); "
        "this would exhaust the memory of the machine",
        hint="check that the right files were given; instances of one document that could all match "
        "each other are scored pair by pair",
    )


class _SetState:
    """A pair of instance sets while :meth:`Mapper.match_groups` maps it: its instances
    by type, the instances mapped so far and the matches made so far."""

    __slots__ = ("ref", "hyp", "mapping", "_optional_refs", "by_type", "matches")

    def __init__(self, ref: InstanceSet | None, hyp: InstanceSet | None, one_type: str | None = None) -> None:
        """``one_type``: the type of every instance of the two sets, when known (None: they are read)."""
        self.ref, self.hyp = ref, hyp
        self.mapping: dict[str, str] = {}
        self._optional_refs: set[str] | None = None  # made when first asked (see removable)
        self.by_type: tuple[dict[str, list[Instance]], dict[str, list[Instance]]]
        if one_type is not None:  # (a count's usual sets: made without the loop below)
            self.by_type = (
                {one_type: list(ref.instances)} if ref is not None and ref.instances else {},
                {one_type: list(hyp.instances)} if hyp is not None and hyp.instances else {},
            )
            self.matches: list[Any] = []  # InstanceMatch, or CountedMatch when counting
            return
        self.by_type = ({}, {})
        for side, iset in zip(self.by_type, (ref, hyp), strict=True):
            instances = iset.instances if iset is not None else ()
            if instances:
                types = list(map(_type_of, instances))
                if types.count(types[0]) == len(types):  # one type (the usual set)
                    side[types[0]] = list(instances)
                    continue
            for inst in instances:
                side.setdefault(inst.type, []).append(inst)
        self.matches = []

    @property
    def optional_refs(self) -> set[str]:
        """The keys of the optional reference instances."""
        if self._optional_refs is None:
            instances = self.ref.instances if self.ref is not None else ()
            self._optional_refs = {inst.key for inst in instances if inst.optional}
        return self._optional_refs

    def removable(self, fill: PointerFill) -> bool:
        # most targets are mapped: the optional instances are looked for when one is not
        key = fill.key
        return key not in self.mapping and key in self.optional_refs

    def group(self, type_name: str, new_group: Callable[[tuple[Any, ...]], Group]) -> Group:
        """The pair's instances of type ``type_name`` and its state, as a ``pairs.Group`` made
        by ``new_group`` (the caller's, which imported the engine: no import and no
        ``Group.__new__`` in Python for each of the thousands of pairs of sets of a run)."""
        refs, hyps = self.by_type
        return new_group((refs.get(type_name, []), hyps.get(type_name, []), self.mapping, self.removable))


# Instances of the pairs of sets mapped together: bounds the memory of the caches (the
# prepared views of the instances that have match records, the fills of the others as rows
# of a few numbers, hub4eval.scoring.pairs._Texts), while numpy's cost per call of
# pairs.map_groups is paid for many documents at once.
_CHUNK_INSTANCES = 10_000


def _chunks(
    set_pairs: Sequence[tuple[InstanceSet | None, InstanceSet | None]],
) -> Iterator[Sequence[tuple[InstanceSet | None, InstanceSet | None]]]:
    """The pairs of instance sets in runs of about :data:`_CHUNK_INSTANCES` instances."""
    start = size = 0
    for end, (ref, hyp) in enumerate(set_pairs):
        size += (len(ref.instances) if ref is not None else 0) + (len(hyp.instances) if hyp is not None else 0)
        if size >= _CHUNK_INSTANCES:
            yield set_pairs[start : end + 1]
            start, size = end + 1, 0
    if start < len(set_pairs):
        yield set_pairs[start:]


def _never(fill: PointerFill) -> bool:
    return False  # a hypothesis pointer is never REM


def _pointer_pairs(
    ref_fills: Sequence[PointerFill], hyp_fills: Sequence[PointerFill], mapping: Mapping[str, str]
) -> list[tuple[int, int]]:
    """The pairs :func:`greedy_map` chooses between two lists of pointers, in linear time.

    A pointer pair is one point: COR (F = 1) when the reference target is
    mapped to the hypothesis target, else INC (F = 0, one error). All COR
    pairs tie, so they are taken in (reference, hypothesis) order; then the
    INC pairs, which also all tie: the first reference pointer left pairs
    with the first hypothesis pointer left, and so on.
    """
    waiting: dict[str, list[int]] = {}  # hypothesis target -> its pointers, in order
    for j, fill in enumerate(hyp_fills):
        waiting.setdefault(fill.key, []).append(j)
    pairs = []
    used_hyp: set[int] = set()
    left_ref = []
    for i, fill in enumerate(ref_fills):
        mapped = mapping.get(fill.key)
        queue = waiting.get(mapped) if mapped is not None else None
        if queue:
            j = queue.pop(0)
            pairs.append((i, j))
            used_hyp.add(j)
        else:
            left_ref.append(i)
    left_hyp = (j for j in range(len(hyp_fills)) if j not in used_hyp)
    pairs += zip(left_ref, left_hyp, strict=False)  # the unpaired leftovers of the longer side stay unmapped
    return pairs


def _overlapping(ref_extents: Sequence[Extent | None], hyp_extents: Sequence[Extent | None]) -> list[tuple[int, int]]:
    """(i, j) pairs whose extents overlap (§7.4), in (i, j) order.

    Reference sets are documents in file order, so their extents are sorted and
    do not overlap each other: each hypothesis extent finds its range of
    reference extents by bisection instead of being tried against all of them.
    """
    known = sorted((e.start, e.end, i) for i, e in enumerate(ref_extents) if e is not None)
    ordered = all(known[k][1] <= known[k + 1][0] for k in range(len(known) - 1))
    starts = [start for start, _, _ in known]
    ends = [end for _, end, _ in known]
    pairs = []
    for j, extent in enumerate(hyp_extents):
        if extent is None:
            continue
        if ordered:
            window = known[bisect.bisect_left(ends, extent.start) : bisect.bisect_right(starts, extent.end)]
        else:
            window = known
        pairs += [(i, j) for start, end, i in window if Extent(start, end).overlaps(extent)]
    return sorted(pairs)


def point_keys(matches: Sequence[SetMatch]) -> Iterator[tuple[str, str, str, str, str]]:
    """(docid, type, slot, kind, category) of every point, in :func:`points_of` order."""
    for set_match in matches:
        docid = set_match.docid
        for inst in set_match.instances:
            owner = inst.ref if inst.ref is not None else inst.hyp
            assert owner is not None
            type_name = owner.type
            for slot in inst.slots:
                name = slot.name
                for _, _, verdicts in slot.pairs:
                    for verdict in verdicts:
                        yield (docid, type_name, name, verdict.kind, verdict.category)


def points_of(matches: Sequence[SetMatch]) -> tuple[Point, ...]:
    """The points of a mapping, with their fills and reasons, in file order."""
    return tuple(iter_points(matches))


FillPair = tuple[str, str, str, "Instance | None", "Instance | None", "Fill | None", "Fill | None", tuple[Verdict, ...]]


def iter_fill_pairs(matches: Sequence[SetMatch]) -> Iterator[FillPair]:
    """(docid, type, slot, ref instance, hyp instance, ref fill, hyp fill, verdicts) of
    every fill pair (or fill left over, the other fill None) of a mapping, in file order."""
    for set_match in matches:
        docid = set_match.docid
        for inst in set_match.instances:
            ref, hyp = inst.ref, inst.hyp
            type_name = (ref if ref is not None else hyp).type  # type: ignore[union-attr]
            for slot in inst.slots:
                name = slot.name
                ref_items, hyp_items = slot.ref_items, slot.hyp_items
                for i, j, verdicts in slot.pairs:
                    # the fill of each item: a PreparedFill's, or the PointerFill itself
                    ref_fill: Fill | Item | None = None if i is None else ref_items[i]
                    if type(ref_fill) is PreparedFill:
                        ref_fill = ref_fill.fill
                    hyp_fill: Fill | Item | None = None if j is None else hyp_items[j]
                    if type(hyp_fill) is PreparedFill:
                        hyp_fill = hyp_fill.fill
                    yield docid, type_name, name, ref, hyp, ref_fill, hyp_fill, verdicts  # type: ignore[misc]


def iter_points(matches: Sequence[SetMatch]) -> Iterator[Point]:
    """:func:`points_of` one at a time (a million points need not all be in memory)."""
    for docid, type_name, slot, ref, hyp, ref_fill, hyp_fill, verdicts in iter_fill_pairs(matches):
        ref_ref = FillRef.of(ref, slot, ref_fill) if ref_fill is not None and ref is not None else None
        hyp_ref = FillRef.of(hyp, slot, hyp_fill) if hyp_fill is not None and hyp is not None else None
        for verdict in verdicts:
            yield Point(
                verdict.kind,
                verdict.category,
                docid,
                type_name,
                slot,
                ref_ref,
                hyp_ref,
                verdict.reason,
                ref_fill,
                hyp_fill,
            )
