"""Named entities scored as MUC and the MITRE speech scorer score them.

Each tagged region is an instance whose type is its element (ENAMEX, TIMEX,
NUMEX) with the slots ``TYPE`` and ``TEXT`` (:func:`hub4eval.io.entities.entity_templates`);
the mapping and the verdicts are the templette ones with two changes, both MUC's:

- **Mapping by overlap.** Two regions are paired only when they are of the
  same element and their ``TEXT`` extents overlap: share a character (same
  texts) or an alignment column (texts that differ). Among the overlapping
  pairs the usual greedy rule chooses (highest F first, then the tie order);
  a region that overlaps nothing it can pair with is missing (reference) or
  spurious (hypothesis).
- **TYPE is a set fill.** Its one point is its value, compared as clean
  content (the same value once case and punctuation are folded), whatever
  ``--compare`` says: ``--compare`` chooses the points of ``TEXT`` only.
- **Exact extents.** The extent point of ``TEXT`` is correct only when the
  hypothesis extent is the reference extent (the same characters, or the
  same first and last alignment columns), not merely inside it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, Instance, InstanceSet, PointerFill
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.greedy import greedy_map
from hub4eval.scoring.mapping import InstanceMatch, Mapper, SetMatch, SlotMatch
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.verdicts import TextComparison, compare_text, unpaired_text

TEXT_SLOT = "TEXT"
TYPE_SLOT = "TYPE"


class EntityMapper(Mapper):
    """:class:`~hub4eval.scoring.mapping.Mapper` with the named-entity rules above."""

    def __init__(
        self,
        config: ScoreConfig,
        ref_prep: FillPreparer,
        hyp_prep: FillPreparer,
        *,
        noisy: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(config, ref_prep, hyp_prep, noisy=noisy, progress=progress)
        self.how = replace(self.how, exact_extent=True)
        self.type_config = replace(config, compare="content")
        self.type_how = TextComparison(content=True, extent=False)
        # character extents are end-exclusive; alignment columns are first and last column
        self.columns = hyp_prep.map_extent is not None

    def _extent(self, inst: Instance, reference: bool) -> Extent | None:
        view = self._view(inst, reference)
        slot = view.get(TEXT_SLOT)
        if slot is None:
            return None
        single = slot[2]
        return None if single is None else single.maximal.extent

    def _overlap(self, a: Extent, b: Extent) -> bool:
        if self.columns:
            return a.start <= b.end and b.start <= a.end
        return a.start < b.end and b.start < a.end

    def match_groups(
        self, set_pairs: Sequence[tuple[InstanceSet | None, InstanceSet | None]], order: Sequence[str]
    ) -> list[SetMatch]:
        """:meth:`match_sets` of each pair of documents (regions are paired by overlap, not by keys)."""
        return [self.match_sets(ref, hyp, order) for ref, hyp in set_pairs]

    def match_sets(self, ref: InstanceSet | None, hyp: InstanceSet | None, order: Sequence[str]) -> SetMatch:
        """Map the regions of two documents: same element, overlapping extents, greedy."""
        mapping: dict[str, str] = {}
        optional_refs = {inst.key for inst in (ref.instances if ref is not None else ()) if inst.optional}

        def removable(fill: PointerFill) -> bool:
            return fill.key in optional_refs and fill.key not in mapping

        matches: list[InstanceMatch] = []
        ref_by_type: dict[str, list[Instance]] = {}
        for inst in ref.instances if ref is not None else ():
            ref_by_type.setdefault(inst.type, []).append(inst)
        hyp_by_type: dict[str, list[Instance]] = {}
        for inst in hyp.instances if hyp is not None else ():
            hyp_by_type.setdefault(inst.type, []).append(inst)
        for type_name in order:
            refs = ref_by_type.get(type_name, [])
            hyps = hyp_by_type.get(type_name, [])
            if not refs and not hyps:
                continue
            ref_extents = [self._extent(r, True) for r in refs]
            hyp_extents = [self._extent(h, False) for h in hyps]
            # hypotheses by start: a reference meets only those that start at most the longest
            # hypothesis before it and no later than its end
            by_start = sorted((e.start, j) for j, e in enumerate(hyp_extents) if e is not None)
            starts = [start for start, _ in by_start]
            longest = max((e.end - e.start for e in hyp_extents if e is not None), default=0)
            candidates = []
            for i, extent in enumerate(ref_extents):
                if extent is None:
                    continue
                first = bisect.bisect_left(starts, extent.start - longest)
                last = bisect.bisect_right(starts, extent.end)
                for _, j in by_start[first:last]:
                    other = hyp_extents[j]
                    if other is not None and self._overlap(extent, other):
                        candidates.append((i, j, self.match_instance(refs[i], hyps[j], mapping, removable)))
            chosen = greedy_map(candidates, lambda m: m.counts, self.beta_squared, self.config.min_map_f)
            by_ref = {i: m for i, _, m in chosen}
            mapped_hyp = {j for _, j, _ in chosen}
            for i, r in enumerate(refs):
                matches.append(by_ref[i] if i in by_ref else self.match_instance(r, None, mapping, removable))
            for j, h in enumerate(hyps):
                if j not in mapped_hyp:
                    matches.append(self.match_instance(None, h, mapping, removable))
        return SetMatch(ref, hyp, tuple(matches), Counts.total([m.counts for m in matches]))

    def match_instance(
        self,
        ref: Instance | None,
        hyp: Instance | None,
        mapping: Mapping[str, str],
        removable: Callable[[PointerFill], bool],
    ) -> InstanceMatch:
        """The points of two regions (or of one against nothing): TYPE one point, TEXT as ``--compare`` says."""
        if ref is not None and hyp is None and ref.optional:
            return InstanceMatch(ref, None, (), Counts())  # an optional region nobody tagged: nothing at all
        ref_view = self._view(ref, True) if ref is not None else {}
        hyp_view = self._view(hyp, False) if hyp is not None else {}
        slots = []
        for name in [*ref_view, *(n for n in hyp_view if n not in ref_view)]:
            ref_slot, hyp_slot = ref_view.get(name), hyp_view.get(name)
            ref_fill = ref_slot[2] if ref_slot is not None else None
            hyp_fill = hyp_slot[2] if hyp_slot is not None else None
            how, config = (self.type_how, self.type_config) if name == TYPE_SLOT else (self.how, self.config)
            if ref_fill is not None and hyp_fill is not None:
                verdicts = compare_text(ref_fill, hyp_fill, how)
                pairs: tuple = ((0, 0, verdicts),)
            elif ref_fill is not None:
                verdicts = unpaired_text(ref_fill, config, reference=True)
                pairs = ((0, None, verdicts),)
            elif hyp_fill is not None:
                verdicts = unpaired_text(hyp_fill, config, reference=False)
                pairs = ((None, 0, verdicts),)
            else:  # not a region's slot: scored as any templette slot
                slots.append(self.match_slot(name, ref_slot, hyp_slot, mapping, removable))
                continue
            slots.append(
                SlotMatch(
                    name,
                    0 if ref_fill is not None else None,
                    ref_slot[1][0] if ref_fill is not None else (),  # type: ignore[index]
                    hyp_slot[1][0] if hyp_fill is not None else (),  # type: ignore[index]
                    pairs,
                    Counts.tally(v.category for v in verdicts),
                )
            )
        return InstanceMatch(ref, hyp, tuple(slots), Counts.total([slot.counts for slot in slots]))
