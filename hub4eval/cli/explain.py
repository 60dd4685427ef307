"""`hub4eval explain`: every point matching the filters, with its fills and the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from . import options as o
from .app import command, print_warnings


def _context_lines(context, plain: bool) -> tuple[str, str]:  # noqa: ANN001
    """REF and HYP lines of an aligned context; the fill's words marked."""
    from rich.markup import escape

    ref_cells, hyp_cells = [], []
    for ref, hyp, ref_on, hyp_on in zip(context.ref_words, context.hyp_words, context.ref_marked, context.hyp_marked):
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
    return " ".join(ref_cells), " ".join(hyp_cells)


@command("explain")
def explain_command(
    ref: Path = typer.Argument(..., help="Reference templette file."),
    hyp: Path = typer.Argument(..., help="Hypothesis templette file."),
    slot: Optional[list[str]] = typer.Option(None, "--slot", help="Only points of this slot, as TYPE.SLOT; repeatable."),
    type_: Optional[list[str]] = typer.Option(None, "--type", help="Only points of this instance type; repeatable."),
    doc: Optional[list[str]] = typer.Option(None, "--doc", help="Only points of this document (DOCID); repeatable."),
    category: Optional[list[str]] = typer.Option(
        None, "--category", help="Only points of this category: COR INC MIS SPU OPT REM; repeatable."
    ),
    ref_text: Optional[Path] = o.RefText,
    hyp_text: Optional[Path] = o.HypText,
    unsegmented: Optional[bool] = o.Unsegmented,
    compare: str = o.Compare,
    content: str = o.Content,
    glm: str = o.Glm,
    beta: float = o.Beta,
    min_map_f: Optional[float] = o.MinMapF,
    unscored_slot: Optional[list[str]] = o.UnscoredSlot,
    premodifiers: str = o.Premodifiers,
    keep_punctuation: bool = o.KeepPunctuation,
    case_sensitive: bool = o.CaseSensitive,
    non_extractable: Optional[list[str]] = o.NonExtractable,
    fillers: str = o.Fillers,
    doc_tag: str = o.DocTag,
    docno_tag: str = o.DocnoTag,
    encoding: str = o.Encoding,
    quiet: bool = o.Quiet,
) -> None:
    """List every point matching the filters: category, reference and hypothesis fills, reason."""
    from rich.markup import escape

    from ..api import score_files
    from ..explain import aligned_context, select_points
    from .score import make_console

    config = o.build_config(
        compare=compare, content=content, glm=glm, beta=beta, min_map_f=min_map_f,
        unscored_slot=unscored_slot, premodifiers=premodifiers, keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive, non_extractable=non_extractable, fillers=fillers,
        unsegmented=unsegmented,
    )
    result = score_files(
        ref, hyp, ref_text=o.existing(ref_text), hyp_text=o.existing(hyp_text), config=config,
        encoding=encoding, doc_tag=doc_tag, docno_tag=docno_tag,
    )
    print_warnings(result.warnings, quiet)
    points = select_points(
        result, slots=slot or (), types=type_ or (), documents=doc or (), categories=category or ()
    )
    console = make_console()
    plain = not console.is_terminal
    for point in points:
        console.print(
            f"[bold]{point.category}[/bold] {point.kind:<7} {escape(point.slot_key)}  {escape(point.docid)}",
            highlight=False,
        )
        console.print(f"  REF  {escape(point.ref.fill) if point.ref else '-'}"
                      + (f"  ({escape(point.ref.instance)}, line {point.ref.line})" if point.ref else ""),
                      highlight=False)
        console.print(f"  HYP  {escape(point.hyp.fill) if point.hyp else '-'}"
                      + (f"  ({escape(point.hyp.instance)}, line {point.hyp.line})" if point.hyp else ""),
                      highlight=False)
        console.print(f"  why  {escape(point.reason)}", highlight=False)
        context = aligned_context(result, point)
        if context is not None:
            ref_line, hyp_line = _context_lines(context, plain)
            console.print(f"  aligned REF: {ref_line}", highlight=False, markup=not plain)
            console.print(f"  aligned HYP: {hyp_line}", highlight=False, markup=not plain)
    counts = {}
    for point in points:
        counts[point.category] = counts.get(point.category, 0) + 1
    summary = "  ".join(f"{c} {n}" for c, n in counts.items()) or "none"
    console.print(f"{len(points)} points ({summary})", highlight=False)
