"""Checking a template set against the text corpus its offsets point into.

A templette file and its corpus are written separately, so nothing but this
check catches a DOCID that names no document, an extent past the end of its
document, or content that does not read like the text at its extent.  The
first two make scoring meaningless and are errors; a content mismatch is
only a warning (annotators abbreviate, the procedure still scores it).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from hub4eval.errors import InputError, InputWarning
from hub4eval.model import Corpus, Document, Extent, Instance, TemplateSet, TextFill

__all__ = ["check_against_corpus"]

_SHOWN = 60  # characters of a string shown in a mismatch warning


def check_against_corpus(tset: TemplateSet, corpus: Corpus, *, as_stream: bool = False) -> tuple[InputWarning, ...]:
    """Check DOCIDs, extents and content of ``tset`` against ``corpus``.

    In a segmented corpus every DOCID of the template set must be a document,
    every extent must lie within its document (``0 <= a <= b <= len(text)``)
    and each text fill's content should equal the document text at its
    maximal extent once whitespace runs are folded.  In an unsegmented corpus
    (one document with DOCID None, offsets from the start of the file) only
    the extents are checked, against the whole file.

    Args:
        tset: a parsed template set (reference or hypothesis).
        corpus: the text corpus its offsets refer to.
        as_stream: the corpus is segmented but scored as unsegmented
            (``--unsegmented``): offsets count from the start of the file, so
            only the extents are checked, against the end of its last document.

    Returns:
        Warnings about content that does not match the text, in file order.

    Raises:
        InputError: a DOCID that is not in the corpus, or an extent outside
            its document; positioned at the header or fill in the template
            file.
    """
    warnings: list[InputWarning] = []
    if not corpus.segmented or as_stream:
        if corpus.segmented:
            length = max((doc.offset + len(doc.text) for doc in corpus.documents), default=0)
        else:
            length = len(corpus.documents[0].text) if corpus.documents else 0
        for instance in tset.instances:
            for fill in _text_fills(instance):
                _check_extents(tset, fill, length, "the text file")
        return ()
    docids = [doc.docid for doc in corpus.documents if doc.docid is not None]
    for iset in tset.instance_sets:
        if not iset.instances:  # a document without instances (named entities: no region): nothing to check
            continue
        document = corpus.document(iset.docid)
        first = iset.instances[0]
        if document is None:
            raise _unknown_docid(tset, corpus, first, docids)
        for instance in iset.instances:
            for fill in _text_fills(instance):
                _check_extents(tset, fill, len(document.text), f"document {iset.docid}")
                warning = _content_mismatch(tset, fill, document)
                if warning is not None:
                    warnings.append(warning)
                else:
                    warnings += _minimal_mismatches(tset, fill, document)
    return tuple(warnings)


def _text_fills(instance: Instance) -> Iterator[TextFill]:
    for slot in instance.slots:
        for alternative in slot.alternatives:
            for fill in alternative.fills:
                if isinstance(fill, TextFill):
                    yield fill


def _unknown_docid(tset: TemplateSet, corpus: Corpus, instance: Instance, docids: list[str]) -> InputError:
    close = difflib.get_close_matches(instance.docid, docids, n=3, cutoff=0.6)
    if close:
        hint = f"did you mean {' or '.join(close)}?"
    elif docids:
        count = f"{len(docids)} document{'s' if len(docids) != 1 else ''}"
        hint = f"the corpus has {count}, e.g. {docids[0]}; is this the right text file?"
    else:
        hint = "the corpus has no documents; is this the right text file?"
    where = f" {corpus.path}" if corpus.path else ""
    return InputError(
        f"document {instance.docid} (of {instance.key}) is not in the text corpus{where}",
        tset.path,
        instance.line,
        instance.column,
        hint=hint,
    )


def _check_extents(tset: TemplateSet, fill: TextFill, length: int, name: str) -> None:
    for extent in (*fill.extents, *fill.minimal_extents):
        if not 0 <= extent.start <= extent.end <= length:
            raise InputError(
                f"extent {extent.start}..{extent.end} of {_shorten(fill.content)!r} lies outside {name} "
                f"(length {length})",
                tset.path,
                fill.line,
                fill.column,
                hint="offsets count characters from 0 at the '<' of the document's opening tag",
            )


def _fold(text: str) -> str:
    return " ".join(text.split())


def _shorten(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _content_mismatch(tset: TemplateSet, fill: TextFill, document: Document) -> InputWarning | None:
    extent: Extent | None = fill.extent
    if extent is None:
        return None
    written = _fold(fill.content)
    actual = _fold(document.text[extent.start : extent.end])
    if written == actual:
        return None
    return InputWarning(
        f"content {_shorten(written)!r} does not match the text at {extent.start}..{extent.end}: {_shorten(actual)!r}",
        tset.path,
        fill.line,
        fill.column,
    )


def _minimal_mismatches(tset: TemplateSet, fill: TextFill, document: Document) -> list[InputWarning]:
    """Each ``[minimal]`` string against the text at its minimal extent.

    Checked only when the maximal string matched: then a mismatch means the
    minimal extent (given, or derived from the maximal one when the content's
    spacing differs from the text's) points at other characters, and the
    extent points would be decided on the wrong span.
    """
    if not fill.bracketed:
        return []
    warnings = []
    for (a, b), extent in zip(fill.minimal_spans, fill.minimal_extents, strict=False):
        written = _fold(fill.content[a:b])
        actual = _fold(document.text[extent.start : extent.end])
        if written != actual:
            warnings.append(
                InputWarning(
                    f"minimal string {_shorten(written)!r} does not match the text at its minimal extent "
                    f"{extent.start}..{extent.end}: {_shorten(actual)!r}",
                    tset.path,
                    fill.line,
                    fill.column,
                )
            )
    return warnings
