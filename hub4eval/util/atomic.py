"""Writing a file whole or not at all.

A file is written under a temporary name in its own directory and renamed
onto its name once every byte is written (``os.replace`` is atomic within a
file system): a run that fails midway (a full disk, an interrupt, a bug)
leaves the file that was there before, never half of a new one, and the
temporary file is removed.

The file is not forced onto the disk before the rename (no ``fsync``), as
``cp``, ``sort -o`` and ``rsync`` do not by default: an output is made again
by running the command again, and the wait was a fifth of a second per
400 MB of ``--json`` (docs/input-errors.md says what a crash of the machine
can leave). A full disk is still met while writing or closing, before the
rename: the file systems that delay allocating a file's blocks (ext4, XFS)
reserve the space when a write is made, and the close reports what a write
could not.

What is not a regular file (``/dev/null``, a named pipe), and any path under
``/dev/`` or ``/proc/`` (``/dev/stdout`` redirected to a file), is written in
place: it cannot be replaced, or the process writes to it in other ways too.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TextIO

__all__ = ["replaced_whole"]

# Names of streams and devices rather than files: written in place.
_IN_PLACE = ("/dev/", "/proc/")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def replaced_whole(path: str, *, encoding: str = "utf-8", newline: str = "") -> Iterator[TextIO]:
    """Open ``path`` to write text; the file appears (or replaces the old one) only if the block ends well.

    A symbolic link is followed: the file it points to is replaced, the link
    stays. The new file keeps the old one's permissions (and owner, where
    allowed); a new file gets the usual ones (0666 less the umask).

    Raises:
        OSError: the temporary file cannot be made, written or renamed (it is
            removed, and ``path`` is as it was).
    """
    target = os.path.realpath(path)
    try:
        before: os.stat_result | None = os.stat(target)
    except OSError:
        before = None
    # /dev/stdout may resolve to a regular file (a redirected standard output),
    # which other output of the process still writes to: never replace it
    if str(path).startswith(_IN_PLACE) or (before is not None and not stat.S_ISREG(before.st_mode)):
        with open(path, "w", encoding=encoding, newline=newline) as handle:
            yield handle
        return
    folder, name = os.path.split(target)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(descriptor, "w", encoding=encoding, newline=newline) as handle:
            yield handle
            handle.flush()  # a write that fails shows here (or at the close), not after the rename
        if before is not None:
            os.chmod(temporary, stat.S_IMODE(before.st_mode))
            with suppress(OSError):  # only the owner's own files, unless privileged
                os.chown(temporary, before.st_uid, before.st_gid)
        else:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
