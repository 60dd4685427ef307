"""A count of instance sets paired by overlap, made in parts in several processes.

:meth:`~hub4eval.scoring.mapping.Mapper.count_template_sets` with extent functions (an
unsegmented hypothesis: its sets are paired with the reference's by overlap, §7.4) maps
every overlapping pair of sets, then chooses among them greedily, then counts each set
left over alone. When the sets are cut into consecutive parts (reference and hypothesis
cut alike) such that no set of one part overlaps a set of another, the candidate pairs
of different parts share no set, so the greedy choice over all of them is the choices
within each part put together, and each part can be counted on its own, in another
process (:func:`count_part`: the ceiling's count of a run of documents is made in the
child that has just projected it, see :mod:`hub4eval.scoring.pipeline`).

:func:`join_parts` puts the parts' counts back in the order of the whole count (the
reference sets in order, then the hypothesis sets mapped to none in order), with the
numbers of the caller's mapper's signatures
(:meth:`~hub4eval.scoring.mapping.Mapper.signature`), so the result is the one a count
in one process gives. The cut is checked once every set's extent is known (the
hypothesis extents of a part are worked out where the part is counted): when a pair of
sets overlapping across two parts shows that the cut was not clean (or the parts were
counted with another order of the types than the whole's), the whole is counted again
in the caller, in one piece.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hub4eval.model import Extent, Instance, InstanceSet, TemplateSet
from hub4eval.scoring.mapping import CountedMatch, CountedSet, Mapper, Signature, _overlapping, type_order
from hub4eval.scoring.set_extents import KnownExtents

ExtentOf = Callable[[InstanceSet], "Extent | None"]

# An instance as sent by a child: its number in its set's instances, or the instance itself
# when it is not one of them (None: no instance).
_Sent = int | Instance | None

Part = tuple[list[tuple[Any, ...]], list[Signature], list["Extent | None"]]
"""What :func:`count_part` gives of a part: its counted sets as numbers, its signatures, its hypothesis extents."""


def count_part(
    mapper: Mapper,
    ref: TemplateSet,
    hyp: TemplateSet,
    *,
    ref_extent: ExtentOf,
    hyp_extent: ExtentOf,
    order: Sequence[str],
    counted: Callable[[list[tuple[int, int]]], Mapping[tuple[int, int], Any]] | None = None,
) -> Part:
    """The count of one part (``mapper.count_template_sets`` of its sets, in ``order``), as a
    child sends it: each counted set with its sets and instances as numbers (in ``ref`` and
    ``hyp``, which the caller has too), the signatures by number, and the hypothesis sets'
    extents (which say whether the cut was clean). ``counted``: see ``Mapper.match_template_sets``
    (the ceiling's diagonal count)."""
    many = getattr(hyp_extent, "many", None)  # all the sets' extents at once (set_extents.KnownExtents)
    hyp_extents = many(hyp.instance_sets) if many is not None else [hyp_extent(iset) for iset in hyp.instance_sets]
    counted_sets = mapper.count_template_sets(
        ref, hyp, order, ref_extent=ref_extent, hyp_extent=KnownExtents(hyp, hyp_extents), counted=counted
    )
    set_numbers = [{id(iset): k for k, iset in enumerate(tset.instance_sets)} for tset in (ref, hyp)]
    sent: list[tuple[Any, ...]] = []
    for counted_set in counted_sets:
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
    """A part's count as :func:`count_part` sent it, back in records of the caller's sets."""
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


def join_parts(
    mapper: Mapper,
    ref: TemplateSet,
    hyp: TemplateSet,
    pieces: Sequence[tuple[TemplateSet, TemplateSet]],
    parts: Sequence[Part],
    *,
    ref_extent: ExtentOf,
    hyp_extent: ExtentOf,
    order: Sequence[str],
) -> tuple[CountedSet, ...]:
    """``mapper.count_template_sets(ref, hyp, ref_extent=..., hyp_extent=...)`` from the counts of
    its parts (:func:`count_part` of each of ``pieces``, consecutive runs of the sets of ``ref``
    and ``hyp``, counted with ``order``): the same result (see the module docstring), or the
    whole counted here when the cut is not clean or ``order`` is not the whole's."""
    whole_order = type_order(ref, hyp)
    hyp_extents: list[Extent | None] = []
    counted: list[list[CountedSet]] = []
    for (ref_part, hyp_part), (sent, signatures, extents) in zip(pieces, parts, strict=True):
        counted.append(_received(mapper, ref_part, hyp_part, sent, signatures))
        hyp_extents += extents
    # Clean cut: every overlapping pair of sets within one part.
    ref_part_of = [p for p, (r, _) in enumerate(pieces) for _ in r.instance_sets]
    hyp_part_of = [p for p, (_, h) in enumerate(pieces) for _ in h.instance_sets]
    ref_extents = [ref_extent(iset) for iset in ref.instance_sets]
    if tuple(whole_order) != tuple(order) or any(
        ref_part_of[i] != hyp_part_of[j] for i, j in _overlapping(ref_extents, hyp_extents)
    ):
        return mapper.count_template_sets(ref, hyp, whole_order, ref_extent=ref_extent, hyp_extent=hyp_extent)
    # The whole count's order: each reference set's match in order, then the hypothesis sets left alone.
    led = [part[: len(r.instance_sets)] for part, (r, _) in zip(counted, pieces, strict=True)]
    alone = [part[len(r.instance_sets) :] for part, (r, _) in zip(counted, pieces, strict=True)]
    return tuple(counted_set for run in (*led, *alone) for counted_set in run)


__all__ = ["Part", "count_part", "join_parts"]
