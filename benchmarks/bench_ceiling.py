"""The ceiling's set-up and count of an unsegmented hypothesis, against the engine's count of
every pair of sets, timed in one process.

Not part of the test suite. Runs ``hub4eval score`` in this process up to the ceiling
(``pipeline._score_ceiling``), then, interleaving, best of ``--runs`` CPU times:

- the ceiling as the score makes it: the projection read once
  (``ceiling_count.read_projection``: the judge's strings kept, the sets' extents, the
  fills the diagonal count reads) and counted (``_score_ceiling``, most pairs of sets by
  ``ceiling_count.Diagonal``);
- the anchor, the same with the diagonal count off (``ceiling_count.SHORTCUT``): the
  projection's set extents read in the same walk, every pair of sets mapped by the engine.

The repeats find the projection's strings kept already (the first read keeps them). Prints
the CPU seconds, the ratio, and whether the two gave the same counts, then ends the process
(the rest of the score is not run)::

    D=$SCRATCH/texts/n1000000_d500_w0.15_s1     # made by bench_score_texts.py --dir $SCRATCH/texts
    python benchmarks/bench_ceiling.py --runs 7 -- score $D/ref_e5.tpl $D/hyp_e5_unsegmented.tpl \\
        --ref-text $D/ref.sgml --hyp-text $D/hyp_unsegmented.sgml --jobs 1 --quiet
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from stages import run_cli, runs_and_command  # the stage timer beside this one


def main() -> None:
    runs, command = runs_and_command(__doc__.split("\n\n")[0], "ceilings of each route, interleaved (best kept)")

    from hub4eval.scoring import ceiling_count, pipeline

    read = ceiling_count.read_projection
    score_ceiling = pipeline._score_ceiling
    inputs: dict[str, Any] = {}

    def reading(*call: Any) -> Any:
        inputs["read"] = call
        return read(*call)

    def measured(*call: Any, **options: Any) -> Any:
        if "read" not in inputs or options.get("read") is None or options["read"].fills is None:
            print("# not a count of an unsegmented hypothesis's ceiling: nothing measured", file=sys.stderr)
            os._exit(2)
        times: dict[str, list[float]] = {"diagonal": [], "engine (anchor)": []}
        counts: dict[str, Any] = {}
        for _ in range(runs):
            for route, shortcut in (("diagonal", True), ("engine (anchor)", False)):
                ceiling_count.SHORTCUT = shortcut
                began = time.process_time()
                made = score_ceiling(*call, **{**options, "read": read(*inputs["read"])})
                times[route].append(time.process_time() - began)
                counts[route] = (made.tally.set_counts, list(made.tally.instance_pairs))
        ceiling_count.SHORTCUT = True
        best = {route: min(spent) for route, spent in times.items()}
        for route, spent in best.items():
            print(f"{route:16s} CPU {spent:.4f} s (best of {runs})")
        print(f"ratio {best['diagonal'] / best['engine (anchor)']:.3f}")
        print(f"same counts: {counts['diagonal'] == counts['engine (anchor)']}")
        sys.stdout.flush()
        os._exit(0)

    ceiling_count.read_projection = reading  # type: ignore[assignment]
    pipeline._score_ceiling = measured  # type: ignore[assignment]
    run_cli(command)


if __name__ == "__main__":
    main()
