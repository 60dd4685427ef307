"""What a score does after its counts, part by part, against reading the two texts.

Not part of the test suite. When the texts differ, ``hub4eval score`` counts the
mapping and the ceiling, then reports: the causes of the errors (recognition or
extraction, settled by the ceiling), the entity WER, the counts of every level
of the two tallies, and the tables. This script scores the files once, in this
process, as ``score --jobs 1`` does (counts kept, the ceiling scored), then
times each of those parts afresh, ``--rounds`` times, interleaved with the
anchor: reading the two text corpora, which ``score`` and ``align`` both do.
It prints CPU milliseconds (the best of the rounds) and each part as a
fraction of the anchor::

    python benchmarks/bench_score_texts.py --dir $SCRATCH/texts      # makes the files once
    python benchmarks/bench_report.py --dir $SCRATCH/texts/n1000000_d500_w0.15_s1 --form unsegmented

The parts, each made again from what the score left (nothing remembered from
the round before):

* causes: ``ScoreResult.causes`` (the ceiling's kinds of errors per slot read afresh);
* entity WER: ``ScoreResult.entity_wer``;
* tallies: the system's and the ceiling's ``Tally.counted``, and the levels the
  report reads of them (the system's slots, the ceiling's total);
* tables: the slot tables and the cause table, drawn as the command draws them
  on a pipe (160 columns).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="a folder of bench_score_texts.py's files")
    parser.add_argument("--form", default="unsegmented", help="unsegmented or segmented")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, interleaved (the best kept)")
    args = parser.parse_args()

    from rich.console import Console

    from hub4eval import api
    from hub4eval.config import ScoreConfig
    from hub4eval.io.formats import read_text_corpora
    from hub4eval.report import tables
    from hub4eval.scoring.result import Tally
    from hub4eval.scoring.slot_errors import counted_slot_errors

    folder, form = args.dir, args.form
    texts = (str(folder / "ref.sgml"), str(folder / f"hyp_{form}.sgml"))
    counted: list[tuple[Any, ...]] = []  # the sets of the system's count, then the ceiling's
    made = Tally.counted.__func__  # type: ignore[attr-defined]

    def counting(cls: Any, sets: Any, signatures: Any, beta: float) -> Any:
        counted.append((sets, signatures, beta))
        return made(cls, sets, signatures, beta)

    Tally.counted = classmethod(counting)  # type: ignore[method-assign, assignment]
    started = time.process_time()
    result = api.score_files(
        folder / "ref_e5.tpl",
        folder / f"hyp_e5_{form}.tpl",
        ref_text=texts[0],
        hyp_text=texts[1],
        config=ScoreConfig(),
        output=api.OutputOptions(ceiling=None, keep="counts", jobs=1),
    )
    scored = time.process_time() - started
    Tally.counted = classmethod(made)  # type: ignore[method-assign, assignment]
    assert result.ceiling is not None and len(counted) == 2, "the texts must differ and the ceiling be counted"
    unscored = result.config.unscored_slots
    show = getattr(tables, "print_table", None) or (lambda console, table: console.print(table))

    def fresh() -> Any:
        """The result again, nothing read of it: its ceiling's slot errors made anew."""
        sets, signatures, _ = counted[1]
        ceiling = dataclasses.replace(result.ceiling, slot_errors=counted_slot_errors(sets, signatures, unscored))
        return dataclasses.replace(result, ceiling=ceiling)

    def anchor() -> object:
        return read_text_corpora(*texts)

    def causes() -> object:
        return fresh().causes

    def entity_wer() -> object:
        return fresh().entity_wer

    def tallies() -> object:
        (system, ceiling) = (Tally.counted(*arguments) for arguments in counted)
        return system.levels["slot"], ceiling.levels["all"]

    def draw() -> None:
        console = Console(file=io.StringIO(), width=160, no_color=True)
        for table in tables.slot_tables(shown, 160):
            show(console, table)
        show(console, tables.cause_table(shown))

    shown = fresh()
    assert shown.causes is not None and shown.entity_wer is not None  # the tables draw what is read already
    parts: dict[str, Callable[[], object]] = {
        "read the texts (anchor)": anchor,
        "causes": causes,
        "entity WER": entity_wer,
        "tallies": tallies,
        "tables": draw,
    }
    best = dict.fromkeys(parts, float("inf"))
    for _ in range(args.rounds):
        for name, part in parts.items():
            began = time.process_time()
            part()
            best[name] = min(best[name], time.process_time() - began)
    base = best["read the texts (anchor)"]
    after = sum(seconds for name, seconds in best.items() if name != "read the texts (anchor)")
    print(f"# {folder.name}, {form}: scored in {scored:.2f} s CPU; best of {args.rounds} rounds", file=sys.stderr)
    print("| part | CPU ms | / reading the texts |")
    print("|---|---|---|")
    for name, seconds in best.items():
        print(f"| {name} | {1000 * seconds:.1f} | {seconds / base:.3f} |")
    print(f"| all four parts | {1000 * after:.1f} | {after / base:.3f} |")


if __name__ == "__main__":
    main()
