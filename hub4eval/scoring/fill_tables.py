"""The text fills of a template set's plain instances as arrays, read once per preparer and
shared by every count that maps them (:mod:`hub4eval.scoring.pairs`).

The mapping engine needs, of each text fill of a plain instance, only the number of its
normalized text, its compared extent (in characters less the premodifiers removed, or
mapped to alignment columns all at once) and, for noisy content, the numbers of its words.
Read instance by instance for every run of documents, that was most of a count's own
work; and a score counts the same reference twice (the system's hypothesis, then the
ceiling's projection), with the same preparer. A :class:`FillTable` reads every instance
of a template set once, in one loop, into arrays: its fills' text numbers, extents,
instances and slots, the shape of each instance (``Mapper._shape``), and, when first asked,
the extents in columns and the word keys. A run of documents then takes its rows by
indexing those arrays (:meth:`FillTable.slots_of`).

A table covers the instances whose every scored slot holds one text fill (a hypothesis
slot's first alternative), usual for a reference (its one minimal string is its maximal
one); a run with any other instance is read as before, instance by instance. A usual
template set, every slot of every instance so, is read with a few comprehensions over all
of its slots and fills (:meth:`FillTable._read_usual`); any other, in one loop over its
instances that tells covered from not (:meth:`FillTable._read_each`, the first's oracle). Tables are
kept per preparer (:func:`register`, :func:`lookup`), for as long as the preparer lives,
and keep their instances alive, so that an instance's ``id()`` names it.

It imports the model, the fill preparer and the column extents only (numpy: imported where
``pairs`` is).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from itertools import accumulate, repeat
from operator import attrgetter, eq, is_, itemgetter
from typing import Any, cast

import numpy as np

from hub4eval.model import Extent, Instance, InstanceSet, TextFill
from hub4eval.scoring.fills import FillPreparer
from hub4eval.text.column_extents import extents_of, map_in_place

Int = np.int64
NONE = -(2**62)  # the offset of a missing extent: encloses nothing, enclosed by nothing (pairs reads it)
ONE_TEXT = ((((True, False),),), (((True, True),),))  # a slot's fills in a shape: one text fill, by has_extent


class FillTable:
    """The text fills of a sequence of instances of one side, as arrays (see the module).

    ``fill_inst[f]``, ``fill_rank[f]``: the instance of fill ``f`` and the place of its slot
    among the instance's scored slots; ``numbers``, ``starts``, ``ends``: its text's number
    and its extent in characters less the premodifiers removed (:data:`NONE`: none);
    ``raw_starts``: the start of that extent as written (the causes of errors read it);
    ``contents[f]``: its content string; ``docids[k]``: the DOCID of instance ``k``;
    ``types``: the types of the instances (every one, covered or not), in order of first sight;
    ``slot_fill[s][k]``: the fill of slot ``s`` (``slot_names[s]``) of instance ``k`` (-1:
    none); ``shapes[k]``: the shape of instance ``k`` (None: not covered); ``complete[k]``: whether
    every text fill of instance ``k`` is in the table (it is covered, and has no unscored
    slot, second slot of a name or second alternative)."""

    __slots__ = (
        "instances",
        "ordinal",
        "shapes",
        "covered",
        "complete",
        "fills",
        "contents",
        "docids",
        "types",
        "fill_inst",
        "fill_rank",
        "numbers",
        "starts",
        "ends",
        "raw_starts",
        "slot_names",
        "slot_fill",
        "reference",
        "unscored",
        "alignment",
        "widen",
        "unsegmented",
        "_columns",
        "_words",
        "__weakref__",
    )

    def __init__(
        self,
        prep: FillPreparer,
        instances: Sequence[Instance],
        reference: bool,
        unscored: frozenset[str],
        alignment: Any,
    ) -> None:
        self.instances = list(instances)  # kept alive: they are found by id()
        self.ordinal = {id(inst): k for k, inst in enumerate(self.instances)}
        self.reference = reference
        self.unscored = unscored
        self.alignment = alignment  # a CorpusAlignment whose columns the extents are mapped to, or None
        self.widen = reference and alignment is not None and prep.widen is not None
        self.unsegmented = prep.unsegmented
        self._columns: tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None] | None = None
        self._words: dict[Any, Any] = {}  # the word rows by fillers, their columns by (fillers, which)
        self._read(prep)

    def _read(self, prep: FillPreparer) -> None:
        """Read the instances: those of a usual template set all at once (:meth:`_read_usual`),
        any others in one loop (:meth:`_read_each`)."""
        if not self._read_usual(prep):
            self._read_each(prep)

    def _read_usual(self, prep: FillPreparer) -> bool:
        """Read the instances as :meth:`_read_each` does, a few comprehensions over their slots
        and fills (a stretch of :data:`_STRETCH` instances at a time) instead of one loop, when
        every slot of every instance is scored, of a name of its own in the instance and holds
        one alternative of one text fill (a reference's usual: no minimal string of its own),
        as in a usual template set; then every instance is covered and complete, and each
        slot's fill is in the table. False (nothing read, nothing normalized) otherwise."""
        instances, reference = self.instances, self.reference
        get, normalize = prep.lookups()
        # Read a stretch of instances at a time, every pass over its slots and fills in turn
        # while they are in the processor's cache: over all the fills at once, each pass read
        # them from memory again (a million words' fills are tens of megabytes of objects)
        names: list[str] = []
        optional: list[bool] = []
        fills: list[TextFill] = []
        contents: list[str] = []
        found: list[Any] = []
        starts: list[int] = []
        ends: list[int] = []
        sizes: list[int] = []
        docids: list[str] = []
        types: dict[str, None] = {}
        none = NONE
        for at in range(0, len(instances), _STRETCH):
            stretch = instances[at : at + _STRETCH]
            slots = [slot for inst in stretch for slot in inst.slots]
            some = [slot.name for slot in slots]
            if not self.unscored.isdisjoint(some):
                return False
            try:
                # each slot's one fill of its one alternative (unpacking a tuple of another length raises)
                written = [
                    fill
                    for slot in slots
                    for (alternative,) in (slot.alternatives,)
                    for (fill,) in (alternative.fills,)
                ]
            except ValueError:
                return False  # a slot of several alternatives or fills (or none)
            if written and set(map(type, written)) != {TextFill}:
                return False
            held = cast("list[TextFill]", written)
            texts = [fill.content for fill in held]
            extents = [fill.extents for fill in held]
            if reference and not _usual_references(held, texts, extents):
                return False  # minimal strings of their own: read with the instance
            if all(extents):
                starts += [extent[0].start for extent in extents]
                ends += [extent[0].end for extent in extents]
            else:
                starts += [extent[0].start if extent else none for extent in extents]
                ends += [extent[0].end if extent else none for extent in extents]
            found += prep.known(texts)  # (mostly normalized all at once before; nothing normalized here)
            if reference:
                optional += [slot.optional for slot in slots]
            names += some
            fills += held
            contents += texts
            sizes += [len(inst.slots) for inst in stretch]
            docids += [inst.docid for inst in stretch]
            types.update(dict.fromkeys([inst.type for inst in stretch]))
        if not fills:
            return False
        slot_names = list(dict.fromkeys(names))  # in order of first sight
        slot_ids = {name: sid for sid, name in enumerate(slot_names)}
        slot_of = np.fromiter(map(slot_ids.__getitem__, names), dtype=Int, count=len(names))
        count = len(fills)
        raw_starts = np.fromiter(starts, dtype=Int, count=count)
        has = raw_starts != NONE  # (no extent starts at NONE)
        codes = slot_of * 4 + has  # of each slot: (slot * 2 + optional) * 2 + has an extent
        if reference:
            codes += np.fromiter(optional, dtype=bool, count=count) * 2
        flat = codes.tolist()
        if min(sizes) == max(sizes):  # the usual file: as many slots in every instance
            code_of = list(zip(*[iter(flat)] * sizes[0], strict=True))
        else:
            bounds = [0, *accumulate(sizes)]
            code_of = [tuple(flat[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
        shapes_of: dict[tuple[int, ...], tuple[Any, ...]] = {}
        for code in dict.fromkeys(code_of):
            if len({c >> 2 for c in code}) != len(code):
                return False  # a second slot of a name: not read
            shapes_of[code] = _shape(code, slot_names)
        # (from here on, as the loop: each content string normalized in the order of the fills)
        normalized = (
            found
            if None not in found
            else [known or get(content) or normalize(content) for known, content in zip(found, contents, strict=True)]
        )
        end_array = np.fromiter(ends, dtype=Int, count=count)
        removed = np.fromiter(map(itemgetter(1), normalized), dtype=Int, count=count)
        places = np.flatnonzero((removed != 0) & has)
        start_array = raw_starts.copy()
        start_array[places] = np.minimum(raw_starts[places] + removed[places], end_array[places])  # as fills._shifted
        self._set(
            list(map(shapes_of.__getitem__, code_of)),
            np.ones(len(instances), dtype=bool),
            fills,
            contents,
            docids,
            list(types),
            slot_names,
            np.fromiter(sizes, dtype=Int, count=len(sizes)),
            slot_of,
            np.fromiter(map(itemgetter(4), normalized), dtype=Int, count=count),
            start_array,
            end_array,
            (places, raw_starts[places]),
        )
        return True

    def _set(
        self,
        shapes: list[Any],
        complete: np.ndarray,
        fills: list[TextFill],
        contents: list[str],
        docids: list[str],
        types: list[str],
        slot_names: list[str],
        counts: np.ndarray,
        slot_of: np.ndarray,
        numbers: np.ndarray,
        starts: np.ndarray,
        ends: np.ndarray,
        moved: tuple[Any, Any],
    ) -> None:
        """Keep what :meth:`_read_each` or :meth:`_read_usual` read: ``counts[k]``, how many of
        the fills are instance ``k``'s; ``slot_of``, the slot of each fill (by number of
        ``slot_names``); ``moved``, the places of the starts premodifiers moved and those
        starts as written."""
        n = len(self.instances)
        self.shapes = shapes
        self.complete = complete
        # (every instance complete: every one covered)
        self.covered = complete.copy() if complete.all() else np.asarray([s is not None for s in shapes], dtype=bool)
        self.fills = fills
        self.contents = contents
        self.docids = docids
        self.types = types
        self.fill_inst = np.repeat(np.arange(n, dtype=Int), counts)
        self.numbers = numbers
        self.starts = starts
        self.ends = ends
        self.raw_starts = starts.copy()
        places, raw = moved
        if len(places):
            self.raw_starts[places] = raw
        bounds = np.zeros(n + 1, dtype=Int)
        np.cumsum(counts, out=bounds[1:])
        self.fill_rank = np.arange(len(fills), dtype=Int) - bounds[self.fill_inst]  # the slot's place in its instance
        self.slot_names = slot_names
        self.slot_fill = []
        for s in range(len(slot_names)):
            at = np.full(n, -1, dtype=Int)
            mine = np.flatnonzero(slot_of == s)
            at[self.fill_inst[mine]] = mine
            self.slot_fill.append(at)

    def _read_each(self, prep: FillPreparer) -> None:
        """Read the instances, in one loop (as ``pairs._fills_by_slot`` reads a run's): any
        instances, and the oracle of :meth:`_read_usual`."""
        instances, reference, unscored = self.instances, self.reference, self.unscored
        get, normalize = prep.lookups()
        none = NONE
        shapes: list[Any] = []
        fills: list[TextFill] = []
        contents: list[str] = []  # of each fill (what the words are read from: not the fills again)
        docids: list[str] = []  # of each instance
        types: dict[str, None] = {}  # of the instances, in order of first sight
        last_type: str | None = None
        flat: list[int] = []  # of each fill: its slot, text number, start, end
        held: list[int] = []  # of each instance: how many of the fills are its
        moved: list[tuple[int, int]] = []  # (fill, start as written) of each extent whose start premodifiers moved
        slot_ids: dict[str, int] = {}
        complete: list[bool] = []  # every text fill of the instance is in the table
        shapes_of: dict[tuple[int, ...], tuple[Any, ...] | None] = {}  # by the codes of its slots
        for inst in instances:
            docids.append(inst.docid)
            if inst.type is not last_type:  # (the types of consecutive instances are mostly one string)
                last_type = inst.type
                types[last_type] = None
            codes: list[int] = []  # of each slot: (slot * 2 + optional) * 2 + has an extent
            seen = 0  # the bits of the slots read (by number)
            whole = True
            for slot in inst.slots:
                name = slot.name
                sid = slot_ids.get(name)
                if (sid is not None and seen >> sid & 1) or name in unscored:
                    whole = False  # a second slot of a name, or one not scored
                    continue
                alternatives = slot.alternatives
                if len(alternatives) != 1:
                    whole = False
                    if reference or not alternatives:
                        break  # several alternatives: not plain
                if len(slot_fills := alternatives[0].fills) != 1:
                    break  # several fills: not plain
                fill = slot_fills[0]
                if type(fill) is not TextFill:
                    break  # a pointer: read with the instance
                content, extents = fill.content, fill.extents
                if reference and not (
                    len(spans := fill.minimal_spans) == 1
                    and not spans[0][0]
                    and spans[0][1] == len(content)
                    and ((fill.minimal_extents is extents and len(extents) < 2) or fill.minimal_is_maximal)
                ):
                    break  # minimal strings of its own: prepared with the instance
                norm = get(content) or normalize(content)
                if sid is None:
                    sid = slot_ids[name] = len(slot_ids)
                seen |= 1 << sid
                if extents:
                    first = extents[0]
                    start, end = first.start, first.end
                    if norm[1]:
                        moved.append((len(fills), start))
                        start = min(start + norm[1], end)  # as fills._shifted
                    codes.append((sid * 2 + (reference and slot.optional)) * 2 + 1)
                else:
                    start = end = none
                    codes.append((sid * 2 + (reference and slot.optional)) * 2)
                fills.append(fill)
                contents.append(content)
                flat.extend((sid, norm[4], start, end))
            else:
                code = tuple(codes)
                shape = shapes_of.get(code, shapes_of)
                if shape is shapes_of:
                    names = list(slot_ids)
                    shape = shapes_of[code] = _shape(code, names)
                shapes.append(shape)
                complete.append(whole)
                held.append(len(codes))
                continue
            if codes:  # what the instance added is taken back
                del fills[-len(codes) :]
                del contents[-len(codes) :]
                del flat[-4 * len(codes) :]
                while moved and moved[-1][0] >= len(fills):
                    moved.pop()
            shapes.append(None)
            complete.append(False)
            held.append(0)
        places = [place for place, _ in moved]
        raw = [start for _, start in moved]
        columns = np.fromiter(flat, dtype=Int, count=len(flat)).reshape(-1, 4)
        self._set(
            shapes,
            np.asarray(complete, dtype=bool),
            fills,
            contents,
            docids,
            list(types),
            list(slot_ids),
            np.fromiter(held, dtype=Int, count=len(held)),
            columns[:, 0].copy(),
            columns[:, 1].copy(),
            columns[:, 2].copy(),
            columns[:, 3].copy(),
            (places, raw),
        )

    def ordinals(self, instances: Sequence[Instance]) -> np.ndarray | None:
        """The place in this table of each of ``instances``; None unless every one is here and covered.

        A run of documents is mostly a stretch of the table's instances, in order: told by
        comparing the two lists' items by identity (no instance read, no lookup by ``id()``
        of each: those were a few milliseconds a million-word count), else looked up one by one
        (and so whenever an instance is in the table twice: the lookup gives its last place)."""
        first = self.ordinal.get(id(instances[0])) if len(instances) else None
        if first is not None and len(self.ordinal) == len(self.instances):
            end = first + len(instances)
            if end <= len(self.instances) and all(map(is_, self.instances[first:end], instances)):
                if self.covered[first:end].all():
                    return np.arange(first, end, dtype=Int)
                return None
        ords = np.fromiter(map(self.ordinal.get, map(id, instances), repeat(-1)), dtype=Int, count=len(instances))
        if len(ords) and (int(ords.min()) < 0 or not self.covered[ords].all()):
            return None
        return ords

    def slots_of(self, ords: np.ndarray) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """Of the instances at ``ords`` (a run's), each slot's (name, positions in the run of the
        instances that hold it, their fills), the slots in the order a loop over the
        instances' slots first meets them."""
        found = []
        for s, name in enumerate(self.slot_names):
            fills = self.slot_fill[s][ords]
            holders = np.flatnonzero(fills >= 0)
            if len(holders):
                fills = fills[holders]
                found.append((int(holders[0]), int(self.fill_rank[fills[0]]), name, holders, fills))
        found.sort(key=lambda entry: entry[:2])
        return [(name, holders, fills) for _, _, name, holders, fills in found]

    def columns(self) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
        """(starts, ends, minimal extents) of every fill as compared: in characters less the
        premodifiers removed (minimal None: the same), or mapped to alignment columns all at
        once as ``pairs._ColumnsOf`` maps a run's (then a reference's widened for the
        enclosure test, its minimal extent the one not widened)."""
        if self._columns is None:
            alignment = self.alignment
            if alignment is None:
                self._columns = (self.starts, self.ends, None)
            else:
                starts, ends = self.starts.copy(), self.ends.copy()
                at = np.flatnonzero(starts != NONE)
                docids = None
                if self.reference or not self.unsegmented:
                    docids = self.docids_of(self.fill_inst[at])
                # widened: the extent a hypothesis extent must lie in
                minimal = map_in_place(alignment, self.reference, docids, starts, ends, at, self.widen, NONE)
                self._columns = (starts, ends, minimal)
        return self._columns

    def docids_of(self, rows: np.ndarray) -> list[str]:
        """The DOCID of each of the instances at ``rows``."""
        return list(map(self.docids.__getitem__, rows.tolist()))

    def words(self, prep: FillPreparer, fillers: frozenset[str], which: int) -> Any:
        """:meth:`FillPreparer.word_columns` ``which`` of every fill's content string (a side
        reads only its own columns)."""
        found = self._words.get((fillers, which))
        if found is None:
            rows = self._words.get(fillers)
            if rows is None:
                rows = self._words[fillers] = prep.word_rows(self.contents, fillers)
            found = self._words[fillers, which] = prep.word_columns(self.contents, fillers, which, rows)
        return found


_STRETCH = 1024  # instances FillTable._read_usual reads at a time


def _usual_references(fills: list[TextFill], contents: list[str], extents: list[tuple[Extent, ...]]) -> bool:
    """Whether each of these reference fills (with their ``contents`` and ``extents``) is the
    usual one, as ``FillTable._read_each`` tells it (one minimal string, the whole content, at
    the maximal extent: none of its own to prepare), a few passes in C over all of them."""
    lengths = list(map(len, contents))
    wholes = {length: ((0, length),) for length in set(lengths)}
    if not all(map(eq, map(_MINIMAL_SPANS, fills), map(wholes.__getitem__, lengths))):
        return False
    if max(map(len, extents), default=0) < 2 and all(map(is_, map(_MINIMAL_EXTENTS, fills), extents)):
        return True  # (the reader's: its one minimal extent is its maximal one, the same tuple)
    return all(
        (fill.minimal_extents is fill.extents and len(fill.extents) < 2) or fill.minimal_is_maximal for fill in fills
    )


def _shape(code: tuple[int, ...], names: Sequence[str]) -> tuple[Any, ...]:
    """An instance's shape from its slots' codes (the slot name's number, whether the slot is
    scored, whether it holds one text fill: ``number << 2 | scored << 1 | one``), as both
    routes of :class:`FillTable` make it."""
    return tuple([(names[c >> 2], bool(c >> 1 & 1), ONE_TEXT[c & 1]) for c in code])


_MINIMAL_SPANS = attrgetter("minimal_spans")
_MINIMAL_EXTENTS = attrgetter("minimal_extents")


_TABLES: weakref.WeakKeyDictionary[FillPreparer, list[FillTable]] = weakref.WeakKeyDictionary()


def register(table: FillTable, prep: FillPreparer) -> None:
    """Keep ``table`` with ``prep``, for :func:`lookup` (as long as ``prep`` lives)."""
    _TABLES.setdefault(prep, []).append(table)


_ANY: Any = object()  # kept(): a criterion not given


def kept(
    prep: FillPreparer,
    instances: Sequence[Instance] | None = None,
    *,
    unscored: frozenset[str] | None = None,
    alignment: Any = _ANY,
    reference: bool | None = None,
    covering: bool = False,
) -> FillTable | None:
    """The first table kept with ``prep`` read alike (with these ``unscored`` slots, this
    column mapping ``alignment``, of this side: each when given) over exactly ``instances``
    (``covering``: holding the first of them; not given: any); None when none is. The one
    lookup of the tables (:func:`lookup` adds the places of the instances in the table)."""
    first = id(instances[0]) if covering and instances else None
    for table in _TABLES.get(prep, ()):
        if (
            (unscored is None or table.unscored == unscored)
            and (alignment is _ANY or table.alignment is alignment)
            and (reference is None or table.reference == reference)
            and (
                instances is None
                or (
                    first in table.ordinal
                    if covering
                    else len(table.instances) == len(instances) and all(map(is_, table.instances, instances))
                )
            )
        ):
            return table
    return None


def lookup(
    prep: FillPreparer, instances: Sequence[Instance], unscored: frozenset[str], alignment: Any
) -> tuple[FillTable, np.ndarray] | None:
    """The table kept with ``prep`` that covers every one of ``instances``, read alike
    (the same unscored slots and column mapping), and their places in it; None when none does."""
    if not instances:
        return None
    table = kept(prep, instances, unscored=unscored, alignment=alignment, covering=True)
    if table is None:
        return None
    ords = table.ordinals(instances)
    return None if ords is None else (table, ords)


UNSETTLED = Extent(-1, -1)  # set_extents: a set's extent left to hub4eval.scoring.set_extents.hyp_set_extent


def set_extents(prep: FillPreparer, isets: Sequence[InstanceSet]) -> list[Extent | None] | None:
    """:meth:`hub4eval.scoring.set_extents.HypSetExtents.many` from the table of the sets'
    instances (None: no such table, or its extents are not mapped to the one column space
    of an unsegmented hypothesis): each set's extent, :data:`UNSETTLED` for a set to work
    out one by one."""
    instances = [inst for iset in isets for inst in iset.instances]
    table = kept(prep, instances)  # (read with any unscored slots)
    if table is None or table.alignment is None or table.reference or not table.unsegmented:
        return None
    n_sets = len(isets)
    sizes = np.fromiter(map(len, (iset.instances for iset in isets)), dtype=Int, count=n_sets)
    set_of = np.repeat(np.arange(n_sets, dtype=Int), sizes)
    whole = np.bincount(set_of[~table.complete], minlength=n_sets) == 0
    has = np.flatnonzero(table.starts != NONE)
    sets = set_of[table.fill_inst[has]]
    starts, ends = table.starts[has], table.ends[has]
    # per set, the smallest (start, end), and the first of the largest ends (as min() and max() find them)
    spanned, low, high = spans_of_sets(sets, starts, ends)
    a_first, _, a_found = extents_of(table.alignment, False, None, starts[low], ends[low])
    _, b_last, b_found = extents_of(table.alignment, False, None, starts[high], ends[high])
    out: list[Extent | None] = [None] * n_sets
    for s, first, last, ok in zip(
        spanned.tolist(), a_first.tolist(), b_last.tolist(), (a_found & b_found).tolist(), strict=True
    ):
        out[s] = Extent(first, last) if ok else UNSETTLED
    for s in np.flatnonzero(~whole).tolist():
        out[s] = UNSETTLED
    return out


def spans_of_sets(sets: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of spans (``starts[k]``, ``ends[k]``) each of set ``sets[k]``: the sets that have any,
    in order, and of each the place of its smallest (start, end) and of the first of its
    largest ends (as ``min()`` and ``max()`` find them over the set's spans in order)."""
    low = np.lexsort((ends, starts, sets))
    high = np.lexsort((np.arange(len(sets)), -ends, sets))
    firsts = np.flatnonzero(np.diff(sets[low], prepend=-1) != 0)  # the first of each set's run
    return sets[low][firsts], low[firsts], high[firsts]
