"""Keep data that is slow to derive and never changes in files of the user's cache directory.

The directory is ``$HUB4EVAL_CACHE_DIR`` if set, else ``hub4eval`` in the
user's cache directory (``$XDG_CACHE_HOME``, ``~/.cache``; ``%LOCALAPPDATA%``
on Windows).  A cache never changes a result:

* a file's name carries a digest of everything its content is derived from
  (:func:`key`), so a file made from other inputs is never looked up;
* a file ends with the SHA-256 of the bytes before it, so a truncated or
  damaged file is not used;
* a file is written under a temporary name in the same directory and renamed
  into place, so a reader sees a whole file or none;
* every failure (no home directory, a read-only disk, a damaged file) only
  means "not cached": the caller derives the data as if there were no cache;
* a directory that others may write to is not used (the parser tables are
  pickles, and loading a pickle runs code).

:func:`cached` is the one way the package (not its tests) uses it: the value kept under a
name, or derived and kept there (the parser tables, the class of Unicode
punctuation, the parsed English GLM).
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

_SEAL = b"\nhub4eval-cache sha256 "
_SEAL_SIZE = len(_SEAL) + 64 + 1  # marker, hex digest, newline


def cached(
    name: str,
    derive: Callable[[], T],
    *,
    dump: Callable[[T], bytes] | None = None,
    load: Callable[[bytes], Any] | None = None,
    kind: type | None = None,
) -> T:
    """The value kept in cache file ``name``, ``load`` of its bytes; else ``derive()``, kept there
    as ``dump`` of it for the next run.

    ``name`` must carry a :func:`key` of everything the value is derived from. Loading that fails
    in any way (a damaged or outdated file, a value that is not of type ``kind`` when ``kind`` is
    given) means: not cached, and the value is derived as if there were no cache; so does a value
    that cannot be stored (nothing is written). By default (no ``dump``, no ``load``) the value is
    pickled.
    """
    if dump is None or load is None:
        import pickle  # imported when used: not every run that imports this module caches a pickle

        dump = dump or functools.partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)
        load = load or pickle.loads
    content = read(name)
    if content is not None:
        try:
            value = load(content)
        except Exception:  # any failure to load means: not cached
            pass
        else:
            if kind is None or type(value) is kind:
                return value
    value = derive()
    try:
        data = dump(value)
    except Exception:  # a value that cannot be stored is still the value
        return value
    write(name, data)
    return value


def key(*parts: str) -> str:
    """A short digest of ``parts`` (the inputs a cached file is derived from), for its name."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()[:32]


def directory() -> Path | None:
    """The cache directory, made if needed; None when there is none or it is not safe to use."""
    try:
        chosen = os.environ.get("HUB4EVAL_CACHE_DIR")
        if chosen:
            path = Path(chosen)
        else:
            base = os.environ.get("XDG_CACHE_HOME") or (
                os.environ.get("LOCALAPPDATA") if sys.platform == "win32" else None
            )
            path = (Path(base) if base else Path.home() / ".cache") / "hub4eval"
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        if hasattr(os, "getuid"):
            status = path.stat()
            if status.st_uid != os.getuid() or status.st_mode & 0o022:
                return None
        return path
    except (OSError, RuntimeError):  # RuntimeError: Path.home() without a home
        return None


def read(name: str) -> bytes | None:
    """The content of cache file ``name``; None if it is missing, unreadable or damaged."""
    folder = directory()
    if folder is None:
        return None
    try:
        data = (folder / name).read_bytes()
    except OSError:
        return None
    body, seal = data[:-_SEAL_SIZE], data[-_SEAL_SIZE:]
    if len(data) < _SEAL_SIZE or seal != _seal(body):
        return None
    return body


def write(name: str, content: bytes) -> None:
    """Store ``content`` as cache file ``name``: whole or not at all (silently, on any failure)."""
    folder = directory()
    if folder is None:
        return
    temporary = folder / f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        temporary.write_bytes(content + _seal(content))
        os.replace(temporary, folder / name)
    except OSError:
        try:
            temporary.unlink()
        except OSError:
            pass


def _seal(content: bytes) -> bytes:
    return _SEAL + hashlib.sha256(content).hexdigest().encode("ascii") + b"\n"
