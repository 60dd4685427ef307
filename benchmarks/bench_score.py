"""Benchmark end-to-end scoring and start-up; prints a table of times, memory and ratios.

    python benchmarks/bench_score.py [--sizes 1000:10000,10000:100000] [--out DIR]

Each measurement is a real `hub4eval` subprocess (wall time from the parent,
peak RSS from getrusage of the children). Start-up is compared with the anchor
`python -c pass` measured in the same run. No other scorer reads templette
files, so scoring is reported against its target (under 30 s for 10,000
documents / 100,000 instances) and as seconds per 1,000 instances. Synthetic
template sets come from gen_templates.py (cached under --out).
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000:10000,10000:100000", help="DOCS:INSTANCES,...")
    parser.add_argument("--out", type=Path, default=HERE / "out")
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
    print("| documents | instances (ref) | points | seconds | MB | s per 1,000 instances | target |")
    print("|---|---|---|---|---|---|---|")
    for size in args.sizes.split(","):
        docs, instances = (int(x) for x in size.split(":"))
        folder = args.out / f"synth-{docs}-{instances}"
        if not (folder / "ref.tpl").exists():
            subprocess.run(
                [sys.executable, str(HERE / "gen_templates.py"), str(folder),
                 "--docs", str(docs), "--instances", str(instances)],
                check=True, stdout=subprocess.DEVNULL,
            )
        out = folder / "result.json"
        seconds, mb = best(
            [*hub4eval, "score", str(folder / "ref.tpl"), str(folder / "hyp.tpl"), "--json", str(out), "--quiet"],
            1,
        )
        import json

        points = len(json.loads(out.read_text())["points"])
        target = "< 30 s" if docs >= 10000 else ""
        print(
            f"| {docs:,} | {instances:,} | {points:,} | {seconds:.1f} | {mb:.0f} | "
            f"{1000 * seconds / instances:.2f} | {target} |"
        )


if __name__ == "__main__":
    main()
