"""Placed points: a verdict with the instance, slot and fills it belongs to."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hub4eval.model import Fill, Instance, PointerFill, TextFill
from hub4eval.scoring.metrics import Category
from hub4eval.scoring.verdicts import Kind
from hub4eval.util.records import quick_init


def fill_text(fill: Fill) -> str:
    """A fill as written in a templette file (reference brackets restored)."""
    if isinstance(fill, PointerFill):
        return fill.key
    content = fill.content
    if fill.bracketed:
        for start, end in sorted(fill.minimal_spans, reverse=True):
            content = content[:start] + "[" + content[start:end] + "]" + content[end:]
    extents = fill.extents
    if len(extents) == 1:  # the usual fill, written for each of a million points by --json
        extent = extents[0]
        return f'"{content}" ##{extent.start}#{extent.end}#'
    if extents:
        return f'"{content}" ##' + "".join(f"{e.start}#{e.end}#" for e in extents)
    return f'"{content}"'


@quick_init
@dataclass(frozen=True, slots=True)
class FillRef:
    """Where a fill is: its instance, slot, text and line."""

    instance: str
    slot: str
    fill: str
    line: int

    @classmethod
    def of(cls, instance: Instance, slot: str, fill: Fill) -> FillRef:
        return cls(instance.key, slot, fill_text(fill), fill.line)

    def as_dict(self) -> dict[str, str | int]:
        return {"instance": self.instance, "slot": self.slot, "fill": self.fill, "line": self.line}

    @staticmethod
    def json_of(instance: Instance | None, slot: str, fill: Fill | None) -> str:
        """``FillRef.of(instance, slot, fill).as_dict()`` as JSON (``null`` without both),
        written directly: the --json writer makes one per fill pair of a large result."""
        if instance is None or fill is None:
            return "null"
        encode = json.encoder.encode_basestring  # ensure_ascii=False, as the report's encoder
        return (
            f'{{"instance": {encode(instance.key)}, "slot": {encode(slot)}, '
            f'"fill": {encode(fill_text(fill))}, "line": {fill.line}}}'
        )


@quick_init
@dataclass(frozen=True, slots=True)
class Point:
    """One scored (or unscored: OPT, REM) point of the mapping (§4, §6)."""

    kind: Kind
    category: Category
    docid: str
    type: str
    slot: str
    ref: FillRef | None
    hyp: FillRef | None
    reason: str
    ref_fill: Fill | None = None
    hyp_fill: Fill | None = None
    cause: str | None = None  # §11: "recognition" or "extraction" for an error when texts differ

    @property
    def slot_key(self) -> str:
        """``TYPE.SLOT``, the row of the per-slot table."""
        return f"{self.type}.{self.slot}"

    def as_dict(self) -> dict[str, object]:
        """The §9 JSON form of a point."""
        return {
            "slot": self.slot_key,
            "document": self.docid,
            "kind": self.kind,
            "category": self.category,
            "ref": None if self.ref is None else self.ref.as_dict(),
            "hyp": None if self.hyp is None else self.hyp.as_dict(),
            "reason": self.reason,
            "cause": self.cause,
        }


__all__ = ["FillRef", "Point", "fill_text", "TextFill"]
