"""WER counts exactly as NIST sclite computes them, on the tokens of a corpus alignment.

The alignment itself (sclite's cost model and tie-breaking, its kernels, the
linear-memory split, anchors and chunk bounds) is
:mod:`hub4eval.text.align.sclite`; this module counts its operations overall,
per document and per span of a long unsegmented text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from hub4eval.text.columns import counts_of
from hub4eval.text.columns import kind_counts as _counts  # the four kinds' counts (0 match ... 3 insertion)

if TYPE_CHECKING:
    from hub4eval.text.align.sclite import (
        COST_CORRECT,
        COST_DELETION,
        COST_INSERTION,
        COST_SUBSTITUTION,
        AlignedOp,
        SCliteAlignment,
        sclite_align,
        sclite_align_arrays,
        sclite_align_full,
    )
    from hub4eval.text.columns import CorpusAlignment
    from hub4eval.text.tokenized import TokenizedCorpora

_ALIGNER = frozenset(
    (
        "AlignedOp",
        "SCliteAlignment",
        "sclite_align",
        "sclite_align_arrays",
        "sclite_align_full",
        "COST_CORRECT",
        "COST_SUBSTITUTION",
        "COST_INSERTION",
        "COST_DELETION",
    )
)
"""What this module gives of sclite's aligner (:mod:`hub4eval.text.align.sclite`), imported when
first asked: the aligner imports numba, and a process that only puts counts made elsewhere
together (:meth:`hub4eval.text.aligned_texts.AlignedTexts.wer`) must not load it."""


def __getattr__(name: str) -> Any:
    if name in _ALIGNER:
        from hub4eval.text.align import sclite

        return getattr(sclite, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AlignedOp",
    "SCliteAlignment",
    "sclite_align",
    "sclite_align_arrays",
    "sclite_align_full",
    "corpus_wer",
    "corpus_wer_summary",
    "SCliteCounts",
    "pair_counts",
    "stream_counts",
    "sclite_counts",
    "summed",
    "COST_CORRECT",
    "COST_SUBSTITUTION",
    "COST_INSERTION",
    "COST_DELETION",
]


# --------------------------------------------------------------------------
# corpus WER: sclite's counts on the tokens of a §7 corpus alignment
# --------------------------------------------------------------------------

COUNT_KEYS = ("ref_words", "hyp_words", "matches", "substitutions", "deletions", "insertions")


def _rates(counts: dict[str, int]) -> dict[str, Any]:
    out: dict[str, Any] = dict(counts)
    out["errors"] = counts["substitutions"] + counts["deletions"] + counts["insertions"]
    out["wer"] = out["errors"] / counts["ref_words"] if counts["ref_words"] else None
    return out


def _with_weighted(sclite: dict[str, Any], weighted: dict[str, Any]) -> dict[str, Any]:
    """sclite's counts, labelled, plus the weighted alignment's when they differ."""
    out = {**sclite, "alignment": "sclite"}
    keys = ("matches", "substitutions", "deletions", "insertions")
    if any(sclite[k] != weighted[k] for k in keys):
        out["weighted_alignment"] = {k: weighted[k] for k in (*keys, "errors", "wer")}
    return out


SCliteCounts = tuple[list[dict[str, int]], dict[str, int]]
"""sclite's counts of a corpus: per document (in the order of the alignment's rows), and overall."""


def pair_counts(pairs: Sequence[tuple[Sequence[Any], Sequence[Any]]]) -> list[dict[str, int]]:
    """sclite's counts of each (reference tokens, hypothesis tokens) pair, aligned on its own."""
    from hub4eval.text.align.sclite import _align_codes

    return [_counts(_align_codes(*_codes(ref, hyp))[0]) for ref, hyp in pairs]


def stream_counts(ref: Sequence[Any], hyp: Sequence[Any], sizes: Sequence[int]) -> SCliteCounts:
    """sclite's counts of one unsegmented pair (the tokens of one corpus alignment, so their
    ids are the codes), split by the reference documents of the given token counts."""
    from hub4eval.text.align.sclite import _align_codes
    from hub4eval.text.columns import _owned_columns

    ops, ref_index, _ = _align_codes(*_codes(ref, hyp, shared=True))
    owned = _owned_columns(ref_index, sizes)
    del ref_index
    return _counts_by_span(ops, owned), _counts(ops)


def summed(per_document: list[dict[str, int]]) -> SCliteCounts:
    """Counts per document, with their sum."""
    total = dict.fromkeys(COUNT_KEYS, 0)
    for counts in per_document:
        for key in COUNT_KEYS:
            total[key] += counts[key]
    return per_document, total


def sclite_counts(tokenized: TokenizedCorpora) -> SCliteCounts:
    """The sclite counts :func:`corpus_wer` gives for the alignment of ``tokenized``, from its
    tokens alone (so they can be counted before, and beside, the weighted alignment)."""
    if tokenized.unsegmented and tokenized.spans:
        [(_, _, ref, hyp)] = tokenized.pairs
        return stream_counts(ref, hyp, [size for _, size in tokenized.spans])
    return summed(pair_counts([(ref, hyp) for _, _, ref, hyp in tokenized.pairs]))


def _alignment_counts(alignment: CorpusAlignment) -> SCliteCounts:
    if alignment.unsegmented and alignment._spans:
        [whole] = alignment.documents
        sizes = [len(alignment._ref[docid].tokens) for docid, _, _ in alignment._spans]
        return stream_counts(whole.ref_tokens, whole.hyp_tokens, sizes)
    return summed(pair_counts([(d.ref_tokens, d.hyp_tokens) for d in alignment.documents]))


def corpus_wer(alignment: CorpusAlignment, counts: SCliteCounts | None = None) -> dict[str, Any]:
    """WER of a hypothesis text as sclite computes it, overall and per document.

    The words are the tokens of ``alignment`` (normalized as for §7: punctuation
    whiteout, case, GLM); each aligned pair of documents (segmented), or the
    whole token stream against all reference documents (unsegmented), is
    aligned again with :func:`sclite_align_arrays`. Unsegmented, the counts are
    split by reference document like the §7 columns: an insertion counts for
    the document of the reference word before it.

    ``counts``: those sclite counts, counted before (:func:`sclite_counts` of
    the tokens ``alignment`` was made from); None: counted here.

    Returns:
        ``{"summary": COUNTS, "documents": [{"ref_docid", "hyp_docid", **COUNTS}]}``
        where COUNTS holds ``ref_words hyp_words matches substitutions deletions
        insertions errors wer`` from sclite's alignment, ``"alignment":
        "sclite"``, and, only when they differ, the counts of the weighted
        alignment used for extents under ``"weighted_alignment"``.
    """
    per_document, total = _alignment_counts(alignment) if counts is None else counts
    documents: list[dict[str, Any]] = []
    weighted_rows = alignment.per_document()
    if alignment.unsegmented and alignment._spans:
        for (docid, _, _), counted, weighted in zip(alignment._spans, per_document, weighted_rows, strict=True):
            documents.append({"ref_docid": docid, "hyp_docid": None, **_with_weighted(_rates(counted), weighted)})
    else:
        for document, counted, weighted in zip(alignment.documents, per_document, weighted_rows, strict=True):
            row = {"ref_docid": document.ref_docid, "hyp_docid": document.hyp_docid}
            documents.append({**row, **_with_weighted(_rates(counted), weighted)})
    summary = _with_weighted(_rates(total), alignment.wer_summary())
    return {"summary": summary, "documents": documents}


def _codes(ref: Sequence[Any], hyp: Sequence[Any], *, shared: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The words of two token sequences as :func:`_encode` codes them (first seen, reference first).

    Token arrays of one alignment share a vocabulary numbered that way over
    all reference documents and then the hypothesis: for the one unsegmented
    pair (``shared``) its ids are already these codes. For one pair of
    documents they are renumbered, unless the pair is small enough for the
    full matrix, which only compares codes for equality.
    """
    from hub4eval.text.align import sclite
    from hub4eval.text.token_arrays import TokenArray

    if not (isinstance(ref, TokenArray) and isinstance(hyp, TokenArray)):
        a, b, _ = sclite._encode([t.text for t in ref], [t.text for t in hyp])
        return a, b
    a, b = ref.ids, hyp.ids  # the kernels take any integer codes: no copy (int32, the ids' own type)
    if shared or (len(a) + 1) * (len(b) + 1) <= sclite._BASE_AREA or not len(a) or not len(b):
        return a, b
    both = np.concatenate((a, b))
    _, first, inverse = np.unique(both, return_index=True, return_inverse=True)
    rank = np.empty(len(first), np.int32)  # int32 like the ids (one compiled form of the kernels)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    codes = rank[inverse.reshape(-1)]
    return codes[: len(a)], codes[len(a) :]


def _counts_by_span(ops: np.ndarray, spans: Sequence[tuple[int, int]]) -> list[dict[str, int]]:
    """:func:`_counts` of ``ops[start:end]`` for each (start, end) of contiguous spans covering ``ops``."""
    if not spans:
        return []
    lengths = np.fromiter((end - start for start, end in spans), np.int64, len(spans))
    owner = np.repeat(np.arange(len(spans), dtype=np.int64), lengths)
    first = spans[0][0]
    table = np.bincount(owner * 4 + ops[first : first + len(owner)], minlength=4 * len(spans)).reshape(-1, 4)
    return [counts_of(*row) for row in table.tolist()]


def corpus_wer_summary(alignment: CorpusAlignment, counts: SCliteCounts | None = None) -> dict[str, Any]:
    """``corpus_wer(alignment, counts)["summary"]`` alone, for a caller that keeps no row per
    document (a score): sclite's overall counts, an unsegmented stream's not split by
    reference document first, and no weighted row per document made.

    ``counts``: as for :func:`corpus_wer` (only their overall counts are read); None:
    counted here.
    """
    if counts is not None:
        total = counts[1]
    elif alignment.unsegmented and alignment._spans:
        from hub4eval.text.align.sclite import _align_codes

        [whole] = alignment.documents
        total = _counts(_align_codes(*_codes(whole.ref_tokens, whole.hyp_tokens, shared=True))[0])
    else:
        total = _alignment_counts(alignment)[1]
    return _with_weighted(_rates(total), alignment.wer_summary())
