"""The data model: immutable records for templette files and text corpora.

Template set -> instance sets (by DOCID) -> instances -> slots ->
fill-alternatives -> single fills (pointer or text), as docs/templette-format.md
describes them; a corpus is a sequence of documents with their extractable
character spans (docs/text-formats.md).
Positions (line, column) are kept for messages but do not take part in
equality, so a written-back and re-parsed set compares equal.

Every class is a :class:`hub4eval.util.records.Record` (a frozen
``msgspec.Struct``: quick to make, small, untracked by the garbage
collector), with :func:`~hub4eval.util.records.compare_without` naming the
fields equality leaves out; make a changed copy with
:data:`hub4eval.util.records.replace`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from hub4eval.util.records import Record, compare_without

if TYPE_CHECKING:
    from hub4eval.errors import InputWarning

Role = Literal["reference", "hypothesis"]


class Extent(Record, frozen=True):
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


@compare_without("line", "column")
class PointerFill(Record, frozen=True):
    """``<TYPE-DOCID-N>``: a reference to an instance of the same file."""

    type: str
    docid: str
    number: int
    line: int = 0
    column: int = 0

    @property
    def key(self) -> str:
        return f"<{self.type}-{self.docid}-{self.number}>"

    def __str__(self) -> str:
        return self.key


@compare_without("line", "column")
class TextFill(Record, frozen=True):
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
    line: int = 0
    column: int = 0

    @property
    def extent(self) -> Extent | None:
        return self.extents[0] if self.extents else None

    @property
    def minimal_is_maximal(self) -> bool:
        """Whether the one minimal string is the whole content at the maximal extent
        (no reference brackets: the usual fill)."""
        spans = self.minimal_spans
        if len(spans) != 1 or spans[0][0] != 0 or spans[0][1] != len(self.content):
            return False
        minimal_extents, extents = self.minimal_extents, self.extents  # minimal_extents == extents[:1], unsliced
        return (len(minimal_extents) == 1 and minimal_extents[0] == extents[0]) if extents else not minimal_extents

    @property
    def minimal_strings(self) -> tuple[str, ...]:
        return tuple(self.content[a:b] for a, b in self.minimal_spans)

    def __str__(self) -> str:
        text = f'"{self.content}"'
        if self.extent is not None:
            text += f" {self.extent}"
        return text


Fill = PointerFill | TextFill


@compare_without("line")
class FillAlternative(Record, frozen=True):
    """One way to fill a slot: a set of single fills."""

    fills: tuple[Fill, ...]
    line: int = 0


@compare_without("line", "column")
class Slot(Record, frozen=True):
    """A named slot; ``optional`` is the ``?`` marker before the first fill."""

    name: str
    alternatives: tuple[FillAlternative, ...]
    optional: bool = False
    line: int = 0
    column: int = 0


@compare_without("line", "column")
class Instance(Record, frozen=True):
    """An instance ``<TYPE-DOCID-N> :=`` and its slots."""

    type: str
    docid: str
    number: int
    slots: tuple[Slot, ...]
    line: int = 0
    column: int = 0

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


class InstanceSet(Record, frozen=True):
    """The instances of one document, grouped by the DOCID of their headers."""

    docid: str
    instances: tuple[Instance, ...]


class UsualSlots(Record, frozen=True):
    """Where the reader of a file of usual lines put the text fills it listed
    (:meth:`TemplateSet.usual_fills`): the slot of each and the instance it is in.

    Every slot of such a file has one alternative, its name comes once in its instance, and
    each text fill is its own minimal string at its one extent; what is left to know of a
    fill, to count it as the early refusal counts it (``scoring/refusal``), is kept here.
    """

    names: list[str]  # per listed fill, its slot's name
    heads: list[int]  # per instance in file order, the index of its first listed fill; then their number
    several: list[tuple[int, str]]  # each slot of more than one fill (pointers too): its instance's index, its name


@compare_without("path", "warnings")
class TemplateSet(Record, frozen=True, dict=True, gc=True):
    """A whole templette file.

    With an instance dictionary (a run makes two), where the reader leaves what it found of
    the file's fills as it read them (:meth:`fill_bounds`, :meth:`usual_fills`), beside the
    fields (msgspec allows it only for a record the garbage collector tracks). That is no
    field: not compared, not pickled, and a copy (``replace``) is made without it.
    """

    instance_sets: tuple[InstanceSet, ...]
    role: Role = "reference"
    path: str = ""
    warnings: tuple[InputWarning, ...] = ()

    def fill_bounds(self) -> list[tuple[int, int] | None] | None:
        """Per instance set, the smallest start and the largest end of the (first) extents of
        its text fills (None for a set without one), when the reader found them as it made the
        fills (a hypothesis file read a usual line at a time: each of its fills has one extent);
        else None. An unsegmented hypothesis's sets are placed in the reference documents by
        them, without a walk over every fill. Each is what ``split_sets._fills_bounds``, that
        walk, gives for its set: the walk takes its place where there are none, and is its
        oracle (tests/scoring/test_split_sets.py)."""
        return self.__dict__.get("_fill_bounds")

    def keep_fill_bounds(self, bounds: list[tuple[int, int] | None]) -> None:
        """Keep ``bounds`` for :meth:`fill_bounds` (the reader's, as it makes the set)."""
        self.__dict__["_fill_bounds"] = bounds

    def usual_fills(self) -> tuple[list[TextFill], list[int]] | None:
        """The text fills in file order and, per instance set, the index of its first (then
        their number), when the reader made each from a usual line as it read the file (one
        extent, its own minimal extent, no brackets) and each DOCID's instances came in one run
        (a file whose DOCIDs come back later has none): set k's are ``fills[starts[k]:starts[k + 1]]``;
        else None. The check against the text reads a set's fills from this list instead of
        walking its instances, slots and alternatives (a third of the check's time); the walk,
        :meth:`text_fills` per set, is its oracle (tests/io/test_templettes.py)."""
        return self.__dict__.get("_usual_fills")

    def keep_usual_fills(self, fills: list[TextFill], starts: list[int]) -> None:
        """Keep ``fills`` and ``starts`` for :meth:`usual_fills` (the reader's, as it makes the set)."""
        self.__dict__["_usual_fills"] = (fills, starts)

    def usual_slots(self) -> UsualSlots | None:
        """The slot of each fill of :meth:`usual_fills` and the instance it is in, when the
        reader listed them (with those fills); else None. The early refusal counts a large
        document's contents as written from them instead of walking its instances, slots and
        alternatives; the walk, ``refusal.written_contents``, is its oracle
        (tests/scoring/test_refusal.py)."""
        return self.__dict__.get("_usual_slots")

    def keep_usual_slots(self, slots: UsualSlots) -> None:
        """Keep ``slots`` for :meth:`usual_slots` (the reader's, as it makes the set)."""
        self.__dict__["_usual_slots"] = slots

    @property
    def instances(self) -> tuple[Instance, ...]:
        return tuple(inst for iset in self.instance_sets for inst in iset.instances)

    def text_fills(self, unscored: frozenset[str] = frozenset()) -> Iterator[tuple[str, TextFill]]:
        """(DOCID, fill) of each text fill in a slot not ``unscored``, in file order."""
        for inst in self.instances:
            docid = inst.docid
            for slot in inst.slots:
                if slot.name not in unscored:
                    for alternative in slot.alternatives:
                        for fill in alternative.fills:
                            if type(fill) is TextFill:
                                yield docid, fill

    def instance_set(self, docid: str) -> InstanceSet | None:
        for iset in self.instance_sets:
            if iset.docid == docid:
                return iset
        return None


class Document(Record, frozen=True):
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


@compare_without("path", "warnings", "spoken_element")
class Corpus(Record, frozen=True, dict=True, gc=True):
    """A text corpus file: its documents in file order.

    With an instance dictionary (a run makes two): :meth:`document` keeps its
    index of the documents by DOCID there, beside the fields (which msgspec
    allows only for a record the garbage collector tracks).
    """

    documents: tuple[Document, ...]
    segmented: bool = True
    path: str = ""
    warnings: tuple[InputWarning, ...] = ()
    spoken_element: str = "TEXT"

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
