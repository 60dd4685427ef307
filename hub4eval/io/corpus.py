"""§1: text corpora, one file holding a sequence of SGML-tagged documents.

A document runs from the ``<`` of its opening document tag (``<DOC>`` by
default) to the end of its closing tag; templette offsets count characters
(not bytes) from that ``<``. Its identifier is the non-blank characters of its
document-identifier element (``<DOCNO>``). Extractable text is every character
outside tags, except the content of non-extractable elements (``ANNOTATION``).

A file with no document tags at all is an *unsegmented* corpus (raw ASR output:
words and time-stamp tags): one document with DOCID None whose offsets count
from the start of the file (§7.4).

The reader is one regular-expression scan over the tags, linear in the file.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hub4eval.config import DEFAULT_NON_EXTRACTABLE, DEFAULT_SPOKEN_ELEMENT
from hub4eval.errors import InputError, InputWarning
from hub4eval.model import Corpus, Document

__all__ = ["as_unsegmented", "parse_corpus", "read_corpus", "with_spoken_element"]

_TAG = re.compile(r"<(/?)\s*([A-Za-z][\w.:-]*)?[^<>]*>|<")


@dataclass(frozen=True)
class _Tag:
    start: int
    end: int
    name: str  # upper case; "" for a tag without a name (<>, <!-- ...>)
    closing: bool


class _Lines:
    """Offsets -> 1-based (line, column), by bisection over line starts."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def _tags(text: str, path: str, lines: _Lines) -> list[_Tag]:
    tags = []
    for match in _TAG.finditer(text):
        if match.group(0) == "<":
            line, column = lines.position(match.start())
            raise InputError(
                "'<' opens a tag that is never closed with '>'",
                path,
                line,
                column,
                hint="SGML tags look like <NAME> or </NAME>; a literal '<' in text must be escaped as &lt;",
            )
        tags.append(_Tag(match.start(), match.end(), (match.group(2) or "").upper(), bool(match.group(1))))
    return tags


def _extractable(
    tags: Sequence[_Tag],
    start: int,
    end: int,
    non_extractable: frozenset[str],
    path: str,
    lines: _Lines,
) -> tuple[tuple[int, int], ...]:
    """Spans of [start, end) outside tags and non-extractable elements, relative to ``start``."""
    spans: list[tuple[int, int]] = []
    position = start
    open_element: _Tag | None = None
    depth = 0  # the same element nested inside itself
    for tag in tags:
        if tag.name in non_extractable:
            if open_element is None:
                if tag.closing:
                    line, column = lines.position(tag.start)
                    raise InputError(
                        f"</{tag.name}> without an open <{tag.name}>",
                        path,
                        line,
                        column,
                        hint=f"check the spelling of the opening <{tag.name}> tag: "
                        "without it the element's content would be read as text",
                    )
                if tag.start > position:
                    spans.append((position - start, tag.start - start))
                open_element, depth = tag, 1
            elif tag.name == open_element.name:
                depth += -1 if tag.closing else 1
                if depth == 0:
                    open_element = None
                    position = tag.end
            continue
        if open_element is not None:
            continue
        if tag.start > position:
            spans.append((position - start, tag.start - start))
        position = max(position, tag.end)
    if open_element is not None:
        line, column = lines.position(open_element.start)
        raise InputError(
            f"<{open_element.name}> element is not closed",
            path,
            line,
            column,
            hint=f"add </{open_element.name}> before the end of its document",
        )
    if end > position:
        spans.append((position - start, end - start))
    return tuple(spans)


def _spoken(
    tags: Sequence[_Tag],
    start: int,
    extractable: tuple[tuple[int, int], ...],
    element: str,
    path: str,
    lines: _Lines | None,
) -> tuple[tuple[int, int], ...] | None:
    """The extractable spans (relative to ``start``) inside ``element``; None without one (§1).

    ``lines`` None: a malformed element is read leniently (to the end), for
    corpora already checked when they were read.
    """
    inside: list[tuple[int, int]] = []
    opened: _Tag | None = None
    depth = 0
    for tag in tags:
        if tag.name != element:
            continue
        if not tag.closing:
            if depth == 0:
                opened = tag
            depth += 1
        elif depth == 0:
            if lines is not None:
                raise InputError(
                    f"</{element}> without an open <{element}>",
                    path,
                    *lines.position(tag.start),
                    hint=f"every </{element}> closes an earlier <{element}> (the spoken text of the document)",
                )
        else:
            depth -= 1
            if depth == 0 and opened is not None:
                inside.append((opened.end - start, tag.start - start))
    if opened is None:
        return None
    if depth:
        if lines is not None:
            raise InputError(
                f"<{element}> element is not closed",
                path,
                *lines.position(opened.start),
                hint=f"add </{element}> after the spoken text of the document",
            )
        inside.append((opened.end - start, 1 << 62))
    spoken = []
    for a, b in extractable:
        for c, d in inside:
            lo, hi = max(a, c), min(b, d)
            if lo < hi:
                spoken.append((lo, hi))
    return tuple(spoken)


def parse_corpus(
    text: str,
    path: str = "<string>",
    *,
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE,
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT,
) -> Corpus:
    """Parse the text of a corpus file.

    Args:
        text: the whole file.
        path: the file name used in messages.
        doc_tag: generic identifier of the document tags (case-insensitive).
        docno_tag: generic identifier of the document-identifier element.
        non_extractable: elements whose content is not text.
        spoken_element: in a document that has this element, only the
            extractable text inside it is spoken.

    Returns:
        The corpus; unsegmented (one document, DOCID None) when the file has no
        document tags.

    Raises:
        InputError: a tag never closed, a document not closed, a stray closing
            tag (of a document or a non-extractable element), a non-extractable
            element not closed, a document without (or with two) identifiers,
            an empty or duplicate identifier; positioned in ``path``.
    """
    lines = _Lines(text)
    doc, docno = doc_tag.upper(), docno_tag.upper()
    spoken_name = spoken_element.upper()
    hidden = frozenset(name.upper() for name in non_extractable)
    tags = _tags(text, path, lines)
    warnings: list[InputWarning] = []

    def error(message: str, offset: int, hint: str | None = None) -> InputError:
        line, column = lines.position(offset)
        return InputError(message, path, line, column, hint=hint)

    if not any(tag.name == doc for tag in tags):
        # No document tags: raw ASR output. An empty file lands here too; the
        # caller knows whether it was the reference or the hypothesis and says so.
        extractable = _extractable(tags, 0, len(text), hidden, path, lines)
        spoken = _spoken(tags, 0, extractable, spoken_name, path, lines)
        whole = Document(None, text, 0, 1, extractable, spoken)
        return Corpus((whole,), segmented=False, path=path, warnings=(), spoken_element=spoken_element)

    documents: list[Document] = []
    seen: dict[str, int] = {}
    opened: _Tag | None = None
    first_tag = 0
    outside = 0  # end of the last document: text between documents must be blank
    for index, tag in enumerate(tags):
        if tag.name != doc:
            continue
        if not tag.closing:
            if opened is not None:
                raise error(
                    f"<{doc_tag}> opened before the document opened at line "
                    f"{lines.position(opened.start)[0]} is closed",
                    tag.start,
                    hint=f"close every document with </{doc_tag}>",
                )
            if text[outside : tag.start].strip() and not warnings:
                stray = outside + len(text[outside : tag.start]) - len(text[outside : tag.start].lstrip())
                line, column = lines.position(stray)
                warnings.append(InputWarning("text outside any document is ignored", path, line, column))
            opened, first_tag = tag, index
            continue
        if opened is None:
            raise error(
                f"</{doc_tag}> without an open document",
                tag.start,
                hint=f"every </{doc_tag}> closes an earlier <{doc_tag}>",
            )
        inner = tags[first_tag + 1 : index]
        document = _document(text, opened, tag, inner, docno, docno_tag, hidden, seen, path, lines)
        spoken = _spoken(inner, opened.start, document.extractable, spoken_name, path, lines)
        if spoken is not None:
            document = Document(
                document.docid, document.text, document.offset, document.line, document.extractable, spoken
            )
        documents.append(document)
        opened, outside = None, tag.end
    if opened is not None:
        raise error(
            f"document <{doc_tag}> is not closed",
            opened.start,
            hint=f"add </{doc_tag}> at the end of the document",
        )
    if text[outside:].strip() and not warnings:
        stray = outside + len(text[outside:]) - len(text[outside:].lstrip())
        line, column = lines.position(stray)
        warnings.append(InputWarning("text outside any document is ignored", path, line, column))
    return Corpus(tuple(documents), segmented=True, path=path, warnings=tuple(warnings), spoken_element=spoken_element)


def _document(
    text: str,
    open_tag: _Tag,
    close_tag: _Tag,
    inner: Sequence[_Tag],
    docno: str,
    docno_tag: str,
    hidden: frozenset[str],
    seen: dict[str, int],
    path: str,
    lines: _Lines,
) -> Document:
    start, end = open_tag.start, close_tag.end
    line, column = lines.position(start)
    opens = [t for t in inner if t.name == docno and not t.closing]
    if not opens:
        raise InputError(
            f"document has no <{docno_tag}> element",
            path,
            line,
            column,
            hint=f"every document needs <{docno_tag}> ID </{docno_tag}> (or set --docno-tag)",
        )
    if len(opens) > 1:
        second = lines.position(opens[1].start)
        raise InputError(
            f"document has two <{docno_tag}> elements",
            path,
            *second,
            hint="a document has exactly one identifier",
        )
    closing = next((t for t in inner if t.name == docno and t.closing and t.start > opens[0].start), None)
    if closing is None:
        raise InputError(
            f"<{docno_tag}> element is not closed",
            path,
            *lines.position(opens[0].start),
            hint=f"write <{docno_tag}> ID </{docno_tag}>",
        )
    docid = "".join(text[opens[0].end : closing.start].split())
    if not docid:
        raise InputError(
            f"empty <{docno_tag}> element",
            path,
            *lines.position(opens[0].start),
            hint="the identifier is the element's non-blank characters",
        )
    if docid in seen:
        raise InputError(
            f"duplicate {docno_tag} {docid} (first at line {seen[docid]})",
            path,
            *lines.position(opens[0].start),
            hint="every document of a corpus needs its own identifier",
        )
    seen[docid] = lines.position(opens[0].start)[0]
    spans = _extractable(inner, start, end, hidden, path, lines)
    # the document's own tags are not text: trim them from the first and last span
    spans = tuple(
        (max(a, open_tag.end - start), min(b, close_tag.start - start))
        for a, b in spans
        if min(b, close_tag.start - start) > max(a, open_tag.end - start)
    )
    return Document(docid, text[start:end], start, line, spans)


def as_unsegmented(corpus: Corpus) -> Corpus:
    """A segmented corpus seen as one stream: offsets from the start of the file (§7.4).

    Used when ``--unsegmented`` is asked for a hypothesis text that has
    document tags; text between documents (not kept) becomes blanks.
    """
    if not corpus.segmented:
        return corpus
    pieces: list[str] = []
    spans: list[tuple[int, int]] = []
    spoken: list[tuple[int, int]] = []
    position = 0
    for doc in corpus.documents:
        pieces.append(" " * (doc.offset - position))
        pieces.append(doc.text)
        spans.extend((doc.offset + a, doc.offset + b) for a, b in doc.extractable)
        spoken.extend((doc.offset + a, doc.offset + b) for a, b in doc.spoken_spans())
        position = doc.offset + len(doc.text)
    whole = Document(None, "".join(pieces), 0, 1, tuple(spans), None if spoken == spans else tuple(spoken))
    return Corpus(
        (whole,), segmented=False, path=corpus.path, warnings=corpus.warnings, spoken_element=corpus.spoken_element
    )


def with_spoken_element(corpus: Corpus, element: str) -> Corpus:
    """``corpus`` with its spoken text read from ``element`` instead (§1).

    For a corpus parsed with another spoken element than the one a score
    asks for (the library API); the documents keep their tags in ``text``.
    """
    if corpus.spoken_element.upper() == element.upper():
        return corpus
    name = element.upper()
    documents = []
    for doc in corpus.documents:
        tags = _tags_lenient(doc.text)
        documents.append(
            Document(
                doc.docid,
                doc.text,
                doc.offset,
                doc.line,
                doc.extractable,
                _spoken(tags, 0, doc.extractable, name, corpus.path, None),
            )
        )
    return Corpus(tuple(documents), corpus.segmented, corpus.path, corpus.warnings, spoken_element=element)


def _tags_lenient(text: str) -> list[_Tag]:
    return [
        _Tag(m.start(), m.end(), (m.group(2) or "").upper(), bool(m.group(1)))
        for m in _TAG.finditer(text)
        if m.group(0) != "<"
    ]


def read_corpus(
    path: str,
    *,
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE,
    encoding: str = "utf-8",
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT,
) -> Corpus:
    """Read and parse a corpus file (see :func:`parse_corpus`).

    Raises:
        InputError: unreadable file, bytes not valid in ``encoding`` (with the
            position of the first bad byte), or any error of
            :func:`parse_corpus`.
    """
    from hub4eval.io.files import read_text

    name = str(path)
    return parse_corpus(
        read_text(name, encoding),
        name,
        doc_tag=doc_tag,
        docno_tag=docno_tag,
        non_extractable=non_extractable,
        spoken_element=spoken_element,
    )
