"""The drill-down: which points, and why (spec §9 "Drill-down").

Pure functions over a :class:`~hub4eval.result.ScoreResult`: filter its points
by slot, type, document and category (unknown values are errors with close
matches suggested), and, when the texts differ, the aligned reference and
hypothesis words around a fill with the fill's columns marked.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import UsageError
from .metrics import CATEGORIES
from .model import TextFill
from .points import Point
from .result import ScoreResult


def _check(values: Iterable[str], known: Sequence[str], option: str) -> None:
    for value in values:
        if value not in known:
            close = difflib.get_close_matches(value, list(known), n=3)
            hint = f"did you mean {' or '.join(close)}?" if close else f"known: {', '.join(list(known)[:8])}"
            raise UsageError(f"unknown {option} value {value!r}: no point has it", hint=hint)


def select_points(
    result: ScoreResult,
    *,
    slots: Sequence[str] = (),
    types: Sequence[str] = (),
    documents: Sequence[str] = (),
    categories: Sequence[str] = (),
) -> list[Point]:
    """The points matching every given filter (each filter: any of its values).

    Raises:
        UsageError: a filter value that no point has (a typo, usually).
    """
    _check(slots, list(result.by("slot")), "--slot")
    _check(types, list(result.by("type")), "--type")
    _check(documents, list(result.by("document")), "--doc")
    _check([c.upper() for c in categories], CATEGORIES, "--category")
    wanted_categories = {c.upper() for c in categories}
    return [
        p
        for p in result.points
        if (not slots or p.slot_key in slots)
        and (not types or p.type in types)
        and (not documents or p.docid in documents)
        and (not wanted_categories or p.category in wanted_categories)
    ]


@dataclass(frozen=True)
class Context:
    """Aligned words around a fill: one cell per column, and which are the fill's."""

    ref_words: tuple[str, ...]
    hyp_words: tuple[str, ...]
    kinds: tuple[int, ...]  # hub4eval.align MATCH, SUBSTITUTION, DELETION, INSERTION
    ref_marked: tuple[bool, ...]
    hyp_marked: tuple[bool, ...]


def aligned_context(result: ScoreResult, point: Point, around: int = 4) -> Context | None:
    """The aligned words around the point's fills, or None when texts were not aligned."""
    alignment = result.alignment
    if alignment is None:
        return None
    spans = []
    ref_columns = hyp_columns = None
    if isinstance(point.ref_fill, TextFill) and point.ref_fill.extent is not None and point.ref:
        ref_doc = point.ref.instance.rsplit("-", 1)[0].split("-", 1)[1]
        ref_columns = alignment.ref_extent(ref_doc, point.ref_fill.extent)
        if ref_columns is not None:
            spans.append(ref_columns)
    if isinstance(point.hyp_fill, TextFill) and point.hyp_fill.extent is not None and point.hyp:
        hyp_doc = point.hyp.instance.rsplit("-", 1)[0].split("-", 1)[1]
        hyp_columns = alignment.hyp_extent(hyp_doc, point.hyp_fill.extent)
        if hyp_columns is not None:
            spans.append(hyp_columns)
    if not spans:
        return None
    rows = alignment.rows_for(point.docid)
    if not rows:
        return None
    first = max(0, min(s.start for s in spans) - around)
    last = min(len(rows) - 1, max(s.end for s in spans) + around)
    window = rows[first : last + 1]

    def marked(columns) -> tuple[bool, ...]:  # noqa: ANN001
        return tuple(
            columns is not None and columns.start <= first + k <= columns.end for k in range(len(window))
        )

    return Context(
        tuple(r for r, _, _ in window),
        tuple(h for _, h, _ in window),
        tuple(k for _, _, k in window),
        marked(ref_columns),
        marked(hyp_columns),
    )
