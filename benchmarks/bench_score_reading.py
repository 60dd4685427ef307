"""What a score of texts that differ spends reading and checking its inputs, against the read limit.

    python benchmarks/bench_score_reading.py [--repeats 5] score REF.tpl HYP.tpl --ref-text REF.sgml --hyp-text HYP.sgml --jobs 1 --quiet

Not part of the test suite. Runs the command line in this process (as
``stages.py`` does) with these steps of the score wrapped: reading the two
templette files (``read_templates``), checking them against their texts
(``pipeline.check_texts``), reading the spelling rules (``pipeline.load_glm``,
the shipped file's in-memory copy dropped before each call, so that each
reads it as a new process would) and the warnings of hypothesis sets over
several reference documents (``split_sets.spanning_set_warnings``, an
unsegmented hypothesis only). Each wrapped call is made ``--repeats`` times
(they are pure) and its best CPU seconds (``time.process_time``) kept. The
anchor, measured in the same process after the score: the read limit of the
two templette files (``bench_score.READ_LIMIT_RE``: read the bytes, decode
them and split them into the format's pieces with one ``re.findall``), best of
as many. Printed on standard error: each step's CPU seconds and its ratio to
the read limit, and the load average; on a shared machine, compare ratios.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import READ_LIMIT_RE  # noqa: E402
from stages import ExitingOs  # noqa: E402  (the stage timer beside this one)

REPEATS = 5
STEPS = (
    # (module, function, label, a call that makes the next one start afresh)
    ("hub4eval.io.templettes.reader", "read_templates", "read templettes", None),
    ("hub4eval.scoring.pipeline", "check_texts", "check against texts", None),
    ("hub4eval.scoring.pipeline", "load_glm", "load GLM", "glm"),
    ("hub4eval.scoring.split_sets", "spanning_set_warnings", "spanning sets", None),
)
_best: dict[str, float] = {}
_templettes: list[str] = []


def _afresh(what: str | None) -> None:
    if what == "glm":
        from hub4eval.text.glm import default_glm

        default_glm.cache_clear()


def _wrap(module_name: str, name: str, label: str, afresh: str | None) -> None:
    module = importlib.import_module(module_name)
    function = getattr(module, name)

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        best = float("inf")
        for _ in range(REPEATS):
            _afresh(afresh)
            began = time.process_time()
            value = function(*args, **kwargs)
            best = min(best, time.process_time() - began)
        _best[label] = _best.get(label, 0.0) + best
        if name == "read_templates":
            _templettes.append(str(args[0]))
        return value

    setattr(module, name, timed)


def _read_limit(paths: list[str]) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        began = time.process_time()
        for path in paths:
            READ_LIMIT_RE.findall(Path(path).read_bytes().decode("utf-8"))
        best = min(best, time.process_time() - began)
    return best


def _report() -> None:
    limit = _read_limit(_templettes)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"# best of {REPEATS} CPU seconds each, load average {load}", file=sys.stderr)
    print(f"{'read limit of the templette files':36s} {limit:7.4f} s  1.00x", file=sys.stderr)
    total = 0.0
    for _, _, label, _ in STEPS:
        if label in _best:
            total += _best[label]
            print(f"{label:36s} {_best[label]:7.4f} s  {_best[label] / limit:4.2f}x", file=sys.stderr)
    print(f"{'all of them':36s} {total:7.4f} s  {total / limit:4.2f}x", file=sys.stderr, flush=True)


def main() -> None:
    global REPEATS
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS, help="calls of each step (the best is kept)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the hub4eval command line, e.g. score REF HYP ...")
    args = parser.parse_args()
    if not args.command:
        parser.error("give the hub4eval command line to run, e.g. score REF HYP --ref-text ... --hyp-text ...")
    REPEATS = max(1, args.repeats)
    for module_name, name, label, afresh in STEPS:
        _wrap(module_name, name, label, afresh)
    # the API reads the templettes through the package's name for the function
    importlib.import_module("hub4eval.io.templettes").read_templates = sys.modules[  # type: ignore[attr-defined]
        "hub4eval.io.templettes.reader"
    ].read_templates
    importlib.import_module("hub4eval.cli")  # registers the commands
    app = sys.modules["hub4eval.cli.app"]
    ending = app.os._exit  # the command line ends the process with os._exit: report first

    def end(status: int) -> None:
        _report()
        ending(status)

    app.os = ExitingOs(end)  # type: ignore[attr-defined]
    sys.argv = ["hub4eval", *args.command]
    app.main()
    _report()


if __name__ == "__main__":
    main()
