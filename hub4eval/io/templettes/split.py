"""Templette files cut into the parts of each document, without parsing them.

A large evaluation is scored in groups of documents (``--jobs``): each group
reads and parses only its documents' lines.  :func:`split_documents` finds
the instance headers of a file with one regular expression over its bytes
and records, for every DOCID, the byte ranges of its instances and the line
each starts on; :func:`read_parts` parses such ranges as
:func:`~hub4eval.io.templettes.parse_templates` parses the whole file (the
same instances, lines and columns).

The cut is only a plan.  Whatever it cannot be sure of (standard input, an
encoding in which a byte ``<`` at a line start may not be the character, text
other than blank and comment lines before the first header, a header whose
DOCID it cannot read) makes :func:`split_documents` return None, and the
caller reads the file whole; what the parser finds in a part is checked
against the plan by the caller (see :mod:`hub4eval.parallel`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hub4eval.io.templettes.reader import _check_headers, _group, check_pointers, parse_templates
from hub4eval.model import TemplateSet

# A header line: <TYPE-DOCID-N> := at the start of a line (blanks before it allowed).
_HEADER = re.compile(rb"^[ \t]*<([^<>\s]+)>[ \t]*:=", re.MULTILINE)
# What may come before the first header: blank lines and comment lines.
_PREAMBLE = re.compile(rb"(?:[ \t\r]*(?:;[^\n]*)?\n)*[ \t\r]*")
# Encodings in which every byte below 0x80 is that ASCII character and no other
# character's bytes contain one: a line start found in the bytes is one in the text.
_ASCII_SAFE = {"utf-8", "ascii", "latin-1", "iso8859-1", "cp1252", "iso8859-15"}

Part = tuple[int, int, int]  # start and end byte offsets, the line the part starts on


@dataclass(frozen=True)
class DocumentParts:
    """Where each document's instances are in a templette file."""

    path: str
    encoding: str
    parts: dict[str, list[Part]]  # DOCID -> its byte ranges in file order, DOCIDs in order of first appearance
    instances: int  # headers found


def split_documents(path: str, encoding: str = "utf-8") -> DocumentParts | None:
    """The documents of a templette file and their byte ranges, or None when
    the file cannot be cut safely (then it is read whole)."""
    if path == "-":
        return None
    try:
        if codecs.lookup(encoding).name not in _ASCII_SAFE:
            return None
        with open(path, "rb") as handle:
            data = handle.read()
    except (LookupError, OSError, MemoryError):
        return None
    begin = 3 if data.startswith(b"\xef\xbb\xbf") and codecs.lookup(encoding).name == "utf-8" else 0
    parts: dict[str, list[Part]] = {}
    line = 1
    previous_start = -1
    previous_docid = ""
    count = 0
    for match in _HEADER.finditer(data, begin):
        start = match.start()
        if previous_start < 0 and _PREAMBLE.fullmatch(data, begin, start) is None:
            return None  # something the parser must judge comes before the first header
        line += data.count(b"\n", max(previous_start, begin), start)
        name = match.group(1)
        first = name.find(b"-")
        last = name.rfind(b"-")
        if first < 0 or last <= first or not name[last + 1 :].isdigit():
            return None
        try:
            docid = name[first + 1 : last].decode(encoding)
        except UnicodeDecodeError:
            return None
        known = parts.get(docid)
        if known is None:
            parts[docid] = [(start, start, line)]
        elif docid == previous_docid:
            pass  # the same document goes on: its last part grows below
        else:
            known.append((start, start, line))
        if previous_start >= 0:
            _close(parts[previous_docid], start)
        previous_start, previous_docid = start, docid
        count += 1
    if previous_start < 0:
        return None  # no header: the parser says what the file is
    _close(parts[previous_docid], len(data))
    return DocumentParts(path, encoding, parts, count)


def _close(parts: list[Part], end: int) -> None:
    start, _, line = parts[-1]
    parts[-1] = (start, end, line)


def runs(parts: Sequence[Part]) -> list[Part]:
    """Parts in file order, those that touch joined into one."""
    out: list[Part] = []
    for start, end, line in sorted(parts):
        if out and out[-1][1] == start:
            out[-1] = (out[-1][0], end, out[-1][2])
        else:
            out.append((start, end, line))
    return out


def read_parts(path: str, encoding: str, parts: Sequence[Part], role: str) -> TemplateSet:
    """The template set of these parts of a file (:func:`runs` of whole documents).

    The instances, their lines and columns are those of the whole file; the
    checks of the parser apply to the parts together (a duplicate header in
    two parts is an error).

    Raises:
        InputError: as :func:`~hub4eval.io.templettes.parse_templates`.
        UnicodeDecodeError: a part is not valid in ``encoding``.
    """
    if not parts:
        return TemplateSet((), role=role, path=path)  # type: ignore[arg-type]
    sets = []
    with open(path, "rb") as handle:
        for start, end, line in parts:
            handle.seek(start)
            text = handle.read(end - start).decode(encoding)
            sets.append(
                parse_templates(text, path, role, first_line=line, check_pointers=len(parts) == 1)  # type: ignore[arg-type]
            )
    if len(sets) == 1:
        return sets[0]
    instances = tuple(inst for tset in sets for inst in tset.instances)
    _check_headers(instances, path)
    check_pointers(instances, path)
    return TemplateSet(
        _group(instances),
        role=role,  # type: ignore[arg-type]
        path=path,
        warnings=tuple(w for tset in sets for w in tset.warnings),
    )
