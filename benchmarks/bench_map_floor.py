"""How far the map phase is from the least work any pure-Python mapping must do (issue #20).

The map phase (``hub4eval.api.score`` on two parsed template sets) is timed
against two *floors*, loops that do only what no design can skip, written
without any record, verdict or call per fill:

* **chosen pairs**: for every instance pair the real mapping chose (and every
  instance it left unmapped), each slot's fills are normalized (the real
  normalizer, each distinct string once), compared (substring, extent
  enclosure) and tallied per type and slot;
* **candidates**: the same per-fill work for every *promising* pair (all
  pairs of a type with at most 16, else the pairs sharing a normalized
  string or an extent block, found by a key index), as the greedy mapping
  needs their counts before it chooses.

Both floors handle only the usual slot (one text fill with an extent, which
is every slot of the benchmark set) and skip the greedy choice, pointers,
optional slots and alternatives, so they are floors, not a mapping. Times
are CPU seconds, best of 3 interleaved rounds with the collector paused, and
ratios are to the read limit of ``bench_score.py`` in the same run::

    python benchmarks/bench_map_floor.py REF.tpl HYP.tpl
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_score import read_limit

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.io.templettes import read_templates
from hub4eval.model import Instance, TemplateSet, TextFill
from hub4eval.scoring.fills import FillPreparer

View = dict[str, "tuple[str, int, int] | None"]  # slot -> (normalized text, extent start, end); None: not usual


class Floors:
    """The two floor loops over one pair of parsed template sets."""

    def __init__(self, ref: TemplateSet, hyp: TemplateSet) -> None:
        self.ref, self.hyp = ref, hyp
        self.prep = FillPreparer(ScoreConfig(), tokens=False)
        result = score(ref, hyp)
        self.chosen = [
            ((im.ref or im.hyp).type, im.ref, im.hyp)  # type: ignore[union-attr]
            for sm in result.matches
            for im in sm.instances
        ]

    def reset(self) -> None:
        self.prep._texts.clear()  # each round normalizes every distinct string again

    def view(self, inst: Instance) -> View:
        texts, normalize = self.prep._texts, self.prep._normalize
        view: View = {}
        for slot in inst.slots:
            fill = slot.alternatives[0].fills[0] if slot.alternatives and slot.alternatives[0].fills else None
            if type(fill) is TextFill and fill.extents:
                text = (texts.get(fill.content) or normalize(fill.content))[0]
                view[slot.name] = (text, fill.extents[0].start, fill.extents[0].end)
            else:
                view[slot.name] = None
        return view

    @staticmethod
    def tally(ref: View, hyp: View, counts: list[int]) -> None:
        """COR, INC, MIS, SPU of one instance pair's usual slots, added to ``counts``."""
        for name, x in ref.items():
            y = hyp.get(name)
            if x is None or y is None:
                counts[2] += 1
                continue
            counts[0 if y[0] in x[0] else 1] += 1
            counts[0 if x[1] <= y[1] <= x[2] and x[1] <= y[2] <= x[2] else 1] += 1
        for name in hyp:
            if name not in ref:
                counts[3] += 1

    def chosen_pairs(self) -> int:
        tallies: dict[tuple[str, ...], list[int]] = {}
        for type_name, ref, hyp in self.chosen:
            counts = tallies.setdefault((type_name,), [0, 0, 0, 0])
            self.tally(self.view(ref) if ref else {}, self.view(hyp) if hyp else {}, counts)
        return len(self.chosen)

    def candidates(self) -> int:
        hyp_sets = {iset.docid: iset for iset in self.hyp.instance_sets}
        tallies: dict[str, list[int]] = {}
        pairs = 0
        for ref_set in self.ref.instance_sets:
            hyp_set = hyp_sets.get(ref_set.docid)
            by_type: dict[str, tuple[list[View], list[View]]] = {}
            for inst in ref_set.instances:
                by_type.setdefault(inst.type, ([], []))[0].append(self.view(inst))
            for inst in hyp_set.instances if hyp_set else ():
                by_type.setdefault(inst.type, ([], []))[1].append(self.view(inst))
            for type_name, (refs, hyps) in by_type.items():
                promising: Any
                if len(refs) * len(hyps) <= 16:
                    promising = [(i, j) for i in range(len(refs)) for j in range(len(hyps))]
                else:
                    index: dict[tuple[str, object], list[int]] = {}
                    for j, view in enumerate(hyps):
                        for name, x in view.items():
                            if x is not None:
                                index.setdefault((name, x[0]), []).append(j)
                                index.setdefault((name, x[1] >> 6), []).append(j)
                    promising = set()
                    for i, view in enumerate(refs):
                        for name, x in view.items():
                            if x is not None:
                                promising.update((i, j) for j in index.get((name, x[0]), ()))
                                promising.update((i, j) for j in index.get((name, x[1] >> 6), ()))
                counts = tallies.setdefault(type_name, [0, 0, 0, 0])
                for i, j in promising:
                    self.tally(refs[i], hyps[j], counts)
                pairs += len(promising)
        return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ref", type=Path)
    parser.add_argument("hyp", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    gc.disable()
    ref, hyp = read_templates(args.ref, "reference"), read_templates(args.hyp, "hypothesis")
    floors = Floors(ref, hyp)
    work: dict[str, Callable[[], Any]] = {
        "read limit (both files)": lambda: (read_limit(args.ref), read_limit(args.hyp)),
        "map (hub4eval.api.score)": lambda: score(ref, hyp),
        "floor: chosen pairs": floors.chosen_pairs,
        "floor: candidates": floors.candidates,
    }
    best: dict[str, float] = {}
    sizes: dict[str, Any] = {}
    for _ in range(args.repeat):
        for name, run in work.items():
            floors.reset()
            gc.collect()
            cpu = time.process_time()
            value = run()
            cpu = time.process_time() - cpu
            best[name] = min(best.get(name, cpu), cpu)
            sizes[name] = value if isinstance(value, int) else ""
    anchor = best["read limit (both files)"]
    print(f"CPU seconds, best of {args.repeat} interleaved rounds, the collector paused:\n")
    print("| work | CPU s | vs read limit | pairs |")
    print("|---|---|---|---|")
    for name in work:
        pairs = f"{sizes[name]:,}" if sizes[name] != "" else ""
        print(f"| {name} | {best[name]:.2f} | {best[name] / anchor:.2f} | {pairs} |")


if __name__ == "__main__":
    main()
