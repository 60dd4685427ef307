"""Normalizing the templettes' content strings and their word keys, all at once against one by one.

    python benchmarks/bench_normalize.py --dir DIR [--runs 5] [--forms unsegmented,segmented]

``DIR`` holds ``ref_e5.tpl`` and ``hyp_e5_{unsegmented,segmented}.tpl`` (as
``bench_score_texts.py --dir DIR`` leaves them in its ``n..._d..._w..._s..``
folders; a folder of such folders is searched for the first one). What a score
with texts that differ does with the strings of both templette files before
and while it maps them: each distinct content string normalized (text,
premodifiers removed, tokens, noisy words, number of the text), then the word
keys of every fill's string as the fill tables read them, arrays of each column
(hypothesis word, phrases, keys: ``FillPreparer.word_columns``).

* anchor (the one-by-one route): ``FillPreparer._normalize`` of each distinct
  string in turn, then ``FillPreparer._word_entry`` of each fill's string, its
  records made into the columns (``fills.entry_columns``);
* all at once: ``FillPreparer.normalize`` of all the strings
  (``WordByWord.normalize_many``, the word keys made with them as columns), then
  ``word_columns`` of the fills' strings.

Both in one process, interleaved, best of ``--runs``, CPU seconds
(``time.process_time``), the cyclic collector paused as a score pauses it. The
words' number classes are worked out first, as the texts' tokenization leaves
them in a score. Prints the ratio all-at-once / one-by-one.
"""

from __future__ import annotations

import argparse
import gc
import time
from functools import partial
from pathlib import Path

from hub4eval.config import ScoreConfig
from hub4eval.io.templettes.reader import read_templates
from hub4eval.scoring.fills import FillPreparer, entry_columns
from hub4eval.scoring.noisy import filler_set
from hub4eval.scoring.pipeline import _strings
from hub4eval.text.glm import apply_glm, default_glm
from hub4eval.text.spoken import _words

COLUMNS = (0, 2, 3, 4)  # the word keys' columns: keys, hypothesis words, phrases, kept phrases


def _folder(base: Path) -> Path:
    if (base / "ref_e5.tpl").exists():
        return base
    for sub in sorted(base.iterdir()):
        if (sub / "ref_e5.tpl").exists():
            return sub
    raise SystemExit(f"no ref_e5.tpl in {base} or its folders")


def measure(folder: Path, form: str, runs: int) -> tuple[float, float, float, float]:
    """(one by one: normalize, keys; all at once: normalize, keys), CPU seconds, best of ``runs``."""
    ref = read_templates(folder / "ref_e5.tpl", "reference")
    hyp = read_templates(folder / f"hyp_e5_{form}.tpl", "hypothesis")
    config = ScoreConfig()
    glm = partial(apply_glm, glm=default_glm())
    strings = _strings((hyp, ref), config)
    unscored = frozenset(config.unscored_slots)
    fills = [[fill.content for _, fill in tset.text_fills(unscored)] for tset in (hyp, ref)]
    fillers = filler_set(config.fillers)
    starts = _words(config.spoken_forms)
    for word in " ".join(strings).lower().split():  # as the texts' tokenization leaves them
        starts.trigger(word)
    best = [float("inf")] * 4
    gc.disable()
    try:
        for _ in range(runs):
            one = FillPreparer(config, glm_apply=glm)
            started = time.process_time()
            for raw in strings:
                if one._texts.get(raw) is None:
                    one._normalize(raw)
            normalized = time.process_time()
            for contents in fills:
                entry = one._word_entry
                entries = [entry(raw, fillers) for raw in contents]
                for which in COLUMNS:
                    entry_columns(entries, which)
            keyed = time.process_time()
            best[0], best[1] = min(best[0], normalized - started), min(best[1], keyed - normalized)
            del one
            many = FillPreparer(config, glm_apply=glm)
            started = time.process_time()
            many.normalize(strings)
            normalized = time.process_time()
            for contents in fills:
                rows = many.word_rows(contents, fillers)
                for which in COLUMNS:
                    many.word_columns(contents, fillers, which, rows)
            keyed = time.process_time()
            best[2], best[3] = min(best[2], normalized - started), min(best[3], keyed - normalized)
            del many
            gc.collect()
    finally:
        gc.enable()
    return best[0], best[1], best[2], best[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", required=True, type=Path, help="folder of ref_e5.tpl and hyp_e5_*.tpl")
    parser.add_argument("--runs", type=int, default=5, help="runs of each route, interleaved (best kept)")
    parser.add_argument("--forms", default="unsegmented,segmented", help="hypothesis forms, comma-separated")
    args = parser.parse_args()
    folder = _folder(args.dir)
    print("| form | one by one: normalize | keys | total | all at once: normalize + keys | keys read | total | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for form in args.forms.split(","):
        a, b, c, d = measure(folder, form, args.runs)
        print(
            f"| {form} | {a:.3f} | {b:.3f} | {a + b:.3f} | {c:.3f} | {d:.3f} | {c + d:.3f} | {(c + d) / (a + b):.2f} |"
        )


if __name__ == "__main__":
    main()
