"""Syntax-error messages: what was found, what was expected there, and a hint."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hub4eval.errors import InputError

if TYPE_CHECKING:  # lark is imported only when a file is not read as usual lines (see reader)
    from lark import Token
    from lark.exceptions import UnexpectedInput

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
# The templette syntax in words, for hints (users do not have the specification).
SYNTAX_HINT = (
    "a line is a header '<TYPE-DOCID-N> :=', a slot 'NAME: fill', one more fill of that slot, "
    "'/ fill' to start another alternative, or a comment starting with ';'"
)


# A token quoted in a message is cut to this many characters: a line of
# 200,000 characters must not become a message as long.
MAX_QUOTED = 60


def quoted(value: str, use_repr: bool = True) -> str:
    """``repr(value)`` (or ``value`` itself), cut to :data:`MAX_QUOTED` characters when longer."""
    if len(value) <= MAX_QUOTED:
        return repr(value) if use_repr else value
    cut = value[:MAX_QUOTED] + "..."
    return f"{repr(cut) if use_repr else cut} ({len(value):,} characters)"


def _describe(token: Token) -> str:
    """Plain words for a token the parser did not expect."""
    kind = token.type
    value = str(token).strip()
    if kind == "HEADER":
        return f"instance header {quoted(value, use_repr=False)}"
    if kind == "SLOT_NAME":
        return f"slot {quoted(value.rstrip(':').strip())}"
    if kind == "POINTER":
        return f"pointer {quoted(value, use_repr=False)}"
    if kind in ("QUOTED", "UNQUOTED"):
        return f"fill {quoted(value)}"
    if kind == "NUMBER":
        return f"number {value}"
    if kind == "EXTENT":
        return "extent part '##'"
    if kind == "_NL":
        return "end of the line"
    return _WORDS.get(kind, quoted(value))


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


def syntax_error(error: UnexpectedInput, text: str, path: str) -> InputError:
    """Translate a Lark parse error into a positioned message in plain words."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    line: int | None  # None only for an error lark gives no position
    column: int | None
    if isinstance(error, UnexpectedCharacters):
        char = error.char
        line, column = error.line, error.column
        if char == '"':
            return InputError(
                "unterminated quoted fill",
                path,
                line,
                column,
                hint="end the content with '\"' on the same line",
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
    return InputError("syntax error", path, line, column, hint=SYNTAX_HINT)


def _hint_for(expected: Iterable[str], token: Token | None) -> str:
    """A one-line hint for a generic syntax error."""
    expected = set(expected)
    if token is not None and token.type == "EXTENT":
        return 'write the content before its extent part, e.g. "text" ##10#20#'
    if "NUMBER" in expected:
        return "an extent part is '##' then integers each followed by '#', e.g. ##10#20#"
    if expected & _FILL_TERMINALS:
        return 'a fill is a pointer <TYPE-DOCID-N>, "quoted text" or plain text, optionally followed by ##a#b#'
    return "one header, slot or fill per line; " + SYNTAX_HINT
