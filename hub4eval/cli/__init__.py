"""Command-line interface: a thin layer over the library API.

Each command lives in its own module and registers itself on ``app``.
"""

from __future__ import annotations

from hub4eval.cli import align, check, compare, explain, score  # noqa: F401  (registers the commands)
from hub4eval.cli.app import app, main

__all__ = ["app", "main"]
