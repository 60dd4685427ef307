"""The points of a count without match records (the entries are checked against the match
records' in tests/report/test_json.py)."""

from __future__ import annotations

from hub4eval.scoring.counted_points import COMPARED, HYPOTHESIS, REFERENCE, layout, layout_points


def test_a_signature_is_laid_out_fill_pair_by_fill_pair():
    signature = (
        ("WINNER", "content", "COR"),
        ("WINNER", "extent", "INC"),
        ("LOSER", "content", "MIS"),
        ("LOSER", "extent", "MIS"),
        ("LOSER", "content", "SPU"),  # a text and a pointer in one slot: two fills left over
        ("EVENT", "pointer", "REM"),
        ("PLACE", "content", "OPT"),
        ("SCORE", "content", "SPU"),
    )
    assert layout(signature) == (
        ("WINNER", COMPARED, (("content", "COR"), ("extent", "INC"))),
        ("LOSER", REFERENCE, (("content", "MIS"), ("extent", "MIS"))),
        ("LOSER", HYPOTHESIS, (("content", "SPU"),)),
        ("EVENT", REFERENCE, (("pointer", "REM"),)),
        ("PLACE", REFERENCE, (("content", "OPT"),)),
        ("SCORE", HYPOTHESIS, (("content", "SPU"),)),
    )
    assert layout(()) == ()


def test_the_points_of_every_layout_are_one_tuple_each():
    points = (("content", "COR"), ("extent", "COR"))
    first = layout((("S", "content", "COR"), ("S", "extent", "COR")))[0][2]
    second = layout((("T", "content", "COR"), ("T", "extent", "COR")))[0][2]
    assert first is second is layout_points(points)
    assert layout_points(tuple(points)) is first


# -- whether an instance is plain, read from its slots ---------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hub4eval.config import ScoreConfig  # noqa: E402
from hub4eval.model import FillAlternative, Instance, PointerFill, Slot, TextFill  # noqa: E402
from hub4eval.scoring.counted_points import is_plain, is_plain_instance  # noqa: E402
from hub4eval.scoring.fills import FillPreparer  # noqa: E402
from hub4eval.scoring.mapping import Mapper  # noqa: E402

_FILLS = st.one_of(
    st.builds(lambda n: TextFill(f"w{n}", ((0, len(f"w{n}")),)), st.integers(0, 9)),
    st.builds(lambda n: PointerFill("EV", "D", n), st.integers(1, 3)),
)
# slots of a few names (a name may come twice), each of 0 to 2 alternatives of 0 to 2 fills
_SLOTS = st.lists(
    st.builds(
        Slot,
        st.sampled_from(["A", "B", "COMMENT"]),
        st.lists(st.builds(FillAlternative, st.lists(_FILLS, max_size=2).map(tuple)), max_size=2).map(tuple),
    ),
    max_size=4,
).map(tuple)


@settings(max_examples=300, deadline=None)
@given(_SLOTS, st.booleans(), st.sampled_from([(), ("COMMENT",), ("A", "COMMENT")]))
def test_an_instance_is_plain_as_its_view_says(slots, reference, unscored):
    # the view (Mapper._view: a name's first slot, a hypothesis slot's first alternative, the
    # fills prepared) is the oracle of the reading that prepares nothing
    config = ScoreConfig(unscored_slots=unscored)
    mapper = Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))
    inst = Instance("EV", "D", 1, slots)
    assert is_plain_instance(inst, reference, mapper.unscored) == is_plain(mapper._view(inst, reference))
