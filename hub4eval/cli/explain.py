"""`hub4eval explain`: every point matching the filters, with its fills and the reason.

The rows come from :func:`hub4eval.report.explain.explain`; this module only renders
them. On a terminal the fill's words in the aligned context are highlighted;
piped, they are put in brackets so the output stays plain text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from hub4eval.cli import options as o
from hub4eval.cli.app import command, print_warnings


def context_lines(context: Any, plain: bool) -> tuple[str, str]:
    """The REF and HYP lines of an aligned context, one padded cell per column.

    Args:
        context: a :class:`hub4eval.report.explain.Context`.
        plain: mark the fill's words with ``[...]``; else with rich markup
            (bold reverse), the words themselves escaped.

    Returns:
        The reference line and the hypothesis line; a gap (a word on one side
        only) shows as ``***``.
    """
    from rich.markup import escape

    from hub4eval.report.explain import GAP

    ref_cells, hyp_cells = [], []
    for ref, hyp, kind, ref_on, hyp_on in zip(
        context.ref_words, context.hyp_words, context.kinds, context.ref_marked, context.hyp_marked, strict=True
    ):
        if kind != GAP:
            ref, hyp = ref or "***", hyp or "***"
        size = max(len(ref), len(hyp))
        ref, hyp = ref.ljust(size), hyp.ljust(size)
        if plain:
            ref = f"[{ref}]" if ref_on else f" {ref} "
            hyp = f"[{hyp}]" if hyp_on else f" {hyp} "
        else:
            ref = f"[bold reverse]{escape(ref)}[/]" if ref_on else escape(ref)
            hyp = f"[bold reverse]{escape(hyp)}[/]" if hyp_on else escape(hyp)
        ref_cells.append(ref)
        hyp_cells.append(hyp)
    return " ".join(ref_cells).rstrip(), " ".join(hyp_cells).rstrip()


def _print_blocks(console: Any, rows: list[Any], plain: bool) -> None:
    """One block per point: header line, REF, HYP, why, aligned context."""
    from rich.markup import escape

    for row in rows:
        point = row.point
        console.print(
            f"[bold]{point.category}[/bold] {point.kind:<7} {escape(point.slot_key)}  {escape(point.docid)}",
            highlight=False,
        )
        for label, fill, where in (("REF", row.ref_fill, row.ref_where), ("HYP", row.hyp_fill, row.hyp_where)):
            text = "-" if fill is None else escape(fill) + f"  ({escape(where)})"
            console.print(f"  {label}  {text}", highlight=False)
        console.print(f"  why  {escape(row.reason)}", highlight=False)
        if row.cause is not None:
            note = f": {row.cause_note}" if row.cause_note else ""
            console.print(f"  lost to {row.cause}{escape(note)}", highlight=False)
        if row.context is not None:
            ref_line, hyp_line = context_lines(row.context, plain)
            console.print(f"  aligned REF: {ref_line}", highlight=False, markup=not plain)
            console.print(f"  aligned HYP: {hyp_line}", highlight=False, markup=not plain)


def _print_table(console: Any, rows: list[Any]) -> None:
    """One table row per point: the two fills side by side, then the reason."""
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False, title="Points", title_justify="left")
    for column in ("CAT", "KIND", "SLOT", "DOCUMENT", "REFERENCE", "HYPOTHESIS", "REASON"):
        table.add_column(column, overflow="fold")
    for row in rows:
        point = row.point
        table.add_row(
            point.category,
            point.kind,
            point.slot_key,
            point.docid,
            row.ref_fill or "-",
            row.hyp_fill or "-",
            row.reason
            + (
                f" (lost to {row.cause}{': ' + row.cause_note if row.cause_note else ''})"
                if row.cause is not None
                else ""
            ),
        )
    console.print(table, markup=False)


@command("explain")
@o.scoring_options
def explain_command(
    ref: Path = typer.Argument(..., help="Reference templette file ('-' for standard input)."),
    hyp: Path = typer.Argument(..., help="Hypothesis templette file ('-' for standard input)."),
    slot: Optional[list[str]] = typer.Option(
        None, "--slot", help="Only points of this slot, as TYPE.SLOT; repeatable."
    ),
    type_: Optional[list[str]] = typer.Option(None, "--type", help="Only points of this instance type; repeatable."),
    doc: Optional[list[str]] = typer.Option(None, "--doc", help="Only points of this document (DOCID); repeatable."),
    category: Optional[list[o.CategoryChoice]] = typer.Option(
        None,
        "--category",
        case_sensitive=False,
        metavar="COR|INC|MIS|SPU|OPT|REM",
        help="Only points of this category (any case); repeatable.",
    ),
    cause: Optional[list[str]] = typer.Option(
        None,
        "--cause",
        help="Only error points lost to this cause when the texts differ: recognition (the recognizer "
        "misheard the fill's words) or extraction (the words were right); repeatable.",
    ),
    context: int = typer.Option(
        4, "--context", min=0, help="Aligned words shown on each side of a fill (texts differ)."
    ),
    table: bool = typer.Option(
        False, "--table", help="One table row per point (fills side by side), no aligned context."
    ),
    scoring: o.ScoringOptions = o.SCORING,
    jobs: Optional[int] = o.TextJobs,
    quiet: bool = o.Quiet,
) -> None:
    """List every point matching the filters: category, reference and hypothesis fills, reason.

    Filters combine (AND); a repeated filter matches any of its values.
    """
    from hub4eval.cli.score import make_console, score_with_progress
    from hub4eval.report.explain import explain, tally

    o.one_from_stdin(REF=ref, HYP=hyp, **scoring.text_files())
    categories = [o.choice(c) for c in category or ()]
    config = scoring.config()
    from hub4eval.api import OutputOptions

    # when the texts differ, the ceiling too: the causes agree with it, as in `score`
    output = OutputOptions(ceiling=None, jobs=jobs)  # (a --jobs out of bounds refused before any file is read)
    result = score_with_progress(ref, hyp, scoring, config, description="mapping documents", quiet=quiet, output=output)
    print_warnings(result.warnings, quiet)
    rows = explain(
        result,
        slots=slot or (),
        types=type_ or (),
        documents=doc or (),
        categories=categories,
        causes=cause or (),
        around=context,
    )
    console = make_console()
    if table:
        _print_table(console, rows)
    else:
        _print_blocks(console, rows, plain=not console.is_terminal)
    counts = tally(row.point for row in rows)
    summary = "  ".join(f"{c} {n}" for c, n in counts.items()) or "none"
    console.print(f"{len(rows)} points ({summary})", highlight=False)
