"""The lower bound of a group's candidate pairs from the contents as written (the early refusal)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.io.templettes import parse_templates, write_templates
from hub4eval.model import FillAlternative, Instance, PointerFill, Slot, TemplateSet, TextFill
from hub4eval.scoring.refusal import (
    alike_with,
    counted,
    may_be_refused,
    most_alike,
    pairs_alike,
    usual_written,
    written_contents,
)
from tests.support.strategies import SLOTS, template_sets


def _oracle(instances, unscored: frozenset[str], reference: bool) -> dict[tuple[str, str], int]:
    """The rule written out: an instance counts only when each of its scored slots (the first
    of a name) holds one alternative of one fill; then each of its text fills is counted by
    (slot, content), a reference fill only without minimal strings."""
    counts: dict[tuple[str, str], int] = {}
    for inst in instances:
        first = {}
        for slot in inst.slots:
            if slot.name not in unscored:
                first.setdefault(slot.name, slot)
        slots = list(first.values())
        # a slot that is not plain ends the walk (the slots after it are not looked at)
        plain = []
        for slot in slots:
            many = len(slot.alternatives) != 1 if reference else not slot.alternatives
            if many or len(slot.alternatives[0].fills) != 1:
                break
            plain.append(slot)
        else:
            for slot in plain:
                fill = slot.alternatives[0].fills[0]
                if isinstance(fill, TextFill) and (not reference or fill.minimal_is_maximal):
                    key = (slot.name, fill.content)
                    counts[key] = counts.get(key, 0) + 1
    return counts


@settings(max_examples=150, deadline=None)
@given(
    st.booleans(),
    st.booleans(),
    st.frozensets(st.sampled_from(SLOTS)),
    st.data(),
)
def test_the_contents_as_written_are_counted_as_the_rule_says(reference, plain, unscored, data):
    tset = data.draw(template_sets(reference=reference, max_events=5, plain=plain))
    # as drawn (fills made one by one) and as the reader makes them (the usual fill's shared
    # span and extents)
    read = parse_templates(write_templates(tset), "t.tpl", tset.role)
    for each in (tset, read):
        assert written_contents(each.instances, unscored, reference) == _oracle(each.instances, unscored, reference)


def test_a_slot_named_twice_counts_its_first_fill_only():
    def fill(text: str) -> FillAlternative:
        return FillAlternative((TextFill(text, ((0, len(text)),)),))

    inst = Instance("EV", "D", 1, (Slot("A", (fill("x"),)), Slot("A", (fill("y"), fill("z")))))
    pointing = Instance(
        "EV", "D", 2, (Slot("A", (fill("x"),)), Slot("P", (FillAlternative((PointerFill("EV", "D", 1),)),)))
    )
    assert written_contents([inst, pointing], frozenset(), True) == {("A", "x"): 2}
    assert _oracle([inst, pointing], frozenset(), True) == {("A", "x"): 2}


def test_the_bound_is_the_pairs_written_alike_slot_by_slot():
    text = '<EV-D-1> :=\n    A: "x"\n    B: "y"\n<EV-D-2> :=\n    A: "x"\n    B: "z"\n<EV-D-3> :=\n    A: "w"\n'
    ref = parse_templates(text, "r.tpl", "reference").instances
    hyp = parse_templates(text.replace('"z"', '"y"'), "h.tpl", "hypothesis").instances
    # A: "x" 2 x 2, "w" 1 x 1; B: "y" 1 x 2 (the reference's "z" has no twin)
    assert pairs_alike(written_contents(ref, frozenset(), True), written_contents(hyp, frozenset(), False)) == 7


def test_only_a_group_of_enough_instance_pairs_is_worth_counting():
    assert not may_be_refused(100, 100, 100 * 100 * 64)
    assert may_be_refused(100, 100, 100 * 100 * 64 - 1)
    assert not may_be_refused(0, 10**9, 1)


def test_an_empty_set_counts_nothing():
    assert written_contents(TemplateSet((), role="reference").instances, frozenset(), True) == {}


@settings(max_examples=150, deadline=None)
@given(template_sets(reference=True, max_events=6, plain=True), template_sets(reference=False, max_events=6), st.data())
def test_the_most_a_reference_can_write_alike_bounds_the_pairs(ref, hyp, data):
    """The reference's counts are not made when even the hypothesis's most frequent content of
    each slot, in every reference instance, could not pass the limit: so that must be an upper
    bound of the pairs written alike, whatever the reference says."""
    if data.draw(st.booleans()):  # the hypothesis says what the reference says: many pairs alike
        hyp = parse_templates(write_templates(ref).replace("[", "").replace("]", ""), "h.tpl", "hypothesis")
    hyp_counts = written_contents(hyp.instances, frozenset(), False)
    bound = pairs_alike(written_contents(ref.instances, frozenset(), True), hyp_counts)
    assert bound <= most_alike(len(ref.instances), hyp_counts)


def test_the_most_alike_takes_the_most_frequent_content_of_each_slot():
    counts = {("A", "x"): 3, ("A", "y"): 5, ("B", "z"): 2}
    assert most_alike(10, counts) == 10 * (5 + 2)
    assert most_alike(10, {}) == 0


# -- the counts from the reader's lists of a file of usual lines -----------------------------

_WORDS = ("x", "y", "x y", "y z")


@st.composite
def _usual_files(draw, reference: bool) -> str:
    """A file of usual lines (one extent a text fill): documents of EV and AG instances in
    any order, slots (COMMENT among them) of one or two fills, text or pointers."""
    lines = []
    for docid in draw(st.lists(st.sampled_from(("D1", "D2", "D3")), min_size=1, max_size=3, unique=True)):
        numbers = {"EV": 1, "AG": 0}
        lines.append(f'<EV-{docid}-1> :=\n  A: "x" ##0#1#')  # what the pointers name
        for kind in draw(st.lists(st.sampled_from(("EV", "AG")), max_size=8)):
            numbers[kind] += 1
            lines.append(f"<{kind}-{docid}-{numbers[kind]}> :=")
            for name in draw(
                st.lists(st.sampled_from(("A", "B", "C", "COMMENT")), min_size=1, max_size=4, unique=True)
            ):
                mark = "? " if reference and draw(st.integers(0, 4)) == 0 else ""
                for k in range(draw(st.sampled_from((1, 1, 1, 2)))):
                    head = f"  {name}: {mark}" if k == 0 else "        "
                    fill = draw(st.sampled_from(("text", "text", "plain", "pointer")))
                    word = draw(st.sampled_from(_WORDS))
                    if fill == "pointer":
                        lines.append(f"{head}<EV-{docid}-1>")
                    elif fill == "plain":
                        lines.append(f"{head}{word} ##3#{3 + len(word)}#")
                    else:
                        lines.append(f'{head}"{word}" ##3#{3 + len(word)}#')
    return "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None)
@given(st.booleans(), st.frozensets(st.sampled_from(("A", "B", "COMMENT"))), st.data())
def test_the_counts_from_the_readers_lists_are_those_of_the_walk(reference, unscored, data):
    """For every set and type of a file of usual lines: the instances and the counts of the
    contents as written that the reader's lists give are the walk's (written_contents), and the
    bound from their keys is :func:`pairs_alike` of those counts."""
    role = "reference" if reference else "hypothesis"
    tset = parse_templates(data.draw(_usual_files(reference)), "t.tpl", role)
    assert tset.usual_slots() is not None  # read a usual line at a time
    hyp_counts = {("A", "x"): 3, ("B", "y z"): 2, ("C", "y"): 5, ("COMMENT", "x"): 7}
    for index, iset in enumerate(tset.instance_sets):
        by_type = {}
        for inst in iset.instances:
            by_type.setdefault(inst.type, []).append(inst)
        usual = usual_written(tset, index, unscored)
        assert usual is not None
        walked = {name: (len(held), written_contents(held, unscored, reference)) for name, held in by_type.items()}
        assert {name: (size, counted(keys)) for name, (size, keys) in usual.items()} == walked
        again = usual_written(tset, index, unscored)
        assert again is not None
        for name, (_, keys) in again.items():
            assert alike_with(keys, hyp_counts) == pairs_alike(walked[name][1], hyp_counts)


def test_a_slot_of_several_fills_leaves_its_instance_out_unless_unscored():
    text = (
        '<EV-D-1> :=\n  A: "x" ##0#1#\n  B: "y" ##0#1#\n'
        '<EV-D-2> :=\n  A: "x" ##0#1#\n  B: "y" ##0#1#\n     "z" ##2#3#\n'
        '<EV-D-3> :=\n  A: "x" ##0#1#\n  B: <EV-D-1>\n'
    )
    tset = parse_templates(text, "t.tpl", "hypothesis")
    counts = {frozenset(): {("A", "x"): 2, ("B", "y"): 1}, frozenset({"B"}): {("A", "x"): 3}}
    for unscored, expected in counts.items():
        usual = usual_written(tset, 0, unscored)
        assert usual is not None
        size, keys = usual["EV"]
        assert (size, counted(keys)) == (3, expected)
        assert written_contents(tset.instances, unscored, False) == expected


def test_no_counts_from_lists_where_the_reader_made_none():
    tset = parse_templates('<EV-D-1> :=\n  A: "x"\n', "t.tpl", "hypothesis")  # no extent: the grammar reads it
    assert tset.usual_slots() is None
    assert usual_written(tset, 0, frozenset()) is None
