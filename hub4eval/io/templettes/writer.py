"""Writing a template set back in templette syntax (the inverse of the reader)."""

from __future__ import annotations

import re

from hub4eval.io.templettes.checks import SLOT_NAME_RE
from hub4eval.io.templettes.slips import reads_as_slip
from hub4eval.model import (
    Fill,
    PointerFill,
    Slot,
    TemplateSet,
)

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
    # plain content that would read as a slip (a slot line without ':', a pointer without brackets)
    # is written quoted (io/templettes/slips.py)
    slot_names = frozenset(slot.name for instance in tset.instances for slot in instance.slots)
    keys = frozenset(instance.key for instance in tset.instances)
    blocks: list[str] = []
    for instance in tset.instances:
        lines = [f"{instance.key} :="]
        for slot in instance.slots:
            lines.extend(_slot_lines(slot, reference, slot_names, keys))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _slot_lines(slot: Slot, reference: bool, slot_names: frozenset[str], keys: frozenset[str]) -> list[str]:
    if not SLOT_NAME_RE.fullmatch(slot.name):
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
            text = _fill_text(fill, reference, slot_names, keys)
            if index:
                lines.append(indent + text)
            elif number == 0:
                lines.append(f"{head}{mark} {text}")
            else:
                lines.append(indent[:-2] + "/ " + text)
    return lines


def _fill_text(fill: Fill, reference: bool, slot_names: frozenset[str], keys: frozenset[str]) -> str:
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
    if (
        fill.quoted
        or not _UNQUOTED_RE.fullmatch(content)
        or content != content.strip()
        or _SLOT_LIKE_RE.match(content)
        or reads_as_slip(content, slot_names, keys)
    ):
        text = f'"{content}"'
    else:
        text = content
    if fill.extents:
        text += " ##" + "".join(f"{extent.start}#{extent.end}#" for extent in fill.extents)
    return text
