"""The ceiling's projection: most fills decided from their first candidates found at once, against every fill one by one.

Not part of the test suite. Runs ``hub4eval score ... --jobs 1`` in this
process up to the projection (:func:`hub4eval.scoring.projection.project`),
then projects the reference in forked children, each from the same state (its
caches as cold as the score's own projection finds them): by the quick route
(``_Projector.batched``, the default) and by the per-fill route, which is the
anchor, the rounds interleaved (``--runs``, the best CPU kept). Prints the CPU
seconds of each, their ratio, and whether both wrote the same projection::

    python benchmarks/bench_projection.py $D/ref_e5.tpl $D/hyp_e5_unsegmented.tpl \\
        --ref-text $D/ref.sgml --hyp-text $D/hyp_unsegmented.sgml --runs 3

(``$D``: a folder of ``bench_score_texts.py``.) Needs ``os.fork``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time


def _projected(runs: object, batched: bool) -> tuple[float, str]:
    """(CPU seconds, digest of the projection written) of one projection made in a forked child."""
    from hub4eval.io.templettes.writer import write_templates
    from hub4eval.scoring import projection

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        projection._Projector.batched = batched
        began = time.process_time()
        made = ORIGINAL(runs)
        spent = time.process_time() - began
        digest = hashlib.sha1(write_templates(made).encode()).hexdigest()[:12]
        os.write(write, f"{spent} {digest}".encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 4096):
        data += chunk
    os.waitpid(pid, 0)
    spent, digest = data.decode().split()
    return float(spent), digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", help="reference templettes")
    parser.add_argument("hyp", help="hypothesis templettes")
    parser.add_argument("--ref-text", required=True)
    parser.add_argument("--hyp-text", required=True)
    parser.add_argument("--runs", type=int, default=3, help="rounds of the two routes, interleaved (best kept)")
    args = parser.parse_args()

    from hub4eval.scoring import ceiling_runs

    global ORIGINAL
    ORIGINAL = ceiling_runs.ProjectionRuns.result

    def measured(runs: object) -> None:
        best: dict[bool, float] = {}
        digests: dict[bool, set[str]] = {True: set(), False: set()}
        for _ in range(args.runs):
            for batched in (False, True):
                spent, digest = _projected(runs, batched)
                best[batched] = min(best.get(batched, spent), spent)
                digests[batched].add(digest)
        same = len(digests[True] | digests[False]) == 1
        print(f"# load average: {os.getloadavg()[0]:.1f}, runs: {args.runs}")
        print("| route | CPU s (best) | / one by one | same projection |")
        print("|---|---|---|---|")
        print(f"| one by one | {best[False]:.3f} | 1.00 | {same} |")
        print(f"| first candidates at once | {best[True]:.3f} | {best[True] / best[False]:.2f} | {same} |")
        sys.stdout.flush()
        os._exit(0 if same else 1)

    ceiling_runs.ProjectionRuns.result = measured  # type: ignore[method-assign,assignment]
    from hub4eval.cli.app import main as hub4eval_main

    sys.argv = ["hub4eval", "score", args.ref, args.hyp, "--ref-text", args.ref_text, "--hyp-text", args.hyp_text]
    sys.argv += ["--jobs", "1", "--quiet"]
    hub4eval_main()


ORIGINAL = None

if __name__ == "__main__":
    main()
