"""Checking a template set against the text corpus its offsets point into.

A templette file and its corpus are written separately, so nothing but this
check catches a DOCID that names no document, an extent past the end of its
document, or content that does not read like the text at its extent.  The
first two make scoring meaningless and are errors; a content mismatch is
only a warning (annotators abbreviate, the procedure still scores it),
unless most fills of the file do not fit: then the file and the text do not
belong together, an error that names the cause it finds by trying.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence

from hub4eval.errors import InputError, InputWarning
from hub4eval.model import Corpus, Extent, Instance, TemplateSet, TextFill
from hub4eval.util.records import replace

__all__ = ["ExtentOutside", "TextsDoNotFit", "UnknownDocument", "check_against_corpus", "misfit_count"]

_SHOWN = 60  # characters of a string shown in a mismatch warning


class UnknownDocument(InputError):
    """A DOCID of the templette file names no document of the text."""


class ExtentOutside(InputError):
    """An extent lies outside its document (or outside the unsegmented text)."""


class TextsDoNotFit(InputError):
    """Most text fills of a file do not fit the text they were checked against.

    ``misfits`` of ``fills`` text fills (with an extent) have content that is
    not the text at their extent, or an extent outside their document.
    """

    def __init__(self, *args: object, misfits: int = 0, fills: int = 0, **kwargs: object) -> None:
        self.misfits = misfits
        self.fills = fills
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def __reduce__(self):  # noqa: ANN204 - keep the fields when pickled (process pools)
        return (
            _texts_do_not_fit,
            (self.message, self.path, self.line, self.column, self.hint, self.misfits, self.fills),
        )

    def with_cause(self, cause: str, hint: str) -> TextsDoNotFit:
        """The same error with another likely cause and hint."""
        head = self.message.split(": ", 1)[0]
        return TextsDoNotFit(
            f"{head}: {cause}", self.path, self.line, self.column, hint=hint, misfits=self.misfits, fills=self.fills
        )


def _texts_do_not_fit(message, path, line, column, hint, misfits, fills) -> TextsDoNotFit:  # noqa: ANN001
    return TextsDoNotFit(message, path, line, column, hint=hint, misfits=misfits, fills=fills)


FORCE_HINT = "--force scores anyway"


def most_do_not_fit(misfits: int, fills: int) -> bool:
    """The rule that makes misfits an error: more than half of the text fills, and at least 3."""
    return misfits >= 3 and 2 * misfits > fills


def check_against_corpus(
    tset: TemplateSet, corpus: Corpus, *, as_stream: bool = False, force: bool = False
) -> tuple[InputWarning, ...]:
    """Check DOCIDs, extents and content of ``tset`` against ``corpus``.

    In a segmented corpus every DOCID of the template set must be a document,
    every extent must lie within its document (``0 <= a <= b <= len(text)``)
    and each text fill's content should equal the document text at its
    maximal extent once whitespace runs are folded.  In an unsegmented corpus
    (one document with DOCID None, offsets from the start of the file) the
    extents and the content are checked against the whole file.

    A text fill *does not fit* when its extent lies outside its document or
    its content is not the text there (compared by letters and digits, case
    folded: a fill written in other case or punctuation still fits). When most fills do not fit (more than
    half, and at least 3), the file and the text do not belong together (a
    text with CRLF line ends, the wrong text, texts swapped): that is an
    error, :class:`TextsDoNotFit`, which names the cause it finds by trying
    (the offsets fit once ``\r`` is dropped, or once line ends count two
    characters). With fewer, an extent outside is an error
    (:class:`ExtentOutside`) and a content mismatch a warning. ``force``
    turns both errors into warnings. Whenever fills do not fit, one more
    warning counts them; it is kept under ``--quiet``
    (``InputWarning.changes_score``).

    Args:
        tset: a parsed template set (reference or hypothesis).
        corpus: the text corpus its offsets refer to.
        as_stream: the corpus is segmented but scored as unsegmented
            (``--unsegmented``): offsets count from the start of the file.
        force: report fills that do not fit as warnings, never as an error.

    Returns:
        Warnings about fills that do not fit the text, in file order.

    Raises:
        UnknownDocument: a DOCID that is not in the corpus.
        ExtentOutside: an extent outside its document.
        TextsDoNotFit: most fills do not fit.
    """
    warnings: list[InputWarning] = []
    outside: list[ExtentOutside] = []
    fills = misfits = 0
    first: TextFill | None = None
    # The usual fill (one extent, its own minimal extent, no brackets) that is the text at its
    # extent, whitespace runs folded, fits and warns of nothing: counted here; every other is
    # checked below, in file order. The text fills of a file the reader made a usual line at a
    # time, each DOCID's instances in one run, are listed (TemplateSet.usual_fills), every one
    # usual: a set's are read from that list instead of found by a walk of its instances,
    # slots and alternatives (which was a third of this check).
    others: list[tuple[TextFill, str, str]] = []
    usual = tset.usual_fills()
    for sets, instances, text, name in _placed_instances(tset, corpus, as_stream):
        length = len(text)
        if usual is not None:
            listed, starts = usual
            run = listed[starts[sets.start] : starts[sets.stop]]
            before = len(others)
            for made in run:
                extent = made.extents[0]
                start, end = extent.start, extent.end
                if 0 <= start <= end <= length:
                    written = text[start:end]
                    if written == made.content or _same_words(written, made.content):
                        continue
                others.append((made, text, name))
            fills += len(run) - (len(others) - before)
            continue
        for instance in instances:
            for slot in instance.slots:
                for alternative in slot.alternatives:
                    for fill in alternative.fills:
                        if type(fill) is not TextFill:
                            continue
                        extents = fill.extents
                        if len(extents) == 1 and fill.minimal_extents is extents and not fill.bracketed:
                            extent = extents[0]
                            start, end = extent.start, extent.end
                            if 0 <= start <= end <= length:
                                written = text[start:end]
                                content = fill.content
                                if written == content or _same_words(written, content):
                                    fills += 1
                                    continue
                        others.append((fill, text, name))
    for fill, text, name in others:
        if not fill.extents and not fill.minimal_extents:
            continue
        fills += 1
        error = _outside(tset, fill, len(text), name)
        if error is not None:
            outside.append(error)
        else:
            warning = _content_mismatch(tset, fill, text)
            if warning is None:
                warnings += _minimal_mismatches(tset, fill, text)
                continue
            warnings.append(warning)
            if not _mismatch(fill, text, loose=True):
                continue  # case or punctuation written otherwise: the offsets still point at its words
        misfits += 1
        first = first or fill
    if not misfits:
        return tuple(warnings)
    what = f"{misfits} of {fills} text fill{'s' if fills != 1 else ''}"
    where = f" {corpus.path}" if corpus.path else ""
    if most_do_not_fit(misfits, fills) and not force:
        cause, hint = _likely_cause(tset, corpus, as_stream, misfits, len(outside))
        assert first is not None
        raise TextsDoNotFit(
            f"{what} do not fit the text{where} (content is not the text at the extent, or the extent lies "
            f"outside the document): {cause}",
            tset.path,
            first.line,
            first.column,
            hint=f"{hint}; {FORCE_HINT}",
            misfits=misfits,
            fills=fills,
        )
    if outside and not force:
        raise outside[0]
    warnings += [InputWarning(error.message, error.path, error.line, error.column) for error in outside]
    assert first is not None
    warnings.append(
        InputWarning(
            f"{what} do not fit the text{where}: their extent points are scored on offsets that do not "
            "point at their words",
            tset.path,
            first.line,
            first.column,
            changes_score=True,
        )
    )
    return tuple(warnings)


def misfit_count(tset: TemplateSet, corpus: Corpus, *, as_stream: bool = False) -> tuple[int, int]:
    """(fills that do not fit, text fills with an extent) of ``tset`` against ``corpus``;
    a DOCID not in the corpus makes every fill of its set a misfit."""
    fills = misfits = 0
    for fill, text, _ in _placed_fills(tset, corpus, as_stream, unknown_ok=True):
        if not fill.extents and not fill.minimal_extents:
            continue
        fills += 1
        if text is None or _outside(tset, fill, len(text), "") is not None or _mismatch(fill, text, loose=True):
            misfits += 1
    return misfits, fills


def _placed_fills(
    tset: TemplateSet, corpus: Corpus, as_stream: bool, unknown_ok: bool = False
) -> Iterator[tuple[TextFill, str, str]]:
    """Each text fill with the text its offsets index and that text's name."""
    for _, instances, text, name in _placed_instances(tset, corpus, as_stream, unknown_ok):
        for instance in instances:
            for fill in _text_fills(instance):
                yield fill, text, name


def _placed_instances(
    tset: TemplateSet, corpus: Corpus, as_stream: bool, unknown_ok: bool = False
) -> Iterator[tuple[range, Sequence[Instance], str, str]]:
    """The instances of ``tset`` in file order, in runs with the text their offsets index and
    that text's name (None and "" for a DOCID not in the corpus, with ``unknown_ok``); each run
    with the indices of the instance sets it holds."""
    if not corpus.segmented or as_stream:
        from hub4eval.io.corpus import as_unsegmented

        stream = as_unsegmented(corpus)
        text = stream.documents[0].text if stream.documents else ""
        yield range(len(tset.instance_sets)), tset.instances, text, "the text file"
        return
    docids = [doc.docid for doc in corpus.documents if doc.docid is not None]
    for index, iset in enumerate(tset.instance_sets):
        if not iset.instances:  # a document without instances (named entities: no region): nothing to check
            continue
        document = corpus.document(iset.docid)
        if document is None:
            if not unknown_ok:
                raise _unknown_docid(tset, corpus, iset.instances[0], docids)
            yield range(index, index + 1), iset.instances, None, ""  # type: ignore[misc]
            continue
        yield range(index, index + 1), iset.instances, document.text, f"document {iset.docid}"


def _likely_cause(tset: TemplateSet, corpus: Corpus, as_stream: bool, misfits: int, outside: int) -> tuple[str, str]:
    """The cause of many fills not fitting that trying finds, and its fix."""
    if any("\r" in doc.text for doc in corpus.documents):
        if _fits(tset, _replaced(corpus, "\r", ""), as_stream, misfits):
            return (
                "the text has CRLF line ends; offsets count LF files",
                "convert the text to LF line ends (e.g. dos2unix) or give the text the offsets were counted in",
            )
    elif _fits(tset, _replaced(corpus, "\n", "\r\n"), as_stream, misfits):
        return (
            "the offsets count CRLF line ends (two characters each); the text has LF ones",
            "give the text with CRLF line ends the offsets were counted in",
        )
    if outside * 2 > misfits:
        return (
            "most extents lie outside their document",
            "offsets count characters from 0 at the '<' of each document's opening tag; is this the text "
            "the file was made from?",
        )
    return (
        "their content is not the text at their extents",
        "is this the text the file was made from? offsets count characters from 0 at the '<' of each "
        "document's opening tag",
    )


def _fits(tset: TemplateSet, corpus: Corpus, as_stream: bool, misfits: int) -> bool:
    """Whether ``tset`` fits ``corpus``: most of its fills do, and fewer than half the misfits are left."""
    left, fills = misfit_count(tset, corpus, as_stream=as_stream)
    return not most_do_not_fit(left, fills) and 2 * left < misfits


def _replaced(corpus: Corpus, old: str, new: str) -> Corpus:
    return replace(corpus, documents=tuple(replace(doc, text=doc.text.replace(old, new)) for doc in corpus.documents))


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
    return UnknownDocument(
        f"document {instance.docid} (of {instance.key}) is not in the text corpus{where}",
        tset.path,
        instance.line,
        instance.column,
        hint=hint,
    )


def _outside(tset: TemplateSet, fill: TextFill, length: int, name: str) -> ExtentOutside | None:
    """The error of the fill's first extent outside [0, length], or None."""
    for extent in (*fill.extents, *fill.minimal_extents):
        if not 0 <= extent.start <= extent.end <= length:
            return ExtentOutside(
                f"extent {extent.start}..{extent.end} of {_shorten(fill.content)!r} lies outside {name} "
                f"(length {length})",
                tset.path,
                fill.line,
                fill.column,
                hint="offsets count characters from 0 at the '<' of the document's opening tag"
                if name.startswith("document")
                else "offsets count characters from 0 at the start of the file",
            )
    return None


def _fold(text: str) -> str:
    return " ".join(text.split())


def _same_words(written: str, content: str) -> bool:
    """Whether ``content`` is ``written``, the text at its extent, with other blanks between its
    words (an ASR text's line ends, tried first: folded, such a text is the content): then it
    fits, and the checks of a mismatch would find none."""
    return written.replace("\n", " ") == content or _fold(written) == _fold(content)


def _shorten(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _mismatch(fill: TextFill, text: str, loose: bool = False) -> bool:
    """Whether the content is not the text at the maximal extent (whitespace runs folded; ``loose``:
    letters and digits only, case folded, as a fill that fits its text may differ)."""
    extent: Extent | None = fill.extent
    if extent is None:
        return False
    written = text[extent.start : extent.end]
    if fill.content == written:  # as it mostly is: folded, they are equal too
        return False
    fold = _loose if loose else _fold
    return fold(fill.content) != fold(written)


def _loose(text: str) -> str:
    return "".join(char for char in text.casefold() if char.isalnum())


def _content_mismatch(tset: TemplateSet, fill: TextFill, text: str) -> InputWarning | None:
    extent: Extent | None = fill.extent
    if extent is None or not _mismatch(fill, text):
        return None
    written = _fold(fill.content)
    actual = _fold(text[extent.start : extent.end])
    return InputWarning(
        f"content {_shorten(written)!r} does not match the text at {extent.start}..{extent.end}: {_shorten(actual)!r}",
        tset.path,
        fill.line,
        fill.column,
    )


def _minimal_mismatches(tset: TemplateSet, fill: TextFill, text: str) -> list[InputWarning]:
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
        actual = _fold(text[extent.start : extent.end])
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
