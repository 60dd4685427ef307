"""Wall time and peak memory of ``hub4eval.text.align`` against ``jiwer.process_words`` and NIST sclite.

Not part of the test suite. Every measurement runs in a fresh subprocess so
that peak memory (``ru_maxrss``) belongs to that measurement alone; the table
shows the process peak and, in brackets, its growth during the timed call
(inputs, interpreter and libraries excluded). hub4eval is timed warm: the
kernels are loaded from numba's cache and exercised first, the certifying
search included (on a 3,000-word pair), so the timed call loads no kernel;
the one-off compilation time (empty cache) is measured separately.

sclite (NIST SCTK, a C program) is found with ``--sclite PATH`` or on the
PATH; without it its columns say "not installed". It gets the same words as
``trn`` files (``words (spk_NNNNNN)``, one utterance a line) and is timed as
one ``sclite -r ref.trn trn -h hyp.trn trn -i rm -o rsum stdout -f 0``
process, started from a fresh measuring subprocess once the files are
written; its MB is that child's peak RSS (``RUSAGE_CHILDREN``), and its WER
is read from the "Sum" row of the raw summary. sclite allocates a full
matrix of about (1.05 x words)^2 8-byte cells and refuses utterances over 65,534 words
("refused" cell, exit status 1); it is not run on unsegmented inputs above
``--sclite-max`` words (default 1e5): at 1e6 words it reads the input for
about 4 minutes before refusing.

Cases:

* unsegmented: one utterance of N reference words (hypothesis at ~15% WER),
  N = 1e3 .. 1e6; jiwer only up to ``--jiwer-max`` words (default 1e5),
  "skipped" beyond.
* segmented: 1e6 words in 20-word sentences aligned sentence by sentence:
  ``hub4eval.text.align.align_many`` against one ``jiwer.process_words`` call on
  the lists of sentences, plus a plain ``align_words`` loop for reference;
  sclite gets one ``trn`` line per sentence.

Usage::

    python benchmarks/bench_align.py            # full table (a few minutes)
    python benchmarks/bench_align.py --quick    # sizes up to 1e5
    python benchmarks/bench_align.py --sclite "$SCTK/bin/sclite"   # SCTK: a built SCTK checkout
    python benchmarks/bench_align.py --sizes 10000 --no-segmented --repeat 7   # issue #20's case

The CPU table also gives, for hub4eval's first call, how often the process
was preempted (involuntary context switches), how often it waited
(voluntary ones) and its page faults: on a shared machine wall time exceeds
CPU time by the preemptions, and fresh memory costs page faults on the first
call (see ``benchmarks/RESULTS.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
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
SCLITE_LIMIT = 65_534  # words per utterance (MAX_MATRIX_SIZE - 1 in sclite's netstr1.h)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _write_trn(path: Path, sentences: list[list[str]]) -> None:
    with open(path, "w") as out:
        for i, words in enumerate(sentences):
            out.write(f"{' '.join(words)} (spk_{i:06d})\n")


def _sclite_refusal(stderr: str) -> str:
    if "larger than" in stderr and "elements" in stderr:
        return f"> {SCLITE_LIMIT:,} words"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1][:40] if lines else "no message"


def _sclite_worker(sclite: str, case: str, n: int, data, timeout: float) -> dict:
    """Write ``trn`` files, then time one sclite child process (peak RSS from RUSAGE_CHILDREN)."""
    if case == "unsegmented":
        refs, hyps = [data[0]], [data[1]]
    else:
        refs, hyps = [r for r, _ in data], [h for _, h in data]
    result: dict = {"tool": "sclite", "case": case, "n": n}
    with tempfile.TemporaryDirectory() as tmp:
        ref, hyp = Path(tmp, "ref.trn"), Path(tmp, "hyp.trn")
        _write_trn(ref, refs)
        _write_trn(hyp, hyps)
        cmd = [sclite, "-r", str(ref), "trn", "-h", str(hyp), "trn", "-i", "rm", "-o", "rsum", "stdout", "-f", "0"]
        start = time.perf_counter()
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=tmp)
        except subprocess.TimeoutExpired:
            result["refused"] = f"timed out after {timeout:.0f} s"
            return result
        result["seconds"] = time.perf_counter() - start
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    row = next((line for line in done.stdout.splitlines() if re.match(r"\s*\|\s*Sum\s*\|", line)), None)
    if done.returncode != 0 or row is None:
        result["refused"] = _sclite_refusal(done.stderr)
        return result
    # | Sum | #Snt #Wrd | Corr Sub Del Ins Err S.Err |
    try:
        numbers = [int(x) for x in row.replace("|", " ").split()[1:]]
        result["wer"] = numbers[6] / numbers[1]
    except (ValueError, IndexError, ZeroDivisionError):
        result["wer"] = None  # unexpected report layout: time and memory still count
    return result


def _sclite_version(sclite: str) -> str:
    try:
        done = subprocess.run([sclite], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        return f"not runnable ({exc})"
    found = re.search(r"sclite Version: ([^,\s]+), SCTK Version: (\S+)", done.stdout + done.stderr)
    return f"sclite {found.group(1)} (SCTK {found.group(2)})" if found else "sclite (version not printed)"


def _worker(tool: str, case: str, n: int, sclite: str | None = None, timeout: float = 1200, repeat: int = 1) -> dict:
    """Run one measurement in this process; returns a JSON-able dict."""
    from gen_text import make_pair, make_segmented

    if case == "unsegmented":
        data = make_pair(n, WER, SEED)
    else:
        data = make_segmented(n, 20, WER, SEED)
    if tool == "sclite":
        return _sclite_worker(sclite, case, n, data, timeout)
    result: dict = {"tool": tool, "case": case, "n": n}
    if tool.startswith("hub4eval"):
        from hub4eval.text import align

        _compile_worker()  # load every kernel from the cache before timing
        if case == "unsegmented":

            def call():
                al = align.align_words(*data)
                result["gap"] = al.gap / al.cost if al.cost else 0.0
                return al.errors, n, al.exact
        elif tool == "hub4eval-loop":

            def call():
                als = [align.align_words(r, h) for r, h in data]
                return sum(a.errors for a in als), n, all(a.exact for a in als)
        else:

            def call():
                als = align.align_many(data)
                return sum(a.errors for a in als), n, all(a.exact for a in als)
    else:
        import jiwer

        if case == "unsegmented":
            ref, hyp = " ".join(data[0]), " ".join(data[1])
        else:
            ref, hyp = [" ".join(r) for r, _ in data], [" ".join(h) for _, h in data]

        def call():
            out = jiwer.process_words(ref, hyp)
            result["wer"] = out.wer
            return None

    base = _peak_mb()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    cpu = time.process_time()
    answer = call()
    result["seconds"] = time.perf_counter() - start
    result["cpu"] = time.process_time() - cpu
    after = resource.getrusage(resource.RUSAGE_SELF)
    # Where wall time exceeds CPU time: preemptions by other processes
    # (involuntary switches), waits (voluntary), fresh memory (page faults).
    result["switches"] = (after.ru_nivcsw - usage.ru_nivcsw, after.ru_nvcsw - usage.ru_nvcsw)
    result["faults"] = after.ru_minflt - usage.ru_minflt
    if answer is not None:
        errors, n_ref, exact = answer
        result["wer"] = errors / n_ref
        result["exact"] = exact
    result["best_seconds"], result["best_cpu"] = result["seconds"], result["cpu"]
    for _ in range(repeat - 1):  # later calls in the same process: memory and caches warm
        start = time.perf_counter()
        cpu = time.process_time()
        call()
        result["best_seconds"] = min(result["best_seconds"], time.perf_counter() - start)
        result["best_cpu"] = min(result["best_cpu"], time.process_time() - cpu)
    result["peak_mb"] = _peak_mb()
    result["growth_mb"] = result["peak_mb"] - base
    return result


def _compile_worker() -> dict:
    """First-call time with an empty numba cache, then the warm load time in a second process."""
    from gen_text import make_pair

    from hub4eval.text import align
    from hub4eval.text.align import certify, codes, kernels

    ref, hyp = make_pair(3000, WER, SEED + 1)
    start = time.perf_counter()
    align.align_words(["a", "b"] * 2000, ["a", "c"] * 2100)  # band, batch, anchors, pruning
    align.align_many([(["a"], ["b"])])
    align.align_words(ref, hyp)  # the certifying search and its seed table
    (rc, hc), voc = codes._encode((ref[:50], hyp[:50]))
    certify._absent_bound(kernels._kernels(), rc, hc, voc)  # the bound used without a certificate
    return {"seconds": time.perf_counter() - start}


def _run(args: list[str], env: dict | None = None, timeout: float = 1800) -> dict:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"worker {args} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _fmt_exact(r: dict) -> str:
    """True (proven optimal), or False with the proven gap: how far the cost may exceed the optimum."""
    if r["exact"] or "gap" not in r:
        return str(r["exact"])
    return f"False (gap <= {r['gap']:.1%} of the cost)"


def _fmt_mem(r: dict) -> str:
    return f"{r['peak_mb']:.0f} (+{r['growth_mb']:.0f})"


def _sclite_cells(ours: dict, sclite: str | None, case: str, n: int, args) -> tuple[str, str, str, str]:
    """sclite s, sclite MB, ratio vs sclite (hub4eval / sclite), sclite WER."""
    if sclite is None:
        return ("not installed",) * 3 + ("-",)
    if case == "unsegmented" and n > args.sclite_max:
        why = f"> {SCLITE_LIMIT:,} words" if n > SCLITE_LIMIT else "> --sclite-max"
        return (f"not run ({why})", "-", "-", "-")
    theirs = _sclite(sclite, case, n, args)
    if "refused" in theirs:
        took = f" after {theirs['seconds']:.1f} s" if "seconds" in theirs else ""
        return (f"refused{took}: {theirs['refused']}", f"{theirs.get('peak_mb', 0):.0f}" if took else "-", "-", "-")
    wer = "?" if theirs["wer"] is None else f"{theirs['wer']:.4f}"
    return (f"{theirs['seconds']:.3f}", f"{theirs['peak_mb']:.0f}", f"{ours['seconds'] / theirs['seconds']:.2f}", wer)


_SCLITE_CACHE: dict = {}


def _sclite(sclite: str, case: str, n: int, args) -> dict:
    key = (case, n)
    if key not in _SCLITE_CACHE:
        _SCLITE_CACHE[key] = _run(
            ["--worker", "sclite", case, str(n), "--sclite", sclite, "--sclite-timeout", str(args.sclite_timeout)]
        )
    return _SCLITE_CACHE[key]


def main() -> None:
    parser = argparse.ArgumentParser(description="hub4eval aligner benchmark")
    parser.add_argument("--quick", action="store_true", help="sizes up to 1e5 only")
    parser.add_argument("--jiwer-max", type=int, default=100_000, help="largest unsegmented N for jiwer")
    parser.add_argument(
        "--sclite",
        metavar="PATH",
        help="sclite executable (default: sclite on the PATH; its columns say 'not installed' when there is none)",
    )
    parser.add_argument(
        "--sclite-max",
        type=int,
        default=100_000,
        help=f"largest unsegmented N for sclite (it refuses more than {SCLITE_LIMIT:,} words "
        "per utterance, but only after reading them: ~4 min at 1e6)",
    )
    parser.add_argument(
        "--sclite-timeout", type=float, default=1200, help="seconds before an sclite run is recorded as timed out"
    )
    parser.add_argument(
        "--sizes",
        metavar="N,N,...",
        help="unsegmented sizes to run (default 1e3,1e4,1e5 and, without --quick, 1e6)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="also time N - 1 further calls in each measuring process and report the best of the N "
        "(the first call pays for fresh memory; default 1)",
    )
    parser.add_argument("--no-segmented", action="store_true", help="skip the segmented rows")
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "CASE", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--compile-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(
            json.dumps(
                _worker(
                    args.worker[0], args.worker[1], int(args.worker[2]), args.sclite, args.sclite_timeout, args.repeat
                )
            )
        )
        return
    if args.compile_worker:
        print(json.dumps(_compile_worker()))
        return

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}")
    from importlib.metadata import version

    print(
        f"# numba {version('numba')}, jiwer {version('jiwer')}, rapidfuzz {version('rapidfuzz')}, "
        f"WER ~{WER:.0%}, seed {SEED}"
    )
    sclite = args.sclite or shutil.which("sclite")
    if sclite and not (os.path.isfile(sclite) and os.access(sclite, os.X_OK)):
        print(f"# sclite: {sclite} is not an executable file; sclite columns say 'not installed'")
        sclite = None
    if sclite:
        sclite = os.path.abspath(sclite)
        print(f"# {_sclite_version(sclite)}: {sclite}")
    else:
        print("# sclite: not installed (give --sclite PATH or put it on the PATH)")

    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = _run(["--compile-worker"], env)
        warm = _run(["--compile-worker"], env)
    print(
        f"\nCompilation: calls exercising every kernel take {cold['seconds']:.1f} s with an empty "
        f"NUMBA_CACHE_DIR and {warm['seconds']:.2f} s in a new process loading that cache "
        f"(one-off compilation about {cold['seconds'] - warm['seconds']:.1f} s)\n"
    )

    if args.sizes:
        sizes = [int(float(x)) for x in args.sizes.split(",") if x]
    else:
        sizes = [1_000, 10_000, 100_000] + ([] if args.quick else [1_000_000])
    rep = ["--repeat", str(args.repeat)]
    header = (
        "| case | N words | hub4eval s | hub4eval MB | jiwer s | jiwer MB | ratio vs jiwer | sclite s | "
        "sclite MB | ratio vs sclite | exact | WER hub4eval / jiwer / sclite |"
    )
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    cpu_rows: list[tuple[str, int, dict, dict | None]] = []
    for n in sizes:
        ours = _run(["--worker", "hub4eval", "unsegmented", str(n), *rep])
        if n <= args.jiwer_max:
            theirs = _run(["--worker", "jiwer", "unsegmented", str(n), *rep])
            jt, jm, ratio, jw = (
                f"{theirs['seconds']:.3f}",
                _fmt_mem(theirs),
                f"{ours['seconds'] / theirs['seconds']:.2f}",
                f"{theirs['wer']:.4f}",
            )
        else:
            theirs = None
            jt = jm = ratio = jw = "skipped"
        cpu_rows.append(("unsegmented", n, ours, theirs))
        st, sm, sratio, sw = _sclite_cells(ours, sclite, "unsegmented", n, args)
        print(
            f"| unsegmented | {n:,} | {ours['seconds']:.3f} | {_fmt_mem(ours)} | {jt} | {jm} | {ratio} | "
            f"{st} | {sm} | {sratio} | {_fmt_exact(ours)} | {ours['wer']:.4f} / {jw} / {sw} |",
            flush=True,
        )
    if not args.no_segmented:
        seg = 100_000 if args.quick else 1_000_000
        ours = _run(["--worker", "hub4eval", "segmented", str(seg), *rep])
        theirs = _run(["--worker", "jiwer", "segmented", str(seg), *rep])
        st, sm, sratio, sw = _sclite_cells(ours, sclite, "segmented", seg, args)
        print(
            f"| segmented, align_many | {seg:,} | {ours['seconds']:.3f} | {_fmt_mem(ours)} | {theirs['seconds']:.3f} | "
            f"{_fmt_mem(theirs)} | {ours['seconds'] / theirs['seconds']:.2f} | {st} | {sm} | {sratio} | "
            f"{ours['exact']} | {ours['wer']:.4f} / {theirs['wer']:.4f} / {sw} |",
            flush=True,
        )
        cpu_rows.append(("segmented, align_many", seg, ours, theirs))
        loop = _run(["--worker", "hub4eval-loop", "segmented", str(seg), *rep])
        st, sm, sratio, sw = _sclite_cells(loop, sclite, "segmented", seg, args)
        print(
            f"| segmented, align_words loop | {seg:,} | {loop['seconds']:.3f} | {_fmt_mem(loop)} | "
            f"{theirs['seconds']:.3f} | {_fmt_mem(theirs)} | {loop['seconds'] / theirs['seconds']:.2f} | "
            f"{st} | {sm} | {sratio} | {loop['exact']} | {loop['wer']:.4f} / {theirs['wer']:.4f} / {sw} |"
        )
    print("\nCPU seconds of the same runs (process time: less sensitive than wall time to a busy machine):\n")
    print(
        "| case | N words | hub4eval CPU s | jiwer CPU s | ratio vs jiwer (CPU) | hub4eval preempted / waited / page faults |"
    )
    print("|---|---|---|---|---|---|")
    for case, n, ours, theirs in cpu_rows:
        jc = f"{theirs['cpu']:.3f}" if theirs else "skipped"
        rc = f"{ours['cpu'] / theirs['cpu']:.2f}" if theirs and theirs["cpu"] > 0 else "-"
        pre, wait = ours["switches"]
        print(f"| {case} | {n:,} | {ours['cpu']:.3f} | {jc} | {rc} | {pre} / {wait} / {ours['faults']} |")
    if args.repeat > 1:
        print(f"\nBest of {args.repeat} calls in the same processes (after the first: memory and caches warm):\n")
        print("| case | N words | hub4eval s | jiwer s | ratio (wall) | hub4eval CPU s | jiwer CPU s | ratio (CPU) |")
        print("|---|---|---|---|---|---|---|---|")
        for case, n, ours, theirs in cpu_rows:
            if theirs:
                jw, jc = f"{theirs['best_seconds']:.3f}", f"{theirs['best_cpu']:.3f}"
                rw = f"{ours['best_seconds'] / theirs['best_seconds']:.2f}"
                rc = f"{ours['best_cpu'] / theirs['best_cpu']:.2f}" if theirs["best_cpu"] > 0 else "-"
            else:
                jw = jc = "skipped"
                rw = rc = "-"
            print(
                f"| {case} | {n:,} | {ours['best_seconds']:.3f} | {jw} | {rw} | {ours['best_cpu']:.3f} | {jc} | {rc} |"
            )
    print(
        "\nexact: True when the alignment is proven optimal; otherwise the proven gap (cost minus a proven "
        "lower bound of the optimum) as a share of the cost.\n"
        "MB: peak RSS of the measuring process (growth during the timed call in brackets); for sclite the "
        "peak RSS of the sclite process.\nRatios: hub4eval time / other tool's time (below 1: hub4eval is faster)."
    )


if __name__ == "__main__":
    main()
