"""`hub4eval compare`: is system A really better than system B? (paired bootstrap)

Both hypotheses are scored against the same reference with the same options;
the per-document counts of the two results then go through
:func:`hub4eval.report.confidence.paired_bootstrap` over the union of their documents
(a document one system has no counts for counts zero points for it).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Optional

import typer

from hub4eval.cli import options as o
from hub4eval.cli.app import command, print_warnings


@command("compare")
@o.scoring_options
def compare_command(
    ref: Path = typer.Argument(..., help="Reference templette file ('-' for standard input)."),
    hyp_a: Path = typer.Argument(..., help="Hypothesis of system A ('-' for standard input)."),
    hyp_b: Path = typer.Argument(..., help="Hypothesis of system B ('-' for standard input)."),
    scoring: o.ScoringOptions = o.SCORING,
    bootstrap: int = typer.Option(
        10000, "--bootstrap", help="Paired document-level bootstrap resamples (1 to 10,000,000)."
    ),
    seed: int = typer.Option(12345, "--seed", help="Random seed of the resampling, 0 or more."),
    json_path: Optional[str] = typer.Option(
        None, "--json", help="Write the comparison as JSON to PATH ('-' for standard output)."
    ),
    jobs: Optional[int] = o.TextJobs,
    quiet: bool = o.Quiet,
) -> None:
    """Score A and B against REF (same texts for both) and test F(A) - F(B) by paired bootstrap."""
    import json

    from rich.markup import escape

    from hub4eval.api import OutputOptions
    from hub4eval.cli.outputs import check_outputs
    from hub4eval.cli.outputs import write_output as _write
    from hub4eval.cli.score import make_console, progress_bar, score_with_progress
    from hub4eval.errors import UsageError
    from hub4eval.report import tables as report
    from hub4eval.report.confidence import check_resamples, check_seed, document_counts
    from hub4eval.report.systems import paired_bootstrap
    from hub4eval.scoring.metrics import Counts
    from hub4eval.util.kept import free_kept

    if bootstrap < 1:
        raise UsageError(f"--bootstrap must be at least 1, got {bootstrap}", hint="e.g. --bootstrap 10000")
    check_resamples(bootstrap)
    check_seed(seed)
    o.one_from_stdin(REF=ref, A=hyp_a, B=hyp_b, **scoring.text_files())
    check_outputs({"--json": json_path}, {"REF": ref, "A": hyp_a, "B": hyp_b, **scoring.inputs()})
    config = scoring.config()
    results = []
    for number, hyp in enumerate((hyp_a, hyp_b)):
        if number:
            free_kept()  # the makings of A's score (not its result) are freed before B is scored
        results.append(
            score_with_progress(
                ref,
                hyp,
                scoring,
                config,
                description=f"scoring {hyp.name}",
                quiet=quiet,
                # one ceiling: the same reference and texts (a --jobs out of bounds is refused
                # as A's options are made, before any file is read)
                output=OutputOptions(ceiling=None if number == 0 else False, jobs=jobs),
            )
        )
    # B shares A's reference and texts, so A's ceiling: its causes agree with it too (§11)
    if results[0].ceiling is not None:
        results[1] = dataclasses.replace(results[1], ceiling=results[0].ceiling)
    causes = [_cause_split(result) for result in results]
    # The reference (and texts) are read twice: print a warning they share once.
    print_warnings(dict.fromkeys([*results[0].warnings, *results[1].warnings]), quiet)
    docs_a, docs_b = document_counts(results[0]), document_counts(results[1])
    documents = list(dict.fromkeys([*docs_a, *docs_b]))
    with progress_bar("paired bootstrap resamples", quiet) as advance:
        outcome = paired_bootstrap(
            [docs_a.get(d, Counts()) for d in documents],
            [docs_b.get(d, Counts()) for d in documents],
            bootstrap,
            seed,
            scoring.beta,
            progress=advance,
        )
    if json_path is not None:
        data = {
            "A": str(hyp_a),
            "B": str(hyp_b),
            "documents": len(documents),
            **outcome,
            # the slot error rate beside F (the difference tested is F's)
            "SER": {
                name: result.total.metrics(scoring.beta)["SER"] for name, result in zip("AB", results, strict=True)
            },
            "signature": results[0].signature,
        }
        if causes[0] is not None:
            data["by_cause"] = {"A": causes[0], "B": causes[1]}
        if results[0].ceiling is not None:
            data["ceiling_F"] = results[0].ceiling.total.metrics(scoring.beta)["F"]
        _write(json.dumps(data, indent=2) + "\n", json_path, "--json")
        if json_path == "-":
            return
    console = make_console()
    low, high = outcome["interval"]
    p_value = outcome["p_value"]
    console.print(f"A  {escape(str(hyp_a))}: {report.headline(results[0])}", highlight=False, soft_wrap=True)
    console.print(f"B  {escape(str(hyp_b))}: {report.headline(results[1])}", highlight=False, soft_wrap=True)
    cause_a, cause_b = causes
    if cause_a is not None and cause_b is not None:  # both or neither: A and B share the texts
        from hub4eval.report.tables import spanning_sets_note

        for name, split, result in (("A", cause_a, results[0]), ("B", cause_b, results[1])):
            note = spanning_sets_note(result)
            console.print(
                f"{name}  errors lost to recognition {sum(split['recognition'].values())} "
                f"(INC {split['recognition']['INC']}  MIS {split['recognition']['MIS']}  "
                f"SPU {split['recognition']['SPU']})  to extraction {sum(split['extraction'].values())} "
                f"(INC {split['extraction']['INC']}  MIS {split['extraction']['MIS']}  "
                f"SPU {split['extraction']['SPU']})" + (f"; {note}" if note else ""),
                highlight=False,
                soft_wrap=True,
            )
    if results[0].ceiling is not None:
        ceiling_f = results[0].ceiling.total.metrics(scoring.beta)["F"]
        fractions = []
        for name, result in zip("AB", results, strict=True):
            f = result.total.metrics(scoring.beta)["F"]
            fractions.append(
                f"F({name}) / ceiling = {report.percent(None if f is None or not ceiling_f else f / ceiling_f)}"
            )
        console.print(
            f"ceiling (reference projected onto the hypothesis text): F = {report.percent(ceiling_f)}  "
            + "  ".join(fractions),
            highlight=False,
            soft_wrap=True,
        )
    console.print(
        f"F(A) - F(B) = {report.percent(outcome['difference'])} points  "
        f"95% interval {report.percent(low)}..{report.percent(high)}  "
        f"p = {'-' if p_value is None else format(p_value, '.4f')}  "
        f"(two-sided {'-' if p_value is None else format(outcome['p_two_sided'], '.4f')})",
        highlight=False,
        soft_wrap=True,
    )
    console.print(
        f"paired bootstrap: {bootstrap} document resamples over {len(documents)} documents, seed {seed}; "
        "p = share of resamples where the difference is 0 or of the opposite sign",
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"[dim]{escape(results[0].signature)}[/dim]", highlight=False, soft_wrap=True)


def _cause_split(result: Any) -> dict[str, dict[str, int]] | None:
    """A result's errors by cause (recognition / extraction: INC, MIS, SPU), or None (same texts)."""
    causes = result.causes
    return causes["all"][""] if causes else None
