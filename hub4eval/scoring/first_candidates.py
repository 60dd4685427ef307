"""The first candidates of the projections of many reference fills, found at once (§11).

:mod:`hub4eval.scoring.projection` projects a reference fill onto the hypothesis
text as the hypothesis tokens of its alignment columns first: the tokens in the
columns its extent maps to, the span of the text from the first one's start to
the last one's end, and the columns that span maps back to (the extent the
scorer compares). Looking them up one fill at a time took a bisection and a
widening per fill; here they are found for all the fills of a run of instance
sets in numpy (:mod:`hub4eval.text.column_extents`), in the order the
projection reads them, with the widened columns and their tokens, whose runs
are the fill's later candidates.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np

from hub4eval.model import TextFill
from hub4eval.text.column_extents import enclosures_of, extents_of, same_hyp_tokens
from hub4eval.text.columns import token_bounds


class FirstCandidates:
    """The first candidates of the text fills with an extent of some instance sets, in the order
    :meth:`hub4eval.scoring.projection.project` projects them, found at once in numpy (what the
    projection's per-fill route looks up one fill at a time), one numpy column an item
    (:attr:`arrays`), or one fill's items as Python values (:meth:`row`): whether its extent
    touches a reference token in a column space and that space (-1: none); the first and the
    last hypothesis token in its columns (the first after the last: none), the span from the
    first's start to the last's end; its columns and those widened over the insertions at their
    edges; the columns of that span as
    :meth:`~hub4eval.text.columns.CorpusAlignment.hyp_extent` maps them (whether it has any, the
    first, the last); and the first and the last hypothesis token in the widened columns.

    ``spaces_read``: the token arrays of the column spaces read by the batch before (replaced by
    this one's), so that the batches of an unsegmented hypothesis read its one space once."""

    __slots__ = ("arrays", "spaces")

    def __init__(
        self,
        alignment: Any,
        docids: list[str],
        fills: list[TextFill],
        spaces_read: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None = None,
    ) -> None:
        count = len(fills)
        extents = [fill.extents[0] for fill in fills]
        starts = np.fromiter(map(attrgetter("start"), extents), dtype=np.int64, count=count)
        ends = np.fromiter(map(attrgetter("end"), extents), dtype=np.int64, count=count)
        first, last, found = extents_of(alignment, True, docids, starts, ends)
        if found.all():
            wide_first, wide_last = enclosures_of(alignment, docids, first, last)
        else:  # widened where there are columns (a space without a column has nothing to widen over)
            wide_first, wide_last = first.copy(), last.copy()
            inside = np.flatnonzero(found)
            if len(inside):
                widened = enclosures_of(alignment, [docids[k] for k in inside.tolist()], first[inside], last[inside])
                wide_first[inside], wide_last[inside] = widened
        space_of = {docid: alignment.column_space(docid, reference=True) for docid in dict.fromkeys(docids)}
        space_number = {docid: -1 if space is None else space for docid, space in space_of.items()}
        spaces = np.fromiter(map(space_number.__getitem__, docids), dtype=np.int64, count=count)
        found &= spaces >= 0
        self.spaces = spaces.tolist()
        # The hypothesis tokens of the column spaces one after the other (an unsegmented text's
        # one space as it is): each token's column, its start and its end. An alignment holds
        # each token in one column, in order: the tokens in columns [a, b] are those numbered
        # from the first in a column at or after a to the last in a column at or before b.
        used = sorted({space for space in space_of.values() if space is not None})
        column_base = np.zeros(max(used, default=0) + 1, dtype=np.int64)
        token_base = np.zeros(len(column_base), dtype=np.int64)
        column_pieces, start_pieces, end_pieces, index_pieces = [], [], [], []
        columns = tokens = 0
        # (the spaces of the batch before, when given: an unsegmented hypothesis's one space is read
        # once for all the batches, and the arrays of no other space are kept)
        known = {} if spaces_read is None else spaces_read.copy()
        if spaces_read is not None:
            spaces_read.clear()
        else:
            spaces_read = {}
        for space in used:
            read = known.get(space)
            if read is None:
                document = alignment.documents[space]
                hyp_index = np.asarray(document.alignment.hyp_index)
                bounds = token_bounds(document.hyp_tokens)
                # (the tokens' offsets in their own integer type, read in place: copied into int64,
                # a million-token text's two took ~14 MB, touched page by page, for a few gathers)
                read = (np.flatnonzero(hyp_index >= 0), np.asarray(bounds[0]), np.asarray(bounds[1]), hyp_index)
            spaces_read[space] = read
            column_base[space], token_base[space] = columns, tokens
            column_pieces.append(read[0] + columns if columns else read[0])
            start_pieces.append(read[1])
            end_pieces.append(read[2])
            index_pieces.append(np.where(read[3] >= 0, read[3] + tokens, -1) if tokens else read[3])
            columns += len(read[3])
            tokens += len(read[1])
        token_columns, token_starts, token_ends, column_tokens = (
            pieces[0] if len(pieces) == 1 else np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
            for pieces in (column_pieces, start_pieces, end_pieces, index_pieces)
        )
        space_at = np.where(found, spaces, 0)
        column_shift, token_shift = column_base[space_at], token_base[space_at]
        top = len(column_tokens) - 1

        def tokens_in(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """The first and the last token (of its space) in columns [a, b] of each fill's space:
            the tokens in columns a and b where they hold one (most), else those the tokens'
            columns give (the first in a column at or after a, the last at or before b)."""
            if top < 0:  # no column (no fill in a column space): no token
                return np.zeros(count, dtype=np.int64), np.full(count, -1, dtype=np.int64)
            # (no clip needed: a fill found in a column space has its columns inside that space's,
            # which its shift places inside the spaces side by side; any other fill's columns are 0,
            # and so is its shift, space 0's: the first of the spaces side by side, or none)
            a, b = a + column_shift, b + column_shift
            low, high = column_tokens[a], column_tokens[b]
            gaps = np.flatnonzero(low < 0)
            if len(gaps):
                low[gaps] = np.searchsorted(token_columns, a[gaps], side="left")
            gaps = np.flatnonzero(high < 0)
            if len(gaps):
                high[gaps] = np.searchsorted(token_columns, b[gaps], side="right") - 1
            return low - token_shift, high - token_shift

        token_first, token_last = tokens_in(first, last)
        has = found & (token_first <= token_last)
        at_first, at_last = np.where(has, token_first + token_shift, 0), np.where(has, token_last + token_shift, 0)
        if len(token_starts):
            span_starts = np.where(has, token_starts[np.minimum(at_first, len(token_starts) - 1)], 0)
            span_ends = np.where(has, token_ends[np.minimum(at_last, len(token_ends) - 1)], 0)
        else:
            span_starts = span_ends = np.zeros(count, dtype=np.int64)
        # The columns of each span as hyp_extent maps them: where its side's tokens are those of
        # the fill's column space and its first and last token share no character with the token
        # before and the one after (a spelling rule that splits a word gives its tokens the
        # word's span), its first token's column and its last one's; the others bisected.
        direct = has.copy()
        same = {
            docid: space is not None and same_hyp_tokens(alignment, docid, space) for docid, space in space_of.items()
        }
        if not all(same.values()):
            direct &= np.fromiter(map(same.__getitem__, docids), dtype=bool, count=count)
        if len(token_starts):
            last_token = len(token_starts) - 1
            after = np.minimum(at_last + 1, last_token)
            direct &= (at_first == 0) | (token_ends[np.maximum(at_first - 1, 0)] <= span_starts)
            direct &= (at_last == last_token) | (token_starts[after] >= span_ends)
            direct &= (span_starts < token_ends[at_first]) & (token_starts[at_last] < span_ends)
        shown = token_columns[at_last] if len(token_columns) else at_last
        hyp_first = np.where(direct, (token_columns[at_first] if len(token_columns) else at_first) - column_shift, 0)
        hyp_last = np.where(direct, shown - column_shift, 0)
        hyp_found = direct.copy()
        rest = np.flatnonzero(~direct)
        if len(rest):
            part = None if alignment.unsegmented else [docids[k] for k in rest.tolist()]
            hyp_first[rest], hyp_last[rest], hyp_found[rest] = extents_of(
                alignment, False, part, span_starts[rest], span_ends[rest]
            )
        wide_from, wide_to = tokens_in(wide_first, wide_last)
        self.arrays = (
            found,
            spaces,
            token_first,
            token_last,
            span_starts,
            span_ends,
            first,
            last,
            wide_first,
            wide_last,
            hyp_found,
            hyp_first,
            hyp_last,
            wide_from,
            wide_to,
        )
        """The columns of :meth:`row` as numpy arrays, one value a fill, in the same order."""

    def row(self, number: int) -> list[Any]:
        """Of fill ``number``: whether it is inside a column space, that space, its first and last
        token, its first candidate's start and end, its first and last column, those widened,
        whether the candidate's span has columns, its first and last column, the first and last
        widened token, as Python values (read when asked: most fills are decided from
        :attr:`arrays`, and the few others one at a time)."""
        return [values.item(number) for values in self.arrays]


__all__ = ["FirstCandidates"]
