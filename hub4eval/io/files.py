"""Reading a user's text file whole, with every failure as a positioned InputError."""

from __future__ import annotations

import codecs
import sys
from pathlib import Path

from hub4eval.errors import InputError

STDIN = "-"  # the path that means standard input


def read_text(path: str, encoding: str) -> str:
    """Read a whole text file, turning every failure into an InputError.

    Args:
        path: the file to read; ``-`` reads standard input (whole, as bytes,
            decoded with ``encoding`` like a file). A file named ``-`` is
            ``./-``.
        encoding: its text encoding.

    Returns:
        The decoded text, without a leading byte-order mark.

    Raises:
        InputError: missing file, a directory, unreadable file, unknown
            encoding, or bytes that are not valid in ``encoding`` (positioned
            at the first bad byte).
    """
    try:
        codec = codecs.lookup(encoding)
    except (LookupError, TypeError, ValueError):  # ValueError: a NUL in the name
        raise InputError(
            f"unknown text encoding {encoding!r}",
            path,
            hint="use a Python codec name such as utf-8 or latin-1",
        ) from None
    if not getattr(codec, "_is_text_encoding", True):
        # rot13, hex, base64, zlib, ...: bytes-to-bytes or str-to-str transforms,
        # which Python's text decoding refuses.
        raise InputError(
            f"{encoding!r} is not a text encoding",
            path,
            hint="use a Python text codec name such as utf-8 or latin-1",
        )
    if path == STDIN:
        data = _read_stdin(path)
        return _decode(data, path, encoding)
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
    return _decode(data, path, encoding)


_STDIN: list[tuple[object, bytes]] = []  # (the stream, what was read from it); holds the stream alive


def _read_stdin(path: str) -> bytes:
    """All of standard input; read once, the same bytes again on a second read
    (``compare`` reads its reference once per system)."""
    for stream_read, data in _STDIN:
        if stream_read is sys.stdin:
            return data
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is not None:
            data = stream.read()
        else:
            text = sys.stdin.read()  # a text-only stream (e.g. replaced by a test runner)
            data = text.encode("utf-8") if isinstance(text, str) else text
        _STDIN[:] = [(sys.stdin, data)]
        return data
    except (OSError, ValueError) as error:
        raise InputError(
            f"cannot read standard input: {error}", path, hint="pipe or redirect a file into hub4eval"
        ) from None


def _decode(data: bytes, path: str, encoding: str) -> str:
    """``data`` decoded; an invalid byte is a positioned InputError."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        position = _error_position(data, error, encoding)
        if position is None:
            raise _undecodable(path, encoding) from None
        line, column = position
        raise InputError(
            f"byte 0x{data[error.start]:02x} at byte offset {error.start} is not valid {encoding}",
            path,
            line,
            column,
            hint="give the file's real encoding with --encoding (e.g. latin-1)",
        ) from None
    except (UnicodeError, ValueError, TypeError):  # punycode, idna, undefined: no byte position
        raise _undecodable(path, encoding) from None
    return text[1:] if text.startswith("\ufeff") else text


def _undecodable(path: str, encoding: str) -> InputError:
    return InputError(
        f"the file cannot be decoded as {encoding}",
        path,
        hint="give the file's real encoding with --encoding (e.g. utf-8 or latin-1)",
    )


def _error_position(data: bytes, error: UnicodeDecodeError, encoding: str) -> tuple[int, int] | None:
    """Line and column of a decoding error, or None when the codec's offset is not
    an offset into ``data`` (punycode and idna decode pieces of it)."""
    if error.object != data or not 0 <= error.start < len(data):
        return None
    try:
        return _byte_position(data, error.start, encoding)
    except (UnicodeError, ValueError, TypeError, LookupError):
        return None


def _byte_position(data: bytes, offset: int, encoding: str) -> tuple[int, int]:
    """1-based line and character column of byte ``offset`` in ``data``."""
    before = data[:offset]
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode(encoding, errors="replace")) + 1
    return before.count(b"\n") + 1, column
