"""`hub4eval check`: validate a templette file (and its corpus).

Parses the file as a reference or a hypothesis, optionally checks it against
its text corpus, prints a summary of what was read and the warnings, and
exits 0 when the file is valid (2 with a one-line ``FILE:LINE:COL`` message
otherwise, through :func:`~hub4eval.cli.app.command`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from hub4eval.cli import options as o
from hub4eval.cli.app import command, keep_until_exit, print_warnings
from hub4eval.model import PointerFill, TemplateSet


def summary_table(tset: TemplateSet) -> Table:
    """A table of what a template set holds: sets, instances, slots, fills.

    Args:
        tset: a parsed template set.

    Returns:
        A two-column rich table (what, how many).
    """
    # one walk over the set, counting as it goes (it holds millions of records)
    instances = optional_instances = slots = optional_slots = empty_slots = 0
    alternatives = several = fills = pointers = 0
    by_type: dict[str, int] = {}
    for instance_set in tset.instance_sets:
        instances += len(instance_set.instances)
        for instance in instance_set.instances:
            by_type[instance.type] = by_type.get(instance.type, 0) + 1
            optional_instances += instance.optional
            slots += len(instance.slots)
            for slot in instance.slots:
                optional_slots += slot.optional
                count = len(slot.alternatives)
                alternatives += count
                if count != 1:
                    empty_slots += count == 0
                    several += count > 1
                for alternative in slot.alternatives:
                    fills += len(alternative.fills)
                    for fill in alternative.fills:
                        pointers += type(fill) is PointerFill

    table = Table(title=f"{tset.path or 'templates'} ({tset.role})", title_justify="left")
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("documents (instance sets)", str(len(tset.instance_sets)))
    table.add_row("instances", str(instances))
    for type_, count in by_type.items():
        table.add_row(f"  {type_}", str(count))
    table.add_row("optional instances", str(optional_instances))
    table.add_row("slots", str(slots))
    table.add_row("optional slots", str(optional_slots))
    table.add_row("empty slots", str(empty_slots))
    table.add_row("fill-alternatives", str(alternatives))
    table.add_row("slots with several alternatives", str(several))
    table.add_row("fills", str(fills))
    table.add_row("  pointer fills", str(pointers))
    table.add_row("  text fills", str(fills - pointers))
    return table


@command("check")
def check_command(
    file: Path = typer.Argument(..., help="Templette file to check ('-' for standard input)."),
    text: Optional[Path] = typer.Option(
        None,
        "--text",
        help="Text corpus (SGML, ctm, trn, stm or plain text; '-' for standard input) the file's offsets refer to: "
        "checks DOCIDs, extents and content.",
    ),
    hypothesis: bool = typer.Option(
        False,
        "--hypothesis/--reference",
        help="Read the file as a hypothesis (brackets literal, no '/') or as a reference (default).",
    ),
    encoding: str = typer.Option("utf-8", "--encoding", help="Encoding of the input files (e.g. latin-1)."),
    text_format: Optional[o.TextFormatChoice] = typer.Option(
        None,
        "--text-format",
        case_sensitive=False,
        help="Format of --text: sgml, ctm, trn, stm or txt (default: by file extension).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print no summary and no warnings, only errors."),
) -> None:
    """Check that FILE is a valid templette file; print a summary and the warnings."""
    from hub4eval.cli.options import one_from_stdin
    from hub4eval.io.validate import check_against_corpus

    one_from_stdin(FILE=file, **{"--text": text})
    role = "hypothesis" if hypothesis else "reference"
    from hub4eval.api import read_templates_checked

    # freed by the process exit, not record by record
    tset = keep_until_exit(read_templates_checked(file, role, encoding))
    warnings = list(tset.warnings)
    if text is not None:
        from hub4eval.io.formats import read_text_corpus

        try:
            corpus = read_text_corpus(str(text), text_format, encoding=encoding)
        except MemoryError:
            from hub4eval.api import too_large_error

            raise too_large_error(text) from None
        warnings += [*corpus.warnings, *check_against_corpus(tset, corpus)]
    misfit = next((w for w in warnings if w.changes_score), None)
    if misfit is None:
        print_warnings(warnings, quiet)
    if not quiet:
        console = Console()
        if not console.is_terminal:
            console = Console(width=100, no_color=True)
        console.print(summary_table(tset))
    if misfit is not None:
        # never "valid" while fills do not fit the text given: one line (exit 2) that counts them
        # and shows the first (the warnings of each fill are what `score --force` prints)
        from hub4eval.errors import InputError

        first = next((w for w in warnings if w.path == misfit.path and w.line == misfit.line), misfit)
        detail = f"; the first: {first.message}" if first is not misfit else ""
        raise InputError(
            f"not valid against {text}: {misfit.message.split(': ', 1)[0]}{detail}",
            misfit.path,
            misfit.line,
            misfit.column,
            hint="the file is well formed; check that this is the text the offsets were counted in "
            "(hub4eval score ... --force lists every fill that does not fit)",
        )
    if quiet:
        return
    against = f" against {text}" if text is not None else ""
    console.print(
        f"{file}: valid {role} templette file{against} ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})",
        highlight=False,
        soft_wrap=True,
    )
