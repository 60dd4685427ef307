"""A count of instance sets paired by overlap, its sets cut into parts counted in processes at once.

:meth:`~hub4eval.scoring.mapping.Mapper.count_template_sets` with extent functions (an
unsegmented hypothesis: its sets are paired with the reference's by overlap, §7.4) maps
every overlapping pair of sets, then chooses among them greedily, then counts each set
left over alone. When the sets are cut into consecutive parts (reference and hypothesis
cut alike) such that no set of one part overlaps a set of another, the candidate pairs
of different parts share no set, so the greedy choice over all of them is the choices
within each part put together, and each part can be counted on its own: the first here,
the others in forked children (:mod:`hub4eval.util.forked`) at the same time.

The parts' counts are put back in the order of the whole count (the reference sets in
order, then the hypothesis sets mapped to none in order), and the numbers of their
signatures are the caller's mapper's (:meth:`~hub4eval.scoring.mapping.Mapper.signature`),
so the result is the one a count in one process gives. The cut is checked once every
set's extent is known (the hypothesis extents of a part are worked out where the part
is counted): when a pair of sets overlapping across two parts shows that the cut was not
clean, the whole is counted again here, in one piece. A child that fails (or a platform
that cannot fork) has its part counted here, when its result is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hub4eval.model import Extent, Instance, InstanceSet, TemplateSet
from hub4eval.scoring.mapping import CountedMatch, CountedSet, Mapper, _overlapping, type_order

ExtentOf = Callable[[InstanceSet], "Extent | None"]

# An instance as sent by a child: its number in its set's instances, or the instance itself
# when it is not one of them (None: no instance).
_Sent = int | Instance | None


def _cuts(ref: TemplateSet, hyp: TemplateSet, parts: int) -> list[tuple[int, int]] | None:
    """(reference sets, hypothesis sets) where each part starts: the reference cut at about
    equal numbers of instances (a part starts at the set whose middle is past its share), a
    hypothesis set put in the part of the reference
    set of its DOCID (a set of an unknown DOCID in the part of the set before it); None when
    the hypothesis sets do not come in the reference's order (no cut in consecutive parts)."""
    ref_sets, hyp_sets = ref.instance_sets, hyp.instance_sets
    sizes = [len(iset.instances) for iset in ref_sets]
    total, done, starts = sum(sizes), 0, [0]
    for number, size in enumerate(sizes):
        if len(starts) < parts and done + size / 2 >= total * len(starts) / parts and number > starts[-1]:
            starts.append(number)
        done += size
    if len(starts) < 2:
        return None
    part_of_docid: dict[str, int] = {}
    for part, (start, end) in enumerate(zip(starts, [*starts[1:], len(ref_sets)], strict=True)):
        for iset in ref_sets[start:end]:
            part_of_docid.setdefault(iset.docid, part)
    hyp_starts = [0] * len(starts)
    part = 0
    for number, iset in enumerate(hyp_sets):
        found = part_of_docid.get(iset.docid, part)
        if found < part:
            return None
        while part < found:
            part += 1
            hyp_starts[part] = number
    for later in range(part + 1, len(starts)):
        hyp_starts[later] = len(hyp_sets)
    return list(zip(starts, hyp_starts, strict=True))


def _count_part(
    mapper: Mapper,
    ref: TemplateSet,
    hyp: TemplateSet,
    ref_extent: ExtentOf,
    hyp_extent: ExtentOf,
    order: Sequence[str],
) -> tuple[list[tuple[Any, ...]], list[Any], list[Extent | None]]:
    """The count of one part, as a child sends it: each counted set with its sets and instances
    as numbers (in ``ref`` and ``hyp``, which the caller has too), the signatures by number, and
    the hypothesis sets' extents."""
    hyp_extents = [hyp_extent(iset) for iset in hyp.instance_sets]
    known = dict(zip(map(id, hyp.instance_sets), hyp_extents, strict=True))
    counted = mapper.count_template_sets(
        ref, hyp, order, ref_extent=ref_extent, hyp_extent=lambda iset: known[id(iset)]
    )
    set_numbers = [{id(iset): k for k, iset in enumerate(tset.instance_sets)} for tset in (ref, hyp)]
    sent: list[tuple[Any, ...]] = []
    for counted_set in counted:
        places: list[dict[int, int]] = []
        numbers: list[int | None] = []
        for side, iset in enumerate((counted_set.ref, counted_set.hyp)):
            numbers.append(None if iset is None else set_numbers[side][id(iset)])
            places.append({} if iset is None else {id(inst): k for k, inst in enumerate(iset.instances)})

        def number(inst: Instance | None, place: dict[int, int]) -> _Sent:
            return None if inst is None else place.get(id(inst), inst)

        instances = tuple(
            (number(m.ref, places[0]), number(m.hyp, places[1]), m.counts, m.signature) for m in counted_set.instances
        )
        sent.append((numbers[0], numbers[1], instances, counted_set.counts))
    return sent, list(mapper.signatures), hyp_extents


def _received(
    mapper: Mapper, ref: TemplateSet, hyp: TemplateSet, sent: list[tuple[Any, ...]], signatures: list[Any]
) -> list[CountedSet]:
    """A part's count as :func:`_count_part` sent it, back in records of the caller's sets."""
    renumbered = [mapper.signature(points) for points in signatures]
    out: list[CountedSet] = []
    for ref_number, hyp_number, instances, counts in sent:
        ref_set = None if ref_number is None else ref.instance_sets[ref_number]
        hyp_set = None if hyp_number is None else hyp.instance_sets[hyp_number]
        ref_instances = ref_set.instances if ref_set is not None else ()
        hyp_instances = hyp_set.instances if hyp_set is not None else ()
        matches = tuple(
            CountedMatch(
                ref_instances[r] if type(r) is int else r,
                hyp_instances[h] if type(h) is int else h,
                match_counts,
                renumbered[signature],
            )
            for r, h, match_counts, signature in instances
        )
        out.append(CountedSet(ref_set, hyp_set, matches, counts))
    return out


def count_in_parts(
    mapper: Mapper,
    ref: TemplateSet,
    hyp: TemplateSet,
    *,
    ref_extent: ExtentOf,
    hyp_extent: ExtentOf,
    parts: int,
) -> tuple[CountedSet, ...]:
    """``mapper.count_template_sets(ref, hyp, ref_extent=..., hyp_extent=...)``, its sets cut
    into up to ``parts`` parts counted at once (see the module docstring); the same result."""
    from hub4eval.util.forked import Beside, can_fork

    order = type_order(ref, hyp)
    cuts = _cuts(ref, hyp, parts) if parts > 1 and can_fork() else None
    if cuts is None:
        return mapper.count_template_sets(ref, hyp, order, ref_extent=ref_extent, hyp_extent=hyp_extent)
    ends = [*cuts[1:], (len(ref.instance_sets), len(hyp.instance_sets))]
    pieces = [
        (
            TemplateSet(ref.instance_sets[r0:r1], role=ref.role, path=ref.path),
            TemplateSet(hyp.instance_sets[h0:h1], role=hyp.role, path=hyp.path),
        )
        for (r0, h0), (r1, h1) in zip(cuts, ends, strict=True)
    ]
    # the children are forked before this process counts its part: they have its mapper as it is now
    children = [Beside(_count_part, mapper, r, h, ref_extent, hyp_extent, order) for r, h in pieces[1:]]
    first_ref, first_hyp = pieces[0]
    hyp_extents = [hyp_extent(iset) for iset in first_hyp.instance_sets]
    known = dict(zip(map(id, first_hyp.instance_sets), hyp_extents, strict=True))
    counted = [
        list(
            mapper.count_template_sets(
                first_ref, first_hyp, order, ref_extent=ref_extent, hyp_extent=lambda iset: known[id(iset)]
            )
        )
    ]
    for child, piece in zip(children, pieces[1:], strict=True):
        sent, signatures, extents = child.result()
        counted.append(_received(mapper, *piece, sent, signatures))
        hyp_extents += extents
    # Clean cut: every overlapping pair of sets within one part.
    ref_part = [p for p, (r, _) in enumerate(pieces) for _ in r.instance_sets]
    hyp_part = [p for p, (_, h) in enumerate(pieces) for _ in h.instance_sets]
    ref_extents = [ref_extent(iset) for iset in ref.instance_sets]
    if any(ref_part[i] != hyp_part[j] for i, j in _overlapping(ref_extents, hyp_extents)):
        return mapper.count_template_sets(ref, hyp, order, ref_extent=ref_extent, hyp_extent=hyp_extent)
    # The whole count's order: each reference set's match in order, then the hypothesis sets left alone.
    led = [part[: len(r.instance_sets)] for part, (r, _) in zip(counted, pieces, strict=True)]
    alone = [part[len(r.instance_sets) :] for part, (r, _) in zip(counted, pieces, strict=True)]
    return tuple(counted_set for run in (*led, *alone) for counted_set in run)


__all__ = ["count_in_parts"]
