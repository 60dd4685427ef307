"""The ceiling's diagonal count (:mod:`hub4eval.scoring.ceiling_count`) is the engine's count.

The ceiling of an unsegmented hypothesis counts the pairs of sets whose every projected
instance is provably mapped to its own reference instance without mapping them; the
oracle is the same ceiling with that shortcut off (``ceiling_count.SHORTCUT``), every
pair of sets mapped by the engine. Random plain references over the recognizer output of
the shipped unsegmented example (duplicated instances and fills, optional slots, a
second alternative now and then, unscored slots), and their projections spoiled at random
while keeping their instances (fills swapped between instances, slots dropped, an
instance made a copy of another, a set's instances reversed), so that pairs off the
diagonal tie with it, beat it, or lose to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.io.templettes import parse_templates
from hub4eval.model import Extent, FillAlternative, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill
from hub4eval.scoring import ceiling_count, projection
from hub4eval.scoring.result import ScoreResult, Tally
from hub4eval.scoring.set_extents import hyp_set_extent
from tests.support.reference_fills import _lines, reference_fill, references, with_ceiling

NAME = "asr_unsegmented"  # the diagonal count is the count of an unsegmented hypothesis's ceiling

CONFIGS = {
    "default": ScoreConfig(),
    "clean": ScoreConfig(content="clean"),
    "extent": ScoreConfig(compare="extent"),
    "content": ScoreConfig(compare="content"),
    "beta": ScoreConfig(beta=0.5),
}


@st.composite
def plain_fill(draw: st.DrawFn, docid: str) -> str:
    """A fill of one to three words of a line of document ``docid``, without minimal strings
    (now and then one that may have some: ``reference_fill``)."""
    if draw(st.integers(0, 7)) == 3:  # (not an end of the range, which hypothesis draws often)
        return draw(reference_fill(NAME, docid))
    _, text, spans = draw(st.sampled_from([line for line in _lines(NAME) if line[0] == docid]))
    i = draw(st.integers(0, len(spans) - 1))
    j = min(len(spans) - 1, i + draw(st.integers(0, 2)))
    content = text[spans[i][0] : spans[j][1]]
    if any(c in content for c in '"[]#'):
        j = i
    start, end = spans[i][0], spans[j][1]
    return f'"{text[start:end]}" ##{start}#{end}#'


@st.composite
def plain_references(draw: st.DrawFn) -> str:
    """A reference templette file of events only (no pointer: the instances the diagonal
    count reads), some events copies of earlier ones, some fills repeated, most fills
    without minimal strings and slots of one alternative (the others are left to the engine)."""
    docids = list(dict.fromkeys(docid for docid, _, _ in _lines(NAME)))
    out = []
    for docid in docids[: draw(st.integers(1, len(docids)))]:
        events: list[list[str]] = []
        for _ in range(draw(st.integers(1, 6))):
            roll = draw(st.integers(0, 9))
            if roll == 0 and events:  # a copy of an earlier event
                events.append(list(draw(st.sampled_from(events))))
                continue
            lines = []
            for slot in ("WINNER", "LOSER", "PLACE")[: draw(st.integers(1, 3))]:
                optional = "? " if draw(st.integers(0, 4)) == 0 else ""
                earlier = [line for event in events for line in event if line.startswith(f"    {slot}: ")]
                if earlier and draw(st.integers(0, 3)) == 0:  # a fill of an earlier event again
                    lines.append(draw(st.sampled_from(earlier)))
                    continue
                lines.append(f"    {slot}: {optional}{draw(plain_fill(docid))}")
                if draw(st.integers(0, 11)) == 5:  # a second alternative (now and then)
                    lines.append(f"         / {draw(plain_fill(docid))}")
            if draw(st.integers(0, 5)) == 0:
                lines.append("    OBJ_STATUS: OPTIONAL")
            events.append(lines)
        for number, lines in enumerate(events, 1):
            out += [f"<EVENT-{docid}-{number}> :=", *lines, ""]
    return "\n".join(out) + "\n"


def _spoiled(tset: TemplateSet, seed: int) -> TemplateSet:
    """The projection with its instances kept (their number and types, in each set) and their
    slots spoiled: swapped between two instances, dropped, copied from another instance,
    or a set's instances reversed."""
    rng = random.Random(seed)
    sets = []
    for iset in tset.instance_sets:
        slots = [list(inst.slots) for inst in iset.instances]
        n = len(slots)
        for _ in range(rng.randint(0, 2)):
            roll = rng.random()
            a, b = rng.randrange(n), rng.randrange(n)
            if roll < 0.3 and slots[a] and slots[b]:  # a slot of each swapped
                i, j = rng.randrange(len(slots[a])), rng.randrange(len(slots[b]))
                slots[a][i], slots[b][j] = slots[b][j], slots[a][i]
            elif roll < 0.5 and slots[a]:
                del slots[a][rng.randrange(len(slots[a]))]
            elif roll < 0.7:
                slots[a] = list(slots[b])
            elif roll < 0.8:
                slots.reverse()
            elif slots[a]:  # a slot renamed: it no longer pairs with its reference slot
                i = rng.randrange(len(slots[a]))
                slots[a][i] = Slot(rng.choice(("WINNER", "LOSER", "PLACE")), slots[a][i].alternatives)
        instances = tuple(
            Instance(inst.type, inst.docid, inst.number, tuple(mine))
            for inst, mine in zip(iset.instances, slots, strict=True)
        )
        sets.append(InstanceSet(iset.docid, instances))
    return TemplateSet(tuple(sets), role="hypothesis", path=tset.path)


def _scored(ref_text: str, config: ScoreConfig, seed: int | None, shortcut: bool) -> ScoreResult:
    project = projection.project

    def spoiled_projection(*args: Any, **kwargs: Any) -> TemplateSet:
        made = project(*args, **kwargs)
        return made if seed is None else _spoiled(made, seed)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection, "project", spoiled_projection)
        patched.setattr(ceiling_count, "SHORTCUT", shortcut)
        return with_ceiling(NAME, ref_text, config, ceiling_counts=True)


def _same_ceiling(counted: ScoreResult, oracle: ScoreResult) -> None:
    mine, theirs = counted.ceiling, oracle.ceiling
    assert mine is not None and theirs is not None
    assert mine.projection == theirs.projection
    a, b = mine.tally, theirs.tally
    assert isinstance(a, Tally) and isinstance(b, Tally)
    assert {k: list(v.items()) for k, v in a.levels.items()} == {k: list(v.items()) for k, v in b.levels.items()}
    assert list(a.instance_pairs) == list(b.instance_pairs)
    assert a.set_pairs == b.set_pairs
    assert a.set_counts == b.set_counts
    assert mine.slot_errors == theirs.slot_errors
    assert counted.ceiling_summary() == oracle.ceiling_summary()
    assert counted.causes == oracle.causes


def _counting_sets() -> tuple[list[int], Callable[[], None]]:
    """A list that gets, at each diagonal count, the number of pairs of sets it counted."""
    counted: list[int] = []
    original = ceiling_count.Diagonal.__call__

    def call(self: ceiling_count.Diagonal, overlapping: Any) -> Any:
        found = original(self, overlapping)
        counted.append(len(found))
        return found

    patched = pytest.MonkeyPatch()
    patched.setattr(ceiling_count.Diagonal, "__call__", call)
    return counted, patched.undo


@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(ref_text=plain_references(), seed=st.one_of(st.none(), st.integers(0, 2**32 - 1)))
def test_the_diagonal_count_is_the_engines_count(config: str, ref_text: str, seed: int | None) -> None:
    _same_ceiling(_scored(ref_text, CONFIGS[config], seed, True), _scored(ref_text, CONFIGS[config], seed, False))


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_the_diagonal_count_counts_the_usual_projection_without_the_engine(config: str) -> None:
    """A reference of plain events projected as it is: every pair of sets is counted by the
    diagonal count (the check can pass), and the count is the engine's."""
    ref_text = _usual_reference()
    counted, undo = _counting_sets()
    try:
        fast = _scored(ref_text, CONFIGS[config], None, True)
    finally:
        undo()
    sets = len(parse_templates(ref_text, role="reference").instance_sets)
    assert counted == [sets]
    _same_ceiling(fast, _scored(ref_text, CONFIGS[config], None, False))


def test_a_set_whose_instances_compete_is_left_to_the_engine() -> None:
    """A projection whose instances are reversed in every set: the pairs off the diagonal (each
    projected instance with its own reference instance) beat the diagonal, so no pair of sets
    of more than one instance is counted without the engine, and the counts are the engine's."""
    ref_text = _usual_reference()
    ref = parse_templates(ref_text, role="reference")
    project = projection.project

    def reversed_projection(*args: Any, **kwargs: Any) -> TemplateSet:
        made = project(*args, **kwargs)
        return TemplateSet(
            tuple(InstanceSet(s.docid, tuple(reversed(s.instances))) for s in made.instance_sets),
            role="hypothesis",
            path=made.path,
        )

    counted, undo = _counting_sets()
    try:
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(projection, "project", reversed_projection)
            fast = with_ceiling(NAME, ref_text, ScoreConfig(), ceiling_counts=True)
            patched.setattr(ceiling_count, "SHORTCUT", False)
            oracle = with_ceiling(NAME, ref_text, ScoreConfig(), ceiling_counts=True)
    finally:
        undo()
    singles = sum(len(s.instances) == 1 for s in ref.instance_sets)
    assert counted and counted[0] == singles < len(ref.instance_sets)
    _same_ceiling(fast, oracle)


def test_the_projections_set_extents_are_those_of_its_sets() -> None:
    """The set extents read with the projection's fills (one walk) are :func:`hyp_set_extent`'s of
    each set (its strings kept by then)."""
    seen: list[tuple[list[Any], list[Any]]] = []
    original = ceiling_count.ProjectionFills.of

    def of(tset: TemplateSet, unscored: frozenset[str], prep: Any, keep: Any) -> Any:
        fills = original(tset, unscored, prep, keep)
        assert fills is not None
        seen.append((fills.set_extents, [hyp_set_extent(iset, prep) for iset in tset.instance_sets]))
        return fills

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(ceiling_count.ProjectionFills, "of", of)
        with_ceiling(NAME, _usual_reference(), ScoreConfig(), ceiling_counts=True)
    assert len(seen) == 1
    assert seen[0][0] == seen[0][1]
    assert any(extent is not None for extent in seen[0][0])


def _usual_reference() -> str:
    """Three plain events in each document of the example, one word each (of its first lines)."""
    out = []
    by_doc: dict[str, list[tuple[str, tuple[int, int]]]] = {}
    for docid, text, spans in _lines(NAME):
        by_doc.setdefault(docid, []).extend((text, span) for span in spans)
    for docid, words in by_doc.items():
        for number in range(1, 4):
            out.append(f"<EVENT-{docid}-{number}> :=")
            for k, slot in enumerate(("WINNER", "LOSER")):
                text, (start, end) = words[(number - 1) * 2 + k]
                out.append(f'    {slot}: "{text[start:end]}" ##{start}#{end}#')
            out.append("")
    return "\n".join(out) + "\n"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), max_size=4), max_size=12), st.sampled_from([6, 2**40]))
def test_the_shapes_are_numbered_as_first_met(sequences: list[list[int]], top: int) -> None:
    """The projection's items' shapes (``ceiling_count._numbered_runs``: each item's sequence of
    codes, as one number when it fits in 64 bits, else as a tuple) are numbered as a loop over
    the items first meets them."""
    import numpy as np

    numbers: dict[tuple[int, ...], int] = {}
    firsts = []
    for k, sequence in enumerate(sequences):
        if tuple(sequence) not in numbers:
            numbers[tuple(sequence)] = len(numbers)
            firsts.append(k)
    codes = np.asarray([code for sequence in sequences for code in sequence], dtype=np.int64)
    owners = np.asarray([k for k, sequence in enumerate(sequences) for _ in sequence], dtype=np.int64)
    shape, found_firsts = ceiling_count._numbered_runs(codes, owners, len(sequences), top)
    assert shape.tolist() == [numbers[tuple(sequence)] for sequence in sequences]
    assert found_firsts == firsts


def _read_one_by_one(
    items: list[Instance], unscored: frozenset[str], get: Any, normalize: Any, keep: Any
) -> tuple[list[str], list[tuple[int, int, int, int, int]], list[str], list[int]]:
    """The oracle of ``ceiling_count.read_fills``: its loop of before, one fill at a time (the
    contents, the (item, slot, number, start, end) of each fill read, the scored slots' names,
    the odd items)."""
    slot_ids: dict[str, int] = dict.fromkeys(unscored, -1)
    contents: list[str] = []
    rows: list[tuple[int, int, int, int, int]] = []
    odd: list[int] = []
    none = ceiling_count.NONE
    for k, inst in enumerate(items):
        plain = True
        for slot in inst.slots:
            alternatives = slot.alternatives
            first = alternatives[0].fills[0] if len(alternatives) == 1 and len(alternatives[0].fills) == 1 else None
            if isinstance(first, TextFill):
                fill = first
                norm = get(fill.content) or keep(fill.content) or normalize(fill.content)
                start = end = none
                if fill.extents:
                    start, end = fill.extents[0].start, fill.extents[0].end
                    if norm[1]:
                        start = min(start + norm[1], end)
                sid = slot_ids.setdefault(slot.name, len([s for s in slot_ids.values() if s >= 0]))
                if sid >= 0 or fill.extents:
                    contents.append(fill.content)
                    rows.append((k, sid, norm[4], start, end))
                continue
            if slot.name not in unscored:
                plain = False
            for alternative in alternatives:
                for other in alternative.fills:
                    if not isinstance(other, TextFill):
                        continue
                    norm = get(other.content) or keep(other.content) or normalize(other.content)
                    if other.extents:
                        start, end = other.extents[0].start, other.extents[0].end
                        if norm[1]:
                            start = min(start + norm[1], end)
                        contents.append(other.content)
                        rows.append((k, -1, norm[4], start, end))
        if not plain:
            odd.append(k)
    return contents, rows, [name for name, sid in slot_ids.items() if sid >= 0], odd


class _Memo:
    """A preparer's memo of normalized strings as ``read_fills`` reads it (``get``, ``normalize``)
    and the judge's normalizations it is given (``keep``): (text, premodifier characters
    removed, -, -, number); a string is numbered when first normalized (here or by the judge)."""

    def __init__(self, known: list[str], judged: list[str]) -> None:
        self.numbers = 0
        self.texts: dict[str, tuple[str, int, None, None, int]] = {}
        self.judged: dict[str, tuple[str, int, None, None, int]] = {}
        for raw in known:
            self.texts.setdefault(raw, self._made(raw))
        for raw in judged:
            self.judged.setdefault(raw, self.texts.get(raw) or self._made(raw))
        self.calls: list[tuple[str, str]] = []

    def _made(self, raw: str) -> tuple[str, int, None, None, int]:
        self.numbers += 1
        removed = len(raw) - len(raw.removeprefix("the ")) if raw != "the " else 0
        return (raw.removeprefix("the "), removed, None, None, self.numbers)

    def get(self, raw: str) -> Any:
        return self.texts.get(raw)

    def keep(self, raw: str) -> Any:
        found = self.judged.get(raw)
        if found is not None:
            self.calls.append(("keep", raw))
            return self.texts.setdefault(raw, found)
        return None

    def normalize(self, raw: str) -> Any:
        self.calls.append(("normalize", raw))
        made = self.texts[raw] = self._made(raw)
        return made


_STRINGS = ("the cup", "cup", "the", "the big one", "a cup", "one")


@st.composite
def _items(draw: st.DrawFn) -> list[Instance]:
    """Instances of usual slots (one text fill, with an extent or not) and others (pointers,
    several fills or alternatives, no alternative), slot names repeated, some unscored."""
    items = []
    for number in range(draw(st.integers(0, 6))):
        slots = []
        for _ in range(draw(st.integers(0, 4))):
            name = draw(st.sampled_from(("A", "B", "C", "UNSCORED")))
            kind = draw(st.integers(0, 9))
            fills: list[Any] = []
            for _ in range(1 if kind < 6 else draw(st.integers(0, 3))):
                if kind == 9 and draw(st.booleans()):
                    fills.append(PointerFill("EVENT", "D", 1))
                    continue
                content = draw(st.sampled_from(_STRINGS))
                start = draw(st.integers(0, 50))
                extent = () if draw(st.integers(0, 4)) == 0 else (Extent(start, start + draw(st.integers(0, 9))),)
                fills.append(TextFill(content, ((0, len(content)),), extent, extent[:1]))
            alternatives: tuple[FillAlternative, ...] = (FillAlternative(tuple(fills)),)
            if kind == 8:
                alternatives += (FillAlternative(tuple(fills[:1])),)
            elif kind == 7 and draw(st.booleans()):
                alternatives = ()
            slots.append(Slot(name, alternatives))
        items.append(Instance("EVENT", "D", number + 1, tuple(slots)))
    return items


@settings(max_examples=300, deadline=None)
@given(
    _items(),
    st.lists(st.sampled_from(_STRINGS), max_size=4),
    st.lists(st.sampled_from(_STRINGS), max_size=4),
    st.sampled_from([frozenset(), frozenset({"UNSCORED"}), frozenset({"UNSCORED", "B"})]),
)
def test_the_projections_fills_are_read_as_one_by_one(
    items: list[Instance], known: list[str], judged: list[str], unscored: frozenset[str]
) -> None:
    """``read_fills`` (a walk that gathers the fills, then each column at once) reads what a
    loop over the fills one at a time reads, and keeps and normalizes the same strings in the
    same order (the texts are numbered in that order)."""
    import numpy as np

    mine, theirs = _Memo(known, judged), _Memo(known, judged)
    read = ceiling_count.read_fills(items, unscored, mine.get, mine.normalize, mine.keep)
    contents, rows, names, odd = _read_one_by_one(items, unscored, theirs.get, theirs.normalize, theirs.keep)
    columns = np.stack([read.fill_item, read.fill_slot, read.numbers, read.starts, read.ends], axis=1)
    assert [tuple(row) for row in columns.tolist()] == rows
    assert read.contents == contents
    assert read.slot_names == names
    assert read.odd == odd
    assert mine.calls == theirs.calls
    assert list(mine.texts.items()) == list(theirs.texts.items())


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(plain=plain_references(), pointing=references(NAME))
def test_the_ceilings_order_of_types_read_from_the_reference_table_is_type_orders(plain: str, pointing: str) -> None:
    """The ceiling's order of types, read from the system count's reference table when it holds
    every reference instance, each complete (no pointer), is :func:`type_order`'s of the
    reference; a reference with pointers (its TEMPLATE instances) has it from ``type_order``,
    and the usual plain reference from the table."""
    from hub4eval.scoring import pipeline
    from hub4eval.scoring.mapping import type_order

    original = pipeline._ceiling_order
    seen: list[tuple[tuple[str, ...], tuple[str, ...], bool]] = []

    def order(ref: TemplateSet, table: Any = None) -> tuple[str, ...]:
        found = original(ref, table)
        complete = table is not None and bool(table.complete.all())
        seen.append((found, type_order(ref, TemplateSet((), role="hypothesis")), complete))
        return found

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(pipeline, "_ceiling_order", order)
        for ref_text in (plain, pointing, _usual_reference()):
            # (as ``hub4eval score`` scores: the system's mapping counted, with its reference table)
            with_ceiling(NAME, ref_text, ScoreConfig(), ceiling_counts=True, counts_only=True)
    assert len(seen) == 3
    assert all(found == oracle for found, oracle, _ in seen)
    assert not seen[1][2]  # pointers: not read from the table
    assert seen[2][2]  # read from the table


def test_a_reference_table_of_other_instances_is_not_read_for_the_order() -> None:
    """The table is read for the ceiling's order only when it holds the reference's very
    instances, in order (not equal copies, fewer, or others)."""
    from hub4eval.scoring import pipeline

    ref = parse_templates(_usual_reference(), role="reference")
    mine = list(ref.instances)
    copies = list(parse_templates(_usual_reference(), role="reference").instances)
    assert copies == mine
    assert pipeline._holds_exactly(mine, ref)
    assert not pipeline._holds_exactly(copies, ref)
    assert not pipeline._holds_exactly(mine[:-1], ref)
    assert not pipeline._holds_exactly(mine[::-1], ref)
