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

Entity WER (:func:`entity_wer`): the word error rate restricted to the
columns inside the reference fills' maximal extents (from the column of the
first token to the column of the last, so insertions inside a fill count),
overall and per slot; a column inside several fills counts once. Fills of
unscored slots are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain, pairwise, repeat
from operator import attrgetter, itemgetter
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


def _reference_sets(result: Any) -> Iterator[Any]:
    """The reference instance sets of ``result``'s mapping, in order (a result of counts keeps them)."""
    tally = result.tally
    if tally is not None and tally.reference_sets is not None:
        yield from tally.reference_sets
        return
    for set_match in result.matches:
        if set_match.ref is not None:
            yield set_match.ref


def entity_wer(result: Any) -> dict[str, Any] | None:
    """WER restricted to the reference fills' columns: ``{"alignment": "weighted", "summary": ..., "by_slot": {...}}``.

    Each entry has the counts of :meth:`hub4eval.text.columns.DocumentAlignment.counts`
    plus ``errors`` and ``wer`` (None without reference words). None when the
    texts were not aligned.
    """
    alignment = result.alignment
    if alignment is None:
        return None
    import numpy as np  # here, not at the top: numpy only when the texts differ

    from hub4eval.text.columns import kind_counts

    # The column spaces (one per document alignment) laid end to end: a fill's columns
    # [start, end] of space s are [base[s] + start, base[s] + end] of one run of columns,
    # whose kinds are those of the spaces in order.
    kinds = [document.alignment.kinds for document in alignment.documents]
    base = [0]
    for space_kinds in kinds:
        base.append(base[-1] + len(space_kinds))
    unscored = frozenset(result.config.unscored_slots)
    sets = list(_reference_sets(result))
    slots: dict[tuple[str, str], int] = {}  # (type, slot) -> its number
    table = result.tally.reference_table if result.tally is not None else None
    instances = list(chain.from_iterable(map(attrgetter("instances"), sets)))
    if table is None or table.alignment is not alignment or table.unscored != unscored:
        numbers, order, first, last, found = _fills_read(enumerate(instances), unscored, slots, alignment, base)
    else:
        # the instances the count's fill table holds whole read from its arrays, the others one by one
        whole, *read = _table_fills(sets, instances, table, slots, alignment, base)
        rest = _fills_read(
            ((k, instances[k]) for k in np.flatnonzero(~whole).tolist()), unscored, slots, alignment, base
        )
        numbers, order, first, last, found = (np.concatenate(pair) for pair in zip(read, rest, strict=True))
    numbers = numbers[found]
    firsts, after, order = first[found], last[found] + 1, order[found]
    every = np.concatenate(kinds) if kinds else np.zeros(0, dtype=np.int64)

    def covered(number: int) -> np.ndarray:
        """The columns inside at least one span of slot ``number``, each once, in order (as many as
        the fills cover, not an array as long as the texts: fills are a few words each)."""
        of_slot = numbers == number
        begins = firsts[of_slot]
        lengths = after[of_slot] - begins
        before = np.cumsum(lengths) - lengths  # where each span's columns begin in the run of all
        columns = np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(begins - before, lengths)
        return _unique(columns)

    def wer_of(columns: np.ndarray) -> dict[str, Any]:
        total = kind_counts(every[columns])
        errors = total["substitutions"] + total["deletions"] + total["insertions"]
        return {**total, "errors": errors, "wer": errors / total["ref_words"] if total["ref_words"] else None}

    # a slot is listed once a fill of it has columns: in the order of the slots' first fills with
    # columns (fills in the order of the instances, then of their slots)
    never = _NEVER
    firsts_of = np.full(len(slots), never, dtype=np.int64)
    np.minimum.at(firsts_of, numbers, order)
    listed = sorted((int(firsts_of[number]), key) for key, number in slots.items() if firsts_of[number] < never)
    inside = {f"{key[0]}.{key[1]}": covered(slots[key]) for _, key in listed}
    union = _unique(np.concatenate(list(inside.values()))) if inside else np.zeros(0, dtype=np.int64)
    return {
        "alignment": "weighted",  # fills are placed on the weighted alignment's columns, not on sclite's
        "summary": wer_of(union),
        "by_slot": {key: wer_of(columns) for key, columns in inside.items()},
    }


_ORDER = 1 << 20  # a fill's place in the order of the fills: its instance's place * _ORDER + its place in it
_NEVER = 2**63 - 1  # past every place


def _fills_read(
    instances: Iterable[tuple[int, Any]],
    unscored: frozenset[str],
    slots: dict[tuple[str, str], int],
    alignment: Any,
    base: Sequence[int],
) -> tuple[Any, Any, Any, Any, Any]:
    """Of every fill with an extent of a scored slot of ``instances`` (each with its place among
    the instances of the reference sets), read from the instances: its slot's number in
    ``slots`` (numbered as first met), its place in the order of the fills (see
    :data:`_ORDER`), the first and last column of its maximal extent in the column spaces laid
    end to end (``base``) and whether it touches a token."""
    import numpy as np

    numbers_of: dict[str, dict[str, int]] = {}  # the same numbers by type, then slot (no tuple made per fill)
    # every fill's maximal extent (read as the fill is: its start and end), slot number and
    # place, in order, and the runs of one document's fills
    starts: list[int] = []
    ends: list[int] = []
    fill_slots: list[int] = []
    places: list[int] = []
    runs: list[tuple[str, int]] = []  # (DOCID, index of its first fill)
    add_start, add_end, add_slot, add_place = starts.append, ends.append, fill_slots.append, places.append
    for position, inst in instances:
        if not runs or runs[-1][0] != inst.docid:
            runs.append((inst.docid, len(starts)))
        numbers = numbers_of.get(inst.type)
        if numbers is None:
            numbers = numbers_of[inst.type] = {}
        place = position * _ORDER
        for slot in inst.slots:
            name = slot.name
            if name in unscored:
                continue
            number = -1
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if type(fill) is not TextFill or not fill.extents:
                        continue
                    if number < 0:
                        number = numbers.get(name, -1)
                        if number < 0:
                            number = numbers[name] = slots.setdefault((inst.type, name), len(slots))
                    extent = fill.extents[0]
                    add_start(extent.start)
                    add_end(extent.end)
                    add_slot(number)
                    add_place(place)
                    place += 1
    # without the runs of no fill (a document's instances read from the table, or without extents)
    nexts = [index for _, index in runs[1:]] + [len(starts)] if runs else []
    runs = [run for run, following in zip(runs, nexts, strict=True) if following > run[1]]
    first, last, found = _reference_columns(alignment, runs, starts, ends, base)
    return (
        np.asarray(fill_slots, dtype=np.int64),
        np.asarray(places, dtype=np.int64),
        first,
        last,
        found,
    )


def _table_fills(
    sets: Sequence[Any],
    instances: Sequence[Any],
    table: Any,
    slots: dict[tuple[str, str], int],
    alignment: Any,
    base: Sequence[int],
) -> tuple[Any, Any, Any, Any, Any, Any]:
    """:func:`_fills_read` of the instances of ``sets`` that the reference's fill table of the
    count holds whole (:attr:`~hub4eval.scoring.fill_tables.FillTable.complete`: one fill in each
    of its slots, every slot scored), read from its arrays instead of the instances: their
    extents' columns are those the count mapped (the extents less premodifiers, not widened),
    but for the fills whose premodifiers moved their start, mapped here as written. First, of
    every one of ``instances`` (those of ``sets``, in order), whether it is read so."""
    import numpy as np

    from hub4eval.scoring.fill_tables import NONE
    from hub4eval.text.column_extents import extents_of

    ords = np.fromiter(map(table.ordinal.get, map(id, instances), repeat(-1)), dtype=np.int64, count=len(instances))
    whole = ords >= 0
    whole[whole] = table.complete[ords[whole]]
    place_of = np.full(len(table.instances), -1, dtype=np.int64)  # of each of the table's instances
    place_of[ords[whole]] = np.flatnonzero(whole)
    fill_places = place_of[table.fill_inst]
    take = np.flatnonzero((fill_places >= 0) & (table.starts != NONE))
    places = fill_places[take]
    mapped_first, mapped_last = table.columns()[2]
    first, last = mapped_first[take], mapped_last[take]
    # each set's column space
    sizes = np.fromiter(map(len, (iset.instances for iset in sets)), dtype=np.int64, count=len(sets))
    docids = list(map(attrgetter("docid"), sets))
    set_of = np.repeat(np.arange(len(sets), dtype=np.int64), sizes)[places]  # of each fill
    raw = table.raw_starts[take]
    moved = np.flatnonzero(raw != table.starts[take])
    if len(moved):  # premodifiers removed: the extent as written mapped here
        moved_docids = [docids[k] for k in set_of[moved].tolist()]
        first[moved], last[moved], touched = extents_of(
            alignment, True, moved_docids, raw[moved], table.ends[take[moved]]
        )
        first[moved[~touched]] = NONE
    found = first != NONE
    space_of = {docid: alignment.column_space(docid, reference=True) for docid in dict.fromkeys(docids)}
    shift_of = {docid: -1 if space is None else base[space] for docid, space in space_of.items()}
    shift = np.fromiter(map(shift_of.__getitem__, docids), dtype=np.int64, count=len(docids))[set_of]
    found &= shift >= 0
    first = np.where(found, first + shift, 0)
    last = np.where(found, last + shift, 0)
    # each fill's slot: its type's and its name's
    slot_of = np.zeros(len(table.fills), dtype=np.int64)
    for s, holders in enumerate(table.slot_fill):
        at = holders[holders >= 0]
        slot_of[at] = s
    type_names = list(map(attrgetter("type"), instances))
    types = list(dict.fromkeys(type_names))
    type_ids = {name: k for k, name in enumerate(types)}
    instance_types = np.fromiter(map(type_ids.__getitem__, type_names), dtype=np.int64, count=len(instances))
    names = table.slot_names
    keys = instance_types[places] * len(names) + slot_of[take]
    distinct, inverse = np.unique(keys, return_inverse=True)
    # numbered in the order of their first fills, as the instances' loop numbers them
    firsts = np.full(len(distinct), _NEVER, dtype=np.int64)
    np.minimum.at(firsts, inverse, places * _ORDER + table.fill_rank[take])
    number_of = np.zeros(len(distinct), dtype=np.int64)
    for k in np.argsort(firsts, kind="stable").tolist():
        key = int(distinct[k])
        number_of[k] = slots.setdefault((types[key // len(names)], names[key % len(names)]), len(slots))
    return (
        whole,
        number_of[inverse],
        places * _ORDER + table.fill_rank[take],
        first,
        last,
        found,
    )


def _reference_columns(
    alignment: Any, runs: Sequence[tuple[str, int]], starts: Sequence[int], ends: Sequence[int], base: Sequence[int]
) -> tuple[Any, Any, Any]:
    """The columns of the first and the last token each reference extent [``starts[k]``,
    ``ends[k]``) touches (``alignment.ref_extent``), in the run of all column spaces laid end to end (space s from
    ``base[s]``), and whether it touches one (in a document that has a column space).

    ``runs``: (DOCID, index of its first extent) of each run of extents of one document. The
    documents' tokens, one after the other (:func:`hub4eval.text.column_extents.token_runs`),
    each document's offsets (its tokens' and its extents') shifted past everything before it,
    are bisected for every extent at once: one search in numpy, not one per fill or per
    document (a document holds a few fills)."""
    import numpy as np

    from hub4eval.text.column_extents import extents_of, token_runs

    n = len(starts)
    at, to = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
    froms = [index for _, index in runs]
    lengths = np.asarray([b - a for a, b in pairwise([*froms, n])], dtype=np.int64)
    docids = [docid for docid, _ in runs]
    tokens = token_runs(alignment, True, docids)
    placed = None if tokens is None or not n or int(at.min()) < 0 else _placed(tokens, docids, froms, at, to)
    if placed is None:  # tokens that are not arrays (or nothing to place): extents_of bisects them
        fill_docids = list(chain.from_iterable(map(repeat, docids, lengths.tolist())))
        first, last, found = extents_of(alignment, True, fill_docids, at, to, tokens)
    else:
        first, last, found = placed
    # each run's column space: its base, or none (its extents then touch nothing here)
    spaces = [alignment.column_space(docid, reference=True) for docid in docids]
    if any(space != 0 for space in spaces):
        shifts = np.repeat(np.asarray([-1 if s is None else base[s] for s in spaces], dtype=np.int64), lengths)
        found &= shifts >= 0
        first += shifts
        last += shifts
    return first, last, found


def _placed(tokens: Any, docids: Sequence[str], froms: Sequence[int], starts: Any, ends: Any) -> Any:
    """:func:`hub4eval.text.column_extents.extents_of` of the extents ``starts``, ``ends``
    (the run of extents from ``froms[k]`` in document ``docids[k]``) within ``tokens``
    (``TokenRuns``): each document's tokens and extents shifted past every offset of the
    documents before it, so that the tokens are in order and one search places every
    extent among its own document's tokens. None when the documents' tokens do not lie one
    after the other (then each run is bisected on its own)."""
    import numpy as np

    if not len(tokens.starts):  # no token anywhere: no extent touches one
        nothing = np.zeros(len(starts), dtype=np.int64)
        return nothing, nothing.copy(), np.zeros(len(starts), dtype=bool)
    ranges = sorted(tokens.runs.items(), key=lambda item: item[1])  # each document's [first, end) tokens
    position = 0
    for _, (low, high) in ranges:
        if low != position or high < low:
            return None
        position = high
    if position != len(tokens.starts):
        return None
    rank = {docid: k for k, (docid, _) in enumerate(ranges)}
    counts = np.asarray([high - low for _, (low, high) in ranges], dtype=np.int64)
    highs = np.cumsum(counts)
    # past every offset of a document: its last token's end, and its extents' offsets
    tops = np.zeros(len(ranges), dtype=np.int64)
    has_tokens = counts > 0
    tops[has_tokens] = tokens.ends[highs[has_tokens] - 1]
    run_ranks = np.asarray([rank.get(docid, -1) for docid in docids], dtype=np.int64)
    known = run_ranks >= 0
    run_tops = np.maximum(np.maximum.reduceat(starts, froms), np.maximum.reduceat(ends, froms))
    np.maximum.at(tops, run_ranks[known], run_tops[known])
    shift = np.cumsum(tops + 1) - (tops + 1)  # where each document's offsets begin
    # in the tokens' own offset type when every shifted offset fits (half the memory to walk)
    kind = tokens.ends.dtype
    if kind.kind in "iu" and int(shift[-1] + tops[-1]) < np.iinfo(kind).max:
        shift = shift.astype(kind)
        starts, ends = starts.astype(kind), ends.astype(kind)
    token_shift = np.repeat(shift, counts)
    lengths = np.asarray([b - a for a, b in pairwise([*froms, len(starts)])], dtype=np.int64)
    fill_shift = np.repeat(shift[np.where(known, run_ranks, 0)], lengths)
    first = np.searchsorted(tokens.ends + token_shift, starts + fill_shift, side="right")  # first ending after
    last = np.searchsorted(tokens.starts + token_shift, ends + fill_shift, side="left") - 1  # last starting before
    found = (first <= last) & np.repeat(known, lengths)
    columns = tokens.columns
    return (
        np.where(found, columns[np.where(found, first, 0)], 0).astype(np.int64),
        np.where(found, columns[np.where(found, last, 0)], 0).astype(np.int64),
        found,
    )


def _unique(values: Any) -> Any:
    """``np.unique(values)``: the values sorted, each once. Sorted by the stable sort, which
    finds the runs already in order (the fills' columns come in the order of the text, slot by
    slot), instead of ``np.unique``'s hashing of every value."""
    import numpy as np

    ordered = np.sort(values, kind="stable")
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)  # where each value first appears
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]


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
    "entity_wer",
]
