"""`hub4eval ne`: score named entities tagged in a text (MUC inline markup or JSON Lines)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from hub4eval.cli import options as o
from hub4eval.cli.app import command, keep_until_exit, print_warnings
from hub4eval.cli.outputs import check_outputs
from hub4eval.cli.score import _write, make_console, progress_bar


class EntityFormatChoice(str, Enum):
    muc = "muc"
    jsonl = "jsonl"


def _given(name: str) -> bool:
    """Whether option ``name`` was given on the command line (not left at its default)."""
    try:
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover - older typer uses click itself
        from click import get_current_context  # type: ignore[no-redef]  # the same function, as click has it
    context = get_current_context(silent=True)
    if context is None:
        return False
    source = context.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


# The shared options that name text files: ne's texts are its two arguments.
_TEXT_FILE_OPTIONS = ("ref_text", "hyp_text", "text_format", "hyp_text_format")


def _without_text_file_options(function: Callable[..., None]) -> Callable[..., None]:
    """``function`` (made by ``scoring_options``) without the options of :data:`_TEXT_FILE_OPTIONS`,
    which it then receives as None: typer neither shows nor accepts them."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def command(**values: Any) -> None:
        function(**values, **dict.fromkeys(_TEXT_FILE_OPTIONS))

    kept = [p for p in signature.parameters.values() if p.name not in _TEXT_FILE_OPTIONS]
    command.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    command.__annotations__ = {k: v for k, v in function.__annotations__.items() if k not in _TEXT_FILE_OPTIONS}
    return command


@command("ne")
@_without_text_file_options
@o.scoring_options
def ne_command(
    ref: Path = typer.Argument(
        ..., help="Reference text with its named entities tagged: MUC inline markup (SGML), or JSON Lines (.jsonl)."
    ),
    hyp: Path = typer.Argument(
        ..., help="Hypothesis text (e.g. tagged ASR output), segmented or one unsegmented stream; same formats."
    ),
    scoring: o.ScoringOptions = o.SCORING,
    ref_format: Optional[EntityFormatChoice] = typer.Option(
        None,
        "--ref-format",
        case_sensitive=False,
        help="Format of REF: muc (inline ENAMEX/TIMEX/NUMEX markup) or jsonl (default: jsonl for .jsonl and "
        ".json files, else muc).",
    ),
    hyp_format: Optional[EntityFormatChoice] = typer.Option(
        None, "--hyp-format", case_sensitive=False, help="Format of HYP: muc or jsonl (default: by extension, as REF)."
    ),
    json_path: Optional[str] = typer.Option(
        None, "--json", help="Write the full result as JSON to PATH ('-' for standard output)."
    ),
    csv_path: Optional[str] = typer.Option(
        None,
        "--csv",
        help="Write one row per entity row (element, TYPE value, ALL) and part (ALL, TYPE, TEXT, TEXT content, "
        "TEXT extent) as CSV to PATH ('-' for standard output, then only the CSV is printed).",
    ),
    html_path: Optional[str] = typer.Option(
        None, "--html", help="Write a self-contained HTML report (tables, F chart, drill-down) to PATH."
    ),
    to_templettes_given: Optional[str] = typer.Option(
        None,
        "--to-templettes",
        metavar="DIR",
        help="Also write what was scored to DIR: ref.tpl and hyp.tpl (one instance per region) and the texts "
        "without the markup (ref.sgml, hyp.sgml) their offsets count in.",
    ),
    bootstrap: int = typer.Option(
        0,
        "--bootstrap",
        help="Document-level bootstrap resamples for 95% intervals of REC, PRE and F (0: none; with --versus, "
        "the resamples of the paired test, 10000 by default).",
    ),
    seed: int = typer.Option(12345, "--seed", help="Random seed of --bootstrap (same seed, same intervals)."),
    versus: Optional[Path] = typer.Option(
        None,
        "--versus",
        metavar="HYP_B",
        help="A second system's tagged text: score it the same way and test F(HYP) - F(HYP_B) by paired "
        "document bootstrap.",
    ),
    explain_errors: bool = typer.Option(
        False,
        "--explain",
        help="Also print every error point (INC, MIS, SPU) with both regions, the reason, the cause and the "
        "aligned words, as 'hub4eval explain' does.",
    ),
    ceiling: bool = typer.Option(
        True,
        "--ceiling/--no-ceiling",
        help="When the texts differ, also score the reference regions projected onto the hypothesis text: the "
        "best F any tagger can reach on this recognizer's output.",
    ),
    quiet: bool = o.Quiet,
) -> None:
    """Score the named entities of HYP against REF, as MUC and the MITRE speech scorer do: F and SER,
    per element and TYPE value, with the TYPE and TEXT sub-scores (docs/named-entities.md)."""
    import dataclasses

    from hub4eval.api import score_entity_files
    from hub4eval.errors import UsageError
    from hub4eval.report import entities as report
    from hub4eval.report import export, tables

    to_stdout = [
        name for name, path in (("--json", json_path), ("--csv", csv_path), ("--html", html_path)) if path == "-"
    ]
    if len(to_stdout) > 1:
        raise UsageError(
            f"{' and '.join(to_stdout)} both write to standard output ('-')",
            hint="standard output holds one output: write the others to files",
        )
    o.one_from_stdin(REF=ref, HYP=hyp, **{"--versus": versus})
    from hub4eval.report.confidence import check_resamples, check_seed

    check_resamples(bootstrap)
    check_seed(seed)
    if versus is not None and bootstrap == 0:
        bootstrap = 10000
    if to_templettes_given == "":  # Path('') would be the current folder
        raise UsageError("the --to-templettes path is empty", hint="give the directory to write to")
    to_templettes = None if to_templettes_given is None else Path(to_templettes_given)
    # --to-templettes DIR writes four files: none of them may be an input (DIR '.' and a REF named ref.sgml)
    written = {} if to_templettes is None else _templette_files(to_templettes)
    check_outputs(
        {"--json": json_path, "--csv": csv_path, "--html": html_path, **written},
        {"REF": ref, "HYP": hyp, "--versus": versus, "--glm": scoring.glm},
    )
    if to_templettes is not None and to_templettes.exists() and not to_templettes.is_dir():
        raise UsageError(
            f"--to-templettes {to_templettes} is not a directory", str(to_templettes), hint="give a directory"
        )
    config = scoring.config()
    if not _given("premodifiers"):  # MUC compares regions as tagged: no word is dropped unless asked
        config = dataclasses.replace(config, premodifiers=())

    def score_one(hypothesis: Path, with_ceiling: bool) -> Any:
        with progress_bar(f"scoring {hypothesis.name}", quiet) as advance:
            return score_entity_files(
                ref,
                hypothesis,
                config=config,
                reading=scoring.reading(),
                ref_format=o.choice(ref_format) if ref_format is not None else None,
                hyp_format=o.choice(hyp_format) if hyp_format is not None else None,
                ceiling=None if with_ceiling else False,
                progress=advance,
            )

    scored = score_one(hyp, ceiling)
    if versus is not None:
        from hub4eval.util.kept import free_kept

        free_kept()  # the makings of the first score (not its result) are freed before the second
    other = None if versus is None else keep_until_exit(score_one(versus, False))
    keep_until_exit(scored)
    result = scored.result
    print_warnings(dict.fromkeys([*result.warnings, *(other.result.warnings if other is not None else ())]), quiet)
    beta = result.config.beta
    rows = report.entity_counts(
        result, report.type_values(scored.ref_templates), report.type_values(scored.hyp_templates)
    )
    if to_templettes is not None:
        _write_templettes(to_templettes, scored)
    extra: dict[str, Any] = {"named_entities": report.entity_json(rows, beta)}
    intervals = comparison = None
    if bootstrap and versus is None:
        from hub4eval.report.confidence import bootstrap_intervals, document_counts

        with progress_bar("bootstrap resamples", quiet) as advance:
            intervals = bootstrap_intervals(
                list(document_counts(result).values()), bootstrap, seed, beta, progress=advance
            )
        extra["bootstrap"] = {
            "resamples": bootstrap,
            "seed": seed,
            "level": 0.95,
            **{m: list(v) for m, v in intervals.items()},
        }
    if other is not None:
        from hub4eval.report.confidence import document_counts
        from hub4eval.report.systems import paired_bootstrap
        from hub4eval.scoring.metrics import Counts

        docs_a, docs_b = document_counts(result), document_counts(other.result)
        documents = list(dict.fromkeys([*docs_a, *docs_b]))
        with progress_bar("paired bootstrap resamples", quiet) as advance:
            comparison = paired_bootstrap(
                [docs_a.get(d, Counts()) for d in documents],
                [docs_b.get(d, Counts()) for d in documents],
                bootstrap,
                seed,
                beta,
                progress=advance,
            )
        extra["versus"] = {
            "B": str(versus),
            "documents": len(documents),
            "summary_B": other.result.total.as_dict(beta),
            **comparison,
        }
    if json_path is not None:
        _write(export.json_pieces(result, extra), json_path, "--json")
    if html_path is not None:
        from hub4eval.report.html import to_html

        note = f"{bootstrap} document resamples, seed {seed}" if intervals is not None else ""
        html = to_html(result, "hub4eval named entities", intervals=intervals, bootstrap_note=note)
        _write(html, html_path, "--html")
    if csv_path is not None:
        _write(report.entity_csv(rows, beta), csv_path, "--csv")
    if to_stdout:
        return
    console = make_console()
    shown = [*report.entity_tables(rows, beta, console.width), *report.part_tables(rows, beta, console.width)]
    for n, table in enumerate(shown):
        if n:
            console.print()
        console.print(table)
    causes = tables.cause_table(result)
    if causes is not None:
        console.print()
        console.print(causes)
    console.print()
    for line in (tables.wer_line(result), tables.entity_wer_line(result)):
        if line:
            console.print(line, highlight=False)
    headline = report.headline(rows, beta)
    if len(headline) > console.width:
        headline = headline.replace("  (", "\n(", 1)
    console.print(headline, highlight=False)
    if intervals is not None:
        console.print(
            f"95% intervals ({bootstrap} document resamples, seed {seed}): "
            + "  ".join(f"{m} {tables.percent(lo)}..{tables.percent(hi)}" for m, (lo, hi) in intervals.items()),
            highlight=False,
        )
    if comparison is not None and other is not None:
        from rich.markup import escape

        b_rows = report.entity_counts(
            other.result, report.type_values(other.ref_templates), report.type_values(other.hyp_templates)
        )
        low, high = comparison["interval"]
        p_value = comparison["p_value"]
        console.print(f"B  {escape(str(versus))}: {report.headline(b_rows, beta)}", highlight=False, soft_wrap=True)
        if other.result.signature != result.signature:
            console.print(
                f"note: B was scored with other options: {escape(other.result.signature)}",
                highlight=False,
                soft_wrap=True,
            )
        console.print(
            f"F(A) - F(B) = {tables.percent(comparison['difference'])} points  "
            f"95% interval {tables.percent(low)}..{tables.percent(high)}  "
            f"p = {'-' if p_value is None else format(p_value, '.4f')}  "
            f"(paired bootstrap, {bootstrap} document resamples, seed {seed})",
            highlight=False,
            soft_wrap=True,
        )
    ceiling_text = tables.ceiling_line(result)
    if ceiling_text:
        console.print(ceiling_text, highlight=False)
    console.print(f"[dim]{result.signature}[/dim]", highlight=False, soft_wrap=True)
    if explain_errors:
        from hub4eval.cli.explain import _print_blocks
        from hub4eval.report.explain import explain

        errors = [row for row in explain(result) if row.point.category in ("INC", "MIS", "SPU")]
        console.print()
        _print_blocks(console, errors, plain=not console.is_terminal)
        console.print(f"{len(errors)} error points", highlight=False)


def _templette_files(folder: Path) -> dict[str, str]:
    """The files --to-templettes writes in ``folder``, by the name an error shows."""
    if not folder.is_dir():  # made by the run (or refused below): none of its files can be an input
        return {}
    return {f"--to-templettes ({name})": str(folder / name) for name in ("ref.sgml", "ref.tpl", "hyp.sgml", "hyp.tpl")}


def _write_templettes(folder: Path, scored: Any) -> None:
    """ref.tpl, hyp.tpl and the two texts without markup, in ``folder`` (made if missing)."""
    from hub4eval.errors import UsageError
    from hub4eval.io.templettes import write_templates

    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, templates, source in (
            ("ref", scored.ref_templates, scored.ref),
            ("hyp", scored.hyp_templates, scored.hyp),
        ):
            _write(source.text, str(folder / f"{name}.sgml"), "--to-templettes")
            _write(write_templates(templates), str(folder / f"{name}.tpl"), "--to-templettes")
    except OSError as error:
        raise UsageError(
            f"cannot write the --to-templettes output: {error.strerror or error}",
            str(folder),
            hint="check that the directory can be made and written to",
        ) from None
