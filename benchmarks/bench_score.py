"""Benchmark end-to-end scoring and start-up; prints a table of times, memory and ratios.

    python benchmarks/bench_score.py [--sizes 1000:10000,10000:100000] [--out DIR]

Each measurement is a real `hub4eval` subprocess (wall time from the parent,
peak RSS from getrusage of the children). Start-up is compared with the anchor
`python -c pass` measured in the same run. No other scorer reads templette
files, so scoring is compared with the anchor the issue's target was set
against: jiwer aligning 1,000,000 segmented words, ~3.7 s on the machine
where "under 30 s for 10,000 documents / 100,000 instances" was set, i.e. a
budget of 30 / 3.7 = 8.1 anchors. The anchor is measured in the same run
(bench_align.py's worker), so the ratio holds on a slower or busier
machine. Scoring is timed without and with --json (a million points
written with their reasons). Synthetic template sets come from
gen_templates.py (cached under --out).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


def best(args: list[str], repeat: int) -> tuple[float, float]:
    results = [run(args) for _ in range(repeat)]
    return min(r[0] for r in results), max(r[1] for r in results)


ANCHOR_SECONDS_AT_TARGET = 3.7  # jiwer, 1e6 segmented words, on the machine
TARGET_SECONDS = 30.0


def anchor_seconds(repeat: int) -> float:
    """jiwer.process_words on 1,000,000 words in 20-word sentences (best of ``repeat``)."""
    times = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, str(HERE / "bench_align.py"), "--worker", "jiwer", "segmented", "1000000"],
            check=True,
            capture_output=True,
            text=True,
        )
        times.append(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000:10000,10000:100000", help="DOCS:INSTANCES,...")
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument("--repeat", type=int, default=2, help="runs per measurement (best is shown)")
    args = parser.parse_args()
    hub4eval = [sys.executable, "-m", "hub4eval"]

    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print()
    python_s, _ = best([sys.executable, "-c", "pass"], 5)
    help_s, help_mb = best([*hub4eval, "--help"], 5)
    print("| start-up | seconds | MB | vs `python -c pass` |")
    print("|---|---|---|---|")
    print(f"| `python -c pass` (anchor) | {python_s:.3f} | | 1.0 |")
    print(f"| `hub4eval --help` | {help_s:.3f} | {help_mb:.0f} | {help_s / python_s:.1f} |")
    print()
    anchor = anchor_seconds(2)
    budget = TARGET_SECONDS / ANCHOR_SECONDS_AT_TARGET
    print(
        f"Anchor: jiwer on 1,000,000 segmented words takes {anchor:.2f} s in this run "
        f"(best of 2; {ANCHOR_SECONDS_AT_TARGET} s where the target was set): "
        f"budget {budget:.1f} anchors = {budget * anchor:.1f} s here."
    )
    print()
    print("| documents | instances (ref) | points | output | seconds | MB | anchors | budget (anchors) |")
    print("|---|---|---|---|---|---|---|---|")
    for size in args.sizes.split(","):
        docs, instances = (int(x) for x in size.split(":"))
        folder = args.out / f"synth-{docs}-{instances}"
        if not (folder / "ref.tpl").exists():
            subprocess.run(
                [
                    sys.executable,
                    str(HERE / "gen_templates.py"),
                    str(folder),
                    "--docs",
                    str(docs),
                    "--instances",
                    str(instances),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        out = folder / "result.json"
        out.unlink(missing_ok=True)
        score = [*hub4eval, "score", str(folder / "ref.tpl"), str(folder / "hyp.tpl"), "--quiet"]
        for output, command in (("tables", score), ("tables + --json", [*score, "--json", str(out)])):
            seconds, mb = best(command, args.repeat)
            points = f"{len(json.loads(out.read_text())['points']):,}" if out.exists() else ""
            target = f"{budget:.1f}" if docs >= 10000 else ""
            print(
                f"| {docs:,} | {instances:,} | {points} | {output} | {seconds:.1f} | {mb:.0f} | "
                f"{seconds / anchor:.1f} | {target} |"
            )
        out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
