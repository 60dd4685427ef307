"""§5 for the instances of one type, on compact data: the one mapping engine.

It maps a type for many documents (pairs of instance sets) in one call
(:func:`map_groups`): each document is a *group*, its keys are told apart from
the other groups' (so no pair crosses two groups) and its pointer keys use its
own mapping; the arrays of all groups are made, sorted and scanned together, so
numpy's cost per call is paid once for many documents, not once per document.

The greedy mapping ranks every (reference, hypothesis) instance pair of a type
by (F desc, COR desc, INC+MIS+SPU asc, reference order, hypothesis order) and
takes the best pair whose two instances are both free, again and again. A
document with 100,000 instances of a type has 10^10 such pairs, and tens of
millions of them can score a COR point; this module chooses exactly the pairs
the procedure chooses without making a record per pair:

1. **Candidate fill pairs, as arrays.** Most instances are *plain*: each scored
   slot holds one fill (a text fill or a pointer) and one alternative. For the
   plain instances, per slot and aspect (content, extent, pointer), the fills
   that can be COR together are those that share a key
   (:mod:`hub4eval.scoring.candidates`), told apart by group (clean content
   keys, the words of noisy content keys and extent blocks as numbers in numpy,
   ``group * size + number``; pointer keys as ``(group, key)``); the pairs
   sharing a key are made as two integer arrays, then kept only where the
   aspect really is COR: clean content keys are exact (sharing one *is* the
   COR), noisy content by the numbers of the words of the two strings when the
   reference's has no optional word (:meth:`FillPreparer.word_keys_of`: equal
   numbers, COR), else once per distinct pair of strings (and the verdict kept
   for the chosen pairs' match records: ``Mapper.noisy_verdicts``), extents by
   comparing offsets in numpy, pointers by the mapping of their targets (exact
   keys too). The text fills are read as rows (:class:`_Texts`: instance, fill,
   the number of its normalized text, its compared extent) without being
   prepared, unless more than that is read of them (minimal strings; extents
   mapped to alignment columns when the pairs get match records: then each is
   prepared as it is read, and its instance's slot views are made from the same
   prepared fills). When only counts are asked for, the extents of the usual
   fills are read in characters and mapped to alignment columns all at once
   (:class:`_ColumnsOf`, :mod:`hub4eval.text.column_extents`); and a count reads
   each side's plain instances once into a :class:`~hub4eval.scoring.fill_tables.FillTable`
   (:func:`tabulate`), whose arrays each run indexes (:meth:`_Texts.of_table`). A noisy key is read
   from its content string's words, once per distinct string, without preparing
   the fill.
2. **Counts from COR codes.** For two plain instances, a slot's fill pair has
   one point per aspect, INC unless COR; so the counts of a pair are those of
   the same two instance *shapes* without any COR (which slots, extents,
   optional slots, REM pointers: ``Mapper._shape``), with k of its INC turned
   COR, k being how many of its aspects are COR: the number of times the pair
   appears in the verified arrays. POS and ACT do not change with k, so F =
   (p + q) k / (p POS + q ACT) and the errors are the shapes' less k. The
   counts of a pair without COR are taken from one real pair per two shapes
   (``Mapper.match_instance``), so no rule of §6 is written twice.
3. **Instances that are not plain** (a slot with several fills or
   alternatives: rare) are compared pair by pair through their match records,
   for the pairs that share a key with them, group by group.
4. **The greedy** sorts the pairs with a COR once (``numpy.lexsort`` on the tie
   key) and scans them; the pairs without COR (F = 0) rank after all of them
   and are taken among the instances left free by shapes
   (:func:`hub4eval.scoring.greedy.greedy_by_class`).

Memory is known before anything is made: the number of candidate pairs is the
sum over keys of the products of their holders on each side, counted per group
in one pass over the keys; above the bound the document is refused at once
(:class:`~hub4eval.scoring.greedy.TooManyPairs`). The arrays take about 24
bytes a candidate pair at their peak.

The chosen pairs are then scored by the mapper into the usual records
(points, reasons, drill-down), for them only.

Why one module of about 1,550 lines: it is one algorithm, the four steps of
:func:`map_groups` over the same arrays (fill positions, key ids, groups);
the key arrays are both counted for the refusal and expanded into the pairs
that step 1 compares, and the memo of the hypothesis side serves every step,
so a split would pass them between modules that have no other user.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import partial
from itertools import chain
from typing import Any, NamedTuple, Protocol

import numpy as np

from hub4eval.config import ScoreConfig
from hub4eval.model import Instance, PointerFill, TextFill
from hub4eval.scoring import fill_tables
from hub4eval.scoring.candidates import (
    _BLOCK,
    _MAX_KEYS,
    reference_content_keys,
    sharing_pairs,
)
from hub4eval.scoring.fill_tables import FillTable
from hub4eval.scoring.fills import FillPreparer, PreparedFill, row_places
from hub4eval.scoring.greedy import TooManyPairs, greedy_by_class
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.noisy import noisy_correct
from hub4eval.scoring.refusal import may_be_refused, pairs_alike, written_contents
from hub4eval.scoring.verdicts import TextComparison, clean_content_status, extent_status
from hub4eval.text.column_extents import map_in_place, token_runs


class Mapper(Protocol):
    """What this module uses of :class:`hub4eval.scoring.mapping.Mapper` (which imports this module)."""

    how: TextComparison
    config: ScoreConfig
    beta_squared: Fraction
    hyp_sides: dict[tuple[int, ...], Any]
    ref_prep: FillPreparer
    hyp_prep: FillPreparer
    unscored: frozenset[str]
    counting: bool  # only the counts are asked for: see _counted
    aspect_bits: dict[tuple[str, str], int]
    templates: list[tuple[tuple[str, str, str], ...]]
    counted_points: dict[tuple[int, int], tuple[Counts, int]]
    noisy_verdicts: dict[tuple[Hashable, str], bool]

    def signature(self, points: tuple[tuple[str, str, str], ...]) -> int: ...

    def template(self, points: tuple[tuple[str, str, str], ...]) -> int: ...

    _views: tuple[dict[int, tuple[Instance, dict[str, Any]]], ...]

    def _view(self, inst: Instance, reference: bool) -> dict[str, Any]: ...

    def _keys(self, inst: Instance, reference: bool, mapping: Mapping[str, str]) -> list[Any]: ...

    def _shape(self, inst: Instance, reference: bool, removable: Callable[[PointerFill], bool]) -> Hashable: ...

    def match_instance(
        self,
        ref: Instance | None,
        hyp: Instance | None,
        mapping: Mapping[str, str],
        removable: Callable[[PointerFill], bool],
    ) -> Any: ...

    def counted_without_cor(
        self, ref_shape: Hashable, hyp_shape: Hashable, make: Callable[[], Any], *, chosen: bool = False
    ) -> tuple[Counts, int]: ...


InstanceMatch = Any  # hub4eval.scoring.mapping.InstanceMatch


Int = np.int64
BYTES_PER_PAIR = 24  # peak bytes per candidate pair of the arrays below (codes, their sort, positions)


class _Aspect:
    """Candidate fill pairs of one slot and aspect.

    The fills of each side by position, their instances, and the keys as small
    integers: ``(ref_pos[n], ref_kid[n])`` for every key of a reference fill
    that some hypothesis fill holds, ``hyp_kid[p]`` the key of hypothesis fill
    ``p`` (-1: none), ``wild`` the reference positions paired with every
    hypothesis fill of their group (too many keys). Keys are already told apart
    by group (see :func:`map_groups`): two fills of different groups share none.
    """

    __slots__ = (
        "kind",
        "slot",
        "ref_fills",
        "hyp_fills",
        "ref_inst",
        "hyp_inst",
        "ref_pos",
        "ref_kid",
        "hyp_kid",
        "wild",
        "hyp_listed",
        "ref_listed",
        "ref_grp",
        "hyp_grp",
        "_held",
    )

    def __init__(
        self,
        kind: str,
        refs: Side,
        hyps: Side,
        keys: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        groups: tuple[np.ndarray, np.ndarray] | None = None,
        slot: str = "",
    ) -> None:
        self.kind = kind  # "c" clean content, "w" noisy content, "x" extent, "p" pointer
        self.slot = slot  # the slot's name
        self.ref_fills, self.ref_inst = _listed(refs)
        self.hyp_fills, self.hyp_inst = _listed(hyps)
        self.hyp_listed = hyps
        self.ref_listed = refs
        self.ref_pos, self.ref_kid, self.hyp_kid, self.wild = keys
        self._held: tuple[np.ndarray, np.ndarray] | None = None  # see _holders
        if groups is None:  # one group
            self.ref_grp = np.zeros(len(self.ref_fills), dtype=Int)
            self.hyp_grp = np.zeros(len(self.hyp_fills), dtype=Int)
        else:  # the group of each position (the hypothesis positions in group order)
            self.ref_grp, self.hyp_grp = groups[0][self.ref_inst], groups[1][self.hyp_inst]

    def _holders(self) -> tuple[np.ndarray, np.ndarray]:
        """(hypothesis positions sorted by key, how many hold each key), worked out once
        (:meth:`count`, then :meth:`pairs`)."""
        if self._held is None:
            self._held = self._holding()
        return self._held

    def _holding(self) -> tuple[np.ndarray, np.ndarray]:
        has = np.flatnonzero(self.hyp_kid >= 0)
        kid = self.hyp_kid[has]
        size = max(int(kid.max()) if len(kid) else -1, int(self.ref_kid.max()) if len(self.ref_kid) else -1) + 1
        return has[np.argsort(kid, kind="stable")], np.bincount(kid, minlength=size)

    def _wild_ranges(self) -> tuple[np.ndarray, np.ndarray]:
        """The first hypothesis position of each wild reference's group, and how many there are."""
        g = self.ref_grp[self.wild]
        lo = np.searchsorted(self.hyp_grp, g, side="left")
        return lo, np.searchsorted(self.hyp_grp, g, side="right") - lo

    def count(self, n_groups: int = 1) -> np.ndarray:
        """How many candidate pairs :meth:`pairs` makes, per group."""
        _, holders = self._holders()
        counts = np.zeros(n_groups, dtype=Int)
        if len(self.ref_kid):
            counts += np.bincount(self.ref_grp[self.ref_pos], weights=holders[self.ref_kid], minlength=n_groups).astype(
                Int
            )
        if len(self.wild):
            _, many = self._wild_ranges()
            counts += np.bincount(self.ref_grp[self.wild], weights=many, minlength=n_groups).astype(Int)
        return counts

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """(reference positions, hypothesis positions) of every pair that shares a key."""
        sorted_pos, holders = self._holders()
        starts = np.cumsum(holders) - holders
        many = holders[self.ref_kid] if len(self.ref_kid) else np.zeros(0, dtype=Int)
        total = int(many.sum())
        rq = np.repeat(self.ref_pos, many)
        if total:
            firsts = np.repeat(starts[self.ref_kid] - (np.cumsum(many) - many), many)
            hp = sorted_pos[firsts + np.arange(total, dtype=Int)]
        else:
            hp = np.zeros(0, dtype=Int)
        if len(self.wild):
            lo, many = self._wild_ranges()
            rq = np.concatenate([rq, np.repeat(self.wild, many)])
            offsets = np.arange(int(many.sum()), dtype=Int) - np.repeat(np.cumsum(many) - many, many)
            hp = np.concatenate([hp, np.repeat(lo, many) + offsets])
        return rq, hp


class _Listed(list):
    """A side's list of (instance, fill) with what is worked out of it once (see :func:`_memo`)."""

    __slots__ = ("memo",)

    def __init__(self, items: Sequence[tuple[int, Any]]) -> None:
        super().__init__(items)
        self.memo: dict[str, Any] = {}


class _Texts:
    """The text fills of one slot of a side's plain instances, as rows (instance index,
    fill, number of its normalized text, start and end of its compared extent), a fill
    prepared (:class:`~hub4eval.scoring.fills.PreparedFill`) only when something asks for it.

    Most fills need only their text's number and their extent's offsets, which
    :func:`_fills_by_slot` reads without preparing them; the others (a reference fill
    with minimal strings, every fill when extents are mapped to alignment columns) are
    prepared as they are read, and kept in :attr:`prepared`. Iterated, and through
    :meth:`fill`, it gives (instance index, prepared fill) as a :class:`_Listed` does.
    The extent of a row is the one a hypothesis extent is compared in: a hypothesis's
    maximal extent, a reference's enclosing one (:attr:`PreparedFill.enclosing`),
    :data:`_NONE` when the fill has none.
    """

    __slots__ = ("rows", "prepared", "owners", "prep", "memo", "to_columns", "minimal", "table", "at")

    def __init__(self, owners: Sequence[Instance], prep: FillPreparer) -> None:
        self.rows: list[tuple[int, TextFill, int, int, int]] = []
        # Read from a FillTable instead of as rows: the table and the places of the fills in it
        self.table: FillTable | None = None
        self.at: np.ndarray | None = None
        self.prepared: dict[int, PreparedFill] = {}  # by position
        self.owners = owners  # the instances the indices are of
        self.prep = prep
        self.memo: dict[str, Any] = {}
        # Set when the extents of the rows not prepared are in characters (less the premodifiers
        # removed): maps them to alignment columns all at once when the columns are made
        # (see _ColumnsOf), and the minimal extents that gives (see _ref_extents).
        self.to_columns: _ColumnsOf | None = None
        self.minimal: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def of_table(
        cls, owners: Sequence[Instance], prep: FillPreparer, table: FillTable, holders: np.ndarray, at: np.ndarray
    ) -> _Texts:
        """The fills ``at`` of ``table``, of the instances ``holders`` (indices into ``owners``),
        their columns read from the table's arrays."""
        texts = cls(owners, prep)
        texts.table, texts.at = table, at
        starts, ends, minimal = table.columns()
        texts.memo["columns"] = (holders, table.numbers[at], starts[at], ends[at])
        if minimal is not None:
            texts.minimal = (minimal[0][at], minimal[1][at])
        return texts

    def __len__(self) -> int:
        return len(self.rows) if self.at is None else len(self.at)

    def __iter__(self) -> Iterator[tuple[int, PreparedFill]]:
        fill = self.fill
        inst = self.columns()[0].tolist() if self.at is not None else [row[0] for row in self.rows]
        return ((index, fill(p)) for p, index in enumerate(inst))

    def text_fill(self, p: int) -> TextFill:
        """The fill at position ``p`` as written."""
        if self.table is not None:
            assert self.at is not None
            return self.table.fills[self.at[p]]
        return self.rows[p][1]

    def contents(self) -> list[str]:
        """The content string of each fill, by position."""
        if self.table is not None:
            return list(map(self.table.contents.__getitem__, self.at.tolist()))  # type: ignore[union-attr]
        return [row[1].content for row in self.rows]

    def pop(self) -> None:
        """Take the last row back (its instance turned out not plain)."""
        self.rows.pop()
        self.prepared.pop(len(self.rows), None)

    def fill(self, p: int) -> PreparedFill:
        """The fill at position ``p``, prepared (once)."""
        found = self.prepared.get(p)
        if found is None:
            if self.table is not None:
                index, fill = int(self.columns()[0][p]), self.text_fill(p)
            else:
                index, fill = self.rows[p][:2]
            found = self.prepared[p] = self.prep.prepare(fill, self.owners[index].docid)
        return found

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(instance indices, text numbers, extent starts, extent ends) of the rows."""
        return _memo(self, "columns", self._columns)

    def _columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if not self.rows:
            empty = np.zeros(0, dtype=Int)
            return empty, empty, empty, empty
        inst, _, numbers, starts, ends = zip(*self.rows, strict=True)
        inst_array, start_array, end_array = (np.asarray(column, dtype=Int) for column in (inst, starts, ends))
        if self.to_columns is not None:  # the rows read in characters, in columns
            self.minimal = self.to_columns(inst_array, start_array, end_array)
        return inst_array, np.asarray(numbers, dtype=Int), start_array, end_array


class _Fills(Sequence[PreparedFill]):
    """The fills of a :class:`_Texts` by position, each prepared when first read."""

    __slots__ = ("_texts",)

    def __init__(self, texts: _Texts) -> None:
        self._texts = texts

    def __len__(self) -> int:
        return len(self._texts)

    def __getitem__(self, p: int) -> PreparedFill:  # type: ignore[override]
        return self._texts.fill(p)


Side = _Texts | Sequence[tuple[int, Any]]
"""A side's fills of one slot: a :class:`_Texts`, or (instance index, fill) pairs (a :class:`_Listed`)."""


def _memo(items: Any, what: str, make: Callable[[], Any]) -> Any:
    """``make()``, kept with ``items`` when it keeps what is worked out of it (a
    :class:`_Listed` or :class:`_Texts`: the hypothesis side is tried against every
    reference set it overlaps, see ``map_groups``)."""
    memo = getattr(items, "memo", None)
    if memo is None:
        return make()
    if what not in memo:
        memo[what] = make()
    return memo[what]


def _listed(items: Side) -> tuple[Sequence[Any], np.ndarray]:
    """(the fills by position, their instances' indices) of a side's fills of a slot."""
    if isinstance(items, _Texts):
        return _Fills(items), items.columns()[0]
    return _memo(items, "listed", lambda: ([fill for _, fill in items], np.asarray([j for j, _ in items], dtype=Int)))


def _hyp_ids(hyps: Side, hyp_key: Callable[[int, Any], Hashable | None]) -> tuple[dict[Hashable, int], np.ndarray]:
    ids: dict[Hashable, int] = {}
    hyp_kid = []
    for j, fill in hyps:
        key = hyp_key(j, fill)
        hyp_kid.append(-1 if key is None else ids.setdefault(key, len(ids)))
    return ids, np.asarray(hyp_kid, dtype=Int)


def _by_keys(
    refs: Side,
    hyps: Side,
    hyp_key: Callable[[int, Any], Hashable | None],
    ref_keys: Callable[[int, Any], Sequence[Hashable] | None],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The key arrays of :class:`_Aspect` from functions giving a fill's keys (None: none / too many)
    from its instance index and the fill."""
    ids, hyp_kid = _memo(hyps, "ids", lambda: _hyp_ids(hyps, hyp_key))
    ref_pos: list[int] = []
    ref_kid: list[int] = []
    wild: list[int] = []
    get = ids.get
    for q, (i, fill) in enumerate(refs):
        keys = ref_keys(i, fill)
        if keys is None:
            wild.append(q)
            continue
        for key in keys:
            kid = get(key)
            if kid is not None:
                ref_pos.append(q)
                ref_kid.append(kid)
    return (
        np.asarray(ref_pos, dtype=Int),
        np.asarray(ref_kid, dtype=Int),
        hyp_kid,
        np.asarray(wild, dtype=Int),
    )


def _clean_content_keys(
    refs: _Texts,
    hyps: _Texts,
    groups: tuple[np.ndarray, np.ndarray],
    how: TextComparison,
    strings: dict[str, int],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_by_keys` for the clean content keys, told apart by group in numpy: each
    distinct string has a number (``strings``, the preparers' ``numbers``, which the rows
    of a :class:`_Texts` carry), a key is ``group * strings + number``. A hypothesis's key
    is its text; the usual reference fill's key is its text, the others' the substrings
    of :func:`~hub4eval.scoring.candidates.reference_content_keys`."""

    def hyp_side() -> tuple[int, np.ndarray, np.ndarray]:
        numbers = hyps.columns()[1]
        if len(numbers) and int(numbers.min()) < 0:  # strings not numbered by a preparer: numbered here
            numbers = numbers.copy()
            for p in np.flatnonzero(numbers < 0).tolist():
                numbers[p] = strings.setdefault(hyps.fill(p).maximal.text, len(strings))
        size = max(1, len(strings))  # every hypothesis number is below it
        hyp_group = groups[1][hyps.columns()[0]]
        distinct, hyp_kid = np.unique(hyp_group * size + numbers, return_inverse=True)
        return size, distinct, hyp_kid.reshape(-1).astype(Int)

    size, distinct, hyp_kid = _memo(hyps, "clean", hyp_side)
    get = strings.get
    ref_inst, numbers = refs.columns()[:2]
    # the fills prepared that are not usual (minimal strings): their keys are substrings
    odd = sorted(
        p for p, fill in refs.prepared.items() if len(fill.minimals) != 1 or fill.minimals[0] is not fill.maximal
    )
    usual = np.ones(len(numbers), dtype=bool)
    usual[odd] = False
    if len(numbers) and int(numbers.min()) < 0:  # not numbered by a preparer: by its text, if known
        numbers = numbers.copy()
        for p in np.flatnonzero(usual & (numbers < 0)).tolist():
            found = get(refs.fill(p).maximal.text)
            numbers[p] = -1 if found is None else found
    pos = np.flatnonzero(usual & (numbers >= 0) & (numbers < size))
    ref_number = numbers[pos]
    wild: list[int] = []
    if odd:
        odd_pos: list[int] = []
        odd_number: list[int] = []
        for p in odd:
            keys = reference_content_keys("", refs.fill(p), how)
            if keys is None:
                wild.append(p)
                continue
            for key in keys:
                found = get(key[2])
                if found is not None and found < size:
                    odd_pos.append(p)
                    odd_number.append(found)
        if odd_pos:
            pos = np.concatenate([pos, np.asarray(odd_pos, dtype=Int)])
            ref_number = np.concatenate([ref_number, np.asarray(odd_number, dtype=Int)])
            by_pos = np.argsort(pos, kind="stable")  # in position order, as every aspect's keys
            pos, ref_number = pos[by_pos], ref_number[by_pos]
    wanted = groups[0][ref_inst[pos]] * size + ref_number
    at = np.searchsorted(distinct, wanted)
    ok = at < len(distinct)
    ok[ok] = distinct[at[ok]] == wanted[ok]
    return pos[ok].astype(Int), at[ok].astype(Int), hyp_kid, np.asarray(wild, dtype=Int)


def _odd(refs: _Texts) -> set[int]:
    """The positions of the reference fills whose minimal strings are not their one maximal
    string (only prepared fills can be: see :func:`_fills_by_slot`)."""
    return _memo(
        refs,
        "odd",
        lambda: {
            p for p, fill in refs.prepared.items() if len(fill.minimals) != 1 or fill.minimals[0] is not fill.maximal
        },
    )


def _noisy_content_keys(
    refs: _Texts, hyps: _Texts, groups: tuple[np.ndarray, np.ndarray], how: TextComparison
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_by_keys` for the noisy content keys, told apart by group in numpy: each
    distinct word has a number (the preparers' ``words``), a key is ``group * words + number``.
    The keys of a content string (:meth:`FillPreparer.word_keys`) are worked out once per
    distinct string; a reference fill with minimal strings of its own has those of
    :func:`~hub4eval.scoring.candidates.reference_content_keys`."""
    fillers = how.fillers
    words = refs.prep.words  # the hypothesis preparer's too (FillPreparer.share_texts)

    def hyp_side() -> tuple[int, np.ndarray, np.ndarray]:
        hyp_word = _word_arrays(hyps, fillers, 2)
        size = max(1, len(words))  # every hypothesis word is below it
        hyp_group = groups[1][hyps.columns()[0]]
        distinct, hyp_kid = np.unique(hyp_group * size + hyp_word, return_inverse=True)
        return size, distinct, hyp_kid.reshape(-1).astype(Int)

    size, distinct, hyp_kid = _memo(hyps, "noisy", hyp_side)
    offsets, word = _word_arrays(refs, fillers, 0)
    odd = _odd(refs)
    if odd:
        flat = word.tolist()
        every: list[Sequence[int]] = [
            flat[a:b] for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True)
        ]
        for p in odd:  # minimal strings of its own: their keys
            found = reference_content_keys("", refs.fill(p), how)
            assert found is not None  # noisy keys are words: never too many
            every[p] = [words.setdefault(key[2], len(words)) for key in found]
        lengths = np.fromiter(map(len, every), dtype=Int, count=len(every))
        word = np.fromiter(chain.from_iterable(every), dtype=Int, count=int(lengths.sum()))
    else:
        lengths = np.diff(offsets)
    pos = np.repeat(np.arange(len(lengths), dtype=Int), lengths)
    below = word < size  # a word first seen after the hypothesis side was read is no hypothesis's key
    pos, word = pos[below], word[below]
    wanted = groups[0][refs.columns()[0][pos]] * size + word
    at = np.searchsorted(distinct, wanted)
    ok = at < len(distinct)
    ok[ok] = distinct[at[ok]] == wanted[ok]
    return pos[ok], at[ok].astype(Int), hyp_kid, np.zeros(0, dtype=Int)


_NONE = fill_tables.NONE  # the offset of a missing extent: encloses nothing, enclosed by nothing
_GROUP_BLOCKS = 1 << 36  # extent blocks of one group: group g's block b is the key g * _GROUP_BLOCKS + b


def _hyp_extents(hyps: _Texts) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of each hypothesis fill's compared extent, its maximal one
    (:data:`_NONE` for a fill without one)."""
    return hyps.columns()[2:]


def _ref_extents(refs: _Texts) -> tuple[np.ndarray, ...]:
    """Of each reference fill: start and end of the extent a hypothesis extent must lie in
    (the maximal one widened over inserted words at its edges; :data:`_NONE` without
    one), start and end of its one minimal extent (:data:`_NONE`: none, or several
    minimal strings), and whether it has several minimal strings.

    A fill read without being prepared is usual: its one minimal extent is its maximal
    one, which encloses (no widening); the prepared ones are read one by one."""
    starts, ends = refs.columns()[2:]
    if refs.minimal is not None:  # mapped to columns at once: the one minimal extent is the maximal one, not widened
        minimal_starts, minimal_ends = refs.minimal
    else:
        minimal_starts, minimal_ends = starts.copy(), ends.copy()
    several = np.zeros(len(starts), dtype=bool)
    prepared = refs.prepared
    if prepared:  # every fill, when the texts differ: read into lists, written at once
        lows: list[int] = []
        highs: list[int] = []
        many: list[bool] = []
        for fill in prepared.values():
            minimals = fill.minimals
            minimal = minimals[0].extent if len(minimals) == 1 else None
            if minimal is None:
                lows.append(_NONE)
                highs.append(_NONE)
            else:
                lows.append(minimal.start)
                highs.append(minimal.end)
            many.append(len(minimals) != 1)
        at = np.fromiter(prepared, dtype=Int, count=len(prepared))
        minimal_starts[at] = lows
        minimal_ends[at] = highs
        several[at] = many
    return starts, ends, minimal_starts, minimal_ends, several


def _hyp_blocks(hyps: _Texts, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct blocks of the hypothesis starts (told apart by group), and each fill's
    block among them (-1: none)."""
    hs, _ = _hyp_extents(hyps)
    hyp_group = groups[hyps.columns()[0]]
    hyp_block = np.where(hs != _NONE, hyp_group * _GROUP_BLOCKS + hs // _BLOCK, -1)
    blocks, hyp_kid = np.unique(hyp_block, return_inverse=True)
    hyp_kid = hyp_kid.reshape(-1).astype(Int)
    if len(blocks) and blocks[0] == -1:  # no extent: no key
        hyp_kid -= 1
        blocks = blocks[1:]
    return blocks, hyp_kid


def _extent_keys(
    refs: _Texts,
    hyps: _Texts,
    groups: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_by_keys` for the extent keys, made in numpy: a hypothesis's key is the
    block of its start, a reference's the blocks its extent covers
    (:func:`~hub4eval.scoring.candidates.reference_extent_keys`), each within its group."""
    blocks, hyp_kid = _memo(hyps, "blocks", lambda: _hyp_blocks(hyps, groups[1]))
    rs, re_ = _memo(refs, "extents", lambda: _ref_extents(refs))[:2]
    has = rs != _NONE
    first = np.where(has, rs // _BLOCK, 0)
    span = np.where(has, np.maximum(re_ // _BLOCK - first + 1, 0), 0)
    wild = np.flatnonzero(span - 1 >= _MAX_KEYS)
    span[wild] = 0
    ref_pos = np.repeat(np.arange(len(refs), dtype=Int), span)
    offsets = np.arange(len(ref_pos), dtype=Int) - np.repeat(np.cumsum(span) - span, span)
    ref_group = groups[0][refs.columns()[0]]
    ref_block = np.repeat(first + ref_group * _GROUP_BLOCKS, span) + offsets
    at = np.searchsorted(blocks, ref_block)
    found = at < len(blocks)
    found[found] = blocks[at[found]] == ref_block[found]
    return ref_pos[found], at[found].astype(Int), hyp_kid, wild.astype(Int)


_ONE_TEXT = ((((True, False),),), (((True, True),),))  # a slot's fills in a shape: one text fill, by has_extent


def _fills_by_slot(
    mapper: Mapper,
    instances: Sequence[Instance],
    removable: Callable[[int], Callable[[PointerFill], bool]] | None = None,
) -> tuple[list[Any], dict[str, _Texts], dict[str, _Listed]]:
    """The shape of each plain instance (``Mapper._shape``, made in the same pass; None:
    not plain), and the fills of the plain instances by slot: text fills as :class:`_Texts`,
    pointers as (instance index, fill). ``removable`` gives the test of REM pointers of a
    reference instance by its index; None for the hypothesis side.

    The scored slots are those of ``Mapper._view`` (a name's first slot; a hypothesis
    slot's first alternative). A text fill is read without being prepared when its
    extents are not mapped and it is usual (a hypothesis fill, or a reference fill
    without minimal strings): its text's number and its extent, less the premodifiers
    removed, are all the mapping reads of it (:meth:`FillPreparer.prepare` makes the same).
    """
    reference = removable is not None
    prep = mapper.ref_prep if reference else mapper.hyp_prep
    unscored = mapper.unscored
    fast = not prep.maps_extents
    if TABLES and (fast or mapper.counting):
        found = fill_tables.lookup(prep, instances, unscored, None if fast else column_mapper(prep, reference))
        if found is not None:  # every instance read into a table: its rows taken from the table's arrays
            table, ords = found
            tabled = {
                name: _Texts.of_table(instances, prep, table, holders, at) for name, holders, at in table.slots_of(ords)
            }
            return list(map(table.shapes.__getitem__, ords.tolist())), tabled, {}
    get, normalize = prep.lookups()
    # Every fill prepared and every pair to get its match record (texts that differ, not
    # counting): the slot views of Mapper._view are made here, from the same prepared fills.
    views = None if fast or mapper.counting else mapper._views[reference]
    # Counting with texts that differ: the usual fills' extents are read in characters, then
    # mapped to alignment columns all at once (_ColumnsOf), without preparing the fills.
    alignment = None if fast or views is not None else column_mapper(prep, reference)
    cheap = fast or alignment is not None
    shapes: list[Any] = []
    texts: dict[str, _Texts] = {}
    pointers: dict[str, _Listed] = {}
    one_text = _ONE_TEXT
    none = _NONE
    for index, inst in enumerate(instances):
        # one pass: an instance turns out not plain at its first slot of several fills
        # or alternatives (rare); what it added to the lists is then taken back
        shape = []
        added: list[_Texts | _Listed] = []
        seen: set[str] = set()
        view: dict[str, Any] = {}
        for slot in inst.slots:
            name = slot.name
            if name in unscored or name in seen:
                continue
            seen.add(name)
            alternatives = slot.alternatives
            if (len(alternatives) != 1 and (reference or not alternatives)) or len(fills := alternatives[0].fills) != 1:
                break  # several fills or alternatives: not plain
            fill = fills[0]
            if type(fill) is TextFill:
                listed = texts.get(name)
                if listed is None:
                    listed = texts[name] = _Texts(instances, prep)
                content, extents = fill.content, fill.extents
                # the usual fill (fill.minimal_is_maximal, written out with the reader's shortcut: its
                # one minimal extent is its maximal one, the same tuple)
                if cheap and (
                    not reference
                    or (
                        len(spans := fill.minimal_spans) == 1
                        and not spans[0][0]
                        and spans[0][1] == len(content)
                        and ((fill.minimal_extents is extents and len(extents) < 2) or fill.minimal_is_maximal)
                    )
                ):
                    number, removed = (norm := get(content) or normalize(content))[4], norm[1]
                    if extents:
                        first = extents[0]
                        start, end = first.start, first.end
                        if removed:
                            start = min(start + removed, end)  # as fills._shifted
                        shape.append((name, reference and slot.optional, one_text[True]))
                    else:
                        start = end = none
                        shape.append((name, reference and slot.optional, one_text[False]))
                else:
                    prepared = listed.prepared[len(listed.rows)] = prep.prepare(fill, inst.docid)
                    maximal = prepared.maximal
                    number, extent = maximal.number, maximal.extent
                    if prepared.has_extent and extent is not None:
                        if prepared.enclosure is not None:
                            extent = prepared.enclosure
                        start, end = extent.start, extent.end
                    else:
                        start = end = none
                    shape.append((name, reference and slot.optional, one_text[prepared.has_extent]))
                    view[name] = (slot, ((prepared,),), prepared)
                listed.rows.append((index, fill, number, start, end))
                added.append(listed)
            else:
                optional = reference and slot.optional
                shape.append((name, optional, (((False, removable is not None and removable(index)(fill)),),)))  # type: ignore[arg-type]
                pointer_list = pointers.get(name)
                if pointer_list is None:
                    pointer_list = pointers[name] = _Listed(())
                pointer_list.append((index, fill))
                added.append(pointer_list)
                view[name] = (slot, ((fill,),), None)
        else:
            shapes.append(tuple(shape))
            if views is not None and id(inst) not in views:
                views[id(inst)] = (inst, view)
            continue
        for taken in added:
            taken.pop()
        shapes.append(None)
    if None in shapes:  # drop the slots whose only fills were taken back
        texts = {name: listed for name, listed in texts.items() if len(listed)}
        pointers = {name: pointer_list for name, pointer_list in pointers.items() if pointer_list}
    if alignment is not None:
        docids = [inst.docid for inst in instances] if reference or not prep.unsegmented else None
        # the documents' tokens, made for the first slot mapped and dropped after the last (see _ColumnsOf)
        shared: dict[str, Any] = {"slots": len(texts)}
        for listed in texts.values():
            widen = reference and prep.widen is not None
            listed.to_columns = _ColumnsOf(alignment, reference, widen, docids, list(listed.prepared), shared)
    return shapes, texts, pointers


TABLES = True  # runs of plain instances read from FillTables (tests turn it off: the rows read one by one)


def tabulate(mapper: Mapper, instances: Sequence[Instance], reference: bool) -> FillTable | None:
    """Read ``instances`` (a template set's, of one side) into a :class:`FillTable` kept with
    the side's preparer, when the counts read their fills without preparing them (see
    :func:`_fills_by_slot`) and no table of them is kept yet: the runs of documents that are
    counted then take their rows from it, and so does a later count of the same instances
    with the same preparer (the reference of a score and of its ceiling). The table (None:
    the fills are read otherwise)."""
    prep = mapper.ref_prep if reference else mapper.hyp_prep
    fast = not prep.maps_extents
    if not TABLES or not (fast or mapper.counting):
        return None
    alignment = None if fast else column_mapper(prep, reference)
    if alignment is None and not fast:
        return None  # extents mapped otherwise: each fill is prepared
    table = fill_tables.kept(prep, instances, unscored=mapper.unscored, alignment=alignment)
    if table is None:
        table = FillTable(prep, instances, reference, mapper.unscored, alignment)
        fill_tables.register(table, prep)
    return table


def column_mapper(prep: FillPreparer, reference: bool) -> Any:
    """The :class:`~hub4eval.text.columns.CorpusAlignment` whose columns ``prep`` maps a
    side's extents to, when it maps them with the alignment's own ``ref_extent`` (widened
    by its ``ref_enclosure``, or not at all) or ``hyp_extent``: then the extents of many
    fills are mapped at once (:class:`_ColumnsOf`) to the same columns. None for any other
    mapping (each fill is then prepared)."""
    from hub4eval.text.columns import CorpusAlignment

    map_extent = prep.map_extent
    owner = getattr(map_extent, "__self__", None)
    if type(owner) is not CorpusAlignment or prep.reference != reference:
        return None
    if getattr(map_extent, "__func__", None) is not (
        CorpusAlignment.ref_extent if reference else CorpusAlignment.hyp_extent
    ):
        return None
    widen = prep.widen
    if (
        reference
        and widen is not None
        and (
            getattr(widen, "__self__", None) is not owner
            or getattr(widen, "__func__", None) is not CorpusAlignment.ref_enclosure
        )
    ):
        return None
    if not reference and prep.unsegmented != owner.unsegmented:
        return None  # a segmented hypothesis's fills read as file offsets, or the reverse: as prepare maps them
    return owner


class _ColumnsOf(NamedTuple):
    """The extents of a :class:`_Texts`'s rows in characters (less the premodifiers removed)
    mapped to alignment columns all at once, as :meth:`FillPreparer.prepare` maps each fill's
    (``map_extent``, then a reference's enclosure widened by ``widen``): the rows whose fill
    was prepared when read (``settled``, positions) and those without an extent
    (:data:`_NONE`) are in columns already."""

    alignment: Any  # hub4eval.text.columns.CorpusAlignment
    reference: bool
    widen: bool  # a reference's extents, widened for the enclosure test
    docids: Sequence[str] | None  # the DOCID of each instance (None: an unsegmented hypothesis's file offsets)
    settled: list[int]
    # the tokens of the instances' documents (CorpusAlignment.token_runs), shared by the slots of one side
    shared: dict[str, Any]

    def __call__(self, inst: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Map ``starts`` and ``ends`` (of the rows of instances ``inst``) in place to the
        compared extents; give the minimal extents (the maximal ones, not widened)."""
        raw = starts != _NONE
        raw[self.settled] = False
        at = np.flatnonzero(raw)
        alignment = self.alignment
        docids = None if self.docids is None else list(map(self.docids.__getitem__, inst[at].tolist()))
        runs = None
        shared = self.shared
        if self.docids is not None:
            if "runs" not in shared:
                shared["runs"] = token_runs(alignment, self.reference, self.docids)
            runs = shared["runs"]
            shared["slots"] -= 1
            if not shared["slots"]:  # the last slot of the side: the copies of the tokens are freed
                del shared["runs"]
        # widened: the extent a hypothesis extent must lie in
        return map_in_place(alignment, self.reference, docids, starts, ends, at, self.widen, _NONE, runs)


def _aspects(
    mapper: Mapper,
    ref_texts: Mapping[str, _Texts],
    ref_pointers: Mapping[str, Sequence[tuple[int, PointerFill]]],
    hyp_side: _HypSide,
    ref_group: Sequence[int],
    hyp_group: Sequence[int],
    groups: tuple[np.ndarray, np.ndarray],
    mappings: Sequence[Mapping[str, str]],
) -> list[_Aspect]:
    """The candidate fill pairs of the plain instances, slot by slot and aspect by aspect.

    A key is told apart by the group of its instance (``(group, key)``; with one group,
    the key itself), so that fills of two groups never pair."""
    how = mapper.how
    texts = (ref_texts, hyp_side.texts)
    pointers = (ref_pointers, hyp_side.pointers)
    aspects: list[_Aspect] = []
    one = len(mappings) == 1
    arrays = None if one else groups

    def add(kind: str, slot: str, refs: Side, hyps: Side, keys: Any) -> None:
        if len(keys[0]) or len(keys[3]):
            aspects.append(_Aspect(kind, refs, hyps, keys, arrays, slot))

    for name, text_refs in texts[0].items():
        text_hyps = texts[1].get(name)
        if not text_hyps:
            continue
        if how.content and not how.noisy:
            add(
                "c",
                name,
                text_refs,
                text_hyps,
                _clean_content_keys(text_refs, text_hyps, groups, how, mapper.ref_prep.numbers),
            )
        elif how.content:
            add("w", name, text_refs, text_hyps, _noisy_content_keys(text_refs, text_hyps, groups, how))
        if how.extent:
            add("x", name, text_refs, text_hyps, _extent_keys(text_refs, text_hyps, groups))
    for name, pointer_refs in pointers[0].items():
        pointer_hyps = pointers[1].get(name)
        if not pointer_hyps:
            continue

        def target(i: int, fill: PointerFill) -> list[Hashable]:
            g = ref_group[i]
            mapped = mappings[g].get(fill.key)
            return [] if mapped is None else [mapped] if one else [(g, mapped)]

        def pointed(j: int, fill: PointerFill) -> Hashable:
            return fill.key if one else (hyp_group[j], fill.key)

        add("p", name, pointer_refs, pointer_hyps, _by_keys(pointer_refs, pointer_hyps, pointed, target))
    return aspects


NOISY_VERDICTS = 1 << 20  # noisy content verdicts a mapper remembers at most (see Mapper.noisy_verdicts)


def _noisy_verdicts(
    mapper: Mapper,
    refs: _Texts,
    hyps: _Texts,
    ref_keys: Mapping[int, Hashable],
    hyp_keys: Mapping[int, str],
    rq: Sequence[int],
    hp: Sequence[int],
) -> list[bool]:
    """Whether the noisy content point of each fill pair (``rq``, ``hp``) is COR, each verdict
    looked up in or added to the mapper's ``noisy_verdicts`` (while they are few enough). A
    usual reference fill is compared from the words of its string alone, without being prepared."""
    known = mapper.noisy_verdicts
    room = NOISY_VERDICTS - len(known)
    fillers = mapper.how.fillers
    ref_words, hyp_words = refs.prep.noisy_words, hyps.prep.noisy_words
    out = []
    for q, p in zip(rq, hp, strict=True):
        key = (ref_keys[q], hyp_keys[p])
        ok = known.get(key)
        if ok is None:
            hyp = hyp_words(hyp_keys[p], fillers)
            ref_key = ref_keys[q]
            if type(ref_key) is str:  # its one minimal string is its maximal one
                words = ref_words(ref_key, fillers)
                ok = noisy_correct(words, (words,), hyp)
            else:
                ref = refs.fill(q)
                maximal = ref.maximal.noisy_words(fillers)
                ok = noisy_correct(maximal, [m.noisy_words(fillers) for m in ref.minimals] or [maximal], hyp)
            if room > 0:
                known[key] = ok
                room -= 1
        out.append(ok)
    return out


def _word_arrays(texts: _Texts, fillers: frozenset[str], which: int) -> Any:
    """:meth:`FillPreparer.word_keys_of` the content string of each fill of ``texts`` (kept
    with them), as arrays, one column at a time (a side reads only its own): ``which`` 0,
    (where each fill's word keys begin in the next array, those keys); 2, its hypothesis
    word; 3, its words' phrase as a reference's; 4, its kept words' phrase. Read from the
    table's arrays when the fills are a :class:`FillTable`'s."""
    return _memo(texts, f"words {which}", partial(_make_word_arrays, texts, fillers, which))


def _make_word_arrays(texts: _Texts, fillers: frozenset[str], which: int) -> Any:
    table, at = texts.table, texts.at
    if table is not None and at is not None:
        if which:
            return table.words(texts.prep, fillers, which)[at]
        offsets, keys = table.words(texts.prep, fillers, 0)
        mine, where = row_places(offsets[at], offsets[at + 1] - offsets[at])
        return mine, keys[where]
    rows = _memo(texts, "word rows", lambda: texts.prep.word_rows(texts.contents(), fillers))
    return texts.prep.word_columns(texts.contents(), fillers, which, rows)


def _phrases(texts: _Texts, fillers: frozenset[str], reference: bool) -> np.ndarray:
    """Of each fill of ``texts``, the number of its words (a reference's, -1 when some are
    optional or it has minimal strings of its own) or of its kept words (a hypothesis's):
    see :meth:`FillPreparer.word_keys_of`."""
    phrases = _word_arrays(texts, fillers, 3 if reference else 4)
    if reference:
        odd = _odd(texts)
        if odd:
            phrases = phrases.copy()
            phrases[sorted(odd)] = -1
    return phrases


def _noisy_pairs(mapper: Mapper, refs: _Texts, hyps: _Texts, rq: np.ndarray, hp: np.ndarray) -> np.ndarray:
    """Whether the noisy content point of each fill pair (``rq``, ``hp``) is COR, worked out
    once per distinct pair of strings (:func:`_noisy_verdicts`). What decides a verdict
    (``Mapper.noisy_verdicts``) is the hypothesis fill's content string and the reference
    fill's, with its minimal spans when it has minimal strings of its own (:func:`_odd`)."""
    odd = _odd(refs)
    ref_rows, ref_at = np.unique(rq, return_inverse=True)
    hyp_rows, hyp_at = np.unique(hp, return_inverse=True)
    ref_keys: dict[int, Hashable] = {}
    for q in ref_rows.tolist():
        fill = refs.text_fill(q)
        ref_keys[q] = (fill.content, fill.minimal_spans) if q in odd else fill.content
    hyp_keys = {p: hyps.text_fill(p).content for p in hyp_rows.tolist()}
    ids: dict[Hashable, int] = {}
    ref_sid = np.asarray([ids.setdefault(key, len(ids)) for key in ref_keys.values()], dtype=Int)
    ids = {}
    hyp_sid = np.asarray([ids.setdefault(key, len(ids)) for key in hyp_keys.values()], dtype=Int)
    combined = ref_sid[ref_at.reshape(-1)] * max(1, len(ids)) + hyp_sid[hyp_at.reshape(-1)]
    distinct, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    verdicts = np.asarray(
        _noisy_verdicts(mapper, refs, hyps, ref_keys, hyp_keys, rq[first].tolist(), hp[first].tolist()),
        dtype=bool,
    )
    return verdicts[inverse.reshape(-1)] if len(distinct) else np.zeros(0, dtype=bool)


def _correct(aspect: _Aspect, rq: np.ndarray, hp: np.ndarray, mapper: Mapper) -> np.ndarray:
    """Which of the candidate fill pairs (positions ``rq``, ``hp``) are COR in the aspect."""
    kind = aspect.kind
    n = len(rq)
    if kind == "p" or (kind == "c" and not len(aspect.wild)):
        return np.ones(n, dtype=bool)  # the key is the rule itself
    refs, hyps = aspect.ref_fills, aspect.hyp_fills
    listed = aspect.hyp_listed
    if kind == "c":  # a wildcard's pairs are compared one by one (they are few)
        ok = np.ones(n, dtype=bool)
        for at in np.flatnonzero(np.isin(rq, aspect.wild)).tolist():
            ok[at] = clean_content_status(refs[int(rq[at])], hyps[int(hp[at])]) == "ok"
        return ok
    if kind == "w":  # by the words of the strings, else once per distinct pair of strings
        ref_texts, hyp_texts = aspect.ref_listed, listed
        assert isinstance(ref_texts, _Texts) and isinstance(hyp_texts, _Texts)  # text fills: see _aspects
        ref_phrase = _memo(ref_texts, "phrases", partial(_phrases, ref_texts, mapper.how.fillers, True))
        hyp_phrase = _memo(hyp_texts, "phrases", partial(_phrases, hyp_texts, mapper.how.fillers, False))
        by_words = ref_phrase[rq] >= 0
        ok = np.zeros(n, dtype=bool)
        ok[by_words] = ref_phrase[rq[by_words]] == hyp_phrase[hp[by_words]]
        others = np.flatnonzero(~by_words)
        if len(others):
            ok[others] = _noisy_pairs(mapper, ref_texts, hyp_texts, rq[others], hp[others])
        return ok
    # extent: offsets compared in numpy (enclosed in the reference's enclosing extent,
    # overlapping its one minimal extent); a reference with several minimal strings one by one
    ref_texts, hyp_texts = aspect.ref_listed, listed
    assert isinstance(ref_texts, _Texts) and isinstance(hyp_texts, _Texts)  # text fills: see _aspects
    rs, re_, ms, me, several = _memo(ref_texts, "extents", lambda: _ref_extents(ref_texts))
    hs, he = _hyp_extents(hyp_texts)
    ok = extents_correct(rs[rq], re_[rq], ms[rq], me[rq], hs[hp], he[hp])
    for at in np.flatnonzero(several[rq]).tolist():
        ok[at] = extent_status(refs[int(rq[at])], hyps[int(hp[at])]) == "ok"
    return ok


def extents_correct(
    a: np.ndarray, b: np.ndarray, s_: np.ndarray, e_: np.ndarray, c: np.ndarray, d: np.ndarray
) -> np.ndarray:
    """Whether each hypothesis extent [c, d] is a COR extent point against a reference fill
    whose enclosing extent is [a, b] and whose one minimal extent is [s_, e_] (offsets or
    columns; :data:`_NONE` for a missing one): enclosed in the one, overlapping the other."""
    ok = (a <= c) & (c <= b) & (a <= d) & (d <= b) & (c != _NONE) & (a != _NONE)
    overlaps = ((s_ <= c) & (c <= e_)) | ((s_ <= d) & (d <= e_)) | ((c <= s_) & (s_ <= d)) | ((c <= e_) & (e_ <= d))
    return ok & overlaps & (s_ != _NONE)


class _HypSide:
    """What ``map_groups`` works out of the hypothesis instances alone, once:
    an unsegmented hypothesis set is tried against every reference set it overlaps."""

    __slots__ = ("hyps", "shapes", "texts", "pointers")

    def __init__(self, mapper: Mapper, hyps: Sequence[Instance]) -> None:
        self.hyps = list(hyps)  # kept alive: the cache is keyed by their id()
        self.shapes, self.texts, self.pointers = _fills_by_slot(mapper, self.hyps)

    @classmethod
    def of(cls, mapper: Mapper, hyps: Sequence[Instance], sizes: Sequence[int]) -> _HypSide:
        cache = mapper.hyp_sides
        key = (*map(id, hyps), -1, *sizes)  # the instances and their groups: keys depend on both
        side = cache.get(key)
        if side is None:
            side = cache[key] = cls(mapper, hyps)
        return side


class Group(NamedTuple):
    """The instances of one type of one pair of instance sets, and the state of that pair."""

    refs: Sequence[Instance]
    hyps: Sequence[Instance]
    mapping: Mapping[str, str]  # the instances of earlier types mapped so far
    removable: Callable[[PointerFill], bool]  # whether a reference pointer would be REM


BATCH_PAIRS = 1 << 22  # candidate pairs of one call above which its groups are mapped in two halves

Chosen = tuple[list[tuple[int, int]], dict[tuple[int, int], InstanceMatch]]


def map_groups(mapper: Mapper, groups: Sequence[Group], max_pairs: int) -> list[Chosen]:
    """For each group, the pairs the greedy chooses among its instances (indices
    into its ``refs`` and ``hyps``), best first, and the matches made on the way
    (to be reused for the chosen pairs).

    The groups are mapped together, as if their instances were one type of one
    document whose pairs across groups can score nothing: their arrays are made,
    sorted and scanned once, so numpy's cost per call is paid once for many
    documents.

    Raises:
        TooManyPairs: more than ``max_pairs`` candidate pairs in a group
            (``error.group`` its index), counted before any is made.
    """
    if not mapper.config.min_map_f and any(len(g.refs) == 1 and len(g.hyps) == 1 for g in groups):
        # a group of one pair: every pair may be mapped, so the pair is, whatever its counts
        others = [at for at, g in enumerate(groups) if len(g.refs) != 1 or len(g.hyps) != 1]
        try:
            rest = iter(map_groups(mapper, [groups[at] for at in others], max_pairs))
        except TooManyPairs as error:
            raise error.moved(others[error.group]) from None
        kept = set(others)
        return [next(rest) if at in kept else ([(0, 0)], {}) for at in range(len(groups))]
    n_groups = len(groups)
    if not n_groups:
        return []
    bounds = _lower_bounds(mapper, groups, max_pairs)
    refused = next((g for g, bound in enumerate(bounds) if bound > max_pairs), None)
    if refused is not None:  # refused before a fill is prepared, unless a group before it is refused by its count
        if refused:
            map_groups(mapper, groups[:refused], max_pairs)
        raise TooManyPairs(bounds[refused], refused, at_least=True)
    refs = [r for group in groups for r in group.refs]
    hyps = [h for group in groups for h in group.hyps]
    ref_sizes = [len(group.refs) for group in groups]
    hyp_sizes = [len(group.hyps) for group in groups]
    ref_group = [g for g, size in enumerate(ref_sizes) for _ in range(size)]
    hyp_group = [g for g, size in enumerate(hyp_sizes) for _ in range(size)]
    ref_start = [0] * n_groups
    hyp_start = [0] * n_groups
    for g in range(1, n_groups):
        ref_start[g] = ref_start[g - 1] + ref_sizes[g - 1]
        hyp_start[g] = hyp_start[g - 1] + hyp_sizes[g - 1]
    arrays = (np.asarray(ref_group, dtype=Int), np.asarray(hyp_group, dtype=Int))
    n_ref, n_hyp = len(refs), len(hyps)
    ref_shapes, ref_texts, ref_pointers = _fills_by_slot(mapper, refs, lambda i: groups[ref_group[i]].removable)
    hyp_side = _HypSide.of(mapper, hyps, hyp_sizes)
    hyp_shapes = hyp_side.shapes
    mappings = [group.mapping for group in groups]
    aspects = _aspects(mapper, ref_texts, ref_pointers, hyp_side, ref_group, hyp_group, arrays, mappings)
    estimate = _estimates(aspects, n_groups)
    over = np.flatnonzero(estimate > max_pairs)
    if len(over):
        raise TooManyPairs(int(estimate[over[0]]), int(over[0]))
    if n_groups > 1 and int(estimate.sum()) > BATCH_PAIRS:  # bound the memory of one call
        del aspects
        half = n_groups // 2
        first = map_groups(mapper, groups[:half], max_pairs)
        try:
            return first + map_groups(mapper, groups[half:], max_pairs)
        except TooManyPairs as error:
            raise error.moved(half + error.group) from None
    matched: dict[tuple[int, int], InstanceMatch] = {}  # by (reference, hypothesis) index of the call

    def match(i: int, j: int) -> InstanceMatch:
        found = matched.get((i, j))
        if found is None:
            group = groups[ref_group[i]]
            found = mapper.match_instance(refs[i], hyps[j], group.mapping, group.removable)
        return found

    # 1. the COR aspects of plain pairs, as instance pair codes i * n_hyp + j
    codes = []
    for aspect in aspects:
        rq, hp = aspect.pairs()
        ok = _correct(aspect, rq, hp, mapper)
        codes.append(aspect.ref_inst[rq[ok]] * n_hyp + aspect.hyp_inst[hp[ok]])
        del rq, hp, ok
    # counting only (see _counted): the COR codes kept with their aspect, for the chosen pairs' points
    bits = _aspect_bits(mapper, aspects) if mapper.counting else None
    verified: tuple[np.ndarray, np.ndarray] | None = None
    if codes:
        every = np.concatenate(codes)
        if bits is not None:
            verified = every, np.repeat(np.asarray(bits, dtype=Int), [len(c) for c in codes])
        plain_codes, k = np.unique(every, return_counts=True)
        del every
    else:
        plain_codes, k = np.zeros(0, dtype=Int), np.zeros(0, dtype=Int)
    del codes

    # 2. pairs with an instance that is not plain: compared one by one, group by group
    other_codes: list[int] = []
    other_counts: list[Counts] = []
    odd = {ref_group[i] for i in range(n_ref) if ref_shapes[i] is None} | {
        hyp_group[j] for j in range(n_hyp) if hyp_shapes[j] is None
    }
    for g in sorted(odd):
        r0, h0, group = ref_start[g], hyp_start[g], groups[g]
        ref_keys = [mapper._keys(r, True, group.mapping) for r in group.refs]
        hyp_keys = [mapper._keys(h, False, group.mapping) for h in group.hyps]
        odd_refs = [i for i in range(ref_sizes[g]) if ref_shapes[r0 + i] is None]
        odd_hyps = [j for j in range(hyp_sizes[g]) if hyp_shapes[h0 + j] is None]
        found: set[tuple[int, int]] = set()
        limit = max_pairs - int(estimate[g])
        try:
            if odd_refs:
                found |= {(odd_refs[a], j) for a, j in sharing_pairs([ref_keys[i] for i in odd_refs], hyp_keys, limit)}
            if odd_hyps:
                plain_refs = [i for i in range(ref_sizes[g]) if ref_shapes[r0 + i] is not None]
                found |= {
                    (plain_refs[a], odd_hyps[b])
                    for a, b in sharing_pairs(
                        [ref_keys[i] for i in plain_refs], [hyp_keys[j] for j in odd_hyps], limit - len(found)
                    )
                }
        except TooManyPairs as error:
            raise error.moved(g) from None
        for i, j in sorted(found):
            m = match(r0 + i, h0 + j)
            if m.counts.cor:
                matched[r0 + i, h0 + j] = m
                other_codes.append((r0 + i) * n_hyp + h0 + j)
                other_counts.append(m.counts)

    # 3. the counts of every pair with a COR: its shapes' counts less k INC, plus k COR
    shapes = (hyp_shapes, ref_shapes)  # of the plain instances; the others made when asked

    def shape(index: int, reference: bool) -> Any:
        known = shapes[reference][index]
        if known is None:
            inst = refs[index] if reference else hyps[index]
            removable = groups[(ref_group if reference else hyp_group)[index]].removable
            known = mapper._shape(inst, reference, removable)
        return known

    plain_i = plain_codes // n_hyp if n_hyp else plain_codes
    plain_j = plain_codes % n_hyp if n_hyp else plain_codes
    ref_sid = np.full(n_ref, -1, dtype=Int)
    hyp_sid = np.full(n_hyp, -1, dtype=Int)
    used = np.flatnonzero(np.bincount(plain_i, minlength=n_ref))
    ref_sid[used], n_ref_shapes = _shape_numbers(ref_shapes, used)
    used = np.flatnonzero(np.bincount(plain_j, minlength=n_hyp))
    hyp_sid[used], n_hyp_shapes = _shape_numbers(hyp_shapes, used)
    n_shape_pairs = n_ref_shapes * max(1, n_hyp_shapes)
    combo_key = k * n_shape_pairs + (ref_sid[plain_i] * max(1, n_hyp_shapes) + hyp_sid[plain_j])
    del plain_i, plain_j
    # one pair of each (k, shapes): any of them (the last written) stands for all
    size = (int(k.max()) + 1) * n_shape_pairs if len(k) else 0
    if size <= 4 * len(combo_key) + 1024:
        one = np.full(size, -1, dtype=Int)
        one[combo_key] = np.arange(len(combo_key), dtype=Int)
        present = np.flatnonzero(one >= 0)
        lookup = np.full(size, -1, dtype=Int)
        lookup[present] = np.arange(len(present), dtype=Int)
        inverse = lookup[combo_key]
        representatives = one[present]
        del one, lookup
    else:  # many shapes: sort instead
        _, representatives, inverse = np.unique(combo_key, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    base: dict[int, Counts] = {}  # shape pair -> the counts of its pairs without COR
    examples: dict[int, InstanceMatch] = {}  # shape pair -> the match of one of its pairs
    table: list[Counts] = []
    for at in representatives.tolist():
        cor = int(k[at])
        pair = int(combo_key[at]) % n_shape_pairs
        if pair not in base:
            i, j = divmod(int(plain_codes[at]), n_hyp)
            m = match(i, j)
            matched[i, j] = examples[pair] = m
            c = m.counts
            if c.cor != cor:  # pragma: no cover - the COR codes and the comparison disagree
                raise AssertionError(f"pair {i}, {j}: {c.cor} COR points, {cor} COR codes")
            base[pair] = Counts(0, c.inc + cor, c.mis, c.spu, c.opt, c.rem)
        b = base[pair]
        table.append(Counts(cor, b.inc - cor, b.mis, b.spu, b.opt, b.rem))
    other_index: dict[Counts, int] = {}
    other_combo = np.asarray(
        [other_index.setdefault(c, len(table) + len(other_index)) for c in other_counts], dtype=Int
    )
    table += list(other_index)
    all_codes = np.concatenate([plain_codes, np.asarray(other_codes, dtype=Int)])
    combo = np.concatenate([inverse.astype(Int), other_combo])
    plain_combo = inverse.astype(Int) if verified is not None else None
    del inverse, combo_key, k

    # 4. the greedy over the pairs with a COR (F > 0), then the F = 0 pairs by shapes
    beta_squared = mapper.beta_squared
    min_f = mapper.config.min_map_f or None
    f_key = np.asarray([-c.f_key(beta_squared) for c in table], dtype=np.float64)
    cor_key = np.asarray([-c.cor for c in table], dtype=Int)
    err_key = np.asarray([c.errors for c in table], dtype=Int)
    if min_f is not None:  # only pairs with F above it are mapped
        threshold = Fraction(str(min_f))
        keep = np.asarray([c.f_exact(beta_squared) > threshold for c in table], dtype=bool)
        wanted = keep[combo]
        all_codes, combo = all_codes[wanted], combo[wanted]
    ii = all_codes // max(1, n_hyp)
    jj = all_codes % max(1, n_hyp)
    order = np.lexsort((jj, ii, err_key[combo], cor_key[combo], f_key[combo]))
    chosen = _scan(ii[order], jj[order], n_ref, n_hyp)
    del order, combo
    results: list[Chosen] = [([], {}) for _ in range(n_groups)]
    for i, j in chosen:
        g = ref_group[i]
        results[g][0].append((i - ref_start[g], j - hyp_start[g]))
    if verified is not None and plain_combo is not None and chosen:
        plain = (
            np.asarray([s is not None for s in ref_shapes], dtype=bool),
            np.asarray([s is not None for s in hyp_shapes], dtype=bool),
        )
        sids = (ref_sid, hyp_sid, max(1, n_hyp_shapes))
        counted = _counted(mapper, chosen, n_hyp, plain, plain_codes, plain_combo, table, sids, verified, examples)
        for (i, j), entry in counted.items():
            if (i, j) not in matched:
                g = ref_group[i]
                results[g][1][i - ref_start[g], j - hyp_start[g]] = entry
        del verified, plain_combo
    for (i, j), m in matched.items():
        g = ref_group[i]
        results[g][1][i - ref_start[g], j - hyp_start[g]] = m
    if min_f is not None and min_f > 0:
        return results  # pairs with F = 0 are never mapped
    positive: list[Any] = []  # the codes of the pairs with a COR (a set, or sorted), made when first asked

    def has_cor(code: int) -> bool:
        if not positive:
            positive.append(set(all_codes.tolist()) if len(all_codes) <= 1 << 20 else np.sort(all_codes))
        known = positive[0]
        if isinstance(known, set):
            return code in known
        at = int(np.searchsorted(known, code))
        return at < len(known) and int(known[at]) == code

    counting = mapper.counting
    for g, (pairs, _) in enumerate(results):
        if len(pairs) == min(ref_sizes[g], hyp_sizes[g]):
            continue  # every instance of a side is mapped: nothing left over
        r0, h0 = ref_start[g], hyp_start[g]

        def errors_without_cor(i: int, j: int, r0: int = r0, h0: int = h0) -> int | None:
            if has_cor((r0 + i) * n_hyp + h0 + j):
                return None  # this pair has a COR
            if counting:  # the counts of its two shapes, kept for every pair of them
                make = lambda: match(r0 + i, h0 + j)  # noqa: E731
                return mapper.counted_without_cor(shape(r0 + i, True), shape(h0 + j, False), make)[0].errors
            return match(r0 + i, h0 + j).counts.errors

        ref_class = _LazyShapes(lambda i, r0=r0: shape(r0 + i, True), ref_sizes[g])  # type: ignore[misc]
        hyp_class = _LazyShapes(lambda j, h0=h0: shape(h0 + j, False), hyp_sizes[g])  # type: ignore[misc]
        try:
            cor_free = greedy_by_class(
                ref_sizes[g],
                hyp_sizes[g],
                {i for i, _ in pairs},
                {j for _, j in pairs},
                (ref_class, hyp_class),
                errors_without_cor,
                max_pairs,
            )
        except TooManyPairs as error:
            raise error.moved(g) from None
        if counting:  # these pairs have no COR: their points are those of their shapes
            counted_pairs = results[g][1]
            for i, j in cor_free:
                counted_pairs[i, j] = mapper.counted_without_cor(
                    ref_class[i],
                    hyp_class[j],
                    lambda i=r0 + i, j=h0 + j: match(i, j),  # type: ignore[misc]
                    chosen=True,
                )
        pairs += cor_free
    return results


MAX_ASPECT_BITS = 62  # (slot, aspect) whose COR fit in the bits of an int64 (beyond: match records)
_KIND_OF_ASPECT = {"c": "content", "w": "content", "x": "extent", "p": "pointer"}


def _aspect_bits(mapper: Mapper, aspects: Sequence[_Aspect]) -> list[int] | None:
    """The bit of each aspect's (slot, kind) in the masks of COR aspects (``Mapper.aspect_bits``,
    the same in every call); None when there are more than :data:`MAX_ASPECT_BITS`."""
    bits = []
    for aspect in aspects:
        bit = aspect_bit(mapper, aspect.slot, _KIND_OF_ASPECT[aspect.kind])
        if bit is None:
            return None
        bits.append(bit)
    return bits


def _counted(
    mapper: Mapper,
    chosen: Sequence[tuple[int, int]],
    n_hyp: int,
    plain: tuple[np.ndarray, np.ndarray],
    plain_codes: np.ndarray,
    plain_combo: np.ndarray,
    table: Sequence[Counts],
    sids: tuple[np.ndarray, np.ndarray, int],
    verified: tuple[np.ndarray, np.ndarray],
    examples: Mapping[int, InstanceMatch],
) -> dict[tuple[int, int], tuple[Counts, int]]:
    """(counts, points' signature) of each chosen pair of two plain instances with a COR,
    without its match record, for a mapper that only counts (``Mapper.counting``).

    Two plain pairs of the same two shapes have the same points in the same order
    (``Mapper._shape``), but for which compared points are COR: so the points of such a
    pair are those of the match of one pair of its shapes (``examples``, made for the
    counts), each compared point (a fill pair's, COR or INC) COR when its slot and
    aspect is among the pair's COR codes (``verified``: the codes and the bit of their
    aspect, :func:`_aspect_bits`).
    """
    ci = np.asarray([i for i, _ in chosen], dtype=Int)
    cj = np.asarray([j for _, j in chosen], dtype=Int)
    keep = plain[0][ci] & plain[1][cj]
    ci, cj = ci[keep], cj[keep]
    if not len(ci):
        return {}
    codes = ci * n_hyp + cj
    at = np.searchsorted(plain_codes, codes)  # every chosen plain pair has a COR: it is there
    ref_sid, hyp_sid, n_hyp_shapes = sids
    pair_ids = ref_sid[ci] * n_hyp_shapes + hyp_sid[cj]
    every, bit_of = verified
    wanted, where = chosen_places(every, n_hyp, ci, cj, len(plain[0]))
    masks = np.zeros(len(codes), dtype=Int)
    np.bitwise_or.at(masks, where, np.left_shift(np.ones(1, dtype=Int), bit_of[wanted]))
    templates: dict[int, int] = {}  # shape pair -> the number of its template (Mapper.templates)
    # the pairs of one shape pair and one mask have the same points: each distinct (shape
    # pair, mask) worked out once, in the order of its first pair (the numbers of templates
    # and signatures are given in that order)
    combos = plain_combo[at]
    firsts, inverse = distinct_combos(pair_ids, masks)
    founds: list[tuple[Counts, int]] = []
    for k in firsts.tolist():
        pair = int(pair_ids[k])
        template = templates.get(pair)
        if template is None:
            template = templates[pair] = mapper.template(point_template(examples[pair]))
        founds.append(counted_with(mapper, template, int(masks[k]), table[int(combos[k])]))
    return dict(zip(zip(ci.tolist(), cj.tolist(), strict=True), map(founds.__getitem__, inverse.tolist()), strict=True))


def chosen_places(
    codes: np.ndarray, n_hyp: int, ci: np.ndarray, cj: np.ndarray, n_ref: int
) -> tuple[np.ndarray, np.ndarray]:
    """Which of the pair ``codes`` (``i * n_hyp + j``) are chosen pairs (``ci[k]``, ``cj[k]``),
    and the place ``k`` of each of those. The greedy takes a reference instance once, so its
    one partner is looked up by index: no sort of the codes (``numpy.isin`` sorted both
    arrays, a few milliseconds a run of a million-word count; its route is this one's oracle
    in the tests). It needs what the greedy gives: no reference instance twice in ``ci``,
    every code's reference index below ``n_ref``, and ``n_hyp > 0`` when there are codes."""
    place = np.full(n_ref, -1, dtype=Int)  # of each reference instance, its chosen pair's place
    place[ci] = np.arange(len(ci), dtype=Int)
    ref_of = codes // n_hyp
    where = place[ref_of]
    wanted = where >= 0
    wanted[wanted] = cj[where[wanted]] == codes[wanted] - ref_of[wanted] * n_hyp
    return wanted, where[wanted]


def point_template(example: InstanceMatch) -> tuple[tuple[str, str, str], ...]:
    """(slot, kind, category) of the points of ``example``, the category "" for a compared
    point (a fill pair's: COR or INC)."""
    points = []
    for slot in example.slots:
        name = slot.name
        for i, j, verdicts in slot.pairs:
            compared = i is not None and j is not None
            for verdict in verdicts:
                points.append((name, verdict.kind, "" if compared else verdict.category))
    return tuple(points)


def points_with(
    template: tuple[tuple[str, str, str], ...], mask: int, bits: Mapping[tuple[str, str], int]
) -> tuple[tuple[str, str, str], ...]:
    """The points of a template, each compared point COR when the bit of its (slot, kind)
    is set in ``mask``, else INC."""
    return tuple(
        [
            (slot, kind, category or ("COR" if mask >> bits.get((slot, kind), 63) & 1 else "INC"))
            for slot, kind, category in template
        ]
    )


def _shape_numbers(shapes: Sequence[Any], used: np.ndarray) -> tuple[np.ndarray, int]:
    """``[numbers.setdefault(shapes[i], len(numbers)) for i in used]`` from ``numbers = {}``
    (the shapes numbered by value, in order of first sight), as an array, and how many
    numbers there are: each distinct shape object hashed once (the shapes of a table's
    instances are one object per distinct shape; a shape's hash, of nested tuples, is not
    kept), the others found by ``id`` in numpy."""
    picked = list(map(shapes.__getitem__, used.tolist()))
    ids = np.fromiter(map(id, picked), dtype=Int, count=len(picked))
    _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    numbers: dict[Any, int] = {}
    by_object = np.empty(len(first), dtype=Int)
    for k in np.argsort(first, kind="stable").tolist():  # the distinct objects in order of first sight
        by_object[k] = numbers.setdefault(picked[int(first[k])], len(numbers))
    return by_object[inverse.reshape(-1)], len(numbers)


def _estimates(aspects: Sequence[_Aspect], n_groups: int) -> np.ndarray:
    """The number of candidate pairs of each group: what the arrays will hold."""
    estimate = np.zeros(n_groups, dtype=Int)
    for aspect in aspects:
        estimate += aspect.count(n_groups)
    return estimate


def _lower_bounds(mapper: Mapper, groups: Sequence[Group], max_pairs: int) -> list[int]:
    """A lower bound of each group's candidate pairs, from the content strings as written
    (:mod:`hub4eval.scoring.refusal`): zero when the rule does not apply, and for a group
    whose instance pairs are too few for the bound to pass ``max_pairs`` unless its
    instances have more than :data:`~hub4eval.scoring.refusal.EARLY_SLOTS` slots (the
    usual document: its count is left to the estimate)."""
    how = mapper.how
    if not how.content or how.noisy or not mapper.hyp_prep.normalizes_like(mapper.ref_prep):
        return [0] * len(groups)
    unscored = mapper.unscored
    bounds = []
    for group in groups:
        if not may_be_refused(len(group.refs), len(group.hyps), max_pairs):
            bounds.append(0)
            continue
        ref_counts = written_contents(group.refs, unscored, True)
        hyp_counts = written_contents(group.hyps, unscored, False) if ref_counts else {}
        bounds.append(pairs_alike(ref_counts, hyp_counts))
    return bounds


class _LazyShapes(Sequence[Any]):
    """``[shape(i) for i in range(n)]``, each made when first read."""

    __slots__ = ("_shape", "_n")

    def __init__(self, shape: Callable[[int], Any], n: int) -> None:
        self._shape = shape
        self._n = n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self._shape(index)


def _scan(ii: np.ndarray, jj: np.ndarray, n_ref: int, n_hyp: int) -> list[tuple[int, int]]:
    """The greedy's scan of pairs in rank order: each pair whose two instances are free.

    A block of pairs at a time: the pairs of a block with an instance taken
    before the block are dropped in numpy, and only the rest is scanned.
    """
    used_ref = np.zeros(n_ref, dtype=bool)
    used_hyp = np.zeros(n_hyp, dtype=bool)
    chosen: list[tuple[int, int]] = []
    room = min(n_ref, n_hyp)
    block = 1 << 15
    for start in range(0, len(ii), block):
        bi, bj = ii[start : start + block], jj[start : start + block]
        live = ~(used_ref[bi] | used_hyp[bj])
        taken_ref: set[int] = set()
        taken_hyp: set[int] = set()
        for i, j in zip(bi[live].tolist(), bj[live].tolist(), strict=True):
            if i in taken_ref or j in taken_hyp:
                continue
            taken_ref.add(i)
            taken_hyp.add(j)
            chosen.append((i, j))
        if taken_ref:
            used_ref[list(taken_ref)] = True
            used_hyp[list(taken_hyp)] = True
        if len(chosen) == room:
            break
    return chosen


def aspect_bit(mapper: Mapper, slot: str, kind: str) -> int | None:
    """The bit of (``slot``, ``kind``) ("content", "extent", "pointer") in the masks of COR
    aspects (``Mapper.aspect_bits``, as :func:`_aspect_bits` gives it, the same in every
    call); None when there are more than :data:`MAX_ASPECT_BITS`."""
    known = mapper.aspect_bits
    bit = known.get((slot, kind))
    if bit is None:
        if len(known) >= MAX_ASPECT_BITS:
            return None
        bit = known[slot, kind] = len(known)
    return bit


def distinct_combos(pair_ids: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (shape pair, mask) of pairs, as :func:`_counted` finds them: the first pair
    of each, in the order of the pairs, and of each pair the place of its combination's first
    pair in that order."""
    top = int(masks.max()) + 1 if len(masks) else 1
    if len(pair_ids) and int(pair_ids.min()) >= 0 and int(pair_ids.max()) < (1 << 62) // top:
        # one key, one sort (by shape pair, then mask)
        _, firsts, numbers = np.unique(pair_ids * top + masks, return_index=True, return_inverse=True)
        numbers = numbers.reshape(-1)
    else:
        by_key = np.lexsort((masks, pair_ids))
        new_key = np.ones(len(by_key), dtype=bool)
        new_key[1:] = (np.diff(pair_ids[by_key]) != 0) | (np.diff(masks[by_key]) != 0)
        firsts = by_key[new_key]
        numbers = np.empty(len(by_key), dtype=Int)
        numbers[by_key] = np.cumsum(new_key) - 1
    order = np.argsort(firsts, kind="stable")
    rank = np.empty(len(firsts), dtype=Int)
    rank[order] = np.arange(len(firsts), dtype=Int)
    return firsts[order], rank[numbers]


def counted_with(mapper: Mapper, template: int, mask: int, expected: Counts | None = None) -> tuple[Counts, int]:
    """(counts, number of the signature) of the points of template number ``template``
    (``Mapper.templates``) with each compared point COR when the bit of its aspect is set in
    ``mask``, else INC (:func:`points_with`): worked out once per mapper (``Mapper.counted_points``).
    ``expected``: the counts the caller's table gives these points, checked when worked out."""
    known = mapper.counted_points
    found = known.get((template, mask))
    if found is None:
        points = points_with(mapper.templates[template], mask, mapper.aspect_bits)
        found = known[template, mask] = (
            Counts.tally([category for _, _, category in points]),
            mapper.signature(points),
        )
        if expected is not None and found[0] != expected:  # pragma: no cover - a bug
            raise AssertionError(f"template {template}, mask {mask}: its points do not add up to its counts")
    return found
