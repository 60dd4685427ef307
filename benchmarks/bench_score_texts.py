"""Scoring when the texts differ, at scale, against the `align` command on the same texts.

Not part of the test suite. The users' main case is a reference corpus, an
ASR output and templettes over both::

    hub4eval score ref.tpl hyp.tpl --ref-text ref.sgml --hyp-text asr.sgml

Such a score must align the two texts (both alignments: the weighted one for
extents and sclite's for the WER line), as ``hub4eval align`` does, and then
map and score the fills through that alignment. The anchor is therefore the
`align` command on the same two texts, timed in the same run; the ratio
score / align says what the templettes cost on top of the texts.

Files (made once per size and seed, kept in ``--dir``):

* the texts of ``bench_align_cli.py``: a reference of N words in documents of
  ``--doc-words`` words (SGML, lines of 20 words in ``<TEXT>``) and its
  hypothesis at ``--wer``, *unsegmented* (raw ASR output: ``<s> ... </s>``
  lines, no documents) and *segmented* (the same DOCIDs);
* ``ref.tpl``: per document ``--events`` instances of four text slots, each
  one to three words of one line of the reference, with their extents;
* per form, the hypothesis templettes: ``hub4eval project`` of ``ref.tpl``
  onto that hypothesis text, i.e. what a perfect extractor would find in the
  recognizer's output (its errors are the recognizer's).

Each measurement is one ``python -m hub4eval`` process (wall and CPU seconds
and peak RSS of the child, ``os.wait4``: the CPU of the children it forked is
counted in, the peak is the largest process's); ``--runs`` rounds are
interleaved, after the two commands are run once per form, not timed (a
checkout's first alignment of a long text compiles the aligner's kernels).
Four commands per form, two pairs:

* ``align --jobs 1`` and ``score --jobs 1``: the templettes' cost on top of
  the texts in one process, as a ratio of CPU seconds and of peak memory;
* ``align --jobs 2`` and ``score --jobs 2`` (what a user of a two-core
  machine runs: every core is the default of both commands): the ratio of
  wall-clock seconds, the work spread over processes
  (:mod:`hub4eval.text.aligned_texts`).

Each ratio is printed twice: of the best runs (least CPU, least wall-clock),
and the median of the ratios of each round (the two commands run one after
the other), which a busy or noisy machine disturbs least: on a shared
virtual machine single runs of the same command vary by a third.

::

    python benchmarks/bench_score_texts.py                       # 1,000,000 words
    python benchmarks/bench_score_texts.py --words 100000 --runs 3
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_align_cli import add_text_arguments, write_files

ROOT = Path(__file__).resolve().parent.parent
SLOTS = ("WINNER", "LOSER", "PLACE", "SCORE")


def reference_templettes(corpus: Path, out: Path, events: int, seed: int) -> int:
    """``events`` instances per document, each of four one-to-three-word fills of one line; returns the fills."""
    text = corpus.read_text(encoding="utf-8")
    rng = random.Random(seed)
    lines: list[str] = []
    for document in re.finditer(r"<DOC>.*?</DOC>", text, re.S):
        doc = document.group(0)
        docno = re.search(r"<DOCNO>\s*(\S+)\s*</DOCNO>", doc)
        body = re.search(r"<TEXT>(.*)</TEXT>", doc, re.S)
        assert docno is not None and body is not None
        words = [(w.start() + body.start(1), w.end() + body.start(1)) for w in re.finditer(r"\S+", body.group(1))]
        for number in range(1, events + 1):
            lines.append(f"<EVENT-{docno.group(1)}-{number}> :=")
            for slot in SLOTS:
                while True:  # a fill never spans a line end
                    k = rng.randrange(len(words) - 3)
                    start, end = words[k][0], words[k + rng.randint(0, 2)][1]
                    if "\n" not in doc[start:end]:
                        break
                lines.append(f'    {slot}: "{doc[start:end]}" ##{start}#{end}#')  # offsets from <DOC>
            lines.append("")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sum(1 for line in lines if line.startswith("    "))


def run(arguments: list[str]) -> dict[str, float]:
    """``python -m hub4eval ARGUMENTS`` from the checkout: wall and CPU seconds, peak RSS (MB)."""
    command = [sys.executable, "-m", "hub4eval", *arguments]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        error = child.stderr.read().decode() if child.stderr is not None else ""
        raise SystemExit(f"failed ({status}): {' '.join(command)}\n{error}")
    return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "mb": usage.ru_maxrss / 1024}


def _best(rounds: list[dict[str, dict[str, float]]], name: str, key: str) -> dict[str, float]:
    """The run of command ``name`` with the least ``key`` (CPU or wall-clock seconds) of all rounds."""
    return min((measured[name] for measured in rounds), key=lambda m: m[key])


def _ratios(rounds: list[dict[str, dict[str, float]]], score: str, align: str, key: str) -> str:
    """``score`` / ``align`` of ``key``: of the two best runs, and the median of each round's ratio."""
    per_round = statistics.median(r[score][key] / r[align][key] for r in rounds)
    return f"{_best(rounds, score, key)[key] / _best(rounds, align, key)[key]:.2f}, {per_round:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_text_arguments(parser)
    parser.add_argument("--events", type=int, default=5, help="reference instances per document")
    parser.add_argument("--json", action="store_true", help="time the scores with --json")
    args = parser.parse_args()
    forms = [f.strip() for f in args.forms.split(",") if f.strip()]
    folder = args.dir / f"n{args.words}_d{args.doc_words}_w{args.wer}_s{args.seed}"
    started = time.perf_counter()
    paths = write_files(folder, args.words, args.doc_words, args.wer, args.seed)
    ref_tpl = folder / f"ref_e{args.events}.tpl"
    if not ref_tpl.exists():
        reference_templettes(paths["ref"], ref_tpl, args.events, args.seed)
    hyp_tpl = {form: folder / f"hyp_e{args.events}_{form}.tpl" for form in forms}
    for form, path in hyp_tpl.items():
        if not path.exists():
            texts = ["--ref-text", str(paths["ref"]), "--hyp-text", str(paths[form])]
            run(["project", str(ref_tpl), *texts, "--output", str(path), "--quiet"])
    fills = sum(1 for line in ref_tpl.open() if line.startswith("    "))
    print(
        f"# files in {folder} ({time.perf_counter() - started:.0f} s): {args.words:,} words, {fills:,} reference fills"
    )
    print(f"# cores available: {len(os.sched_getaffinity(0))}, load average: {os.getloadavg()[0]:.1f}")
    print(
        "| form | align -j1 CPU s | score -j1 CPU s | score / align -j1 (CPU): best, median | "
        "score / align -j1 (MB) | align -j2 s | score -j2 s | score / align -j2 (wall): best, median |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for form in forms:
        texts = ["--ref-text", str(paths["ref"]), "--hyp-text", str(paths[form])]
        scoring = ["score", str(ref_tpl), str(hyp_tpl[form]), *texts, "--quiet"]
        if args.json:
            scoring += ["--json", str(folder / "s.json")]
        aligning = ["align", str(paths["ref"]), str(paths[form]), "--json", str(folder / "align.json")]
        # a warm-up round, not timed: a checkout's first alignment of a long text compiles the
        # aligner's kernels for numba's on-disk cache (seconds), and the files come into the page cache
        run([*aligning, "--jobs", "2"])
        run([*scoring, "--jobs", "2"])
        rounds: list[dict[str, dict[str, float]]] = []
        for _ in range(args.runs):
            rounds.append(
                {
                    name: run(arguments)
                    for name, arguments in (
                        ("align1", [*aligning, "--jobs", "1"]),
                        ("score1", [*scoring, "--jobs", "1"]),
                        ("align2", [*aligning, "--jobs", "2"]),
                        ("score2", [*scoring, "--jobs", "2"]),
                    )
                }
            )
        a1, s1 = _best(rounds, "align1", "cpu"), _best(rounds, "score1", "cpu")
        a2, s2 = _best(rounds, "align2", "seconds"), _best(rounds, "score2", "seconds")
        print(
            f"| {form} | {a1['cpu']:.1f} | {s1['cpu']:.1f} | {_ratios(rounds, 'score1', 'align1', 'cpu')} | "
            f"{s1['mb'] / a1['mb']:.2f} | {a2['seconds']:.1f} | {s2['seconds']:.1f} | "
            f"{_ratios(rounds, 'score2', 'align2', 'seconds')} |",
            flush=True,
        )
    print(f"# load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
