"""The builder that makes a template set from a file's lines, or from what Lark reads in it.

:class:`InstanceBuilder` builds every file: a file of usual lines straight from
its text, any other from the instance-level grammar's tokens (one token per
instance, cut into lines by regular expressions, with short cuts for the usual
instance and the usual line).  The Transformer of the token-level grammar,
which reads a rejected file again to find its first problem, is
:class:`~hub4eval.io.templettes.token_builder.TokenBuilder` (it imports Lark,
which a file of usual lines never needs).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import lark

    class Token(lark.Token):
        """A token as lark's lexer makes it, with its position always set
        (lark's annotations allow None, for tokens made by hand)."""

        line: int
        column: int


from hub4eval.io.templettes.checks import MAX_DIGITS, OFFSETS, WHOLE_SPANS, Checks, whole_span
from hub4eval.model import (
    Extent,
    Fill,
    FillAlternative,
    Instance,
    PointerFill,
    Role,
    Slot,
    TextFill,
    UsualSlots,
)

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
    r'|"([^\r\n]*)"(?![^\r\n]*")[ \t\f]*' + _EXTENT_PATTERN + r"|((?:[^\r\n#]|#(?!#))+)" + _EXTENT_PATTERN
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
_REST_OF_LINE_RE = re.compile(r"[^\r\n]*")
# The usual file, read with one findall and no Lark: every line is a header
# "<TYPE-DOCID-N> :=" at the start of its line, a usual line, or a blank or
# comment line (spaces and tabs, then nothing or ';' and anything).  A usual
# line is an indentation of spaces, a slot name and ": " (and "? ", in a
# reference) or none, then one fill: a pointer, or content, one blank and one
# extent ##a#b#.  Content is quoted without an inner '"', or plain: words of
# characters other than blanks and "<>/?#[]:;, one space between them (so
# that a fill line never looks like a slot line, a comment or an extent);
# neither has '[' or ']' in a reference.  A header and a pointer are matched
# by the same groups, TYPE (no '.'), DOCID and N (at most MAX_DIGITS digits),
# split as POINTER_RE splits them; a header is a pointer with " :=" after it
# (and no indentation or slot name before it, which the reading checks).
# Groups (few: findall makes a string of each, empty or not, for every line):
# the line's head (its indentation, then a slot name, ": " and "? ", or
# none), quoted content, plain content, a, b, TYPE, DOCID, N, " :=" (a
# header).  A blank or comment line (which the grammar's line ends swallow
# wherever they are) matches with every group empty.  Matches never span
# lines and each ends with its line end (\n or \r\n), so every line of a text
# is one of these iff there are as many matches as line ends.  Such a text is
# in the grammar's language whenever its lines also come in the grammar's
# order (a header first, a slot line first in each instance), which the
# reading checks.  A malformed pointer or header matches no line: the grammar
# reads the file and reports it.
_USUAL_PLAIN = r'[^\s"<>/?#\[\]:;]+(?: [^\s"<>/?#\[\]:;]+)*'
_USUAL_POINTER = r"<([^\s<>.-]+)-([^\s<>]+)-([0-9]{{1,18}})>( :=)?"
_USUAL_PATTERN = (
    r"^(?:( *(?:[A-Za-z0-9_-]+: {mark})?)"
    r'(?:(?:"({content}*)"|(' + _USUAL_PLAIN + r")) ##([0-9]{{1,18}})#([0-9]{{1,18}})#|" + _USUAL_POINTER + r")\r?\n"
    r"|[ \t]*(?:;[^\r\n]*)?\r?\n)"
)
_USUAL_HEAD_RE = re.compile(r"( *)(?:([A-Za-z0-9_-]+): (\? )?)?")  # the pieces of a line's head
_CHUNK = 1 << 16  # characters of a file cut up by one findall (see usual_instances)
# A match of a header line after the last line; its " :=" is this very
# object (`is`), never a string findall made.
_END = "<end of text>"
_END_OF_TEXT = ("", "", "", "", "", "", "", "", _END)
_USUAL_RE = {
    "reference": re.compile(_USUAL_PATTERN.format(mark=r"(?:\? )?", content=r'[^"\[\]\r\n]'), re.MULTILINE),
    "hypothesis": re.compile(_USUAL_PATTERN.format(mark="", content=r'[^"\r\n]'), re.MULTILINE),
}
assert MAX_DIGITS == 18  # the {1,18} above
_NO_OFFSET = 10**MAX_DIGITS  # above every offset


class InstanceBuilder(Checks):
    """The builder of the instance-level grammar (rule ``start``).

    Each INSTANCE token is a header line and the slot, fill and '/' lines
    under it; :meth:`start` gets them all from the grammar's lexer
    (``reader.instance_tokens``) and builds the instances in file order.  An
    instance made only of usual lines is read in one go
    (:meth:`_usual_instance`).  Any other is read by
    :meth:`_general_instance`, which walks its lines with the regular
    expressions above, groups them into slots and fill-alternatives as the
    grammar's comment describes, and positions every piece: the line is the
    token's line plus the line ends before it, the column counts from the last
    line end.  The usual line (an extent part ##a#b#, no brackets) takes a
    short cut there too; everything else goes through the checks shared with
    :class:`TokenBuilder`, in the same order, so that warnings come out the
    same.
    """

    def reset(self, path: str, role: Role) -> None:
        super().reset(path, role)
        # The per-file memos of the usual reading: one string object per slot
        # name, TYPE and DOCID; the pieces of each line head (see _head).
        self._names: dict[str, str] = {}
        self._heads: dict[str, tuple[str, bool, int, int]] = {}
        # set by usual_instances: each DOCID's headers were one run, their numbers increasing
        self.headers_ordered = False
        # set by usual_instances when each DOCID's instances were one run: the index of each
        # run's first instance, and the number of instances last (the runs are the instance sets)
        self.run_starts: list[int] | None = None
        # set by usual_instances when each DOCID's instances were one run: the text fills in file
        # order and the index of each run's first, then their number (TemplateSet.usual_fills)
        self.usual_fills: tuple[list[TextFill], list[int]] | None = None
        # set with usual_fills: the slot of each of those fills and the instances they are in
        # (TemplateSet.usual_slots)
        self.usual_slots: UsualSlots | None = None
        # set by usual_instances in a hypothesis whose DOCIDs' instances were one run each: per
        # run, the smallest start and the largest end of its text fills' extents (see
        # TemplateSet.fill_bounds)
        self.fill_bounds: list[tuple[int, int] | None] | None = None

    def start(self, tokens: list[Token]) -> tuple[Instance, ...]:
        """The instances of the file's INSTANCE tokens, in file order."""
        usual, general = self._usual_instance, self._general_instance
        instances = tuple(usual(token) or general(token) for token in tokens)
        self._names, self._heads = {}, {}  # free them with the parse
        return instances

    def usual_file(self, source: str, first_line: int = 1) -> tuple[Instance, ...] | None:
        """The instances of a whole file read without Lark, if it is made of
        usual lines only (see :meth:`usual_instances`), else None."""
        instances = self.usual_instances(source, first_line)
        self._names, self._heads = {}, {}  # free them with the parse
        return None if instances is None else tuple(instances)

    def _general_instance(self, token: Token) -> Instance:
        """The instance of ``token``, whatever its lines."""
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
                                    content,
                                    whole_span(len(content)),
                                    extents,
                                    extents,
                                    False,
                                    True,
                                    line,
                                    offset + common.start(3) - 1,
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

    def _usual_instance(self, token: Token) -> Instance | None:
        """The instance of ``token`` if it is made of usual lines only, else
        None (see :meth:`usual_instances`)."""
        instances = self.usual_instances(token, token.line, token.column)
        self.run_starts = self.usual_fills = self.usual_slots = None  # a file's, not an instance's
        return instances[0] if instances is not None and len(instances) == 1 else None

    def usual_instances(self, text: str, line: int = 1, column: int = 1) -> list[Instance] | None:
        """The instances of ``text``, which starts on file line ``line`` with
        a header at ``column``, if every line of it is usual (see
        ``_USUAL_RE``) and they come in the grammar's order; else None.

        It raises nothing and warns of nothing: whatever would (a malformed
        pointer, a pointer into another document's instances, a reversed
        extent, reference brackets, a '?' in a hypothesis, a duplicate slot,
        a fill before any slot, a line before any header) gives None, and the grammar reads the text, which
        reports it.  Each line is one file line, so positions come from the
        line's index and the lengths of its pieces.
        """
        expression = _USUAL_RE[self.role]
        # one string object per slot name, TYPE and DOCID of the file
        intern = self._names.setdefault
        names = self._names
        heads = self._heads
        whole_spans = WHOLE_SPANS
        offsets = OFFSETS
        shared = len(offsets)
        pointers: list[PointerFill] = []
        instances: list[Instance] = []
        slots: list[Slot] = []
        slot_names: list[str] = []
        # the fills of the slot being read: a tuple of its first; a list from its second on
        # (most slots have one fill, which then needs no list)
        fills: tuple[Fill, ...] = ()
        more: list[Fill] | None = None
        fill: Fill
        # the TYPE, DOCID, N and line of the instance being read (head_line 0 before the first)
        head_type = docid = ""
        head_number = head_line = 0
        name = ""  # the slot being read ("" before the instance's first)
        optional = False
        slot_line = slot_column = 0
        # whether each DOCID's headers are one run, their numbers increasing: then no two
        # headers are the same (TYPE, DOCID, N), which the reader need not check again
        ordered = True
        run_docids: set[str] = set()
        run_starts: list[int] = []  # the index of each run's first instance (see reset)
        # its text fills in file order, and the index of each run's first (TemplateSet.usual_fills)
        text_fills: list[TextFill] = []
        fill_starts: list[int] = []
        keep_fill = text_fills.append
        # per text fill, its slot's name; per instance, the index of its first text fill; each
        # instance (its index) with a slot of several fills, and that slot's name (UsualSlots)
        fill_slots: list[str] = []
        keep_slot = fill_slots.append
        fill_heads: list[int] = []
        several: list[tuple[int, str]] = []
        runs = True  # each DOCID one run so far
        # a hypothesis's runs' bounds (an unsegmented one's sets are placed by them)
        bounding = self.hypothesis
        bounds: list[tuple[int, int] | None] = []
        low, high = _NO_OFFSET, -1
        line -= 1
        size = len(text)
        position = 0
        while position < size:
            # The lines of about _CHUNK characters at a time: a match is a tuple
            # of nine strings, and all those of a large file at once took more
            # memory than the records made from them.  A chunk ends at a line end.
            stop = text.find("\n", position + _CHUNK) + 1 or size
            lines = expression.findall(text, position, stop)
            if len(lines) != text.count("\n", position, stop):
                return None
            position = stop
            if position == size:  # a header after the last line completes the last instance
                lines.append(_END_OF_TEXT)
            for head, content, plain, start, end, type_, docid_, number, assign in lines:
                line += 1
                if assign:  # a header: the instance before it is complete
                    if fills:
                        if more is not None:
                            fills, more = tuple(more), None
                        slots.append(Slot(name, (FillAlternative(fills, slot_line),), optional, slot_line, slot_column))
                    if head_line:
                        instances.append(Instance(head_type, docid, head_number, tuple(slots), head_line, column))
                        column = 1
                    if assign is _END:
                        break
                    if head:
                        return None  # an indented header, or one after a slot name
                    previous_docid, previous_number = docid, head_number
                    if type_ != head_type:  # (mostly the TYPE and DOCID of the header before)
                        head_type = intern(type_, type_)
                    if docid_ != docid:
                        docid = intern(docid_, docid_)
                    head_number, head_line = int(number), line
                    fill_heads.append(len(text_fills))
                    if docid is not previous_docid:
                        if docid in run_docids:
                            ordered = bounding = runs = False  # a second run of a DOCID's instances
                        run_docids.add(docid)
                        run_starts.append(len(instances))
                        fill_starts.append(len(text_fills))
                        if bounding and previous_docid:
                            bounds.append(None if high < 0 else (low, high))
                            low, high = _NO_OFFSET, -1
                    elif head_number <= previous_number:
                        ordered = False
                    slots, slot_names, fills, name = [], [], (), ""
                    continue
                if not start and not number:  # a blank or comment line
                    continue
                try:
                    new_name, new_optional, new_column, fill_column = heads[head]
                except KeyError:
                    new_name, new_optional, new_column, fill_column = self._head(head)
                if new_name:  # a new slot: the one before it is complete
                    if not head_line:
                        return None
                    if fills:
                        if more is not None:
                            fills, more = tuple(more), None
                        slots.append(Slot(name, (FillAlternative(fills, slot_line),), optional, slot_line, slot_column))
                    if new_name in slot_names:
                        return None  # a slot comes twice
                    name, optional, slot_column, slot_line = new_name, new_optional, new_column, line
                    slot_names.append(name)
                elif not name:
                    return None
                elif plain and plain.split(" ", 1)[0] in names:
                    return None  # a slot line without ':', most likely (io/templettes/slips.py)
                if start:
                    first, last = int(start), int(end)
                    if first > last:
                        return None
                    if last < shared:  # one int object per offset (see OFFSETS)
                        first, last = offsets[first], offsets[last]
                    if bounding:
                        if first < low:
                            low = first
                        if last > high:
                            high = last
                    extents = (Extent(first, last),)
                    if plain:
                        written, quoted = plain, False
                    else:
                        written, quoted = content, True
                    fill = TextFill(
                        written,
                        whole_spans.get(len(written)) or whole_span(len(written)),
                        extents,
                        extents,
                        False,
                        quoted,
                        line,
                        fill_column,
                    )
                    keep_fill(fill)
                    keep_slot(name)
                else:  # a pointer
                    if docid_ != docid:
                        return None  # into another instance set
                    fill = PointerFill(intern(type_, type_), docid, int(number), line, fill_column)
                    pointers.append(fill)
                if new_name:
                    fills = (fill,)
                elif more is None:
                    more = [*fills, fill]
                    several.append((len(instances), name))
                else:
                    more.append(fill)
        self.pointers += pointers
        self.headers_ordered = ordered
        if runs:
            run_starts.append(len(instances))
            fill_starts.append(len(text_fills))
        self.run_starts = run_starts if runs else None
        self.usual_fills = (text_fills, fill_starts) if runs else None
        if runs:
            fill_heads.append(len(text_fills))
        self.usual_slots = UsualSlots(fill_slots, fill_heads, several) if runs else None
        if bounding:
            if head_line:
                bounds.append(None if high < 0 else (low, high))
            self.fill_bounds = bounds
        return instances

    def _head(self, head: str) -> tuple[str, bool, int, int]:
        """The slot name of a usual line's head (its indentation, then a slot
        name, ": " and "? ", or none; "" without a name), whether "?" marks
        it, and the columns of the name and of the fill (memoized)."""
        match = _USUAL_HEAD_RE.fullmatch(head)
        assert match is not None
        indent, name, mark = match.groups()
        parts = (self._names.setdefault(name, name) if name else "", mark is not None, len(indent) + 1, len(head) + 1)
        self._heads[head] = parts
        return parts

    def _slot(
        self,
        head: re.Match[str],
        line: int,
        offset: int,
        alternatives: list[FillAlternative],
        fills: list[Fill],
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
            return TextFill(
                raw,
                whole_span(len(raw)),
                extents,
                extents,
                False,
                is_quoted,
                line,
                column,
            )
        return self._text_fill(raw, is_quoted, line, column, extents, extent_column)
