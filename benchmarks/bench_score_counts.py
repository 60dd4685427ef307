"""The mapping engine's own work in a score with texts that differ: the system's count and the
ceiling's (``Mapper.count_template_sets``) as ``score --jobs 1`` makes them, two checkouts compared.

Not part of the test suite. Runs ``hub4eval score REF HYP --ref-text ... --hyp-text ...
--jobs 1 --quiet`` in a child process per checkout; in the child, each count is made as the
score makes it, then made again ``--rounds`` times with a fresh mapper on the same
preparers (the strings already normalized: what is timed is the engine's work outside
normalization), the collector paused as in a score, and each time checked to count what
the score counted. What a count keeps for a later one is dropped before each round as the
score's count would find it: before the system's, the fill tables and type-order edges of
both sets; before the ceiling's, those of the projection only (the reference's were made
by the system's count). With ``--other CHECKOUT`` (e.g. the commit before a change, made
with ``git archive``) the same is run in alternation with that checkout's package, the
ratios printed: each one the anchor of the other::

    python benchmarks/bench_score_texts.py --dir $SCRATCH --runs 1          # makes the files
    python benchmarks/bench_score_counts.py $SCRATCH/n1000000_d500_w0.15_s1 --other $SCRATCH/before
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _child(folder: Path, form: str, rounds: int) -> None:
    """Score the files, time the counts again, print {count: best CPU seconds} as JSON."""
    from hub4eval.scoring import mapping
    from hub4eval.scoring.mapping import Mapper

    count = Mapper.count_template_sets
    best: dict[str, float] = {}

    def summary(mapper: Any, result: Any) -> list[Any]:
        return [
            (s.ref is None or s.ref.docid, s.hyp is None or s.hyp.docid, s.counts)
            + tuple((m.counts, mapper.signatures[m.signature]) for m in s.instances)
            for s in result
        ]

    def timed(self: Any, ref: Any, hyp: Any, *args: Any, **kwargs: Any) -> Any:
        result = count(self, ref, hyp, *args, **kwargs)
        name = ("system", "ceiling")[len(best)] if len(best) < 2 else f"count {len(best) + 1}"
        expected = summary(self, result)
        times = []
        for _ in range(rounds):
            try:  # what the score's count would not find made
                from hub4eval.scoring import fill_tables

                for prep in (self.ref_prep, self.hyp_prep) if name == "system" else (self.hyp_prep,):
                    fill_tables._TABLES.pop(prep, None)
            except ImportError:  # a checkout without fill tables
                pass
            edges = getattr(mapping, "_EDGES", {})
            for key in [key for key, (tset, _) in edges.items() if name == "system" or tset is not ref]:
                del edges[key]
            mapper = Mapper(self.config, self.ref_prep, self.hyp_prep, noisy=self.noisy)
            gc.collect()
            start = time.process_time()
            again = count(mapper, ref, hyp, *args, **kwargs)
            times.append(time.process_time() - start)
            if summary(mapper, again) != expected:
                raise AssertionError(f"the {name}'s count differs when made again")
        best[name] = min(times)
        return result

    Mapper.count_template_sets = timed  # type: ignore[method-assign]
    importlib.import_module("hub4eval.cli")  # registers the commands
    app = sys.modules["hub4eval.cli.app"]
    ending = app.os._exit

    class _Os:
        def __getattr__(self, attribute: str) -> Any:
            return getattr(os, attribute)

        @staticmethod
        def _exit(status: int) -> None:
            print(json.dumps(best), file=sys.__stdout__, flush=True)
            ending(status)

    app.os = _Os()  # type: ignore[attr-defined]
    sys.argv = [
        "hub4eval",
        "score",
        str(folder / "ref_e5.tpl"),
        str(folder / f"hyp_e5_{form}.tpl"),
        "--ref-text",
        str(folder / "ref.sgml"),
        "--hyp-text",
        str(folder / f"hyp_{form}.sgml"),
        "--jobs",
        "1",
        "--quiet",
    ]
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the tables; the figures go to the real one
    app.main()


def _run(checkout: Path, folder: Path, form: str, rounds: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, str(Path(__file__).resolve()), str(folder), "--child", form, "--rounds", str(rounds)]
    out = subprocess.run(command, env=env, cwd=checkout, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="a folder of bench_score_texts.py's files")
    parser.add_argument("--forms", default="unsegmented,segmented")
    parser.add_argument("--rounds", type=int, default=3, help="counts made again per process (best kept)")
    parser.add_argument("--runs", type=int, default=2, help="processes per checkout and form, alternated")
    parser.add_argument("--other", type=Path, help="another checkout, run in alternation: the anchor")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = args.dir.resolve()
    if args.child:
        _child(folder, args.child, args.rounds)
        return
    load = os.getloadavg()[0]
    print(f"# {folder.name}, load average {load:.1f}; CPU s of each count made again, best of the runs")
    print("| form | count | this | other | other / this |")
    print("|---|---|---|---|---|")
    for form in args.forms.split(","):
        mine: dict[str, float] = {}
        theirs: dict[str, float] = {}
        for _ in range(args.runs):
            for checkout, best in ((ROOT, mine), (args.other, theirs)):
                if checkout is None:
                    continue
                for name, seconds in _run(checkout.resolve(), folder, form, args.rounds).items():
                    best[name] = min(best.get(name, float("inf")), seconds)
        names = list(mine) + ["both"]
        mine["both"] = sum(mine.values())
        if theirs:
            theirs["both"] = sum(theirs.values())
        for name in names:
            other = f"{theirs[name]:.3f} | {theirs[name] / mine[name]:.2f}" if theirs else "- | -"
            print(f"| {form} | {name} | {mine[name]:.3f} | {other} |", flush=True)


if __name__ == "__main__":
    main()
