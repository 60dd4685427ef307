"""Objects kept until the process ends, instead of freed one by one once the work is done.

The command line ends its process with ``os._exit`` once every output is written
(``hub4eval.cli.app.main``): whatever is alive then goes with the process, at
once. What a function frees when it returns is freed object by object: a score
of texts that differ freed its preparers' records, its mapper and the
hypothesis templettes (about 0.07 s of CPU at a million words) when it had no
more use for them, in a process about to end anyway.

:func:`keep_until_exit` keeps such objects alive until the exit, in a process
that said it ends so (:func:`ends_without_freeing`, which the CLI's ``main``
calls), and only in that very process: a forked child (a worker of ``--jobs``
scores group after group) frees what it made as usual, and so does the library
API, which never calls :func:`ends_without_freeing`. Only what is kept anyway
until a process's last work should be given to it: it is never freed.
"""

from __future__ import annotations

import os
from typing import Any

_KEPT: list[Any] = []
_PROCESS: list[int] = []  # the process that ends without freeing (empty: none)


def ends_without_freeing() -> None:
    """Say that this process ends with ``os._exit`` once its output is written: from now on
    :func:`keep_until_exit` keeps what it is given here (not in forked children)."""
    _PROCESS[:] = [os.getpid()]


def keep_until_exit(*values: Any) -> None:
    """Keep ``values`` alive until the process ends, when :func:`ends_without_freeing` was called
    in this process; else nothing (they are freed as usual)."""
    if _PROCESS and _PROCESS[0] == os.getpid():
        _KEPT.append(values)


def free_kept() -> None:
    """Free what was kept so far, now: for a command that scores once more, so that the second
    score's peak of memory does not hold the first one's makings (as when nothing was kept)."""
    _KEPT.clear()
