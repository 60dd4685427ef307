"""The data of the HTML report: every point as columns of numbers, coded small, embedded in the page.

:mod:`hub4eval.report.html` writes the page; this module makes what the page
renders on demand, codes it, and reads it back (:func:`read_embedded`, for
tests and tools). The data is one JSON object in a
``<script type="application/json">`` block:

* string tables (``inst``, ``words``) hold each distinct
  string once, points refer to them by index; ``fills`` holds each fill of
  a fill pair once, in pair order, and a hypothesis fill written as its
  reference fill (the usual correct answer) shares its entry: fills are
  rarely alike across pairs (their extents differ), and making the table
  this way spares hashing a million texts;
* points are columns (one array per field). Indices that mostly grow by one
  are delta-coded (``doc``, instances, lines), fills, reasons and their fields
  are "fresh" coded: ``-1`` takes the next new string of the table, ``-1 - d`` (d from 1
  to 16) repeats the string d places before that next new one (the content
  and extent points of a fill pair show the same fills), ``n >= 0`` repeats
  string ``n``. Reference fields are listed only for the points that have a
  reference fill (``side`` & 1), hypothesis fields for those with a
  hypothesis fill (``side`` & 2);
* a reason is a template (``reasons``, each distinct one once) and its fields:
  the template ``{0} is mapped to {1}`` with the fields ``REF-1`` and
  ``HYP-3`` reads "REF-1 is mapped to HYP-3". ``reasonArity[t]`` is the
  number of fields of template ``t`` (a template without fields is shown as
  it is, braces and all); the point column ``field`` lists the fields of
  every point, one after the other, as indices into the string table
  ``fields``. A million reasons are some fifteen templates: the texts they
  name are sent once each, not inside a million distinct sentences;
* when the JSON would be large, the data is deflated (zlib) and
  base64-encoded (``data-encoding="deflate-base64"``); the page inflates it
  with the browser's ``DecompressionStream``. The inflated bytes are the
  JSON's length (4 bytes, little-endian), the JSON (UTF-8), then the point
  columns as little-endian typed arrays, each at an offset that is a multiple
  of 4 from the first multiple of 4 after the JSON; in the JSON each column
  is ``{"type": "Int8"|"Int16"|"Int32"|"Float64", "offset", "length"}``
  (the narrowest type that holds it). Encoding a million points' columns as
  JSON numbers took longer than all the rest of the report; as bytes they
  take milliseconds, and the page views them in place, without parsing
  (typed arrays read the machine's byte order: little-endian on every
  platform browsers run on). Small reports hold the JSON as is, columns as
  arrays of numbers.

The data is made in two steps: :func:`point_columns` gives every point as
plain indices into its tables (:class:`PointColumns`), and
:func:`report_data` codes them as above. A result scored in groups of
documents (``--jobs``) has no mapping: each group wrote its columns in its
worker (:func:`write_point_columns`), and :func:`join_columns` puts them
together in the order of the whole run, so the report is the same, byte for
byte, as the report of the whole files.
"""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from itertools import chain, compress, repeat
from operator import attrgetter, is_not, itemgetter
from typing import Any

import numpy as np

from hub4eval.model import Instance
from hub4eval.report.explain import GAP, aligned_context, cause_note
from hub4eval.report.tables import COUNT_COLUMNS, percent
from hub4eval.scoring.metrics import CATEGORIES, METRICS, Counts
from hub4eval.scoring.points import fill_text
from hub4eval.scoring.result import ScoreResult
from hub4eval.scoring.verdicts import Reason, Verdict

COMPRESS_ABOVE = 1 << 20
"""Data larger than this (characters of JSON) is embedded deflated (``compress=None``)."""

_ZLIB_LEVEL = 1  # 10,000 documents: see "HTML report benchmark" in benchmarks/RESULTS.md

KINDS = ("pointer", "content", "extent")


def row_cells(counts: Counts, beta: float) -> list[str]:
    """The cells of a table row: the counts, then the metrics in percent."""
    values = counts.as_dict(beta)
    return [str(values[c]) for c in COUNT_COLUMNS] + [percent(values[m]) for m in METRICS]


def _delta(values: Sequence[int] | np.ndarray) -> np.ndarray:
    """Differences from the previous value (the first from 0)."""
    return np.diff(np.asarray(values, dtype=np.int64), prepend=0)


class _Strings:
    """A string table: each distinct string once, in first-seen order."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def get(self, text: str) -> int:
        index = self.index.get(text)
        if index is None:
            index = self.index[text] = len(self.index)
        return index

    def table(self) -> list[str]:
        return list(self.index)


def _context_code(context: Any, words: _Strings) -> list[int]:
    """``[n, ref words, hyp words, codes]``: see ``contextTable`` in assets/report.js."""
    codes = []
    for kind, on_ref, on_hyp in zip(context.kinds, context.ref_marked, context.hyp_marked, strict=True):
        code = 2 if kind == GAP else (0 if kind == 0 else 1)  # 0: match; else substitution, deletion, insertion
        codes.append(code | (4 if on_ref else 0) | (8 if on_hyp else 0))
    return [
        len(codes),
        *(words.get(w) for w in context.ref_words),
        *(words.get(w) for w in context.hyp_words),
        *codes,
    ]


def _index(values: Iterable[Any]) -> tuple[list[Any], list[int]]:
    """(distinct values in first-seen order, each value's index in that table)."""
    position: dict[Any, int] = {}
    codes = [position.setdefault(value, len(position)) for value in values]  # one hash per value
    return list(position), codes


def _first_seen(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(position of the first of each distinct code, in first-seen order; each code's rank in that order)."""
    if not codes.size:
        return codes, codes
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return first[order], rank[inverse.reshape(-1)]


def _fresh(indices: Sequence[int] | np.ndarray) -> np.ndarray:
    """Indices into a first-seen-order table, "fresh" coded (see the module docstring).

    ``-1``: the next new string; ``-1 - d`` (d = 1.._BACK): the string d places
    before the next new one (a fill repeated by the next point); ``n >= 0``: string n.
    """
    codes = np.asarray(indices, dtype=np.int64)
    if not codes.size:
        return codes
    following = np.maximum.accumulate(np.concatenate(([-1], codes[:-1]))) + 1  # index of the next new string
    distance = following - codes
    return np.where(distance <= _BACK, -1 - distance, codes)


_BACK = 16


def _reason(result: ScoreResult, point: Any) -> str:
    """A point's reason, and what its error was lost to (texts differ)."""
    if point.cause is None:
        return point.reason
    note = cause_note(result, point)
    return f"{point.reason}; lost to {point.cause}" + (f": {note}" if note else "")


def _given(values: Sequence[Any]) -> np.ndarray:
    """Which values are not None."""
    return np.fromiter(map(is_not, values, repeat(None)), bool, len(values))


def _instance_codes(instances: Sequence[Instance], keys: dict[str, int]) -> np.ndarray:
    """Each instance's index in ``keys`` (its key added when new, in first-seen order).

    An instance's fill pairs come one after the other (one per slot): its key is
    made once per run of pairs.
    """
    if not instances:
        return np.zeros(0, dtype=np.int64)
    ids = np.fromiter(map(id, instances), np.int64, len(instances))
    starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    codes = []
    for position in starts.tolist():
        codes.append(keys.setdefault(instances[position].key, len(keys)))
    return np.repeat(np.asarray(codes, dtype=np.int64), np.diff(np.append(starts, len(instances))))


_KIND_CATEGORY = {
    (kind, category): k * len(CATEGORIES) + c for k, kind in enumerate(KINDS) for c, category in enumerate(CATEGORIES)
}


@dataclass
class PointColumns:
    """Every point of a result as columns of plain indices into its tables, before the page's
    coding (:func:`report_data` codes them): what a group of documents scored in a worker gives
    back (:func:`write_point_columns`), to be joined with the others' (:func:`join_columns`).

    Reference fields (``ref_inst``, ``ref_fill``, ``ref_line``) have one entry per point that has
    a reference fill (``side & 1``), hypothesis fields one per point with a hypothesis fill; the
    first ``ref_insts`` entries of ``inst`` are the reference instances, in first-seen order,
    then the hypothesis ones. ``field`` lists every point's fields one after the other
    (``arity[reason]`` each). Contexts (``ctx``, ``contexts``, ``words``) exist only when texts
    differ, which is never scored in groups.
    """

    slots: list[tuple[str, str]]  # (type, slot)
    slot: np.ndarray
    docs: list[str]
    doc: np.ndarray
    inst: list[str]
    ref_insts: int
    ref_inst: np.ndarray
    hyp_inst: np.ndarray
    side: np.ndarray  # 1: a reference fill, 2: a hypothesis fill, 3: both
    kind: np.ndarray
    cat: np.ndarray
    fills: list[str]
    ref_fill: np.ndarray
    hyp_fill: np.ndarray
    ref_line: np.ndarray
    hyp_line: np.ndarray
    reasons: list[str]
    arity: list[int]
    reason: np.ndarray
    fields: list[str]
    field: np.ndarray
    ctx: np.ndarray | None = None
    contexts: list[list[int]] = dataclass_field(default_factory=list)
    words: list[str] = dataclass_field(default_factory=list)


def point_columns(result: ScoreResult, around: int = 4) -> PointColumns:
    """The points of a result that keeps its mapping, as columns (see :class:`PointColumns`).

    Args:
        result: the scored result.
        around: words of aligned context on each side of a fill (texts differ).
    """
    # A million points share half a million fill pairs (in the points' order): what a pair's points
    # share is made once per pair and repeated with numpy, tables are indexed with numpy where the
    # values are small integers, and no Point is made (see "HTML report benchmark" in benchmarks/RESULTS.md).
    pairs = list(result.iter_fill_pairs())
    columns = tuple(zip(*pairs, strict=True)) if pairs else ((),) * 8
    ref_fills: Sequence[Any]  # every pair's, then those of the pairs that list them
    hyp_fills: Sequence[Any]
    docids, types, slot_names, ref_insts, hyp_insts, ref_fills, hyp_fills, verdicts = columns
    n_pairs = len(pairs)
    del pairs, columns
    per_pair = np.fromiter(map(len, verdicts), dtype=np.int64, count=n_pairs)  # points of each pair
    flat = list(chain.from_iterable(verdicts))
    n_points = len(flat)
    # TYPE.SLOT in first-seen order: type and slot names are few, their pairs numbered with numpy.
    _, type_codes = _index(types)
    name_table, name_codes = _index(slot_names)
    slot_first, slot_codes = _first_seen(
        np.asarray(type_codes, dtype=np.int64) * max(1, len(name_table)) + np.asarray(name_codes, dtype=np.int64)
    )
    slot_keys = [(types[k], slot_names[k]) for k in slot_first.tolist()]
    docs, doc_codes = _index(docids)
    # A side is listed when the pair has both its fill and its instance.
    has_ref = _given(ref_fills) & _given(ref_insts)
    has_hyp = _given(hyp_fills) & _given(hyp_insts)
    ref_fills = list(compress(ref_fills, has_ref))
    hyp_fills = list(compress(hyp_fills, has_hyp))
    inst_index: dict[str, int] = {}  # reference instances first, then hypothesis ones
    ref_inst_codes = _instance_codes(list(compress(ref_insts, has_ref)), inst_index)
    ref_count = len(inst_index)
    hyp_inst_codes = _instance_codes(list(compress(hyp_insts, has_hyp)), inst_index)
    ref_repeat, hyp_repeat = per_pair[has_ref], per_pair[has_hyp]
    # Reference and hypothesis fills share one table, the reference first within a pair: each fill
    # is a new entry, but a hypothesis fill written as its reference fill (the usual correct answer)
    # repeats it. Fills are rarely alike across pairs (their extents differ), so the table holds
    # nearly each distinct text once without hashing a million strings (0.3 s).
    ref_text = np.full(n_pairs, None, dtype=object)
    hyp_text = np.full(n_pairs, None, dtype=object)
    ref_text[has_ref] = list(map(fill_text, ref_fills))
    hyp_text[has_hyp] = list(map(fill_text, hyp_fills))
    same = has_ref & has_hyp & (ref_text == hyp_text).astype(bool)
    texts = np.column_stack((ref_text, hyp_text)).ravel()
    new = np.column_stack((has_ref, has_hyp & ~same)).ravel()
    fills = texts[new].tolist()
    entry = (np.cumsum(new) - 1).reshape(-1, 2)
    ref_code = entry[:, 0][has_ref]
    hyp_code = np.where(same, entry[:, 0], entry[:, 1])[has_hyp]
    kind_category = np.fromiter(
        map(_KIND_CATEGORY.__getitem__, map(attrgetter("kind", "category"), flat)), np.int64, n_points
    )
    if result.alignment is None:
        reasons, arity, reason_codes, field_table, field_codes = _reason_columns(Verdict.parts_of(flat))
        ctx: np.ndarray | None = None
        contexts: list[list[int]] = []
        words = _Strings()
    else:
        reasons, reason_codes, ctx_col, contexts, words = _aligned_columns(result, around)
        arity, field_table, field_codes = [0] * len(reasons), [], []
        ctx = np.asarray(ctx_col, dtype=np.int64)
    del flat, verdicts
    return PointColumns(
        slots=slot_keys,
        slot=np.repeat(slot_codes, per_pair),
        docs=docs,
        doc=np.repeat(np.asarray(doc_codes, dtype=np.int64), per_pair),
        inst=list(inst_index),
        ref_insts=ref_count,
        ref_inst=np.repeat(ref_inst_codes, ref_repeat),
        hyp_inst=np.repeat(hyp_inst_codes, hyp_repeat),
        side=np.repeat(has_ref + 2 * has_hyp.astype(np.int64), per_pair),
        kind=kind_category // len(CATEGORIES),
        cat=kind_category % len(CATEGORIES),
        fills=fills,
        ref_fill=np.repeat(ref_code, ref_repeat),
        hyp_fill=np.repeat(hyp_code, hyp_repeat),
        ref_line=np.repeat(np.fromiter(map(attrgetter("line"), ref_fills), np.int64, len(ref_fills)), ref_repeat),
        hyp_line=np.repeat(np.fromiter(map(attrgetter("line"), hyp_fills), np.int64, len(hyp_fills)), hyp_repeat),
        reasons=reasons,
        arity=arity,
        reason=np.asarray(reason_codes, dtype=np.int64),
        fields=field_table,
        field=np.asarray(field_codes, dtype=np.int64),
        ctx=ctx,
        contexts=contexts,
        words=words.table(),
    )


def _remap(table: list[Any], index: dict[Any, int]) -> np.ndarray:
    """Each entry's position in ``index``, added when new (first-seen order)."""
    return np.fromiter((index.setdefault(value, len(index)) for value in table), np.int64, len(table))


def _taken(codes: np.ndarray, remap: np.ndarray) -> np.ndarray:
    return remap[codes] if codes.size else codes


def join_columns(parts: Sequence[PointColumns]) -> PointColumns:
    """The columns of groups of documents (in the order of the whole run) as one, exactly as
    :func:`point_columns` gives them for the whole run: tables that hold each value once
    (slots, documents, instances, reasons, fields) are joined in first-seen order, the
    fills one after the other."""
    if any(part.ctx is not None for part in parts):
        raise ValueError("the points of texts that differ are never scored in groups")
    slots: dict[tuple[str, str], int] = {}
    docs: dict[str, int] = {}
    reasons: dict[str, int] = {}
    fields: dict[str, int] = {}
    inst: dict[str, int] = {}
    # every group's reference instances first, then its hypothesis ones, as the whole run lists them
    inst_remaps = [_remap(part.inst[: part.ref_insts], inst) for part in parts]
    ref_count = len(inst)
    inst_remaps = [
        np.concatenate((remap, _remap(part.inst[part.ref_insts :], inst)))
        for remap, part in zip(inst_remaps, parts, strict=True)
    ]
    arity: list[int] = []
    columns: dict[str, list[np.ndarray]] = {name: [] for name in _JOINED}
    offset = 0
    for part, inst_remap in zip(parts, inst_remaps, strict=True):
        known = len(reasons)
        reason_remap = _remap(part.reasons, reasons)
        arity += [a for a, code in zip(part.arity, reason_remap.tolist(), strict=True) if code >= known]
        joined = {
            "slot": _taken(part.slot, _remap(part.slots, slots)),
            "doc": _taken(part.doc, _remap(part.docs, docs)),
            "ref_inst": _taken(part.ref_inst, inst_remap),
            "hyp_inst": _taken(part.hyp_inst, inst_remap),
            "side": part.side,
            "kind": part.kind,
            "cat": part.cat,
            "ref_fill": part.ref_fill + offset,
            "hyp_fill": part.hyp_fill + offset,
            "ref_line": part.ref_line,
            "hyp_line": part.hyp_line,
            "reason": _taken(part.reason, reason_remap),
            "field": _taken(part.field, _remap(part.fields, fields)),
        }
        for name, values in joined.items():
            columns[name].append(values)
        offset += len(part.fills)
    empty = np.zeros(0, dtype=np.int64)
    joined_columns: dict[str, Any] = {
        name: np.concatenate(values) if values else empty for name, values in columns.items()
    }
    return PointColumns(
        slots=list(slots),
        docs=list(docs),
        inst=list(inst),
        ref_insts=ref_count,
        fills=list(chain.from_iterable(part.fills for part in parts)),
        reasons=list(reasons),
        arity=arity,
        fields=list(fields),
        **joined_columns,
    )


_JOINED = (
    "slot", "doc", "ref_inst", "hyp_inst", "side", "kind", "cat",
    "ref_fill", "hyp_fill", "ref_line", "hyp_line", "reason", "field",
)  # fmt: skip


def write_point_columns(result: ScoreResult, path: str) -> None:
    """Write the :class:`PointColumns` of a group's result to ``path`` (for :func:`to_html`)."""
    columns = point_columns(result)
    narrow = {name: getattr(columns, name).astype(np.int32) for name in _JOINED}  # half the bytes to write
    with open(path, "wb") as handle:
        pickle.dump(replace(columns, **narrow), handle, protocol=pickle.HIGHEST_PROTOCOL)


def _read_point_columns(paths: Sequence[str]) -> PointColumns:
    parts = []
    for path in paths:
        with open(path, "rb") as handle:
            parts.append(pickle.load(handle))  # our own file, written by write_point_columns
    return join_columns(parts)


def result_columns(result: ScoreResult, around: int = 4) -> PointColumns:
    """The point columns of a result: made from its mapping, or read from the files its groups
    of documents wrote (:func:`write_point_columns`)."""
    if result.tally is None:
        return point_columns(result, around)
    if not result.tally.column_files and result.tally.points:
        raise ValueError("a result scored in groups keeps its points for the HTML report only when asked to")
    return _read_point_columns(result.tally.column_files)


def report_data(result: ScoreResult, around: int = 4) -> dict[str, Any]:
    """The data the page renders on demand (see the module docstring for its coding).

    Args:
        result: the scored result.
        around: words of aligned context on each side of a fill (texts differ).
    """
    beta = result.config.beta
    c = result_columns(result, around)
    n_points = len(c.side)
    type_names, type_of_slot = _index(t for t, _ in c.slots)
    # Each point lists its fills again, reference first: one fresh-coded column for both sides.
    has_ref, has_hyp = (c.side & 1).astype(bool), (c.side & 2).astype(bool)
    both = np.full((n_points, 2), -1, dtype=np.int64)
    both[has_ref, 0] = c.ref_fill
    both[has_hyp, 1] = c.hyp_fill
    point_fills = both.ravel()
    listed = point_fills >= 0
    fill_fresh = _fresh(point_fills[listed])
    point_is_ref = np.tile(np.array([True, False]), n_points)[listed]
    points_data: dict[str, Any] = {
        "n": n_points,
        "slot": c.slot,
        "kind": c.kind,
        "cat": c.cat,
        "side": c.side,
        "doc": _delta(c.doc),
        "refInst": _delta(c.ref_inst),
        "refFill": fill_fresh[point_is_ref],
        "refLine": _delta(c.ref_line),
        "hypInst": _delta(c.hyp_inst),
        "hypFill": fill_fresh[~point_is_ref],
        "hypLine": _delta(c.hyp_line),
        "reason": _fresh(c.reason),
        "field": _fresh(c.field),
    }
    if c.ctx is not None:
        points_data["ctx"] = c.ctx
    # The instance mapping, as result.instance_pairs() gives it: the mapping may name instances
    # without points, added after those of the points.
    inst_index = {key: k for k, key in enumerate(c.inst)}
    mapping: list[Any] = []
    for ref, hyp, f in result.instance_pairs():
        mapping.append(-1 if ref is None else inst_index.setdefault(ref, len(inst_index)))
        mapping.append(-1 if hyp is None else inst_index.setdefault(hyp, len(inst_index)))
        mapping.append(percent(f) if ref is not None and hyp is not None else None)
    return {
        "version": 1,
        "slots": [f"{t}.{s}" for t, s in c.slots],
        "types": type_names,
        "slotType": type_of_slot,
        "categories": list(CATEGORIES),
        "kinds": list(KINDS),
        "docs": c.docs,
        "inst": list(inst_index),
        "fills": c.fills,
        "reasons": c.reasons,
        "reasonArity": c.arity,
        "fields": c.fields,
        "words": c.words,
        "points": points_data,
        "contexts": c.contexts,
        "documents": {
            "columns": [*COUNT_COLUMNS, *METRICS],
            "lowFirst": ["REC", "PRE", "F"],
            "rows": [[name, *row_cells(counts, beta)] for name, counts in result.by("document").items()],
            "total": ["ALL", *row_cells(result.total, beta)],
        },
        "setMapping": [list(pair) for pair in result.instance_set_pairs()],
        "mapping": mapping,
    }


def _reason_columns(parts: list[Reason]) -> tuple[list[str], list[int], list[int], list[str], list[int]]:
    """(templates, each template's number of fields, each point's template, fields, the points' fields
    one after the other) of the points' reasons given as templates and fields."""
    templates, template_codes = _index(map(itemgetter(0), parts))
    first, _ = _first_seen(np.asarray(template_codes, dtype=np.int64))
    arity = [len(parts[k][1]) for k in first.tolist()]
    fields, field_codes = _index(chain.from_iterable(map(itemgetter(1), parts)))
    return templates, arity, template_codes, fields, field_codes


def _aligned_columns(
    result: ScoreResult, around: int
) -> tuple[list[str], list[int], list[int], list[list[int]], _Strings]:
    """(reasons, each point's reason, each point's context or -1, contexts, words) when texts differ:
    a reason names what an error was lost to, and the context shows the aligned words (both read
    the points, which carry their cause)."""
    reason_texts: list[str] = []
    ctx_col: list[int] = []
    contexts: list[list[int]] = []
    words = _Strings()
    for point in result.iter_points():
        reason_texts.append(_reason(result, point))
        context = aligned_context(result, point, around)
        if context is None:
            ctx_col.append(-1)
        else:
            ctx_col.append(len(contexts))
            contexts.append(_context_code(context, words))
    reasons, reason_codes = _index(reason_texts)
    return reasons, reason_codes, ctx_col, contexts, words


def _script_safe(text: str) -> str:
    """JSON text that is safe inside a ``<script>`` element.

    ``<`` only occurs inside JSON strings, where ``\\u003c`` reads back the same:
    no ``</script`` or ``<!--`` can close or confuse the element.
    """
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


_COLUMN_TYPES = (("Int8", np.int8), ("Int16", np.int16), ("Int32", np.int32))


def _column_bytes(values: np.ndarray) -> tuple[str, bytes]:
    """(type name, little-endian bytes) of a column in the narrowest type that holds it."""
    if values.size:
        low, high = int(values.min()), int(values.max())
        for name, dtype in _COLUMN_TYPES:
            limits = np.iinfo(dtype)
            if limits.min <= low and high <= limits.max:
                return name, values.astype(np.dtype(dtype).newbyteorder("<")).tobytes()
    else:
        return "Int8", b""
    return "Float64", values.astype("<f8").tobytes()  # exact up to 2**53


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _is_column(value: Any) -> bool:
    return isinstance(value, np.ndarray)


def embed(data: dict[str, Any], compress: bool | None = None) -> tuple[str, str]:
    """(encoding, text) of the data block: ``json`` or ``deflate-base64`` (see the module docstring).

    ``compress=None`` deflates when the JSON would be longer than :data:`COMPRESS_ABOVE`
    characters (each number of a column takes at least two, with its comma).
    """
    points = data["points"]
    columns = {name: value for name, value in points.items() if _is_column(value)}
    if compress is None:
        shortest = sum(2 * column.size - 1 for column in columns.values() if column.size)
        compress = shortest > COMPRESS_ABOVE or len(_json(_as_lists(data))) > COMPRESS_ABOVE
    if not compress:
        return "json", _script_safe(_json(_as_lists(data)))
    layout: dict[str, Any] = {}
    parts: list[bytes] = []
    offset = 0
    for name, column in columns.items():
        kind, raw = _column_bytes(column)
        layout[name] = {"type": kind, "offset": offset, "length": int(column.size)}
        parts += [raw, bytes(-len(raw) % 4)]
        offset += len(raw) + -len(raw) % 4
    head = _json({**data, "points": {**points, **layout}}).encode("utf-8")
    packed = b"".join([len(head).to_bytes(4, "little"), head, bytes(-(4 + len(head)) % 4), *parts])
    return "deflate-base64", base64.b64encode(zlib.compress(packed, _ZLIB_LEVEL)).decode("ascii")


def _as_lists(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its point columns as lists of numbers (for JSON)."""
    points = {name: v.tolist() if _is_column(v) else v for name, v in data["points"].items()}
    return {**data, "points": points}


def read_embedded(html_text: str) -> dict[str, Any]:
    """The data block of a report, decoded, columns as lists (for tests and tools; the page does this
    in JavaScript)."""
    start = html_text.index('<script type="application/json" id="hub4eval-data"')
    encoding = html_text[html_text.index('data-encoding="', start) + 15 :].split('"', 1)[0]
    body_start = html_text.index(">", start) + 1
    body = html_text[body_start : html_text.index("</script>", body_start)]
    if encoding != "deflate-base64":
        return json.loads(body)
    raw = zlib.decompress(base64.b64decode(body))
    length = int.from_bytes(raw[:4], "little")
    data = json.loads(raw[4 : 4 + length].decode("utf-8"))
    base = 4 + length + -(4 + length) % 4
    dtypes = {name: np.dtype(dtype).newbyteorder("<") for name, dtype in _COLUMN_TYPES} | {"Float64": np.dtype("<f8")}
    points = data["points"]
    for name, value in points.items():
        if isinstance(value, dict):
            dtype = dtypes[value["type"]]
            count = value["length"]
            column: np.ndarray | list[int] = (
                np.frombuffer(raw, dtype, count=count, offset=base + value["offset"]) if count else []
            )
            points[name] = np.asarray(column, dtype=np.int64).tolist()
    return data


__all__ = [
    "COMPRESS_ABOVE",
    "KINDS",
    "PointColumns",
    "embed",
    "join_columns",
    "point_columns",
    "read_embedded",
    "report_data",
    "result_columns",
    "row_cells",
    "write_point_columns",
]
