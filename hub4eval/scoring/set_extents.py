"""The extent of a hypothesis instance set, by which the sets of an unsegmented hypothesis
are paired with the reference documents' sets (§7.4: by overlapping extents, not by DOCID).

A set's extent is the smallest start and the largest end of its text fills' maximal
extents as :meth:`hub4eval.scoring.fills.FillPreparer.prepare` makes them, read here
without preparing the fills: :func:`hyp_set_extent`; of all the sets of a hypothesis at
once from their fills' table when a count has read one (:class:`HypSetExtents`); those of
the sets of the ceiling's projection in the same walk that keeps the strings its judge
normalized (:func:`kept_set_extents`). It imports the model and the scoring's fill
preparation (and, for the table, the fill tables, which import numpy).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any

from hub4eval.model import Extent, InstanceSet, TemplateSet, TextFill
from hub4eval.scoring.fills import ExtentMapper, FillPreparer

__all__ = ["HypSetExtents", "KnownExtents", "hyp_set_extent", "kept_set_extents", "spans_extent"]


def hyp_set_extent(
    iset: InstanceSet, preparer: FillPreparer, keep: tuple[dict[str, Any], Callable[[str, Any], Any]] | None = None
) -> Extent | None:
    """§7.4: smallest start and largest end of the set's normalized text-fill extents (the
    maximal extents :meth:`FillPreparer.prepare` gives), without preparing the fills.

    A fill's extent is its first extent, its start moved past the premodifiers its content
    loses, then mapped to alignment columns. In an unsegmented hypothesis every fill is
    mapped in one column space, where the columns of the hypothesis tokens follow the text:
    a later start never maps to an earlier column, nor a later end. So the smallest start
    column is that of the fill with the smallest start that maps to any column, the largest
    end column that of the fill with the largest end that does: one or two fills are mapped
    per set, not every one. ``keep``: (another preparer's memo, ``preparer``'s memo's
    ``setdefault``), each text fill's string first given ``preparer`` from that memo when it
    is there, in order (see :func:`kept_set_extents`)."""
    return _set_extent(iset, preparer, keep, False)


def _set_extent(
    iset: InstanceSet,
    preparer: FillPreparer,
    keep: tuple[dict[str, Any], Callable[[str, Any], Any]] | None,
    every: bool,
) -> Extent | None:
    """:func:`hyp_set_extent`. In the one column space, the smallest span and the first of the
    largest ends are kept while the fills are read, and mapped; when one of them touches no
    token, the set is read again with ``every`` span kept (:func:`spans_extent`)."""
    get, normalize = preparer.lookups()
    map_extent = preparer.map_extent
    one_space = map_extent is not None and preparer.unsegmented
    spans: list[tuple[int, int]] = []  # (start past the premodifiers, end) in the one column space
    low = high = None  # of those, the smallest and the first of the largest ends
    starts, ends = [], []
    mine, setdefault = _NO_KEEP if keep is None else keep
    dict_get = dict.get  # (the other memo's own entries: a read-through memo's too)
    for inst in iset.instances:
        docid = inst.docid
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if type(fill) is not TextFill:
                        continue
                    content = fill.content
                    found = dict_get(mine, content)
                    if found is not None:
                        found = setdefault(content, found)
                    extents = fill.extents
                    if not extents:
                        continue
                    extent = extents[0]
                    removed = (found or get(content) or normalize(content))[1]
                    start, end = extent.start, extent.end
                    if removed:
                        start = min(start + removed, end)  # as fills._shifted
                    if one_space:
                        if every:
                            spans.append((start, end))
                        elif low is None or high is None:
                            low = high = (start, end)
                        else:
                            if start < low[0] or (start == low[0] and end < low[1]):
                                low = (start, end)  # as min(spans)
                            if end > high[1]:
                                high = (start, end)  # as max(spans, key=_end)
                        continue
                    if map_extent is not None:
                        columns = map_extent(docid, Extent(start, end))
                        if columns is None:
                            continue
                        start, end = columns.start, columns.end
                    starts.append(start)
                    ends.append(end)
    if not one_space:
        return Extent(min(starts), max(ends)) if starts else None
    assert map_extent is not None
    if every:
        return spans_extent(spans, map_extent)
    if low is None or high is None:
        return None  # no text fill with an extent
    first, last = map_extent(None, Extent(*low)), map_extent(None, Extent(*high))
    if first is None or last is None:
        return _set_extent(iset, preparer, None, True)  # (its strings are in the memo now)
    return Extent(first.start, last.end)


def spans_extent(spans: Sequence[tuple[int, int]], map_extent: ExtentMapper) -> Extent | None:
    """The extent of a set of an unsegmented hypothesis from the spans of its text fills (their
    first extents, each start moved past the premodifiers, in the fills' order), which
    ``map_extent(None, extent)`` maps to the one column space (see :func:`hyp_set_extent`)."""
    if not spans:
        return None

    def first_mapped(in_order: Iterable[tuple[int, int]]) -> Extent | None:
        """The columns of the first span that touches a token, in this order."""
        for start, end in in_order:
            columns = map_extent(None, Extent(start, end))
            if columns is not None:
                return columns
        return None

    # most often the first span tried touches a token: the others are sorted only when not
    first = first_mapped((min(spans),))
    if first is None:
        first = first_mapped(sorted(spans))
        if first is None:
            return None  # no fill touches a token
    last = first_mapped((max(spans, key=_end),))
    if last is None:
        last = first_mapped(sorted(spans, key=_end, reverse=True))
        assert last is not None  # the span of ``first`` touches a token
    return Extent(first.start, last.end)


_end = itemgetter(1)  # a span's end
_NO_KEEP: tuple[dict[str, Any], Callable[[str, Any], Any]] = ({}, lambda raw, found: found)  # (nothing to keep)


class HypSetExtents:
    """:func:`hyp_set_extent` with its preparer: ``extents(iset)`` of one set, and
    :meth:`many` of all the sets of a hypothesis at once."""

    __slots__ = ("preparer",)

    def __init__(self, preparer: FillPreparer) -> None:
        self.preparer = preparer

    def __call__(self, iset: InstanceSet) -> Extent | None:
        return hyp_set_extent(iset, self.preparer)

    def many(self, isets: Sequence[InstanceSet]) -> list[Extent | None]:
        """``[self(iset) for iset in isets]``. When the sets' instances were read into a
        :class:`~hub4eval.scoring.fill_tables.FillTable` with their extents in the one column
        space of an unsegmented hypothesis, a set whose every text fill is in it has its
        extent from the table's arrays: the smallest (start, end) and the first span of the
        largest end among its fills' extents (premodifiers removed, in characters), each
        mapped to columns in numpy, as :func:`hyp_set_extent` maps them; the others, and a
        set one of whose two spans touches no token, one by one."""
        preparer = self.preparer
        found: list[Extent | None] | None = None
        if preparer.unsegmented and preparer.map_extent is not None:
            from hub4eval.scoring.fill_tables import UNSETTLED, set_extents  # numpy: imported where the mapping is

            found = set_extents(preparer, isets)
            if found is not None:
                return [
                    hyp_set_extent(iset, preparer) if extent is UNSETTLED else extent
                    for iset, extent in zip(isets, found, strict=True)
                ]
        return [hyp_set_extent(iset, preparer) for iset in isets]


def kept_set_extents(tset: TemplateSet, preparer: FillPreparer, source: FillPreparer) -> list[Extent | None]:
    """:func:`hyp_set_extent` of each set of ``tset`` with ``preparer``, in one walk over the
    sets' text fills that first gives ``preparer`` the normalization ``source`` made of each
    fill's string (:meth:`~hub4eval.scoring.fills.FillPreparer.keep_texts`): for the ceiling's
    projection, whose strings its judge normalized (see :mod:`hub4eval.scoring.pipeline`),
    instead of a walk to keep them and another for the extents (each fill read once: the
    fills of a set are read while they are at hand, not again in a second pass)."""
    keep = source.kept_by(preparer)
    return [hyp_set_extent(iset, preparer, keep) for iset in tset.instance_sets]


class KnownExtents:
    """The extents of the sets of a template set, worked out already (``extents[k]``: that of
    ``tset.instance_sets[k]``), as an extent function of a mapping: ``extents(iset)`` of one of
    those sets (or of a run of them), and :meth:`many` of all of them at once."""

    __slots__ = ("sets", "extents", "_by_id")

    def __init__(self, tset: TemplateSet, extents: Sequence[Extent | None]) -> None:
        self.sets = tset.instance_sets
        self.extents = list(extents)
        self._by_id: dict[int, Extent | None] | None = None

    def __call__(self, iset: InstanceSet) -> Extent | None:
        by_id = self._by_id
        if by_id is None:
            by_id = self._by_id = dict(zip(map(id, self.sets), self.extents, strict=True))
        return by_id[id(iset)]

    def many(self, isets: Sequence[InstanceSet]) -> list[Extent | None]:
        """``[self(iset) for iset in isets]``."""
        return list(self.extents) if isets is self.sets else [self(iset) for iset in isets]
