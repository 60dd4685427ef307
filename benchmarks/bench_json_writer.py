"""What ``--json`` costs a worker: the point writer against a walk over the same fill pairs.

    python benchmarks/bench_json_writer.py [--dir DIR] [--docs 3000 --instances 30000 --seed 1] [--rounds 5]

The template set of ``gen_templates.py`` (made once in ``DIR``, default
``benchmarks/out/json-writer``) is scored in this process; then, in
interleaved rounds, ``report.export.write_point_file`` writes every point's
JSON entry to a temporary file (each round on verdicts whose reasons were
never read, as a worker's are), beside the anchor: a walk over the same
fill pairs (``ScoreResult.iter_fill_pairs``), which any writer makes.
Printed: the best CPU seconds of each, microseconds per point, and the
writer's time as a multiple of the walk's. Run it with ``PYTHONPATH`` set
to another checkout to compare two versions of the writer.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=HERE / "out" / "json-writer", help="where the files are made")
    parser.add_argument("--docs", type=int, default=3000)
    parser.add_argument("--instances", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the best of each is kept")
    args = parser.parse_args()

    from hub4eval.api import score_files
    from hub4eval.report import export

    folder = args.dir / f"synth-{args.docs}-{args.instances}-s{args.seed}"
    if not (folder / "hyp.tpl").exists():
        command = [sys.executable, str(HERE / "gen_templates.py"), str(folder), "--docs", str(args.docs)]
        command += ["--instances", str(args.instances), "--seed", str(args.seed)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    result = score_files(folder / "ref.tpl", folder / "hyp.tpl")
    gc.disable()  # as in a worker (the command pauses the collector)
    verdicts = [v for pair in result.iter_fill_pairs() for v in pair[7]]
    reasons = [(v, v._text) for v in verdicts]

    def unread() -> None:  # the reasons as the mapping left them: a worker's writer reads each once
        for verdict, text in reasons:
            verdict._text = text

    best = {"walk": 1e9, "writer": 1e9}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "points.jsonl")
        for _ in range(args.rounds):
            start = time.process_time()
            for _ in result.iter_fill_pairs():
                pass
            best["walk"] = min(best["walk"], time.process_time() - start)
            unread()
            start = time.process_time()
            export.write_point_file(result, out)
            best["writer"] = min(best["writer"], time.process_time() - start)
        size = os.path.getsize(out)
    points = len(verdicts)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}")
    print(f"# {folder.name}: {points:,} points, {size / 1e6:.0f} MB of entries; best of {args.rounds} rounds")
    print()
    print("| | CPU s | µs per point | x walk |")
    print("|---|---|---|---|")
    for name in ("walk", "writer"):
        seconds = best[name]
        print(f"| {name} | {seconds:.3f} | {seconds / points * 1e6:.2f} | {seconds / best['walk']:.1f} |")


if __name__ == "__main__":
    main()
