"""The system's count of a score with texts and the causes of its errors, against the routes
they replace, timed in one process.

Not part of the test suite. Runs ``hub4eval score`` in this process up to the system's
count (the first ``Mapper.count_template_sets``), then counts the system's sets again on
fresh copies of the mapper and its preparers, interleaving, best of ``--runs`` CPU times:

- the count, and the count with each run of documents read instance by instance
  instead of from the fill tables (``pairs.TABLES`` off);
- ``attribution.counted_causes`` of it, and the match-by-match route it replaced
  (``attribution._causes_one_by_one``, each point's cause asked of the attributor).

Prints the CPU seconds, the ratios, and whether the two routes gave the same counts, then
ends the process (the rest of the score is not run)::

    D=$SCRATCH/texts/n1000000_d500_w0.15_s1     # made by bench_score_texts.py --dir $SCRATCH/texts
    python benchmarks/bench_system_count.py --runs 7 -- score $D/ref_e5.tpl $D/hyp_e5_unsegmented.tpl \\
        --ref-text $D/ref.sgml --hyp-text $D/hyp_unsegmented.sgml --jobs 1 --quiet
"""

from __future__ import annotations

import copy
import os
import sys
import time
from typing import Any

from stages import run_cli, runs_and_command  # the stage timer beside this one


def _timed(make: Any) -> tuple[float, Any]:
    began = time.process_time()
    made = make()
    return time.process_time() - began, made


def main() -> None:
    runs, command = runs_and_command(__doc__.split("\n\n")[0], "counts of each route, interleaved (best kept)")

    from hub4eval.scoring import attribution, mapping, pairs
    from hub4eval.scoring.counted_points import Layouts
    from hub4eval.scoring.set_extents import HypSetExtents

    count = mapping.Mapper.count_template_sets

    def measured(self: Any, ref: Any, hyp: Any, order: Any = None, **kwargs: Any) -> Any:
        alignment = self.ref_prep.map_extent.__self__
        times: dict[str, list[float]] = {}
        results: dict[str, Any] = {}
        for _ in range(runs):
            for route in ("count", "count without tables"):
                ref_prep, hyp_prep = copy.copy(self.ref_prep), copy.copy(self.hyp_prep)
                mapper = type(self)(self.config, ref_prep, hyp_prep, noisy=self.noisy)
                options = dict(kwargs)
                if isinstance(options.get("hyp_extent"), HypSetExtents):
                    options["hyp_extent"] = HypSetExtents(hyp_prep)
                without = route == "count without tables"
                pairs.TABLES = not without
                try:
                    seconds, sets = _timed(lambda: count(mapper, ref, hyp, order, **options))  # noqa: B023
                finally:
                    pairs.TABLES = True
                times.setdefault(route, []).append(seconds)
                results[route] = [
                    (s.counts, [(m.counts, mapper.signatures[m.signature]) for m in s.instances]) for s in sets
                ]
                if without:
                    continue
                seconds, causes = _timed(
                    lambda: attribution.counted_causes(sets, mapper, attribution.Attributor(alignment))  # noqa: B023
                )
                times.setdefault("causes", []).append(seconds)
                results["causes"] = causes
                errors_of = attribution._ErrorsOf(Layouts(mapper.signatures))
                seconds, causes = _timed(
                    lambda: attribution._causes_one_by_one(  # noqa: B023
                        ((s, s.instances) for s in sets),  # noqa: B023
                        mapper,  # noqa: B023
                        attribution.Attributor(alignment),
                        errors_of,  # noqa: B023
                    )
                )
                times.setdefault("causes match by match", []).append(seconds)
                results["causes match by match"] = causes
        best = {route: min(seconds) for route, seconds in times.items()}
        load = os.getloadavg()[0]
        print(f"# load {load:.2f}; CPU seconds, best of {runs}", file=sys.stderr)
        print("| route | CPU s | before | ratio | same |", file=sys.stderr)
        print("|---|---|---|---|---|", file=sys.stderr)
        for new, old in (("count", "count without tables"), ("causes", "causes match by match")):
            same = results[new] == results[old]
            print(
                f"| {new} | {best[new]:.3f} | {best[old]:.3f} | {best[new] / best[old]:.2f} | {same} |",
                file=sys.stderr,
            )
        total = best["count"] + best["causes"]
        before = best["count without tables"] + best["causes match by match"]
        print(f"| both | {total:.3f} | {before:.3f} | {total / before:.2f} | |", file=sys.stderr, flush=True)
        os._exit(0)

    mapping.Mapper.count_template_sets = measured  # type: ignore[method-assign]
    run_cli(command)


if __name__ == "__main__":
    main()
