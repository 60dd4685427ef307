"""The commands a user runs, side by side with the read limit of the same bytes.

    python benchmarks/bench_read_limit.py [--dir DIR] [--docs 10000 --instances 100000 --seed 1] [--rounds 3] [--texts]

From a fresh clone: the template set of ``gen_templates.py`` (10,000
documents, 100,000 reference instances, seed 1; made once in ``DIR``,
default ``benchmarks/out/read-limit``, and reused), then, in interleaved
rounds (each round runs every case once, so a change of the machine's load
hits them alike), each case as its own process:

- the read limit: a Python process that reads the bytes of both files,
  decodes them (UTF-8) and splits them with one compiled regular expression
  and ``re.findall`` into the lexical pieces of the format
  (``bench_score.READ_LIMIT_RE``); its time is taken inside the process
  (start-up left out), per file and for both;
- ``hub4eval check REF``, compared with the read limit of REF alone;
- ``hub4eval score REF HYP`` (the default ``--jobs``: every core),
  ``score --json OUT``, ``score --jobs 1`` and ``score --jobs 1 --json OUT``,
  compared with the read limit of both files;
- with ``--texts``: the same set made with a text corpus its extents point
  into (``gen_templates.py --text``: clean texts, every fill's content is the
  words at its extent), ``check REF --text TEXT`` and ``score REF HYP
  --ref-text TEXT`` (with and without ``--json``), each against the read limit
  of its own files (templette files and the text).

Printed per case: the best wall seconds of the rounds (from the parent, start-up
included), the best CPU seconds (user + sys of the process and the workers it
waited for), the peak memory (the sampled sum over the process and its
workers), and the wall and CPU ratios to the read limit measured in the same
run (its best wall and CPU seconds inside its process). The load average is
printed with the table: on a shared machine, compare ratios, not seconds.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_jobs import run  # noqa: E402  (a benchmark script beside this one)
from bench_score import READ_LIMIT_RE, READ_LIMIT_TEXT  # noqa: E402

# The targets, as ratios of wall time to the read limit of the same bytes.
TARGETS = {"score": 5.0, "score --json": 6.0, "check": 3.0}


def read_limit_worker(paths: list[str]) -> dict[str, float]:
    """Wall and CPU seconds of the read limit of each file, and of all of them."""
    out: dict[str, float] = {}
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for path in paths:
        wall, cpu = time.perf_counter(), time.process_time()
        pieces = READ_LIMIT_RE.findall(Path(path).read_bytes().decode("utf-8"))
        out[f"{path} wall"] = time.perf_counter() - wall
        out[f"{path} cpu"] = time.process_time() - cpu
        out[f"{path} pieces"] = len(pieces)
        del pieces
    out["wall"] = time.perf_counter() - wall0
    out["cpu"] = time.process_time() - cpu0
    return out


def read_limit(paths: list[Path]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--read-limit-worker", *map(str, paths)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def generate(folder: Path, docs: int, instances: int, seed: int, texts: bool) -> None:
    if (folder / "ref.tpl").exists() and (not texts or (folder / "ref.sgml").exists()):
        return
    command = [sys.executable, str(HERE / "gen_templates.py"), str(folder), "--docs", str(docs)]
    command += ["--instances", str(instances), "--seed", str(seed)] + (["--text"] if texts else [])
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=HERE / "out" / "read-limit", help="where the files are made")
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--instances", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best of each case is kept")
    parser.add_argument("--texts", action="store_true", help="also the set with a clean text corpus (--ref-text)")
    parser.add_argument(
        "--only", nargs="+", metavar="CASE", help="only the cases whose name contains one of these (and the read limit)"
    )
    parser.add_argument("--read-limit-worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read_limit_worker:
        print(json.dumps(read_limit_worker(args.read_limit_worker)))
        return

    size = f"{args.docs}-{args.instances}-s{args.seed}"
    plain = args.dir / f"synth-{size}"
    generate(plain, args.docs, args.instances, args.seed, False)
    with_text = args.dir / f"synth-text-{size}"
    if args.texts:
        generate(with_text, args.docs, args.instances, args.seed, True)

    hub4eval = [sys.executable, "-m", "hub4eval"]
    tmp = tempfile.mkdtemp(prefix="bench-read-limit-")
    out = os.path.join(tmp, "out.json")
    # (name, command, files of its read limit)
    cases: list[tuple[str, list[str], list[Path]]] = []
    ref, hyp = plain / "ref.tpl", plain / "hyp.tpl"
    both = [ref, hyp]
    cases += [
        ("check REF", [*hub4eval, "check", str(ref), "-q"], [ref]),
        ("score", [*hub4eval, "score", str(ref), str(hyp), "-q"], both),
        ("score --json", [*hub4eval, "score", str(ref), str(hyp), "-q", "--json", out], both),
        ("score --jobs 1", [*hub4eval, "score", str(ref), str(hyp), "-q", "--jobs", "1"], both),
        ("score --jobs 1 --json", [*hub4eval, "score", str(ref), str(hyp), "-q", "--jobs", "1", "--json", out], both),
    ]
    if args.texts:
        tref, thyp, text = with_text / "ref.tpl", with_text / "hyp.tpl", with_text / "ref.sgml"
        texted = [tref, thyp, text]
        ref_text = ["--ref-text", str(text)]
        cases += [
            ("text: check REF --text", [*hub4eval, "check", str(tref), "-q", "--text", str(text)], [tref, text]),
            ("text: score --ref-text", [*hub4eval, "score", str(tref), str(thyp), "-q", *ref_text], texted),
            (
                "text: score --ref-text --json",
                [*hub4eval, "score", str(tref), str(thyp), "-q", *ref_text, "--json", out],
                texted,
            ),
        ]
    if args.only:
        cases = [case for case in cases if any(word in case[0] for word in args.only)]

    limits: dict[str, dict[str, float]] = {}  # the best read limit of each set of files
    best: dict[str, dict[str, float]] = {}
    loads = []
    try:
        for _ in range(args.rounds):
            for name, command, files in cases:
                key = " ".join(map(str, files))
                limit = read_limit(files)
                old = limits.setdefault(key, limit)
                old["wall"], old["cpu"] = min(old["wall"], limit["wall"]), min(old["cpu"], limit["cpu"])
                if os.path.exists(out):  # each run writes a new file, as a first run does: replacing
                    os.unlink(out)  # the last 416 MB one would add the freeing of its pages to the timing
                got = run(command)
                loads.append(os.getloadavg()[0])
                old = best.setdefault(name, got)
                for measure in ("wall", "cpu"):
                    old[measure] = min(old[measure], got[measure])
                old["tree_mb"] = max(old["tree_mb"], got["tree_mb"])
    finally:
        for leftover in Path(tmp).iterdir():
            leftover.unlink()
        os.rmdir(tmp)

    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}"
    )
    print(f"# load average during the run: {min(loads):.1f} to {max(loads):.1f}")
    print(
        f"# files: {plain.name} ({ref.stat().st_size:,} + {hyp.stat().st_size:,} bytes)"
        + (f", {with_text.name} (with ref.sgml)" if args.texts else "")
    )
    print(f"# read limit: {READ_LIMIT_TEXT}; timed inside its process, best of {args.rounds}")
    print()
    print("| case | wall s | CPU s | peak MB | read limit wall s | x read limit (wall) | x read limit (CPU) | target |")
    print("|---|---|---|---|---|---|---|---|")
    for key, limit in limits.items():
        names = " + ".join(Path(part).name for part in key.split(" "))
        folder = Path(key.split(" ")[0]).parent.name
        print(f"| read limit of {names} ({folder}) | {limit['wall']:.2f} | {limit['cpu']:.2f} | | | 1.0 | 1.0 | |")
    for name, _command, files in cases:
        got = best[name]
        limit = limits[" ".join(map(str, files))]
        plain_name = name.removeprefix("text: ").split(" --jobs")[0].replace(" --ref-text", "")
        target = TARGETS.get(plain_name.split(" REF")[0]) if "--jobs" not in name else None
        print(
            f"| {name} | {got['wall']:.2f} | {got['cpu']:.2f} | {got['tree_mb']:.0f} | {limit['wall']:.2f} | "
            f"{got['wall'] / limit['wall']:.1f} | {got['cpu'] / limit['cpu']:.1f} | "
            f"{'' if target is None else f'≤ {target:g}'} |"
        )


if __name__ == "__main__":
    main()
