"""The data model: frozen dataclasses for templette files and text corpora.

Template set -> instance sets (by DOCID) -> instances -> slots ->
fill-alternatives -> single fills (pointer or text), as docs/templette-format.md
describes them; a corpus is a sequence of documents with their extractable
character spans (docs/text-formats.md).
Positions (line, column) are kept for messages but do not take part in
equality, so a written-back and re-parsed set compares equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from hub4eval.util.records import quick_init

if TYPE_CHECKING:
    from hub4eval.errors import InputWarning

Role = Literal["reference", "hypothesis"]


@quick_init
@dataclass(frozen=True, slots=True)
class Extent:
    """Character interval (or, once extents are mapped onto a word alignment, column interval); ``end`` exclusive for characters."""

    start: int
    end: int

    def encloses(self, other: Extent) -> bool:
        """Procedure: (a, b) encloses (c, d) iff a <= c <= b and a <= d <= b."""
        return self.start <= other.start <= self.end and self.start <= other.end <= self.end

    def overlaps(self, other: Extent) -> bool:
        """Procedure: any of a<=c<=b, a<=d<=b, c<=a<=d, c<=b<=d."""
        a, b, c, d = self.start, self.end, other.start, other.end
        return a <= c <= b or a <= d <= b or c <= a <= d or c <= b <= d

    def __str__(self) -> str:
        return f"{self.start}..{self.end}"


@quick_init
@dataclass(frozen=True, slots=True)
class PointerFill:
    """``<TYPE-DOCID-N>``: a reference to an instance of the same file."""

    type: str
    docid: str
    number: int
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    @property
    def key(self) -> str:
        return f"<{self.type}-{self.docid}-{self.number}>"

    def __str__(self) -> str:
        return self.key


@quick_init
@dataclass(frozen=True, slots=True)
class TextFill:
    """A content string with optional extents.

    ``content`` is the maximal string (reference brackets removed).
    ``minimal_spans`` are (start, end) offsets of each minimal string inside
    ``content``; without brackets there is one span covering all of it.
    ``extents`` are the pairs as written; ``extent`` is the maximal extent and
    ``minimal_extents`` the minimal ones (given, or derived from the maximal
    extent and the minimal string's offset).
    """

    content: str
    minimal_spans: tuple[tuple[int, int], ...]
    extents: tuple[Extent, ...] = ()
    minimal_extents: tuple[Extent, ...] = ()
    bracketed: bool = False
    quoted: bool = True
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    @property
    def extent(self) -> Extent | None:
        return self.extents[0] if self.extents else None

    @property
    def minimal_strings(self) -> tuple[str, ...]:
        return tuple(self.content[a:b] for a, b in self.minimal_spans)

    def __str__(self) -> str:
        text = f'"{self.content}"'
        if self.extent is not None:
            text += f" {self.extent}"
        return text


Fill = PointerFill | TextFill


@quick_init
@dataclass(frozen=True, slots=True)
class FillAlternative:
    """One way to fill a slot: a set of single fills."""

    fills: tuple[Fill, ...]
    line: int = field(default=0, compare=False)


@quick_init
@dataclass(frozen=True, slots=True)
class Slot:
    """A named slot; ``optional`` is the ``?`` marker before the first fill."""

    name: str
    alternatives: tuple[FillAlternative, ...]
    optional: bool = False
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@quick_init
@dataclass(frozen=True, slots=True)
class Instance:
    """An instance ``<TYPE-DOCID-N> :=`` and its slots."""

    type: str
    docid: str
    number: int
    slots: tuple[Slot, ...]
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    @property
    def key(self) -> str:
        return f"<{self.type}-{self.docid}-{self.number}>"

    def slot(self, name: str) -> Slot | None:
        for slot in self.slots:
            if slot.name == name:
                return slot
        return None

    @property
    def optional(self) -> bool:
        """``OBJ_STATUS: OPTIONAL`` marks a reference instance optional."""
        slot = self.slot("OBJ_STATUS")
        if slot is None:
            return False
        return any(
            isinstance(fill, TextFill) and fill.content.strip().upper() == "OPTIONAL"
            for alternative in slot.alternatives
            for fill in alternative.fills
        )


@quick_init
@dataclass(frozen=True, slots=True)
class InstanceSet:
    """The instances of one document, grouped by the DOCID of their headers."""

    docid: str
    instances: tuple[Instance, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class TemplateSet:
    """A whole templette file."""

    instance_sets: tuple[InstanceSet, ...]
    role: Role = "reference"
    path: str = field(default="", compare=False)
    warnings: tuple[InputWarning, ...] = field(default=(), compare=False)

    @property
    def instances(self) -> tuple[Instance, ...]:
        return tuple(inst for iset in self.instance_sets for inst in iset.instances)

    def instance_set(self, docid: str) -> InstanceSet | None:
        for iset in self.instance_sets:
            if iset.docid == docid:
                return iset
        return None


@quick_init
@dataclass(frozen=True, slots=True)
class Document:
    """One text document of a corpus.

    ``text`` runs from the ``<`` of the opening document tag to the end of the
    closing tag; offsets in templettes index it. ``offset`` is where it
    starts in the file, ``line`` the file line it starts on. ``extractable`` are
    the (start, end) spans of ``text`` outside tags and non-extractable
    elements. An unsegmented corpus has one document with ``docid`` None that
    is the whole file. ``spoken`` are the extractable spans inside the spoken
    element (``<TEXT>``), or None when the document has no such element and
    all its extractable text is spoken.
    """

    docid: str | None
    text: str
    offset: int
    line: int
    extractable: tuple[tuple[int, int], ...]
    spoken: tuple[tuple[int, int], ...] | None = None

    def extractable_text(self) -> str:
        return "".join(self.text[a:b] for a, b in self.extractable)

    def spoken_spans(self) -> tuple[tuple[int, int], ...]:
        """The spans of spoken text: the text that is aligned and counted in WER."""
        return self.extractable if self.spoken is None else self.spoken


@dataclass(frozen=True)
class Corpus:
    """A text corpus file: its documents in file order.

    Not slotted (a run makes two): :meth:`document` keeps its index of the
    documents by DOCID beside the fields.
    """

    documents: tuple[Document, ...]
    segmented: bool = True
    path: str = field(default="", compare=False)
    warnings: tuple[InputWarning, ...] = field(default=(), compare=False)
    spoken_element: str = field(default="TEXT", compare=False)

    def document(self, docid: str | None) -> Document | None:
        """The (first) document ``docid``, or None."""
        return self._by_docid.get(docid)

    @cached_property
    def _by_docid(self) -> dict[str | None, Document]:
        # made once: the documents are looked up per instance set and per
        # document alignment, and a scan each time was quadratic in them
        index: dict[str | None, Document] = {}
        for doc in self.documents:
            index.setdefault(doc.docid, doc)
        return index
