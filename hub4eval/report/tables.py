"""Tables of a :class:`~hub4eval.scoring.result.ScoreResult`: per slot, per level, the mapping, headline.

Tables print percentages with one decimal and ``-`` for an undefined metric;
JSON holds fractions in [0, 1] and ``null`` (§4, §9).

Layout: a score table is one wide table (name, 8 counts, 7 metrics) when it
fits the width it is printed at; otherwise two tables with the same rows,
the counts then the metrics, so that no number is ever cut (see
:func:`fitted`).

Piped (no styles), a table that fits is drawn here line by line as rich
would draw it (:func:`plain_table`, :func:`print_table`): rich measures and
lays out every cell, which cost more than the rest of the report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import cast

from rich.box import HEAVY_HEAD
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from hub4eval.scoring.metrics import METRICS, Counts
from hub4eval.scoring.result import ScoreResult

COUNT_COLUMNS = ("POS", "ACT", "COR", "INC", "MIS", "SPU", "OPT", "REM")
COLUMNS = COUNT_COLUMNS + METRICS


def percent(value: float | None) -> str:
    """A fraction as a percentage with one decimal, ``-`` when undefined."""
    return "-" if value is None else f"{100 * value:.1f}"


def _cells(counts: Counts, beta: float, columns: tuple[str, ...] = COLUMNS) -> list[str]:
    values = counts.as_dict(beta)
    return [str(values[c]) if c in COUNT_COLUMNS else percent(values[c]) for c in columns]


def _new_table(first: str, title: str, columns: tuple[str, ...] = COLUMNS) -> Table:
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    wide = columns == COLUMNS
    # In the narrow layout a long name folds onto a second line; numbers never wrap.
    table.add_column(first, no_wrap=wide, overflow="fold")
    for column in columns:
        table.add_column(column, justify="right", no_wrap=True)
    return table


def natural_width(table: Table) -> int:
    """The width ``table`` takes when nothing is wrapped or cut."""
    layout = _plain_layout(table)
    if layout is not None:
        return layout[1]
    console = Console(width=100_000)
    return Measurement.get(console, console.options, table).maximum


def print_table(console: Console, table: Table) -> None:
    """``console.print(table)``; piped (no styles), the same lines drawn by :func:`plain_table` when it can."""
    plain = None
    if not console.is_terminal and console.encoding.lower().startswith("utf") and not console.legacy_windows:
        plain = plain_table(table, console.width)
    if plain is None:
        console.print(table)
    else:
        console.file.write(plain)


_BOX = HEAVY_HEAD  # rich's default box, which every table of the reports has
_PADDING = (0, 1, 0, 1)


def _plain_cell(cell: object, header: bool = False) -> bool:
    """Whether rich draws ``cell`` as its characters: plain printable ASCII (a header may hold
    line breaks between lines of text), without ``[`` or ``:`` (rich reads those as markup and emoji codes) and
    without blanks at an end of a line."""
    if type(cell) is not str:
        return False
    lines = cell.split("\n") if header else (cell,)
    if len(lines) > 1 and not all(lines):  # an empty line of a header of several
        return False
    for line in lines:
        if not (line.isascii() and line.isprintable()) or "[" in line or ":" in line or line != line.strip():
            return False
    return True


def _plain_layout(table: Table) -> tuple[list[int], int] | None:
    """The width of each column of ``table`` and of the table, when it is laid out as the
    tables of this module are (rich's default box without its outer edge, one space each side
    of a rule, every column as wide as its widest cell, cells that rich draws as their
    characters, see :func:`_plain_cell`); None for anything else, which rich must lay out."""
    if (
        table.box is not _BOX
        or table.show_edge
        or table.pad_edge
        or not table.show_header
        or table.show_footer
        or table.show_lines
        or table.leading
        or table.expand
        or table.collapse_padding
        or tuple(table.padding) != _PADDING
        or table.width is not None
        or table.min_width is not None
        or table.caption
        or len(table.columns) < 2
    ):
        return None
    widths = []
    for column in table.columns:
        if (
            column.justify not in ("left", "right")
            or column.width is not None
            or column.min_width is not None
            or column.max_width is not None
            or column.ratio is not None
            or not _plain_cell(column.header, header=True)
        ):
            return None
        cells = cast("list[str]", column._cells)
        if not all(_plain_cell(cell) for cell in cells):
            return None
        header = cast(str, column.header)
        widths.append(max(max(map(len, header.split("\n"))), max(map(len, cells), default=0)))
    return widths, sum(widths) + 3 * (len(widths) - 1)


def plain_table(table: Table, width: int) -> str | None:
    """``table`` as rich draws it without colour or styles at ``width`` columns, drawn directly;
    None when rich must draw it.

    Rich measures and lays out every cell (a few milliseconds for a table of ten rows, seconds
    for ten thousand); a table of this module's layout (:func:`_plain_layout`) that fits in
    ``width`` is drawn here, line by line: its title (left-justified, wrapped at blanks to the
    table's width as rich wraps it), its header (a cell's lines at the bottom), a heavy rule,
    its rows with a light rule after each section but the last. None when the table does not
    fit (rich wraps its cells), its title has a word wider than the table or is not plain.
    """
    layout = _plain_layout(table)
    if layout is None:
        return None
    widths, total = layout
    if total > width:
        return None
    title = table.title
    if title is not None and (not _plain_cell(title) or table.title_justify != "left"):
        return None
    out = _title_lines(cast(str, title), total) if title else []
    if out is None:
        return None
    grid = _Grid(widths, [column.justify == "left" for column in table.columns])
    headers = [cast(str, column.header).split("\n") for column in table.columns]
    height = max(map(len, headers))
    for row in range(height):  # each header cell at the bottom of the header
        out.append(
            grid.head([lines[row - height + len(lines)] if row >= height - len(lines) else "" for lines in headers])
        )
    out.append(grid.head_rule())
    cells = [cast("list[str]", column._cells) for column in table.columns]
    rows = table.rows
    count = len(rows)
    for index in range(count):
        out.append(grid.row([column[index] for column in cells]))
        if rows[index].end_section and index < count - 1:
            out.append(grid.section_rule())
    return "\n".join(out) + "\n"


class _Grid:
    """The lines of a table in rich's default box without its outer edge: cells ``widths`` wide
    (left-justified where ``left``), one space each side of a rule."""

    def __init__(self, widths: list[int], left: list[bool]) -> None:
        self.widths = widths
        self._formats = [f"{{:{'<' if on_left else '>'}{size}}}" for on_left, size in zip(left, widths, strict=True)]

    def _line(self, cells: list[str], bar: str) -> str:
        return f" {bar} ".join(format.format(cell) for format, cell in zip(self._formats, cells, strict=True))

    def head(self, cells: list[str]) -> str:
        return self._line(cells, "\u2503")

    def row(self, cells: list[str]) -> str:
        return self._line(cells, "\u2502")

    def _rule(self, fill: str, cross: str) -> str:
        widths = self.widths
        inner = [fill * (w + 2) for w in widths[1:-1]]
        return cross.join([fill * (widths[0] + 1), *inner, fill * (widths[-1] + 1)])

    def head_rule(self) -> str:
        return self._rule("\u2501", "\u2547")

    def section_rule(self) -> str:
        return self._rule("\u2500", "\u253c")


def _title_lines(title: str, width: int) -> list[str] | None:
    """The lines of a left-justified title ``width`` columns wide, as rich wraps it: words
    (with the blanks after them) added to a line while the word (without them) fits, each line
    padded to ``width``; None when a word is wider than ``width`` (rich cuts it)."""
    lines: list[str] = []
    current = ""
    for word in re.findall(r"\s*\S+\s*", title):
        length = len(word.rstrip())
        if length > width:
            return None
        if current and len(current) + length > width:
            lines.append(current)
            current = word
        else:
            current += word
    lines.append(current)
    return [text[:width].ljust(width) for text in lines]  # blanks past the width cut (rich's rstrip_end)


def fitted(make: Callable[[tuple[str, ...], str], Table], width: int) -> list[Table]:
    """One wide table if it fits in ``width`` columns, else counts and metrics as two tables.

    Args:
        make: builds the table with the given value columns and title suffix.
        width: the width available (the terminal's, or ``$COLUMNS``).
    """
    wide = make(COLUMNS, "")
    if natural_width(wide) <= width:
        return [wide]
    return [make(COUNT_COLUMNS, " (counts)"), make(METRICS, " (metrics, %)")]


def slot_tables(result: ScoreResult, width: int) -> list[Table]:
    """:func:`slot_table` laid out for ``width`` columns (see :func:`fitted`)."""
    return fitted(lambda columns, suffix: slot_table(result, columns, suffix), width)


def level_tables(result: ScoreResult, level: str, sort: str | None, width: int) -> list[Table]:
    """:func:`level_table` laid out for ``width`` columns (see :func:`fitted`)."""
    return fitted(lambda columns, suffix: level_table(result, level, sort, columns, suffix), width)


def slot_table(result: ScoreResult, columns: tuple[str, ...] = COLUMNS, suffix: str = "") -> Table:
    """Per slot, with a subtotal row per type and the overall row (§9)."""
    beta = result.config.beta
    table = _new_table("SLOT", "Scores per slot" + suffix, columns)
    by_type = result.by("type")
    slots = result.by("slot")
    for type_name, type_counts in by_type.items():
        for slot_key, counts in slots.items():
            if slot_key.split(".", 1)[0] == type_name:
                table.add_row(slot_key, *_cells(counts, beta, columns))
        table.add_row(f"{type_name} (all)", *_cells(type_counts, beta, columns), style="bold")
        table.add_section()
    for kind, counts in result.by("kind").items():
        table.add_row(f"{kind} points", *_cells(counts, beta, columns), style="dim")
    table.add_section()
    table.add_row("ALL", *_cells(result.total, beta, columns), style="bold")
    return table


def level_table(
    result: ScoreResult, level: str, sort: str | None = None, columns: tuple[str, ...] = COLUMNS, suffix: str = ""
) -> Table:
    """Per document or per type; ``sort`` by a metric (worst first) or a count (largest first)."""
    beta = result.config.beta
    rows = list(result.by(level).items())
    if sort:
        key = sort.upper()

        def order(item: tuple[str, Counts]) -> tuple:
            value = item[1].as_dict(beta)[key]
            if key in METRICS:  # worst first (low REC/PRE/F, high UND/OVG/SUB/ERR/SER); undefined last
                worst_first = value if key in ("REC", "PRE", "F") else -(value or 0.0)
                return (value is None, worst_first if value is not None else 0.0, item[0])
            return (-(value or 0), item[0])

        rows.sort(key=order)
    table = _new_table(level.upper(), f"Scores per {level}" + suffix, columns)
    for name, counts in rows:
        table.add_row(name, *_cells(counts, beta, columns))
    table.add_section()
    table.add_row("ALL", *_cells(result.total, beta, columns), style="bold")
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
    """One line: ``F = 87.5  SER = 25.0  REC = 80.0  PRE = 96.6  (POS 20  ACT 17  COR 16 ...)``."""
    total = result.total
    m = total.metrics(result.config.beta)
    f_name = "F" if result.config.beta == 1 else f"F(beta={result.config.beta:g})"
    return (
        f"{f_name} = {percent(m['F'])}  SER = {percent(m['SER'])}  REC = {percent(m['REC'])}  "
        f"PRE = {percent(m['PRE'])}  "
        f"(POS {total.pos}  ACT {total.act}  COR {total.cor}  INC {total.inc}  "
        f"MIS {total.mis}  SPU {total.spu}  OPT {total.opt}  REM {total.rem})"
    )


def wer_line(result: ScoreResult) -> str | None:
    """The hypothesis text's word error rate, when texts differ."""
    wer = result.wer
    if not wer:
        return None
    return f"hypothesis text {wer_text(wer)}"


def wer_text(wer: dict) -> str:
    """``WER (sclite alignment) = 25.0  (ref words 40  sub 6  del 2  ins 2)``, and the
    counts of the weighted alignment used for extents when they differ."""
    name = "sclite alignment" if wer.get("alignment") == "sclite" else "alignment used for extents"
    text = (
        f"WER ({name}) = {percent(wer.get('wer'))}  (ref words {wer.get('ref_words')}  "
        f"sub {wer.get('substitutions')}  del {wer.get('deletions')}  ins {wer.get('insertions')})"
    )
    other = wer.get("weighted_alignment")
    if other:
        text += (
            f"; the alignment used for extents: {percent(other.get('wer'))}  "
            f"(sub {other.get('substitutions')}  del {other.get('deletions')}  ins {other.get('insertions')})"
        )
    return text


WER_COLUMNS = ("DOCUMENT", "REF WORDS", "MATCH", "SUB", "DEL", "INS", "WER")
WER_TITLE = "Word error rate (sclite alignment)"


def wer_table(rows: list[list[str]], total: list[str]) -> Table:
    """The per-document WER table of ``align``: one row per document, then the ``ALL`` row."""
    table = Table(title=WER_TITLE, title_justify="left", show_edge=False, pad_edge=False)
    for column in WER_COLUMNS:
        table.add_column(column, justify="left" if column == "DOCUMENT" else "right")
    for cells in rows:
        table.add_row(*cells)
    table.add_section()
    table.add_row(*total, style="bold")
    return table


def cause_table(result: ScoreResult) -> Table | None:
    """What the recognizer cost: errors lost to recognition and to extraction, per slot and overall.

    One row per slot (TYPE.SLOT) that has an error or a reference fill, and
    ALL; the entity WER column is the word error rate inside the reference
    fills of the slot. None when the texts are the same (no attribution).
    """
    causes = result.causes
    if not causes:
        return None
    from hub4eval.scoring.attribution import cause_totals

    entity = result.entity_wer or {"summary": None, "by_slot": {}}
    table = Table(
        title="What the recognizer cost (errors lost to recognition / to extraction)",
        title_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    # Compact enough for 80 columns: each cause's errors as INC/MIS/SPU in one cell.
    table.add_column("SLOT", no_wrap=True)
    for column in ("ERRORS", "RECOG\nINC/MIS/SPU", "EXTRACT\nINC/MIS/SPU", "RECOG\n%", "ENTITY\nWER"):
        table.add_column(column, justify="right", no_wrap=True)

    def row(name: str, split: dict[str, dict[str, int]], wer: dict | None, style: str | None = None) -> None:
        totals = cause_totals(split)
        errors = totals["recognition"] + totals["extraction"]
        recognition, extraction = split["recognition"], split["extraction"]
        table.add_row(
            name,
            str(errors),
            "/".join(str(recognition[c]) for c in ("INC", "MIS", "SPU")),
            "/".join(str(extraction[c]) for c in ("INC", "MIS", "SPU")),
            percent(totals["recognition"] / errors if errors else None),
            percent(None if wer is None else wer.get("wer")),
            style=style,
        )

    for slot_key, split in causes["slot"].items():
        row(slot_key, split, entity["by_slot"].get(slot_key))
    table.add_section()
    row("ALL", causes["all"][""], entity["summary"], style="bold")
    note = spanning_sets_note(result)
    if note:
        table.caption = note
        table.caption_justify = "left"
    return table


def spanning_sets_note(result: ScoreResult) -> str | None:
    """Why some MIS of the cause table are no fault of extraction: hypothesis sets that span
    several reference documents left whole documents unmapped (None when none did)."""
    from hub4eval.scoring.split_sets import SpanningSetWarning

    spanning = [w for w in result.warnings if isinstance(w, SpanningSetWarning) and w.missing_points]
    if not spanning:
        return None
    points = sum(w.missing_points for w in spanning)
    names = ", ".join(w.docid for w in spanning[:3]) + (" ..." if len(spanning) > 3 else "")
    plural = len(spanning) > 1
    return (
        f"{points} of these MIS are the points of reference documents left unmapped because hypothesis "
        f"set{'s' if plural else ''} {names} {'have' if plural else 'has'} instances in several documents and "
        f"{'map' if plural else 'maps'} to one: they show how the sets were written, not what was recognized or "
        "extracted (see the warning; --split-sets)"
    )


def ceiling_line(
    result: ScoreResult, intervals: Mapping[str, tuple[float | None, float | None]] | None = None
) -> str | None:
    """``F = 80.0  ceiling F = 90.9  F / ceiling = 88.0`` (with 95% intervals if given), or None.

    ``intervals``: :func:`hub4eval.report.confidence.ceiling_intervals` output.
    """
    summary = result.ceiling_summary()
    if summary is None:
        return None
    names = (("F", "F"), ("ceiling_F", "ceiling F"), ("fraction_of_ceiling", "F / ceiling"))
    parts = []
    for key, label in names:
        text = f"{label} = {percent(summary[key])}"
        if intervals is not None and key in intervals:
            low, high = intervals[key]
            text += f" ({percent(low)}..{percent(high)})"
        parts.append(text)
    return "ceiling (reference projected onto the hypothesis text): " + "  ".join(parts)


def entity_wer_line(result: ScoreResult) -> str | None:
    """The WER inside the reference fills, beside the text WER, when texts differ."""
    entity = result.entity_wer
    if not entity:
        return None
    summary = entity["summary"]
    return (
        f"entity WER (alignment used for extents) = {percent(summary['wer'])}  "
        f"(words inside reference fills {summary['ref_words']}  "
        f"sub {summary['substitutions']}  del {summary['deletions']}  ins {summary['insertions']})"
    )
