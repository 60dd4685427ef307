"""§5: the bottom-up greedy mapping of two template sets, and its points.

Levels: instance sets (by DOCID, or by overlapping extents for an unsegmented
hypothesis, §7.4) -> instances of one type, types in pointer-dependency order
-> slots by name -> the best reference fill-alternative -> single fills. Each
level uses :func:`hub4eval.greedy.greedy_map`. Candidate pairs carry only
verdicts and counts; points with their fills are made for the chosen mapping.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .compare import (
    Verdict,
    compare_pointer,
    compare_text,
    unpaired_pointer,
    unpaired_text,
)
from .config import ScoreConfig
from .errors import InputError
from .greedy import greedy_map, tie_key
from .metrics import Counts
from .model import Extent, Fill, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill
from .points import FillRef, Point
from .prepare import FillPreparer, PreparedFill


def _counts(verdicts: Sequence[Verdict]) -> Counts:
    return sum((Counts.of(v.category) for v in verdicts), Counts())


@dataclass(frozen=True)
class FillMatch:
    """Single fills of one reference alternative against the hypothesis fills."""

    pairs: tuple[tuple[int | None, int | None, tuple[Verdict, ...]], ...]
    counts: Counts


@dataclass(frozen=True)
class SlotMatch:
    name: str
    alternative: int | None  # index of the chosen reference alternative
    ref_fills: tuple[Fill, ...]
    hyp_fills: tuple[Fill, ...]
    match: FillMatch


@dataclass(frozen=True)
class InstanceMatch:
    """A mapped pair, or an instance mapped to nothing (the other side None)."""

    ref: Instance | None
    hyp: Instance | None
    slots: tuple[SlotMatch, ...]
    counts: Counts


@dataclass(frozen=True)
class SetMatch:
    """Two instance sets mapped to each other, or one mapped to nothing."""

    ref: InstanceSet | None
    hyp: InstanceSet | None
    instances: tuple[InstanceMatch, ...]
    counts: Counts

    @property
    def docid(self) -> str:
        return self.ref.docid if self.ref is not None else self.hyp.docid  # type: ignore[union-attr]


def type_order(ref: TemplateSet, hyp: TemplateSet) -> tuple[str, ...]:
    """Types so that a type comes after every type its instances point to (§5).

    Raises:
        InputError: the type-pointer graph has a cycle.
    """
    edges: dict[str, list[tuple[str, PointerFill, str]]] = {}
    for tset in (ref, hyp):
        for inst in tset.instances:
            targets = edges.setdefault(inst.type, [])
            for slot in inst.slots:
                for alternative in slot.alternatives:
                    for fill in alternative.fills:
                        if isinstance(fill, PointerFill):
                            targets.append((fill.type, fill, tset.path))
                            edges.setdefault(fill.type, [])
    order: list[str] = []
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target, fill, path in edges[node]:
            if state.get(target) == 1:
                cycle = " -> ".join(trail[trail.index(target):] + [node, target]) if target in trail else f"{node} -> {target}"
                raise InputError(
                    f"instance types point to each other in a cycle ({cycle}); "
                    "pointer points cannot be decided",
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


class Mapper:
    """Maps a reference template set to a hypothesis template set."""

    def __init__(
        self,
        config: ScoreConfig,
        ref_prep: FillPreparer,
        hyp_prep: FillPreparer,
        *,
        noisy: bool = False,
    ) -> None:
        self.config = config
        self.ref_prep = ref_prep
        self.hyp_prep = hyp_prep
        self.noisy = noisy
        self.beta_squared: Fraction = config.beta_squared
        self.unscored = frozenset(config.unscored_slots)
        self._text_cache: dict[tuple[int, int], tuple[Verdict, ...]] = {}

    # -- single fills -------------------------------------------------------

    def _text_pair(self, ref: PreparedFill, hyp: PreparedFill) -> tuple[Verdict, ...]:
        key = (id(ref), id(hyp))
        verdicts = self._text_cache.get(key)
        if verdicts is None:
            verdicts = compare_text(ref, hyp, self.config, self.noisy)
            self._text_cache[key] = verdicts
        return verdicts

    def match_fills(
        self,
        ref_fills: Sequence[Fill],
        hyp_fills: Sequence[Fill],
        ref_docid: str,
        hyp_docid: str,
        *,
        optional_slot: bool,
        mapping: Mapping[str, str],
        removable: Callable[[PointerFill], bool],
    ) -> FillMatch:
        """Greedy between the single fills of two alternatives (§5); leftovers MIS/SPU."""
        ref_prepared = [
            self.ref_prep(f, ref_docid) if isinstance(f, TextFill) else None for f in ref_fills
        ]
        hyp_prepared = [
            self.hyp_prep(f, hyp_docid) if isinstance(f, TextFill) else None for f in hyp_fills
        ]
        candidates = []
        for i, ref_fill in enumerate(ref_fills):
            for j, hyp_fill in enumerate(hyp_fills):
                if isinstance(ref_fill, PointerFill) and isinstance(hyp_fill, PointerFill):
                    verdicts: tuple[Verdict, ...] = (compare_pointer(ref_fill, hyp_fill, mapping),)
                elif isinstance(ref_fill, TextFill) and isinstance(hyp_fill, TextFill):
                    verdicts = self._text_pair(ref_prepared[i], hyp_prepared[j])  # type: ignore[arg-type]
                else:
                    continue  # a pointer and a text fill are never compared
                candidates.append((i, j, (verdicts, _counts(verdicts))))
        chosen = greedy_map(candidates, lambda payload: payload[1], self.beta_squared)
        pairs: list[tuple[int | None, int | None, tuple[Verdict, ...]]] = []
        total = Counts()
        used_ref, used_hyp = set(), set()
        for i, j, (verdicts, counts) in sorted(chosen, key=lambda c: (c[0], c[1])):
            pairs.append((i, j, verdicts))
            total += counts
            used_ref.add(i)
            used_hyp.add(j)
        for i, fill in enumerate(ref_fills):
            if i in used_ref:
                continue
            if isinstance(fill, PointerFill):
                verdicts = (
                    unpaired_pointer(
                        fill, reference=True, optional_slot=optional_slot, removed=removable(fill)
                    ),
                )
            else:
                verdicts = unpaired_text(
                    ref_prepared[i], self.config, reference=True, optional_slot=optional_slot  # type: ignore[arg-type]
                )
            pairs.append((i, None, verdicts))
            total += _counts(verdicts)
        for j, fill in enumerate(hyp_fills):
            if j in used_hyp:
                continue
            if isinstance(fill, PointerFill):
                verdicts = (unpaired_pointer(fill, reference=False),)
            else:
                verdicts = unpaired_text(hyp_prepared[j], self.config, reference=False)  # type: ignore[arg-type]
            pairs.append((None, j, verdicts))
            total += _counts(verdicts)
        return FillMatch(tuple(pairs), total)

    # -- slots --------------------------------------------------------------

    def match_slot(
        self,
        name: str,
        ref_slot: Slot | None,
        hyp_slot: Slot | None,
        ref_docid: str,
        hyp_docid: str,
        mapping: Mapping[str, str],
        removable: Callable[[PointerFill], bool],
    ) -> SlotMatch:
        """The hypothesis alternative against the best reference alternative (§5)."""
        hyp_fills: tuple[Fill, ...] = ()
        if hyp_slot is not None and hyp_slot.alternatives:
            hyp_fills = hyp_slot.alternatives[0].fills
        alternatives = ref_slot.alternatives if ref_slot is not None else ()
        optional = ref_slot is not None and ref_slot.optional
        if not alternatives:
            match = self.match_fills(
                (), hyp_fills, ref_docid, hyp_docid,
                optional_slot=optional, mapping=mapping, removable=removable,
            )
            return SlotMatch(name, None, (), hyp_fills, match)
        best: tuple[tuple, int, FillMatch] | None = None
        for index, alternative in enumerate(alternatives):
            match = self.match_fills(
                alternative.fills, hyp_fills, ref_docid, hyp_docid,
                optional_slot=optional, mapping=mapping, removable=removable,
            )
            key = tie_key(match.counts, index, 0, self.beta_squared)
            if best is None or key < best[0]:
                best = (key, index, match)
        assert best is not None
        _, index, match = best
        return SlotMatch(name, index, alternatives[index].fills, hyp_fills, match)

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
        names: list[str] = []
        for inst in (ref, hyp):
            if inst is not None:
                for slot in inst.slots:
                    if slot.name not in self.unscored and slot.name not in names:
                        names.append(slot.name)
        ref_docid = ref.docid if ref is not None else ""
        hyp_docid = hyp.docid if hyp is not None else ""
        slots = tuple(
            self.match_slot(
                name,
                ref.slot(name) if ref is not None else None,
                hyp.slot(name) if hyp is not None else None,
                ref_docid,
                hyp_docid,
                mapping,
                removable,
            )
            for name in names
        )
        return InstanceMatch(ref, hyp, slots, sum((s.match.counts for s in slots), Counts()))

    def match_sets(
        self, ref: InstanceSet | None, hyp: InstanceSet | None, order: Sequence[str]
    ) -> SetMatch:
        """Map the instances of two instance sets, type by type in dependency order."""
        mapping: dict[str, str] = {}
        optional_refs = {
            inst.key for inst in (ref.instances if ref is not None else ()) if inst.optional
        }

        def removable(fill: PointerFill) -> bool:
            return fill.key in optional_refs and fill.key not in mapping

        matches: list[InstanceMatch] = []
        ref_instances = ref.instances if ref is not None else ()
        hyp_instances = hyp.instances if hyp is not None else ()
        for type_name in order:
            refs = [inst for inst in ref_instances if inst.type == type_name]
            hyps = [inst for inst in hyp_instances if inst.type == type_name]
            if not refs and not hyps:
                continue
            candidates = [
                (i, j, self.match_instance(r, h, mapping, removable))
                for i, r in enumerate(refs)
                for j, h in enumerate(hyps)
            ]
            chosen = greedy_map(
                candidates, lambda m: m.counts, self.beta_squared, self.config.min_map_f
            )
            for _, _, match in chosen:
                mapping[match.ref.key] = match.hyp.key  # type: ignore[union-attr]
            mapped_ref = {i for i, _, _ in chosen}
            mapped_hyp = {j for _, j, _ in chosen}
            by_ref = {i: m for i, _, m in chosen}
            for i, r in enumerate(refs):
                matches.append(
                    by_ref[i] if i in mapped_ref else self.match_instance(r, None, mapping, removable)
                )
            for j, h in enumerate(hyps):
                if j not in mapped_hyp:
                    matches.append(self.match_instance(None, h, mapping, removable))
        return SetMatch(ref, hyp, tuple(matches), sum((m.counts for m in matches), Counts()))

    # -- instance sets ------------------------------------------------------

    def match_template_sets(
        self,
        ref: TemplateSet,
        hyp: TemplateSet,
        *,
        ref_extent: Callable[[InstanceSet], Extent | None] | None = None,
        hyp_extent: Callable[[InstanceSet], Extent | None] | None = None,
    ) -> tuple[SetMatch, ...]:
        """Map instance sets: by DOCID, or (with extent functions) by overlap (§7.4)."""
        order = type_order(ref, hyp)
        if ref_extent is None or hyp_extent is None:
            hyp_by_docid = {iset.docid: iset for iset in hyp.instance_sets}
            matches = []
            for iset in ref.instance_sets:
                matches.append(self.match_sets(iset, hyp_by_docid.pop(iset.docid, None), order))
            for iset in hyp.instance_sets:
                if iset.docid in hyp_by_docid:
                    matches.append(self.match_sets(None, iset, order))
            return tuple(matches)
        ref_extents = [ref_extent(iset) for iset in ref.instance_sets]
        hyp_extents = [hyp_extent(iset) for iset in hyp.instance_sets]
        candidates = [
            (i, j, self.match_sets(r, h, order))
            for i, r in enumerate(ref.instance_sets)
            for j, h in enumerate(hyp.instance_sets)
            if ref_extents[i] is not None
            and hyp_extents[j] is not None
            and ref_extents[i].overlaps(hyp_extents[j])  # type: ignore[union-attr]
        ]
        chosen = greedy_map(candidates, lambda m: m.counts, self.beta_squared)
        by_ref = {i: m for i, _, m in chosen}
        mapped_hyp = {j for _, j, _ in chosen}
        matches = [
            by_ref[i] if i in by_ref else self.match_sets(iset, None, order)
            for i, iset in enumerate(ref.instance_sets)
        ]
        matches += [
            self.match_sets(None, iset, order)
            for j, iset in enumerate(hyp.instance_sets)
            if j not in mapped_hyp
        ]
        return tuple(matches)


def points_of(matches: Sequence[SetMatch]) -> tuple[Point, ...]:
    """The points of a mapping, with their fills and reasons, in file order."""
    points: list[Point] = []
    for set_match in matches:
        docid = set_match.docid
        for inst in set_match.instances:
            owner = inst.ref if inst.ref is not None else inst.hyp
            assert owner is not None
            for slot in inst.slots:
                for i, j, verdicts in slot.match.pairs:
                    ref_fill = slot.ref_fills[i] if i is not None else None
                    hyp_fill = slot.hyp_fills[j] if j is not None else None
                    ref_ref = (
                        FillRef.of(inst.ref, slot.name, ref_fill)
                        if ref_fill is not None and inst.ref is not None
                        else None
                    )
                    hyp_ref = (
                        FillRef.of(inst.hyp, slot.name, hyp_fill)
                        if hyp_fill is not None and inst.hyp is not None
                        else None
                    )
                    for verdict in verdicts:
                        points.append(
                            Point(
                                verdict.kind,
                                verdict.category,
                                docid,
                                owner.type,
                                slot.name,
                                ref_ref,
                                hyp_ref,
                                verdict.reason,
                                ref_fill,
                                hyp_fill,
                            )
                        )
    return tuple(points)
