"""`hub4eval score`: score a hypothesis templette file against a reference."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console

from hub4eval.cli import options as o
from hub4eval.cli.app import command, keep_until_exit, print_warnings

if TYPE_CHECKING:
    from hub4eval.api import OutputOptions
    from hub4eval.config import ScoreConfig
    from hub4eval.report.export import Piece
    from hub4eval.scoring.result import ScoreResult


def make_console(stderr: bool = False) -> Console:
    """A console for the tables: the terminal's width; piped, ``$COLUMNS`` if set, else 160."""
    console = Console(stderr=stderr)
    if not console.is_terminal:
        columns = os.environ.get("COLUMNS", "")
        width = int(columns) if columns.isdigit() and int(columns) > 0 else 160
        console = Console(stderr=stderr, width=width, no_color=True)
    return console


@contextmanager
def progress_bar(description: str, quiet: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on stderr when it is a terminal (and not --quiet); else nothing."""
    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        yield None
        return
    import time

    from rich.progress import Progress

    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(description, total=None)
        last = [0.0]

        def advance(done: int, total: int) -> None:
            # Callers report per document or per block of resamples, in any step:
            # pass on at most 20 updates a second (and always the last one).
            now = time.monotonic()
            if done == total or now - last[0] >= 0.05:
                last[0] = now
                progress.update(task, completed=done, total=total)

        yield advance


def score_with_progress(
    ref: Path,
    hyp: Path,
    scoring: o.ScoringOptions,
    config: ScoreConfig,
    *,
    description: str,
    quiet: bool,
    output: OutputOptions | None = None,
) -> ScoreResult:
    """:func:`hub4eval.api.score_files` with the texts and reading options of the CLI and a progress bar.

    ``config`` is ``scoring.config()``, made once by the caller; ``output``: see
    :class:`hub4eval.api.OutputOptions` (default here: no ceiling)."""
    from hub4eval.api import OutputOptions, score_files

    with progress_bar(description, quiet) as advance:
        result = score_files(
            ref,
            hyp,
            ref_text=o.existing(scoring.ref_text),
            hyp_text=o.existing(scoring.hyp_text),
            config=config,
            reading=scoring.reading(),
            output=output or OutputOptions(ceiling=False),
            progress=advance,
        )
    return keep_until_exit(result)  # freed by the process exit, not object by object


def _point_writer() -> Callable[[ScoreResult, str], None]:
    # here: the JSON and CSV writers (and the csv module) only when an output needs them
    from hub4eval.report.export import write_point_file

    return write_point_file


def _column_writer() -> Callable[[ScoreResult, str], None]:
    from hub4eval.report.page_data import write_point_columns

    return write_point_columns


def check_output(path: str | None, option: str) -> None:
    """Fail now, before any scoring, when ``path`` cannot be written (see
    :func:`hub4eval.cli.outputs.check_outputs`, which also checks the outputs
    against the inputs: call that one)."""
    from hub4eval.cli.outputs import check_outputs

    check_outputs({option: path})


def _write(text: str | Iterable[Piece], path: str, option: str) -> None:
    """Write an output file whole or not at all (:func:`hub4eval.cli.outputs.write_output`)."""
    from hub4eval.cli.outputs import write_output

    write_output(text, path, option)


@command("score")
@o.scoring_options
def score_command(
    ref: Path = typer.Argument(..., help="Reference templette file ('-' for standard input)."),
    hyp: Path = typer.Argument(..., help="Hypothesis templette file ('-' for standard input)."),
    scoring: o.ScoringOptions = o.SCORING,
    json_path: Optional[str] = typer.Option(
        None, "--json", help="Write the full result as JSON to PATH ('-' for standard output)."
    ),
    csv_path: Optional[str] = typer.Option(
        None,
        "--csv",
        help="Write one row per slot (and type, and ALL) as CSV to PATH ('-' for standard output, "
        "then only the CSV is printed).",
    ),
    by: Optional[list[o.LevelChoice]] = typer.Option(
        None,
        "--by",
        case_sensitive=False,
        metavar="document|type",
        help="Also print a table per document or per type; repeatable.",
    ),
    sort: Optional[o.SortChoice] = typer.Option(
        None,
        "--sort",
        case_sensitive=False,
        metavar="F|REC|PRE|UND|OVG|SUB|ERR|SER|POS|ACT|COR|INC|MIS|SPU|OPT|REM",
        help="Sort --by tables by a metric, worst first (e.g. F), or by a count, largest first (e.g. MIS).",
    ),
    show_mapping: bool = typer.Option(
        False, "--show-mapping", help="Print which instances were mapped, with each pair's F."
    ),
    html_path: Optional[str] = typer.Option(
        None, "--html", help="Write a self-contained HTML report (tables, F chart, drill-down) to PATH."
    ),
    bootstrap: int = typer.Option(
        0,
        "--bootstrap",
        help="Document-level bootstrap resamples for 95% intervals of REC, PRE and F (0: none; at most 10,000,000).",
    ),
    seed: int = typer.Option(
        12345, "--seed", help="Random seed of --bootstrap, 0 or more (same seed, same intervals)."
    ),
    ceiling: bool = typer.Option(
        True,
        "--ceiling/--no-ceiling",
        help="When the texts differ, also score the reference templates projected onto the hypothesis "
        "text: the best F any extractor can reach on this recognizer's output.",
    ),
    jobs: Optional[int] = o.Jobs,
    quiet: bool = o.Quiet,
) -> None:
    """Score HYP against REF: per-slot table, type subtotals, overall row and headline."""
    from hub4eval.cli.outputs import check_outputs
    from hub4eval.errors import UsageError
    from hub4eval.report import tables as report
    from hub4eval.scoring.metrics import METRICS

    levels = [o.choice(level) for level in by or ()]
    sort_by = None if sort is None else o.choice(sort)
    if sort_by is not None and sort_by.upper() not in METRICS + report.COUNT_COLUMNS:
        raise UsageError(f"unknown --sort value {sort_by!r}", hint="use a metric such as F or a count such as MIS")
    to_stdout = [
        name for name, path in (("--json", json_path), ("--csv", csv_path), ("--html", html_path)) if path == "-"
    ]
    if len(to_stdout) > 1:
        raise UsageError(
            f"{' and '.join(to_stdout)} both write to standard output ('-')",
            hint="standard output holds one output: write the others to files",
        )
    o.one_from_stdin(REF=ref, HYP=hyp, **scoring.text_files())
    check_outputs(
        {"--json": json_path, "--csv": csv_path, "--html": html_path}, {"REF": ref, "HYP": hyp, **scoring.inputs()}
    )
    from hub4eval.api import OutputOptions
    from hub4eval.report.confidence import check_resamples, check_seed

    check_resamples(bootstrap)
    check_seed(seed)
    config = scoring.config()
    result = score_with_progress(
        ref,
        hyp,
        scoring,
        config,
        description="mapping documents",
        quiet=quiet,
        output=OutputOptions(
            ceiling=None if ceiling else False,
            # the outputs need only counts and pairs, the points' JSON entries and the HTML report's
            # point columns, which groups of documents give (each writes its own into a file)
            keep="counts",
            jobs=jobs,
            point_writer=_point_writer() if json_path is not None else None,
            column_writer=_column_writer() if html_path is not None else None,
        ),
    )
    print_warnings(result.warnings, quiet)
    intervals = ceiling_bounds = None
    if bootstrap:
        from hub4eval.report.confidence import bootstrap_intervals, ceiling_intervals, document_counts

        with progress_bar("bootstrap resamples", quiet) as advance:
            intervals = bootstrap_intervals(
                list(document_counts(result).values()), bootstrap, seed, scoring.beta, progress=advance
            )
        if result.ceiling is not None:
            with progress_bar("bootstrap resamples (ceiling)", quiet) as advance:
                ceiling_bounds = ceiling_intervals(
                    document_counts(result),
                    document_counts(result.ceiling),
                    bootstrap,
                    seed,
                    scoring.beta,
                    progress=advance,
                )
    if json_path is not None:
        extra = (
            None
            if intervals is None
            else {
                "bootstrap": {
                    "resamples": bootstrap,
                    "seed": seed,
                    "level": 0.95,
                    **{m: list(v) for m, v in intervals.items()},
                    **({} if ceiling_bounds is None else {"ceiling": {m: list(v) for m, v in ceiling_bounds.items()}}),
                }
            }
        )
    try:
        if json_path is not None:
            from hub4eval.report.export import json_pieces

            _write(json_pieces(result, extra), json_path, "--json")
        if html_path is not None:
            from hub4eval.report.html import to_html

            note = f"{bootstrap} document resamples, seed {seed}" if intervals is not None else ""
            html = to_html(result, intervals=intervals, bootstrap_note=note, ceiling_intervals=ceiling_bounds)
            _write(html, html_path, "--html")
    finally:
        if result.tally is not None:
            result.tally.discard_point_files()  # the points' entries and columns, written by the groups
    if csv_path is not None:
        from hub4eval.report.export import to_csv_text

        _write(to_csv_text(result), csv_path, "--csv")
    if to_stdout:
        return  # standard output holds that output only
    console = make_console()
    for n, table in enumerate(report.slot_tables(result, console.width)):
        if n:
            console.print()
        report.print_table(console, table)
    for level in levels:
        for table in report.level_tables(result, level, sort_by, console.width):
            console.print()
            report.print_table(console, table)
    if show_mapping:
        console.print()
        report.print_table(console, report.mapping_table(result))
    causes = report.cause_table(result)
    if causes is not None:
        console.print()
        report.print_table(console, causes)
    console.print()
    wer = report.wer_line(result)
    if wer:
        console.print(wer, highlight=False)
    entity_wer = report.entity_wer_line(result)
    if entity_wer:
        console.print(entity_wer, highlight=False)
    headline = report.headline(result)
    if len(headline) > console.width:  # the counts on a line of their own, not cut anywhere
        headline = headline.replace("  (", "\n(", 1)
    console.print(headline, highlight=False)
    if intervals is not None:
        console.print(
            f"95% intervals ({bootstrap} document resamples, seed {seed}): "
            + "  ".join(f"{m} {report.percent(lo)}..{report.percent(hi)}" for m, (lo, hi) in intervals.items()),
            highlight=False,
        )
    ceiling_text = report.ceiling_line(result, ceiling_bounds)
    if ceiling_text:
        console.print(ceiling_text, highlight=False)
    console.print(f"[dim]{result.signature}[/dim]", highlight=False, soft_wrap=True)
