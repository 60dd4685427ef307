"""Files of a :class:`~hub4eval.scoring.result.ScoreResult`: JSON (every point with its reason) and CSV.

JSON holds fractions in [0, 1] and ``null`` for an undefined metric.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from hub4eval.scoring.metrics import METRICS, Counts
from hub4eval.scoring.points import FillRef
from hub4eval.scoring.result import ScoreResult
from hub4eval.util.atomic import replaced_whole

COUNT_COLUMNS = ("POS", "ACT", "COR", "INC", "MIS", "SPU", "OPT", "REM")
COLUMNS = COUNT_COLUMNS + METRICS


_CAUSE_JSON = {None: "null", "recognition": '"recognition"', "extraction": '"extraction"'}

# One encoder for every entry: json.dumps with options builds a new encoder per call.
_ENTRY_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def _point_entries(result: ScoreResult) -> Iterator[str]:
    """Each point as :meth:`hub4eval.scoring.points.Point.as_dict` encodes, made from the fill pairs:
    the slot, document and fills are encoded once per pair, not once per point."""
    encode = _ENTRY_ENCODER.encode
    encode_string = json.encoder.encode_basestring  # what that encoder does with a str
    heads: dict[tuple[str, str, str], str] = {}
    attributor = result.attributor  # §11 cause of each error point, when the texts differ
    for docid, type_name, slot, ref_inst, hyp_inst, ref_fill, hyp_fill, verdicts in result.iter_fill_pairs():
        head = heads.get((type_name, slot, docid))
        if head is None:
            head = heads[type_name, slot, docid] = (
                f'{{"slot": {encode(f"{type_name}.{slot}")}, "document": {encode(docid)}, "kind": '
            )
        ref = FillRef.json_of(ref_inst, slot, ref_fill)
        hyp = FillRef.json_of(hyp_inst, slot, hyp_fill)
        for verdict in verdicts:
            cause = None
            if attributor is not None:
                cause = attributor.cause(verdict.category, ref_inst, hyp_inst, ref_fill, hyp_fill, slot, verdict.kind)
            yield (
                f'{head}"{verdict.kind}", "category": "{verdict.category}", "ref": {ref}, '
                f'"hyp": {hyp}, "reason": {encode_string(verdict.reason)}, '
                f'"cause": {_CAUSE_JSON[cause]}}}'
            )


def point_entries(result: ScoreResult) -> Iterator[str]:
    """The JSON entry of every point, in order: made from the mapping, or read back
    from the files of a result scored in groups of documents (:func:`write_point_file`),
    then the entries of one file at a time, already joined."""
    if result.tally is None:
        yield from _point_entries(result)
        return
    for path in result.tally.point_files:
        with open(path, encoding="utf-8", newline="\n") as handle:
            text = handle.read()
        if text:
            # a group's entries as one piece, joined as iter_json_text joins entries
            # (one C call, not a Python step per point; a group is at most 2,000 documents)
            yield text[:-1].replace("\n", ",\n    ")


def write_point_file(result: ScoreResult, path: str) -> None:
    """Write the JSON entries of ``result``'s points to ``path``, one a line (JSON
    escapes every line end inside an entry), for :func:`point_entries` to read back."""
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        _write_batched((entry + "\n" for entry in _point_entries(result)), handle)


def iter_json_text(result: ScoreResult, extra: dict[str, Any] | None = None) -> Iterator[str]:
    """The §9 JSON in pieces: one top-level key per line, one entry of each table or list per line.

    Keys keep the file order. Entries are written with the C encoder (the
    indenting encoder is pure Python and took seconds per million points),
    and the points are streamed, never all held as dictionaries at once.
    """

    dump = _ENTRY_ENCODER.encode

    def entries(key: str, values: Iterable[str], opening: str, closing: str) -> Iterator[str]:
        yield f"  {dump(key)}: {opening}"
        first = True
        for value in values:
            yield ("\n    " if first else ",\n    ") + value
            first = False
        yield f"\n  {closing}" if not first else closing

    data = result.to_json(points=False)
    data.update(extra or {})
    keys = list(data)
    keys.insert(keys.index("mapping") + 1, "points")
    yield "{\n"
    for n, key in enumerate(keys):
        if n:
            yield ",\n"
        if key == "points":
            yield from entries(key, point_entries(result), "[", "]")
            continue
        value = data[key]
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            yield from entries(key, (f"{dump(k)}: {dump(v)}" for k, v in value.items()), "{", "}")
        elif isinstance(value, list) and value:
            yield from entries(key, (dump(v) for v in value), "[", "]")
        else:
            yield f"  {dump(key)}: {dump(value)}"
    yield "\n}\n"


def to_json_text(result: ScoreResult, extra: dict[str, Any] | None = None) -> str:
    """The whole §9 JSON as one string (see :func:`iter_json_text`)."""
    return "".join(iter_json_text(result, extra))


def write_text(text: str | Iterable[str], path: str) -> None:
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


def _write_batched(pieces: Iterable[str], handle: TextIO, size: int = 4096) -> None:
    """Write ``pieces`` joined ``size`` at a time: a write per piece cost more
    than the writing itself for the million small pieces of a large --json."""
    batch: list[str] = []
    for piece in pieces:
        if len(piece) > 1 << 16:  # a large piece (a group's points) is written at once, never held in a batch
            handle.write("".join(batch))
            batch.clear()
            handle.write(piece)
            continue
        batch.append(piece)
        if len(batch) >= size:
            handle.write("".join(batch))
            batch.clear()
    handle.write("".join(batch))


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
