"""The points of a count without match records, made on demand from the compact output.

:meth:`~hub4eval.scoring.mapping.Mapper.count_template_sets` gives of each instance
match only its instances, its counts and the number of its points' signature
((slot, kind, category) of each point, in order): most matches never get a match
record. That is enough for every point too. A *plain* instance holds one fill per
scored slot (one text fill or one pointer, one alternative), so a plain match has
at most one fill pair per slot, and the signature says which: a compared pair's
points are COR or INC, a reference fill left over MIS, OPT or REM, a hypothesis
fill SPU. The fills are the prepared ones the mapper holds for the instances of
the run it has just mapped, and a point's reason is made from them when it is
written (:func:`hub4eval.scoring.verdicts.text_reason_json` and its siblings,
from the same status functions as the comparison). A match that is not plain (a
slot of several fills or alternatives: rare) has its match record, kept by the
mapper for the run, or made again (an instance mapped to nothing, whose record the
mapper made for one instance of its shape only).

The mapper hands each run of instance sets to a writer right after mapping it
(:class:`CountedRun`, see ``Mapper.point_runs``), while the run's prepared fills
are still in memory (and in the processor's cache), then forgets them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from hub4eval.model import Fill, Instance, PointerFill
from hub4eval.scoring.fills import PreparedFill

# hub4eval.scoring.mapping's records and mapper (which imports this module, so not imported here)
CountedSet = Any  # mapping.CountedSet
CountedMatch = Any  # mapping.CountedMatch
InstanceMatch = Any  # mapping.InstanceMatch
Item = Any  # mapping.Item: a prepared fill or a pointer
Mapper = Any  # mapping.Mapper
Signature = tuple[tuple[str, str, str], ...]  # mapping.Signature

COMPARED, REFERENCE, HYPOTHESIS = 0, 1, 2
"""The side of a fill pair of a plain match: both fills, the reference fill alone, the hypothesis fill alone."""

_SIDE = {"COR": COMPARED, "INC": COMPARED, "MIS": REFERENCE, "OPT": REFERENCE, "REM": REFERENCE, "SPU": HYPOTHESIS}

Layout = tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]
"""The fill pairs of a plain match: (slot, side, (kind, category) of each of its points)."""


def layout(points: Signature) -> Layout:
    """The points of a plain match's signature grouped by fill pair, in order."""
    pairs: list[tuple[str, int, list[tuple[str, str]]]] = []
    for slot, kind, category in points:
        side = _SIDE[category]
        if pairs and pairs[-1][0] == slot and pairs[-1][1] == side:
            pairs[-1][2].append((kind, category))
        else:
            pairs.append((slot, side, [(kind, category)]))
    return tuple((slot, side, layout_points(tuple(kinds))) for slot, side, kinds in pairs)


_POINTS: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = {}


def layout_points(points: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The one tuple equal to ``points`` that every layout holds (a writer may test it with ``is``)."""
    return _POINTS.setdefault(points, points)


class CountedRun(NamedTuple):
    """A run of instance sets just counted by a mapper, with what their points need: the
    mapper (its prepared fills of the run's instances, ``Mapper._view``, and its signatures)
    and the match records it made for the counts."""

    sets: Sequence[CountedSet]
    mapper: Mapper
    records: Mapping[tuple[int, int], InstanceMatch]
    """By (id of the reference instance, id of the hypothesis instance); None's id for none."""
    layouts: Mapping[int, Layout]
    """The :func:`layout` of each signature number (``Mapper.signatures``), made when first read."""

    @classmethod
    def of(
        cls, sets: Sequence[CountedSet], mapper: Mapper, records: Mapping[tuple[int, int], InstanceMatch]
    ) -> CountedRun:
        layouts = mapper.point_layouts
        if layouts is None:  # one per mapper: its signatures only grow
            layouts = mapper.point_layouts = Layouts(mapper.signatures)
        return cls(sets, mapper, records, layouts)

    def record(self, ref: Instance | None, hyp: Instance | None, counted: CountedSet) -> InstanceMatch | None:
        """The match record of a match of ``counted`` that is not plain, None for a plain one."""
        found = self.records.get((id(ref), id(hyp)))
        if found is not None:
            return found
        if ref is not None and hyp is not None:
            return None  # a pair without a record is a plain pair with a COR (hub4eval.scoring.pairs._counted)
        mapper = self.mapper
        if hyp is not None:
            return None if is_plain_instance(hyp, False, mapper.unscored) else mapper._lone_hyp(hyp)
        assert ref is not None
        if is_plain_instance(ref, True, mapper.unscored):
            return None
        # made again, as the mapper made it: the mapping of the types before this one is
        # complete, and the set's own mapping is all its pointers can read
        mapping = set_mapping(counted)
        optional = {inst.key for inst in counted.ref.instances if inst.optional}
        return mapper.match_instance(ref, None, mapping, lambda fill: fill.key in optional and fill.key not in mapping)


class Layouts(dict[int, Layout]):
    """:func:`layout` of each signature number, made when first asked for."""

    __slots__ = ("signatures",)

    def __init__(self, signatures: Sequence[Signature]) -> None:
        super().__init__()
        self.signatures = signatures

    def __missing__(self, number: int) -> Layout:
        made = self[number] = layout(self.signatures[number])
        return made


def is_plain(view: Mapping[str, Any]) -> bool:
    """Whether every scored slot of a view holds one fill of one alternative."""
    for _, alternatives, single in view.values():
        if single is None and (len(alternatives) != 1 or len(alternatives[0]) != 1):
            return False
    return True


def plain_fills(inst: Instance, reference: bool, unscored: Collection[str]) -> dict[str, Fill] | None:
    """The one fill of each scored slot of the instance's view (``Mapper._view``: a name's
    first slot, a hypothesis slot's first alternative, ``unscored`` slots left out), read
    from its slots without preparing them; None when the view is not :func:`is_plain`."""
    fills: dict[str, Fill] = {}
    for slot in inst.slots:
        name = slot.name
        if name in unscored or name in fills:
            continue
        alternatives = slot.alternatives
        if not alternatives or (reference and len(alternatives) != 1) or len(alternatives[0].fills) != 1:
            return None
        fills[name] = alternatives[0].fills[0]
    return fills


def is_plain_instance(inst: Instance, reference: bool, unscored: Collection[str]) -> bool:
    """:func:`is_plain` of the instance's view, read from its slots (:func:`plain_fills`)."""
    return plain_fills(inst, reference, unscored) is not None


def item(view: Mapping[str, Any], slot: str) -> Item:
    """The one fill of a plain instance's slot (prepared, or a pointer)."""
    _, alternatives, single = view[slot]
    return single if single is not None else alternatives[0][0]


def set_mapping(counted: CountedSet) -> dict[str, str]:
    """The instances of a counted set mapped to each other (reference key to hypothesis key)."""
    return {m.ref.key: m.hyp.key for m in counted.instances if m.ref is not None and m.hyp is not None}


class LazyMapping(dict[str, str]):
    """:func:`set_mapping` of a counted set, made when first read (only pointers read it)."""

    __slots__ = ("counted", "made")

    def __init__(self, counted: CountedSet) -> None:
        super().__init__()
        self.counted = counted
        self.made = False

    def get(self, key: str, default: Any = None, /) -> Any:
        if not self.made:
            self.update(set_mapping(self.counted))
            self.made = True
        return dict.get(self, key, default)


CountedFillPair = tuple[
    str, str, str, "Instance | None", "Instance | None", "Item | None", "Item | None", tuple[Any, ...], Any
]
"""(docid, type, slot, ref instance, hyp instance, ref item, hyp item, points, mapping) of a
fill pair: the points either the verdicts of a match record, or the (kind, category) of each
point of a plain match; the mapping the set's (reference key to hypothesis key), None when
the points are verdicts."""


def counted_fill_pairs(run: CountedRun) -> Iterator[CountedFillPair]:
    """Every fill pair (or fill left over) of the run's matches, in file order (as
    :func:`hub4eval.scoring.mapping.iter_fill_pairs` gives those of match records)."""
    for counted in run.sets:
        mapping = LazyMapping(counted)
        for match in counted.instances:
            yield from match_fill_pairs(run, counted, match, mapping)


def match_fill_pairs(
    run: CountedRun, counted: CountedSet, match: CountedMatch, mapping: Mapping[str, str]
) -> Iterator[CountedFillPair]:
    """The fill pairs of one match of ``counted`` (see :func:`counted_fill_pairs`);
    ``mapping``: the set's (:func:`set_mapping`, or a :class:`LazyMapping` of it)."""
    docid = counted.docid
    ref, hyp, _, signature = match
    type_name = (ref if ref is not None else hyp).type
    record = run.record(ref, hyp, counted)
    if record is not None:
        for slot in record.slots:
            name = slot.name
            ref_items, hyp_items = slot.ref_items, slot.hyp_items
            for i, j, verdicts in slot.pairs:
                yield (
                    docid,
                    type_name,
                    name,
                    ref,
                    hyp,
                    None if i is None else ref_items[i],
                    None if j is None else hyp_items[j],
                    verdicts,
                    None,
                )
        return
    views = run.mapper._view
    ref_view = views(ref, True) if ref is not None else None
    hyp_view = views(hyp, False) if hyp is not None else None
    for name, side, points in run.layouts[signature]:
        yield (
            docid,
            type_name,
            name,
            ref,
            hyp,
            None if side == HYPOTHESIS else item(ref_view, name),  # type: ignore[arg-type]
            None if side == REFERENCE else item(hyp_view, name),  # type: ignore[arg-type]
            points,
            mapping,
        )


__all__ = [
    "COMPARED",
    "HYPOTHESIS",
    "REFERENCE",
    "CountedRun",
    "PointerFill",
    "PreparedFill",
    "counted_fill_pairs",
    "is_plain",
    "is_plain_instance",
    "plain_fills",
    "item",
    "layout",
    "layout_points",
    "set_mapping",
]
