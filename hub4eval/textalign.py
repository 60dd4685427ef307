"""§7: from two different text corpora to comparable (column) extents.

Each document's extractable text is tokenized (:mod:`hub4eval.tokens`, spans
kept), spelling-normalized by the GLM (§8) on both sides, and aligned word by
word (:mod:`hub4eval.align`). A character extent then becomes the alignment
columns of the first and last token it touches (§7.3).

Segmented hypothesis: documents are paired by DOCID and aligned one by one;
each document has its own columns, numbered from 0. Unsegmented hypothesis:
its tokens are aligned against all reference documents in file order, in one
corpus-wide column space; reference offsets stay per document and are placed
in that space by the alignment (§7.4).

GLM-optional tokens (fillers such as ``uh``) are aligned like any word: they
are words of the text, and dropping them would leave extents that touch only
a filler with nothing to map to.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import InputWarning
from .model import Corpus, Document, Extent
from .tokens import Token, tokenize


@dataclass(frozen=True)
class _Side:
    """One side's tokens of one document, with the column of each token."""

    tokens: tuple[Token, ...]
    columns: tuple[int, ...]
    starts: tuple[int, ...] = field(init=False, repr=False)
    ends: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", tuple(t.start for t in self.tokens))
        object.__setattr__(self, "ends", tuple(t.end for t in self.tokens))

    def extent(self, extent: Extent) -> Extent | None:
        """Columns of the first and last token that [start, end) touches; None if none."""
        first = bisect.bisect_right(self.ends, extent.start)  # first token ending after start
        last = bisect.bisect_left(self.starts, extent.end) - 1  # last token starting before end
        if first > last:
            return None
        return Extent(self.columns[first], self.columns[last])


@dataclass(frozen=True)
class DocumentAlignment:
    """The alignment of one reference document (or, unsegmented, all of them)."""

    ref_docid: str | None
    hyp_docid: str | None
    ref_tokens: tuple[Token, ...]
    hyp_tokens: tuple[Token, ...]
    alignment: Any  # hub4eval.align.Alignment

    def counts(self) -> dict[str, int]:
        a = self.alignment
        return {
            "ref_words": len(self.ref_tokens),
            "hyp_words": len(self.hyp_tokens),
            "matches": a.matches,
            "substitutions": a.substitutions,
            "deletions": a.deletions,
            "insertions": a.insertions,
        }

    def rows(self) -> list[tuple[str, str, int]]:
        """(reference word, hypothesis word, kind) per column; '' for a gap."""
        out = []
        for r, h, k in zip(self.alignment.ref_index, self.alignment.hyp_index, self.alignment.kinds):
            out.append(
                (
                    self.ref_tokens[r].text if r >= 0 else "",
                    self.hyp_tokens[h].text if h >= 0 else "",
                    int(k),
                )
            )
        return out


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

    def ref_extent(self, docid: str | None, extent: Extent) -> Extent | None:
        """A reference fill's character extent in document ``docid`` -> columns."""
        side = self._ref.get(docid)  # type: ignore[arg-type]
        return None if side is None else side.extent(extent)

    def hyp_extent(self, docid: str | None, extent: Extent) -> Extent | None:
        """A hypothesis fill's extent -> columns (``docid`` None: unsegmented file offsets)."""
        side = self._hyp.get(None if self.unsegmented else docid)
        return None if side is None else side.extent(extent)

    def document_extent(self, docid: str) -> Extent | None:
        """First and last column of a reference document's tokens (§7.4)."""
        side = self._ref.get(docid)
        if side is None or not side.columns:
            return None
        return Extent(side.columns[0], side.columns[-1])

    def rows_for(self, docid: str | None) -> list[tuple[str, str, int]]:
        """The aligned words of the column space reference document ``docid`` lives in."""
        if self.unsegmented:
            return self.documents[0].rows() if self.documents else []
        for document in self.documents:
            if document.ref_docid == docid or (document.ref_docid is None and document.hyp_docid == docid):
                return document.rows()
        return []

    def per_document(self) -> list[dict[str, Any]]:
        """WER counts per aligned document."""
        return [
            {"ref_docid": d.ref_docid, "hyp_docid": d.hyp_docid, **_wer(d.counts())}
            for d in self.documents
        ]

    def wer_summary(self) -> dict[str, Any]:
        """Overall WER of the hypothesis text against the reference text."""
        total = dict.fromkeys(
            ("ref_words", "hyp_words", "matches", "substitutions", "deletions", "insertions"), 0
        )
        for document in self.documents:
            for key, value in document.counts().items():
                total[key] += value
        return _wer(total)


def document_tokens(
    document: Document, *, glm: Any = None, keep_punctuation: bool = False, case_sensitive: bool = False
) -> tuple[Token, ...]:
    """A document's extractable words (§7.1), GLM-normalized (§8); spans index ``document.text``."""
    tokens = tokenize(
        document.text,
        document.extractable,
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
    )
    if glm is not None:
        from .glm import apply_glm

        tokens = apply_glm(tokens, glm)
    return tokens


def _columns(index: Sequence[int], size: int) -> tuple[int, ...]:
    """Column of each token, from the per-column token indices."""
    columns = [0] * size
    for column, token in enumerate(index):
        if token >= 0:
            columns[token] = column
    return tuple(columns)


def align_corpora(
    ref: Corpus,
    hyp: Corpus,
    *,
    glm: Any = None,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
    unsegmented: bool | None = None,
) -> CorpusAlignment:
    """Align two corpora (§7).

    Args:
        ref: the reference corpus (segmented).
        hyp: the hypothesis corpus.
        glm: a :class:`hub4eval.glm.Glm` applied to both sides, or None.
        keep_punctuation: tokenize without the punctuation whiteout.
        case_sensitive: keep case in tokens.
        unsegmented: align the hypothesis as one stream against all reference
            documents; None: when the hypothesis corpus has no document tags.

    Returns:
        The alignment, with warnings for documents present on one side only.
    """
    from .align import align_many, align_words

    options = {"glm": glm, "keep_punctuation": keep_punctuation, "case_sensitive": case_sensitive}
    if unsegmented is None:
        unsegmented = not hyp.segmented
    warnings: list[InputWarning] = []
    ref_tokens = {doc.docid: document_tokens(doc, **options) for doc in ref.documents}

    if unsegmented:
        from .corpus import as_unsegmented

        hyp_all = [t for doc in as_unsegmented(hyp).documents for t in document_tokens(doc, **options)]
        ref_all = [t for doc in ref.documents for t in ref_tokens[doc.docid]]
        alignment = align_words([t.text for t in ref_all], [t.text for t in hyp_all])
        ref_columns = _columns(alignment.ref_index, len(ref_all))
        sides: dict[str, _Side] = {}
        position = 0
        for doc in ref.documents:
            tokens = ref_tokens[doc.docid]
            sides[doc.docid] = _Side(tokens, ref_columns[position : position + len(tokens)])  # type: ignore[index]
            position += len(tokens)
        hyp_side = _Side(tuple(hyp_all), _columns(alignment.hyp_index, len(hyp_all)))
        if not hyp_all:
            warnings.append(
                InputWarning("the hypothesis text is empty: every reference word is deleted", hyp.path or None)
            )
        document = DocumentAlignment(None, None, tuple(ref_all), tuple(hyp_all), alignment)
        return CorpusAlignment(True, (document,), tuple(warnings), sides, {None: hyp_side})

    hyp_by_id = {doc.docid: doc for doc in hyp.documents}
    pairs: list[tuple[str | None, str | None, tuple[Token, ...], tuple[Token, ...]]] = []
    for doc in ref.documents:
        other = hyp_by_id.get(doc.docid)
        if other is None:
            warnings.append(
                InputWarning(
                    f"document {doc.docid} of the reference text is not in the hypothesis text",
                    ref.path or None,
                )
            )
            pairs.append((doc.docid, None, ref_tokens[doc.docid], ()))  # type: ignore[index]
        else:
            pairs.append((doc.docid, doc.docid, ref_tokens[doc.docid], document_tokens(other, **options)))  # type: ignore[index]
    ref_ids = set(ref_tokens)
    for doc in hyp.documents:
        if doc.docid not in ref_ids:
            warnings.append(
                InputWarning(
                    f"document {doc.docid} of the hypothesis text is not in the reference text",
                    hyp.path or None,
                )
            )
            pairs.append((None, doc.docid, (), document_tokens(doc, **options)))
    alignments = align_many([([t.text for t in r], [t.text for t in h]) for _, _, r, h in pairs])
    documents = []
    ref_sides: dict[str, _Side] = {}
    hyp_sides: dict[str | None, _Side] = {}
    for (ref_id, hyp_id, r, h), alignment in zip(pairs, alignments):
        documents.append(DocumentAlignment(ref_id, hyp_id, r, h, alignment))
        if ref_id is not None:
            ref_sides[ref_id] = _Side(r, _columns(alignment.ref_index, len(r)))
        if hyp_id is not None:
            hyp_sides[hyp_id] = _Side(h, _columns(alignment.hyp_index, len(h)))
    return CorpusAlignment(False, tuple(documents), tuple(warnings), ref_sides, hyp_sides)
