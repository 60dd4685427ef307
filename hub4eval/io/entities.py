"""Named-entity inputs: texts with MUC inline markup, or JSON Lines, and their templettes.

Two input forms give the same thing, an :class:`EntityCorpus`: a text
corpus (the text *without* the entity markup, so that offsets and the word
alignment never see it) and the tagged regions in it.

- **MUC inline markup** in an SGML corpus or in raw recognizer output::

      <ENAMEX TYPE="PERSON">Boris Yeltsin</ENAMEX> met ... <NUMEX TYPE="MONEY">$4.2 billion</NUMEX>

  Elements ``ENAMEX``, ``TIMEX`` and ``NUMEX`` (any case; also written
  ``<b_enamex TYPE=...>`` ... ``<e_enamex>``, as HUB-4 files do), with a ``TYPE``
  attribute (quoted with ``"`` or ``'``, or unquoted; any value). The tags are
  removed and every other character is kept, so the text left is an ordinary
  corpus (documents, ``<DOCNO>``, ``<TEXT>``, time stamps) read by
  :func:`hub4eval.io.corpus.parse_corpus`. A region is the text between its
  tags, blanks at both ends left out. Elements may nest; bad markup (an
  element not closed, elements that cross, a closing tag with no element
  open, a missing ``TYPE``, a tag inside a word, a region with no text) is an
  :class:`~hub4eval.errors.InputError` at its line and column in the file as
  written, markup included.
- **JSON Lines**, one document a line:
  ``{"id": "doc1", "text": "...", "entities": [["PERSON", 0, 13], ...]}``,
  offsets counting characters of ``text``, end exclusive. An entity may give
  its element as a fourth item (``["PERSON", 0, 13, "ENAMEX"]``); without it
  the element follows from the type (:data:`ELEMENT_OF_TYPE`, ENAMEX for a
  type not listed). ``[start, end, TYPE]`` (spaCy's order) and
  ``{"type": TYPE, "start": ..., "end": ...}`` (or ``"label"``, and
  ``"element"``) are read too. The documents become an SGML corpus, each
  ``<DOC>``/``<DOCNO>``/``<TEXT>`` around its text (a ``<`` of the text is read
  as the character ``‹``, so that it cannot open a tag).

:func:`entity_templates` turns the regions into the templettes that are scored:
one instance per region, its type the element, with the slots ``TYPE`` (the
attribute's value, unquoted) and ``TEXT`` (the region's text and extent).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hub4eval.config import DEFAULT_NON_EXTRACTABLE, DEFAULT_SPOKEN_ELEMENT
from hub4eval.errors import InputError, InputWarning
from hub4eval.model import (
    Corpus,
    Extent,
    FillAlternative,
    Instance,
    InstanceSet,
    Role,
    Slot,
    TemplateSet,
    TextFill,
)

__all__ = [
    "ELEMENTS",
    "ELEMENT_OF_TYPE",
    "Entity",
    "EntityCorpus",
    "entity_templates",
    "parse_entity_jsonl",
    "parse_muc_markup",
    "read_entity_corpus",
]

ELEMENTS = ("ENAMEX", "TIMEX", "NUMEX")
ELEMENT_OF_TYPE = {
    "PERSON": "ENAMEX",
    "ORGANIZATION": "ENAMEX",
    "LOCATION": "ENAMEX",
    "DATE": "TIMEX",
    "TIME": "TIMEX",
    "MONEY": "NUMEX",
    "PERCENT": "NUMEX",
}

# <ENAMEX ...> and </ENAMEX> (MUC); <b_enamex ...> and <e_enamex> (the HUB-4 form, same meaning)
_NE_TAG = re.compile(r"<\s*(/?)\s*(b_|e_)?(ENAMEX|TIMEX|NUMEX)(?![\w.:-])([^<>]*)>", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")


@dataclass(frozen=True)
class Entity:
    """One tagged region: its element, TYPE value, document and extent.

    ``start``/``end`` count characters of the document's text without the
    markup (from the ``<`` of its ``<DOC>``, or from the start of an
    unsegmented file), end exclusive. ``line``/``column``: where its opening
    tag (or JSON line) is in the file as written.
    """

    element: str
    type: str
    docid: str | None
    start: int
    end: int
    line: int = 0
    column: int = 0
    optional: bool = False


@dataclass(frozen=True)
class EntityCorpus:
    """A text corpus without its entity markup, and the regions that were tagged in it."""

    corpus: Corpus
    entities: tuple[Entity, ...]
    text: str  # the whole corpus text without the markup (what ``--to-templettes`` writes)

    @property
    def path(self) -> str:
        return self.corpus.path


class _Positions:
    """Offsets of a text -> 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def offset(self, line: int, column: int) -> int:
        line = min(max(line, 1), len(self.starts))
        return self.starts[line - 1] + max(column, 1) - 1


def _is_word(char: str) -> bool:
    return char.isalnum()


@dataclass(frozen=True)
class _Open:
    element: str
    type: str
    start: int  # offset in the text without markup
    tag_start: int  # offset of the tag in the file
    tag_end: int
    optional: bool


def parse_muc_markup(
    text: str,
    path: str = "<string>",
    *,
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE,
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT,
) -> EntityCorpus:
    """Read a corpus with MUC inline entity markup (see the module docstring).

    Raises:
        InputError: bad markup, or any error of :func:`hub4eval.io.corpus.parse_corpus`
            on the text without it; positioned in the file as written.
    """
    from hub4eval.io.corpus import parse_corpus

    where = _Positions(text)

    def error(message: str, offset: int, hint: str) -> InputError:
        return InputError(message, path, *where.position(offset), hint=hint)

    pieces: list[str] = []
    removed_at: list[int] = []  # offset (without markup) where markup was removed ...
    removed_before: list[int] = []  # ... and how many characters were removed up to there
    position = 0
    removed = 0
    stack: list[_Open] = []
    regions: list[tuple[_Open, int]] = []
    doc_close = re.compile(rf"<\s*/\s*{re.escape(doc_tag)}\s*>", re.IGNORECASE)
    for match in _NE_TAG.finditer(text):
        before = text[match.start() - 1] if match.start() else ""
        after = text[match.end()] if match.end() < len(text) else ""
        prefix = (match.group(2) or "").lower()
        if match.group(1) and prefix:
            raise error(
                f"{match.group(0)!r} is both a closing tag and a b_/e_ tag",
                match.start(),
                f"close with </{match.group(3).upper()}> or <e_{match.group(3).lower()}>",
            )
        closing, name = bool(match.group(1)) or prefix == "e_", match.group(3).upper()
        pieces.append(text[position : match.start()])
        here = match.start() - removed  # offset of the tag's place in the text without markup
        if stack and doc_close.search(text, stack[-1].tag_end, match.start()):
            opened = stack[-1]
            raise error(
                f"<{opened.element}> element is not closed before the end of its document",
                opened.tag_start,
                f"add </{opened.element}> after the words of the region",
            )
        if not closing:
            attributes = {
                m.group(1).upper(): next(g for g in m.groups()[1:] if g is not None)
                for m in _ATTRIBUTE.finditer(match.group(4))
            }
            value = attributes.get("TYPE", "").strip()
            if not value:
                raise error(
                    f"<{name}> has no TYPE attribute" if "TYPE" not in attributes else f"<{name}> has an empty TYPE",
                    match.start(),
                    f'write the type of the region, e.g. <{name} TYPE="{_example_type(name)}">',
                )
            if _is_word(before) and _is_word(after):
                raise error(
                    f"<{name}> tag inside a word",
                    match.start(),
                    "a region starts and ends between words: move the tag before the word",
                )
            stack.append(
                _Open(name, value, here, match.start(), match.end(), attributes.get("STATUS", "").upper() == "OPT")
            )
        else:
            if match.group(4).strip():
                raise error(
                    f"</{name}> closing tag with attributes",
                    match.start(),
                    f"a closing tag is just </{name}>",
                )
            if not stack:
                raise error(
                    f"</{name}> without an open <{name}>",
                    match.start(),
                    f"every </{name}> closes an earlier <{name} TYPE=...>",
                )
            if stack[-1].element != name:
                inner = stack[-1]
                if any(o.element == name for o in stack):
                    line, column = where.position(inner.tag_start)
                    raise error(
                        f"</{name}> closes <{name}> while the <{inner.element}> opened at {line}:{column} is open: "
                        "the elements cross",
                        match.start(),
                        f"close </{inner.element}> first (elements nest, they never cross)",
                    )
                raise error(
                    f"</{name}> without an open <{name}>",
                    match.start(),
                    f"the open element is <{inner.element}>: close it with </{inner.element}>",
                )
            if _is_word(before) and _is_word(after):
                raise error(
                    f"</{name}> tag inside a word",
                    match.start(),
                    "a region starts and ends between words: move the tag after the word",
                )
            opened = stack.pop()
            regions.append((opened, here))
        position = match.end()
        removed += match.end() - match.start()
        removed_at.append(here)
        removed_before.append(removed)
    if stack:
        opened = stack[-1]
        end_of_document = doc_close.search(text, opened.tag_end) is not None
        raise error(
            f"<{opened.element}> element is not closed"
            + (" before the end of its document" if end_of_document else ""),
            opened.tag_start,
            f"add </{opened.element}> after the words of the region",
        )
    pieces.append(text[position:])
    plain = "".join(pieces)

    def original(offset: int) -> int:
        """Offset in the file as written of an offset of the text without markup."""
        index = bisect.bisect_right(removed_at, offset) - 1
        return offset + (removed_before[index] if index >= 0 else 0)

    plain_where = _Positions(plain)

    def moved(line: int | None, column: int | None) -> tuple[int | None, int | None]:
        if line is None:
            return line, column
        return where.position(original(plain_where.offset(line, column or 1)))

    try:
        corpus = parse_corpus(
            plain,
            path,
            doc_tag=doc_tag,
            docno_tag=docno_tag,
            non_extractable=non_extractable,
            spoken_element=spoken_element,
        )
    except InputError as failure:
        at_line, at_column = moved(failure.line, failure.column)
        raise InputError(failure.message, failure.path, at_line, at_column, hint=failure.hint) from None
    corpus = Corpus(
        corpus.documents,
        corpus.segmented,
        corpus.path,
        tuple(InputWarning(w.message, w.path, *moved(w.line, w.column)) for w in corpus.warnings),
        corpus.spoken_element,
    )
    entities = []
    starts = [doc.offset for doc in corpus.documents]
    for opened, end in sorted(regions, key=lambda r: (r[0].start, -r[1])):
        start = opened.start
        while start < end and plain[start].isspace():
            start += 1
        while end > start and plain[end - 1].isspace():
            end -= 1
        if start == end:
            raise error(
                f"<{opened.element}> region has no text",
                opened.tag_start,
                "remove the empty element, or put the words of the region inside it",
            )
        index = bisect.bisect_right(starts, start) - 1
        doc = corpus.documents[index] if index >= 0 else None
        if doc is None or end > doc.offset + len(doc.text):
            raise error(
                f"<{opened.element}> region is outside every document",
                opened.tag_start,
                "put the region inside a document's text",
            )
        first, last = start - doc.offset, end - doc.offset
        inside = any(a <= first < b for a, b in doc.extractable) and any(a < last <= b for a, b in doc.extractable)
        if not inside:
            raise error(
                f"<{opened.element}> region starts or ends outside the document's text (in a tag or a "
                "non-extractable element)",
                opened.tag_start,
                "tag only words of the text",
            )
        line, column = where.position(opened.tag_start)
        entities.append(
            Entity(
                opened.element,
                opened.type,
                doc.docid,
                start - doc.offset,
                end - doc.offset,
                line,
                column,
                opened.optional,
            )
        )
    return EntityCorpus(corpus, tuple(entities), plain)


def _example_type(element: str) -> str:
    return {"ENAMEX": "PERSON", "TIMEX": "DATE", "NUMEX": "MONEY"}.get(element, "PERSON")


def parse_entity_jsonl(
    text: str, path: str = "<string>", *, spoken_element: str = DEFAULT_SPOKEN_ELEMENT
) -> EntityCorpus:
    """Read JSON Lines entities (see the module docstring).

    Raises:
        InputError: a line that is not a JSON object with ``id`` (a non-blank
            string), ``text`` (a string) and ``entities`` (a list of
            ``[TYPE, start, end]`` or ``[TYPE, start, end, ELEMENT]``), an
            offset outside the text or reversed, a region with no text, a
            duplicate id; positioned at the line.
    """
    pieces: list[str] = []
    offset = 0
    entities: list[Entity] = []
    seen: dict[str, int] = {}
    file_line = 1
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue

        def error(message: str, hint: str, column: int = 1) -> InputError:
            return InputError(message, path, number, column, hint=hint)  # noqa: B023

        try:
            record = json.loads(line)
        except json.JSONDecodeError as failure:
            raise error(
                f"not JSON: {failure.msg}",
                'one document a line: {"id": ..., "text": ..., "entities": [[TYPE, start, end], ...]}',
                failure.colno,
            ) from None
        except ValueError as failure:  # an integer of more than 4,300 digits: Python refuses to convert it
            raise error(f"not JSON that can be read: {failure}".split(";")[0], "offsets are small integers") from None
        if not isinstance(record, dict):
            raise error("a line must be a JSON object", 'write {"id": ..., "text": ..., "entities": [...]}')
        docid, body, tagged = record.get("id"), record.get("text"), record.get("entities", [])
        if isinstance(docid, int) and not isinstance(docid, bool):
            docid = str(docid)
        if not isinstance(docid, str) or not docid.strip() or any(c.isspace() or c in "<>" for c in docid.strip()):
            raise error('"id" must be a non-blank string without blanks, < or >', 'e.g. "id": "doc1"')
        docid = docid.strip()
        if docid in seen:
            raise error(f"duplicate id {docid} (first at line {seen[docid]})", "every document needs its own id")
        seen[docid] = number
        if not isinstance(body, str):
            raise error('"text" must be a string', 'e.g. "text": "Boris Yeltsin met ..."')
        if not isinstance(tagged, list):
            raise error('"entities" must be a list of [TYPE, start, end]', 'e.g. "entities": [["PERSON", 0, 13]]')
        head = f"<DOC>\n<DOCNO> {docid} </DOCNO>\n<{spoken_element}>\n"
        body = body.replace("<", "\u2039")  # the text is not markup: a '<' cannot open a tag
        document_text = f"{head}{body}\n</{spoken_element}>\n</DOC>\n"
        for item in tagged:
            read = _entity_item(item)
            if read is None:
                raise error(
                    f"bad entity {json.dumps(item)}",
                    "an entity is [TYPE, start, end], [TYPE, start, end, ELEMENT], [start, end, TYPE] or "
                    '{"type": TYPE, "start": start, "end": end} (ELEMENT: ENAMEX, TIMEX or NUMEX), offsets whole numbers',
                )
            kind, start, end, given = read
            if not 0 <= start <= end <= len(body):
                raise error(
                    f"entity {json.dumps(item)} is outside the text of {len(body)} characters"
                    if start <= end
                    else f"entity {json.dumps(item)} ends before it starts",
                    'offsets count characters of "text" from 0, end exclusive',
                )
            while start < end and body[start].isspace():
                start += 1
            while end > start and body[end - 1].isspace():
                end -= 1
            if start == end:
                raise error(f"entity {json.dumps(item)} has no text", "give the characters of the region")
            element = given or ELEMENT_OF_TYPE.get(kind.upper(), "ENAMEX")
            entities.append(Entity(element, kind, docid, len(head) + start, len(head) + end, number, 1))
        pieces.append(document_text)
        offset += len(document_text)
        file_line += document_text.count("\n")
    if not pieces:
        raise InputError("no document in the JSON Lines file", path, 1, 1, hint="one JSON object a line")
    from hub4eval.io.corpus import parse_corpus

    plain = "".join(pieces)
    corpus = parse_corpus(plain, path, spoken_element=spoken_element)
    return EntityCorpus(corpus, tuple(entities), plain)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entity_item(item: object) -> tuple[str, int, int, str | None] | None:
    """(TYPE, start, end, ELEMENT or None) of a JSON entity, None when it is none of the forms read."""
    if isinstance(item, dict):
        kind = item.get("type", item.get("label"))
        element = item.get("element")
        start, end = item.get("start"), item.get("end")
        extra = set(item) - {"type", "label", "start", "end", "element"}
    elif isinstance(item, list) and len(item) == 3 and _whole(item[0]) and _whole(item[1]):
        (start, end, kind), element, extra = item, None, set()  # [start, end, TYPE] (spaCy's order)
    elif isinstance(item, list) and len(item) in (3, 4):
        kind, start, end = item[:3]
        element, extra = (item[3] if len(item) == 4 else None), set()
    else:
        return None
    if extra or not (isinstance(kind, str) and kind.strip() and _whole(start) and _whole(end)):
        return None
    if element is not None and not (isinstance(element, str) and element.upper() in ELEMENTS):
        return None
    return kind.strip(), start, end, None if element is None else element.upper()  # type: ignore[return-value]


def read_entity_corpus(
    path: str,
    *,
    form: str | None = None,
    encoding: str = "utf-8",
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE,
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT,
) -> EntityCorpus:
    """Read a file of tagged text: JSON Lines when ``form`` is ``jsonl`` or the
    name ends in ``.jsonl`` / ``.json`` (``form`` None), else MUC markup."""
    from hub4eval.io.files import read_text

    name = str(path)
    text = read_text(name, encoding)
    if not text.strip():
        raise InputError("the file is empty", name, 1, 1, hint="give the tagged text")
    if form == "jsonl" or (form is None and name.lower().endswith((".jsonl", ".json"))):
        return parse_entity_jsonl(text, name, spoken_element=spoken_element)
    return parse_muc_markup(
        text,
        name,
        doc_tag=doc_tag,
        docno_tag=docno_tag,
        non_extractable=non_extractable,
        spoken_element=spoken_element,
    )


def _fill(content: str, extent: Extent | None, line: int, column: int, quoted: bool = True) -> TextFill:
    extents = () if extent is None else (extent,)
    return TextFill(content, ((0, len(content)),), extents, extents, False, quoted, line, column)


def entity_templates(
    source: EntityCorpus,
    role: Role,
    groups: Sequence[tuple[str, Sequence[Entity]]] | None = None,
) -> TemplateSet:
    """The templettes of the regions: one instance set per document, one instance per region.

    Instance ``<ELEMENT-DOCID-N>`` (N counting the document's regions of that
    element in text order) with ``TYPE`` (the value, unquoted) and ``TEXT``
    (the region's characters and extent); an optional region (``STATUS="OPT"``,
    reference only) also gets ``OBJ_STATUS: OPTIONAL``. ``groups`` gives the
    instance sets of an unsegmented text: (DOCID, its regions) each.
    """
    if groups is None:
        by_doc: dict[str | None, list[Entity]] = {}
        for entity in source.entities:
            by_doc.setdefault(entity.docid, []).append(entity)
        groups = [(doc.docid or "", by_doc.get(doc.docid, [])) for doc in source.corpus.documents]
    texts = {doc.docid: doc.text for doc in source.corpus.documents}
    sets = []
    for docid, entities in groups:
        numbers: dict[str, int] = {}
        instances = []
        for entity in sorted(entities, key=lambda e: (e.start, -e.end)):
            numbers[entity.element] = number = numbers.get(entity.element, 0) + 1
            content = " ".join(texts[entity.docid][entity.start : entity.end].split())  # one line of a templette
            slots = [
                Slot("TYPE", (FillAlternative((_fill(entity.type, None, entity.line, entity.column, False),)),)),
                Slot(
                    "TEXT",
                    (FillAlternative((_fill(content, Extent(entity.start, entity.end), entity.line, entity.column),)),),
                ),
            ]
            if entity.optional and role == "reference":
                slots.append(
                    Slot(
                        "OBJ_STATUS", (FillAlternative((_fill("OPTIONAL", None, entity.line, entity.column, False),)),)
                    )
                )
            instances.append(Instance(entity.element, docid, number, tuple(slots), entity.line, entity.column))
        sets.append(InstanceSet(docid, tuple(instances)))
    return TemplateSet(tuple(sets), role=role, path=source.path)
