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
