"""Checks shared by both readers of a templette file: pointers, extents, brackets, headers.

Each check raises an :class:`~hub4eval.errors.InputError` positioned at the
offending character; :class:`Checks` also builds the model's fills, slots
and instances from the pieces a reader has cut out of a line.
"""

from __future__ import annotations

import re

from hub4eval.errors import InputError, InputWarning
from hub4eval.io.templettes.messages import quoted
from hub4eval.model import (
    Extent,
    Instance,
    PointerFill,
    Role,
    Slot,
    TextFill,
)

# <TYPE-DOCID-N>: TYPE up to the first hyphen, N (digits) after the last one.
POINTER_RE = re.compile(r"<([^\s<>-]+)-(\S+)-([0-9]+)>")
POINTER_HINT = "a pointer is <TYPE-DOCID-N>: a type, a document id and a number joined by hyphens"
SLOT_NAME_RE = re.compile(r"[A-Za-z0-9_-]+")
NUMBER_RE = re.compile(r"-?[0-9]+")
SIMPLE_EXTENT_RE = re.compile(r"##([0-9]{1,18})#([0-9]{1,18})#?[ \t\f]*")  # the usual extent part ##a#b#
MAX_DIGITS = 18  # longer numbers are no offsets; and int() refuses 4,300 digits


# whole_span's memo, by length (the usual reading looks it up inline)
WHOLE_SPANS: dict[int, tuple[tuple[int, int], ...]] = {}

OFFSETS = tuple(range(10_000))
"""The int objects of the offsets below 10,000 of the extents that are made by the ten thousand
(the usual reading's, the projection's): a segmented file's offsets count from its document's
start and repeat, and two ints less a fill are 64 bytes, a tenth of what a fill's records take
(Python keeps one object per int up to 256 only)."""


def whole_span(length: int) -> tuple[tuple[int, int], ...]:
    """``((0, length),)``, the minimal span of a fill without brackets, one tuple per length."""
    spans = WHOLE_SPANS.get(length)
    if spans is None:
        spans = WHOLE_SPANS[length] = ((0, length),)
    return spans


def skip_blanks(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\f":
        position += 1
    return position


def parse_pointer(value: str, path: str, line: int, column: int) -> tuple[str, str, int]:
    """Split ``<TYPE-DOCID-N>`` into its parts or raise a positioned error."""
    value = value.strip()
    match = POINTER_RE.fullmatch(value)
    if match is None:
        raise InputError(f"malformed pointer {value}", path, line, column, hint=POINTER_HINT)
    if len(match.group(3)) > MAX_DIGITS:
        raise InputError(
            f"one-up number has {len(match.group(3))} digits; at most {MAX_DIGITS}",
            path,
            line,
            column,
            hint=POINTER_HINT,
        )
    if "." in match.group(1):
        raise InputError(
            f"type name {match.group(1)!r} of {value} contains '.'",
            path,
            line,
            column,
            hint="a type name has no '.': the outputs name a slot TYPE.SLOT, split at the dot; "
            "write the type with letters, digits and '_'",
        )
    return match.group(1), match.group(2), int(match.group(3))


class Checks:
    """What both builders share: per-file state, and building and checking
    the pieces of a line once they have been cut out (a fill's content, its
    extent part, a header) with their line and column.

    Checks raise :class:`InputError`; when Lark wraps one in VisitError,
    :func:`_parse` unwraps it.
    """

    def __init__(self) -> None:
        self.reset("<string>", "reference")

    def reset(self, path: str, role: Role) -> None:
        """Start a new file."""
        self.path = path
        self.role = role
        self.hypothesis = role == "hypothesis"
        self.warnings: list[InputWarning] = []
        self.pointers: list[PointerFill] = []  # every pointer fill, in file order

    def _pointer_fill(self, pointer: str, line: int, column: int) -> PointerFill:
        """The pointer fill ``<TYPE-DOCID-N>`` at ``line``:``column``, checked and recorded."""
        fill = PointerFill(*parse_pointer(pointer, self.path, line, column), line, column)
        self.pointers.append(fill)
        return fill

    def _error(self, message: str, line: int, column: int, hint: str) -> InputError:
        return InputError(message, self.path, line, column, hint=hint)

    def _warn(self, message: str, line: int | None, column: int | None) -> None:
        self.warnings.append(InputWarning(message, self.path, line, column))

    def _instance(self, pointer: str, slots: list[Slot], line: int, column: int) -> Instance:
        """An instance from its header's pointer text and its slots."""
        type_, docid, number = parse_pointer(pointer, self.path, line, column)
        if len(slots) > 1:
            seen: dict[str, Slot] = {}
            for slot in slots:
                first = seen.get(slot.name)
                if first is not None:
                    raise InputError(
                        f"duplicate slot {slot.name} in instance {pointer.strip()}",
                        self.path,
                        slot.line,
                        slot.column,
                        hint=f"the slot is already on line {first.line}; put every fill of a slot under one name",
                    )
                seen[slot.name] = slot
        return Instance(type_, docid, number, tuple(slots), line, column)

    def _optional(self, name: str, line: int, column: int) -> bool:
        """A '?' before the first fill: optional in a reference, a warning in a hypothesis."""
        if self.hypothesis:
            self._warn(
                f"'?' (optional slot) means nothing in a hypothesis; ignored for {name}",
                line,
                column,
            )
            return False
        return True

    def _no_alternatives(self, name: str, line: int, column: int) -> None:
        """A '/' at ``line``:``column``: an error in a hypothesis slot."""
        if self.hypothesis:
            raise self._error(
                f"'/' (a second fill-alternative) in hypothesis slot {name}",
                line,
                column,
                "a hypothesis slot has exactly one fill-alternative; list its fills one per line without '/'",
            )

    # -- single fills

    def _extent_numbers(self, part: str, line: int, column: int) -> list[tuple[str, int]]:
        """The integers of an extent part ``##a#b#...`` at ``column``, each with its column."""
        body = part[2:]
        end = len(body.rstrip())
        base = column + 2
        hint = "an extent part is '##' then integers each followed by '#', e.g. ##10#20#"
        numbers: list[tuple[str, int]] = []
        position = skip_blanks(body, 0)
        while True:
            match = NUMBER_RE.match(body, position)
            if match is None:
                rest = body[position:end].strip()
                what = "end of the line" if not rest else f"fill {quoted(rest)}"
                wanted = "an integer offset" + (" or the end of the line" if numbers else "")
                raise self._error(f"unexpected {what}; expected {wanted}", line, base + position, hint)
            if len(match.group(0).lstrip("-")) > MAX_DIGITS:
                raise self._error(
                    f"extent offset has {len(match.group(0).lstrip('-'))} digits; at most {MAX_DIGITS}",
                    line,
                    base + match.start(),
                    "offsets count characters of a document",
                )
            numbers.append((match.group(0), base + match.start()))
            position = skip_blanks(body, match.end())
            if position >= end:
                return numbers
            if body[position] != "#":
                rest = body[position:end].strip()
                raise self._error(
                    f"unexpected fill {quoted(rest)}; expected '#' or the end of the line",
                    line,
                    base + position,
                    hint,
                )
            position = skip_blanks(body, position + 1)
            if position >= end:
                return numbers

    def _extents(self, part: str, line: int, column: int) -> tuple[Extent, ...]:
        """The checked extents of an extent part ``##a#b#...`` at ``column``."""
        simple = SIMPLE_EXTENT_RE.fullmatch(part)
        if simple is not None:  # the usual ##a#b#: no need to go number by number
            start, end = map(int, simple.groups())
            if start <= end:
                return (Extent(start, end),)
        numbers = self._extent_numbers(part, line, column)
        for text, where in numbers:
            if text.startswith("-"):
                raise self._error(
                    f"negative extent offset {text}",
                    line,
                    where,
                    "offsets count characters from 0 at the document's '<'",
                )
        if len(numbers) % 2:
            raise self._error(
                f"odd number of extent offsets ({len(numbers)})",
                line,
                column,
                "extents come in pairs: ##start#end# (more pairs for minimal extents)",
            )
        extents: list[Extent] = []
        for (first, where), (second, _) in zip(numbers[::2], numbers[1::2], strict=False):
            start, end = int(first), int(second)
            if start > end:
                raise self._error(
                    f"reversed extent {start}..{end} (start after end)",
                    line,
                    where,
                    "write the start offset first: ##start#end#",
                )
            extents.append(Extent(start, end))
        return tuple(extents)

    def _text_fill(
        self,
        raw: str,
        quoted: bool,
        line: int,
        column: int,
        extents: tuple[Extent, ...],
        extent_column: int,
    ) -> TextFill:
        """A text fill: ``raw`` content as written (brackets included), at
        ``line``:``column`` (its quote, if quoted); ``extents`` from the extent
        part at ``extent_column`` of the same line."""
        if self.hypothesis:
            if len(extents) > 1:
                self._warn(
                    f"hypothesis fill has {len(extents)} extents; only the first is used",
                    line,
                    extent_column,
                )
                extents = extents[:1]
            return TextFill(
                raw,
                whole_span(len(raw)),
                extents,
                extents,
                quoted=quoted,
                line=line,
                column=column,
            )
        if "[" not in raw and "]" not in raw:
            if len(extents) > 1:
                raise self._error(
                    f"reference fill without [minimal] brackets has {len(extents)} extents; expected 1",
                    line,
                    extent_column,
                    "mark the minimal strings with [...] or keep only the maximal extent",
                )
            return TextFill(
                raw,
                whole_span(len(raw)),
                extents,
                extents,
                quoted=quoted,
                line=line,
                column=column,
            )
        content, spans = self._minimal_spans(raw, line, column + 1 if quoted else column)
        minimal: tuple[Extent, ...]
        if not extents:
            minimal = ()
        elif len(extents) == 1:
            start = extents[0].start
            minimal = tuple(Extent(start + a, start + b) for a, b in spans)
        elif len(extents) == 1 + len(spans):
            minimal = extents[1:]
        else:
            groups = len(spans)
            raise self._error(
                f"reference fill with {groups} bracket group{'s' if groups > 1 else ''} has {len(extents)} "
                f"extents; expected 1 or {1 + groups}",
                line,
                extent_column,
                "give the maximal extent only, or the maximal extent followed by one extent per [...] group",
            )
        return TextFill(
            content,
            spans,
            extents,
            minimal,
            bracketed=True,
            quoted=quoted,
            line=line,
            column=column,
        )

    def _minimal_spans(self, raw: str, line: int, column: int) -> tuple[str, tuple[tuple[int, int], ...]]:
        """Remove reference ``[...]`` groups; return the maximal string and spans.

        ``column`` is the file column of ``raw[0]``; ``raw`` has a bracket.
        """
        pieces: list[str] = []
        spans: list[tuple[int, int]] = []
        length = 0
        open_at: int | None = None
        open_length = 0
        for index, char in enumerate(raw):
            where = {"line": line, "column": column + index}
            if char == "[":
                if open_at is not None:
                    raise InputError(
                        "nested '[' in reference content",
                        self.path,
                        hint=f"close the group opened at column {column + open_at} first; minimal strings do not nest",
                        **where,
                    )
                open_at, open_length = index, length
            elif char == "]":
                if open_at is None:
                    raise InputError(
                        "']' without a matching '[' in reference content",
                        self.path,
                        hint="mark each minimal string as [text]",
                        **where,
                    )
                if length == open_length:
                    raise InputError(
                        "empty minimal string '[]' in reference content",
                        self.path,
                        hint="put the minimal string between the brackets, or remove them",
                        **where,
                    )
                spans.append((open_length, length))
                open_at = None
            else:
                pieces.append(char)
                length += 1
        if open_at is not None:
            raise InputError(
                "'[' without a matching ']' in reference content",
                self.path,
                line,
                column + open_at,
                hint="close the minimal string with ']'",
            )
        return "".join(pieces), tuple(spans)
