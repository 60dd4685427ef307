"""The regular file read a column at a time (io/templettes/regular.py) against the line reading.

The oracle is ``InstanceBuilder.usual_instances``, which reads a usual file a line at a time:
whatever :func:`read_regular` accepts, the line reading must read to the same instances (their
positions included) and leave the same runs, fill lists and bounds; a regular file must be
accepted; and anything it refuses is read by the line reading as before.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.io.templettes import parse_templates, regular
from hub4eval.io.templettes.builders import InstanceBuilder
from hub4eval.io.templettes.regular import read_regular
from hub4eval.model import Instance

_CONTENTS = ["a b", "x", "", "a ; b", "New York", "#1 <s> </s>", "a [b]", "é ü"]


def _positions(instances: list[Instance]) -> list[Any]:
    """Everything of the instances, the positions equality leaves out and the sharing of the
    extents' tuple included."""
    return [
        (
            instance,
            instance.line,
            instance.column,
            [
                (
                    slot.line,
                    slot.column,
                    [
                        (
                            alternative.line,
                            [
                                (fill.line, fill.column, fill.minimal_extents is fill.extents)
                                for fill in alternative.fills
                            ],
                        )
                        for alternative in slot.alternatives
                    ],
                )
                for slot in instance.slots
            ],
        )
        for instance in instances
    ]


def _line_reading(text: str, role: str, first_line: int) -> tuple[Any, ...] | None:
    builder = InstanceBuilder()
    builder.reset("t.tpl", role)  # type: ignore[arg-type]
    instances = builder.usual_instances(text, first_line)
    if instances is None:
        return None
    return (
        _positions(instances),
        builder.headers_ordered,
        builder.run_starts,
        builder.usual_fills,
        builder.fill_bounds,
    )


def _column_reading(text: str, role: str, first_line: int) -> tuple[Any, ...] | None:
    read = read_regular(text, role, {}, first_line)  # type: ignore[arg-type]
    if read is None:
        return None
    contents, firsts, lasts = read.columns
    fills = read.text_fills
    assert contents == [fill.content for fill in fills]
    assert firsts == [fill.extents[0].start for fill in fills]
    assert lasts == [fill.extents[0].end for fill in fills]
    return (
        _positions(read.instances),
        read.headers_ordered,
        read.run_starts,
        None if read.fill_starts is None else (fills, read.fill_starts),
        read.fill_bounds,
    )


@st.composite
def regular_texts(draw: st.DrawFn) -> str:
    """Regular files: headers, one line per slot (at least one), blank and comment lines between instances
    and before the first; DOCIDs now and then in two runs or numbered downwards."""
    lines = draw(st.lists(st.sampled_from(["", "  ", "; c", "\t; <T-D-1> :="]), max_size=2))
    for _ in range(draw(st.integers(1, 6))):
        docid = draw(st.sampled_from(["D", "D", "E.5", "F-x"]))
        lines.append(f"<{draw(st.sampled_from(['T', 'EVENT']))}-{docid}-{draw(st.integers(1, 3))}> :=")
        for name in draw(st.lists(st.sampled_from(["A", "B_1", "c-d", "E"]), min_size=1, max_size=4, unique=True)):
            start = draw(st.sampled_from([0, 7, 9_999, 10_000, 123_456_789]))
            end = start + draw(st.integers(0, 12))
            indent = " " * draw(st.integers(0, 6))
            mark = draw(st.sampled_from(["", "", "? "]))
            lines.append(f'{indent}{name}: {mark}"{draw(st.sampled_from(_CONTENTS))}" ##{start}#{end}#')
        lines.extend(draw(st.lists(st.sampled_from(["", "   ", "; c"]), max_size=2)))
    return "\n".join(lines) + "\n"


# Changes that make a file irregular (or one the line reading refuses too).
_CHANGES = [
    ("", ""),
    ("##7#", "##70#"),  # maybe a reversed extent
    (" ##0#", " ##00#"),  # a leading zero
    ("B_1:", "A:"),  # maybe a slot twice
    ("\n<", "\n <"),  # an indented header
    ("\n", "\r\n"),  # carriage returns
    ('" ##', '"  ##'),  # two blanks before the extent
    ("\n\n", "\n"),  # (nothing)
    (":=\n", ":=\n\n"),  # a blank line before the first slot
    ('"x"', "x"),  # plain content
    ("; c", '; "c"'),  # a quote in a comment
]


@settings(max_examples=300, deadline=None)
@given(
    regular_texts(),
    st.sampled_from(["reference", "hypothesis"]),
    st.sampled_from(_CHANGES),
    st.sampled_from([1, 40, 1 << 16]),
    st.sampled_from([1, 7]),
)
def test_the_column_reading_reads_as_the_line_reading_or_leaves_the_file_to_it(
    text: str, role: str, change: tuple[str, str], chunk: int, first_line: int
) -> None:
    text = text.replace(*change)
    if role == "hypothesis":
        text = text.replace(": ? ", ": ")  # (a hypothesis's '?' is read by the grammar, which warns)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(regular, "_CHUNK", chunk)  # chunks of one instance, of a few, of the file
        columns = _column_reading(text, role, first_line)
    lines = _line_reading(text, role, first_line)
    if columns is not None:
        assert columns == lines, text
    elif change == ("", "") and (role == "hypothesis" or "[" not in text):
        assert lines is None, text  # a regular file the line reading reads is read by columns


def test_a_regular_file_is_read_by_columns_with_the_records_of_the_line_reading() -> None:
    text = (
        "; made by hand\n\n"
        '<EVENT-D1-1> :=\n    A: "a b" ##1#4#\n    B: ? "x" ##10000#10001#\n\n'
        '<EVENT-D1-2> :=\n  C: "" ##3#3#\n; between\n<T-D.2-1> :=\n    A: "y" ##0#1#\n'
    )
    read = read_regular(text, "reference", {})
    assert read is not None
    assert _column_reading(text, "reference", 1) == _line_reading(text, "reference", 1)
    assert [(instance.key, instance.line) for instance in read.instances] == [
        ("<EVENT-D1-1>", 3),
        ("<EVENT-D1-2>", 7),
        ("<T-D.2-1>", 10),
    ]
    assert read.instances[0].slots[1].optional and read.instances[0].slots[1].column == 5
    assert read.run_starts == [0, 2, 3] and read.fill_starts == [0, 3, 4]
    # the template set keeps the columns for the check against the text
    tset = parse_templates(text, "t.tpl", "reference")
    assert tset.usual_columns() == (["a b", "x", "", "y"], [1, 10000, 3, 0], [4, 10001, 3, 1])


@pytest.mark.parametrize(
    "text",
    [
        '<T-D-1> :=\n    A: "a" ##2#1#\n',  # a reversed extent
        '<T-D-1> :=\n    A: "a" ##1#2#\n    A: "b" ##1#2#\n',  # a slot twice
        "<T-D-1> :=\n    A: <T-D-1>\n",  # a pointer
        '<T-D-1> :=\n    A: "a" ##1#2#\n           "b" ##3#4#\n',  # a second fill
        '<T-D-1> :=\n    A: "a" ##1#2#3#4#\n',  # two extents
        "<T-D-1> :=\n",  # no slot line
        "",
    ],
)
def test_anything_else_is_left_to_the_line_reading(text: str) -> None:
    assert read_regular(text, "reference", {}) is None
