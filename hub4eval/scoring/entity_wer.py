"""Entity WER: the word error rate inside the reference fills (what the recognizer cost, §11).

The word error rate restricted to the columns inside the reference fills' maximal
extents (from the column of the first token to the column of the last, so insertions
inside a fill count), overall and per slot; a column inside several fills counts once.
Fills of unscored slots are left out. The fills are placed on the alignment's columns
all at once: a count's fill table of the reference (:mod:`hub4eval.scoring.fill_tables`)
gives the columns of the instances it holds whole; the others' extents are read from
their fills and placed by one search over every document's tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, pairwise, repeat
from operator import attrgetter
from typing import Any

from hub4eval.model import TextFill


def _reference_sets(result: Any) -> Iterator[Any]:
    """The reference instance sets of ``result``'s mapping, in order (a result of counts keeps them)."""
    tally = result.tally
    if tally is not None and tally.reference_sets is not None:
        yield from tally.reference_sets
        return
    for set_match in result.matches:
        if set_match.ref is not None:
            yield set_match.ref


def entity_wer(result: Any) -> dict[str, Any] | None:
    """WER restricted to the reference fills' columns: ``{"alignment": "weighted", "summary": ..., "by_slot": {...}}``.

    Each entry has the counts of :meth:`hub4eval.text.columns.DocumentAlignment.counts`
    plus ``errors`` and ``wer`` (None without reference words). None when the
    texts were not aligned.
    """
    alignment = result.alignment
    if alignment is None:
        return None
    import numpy as np  # here, not at the top: numpy only when the texts differ

    from hub4eval.text.columns import kind_counts

    # The column spaces (one per document alignment) laid end to end: a fill's columns
    # [start, end] of space s are [base[s] + start, base[s] + end] of one run of columns,
    # whose kinds are those of the spaces in order.
    kinds = [document.alignment.kinds for document in alignment.documents]
    base = [0]
    for space_kinds in kinds:
        base.append(base[-1] + len(space_kinds))
    unscored = frozenset(result.config.unscored_slots)
    sets = list(_reference_sets(result))
    slots: dict[tuple[str, str], int] = {}  # (type, slot) -> its number
    table = result.tally.reference_table if result.tally is not None else None
    instances = list(chain.from_iterable(map(attrgetter("instances"), sets)))
    if table is None or table.alignment is not alignment or table.unscored != unscored:
        numbers, order, first, last, found = _fills_read(enumerate(instances), unscored, slots, alignment, base)
    else:
        # the instances the count's fill table holds whole read from its arrays, the others one by one
        whole, *read = _table_fills(sets, instances, table, slots, alignment, base)
        rest = _fills_read(
            ((k, instances[k]) for k in np.flatnonzero(~whole).tolist()), unscored, slots, alignment, base
        )
        numbers, order, first, last, found = (np.concatenate(pair) for pair in zip(read, rest, strict=True))
    numbers = numbers[found]
    firsts, after, order = first[found], last[found] + 1, order[found]
    every = np.concatenate(kinds) if kinds else np.zeros(0, dtype=np.int64)

    def covered(number: int) -> np.ndarray:
        """The columns inside at least one span of slot ``number``, each once, in order (as many as
        the fills cover, not an array as long as the texts: fills are a few words each)."""
        of_slot = numbers == number
        begins = firsts[of_slot]
        lengths = after[of_slot] - begins
        before = np.cumsum(lengths) - lengths  # where each span's columns begin in the run of all
        columns = np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(begins - before, lengths)
        return _unique(columns)

    def wer_of(columns: np.ndarray) -> dict[str, Any]:
        total = kind_counts(every[columns])
        errors = total["substitutions"] + total["deletions"] + total["insertions"]
        return {**total, "errors": errors, "wer": errors / total["ref_words"] if total["ref_words"] else None}

    # a slot is listed once a fill of it has columns: in the order of the slots' first fills with
    # columns (fills in the order of the instances, then of their slots)
    never = _NEVER
    firsts_of = np.full(len(slots), never, dtype=np.int64)
    np.minimum.at(firsts_of, numbers, order)
    listed = sorted((int(firsts_of[number]), key) for key, number in slots.items() if firsts_of[number] < never)
    inside = {f"{key[0]}.{key[1]}": covered(slots[key]) for _, key in listed}
    union = _unique(np.concatenate(list(inside.values()))) if inside else np.zeros(0, dtype=np.int64)
    return {
        "alignment": "weighted",  # fills are placed on the weighted alignment's columns, not on sclite's
        "summary": wer_of(union),
        "by_slot": {key: wer_of(columns) for key, columns in inside.items()},
    }


_ORDER = 1 << 20  # a fill's place in the order of the fills: its instance's place * _ORDER + its place in it
_NEVER = 2**63 - 1  # past every place


def _fills_read(
    instances: Iterable[tuple[int, Any]],
    unscored: frozenset[str],
    slots: dict[tuple[str, str], int],
    alignment: Any,
    base: Sequence[int],
) -> tuple[Any, Any, Any, Any, Any]:
    """Of every fill with an extent of a scored slot of ``instances`` (each with its place among
    the instances of the reference sets), read from the instances: its slot's number in
    ``slots`` (numbered as first met), its place in the order of the fills (see
    :data:`_ORDER`), the first and last column of its maximal extent in the column spaces laid
    end to end (``base``) and whether it touches a token."""
    import numpy as np

    numbers_of: dict[str, dict[str, int]] = {}  # the same numbers by type, then slot (no tuple made per fill)
    # every fill's maximal extent (read as the fill is: its start and end), slot number and
    # place, in order, and the runs of one document's fills
    starts: list[int] = []
    ends: list[int] = []
    fill_slots: list[int] = []
    places: list[int] = []
    runs: list[tuple[str, int]] = []  # (DOCID, index of its first fill)
    add_start, add_end, add_slot, add_place = starts.append, ends.append, fill_slots.append, places.append
    for position, inst in instances:
        if not runs or runs[-1][0] != inst.docid:
            runs.append((inst.docid, len(starts)))
        numbers = numbers_of.get(inst.type)
        if numbers is None:
            numbers = numbers_of[inst.type] = {}
        place = position * _ORDER
        for slot in inst.slots:
            name = slot.name
            if name in unscored:
                continue
            number = -1
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if type(fill) is not TextFill or not fill.extents:
                        continue
                    if number < 0:
                        number = numbers.get(name, -1)
                        if number < 0:
                            number = numbers[name] = slots.setdefault((inst.type, name), len(slots))
                    extent = fill.extents[0]
                    add_start(extent.start)
                    add_end(extent.end)
                    add_slot(number)
                    add_place(place)
                    place += 1
    # without the runs of no fill (a document's instances read from the table, or without extents)
    nexts = [index for _, index in runs[1:]] + [len(starts)] if runs else []
    runs = [run for run, following in zip(runs, nexts, strict=True) if following > run[1]]
    first, last, found = _reference_columns(alignment, runs, starts, ends, base)
    return (
        np.asarray(fill_slots, dtype=np.int64),
        np.asarray(places, dtype=np.int64),
        first,
        last,
        found,
    )


def _table_fills(
    sets: Sequence[Any],
    instances: Sequence[Any],
    table: Any,
    slots: dict[tuple[str, str], int],
    alignment: Any,
    base: Sequence[int],
) -> tuple[Any, Any, Any, Any, Any, Any]:
    """:func:`_fills_read` of the instances of ``sets`` that the reference's fill table of the
    count holds whole (:attr:`~hub4eval.scoring.fill_tables.FillTable.complete`: one fill in each
    of its slots, every slot scored), read from its arrays instead of the instances: their
    extents' columns are those the count mapped (the extents less premodifiers, not widened),
    but for the fills whose premodifiers moved their start, mapped here as written. First, of
    every one of ``instances`` (those of ``sets``, in order), whether it is read so."""
    import numpy as np

    from hub4eval.scoring.fill_tables import NONE
    from hub4eval.text.column_extents import extents_of

    ords = np.fromiter(map(table.ordinal.get, map(id, instances), repeat(-1)), dtype=np.int64, count=len(instances))
    whole = ords >= 0
    whole[whole] = table.complete[ords[whole]]
    place_of = np.full(len(table.instances), -1, dtype=np.int64)  # of each of the table's instances
    place_of[ords[whole]] = np.flatnonzero(whole)
    fill_places = place_of[table.fill_inst]
    take = np.flatnonzero((fill_places >= 0) & (table.starts != NONE))
    places = fill_places[take]
    mapped_first, mapped_last = table.columns()[2]
    first, last = mapped_first[take], mapped_last[take]
    # each set's column space
    sizes = np.fromiter(map(len, (iset.instances for iset in sets)), dtype=np.int64, count=len(sets))
    docids = list(map(attrgetter("docid"), sets))
    set_of = np.repeat(np.arange(len(sets), dtype=np.int64), sizes)[places]  # of each fill
    raw = table.raw_starts[take]
    moved = np.flatnonzero(raw != table.starts[take])
    if len(moved):  # premodifiers removed: the extent as written mapped here
        moved_docids = [docids[k] for k in set_of[moved].tolist()]
        first[moved], last[moved], touched = extents_of(
            alignment, True, moved_docids, raw[moved], table.ends[take[moved]]
        )
        first[moved[~touched]] = NONE
    found = first != NONE
    space_of = {docid: alignment.column_space(docid, reference=True) for docid in dict.fromkeys(docids)}
    shift_of = {docid: -1 if space is None else base[space] for docid, space in space_of.items()}
    shift = np.fromiter(map(shift_of.__getitem__, docids), dtype=np.int64, count=len(docids))[set_of]
    found &= shift >= 0
    first = np.where(found, first + shift, 0)
    last = np.where(found, last + shift, 0)
    # each fill's slot: its type's and its name's
    slot_of = np.zeros(len(table.fills), dtype=np.int64)
    for s, holders in enumerate(table.slot_fill):
        at = holders[holders >= 0]
        slot_of[at] = s
    type_names = list(map(attrgetter("type"), instances))
    types = list(dict.fromkeys(type_names))
    type_ids = {name: k for k, name in enumerate(types)}
    instance_types = np.fromiter(map(type_ids.__getitem__, type_names), dtype=np.int64, count=len(instances))
    names = table.slot_names
    keys = instance_types[places] * len(names) + slot_of[take]
    distinct, inverse = np.unique(keys, return_inverse=True)
    # numbered in the order of their first fills, as the instances' loop numbers them
    firsts = np.full(len(distinct), _NEVER, dtype=np.int64)
    np.minimum.at(firsts, inverse, places * _ORDER + table.fill_rank[take])
    number_of = np.zeros(len(distinct), dtype=np.int64)
    for k in np.argsort(firsts, kind="stable").tolist():
        key = int(distinct[k])
        number_of[k] = slots.setdefault((types[key // len(names)], names[key % len(names)]), len(slots))
    return (
        whole,
        number_of[inverse],
        places * _ORDER + table.fill_rank[take],
        first,
        last,
        found,
    )


def _reference_columns(
    alignment: Any, runs: Sequence[tuple[str, int]], starts: Sequence[int], ends: Sequence[int], base: Sequence[int]
) -> tuple[Any, Any, Any]:
    """The columns of the first and the last token each reference extent [``starts[k]``,
    ``ends[k]``) touches (``alignment.ref_extent``), in the run of all column spaces laid end to end (space s from
    ``base[s]``), and whether it touches one (in a document that has a column space).

    ``runs``: (DOCID, index of its first extent) of each run of extents of one document. The
    documents' tokens, one after the other (:func:`hub4eval.text.column_extents.token_runs`),
    each document's offsets (its tokens' and its extents') shifted past everything before it,
    are bisected for every extent at once: one search in numpy, not one per fill or per
    document (a document holds a few fills)."""
    import numpy as np

    from hub4eval.text.column_extents import extents_of, token_runs

    n = len(starts)
    at, to = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
    froms = [index for _, index in runs]
    lengths = np.asarray([b - a for a, b in pairwise([*froms, n])], dtype=np.int64)
    docids = [docid for docid, _ in runs]
    tokens = token_runs(alignment, True, docids)
    placed = None if tokens is None or not n or int(at.min()) < 0 else _placed(tokens, docids, froms, at, to)
    if placed is None:  # tokens that are not arrays (or nothing to place): extents_of bisects them
        fill_docids = list(chain.from_iterable(map(repeat, docids, lengths.tolist())))
        first, last, found = extents_of(alignment, True, fill_docids, at, to, tokens)
    else:
        first, last, found = placed
    # each run's column space: its base, or none (its extents then touch nothing here)
    spaces = [alignment.column_space(docid, reference=True) for docid in docids]
    if any(space != 0 for space in spaces):
        shifts = np.repeat(np.asarray([-1 if s is None else base[s] for s in spaces], dtype=np.int64), lengths)
        found &= shifts >= 0
        first += shifts
        last += shifts
    return first, last, found


def _placed(tokens: Any, docids: Sequence[str], froms: Sequence[int], starts: Any, ends: Any) -> Any:
    """:func:`hub4eval.text.column_extents.extents_of` of the extents ``starts``, ``ends``
    (the run of extents from ``froms[k]`` in document ``docids[k]``) within ``tokens``
    (``TokenRuns``): each document's tokens and extents shifted past every offset of the
    documents before it, so that the tokens are in order and one search places every
    extent among its own document's tokens. None when the documents' tokens do not lie one
    after the other (then each run is bisected on its own)."""
    import numpy as np

    if not len(tokens.starts):  # no token anywhere: no extent touches one
        nothing = np.zeros(len(starts), dtype=np.int64)
        return nothing, nothing.copy(), np.zeros(len(starts), dtype=bool)
    ranges = sorted(tokens.runs.items(), key=lambda item: item[1])  # each document's [first, end) tokens
    position = 0
    for _, (low, high) in ranges:
        if low != position or high < low:
            return None
        position = high
    if position != len(tokens.starts):
        return None
    rank = {docid: k for k, (docid, _) in enumerate(ranges)}
    counts = np.asarray([high - low for _, (low, high) in ranges], dtype=np.int64)
    highs = np.cumsum(counts)
    # past every offset of a document: its last token's end, and its extents' offsets
    tops = np.zeros(len(ranges), dtype=np.int64)
    has_tokens = counts > 0
    tops[has_tokens] = tokens.ends[highs[has_tokens] - 1]
    run_ranks = np.asarray([rank.get(docid, -1) for docid in docids], dtype=np.int64)
    known = run_ranks >= 0
    run_tops = np.maximum(np.maximum.reduceat(starts, froms), np.maximum.reduceat(ends, froms))
    np.maximum.at(tops, run_ranks[known], run_tops[known])
    shift = np.cumsum(tops + 1) - (tops + 1)  # where each document's offsets begin
    # in the tokens' own offset type when every shifted offset fits (half the memory to walk)
    kind = tokens.ends.dtype
    if kind.kind in "iu" and int(shift[-1] + tops[-1]) < np.iinfo(kind).max:
        shift = shift.astype(kind)
        starts, ends = starts.astype(kind), ends.astype(kind)
    token_shift = np.repeat(shift, counts)
    lengths = np.asarray([b - a for a, b in pairwise([*froms, len(starts)])], dtype=np.int64)
    fill_shift = np.repeat(shift[np.where(known, run_ranks, 0)], lengths)
    first = np.searchsorted(tokens.ends + token_shift, starts + fill_shift, side="right")  # first ending after
    last = np.searchsorted(tokens.starts + token_shift, ends + fill_shift, side="left") - 1  # last starting before
    found = (first <= last) & np.repeat(known, lengths)
    columns = tokens.columns
    return (
        np.where(found, columns[np.where(found, first, 0)], 0).astype(np.int64),
        np.where(found, columns[np.where(found, last, 0)], 0).astype(np.int64),
        found,
    )


def _unique(values: Any) -> Any:
    """``np.unique(values)``: the values sorted, each once. Sorted by the stable sort, which
    finds the runs already in order (the fills' columns come in the order of the text, slot by
    slot), instead of ``np.unique``'s hashing of every value."""
    import numpy as np

    ordered = np.sort(values, kind="stable")
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)  # where each value first appears
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]


__all__ = ["entity_wer"]
