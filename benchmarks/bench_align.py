"""Wall time and peak memory of ``hub4eval.align`` against ``jiwer.process_words``.

Not part of the test suite. Every measurement runs in a fresh subprocess so
that peak memory (``ru_maxrss``) belongs to that measurement alone; the table
shows the process peak and, in brackets, its growth during the timed call
(inputs, interpreter and libraries excluded). hub4eval is timed warm: the
kernels are loaded from numba's cache and exercised on a small input first;
the one-off compilation time (empty cache) is measured separately.

Cases:

* unsegmented: one utterance of N reference words (hypothesis at ~15% WER),
  N = 1e3 .. 1e6; jiwer only up to ``--jiwer-max`` words (default 1e5),
  "skipped" beyond.
* segmented: 1e6 words in 20-word sentences aligned sentence by sentence:
  ``hub4eval.align.align_many`` against one ``jiwer.process_words`` call on
  the lists of sentences, plus a plain ``align_words`` loop for reference.

Usage::

    python benchmarks/bench_align.py            # full table (a few minutes)
    python benchmarks/bench_align.py --quick    # sizes up to 1e5
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

WER = 0.15
SEED = 1


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _worker(tool: str, case: str, n: int) -> dict:
    """Run one measurement in this process; returns a JSON-able dict."""
    from gen_text import make_pair, make_segmented

    if case == "unsegmented":
        data = make_pair(n, WER, SEED)
    else:
        data = make_segmented(n, 20, WER, SEED)
    result: dict = {"tool": tool, "case": case, "n": n}
    if tool.startswith("hub4eval"):
        from hub4eval import align

        _compile_worker()  # load every kernel from the cache before timing
        base = _peak_mb()
        start = time.perf_counter()
        if case == "unsegmented":
            al = align.align_words(*data)
            errors, n_ref, exact = al.errors, n, al.exact
        elif tool == "hub4eval-loop":
            als = [align.align_words(r, h) for r, h in data]
            errors, n_ref, exact = sum(a.errors for a in als), n, all(a.exact for a in als)
        else:
            als = align.align_many(data)
            errors, n_ref, exact = sum(a.errors for a in als), n, all(a.exact for a in als)
        result["seconds"] = time.perf_counter() - start
        result["wer"] = errors / n_ref
        result["exact"] = exact
    else:
        import jiwer

        if case == "unsegmented":
            ref, hyp = " ".join(data[0]), " ".join(data[1])
        else:
            ref, hyp = [" ".join(r) for r, _ in data], [" ".join(h) for _, h in data]
        base = _peak_mb()
        start = time.perf_counter()
        out = jiwer.process_words(ref, hyp)
        result["seconds"] = time.perf_counter() - start
        result["wer"] = out.wer
    result["peak_mb"] = _peak_mb()
    result["growth_mb"] = result["peak_mb"] - base
    return result


def _compile_worker() -> dict:
    """First-call time with an empty numba cache, then the warm load time in a second process."""
    from hub4eval import align

    start = time.perf_counter()
    align.align_words(["a", "b"] * 2000, ["a", "c"] * 2100)  # band, batch, anchors, pruning
    align.align_many([(["a"], ["b"])])
    return {"seconds": time.perf_counter() - start}


def _run(args: list[str], env: dict | None = None, timeout: float = 1800) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, env=env, timeout=timeout
    )
    if done.returncode != 0:
        raise RuntimeError(f"worker {args} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _fmt_mem(r: dict) -> str:
    return f"{r['peak_mb']:.0f} (+{r['growth_mb']:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description="hub4eval aligner benchmark")
    parser.add_argument("--quick", action="store_true", help="sizes up to 1e5 only")
    parser.add_argument("--jiwer-max", type=int, default=100_000, help="largest unsegmented N for jiwer")
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "CASE", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--compile-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_worker(args.worker[0], args.worker[1], int(args.worker[2]))))
        return
    if args.compile_worker:
        print(json.dumps(_compile_worker()))
        return

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}")
    from importlib.metadata import version

    print(f"# numba {version('numba')}, jiwer {version('jiwer')}, rapidfuzz {version('rapidfuzz')}, "
          f"WER ~{WER:.0%}, seed {SEED}")

    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = _run(["--compile-worker"], env)
        warm = _run(["--compile-worker"], env)
    print(f"\nCompilation: calls exercising every kernel take {cold['seconds']:.1f} s with an empty "
          f"NUMBA_CACHE_DIR and {warm['seconds']:.2f} s in a new process loading that cache "
          f"(one-off compilation about {cold['seconds'] - warm['seconds']:.1f} s)\n")

    sizes = [1_000, 10_000, 100_000] + ([] if args.quick else [1_000_000])
    header = "| case | N words | hub4eval s | hub4eval MB | jiwer s | jiwer MB | time ratio | exact | WER hub4eval / jiwer |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    for n in sizes:
        ours = _run(["--worker", "hub4eval", "unsegmented", str(n)])
        if n <= args.jiwer_max:
            theirs = _run(["--worker", "jiwer", "unsegmented", str(n)])
            jt, jm, ratio, jw = (f"{theirs['seconds']:.3f}", _fmt_mem(theirs),
                                 f"{ours['seconds'] / theirs['seconds']:.2f}", f"{theirs['wer']:.4f}")
        else:
            jt = jm = ratio = jw = "skipped"
        print(f"| unsegmented | {n:,} | {ours['seconds']:.3f} | {_fmt_mem(ours)} | {jt} | {jm} | {ratio} | "
              f"{ours['exact']} | {ours['wer']:.4f} / {jw} |", flush=True)
    seg = 100_000 if args.quick else 1_000_000
    ours = _run(["--worker", "hub4eval", "segmented", str(seg)])
    theirs = _run(["--worker", "jiwer", "segmented", str(seg)])
    print(f"| segmented, align_many | {seg:,} | {ours['seconds']:.3f} | {_fmt_mem(ours)} | {theirs['seconds']:.3f} | "
          f"{_fmt_mem(theirs)} | {ours['seconds'] / theirs['seconds']:.2f} | {ours['exact']} | "
          f"{ours['wer']:.4f} / {theirs['wer']:.4f} |", flush=True)
    loop = _run(["--worker", "hub4eval-loop", "segmented", str(seg)])
    print(f"| segmented, align_words loop | {seg:,} | {loop['seconds']:.3f} | {_fmt_mem(loop)} | "
          f"{theirs['seconds']:.3f} | {_fmt_mem(theirs)} | {loop['seconds'] / theirs['seconds']:.2f} | "
          f"{loop['exact']} | {loop['wer']:.4f} / {theirs['wer']:.4f} |")
    print("\nMB: peak RSS of the measuring process (growth during the timed call in brackets).")


if __name__ == "__main__":
    main()
