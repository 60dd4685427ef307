"""The `align` command end to end against the alignment alone (issue #20).

Not part of the test suite. Generates (``gen_text.py``) a reference of N words
as an SGML corpus of many documents (``--doc-words`` words each, lines of 20
words inside ``<TEXT>``) and its hypothesis at ``--wer`` in two forms the
command accepts: *unsegmented* (SGML without documents: one ``<s> ... </s>``
line per 20 words, the documents' hypotheses one after another) and
*segmented* (SGML documents with the same DOCIDs). Then, per form:

* ``command``: ``python -m hub4eval align REF HYP --json OUT`` as a
  subprocess: wall time and the child's peak RSS (``os.wait4``);
* ``alignment``: in a fresh process, the library calls the command makes for
  its alignments, on the pre-tokenized words (the generated word lists): the
  weighted alignment (``align_words``, or ``align_many`` per document) and
  sclite's (``sclite_align_arrays``, per document when segmented); kernels
  warmed first, the word lists built before the clock starts;

and prints the ratio command / alignment. Both sides load numba's cached
kernels: each side is run once on the form's files before timing, so that
a checkout's first run, which compiles them, is not timed. Generated files
are kept in ``--dir`` (one set per size and seed) and reused.

    python benchmarks/bench_align_cli.py                        # 1,000,000 words
    python benchmarks/bench_align_cli.py --words 10000000 --runs 1
    python benchmarks/bench_align_cli.py --forms unsegmented --runs 3
    python benchmarks/bench_align_cli.py --code /path/to/other/checkout   # the command of another checkout
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

ROOT = Path(__file__).resolve().parent.parent
LINE = 20


def generate(n: int, doc_words: int, wer: float, seed: int) -> tuple[list[list[str]], list[list[str]]]:
    """Per document: reference words and hypothesis words."""
    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gen_text import corrupt, vocabulary, zipf_words

    rng = np.random.default_rng(seed)
    vocab = vocabulary(min(200_000, max(1000, n // 5)), rng)
    ref = zipf_words(n, vocab, rng)
    refs = [ref[start : start + doc_words] for start in range(0, n, doc_words)]
    hyps = [corrupt(r, wer, vocab, rng) for r in refs]
    return refs, hyps


def _lines(words: list[str]) -> list[str]:
    return [" ".join(words[k : k + LINE]) for k in range(0, len(words), LINE)]


def write_files(folder: Path, n: int, doc_words: int, wer: float, seed: int) -> dict[str, Path]:
    """ref.sgml, hyp_unsegmented.sgml, hyp_segmented.sgml and words.json in ``folder`` (made once)."""
    paths = {
        "ref": folder / "ref.sgml",
        "unsegmented": folder / "hyp_unsegmented.sgml",
        "segmented": folder / "hyp_segmented.sgml",
        "words": folder / "words.json",
    }
    if all(p.exists() for p in paths.values()):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    refs, hyps = generate(n, doc_words, wer, seed)
    docids = [f"BEN{k:07d}" for k in range(len(refs))]

    def sgml(path: Path, sides: list[list[str]]) -> None:
        with path.open("w") as out:
            for docid, words in zip(docids, sides, strict=True):
                out.write(f"<DOC>\n<DOCNO> {docid} </DOCNO>\n<TEXT>\n")
                out.writelines(line + "\n" for line in _lines(words))
                out.write("</TEXT>\n</DOC>\n")

    sgml(paths["ref"], refs)
    sgml(paths["segmented"], hyps)
    with paths["unsegmented"].open("w") as out:
        for words in hyps:
            out.writelines(f"<s> {line} </s>\n" for line in _lines(words))
    paths["words"].write_text(json.dumps({"refs": refs, "hyps": hyps}))
    return paths


def run_command(ref: Path, hyp: Path, out: Path, code: Path = ROOT) -> dict:
    """``python -m hub4eval align`` (of the checkout ``code``) as a child: wall seconds and peak RSS (MB).

    This checkout's command is run with ``--jobs 1`` (one process, as the alignment it is compared
    with); another checkout's as it is (older ones have no ``--jobs`` and use one process)."""
    command = [sys.executable, "-m", "hub4eval", "align", str(ref), str(hyp), "--json", str(out)]
    if code.resolve() == ROOT:
        command += ["--jobs", "1"]
    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    # run from the checkout: `python -m` puts the working directory first on the path
    child = subprocess.Popen(command, env=env, cwd=code, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"align failed ({status}): {' '.join(command)}")
    return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def alignment_worker(words_path: str, form: str) -> dict:
    """The alignment(s) the command makes, on pre-tokenized words (run in a fresh process)."""
    import resource

    sys.path.insert(0, str(ROOT))
    from hub4eval.text.align import align_many, align_words
    from hub4eval.text.align.sclite import sclite_align_arrays

    align_words(["a", "b"], ["a"])  # load the compiled kernels
    sclite_align_arrays(["a", "b"], ["a"])
    data = json.loads(Path(words_path).read_text())
    refs, hyps = data["refs"], data["hyps"]
    del data
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start, cpu = time.perf_counter(), time.process_time()
    if form == "unsegmented":
        ref = [w for r in refs for w in r]
        hyp = [w for h in hyps for w in h]
        weighted = align_words(ref, hyp)
        sclite = sclite_align_arrays(ref, hyp)
        errors = (len(weighted.kinds), len(sclite[0]))
    else:
        weighted_all = align_many(list(zip(refs, hyps, strict=True)))
        sclite_all = [sclite_align_arrays(r, h) for r, h in zip(refs, hyps, strict=True)]
        errors = (sum(len(a.kinds) for a in weighted_all), sum(len(s[0]) for s in sclite_all))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "seconds": seconds,
        "cpu": cpu,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "before_mb": before,
        "columns": errors,
    }


def run_alignment(words: Path, form: str) -> dict:
    command = [sys.executable, __file__, "--worker", str(words), "--forms", form]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def absolute(text: str) -> Path:
    """A path of the command line made absolute: the commands run from the checkout (``cwd``), not from
    the folder the script was started in."""
    return Path(text).resolve()


def add_text_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that choose the generated texts (see :func:`write_files`) and the runs."""
    parser.add_argument("--words", type=int, default=1_000_000, help="reference words")
    parser.add_argument("--doc-words", type=int, default=500, help="reference words per document")
    parser.add_argument("--wer", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--forms", default="unsegmented,segmented", help="unsegmented, segmented or both")
    parser.add_argument("--runs", type=int, default=1, help="runs of each measurement, interleaved (best kept)")
    parser.add_argument(
        "--dir",
        type=absolute,
        default=Path(tempfile.gettempdir()) / "bench_align_cli",
        help="where the files go (default: bench_align_cli in the temporary folder)",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_text_arguments(parser)
    parser.add_argument("--skip-alignment", action="store_true", help="time the command only")
    parser.add_argument(
        "--code",
        type=absolute,
        default=ROOT,
        help="checkout whose hub4eval the command runs (A/B against another branch)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    forms = [f.strip() for f in args.forms.split(",") if f.strip()]
    if args.worker is not None:
        print(json.dumps(alignment_worker(args.worker, forms[0])))
        return
    folder = args.dir / f"n{args.words}_d{args.doc_words}_w{args.wer}_s{args.seed}"
    start = time.perf_counter()
    paths = write_files(folder, args.words, args.doc_words, args.wer, args.seed)
    print(f"# files in {folder} ({time.perf_counter() - start:.0f} s)", flush=True)
    print(
        "| form | command s | command CPU s | command peak MB | alignment s | alignment CPU s "
        "| alignment peak MB | ratio (CPU) | ratio (wall) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for form in forms:
        commands, alignments = [], []
        # a warm-up run of each side, not timed: a checkout's first alignment of a long text compiles
        # the aligner's kernels for numba's on-disk cache (seconds; the library calls on the word
        # lists compile some of sclite's for types the command never uses), and the files come
        # into the page cache
        run_command(paths["ref"], paths[form], folder / f"{form}.json", args.code)
        if not args.skip_alignment:
            run_alignment(paths["words"], form)
        for _ in range(args.runs):
            commands.append(run_command(paths["ref"], paths[form], folder / f"{form}.json", args.code))
            if not args.skip_alignment:
                alignments.append(run_alignment(paths["words"], form))
        c = min(commands, key=lambda r: r["cpu"])
        if alignments:
            a = min(alignments, key=lambda r: r["cpu"])
            print(
                f"| {form} | {c['seconds']:.1f} | {c['cpu']:.1f} | {c['peak_mb']:.0f} | {a['seconds']:.1f} | "
                f"{a['cpu']:.1f} | {a['peak_mb']:.0f} | {c['cpu'] / a['cpu']:.2f} | "
                f"{c['seconds'] / a['seconds']:.2f} |",
                flush=True,
            )
        else:
            print(
                f"| {form} | {c['seconds']:.1f} | {c['cpu']:.1f} | {c['peak_mb']:.0f} | - | - | - | - | - |", flush=True
            )


if __name__ == "__main__":
    main()
