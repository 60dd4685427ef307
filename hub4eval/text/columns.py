"""§7: from two different text corpora to comparable (column) extents.

Each document's spoken text (§1: inside ``<TEXT>`` when it has one) is tokenized, spans
kept, and spelling-normalized by the GLM (§8) on both sides (:mod:`hub4eval.text.tokenized`),
then aligned word by word (:mod:`hub4eval.text.align`). A character extent then becomes the alignment
columns of the first and last token it touches (§7.3).

Segmented hypothesis: documents are paired by DOCID and aligned one by one;
each document has its own columns, numbered from 0. Unsegmented hypothesis:
its tokens are aligned against all reference documents in file order, in one
corpus-wide column space; reference offsets stay per document and are placed
in that space by the alignment (§7.4).

GLM-optional tokens (fillers such as ``uh``) are aligned like any word: they
are words of the text, and dropping them would leave extents that touch only
a filler with nothing to map to. (So a deleted or inserted filler counts as a
WER error, unlike sclite's optionally deletable words.)

WER per document in unsegmented mode: the one corpus-wide alignment is split
by reference document. A column holding a reference word belongs to that
word's document; an insertion belongs to the document of the nearest
reference word before it (before the first one: that word's document), so words
the recognizer inserted at a story boundary count against the story before.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from hub4eval.errors import InputWarning
from hub4eval.model import Corpus, Extent
from hub4eval.text.align import INSERTION
from hub4eval.text.token_arrays import TokenArray
from hub4eval.text.tokenized import TokenizedCorpora, tokenize_corpora
from hub4eval.text.tokens import Token

if TYPE_CHECKING:
    from hub4eval.text.align import Alignment
    from hub4eval.text.glm import Glm, GlmStack


@dataclass(frozen=True)
class _Side:
    """One side's tokens of one document, with the column of each token.

    Extents are looked up by bisection in the tokens' starts and ends and read
    in their columns, each a sequence of ints: the arrays themselves, seen as
    memoryviews (no copy; bisected as fast as tuples, which took about
    100 bytes a token, 200 MB of a million-word score), or tuples made on the
    first extent asked for tokens that are not arrays.
    """

    tokens: Sequence[Token]
    columns: np.ndarray

    @cached_property
    def _lookup(self) -> tuple[Sequence[int], Sequence[int], Sequence[int]]:
        tokens = self.tokens
        starts, ends = token_bounds(tokens)
        return starts, ends, int_view(self.columns) if isinstance(tokens, TokenArray) else tuple(self.columns.tolist())

    def extent(self, extent: Extent) -> Extent | None:
        """Columns of the first and last token that [start, end) touches; None if none."""
        starts, ends, columns = self._lookup
        first = bisect.bisect_right(ends, extent.start)  # first token ending after start
        last = bisect.bisect_left(starts, extent.end) - 1  # last token starting before end
        if first > last:
            return None
        return Extent(columns[first], columns[last])


def int_view(array: np.ndarray) -> Sequence[int]:
    """A one-dimensional integer array as a sequence of Python ints, without a copy when it is contiguous."""
    if not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)
    return cast("Sequence[int]", array.data)  # the array's memoryview


def token_bounds(tokens: Sequence[Token]) -> tuple[Sequence[int], Sequence[int]]:
    """The start and the end of each token, as Python ints (read off the arrays of a
    :class:`~hub4eval.text.token_arrays.TokenArray` without a token object each)."""
    if isinstance(tokens, TokenArray):
        return int_view(tokens.starts), int_view(tokens.ends)
    return tuple(t.start for t in tokens), tuple(t.end for t in tokens)


@dataclass(frozen=True)
class DocumentAlignment:
    """The alignment of one reference document (or, unsegmented, all of them)."""

    ref_docid: str | None
    hyp_docid: str | None
    ref_tokens: Sequence[Token]
    hyp_tokens: Sequence[Token]
    alignment: Alignment

    def counts(self, columns: slice = slice(None)) -> dict[str, int]:
        """Word and column counts (of the columns in ``columns`` only, if given)."""
        return kind_counts(self.alignment.kinds[columns])

    def rows(self, columns: slice = slice(None)) -> list[tuple[str, str, int]]:
        """(reference word, hypothesis word, kind) per column; '' for a gap.

        ``kind`` is :data:`hub4eval.text.align.MATCH` (0), ``SUBSTITUTION`` (1),
        ``DELETION`` (2) or ``INSERTION`` (3).
        """
        a = self.alignment
        return list(
            zip(
                _texts_at(self.ref_tokens, a.ref_index[columns]),
                _texts_at(self.hyp_tokens, a.hyp_index[columns]),
                a.kinds[columns].tolist(),
                strict=True,
            )
        )


def kind_counts(kinds: np.ndarray) -> dict[str, int]:
    """Word and column counts of columns of these kinds (``MATCH`` ... ``INSERTION``)."""
    counted = np.bincount(np.asarray(kinds, dtype=np.int64), minlength=4)
    return counts_of(*(int(k) for k in counted[:4]))


def counts_of(matches: int, substitutions: int, deletions: int, insertions: int) -> dict[str, int]:
    """The counts of :func:`kind_counts` from the columns of each kind."""
    return {
        "ref_words": matches + substitutions + deletions,
        "hyp_words": matches + substitutions + insertions,
        "matches": matches,
        "substitutions": substitutions,
        "deletions": deletions,
        "insertions": insertions,
    }


def _texts_at(tokens: Sequence[Token], index: np.ndarray) -> list[str]:
    """The texts of the tokens at ``index`` ('' where it is -1, a gap).

    Only those tokens are read: a fill's few columns of a million-word
    unsegmented alignment must not cost the whole text's words.
    """
    at = index.tolist()
    if isinstance(tokens, TokenArray):
        if not len(tokens):
            return ["" for _ in at]
        words = tokens.words
        ids = tokens.ids[np.maximum(index, 0)].tolist()
        return [words[w] if i >= 0 else "" for w, i in zip(ids, at, strict=True)]
    return [tokens[i].text if i >= 0 else "" for i in at]


def _wer(counts: dict[str, int]) -> dict[str, Any]:
    errors = counts["substitutions"] + counts["deletions"] + counts["insertions"]
    out: dict[str, Any] = dict(counts)
    out["errors"] = errors
    out["wer"] = errors / counts["ref_words"] if counts["ref_words"] else None
    return out


@dataclass(frozen=True)
class CorpusAlignment:
    """Both corpora aligned; maps character extents to column extents (§7.3)."""

    unsegmented: bool
    documents: tuple[DocumentAlignment, ...]
    warnings: tuple[InputWarning, ...]
    _ref: dict[str, _Side] = field(repr=False, compare=False)
    _hyp: dict[str | None, _Side] = field(repr=False, compare=False)
    _spans: tuple[tuple[str, int, int], ...] = field(default=(), repr=False, compare=False)
    """Unsegmented: per reference document, its DOCID and its [start, end) columns."""
    _ref_runs: tuple[dict[str | None, tuple[int, int]], np.ndarray] | None = field(
        default=None, repr=False, compare=False
    )
    """Unsegmented: the [first, end) tokens of each reference document among all of them (the
    documents' tokens one after the other, ``documents[0].ref_tokens``) and all their columns."""

    def ref_extent(self, docid: str | None, extent: Extent) -> Extent | None:
        """A reference fill's character extent in document ``docid`` -> columns."""
        side = self._ref.get(docid)  # type: ignore[arg-type]
        return None if side is None else side.extent(extent)

    def ref_lookup(self, docid: str | None) -> tuple[Sequence[int], Sequence[int], Sequence[int]] | None:
        """What :meth:`ref_extent` bisects for document ``docid``: its tokens' starts and
        ends and each token's column (None: no such document aligned), for a caller that
        maps every fill of a document (without an :class:`Extent` made for each)."""
        side = self._ref.get(docid)  # type: ignore[arg-type]
        return None if side is None else side._lookup

    def hyp_extent(self, docid: str | None, extent: Extent) -> Extent | None:
        """A hypothesis fill's extent -> columns (``docid`` None: unsegmented file offsets)."""
        side = self._hyp.get(None if self.unsegmented else docid)
        return None if side is None else side.extent(extent)

    def ref_enclosure(self, docid: str | None, extent: Extent) -> Extent:
        """A reference fill's column extent widened, for the enclosure test only
        (§7.3, boundary insertions), over the run of insertion columns right
        before its first column and the run right after its last: an inserted
        hypothesis word there (``Ouagadougou`` heard as ``wagga do go``) has no
        reference position, so it is neither inside nor outside the extent."""
        number = self.column_space(docid)
        if number is None:
            return extent
        kinds = self.column_kinds(number)
        start, end = extent.start, extent.end
        while start > 0 and kinds[start - 1] == INSERTION:
            start -= 1
        size = len(kinds)
        while end + 1 < size and kinds[end + 1] == INSERTION:
            end += 1
        if start == extent.start and end == extent.end:
            return extent
        return Extent(int(start), int(end))

    def column_kinds(self, number: int) -> Sequence[int]:
        """The kind of each column of alignment ``number`` (``documents[number]``), read as
        Python ints without a NumPy scalar per column (every reference fill is widened, in
        each of a score's mappings, and its columns read again for its points' causes)."""
        views = self._kind_views
        found = views.get(number)
        if found is None:
            found = views[number] = int_view(self.documents[number].alignment.kinds)
        return found

    @cached_property
    def _kind_views(self) -> dict[int, Sequence[int]]:
        return {}

    def document_extent(self, docid: str) -> Extent | None:
        """First and last column of a reference document's tokens (§7.4)."""
        side = self._ref.get(docid)
        if side is None or not len(side.columns):
            return None
        return Extent(int(side.columns[0]), int(side.columns[-1]))

    def document_spans(self) -> tuple[tuple[str, int, int], ...]:
        """Unsegmented: per reference document in file order, its DOCID and the [start, end)
        columns it owns (every column belongs to one document, as in :meth:`document_views`);
        segmented: ()."""
        return self._spans if self.unsegmented else ()

    def document_views(self) -> list[tuple[str | None, str | None, DocumentAlignment, slice]]:
        """(reference DOCID, hypothesis DOCID, alignment, columns) per document.

        Segmented: one entry per aligned pair (all its columns). Unsegmented:
        one entry per reference document, holding the columns it owns in the
        corpus-wide alignment (see the module docstring); the hypothesis
        DOCID is None.
        """
        if self.unsegmented and self._spans:
            [whole] = self.documents
            return [(docid, None, whole, slice(start, end)) for docid, start, end in self._spans]
        return [(d.ref_docid, d.hyp_docid, d, slice(None)) for d in self.documents]

    def per_document(self) -> list[dict[str, Any]]:
        """WER counts per document (per reference document when unsegmented)."""
        return [
            {"ref_docid": ref_id, "hyp_docid": hyp_id, **_wer(document.counts(columns))}
            for ref_id, hyp_id, document, columns in self.document_views()
        ]

    def wer_summary(self) -> dict[str, Any]:
        """Overall WER of the hypothesis text against the reference text."""
        total = dict.fromkeys(("ref_words", "hyp_words", "matches", "substitutions", "deletions", "insertions"), 0)
        for document in self.documents:
            for key, value in document.counts().items():
                total[key] += value
        return _wer(total)

    def column_space(self, docid: str | None, *, reference: bool = True) -> int | None:
        """Index in ``documents`` of the alignment whose columns an extent of ``docid`` maps to.

        ``reference``: ``docid`` is a reference document; else a hypothesis
        document (ignored when unsegmented: one column space for all).
        """
        if self.unsegmented:
            return 0 if self.documents else None
        return self._column_spaces[reference].get(docid)

    @cached_property
    def _column_spaces(self) -> tuple[dict[str | None, int], dict[str | None, int]]:
        """(by hypothesis DOCID, by reference DOCID): the first document alignment of each
        (asked for every fill: a scan of the documents each time was quadratic)."""
        spaces: tuple[dict[str | None, int], dict[str | None, int]] = ({}, {})
        for number, document in enumerate(self.documents):
            spaces[0].setdefault(document.hyp_docid, number)
            spaces[1].setdefault(document.ref_docid, number)
        return spaces


def _columns(index: np.ndarray, size: int) -> np.ndarray:
    """Column of each token, from the per-column token indices (-1: gap)."""
    present = np.flatnonzero(index >= 0)
    columns = np.zeros(size, dtype=np.int32 if len(index) < 2**31 else np.int64)  # 4 bytes a token
    columns[index[present]] = present
    return columns


def _owned_columns(ref_index: np.ndarray, sizes: Sequence[int]) -> list[tuple[int, int]]:
    """[start, end) columns owned by each reference document of the given token counts.

    A column belongs to the document of its reference token; an insertion to
    the document of the last reference token before it (before every
    reference token: the document of the first one; no reference token at
    all: the first document). Columns of one document are contiguous because
    reference tokens appear in order.

    One array of the columns' size is made (at ten million columns, 40 MB):
    the last reference token at or before each column, never below 0, which
    does not decrease; document d owns the columns where it lies between the
    first token of d and the first token of d + 1 (the cumulative sizes), so
    each boundary is one bisection of it.
    """
    if not sizes:
        return []
    columns = int(ref_index.size)
    bounds = np.cumsum(np.asarray(sizes, dtype=np.int64))  # first token of each next document
    if columns == 0 or bounds[-1] == 0:
        return [(0, columns)] + [(columns, columns)] * (len(sizes) - 1)
    last_ref = np.maximum.accumulate(ref_index)  # gaps are -1, below every token index
    np.maximum(last_ref, 0, out=last_ref)
    if bounds[-1] <= np.iinfo(last_ref.dtype).max:
        bounds = bounds.astype(last_ref.dtype)  # else the bisection copies last_ref to int64
    ends = np.searchsorted(last_ref, bounds, side="left").tolist()
    return list(zip([0, *ends[:-1]], ends, strict=True))


def align_ids(ref_ids: np.ndarray, hyp_ids: np.ndarray, words: Sequence[str]) -> Alignment:
    """``align_words`` of the words ``ref_ids`` and ``hyp_ids`` number in ``words`` (a
    :class:`Vocabulary`'s, which numbered them as first seen, reference first), without
    making the word lists and coding them again.

    The aligner codes words in the order it first sees them, reference first;
    the vocabulary numbered them in that order (every word it holds is in one
    text or the other), so the ids are its codes and the alignment is the
    same. Of ten million words the lists and their codes took about a gigabyte.
    """
    from hub4eval.text.align.codes import _encode
    from hub4eval.text.align.kernels import _kernels
    from hub4eval.text.align.seeded import _align_codes

    _, coded = _encode((words,))
    return _align_codes(_kernels(), ref_ids, hyp_ids, coded)


def weighted_alignments(tokenized: TokenizedCorpora, pairs: Sequence[int] | None = None) -> list[Alignment]:
    """The §7.2 alignment of each pair (of the pairs numbered ``pairs`` only, if given).

    A pair's alignment depends on its words only, so any subset of the pairs
    gives their alignments as all of them do (computed in another process).
    """
    from hub4eval.text.align import align_many

    chosen = tokenized.pairs if pairs is None else [tokenized.pairs[k] for k in pairs]
    if tokenized.unsegmented:
        return [align_ids(r.ids, h.ids, tokenized.vocabulary.words) for _, _, r, h in chosen]
    words = np.array(tokenized.vocabulary.words, dtype=object)
    return align_many([(words[r.ids].tolist(), words[h.ids].tolist()) for _, _, r, h in chosen])


def corpus_alignment(tokenized: TokenizedCorpora, alignments: Sequence[Alignment]) -> CorpusAlignment:
    """The corpus alignment of the pairs of ``tokenized`` from their alignments (one per pair, in order)."""
    if tokenized.unsegmented:
        [(_, _, ref_all, hyp_all)] = tokenized.pairs
        [alignment] = alignments
        ref_columns = _columns(alignment.ref_index, len(ref_all))
        sides: dict[str, _Side] = {}
        runs: dict[str | None, tuple[int, int]] = {}
        position = 0
        for docid, size in tokenized._documents:
            end = position + size
            sides[docid] = _Side(ref_all[position:end], ref_columns[position:end])  # type: ignore[index]
            runs[docid] = (position, end)  # as sides: a DOCID's last document
            position = end
        hyp_side = _Side(hyp_all, _columns(alignment.hyp_index, len(hyp_all)))
        document = DocumentAlignment(None, None, ref_all, hyp_all, alignment)
        owned = _owned_columns(alignment.ref_index, [size for _, size in tokenized.spans])
        spans = tuple((d, start, end) for (d, _), (start, end) in zip(tokenized.spans, owned, strict=False))
        whole = (runs, ref_columns) if isinstance(ref_all, TokenArray) else None
        return CorpusAlignment(True, (document,), tokenized.warnings, sides, {None: hyp_side}, spans, whole)
    documents = []
    ref_sides: dict[str, _Side] = {}
    hyp_sides: dict[str | None, _Side] = {}
    for (ref_id, hyp_id, r, h), alignment in zip(tokenized.pairs, alignments, strict=True):
        documents.append(DocumentAlignment(ref_id, hyp_id, r, h, alignment))
        if ref_id is not None:
            ref_sides[ref_id] = _Side(r, _columns(alignment.ref_index, len(r)))
        if hyp_id is not None:
            hyp_sides[hyp_id] = _Side(h, _columns(alignment.hyp_index, len(h)))
    return CorpusAlignment(False, tuple(documents), tokenized.warnings, ref_sides, hyp_sides)


def align_corpora(
    ref: Corpus,
    hyp: Corpus,
    *,
    glm: Glm | GlmStack | None = None,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
    unsegmented: bool | None = None,
    spoken_forms: str | None = None,
) -> CorpusAlignment:
    """Align two corpora (§7).

    Args:
        ref: the reference corpus (segmented).
        hyp: the hypothesis corpus.
        glm: a :class:`hub4eval.text.glm.Glm` (or a stack of them) applied to
            both sides (a one-sided section to its side only), or None.
        keep_punctuation: tokenize without the punctuation whiteout.
        case_sensitive: keep case in tokens.
        unsegmented: align the hypothesis as one stream against all reference
            documents; None: when the hypothesis corpus has no document tags.
        spoken_forms: language of the spoken/written number forms brought to
            one form on both sides (``en``), or None/``none`` (§8.2).

    Returns:
        The alignment, with warnings for documents present on one side only.
    """
    tokenized = tokenize_corpora(
        ref,
        hyp,
        glm=glm,
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
        unsegmented=unsegmented,
        spoken_forms=spoken_forms,
    )
    return corpus_alignment(tokenized, weighted_alignments(tokenized))
