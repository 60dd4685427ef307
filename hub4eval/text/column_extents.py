"""The extents of many fills mapped to alignment columns at once (§7.3): the columns
:meth:`~hub4eval.text.columns.CorpusAlignment.ref_extent`,
:meth:`~hub4eval.text.columns.CorpusAlignment.hyp_extent` and
:meth:`~hub4eval.text.columns.CorpusAlignment.ref_enclosure` give each one, found in numpy,
for the mapping engine's counts and fill tables (:mod:`hub4eval.scoring.pairs`,
:func:`map_in_place`) and the projection's first candidates
(:mod:`hub4eval.scoring.first_candidates`): an unsegmented hypothesis's extents in its one text
by one search (:func:`side_extents`), the others bisected within their documents' runs of
tokens (:class:`TokenRuns`), all at once (by one loop that numba compiles, :func:`_k_run_extents`,
or in numpy where numba is not loaded), and the enclosures widened over the insertion columns a
column a step (:func:`enclosures_of`). :func:`same_hyp_tokens` says when a span of a column
space's hypothesis tokens maps to their own columns without a search.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from typing import Any, NamedTuple

import numpy as np

from hub4eval.model import Extent
from hub4eval.text.align import INSERTION
from hub4eval.text.align.numba_cache import CompiledOnce, cached_njit
from hub4eval.text.columns import CorpusAlignment, _Side
from hub4eval.text.token_arrays import TokenArray

_STRETCH = 32  # TokenRuns.extents in numpy searches a document's run at a time when its stretches hold this many extents, on average
_STEPS_ON = 32  # _k_run_extents searches an offset after the one before by doubling steps while a step is under this many tokens
_WIDENING_STEPS = 16  # columns of insertions that enclosures_of widens over in numpy, beyond which one by one


def extents_of(
    alignment: CorpusAlignment,
    reference: bool,
    docids: Sequence[str | None] | None,
    starts: np.ndarray,
    ends: np.ndarray,
    runs: TokenRuns | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``alignment.ref_extent`` (``reference``) or ``hyp_extent`` of many character
    extents at once, the one in ``docids[k]`` from ``starts[k]`` to ``ends[k]`` (``docids``
    None: an unsegmented hypothesis's file offsets):
    (first columns, last columns, whether each touches a token; where not, the
    extent maps to None and its columns are 0): the same columns.

    An unsegmented hypothesis's extents are all in one text: found in numpy at once.
    Others are bisected within their document's tokens, all at once (by one compiled loop,
    :func:`_k_run_extents`, when numba is loaded in this process; else in numpy), in
    ``runs`` (:func:`token_runs` of the documents of ``docids``, or of more; made here
    when not given), or one by one when the tokens are not arrays."""
    sides: dict[str | None, _Side] = alignment._ref if reference else alignment._hyp  # type: ignore[assignment]
    n = len(starts)
    if not reference and alignment.unsegmented:  # one column space: file offsets
        side = sides.get(None)
        if side is None:
            return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool)
        return side_extents(side, starts, ends)
    assert docids is not None
    if runs is None:
        runs = token_runs(alignment, reference, docids)
    if runs is not None:
        return runs.extents(docids, starts, ends)
    first: list[int] = []
    last: list[int] = []
    found: list[bool] = []
    bisect_right, bisect_left = bisect.bisect_right, bisect.bisect_left
    previous: object = first  # no DOCID
    lookup: tuple[Sequence[int], Sequence[int], Sequence[int]] | None = None
    for docid, start, end in zip(docids, starts.tolist(), ends.tolist(), strict=True):
        if docid is not previous:
            previous = docid
            side = sides.get(docid)
            lookup = None if side is None else side._lookup
        if lookup is not None:
            token_starts, token_ends, columns = lookup
            a = bisect_right(token_ends, start)  # as _Side.extent
            b = bisect_left(token_starts, end) - 1
            if a <= b:
                first.append(columns[a])
                last.append(columns[b])
                found.append(True)
                continue
        first.append(0)
        last.append(0)
        found.append(False)
    return np.asarray(first, dtype=np.int64), np.asarray(last, dtype=np.int64), np.asarray(found, dtype=bool)


def token_runs(alignment: CorpusAlignment, reference: bool, docids: Iterable[str | None]) -> TokenRuns | None:
    """The tokens of the documents ``docids`` of one side (not an unsegmented hypothesis's
    one text) as runs of arrays, for :func:`extents_of`: an unsegmented reference's are
    runs of its one text's (no copy); others are copied, one document after the other.
    None when the tokens are not arrays."""
    if reference and alignment._ref_runs is not None:
        whole, columns = alignment._ref_runs
        tokens = alignment.documents[0].ref_tokens
        assert isinstance(tokens, TokenArray)
        return TokenRuns(whole, tokens.starts, tokens.ends, columns)
    sides: dict[str | None, _Side] = alignment._ref if reference else alignment._hyp  # type: ignore[assignment]
    found: dict[str | None, tuple[int, int]] = {}
    pieces: list[TokenArray] = []
    column_pieces: list[np.ndarray] = []
    position = 0
    for docid in dict.fromkeys(docids):
        side = sides.get(docid)
        if side is None:
            continue
        tokens = side.tokens
        if not isinstance(tokens, TokenArray):
            return None
        found[docid] = (position, position + len(tokens))
        position += len(tokens)
        pieces.append(tokens)
        column_pieces.append(side.columns)
    if not pieces:
        empty = np.zeros(0, dtype=np.int64)
        return TokenRuns(found, empty, empty, empty)
    return TokenRuns(
        found,
        np.concatenate([tokens.starts for tokens in pieces]),
        np.concatenate([tokens.ends for tokens in pieces]),
        np.concatenate(column_pieces),
    )


def map_in_place(
    alignment: CorpusAlignment,
    reference: bool,
    docids: Sequence[str | None] | None,
    starts: np.ndarray,
    ends: np.ndarray,
    at: np.ndarray,
    widen: bool,
    none: int,
    runs: TokenRuns | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Map the character extents ``starts[at]``, ``ends[at]`` (those of ``docids``, one for
    each of ``at``, as :func:`extents_of` reads them) to alignment columns in place, ``none``
    where one touches no token; give copies of them so mapped, then, with ``widen`` (a
    reference's extents for the enclosure test), widen those that touch one in place
    (:func:`enclosures_of`). The one way the mapping engine's counts and the fill tables map
    a side's extents."""
    first, last, found = extents_of(alignment, reference, docids, starts[at], ends[at], runs)
    starts[at] = np.where(found, first, none)
    ends[at] = np.where(found, last, none)
    minimal = starts.copy(), ends.copy()
    if widen:
        inside = at[found]
        assert docids is not None
        starts[inside], ends[inside] = enclosures_of(
            alignment, [docids[k] for k in np.flatnonzero(found).tolist()], starts[inside], ends[inside]
        )
    return minimal


def enclosures_of(
    alignment: CorpusAlignment, docids: Sequence[str | None], starts: np.ndarray, ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``alignment.ref_enclosure`` of many reference column extents at once (``starts`` and
    ``ends``, columns of the documents ``docids``): the same extents, widened in numpy a
    column a step (runs of insertions are short; past :data:`_WIDENING_STEPS` columns,
    one by one by ``alignment.ref_enclosure``), in the kinds of the documents' columns one
    after the other (an unsegmented hypothesis's one column space as it is)."""
    starts, ends = starts.copy(), ends.copy()
    if not len(starts):
        return starts, ends
    if alignment.unsegmented:
        if alignment.column_space(None) is None:
            return starts, ends
        every = alignment.documents[0].alignment.kinds
        base = np.zeros(len(starts), dtype=np.int64)
        lows, highs = base, np.full(len(starts), len(every) - 1, dtype=np.int64)
        inside = np.arange(len(starts))
    else:  # each document its own column space: theirs one after the other
        spaces: dict[str | None, tuple[int, int]] = {}
        pieces: list[np.ndarray] = []
        position = 0
        for docid in dict.fromkeys(docids):
            number = alignment.column_space(docid)
            if number is not None:
                kinds = alignment.documents[number].alignment.kinds
                spaces[docid] = (position, len(kinds))
                position += len(kinds)
                pieces.append(kinds)
        if not pieces:
            return starts, ends
        every = np.concatenate(pieces)
        nowhere = (-1, 0)  # no column space: left as it is
        places = np.fromiter(
            chain.from_iterable(map(spaces.get, docids, repeat(nowhere))), dtype=np.int64, count=2 * len(docids)
        )
        inside = np.flatnonzero(places[0::2] >= 0)
        base = places[0::2][inside]
        lows, highs = base, base + places[1::2][inside] - 1
    last = len(every) - 1
    for bounds, step in ((starts, -1), (ends, 1)):
        stops = lows if step < 0 else highs
        at = bounds[inside] + base  # in the columns one after the other
        # the bounds that can move a column further: not at their space's edge, an insertion next to them
        moving = np.flatnonzero((at != stops) & (every[np.clip(at + step, 0, last)] == INSERTION))
        for _ in range(_WIDENING_STEPS):
            if not len(moving):
                break
            at[moving] += step
            moved = at[moving]
            moving = moving[(moved != stops[moving]) & (every[np.clip(moved + step, 0, last)] == INSERTION)]
        bounds[inside] = at - base
        for k in inside[moving].tolist():  # a longer run of insertions
            widened = alignment.ref_enclosure(docids[k], Extent(int(starts[k]), int(ends[k])))
            bounds[k] = widened.start if step < 0 else widened.end
    return starts, ends


def side_extents(side: _Side, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``side.extent`` of many character extents at once, [starts, ends): the columns of
    each one's first and last token, and whether it touches any (where not, its two
    columns are 0). Each bisected in all the tokens, as one run, by the compiled loop
    (:func:`_k_run_extents`) when numba is loaded (:func:`_numba_loaded`), else by numpy."""
    tokens = side.tokens
    if isinstance(tokens, TokenArray):
        token_starts, token_ends = tokens.starts, tokens.ends
    else:
        token_starts, token_ends = (np.asarray(bounds, dtype=np.int64) for bounds in side._lookup[:2])
    if _numba_loaded():
        bounds = np.zeros(2 * len(starts), dtype=np.int64)
        bounds[1::2] = len(token_starts)
        return _run_extents(token_starts, token_ends, side.columns, bounds, starts, ends)
    # the offsets in the tokens' own type (searching an int32 array for int64 values would copy it
    # whole into int64 first); an offset past what that type holds is past every token
    top = np.iinfo(token_ends.dtype).max if token_ends.dtype.kind in "iu" else None
    if top is not None and top < np.iinfo(np.int64).max:
        starts = np.minimum(starts, top).astype(token_ends.dtype)
        ends = np.minimum(ends, top).astype(token_starts.dtype)
    first = np.searchsorted(token_ends, starts, side="right")  # as bisect_right: first token ending after start
    last = np.searchsorted(token_starts, ends, side="left") - 1  # last token starting before end
    found = first <= last
    if not found.any():
        zeros = np.zeros(len(starts), dtype=np.int64)
        return zeros, zeros.copy(), found
    columns = side.columns
    return (
        np.where(found, columns[np.where(found, first, 0)], 0).astype(np.int64),
        np.where(found, columns[np.where(found, last, 0)], 0).astype(np.int64),
        found,
    )


class TokenRuns(NamedTuple):
    """The tokens of some documents of one side as runs of arrays (:func:`token_runs`)."""

    runs: dict[str | None, tuple[int, int]]  # each document's [first, end) tokens
    starts: np.ndarray  # of every token
    ends: np.ndarray
    columns: np.ndarray

    def extents(
        self, docids: Sequence[str | None], starts: np.ndarray, ends: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`extents_of` of extents of these documents: each bisected within its
        document's run (a document not here has no token), all at once: by the compiled loop
        (:func:`_k_run_extents`) when numba is loaded (:func:`_numba_loaded`), else in numpy."""
        if _numba_loaded():
            # each extent's run, [low, high) one after the other (a document not here: an empty run)
            bounds = np.fromiter(
                chain.from_iterable(map(self.runs.get, docids, repeat((0, 0)))), np.int64, 2 * len(docids)
            )
            return _run_extents(self.starts, self.ends, self.columns, bounds, starts, ends)
        nowhere = (0, 0)  # an empty run
        count = len(docids)
        # where the document changes (extents come document by document: a few long stretches)
        changes = [k for k in range(1, count) if docids[k] is not docids[k - 1] and docids[k] != docids[k - 1]]
        if len(changes) * _STRETCH < count:
            # each stretch of one document searched in its run of tokens, as _bisect_within would
            first = np.empty(count, dtype=np.int64)
            last = np.empty(count, dtype=np.int64)
            runs = self.runs
            for a, b in zip([0, *changes], [*changes, count], strict=True):
                low, high = runs.get(docids[a], nowhere)
                first[a:b] = np.searchsorted(self.ends[low:high], starts[a:b], side="right") + low
                last[a:b] = np.searchsorted(self.starts[low:high], ends[a:b], side="left") + (low - 1)
        else:
            bounds = np.fromiter(chain.from_iterable(map(self.runs.get, docids, repeat(nowhere))), np.int64, 2 * count)
            lows, highs = bounds[0::2], bounds[1::2]
            first = _bisect_within(self.ends, lows, highs, starts, right=True)  # first token ending after start
            last = _bisect_within(self.starts, lows, highs, ends, right=False) - 1  # last token starting before end
        found = first <= last
        if not found.any():
            return np.zeros(len(starts), dtype=np.int64), np.zeros(len(starts), dtype=np.int64), found
        columns = self.columns
        return (
            np.where(found, columns[np.where(found, first, 0)], 0).astype(np.int64),
            np.where(found, columns[np.where(found, last, 0)], 0).astype(np.int64),
            found,
        )


def _bisect_within(
    values: np.ndarray, lows: np.ndarray, highs: np.ndarray, targets: np.ndarray, *, right: bool
) -> np.ndarray:
    """``bisect.bisect_right`` (``right``) or ``bisect_left`` of each target in its own sorted
    run ``values[lows[k]:highs[k]]``, as an index of ``values``: all at once, a halving of
    every run a step."""
    lows, highs = lows.copy(), highs.copy()
    # every run halved together, as many steps as the longest needs (a run already found keeps
    # its bounds): a step leaves at most half of a run (floor), so bit_length(longest) steps
    # leave none
    span = int((highs - lows).max(initial=0))
    last = len(values) - 1
    while span > 0:
        live = lows < highs
        middle = (lows + highs) >> 1
        found = values[np.minimum(middle, last)]
        onward = (found <= targets if right else found < targets) & live
        lows = np.where(onward, middle + 1, lows)
        highs = np.where(live & ~onward, middle, highs)
        span >>= 1
    return lows


def _run_extents(
    token_starts: np.ndarray,
    token_ends: np.ndarray,
    columns: np.ndarray,
    bounds: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(first columns, last columns, whether each touches a token) of the extents [``starts[k]``,
    ``ends[k]``), each bisected in its run of the tokens [``bounds[2k]``, ``bounds[2k + 1]``)
    (:func:`_k_run_extents`)."""
    count = len(starts)
    first = np.empty(count, dtype=np.int64)
    last = np.empty(count, dtype=np.int64)
    found = np.empty(count, dtype=np.bool_)
    # the offsets as int64 whatever the caller's type: one compiled variant of the loop for them
    _run_extents_kernel()(
        token_starts,
        token_ends,
        columns,
        bounds,
        np.ascontiguousarray(starts, dtype=np.int64),
        np.ascontiguousarray(ends, dtype=np.int64),
        first,
        last,
        found,
    )
    return first, last, found


def _k_run_extents(
    token_starts, token_ends, columns, bounds, starts, ends, first, last, found
):  # pragma: no cover - compiled
    """The extent k, [``starts[k]``, ``ends[k]``), mapped in its run of tokens
    [``bounds[2k]``, ``bounds[2k + 1]``) (:meth:`TokenRuns.extents`, :func:`side_extents`), written
    into ``first[k]``, ``last[k]`` and ``found[k]``: the columns of its first and last token, as
    :meth:`~hub4eval.text.columns._Side.extent` bisects (0 and 0 when it touches none). A loop
    of numba's: a bisection an extent costs about what one numpy step of a bisection of all of
    them at once did (40,000 extents of a million-word reference: two bisections of about ten
    steps each)."""
    # An offset at or past the one before in the same run is searched from where that one was
    # found, by steps doubling (up to _STEPS_ON tokens on) and then a bisection: the extents of
    # a set or a document often come in order, a few tokens apart (a few steps near the last
    # token found, in memory just read, instead of a bisection of the whole run); one far on
    # costs a few steps more than a bisection
    run_low, run_high = -1, -1
    after_start = after_end = 0  # the last start and end searched in the run
    begin = end = 0  # the tokens they found
    for k in range(len(starts)):
        low = bounds[2 * k]
        high = bounds[2 * k + 1]
        onward = low == run_low and high == run_high
        run_low, run_high = low, high
        target = starts[k]
        # bisect_right of the start in the ends: the first token ending after it
        a = begin if onward and target >= after_start else low
        b = a
        step = 1
        while b < high and token_ends[b] <= target:  # the first token ending after it is past b
            a = b + 1
            b = a + step if step < _STEPS_ON else high  # far on: the rest of the run bisected
            step <<= 1
        b = min(b, high)
        while a < b:
            middle = (a + b) >> 1
            if token_ends[middle] <= target:
                a = middle + 1
            else:
                b = middle
        begin, after_start = a, target
        target = ends[k]
        # bisect_left of the end in the starts (less one: the last token starting before it)
        a = end + 1 if onward and target >= after_end else low
        b = a
        step = 1
        while b < high and token_starts[b] < target:
            a = b + 1
            b = a + step if step < _STEPS_ON else high
            step <<= 1
        b = min(b, high)
        while a < b:
            middle = (a + b) >> 1
            if token_starts[middle] < target:
                a = middle + 1
            else:
                b = middle
        end, after_end = a - 1, target
        if begin <= end:
            first[k] = columns[begin]
            last[k] = columns[end]
            found[k] = True
        else:
            first[k] = 0
            last[k] = 0
            found[k] = False


def _numba_loaded() -> bool:
    """Whether extents are searched by the compiled loop (:func:`_k_run_extents`): when numba is
    loaded in this process already (the aligner's kernels load it, with ``--jobs 1``). A process
    whose children aligned the texts has not loaded it, and searches in numpy rather than
    import numba (about half a second) for searches of a few milliseconds."""
    return "numba" in sys.modules


def _compile_run_extents() -> Any:
    """:func:`_k_run_extents` compiled by numba (or loaded from its on-disk cache, as the
    aligner's kernels are: :func:`hub4eval.text.align.numba_cache.cached_njit`)."""
    import numba

    # only the package's module caches (a copy imported under another name would write
    # entries the package cannot load)
    # compiled in about 0.4 s: without the aligner's notice (it names the aligner)
    cached = __name__ == "hub4eval.text.column_extents"
    return cached_njit(numba, _k_run_extents, cached, announce=False)


_run_extents_kernel = CompiledOnce(_compile_run_extents)
""":func:`_k_run_extents` compiled on first use; numba is imported then, not with this module."""


def same_hyp_tokens(alignment: CorpusAlignment, docid: str | None, space: int) -> bool:
    """Whether ``alignment.hyp_extent(docid, ...)`` bisects the hypothesis tokens of column space
    ``space`` (those tokens, the same object: then a span from a token's start to another's end
    maps to their columns, when neither shares a character with the token beside it)."""
    side = alignment._hyp.get(None if alignment.unsegmented else docid)
    return side is not None and side.tokens is alignment.documents[space].hyp_tokens


__all__ = [
    "TokenRuns",
    "enclosures_of",
    "extents_of",
    "map_in_place",
    "same_hyp_tokens",
    "side_extents",
    "token_runs",
]
