"""Reports of a :class:`~hub4eval.scoring.result.ScoreResult`: rich tables, JSON, CSV.

Tables print percentages with one decimal and ``-`` for an undefined metric;
JSON holds fractions in [0, 1] and ``null`` (§4, §9).
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from rich.table import Table

from hub4eval.scoring.metrics import METRICS, Counts
from hub4eval.scoring.points import FillRef
from hub4eval.scoring.result import ScoreResult

COUNT_COLUMNS = ("POS", "ACT", "COR", "INC", "MIS", "SPU", "OPT", "REM")
COLUMNS = COUNT_COLUMNS + METRICS


def percent(value: float | None) -> str:
    """A fraction as a percentage with one decimal, ``-`` when undefined."""
    return "-" if value is None else f"{100 * value:.1f}"


def _cells(counts: Counts, beta: float) -> list[str]:
    values = counts.as_dict(beta)
    return [str(values[c]) for c in COUNT_COLUMNS] + [percent(values[m]) for m in METRICS]  # type: ignore[arg-type]


def _new_table(first: str, title: str) -> Table:
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column(first, no_wrap=True)
    for column in COLUMNS:
        table.add_column(column, justify="right")
    return table


def slot_table(result: ScoreResult) -> Table:
    """Per slot, with a subtotal row per type and the overall row (§9)."""
    beta = result.config.beta
    table = _new_table("SLOT", "Scores per slot")
    by_type = result.by("type")
    slots = result.by("slot")
    for type_name, type_counts in by_type.items():
        for slot_key, counts in slots.items():
            if slot_key.split(".", 1)[0] == type_name:
                table.add_row(slot_key, *_cells(counts, beta))
        table.add_row(f"{type_name} (all)", *_cells(type_counts, beta), style="bold")
        table.add_section()
    for kind, counts in result.by("kind").items():
        table.add_row(f"{kind} points", *_cells(counts, beta), style="dim")
    table.add_section()
    table.add_row("ALL", *_cells(result.total, beta), style="bold")
    return table


def level_table(result: ScoreResult, level: str, sort: str | None = None) -> Table:
    """Per document or per type; ``sort`` by a metric (worst first) or a count (largest first)."""
    beta = result.config.beta
    rows = list(result.by(level).items())
    if sort:
        key = sort.upper()

        def order(item: tuple[str, Counts]) -> tuple:
            value = item[1].as_dict(beta)[key]
            if key in METRICS:  # worst first (low REC/PRE/F, high UND/OVG/SUB/ERR); undefined last
                worst_first = value if key in ("REC", "PRE", "F") else -(value or 0.0)
                return (value is None, worst_first if value is not None else 0.0, item[0])
            return (-(value or 0), item[0])

        rows.sort(key=order)
    table = _new_table(level.upper(), f"Scores per {level}")
    for name, counts in rows:
        table.add_row(name, *_cells(counts, beta))
    table.add_section()
    table.add_row("ALL", *_cells(result.total, beta), style="bold")
    return table


def mapping_table(result: ScoreResult) -> Table:
    """Which hypothesis instance was mapped to which reference instance, with the pair's F."""
    table = Table(title="Instance mapping", title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("REFERENCE", no_wrap=True)
    table.add_column("HYPOTHESIS", no_wrap=True)
    table.add_column("F", justify="right")
    for ref, hyp, f in result.instance_pairs():
        table.add_row(ref or "-", hyp or "-", percent(f) if ref and hyp else "")
    return table


def headline(result: ScoreResult) -> str:
    """One line: ``F = 87.5  REC = 80.0  PRE = 96.6  (POS 20  ACT 17  COR 16 ...)``."""
    total = result.total
    m = total.metrics(result.config.beta)
    f_name = "F" if result.config.beta == 1 else f"F(beta={result.config.beta:g})"
    return (
        f"{f_name} = {percent(m['F'])}  REC = {percent(m['REC'])}  PRE = {percent(m['PRE'])}  "
        f"(POS {total.pos}  ACT {total.act}  COR {total.cor}  INC {total.inc}  "
        f"MIS {total.mis}  SPU {total.spu}  OPT {total.opt}  REM {total.rem})"
    )


def wer_line(result: ScoreResult) -> str | None:
    """The hypothesis text's word error rate, when texts differ."""
    wer = result.wer
    if not wer:
        return None
    rate = wer.get("wer")
    return (
        f"hypothesis text WER = {percent(rate)}  (ref words {wer.get('ref_words')}  "
        f"sub {wer.get('substitutions')}  del {wer.get('deletions')}  ins {wer.get('insertions')})"
    )


# One encoder for every entry: json.dumps with options builds a new encoder per call.
_ENTRY_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def _point_entries(result: ScoreResult) -> Iterator[str]:
    """Each point as :meth:`hub4eval.scoring.points.Point.as_dict` encodes, made from the fill pairs:
    the slot, document and fills are encoded once per pair, not once per point."""
    encode = _ENTRY_ENCODER.encode
    encode_string = json.encoder.encode_basestring  # what that encoder does with a str
    heads: dict[tuple[str, str, str], str] = {}
    for docid, type_name, slot, ref_inst, hyp_inst, ref_fill, hyp_fill, verdicts in result.iter_fill_pairs():
        head = heads.get((type_name, slot, docid))
        if head is None:
            head = heads[type_name, slot, docid] = (
                f'{{"slot": {encode(f"{type_name}.{slot}")}, "document": {encode(docid)}, "kind": '
            )
        ref = FillRef.json_of(ref_inst, slot, ref_fill)
        hyp = FillRef.json_of(hyp_inst, slot, hyp_fill)
        for verdict in verdicts:
            yield (
                f'{head}"{verdict.kind}", "category": "{verdict.category}", "ref": {ref}, '
                f'"hyp": {hyp}, "reason": {encode_string(verdict.reason)}}}'
            )


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
            yield from entries(key, _point_entries(result), "[", "]")
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
    """Write text (or its pieces) to ``path``, or to standard output for ``-``."""
    pieces = [text] if isinstance(text, str) else text
    if path == "-":
        _write_batched(pieces, sys.stdout)
        return
    with open(path, "w", encoding="utf-8", newline="") as handle:
        _write_batched(pieces, handle)


def _write_batched(pieces: Iterable[str], handle: TextIO, size: int = 4096) -> None:
    """Write ``pieces`` joined ``size`` at a time: a write per piece cost more
    than the writing itself for the million small pieces of a large --json."""
    batch: list[str] = []
    for piece in pieces:
        batch.append(piece)
        if len(batch) >= size:
            handle.write("".join(batch))
            batch.clear()
    handle.write("".join(batch))


def to_csv_text(result: ScoreResult) -> str:
    """One row per slot (TYPE.SLOT), then one per type and the overall row."""
    beta = result.config.beta
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["level", "name", *COLUMNS])

    def rows(level: str, items: Iterable[tuple[str, Counts]]) -> None:
        for name, counts in items:
            values: dict[str, Any] = counts.as_dict(beta)
            writer.writerow(
                [level, name]
                + [values[c] for c in COUNT_COLUMNS]
                + ["" if values[m] is None else f"{values[m]:.6f}" for m in METRICS]
            )

    rows("slot", result.by("slot").items())
    rows("type", result.by("type").items())
    rows("all", [("ALL", result.total)])
    return buffer.getvalue()
