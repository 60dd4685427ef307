"""Common slips of hand-written templette files, found on the raw lines.

Some slips leave a file that the grammar still reads, only as something else:
an instance header without ``:=`` is a pointer fill of the slot above it (the
instance's slots then join the instance before, and the first message is a
"duplicate slot" or a dangling pointer far from the slip); a slot line
without ``:`` is one more fill of the slot above it, with the slot name in its
content (and no error at all). Others fail the grammar, but at a character
whose message does not say what is missing (an unclosed ``<``).

:func:`find_slip` looks for them on the lines themselves, so that the message
names the slip's own line and what is missing there. The reader asks it when
reading fails (a slip on a line before the error is the likely cause) and
after a file was read (a slip the grammar accepted). Each pattern is one
regular expression over the whole text, so a file without slips costs a few
scans in C.
"""

from __future__ import annotations

import re

from hub4eval.errors import InputError

__all__ = ["find_slip", "reads_as_slip"]

# a pointer alone on its line (the header of an instance, without ':=')
_LONE_POINTER = re.compile(r"\n([ \t]*)(<[^<>\r\n]*>)[ \t]*\r?(?=\n)")
# a pointer at the start of a line with something other than ':=' after it
_BAD_ASSIGN = re.compile(r"\n[ \t]*(<[^<>\r\n]*>)([ \t]*)(=|:|=:|;=|: =|:-|==|:==)[ \t]*\r?(?=\n)")
_HEADER = re.compile(r"\n[ \t]*(<[^<>\r\n]*>)[ \t]*:=")
_SLOT_LINE = re.compile(r"[ \t]*[A-Za-z0-9_-]+[ \t]*:(?!=)")
_SLOT_NAMES = re.compile(r"\n[ \t]*([A-Za-z0-9_-]+)[ \t]*:(?!=)")
# a slot name and then, without ':', a quote or a pointer (or, for a name used with ':'
# elsewhere in the file, plain content with an extent part)
_NO_COLON = re.compile(r"\n([ \t]*)([A-Za-z0-9_-]+)([ \t]*[=;][ \t]*|[ \t]+)([\"<]|[^\s#][^\r\n#]*##)")
# a header or a pointer written without its brackets: TYPE-DOCID-N (then ':=' for a header)
_BARE_HEADER = re.compile(r"\n[ \t]*([A-Za-z0-9_]+-[^\s<>]+-[0-9]+)[ \t]*:=")
_BARE_POINTER = re.compile(
    r"\n([ \t]*(?:[A-Za-z0-9_-]+[ \t]*:[ \t]*(?:\?[ \t]*)?|/[ \t]*)?)([A-Za-z0-9_]+-[^\s<>\"]+-[0-9]+)[ \t]*\r?(?=\n)",
)
# '/' alone on its line, and the next line is not its fill
_BARE_SLASH = re.compile(
    r"\n([ \t]*)/[ \t]*\r?\n(?:[ \t]*(?:;[^\r\n]*)?\r?\n)*[ \t]*(?:/|<[^<>\r\n]*>[ \t]*:=|[A-Za-z0-9_-]+[ \t]*:(?!=))"
)
# '<' where a header or a pointer starts, and no '>' after it on the line
_UNCLOSED = re.compile(r"\n([ \t]*(?:[A-Za-z0-9_-]+[ \t]*:[ \t]*(?:\?[ \t]*)?|/[ \t]*)?)(<[^<>\r\n]*)\r?(?=\n)")
_COMMENT_OR_BLANK = re.compile(r"[ \t]*(?:;.*)?\r?")


_CONTENT_SLIP = re.compile(r"([A-Za-z0-9_-]+)(?:[ \t]*[=;][ \t]*|[ \t]+)")


def reads_as_slip(content: str, slot_names: set[str] | frozenset[str], keys: set[str] | frozenset[str]) -> bool:
    """Whether unquoted ``content`` on a fill line of its own would read as a slip (for the writer,
    which then quotes it): a slot name of the file (or an upper-case word) and a blank or '=' first,
    or a pointer of the file without its brackets."""
    match = _CONTENT_SLIP.match(content)
    if match is not None and (match.group(1) in slot_names or match.group(1).isupper()):
        return True
    return f"<{content}>" in keys


def _line_of(text: str, position: int) -> int:
    """The line of ``position`` in a text that starts with an added line end."""
    return text.count("\n", 0, position)


def _next_content_line(lines: list[str], index: int) -> str | None:
    """The first line after ``lines[index]`` that is not blank or a comment."""
    for line in lines[index + 1 :]:
        if not _COMMENT_OR_BLANK.fullmatch(line):
            return line
    return None


def find_slip(text: str, path: str, first_line: int = 1, read: bool = False) -> InputError | None:
    """The error of the first slip in ``text`` (in file order), or None.

    ``first_line``: the line of the file on which ``text`` starts (a part of
    a file read on its own). ``read``: the file was read without an error,
    so only the slips the grammar accepts are looked for.
    """
    found: list[tuple[int, InputError]] = []
    shift = first_line - 1
    text = "\n" + text + "\n"  # every line between two line ends: the patterns start with one

    def add(position: int, column: int, message: str, hint: str) -> None:
        line = _line_of(text, position)
        found.append((line, InputError(message, path, line + shift, column, hint=hint)))

    if "<" in text and not read:
        headers = {match.group(1).replace(" ", "") for match in _HEADER.finditer(text)}
        lines: list[str] | None = None
        for match in _LONE_POINTER.finditer(text):
            pointer = match.group(2)
            if pointer.replace(" ", "") in headers:
                continue  # a pointer fill of the slot above, to an instance of the file
            if lines is None:
                lines = text.split("\n")
            following = _next_content_line(lines, _line_of(text, match.start(2)))
            if following is None or not _SLOT_LINE.match(following):
                continue
            add(
                match.start(2),
                len(match.group(1)) + len(pointer) + 1,
                f"instance header {pointer} lacks ':='",
                f"write '{pointer} :='; without it the line reads as a pointer fill, and the slots below "
                "as slots of the instance before",
            )
        for match in _BAD_ASSIGN.finditer(text):
            add(
                match.start(3),
                match.start(3) - text.rfind("\n", 0, match.start(3)),
                f"instance header {match.group(1)} has {match.group(3)!r} where ':=' belongs",
                f"write '{match.group(1)} :='",
            )
        for match in _UNCLOSED.finditer(text):
            opened = match.group(2)
            what = "instance header" if not match.group(1).strip() else "pointer"
            add(
                match.start(2),
                len(match.group(1)) + 1,
                f"{what} {opened.rstrip()!r} lacks its closing '>'",
                "a pointer is <TYPE-DOCID-N>" + (" and a header '<TYPE-DOCID-N> :='" if what != "pointer" else ""),
            )
    names: set[str] | None = None
    for match in _NO_COLON.finditer(text):
        name, between, after = match.group(2), match.group(3).strip(), match.group(4)
        if names is None:
            names = {m.group(1) for m in _SLOT_NAMES.finditer(text)}
        # a slot name of the file; or, before a quote or a pointer, a name written as slot names are
        if name not in names and (after[0] not in '"<' or not name.isupper()):
            continue
        add(
            match.start(3),
            len(match.group(1)) + len(name) + 1,
            f"slot line has {between!r} where ':' belongs after the slot name {name}"
            if between
            else f"slot line without ':' after the slot name {name}",
            f"write '{name}: ...' (without ':' the line is one more fill of the slot above, "
            f"with {name} in its content)",
        )
    for match in _BARE_HEADER.finditer(text):
        add(
            match.start(1),
            match.start(1) - text.rfind("\n", 0, match.start(1)),
            f"instance header {match.group(1)} lacks its brackets",
            f"write '<{match.group(1)}> :='",
        )
    headers_bare: set[str] | None = None
    for match in _BARE_POINTER.finditer(text):
        if headers_bare is None:
            headers_bare = {m.group(1)[1:-1].replace(" ", "") for m in _HEADER.finditer(text)}
        if match.group(2) not in headers_bare:
            continue  # plain content that only looks like a pointer
        add(
            match.start(2),
            len(match.group(1)) + 1,
            f"pointer {match.group(2)} lacks its brackets: it is read as text",
            f"write <{match.group(2)}>",
        )
    for match in () if read else _BARE_SLASH.finditer(text):
        add(
            match.end(1),  # the '/' itself (the match starts at the line end before its line)
            len(match.group(1)) + 1,
            "'/' (a new fill-alternative) without its fill",
            "write the alternative's fill after '/', on its line or alone on the next one",
        )
    if not found:
        return None
    return min(found, key=lambda item: (item[1].line or 0, item[1].column or 0))[1]
