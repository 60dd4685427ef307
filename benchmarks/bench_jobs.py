"""`hub4eval score --jobs N`: speed-up over --jobs 1 and memory, measured in the same run.

    python benchmarks/bench_jobs.py DIR [--jobs 1 2] [--json] [--whole] [--repeat 3]

DIR holds ref.tpl and hyp.tpl (``benchmarks/gen_templates.py``). Each case is
one ``python -m hub4eval score DIR/ref.tpl DIR/hyp.tpl -q --jobs N`` process
(with ``--json`` to a file in a temporary directory, when asked); ``--whole``
adds the anchor of scoring the files whole in one process, as before --jobs
(``api.score_files`` keeping the mapping, which the HTML report still needs).

Printed per case, best of ``--repeat``: wall seconds, CPU seconds of the
process and its workers (user + sys), the speed-up (wall of --jobs 1 / wall
of this case; the CPU ratio beside it), the peak RSS of the hub4eval
process itself, and the peak of the whole process tree (sampled every 50 ms from
/proc, Linux only). On a shared machine wall times depend on the load: the
load average is printed with each case.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_align_cli import absolute  # the scores run from the checkout: a relative DIR is the caller's

ROOT = Path(__file__).resolve().parent.parent

WHOLE = (
    "import sys, hub4eval.api as api; r = api.score_files(sys.argv[1], sys.argv[2]); r.total; import os; os._exit(0)"
)


def _tree_rss(pid: int) -> int:
    """RSS in bytes of ``pid`` and its descendants (0 when gone)."""
    total = 0
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    todo += [int(child) for child in handle.read().split()]
        except (OSError, ValueError):
            continue
    return total


def run(command: list[str]) -> dict[str, float]:
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], _tree_rss(process.pid))
                done.wait(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        # wait4: the usage of this process and the workers it waited for, not of earlier cases
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        done.set()
        sampler.join()
        if process.returncode != 0:
            err.seek(0)
            message = err.read().decode(errors="replace")
            raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{message}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        # ru_maxrss of wait4: the peak of that process itself (KiB); the workers are in tree_mb
        "max_process_mb": usage.ru_maxrss / 1024,
        "tree_mb": peak[0] / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=absolute)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", action="store_true", help="also write the JSON (every point)")
    parser.add_argument("--whole", action="store_true", help="add the anchor: the files scored whole")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ref, hyp = str(args.dir / "ref.tpl"), str(args.dir / "hyp.tpl")
    env_note = f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}"
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {env_note}")
    print(f"# {args.dir}: ref {os.path.getsize(ref):,} bytes, hyp {os.path.getsize(hyp):,} bytes; json={args.json}")
    cases: list[tuple[str, list[str]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = ["--json", os.path.join(tmp, "out.json")] if args.json else []
        if args.whole:
            cases.append(("whole (one process, mapping kept)", [sys.executable, "-c", WHOLE, ref, hyp]))
        for jobs in args.jobs:
            cmd = [sys.executable, "-m", "hub4eval", "score", ref, hyp, "-q", "--jobs", str(jobs), *out]
            cases.append((f"--jobs {jobs}", cmd))
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.repeat):  # rounds: every case once per round, so a load change hits them alike
            for name, command in cases:
                if args.whole and name.startswith("whole") and args.json:
                    continue  # the anchor writes no JSON
                got = run(command)
                got["load"] = os.getloadavg()[0]
                if name not in best or got["wall"] < best[name]["wall"]:
                    best[name] = {**got, "cpu": min(got["cpu"], best.get(name, got)["cpu"])}
    anchor = best.get("--jobs 1")
    print()
    print(
        "| case | wall s | CPU s | speed-up vs --jobs 1 (wall) | CPU ratio | main process MB | process tree MB | load |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, got in best.items():
        speed = f"{anchor['wall'] / got['wall']:.2f}" if anchor else "-"
        cpu = f"{got['cpu'] / anchor['cpu']:.2f}" if anchor else "-"
        print(
            f"| {name} | {got['wall']:.1f} | {got['cpu']:.1f} | {speed} | {cpu} | "
            f"{got['max_process_mb']:.0f} | {got['tree_mb']:.0f} | {got['load']:.1f} |"
        )
    print()
    print(
        "speed-up: wall of --jobs 1 / wall of the case (best of the rounds); CPU ratio: CPU of the case / CPU of --jobs 1"
    )
    print(
        "main process: peak RSS of the hub4eval process (wait4); process tree: sampled peak of the sum over it and its workers"
    )


if __name__ == "__main__":
    main()
