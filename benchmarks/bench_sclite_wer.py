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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--rate", type=float, default=0.15)
    parser.add_argument("--block", type=int, default=0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
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
