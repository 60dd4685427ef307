"""``hub4eval sclite`` beside NIST sclite on the same generated files: CPU seconds of each process and the ratio.

Not part of the test suite. Cases (generated, fixed seeds):

* ``short``: many short utterances (trn, default 3,000 of 5-55 words): start-up
  and per-utterance overhead;
* ``long``: a few long utterances (trn, default 24 of 2,600 words): the aligner;
* ``stm``: an stm reference and a ctm hypothesis of the same words (segments
  of 5-30 words, two channels per recording): time segmentation.

    python benchmarks/bench_sclite_cli.py --sclite /path/to/SCTK/src/sclite/sclite
    python benchmarks/bench_sclite_cli.py                     # hub4eval only (no ratio)

Each program runs ``--repeat`` times (default 3) in a fresh process, hub4eval
after one untimed run per case (numba's on-disk cache of the aligner's
kernels made there if the checkout has none yet); the median CPU time (user + system, from ``resource.getrusage`` of the children)
is printed, then hub4eval / sclite. The Sum rows of the two ``.raw`` files are
compared and a difference is reported (they must be equal).

``--bytecode`` lets Python write and use compiled bytecode (under a temporary
``PYTHONPYCACHEPREFIX``, filled by a first run that is not timed), as an
installed package has it; without it the environment decides
(``PYTHONDONTWRITEBYTECODE=1`` makes every run compile hub4eval's modules
from source, about 0.04 s of each run).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SUM = re.compile(r"^\s*\|\s*Sum\s*\|([^|]*)\|([^|]*)\|", re.M)


def _words(rng: random.Random, vocabulary: list[str], n: int) -> list[str]:
    return [vocabulary[min(int(rng.paretovariate(1.0)) - 1, len(vocabulary) - 1)] for _ in range(n)]


def _errors(rng: random.Random, ref: list[str], vocabulary: list[str], rate: float) -> list[str]:
    hyp: list[str] = []
    for word in ref:
        r = rng.random()
        if r < rate * 0.6:
            hyp.append(rng.choice(vocabulary))
        elif r < rate * 0.8:
            continue
        else:
            hyp.append(word)
        if rng.random() < rate * 0.2:
            hyp.append(rng.choice(vocabulary))
    return hyp


def make_trn(folder: Path, utterances: int, low: int, high: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(5000)]
    refs, hyps = [], []
    for k in range(utterances):
        ref = _words(rng, vocabulary, rng.randint(low, high))
        hyp = _errors(rng, ref, vocabulary, 0.15)
        uid = f"spk{k % 50:02d}-{k:05d}"
        refs.append(f"{' '.join(ref)} ({uid})")
        hyps.append(f"{' '.join(hyp)} ({uid})")
    (folder / "ref.trn").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (folder / "hyp.trn").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    return ["-r", "ref.trn", "trn", "-h", "hyp.trn", "trn", "-i", "spu_id"]


def make_stm(folder: Path, recordings: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(3000)]
    stm, ctm = [], []
    for r in range(recordings):
        for channel in ("A", "B"):
            t = 0.0
            for _ in range(20):
                ref = _words(rng, vocabulary, rng.randint(5, 30))
                begin, end = t, t + 0.4 * len(ref)
                stm.append(f"rec{r:03d} {channel} spk{r:03d}{channel} {begin:.2f} {end:.2f} {' '.join(ref)}")
                hyp = _errors(rng, ref, vocabulary, 0.15)
                step = (end - begin) / max(1, len(hyp))
                for k, word in enumerate(hyp):
                    ctm.append(f"rec{r:03d} {channel} {begin + k * step:.2f} {step * 0.9:.2f} {word}")
                t = end + 0.5
    (folder / "ref.stm").write_text("\n".join(stm) + "\n", encoding="utf-8")
    (folder / "hyp.ctm").write_text("\n".join(ctm) + "\n", encoding="utf-8")
    return ["-r", "ref.stm", "stm", "-h", "hyp.ctm", "ctm"]


def cpu_seconds(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sum_row(path: Path) -> str:
    match = _SUM.search(path.read_text(encoding="latin-1"))
    return " ".join((match.group(1) + match.group(2)).split()) if match else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sclite", help="the sclite executable (SCTK's src/sclite/sclite); omit to time hub4eval only")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--short", type=int, default=3000, help="utterances of the short case")
    parser.add_argument("--long", type=int, default=24, help="utterances of the long case (2,600 words each)")
    parser.add_argument("--recordings", type=int, default=20, help="recordings of the stm case")
    parser.add_argument("--bytecode", action="store_true", help="compiled bytecode written and used, as installed")
    args = parser.parse_args()
    if args.sclite:  # each program runs in its case's folder: a relative path is made absolute here
        args.sclite = os.path.abspath(shutil.which(args.sclite) or args.sclite)
    hub4eval = [sys.executable, "-m", "hub4eval", "sclite"]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env = None
        if args.bytecode:
            env = dict(os.environ, PYTHONPYCACHEPREFIX=str(base / "pycache"))
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        cases = {}
        for name in ("short", "long", "stm"):
            (base / name).mkdir()
        cases["short"] = make_trn(base / "short", args.short, 5, 55, 1)
        cases["long"] = make_trn(base / "long", args.long, 2600, 2600, 2)
        cases["stm"] = make_stm(base / "stm", args.recordings, 3)
        print(f"{'case':8} {'hub4eval s':>10} {'sclite s':>9} {'ratio':>6}  Sum rows")
        for name, arguments in cases.items():
            folder = base / name
            runs = {}
            for program, command in (("hub4eval", hub4eval), ("sclite", [args.sclite] if args.sclite else None)):
                if command is None:
                    continue
                full = [*command, *arguments, "-o", "rsum", "-O", ".", "-n", program, "-f", "0"]
                if program == "hub4eval":
                    # not timed: numba's cache of the aligner's kernels is made here when the checkout has
                    # none yet (a fresh clone: about 5 s, once), and the bytecode with --bytecode
                    cpu_seconds(full, folder, env)
                runs[program] = statistics.median(cpu_seconds(full, folder, env) for _ in range(args.repeat))
            ours = runs["hub4eval"]
            theirs = runs.get("sclite")
            rows = sum_row(folder / "hub4eval.raw")
            same = ""
            if theirs is not None:
                same = (
                    "equal"
                    if rows == sum_row(folder / "sclite.raw")
                    else f"DIFFER: sclite {sum_row(folder / 'sclite.raw')}"
                )
            ratio = f"{ours / theirs:6.2f}" if theirs else "     -"
            shown = f"{theirs:9.2f}" if theirs is not None else "        -"
            print(f"{name:8} {ours:10.2f} {shown} {ratio}  {rows} {same}")


if __name__ == "__main__":
    main()
