"""Files of a :class:`~hub4eval.scoring.result.ScoreResult`: JSON (every point with its reason) and CSV.

JSON holds fractions in [0, 1] and ``null`` for an undefined metric.

Why one module of about 820 lines: the JSON file is written in three places that
must give the same bytes, the whole result's encoder, the point entries written
from match records and from a count (:class:`RunWriter`, in a worker), and a
group's by-document rows and mapping (:class:`HeadPieces`, in a worker); they
share the encoder's settings, the separators and the layout of an entry, and a
split would spread one format's byte rules over modules that a test compares
byte for byte. The point writers could move to a module of their own (with
those rules) if it grows further.
"""

from __future__ import annotations

import codecs
import csv
import errno
import io
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, TextIO

from hub4eval.model import Extent, Instance, PointerFill, TextFill
from hub4eval.scoring.counted_points import (
    HYPOTHESIS,
    REFERENCE,
    CountedRun,
    LazyMapping,
    layout_points,
)
from hub4eval.scoring.fills import FillPreparer, PreparedFill
from hub4eval.scoring.metrics import METRICS, Counts
from hub4eval.scoring.points import fill_text
from hub4eval.scoring.result import ScoreResult, Tally
from hub4eval.scoring.verdicts import (
    TextComparison,
    pointer_reason_json,
    reason_json,
    text_reason_json,
    unpaired_reason_json,
)
from hub4eval.util.atomic import replaced_whole

COUNT_COLUMNS = ("POS", "ACT", "COR", "INC", "MIS", "SPU", "OPT", "REM")
COLUMNS = COUNT_COLUMNS + METRICS


_CAUSE_JSON = {None: "null", "recognition": '"recognition"', "extraction": '"extraction"'}

# One encoder for every entry: json.dumps with options builds a new encoder per call.
_ENTRY_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


# Fill pairs (or entries, :class:`RunWriter`) whose entries are made, joined and written at
# a time (a few hundred kilobytes: the batch, its text and its bytes stay in the processor's cache)
_BATCH = 512
_ENTRY_SEPARATOR = ",\n    "  # between two entries of a list or table of iter_json_text
_SEPARATOR_BYTES = _ENTRY_SEPARATOR.encode()
_encode_string = json.encoder.encode_basestring  # what the entry encoder does with a str
_float_repr = float.__repr__  # what it does with a finite float


def _point_entries(result: ScoreResult) -> Iterator[str]:
    """Each point as :meth:`hub4eval.scoring.points.Point.as_dict` encodes it, in order (the two
    points of a fill pair as one piece, joined as :func:`iter_json_text` joins entries)."""
    for batch in _entry_batches(result.iter_fill_pairs(), result.attributor):
        yield from batch


def _entry_batches(
    fill_pairs: Iterable[tuple[Any, ...]], attributor: Any = None, how: TextComparison | None = None
) -> Iterator[list[str]]:
    """:func:`_point_entries` in lists of the entries of :data:`_BATCH` fill pairs (those of a pair
    with two points joined in one string, as :func:`iter_json_text` joins them), made from the fill pairs:
    the slot, document and fills are encoded once per pair (an instance's key once per
    instance, a slot's name once), not once per point; each entry is one f-string.

    ``fill_pairs``: those of match records (:meth:`ScoreResult.iter_fill_pairs`: fills and
    verdicts), or those of a count (:func:`~hub4eval.scoring.counted_points.counted_fill_pairs`:
    prepared fills, and the verdicts of a record or the (kind, category) of each point with
    the set's mapping, whose reasons are made here from the fills, compared as ``how`` says).
    ``attributor``: the §11 cause of each error point, when the texts differ."""
    encode = _ENTRY_ENCODER.encode
    encode_string = json.encoder.encode_basestring  # what that encoder does with a str
    heads: dict[tuple[str, str, str], str] = {}
    slots: dict[str, str] = {}
    batch: list[str] = []
    append = batch.append
    # the last pair's document, type and slot (pairs come slot by slot), and the JSON that starts its entries
    last_doc = last_type = last_slot = None
    head = slot_json = ""
    # the last reference and hypothesis instance, and the JSON that starts their fills
    ref_owner = hyp_owner = None
    ref_start = hyp_start = ""
    for pair in fill_pairs:
        if pair.__class__ is str:  # entries already written (see _run_fill_pairs)
            append(pair)
            if len(batch) >= _BATCH:
                yield batch
                batch = []
                append = batch.append
            continue
        docid, type_name, slot, ref_inst, hyp_inst, ref_item, hyp_item, verdicts, *counted = pair
        if slot is not last_slot or docid is not last_doc or type_name is not last_type:
            last_doc, last_type, last_slot = docid, type_name, slot
            key = (docid, type_name, slot)
            head = heads.get(key)  # type: ignore[assignment]
            if head is None:
                head = heads[key] = f'{{"slot": {encode(f"{type_name}.{slot}")}, "document": {encode(docid)}, "kind": "'
            slot_json = slots.get(slot)  # type: ignore[assignment]
            if slot_json is None:
                slot_json = slots[slot] = f'"slot": {encode_string(slot)}, "fill": '
        # the fills (a count's items are prepared fills)
        ref_fill = ref_item.fill if ref_item.__class__ is PreparedFill else ref_item
        hyp_fill = hyp_item.fill if hyp_item.__class__ is PreparedFill else hyp_item
        # FillRef.json_of(instance, slot, fill) of each side, written out: a million are made;
        # the fill as fill_text writes it, the usual fill ('"content" ##a#b#') without a call
        usual: tuple[Extent, ...] | None = None  # the reference fill's extents, when it is a usual fill
        if ref_inst is None or ref_fill is None:
            ref = "null"
        else:
            if ref_inst is not ref_owner:
                ref_owner, ref_start = ref_inst, f'{{"instance": {encode_string(ref_inst.key)}, '
            if ref_fill.__class__ is TextFill and len(extents := ref_fill.extents) == 1 and not ref_fill.bracketed:
                usual, extent = extents, extents[0]
                fill = f'"\\"{encode_string(ref_fill.content)[1:-1]}\\" ##{extent.start}#{extent.end}#"'
            else:
                fill = encode_string(fill_text(ref_fill))
            ref = f'{ref_start}{slot_json}{fill}, "line": {ref_fill.line}}}'
        if hyp_inst is None or hyp_fill is None:
            hyp = "null"
        else:
            if hyp_inst is not hyp_owner:
                hyp_owner, hyp_start = hyp_inst, f'{{"instance": {encode_string(hyp_inst.key)}, '
            if hyp_fill.__class__ is not TextFill:
                fill = encode_string(fill_text(hyp_fill))
            elif (
                (extents := hyp_fill.extents) == usual
                and hyp_fill.content == ref_fill.content
                and not hyp_fill.bracketed
            ):
                pass  # written as the reference fill (a correct fill mostly is)
            elif len(extents) == 1 and not hyp_fill.bracketed:
                extent = extents[0]
                fill = f'"\\"{encode_string(hyp_fill.content)[1:-1]}\\" ##{extent.start}#{extent.end}#"'
            else:
                fill = encode_string(fill_text(hyp_fill))
            hyp = f'{hyp_start}{slot_json}{fill}, "line": {hyp_fill.line}}}'
        fills = f'", "ref": {ref}, "hyp": {hyp}, "reason": '
        if counted and counted[0] is not None:  # a count's points: (kind, category), the reasons made here
            mapping = counted[0]
            for kind, category in verdicts:
                reason = _counted_reason(kind, category, ref_item, hyp_item, mapping, how)  # type: ignore[arg-type]
                append(f'{head}{kind}", "category": "{category}{fills}{reason}, "cause": null}}')
        elif attributor is None:
            if len(verdicts) == 2:  # a text fill pair's content and extent points: one string
                first, second = verdicts
                append(
                    f'{head}{first.kind}", "category": "{first.category}{fills}{reason_json(first)}, "cause": null}}'
                    f"{_ENTRY_SEPARATOR}"
                    f'{head}{second.kind}", "category": "{second.category}{fills}{reason_json(second)}, "cause": null}}'
                )
            else:
                for verdict in verdicts:
                    append(
                        f'{head}{verdict.kind}", "category": "{verdict.category}{fills}'
                        f'{reason_json(verdict)}, "cause": null}}'
                    )
        else:
            for verdict in verdicts:
                cause = attributor.cause(verdict.category, ref_inst, hyp_inst, ref_fill, hyp_fill, slot, verdict.kind)
                append(
                    f'{head}{verdict.kind}", "category": "{verdict.category}{fills}'
                    f'{reason_json(verdict)}, "cause": {_CAUSE_JSON[cause]}}}'
                )
        if len(batch) >= _BATCH:
            yield batch
            batch = []
            append = batch.append
    if batch:
        yield batch


_BOTH_COR = layout_points((("content", "COR"), ("extent", "COR")))  # the points of a correct text fill pair


def _fill_json(fill: Any) -> str:
    """The "fill" of a point's reference or hypothesis side as JSON: ``fill_text`` encoded,
    the usual text fill ('"content" ##a#b#') written out."""
    if fill.__class__ is TextFill and len(extents := fill.extents) == 1 and not fill.bracketed:
        extent = extents[0]
        return f'"\\"{_encode_string(fill.content)[1:-1]}\\" ##{extent.start}#{extent.end}#"'
    return _encode_string(fill_text(fill))


def _run_entries(
    run: CountedRun,
    append: Callable[[str], None],
    plans: _Plans | None = None,
    after_set: Callable[[], None] | None = None,
) -> None:
    """The JSON entries of every point of a counted run, in order, each given to ``append``
    (the two points of a text fill pair in one string, joined as :func:`iter_json_text` joins
    entries): what :func:`_entry_batches` makes of
    :func:`~hub4eval.scoring.counted_points.counted_fill_pairs` (a test compares them),
    written out for the million points of a large ``--json``.

    The usual pairs are written at once from their fills, each piece made once: a correct
    text pair (two usual text fills of the same content and extents, both points COR,
    compared clean: most pairs), the reasons as
    :func:`~hub4eval.scoring.verdicts.text_reason_json` says them of such a pair; a
    reference text fill left over (both points MIS); a correct pointer pair (of a match
    record: a slot of several pointers). ``plans``: the JSON pieces of the slots and the
    fill pairs of each (type, signature), kept from run to run of one mapper (a writer's);
    ``after_set``: called after the entries of each instance set (a writer writes them out)."""
    encode = _encode_string
    mapper = run.mapper
    how = mapper.how
    ref_prep, hyp_prep = mapper.ref_prep, mapper.hyp_prep
    # the usual correct pair at once: compared clean, and the two sides prepared alike (one memo
    # of normalized strings, no alignment): the same content and extents, the same prepared strings
    fast = (
        how.content
        and how.extent
        and not how.noisy
        and not how.exact_extent
        and ref_prep._texts is hyp_prep._texts
        and ref_prep.map_extent is None
        and hyp_prep.map_extent is None
        and ref_prep.widen is None
    )
    layouts = run.layouts
    if plans is None or plans.layouts is not layouts:
        plans = _Plans(layouts)
    plan_of, slot_of = plans.get, plans.slot
    # the engine reads most fills as rows, without preparing them: a plain match's fills are
    # read here as written, and a fill is prepared only for a reason that needs it
    normalized = ref_prep._texts.get  # the memo the engine filled: (text, premodifiers removed, ...)
    records = run.records
    record_of = run.record
    content_cor, extent_cor, content_mis, extent_mis, pointer_cor = _CONTENT_COR, _EXTENT_COR, *_MIS, _POINTER_COR
    missed = _MISSED
    # the end of a pair's first entry (from its reason's closing quote, for a reason written
    # here; from after it, for a reason already JSON) and the separator
    between = f'", "cause": null}}{_ENTRY_SEPARATOR}'
    after = between[1:]
    for counted in run.sets:
        if after_set is not None:
            after_set()
        document = encode(counted.docid)
        mapping = LazyMapping(counted)
        for ref, hyp, _, signature in counted.instances:
            if ref is not None and hyp is not None:
                type_name = ref.type
                ref_start = f'{{"instance": {encode(ref.key)}, '
                hyp_start = f'{{"instance": {encode(hyp.key)}, '
                record = records.get((id(ref), id(hyp)))  # none: a plain pair (hub4eval.scoring.pairs._counted)
            else:
                type_name = (ref or hyp).type
                ref_start = f'{{"instance": {encode(ref.key)}, ' if ref is not None else ""
                hyp_start = f'{{"instance": {encode(hyp.key)}, ' if hyp is not None else ""
                record = record_of(ref, hyp, counted)
            if record is not None:
                for slot in record.slots:
                    head, slot_json = slot_of(type_name, slot.name)
                    ref_items, hyp_items = slot.ref_items, slot.hyp_items
                    for i, j, verdicts in slot.pairs:
                        ref_item: Any = None if i is None else ref_items[i]
                        hyp_item: Any = None if j is None else hyp_items[j]
                        if (
                            ref_item.__class__ is PointerFill
                            and hyp_item.__class__ is PointerFill
                            and verdicts[0].category == "COR"
                        ):
                            # compare_pointer's COR: the reference target is mapped to the hypothesis one
                            ref_key = encode(ref_item.key)
                            hyp_key = encode(hyp_item.key)
                            append(
                                f'{head}{document}{pointer_cor}{ref_start}{slot_json}{ref_key}, "line": {ref_item.line}}}, '
                                f'"hyp": {hyp_start}{slot_json}{hyp_key}, "line": {hyp_item.line}}}, '
                                f'"reason": "{ref_key[1:-1]} is mapped to {hyp_key[1:-1]}", "cause": null}}'
                            )
                            continue
                        _entries(
                            append,
                            head + document,
                            slot_json,
                            ref_start,
                            hyp_start,
                            ref_item,
                            hyp_item,
                            verdicts,
                            None,
                            how,
                        )
                continue
            plan = plan_of((type_name, signature)) or plans.make(type_name, signature)
            ref_fills: Any = _first_fills(ref) if ref is not None else None
            hyp_fills: Any = _first_fills(hyp) if hyp is not None else None
            for name, side, points, head, slot_json in plan:
                if points is _BOTH_COR:
                    rf = ref_fills[name]
                    hf = hyp_fills[name]
                    extents = rf.extents
                    if (
                        fast
                        and hf.content == (content := rf.content)
                        and hf.extents == extents
                        and len(extents) == 1
                        and not rf.bracketed
                        and not hf.bracketed
                        and (norm := normalized(content)) is not None
                        # fill.minimal_is_maximal (its minimal string prepared as its maximal one),
                        # with the reader's shortcut: the one minimal extent is the maximal one
                        and len(spans := rf.minimal_spans) == 1
                        and not spans[0][0]
                        and spans[0][1] == len(content)
                        and (rf.minimal_extents is extents or rf.minimal_is_maximal)
                    ):
                        # both points COR of a usual reference fill: the hypothesis text is the
                        # reference's (inside it, and containing it), and so is its extent (the
                        # same offsets prepared alike: FillPreparer.prepare's maximal string,
                        # its normalized text and its extent less the premodifiers removed)
                        at = extents[0]
                        shown = encode(content)[1:-1]
                        fill = f'{slot_json}"\\"{shown}\\" ##{at.start}#{at.end}#", "line": '
                        fills = f'{ref_start}{fill}{rf.line}}}, "hyp": {hyp_start}{fill}{hf.line}}}, "reason": '
                        text, removed = norm[0], norm[1]
                        if text != content:
                            shown = encode(text)[1:-1]
                        start, end = at.start, at.end
                        if removed:
                            start = min(start + removed, end)  # as fills._shifted
                        span = f"{start}..{end}"
                        append(
                            f'{head}{document}{content_cor}{fills}"hypothesis `{shown}` is inside `{shown}` '
                            f"and contains the minimal string `{shown}`{between}{head}{document}{extent_cor}{fills}"
                            f'"extent {span} enclosed in {span}, overlaps minimal {span}", "cause": null}}'
                        )
                        continue
                elif points is _BOTH_MIS:
                    rf = ref_fills[name]
                    if len(extents := rf.extents) == 1 and not rf.bracketed:
                        at = extents[0]
                        fills = (
                            f'{ref_start}{slot_json}"\\"{encode(rf.content)[1:-1]}\\" ##{at.start}#{at.end}#", '
                            f'"line": {rf.line}}}, "hyp": null, "reason": '
                        )
                        append(
                            f"{head}{document}{content_mis}{fills}{missed}{after}"
                            f'{head}{document}{extent_mis}{fills}{missed}, "cause": null}}'
                        )
                        continue
                _entries(
                    append,
                    head + document,
                    slot_json,
                    ref_start,
                    hyp_start,
                    # prepared only when compared (a fill left over is written as it is)
                    ref_fills[name]
                    if side == REFERENCE
                    else None
                    if side == HYPOTHESIS
                    else _prepared(ref_fills[name], ref_prep, ref.docid),
                    hyp_fills[name]
                    if side == HYPOTHESIS
                    else None
                    if side == REFERENCE
                    else _prepared(hyp_fills[name], hyp_prep, hyp.docid),
                    points,
                    mapping,
                    how,
                )


def _first_fills(inst: Instance) -> dict[str, Any]:
    """The fill of each slot of a plain instance, by name, as ``Mapper._view`` reads them
    (a name's first slot; its first alternative's fill), not prepared."""
    slots = inst.slots
    try:
        fills = {slot.name: slot.alternatives[0].fills[0] for slot in slots}
    except IndexError:  # a slot without fills (not a scored one: the instance is plain)
        return _first_fills_one_by_one(inst)
    return fills if len(fills) == len(slots) else _first_fills_one_by_one(inst)  # a name twice: its first slot


def _first_fills_one_by_one(inst: Instance) -> dict[str, Any]:
    """:func:`_first_fills` of an instance with a slot name twice or a slot without fills."""
    fills: dict[str, Any] = {}
    for slot in inst.slots:
        name = slot.name
        if name not in fills:
            alternatives = slot.alternatives
            fills[name] = alternatives[0].fills[0] if alternatives and alternatives[0].fills else None
    return fills


def _prepared(fill: Any, prep: FillPreparer, docid: str) -> Any:
    """The item ``Mapper._view`` makes of a plain slot's one fill: a text fill prepared, a pointer as it is."""
    return prep.prepare(fill, docid) if fill.__class__ is TextFill else fill


# What follows the document in the entries of the usual pairs, up to their "ref"
_CONTENT_COR = ', "kind": "content", "category": "COR", "ref": '
_EXTENT_COR = ', "kind": "extent", "category": "COR", "ref": '
_MIS = (', "kind": "content", "category": "MIS", "ref": ', ', "kind": "extent", "category": "MIS", "ref": ')
_POINTER_COR = ', "kind": "pointer", "category": "COR", "ref": '
_BOTH_MIS = layout_points((("content", "MIS"), ("extent", "MIS")))  # a reference text fill left over
_MISSED = unpaired_reason_json("MIS")


class _Plans(dict[tuple[str, int], tuple[tuple[Any, ...], ...]]):
    """The fill pairs of each (type, signature) of a mapper's :class:`Layouts`, each with the
    JSON of its slot (:meth:`slot`); neither depends on the document."""

    def __init__(self, layouts: Any) -> None:
        super().__init__()
        self.layouts = layouts
        self.slots: dict[tuple[str, str], tuple[str, str]] = {}

    def slot(self, type_name: str, name: str) -> tuple[str, str]:
        """What starts an entry of the slot, up to its document (``{"slot": "T.S", "document": ``),
        and the slot's name with the key of a fill (``"slot": "S", "fill": ``)."""
        known = self.slots.get((type_name, name))
        if known is None:
            known = self.slots[type_name, name] = (
                f'{{"slot": {_encode_string(f"{type_name}.{name}")}, "document": ',
                f'"slot": {_encode_string(name)}, "fill": ',
            )
        return known

    def make(self, type_name: str, signature: int) -> tuple[tuple[Any, ...], ...]:
        plan = self[type_name, signature] = tuple(
            (name, side, points, *self.slot(type_name, name)) for name, side, points in self.layouts[signature]
        )
        return plan


def _entries(
    append: Callable[[str], None],
    head: str,
    slot_json: str,
    ref_start: str,
    hyp_start: str,
    ref_item: Any,
    hyp_item: Any,
    points: tuple[Any, ...],
    mapping: Any,
    how: TextComparison,
) -> None:
    """The entries of one fill pair of a counted run (see :func:`_run_entries`; ``head``: what
    starts them, up to the document): its points given as the verdicts of a match record
    (``mapping`` None), or as (kind, category)."""
    ref_fill = ref_item.fill if ref_item.__class__ is PreparedFill else ref_item
    hyp_fill = hyp_item.fill if hyp_item.__class__ is PreparedFill else hyp_item
    ref = "null" if ref_fill is None else f'{ref_start}{slot_json}{_fill_json(ref_fill)}, "line": {ref_fill.line}}}'
    hyp = "null" if hyp_fill is None else f'{hyp_start}{slot_json}{_fill_json(hyp_fill)}, "line": {hyp_fill.line}}}'
    fills = f'", "ref": {ref}, "hyp": {hyp}, "reason": '
    if mapping is None:
        for verdict in points:
            append(
                f'{head}, "kind": "{verdict.kind}", "category": "{verdict.category}{fills}'
                f'{reason_json(verdict)}, "cause": null}}'
            )
        return
    for kind, category in points:
        reason = _counted_reason(kind, category, ref_item, hyp_item, mapping, how)
        append(f'{head}, "kind": "{kind}", "category": "{category}{fills}{reason}, "cause": null}}')


def _counted_reason(kind: str, category: str, ref_item: Any, hyp_item: Any, mapping: Any, how: TextComparison) -> str:
    """The reason, as JSON, of a point given as (kind, category) of a count, made from the
    pair's two items (a fill left over: one is None) and the count's instance ``mapping``."""
    if ref_item is None or hyp_item is None:
        return unpaired_reason_json(category, ref_item or hyp_item if kind == "pointer" else None)
    if kind == "pointer":
        return pointer_reason_json(ref_item, hyp_item, mapping.get(ref_item.key))
    return text_reason_json(kind, category == "COR", ref_item, hyp_item, how)


class StoredPiece(NamedTuple):
    """A piece of an output already written to a file, in UTF-8: copied into the
    output as bytes (:func:`write_text`), not read back as text."""

    path: str

    def text(self) -> str:
        with open(self.path, encoding="utf-8", newline="\n") as handle:
            return handle.read()


Piece = str | StoredPiece
"""A piece of an output: text, or text already written to a file."""


def point_entries(result: ScoreResult) -> Iterator[str]:
    """The JSON entry of every point, in order: made from the mapping, or read back
    from the files of a result scored in groups of documents (:func:`write_point_file`),
    then the entries of one file at a time, already joined as :func:`iter_json_text` joins them."""
    for piece in _point_pieces(result):
        yield piece if isinstance(piece, str) else piece.text()


def _point_pieces(result: ScoreResult) -> Iterator[Piece]:
    """:func:`point_entries`, a group's file given as a :class:`StoredPiece`."""
    if result.tally is None:
        yield from _point_entries(result)
        return
    for path in result.tally.point_files:
        if os.path.getsize(path):
            yield StoredPiece(path)


class PointFileWriter:
    """Writes the JSON entries of a result's points into a file, joined as :func:`iter_json_text`
    joins them, for :func:`point_entries` to copy into the output (``write_point_file``).

    Called with a result that holds its mapping (``writer(result, path)``), it writes the
    entries of its match records. A group of documents scored for counts only
    (:mod:`hub4eval.parallel`) has no match records: :meth:`runs` gives what the mapper
    calls with each run of instance sets it has just counted, and the entries are written
    from the compact output (:mod:`hub4eval.scoring.counted_points`), while the run's
    prepared fills are at hand.
    """

    def __call__(self, result: ScoreResult, path: str) -> None:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            separator = ""
            for batch in _entry_batches(result.iter_fill_pairs(), result.attributor):
                handle.write(separator)
                handle.write(_ENTRY_SEPARATOR.join(batch))
                separator = _ENTRY_SEPARATOR

    def head(self, tally: Tally, beta: float) -> HeadPieces:
        """A group's by-document rows and mapping as JSON (see :class:`HeadPieces`)."""
        return HeadPieces.of(tally, beta)

    def runs(self, path: str) -> RunWriter:
        """A writer of the entries of counted runs into ``path`` (closed by its caller)."""
        return RunWriter(path)

    def __reduce__(self) -> str:
        return "write_point_file"  # the module's one instance, also in a spawned worker


write_point_file = PointFileWriter()


class RunWriter:
    """The entries of each counted run it is called with, written into one file in order."""

    def __init__(self, path: str) -> None:
        self.handle = open(path, "wb")  # noqa: SIM115 - closed by close(), after the last run
        self.separator = b""
        self.plans: _Plans | None = None  # of the runs' mapper, kept from run to run

    def __call__(self, run: CountedRun) -> None:
        if self.plans is None or self.plans.layouts is not run.layouts:
            self.plans = _Plans(run.layouts)
        self.entries: list[str] = []
        _run_entries(run, self.entries.append, self.plans, self._spill)
        self._spill(0)

    def _spill(self, at_least: int | None = None) -> None:
        """Write the entries made so far, once there are ``at_least``: joined and written
        about :data:`_BATCH` at a time (between two instance sets), not a run's at once
        (tens of megabytes, whose text and bytes made at once took more than writing
        them: fresh memory each time, out of the processor's cache)."""
        entries = self.entries
        if not entries or len(entries) < (_BATCH if at_least is None else at_least):
            return
        self.handle.write(self.separator)
        self.handle.write(_ENTRY_SEPARATOR.join(entries).encode())
        self.separator = _SEPARATOR_BYTES
        entries.clear()

    def close(self) -> None:
        self.handle.close()


def iter_json_text(result: ScoreResult, extra: dict[str, Any] | None = None) -> Iterator[str]:
    """The §9 JSON in pieces: one top-level key per line, one entry of each table or list per line.

    Keys keep the file order. Entries are written with the C encoder (the
    indenting encoder is pure Python and took seconds per million points),
    and the points are streamed, never all held as dictionaries at once.
    """
    for piece in json_pieces(result, extra):
        yield piece if isinstance(piece, str) else piece.text()


def json_pieces(result: ScoreResult, extra: dict[str, Any] | None = None) -> Iterator[Piece]:
    """:func:`iter_json_text`, the points of a group of documents given as the file they
    were written to (a :class:`StoredPiece`), for :func:`write_text` to copy as bytes."""

    dump = _ENTRY_ENCODER.encode

    def entries(key: str, values: Iterable[Piece], opening: str, closing: str) -> Iterator[Piece]:
        yield f"  {dump(key)}: {opening}"
        first = True
        for value in values:
            if isinstance(value, str):
                yield ("\n    " if first else _ENTRY_SEPARATOR) + value
            else:
                yield "\n    " if first else _ENTRY_SEPARATOR
                yield value
            first = False
        yield f"\n  {closing}" if not first else closing

    heads = _group_heads(result, extra)
    data = result.to_json(points=False, left_out=("by_document", "mapping") if heads is not None else ())
    data.update(extra or {})
    keys = list(data)
    keys.insert(keys.index("mapping") + 1, "points")
    yield "{\n"
    for n, key in enumerate(keys):
        if n:
            yield ",\n"
        if key == "points":
            yield from entries(key, _point_pieces(result), "[", "]")
            continue
        if heads is not None and key == "by_document":
            yield from entries(key, (head.by_document for head in heads if head.documents), "{", "}")
            continue
        if heads is not None and key == "mapping":
            lists = [
                ", ".join([text for head in heads if (text := getattr(head, name))])
                for name in ("instance_sets", "instances", "instance_f")
            ]
            yield f'  "mapping": {{"instance_sets": [{lists[0]}], "instances": [{lists[1]}], "instance_f": [{lists[2]}]}}'
            continue
        value = data[key]
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            yield from entries(key, (f"{dump(k)}: {dump(v)}" for k, v in value.items()), "{", "}")
        elif isinstance(value, list) and value:
            yield from entries(key, (dump(v) for v in value), "[", "]")
        else:
            yield f"  {dump(key)}: {dump(value)}"
    yield "\n}\n"


class HeadPieces(NamedTuple):
    """The by-document rows and the mapping's three lists of a group of documents as JSON,
    as :func:`json_pieces` writes them of the whole result: made in the group's worker
    (:meth:`PointFileWriter.head`), so that the process that joins the groups only joins
    these strings (a large run's are megabytes, which it encoded alone at the end)."""

    documents: int  # rows in by_document
    by_document: str  # its rows, joined as iter_json_text joins the entries of a table
    instance_sets: str  # the entries of each list, joined as the encoder joins them
    instances: str
    instance_f: str

    @classmethod
    def of(cls, tally: Tally, beta: float) -> HeadPieces:
        dump = _ENTRY_ENCODER.encode
        rows = tally.levels["document"]
        # the lists' entries as the encoder writes them (a key or null; an F as float.__repr__
        # writes it), each an f-string rather than a call of the encoder: a hundred thousand a run
        key: dict[str | None, str] = {None: "null"}
        for docid, docid_json in zip(rows, map(_encode_string, rows), strict=True):
            key[docid] = docid_json
        sets = []
        for ref, hyp in tally.set_pairs:
            ref_json = key.get(ref) or key.setdefault(ref, _encode_string(ref))  # type: ignore[arg-type]
            hyp_json = key.get(hyp) or key.setdefault(hyp, _encode_string(hyp))  # type: ignore[arg-type]
            sets.append(f"[{ref_json}, {hyp_json}]")
        mapped: list[str] = []
        every: list[str] = []
        for ref, hyp, f in tally.instance_pairs:
            ref_json = "null" if ref is None else _encode_string(ref)
            hyp_json = "null" if hyp is None else _encode_string(hyp)
            if ref and hyp:
                mapped.append(f"[{ref_json}, {hyp_json}]")
            f_json = "null" if f is None else _float_repr(f) if f.__class__ is float and f - f == 0 else dump(f)
            every.append(f"[{ref_json}, {hyp_json}, {f_json}]")
        counted: dict[Counts, str] = {}  # a document's counts as JSON, by value (many documents count alike)
        lines = []
        for docid, counts in rows.items():
            text = counted.get(counts)
            if text is None:
                text = counted[counts] = dump(counts.as_dict(beta))
            lines.append(f"{key[docid]}: {text}")
        return cls(
            len(rows),
            _ENTRY_SEPARATOR.join(lines),
            ", ".join(sets),
            ", ".join(mapped),
            ", ".join(every),
        )


def _group_heads(result: ScoreResult, extra: dict[str, Any] | None) -> tuple[HeadPieces, ...] | None:
    """The :class:`HeadPieces` of every group of a result scored in groups, when they give its
    by-document rows and mapping (every group made them, and no document is in two groups,
    whose rows the join adds up); None otherwise."""
    tally = result.tally
    if tally is None or tally.json_heads is None or (extra and ("by_document" in extra or "mapping" in extra)):
        return None
    heads: tuple[HeadPieces, ...] = tally.json_heads
    if sum(head.documents for head in heads) != len(tally.levels["document"]):
        return None
    return heads


def to_json_text(result: ScoreResult, extra: dict[str, Any] | None = None) -> str:
    """The whole §9 JSON as one string (see :func:`iter_json_text`)."""
    return "".join(iter_json_text(result, extra))


def write_text(text: str | Iterable[Piece], path: str) -> None:
    """Write text (or its pieces) to ``path``, or to standard output for ``-``.

    A file is written whole or not at all (:func:`hub4eval.util.atomic.replaced_whole`):
    a failure midway leaves the file that was there before.
    """
    pieces = [text] if isinstance(text, str) else text
    if path == "-":
        _write_batched(pieces, sys.stdout)
        sys.stdout.flush()  # a full disk or closed pipe is met here, by the caller that can report it
        return
    with replaced_whole(path) as handle:
        _write_batched(pieces, handle)


def _write_batched(pieces: Iterable[Piece], handle: TextIO, size: int = 4096) -> None:
    """Write ``pieces`` joined ``size`` at a time: a write per piece cost more
    than the writing itself for the million small pieces of a large --json."""
    batch: list[str] = []
    for piece in pieces:
        if not isinstance(piece, str):
            handle.write("".join(batch))
            batch.clear()
            _copy_stored(piece, handle)
            continue
        if len(piece) > 1 << 16:  # a large piece is written at once, never held in a batch
            handle.write("".join(batch))
            batch.clear()
            handle.write(piece)
            continue
        batch.append(piece)
        if len(batch) >= size:
            handle.write("".join(batch))
            batch.clear()
    handle.write("".join(batch))


def _copy_stored(piece: StoredPiece, handle: TextIO) -> None:
    """Copy a stored piece into ``handle``: its bytes as they are, by the kernel when
    both are files (a group's points are tens of megabytes), else through memory; read
    as text when ``handle`` does not write UTF-8 with line ends as they are."""
    raw = getattr(handle, "buffer", None)
    if raw is None or os.linesep != "\n" or codecs.lookup(handle.encoding).name != "utf-8":
        handle.write(piece.text())
        return
    handle.flush()
    raw.flush()
    with open(piece.path, "rb") as source:
        try:
            target = raw.fileno()
        except (OSError, ValueError):  # not a file (an in-memory stream)
            target = -1
        if target >= 0:
            size = os.fstat(source.fileno()).st_size
            offset = 0
            try:
                while offset < size:
                    sent = os.sendfile(target, source.fileno(), offset, size - offset)
                    if sent == 0:
                        break
                    offset += sent
            except OSError as error:
                if offset or error.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EBADF):
                    raise  # a full disk or a closed pipe, reported by the caller
            else:
                if offset == size:
                    return
            source.seek(offset)
        shutil.copyfileobj(source, raw, 1 << 20)
        raw.flush()


# A cell that starts with one of these is a formula to a spreadsheet (CSV
# injection); '\t' and '\r' too, as OWASP's guidance on CSV injection says.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """``text`` made safe for a spreadsheet: a leading ``'`` when it starts like a formula.

    Type and slot names come from the input files: ``=HYPERLINK(...)`` as a
    type name must not become a live formula when the CSV is opened.
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def to_csv_text(result: ScoreResult) -> str:
    """One row per slot (TYPE.SLOT), then one per type and the overall row.

    Names that start like a spreadsheet formula get a leading ``'`` (:func:`csv_cell`).
    """
    beta = result.config.beta
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["level", "name", *COLUMNS])

    def rows(level: str, items: Iterable[tuple[str, Counts]]) -> None:
        for name, counts in items:
            values: dict[str, Any] = counts.as_dict(beta)
            writer.writerow(
                [level, csv_cell(name)]
                + [values[c] for c in COUNT_COLUMNS]
                + ["" if values[m] is None else f"{values[m]:.6f}" for m in METRICS]
            )

    rows("slot", result.by("slot").items())
    rows("type", result.by("type").items())
    rows("all", [("ALL", result.total)])
    return buffer.getvalue()
