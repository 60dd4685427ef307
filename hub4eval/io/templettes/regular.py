"""The regular templette file, read a column at a time: no Python step per line.

Most large files are regular: each instance is a header line ``<TYPE-DOCID-N> :=``
at the start of its line, then one line per slot, ``NAME: "text" ##a#b#`` (a
reference may mark a slot ``NAME: ? "text" ##a#b#``), indented with spaces, then
blank or comment lines; blank or comment lines may come before the first header
too. Every slot has one fill, quoted, with one extent; there are no pointers,
no brackets in a reference, no carriage returns. Such a file is one of the usual
files :meth:`~hub4eval.io.templettes.builders.InstanceBuilder.usual_instances`
reads a line at a time, and :func:`read_regular` makes the same records from
it (tests/io/test_templette_regular.py compares the two): a regular expression
cuts the file into instances (TYPE, DOCID, N, the slot lines, the blank lines
after them), ``str.split`` cuts the slot lines into heads, contents and offsets,
and the records are made by ``map`` over those columns, C loops that take a
fraction of the time of one Python step per line.

Anything else (or a regular file the line reading would refuse: a reversed
extent, a slot twice in an instance) gives None, and the line reading reads
the file as before.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from itertools import repeat
from typing import TYPE_CHECKING

from hub4eval.io.templettes.checks import OFFSETS, WHOLE_SPANS, whole_span
from hub4eval.model import Extent, FillAlternative, Instance, Slot, TextFill
from hub4eval.util.records import Record

if TYPE_CHECKING:
    from hub4eval.model import Role

# One instance of a regular file, from its header's '<' to the next header's: TYPE,
# DOCID and N (split as builders._USUAL_POINTER splits them), its slot lines, then its
# blank and comment lines. Possessive: each line is of one kind, nothing to try again.
_SLOT_LINE = r' *[A-Za-z0-9_-]+: {mark}"{content}*" ##[0-9]{{1,18}}#[0-9]{{1,18}}#\n'
_BLANK_LINES = r"(?:[ \t]*(?:;[^\r\n]*)?\n)*+"
_INSTANCE = r"<([^\s<>.-]+)-([^\s<>]+)-([0-9]{{1,18}})> :=\n((?:" + _SLOT_LINE + r")*+)(" + _BLANK_LINES + ")"
_INSTANCE_RE = {
    "reference": re.compile(_INSTANCE.format(mark=r"(?:\? )?", content=r'[^"\[\]\r\n]')),
    "hypothesis": re.compile(_INSTANCE.format(mark="", content=r'[^"\r\n]')),
}
_PREAMBLE_RE = re.compile(_BLANK_LINES)  # the blank and comment lines before the first header
# a slot line's head and the blank after its content (after the line end before it, but the first's)
_HEAD_RE = re.compile(r"(\n?)( *)([A-Za-z0-9_-]+): (\? )? ")
_HEADER_CHARACTERS = len("<--> :=\n")  # of a header line, besides its TYPE, DOCID and N
# int objects of the small offsets: dict.get(n, n) is OFFSETS[n] below their number, else n
_SHARED_OFFSETS = dict(zip(OFFSETS, OFFSETS, strict=True))
_SMALL_DIGITS = len(str(len(OFFSETS)))  # fewer digits: a number below len(OFFSETS)
_CHUNK = 1 << 16  # characters of a file read at a time (see read_regular)


class RegularFile(Record, frozen=True):
    """What :func:`read_regular` read: the instances, and what the line reading also leaves
    on its builder (see ``InstanceBuilder.reset``): whether each DOCID's headers are one run
    numbered upwards; where each DOCID's instances were one run, the index of each run's
    first instance and of its first text fill (each list ends with their number), and the
    text fills in file order; in a hypothesis, the bounds of each run's extents."""

    instances: list[Instance]
    headers_ordered: bool
    run_starts: list[int] | None
    text_fills: list[TextFill]
    fill_starts: list[int] | None
    fill_bounds: list[tuple[int, int] | None] | None
    # the text fills' contents and the start and end of their extents, in file order
    columns: tuple[list[str], list[int], list[int]]


def read_regular(text: str, role: Role, names: dict[str, str], first_line: int = 1) -> RegularFile | None:
    """The records of ``text``, which starts on file line ``first_line`` and ends with a
    line end, if it is a regular file (see the module), else None.

    ``names`` keeps one string object per slot name, TYPE and DOCID (the builder's memo).
    """
    preamble = _PREAMBLE_RE.match(text)
    assert preamble is not None  # (it matches the empty string)
    position = preamble.end()
    line = first_line + text.count("\n", 0, position)
    size = len(text)
    if position == size:
        return None  # no instance
    pattern = _INSTANCE_RE[role]
    heads: dict[str, tuple[str, bool, int, int]] = {}
    instances: list[Instance] = []
    docids: list[str] = []
    per_instance: list[int] = []
    fills: list[TextFill] = []
    contents: list[str] = []
    firsts: list[int] = []
    lasts: list[int] = []
    while position < size:
        # About _CHUNK characters of whole instances at a time: the columns of a chunk are
        # freed before the next one's are made, in the same memory (all the file's at once
        # took more memory than its records, and as long again to make).
        stop = text.find("\n<", position + _CHUNK) + 1 or size
        chunk = _chunk(text, position, stop, pattern, line, names, heads)
        if chunk is None:
            return None
        line = chunk.end_line
        instances += chunk.instances
        docids += chunk.docids
        per_instance += chunk.per_instance
        fills += chunk.fills
        contents += chunk.contents
        firsts += chunk.firsts
        lasts += chunk.lasts
        position = stop
    return _with_runs(instances, docids, per_instance, fills, (contents, firsts, lasts), role)


class _Chunk(Record, frozen=True):
    """The records of a chunk of whole instances and the columns :func:`_with_runs` reads."""

    instances: list[Instance]
    docids: tuple[str, ...]
    per_instance: list[int]  # slots of each instance
    fills: list[TextFill]
    contents: list[str]
    firsts: list[int]  # the offsets of each fill's extent
    lasts: list[int]
    end_line: int  # the line after the chunk


def _chunk(
    text: str,
    position: int,
    stop: int,
    pattern: re.Pattern[str],
    line: int,
    names: dict[str, str],
    heads: dict[str, tuple[str, bool, int, int]],
) -> _Chunk | None:
    """The records of ``text[position:stop]``, whole instances starting on ``line``, if they are
    regular; ``heads`` keeps the parts of each slot line's head (:func:`_head`)."""
    found = pattern.findall(text, position, stop)
    if not found:
        return None
    types, docids, numbers, bodies, blanks = zip(*found, strict=True)
    # The matches never overlap: they are the whole chunk iff their lengths add up to
    # its length (else some text between them is no instance).
    length = _HEADER_CHARACTERS * len(found) + sum(map(len, itertools.chain(types, docids, numbers, bodies, blanks)))
    if length != stop - position:
        return None
    slot_lines = "".join(bodies)
    # Each slot line is HEAD"CONTENT" ##A#B# and a line end; neither HEAD nor the extent
    # part has a '"' or a '#', nor CONTENT a '"': split at '"', the text outside quotes,
    # joined, is HEAD ##A#B# and a line end, then the next line's HEAD; split at '#', each
    # line is four pieces: HEAD and a blank (after the line end before it, but the first's),
    # '', A and B.
    quoted = slot_lines.split('"')
    contents = quoted[1::2]
    pieces = "".join(quoted[0::2]).split("#")
    count = len(contents)
    if not count or len(pieces) != 4 * count + 1:  # (no slot line; the second cannot be, but is cheap to know)
        return None
    firsts, lasts = _numbers(pieces[2::4]), _numbers(pieces[3::4])
    if any(map(operator.gt, firsts, lasts)):
        return None  # a reversed extent: the grammar reports it
    slot_heads = pieces[0:-1:4]
    for head in set(slot_heads).difference(heads):
        heads[head] = _head(head, names)
    slot_names, optional, slot_columns, fill_columns = zip(*map(heads.__getitem__, slot_heads), strict=True)
    # the lines: each instance's header, then its slot lines, then its blank lines
    per_instance = list(map(str.count, bodies, repeat("\n")))
    # (the header of instance i is on the line after i header lines and the slot and blank lines before it)
    header_lines = list(
        map(
            operator.add,
            itertools.accumulate(map(operator.add, per_instance, map(str.count, blanks, repeat("\n"))), initial=line),
            itertools.count(),
        )
    )
    end_line = header_lines.pop()
    first_lines = list(map((1).__add__, header_lines))
    lines = list(itertools.chain.from_iterable(map(range, first_lines, map(operator.add, first_lines, per_instance))))
    slot_starts = list(itertools.accumulate(per_instance, initial=0))
    slices = list(map(slice, slot_starts, slot_starts[1:]))
    for group in set(map(slot_names.__getitem__, slices)):  # the instances' lists of slot names
        if len(set(group)) != len(group):
            return None  # a slot twice in an instance: the grammar reports it
    lengths = list(map(len, contents))
    for size in set(lengths).difference(WHOLE_SPANS):
        whole_span(size)  # WHOLE_SPANS has it
    extents = list(zip(map(Extent, firsts, lasts)))
    fills = list(
        map(
            TextFill,
            contents,
            map(WHOLE_SPANS.__getitem__, lengths),
            extents,
            extents,
            repeat(False),
            repeat(True),
            lines,
            fill_columns,
        )
    )
    slots = tuple(map(Slot, slot_names, zip(map(FillAlternative, zip(fills), lines)), optional, lines, slot_columns))
    intern = names.setdefault
    docids = tuple(map(intern, docids, docids))
    instances = list(
        map(
            Instance,
            map(intern, types, types),
            docids,
            map(int, numbers),
            map(slots.__getitem__, slices),
            header_lines,
            repeat(1),
        )
    )
    return _Chunk(instances, docids, per_instance, fills, contents, firsts, lasts, end_line)


def _numbers(digits: list[str]) -> list[int]:
    """The numbers ``digits`` spell, with one int object per number below len(OFFSETS) (see OFFSETS).

    Offsets of a segmented file are mostly below it: their ints are looked up, five times
    quicker than int() makes them.
    """
    if max(map(len, digits)) < _SMALL_DIGITS:
        try:
            return list(map(_small_numbers().__getitem__, digits))
        except KeyError:  # a leading zero
            pass
    shared = _SHARED_OFFSETS.get
    numbers = list(map(int, digits))
    return list(map(shared, numbers, numbers))


@functools.cache
def _small_numbers() -> dict[str, int]:
    """The OFFSETS by their digits."""
    return dict(zip(map(str, OFFSETS), OFFSETS, strict=True))


def _head(head: str, names: dict[str, str]) -> tuple[str, bool, int, int]:
    """The slot name of a slot line's head (after the line end before it, but the first), whether
    '?' marks it, and the columns of the name and of the fill."""
    match = _HEAD_RE.fullmatch(head)
    assert match is not None
    line_end, indent, name, mark = match.groups()
    return names.setdefault(name, name), mark is not None, len(indent) + 1, len(head) - len(line_end)


def _with_runs(
    instances: list[Instance],
    docids: list[str],
    per_instance: list[int],
    fills: list[TextFill],
    columns: tuple[list[str], list[int], list[int]],
    role: Role,
) -> RegularFile:
    """The file's records and its runs of instances of one DOCID, as the line reading finds them."""
    count = len(instances)
    # the first instance of each run of one DOCID's instances
    starts = [0, *itertools.compress(range(1, count), map(operator.ne, docids[1:], docids))]
    if len({docids[start] for start in starts}) != len(starts):  # a DOCID in two runs
        return RegularFile(instances, False, None, fills, None, None, columns)
    numbers = list(map(operator.attrgetter("number"), instances))
    ordered = all(
        all(map(operator.lt, numbers[start : end - 1], numbers[start + 1 : end]))
        for start, end in zip(starts, [*starts[1:], count], strict=True)
    )
    slot_starts = list(itertools.accumulate(per_instance, initial=0))
    fill_starts = [slot_starts[start] for start in starts]
    fill_starts.append(len(fills))
    bounds: list[tuple[int, int] | None] | None = None
    if role == "hypothesis":
        _, firsts, lasts = columns
        bounds = [
            (min(firsts[first:last]), max(lasts[first:last])) if first < last else None
            for first, last in zip(fill_starts, fill_starts[1:], strict=False)
        ]
    starts.append(count)
    return RegularFile(instances, ordered, starts, fills, fill_starts, bounds, columns)
