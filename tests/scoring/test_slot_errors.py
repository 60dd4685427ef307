"""``scoring/slot_errors``: the kinds of the ceiling's INC and MIS points of each reference
slot, read from a count's matches (``SlotErrors``), against the entries worked out here by
hand from each match's signature.

The end-to-end oracle (the match records' kinds) is in ``test_ceiling_counts.py``; here the
rarer matches are built on purpose: a hypothesis instance alone, an optional reference
instance left out (neither has slots) and one matched (its slots count), and a reference key in two matches (the last match
with the slot gives its kinds)."""

from __future__ import annotations

from hub4eval.model import FillAlternative, Instance, InstanceSet, Slot, TextFill
from hub4eval.scoring.mapping import CountedMatch, CountedSet, Signature
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.slot_errors import counted_slot_errors


def _instance(number: int, *names: str, optional: bool = False) -> Instance:
    fills = {name: "x" for name in names}
    if optional:
        fills["OBJ_STATUS"] = "OPTIONAL"
    slots = tuple(
        Slot(name, (FillAlternative((TextFill(content, ((0, len(content)),), (), ()),)),))
        for name, content in fills.items()
    )
    return Instance("EVENT", "D", number, slots)


SIGNATURES: list[Signature] = [
    (("A", "content", "COR"), ("B", "content", "INC"), ("B", "extent", "COR")),  # 0: B content
    (("A", "content", "MIS"), ("A", "extent", "MIS"), ("B", "content", "COR")),  # 1: A content, extent
    (("C", "content", "SPU"),),  # 2: no INC or MIS
    (("A", "extent", "INC"),),  # 3: A extent
    (("C", "content", "INC"),),  # 4: C content
]


def _sets() -> tuple[list[CountedSet], dict[tuple[str, str], frozenset[str]]]:
    """Counted sets with every kind of match, and what each (reference key, slot) reads."""
    plain = _instance(1, "A", "B")
    twice = _instance(2, "A", "B")  # in two matches (of two sets)
    optional = _instance(3, "A", optional=True)  # left out: no slots
    kept = _instance(4, "A", optional=True)  # optional, matched: its slots as any reference's
    hyp_kept = _instance(5, "A")
    alone = _instance(9, "C")  # a hypothesis instance alone
    hyp = _instance(7, "A", "B", "C")
    hyp_c, hyp_ab = _instance(8, "C"), _instance(6, "A", "B")
    zero = Counts()
    first = CountedSet(
        InstanceSet("D", (plain, twice, optional, kept)),
        InstanceSet("D", (hyp, hyp_c, alone, hyp_kept)),
        (
            CountedMatch(plain, hyp, zero, 0),
            CountedMatch(kept, hyp_kept, zero, 3),
            CountedMatch(twice, hyp_c, zero, 4),
            CountedMatch(optional, None, zero, 1),
            CountedMatch(None, alone, zero, 2),
        ),
        zero,
    )
    second = CountedSet(
        InstanceSet("D", (twice,)), InstanceSet("D", (hyp_ab,)), (CountedMatch(twice, hyp_ab, zero, 3),), zero
    )
    none: frozenset[str] = frozenset()
    expected = {
        (plain.key, "A"): none,
        (plain.key, "B"): frozenset({"content"}),
        (plain.key, "C"): none,  # a slot of its hypothesis instance only
        # twice's first match has C content (its hypothesis's slot), A and B none; its second,
        # A extent, B none, and no C: the last match with the slot writes its kinds
        (twice.key, "A"): frozenset({"extent"}),
        (twice.key, "B"): none,
        (twice.key, "C"): frozenset({"content"}),
        (kept.key, "A"): frozenset({"extent"}),
        (kept.key, "OBJ_STATUS"): none,
    }
    return [first, second], expected


def test_the_kinds_of_each_slot_are_read_from_the_signatures() -> None:
    sets, expected = _sets()
    errors = counted_slot_errors(sets, SIGNATURES, ())
    for key, kinds in expected.items():
        assert errors.get(key) == kinds
    assert errors.get(("<EVENT-D-3>", "A")) is None  # the optional instance left out
    assert errors.get(("<EVENT-D-9>", "C")) is None  # the hypothesis instance alone
    assert errors.get(("<EVENT-D-1>", "Z")) is None  # no such slot
    assert dict(errors) == expected  # made whole


def test_the_kinds_read_at_once_are_those_read_one_by_one() -> None:
    sets, expected = _sets()
    keys = [*expected, ("<EVENT-D-3>", "A"), ("<EVENT-D-9>", "C")]
    read = counted_slot_errors(sets, SIGNATURES, ()).get_many(keys)
    assert read == [expected.get(key) for key in keys]
    # of the reference's slots, a key of one match reads its signature alone
    of_reference = [(key, slot) for key, slot in expected if slot != "C"]
    made = counted_slot_errors(sets, SIGNATURES, ()).get_many(of_reference, of_reference=True)
    assert made == [expected[key] for key in of_reference]


def test_unscored_slots_have_no_entry() -> None:
    sets, expected = _sets()
    errors = counted_slot_errors(sets, SIGNATURES, ("B",))
    assert errors.get(("<EVENT-D-1>", "B")) is None
    assert errors.get_many([("<EVENT-D-1>", "B"), ("<EVENT-D-1>", "A")]) == [None, frozenset()]
    assert dict(errors) == {key: kinds for key, kinds in expected.items() if key[1] != "B"}
