"""The fills of a template set read once into a table (hub4eval.scoring.fill_tables) count as
the fills read run by run.

The oracle is the engine's own reading of a run's instances one by one
(``pairs._fills_by_slot`` with ``pairs.TABLES`` off), which
tests/scoring/test_pairs.py checks against every pair counted through its record: with
tables, a count keeps the same tallies, pairs and orders, with and without texts, the
hypothesis unsegmented or not, and the ceiling (which counts the same reference again,
from the table the system's count made) the same.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, FillAlternative, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill
from hub4eval.scoring import fill_tables, pairs, pipeline
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.result import Tally
from tests.scoring.test_pairs import _texts_configs, _two_documents
from tests.support.strategies import SLOTS, template_sets, text_fills


def _counted(ref, hyp, config, monkeypatch, tables: bool, **texts) -> list:
    """What a count keeps (``Tally.of``, orders included), and the ceiling's tally when texts are given."""
    with monkeypatch.context() as patch:
        patch.setattr(pairs, "TABLES", tables)
        result = pipeline.score(
            ref, hyp, config=config, ceiling=bool(texts), counts_only=True, ceiling_counts=True, **texts
        )
    tally = Tally.of(result)
    levels = [(level, list(groups.items())) for level, groups in tally.levels.items()]
    out = [levels, tally.instance_pairs, tally.set_pairs, tally.set_counts]
    if result.ceiling is not None:
        ceiling = Tally.of(result.ceiling)
        out += [list(ceiling.levels.items()), ceiling.instance_pairs, ceiling.set_pairs]
        out.append(sorted((key, sorted(kinds)) for key, kinds in (result.ceiling.slot_errors or {}).items()))
    return out


def _spy(monkeypatch) -> list[bool]:
    """Whether each run of instances was found in a table."""
    found: list[bool] = []
    lookup = fill_tables.lookup

    def spied(*args, **kwargs):
        result = lookup(*args, **kwargs)
        found.append(result is not None)
        return result

    monkeypatch.setattr(fill_tables, "lookup", spied)
    return found


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.one_of(template_sets(reference=True, max_events=8, plain=True), template_sets(reference=True, max_events=6)),
    st.one_of(template_sets(reference=False, max_events=8, plain=True), template_sets(reference=False, max_events=6)),
    st.sampled_from(["both", "content", "extent"]),
    st.sampled_from(["clean", "noisy"]),
    st.sampled_from([None, 0.5]),
)
def test_counts_from_tables_are_those_read_instance_by_instance(monkeypatch, ref, hyp, compare, content, min_f):
    """Without texts (extents compared as offsets): plain instances, and any (pointers,
    alternatives, minimal strings), whose runs are read instance by instance."""
    config = ScoreConfig(compare=compare, content=content, min_map_f=min_f)
    expected = _counted(ref, hyp, config, monkeypatch, False)
    assert _counted(ref, hyp, config, monkeypatch, True) == expected


@pytest.mark.parametrize("unsegmented", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_counts_from_tables_are_those_read_instance_by_instance_when_the_texts_differ(monkeypatch, seed, unsegmented):
    """Texts that differ (extents mapped to alignment columns at once, noisy word keys), and
    the ceiling's count of the same reference; most runs are read from tables."""
    inputs = _two_documents(seed, unsegmented)
    ref, hyp = inputs.pop("ref"), inputs.pop("hyp")
    for config in _texts_configs(unsegmented):
        expected = _counted(ref, hyp, config, monkeypatch, False, **inputs)
        with monkeypatch.context() as patch:
            found = _spy(patch)
            assert _counted(ref, hyp, config, monkeypatch, True, **inputs) == expected
        assert True in found  # the tables were read (the test can fail)


def _json(ref, hyp, monkeypatch, tables: bool, **texts) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(pairs, "TABLES", tables)
        return json.dumps(
            pipeline.score(ref, hyp, config=ScoreConfig(unsegmented=True), **texts).to_json(), sort_keys=True
        )


@pytest.mark.parametrize("seed", range(3))
def test_a_score_with_its_points_is_unchanged_by_tables(monkeypatch, seed):
    """The JSON of a score, every point and the ceiling (its counts without records)."""
    inputs = _two_documents(seed, True)
    ref, hyp = inputs.pop("ref"), inputs.pop("hyp")
    expected = _json(ref, hyp, monkeypatch, False, **inputs)
    assert _json(ref, hyp, monkeypatch, True, **inputs) == expected


def _instance(number: int, slots: tuple[Slot, ...]) -> Instance:
    return Instance("EV", "D1", number, slots)


def _text(content: str, start: int) -> FillAlternative:
    extents = (Extent(start, start + len(content)),)
    return FillAlternative((TextFill(content, ((0, len(content)),), extents, extents),))  # as the reader makes it


def test_an_instance_is_covered_only_when_each_scored_slot_holds_one_text_fill():
    """A pointer, several fills or alternatives (a reference's), or minimal strings of its own
    leave the instance out (its run is read instance by instance); an unscored slot or a
    second slot of a name is not read, and makes the instance not complete (its set's
    extent is then worked out from the instance itself)."""
    usual = Slot("WINNER", (_text("the bulls", 10),))
    extent = (Extent(0, 9),)
    bracketed = Slot("WINNER", (FillAlternative((TextFill("the bulls", ((4, 9),), extent, extent),)),))
    instances = [
        _instance(1, (usual, Slot("LOSER", (_text("jazz", 30),)))),
        _instance(2, (usual, Slot("LOSER", (FillAlternative((PointerFill("EV", "D1", 1),)),)))),
        _instance(3, (Slot("WINNER", (_text("a", 1), _text("b", 2))),)),
        _instance(4, (bracketed,)),
        _instance(5, (usual, Slot("COMMENT", (_text("note", 50),)))),
        _instance(6, (usual, Slot("WINNER", (_text("twice", 60),)))),
        _instance(7, ()),
    ]
    prep = FillPreparer(ScoreConfig(), reference=True)
    table = fill_tables.FillTable(prep, instances, True, frozenset({"COMMENT"}), None)
    assert table.covered.tolist() == [True, False, False, False, True, True, True]
    assert table.complete.tolist() == [True, False, False, False, False, False, True]
    # instance 1's two fills, then instance 5's and 6's first WINNER: premodifiers off the starts
    assert table.fill_inst.tolist() == [0, 0, 4, 5]
    assert table.starts.tolist() == [14, 30, 14, 14]  # "the " (4 characters) removed
    assert table.shapes[0] == (("WINNER", False, (((True, True),),)), ("LOSER", False, (((True, True),),)))
    # a hypothesis slot's first alternative is read: its other alternatives make it not complete
    hyp_table = fill_tables.FillTable(
        FillPreparer(ScoreConfig(), reference=False), instances[2:3], False, frozenset(), None
    )
    assert hyp_table.covered.tolist() == [True] and hyp_table.complete.tolist() == [False]


def test_a_table_is_found_only_for_runs_it_covers_read_alike():
    prep = FillPreparer(ScoreConfig(), reference=False)
    instances = [_instance(n, (Slot("WINNER", (_text(f"w{n}", n),)),)) for n in range(1, 5)]
    other = _instance(9, (Slot("WINNER", (_text("x", 1),)),))
    table = fill_tables.FillTable(prep, instances, False, frozenset(), None)
    fill_tables.register(table, prep)
    found = fill_tables.lookup(prep, instances[2:], frozenset(), None)
    assert found is not None and found[0] is table and found[1].tolist() == [2, 3]
    assert fill_tables.lookup(prep, [instances[0], other], frozenset(), None) is None  # one not in it
    assert fill_tables.lookup(prep, instances, frozenset({"LOSER"}), None) is None  # read with other slots
    assert fill_tables.lookup(FillPreparer(ScoreConfig(), reference=False), instances, frozenset(), None) is None
    assert fill_tables.kept(prep, instances, unscored=frozenset(), alignment=None)
    assert not fill_tables.kept(prep, instances[1:], unscored=frozenset(), alignment=None)
    # equal instances that are not these: a table reads its places by identity (id())
    equal = [_instance(n, (Slot("WINNER", (_text(f"w{n}", n),)),)) for n in range(1, 5)]
    assert equal == instances and fill_tables.kept(prep, equal, unscored=frozenset(), alignment=None) is None
    sets = [InstanceSet("D1", tuple(instances))]
    assert fill_tables.set_extents(prep, sets) is None  # offsets not mapped to an unsegmented text's columns
    assert fill_tables.kept(prep, TemplateSet(tuple(sets)).instances) is table


def test_the_one_lookup_of_the_tables_matches_every_criterion_given():
    """``fill_tables.kept``: the first table kept with the preparer that matches each criterion given."""
    prep = FillPreparer(ScoreConfig(), reference=True)
    instances = [_instance(n, (Slot("WINNER", (_text(f"w{n}", n),)),)) for n in range(1, 4)]
    assert fill_tables.kept(prep) is None  # none kept
    as_hypothesis = fill_tables.FillTable(prep, instances, False, frozenset(), None)
    fill_tables.register(as_hypothesis, prep)
    scored_apart = fill_tables.FillTable(prep, instances, True, frozenset({"LOSER"}), None)
    fill_tables.register(scored_apart, prep)
    assert fill_tables.kept(prep) is as_hypothesis  # the first made
    assert fill_tables.kept(prep, reference=True) is scored_apart
    assert fill_tables.kept(prep, unscored=frozenset(), reference=True) is None
    assert fill_tables.kept(prep, instances[1:], covering=True, reference=True) is scored_apart
    assert fill_tables.kept(prep, instances[1:]) is None  # not exactly these
    assert fill_tables.kept(prep, instances, alignment=object()) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 9), st.integers(0, 9)), max_size=30))
def test_spans_of_sets_are_those_min_and_max_find(spans: list[tuple[int, int, int]]):
    """``fill_tables.spans_of_sets``: of each set that has spans, in order, the place of its
    smallest (start, end) and of the first of its largest ends, as ``min()`` and ``max()``
    find them over the set's spans in order."""
    import numpy as np

    sets = sorted({s for s, _, _ in spans})
    places = {s: [k for k, (t, _, _) in enumerate(spans) if t == s] for s in sets}
    low = [min(places[s], key=lambda k: spans[k][1:]) for s in sets]
    high = [max(places[s], key=lambda k: spans[k][2]) for s in sets]
    columns = [np.asarray([span[i] for span in spans], dtype=np.int64) for i in range(3)]
    found_sets, found_low, found_high = fill_tables.spans_of_sets(*columns)
    assert found_sets.tolist() == sets
    assert [spans[k][1:] for k in found_low.tolist()] == [spans[k][1:] for k in low]
    assert found_high.tolist() == high


def _read_each(prep: FillPreparer, instances, reference: bool, unscored: frozenset[str]) -> fill_tables.FillTable:
    """A table read by the loop alone (``FillTable._read_each``), the oracle of the usual route."""
    table = object.__new__(fill_tables.FillTable)
    table.instances, table.reference, table.unscored = list(instances), reference, unscored
    table._read_each(prep)
    return table


def _table_fields(table: fill_tables.FillTable) -> list:
    import numpy as np

    arrays = ("complete", "covered", "fill_inst", "fill_rank", "numbers", "starts", "ends", "raw_starts")
    out = [getattr(table, name).tolist() for name in arrays]
    for array in (*(getattr(table, name) for name in arrays), *table.slot_fill):
        assert array.dtype in (np.int64, np.bool_)
    out += [table.shapes, table.fills, table.contents, table.docids, table.types, table.slot_names]
    out.append([at.tolist() for at in table.slot_fill])
    # instances of one shape share one shape record, as the loop makes them (ceiling_count reads their id())
    out.append([table.shapes.index(shape) for shape in table.shapes])
    return out


@st.composite
def _mostly_usual(draw, reference: bool) -> list[Instance]:
    """Instances whose slots mostly hold one text fill each (a reference's without minimal
    strings of its own, mostly), now and then one that does not: a pointer, two fills, two
    alternatives, a second slot of a name."""
    instances = []
    for number in range(1, draw(st.integers(1, 6)) + 1):
        slots = []
        for name in draw(st.lists(st.sampled_from([*SLOTS, "PLACE"]), max_size=4, unique=True)):
            fill = draw(text_fills(reference))
            if reference and draw(st.integers(0, 9)):  # the reference's usual fill
                extents, minimal, odd = fill.extents, fill.extents[:1], draw(st.integers(0, 9))
                if extents and odd == 0:
                    minimal = ()  # (its whole content, but no minimal extent ...)
                elif extents and odd == 1:
                    minimal = (Extent(extents[0].start + 1, extents[0].end + 1),)  # (... or another one ...)
                elif extents and odd == 2:  # (... or two extents, the minimal ones both or the first)
                    extents = (*extents, Extent(extents[0].start + 20, extents[0].end + 20))
                    minimal = draw(st.sampled_from([extents, extents[:1]]))
                fill = TextFill(fill.content, ((0, len(fill.content)),), extents, minimal)
            slots.append(Slot(name, (FillAlternative((fill,)),), reference and draw(st.integers(0, 4)) == 0))
        odd = draw(st.integers(0, 20))
        if slots and odd == 1:
            slots.append(slots[0])
        elif slots and odd == 2:
            slots[-1] = Slot(slots[-1].name, (FillAlternative((PointerFill("EV", "D1", 1),)),))
        elif slots and odd == 3:
            slots[-1] = Slot(slots[-1].name, (slots[-1].alternatives[0], slots[-1].alternatives[0]))
        elif slots and odd == 4:
            slots[-1] = Slot(slots[-1].name, (FillAlternative(slots[-1].alternatives[0].fills * 2),))
        docid = draw(st.sampled_from(["D1", "D2"]))
        instances.append(Instance(draw(st.sampled_from(["EV", "AGENT"])), docid, number, tuple(slots)))
    return instances


@settings(max_examples=300, deadline=None)
@given(
    st.booleans().flatmap(lambda reference: st.tuples(st.just(reference), _mostly_usual(reference))),
    st.sampled_from([frozenset(), frozenset(), frozenset({"LOSER"})]),
)
def test_a_usual_set_read_at_once_is_read_as_by_the_loop(drawn, unscored):
    """``FillTable._read_usual`` (comprehensions over every slot and fill, when each holds
    one text fill) reads what the loop reads, every array and list, or declines and leaves
    the set to the loop; the normalized strings are numbered in the same order."""
    _read_as_by_the_loop(*drawn, unscored)


def _read_as_by_the_loop(reference: bool, instances: list[Instance], unscored: frozenset[str]) -> bool:
    """Whether the usual route read ``instances`` (checked: as the loop reads them, or nothing normalized)."""
    preps = [FillPreparer(ScoreConfig(), reference=reference) for _ in range(2)]
    expected = _table_fields(_read_each(preps[0], instances, reference, unscored))
    table = object.__new__(fill_tables.FillTable)
    table.instances, table.reference, table.unscored = list(instances), reference, unscored
    read = table._read_usual(preps[1])
    if read:
        assert _table_fields(table) == expected
        assert [preps[1].normalized(c)[4] for c in table.contents] == [
            preps[0].normalized(c)[4] for c in table.contents
        ]
    else:
        written = [fill for inst in instances for slot in inst.slots for alt in slot.alternatives for fill in alt.fills]
        assert not any(preps[1].lookups()[0](fill.content) for fill in written if type(fill) is TextFill)
    return read


@settings(max_examples=200, deadline=None)
@given(
    st.booleans().flatmap(lambda reference: st.tuples(st.just(reference), _mostly_usual(reference))),
    st.sampled_from([frozenset(), frozenset({"LOSER"})]),
    st.integers(1, 4),
)
def test_a_usual_set_read_a_stretch_at_a_time_is_read_as_by_the_loop(drawn, unscored, stretch):
    """``FillTable._read_usual`` reads a stretch of instances at a time (``_STRETCH``): with
    stretches of a few instances, so that a set spans several (an odd instance in any of
    them, a type or a slot name first seen in a later one), it reads what the loop reads, or
    declines having normalized nothing; and it reads a set in stretches exactly when it reads
    it whole (a stretch with no slots, or past the first, declines nothing)."""
    whole = _read_as_by_the_loop(*drawn, unscored)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fill_tables, "_STRETCH", stretch)
        assert _read_as_by_the_loop(*drawn, unscored) == whole


def test_the_usual_route_reads_the_usual_set():
    """The test above meets sets the usual route reads (it can fail): one of several slots per
    instance, slots not in the same order, and a fill without extents."""
    no_extent = Slot("SCORE", (FillAlternative((TextFill("2-0", ((0, 3),)),)),))
    instances = [
        _instance(1, (Slot("WINNER", (_text("the bulls", 10),)), Slot("LOSER", (_text("jazz", 30),)))),
        _instance(2, (Slot("LOSER", (_text("jazz", 30),)), no_extent)),
        _instance(3, ()),
    ]
    for reference in (True, False):
        prep = FillPreparer(ScoreConfig(), reference=reference)
        table = object.__new__(fill_tables.FillTable)
        table.instances, table.reference, table.unscored = instances, reference, frozenset()
        assert table._read_usual(prep)
        assert _table_fields(table) == _table_fields(
            _read_each(FillPreparer(ScoreConfig(), reference=reference), instances, reference, frozenset())
        )
        assert table.starts.tolist() == [14, 30, 30, fill_tables.NONE]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_places_of_a_run_are_those_looked_up_one_by_one(data):
    """``FillTable.ordinals``: a stretch of the table's instances in order (a run of documents,
    found by identity from its first instance's place) and any other list (looked up by
    ``id()`` one by one) give the places the lookup gives, and None when one is not in the
    table or not covered."""
    usual = [_instance(n, (Slot("WINNER", (_text(f"w{n}", n),)),)) for n in range(1, 7)]
    pointer = _instance(9, (Slot("WINNER", (FillAlternative((PointerFill("EV", "D1", 1),)),)),))
    stranger = _instance(1, (Slot("WINNER", (_text("w1", 1),)),))  # equal to the first, another object
    kinds = data.draw(st.lists(st.sampled_from(["usual", "pointer"]), min_size=1, max_size=6))
    instances = [pointer if kind == "pointer" else usual[k] for k, kind in enumerate(kinds)]
    if data.draw(st.booleans()):
        instances.append(data.draw(st.sampled_from(instances)))  # one twice: the lookup gives its last place
    table = fill_tables.FillTable(FillPreparer(ScoreConfig(), reference=False), instances, False, frozenset(), None)
    if data.draw(st.booleans()):
        start = data.draw(st.integers(0, len(instances) - 1))
        run = instances[start : data.draw(st.integers(start + 1, len(instances) + 1))]
    else:
        run = data.draw(st.lists(st.sampled_from([*instances, stranger]), min_size=1, max_size=8))
    if data.draw(st.booleans()) and len(run) > 1:
        run = [*run[:-1], stranger]  # the stretch broken at its end
    places = [table.ordinal.get(id(inst), -1) for inst in run]
    covered = table.covered.tolist()
    expected = None if min(places) < 0 or not all(covered[p] for p in places) else places
    found = table.ordinals(run)
    assert (None if found is None else found.tolist()) == expected


def test_a_run_of_an_instance_the_table_holds_twice_takes_its_last_place():
    """The stretch found by identity is taken only when no instance is in the table twice: the
    lookup by ``id()`` gives such an instance its last place (and a run its places as before)."""
    usual = [_instance(n, (Slot("WINNER", (_text(f"w{n}", n),)),)) for n in range(1, 4)]
    table = fill_tables.FillTable(
        FillPreparer(ScoreConfig(), reference=False), [*usual, usual[1]], False, frozenset(), None
    )
    assert table.ordinals(usual[:2]).tolist() == [0, 3]  # type: ignore[union-attr]
    once = fill_tables.FillTable(FillPreparer(ScoreConfig(), reference=False), usual, False, frozenset(), None)
    assert once.ordinals(usual[1:]).tolist() == [1, 2]  # type: ignore[union-attr]
