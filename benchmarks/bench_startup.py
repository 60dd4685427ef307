"""Benchmark start-up: `--help` and a warm `score` of the sample, as ratios to `python -c pass`.

    python benchmarks/bench_startup.py [--repeat 15] [--bytecode]

It times the hub4eval that ``python -m hub4eval`` finds from the current
directory (the current directory first, then ``PYTHONPATH``).

Each measurement is a real subprocess: wall time from the parent, and CPU
time (user + system, from wait4), which a busy machine disturbs less. The
commands are run in interleaved rounds (one of each per round), so a busy
moment of the machine falls on all of them alike; the best of the rounds is
shown, with its ratio to the anchor `python -c pass` measured in the same run.

"warm" runs use a cache directory filled by one run before the rounds (the
state of every run after a user's first); "cold" runs get a new, empty cache
directory each time (a user's first run, or an unwritable cache).

``--bytecode`` lets Python write and use compiled bytecode (under a temporary
``PYTHONPYCACHEPREFIX``, filled by the first run), as an installed package
has it; without it the environment decides (``PYTHONDONTWRITEBYTECODE=1``
makes every run compile hub4eval's modules from source).

The targets (issue #20) are 0.3 s for `--help` and for a warm `score` of the
sample; the ratios carry them to a faster or slower machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "sample"


def run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, args)
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="interleaved rounds (the best is shown)")
    parser.add_argument("--bytecode", action="store_true", help="write and use bytecode (a temporary prefix)")
    args = parser.parse_args()
    hub4eval = [sys.executable, "-m", "hub4eval"]
    score = [*hub4eval, "score", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl"), "-q"]
    with_text = [*score, "--ref-text", str(SAMPLE / "text.sgml")]

    with tempfile.TemporaryDirectory() as scratch:
        base = dict(os.environ)
        if args.bytecode:
            base.pop("PYTHONDONTWRITEBYTECODE", None)
            base["PYTHONPYCACHEPREFIX"] = str(Path(scratch) / "pycache")
        warm = {**base, "HUB4EVAL_CACHE_DIR": str(Path(scratch) / "warm")}
        run(with_text, warm)  # fills the cache
        commands = {
            "`python -c pass` (anchor)": ([sys.executable, "-c", "pass"], warm),
            "`hub4eval --help`": ([*hub4eval, "--help"], warm),
            "`score` sample, warm": (score, warm),
            "`score` sample `--ref-text`, warm": (with_text, warm),
            "`score` sample, cold": (score, None),
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for round_ in range(args.repeat):
            for name, (command, env) in commands.items():
                if env is None:  # cold: a new, empty cache directory
                    env = {**base, "HUB4EVAL_CACHE_DIR": str(Path(scratch) / f"cold{round_}")}
                times[name].append(run(command, env))

    anchor_wall = min(wall for wall, _ in times["`python -c pass` (anchor)"])
    anchor_cpu = min(cpu for _, cpu in times["`python -c pass` (anchor)"])
    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print()
    bytecode = (
        "bytecode written and used"
        if args.bytecode or not os.environ.get("PYTHONDONTWRITEBYTECODE")
        else "no bytecode (PYTHONDONTWRITEBYTECODE)"
    )
    print(f"Best of {args.repeat} interleaved rounds (median in brackets); {bytecode}.")
    print()
    print("| start-up | wall s | vs `python -c pass` | CPU s | vs `python -c pass` |")
    print("|---|---|---|---|---|")
    for name, values in times.items():
        walls = sorted(wall for wall, _ in values)
        cpus = sorted(cpu for _, cpu in values)
        middle = len(values) // 2
        print(
            f"| {name} | {walls[0]:.3f} ({walls[middle]:.3f}) | {walls[0] / anchor_wall:.1f} "
            f"| {cpus[0]:.3f} ({cpus[middle]:.3f}) | {cpus[0] / anchor_cpu:.1f} |"
        )


if __name__ == "__main__":
    main()
