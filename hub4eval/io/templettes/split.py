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
import itertools
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hub4eval.io.templettes.reader import _check_headers, _check_pointers, _group, parse_with_pointers
from hub4eval.model import PointerFill, TemplateSet

# A header line: <TYPE-DOCID-N> := at the start of a line (blanks before it allowed).
# Group 1 is the DOCID, between the first and the last hyphen of the name, when the
# name has two hyphens and digits after the last; else the group is None.
_NAME = rb"<(?:[^<>\s-]*-([^<>\s]*)-[0-9]+|[^<>\s]+)>[ \t]*:="
# The headers after the first line: from the line end before them, a literal the
# regular expression engine finds fast (``^`` in MULTILINE mode is tried at every byte).
_HEADER = re.compile(rb"\n[ \t]*" + _NAME)
# The same without blanks before them, as files are written: twice as quick to find
# (a two-byte literal).  They are all the headers when they hold all the ":=" of the file.
_UNINDENTED_HEADER = re.compile(rb"\n" + _NAME)
# A header on the first line.
_FIRST_HEADER = re.compile(rb"[ \t]*" + _NAME)
_DOCID = operator.itemgetter(1)  # of a match of a header
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
    counts: dict[str, int]  # DOCID -> its headers found


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
    # The main process cuts the files before any worker starts: this is written as a few
    # passes of C loops (the regular expression, list building, comparisons) over the
    # headers, a Python step only per run of one document's headers.
    first = _FIRST_HEADER.match(data) if begin == 0 else None  # as ``^``, not at the end of a byte order mark
    matches = list(_UNINDENTED_HEADER.finditer(data, begin))
    if len(matches) + (first is not None) != data.count(b":="):  # maybe an indented header
        matches = list(_HEADER.finditer(data, begin))
    starts = [start + 1 for start in map(re.Match.start, matches)]  # after the line end
    if first is not None:
        matches.insert(0, first)
        starts.insert(0, 0)
    if not matches:
        return None  # no header: the parser says what the file is
    docids = list(map(_DOCID, matches))
    if None in docids:
        return None  # a header whose DOCID cannot be read
    if _PREAMBLE.fullmatch(data, begin, starts[0]) is None:
        return None  # something the parser must judge comes before the first header
    # the first header of each run of headers of one document
    firsts = [0, *itertools.compress(range(1, len(docids)), map(operator.ne, docids[1:], docids))]
    parts: dict[str, list[Part]] = {}
    counts: dict[str, int] = {}
    line = 1
    previous = begin
    ends = [starts[k] for k in firsts[1:]] + [len(data)]
    for k, end, next_k in zip(firsts, ends, [*firsts[1:], len(matches)], strict=True):
        start = starts[k]
        line += data.count(b"\n", previous, start)
        previous = start
        try:
            docid = docids[k].decode(encoding)
        except UnicodeDecodeError:
            return None
        known = parts.get(docid)
        if known is None:
            parts[docid] = [(start, end, line)]
            counts[docid] = next_k - k
        else:
            known.append((start, end, line))
            counts[docid] += next_k - k
    return DocumentParts(path, encoding, parts, len(matches), counts)


def runs(parts: Sequence[Part]) -> list[Part]:
    """Parts in file order, those that touch joined into one."""
    out: list[Part] = []
    for start, end, line in sorted(parts):
        if out and out[-1][1] == start:
            out[-1] = (out[-1][0], end, out[-1][2])
        else:
            out.append((start, end, line))
    return out


def read_parts(
    path: str, encoding: str, parts: Sequence[Part], role: str, pointers: list[PointerFill] | None = None
) -> TemplateSet:
    """The template set of these parts of a file (:func:`runs` of whole documents).

    The instances, their lines and columns are those of the whole file; the
    checks of the parser apply to the parts together (a duplicate header in
    two parts is an error).  ``pointers``, when given, receives the pointer
    fills of the parts in file order (the objects the instances hold).

    Raises:
        InputError: as :func:`~hub4eval.io.templettes.parse_templates`.
        UnicodeDecodeError: a part is not valid in ``encoding``.
    """
    if not parts:
        return TemplateSet((), role=role, path=path)  # type: ignore[arg-type]
    sets = []
    held: list[PointerFill] = []  # the pointer fills of the parts, in file order
    with open(path, "rb") as handle:
        for start, end, line in parts:
            handle.seek(start)
            text = handle.read(end - start).decode(encoding)
            tset, part_pointers = parse_with_pointers(
                text,
                path,
                role,  # type: ignore[arg-type]
                first_line=line,
                check_pointers=len(parts) == 1,
            )
            sets.append(tset)
            held += part_pointers
    if pointers is not None:
        pointers += held
    if len(sets) == 1:
        return sets[0]
    instances = tuple(inst for tset in sets for inst in tset.instances)
    # the checks of the parser on the parts together, on their instances and pointers in file order
    in_file_order = tuple(sorted(instances, key=operator.attrgetter("line")))
    _check_pointers(in_file_order, held, path, _check_headers(in_file_order, path))
    return TemplateSet(
        _group(instances),
        role=role,  # type: ignore[arg-type]
        path=path,
        warnings=tuple(w for tset in sets for w in tset.warnings),
    )
