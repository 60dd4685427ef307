"""Reading a user's text file whole, with every failure as a positioned InputError."""

from __future__ import annotations

import codecs
from pathlib import Path

from hub4eval.errors import InputError


def read_text(path: str, encoding: str) -> str:
    """Read a whole text file, turning every failure into an InputError.

    Args:
        path: the file to read.
        encoding: its text encoding.

    Returns:
        The decoded text, without a leading byte-order mark.

    Raises:
        InputError: missing file, a directory, unreadable file, unknown
            encoding, or bytes that are not valid in ``encoding`` (positioned
            at the first bad byte).
    """
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(
            f"unknown text encoding {encoding!r}",
            path,
            hint="use a Python codec name such as utf-8 or latin-1",
        ) from None
    file = Path(path)
    if file.is_dir():
        raise InputError("is a directory, not a file", path, hint="give the path of a file")
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", path, hint="check the path and the current directory") from None
    except PermissionError:
        raise InputError("permission denied", path, hint="check the file's permissions") from None
    except OSError as error:
        raise InputError(f"cannot read the file: {error.strerror or error}", path) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line, column = _byte_position(data, error.start, encoding)
        raise InputError(
            f"byte 0x{data[error.start]:02x} at byte offset {error.start} is not valid {encoding}",
            path,
            line,
            column,
            hint="give the file's real encoding with --encoding (e.g. latin-1)",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def _byte_position(data: bytes, offset: int, encoding: str) -> tuple[int, int]:
    """1-based line and character column of byte ``offset`` in ``data``."""
    before = data[:offset]
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode(encoding, errors="replace")) + 1
    return before.count(b"\n") + 1, column
