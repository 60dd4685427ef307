"""The drill-down: which points, and why (spec §9 "Drill-down").

Pure functions over a :class:`~hub4eval.scoring.result.ScoreResult`, no printing:

* :func:`select_points`: the points matching filters by slot, type, document
  and category. A value that no point has is a :class:`UsageError` that
  suggests close matches (a typo, usually).
* :func:`aligned_context`: when the texts differ, the aligned reference and
  hypothesis words around a point's fills, with the fills' columns marked.
* :func:`explain`: both at once, as :class:`ExplainRow` objects that the CLI
  and the HTML report render.

The reasons themselves are made where the verdicts are (:mod:`hub4eval.scoring.verdicts`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hub4eval.errors import UsageError
from hub4eval.model import Extent, TextFill
from hub4eval.scoring.metrics import CATEGORIES
from hub4eval.scoring.points import FillRef, Point
from hub4eval.scoring.result import ScoreResult

GAP = -1
"""``Context.kinds`` value of the elision cell between two distant windows."""

_POINTER_RE = re.compile(r"<([^\s<>-]+)-(\S+)-([0-9]+)>")  # as hub4eval.io.templettes: DOCID may hold hyphens


def _closest(value: str, known: Sequence[str]) -> list[str]:
    """The best difflib matches: ratio at least 0.6 and within 0.05 of the best one.

    Slot keys share their ``TYPE.`` prefix, so plain ``get_close_matches``
    would offer every slot of the type; only the nearly best ones help.
    """
    scored = []
    for candidate in known:
        matcher = difflib.SequenceMatcher(None, value, candidate)
        if matcher.real_quick_ratio() >= 0.6 and matcher.quick_ratio() >= 0.6:
            ratio = matcher.ratio()
            if ratio >= 0.6:
                scored.append((ratio, candidate))
    if not scored:
        return []
    best = max(ratio for ratio, _ in scored)
    return [c for r, c in sorted(scored, key=lambda rc: -rc[0]) if r >= best - 0.05][:3]


def _suggest(value: str, known: Sequence[str]) -> list[str]:
    """Close matches of ``value``; a bare slot name also finds its TYPE.SLOT keys, any case."""
    close = _closest(value, known)
    if "." not in value:
        by_slot = [k for k in known if "." in k and k.split(".", 1)[1].upper() == value.upper()]
        close = list(dict.fromkeys(by_slot + close))[:3]
    if not close:
        folded = {k.upper(): k for k in known}
        close = [folded[m] for m in _closest(value.upper(), list(folded))]
    return close


def _check(values: Iterable[str], known: Sequence[str], option: str) -> None:
    known = list(known)
    for value in values:
        if value not in known:
            close = _suggest(value, known)
            if close:
                hint = f"did you mean {' or '.join(close)}?"
            elif known:
                shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
                hint = f"known values: {shown}"
            else:
                hint = "the result has no points at all"
            raise UsageError(f"unknown {option} value {value!r}: no point has it", hint=hint)


def select_points(
    result: ScoreResult,
    *,
    slots: Sequence[str] = (),
    types: Sequence[str] = (),
    documents: Sequence[str] = (),
    categories: Sequence[str] = (),
    causes: Sequence[str] = (),
) -> list[Point]:
    """The points matching every given filter, in file order.

    Filters combine with AND; the values of one filter with OR. An empty
    filter keeps everything.

    Args:
        result: a scored result.
        slots: ``TYPE.SLOT`` keys, as in the per-slot table.
        types: instance types.
        documents: DOCIDs.
        categories: COR, INC, MIS, SPU, OPT or REM (any case).
        causes: ``recognition`` or ``extraction`` (any case): error points
            of that cause (§11; only when the texts differ).

    Returns:
        The matching points.

    Raises:
        UsageError: a filter value that no point has, with close matches.
    """
    _check(slots, list(result.by("slot")), "--slot")
    _check(types, list(result.by("type")), "--type")
    _check(documents, list(result.by("document")), "--doc")
    _check([c.upper() for c in categories], CATEGORIES, "--category")
    wanted_causes = {c.lower() for c in causes}
    if wanted_causes:
        from hub4eval.scoring.attribution import CAUSES

        unknown = sorted(wanted_causes - set(CAUSES))
        if unknown:
            raise UsageError(f"unknown --cause value {unknown[0]!r}", hint="use recognition or extraction")
        if result.alignment is None:
            raise UsageError(
                "--cause needs two different texts: errors are blamed on the recognizer only when "
                "the hypothesis text differs from the reference text",
                hint="give the reference text with --ref-text and the recognizer's output with --hyp-text",
            )
    wanted_slots, wanted_types, wanted_documents = set(slots), set(types), set(documents)
    wanted_categories = {c.upper() for c in categories}
    return [
        p
        for p in result.points
        if (not wanted_slots or p.slot_key in wanted_slots)
        and (not wanted_types or p.type in wanted_types)
        and (not wanted_documents or p.docid in wanted_documents)
        and (not wanted_categories or p.category in wanted_categories)
        and (not wanted_causes or p.cause in wanted_causes)
    ]


def tally(points: Iterable[Point]) -> dict[str, int]:
    """How many points per category, in the order COR INC MIS SPU OPT REM (absent ones left out)."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for point in points:
        counts[point.category] += 1
    return {c: n for c, n in counts.items() if n}


@dataclass(frozen=True)
class Context:
    """Aligned words around a point's fills: one cell per alignment column.

    Attributes:
        ref_words: the reference word of each column ('' for an insertion).
        hyp_words: the hypothesis word of each column ('' for a deletion).
        kinds: :mod:`hub4eval.text.align` MATCH, SUBSTITUTION, DELETION or
            INSERTION per column; :data:`GAP` for the "…" cell that stands
            for the columns left out between two distant fills.
        ref_marked: True for the columns of the reference fill.
        hyp_marked: True for the columns of the hypothesis fill.
    """

    ref_words: tuple[str, ...]
    hyp_words: tuple[str, ...]
    kinds: tuple[int, ...]
    ref_marked: tuple[bool, ...]
    hyp_marked: tuple[bool, ...]


def _instance_docid(fill_ref: FillRef) -> str | None:
    match = _POINTER_RE.fullmatch(fill_ref.instance)
    return match.group(2) if match else None


def _columns(alignment: Any, fill: Any, fill_ref: FillRef | None, *, reference: bool) -> Extent | None:
    """The alignment columns of a fill's maximal extent, or None (no extent, unaligned)."""
    if fill_ref is None or not isinstance(fill, TextFill) or fill.extent is None:
        return None
    docid = _instance_docid(fill_ref)
    if reference:
        return alignment.ref_extent(docid, fill.extent)
    return alignment.hyp_extent(docid, fill.extent)


def _document(alignment: Any, docid: str) -> Any:
    """The aligned document whose column space holds reference document ``docid``."""
    if alignment.unsegmented:
        return alignment.documents[0] if alignment.documents else None
    # looked up, not scanned: this is asked for every point shown
    space = alignment.column_space(docid, reference=True)
    if space is None:
        space = alignment.column_space(docid, reference=False)  # a document of the hypothesis only
        if space is not None and alignment.documents[space].ref_docid is not None:
            space = None
    return None if space is None else alignment.documents[space]


def aligned_context(result: ScoreResult, point: Point, around: int = 4) -> Context | None:
    """The aligned words around a point's reference and hypothesis fills.

    Only the columns needed are read from the alignment, so this stays cheap
    for an unsegmented corpus aligned as one long stream. When the two fills
    lie far apart, two windows are shown with a :data:`GAP` cell between them.

    Args:
        result: the scored result (``result.alignment`` is set when texts differ).
        point: one of its points.
        around: words of context on each side.

    Returns:
        The context, or None when the texts were not aligned (same text) or
        neither fill has an extent that touches an aligned word.
    """
    alignment = result.alignment
    if alignment is None:
        return None
    ref_columns = _columns(alignment, point.ref_fill, point.ref, reference=True)
    hyp_columns = _columns(alignment, point.hyp_fill, point.hyp, reference=False)
    spans = sorted((s for s in (ref_columns, hyp_columns) if s is not None), key=lambda s: (s.start, s.end))
    document = _document(alignment, point.docid)
    if not spans or document is None:
        return None
    words = document.alignment
    size = int(words.kinds.shape[0])
    windows: list[list[int]] = []
    for span in spans:
        first, last = max(0, span.start - around), min(size - 1, span.end + around)
        if windows and first <= windows[-1][1] + 1:
            windows[-1][1] = max(windows[-1][1], last)
        else:
            windows.append([first, last])
    ref_words: list[str] = []
    hyp_words: list[str] = []
    kinds: list[int] = []
    ref_marked: list[bool] = []
    hyp_marked: list[bool] = []
    for number, (first, last) in enumerate(windows):
        if number:
            ref_words.append("…")
            hyp_words.append("…")
            kinds.append(GAP)
            ref_marked.append(False)
            hyp_marked.append(False)
        for column in range(first, last + 1):
            r, h = int(words.ref_index[column]), int(words.hyp_index[column])
            ref_words.append(document.ref_tokens[r].text if r >= 0 else "")
            hyp_words.append(document.hyp_tokens[h].text if h >= 0 else "")
            kinds.append(int(words.kinds[column]))
            ref_marked.append(ref_columns is not None and ref_columns.start <= column <= ref_columns.end)
            hyp_marked.append(hyp_columns is not None and hyp_columns.start <= column <= hyp_columns.end)
    return Context(tuple(ref_words), tuple(hyp_words), tuple(kinds), tuple(ref_marked), tuple(hyp_marked))


@dataclass(frozen=True)
class ExplainRow:
    """One point as the drill-down shows it.

    Attributes:
        point: the point itself.
        ref_fill: the reference fill as written in the templette file, or None.
        hyp_fill: the hypothesis fill as written, or None.
        ref_where: ``<INSTANCE>, line N`` of the reference fill, or None.
        hyp_where: the same for the hypothesis fill.
        context: aligned words around the fills (texts differ), or None.
        cause_note: for a recognition error, what the recognizer did to
            the fill's words ("the recognizer heard `hinges` for `hingis`");
            else ''.
    """

    point: Point
    ref_fill: str | None
    hyp_fill: str | None
    ref_where: str | None
    hyp_where: str | None
    context: Context | None
    cause_note: str = ""

    @property
    def cause(self) -> str | None:
        """``recognition``, ``extraction`` or None (not an error, or the texts are the same)."""
        return self.point.cause

    @property
    def category(self) -> str:
        return self.point.category

    @property
    def reason(self) -> str:
        return self.point.reason


def _where(fill_ref: FillRef | None) -> str | None:
    return None if fill_ref is None else f"{fill_ref.instance}, line {fill_ref.line}"


def explain(
    result: ScoreResult,
    *,
    slots: Sequence[str] = (),
    types: Sequence[str] = (),
    documents: Sequence[str] = (),
    categories: Sequence[str] = (),
    causes: Sequence[str] = (),
    around: int = 4,
) -> list[ExplainRow]:
    """The drill-down rows of the points matching the filters (see :func:`select_points`).

    Args:
        result: a scored result.
        slots: ``TYPE.SLOT`` keys.
        types: instance types.
        documents: DOCIDs.
        categories: point categories.
        causes: error causes, ``recognition`` or ``extraction``.
        around: words of aligned context on each side of a fill.

    Raises:
        UsageError: a filter value that no point has.
    """
    return [
        ExplainRow(
            point,
            None if point.ref is None else point.ref.fill,
            None if point.hyp is None else point.hyp.fill,
            _where(point.ref),
            _where(point.hyp),
            aligned_context(result, point, around),
            cause_note(result, point),
        )
        for point in select_points(
            result, slots=slots, types=types, documents=documents, categories=categories, causes=causes
        )
    ]


def cause_note(result: ScoreResult, point: Point) -> str:
    """What the recognizer did to a recognition error's words (see :meth:`Attributor.note`); for a
    missing point of a document left unmapped because one hypothesis set spans several documents, that."""
    if point.category == "MIS" and point.cause is not None:
        from hub4eval.scoring.split_sets import SpanningSetWarning

        for warning in result.warnings:
            if isinstance(warning, SpanningSetWarning) and point.docid in warning.unmapped_documents:
                return (
                    f"its document was left unmapped: hypothesis set {warning.docid} has instances in "
                    f"{len(warning.documents)} documents and maps to one (--split-sets)"
                )
    if point.cause != "recognition" or result.attributor is None:
        return ""
    ref_docid = None if point.ref is None else _instance_docid(point.ref)
    hyp_docid = None if point.hyp is None else _instance_docid(point.hyp)
    return result.attributor.note(point.category, ref_docid, hyp_docid, point.ref_fill, point.hyp_fill)


__all__ = ["GAP", "Context", "ExplainRow", "aligned_context", "explain", "select_points", "tally"]
