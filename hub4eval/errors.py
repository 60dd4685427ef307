"""Errors and warnings about user input.

Library code never prints or exits: it raises :class:`InputError` (bad files,
bad option values) and returns :class:`InputWarning` objects for problems that
still allow a score. Only the CLI turns an ``InputError`` into the one-line
``FILE:LINE:COL: message`` on stderr and exit status 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _where(path: str | None, line: int | None, column: int | None) -> str:
    parts = [p for p in (path, line, column) if p is not None]
    return ":".join(str(p) for p in parts)


class Hub4EvalError(Exception):
    """Base class of every error hub4eval raises on purpose."""


class InputError(Hub4EvalError):
    """Bad input: a file, a position in it, what is wrong and how to fix it.

    ``str(error)`` is the one line the CLI prints, e.g.
    ``ref.tpl:12:5: odd number of extent offsets (hint: ...)``.
    """

    def __init__(
        self,
        message: str,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(self.format())

    def __reduce__(self):  # noqa: ANN204 - keep the fields when pickled (process pools)
        return (type(self), (self.message, self.path, self.line, self.column, self.hint))

    def format(self) -> str:
        where = _where(self.path, self.line, self.column)
        text = f"{where}: {self.message}" if where else self.message
        if self.hint:
            text += f" (hint: {self.hint})"
        return " ".join(text.split("\n"))


class UsageError(InputError):
    """A bad option value or combination of options (exit status 2)."""


@dataclass(frozen=True)
class InputWarning:
    """A problem that does not stop scoring; reported and kept in the JSON.

    ``changes_score``: the warning changes what the score means (a set-up
    mistake the numbers carry); ``--quiet`` never silences such a warning.
    """

    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    changes_score: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        where = _where(self.path, self.line, self.column)
        return f"{where}: warning: {self.message}" if where else f"warning: {self.message}"
