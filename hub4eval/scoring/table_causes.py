"""The causes of a count's error points (:func:`hub4eval.scoring.attribution.counted_causes`)
worked out for its plain matches all at once, from the fill tables the count read.

A plain match of a count has at most one fill pair per slot, which the layout of its
points' signature gives (:func:`hub4eval.scoring.counted_points.layout`); when both its
instances are in their side's :class:`~hub4eval.scoring.fill_tables.FillTable`, each fill
is a row of the table. The cause of an error point then depends on one flag of one row:
an INC or MIS point on whether its reference fill is misrecognized (some column of its
maximal extent as written is not a match: :meth:`Attributor.misrecognized`), an SPU point
on whether its hypothesis fill is hallucinated (none of its columns is a match:
:meth:`Attributor.hallucination`). Both flags are worked out here for every row a point
reads at once, the extents mapped to columns in numpy
(:func:`~hub4eval.text.column_extents.extents_of`, the columns
``CorpusAlignment.ref_extent`` and ``hyp_extent`` give) and the match columns counted from
the running counts the attributor keeps. The points are expanded from the signatures in
numpy and counted by their keys with :func:`numpy.unique`.

What is not read so (a match with an instance outside the tables, an attributor that knows
the ceiling) is left to the match-by-match route of ``counted_causes``, which is also this
module's test oracle.

It imports the fill tables and the column extents (numpy: imported where the count is).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain, repeat
from operator import is_
from typing import Any

import numpy as np

from hub4eval.scoring import fill_tables
from hub4eval.scoring.fill_tables import NONE, FillTable
from hub4eval.text.column_extents import extents_of

Int = np.int64
_CATEGORIES = ("INC", "MIS", "SPU")
_HYPOTHESIS_SIDE = 2  # counted_points.HYPOTHESIS: a pair's hypothesis fill alone

Errors = tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]
"""Of a signature's layout, the fill pairs with error points: (slot, side, (kind, category) of each)."""


def table_causes(
    sets: Sequence[Any], mapper: Any, attributor: Any, errors_of: Mapping[int, Errors]
) -> tuple[dict[Any, int], dict[Any, int], list[tuple[Any, list[Any]]]] | None:
    """(settled, pending, the rest) of ``counted_causes`` of the counted ``sets``: the counts
    of the plain matches whose instances are in the tables, by the keys of
    :class:`~hub4eval.scoring.attribution.CountedCauses`; the rest as (set, its matches
    with error points left) for the match-by-match route. ``errors_of``: the error fill
    pairs of every signature number a match of ``sets`` has. None when nothing is read so."""
    if attributor.ceiling_errors is not None:
        return None  # a cause the ceiling decides now: match by match
    unscored = mapper.unscored
    # the tables of the two sides' instances kept with their preparers (read with these unscored slots)
    ref_table = fill_tables.kept(mapper.ref_prep, unscored=unscored, reference=True)
    hyp_table = fill_tables.kept(mapper.hyp_prep, unscored=unscored, reference=False)
    if ref_table is None or hyp_table is None:
        return None
    # of each match with error points read from the tables: its set, type, reference and
    # hypothesis rows of the tables (-1: none) and signature number
    found = _match_rows(sets, ref_table, hyp_table, errors_of)
    if found is None:
        return {}, {}, []
    (match_set, match_type, match_ref, match_hyp, match_sig), type_ids, rest = found
    if not len(match_set):
        return {}, {}, rest

    # every error point of a signature: (slot, side, kind, category), numbered
    names: dict[str, int] = {}
    kinds: dict[str, int] = {}
    numbers = np.unique(match_sig).tolist()
    first_point = np.zeros(max(numbers) + 2, dtype=Int)
    points: list[int] = []
    for number in numbers:
        first_point[number] = len(points) // 4
        for name, side_code, kept in errors_of[number]:
            slot_code = names.setdefault(name, len(names))
            for kind_name, category_name in kept:
                if category_name in _CATEGORIES:
                    points += (
                        slot_code,
                        side_code,
                        kinds.setdefault(kind_name, len(kinds)),
                        _CATEGORIES.index(category_name),
                    )
    point_slot, point_side, point_kind, point_category = np.asarray(points, dtype=Int).reshape(-1, 4).T
    per_sig = np.zeros(len(first_point), dtype=Int)
    bounds = [*(first_point[n] for n in numbers), len(points) // 4]
    for at, number in enumerate(numbers):
        per_sig[number] = bounds[at + 1] - bounds[at]
    sizes = per_sig[match_sig]
    owner = np.repeat(np.arange(len(match_sig), dtype=Int), sizes)
    offsets = np.arange(int(sizes.sum()), dtype=Int) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    point = first_point[match_sig[owner]] + offsets
    slot, side, kind, category = point_slot[point], point_side[point], point_kind[point], point_category[point]
    ref_row, hyp_row = match_ref[owner], match_hyp[owner]

    # the fill of each point's slot in its instance's row
    spu = category == 2
    ref_fill = _fills(ref_table, list(names), slot, ref_row, ~spu & (side != _HYPOTHESIS_SIDE))
    hyp_fill = _fills(hyp_table, list(names), slot, hyp_row, spu)
    if ref_fill is None or hyp_fill is None:
        return None  # a slot not in a table (cannot be for a plain match of its rows)
    recognition = np.zeros(len(point), dtype=bool)
    asks = np.flatnonzero(~spu & (ref_fill >= 0))
    if len(asks):
        recognition[asks] = _flagged(attributor, ref_table, ref_fill[asks], True)
    asks = np.flatnonzero(spu & (hyp_fill >= 0))
    if len(asks):
        recognition[asks] = _flagged(attributor, hyp_table, hyp_fill[asks], False)

    # counted by key: settled (type, slot, document, kind, cause, category) and pending
    # (type, slot, document, kind, category, reference instance key)
    docids = [counted.docid for counted in sets]
    slot_names = list(names)
    type_of, set_of = match_type[owner], match_set[owner]
    base = ((type_of * len(slot_names) + slot) * len(sets) + set_of) * len(kinds) + kind
    waits = recognition & ~spu  # INC and MIS points of misrecognized fills: the ceiling decides
    done = np.flatnonzero(~waits)
    cause = (~recognition).astype(Int)  # 0 recognition, 1 extraction
    columns = (type_of, slot, set_of, kind, cause, category)
    labels = (list(type_ids), slot_names, docids, list(kinds), ["recognition", "extraction"], _CATEGORIES)
    settled = _tally((base * 2 + cause) * 3 + category, done, columns, labels)
    waiting = np.flatnonzero(waits)
    ref_instances = ref_table.instances
    rows_of = np.unique(ref_row[waiting]).tolist()
    ref_keys = dict(zip(rows_of, [ref_instances[r].key for r in rows_of], strict=True))
    pending = _tally(
        (base * 2 + category) * len(ref_instances) + ref_row,
        waiting,
        (type_of, slot, set_of, kind, category, ref_row),
        (labels[0], slot_names, docids, labels[3], _CATEGORIES, ref_keys),
    )
    return settled, pending, rest


def _tally(
    keys: np.ndarray, at: np.ndarray, columns: Sequence[np.ndarray], labels: Sequence[Any]
) -> dict[tuple[Any, ...], int]:
    """How many of the points ``at`` have each distinct key (``keys``), by the key's parts
    (each point's ``labels[c][columns[c][p]]``), in the order of each key's first point."""
    distinct, first, counts = np.unique(keys[at], return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    firsts = at[first[order]]
    parts = [
        list(map(label.__getitem__, column[firsts].tolist())) for column, label in zip(columns, labels, strict=True)
    ]
    return dict(zip(zip(*parts, strict=True), counts[order].tolist(), strict=True))


def _fills(
    table: FillTable, slot_names: Sequence[str], slot: np.ndarray, row: np.ndarray, wanted: np.ndarray
) -> np.ndarray | None:
    """The table's fill of slot ``slot_names[slot[p]]`` of instance ``row[p]`` for each point
    ``p`` that ``wanted`` (-1 for the others); None when a wanted one is not in the table."""
    out = np.full(len(slot), -1, dtype=Int)
    at = np.flatnonzero(wanted)
    if not len(at):
        return out
    known = {name: s for s, name in enumerate(table.slot_names)}
    if any(name not in known for name in slot_names):
        index = [known.get(name, -1) for name in slot_names]
        if min(index[s] for s in np.unique(slot[at]).tolist()) < 0:
            return None
    else:
        index = [known[name] for name in slot_names]
    every = np.stack(table.slot_fill) if table.slot_fill else np.zeros((0, len(table.instances)), dtype=Int)
    if int(row[at].min()) < 0:
        return None  # a point of an instance that is not there
    found = every[np.asarray(index, dtype=Int)[slot[at]], row[at]]
    if len(found) and int(found.min()) < 0:
        return None
    out[at] = found
    return out


def _flagged(attributor: Any, table: FillTable, fills: np.ndarray, reference: bool) -> np.ndarray:
    """Of each of the table's ``fills``: a reference fill misrecognized (``reference``), a
    hypothesis fill hallucinated, as the attributor decides it (its maximal extent as written,
    mapped to columns: some column not a match; none a match).

    An extent without premodifiers removed is the one the table mapped to columns for the
    count (``FillTable.columns``: its minimal extents, not widened), read from there; the
    others are mapped here."""
    distinct, inverse = np.unique(fills, return_inverse=True)
    raw = table.raw_starts[distinct]
    n = len(distinct)
    first = np.zeros(n, dtype=Int)
    last = np.zeros(n, dtype=Int)
    found = np.zeros(n, dtype=bool)
    alignment = attributor.alignment
    has = raw != NONE
    mapped = table.columns()[2] if table.alignment is alignment else None
    if mapped is not None:
        same = np.flatnonzero(has & (raw == table.starts[distinct]))
        first[same], last[same] = mapped[0][distinct[same]], mapped[1][distinct[same]]
        found[same] = first[same] != NONE
        has[same] = False
    segmented = not alignment.unsegmented
    docids: Sequence[str | None] = []
    if segmented or (reference and has.any()):
        docids = table.docids_of(table.fill_inst[distinct])
    left = np.flatnonzero(has)
    if len(left):
        at_docids = None if not reference and not segmented else [docids[k] for k in left.tolist()]
        first[left], last[left], found[left] = extents_of(
            alignment, reference, at_docids, raw[left], table.ends[distinct[left]]
        )
    first = np.where(found, first, 0)
    last = np.where(found, last, 0)
    # the running count of match columns of each fill's column space (Attributor._matches)
    base = np.zeros(n, dtype=Int)
    known = np.zeros(n, dtype=bool)
    pieces: list[np.ndarray] = []
    if segmented:
        spaces: dict[int, int] = {}
        by_docid: dict[str | None, tuple[int, bool]] = {}
        position = 0
        for p in np.flatnonzero(found).tolist():
            docid = docids[p]
            placed = by_docid.get(docid)
            if placed is None:
                running = attributor._matches(docid, reference)
                if running is None:
                    placed = (0, False)
                else:
                    start = spaces.get(id(running))
                    if start is None:
                        start = spaces[id(running)] = position
                        pieces.append(np.asarray(running))
                        position += len(pieces[-1])
                    placed = (start, True)
                by_docid[docid] = placed
            base[p], known[p] = placed
    else:  # one column space
        running = attributor._matches(None, reference)
        if running is not None:
            pieces.append(np.asarray(running))
            known[:] = True
    flags = np.zeros(n, dtype=bool)
    if pieces:
        every = np.concatenate(pieces).astype(Int) if len(pieces) > 1 else pieces[0]
        inside = found & known
        lows = np.where(inside, base + first, 0)
        highs = np.where(inside, base + last + 1, 0)
        matched = every[highs].astype(Int) - every[lows]
        if reference:  # some column of [first, last] is not a match
            flags = inside & (matched <= last - first)
        else:  # no column of them is a match
            flags = inside & (matched == 0)
    return flags[inverse.reshape(-1)]


def _match_rows(
    sets: Sequence[Any], ref_table: FillTable, hyp_table: FillTable, errors_of: Mapping[int, Errors]
) -> tuple[tuple[np.ndarray, ...], dict[str, int], list[tuple[Any, list[Any]]]] | None:
    """Of each match of ``sets`` with error points whose instances the tables cover, in
    order: (its set, the number of its type, its reference and hypothesis rows of the
    tables (-1: none), its signature number), as arrays; the types numbered in order of
    first sight; and (set, its matches with error points left) of the others. None: no
    match at all. Each field of every match read at once (``zip``, ``map``), not match by match."""
    sizes = np.fromiter(map(len, (counted.instances for counted in sets)), dtype=Int, count=len(sets))
    matches = list(chain.from_iterable(counted.instances for counted in sets))
    if not matches:
        return None
    refs, hyps, _, signatures = zip(*matches, strict=True)
    numbers = np.fromiter(signatures, dtype=Int, count=len(matches))
    distinct, inverse = np.unique(numbers, return_inverse=True)
    erring = np.asarray([bool(errors_of[number]) for number in distinct.tolist()], dtype=bool)[inverse.reshape(-1)]
    rows = []
    for side, table in ((refs, ref_table), (hyps, hyp_table)):
        row = np.fromiter(map(table.ordinal.get, map(id, side), repeat(-2)), dtype=Int, count=len(side))
        row[np.fromiter(map(is_, side, repeat(None)), dtype=bool, count=len(side))] = -1
        rows.append(row)
    ref_row, hyp_row = rows
    # (a row -2: an instance not in its table)
    covered = _covered(ref_table, ref_row) & _covered(hyp_table, hyp_row) & (ref_row != -2) & (hyp_row != -2)
    set_of = np.repeat(np.arange(len(sets), dtype=Int), sizes)
    rest: list[tuple[Any, list[Any]]] = []
    left = np.flatnonzero(erring & ~covered).tolist()
    last = -1
    for p in left:  # (rare) by set, in order
        s = int(set_of[p])
        if s != last:
            rest.append((sets[s], []))
            last = s
        rest[-1][1].append(matches[p])
    at = np.flatnonzero(erring & covered)
    one_type = dict.fromkeys([*ref_table.types, *hyp_table.types])
    if len(one_type) == 1:  # every instance of the tables of one type (those of the matches read here are)
        return (
            (set_of[at], np.zeros(len(at), dtype=Int), ref_row[at], hyp_row[at], numbers[at]),
            dict.fromkeys(one_type, 0),
            rest,
        )
    names = [
        (ref if ref is not None else hyp).type
        for ref, hyp in zip(map(refs.__getitem__, at.tolist()), map(hyps.__getitem__, at.tolist()), strict=True)
    ]
    type_ids = {name: t for t, name in enumerate(dict.fromkeys(names))}
    types = np.fromiter(map(type_ids.__getitem__, names), dtype=Int, count=len(names))
    return (set_of[at], types, ref_row[at], hyp_row[at], numbers[at]), type_ids, rest


def _covered(table: FillTable, row: np.ndarray) -> np.ndarray:
    """Whether each row is -1 (no instance) or covered by ``table`` (another negative row: not)."""
    if not len(table.covered):
        return row == -1
    return (row == -1) | ((row >= 0) & table.covered[np.maximum(row, 0)])
