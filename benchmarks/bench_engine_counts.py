"""The mapping engine's counts with texts that differ: ``Mapper.count_template_sets`` as the
ceiling calls it, and as the system's mapping calls it when it counts, two checkouts compared.

Not part of the test suite. Reads the files of ``bench_score_texts.py`` (a million words by
default), scores them once (``pipeline.score`` as ``score --jobs 1`` runs it) to have the
alignment and the projection, then counts, ``--rounds`` times, the system's sets and the
ceiling's (the reference against its projection) with fresh preparers and mappers, the
strings' normalization made beforehand and shared, each round's word keys made afresh (the
two counts of a round share them, as the mappings of a score do), an unsegmented
hypothesis's set extents worked out before the timing: the CPU seconds of each count, best
of the rounds, the garbage collector paused as in a score. With ``--other CHECKOUT`` the same
is run, in alternation, with that checkout's package (e.g. the one before a change, made with
``git worktree`` or ``git archive``), and the ratios printed: each one the anchor of the other::

    python benchmarks/bench_score_texts.py --dir $SCRATCH --runs 1          # makes the files
    python benchmarks/bench_engine_counts.py $SCRATCH/n1000000_d500_w0.15_s1 --other $SCRATCH/before
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def counted(folder: Path, form: str, rounds: int, events: int) -> dict[str, float]:
    """The best CPU seconds of the system's count and of the ceiling's, with this process's package."""
    from hub4eval import api
    from hub4eval.config import ScoreConfig
    from hub4eval.scoring import pipeline
    from hub4eval.scoring.fills import FillPreparer
    from hub4eval.scoring.mapping import Mapper, type_order

    texts = api._Texts(folder / "ref.sgml", folder / f"hyp_{form}.sgml", api.ReadOptions())
    config = ScoreConfig()
    ref, hyp, corpora = api._read_inputs(
        folder / f"ref_e{events}.tpl", folder / f"hyp_e{events}_{form}.tpl", texts, config
    )
    assert hyp is not None
    captured: dict[str, Any] = {}
    score_ceiling = pipeline._score_ceiling

    def capture(ref_: Any, projected: Any, **options: Any) -> Any:
        captured["projected"], captured["preparers"] = projected, options["preparers"]
        return score_ceiling(ref_, projected, **options)

    pipeline._score_ceiling = capture  # type: ignore[assignment]
    inputs: dict[str, Any] = {
        "ref_corpus": corpora[0],
        "hyp_corpus": corpora[1],
        "config": config,
        "jobs": 1,
        "ceiling_counts": True,
    }
    alignment = pipeline.score(ref, hyp, **inputs).alignment
    pipeline._score_ceiling = score_ceiling
    ref_prep, hyp_prep = captured["preparers"]
    projected = captured["projected"]
    memo = FillPreparer(config, glm_apply=ref_prep.glm_apply, tokens=ref_prep.tokens)
    for tset in (ref, hyp, projected):
        memo.normalize(pipeline._strings(tset, config))

    def count(hset: Any) -> float:
        r = pipeline._PreparedOnce(
            config,
            map_extent=ref_prep.map_extent,
            glm_apply=ref_prep.glm_apply,
            tokens=ref_prep.tokens,
            widen=ref_prep.widen,
        )
        r.share_texts(memo)
        h = pipeline._PreparedOnce(
            config,
            map_extent=hyp_prep.map_extent,
            glm_apply=hyp_prep.glm_apply,
            reference=False,
            unsegmented=alignment.unsegmented,
            tokens=hyp_prep.tokens,
        )
        h.share_texts(r)
        r.remember()
        h.remember()
        mapper = Mapper(config, r, h, noisy=ref_prep.tokens)
        extents: dict[str, Any] = {}
        if alignment.unsegmented:
            plain = FillPreparer(
                config,
                map_extent=h.map_extent,
                glm_apply=h.glm_apply,
                reference=False,
                unsegmented=True,
                tokens=h.tokens,
            )
            plain.share_texts(r)
            known = {id(iset): pipeline._hyp_set_extent(iset, plain) for iset in hset.instance_sets}
            extents = {
                "ref_extent": lambda iset: alignment.document_extent(iset.docid),
                "hyp_extent": lambda iset: known[id(iset)],
            }
        gc.collect()
        gc.disable()
        start = time.process_time()
        mapper.count_template_sets(ref, hset, type_order(ref, hset), **extents)
        seconds = time.process_time() - start
        gc.enable()
        return seconds

    best = {"system": float("inf"), "ceiling": float("inf")}
    for _ in range(rounds):
        memo._word_keys = {}  # made afresh each round, shared by its two counts
        for name, hset in (("system", hyp), ("ceiling", projected)):
            best[name] = min(best[name], count(hset))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="a folder of bench_score_texts.py's files")
    parser.add_argument("--forms", default="unsegmented,segmented")
    parser.add_argument("--events", type=int, default=5, help="the reference instances per document of the files")
    parser.add_argument("--rounds", type=int, default=3, help="counts per process (best kept)")
    parser.add_argument("--runs", type=int, default=2, help="processes per checkout and form, alternated")
    parser.add_argument("--other", type=Path, help="another checkout, run in alternation: the anchor")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(counted(args.dir, args.child, args.rounds, args.events)))
        return
    checkouts = {"this": ROOT} | ({"other": args.other.resolve()} if args.other else {})
    print(f"# {args.dir.name}, load average {os.getloadavg()[0]:.1f}; CPU s of each count, best of the runs")
    print("| form | count | " + " | ".join(checkouts) + (" | other / this |" if args.other else " |"))
    print("|---|---|" + "---|" * (len(checkouts) + bool(args.other)))
    for form in [f.strip() for f in args.forms.split(",") if f.strip()]:
        best: dict[str, dict[str, float]] = {name: {} for name in checkouts}
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                command = [sys.executable, __file__, str(args.dir), "--child", form, "--rounds", str(args.rounds)]
                command += ["--events", str(args.events)]
                environment = dict(os.environ, PYTHONPATH=str(checkout))
                output = subprocess.run(command, cwd=checkout, env=environment, capture_output=True, text=True)
                if output.returncode:
                    raise SystemExit(output.stderr)
                for count, seconds in json.loads(output.stdout.splitlines()[-1]).items():
                    best[name][count] = min(best[name].get(count, seconds), seconds)
        for count in ("system", "ceiling"):
            cells = [f"{best[name][count]:.3f}" for name in checkouts]
            if args.other:
                cells.append(f"{best['other'][count] / best['this'][count]:.2f}x")
            print(f"| {form} | {count} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
