"""The two mappings of a score whose texts differ, in process: the system's and the ceiling's.

Not part of the test suite. Reads the files of ``bench_score_texts.py`` (or any
reference and hypothesis templettes over two texts), aligns the texts once,
then scores ``--rounds`` times with that alignment given (``pipeline.score``
as ``score --jobs 1`` runs it: the ceiling counted, the templettes' strings
normalized inside the system's mapping) and prints the CPU seconds of the
system's mapping (``Mapper.match_template_sets``), the projection and the
ceiling's mapping, best of the rounds. With ``--normalized`` each string's
normalization is remembered across rounds (strings normalized one by one, their
word keys made when first asked for), so that the rounds after the first show
the mappings alone (as ``--jobs 2`` sees them: its strings are normalized while
a child aligns)::

    python benchmarks/bench_score_texts.py --dir $SCRATCH --runs 1          # makes the files
    python benchmarks/bench_mapping_texts.py $SCRATCH/n1000000_d500_w0.15_s1 --form unsegmented
"""

from __future__ import annotations

import argparse
import functools
import gc
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from hub4eval import api
from hub4eval.config import ScoreConfig
from hub4eval.scoring import fills, mapping, pipeline, projection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="a folder of bench_score_texts.py's files")
    parser.add_argument("--form", default="unsegmented", help="segmented or unsegmented")
    parser.add_argument("--events", type=int, default=5, help="the reference instances per document of the files")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--normalized", action="store_true", help="strings normalized once for every round")
    args = parser.parse_args()
    folder, form = args.dir, args.form
    texts = api._Texts(folder / "ref.sgml", folder / f"hyp_{form}.sgml", api.ReadOptions())
    config = ScoreConfig()
    ref, hyp, corpora = api._read_inputs(
        folder / f"ref_e{args.events}.tpl", folder / f"hyp_e{args.events}_{form}.tpl", texts, config
    )
    seconds: dict[str, list[float]] = defaultdict(list)
    in_ceiling = [False]
    match_template_sets = mapping.Mapper.match_template_sets
    score_ceiling = pipeline._score_ceiling
    project = projection.project

    def timed_mapping(self: mapping.Mapper, *a: Any, **k: Any) -> Any:
        start = time.process_time()
        try:
            return match_template_sets(self, *a, **k)
        finally:
            seconds["ceiling's mapping" if in_ceiling[0] else "system's mapping"].append(time.process_time() - start)

    def timed_ceiling(*a: Any, **k: Any) -> Any:
        in_ceiling[0] = True
        try:
            return score_ceiling(*a, **k)
        finally:
            in_ceiling[0] = False

    def timed_projection(*a: Any, **k: Any) -> Any:
        start = time.process_time()
        try:
            return project(*a, **k)
        finally:
            seconds["projection"].append(time.process_time() - start)

    mapping.Mapper.match_template_sets = timed_mapping  # type: ignore[method-assign]
    pipeline._score_ceiling = timed_ceiling
    projection.project = timed_projection
    if args.normalized:  # each string normalized once over all rounds (numbered in each round's preparers)
        normalize = fills.FillPreparer._normalize
        known: dict[str, tuple[Any, ...]] = {}

        @functools.wraps(normalize)
        def remembered(self: fills.FillPreparer, raw: str, remember: bool = True) -> Any:
            found = known.get(raw)
            if found is None:
                result = normalize(self, raw, remember)
                known[raw] = result[:4]
                return result
            number = self.numbers.get(found[0])
            if not remember:
                return (*found, -1 if number is None else number)
            if number is None:
                number = self.numbers[found[0]] = len(self.numbers)
            result = self._texts[raw] = (*found, number)
            return result

        fills.FillPreparer._normalize = remembered  # type: ignore[method-assign]

        def one_by_one(self: fills.FillPreparer, strings: Any) -> None:
            # the strings normalized all at once (FillPreparer._normalize_many) would pass by the
            # memo: one by one through it instead (their word keys then made when first asked for)
            for raw in dict.fromkeys(strings):
                if self._texts.get(raw) is None:
                    self._normalize(raw)

        fills.FillPreparer.normalize = one_by_one  # type: ignore[method-assign]
    inputs = {"ref_corpus": corpora[0], "hyp_corpus": corpora[1], "config": config, "jobs": 1, "ceiling_counts": True}
    first = pipeline.score(ref, hyp, **inputs)  # aligns the texts (and warms every cache of the code)
    seconds.clear()
    for _ in range(args.rounds):
        gc.collect()
        start = time.process_time()
        pipeline.score(ref, hyp, **inputs, alignment=first.alignment, wer_summary=first.wer)
        seconds["score, alignment given"].append(time.process_time() - start)
    print(f"# {folder.name} {form}, {args.rounds} rounds" + (", strings normalized once" if args.normalized else ""))
    for phase, values in seconds.items():
        print(f"| {phase} | {min(values):.3f} | {' '.join(f'{v:.3f}' for v in values)} |")


if __name__ == "__main__":
    main()
