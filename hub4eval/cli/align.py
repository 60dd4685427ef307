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
        lines.append((" ".join(ref_cells[start:end]), " ".join(hyp_cells[start:end]), " ".join(eval_cells[start:end])))
        start = end
    return lines


@command("align")
def align_command(
    ref_text: Path = typer.Argument(
        ..., help="Reference text corpus (SGML documents, ctm, trn or stm; '-' for standard input)."
    ),
    hyp_text: Path = typer.Argument(
        ...,
        help="Hypothesis text corpus (e.g. ASR output: SGML with or without documents, ctm, trn, stm or "
        "plain text; '-' for standard input).",
    ),
    show: bool = typer.Option(
        False,
        "--show",
        help="Print the aligned words (REF/HYP rows like sclite's pra output) of the weighted alignment used "
        "for extents.",
    ),
    unsegmented: Optional[bool] = o.Unsegmented,
    glm: Optional[list[str]] = o.Glm,
    spoken_forms: str = o.SpokenForms,
    keep_punctuation: bool = o.KeepPunctuation,
    case_sensitive: bool = o.CaseSensitive,
    non_extractable: Optional[list[str]] = o.NonExtractable,
    spoken_element: str = o.SpokenElement,
    doc_tag: str = o.DocTag,
    docno_tag: str = o.DocnoTag,
    encoding: str = o.Encoding,
    text_format: Optional[o.TextFormatChoice] = o.TextFormat,
    hyp_text_format: Optional[o.TextFormatChoice] = o.HypTextFormat,
    json_path: Optional[str] = typer.Option(
        None, "--json", help="Write the WER counts as JSON to PATH ('-' for standard output)."
    ),
    jobs: Optional[int] = o.AlignJobs,
    quiet: bool = o.Quiet,
) -> None:
    """Align two text corpora word by word and print the word error rate per document."""
    import json

    from rich.markup import escape

    from hub4eval.api import glm_digests, load_glm, unsegmented_reference_error
    from hub4eval.cli.outputs import check_outputs
    from hub4eval.cli.outputs import write_output as _write
    from hub4eval.cli.score import make_console
    from hub4eval.config import ALIGNMENT_FIELDS, DEFAULT_NON_EXTRACTABLE, ScoreConfig
    from hub4eval.io.formats import check_text_format, read_text_corpora
    from hub4eval.report import tables as report
    from hub4eval.text.aligned_texts import align_texts
    from hub4eval.util.forked import available_cores

    o.one_from_stdin(REF_TEXT=ref_text, HYP_TEXT=hyp_text)
    check_outputs({"--json": json_path}, {"REF_TEXT": ref_text, "HYP_TEXT": hyp_text, "--glm": glm})
    if jobs is not None:
        from hub4eval.api import OutputOptions

        OutputOptions(jobs=jobs)  # the same bound as score's --jobs, refused up front
    hidden = o.words("--non-extractable", non_extractable, DEFAULT_NON_EXTRACTABLE)
    # ScoreConfig checks --glm and --spoken-forms as the scoring commands do
    config = ScoreConfig(
        glm=tuple(glm) if glm else ("default",),
        spoken_forms=spoken_forms,
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
        non_extractable=hidden,
        spoken_element=spoken_element,
        unsegmented=unsegmented,
    )
    check_text_format(text_format)
    check_text_format(hyp_text_format, "--hyp-text-format")
    corpora = read_text_corpora(
        str(ref_text),
        str(hyp_text),
        text_format,
        hyp_text_format or text_format,
        doc_tag=doc_tag,
        docno_tag=docno_tag,
        non_extractable=hidden,
        encoding=encoding,
        spoken_element=spoken_element,
    )
    if not corpora[0].segmented:  # raw text (or a templette file) given as the reference
        raise unsegmented_reference_error(corpora[0])
    glm_file = load_glm(config.glm, keep_punctuation=keep_punctuation)
    signature = config.signature(texts="aligned", glm_digest=glm_digests(glm_file), only=ALIGNMENT_FIELDS)
    texts = align_texts(
        corpora[0],
        corpora[1],
        jobs=available_cores() if jobs is None else jobs,
        glm=glm_file,
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
        unsegmented=unsegmented,
        spoken_forms=config.spoken_forms,
    )
    alignment = texts.alignment
    glm_warnings = glm_file.warnings if glm_file is not None else ()
    print_warnings([*glm_warnings, *corpora[0].warnings, *corpora[1].warnings, *alignment.warnings], quiet)
    wer = texts.wer()  # sclite's counts, and the extents' alignment's when they differ
    summary = wer["summary"]
    if json_path is not None:
        data = {"signature": signature, **wer}
        _write(json.dumps(data, indent=2) + "\n", json_path, "--json")
        if json_path == "-":
            return
    console = make_console()

    def row(name: str, counts: dict) -> list[str]:
        return [
            name,
            str(counts["ref_words"]),
            str(counts["matches"]),
            str(counts["substitutions"]),
            str(counts["deletions"]),
            str(counts["insertions"]),
            report.percent(counts["wer"]),
        ]

    rows = []
    for document in wer["documents"]:
        name = document["ref_docid"] or f"{document['hyp_docid'] or '(unsegmented)'} (hypothesis only)"
        if document["ref_docid"] is None and document["hyp_docid"] is None:
            name = "(unsegmented)"
        rows.append(row(name, document))
    # piped (no styles): drawn without rich's layout (plain_table), seconds faster at 10,000 documents
    report.print_table(console, report.wer_table(rows, row("ALL", summary)))
    if alignment.unsegmented:
        console.print(
            "unsegmented hypothesis: aligned against all reference documents at once, counted per "
            "reference document (an insertion counts where the reference word before it is)",
            highlight=False,
        )
    if show:
        width = max(40, (console.width or 100) - 6)
        console.print()
        console.print("aligned words: the weighted alignment used for extents", highlight=False)
        for ref_id, hyp_id, document, columns in alignment.document_views():
            console.print()
            name = ref_id or hyp_id or "(unsegmented)"
            console.print(f"id: {name}", highlight=False, markup=False)
            for ref_line, hyp_line, eval_line in _pra_rows(document.rows(columns), width):
                console.print(f"REF:  {ref_line}", highlight=False, markup=False)
                console.print(f"HYP:  {hyp_line}", highlight=False, markup=False)
                console.print(f"Eval: {eval_line}".rstrip(), highlight=False, markup=False)
    console.print()
    console.print(report.wer_text(summary), highlight=False)
    console.print(f"[dim]{escape(signature)}[/dim]", highlight=False, soft_wrap=True)
