"""The stages `score` shares with `align` on the same texts, timed in both commands, interleaved.

Not part of the test suite. A score of templettes over two texts that differ
aligns the texts as ``hub4eval align`` does (the same ``align_texts`` call:
tokens, the weighted alignment, sclite's WER), then maps the templettes.
``bench_score_texts.py`` times the two commands whole; this script asks
whether the *shared* stages cost the score more than they cost `align`
(a score holds the templettes in memory while it aligns, for instance), so
that only the templettes' own stages are left to explain the ratio:

* each round runs ``benchmarks/stages.py align ...`` and
  ``benchmarks/stages.py score ... --quiet`` (``--jobs 1``), one after the
  other, and reads the CPU seconds of their stages ``read texts``,
  ``align texts`` and ``sclite WER`` and of the whole process; the best and
  the median of ``--runs`` rounds are printed, with the ratio score / align
  of the best;
* with ``--calls``, the work itself is compared: each command runs once more
  in-process with ``cProfile`` switched on inside ``align_texts`` only, and
  the number of calls of every function of the package made there is
  compared between the two (timers on a loaded machine vary by several
  percent; call counts do not). Functions whose counts differ are listed.

The texts are those of ``bench_score_texts.py`` (made by it: run it once with
the same ``--dir``, ``--words``, ``--doc-words``, ``--wer`` and ``--seed``)::

    python benchmarks/bench_score_texts.py --dir $SCRATCH/texts --runs 1
    python benchmarks/bench_shared_stages.py --dir $SCRATCH/texts --forms segmented --runs 3 --calls
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_align_cli import add_text_arguments
from stages import run_cli  # the stage timer beside this one

ROOT = Path(__file__).resolve().parent.parent
SHARED = ("read texts", "align texts", "sclite WER")
LINE = re.compile(r"^\[\d+\] (?P<label>.+?)\s+\S+ ->\s+\S+ s\s+CPU\s+(?P<cpu>[\d.]+) s")
END = re.compile(r"^\[\d+\] end .* CPU (?P<cpu>[\d.]+) s")


def commands(folder: Path, form: str, events: int) -> dict[str, list[str]]:
    """The two command lines (after ``hub4eval``) on the texts of ``form``."""
    ref, hyp = folder / "ref.sgml", folder / f"hyp_{form}.sgml"
    templettes = [str(folder / f"ref_e{events}.tpl"), str(folder / f"hyp_e{events}_{form}.tpl")]
    return {
        "align": ["align", str(ref), str(hyp), "--jobs", "1"],
        "score": ["score", *templettes, "--ref-text", str(ref), "--hyp-text", str(hyp), "--jobs", "1", "--quiet"],
    }


def staged(arguments: list[str]) -> dict[str, float]:
    """CPU seconds of the shared stages (their first run) and of the whole process."""
    command = [sys.executable, str(ROOT / "benchmarks" / "stages.py"), *arguments]
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    found: dict[str, float] = {}
    for line in done.stderr.splitlines():
        match = LINE.match(line)
        if match and match["label"] in SHARED:
            found.setdefault(match["label"], float(match["cpu"]))
        match = END.match(line)
        if match:
            found["whole process"] = float(match["cpu"])
    return found


def counted_calls(arguments: list[str]) -> dict[str, int]:
    """Calls of each function of the package inside ``align_texts``, in a child running the command."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "calls.prof"
        command = [sys.executable, __file__, "--child", str(out), "--", *arguments]
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0 or not out.exists():
            raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
        stats: dict[Any, Any] = pstats.Stats(str(out)).stats  # type: ignore[attr-defined]
    return {
        f"{Path(path).name}:{line}({name})": calls
        for (path, line, name), (_, calls, *_) in stats.items()
        if f"{os.sep}hub4eval{os.sep}" in path
    }


def child(out: str, arguments: list[str]) -> None:
    """Run the command in this process, profiled inside ``align_texts`` only (``--calls``)."""
    module = importlib.import_module("hub4eval.text.aligned_texts")
    align_texts = module.align_texts
    profile = cProfile.Profile()

    def profiled(*args: Any, **kwargs: Any) -> Any:
        profile.enable()
        try:
            return align_texts(*args, **kwargs)
        finally:
            profile.disable()
            profile.dump_stats(out)

    module.align_texts = profiled  # type: ignore[attr-defined]
    run_cli(arguments)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[4:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_text_arguments(parser)
    parser.add_argument("--events", type=int, default=5, help="reference instances per document")
    parser.add_argument("--calls", action="store_true", help="also compare the calls made inside align_texts")
    args = parser.parse_args()
    folder = args.dir / f"n{args.words}_d{args.doc_words}_w{args.wer}_s{args.seed}"
    if not folder.exists():
        raise SystemExit(f"no texts in {folder}: make them with bench_score_texts.py first (same --dir and sizes)")
    print(f"# texts in {folder.name} (in --dir); load average: {os.getloadavg()[0]:.1f}")
    for form in [f.strip() for f in args.forms.split(",") if f.strip()]:
        lines = commands(folder, form, args.events)
        rounds: dict[str, list[dict[str, float]]] = {"align": [], "score": []}
        for _ in range(args.runs):
            for name, arguments in lines.items():
                rounds[name].append(staged(arguments))
        print(f"\n{form}: CPU s, best (median) of {args.runs} interleaved runs")
        print("| stage | align | score | score / align (best) |")
        print("|---|---|---|---|")
        for stage in (*SHARED, "whole process"):
            best = {name: min(r[stage] for r in runs) for name, runs in rounds.items()}
            median = {name: statistics.median(r[stage] for r in runs) for name, runs in rounds.items()}
            ratio = best["score"] / best["align"] if best["align"] else float("nan")
            print(
                f"| {stage} | {best['align']:.2f} ({median['align']:.2f}) | "
                f"{best['score']:.2f} ({median['score']:.2f}) | {ratio:.3f} |"
            )
        if args.calls:
            calls = {name: counted_calls(arguments) for name, arguments in lines.items()}
            differ = sorted(
                key
                for key in set(calls["align"]) | set(calls["score"])
                if calls["align"].get(key, 0) != calls["score"].get(key, 0)
            )
            total = {name: sum(counted.values()) for name, counted in calls.items()}
            print(
                f"calls of the package's functions inside align_texts: align {total['align']:,}, "
                f"score {total['score']:,}; functions whose counts differ: {len(differ)}"
            )
            for key in differ:
                print(f"  {key}: align {calls['align'].get(key, 0)}, score {calls['score'].get(key, 0)}")
        print(f"# load average: {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
