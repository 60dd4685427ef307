"""The named-entity report: counts per element and per TYPE value, with the TYPE/TEXT sub-scores.

Rows: each element (ENAMEX, TIMEX, NUMEX) and, under it, each TYPE value
(PERSON, ...), then ALL. The points of a mapped pair of regions go to the
reference region's TYPE value (a PERSON tagged ORGANIZATION is an error of
PERSON); those of a spurious region to its own value. Parts of a row: ALL
(every point), TYPE, TEXT, and TEXT's content and extent points (the content
points exist only when the texts differ: the MITRE split for speech).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.table import Table

from hub4eval.model import TemplateSet, TextFill
from hub4eval.report.tables import COUNT_COLUMNS, natural_width, percent
from hub4eval.scoring.metrics import METRICS, Counts
from hub4eval.scoring.points import Point
from hub4eval.scoring.result import ScoreResult

PARTS = ("ALL", "TYPE", "TEXT", "TEXT content", "TEXT extent")


def type_values(templates: TemplateSet) -> dict[str, str]:
    """Instance key -> its TYPE value (upper case) of a set made by :func:`hub4eval.io.entities.entity_templates`."""
    values = {}
    for inst in templates.instances:
        slot = inst.slot("TYPE")
        fill = slot.alternatives[0].fills[0] if slot is not None and slot.alternatives else None
        values[inst.key] = fill.content.upper() if isinstance(fill, TextFill) else "?"
    return values


def _part(point: Point) -> tuple[str, ...]:
    if point.slot == "TYPE":
        return ("ALL", "TYPE")
    if point.slot == "TEXT":
        return ("ALL", "TEXT", f"TEXT {point.kind}")
    return ("ALL",)


def entity_counts(
    result: ScoreResult, ref_types: Mapping[str, str], hyp_types: Mapping[str, str]
) -> dict[str, dict[str, Counts]]:
    """Row name (``ENAMEX``, ``ENAMEX PERSON``, ..., ``ALL``) -> part -> counts, rows in report order."""
    tallies: dict[tuple[str, str], dict[str, list[str]]] = {}
    for point in result.iter_points():
        if point.ref is not None:
            value = ref_types.get(point.ref.instance, "?")
        elif point.hyp is not None:
            value = hyp_types.get(point.hyp.instance, "?")
        else:
            value = "?"
        for row in ((point.type, ""), (point.type, value), ("ALL", "")):
            parts = tallies.setdefault(row, {})
            for part in _part(point):
                parts.setdefault(part, []).append(point.category)
    order = sorted((k for k in tallies if k[0] != "ALL"), key=lambda k: (_element_rank(k[0]), k[0], k[1]))
    rows: dict[str, dict[str, Counts]] = {}
    for key in [*order, ("ALL", "")]:
        name = f"{key[0]} {key[1]}".strip()
        rows[name] = {part: Counts.tally(tallies.get(key, {}).get(part, ())) for part in PARTS}  # no entity: zeros
    return rows


def _element_rank(element: str) -> int:
    return {"ENAMEX": 0, "TIMEX": 1, "NUMEX": 2}.get(element, 3)


def has_content(rows: Mapping[str, Mapping[str, Counts]]) -> bool:
    """Whether TEXT has content points (and extent points): the split is worth showing."""
    total = rows["ALL"]
    return (total["TEXT content"].pos + total["TEXT content"].act) > 0 and (
        total["TEXT extent"].pos + total["TEXT extent"].act
    ) > 0


def _parts(rows: Mapping[str, Mapping[str, Counts]]) -> tuple[str, ...]:
    return ("TYPE", "TEXT", "TEXT content", "TEXT extent") if has_content(rows) else ("TYPE", "TEXT")


_COUNTS = ("POS", "ACT", "COR", "INC", "MIS", "SPU")
_RATES = ("REC", "PRE", "F", "SER")


Grouping = list[tuple[tuple[str, ...], str]]  # the columns of each table, and its title's suffix


def _laid_out(make: Callable[[tuple[str, ...], str], Table], groupings: list[Grouping], width: int) -> list[Table]:
    """The tables of the first grouping of the columns whose every table fits in ``width``
    (the last grouping when none does): a number is never cut."""
    made: list[Table] = []
    for grouping in groupings:
        made = [make(columns, suffix) for columns, suffix in grouping]
        if all(natural_width(table) <= width for table in made):
            break
    return made


def entity_tables(rows: Mapping[str, Mapping[str, Counts]], beta: float, width: int = 10_000) -> list[Table]:
    """:func:`entity_table` as one table if it fits in ``width`` columns, else as two or three."""
    parts = tuple(f"{part} F" for part in _parts(rows))
    groupings: list[Grouping] = [
        [(_COUNTS + _RATES + parts, "")],
        [(_COUNTS + ("REC", "PRE"), " (counts, REC, PRE)"), (("F", "SER") + parts, " (F, SER, F of each part)")],
        [(_COUNTS, " (counts)"), (_RATES, " (metrics, %)"), (parts, " (F of each part, %)")],
    ]
    return _laid_out(lambda columns, suffix: entity_table(rows, beta, columns, suffix), groupings, width)


def entity_table(
    rows: Mapping[str, Mapping[str, Counts]], beta: float, columns: tuple[str, ...] | None = None, suffix: str = ""
) -> Table:
    """Counts, REC PRE F SER per row, then the F of each part (TYPE, TEXT, and TEXT's content and
    extent when split), or the ``columns`` given (a part's F is named ``"TYPE F"``, ...)."""
    if columns is None:
        columns = _COUNTS + _RATES + tuple(f"{part} F" for part in _parts(rows))
    table = Table(title="Named entities" + suffix, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("ENTITY", no_wrap=True)
    for column in columns:
        header = column
        if column.endswith(" F"):  # a part's F: its name over F
            header = column[:-2].replace("TEXT ", "") + "\nF"
        table.add_column(header, justify="right", no_wrap=True)
    for name, counts in rows.items():
        if name == "ALL":
            table.add_section()
        values = counts["ALL"].as_dict(beta)
        cells = []
        for column in columns:
            if column.endswith(" F"):
                cells.append(percent(counts[column[:-2]].f(beta)))
            elif column in COUNT_COLUMNS:
                cells.append(str(values[column]))
            else:
                cells.append(percent(values[column]))
        element_row = " " not in name
        table.add_row(
            name if element_row else "  " + name.split(" ", 1)[1], *cells, style="bold" if element_row else None
        )
    return table


def part_tables(rows: Mapping[str, Mapping[str, Counts]], beta: float, width: int = 10_000) -> list[Table]:
    """:func:`part_table` as one table if it fits in ``width`` columns, else as two."""
    groupings: list[Grouping] = [[(_COUNTS + _RATES, "")], [(_COUNTS, " (counts)"), (_RATES, " (metrics, %)")]]
    return _laid_out(lambda columns, suffix: part_table(rows, beta, columns, suffix), groupings, width)


def part_table(
    rows: Mapping[str, Mapping[str, Counts]], beta: float, columns: tuple[str, ...] = _COUNTS + _RATES, suffix: str = ""
) -> Table:
    """The sub-scores of each element and of ALL: TYPE, TEXT (and TEXT's content and extent when split)."""
    parts = _parts(rows)
    table = Table(title="Sub-scores of TYPE and TEXT" + suffix, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("ENTITY", no_wrap=True)
    table.add_column("PART", no_wrap=True)
    for column in columns:
        table.add_column(column, justify="right", no_wrap=True)
    for name, counts in rows.items():
        if " " in name:
            continue  # a TYPE value: the element's row holds its parts
        if name == "ALL":
            table.add_section()
        for n, part in enumerate(parts):
            values = counts[part].as_dict(beta)
            cells = [str(values[c]) if c in COUNT_COLUMNS else percent(values[c]) for c in columns]
            table.add_row(name if n == 0 else "", "  " + part[5:] if part.startswith("TEXT ") else part, *cells)
    return table


def headline(rows: Mapping[str, Mapping[str, Counts]], beta: float) -> str:
    """``F = 60.0  SER = 60.0  REC = ...  PRE = ...  (POS ...)``."""
    total = rows["ALL"]["ALL"]
    m = total.metrics(beta)
    f_name = "F" if beta == 1 else f"F(beta={beta:g})"
    return (
        f"{f_name} = {percent(m['F'])}  SER = {percent(m.get('SER'))}  REC = {percent(m['REC'])}  "
        f"PRE = {percent(m['PRE'])}  (POS {total.pos}  ACT {total.act}  COR {total.cor}  INC {total.inc}  "
        f"MIS {total.mis}  SPU {total.spu})"
    )


def entity_json(rows: Mapping[str, Mapping[str, Counts]], beta: float) -> dict[str, Any]:
    """``{row: {part: COUNTS object}}`` for the JSON output."""
    return {name: {part: counts.as_dict(beta) for part, counts in parts.items()} for name, parts in rows.items()}


def entity_csv(rows: Mapping[str, Mapping[str, Counts]], beta: float) -> str:
    """One CSV row per entity row and part: ``entity,part,POS,...,SER``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["entity", "part", *COUNT_COLUMNS, *METRICS])

    def write(items: Iterable[tuple[str, Mapping[str, Counts]]]) -> None:
        for name, parts in items:
            for part, counts in parts.items():
                values: dict[str, Any] = counts.as_dict(beta)
                writer.writerow(
                    [name, part]
                    + [values[c] for c in COUNT_COLUMNS]
                    + ["" if values[m] is None else f"{values[m]:.6f}" for m in METRICS]
                )

    write(rows.items())
    return buffer.getvalue()
