"""Record types: creation time and garbage-collector cost, frozen dataclass vs msgspec.

    python benchmarks/bench_records.py [--n 1000000]

Compares, for a record of eight fields like hub4eval's ``TextFill``:
a frozen slotted dataclass with its generated ``__init__`` (two of its
fields ``compare=False``, as the model's positions were); the same class
with :func:`hub4eval.util.records.quick_init`; ``msgspec.Struct(frozen=True,
gc=False)``; and :class:`hub4eval.util.records.Record` with
:func:`~hub4eval.util.records.compare_without` on the same two fields, which
is how the data model is built. Prints the time to create N records and the
time of one full ``gc.collect()`` while they are alive, each as a ratio to
the plain dataclass measured in the same run.
"""

from __future__ import annotations

import argparse
import gc
import time
from dataclasses import dataclass, field

import msgspec

from hub4eval.util.records import Record, compare_without, quick_init


@dataclass(frozen=True, slots=True)
class Plain:
    content: str
    spans: tuple
    extents: tuple
    minimal: tuple
    optional: bool
    quoted: bool
    line: int = field(compare=False)
    column: int = field(compare=False)


@quick_init
@dataclass(frozen=True, slots=True)
class Quick:
    content: str
    spans: tuple
    extents: tuple
    minimal: tuple
    optional: bool
    quoted: bool
    line: int = field(compare=False)
    column: int = field(compare=False)


class Struct(msgspec.Struct, frozen=True, gc=False):
    content: str
    spans: tuple
    extents: tuple
    minimal: tuple
    optional: bool
    quoted: bool
    line: int
    column: int


@compare_without("line", "column")
class Model(Record, frozen=True):
    content: str
    spans: tuple
    extents: tuple
    minimal: tuple
    optional: bool
    quoted: bool
    line: int
    column: int


def _classes() -> dict[str, type]:
    return {
        "frozen dataclass": Plain,
        "frozen dataclass + quick_init": Quick,
        "msgspec.Struct(frozen, gc=False)": Struct,
        "Record + compare_without (the model)": Model,
    }


def measure(cls: type, n: int) -> tuple[float, float]:
    spans = ((0, 4),)
    gc.collect()
    gc.disable()
    start = time.perf_counter()
    made = [cls("text", spans, (), spans, False, True, i, 1) for i in range(n)]
    create = time.perf_counter() - start
    start = time.perf_counter()
    gc.collect()
    walk = time.perf_counter() - start
    gc.enable()
    del made
    return create, walk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = {name: [measure(cls, args.n) for _ in range(args.repeat)] for name, cls in _classes().items()}
    base_create = min(r[0] for r in rows["frozen dataclass"])
    base_walk = min(r[1] for r in rows["frozen dataclass"])
    print(f"| record type ({args.n:,} records) | create s | ratio | gc.collect s | ratio |")
    print("|---|---|---|---|---|")
    for name, runs in rows.items():
        create, walk = min(r[0] for r in runs), min(r[1] for r in runs)
        print(f"| {name} | {create:.3f} | {create / base_create:.2f} | {walk:.3f} | {walk / base_walk:.2f} |")


if __name__ == "__main__":
    main()
