"""A HUB-4-size evaluation with texts, end to end: ``hub4eval score`` wall-clock on this machine.

Not part of the test suite. The size of the 1998 HUB-4 information-extraction
evaluation: 1,000 stories of 500 words (500,000 reference words), 10,000
reference instances (10 per story, four one-to-three-word fills each), and
a recognizer's output at ``--wer`` (25%) as raw unsegmented ASR text
(``<s> ... </s>`` lines, no documents: the usual case). Files, made once per
seed in ``--dir`` (default: ``bench_hub4`` in the temporary folder):

* ``ref.sgml`` and ``hyp_unsegmented.sgml``: the texts of
  ``bench_align_cli.py`` (a Zipfian made-up vocabulary; substitutions,
  deletions, insertions, fillers and fragments);
* ``ref_e10.tpl``: the reference templettes of ``bench_score_texts.py``;
* ``hyp.tpl``: an imperfect extractor on the recognizer's output:
  ``hub4eval project`` of the reference onto the hypothesis text (what a
  perfect extractor finds there), then perturbed with a fixed seed: 10% of
  the instances left out, 10% of the remaining fills left out, 10% of the
  multi-word fills cut to their first word, 10% of the instances with two
  slots' fills swapped, and a spurious instance (the fills of another
  instance of the story under permuted slot names) after 5% of them.

Timed, each a ``python -m hub4eval`` process (wall and CPU seconds, peak RSS),
``--runs`` interleaved rounds after one round that is not timed (a
checkout's first alignment of a long text compiles the aligner's kernels),
the best wall-clock kept:

* ``score``: ``hub4eval score ref_e10.tpl hyp.tpl --ref-text ref.sgml
  --hyp-text hyp_unsegmented.sgml`` with the default ``--jobs`` (every core),
  the table printed as a user sees it;
* ``align``: ``hub4eval align ref.sgml hyp_unsegmented.sgml --jobs 1 --json OUT``,
  the anchor in the same run (the alignments every such score makes, in one process).

Besides wall-clock and CPU seconds (the children's included) it prints the
CPU seconds of the main process alone: on a machine whose other work leaves
the cores free, the wall-clock of the run when its children end before it.

    python benchmarks/bench_hub4.py                 # the HUB-4 size, 3 rounds
    python benchmarks/bench_hub4.py --runs 5 --jobs 1
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_align_cli import absolute, write_files
from bench_score_texts import reference_templettes

ROOT = Path(__file__).resolve().parent.parent
_HEADER = re.compile(r"^<([^>]+)-(\d+)> :=$")


def perturb(projected: str, seed: int) -> str:
    """The projected (perfect) hypothesis made imperfect: see the module docstring."""
    rng = random.Random(seed)
    blocks = [b for b in projected.split("\n\n") if b.strip()]
    kept: list[str] = []
    for block in blocks:
        header, *fills = block.strip("\n").split("\n")
        if rng.random() < 0.10:
            continue  # a missing instance
        fills = [f for f in fills if rng.random() >= 0.10]  # missing fills
        for k, line in enumerate(fills):
            fill = re.fullmatch(r'( +\w+: )"([^"]*)" ##(\d+)#(\d+)#', line)
            if fill is not None and " " in fill.group(2) and rng.random() < 0.10:
                first = fill.group(2).split(" ")[0]  # cut to the first word
                start = int(fill.group(3))
                fills[k] = f'{fill.group(1)}"{first}" ##{start}#{start + len(first)}#'
        if len(fills) >= 2 and rng.random() < 0.10:  # two slots' fills swapped
            a, b = rng.sample(range(len(fills)), 2)
            name_a, rest_a = fills[a].split(":", 1)
            name_b, rest_b = fills[b].split(":", 1)
            fills[a], fills[b] = f"{name_a}:{rest_b}", f"{name_b}:{rest_a}"
        kept.append("\n".join([header, *fills]))
        head = _HEADER.match(header)
        if head is not None and fills and rng.random() < 0.05:  # a spurious instance
            names = [line.split(":", 1)[0] for line in fills]
            rng.shuffle(names)
            spurious = [f"{n}:{line.split(':', 1)[1]}" for n, line in zip(names, fills, strict=True)]
            kept.append("\n".join([f"<{head.group(1)}-{int(head.group(2)) + 1000}> :=", *spurious]))
    return "\n\n".join(kept) + "\n"


def _own_cpu(pid: int) -> float | None:
    """CPU seconds of process ``pid`` itself, without its children (``/proc``; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def run(arguments: list[str]) -> dict[str, float]:
    """``python -m hub4eval ARGUMENTS`` from the checkout: wall and CPU seconds (with the children it
    forked), peak RSS (MB, the largest process's) and the CPU seconds of the main process alone
    (read every 20 ms until it ends: the time the run would take on idle cores, when its
    children are done before it)."""
    command = [sys.executable, "-m", "hub4eval", *arguments]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    own = 0.0
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        own = _own_cpu(child.pid) or own
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    if status != 0:
        error = child.stderr.read().decode() if child.stderr is not None else ""
        raise SystemExit(f"failed ({status}): {' '.join(command)}\n{error}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"seconds": seconds, "cpu": cpu, "mb": usage.ru_maxrss / 1024, "own": own}


def make_files(folder: Path, stories: int, story_words: int, events: int, wer: float, seed: int) -> dict[str, Path]:
    """The texts and templettes in ``folder`` (made once)."""
    paths = write_files(folder, stories * story_words, story_words, wer, seed)
    paths["ref_tpl"] = folder / f"ref_e{events}.tpl"
    paths["hyp_tpl"] = folder / f"hyp_e{events}.tpl"
    if not paths["ref_tpl"].exists():
        reference_templettes(paths["ref"], paths["ref_tpl"], events, seed)
    if not paths["hyp_tpl"].exists():
        projected = folder / f"projected_e{events}.tpl"
        texts = ["--ref-text", str(paths["ref"]), "--hyp-text", str(paths["unsegmented"])]
        run(["project", str(paths["ref_tpl"]), *texts, "--output", str(projected), "--quiet"])
        paths["hyp_tpl"].write_text(perturb(projected.read_text(encoding="utf-8"), seed), encoding="utf-8")
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stories", type=int, default=1000)
    parser.add_argument("--story-words", type=int, default=500)
    parser.add_argument("--events", type=int, default=10, help="reference instances per story")
    parser.add_argument("--wer", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="interleaved rounds (the best wall-clock is kept)")
    parser.add_argument("--jobs", type=int, default=None, help="--jobs of the score (default: the command's)")
    parser.add_argument(
        "--dir",
        type=absolute,
        default=Path(tempfile.gettempdir()) / "bench_hub4",
        help="where the files go (default: bench_hub4 in the temporary folder)",
    )
    args = parser.parse_args()
    folder = args.dir / f"s{args.stories}_w{args.story_words}_e{args.events}_wer{args.wer}_seed{args.seed}"
    started = time.perf_counter()
    paths = make_files(folder, args.stories, args.story_words, args.events, args.wer, args.seed)
    print(f"# files in {folder} ({time.perf_counter() - started:.0f} s)")
    print(f"# cores available: {len(os.sched_getaffinity(0))}, load average: {os.getloadavg()[0]:.1f}")
    texts = ["--ref-text", str(paths["ref"]), "--hyp-text", str(paths["unsegmented"])]
    jobs = [] if args.jobs is None else ["--jobs", str(args.jobs)]
    commands = {
        "score -j1": ["score", str(paths["ref_tpl"]), str(paths["hyp_tpl"]), *texts, "--jobs", "1"],
        "align": [
            "align",
            str(paths["ref"]),
            str(paths["unsegmented"]),
            "--jobs",
            "1",
            "--json",
            str(folder / "a.json"),
        ],
        "score": ["score", str(paths["ref_tpl"]), str(paths["hyp_tpl"]), *texts, *jobs],
    }
    # a warm-up round, not timed: a checkout's first alignment of a long text compiles the
    # aligner's kernels for numba's on-disk cache (seconds), and the files come into the page cache
    for arguments in commands.values():
        run(arguments)
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.runs):
        for name, arguments in commands.items():
            measured = run(arguments)
            if name not in best or measured["seconds"] < best[name]["seconds"]:
                best[name] = measured
    print("| command | wall s | CPU s | main process CPU s | peak MB | wall / align wall |")
    print("|---|---|---|---|---|---|")
    for name in commands:
        m = best[name]
        print(
            f"| {name} | {m['seconds']:.2f} | {m['cpu']:.2f} | {m['own']:.2f} | {m['mb']:.0f} | "
            f"{m['seconds'] / best['align']['seconds']:.2f} |"
        )
    print(f"# load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
