"""Stage 7, the command line: a thin layer over the library API.

Each command lives in its own module and registers itself on ``app``; typer
parses the options, :mod:`hub4eval.api` does the work, :mod:`hub4eval.report`
renders it, and :mod:`hub4eval.cli.app` is the one place where errors become
exit codes. May import anything in hub4eval; nothing imports it.
"""

from __future__ import annotations

from hub4eval.cli import align, check, compare, explain, ne, project, sclite, score, text  # noqa: F401  (registers the commands)
from hub4eval.cli.app import app, main

__all__ = ["app", "main"]
