"""What a worker of ``hub4eval score`` spends on one group beyond reading: map and count.

    python benchmarks/bench_worker.py [--dir DIR] [--docs 2000 --instances 20000 --seed 1] [--rounds 3] [--texts]

A worker of ``score`` (``hub4eval.parallel``) reads its group, scores it with
``scoring.pipeline.score`` and keeps a ``Tally`` of it, then frees the result.
This times, in process and in CPU seconds (the collector paused, as the CLI
pauses it), the map-and-count part of that on a set of ``gen_templates.py``
(made once in ``DIR``, default ``benchmarks/out/worker``): ``score`` and
``Tally.of`` and the freeing of the result,

- **records**: with a match record for every instance pair (what ``--json``,
  ``--html``, ``--explain`` need: ``counts_only=False``), the anchor;
- **counts**: what a worker of plain ``score`` does (``counts_only=True``: the
  chosen pairs' points from one pair per two shapes and their COR codes).

Interleaved rounds, the best of each kept; the ratio is counts / records.
With ``--texts`` the set has a clean text corpus, given as ``--ref-text`` is.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=HERE / "out" / "worker", help="where the set is made")
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--instances", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best of each case is kept")
    parser.add_argument("--texts", action="store_true", help="with the set's clean text corpus (--ref-text)")
    args = parser.parse_args()

    from hub4eval.io.corpus import read_corpus
    from hub4eval.io.templettes import read_templates
    from hub4eval.scoring.pipeline import score
    from hub4eval.scoring.result import Tally

    folder = args.dir
    if not (folder / "ref.tpl").exists() or (args.texts and not (folder / "ref.sgml").exists()):
        command = [sys.executable, str(HERE / "gen_templates.py"), str(folder), "--docs", str(args.docs)]
        command += ["--instances", str(args.instances), "--seed", str(args.seed), "--text"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    ref = read_templates(folder / "ref.tpl", "reference")
    hyp = read_templates(folder / "hyp.tpl", "hypothesis")
    corpus = read_corpus(folder / "ref.sgml") if args.texts else None

    def worker(counts_only: bool) -> float:
        gc.disable()
        try:
            start = time.process_time()
            result = score(ref, hyp, ref_corpus=corpus, ceiling=False, counts_only=counts_only)
            tally = Tally.of(result)
            del result, tally
            return time.process_time() - start
        finally:
            gc.enable()
            gc.collect()

    best = {"records": float("inf"), "counts": float("inf")}
    for _ in range(args.rounds):
        best["records"] = min(best["records"], worker(False))
        best["counts"] = min(best["counts"], worker(True))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(ref.instances):,} reference and {len(hyp.instances):,} hypothesis instances, load {load:.1f}")
    print("| case | CPU s | / records |")
    print("|---|---|---|")
    for case, seconds in best.items():
        print(f"| {case} | {seconds:.3f} | {seconds / best['records']:.2f} |")


if __name__ == "__main__":
    main()
