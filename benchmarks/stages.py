"""Where one hub4eval command's time and memory go, stage by stage (in one process).

Not part of the test suite. Runs the command line in this process with the
pipeline's stages wrapped by timers, and prints one line per stage on
standard error: wall-clock seconds from the start (from -> to), CPU seconds
of the process in the stage, resident memory (MB) when it began and ended,
and the highest resident memory seen while it ran (sampled every 5 ms by a
thread, so a peak shorter than that may be missed; the process's own peak,
from ``getrusage``, is printed at the end), and the system CPU seconds and
minor page faults of the stage (``getrusage``: a page touched for the first
time costs about 2 µs of system time on a small virtual machine, and about 0.8 µs more to free at the
end of the process). Stages nest: a stage's peak
includes the stages inside it. With ``--jobs`` above 1 the forked children
print their own lines (each line starts with its process id); their CPU is
not counted in the parent's.

Comparing ``score`` with ``align`` on the same texts says what the score adds
to the texts' alignment (``bench_score_texts.py`` times the two commands
whole)::

    python benchmarks/stages.py align REF.sgml HYP.sgml --jobs 1
    python benchmarks/stages.py score REF.tpl HYP.tpl --ref-text REF.sgml --hyp-text HYP.sgml --jobs 1 --quiet

A stage whose function is not found (renamed or moved) is left out, with a
note on standard error.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import resource
import sys
import threading
import time
from typing import Any

STAGES = (
    # (module, attribute path, label)
    ("hub4eval.api", "_read_inputs", "read templettes and texts"),
    ("hub4eval.io.formats", "read_text_corpora", "read texts"),
    ("hub4eval.scoring.pipeline", "check_texts", "check templettes against texts"),
    ("hub4eval.text.aligned_texts", "align_texts", "align texts"),
    ("hub4eval.text.aligned_texts", "tokenize_corpora", "tokenize texts"),
    ("hub4eval.text.tokenized", "_hyp_tokens", "hypothesis tokenized (in a child)"),
    ("hub4eval.text.aligned_texts", "_load_kernels", "kernels loaded"),
    ("hub4eval.text.aligned_texts", "weighted_alignments", "weighted alignments"),
    ("hub4eval.text.aligned_texts", "AlignedTexts.wer", "sclite WER"),
    ("hub4eval.text.aligned_texts", "AlignedTexts.wer_summary", "sclite WER"),  # a score's (no rows per document)
    ("hub4eval.scoring.pipeline", "_strings", "templettes' strings listed"),
    ("hub4eval.scoring.fills", "FillPreparer.normalize", "strings normalized all at once"),
    ("hub4eval.scoring.mapping", "Mapper.match_template_sets", "map (records)"),
    ("hub4eval.scoring.mapping", "Mapper.count_template_sets", "map (counts)"),
    ("hub4eval.scoring.ceiling_runs", "ProjectionRuns.result", "projection"),
    ("hub4eval.scoring.ceiling_count", "read_projection", "projection read (strings kept, set extents)"),
    ("hub4eval.scoring.ceiling_count", "ProjectionFills.of", "projection's strings kept, fills read"),
    ("hub4eval.scoring.pipeline", "_score_ceiling", "ceiling"),
    ("hub4eval.scoring.attribution", "counted_causes", "causes (counted with the mapping)"),
    ("hub4eval.scoring.attribution", "cause_counts", "causes"),
    ("hub4eval.scoring.entity_wer", "entity_wer", "entity WER"),
)

START = time.perf_counter()
PAGE = os.sysconf("SC_PAGE_SIZE")
_stack: list[str] = []
_peaks: dict[str, float] = {}


def rss() -> float:
    """Resident memory of this process now, MB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


def _sample() -> None:
    while True:
        now = rss()
        for label in list(_stack):
            if now > _peaks.get(label, 0.0):
                _peaks[label] = now
        time.sleep(0.005)


def _wrap(module: Any, path: str, label: str) -> None:
    owner = module
    *parents, name = path.split(".")
    for part in parents:
        owner = getattr(owner, part)
    function = getattr(owner, name)

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        began, cpu, memory = time.perf_counter(), time.process_time(), rss()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        key = f"{label}#{len(_stack)}"
        _peaks[key] = memory
        _stack.append(key)
        try:
            return function(*args, **kwargs)
        finally:
            _stack.remove(key)
            ended = time.perf_counter()
            now = resource.getrusage(resource.RUSAGE_SELF)
            print(
                f"[{os.getpid()}] {label:32s} {began - START:7.2f} -> {ended - START:7.2f} s  "
                f"CPU {time.process_time() - cpu:6.2f} s  RSS {memory:5.0f} -> {rss():5.0f} MB  "
                f"peak {_peaks.pop(key, 0.0):5.0f} MB  "
                f"sys {now.ru_stime - usage.ru_stime:5.2f} s  faults {now.ru_minflt - usage.ru_minflt:6d}",
                file=sys.stderr,
                flush=True,
            )

    setattr(owner, name, timed)


def _end() -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"[{os.getpid()}] end {time.perf_counter() - START:.2f} s, CPU {time.process_time():.2f} s, "
        f"peak {usage.ru_maxrss / 1024:.0f} MB, sys {usage.ru_stime:.2f} s, faults {usage.ru_minflt}",
        file=sys.stderr,
        flush=True,
    )


class ExitingOs:
    """``os`` as the command line's module sees it (``app.os``), with ``_exit`` replaced by
    ``end`` (which prints a benchmark's last lines before the process goes)."""

    def __init__(self, end: Any) -> None:
        self._exit = end

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


def run_cli(arguments: list[str]) -> None:
    """Run the hub4eval command line ``arguments`` in this process (after a benchmark has
    wrapped the functions it times), as ``python -m hub4eval`` would."""
    importlib.import_module("hub4eval.cli")  # registers the commands
    app = sys.modules["hub4eval.cli.app"]  # the module (the package's attribute `app` is the typer app)
    sys.argv = ["hub4eval", *arguments]
    app.main()


def runs_and_command(description: str, runs_help: str) -> tuple[int, list[str]]:
    """The command line of a benchmark that times one part of a ``hub4eval score`` run in
    this process (``bench_ceiling.py``, ``bench_system_count.py``): ``--runs N`` (default 5;
    ``runs_help`` says what is repeated), then the score's command line, after ``--``.

    Returns the runs and the hub4eval command line (without the ``--``), for :func:`run_cli`.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=5, help=runs_help)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the hub4eval score command line, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    return args.runs, command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the hub4eval command line, e.g. score REF HYP ...")
    args = parser.parse_args()
    for module_name, path, label in STAGES:
        try:
            _wrap(importlib.import_module(module_name), path, label)
        except (ImportError, AttributeError):
            print(f"# stage not found, left out: {module_name}.{path}", file=sys.stderr)
    threading.Thread(target=_sample, daemon=True).start()
    importlib.import_module("hub4eval.cli")  # registers the commands
    app = sys.modules["hub4eval.cli.app"]  # the module (the package's attribute `app` is the typer app)
    ending = app.os._exit  # the command line ends the process with os._exit: the last line is printed first

    def end(status: int) -> None:
        _end()
        ending(status)

    app.os = ExitingOs(end)  # type: ignore[attr-defined]
    sys.argv = ["hub4eval", *args.command]
    try:
        app.main()
    finally:
        _end()


if __name__ == "__main__":
    main()
