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
@o.scoring_options
def project_command(
    ref: Path = typer.Argument(..., help="Reference templette file."),
    output: str = typer.Option(
        ..., "--output", "-o", help="Where to write the projected templates ('-' for standard output)."
    ),
    scoring: o.ScoringOptions = o.SCORING,
    jobs: Optional[int] = o.TextJobs,
    quiet: bool = o.Quiet,
) -> None:
    """Write REF projected onto the hypothesis text as a hypothesis file: the ceiling of any extractor.

    Each reference fill becomes the hypothesis words aligned to its words that score
    best (a fill that can score nothing is left out), and a slot with alternatives
    the alternative that scores best. It takes every option of `score`: scored
    against REF with the same texts and options, the file scores exactly the
    ceiling `score` prints.
    """
    from hub4eval.errors import UsageError

    for name, given in (("--ref-text", scoring.ref_text), ("--hyp-text", scoring.hyp_text)):
        if given is None:
            raise UsageError(f"project needs {name}", hint="give the reference and the hypothesis texts")
    from hub4eval.api import project_files
    from hub4eval.cli.outputs import check_outputs
    from hub4eval.cli.outputs import write_output as _write
    from hub4eval.io.templettes import write_templates

    o.one_from_stdin(REF=ref, **scoring.text_files())
    check_outputs({"--output": output}, {"REF": ref, **scoring.inputs()})
    projected = project_files(
        ref,
        ref_text=str(scoring.ref_text),
        hyp_text=str(scoring.hyp_text),
        config=scoring.config(),
        reading=scoring.reading(),
        jobs=jobs,
    )
    print_warnings(projected.warnings, quiet)
    _write(write_templates(projected), output, "--output")
    if output != "-" and not quiet:
        from rich.console import Console

        fills = sum(len(alt.fills) for inst in projected.instances for slot in inst.slots for alt in slot.alternatives)
        Console(stderr=True).print(
            f"wrote {len(projected.instances)} instances, {fills} fills to {output}", highlight=False
        )
