"""The files a command writes: checked before anything is read, written whole or not at all.

Every command that writes a file (``--json``, ``--csv``, ``--html``,
``--output``, ...) calls :func:`check_outputs` first, with its outputs and
its inputs, and writes each output with :func:`write_output`:

* a path that is empty, a directory, in a directory that does not exist or
  cannot be written (a read-only file system is called so) is refused before
  any input is read, so a long evaluation never ends on a typo;
* an output that is one of the run's inputs (the same name, a symbolic or
  hard link to it, or the file standard input reads) is refused: writing it
  would destroy the input;
* two outputs aimed at one file are refused;
* a file is written under a temporary name in its directory and renamed
  into place (:mod:`hub4eval.util.atomic`): a run that fails midway (a full
  disk) leaves the file that was there before, never half of a new one.

Each refusal is a :class:`~hub4eval.errors.UsageError`: one line, exit
status 2, naming the option and the path (and the input it would destroy).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hub4eval.errors import UsageError

if TYPE_CHECKING:
    from hub4eval.report.export import Piece

__all__ = ["STDOUT", "check_outputs", "output_error", "write_output"]

STDOUT = "-"
PathLike = str | Path
# An input: a path, several (a repeated option such as --glm), or None (not given).
Input = PathLike | Sequence[PathLike] | None
# --glm values that name no file.
_NOT_FILES = frozenset({"default", "none"})


def check_outputs(outputs: Mapping[str, PathLike | None], inputs: Mapping[str, Input] | None = None) -> None:
    """Refuse, before anything is read, outputs that cannot or must not be written.

    Args:
        outputs: each output option (``"--json"``) and its path; None (not
            given) and ``-`` (standard output) pass.
        inputs: each input of the same run by the name a user knows it by
            (``"REF"``, ``"--ref-text"``, ``"--glm"``) and its path(s); ``-``
            stands for standard input. ``default`` and ``none`` (of ``--glm``)
            name no file.

    Raises:
        UsageError: an empty path (output or input); an output that is an
            input, or is also another output; an output that cannot be
            written where it is asked for.
    """
    given = {option: str(path) for option, path in outputs.items() if path is not None}
    sources = [(name, str(path)) for name, value in (inputs or {}).items() for path in _paths(value)]
    for name, path in [*given.items(), *sources]:
        if path == "":
            raise UsageError(
                f"the {name} path is empty",
                hint="give the path of a file" + (" (or '-' for standard output)" if name in given else ""),
            )
    files = {option: path for option, path in given.items() if path != STDOUT}
    for option, path in files.items():
        for name, source in sources:
            if name.startswith("--glm") and source in _NOT_FILES:
                continue
            if _same_file(path, source):
                shown = "standard input" if source == STDOUT else source
                raise UsageError(
                    f"the {option} output is the input {name} ({shown}); writing it would destroy that input",
                    path,
                    hint="write the output to another file",
                )
    seen: dict[str, str] = {}
    for option, path in files.items():
        for other, other_path in seen.items():
            if os.path.realpath(path) == os.path.realpath(other_path) or _same_file(path, other_path):
                raise UsageError(
                    f"{other} and {option} both write to this file", path, hint="give each output its own file"
                )
        seen[option] = path
    for option, path in files.items():
        _check_writable(path, option)


def _paths(value: Input) -> list[PathLike]:
    if value is None:
        return []
    if isinstance(value, (str, Path)):
        return [value]
    return list(value)


def _same_file(output: str, source: str) -> bool:
    """Whether writing ``output`` would write the file ``source`` reads (links followed)."""
    try:
        if source == STDOUT:  # standard input redirected from a file: `< ref.tpl`
            return os.path.samestat(os.fstat(sys.stdin.fileno()), os.stat(output))
        return os.path.samefile(output, source)
    except (OSError, ValueError, AttributeError):  # either does not exist (yet), or no real stdin
        return False


def _check_writable(path: str, option: str) -> None:
    """A directory given as the file, a directory that does not exist or cannot be written to."""
    target = Path(path)
    folder = Path(os.path.realpath(target)).parent
    if target.is_dir():
        problem = errno.EISDIR
    elif not folder.is_dir():
        problem = errno.ENOENT
    elif _read_only(folder):
        problem = errno.EROFS
    elif not os.access(folder, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        problem = errno.EACCES
    else:
        return
    raise output_error(option, path, problem)


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): writing will tell
        return False


def output_error(option: str, path: str, code: int | None, words: str | None = None) -> UsageError:
    """The one-line error of an output that cannot be written, with the hint for its cause."""
    if code == errno.EROFS:
        words = "read-only file system"
    elif words is None:
        words = os.strerror(code) if code is not None else "cannot be written"
    hint = "check that the directory exists and is writable"
    if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
        hint = "write to a disk with free space, or to another place"
    elif code == errno.EISDIR:
        hint = "give the path of a file, not of a directory"
    elif code == errno.EROFS:
        hint = "write the output to a writable file system"
    return UsageError(
        f"cannot write the {option} output: {words}", "standard output" if path == STDOUT else path, hint=hint
    )


def write_output(text: str | Iterable[Piece], path: str, option: str) -> None:
    """Write an output (``-``: standard output) whole or not at all; failing is a one-line UsageError."""
    from hub4eval.report import export

    try:
        export.write_text(text, path)
    except BrokenPipeError:
        raise  # a closed pipe on standard output ends the run quietly (cli.app)
    except OSError as error:
        raise output_error(option, path, error.errno, error.strerror or str(error)) from None
