"""Wall time and peak memory of ``hub4eval.text.align.sclite`` (sclite's alignment) on long texts.

Not part of the test suite. One unsegmented utterance of N reference words
(Zipf(1) over a 20,000-word vocabulary) against a hypothesis with errors at
RATE (60 % substitutions, 20 % deletions, 20 % insertions); ``--block K``
also deletes a K-word block at the middle and inserts K unrelated words at
three quarters (long local drift, the slow case). Each N runs in a fresh
subprocess so that its peak RSS is its own; times are warm (kernels loaded
from numba's cache) and exclude building the word lists, include encoding them.

    python benchmarks/bench_sclite_wer.py                 # N = 1e4, 1e5, 1e6 at 15 %
    python benchmarks/bench_sclite_wer.py --sizes 1000000 --rate 0.1 --block 5000

sclite itself refuses more than 65,533 words per utterance and needs a full
matrix (see bench_align.py); the result here is the same alignment (tests/text/test_sclite_wer.py).

``--texts REF HYP``: instead, the unsegmented stream of two text files as
``hub4eval align`` and ``score`` align it (the default GLM; e.g. the files
of ``bench_hub4.py``), its steps timed one after the other in this process
(CPU seconds, best of ``--rounds``, each with its share of the whole
alignment timed in the same round):

    python benchmarks/bench_sclite_wer.py --texts $SCRATCH/hub4/s1000_w500_e10_wer0.25_seed1/ref.sgml \
        $SCRATCH/hub4/s1000_w500_e10_wer0.25_seed1/hyp_unsegmented.sgml
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def realistic(n: int, rate: float, seed: int, block: int = 0, vocabulary: int = 20_000):
    import numpy as np

    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, vocabulary + 1)
    p /= p.sum()
    ref = rng.choice(vocabulary, size=n, p=p)
    r, ins = rng.random(n), rng.random(n)
    sub_w, ins_w = rng.choice(vocabulary, size=n, p=p), rng.choice(vocabulary, size=n, p=p)
    hyp: list[int] = []
    for k in range(n):
        if block and n // 2 <= k < n // 2 + block:
            continue
        if block and k == 3 * n // 4:
            hyp.extend(rng.choice(vocabulary, size=block, p=p).tolist())
        if r[k] < rate * 0.6:
            hyp.append(int(sub_w[k]))
        elif r[k] >= rate * 0.8:
            hyp.append(int(ref[k]))
        if ins[k] < rate * 0.2:
            hyp.append(int(ins_w[k]))
    return [f"w{x}" for x in ref], [f"w{x}" for x in hyp]


def worker(n: int, rate: float, block: int, seed: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from hub4eval.text import wer

    wer.sclite_align(["a", "b"], ["a"])  # load the compiled kernels
    ref, hyp = realistic(n, rate, seed, block)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    ops, _, _ = wer.sclite_align_arrays(ref, hyp)
    seconds = time.perf_counter() - start
    counts = wer._counts(ops)
    return {
        "n": n,
        "m": len(hyp),
        "seconds": seconds,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "before_mb": before,
        **{k: counts[k] for k in ("substitutions", "deletions", "insertions")},
    }


def stream_codes(ref_path: str, hyp_path: str):
    """The codes of the unsegmented stream of two text files, as ``align`` and ``score`` align it."""
    sys.path.insert(0, str(ROOT))
    from hub4eval.config import ScoreConfig
    from hub4eval.io.formats import read_text_corpora
    from hub4eval.scoring.pipeline import load_glm
    from hub4eval.text.tokenized import tokenize_corpora

    config = ScoreConfig(glm=("default",))
    ref, hyp = read_text_corpora(ref_path, hyp_path)
    tokenized = tokenize_corpora(ref, hyp, glm=load_glm(config.glm), spoken_forms=config.spoken_forms)
    [(_, _, ref_tokens, hyp_tokens)] = tokenized.pairs
    return ref_tokens.ids, hyp_tokens.ids


def phases(ref_path: str, hyp_path: str, rounds: int) -> None:
    """CPU seconds of each step of sclite's alignment of the stream (see the module docstring)."""
    import numpy as np

    from hub4eval.text.align import sclite as s

    a, b = stream_codes(ref_path, hyp_path)
    n, m = len(a), len(b)
    s._align_codes(a[:5000], b[:5000])  # load the compiled kernels
    clock = time.process_time
    best: dict[str, float] = {}
    for _ in range(rounds):
        start = clock()
        blo, bhi, hpos = s._bigram_hits(a, b)
        track = s._anchor_track(a, b, min(s._ANCHOR_T, s._CHUNK_T), blo, bhi, hpos, s._BIGRAM_CAP, 8, 6)
        hits = clock()
        upper, centers, least = s._guide_pass(a, b, s._GUIDE_W, track, *s._work(n, m, 2))
        guide = clock()
        length, width = s._chunk_length(n)
        starts = s._chunk_starts(n, length)
        suffix = np.empty(n + 1, np.int64)
        lbs = s._chunk_lower_bounds(
            a, s._reversed(b), starts, centers, least, width, blo, bhi, hpos, s._BIGRAM_CAP, suffix
        )
        bounds = clock()
        heuristic = s._Heuristic(lbs, starts, length, suffix)
        first: dict = {"cells": 0, "passes": 0}
        s._checkpointed(a, b, int(upper), heuristic, s._work(n, m, 5), first)
        checkpointed = clock()
        stats: dict = {}
        s._align_codes(a, b, stats=stats)
        whole = clock() - checkpointed
        for name, seconds in (
            ("bigram hits and anchor track", hits - start),
            ("guide band (upper bound)", guide - hits),
            ("chunk bounds", bounds - guide),
            ("first pass (checkpoints)", checkpointed - bounds),
            ("whole alignment", whole),
        ):
            best[name] = min(best.get(name, float("inf")), seconds)
    upper, lower = stats["upper_bound"], stats["chunk_lb_total"]
    print(f"# {n:,} x {m:,} tokens; chunks of {length:,} words, a band of {width:,} diagonals either side")
    print(f"# the guide's upper bound {upper:,}, the chunk bounds' sum {lower:,} (slack {upper - lower:,})")
    print(f"# first pass {first['cells'] / 1e6:.0f}M cells, all passes {stats['cells'] / 1e6:.0f}M")
    print("| step | CPU s | share of the whole |")
    print("|---|---|---|")
    for name, seconds in best.items():
        print(f"| {name} | {seconds:.3f} | {seconds / best['whole alignment']:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--rate", type=float, default=0.15)
    parser.add_argument("--block", type=int, default=0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--texts", nargs=2, metavar=("REF", "HYP"), help="time the steps on the stream of two texts")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --texts (the best kept)")
    args = parser.parse_args()
    if args.texts:
        phases(*args.texts, args.rounds)
        return
    if args.worker is not None:
        print(json.dumps(worker(args.worker, args.rate, args.block, args.seed)))
        return
    print("| ref words | hyp words | error rate | block | seconds | peak MB (before the call) | S / D / I |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        command = [
            sys.executable,
            __file__,
            "--worker",
            str(n),
            "--rate",
            str(args.rate),
            "--block",
            str(args.block),
            "--seed",
            str(args.seed),
        ]
        r = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
        print(
            f"| {r['n']:,} | {r['m']:,} | {args.rate:.0%} | {args.block or '-'} | {r['seconds']:.1f} | "
            f"{r['peak_mb']:.0f} ({r['before_mb']:.0f}) | "
            f"{r['substitutions']:,} / {r['deletions']:,} / {r['insertions']:,} |"
        )


if __name__ == "__main__":
    main()
