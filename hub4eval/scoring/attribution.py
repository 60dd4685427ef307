"""§11: what the recognizer cost — the cause of every error point, and entity WER.

When the reference and hypothesis texts differ, every INC, MIS and SPU point
gets a cause:

* ``"recognition"``: an INC or MIS point of a *misrecognized* reference fill
  (some spoken token its maximal extent touches is not aligned to an
  identical hypothesis token, or a hypothesis token was inserted between
  them), or an SPU point of a *hallucinated* hypothesis fill (its tokens are
  all insertions or substitutions);
* ``"extraction"``: every other error point: the recognizer got the words
  right and the extractor did not. Pointer points are always extraction
  errors, and so is a text fill whose extent touches no spoken token (a set
  fill, a fill without extent, a header element): there is no recognized
  word to blame.

COR, OPT and REM points are not errors and have no cause (``None``); nor has
any point when the texts are the same or not given (no recognizer to blame).

The test is made on the alignment columns (:mod:`hub4eval.text.columns`), so
it sees the tokens exactly as the aligner saw them (after punctuation and
case folding, the GLM and any spoken-form normalization plugged in there).
The extents used are the maximal extents as written (no premodifier strip).

Entity WER, the word error rate inside the reference fills, is
:mod:`hub4eval.scoring.entity_wer`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from operator import itemgetter
from typing import Any, NamedTuple, cast

from hub4eval.model import Extent, Fill, Instance, TextFill
from hub4eval.scoring.points import FillRef, Point

RECOGNITION = "recognition"
EXTRACTION = "extraction"
CAUSES = (RECOGNITION, EXTRACTION)
ERROR_CATEGORIES = ("INC", "MIS", "SPU")

Row = tuple[str, str, int]  # (reference word, hypothesis word, column kind); '' for a gap


class Attributor:
    """Decides the cause of error points over one :class:`~hub4eval.text.columns.CorpusAlignment`.

    Results are remembered per (document, extent): a fill recurs in many
    points (its content and extent points, and every pair the mapping tried).
    """

    def __init__(self, alignment: Any, ceiling: Any = None) -> None:
        self.alignment = alignment
        # (reference instance, slot) -> the point kinds the ceiling has an error in (v1.2)
        self.ceiling_errors = None if ceiling is None else ceiling_errors(ceiling)
        self._ref: dict[tuple[str | None, Extent], tuple[Row, ...]] = {}
        self._misheard: dict[tuple[str | None, Extent], bool] = {}
        self._hyp: dict[tuple[str | None, Extent], tuple[Row, ...] | None] = {}
        # (DOCID, reference?) -> the running count of match columns of its column space (see
        # _matches); None without a column space
        self._running: dict[tuple[str | None, bool], Sequence[int] | None] = {}
        self._spaces: dict[int, Sequence[int]] = {}

    def _matches(self, docid: str | None, reference: bool) -> Sequence[int] | None:
        """The running count of the match columns of the column space of ``docid``: columns
        ``[first, last]`` hold ``matches[last + 1] - matches[first]`` of them (one subtraction a
        fill, not a slice of its columns' kinds); None when ``docid`` has no column space."""
        key = (docid, reference)
        if key in self._running:
            return self._running[key]
        space = self.alignment.column_space(docid, reference=reference)
        matches = None
        if space is not None:
            matches = self._spaces.get(space)
            if matches is None:
                import numpy as np  # here: numpy only when the texts differ

                from hub4eval.text.align import MATCH
                from hub4eval.text.columns import int_view

                kinds = self.alignment.documents[space].alignment.kinds
                running = np.zeros(len(kinds) + 1, dtype=np.int32 if len(kinds) < 2**31 else np.int64)
                np.cumsum(kinds == MATCH, out=running[1:])
                matches = self._spaces[space] = int_view(running)
        self._running[key] = matches
        return matches

    def _rows(self, docid: str | None, columns: Extent, reference: bool) -> list[Row]:
        space = self.alignment.column_space(docid, reference=reference)
        return self.alignment.documents[space].rows(slice(columns.start, columns.end + 1))

    def misrecognition(self, docid: str | None, fill: Fill | None) -> tuple[Row, ...]:
        """The non-matching columns inside a reference fill's maximal extent; () when recognized.

        A fill without an extent, a pointer, or an extent touching no spoken
        token counts as recognized (nothing the recognizer could have lost).
        """
        if not self.misrecognized(docid, fill):
            return ()
        extent = cast(TextFill, fill).extent
        assert extent is not None  # a misrecognized fill has one
        key = (docid, extent)
        found = self._ref.get(key)
        if found is None:
            from hub4eval.text.align import MATCH  # here: the aligner imports numpy (texts differ)

            columns = self.alignment.ref_extent(docid, extent)
            found = self._ref[key] = tuple(row for row in self._rows(docid, columns, True) if row[2] != MATCH)
        return found

    def misrecognized(self, docid: str | None, fill: Fill | None) -> bool:
        """Whether :meth:`misrecognition` has columns, read from the columns' kinds alone
        (a cause needs no more; the words are read for the notes)."""
        if type(fill) is not TextFill or not fill.extents:
            return False
        extent = fill.extents[0]
        key = (docid, extent)
        found = self._misheard.get(key)
        if found is None:
            columns = self.alignment.ref_extent(docid, extent)
            found = False
            if columns is not None:
                matches = self._matches(docid, True)
                # some column of [start, end] is not a match
                found = matches is not None and matches[columns.end + 1] - matches[columns.start] <= (
                    columns.end - columns.start
                )
            self._misheard[key] = found
        return found

    def hallucination(self, docid: str | None, fill: Fill | None) -> tuple[Row, ...] | None:
        """The columns of a hypothesis fill when its tokens are all insertions or
        substitutions (hallucinated); None otherwise (or no extent, no token touched)."""
        if type(fill) is not TextFill or fill.extent is None:
            return None
        key = (docid, fill.extent)
        if key in self._hyp:
            return self._hyp[key]
        found: tuple[Row, ...] | None = None
        columns = self.alignment.hyp_extent(docid, fill.extent)
        if columns is not None:
            matches = self._matches(docid, False)
            if matches is not None and matches[columns.end + 1] == matches[columns.start]:  # no match among them
                from hub4eval.text.align import DELETION

                found = tuple(row for row in self._rows(docid, columns, False) if row[2] != DELETION)
        self._hyp[key] = found
        return found

    def cause(
        self,
        category: str,
        ref_inst: Instance | None,
        hyp_inst: Instance | None,
        ref_fill: Fill | None,
        hyp_fill: Fill | None,
        slot: str | None = None,
        kind: str | None = None,
    ) -> str | None:
        """``"recognition"``, ``"extraction"``, or None for a point that is not an error.

        With the ceiling known, an INC or MIS point of a misrecognized fill is a
        recognition error only when the ceiling's own point of that reference
        slot and ``kind`` is an error too: if some alternative, or some run of
        the words, makes the slot reachable, the extractor chose worse.
        """
        if category == "INC" or category == "MIS":
            if ref_inst is not None and self.misrecognized(ref_inst.docid, ref_fill):
                if slot is not None and kind is not None:
                    return self.misrecognized_cause(ref_inst.key, slot, kind)
                return RECOGNITION
            return EXTRACTION
        if category == "SPU":
            if hyp_inst is not None and self.hallucination(hyp_inst.docid, hyp_fill) is not None:
                return RECOGNITION
            return EXTRACTION
        return None

    def misrecognized_cause(self, ref_key: str, slot: str, kind: str) -> str:
        """The cause of an INC or MIS point of ``kind`` of a misrecognized fill of slot ``slot``
        of reference instance ``ref_key``: recognition, unless the ceiling (when known) has no
        error of that kind in that slot (see :meth:`cause`)."""
        errors = self.ceiling_errors
        if errors is not None:
            kinds = errors.get((ref_key, slot))
            if kinds is not None and kind not in kinds:
                return EXTRACTION
        return RECOGNITION

    def note(
        self,
        category: str,
        ref_docid: str | None,
        hyp_docid: str | None,
        ref_fill: Fill | None,
        hyp_fill: Fill | None,
    ) -> str:
        """What the recognizer did to a recognition error's words, in words; else ''.

        ``ref_docid``, ``hyp_docid``: the documents of the fills' instances.
        """
        if category in ("INC", "MIS"):
            rows: tuple[tuple[str, str, int], ...] | None = self.misrecognition(ref_docid, ref_fill)
            return describe(rows) if rows else ""
        if category == "SPU":
            rows = self.hallucination(hyp_docid, hyp_fill)
            if rows:
                return describe(rows)
        return ""


def ceiling_errors(ceiling: Any) -> Mapping[tuple[str, str], frozenset[str]]:
    """(reference instance key, slot) -> the kinds (content, extent, pointer) in which
    the ceiling's points of that reference slot include an INC or MIS (kept by a ceiling
    scored as counts, read from the match records otherwise)."""
    if ceiling.slot_errors is not None:
        return ceiling.slot_errors
    out: dict[tuple[str, str], frozenset[str]] = {}
    for set_match in ceiling.matches:
        for inst in set_match.instances:
            if inst.ref is None:
                continue
            key = inst.ref.key
            for slot in inst.slots:
                out[key, slot.name] = frozenset(
                    verdict.kind
                    for i, _, verdicts in slot.pairs
                    if i is not None
                    for verdict in verdicts
                    if verdict.category in ("INC", "MIS")
                )
    return out


def describe(rows: Iterable[Row]) -> str:
    """``the recognizer heard `hinges` for `hingis`; missed `de``` from non-matching columns."""
    from hub4eval.text.align import DELETION, INSERTION, SUBSTITUTION

    parts = []
    for ref, hyp, kind in rows:
        if kind == SUBSTITUTION:
            parts.append(f"heard `{hyp}` for `{ref}`")
        elif kind == DELETION:
            parts.append(f"missed `{ref}`")
        elif kind == INSERTION:
            parts.append(f"heard `{hyp}` where nothing was said")
    return "the recognizer " + "; ".join(parts) if parts else ""


def attributed_points(result: Any) -> Iterator[Point]:
    """The points of ``result`` in file order, each with its cause (see the module docstring)."""
    attributor: Attributor | None = result.attributor
    for docid, type_name, slot, ref, hyp, ref_fill, hyp_fill, verdicts in result.iter_fill_pairs():
        ref_ref = FillRef.of(ref, slot, ref_fill) if ref_fill is not None and ref is not None else None
        hyp_ref = FillRef.of(hyp, slot, hyp_fill) if hyp_fill is not None and hyp is not None else None
        for verdict in verdicts:
            cause = None
            if attributor is not None:
                cause = attributor.cause(verdict.category, ref, hyp, ref_fill, hyp_fill, slot, verdict.kind)
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
                cause,
            )


def _empty() -> dict[str, dict[str, int]]:
    return {cause: dict.fromkeys(ERROR_CATEGORIES, 0) for cause in CAUSES}


def cause_counts(result: Any) -> dict[str, dict[str, dict[str, dict[str, int]]]]:
    """Error points by cause at every level: ``{level: {group: {cause: {INC, MIS, SPU}}}}``.

    Levels are ``slot``, ``type``, ``document``, ``kind`` and ``all`` (one
    group, ""), groups in the order of ``result.by(level)``. For every group
    and category, recognition + extraction equals the group's count. Empty
    when the result has no attribution (same texts).
    """
    attributor: Attributor | None = result.attributor
    if attributor is None:
        return {}
    levels = ("slot", "type", "document", "kind")
    out: dict[str, dict[str, dict[str, dict[str, int]]]] = {
        level: {name: _empty() for name in result.by(level)} for level in levels
    }
    out["all"] = {"": _empty()}
    # counted by (type, slot, document, kind, cause, category) first, then added to each level:
    # the points are many, their combinations few; the documents first, the other levels from
    # the far fewer (type, slot, kind, cause, category)
    documents = out["document"]
    others: dict[tuple[str, str, str, str | None, str], int] = {}
    get = others.get
    counted = result.tally.causes if result.tally is not None else None
    settled: Iterable[tuple[CauseKey, int]] = (
        _point_causes(result, attributor).items() if counted is None else counted.resolved(attributor)
    )
    for (type_name, slot, docid, kind, cause, category), count in settled:
        documents[docid][cause][category] += count  # type: ignore[index]  # an error's cause is never None
        key = (type_name, slot, kind, cause, category)
        others[key] = get(key, 0) + count
    for (type_name, slot, kind, cause, category), count in others.items():
        for level, name in (("slot", f"{type_name}.{slot}"), ("type", type_name), ("kind", kind), ("all", "")):
            out[level][name][cause][category] += count  # type: ignore[index]
    return out


CauseKey = tuple[str, str, str, str, "str | None", str]
"""(type, slot, document, kind, cause, category) of error points."""


def _point_causes(result: Any, attributor: Attributor) -> dict[CauseKey, int]:
    """The error points of ``result``'s match records by :data:`CauseKey`."""
    tally: dict[CauseKey, int] = {}
    for docid, type_name, slot, ref, hyp, ref_fill, hyp_fill, verdicts in result.iter_fill_pairs():
        for verdict in verdicts:
            category = verdict.category
            if category not in ERROR_CATEGORIES:
                continue
            cause = attributor.cause(category, ref, hyp, ref_fill, hyp_fill, slot, verdict.kind)
            key = (type_name, slot, docid, verdict.kind, cause, category)
            tally[key] = tally.get(key, 0) + 1
    return tally


class CountedCauses(NamedTuple):
    """The error points of a count without match records (``Mapper.count_template_sets``) by
    cause, counted while the mapper still holds the run's instances (:func:`counted_causes`),
    before the ceiling that decides some of them is scored."""

    settled: dict[CauseKey, int]
    """Points whose cause the ceiling does not change, by :data:`CauseKey`."""
    pending: dict[tuple[str, str, str, str, str, str], int]
    """INC and MIS points of misrecognized reference fills, by (type, slot, document, kind,
    category, reference instance key): their cause is :meth:`Attributor.misrecognized_cause`."""

    def resolved(self, attributor: Attributor) -> Iterator[tuple[CauseKey, int]]:
        """Every point by :data:`CauseKey` with its count, the pending ones' causes decided by
        ``attributor`` (which knows the ceiling, if any): the settled keys first, then the
        pending ones (a key may come more than once: the counts of a key add up)."""
        yield from self.settled.items()
        for ((type_name, slot, docid, kind, category, _), count), cause in zip(
            self.pending.items(), self.pending_causes(attributor), strict=True
        ):
            yield (type_name, slot, docid, kind, cause, category), count

    def pending_causes(self, attributor: Attributor) -> list[str]:
        """The cause of each pending key, in order: :meth:`Attributor.misrecognized_cause`, the
        ceiling's kinds of every (reference instance, slot) read in one pass."""
        pending = self.pending
        errors = attributor.ceiling_errors
        if errors is None:
            return [RECOGNITION] * len(pending)
        keys = zip(map(itemgetter(5), pending), map(itemgetter(1), pending), strict=True)  # (instance key, slot)
        get_many = getattr(errors, "get_many", None)  # a ceiling scored as counts: its slots read at once
        found = get_many(keys, of_reference=True) if get_many is not None else [errors.get(key) for key in keys]
        return [
            RECOGNITION if kinds is None or key[3] in kinds else EXTRACTION
            for key, kinds in zip(pending, found, strict=True)
        ]


def counted_causes(sets: Sequence[Any], mapper: Any, attributor: Attributor) -> CountedCauses:
    """:class:`CountedCauses` of the instance matches of ``sets`` (``CountedSet``) that
    ``mapper`` counted, with ``attributor`` (made without the ceiling).

    A match whose instances are both plain (one fill in each scored slot) has at most one
    fill pair per slot, which its points' signature gives
    (:func:`hub4eval.scoring.counted_points.layout`): its fills are read from the
    instances as written; those of the fill tables the count read, for all such matches
    at once (:mod:`hub4eval.scoring.table_causes`). Another match (rare) has its match
    record made again, as the mapper made it (the set's mapping is all its pointers
    read). Matches without an error point are passed over."""
    from hub4eval.scoring.counted_points import Layouts
    from hub4eval.scoring.table_causes import table_causes

    layouts = Layouts(mapper.signatures)
    errors_of = _ErrorsOf(layouts)
    found = table_causes(sets, mapper, attributor, errors_of)
    if found is None:
        return _causes_one_by_one(((counted, counted.instances) for counted in sets), mapper, attributor, errors_of)
    settled, pending, rest = found
    if rest:
        more = _causes_one_by_one(rest, mapper, attributor, errors_of)
        for key, count in more.settled.items():
            settled[key] = settled.get(key, 0) + count
        for pending_key, count in more.pending.items():
            pending[pending_key] = pending.get(pending_key, 0) + count
    return CountedCauses(settled, pending)


class _ErrorsOf(dict[int, tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]]):
    """Of each signature number, the fill pairs of its layout that have error points:
    (slot, side, (kind, category) of each of its error points), made when first asked for."""

    __slots__ = ("layouts",)

    def __init__(self, layouts: Mapping[int, Any]) -> None:
        super().__init__()
        self.layouts = layouts

    def __missing__(self, number: int) -> tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]:
        made = self[number] = tuple(
            (name, side, kept)
            for name, side, points in self.layouts[number]
            if (kept := tuple((kind, category) for kind, category in points if category in ERROR_CATEGORIES))
        )
        return made


def _causes_one_by_one(
    matches: Iterable[tuple[Any, Iterable[Any]]], mapper: Any, attributor: Attributor, errors_of: Mapping[int, Any]
) -> CountedCauses:
    """:func:`counted_causes` of these matches (each with its ``CountedSet``), match by
    match: the fills of a plain one read from its instances (``plain_fills``), the others'
    from their match records made again; each point's cause asked of ``attributor``."""
    from hub4eval.scoring.counted_points import HYPOTHESIS, REFERENCE, plain_fills, set_mapping

    unscored = mapper.unscored
    cause = attributor.cause
    settled: dict[CauseKey, int] = {}
    pending: dict[tuple[str, str, str, str, str, str], int] = {}
    for counted, instance_matches in matches:
        docid = counted.docid
        mapping: dict[str, str] | None = None
        for ref, hyp, _, number in instance_matches:
            errors = errors_of[number]
            if not errors:
                continue
            type_name = (ref if ref is not None else hyp).type
            ref_fills = plain_fills(ref, True, unscored) if ref is not None else {}
            hyp_fills = plain_fills(hyp, False, unscored) if hyp is not None else {}
            pairs: Iterable[tuple[str, Fill | None, Fill | None, Iterable[tuple[str, str]]]]
            if ref_fills is not None and hyp_fills is not None:
                pairs = [
                    (
                        name,
                        None if side == HYPOTHESIS else ref_fills[name],
                        None if side == REFERENCE else hyp_fills[name],
                        points,
                    )
                    for name, side, points in errors
                ]
            else:
                if mapping is None:
                    mapping = set_mapping(counted)
                pairs = _record_pairs(mapper, counted, ref, hyp, mapping)
            for name, ref_fill, hyp_fill, points in pairs:
                for kind, category in points:
                    if category not in ERROR_CATEGORIES:
                        continue
                    found = cause(category, ref, hyp, ref_fill, hyp_fill, name, kind)
                    if found == RECOGNITION and category != "SPU":  # the ceiling may make it extraction
                        assert ref is not None
                        pending_key = (type_name, name, docid, kind, category, ref.key)
                        pending[pending_key] = pending.get(pending_key, 0) + 1
                    else:
                        key = (type_name, name, docid, kind, found, category)
                        settled[key] = settled.get(key, 0) + 1
    return CountedCauses(settled, pending)


def _record_pairs(
    mapper: Any, counted: Any, ref: Instance | None, hyp: Instance | None, mapping: dict[str, str]
) -> list[tuple[str, Fill | None, Fill | None, list[tuple[str, str]]]]:
    """(slot, reference fill, hypothesis fill, (kind, category) of each point) of each fill
    pair of the match record of ``ref`` and ``hyp`` in ``counted``, made again."""
    from hub4eval.scoring.fills import PreparedFill

    if ref is None:
        assert hyp is not None
        record = mapper._lone_hyp(hyp)
    else:
        optional = {inst.key for inst in counted.ref.instances if inst.optional}
        record = mapper.match_instance(ref, hyp, mapping, lambda fill: fill.key in optional and fill.key not in mapping)
    out = []
    for slot in record.slots:
        for i, j, verdicts in slot.pairs:
            ref_item = None if i is None else slot.ref_items[i]
            hyp_item = None if j is None else slot.hyp_items[j]
            out.append(
                (
                    slot.name,
                    ref_item.fill if type(ref_item) is PreparedFill else ref_item,
                    hyp_item.fill if type(hyp_item) is PreparedFill else hyp_item,
                    [(verdict.kind, verdict.category) for verdict in verdicts],
                )
            )
    return out


def cause_totals(split: dict[str, dict[str, int]]) -> dict[str, int]:
    """Errors per cause of one group of :func:`cause_counts`."""
    return {cause: sum(split[cause].values()) for cause in CAUSES}


__all__ = [
    "CAUSES",
    "EXTRACTION",
    "RECOGNITION",
    "Attributor",
    "attributed_points",
    "cause_counts",
    "cause_totals",
    "ceiling_errors",
    "CountedCauses",
    "counted_causes",
    "describe",
]
