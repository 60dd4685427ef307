"""Many instances of one type in one document whose fills share words.

Not part of the test suite. ``gen_dense.py`` makes one document with
``--events`` EVENT instances whose fills are drawn from a small vocabulary,
so millions of instance pairs can score a correct point together (about 10
million at 100,000 events and 500 words). Each measurement is one
``python -m hub4eval score REF HYP --quiet`` process (wall and CPU seconds,
peak RSS of the child from ``os.wait4``); the goal is an exact score in under
60 s and 4 GB on a 2-core machine.

``--check N`` first scores a smaller set of the same kind (N events) twice
in this process, with the compact engine and with the test oracle, the
greedy over every instance pair counted through its match record
(``tests/support/mapping_oracle.py``: N x N records, so keep N small), and
requires byte-identical JSON::

    python benchmarks/bench_dense.py                        # 100,000 events, 500 words
    python benchmarks/bench_dense.py --events 30000 --vocabulary 150 --check 300

``--refusal`` times a set too large to score instead (50,000 events of five
words give about 276 million candidate pairs, more than the bound of 100
million): the whole command until it refuses, ``score REF HYP --quiet`` with
the default ``--jobs`` and with ``--jobs 1``, in ``--runs`` interleaved rounds
beside the read limit of the same two files (``bench_read_limit.py``: read,
decode and split with one regular expression, timed inside its process), and
prints each one's best wall and CPU seconds and their ratios to the read
limit; the goal is a refusal in under a second of wall::

    python benchmarks/bench_dense.py --events 50000 --vocabulary 5 --refusal --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_align_cli import absolute
from gen_dense import generate

ROOT = Path(__file__).resolve().parent.parent
REFUSAL_GOAL = 1.0  # wall seconds of the whole command that refuses


def files(folder: Path, events: int, vocabulary: int, seed: int) -> tuple[Path, Path]:
    """ref.tpl and hyp.tpl of the set, made once in ``folder``."""
    folder = folder / f"dense_e{events}_v{vocabulary}_s{seed}"
    ref, hyp = folder / "ref.tpl", folder / "hyp.tpl"
    if not (ref.exists() and hyp.exists()):
        folder.mkdir(parents=True, exist_ok=True)
        ref_text, hyp_text = generate(events, vocabulary, seed, 0.15)
        ref.write_text(ref_text)
        hyp.write_text(hyp_text)
    return ref, hyp


def run(arguments: list[str]) -> dict[str, float]:
    """``python -m hub4eval ARGUMENTS`` from the checkout: status, wall and CPU seconds, peak RSS (MB)."""
    command = [sys.executable, "-m", "hub4eval", *arguments]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    error = child.stderr.read().decode().strip() if child.stderr is not None else ""
    return {
        "status": os.waitstatus_to_exitcode(status),
        "seconds": seconds,
        "cpu": usage.ru_utime + usage.ru_stime,
        "mb": usage.ru_maxrss / 1024,
        "error": error,  # type: ignore[dict-item]
    }


def check(folder: Path, events: int, vocabulary: int, seed: int) -> None:
    """Score a small set with both engines in this process; stop unless the JSON is identical."""
    sys.path.insert(0, str(ROOT))
    from hub4eval.api import score
    from hub4eval.config import ScoreConfig
    from hub4eval.io.templettes import parse_templates
    from hub4eval.scoring import pairs
    from tests.support.mapping_oracle import brute_force_map_groups

    ref_path, hyp_path = files(folder, events, vocabulary, seed)
    ref = parse_templates(ref_path.read_text(), str(ref_path), "reference")
    hyp = parse_templates(hyp_path.read_text(), str(hyp_path), "hypothesis")
    for options in ({}, {"content": "noisy"}, {"compare": "extent"}):
        config = ScoreConfig(**options)  # type: ignore[arg-type]
        results = []
        engine = pairs.map_groups
        for compact in (True, False):
            pairs.map_groups = engine if compact else brute_force_map_groups  # type: ignore[assignment]
            start = time.process_time()
            results.append(json.dumps(score(ref, hyp, config=config).to_json(), sort_keys=True))
            print(f"# check {events:,} events {options or ''}: {'compact' if compact else 'records'} "
                  f"{time.process_time() - start:.1f} s CPU", flush=True)  # fmt: skip
        pairs.map_groups = engine  # type: ignore[assignment]
        if results[0] != results[1]:
            raise SystemExit(f"the two engines differ on {events:,} events with {options}")
    print(f"# check: identical JSON on {events:,} events (clean, noisy, extent only)")


def refusal(ref: Path, hyp: Path, runs: int) -> None:
    """The whole command until it refuses, beside the read limit of the same files (best of ``runs``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_read_limit import read_limit

    cases = {"score": ["score", str(ref), str(hyp), "--quiet"], "score --jobs 1": ["score", str(ref), str(hyp), "--quiet", "--jobs", "1"]}  # fmt: skip
    limit = {"wall": float("inf"), "cpu": float("inf")}
    best: dict[str, dict[str, float]] = {}
    for _ in range(runs):  # interleaved: a change of the load hits every case alike
        measured = read_limit([ref, hyp])
        limit = {key: min(limit[key], measured[key]) for key in limit}
        for name, arguments in cases.items():
            done = run(arguments)
            if name not in best or done["seconds"] < best[name]["seconds"]:
                best[name] = done
    print(f"read limit of both files: {limit['wall']:.3f} s wall, {limit['cpu']:.3f} s CPU")
    print("| command | status | seconds | CPU s | MB | x read limit (wall) | x read limit (CPU) | goal |")
    print("|---|---|---|---|---|---|---|---|")
    for name, done in best.items():
        goal = "met" if done["seconds"] < REFUSAL_GOAL else "not met"
        print(f"| {name} | {done['status']} | {done['seconds']:.2f} | {done['cpu']:.2f} | {done['mb']:.0f} | "
              f"{done['seconds'] / limit['wall']:.1f} | {done['cpu'] / limit['cpu']:.1f} | "
              f"< {REFUSAL_GOAL:.0f} s: {goal} |")  # fmt: skip
    print(f"# {str(next(iter(best.values()))['error'])[:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="reference instances of the document")
    parser.add_argument("--vocabulary", type=int, default=500, help="words the fills are drawn from")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1, help="runs of the score (the best CPU is kept)")
    parser.add_argument("--check", type=int, default=0, help="first compare the two engines on this many events")
    parser.add_argument("--json", action="store_true", help="also time score --json")
    parser.add_argument(
        "--refusal", action="store_true", help="time the whole command refusing a set too large (see above)"
    )
    parser.add_argument(
        "--dir", type=absolute, default=Path(tempfile.gettempdir()) / "hub4eval_bench_dense", help="where the files go"
    )
    args = parser.parse_args()
    if args.check:
        check(args.dir, args.check, max(5, args.check * args.vocabulary // args.events), args.seed)
    ref, hyp = files(args.dir, args.events, args.vocabulary, args.seed)
    print(f"# {args.events:,} events, vocabulary {args.vocabulary:,}, files in DIR/{ref.parent.name}; nproc {os.cpu_count()}, "
          f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")  # fmt: skip
    if args.refusal:
        refusal(ref, hyp, args.runs)
        return
    print("| output | status | seconds | CPU s | MB |")
    print("|---|---|---|---|---|")
    outputs = [("tables", [])] + ([("--json", ["--json", str(ref.parent / "out.json")])] if args.json else [])
    for name, extra in outputs:
        best = None
        for _ in range(args.runs):
            measured = run(["score", str(ref), str(hyp), "--quiet", *extra])
            if best is None or measured["cpu"] < best["cpu"]:
                best = measured
        assert best is not None
        print(f"| {name} | {best['status']} | {best['seconds']:.1f} | {best['cpu']:.1f} | {best['mb']:.0f} |")
        if best["status"] != 0:
            print(f"# {best['error']}")


if __name__ == "__main__":
    main()
