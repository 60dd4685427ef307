"""Hypothesis instance sets that span several reference documents (unsegmented hypotheses).

An extractor run on raw recognizer output does not know where one story ends
and the next begins, so it often writes all its instances under one DOCID.
Instance sets map one to one (by overlapping extents when the hypothesis is
unsegmented): such a set maps to one reference document, and every other
document it covers loses all its reference instances (missing) while the
hypothesis instances there count as spurious.

This module finds such sets and, with ``--split-sets``, cuts them at the
reference documents' boundaries before the sets are mapped:

- the instances of a set are grouped by their pointers (an instance goes
  with everything its pointers tie it to, within the set: connected
  components, pointers followed both ways);
- a group goes to the reference document where most of its text fills'
  aligned words lie (alignment columns; a tie goes to the earlier document);
- a group with no text fill that maps to any column stays with the set's
  remainder, which keeps the set's place.

Without ``--split-sets``, :func:`spanning_set_warnings` names each such set,
the documents it covers and the reference instances left unmapped because of
it. (docs/scoring-rules.md, "One hypothesis set over several stories".)
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hub4eval.errors import InputWarning
from hub4eval.model import Extent, Instance, InstanceSet, PointerFill, TemplateSet, TextFill
from hub4eval.scoring.mapping import CountedSet, SetMatch

__all__ = ["DocumentSpans", "SpanningSetWarning", "document_groups", "split_sets", "spanning_set_warnings"]

DocumentSpans = Sequence[tuple[str, int, int]]
"""Per reference document in file order: its DOCID and the [start, end) alignment
columns it owns (:meth:`hub4eval.text.columns.CorpusAlignment.document_spans`)."""

ColumnsOf = Callable[[TextFill, str], "Extent | None"]
"""A hypothesis text fill (and its instance's DOCID) -> its first and last alignment column."""

ExtentColumns = Callable[[Extent], "Extent | None"]
"""A character extent of the (unsegmented) hypothesis text -> its first and last alignment column."""

ManyExtentColumns = Callable[[Sequence[Extent]], "Sequence[Extent | None]"]
""":data:`ExtentColumns` of many extents at once, in their order."""


@dataclass(frozen=True)
class SpanningSetWarning(InputWarning):
    """One hypothesis instance set whose instances lie in several reference documents."""

    changes_score: bool = True
    docid: str = ""
    documents: tuple[str, ...] = ()
    """The reference documents the set's instances lie in, in file order."""
    unmapped_documents: tuple[str, ...] = ()
    """Those of them whose reference instance set was mapped to no hypothesis set."""
    unmapped_instances: int = 0
    """Reference instances of those documents whose set was mapped to no hypothesis set."""
    missing_points: int = 0
    """The MIS points of those reference instances."""


def _components(instances: Sequence[Instance]) -> list[int]:
    """For each instance, the index of its group's first instance (pointers tie both ways)."""
    index = {instance.key: k for k, instance in enumerate(instances)}
    parent = list(range(len(instances)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for k, instance in enumerate(instances):
        for slot in instance.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if type(fill) is PointerFill:
                        j = index.get(fill.key)
                        if j is not None:
                            a, b = root(k), root(j)
                            if a != b:
                                parent[max(a, b)] = min(a, b)
    return [root(k) for k in range(len(instances))]


def _words_per_document(
    instance: Instance, spans: DocumentSpans, starts: Sequence[int], columns_of: ColumnsOf
) -> dict[int, int]:
    """Columns of the instance's text fills inside each reference document (by index)."""
    words: dict[int, int] = {}
    for slot in instance.slots:
        for alternative in slot.alternatives:
            for fill in alternative.fills:
                if type(fill) is not TextFill or fill.extent is None:
                    continue
                columns = columns_of(fill, instance.docid)
                if columns is None:
                    continue
                first, last = columns.start, columns.end + 1  # [first, last) columns
                d = max(0, bisect.bisect_right(starts, first) - 1)
                while d < len(spans) and spans[d][1] < last:
                    overlap = min(last, spans[d][2]) - max(first, spans[d][1])
                    if overlap > 0:
                        words[d] = words.get(d, 0) + overlap
                    d += 1
    return words


def document_groups(
    iset: InstanceSet, spans: DocumentSpans, columns_of: ColumnsOf, starts: Sequence[int] | None = None
) -> list[int | None]:
    """For each instance of ``iset``, the index (in ``spans``) of the reference document its
    group goes to, or None (its group has no text fill in any document: the remainder).

    ``starts``: the first column of each span, when the caller has them (made once for
    all the sets of a file: they are as many as the reference documents)."""
    if starts is None:
        starts = [start for _, start, _ in spans]
    roots = _components(iset.instances)
    totals: dict[int, dict[int, int]] = {}
    for instance, group in zip(iset.instances, roots, strict=True):
        tally = totals.setdefault(group, {})
        for d, count in _words_per_document(instance, spans, starts, columns_of).items():
            tally[d] = tally.get(d, 0) + count
    # most words; on a tie the earlier document
    chosen = {group: min(tally, key=lambda d: (-tally[d], d)) if tally else None for group, tally in totals.items()}
    return [chosen[group] for group in roots]


def split_sets(hyp: TemplateSet, spans: DocumentSpans, columns_of: ColumnsOf) -> TemplateSet:
    """``hyp`` with each instance set cut at the reference documents' boundaries (``--split-sets``).

    The pieces of a set take its place, in document order, the remainder
    (groups with no text fill) first; a set that lies in one document, or
    none, is kept as it is. Instances are not changed (their keys, hence
    their pointers, stay), and each piece keeps the set's DOCID.
    """
    if not spans:
        return hyp
    out: list[InstanceSet] = []
    changed = False
    starts = [start for _, start, _ in spans]
    for iset in hyp.instance_sets:
        targets = document_groups(iset, spans, columns_of, starts)
        if len({t for t in targets if t is not None}) < 2:
            out.append(iset)
            continue
        changed = True
        remainder = tuple(inst for inst, t in zip(iset.instances, targets, strict=True) if t is None)
        if remainder:
            out.append(InstanceSet(iset.docid, remainder))
        for d in sorted({t for t in targets if t is not None}):
            out.append(
                InstanceSet(iset.docid, tuple(inst for inst, t in zip(iset.instances, targets, strict=True) if t == d))
            )
    if not changed:
        return hyp
    return TemplateSet(tuple(out), role=hyp.role, path=hyp.path, warnings=hyp.warnings)


def _fills_bounds(iset: InstanceSet) -> tuple[int, int] | None:
    """The first start and the last end of the (first) extents of the set's text fills, which
    hold the columns of each (columns follow the text's order); None when it has none.
    ``TemplateSet.fill_bounds`` gives the same for each set where the reader found them as it
    made the fills (this walk is its oracle in tests/scoring/test_split_sets.py)."""
    first = last = -1
    for inst in iset.instances:
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if type(fill) is TextFill and fill.extents:
                        extent = fill.extents[0]
                        if first < 0 or extent.start < first:
                            first = extent.start
                        if extent.end > last:
                            last = extent.end
    return None if first < 0 else (first, last)


def _in_one_span(columns: Extent | None, spans: DocumentSpans, starts: Sequence[int]) -> bool:
    """Whether ``columns`` (None: touching no token) lie in one reference document's columns, or none."""
    if columns is None:
        return True
    d = max(0, bisect.bisect_right(starts, columns.start) - 1)
    return spans[d][1] <= columns.start and columns.end + 1 <= spans[d][2]


def spanning_set_warnings(
    hyp: TemplateSet,
    spans: DocumentSpans,
    columns_of: ColumnsOf,
    matches: Sequence[SetMatch] | Sequence[CountedSet],
    extent_columns: ExtentColumns | None = None,
    many_extent_columns: ManyExtentColumns | None = None,
) -> list[SpanningSetWarning]:
    """One warning per hypothesis set whose instances lie in two or more reference documents.

    It names the documents and counts the reference instances of those
    documents left unmapped (their set mapped to no hypothesis set), the
    instances one set mapped to one document cost (``matches``: the mapping's records, or
    its counts). ``extent_columns``, when
    ``columns_of`` reads a fill's columns from its first extent with it: a set
    whose fills all lie in one document is then passed over without grouping
    its instances (most sets). ``many_extent_columns``: ``extent_columns`` of many
    extents at once (the sets' bounds, all mapped in one call instead of one each).
    """
    if not spans:
        return []
    unmapped = {m.ref.docid: m for m in matches if m.ref is not None and m.hyp is None}
    warnings = []
    starts = [start for _, start, _ in spans]
    isets: Sequence[InstanceSet] = hyp.instance_sets
    if extent_columns is not None:  # only the sets not in one document are grouped (most are in one)
        bounds = hyp.fill_bounds() or [_fills_bounds(iset) for iset in isets]
        extents = [Extent(*bound) for bound in bounds if bound is not None]
        mapped = iter(many_extent_columns(extents) if many_extent_columns is not None else map(extent_columns, extents))
        isets = [
            iset
            for iset, bound in zip(isets, bounds, strict=True)
            if bound is not None and not _in_one_span(next(mapped), spans, starts)
        ]
    for iset in isets:
        indices = sorted({t for t in document_groups(iset, spans, columns_of, starts) if t is not None})
        if len(indices) < 2:
            continue
        documents = tuple(spans[d][0] for d in indices)
        lost = [unmapped[docid] for docid in documents if docid in unmapped]
        instances = sum(len(m.ref.instances) for m in lost if m.ref is not None)
        points = sum(m.counts.mis for m in lost)
        shown = ", ".join(documents[:3]) + (f" and {len(documents) - 3} more" if len(documents) > 3 else "")
        first = iset.instances[0]
        warnings.append(
            SpanningSetWarning(
                f"hypothesis instance set {iset.docid} has instances in {len(documents)} reference documents "
                f"({shown}) and maps to one of them at most: {instances} reference "
                f"instance{'s' if instances != 1 else ''} ({points} point{'s' if points != 1 else ''}) of the others "
                "left unmapped (missing), its instances there spurious; --split-sets cuts such a set at the "
                "reference documents' boundaries",
                hyp.path or None,
                first.line or None,
                first.column or None,
                docid=iset.docid,
                documents=documents,
                unmapped_documents=tuple(m.ref.docid for m in lost if m.ref is not None),
                unmapped_instances=instances,
                missing_points=points,
            )
        )
    return warnings
