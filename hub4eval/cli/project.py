"""`hub4eval project`: the reference templates projected onto the hypothesis text (the ceiling).

Each reference text fill becomes the hypothesis words aligned to it; the
result is written as a hypothesis templette file, which scores (with the same
texts and options) as the best any extractor can reach on that recognizer's
output. See :mod:`hub4eval.scoring.projection`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from hub4eval.cli import options as o
from hub4eval.cli.app import command, print_warnings


@command("project")
def project_command(
    ref: Path = typer.Argument(..., help="Reference templette file."),
    ref_text: Path = typer.Option(..., "--ref-text", help="Reference text corpus (SGML) the reference offsets index."),
    hyp_text: Path = typer.Option(
        ..., "--hyp-text", help="Hypothesis text corpus (e.g. ASR output) to project the reference onto."
    ),
    output: str = typer.Option(
        ..., "--output", "-o", help="Where to write the projected templates ('-' for standard output)."
    ),
    unsegmented: Optional[bool] = o.Unsegmented,
    glm: Optional[list[str]] = o.Glm,
    keep_punctuation: bool = o.KeepPunctuation,
    case_sensitive: bool = o.CaseSensitive,
    non_extractable: Optional[list[str]] = o.NonExtractable,
    doc_tag: str = o.DocTag,
    docno_tag: str = o.DocnoTag,
    text_format: Optional[o.TextFormatChoice] = o.TextFormat,
    hyp_text_format: Optional[o.TextFormatChoice] = o.HypTextFormat,
    encoding: str = o.Encoding,
    quiet: bool = o.Quiet,
) -> None:
    """Write REF projected onto the hypothesis text as a hypothesis file: the ceiling of any extractor.

    Each reference fill becomes the hypothesis words aligned to its words (a fill
    whose words were all lost is left out). Score the file against REF with the
    same texts and options to see the best score this recognizer's output allows.
    """
    from hub4eval.api import ReadOptions, project_files
    from hub4eval.cli.outputs import check_outputs
    from hub4eval.cli.outputs import write_output as _write
    from hub4eval.io.templettes import write_templates

    check_outputs({"--output": output}, {"REF": ref, "--ref-text": ref_text, "--hyp-text": hyp_text, "--glm": glm})
    config = o.build_config(
        compare="both",
        content="auto",
        glm=glm,
        beta=1.0,
        min_map_f=None,
        unscored_slot=None,
        premodifiers=list(o.DEFAULT_PREMODIFIERS),
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
        non_extractable=non_extractable,
        fillers=list(o.DEFAULT_FILLERS),
        unsegmented=unsegmented,
    )
    reading = ReadOptions(
        encoding=encoding,
        doc_tag=doc_tag,
        docno_tag=docno_tag,
        text_format=o.choice(text_format) if text_format is not None else None,
        hyp_text_format=o.choice(hyp_text_format) if hyp_text_format is not None else None,
    )
    projected = project_files(ref, ref_text=ref_text, hyp_text=hyp_text, config=config, reading=reading)
    print_warnings(projected.warnings, quiet)
    _write(write_templates(projected), output, "--output")
    if output != "-" and not quiet:
        from rich.console import Console

        fills = sum(len(alt.fills) for inst in projected.instances for slot in inst.slots for alt in slot.alternatives)
        Console(stderr=True).print(
            f"wrote {len(projected.instances)} instances, {fills} fills to {output}", highlight=False
        )
