"""Reading and writing templette files (spec §2).

This module owns the templette syntax.  Parsing is done by Lark with the
grammar ``grammars/templette.lark`` (LALR, contextual lexer); a Transformer
running inside the parser builds the frozen dataclasses of
:mod:`hub4eval.model` directly, so no Lark object leaves this module.  The
checks a context-free grammar cannot express are made here too, each raising
an :class:`~hub4eval.errors.InputError` positioned at the offending
character: malformed pointers, bad extents, reference ``[...]`` brackets and
their extent counts, ``/`` in a hypothesis, duplicate headers and slots, and
pointers to instances that do not exist.

For speed, every file is read with the grammar's instance-level rules (one
token per instance: its header line and every line under it, which
:class:`_InstanceBuilder` cuts into slots, fills and their pieces with regular
expressions).  Only a file that fails is read again with the token-level
rules of the same language, which find the offending piece and say what was
expected there (:class:`_TokenBuilder`, :func:`_syntax_error`).

Decisions the specification leaves open:

* ``SLOT:`` with nothing after it is a slot with zero fill-alternatives when
  the next line is another slot, a header or the end of the file.  When the
  next line is a fill, that fill is the slot's first fill.
* A reference fill without brackets takes at most one extent (``1 + k`` with
  ``k = 0`` groups).  An empty ``[]`` group is an error.
* ``?`` in a hypothesis is ignored, with a warning.
* A leading byte-order mark is dropped.
"""

from __future__ import annotations

import codecs
import difflib
import functools
import gc
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from hub4eval.errors import InputError, InputWarning
from hub4eval.model import (
    Extent,
    Fill,
    FillAlternative,
    Instance,
    InstanceSet,
    PointerFill,
    Role,
    Slot,
    TemplateSet,
    TextFill,
)
from hub4eval.util.resources import data_path

__all__ = ["parse_templates", "read_templates", "write_templates"]

_ROLES = ("reference", "hypothesis")

# <TYPE-DOCID-N>: TYPE up to the first hyphen, N (digits) after the last one.
_POINTER_RE = re.compile(r"<([^\s<>-]+)-(\S+)-([0-9]+)>")
_POINTER_HINT = "a pointer is <TYPE-DOCID-N>: a type, a document id and a number joined by hyphens"
_SLOT_NAME_RE = re.compile(r"[A-Za-z0-9_-]+")
_NUMBER_RE = re.compile(r"-?[0-9]+")
_MAX_DIGITS = 18  # longer numbers are no offsets; and int() refuses 4,300 digits


_WHOLE_SPANS: dict[int, tuple[tuple[int, int], ...]] = {}


def _whole_span(length: int) -> tuple[tuple[int, int], ...]:
    """``((0, length),)``, the minimal span of a fill without brackets, one tuple per length."""
    spans = _WHOLE_SPANS.get(length)
    if spans is None:
        spans = _WHOLE_SPANS[length] = ((0, length),)
    return spans


def _skip_blanks(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\f":
        position += 1
    return position


@functools.cache
def _parser(start: str) -> tuple[Lark, _InstanceBuilder | _TokenBuilder]:
    """The templette parser for grammar rule ``start`` and its Transformer,
    built once per process.

    ``"start"`` is the instance-level grammar every file goes through;
    ``"tokens"`` the token-level one that explains a rejected file (see
    ``grammars/templette.lark``).  The Transformer runs inside the LALR parser
    (no parse tree is built) and positions come from the tokens.  The
    builder's per-file state is reset before each parse (not thread-safe).
    """
    grammar = data_path("grammars", "templette.lark").read_text(encoding="utf-8")
    builder = _InstanceBuilder() if start == "start" else _TokenBuilder()
    return Lark(grammar, start=start, parser="lalr", lexer="contextual", transformer=builder), builder


# --------------------------------------------------------------------- reading


def read_templates(path: str | Path, role: Role = "reference", encoding: str = "utf-8") -> TemplateSet:
    """Read and parse a templette file.

    Args:
        path: the file to read.
        role: ``"reference"`` or ``"hypothesis"``; decides how brackets,
            ``/`` and extra extents are treated (§2).
        encoding: the text encoding of the file.

    Returns:
        The parsed template set; problems that still allow scoring are in
        its ``warnings``.

    Raises:
        InputError: the file is missing, unreadable, not valid in
            ``encoding``, or not a valid templette file.
    """
    name = str(path)
    text = read_text(name, encoding)
    return parse_templates(text, name, role)


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
            f"unknown text encoding {encoding!r}", path, hint="use a Python codec name such as utf-8 or latin-1"
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


def parse_templates(text: str, path: str = "<string>", role: Role = "reference") -> TemplateSet:
    """Parse the text of a templette file.

    Args:
        text: the file's content.
        path: the file name used in messages.
        role: ``"reference"`` or ``"hypothesis"`` (§2): in a reference,
            ``[...]`` marks minimal strings and ``/`` starts an alternative; in
            a hypothesis brackets are literal, ``/`` is an error and only the
            first extent of a fill is kept.

    Returns:
        The template set: instances grouped by the DOCID of their headers, in
        order of first appearance, with warnings attached.

    Raises:
        InputError: a syntax error or an invalid construct, positioned at
            the offending character with a hint.
        ValueError: ``role`` is neither "reference" nor "hypothesis".
    """
    if role not in _ROLES:
        raise ValueError(f"role must be 'reference' or 'hypothesis', not {role!r}")
    if text.startswith("\ufeff"):
        text = text[1:]
    # The grammar ends every line with a newline; a last line without one is fine.
    source = text if text.endswith("\n") else text + "\n"
    # Reading allocates objects for every line and frees almost none: the
    # cyclic garbage collector, triggered by the allocations, would only
    # rescan them again and again (a third of the time on a large file).
    collecting = gc.isenabled()
    gc.disable()
    try:
        instances, pointers, warnings = _parse(source, text, path, role)
        _check_headers(instances, path)
        _check_pointers(instances, pointers, path)
        if not instances:
            warnings.append(InputWarning("no instances in the file", path))
        return TemplateSet(instance_sets=_group(instances), role=role, path=path, warnings=tuple(warnings))
    finally:
        if collecting:
            gc.enable()


def _parse(
    source: str, text: str, path: str, role: Role
) -> tuple[tuple[Instance, ...], list[PointerFill], list[InputWarning]]:
    """The instances, pointer fills and warnings of a file, or the InputError
    of its first problem.

    The instance-level parser reads valid files.  When it stops (a syntax error or
    a failed check), the token-level parser reads the file again, from the
    start, to report the first problem piece by piece, with the same message
    whatever the instance-level parser saw.  (Checks across the whole file, such
    as duplicate headers, come after either parser.)
    """
    parser, builder = _parser("start")
    builder.reset(path, role)
    try:
        return parser.parse(source), builder.pointers, builder.warnings
    except (UnexpectedInput, InputError):
        pass
    except VisitError as error:
        if not isinstance(error.orig_exc, InputError):
            raise
    parser, builder = _parser("tokens")
    builder.reset(path, role)
    try:
        instances: tuple[Instance, ...] = parser.parse(source)
    except UnexpectedInput as error:
        raise _syntax_error(error, text, path) from None
    except VisitError as error:
        if isinstance(error.orig_exc, InputError):
            raise error.orig_exc from None
        raise
    # Only reached if the two grammars disagree: the token-level one decides.
    return instances, builder.pointers, builder.warnings


def _group(instances: Iterable[Instance]) -> tuple[InstanceSet, ...]:
    """Instance sets by DOCID, in order of each DOCID's first appearance."""
    by_docid: dict[str, list[Instance]] = {}
    for instance in instances:
        by_docid.setdefault(instance.docid, []).append(instance)
    return tuple(InstanceSet(docid, tuple(group)) for docid, group in by_docid.items())


def _check_headers(instances: tuple[Instance, ...], path: str) -> None:
    """No two instances may have the same header."""
    seen: dict[str, Instance] = {}
    for instance in instances:
        key = instance.key
        first = seen.get(key)
        if first is not None:
            raise InputError(
                f"duplicate instance header {key}",
                path,
                instance.line,
                instance.column,
                hint=f"the same header is already on line {first.line}; renumber one of them",
            )
        seen[key] = instance


def _check_pointers(instances: tuple[Instance, ...], pointers: list[PointerFill], path: str) -> None:
    """Every pointer fill must name an instance of the same file.

    ``pointers`` are the file's pointer fills in file order, as the parser
    built them (cheaper than walking every fill of every instance again).
    """
    keys = {instance.key for instance in instances}
    for fill in pointers:
        if fill.key not in keys:
            close = difflib.get_close_matches(fill.key, sorted(keys), n=3)
            hint = f"did you mean {' or '.join(close)}?" if close else "add an instance with this header, or fix the pointer"
            raise InputError(
                f"pointer {fill.key} refers to no instance of this file", path, fill.line, fill.column, hint=hint
            )


# ---------------------------------------------------------- syntax errors

_WORDS = {
    "HEADER": "an instance header '<TYPE-DOCID-N> :='",
    "SLOT_NAME": "a slot name followed by ':'",
    "POINTER": "a pointer '<TYPE-DOCID-N>'",
    "QUOTED": "a quoted fill",
    "UNQUOTED": "a fill",
    "EXTENT": "an extent part '##a#b#'",
    "NUMBER": "an integer offset",
    "HASH": "'#'",
    "SLASH": "'/'",
    "OPTIONAL_MARK": "'?'",
    "_NL": "the end of the line",
    "$END": "the end of the file",
}
_FILL_TERMINALS = {"POINTER", "QUOTED", "UNQUOTED"}


def _describe(token: Token) -> str:
    """Plain words for a token the parser did not expect."""
    kind = token.type
    value = str(token).strip()
    if kind == "HEADER":
        return f"instance header {value}"
    if kind == "SLOT_NAME":
        return f"slot {value.rstrip(':').strip()!r}"
    if kind == "POINTER":
        return f"pointer {value}"
    if kind in ("QUOTED", "UNQUOTED"):
        return f"fill {value!r}"
    if kind == "NUMBER":
        return f"number {value}"
    if kind == "EXTENT":
        return "extent part '##'"
    if kind == "_NL":
        return "end of the line"
    return _WORDS.get(kind, repr(value))


def _expected_words(expected: Iterable[str]) -> str:
    order = list(_WORDS)
    names = sorted(set(expected) & set(order), key=order.index)
    if "QUOTED" in names and "UNQUOTED" in names:
        names.remove("QUOTED")
    words = [_WORDS[name] for name in names]
    if not words:
        return "nothing more"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _end_position(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank character of ``text``."""
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, column


def _syntax_error(error: UnexpectedInput, text: str, path: str) -> InputError:
    """Translate a Lark parse error into a positioned message in plain words."""
    if isinstance(error, UnexpectedCharacters):
        char = error.char
        line, column = error.line, error.column
        if char == '"':
            return InputError(
                "unterminated quoted fill", path, line, column, hint="end the content with '\"' on the same line"
            )
        what = "a tab" if char == "\t" else repr(char)
        return InputError(
            f"unexpected character {what}; expected {_expected_words(error.allowed)}",
            path,
            line,
            column,
            hint=_hint_for(error.allowed, None),
        )
    if isinstance(error, UnexpectedToken):
        token = error.token
        expected = set(error.expected)
        if token.type == "$END":
            line, column = _end_position(text)
            return InputError(
                f"unexpected end of the file; expected {_expected_words(expected)}",
                path,
                line,
                column,
                hint=_hint_for(expected, token),
            )
        line, column = token.line, token.column
        if token.type == "SLOT_NAME" and "SLOT_NAME" not in expected:
            return InputError(
                f"{_describe(token)} before any instance header",
                path,
                line,
                column,
                hint="start each instance with a header line such as <TYPE-DOCID-1> :=",
            )
        # At the start of a line where only a header or a slot may come: a fill
        # there has no slot (or no instance) to belong to.
        at_line_start = bool(expected & {"SLOT_NAME", "HEADER"}) and not expected & _FILL_TERMINALS
        if at_line_start and token.type in _FILL_TERMINALS | {"SLASH", "EXTENT"}:
            where = "any slot" if "SLOT_NAME" in expected else "any instance header"
            hint = "slot names are letters, digits, '_' and '-', followed by ':'"
            if token.type == "POINTER" and "HEADER" in expected:
                hint = "an instance header needs ':=' after the pointer; " + hint
            return InputError(f"{_describe(token)} before {where}", path, line, column, hint=hint)
        return InputError(
            f"unexpected {_describe(token)}; expected {_expected_words(expected)}",
            path,
            line,
            column,
            hint=_hint_for(expected, token),
        )
    line = getattr(error, "line", None)
    column = getattr(error, "column", None)
    return InputError("syntax error", path, line, column, hint="see the templette syntax in spec §2")


def _hint_for(expected: Iterable[str], token: Token | None) -> str:
    """A one-line hint for a generic syntax error."""
    expected = set(expected)
    if token is not None and token.type == "EXTENT":
        return "write the content before its extent part, e.g. \"text\" ##10#20#"
    if "NUMBER" in expected:
        return "an extent part is '##' then integers each followed by '#', e.g. ##10#20#"
    if expected & _FILL_TERMINALS:
        return "a fill is a pointer <TYPE-DOCID-N>, \"quoted text\" or plain text, optionally followed by ##a#b#"
    return "one header, slot or fill per line; see the templette syntax in spec §2"


# ---------------------------------------------------------------- building


def _parse_pointer(value: str, path: str, line: int, column: int) -> tuple[str, str, int]:
    """Split ``<TYPE-DOCID-N>`` into its parts or raise a positioned error."""
    value = value.strip()
    match = _POINTER_RE.fullmatch(value)
    if match is None:
        raise InputError(f"malformed pointer {value}", path, line, column, hint=_POINTER_HINT)
    if len(match.group(3)) > _MAX_DIGITS:
        raise InputError(
            f"one-up number has {len(match.group(3))} digits; at most {_MAX_DIGITS}",
            path, line, column, hint=_POINTER_HINT,
        )
    return match.group(1), match.group(2), int(match.group(3))


class _Checks(Transformer[Token, Any]):
    """What both Transformers share: per-file state, and building and checking
    the pieces of a line once they have been cut out (a fill's content, its
    extent part, a header) with their line and column.

    Checks raise :class:`InputError`; when Lark wraps one in VisitError,
    :func:`_parse` unwraps it.
    """

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
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
        fill = PointerFill(*_parse_pointer(pointer, self.path, line, column), line, column)
        self.pointers.append(fill)
        return fill

    def _error(self, message: str, line: int, column: int, hint: str) -> InputError:
        return InputError(message, self.path, line, column, hint=hint)

    def _warn(self, message: str, line: int | None, column: int | None) -> None:
        self.warnings.append(InputWarning(message, self.path, line, column))

    def _instance(self, pointer: str, slots: list[Slot], line: int, column: int) -> Instance:
        """An instance from its header's pointer text and its slots."""
        type_, docid, number = _parse_pointer(pointer, self.path, line, column)
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
            self._warn(f"'?' (optional slot) means nothing in a hypothesis; ignored for {name}", line, column)
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
        position = _skip_blanks(body, 0)
        while True:
            match = _NUMBER_RE.match(body, position)
            if match is None:
                rest = body[position:end].strip()
                what = "end of the line" if not rest else f"fill {rest!r}"
                wanted = "an integer offset" + (" or the end of the line" if numbers else "")
                raise self._error(f"unexpected {what}; expected {wanted}", line, base + position, hint)
            if len(match.group(0).lstrip("-")) > _MAX_DIGITS:
                raise self._error(
                    f"extent offset has {len(match.group(0).lstrip('-'))} digits; at most {_MAX_DIGITS}",
                    line,
                    base + match.start(),
                    "offsets count characters of a document",
                )
            numbers.append((match.group(0), base + match.start()))
            position = _skip_blanks(body, match.end())
            if position >= end:
                return numbers
            if body[position] != "#":
                rest = body[position:end].strip()
                raise self._error(
                    f"unexpected fill {rest!r}; expected '#' or the end of the line", line, base + position, hint
                )
            position = _skip_blanks(body, position + 1)
            if position >= end:
                return numbers

    def _extents(self, part: str, line: int, column: int) -> tuple[Extent, ...]:
        """The checked extents of an extent part ``##a#b#...`` at ``column``."""
        simple = _SIMPLE_EXTENT_RE.fullmatch(part)
        if simple is not None:  # the usual ##a#b#: no need to go number by number
            start, end = map(int, simple.groups())
            if start <= end:
                return (Extent(start, end),)
        numbers = self._extent_numbers(part, line, column)
        for text, where in numbers:
            if text.startswith("-"):
                raise self._error(
                    f"negative extent offset {text}", line, where, "offsets count characters from 0 at the document's '<'"
                )
        if len(numbers) % 2:
            raise self._error(
                f"odd number of extent offsets ({len(numbers)})",
                line,
                column,
                "extents come in pairs: ##start#end# (more pairs for minimal extents)",
            )
        extents: list[Extent] = []
        for (first, where), (second, _) in zip(numbers[::2], numbers[1::2]):
            start, end = int(first), int(second)
            if start > end:
                raise self._error(
                    f"reversed extent {start}..{end} (start after end)", line, where, "write the start offset first: ##start#end#"
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
                    f"hypothesis fill has {len(extents)} extents; only the first is used", line, extent_column
                )
                extents = extents[:1]
            return TextFill(raw, _whole_span(len(raw)), extents, extents, quoted=quoted, line=line, column=column)
        if "[" not in raw and "]" not in raw:
            if len(extents) > 1:
                raise self._error(
                    f"reference fill without [minimal] brackets has {len(extents)} extents; expected 1",
                    line,
                    extent_column,
                    "mark the minimal strings with [...] or keep only the maximal extent",
                )
            return TextFill(raw, _whole_span(len(raw)), extents, extents, quoted=quoted, line=line, column=column)
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
        return TextFill(content, spans, extents, minimal, bracketed=True, quoted=quoted, line=line, column=column)

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


# The lines of an instance token (grammars/templette.lark, INSTANCE LEVEL).
# The lexer has already checked every line: these expressions only cut them
# up.  Each matches one line from its first character of content through its
# line end (_EOL), so the next match starts where this one ends.  A fill is
# nine groups: a pointer | quoted content, then its extent part | plain
# content, then its extent part; an extent part that is just ##a#b# (the usual
# case) comes as its two numbers, any other as its text (three groups: a, b,
# text).
_EXTENT_PATTERN = r"(?:##([0-9]{1,18})#([0-9]{1,18})#?[ \t\f]*(?=\r?\n)|(##[^\r\n]*))?"
_FILL_PATTERN = (
    r"(<[^<>\r\n]*>)"
    r'|"([^\r\n]*)"(?![^\r\n]*")[ \t\f]*' + _EXTENT_PATTERN
    + r"|((?:[^\r\n#]|#(?!#))+)" + _EXTENT_PATTERN
)
_FILL_GROUPS = 9
_LINE_END_PATTERN = r"[ \t\f]*(?:\r?\n[ \t]*(?:;[^\r\n]*)?)+[ \t\f]*"
# pointer = group 1
_HEADER_LINE_RE = re.compile(r"(<[^<>\r\n]*>)[ \t]*:=" + _LINE_END_PATTERN)
# A slot line (name = group 1, '?' = group 2), a '/' line (group 3) or a fill
# line; the fill, if any, is group 4, its pieces groups 5-13.
_LINE_RE = re.compile(
    r"(?:([A-Za-z0-9_-]+)[ \t]*:[ \t\f]*(?:(\?)[ \t\f]*)?|(/)[ \t\f]*)?"
    r"((?:" + _FILL_PATTERN + "))?" + _LINE_END_PATTERN
)
# The line after a bare '/' is a fill, whatever it starts with; groups 1-9.
_FILL_AFTER_SLASH_RE = re.compile("(?:" + _FILL_PATTERN + ")" + _LINE_END_PATTERN)
# The usual line, read three times quicker: a slot name or none, then quoted
# content without an inner '"' and one extent ##a#b#, or a pointer; nothing
# else on the line, and no blank or comment line after it.  Groups as in
# _LINE_RE: name 1, '?' 2; then content 3, a 4, b 5 | pointer 6; the next
# line's indentation 7.  _LINE_RE cuts such a line into the same pieces.
_COMMON_LINE_RE = re.compile(
    r'(?:([A-Za-z0-9_-]+): (?:(\?) )?)?(?:"([^"\r\n]*)" ##([0-9]{1,18})#([0-9]{1,18})#|(<[^<>\r\n]*>))'
    r"\n( *)(?![ \t\f\r\n;])"
)
_SIMPLE_EXTENT_RE = re.compile(r"##([0-9]{1,18})#([0-9]{1,18})#?[ \t\f]*")
_REST_OF_LINE_RE = re.compile(r"[^\r\n]*")


class _InstanceBuilder(_Checks):
    """The Transformer of the instance-level grammar (rule ``start``).

    Each INSTANCE token is a header line and the slot, fill and '/' lines
    under it.  :meth:`instance` walks its lines with the regular expressions
    above, groups them into slots and fill-alternatives as the grammar's
    comment describes, and positions every piece: the line is the token's line
    plus the line ends before it, the column counts from the last line end.
    The usual cases (an extent part ##a#b#, no brackets) take short cuts;
    everything else goes through the checks shared with :class:`_TokenBuilder`,
    in the same order, so that warnings come out the same.
    """

    def start(self, instances: list[Instance]) -> tuple[Instance, ...]:
        return tuple(instances)

    def instance(self, children: list[Token]) -> Instance:
        token = children[0]
        header = _HEADER_LINE_RE.match(token)
        assert header is not None
        slots: list[Slot] = []
        head: re.Match[str] | None = None  # the first line of the slot being read
        head_line = head_offset = 0
        alternatives: list[FillAlternative] = []  # its complete alternatives
        fills: list[Fill] = []  # and the fills of the one being read
        after_slash = False  # the line before was a bare '/'
        position = header.end()
        line = token.line + token.count("\n", 0, position)
        line_start = token.rfind("\n", 0, position) + 1
        end = len(token)
        hypothesis = self.hypothesis
        while position < end:
            offset = 1 - line_start  # the file column of token[i], for i on this line
            if after_slash:
                common = None
                match = _FILL_AFTER_SLASH_RE.match(token, position)
                assert match is not None
                fills.append(self._fill(match, 0, line, offset))
                after_slash = False
            else:
                common = _COMMON_LINE_RE.match(token, position)
                match = common or _LINE_RE.match(token, position)
                assert match is not None
                if match[1] is not None:  # a slot line: the slot before it is complete
                    if head is not None:
                        slots.append(self._slot(head, head_line, head_offset, alternatives, fills))
                    head, head_line, head_offset = match, line, offset
                    alternatives, fills = [], []
                elif common is None and match[3] is not None:  # '/': the alternative before it is complete
                    assert head is not None
                    alternatives.append(FillAlternative(tuple(fills), fills[0].line))
                    self._no_alternatives(head[1], line, offset + match.start(3))
                    fills = []
                    after_slash = match[4] is None
                if common is not None:  # the usual fill, read here without a call
                    _, _, content, start, stop, pointer, _ = common.groups()
                    if pointer is not None:
                        fills.append(self._pointer_fill(pointer, line, offset + common.start(6)))
                    else:
                        first, last = int(start), int(stop)
                        if first > last or not hypothesis and ("[" in content or "]" in content):
                            # a reversed extent or reference brackets: the general reading
                            fills.append(self._fill(_LINE_RE.match(token, position), 4, line, offset))  # type: ignore[arg-type]
                        else:
                            extents = (Extent(first, last),)
                            fills.append(
                                TextFill(
                                    content, _whole_span(len(content)), extents, extents, False, True,
                                    line, offset + common.start(3) - 1,
                                )
                            )
                elif match[4] is not None:
                    fills.append(self._fill(match, 4, line, offset))
            if common is not None:  # one line end, then the indentation
                line += 1
                line_start = common.start(7)
                position = common.end()
            else:
                next_line = match.end()
                line += token.count("\n", position, next_line)
                line_start = token.rfind("\n", position, next_line) + 1
                position = next_line
        if head is not None:
            slots.append(self._slot(head, head_line, head_offset, alternatives, fills))
        return self._instance(header[1], slots, token.line, token.column)

    def _slot(
        self, head: re.Match[str], line: int, offset: int, alternatives: list[FillAlternative], fills: list[Fill]
    ) -> Slot:
        """The slot whose first line ``head`` is on ``line`` (file column of
        character i: ``offset + i``), with the alternatives and fills read
        under it; no fills at all is an empty slot."""
        name = head[1]
        if fills:
            alternatives.append(FillAlternative(tuple(fills), fills[0].line))
        optional = head[2] is not None and self._optional(name, line, offset + head.start(2))
        return Slot(name, tuple(alternatives), optional, line, offset + head.start())

    def _fill(self, match: re.Match[str], group: int, line: int, offset: int) -> Fill:
        """The fill in groups ``group + 1`` to ``group + 9`` of ``match``, a
        match of a line expression on ``line`` (file column of character i:
        ``offset + i``)."""
        pointer, quoted, start, end, part, plain, plain_start, plain_end, plain_part = match.groups()[
            group : group + _FILL_GROUPS
        ]
        if pointer is not None:
            column = offset + match.start(group + 1)
            return self._pointer_fill(pointer, line, column)
        if quoted is not None:
            raw, is_quoted = quoted, True
            column = offset + match.start(group + 2) - 1  # at the quote
            first = group + 3
        else:
            raw, is_quoted = plain.rstrip(), False
            start, end, part = plain_start, plain_end, plain_part
            column = offset + match.start(group + 6)
            first = group + 7
        extent_column = 0
        extents: tuple[Extent, ...] = ()
        if start is not None:
            extent_column = offset + match.start(first) - 2
            start, end = int(start), int(end)
            if start > end:  # reversed: the general reading raises the error
                rest = _REST_OF_LINE_RE.match(match.string, match.start(first) - 2)
                assert rest is not None
                self._extents(rest.group(), line, extent_column)
            extents = (Extent(start, end),)
        elif part is not None:
            extent_column = offset + match.start(first + 2)
            extents = self._extents(part, line, extent_column)
        if len(extents) < 2 and (self.hypothesis or ("[" not in raw and "]" not in raw)):
            return TextFill(raw, _whole_span(len(raw)), extents, extents, False, is_quoted, line, column)
        return self._text_fill(raw, is_quoted, line, column, extents, extent_column)


class _TokenBuilder(_Checks):
    """The Transformer of the token-level grammar (rule ``tokens``), run only
    to explain a file the instance-level parser rejected.  Its checks run as the
    parser reduces each piece, so the first problem it meets in the file,
    syntax or check, is the one reported.
    """

    def tokens(self, instances: list[Instance]) -> tuple[Instance, ...]:
        return tuple(instances)

    def t_instance(self, children: list[Any]) -> Instance:
        header: Token = children[0]
        return self._instance(str(header).rsplit(":=", 1)[0], children[1:], header.line, header.column)

    def _slot_head(self, children: list[Any]) -> tuple[Token, str, bool, list[Any]]:
        name_token: Token = children[0]
        name = str(name_token).rstrip(":").strip()
        rest = children[1:]
        optional = False
        if rest and isinstance(rest[0], Token) and rest[0].type == "OPTIONAL_MARK":
            optional = self._optional(name, rest[0].line, rest[0].column)
            rest = rest[1:]
        return name_token, name, optional, rest

    def t_empty_slot(self, children: list[Any]) -> Slot:
        token, name, optional, _ = self._slot_head(children)
        return Slot(name, (), optional=optional, line=token.line, column=token.column)

    def t_slot(self, children: list[Any]) -> Slot:
        token, name, optional, rest = self._slot_head(children)
        alternatives: list[FillAlternative] = []
        for item in rest:
            if isinstance(item, Token):  # SLASH
                self._no_alternatives(name, item.line, item.column)
                continue
            alternatives.append(item)
        return Slot(name, tuple(alternatives), optional=optional, line=token.line, column=token.column)

    def t_alternative(self, fills: list[Fill]) -> FillAlternative:
        return FillAlternative(tuple(fills), line=fills[0].line)

    def t_fill_line(self, children: list[Fill]) -> Fill:
        return children[0]

    def t_pointer_fill(self, children: list[Token]) -> PointerFill:
        token = children[0]
        return self._pointer_fill(str(token), token.line, token.column)

    def t_extent_part(self, children: list[Token]) -> tuple[Token, tuple[Extent, ...]]:
        opener = children[0]
        return opener, self._extents(str(opener), opener.line, opener.column)

    def t_text_fill(self, children: list[Any]) -> TextFill:
        token: Token = children[0]
        opener, extents = children[1] if len(children) > 1 else (None, ())
        quoted = token.type == "QUOTED"
        raw = str(token)[1:-1] if quoted else str(token).rstrip()
        return self._text_fill(raw, quoted, token.line, token.column, extents, opener.column if opener else 0)


# ----------------------------------------------------------------- writing

# Unquoted content that reads back unchanged on any fill line: it must lex as
# UNQUOTED, not start a comment, and not look like a slot name.
_UNQUOTED_RE = re.compile(r'(?:[^\s"<\/?#;]|#(?!#))(?:[^\r\n#]|#(?!#))*')
_SLOT_LIKE_RE = re.compile(r"[A-Za-z0-9_-]+[ \t]*:")


def write_templates(tset: TemplateSet) -> str:
    """Write a template set in templette syntax.

    ``parse_templates(write_templates(x), role=x.role) == x`` for every set the
    parser can produce.  Unquoted content that would not read back the same is
    written quoted.

    Args:
        tset: the template set.

    Returns:
        The file text, one instance per block, blank lines between blocks.

    Raises:
        ValueError: the set cannot be written faithfully (a line break in
            content, a literal bracket in reference content, several
            alternatives in a hypothesis slot, a bad slot name).
    """
    reference = tset.role == "reference"
    blocks: list[str] = []
    for instance in tset.instances:
        lines = [f"{instance.key} :="]
        for slot in instance.slots:
            lines.extend(_slot_lines(slot, reference))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _slot_lines(slot: Slot, reference: bool) -> list[str]:
    if not _SLOT_NAME_RE.fullmatch(slot.name):
        raise ValueError(f"slot name {slot.name!r} is not letters, digits, '_' and '-'")
    if not reference and len(slot.alternatives) > 1:
        raise ValueError(f"hypothesis slot {slot.name} has {len(slot.alternatives)} alternatives; at most 1 allowed")
    head = f"    {slot.name}:"
    mark = " ?" if slot.optional else ""
    if not slot.alternatives:
        return [head + mark]
    indent = " " * (len(head) + len(mark) + 1)  # continuation fills line up with the first
    lines: list[str] = []
    for number, alternative in enumerate(slot.alternatives):
        for index, fill in enumerate(alternative.fills):
            text = _fill_text(fill, reference)
            if index:
                lines.append(indent + text)
            elif number == 0:
                lines.append(f"{head}{mark} {text}")
            else:
                lines.append(indent[:-2] + "/ " + text)
    return lines


def _fill_text(fill: Fill, reference: bool) -> str:
    if isinstance(fill, PointerFill):
        return fill.key
    content = fill.content
    if "\n" in content or "\r" in content:
        raise ValueError(f"fill content {content!r} contains a line break")
    if reference:
        if "[" in content or "]" in content:
            raise ValueError(f"reference content {content!r} has a literal bracket, which would read as [minimal]")
        if fill.bracketed:
            marked: list[str] = []
            last = 0
            for start, end in fill.minimal_spans:
                marked += [content[last:start], "[", content[start:end], "]"]
                last = end
            marked.append(content[last:])
            content = "".join(marked)
    if fill.quoted or not _UNQUOTED_RE.fullmatch(content) or content != content.strip() or _SLOT_LIKE_RE.match(content):
        text = f'"{content}"'
    else:
        text = content
    if fill.extents:
        text += " ##" + "".join(f"{extent.start}#{extent.end}#" for extent in fill.extents)
    return text

