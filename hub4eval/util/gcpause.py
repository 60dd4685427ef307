"""Pause Python's cyclic garbage collector during bulk work.

Parsing and scoring build millions of small, acyclic objects; with the
collector on, every few thousand allocations it walks all live objects again,
which made scoring a large evaluation three to four times slower. Reference
counting still frees everything while the collector is paused.

Turning the collector back on has a cost of its own: every object made during
the pause is still in the youngest generation, so the first allocation after
``gc.enable()`` walks all of them (3.9 s for the million points of
``benchmarks/bench_score.py``, which found 5,298 of several million objects to
free). A process that keeps its objects until it exits, as the CLI does
(:func:`hub4eval.cli.app.keep_until_exit`), asks for ``freeze=True``: the
objects are moved to the permanent generation (``gc.freeze()``, a constant-time
list splice) and are never walked again. The library API does not freeze: that
would change the caller's whole process.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc(freeze: bool = False) -> Iterator[None]:
    """Disable the cyclic collector inside the block, or a decorated function (nesting-safe).

    Args:
        freeze: on leaving, move every object tracked by the collector to the
            permanent generation (``gc.freeze()``) before the collector is
            turned back on, so that it never walks them again; for a
            short-lived process that keeps what it made until it exits.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()
