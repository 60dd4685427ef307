"""`hub4eval align`: word error rate of a hypothesis text, and the aligned words."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from hub4eval.cli import options as o
from hub4eval.cli.app import command, print_warnings

KIND_LABELS = ("", "S", "D", "I")


def _pra_rows(rows: list[tuple[str, str, int]], width: int) -> list[tuple[str, str, str]]:
    """sclite-style REF/HYP/EVAL lines: errors in upper case, gaps as ***, wrapped at ``width``."""
    ref_cells, hyp_cells, eval_cells = [], [], []
    for ref, hyp, kind in rows:
        if kind:
            ref, hyp = (ref.upper() or "***"), (hyp.upper() or "***")
        size = max(len(ref), len(hyp), 1)
        ref_cells.append(ref.ljust(size))
        hyp_cells.append(hyp.ljust(size))
        eval_cells.append(KIND_LABELS[kind].ljust(size))
    lines: list[tuple[str, str, str]] = []
    start = 0
    while start < len(ref_cells):
        used, end = 0, start
        while end < len(ref_cells) and (end == start or used + len(ref_cells[end]) + 1 <= width):
            used += len(ref_cells[end]) + 1
            end += 1
        lines.append(
            (" ".join(ref_cells[start:end]), " ".join(hyp_cells[start:end]), " ".join(eval_cells[start:end]))
        )
        start = end
    return lines


@command("align")
def align_command(
    ref_text: Path = typer.Argument(..., help="Reference text corpus (SGML documents)."),
    hyp_text: Path = typer.Argument(..., help="Hypothesis text corpus (e.g. ASR output, with or without documents)."),
    show: bool = typer.Option(False, "--show", help="Print the aligned words (REF/HYP rows like sclite's pra output)."),
    unsegmented: Optional[bool] = o.Unsegmented,
    glm: str = o.Glm,
    keep_punctuation: bool = o.KeepPunctuation,
    case_sensitive: bool = o.CaseSensitive,
    non_extractable: Optional[list[str]] = o.NonExtractable,
    doc_tag: str = o.DocTag,
    docno_tag: str = o.DocnoTag,
    encoding: str = o.Encoding,
    json_path: Optional[str] = typer.Option(None, "--json", help="Write the WER counts as JSON to PATH ('-' for standard output)."),
    quiet: bool = o.Quiet,
) -> None:
    """Align two text corpora word by word (§7) and print the word error rate per document."""
    import json

    from rich.table import Table

    from hub4eval.api import load_glm, unsegmented_reference_error
    from hub4eval.cli.score import _write, make_console
    from hub4eval.config import DEFAULT_NON_EXTRACTABLE
    from hub4eval.io.corpus import read_corpus
    from hub4eval.report import tables as report
    from hub4eval.text.columns import align_corpora

    hidden = tuple(non_extractable) if non_extractable else DEFAULT_NON_EXTRACTABLE
    corpora = [
        read_corpus(str(path), doc_tag=doc_tag, docno_tag=docno_tag, non_extractable=hidden, encoding=encoding)
        for path in (ref_text, hyp_text)
    ]
    if not corpora[0].segmented:  # raw text (or a templette file) given as the reference
        raise unsegmented_reference_error(corpora[0])
    glm_file = load_glm(glm)
    alignment = align_corpora(
        corpora[0], corpora[1], glm=glm_file, keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive, unsegmented=unsegmented,
    )
    print_warnings([*corpora[0].warnings, *corpora[1].warnings, *alignment.warnings], quiet)
    summary = alignment.wer_summary()
    if json_path is not None:
        data = {"summary": summary, "documents": alignment.per_document()}
        _write(json.dumps(data, indent=2) + "\n", json_path, "--json")
        if json_path == "-":
            return
    console = make_console()
    table = Table(title="Word error rate", title_justify="left", show_edge=False, pad_edge=False)
    for column in ("DOCUMENT", "REF WORDS", "MATCH", "SUB", "DEL", "INS", "WER"):
        table.add_column(column, justify="left" if column == "DOCUMENT" else "right")

    def row(name: str, counts: dict) -> list[str]:
        return [
            name, str(counts["ref_words"]), str(counts["matches"]), str(counts["substitutions"]),
            str(counts["deletions"]), str(counts["insertions"]), report.percent(counts["wer"]),
        ]

    for document in alignment.per_document():
        name = document["ref_docid"] or f"{document['hyp_docid'] or '(unsegmented)'} (hypothesis only)"
        if document["ref_docid"] is None and document["hyp_docid"] is None:
            name = "(unsegmented)"
        table.add_row(*row(name, document))
    table.add_section()
    table.add_row(*row("ALL", summary), style="bold")
    console.print(table)
    if alignment.unsegmented:
        console.print(
            "unsegmented hypothesis: aligned against all reference documents at once, counted per "
            "reference document (an insertion counts where the reference word before it is)",
            highlight=False,
        )
    if show:
        width = max(40, (console.width or 100) - 6)
        for ref_id, hyp_id, document, columns in alignment.document_views():
            console.print()
            name = ref_id or hyp_id or "(unsegmented)"
            console.print(f"id: {name}", highlight=False, markup=False)
            for ref_line, hyp_line, eval_line in _pra_rows(document.rows(columns), width):
                console.print(f"REF:  {ref_line}", highlight=False, markup=False)
                console.print(f"HYP:  {hyp_line}", highlight=False, markup=False)
                console.print(f"Eval: {eval_line}".rstrip(), highlight=False, markup=False)
    console.print()
    console.print(
        f"WER = {report.percent(summary['wer'])}  (ref words {summary['ref_words']}  "
        f"sub {summary['substitutions']}  del {summary['deletions']}  ins {summary['insertions']})",
        highlight=False,
    )
