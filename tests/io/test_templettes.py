"""Tests of the templette parser and writer (spec §2)."""

from __future__ import annotations

import itertools
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.errors import InputError
from hub4eval.io.templettes import parse_templates, read_templates, write_templates
from hub4eval.model import (
    Extent,
    FillAlternative,
    Instance,
    InstanceSet,
    PointerFill,
    Slot,
    TemplateSet,
    TextFill,
)
from hub4eval.util.records import replace


def parse(text: str, role: str = "reference") -> TemplateSet:
    return parse_templates(textwrap.dedent(text), "t.tpl", role)  # type: ignore[arg-type]


def only_slot(tset: TemplateSet, name: str) -> Slot:
    slot = tset.instances[0].slot(name)
    assert slot is not None
    return slot


def error_of(text: str, role: str = "reference") -> InputError:
    with pytest.raises(InputError) as info:
        parse(text, role)
    return info.value


# ------------------------------------------------------------------ the sample


def test_sample_reference_structure(examples: Path) -> None:
    ref = read_templates(examples / "sample" / "ref.tpl")
    assert ref.role == "reference"
    assert [iset.docid for iset in ref.instance_sets] == [
        "ABC19980307.1830.1415",
        "PRI19980317.2000.2025",
        "PRI19980302.2000.2923",
    ]
    event_set = ref.instance_sets[2]
    assert [inst.key for inst in event_set.instances] == [
        "<TEMPLATE-PRI19980302.2000.2923-1>",
        "<SPORTS_EVENT-PRI19980302.2000.2923-1>",
    ]
    event = event_set.instances[1]
    assert (event.type, event.docid, event.number) == ("SPORTS_EVENT", "PRI19980302.2000.2923", 1)
    loser = event.slot("LOSER").alternatives[0].fills[0]  # type: ignore[union-attr]
    assert isinstance(loser, TextFill)
    assert loser.content == "defending champion south Africa"
    assert loser.bracketed
    assert loser.minimal_strings == ("south Africa",)
    assert loser.extent == Extent(295, 326)
    assert loser.minimal_extents == (Extent(314, 326),)
    assert len(event.slot("LOCATION").alternatives) == 2  # type: ignore[union-attr]
    assert len(event.slot("S_EVENT").alternatives) == 3  # type: ignore[union-attr]
    pointer = event_set.instances[0].slot("EVENT").alternatives[0].fills[0]  # type: ignore[union-attr]
    assert pointer == PointerFill("SPORTS_EVENT", "PRI19980302.2000.2923", 1)
    doc_nr = ref.instances[0].slot("DOC_NR").alternatives[0].fills[0]  # type: ignore[union-attr]
    assert isinstance(doc_nr, TextFill)
    assert (doc_nr.content, doc_nr.quoted, doc_nr.extent) == ("ABC19980307.1830.1415", False, Extent(14, 35))
    assert (doc_nr.line, doc_nr.column) == (2, 13)
    assert ref.warnings == ()


def test_sample_hypothesis_has_one_alternative_per_slot(examples: Path) -> None:
    hyp = read_templates(examples / "sample" / "hyp.tpl", role="hypothesis")
    assert hyp.role == "hypothesis"
    assert len(hyp.instances) == 4
    for instance in hyp.instances:
        for slot in instance.slots:
            assert len(slot.alternatives) == 1
    loser = hyp.instances[3].slot("LOSER").alternatives[0].fills[0]  # type: ignore[union-attr]
    assert isinstance(loser, TextFill)
    assert loser.minimal_spans == ((0, len(loser.content)),)
    assert not loser.bracketed


@pytest.mark.parametrize("name", ["ref.tpl", "hyp.tpl"])
def test_sample_round_trips(examples: Path, name: str) -> None:
    role = "reference" if name == "ref.tpl" else "hypothesis"
    tset = read_templates(examples / "sample" / name, role=role)  # type: ignore[arg-type]
    assert parse_templates(write_templates(tset), role=role) == tset  # type: ignore[arg-type]


# ---------------------------------------------------------------- constructs


def test_header_docid_may_contain_hyphens_and_dots() -> None:
    tset = parse("<TYPE-AB-C.1-2-17> :=\n  X: a\n")
    instance = tset.instances[0]
    assert (instance.type, instance.docid, instance.number) == ("TYPE", "AB-C.1-2", 17)
    assert (instance.line, instance.column) == (1, 1)


def test_instance_sets_group_by_docid_in_order_of_first_appearance() -> None:
    tset = parse(
        """\
        <T-D2-1> :=
        <T-D1-1> :=
        <E-D2-1> :=
        """
    )
    assert [iset.docid for iset in tset.instance_sets] == ["D2", "D1"]
    assert [inst.key for inst in tset.instance_sets[0].instances] == ["<T-D2-1>", "<E-D2-1>"]


def test_quoted_content_runs_to_the_last_quote() -> None:
    tset = parse('<T-D-1> :=\n  X: "he said "yes" ## to it" ##1#30#\n')
    fill = only_slot(tset, "X").alternatives[0].fills[0]
    assert isinstance(fill, TextFill)
    assert fill.content == 'he said "yes" ## to it'
    assert fill.quoted
    assert fill.extents == (Extent(1, 30),)


def test_quoted_content_keeps_blanks_and_unquoted_is_trimmed() -> None:
    tset = parse('<T-D-1> :=\n  X: " a b "\n  Y:   plain  text   ##1#2#\n  Z: a#b\n')
    x, y, z = (only_slot(tset, name).alternatives[0].fills[0] for name in "XYZ")
    assert isinstance(x, TextFill) and isinstance(y, TextFill) and isinstance(z, TextFill)
    assert x.content == " a b "
    assert (y.content, y.quoted, y.extents) == ("plain  text", False, (Extent(1, 2),))
    assert z.content == "a#b"


@pytest.mark.parametrize(
    ("extent_part", "extents"),
    [
        ("##1#2#", (Extent(1, 2),)),
        ("##1#2", (Extent(1, 2),)),
        ("## 1 # 2 #", (Extent(1, 2),)),
        ("##0#0#", (Extent(0, 0),)),
        ("##1#9#3#5#", (Extent(1, 9), Extent(3, 5))),
    ],
)
def test_extent_part_forms(extent_part: str, extents: tuple[Extent, ...]) -> None:
    text = '"ab [cd]"' if len(extents) == 2 else '"abcd"'
    fill = only_slot(parse(f"<T-D-1> :=\n  X: {text} {extent_part}\n"), "X").alternatives[0].fills[0]
    assert isinstance(fill, TextFill)
    assert fill.extents == extents


def test_continuation_lines_and_alternatives() -> None:
    tset = parse(
        """\
        <T-D-1> :=
            X: "a" ##0#1#
               <T-D-1>
             / "b"
               "c"
             / "d"
            Y: "e"
        """
    )
    x = only_slot(tset, "X")
    assert [len(alt.fills) for alt in x.alternatives] == [2, 2, 1]
    assert [alt.line for alt in x.alternatives] == [2, 4, 6]
    assert x.alternatives[0].fills[1] == PointerFill("T", "D", 1)
    assert [fill.content for fill in x.alternatives[1].fills] == ["b", "c"]  # type: ignore[union-attr]
    assert len(only_slot(tset, "Y").alternatives) == 1


def test_optional_slot_marker() -> None:
    tset = parse("<T-D-1> :=\n  EVENT: ? <T-D-1>\n  OTHER: <T-D-1>\n")
    assert only_slot(tset, "EVENT").optional
    assert not only_slot(tset, "OTHER").optional
    assert only_slot(tset, "EVENT").alternatives[0].fills == (PointerFill("T", "D", 1),)


def test_optional_marker_in_hypothesis_is_ignored_with_warning() -> None:
    tset = parse("<T-D-1> :=\n  EVENT: ? <T-D-1>\n", role="hypothesis")
    assert not only_slot(tset, "EVENT").optional
    assert [(w.line, w.column) for w in tset.warnings] == [(2, 10)]
    assert "'?'" in tset.warnings[0].message


def test_empty_slot_has_no_alternatives_and_next_line_fill_belongs_to_slot() -> None:
    tset = parse(
        """\
        <T-D-1> :=
            EMPTY:
            NEXT_LINE:
                "x"
            LAST:"""
    )
    assert only_slot(tset, "EMPTY").alternatives == ()
    assert [f.content for f in only_slot(tset, "NEXT_LINE").alternatives[0].fills] == ["x"]  # type: ignore[union-attr]
    assert only_slot(tset, "LAST").alternatives == ()


def test_comments_blank_lines_crlf_tabs_and_no_final_newline() -> None:
    text = (
        '; leading comment\r\n\r\n<T-D-1> :=\r\n\tX:\t"a"\t##0#1#\r\n   ; inside\r\n\r\n\t"b"\r\n\tY: c ; not a comment'
    )
    tset = parse_templates(text, "t.tpl")
    x = only_slot(tset, "X")
    assert [f.content for f in x.alternatives[0].fills] == ["a", "b"]  # type: ignore[union-attr]
    assert x.alternatives[0].fills[1].line == 7  # type: ignore[union-attr]
    assert only_slot(tset, "Y").alternatives[0].fills[0].content == "c ; not a comment"  # type: ignore[union-attr]
    assert (x.line, x.column) == (4, 2)


def test_obj_status_is_an_ordinary_slot_marking_optional_instance() -> None:
    tset = parse("<T-D-1> :=\n  OBJ_STATUS: OPTIONAL\n  X: a\n")
    instance = tset.instances[0]
    assert [slot.name for slot in instance.slots] == ["OBJ_STATUS", "X"]
    assert instance.optional


def test_reference_minimal_strings() -> None:
    tset = parse('<T-D-1> :=\n  X: "[a] b [cd]" ##10#16#\n  Y: "[a] b [cd]" ##10#16#10#11#14#16#\n  Z: "xyz"\n')
    x = only_slot(tset, "X").alternatives[0].fills[0]
    y = only_slot(tset, "Y").alternatives[0].fills[0]
    z = only_slot(tset, "Z").alternatives[0].fills[0]
    assert isinstance(x, TextFill) and isinstance(y, TextFill) and isinstance(z, TextFill)
    assert x.content == "a b cd"
    assert x.minimal_spans == ((0, 1), (4, 6))
    assert x.minimal_strings == ("a", "cd")
    assert x.minimal_extents == (Extent(10, 11), Extent(14, 16))
    assert y.extents == (Extent(10, 16), Extent(10, 11), Extent(14, 16))
    assert y.minimal_extents == (Extent(10, 11), Extent(14, 16))
    assert (z.minimal_spans, z.bracketed, z.minimal_extents) == (((0, 3),), False, ())


def test_unbracketed_reference_with_extent_has_it_as_minimal_extent() -> None:
    fill = only_slot(parse('<T-D-1> :=\n  X: "abc" ##3#6#\n'), "X").alternatives[0].fills[0]
    assert isinstance(fill, TextFill)
    assert fill.minimal_extents == (Extent(3, 6),)


def test_hypothesis_brackets_are_literal_and_extra_extents_dropped() -> None:
    tset = parse('<T-D-1> :=\n  X: "a [b]" ##1#6#2#5#\n', role="hypothesis")
    fill = only_slot(tset, "X").alternatives[0].fills[0]
    assert isinstance(fill, TextFill)
    assert fill.content == "a [b]"
    assert fill.minimal_spans == ((0, 5),)
    assert fill.extents == (Extent(1, 6),)
    assert fill.minimal_extents == (Extent(1, 6),)
    assert [(w.line, w.column) for w in tset.warnings] == [(2, 14)]
    assert "only the first is used" in tset.warnings[0].message


def test_positions_of_fills_slots_and_instances() -> None:
    tset = parse('\n<T-D-1> :=\n    X:  "a"\n        <T-D-1>\n')
    slot = only_slot(tset, "X")
    first, second = slot.alternatives[0].fills
    assert (slot.line, slot.column) == (3, 5)
    assert (first.line, first.column) == (3, 9)
    assert (second.line, second.column) == (4, 9)
    assert (tset.instances[0].line, tset.instances[0].column) == (2, 1)


@pytest.mark.parametrize("text", ["", "\n\n", "; only a comment\n", "  ; one\n\n;two"])
def test_empty_file_is_valid_with_warning(text: str) -> None:
    tset = parse_templates(text, "t.tpl")
    assert tset.instance_sets == ()
    assert [w.message for w in tset.warnings] == ["no instances in the file"]
    assert str(tset.warnings[0]) == "t.tpl: warning: no instances in the file"


def test_byte_order_mark_is_dropped() -> None:
    assert parse_templates("\ufeff<T-D-1> :=\n").instances[0].key == "<T-D-1>"


@pytest.mark.parametrize(
    ("headers", "duplicate"),
    [
        (["<T-D-1>", "<U-D-2>", "<T-E-1>", "<T-E-5>"], None),  # each DOCID one run, numbered upwards
        (["<T-D-2>", "<U-D-1>", "<T-D-3>"], None),  # numbers down within a run: checked, no duplicate
        (["<T-D-1>", "<T-E-1>", "<U-D-1>"], None),  # a DOCID in two runs: checked, no duplicate
        (["<T-D-1>", "<U-D-2>", "<T-D-1>"], ("<T-D-1>", 7)),  # numbers down within a run
        (["<T-D-1>", "<T-E-1>", "<T-D-1>"], ("<T-D-1>", 7)),  # a DOCID in two runs
        (["<T-D-1>", "<T-D-1>"], ("<T-D-1>", 4)),  # the same number twice
        (["<T-D-1>", "<U-D-1>", "<T-D-1>"], ("<T-D-1>", 7)),
    ],
)
def test_a_duplicate_header_of_a_file_of_usual_lines_is_found_however_the_headers_come(headers, duplicate) -> None:
    """The usual reading passes over the check of duplicate headers only when each DOCID's
    headers come in one run, numbered upwards; any other order is checked as before."""
    text = "".join(f'{header} :=\n    X: "a" ##0#1#\n\n' for header in headers)
    if duplicate is None:
        assert sorted(inst.key for inst in parse_templates(text, "t.tpl").instances) == sorted(headers)
        return
    with pytest.raises(InputError) as caught:
        parse_templates(text, "t.tpl")
    key, line = duplicate
    assert caught.value.message == f"duplicate instance header {key}"
    assert (caught.value.line, caught.value.column) == (line, 1)


# ------------------------------------------------------------------- errors

ERRORS = [
    # (text, role, line, column, message fragment, hint fragment)
    ("X: a\n", "reference", 1, 1, "slot 'X' before any instance header", "header line"),
    ('<T-D-1> :=\n  "x"\n', "reference", 2, 3, "fill '\"x\"' before any slot", "slot names"),
    ("<T-D-1>\n  X: a\n", "reference", 1, 8, "instance header <T-D-1> lacks ':='", ":="),
    ("<T-D-1> :=\n<T-D-1> :=\n", "reference", 2, 1, "duplicate instance header <T-D-1>", "line 1"),
    ("<T-D-1> :=\n  X: a\n  Y: b\n  X: c\n", "reference", 4, 3, "duplicate slot X in instance <T-D-1>", "line 2"),
    ("<T-D-1> :=\n  X: <T-D-2>\n", "reference", 2, 6, "pointer <T-D-2> refers to no instance", "<T-D-1>"),
    (
        "<T-D1-1> :=\n  X: <T-D2-1>\n<T-D2-1> :=\n  X: <T-D2-1>\n",  # usual lines: the short cut leaves it to the grammar
        "reference",
        2,
        6,
        "pointer <T-D2-1> in <T-D1-1> points into the instance set of document D2, not into its own (D1)",
        "<TYPE-D1-N>",
    ),
    (
        "<T-D-1> :=\n  X: a\n   / b\n",
        "hypothesis",
        3,
        4,
        "'/' (a second fill-alternative) in hypothesis",
        "exactly one",
    ),
    ('<T-D-1> :=\n  X: "a" ##1#2#3#\n', "reference", 2, 10, "odd number of extent offsets (3)", "pairs"),
    ('<T-D-1> :=\n  X: "a" ##1#-2#\n', "reference", 2, 14, "negative extent offset -2", "offsets"),
    ('<T-D-1> :=\n  X: "a" ##5#2#\n', "hypothesis", 2, 12, "reversed extent 5..2", "start offset first"),
    ('<T-D-1> :=\n  X: "a" ##1#2#3#4#\n', "reference", 2, 10, "without [minimal] brackets has 2 extents", "[...]"),
    (
        '<T-D-1> :=\n  X: "[a] [b]" ##1#2#3#4#\n',
        "reference",
        2,
        16,
        "2 bracket groups has 2 extents; expected 1 or 3",
        "",
    ),
    ('<T-D-1> :=\n  X: "a [b"\n', "reference", 2, 9, "'[' without a matching ']'", "close"),
    ('<T-D-1> :=\n  X: "a] b"\n', "reference", 2, 8, "']' without a matching '['", "[text]"),
    ('<T-D-1> :=\n  X: "[a [b]]"\n', "reference", 2, 10, "nested '['", "column 7"),
    ('<T-D-1> :=\n  X: "a []"\n', "reference", 2, 10, "empty minimal string", ""),
    ('<T-D-1> :=\n  X: "abc\n', "reference", 2, 6, "unterminated quoted fill", "'\"'"),
    (
        "<T-D-1> :=\n  X: a ##\n",
        "reference",
        2,
        10,
        "unexpected end of the line; expected an integer offset",
        "##10#20#",
    ),
    ("<T-D-1> :=\n  X: a ##1#x#\n", "reference", 2, 12, "unexpected fill 'x#'; expected an integer offset", ""),
    ('<T-D-1> :=\n  X: "a" b\n', "reference", 2, 10, "unexpected fill 'b'; expected an extent part", ""),
    ("<T-D-1> :=\n  X: ##1#2#\n", "reference", 2, 6, "unexpected extent part '##'", "content before"),
    ("<T-D-1> :=\n  X: a\n  /\n", "reference", 3, 4, "unexpected end of the file", "a fill is"),
    ("<TD1> :=\n", "reference", 1, 1, "malformed pointer <TD1>", "<TYPE-DOCID-N>"),
    ("<T-D-1> :=\n  X: <T-D-x>\n", "reference", 2, 6, "malformed pointer <T-D-x>", "<TYPE-DOCID-N>"),
    ("<T-D-1> := more\n", "reference", 1, 12, "unexpected fill 'more'; expected the end of the line", ""),
]


@pytest.mark.parametrize(("text", "role", "line", "column", "message", "hint"), ERRORS)
def test_errors_are_positioned(text: str, role: str, line: int, column: int, message: str, hint: str) -> None:
    with pytest.raises(InputError) as info:
        parse_templates(text, "t.tpl", role)  # type: ignore[arg-type]
    err = info.value
    assert (err.path, err.line, err.column) == ("t.tpl", line, column), str(err)
    assert message in err.message
    assert hint in (err.hint or "")
    assert str(err).startswith(f"t.tpl:{line}:{column}: ")
    assert "\n" not in str(err)


def test_slash_is_fine_in_a_reference() -> None:
    assert len(only_slot(parse("<T-D-1> :=\n  X: a\n   / b\n"), "X").alternatives) == 2


def test_bad_role_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="role"):
        parse_templates("", role="system")  # type: ignore[arg-type]


# ------------------------------------------------------------- reading files


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file") as info:
        read_templates(tmp_path / "nope.tpl")
    assert info.value.path == str(tmp_path / "nope.tpl")


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        read_templates(tmp_path)


def test_invalid_bytes_report_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin.tpl"
    path.write_bytes('<T-D-1> :=\n  X: "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(InputError) as info:
        read_templates(path)
    err = info.value
    assert (err.line, err.column) == (2, 10)
    assert "byte 0xe9 at byte offset 20 is not valid utf-8" in err.message
    assert "--encoding" in (err.hint or "")
    fill = read_templates(path, encoding="latin-1").instances[0].slots[0].alternatives[0].fills[0]
    assert fill.content == "caf\xe9"  # type: ignore[union-attr]


def test_unknown_encoding(tmp_path: Path) -> None:
    path = tmp_path / "a.tpl"
    path.write_text("")
    with pytest.raises(InputError, match="unknown text encoding 'klingon'"):
        read_templates(path, encoding="klingon")


def test_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.tpl"
    path.write_text("<T-D-1> :=\n  X: a\n  X: b\n")
    with pytest.raises(InputError) as info:
        read_templates(path)
    assert str(info.value).startswith(f"{path}:3:3: duplicate slot X")


# ---------------------------------------------------------------- round trip


def test_write_format() -> None:
    tset = parse('<T-D-1> :=\n X: ? "a [b]" ##1#4#\n "c"\n / d ##5#6#\n EMPTY:\n')
    assert write_templates(tset) == textwrap.dedent(
        """\
        <T-D-1> :=
            X: ? "a [b]" ##1#4#
                 "c"
               / d ##5#6#
            EMPTY:
        """
    )


def test_write_quotes_unquoted_content_that_would_not_read_back() -> None:
    fill = TextFill("NAME: x", ((0, 7),), quoted=False)
    tset = TemplateSet((InstanceSet("D", (Instance("T", "D", 1, (Slot("X", (FillAlternative((fill,)),)),)),)),))
    assert '"NAME: x"' in write_templates(tset)


def test_write_refuses_literal_brackets_in_reference() -> None:
    fill = TextFill("a [b]", ((0, 5),))
    tset = TemplateSet((InstanceSet("D", (Instance("T", "D", 1, (Slot("X", (FillAlternative((fill,)),)),)),)),))
    with pytest.raises(ValueError, match="literal bracket"):
        write_templates(tset)


# Hypothesis strategies: random template sets the parser can produce.

_NAME = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,8}", fullmatch=True)
_TYPE = st.from_regex(r"[A-Z][A-Z_]{0,7}", fullmatch=True)
_DOCID = st.from_regex(r"[A-Z0-9][A-Z0-9.-]{0,10}", fullmatch=True)
# Content characters: anything printable on one line (tabs and templette
# punctuation included) except brackets, which are markup in a reference.
_CHAR = st.one_of(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="[]\ufeff"),
    st.sampled_from('\t"#/<>?;'),
)
_UNQUOTED = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 .,'&/-]{0,15}[A-Za-z0-9.]", fullmatch=True)


@st.composite
def text_fills(draw: st.DrawFn, role: str) -> TextFill:
    quoted = draw(st.booleans())
    content = draw(st.text(_CHAR, max_size=20)) if quoted else draw(_UNQUOTED)
    if not quoted and re.match(r"[A-Za-z0-9_-]+[ \t]|[A-Za-z0-9_]+-\S+-[0-9]+$", content):
        # plain content that could read as a slip (a slot line without ':', a pointer without
        # brackets) is not what the parser gives: it reports the slip (io/templettes/slips.py)
        quoted = True
    bracketed = role == "reference" and len(content) > 0 and draw(st.booleans())
    if bracketed:
        cuts = sorted(draw(st.lists(st.integers(0, len(content)), min_size=2, max_size=6)))
        spans = tuple((a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b)
        if not spans:
            spans, bracketed = ((0, len(content)),), False
    else:
        spans = ((0, len(content)),)
    if not draw(st.booleans()):
        return TextFill(content, spans, bracketed=bracketed, quoted=quoted)
    start = draw(st.integers(0, 10_000))
    maximal = Extent(start, start + draw(st.integers(0, 200)))
    if bracketed and draw(st.booleans()):
        minimal = tuple(Extent(start + a, start + a + draw(st.integers(0, 50))) for a, _ in spans)
        extents = (maximal, *minimal)
    elif bracketed:
        minimal = tuple(Extent(start + a, start + b) for a, b in spans)
        extents = (maximal,)
    else:
        minimal = extents = (maximal,)
    return TextFill(content, spans, extents, minimal, bracketed=bracketed, quoted=quoted)


@st.composite
def template_sets(draw: st.DrawFn) -> TemplateSet:
    role = draw(st.sampled_from(["reference", "hypothesis"]))
    keys = draw(st.lists(st.tuples(_TYPE, _DOCID, st.integers(0, 99)), min_size=1, max_size=6, unique=True))
    pointers = [PointerFill(*key) for key in keys]
    max_alternatives = 3 if role == "reference" else 1
    instances = []
    for type_, docid, number in keys:
        # a pointer names an instance of its own instance set (same DOCID)
        fill = st.one_of(text_fills(role), st.sampled_from([p for p in pointers if p.docid == docid]))
        alternative = st.builds(lambda fills: FillAlternative(tuple(fills)), st.lists(fill, min_size=1, max_size=3))
        names = draw(st.lists(_NAME, max_size=5, unique=True))
        slots = tuple(
            Slot(
                name,
                tuple(draw(st.lists(alternative, max_size=max_alternatives))),
                optional=role == "reference" and draw(st.booleans()),
            )
            for name in names
        )
        instances.append(Instance(type_, docid, number, slots))
    by_docid: dict[str, list[Instance]] = {}
    for instance in instances:
        by_docid.setdefault(instance.docid, []).append(instance)
    isets = tuple(InstanceSet(docid, tuple(group)) for docid, group in by_docid.items())
    return TemplateSet(isets, role=role)  # type: ignore[arg-type]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(template_sets())
def test_write_then_parse_round_trips(tset: TemplateSet) -> None:
    text = write_templates(tset)
    again = parse_templates(text, "gen.tpl", tset.role)
    assert again == tset, text
    assert write_templates(again) == text


_TEMPLETTE_ALPHABET = st.sampled_from(list('<>:=-#/?;"[] \t\nAXD1209_.') + ["\r\n", "##", ":=", "<T-D-1>"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEMPLETTE_ALPHABET, max_size=60).map("".join), st.sampled_from(["reference", "hypothesis"]))
def test_any_text_parses_or_raises_input_error(text: str, role: str) -> None:
    try:
        tset = parse_templates(text, "fuzz.tpl", role)  # type: ignore[arg-type]
    except InputError as error:
        assert error.path == "fuzz.tpl"
        assert error.line is not None and error.line >= 1
        assert error.column is not None and error.column >= 1
        assert "\n" not in str(error)
    else:
        assert parse_templates(write_templates(tset), "fuzz.tpl", role) == tset  # type: ignore[arg-type]


# ----------------------------------------------------------------------------
# Rules the scoring specification v1.1 pinned down (issue #15): a pointer stays inside its instance set
# ----------------------------------------------------------------------------


# A pointer stays inside its instance set -------------------------------------


@pytest.mark.parametrize("role", ["reference", "hypothesis"])
def test_pointer_into_another_instance_set_is_an_input_error_at_the_pointer(role):
    text = "<T-D1-1> :=\n  A: x\n  EV: <E-D1-1>\n      <E-D2-1>\n<E-D1-1> :=\n  Y: a\n<E-D2-1> :=\n  Y: a\n"
    with pytest.raises(InputError) as caught:
        parse_templates(text, "t.tpl", role=role)
    error = caught.value
    # the second fill of EV, line 4, column 7 (after six blanks), names document D2 from D1
    assert (error.path, error.line, error.column) == ("t.tpl", 4, 7)
    assert "<E-D2-1>" in str(error) and "D1" in str(error)


def test_pointer_inside_its_instance_set_is_accepted():
    text = "<T-D1-1> :=\n  EV: <E-D1-1>\n<E-D1-1> :=\n  Y: a\n<E-D2-1> :=\n  Y: a\n"
    tset = parse_templates(text, "t.tpl", role="reference")
    assert [iset.docid for iset in tset.instance_sets] == ["D1", "D2"]


def test_usual_lines_share_the_int_objects_of_small_offsets() -> None:
    # A segmented file's offsets repeat (each counts from its document's start): the usual
    # reading gives one int object per offset below 10,000, and the large ones their own.
    # (Built at run time: literals of one code object would be shared anyway.)
    offsets = [str(n) for n in (700, 900, 12000, 12345)]
    tset = parse(
        f"""\
        <E-d1-1> :=
            A: "x" ##{offsets[0]}#{offsets[1]}#
        <E-d2-1> :=
            A: "y" ##{offsets[0]}#{offsets[1]}#
            B: "z" ##{offsets[2]}#{offsets[3]}#
        """
    )
    first, second = (inst.slot("A").alternatives[0].fills[0].extent for inst in tset.instances)  # type: ignore[union-attr]
    assert first == second == Extent(700, 900)
    assert first.start is second.start and first.end is second.end
    large = tset.instances[1].slot("B").alternatives[0].fills[0].extent  # type: ignore[union-attr]
    assert large == Extent(12000, 12345)


@pytest.mark.parametrize("chunk", [1, 64, 1000])
def test_a_file_read_in_chunks_gives_the_instances_read_at_once(monkeypatch, chunk) -> None:
    # The usual reading cuts a large file into chunks of lines; every chunk after the first is
    # read from the same text, so a name reused inside the loop would lose it. Small chunks
    # make the examples' files many chunks; the instances must be those of one chunk.
    from hub4eval.io.templettes import builders

    for path in sorted(Path(__file__).parents[2].glob("examples/*/*.tpl")):
        text = path.read_text(encoding="utf-8")
        whole = parse_templates(text, str(path), role="reference")
        monkeypatch.setattr(builders, "_CHUNK", chunk)
        assert parse_templates(text, str(path), role="reference") == whole, path
        monkeypatch.setattr(builders, "_CHUNK", 1 << 16)


@settings(max_examples=80, deadline=None)
@given(
    sets=st.lists(
        st.lists(
            st.lists(
                st.tuples(st.sampled_from(["", "0", "00"]), st.integers(0, 12_000), st.integers(0, 30)), max_size=3
            ),
            min_size=1,
            max_size=3,
        ),
        min_size=1,
        max_size=4,
    ),
    pointer=st.booleans(),
    role=st.sampled_from(["reference", "hypothesis"]),
)
def test_the_readers_list_of_fills_is_each_sets_text_fills_in_file_order(
    sets: list[list[list[tuple[str, int, int]]]], pointer: bool, role: str
) -> None:
    """``TemplateSet.usual_fills`` (the text fills a file of usual lines was made of, listed as
    the reader made them) holds the very fills a walk over each set's instances finds, in file
    order, each cut at its set's start; and their offsets are the numbers their digits spell
    (leading zeros, four or five digits)."""
    lines, spelled = [], []
    for number, instances in enumerate(sets):
        for k, fills in enumerate(instances, 1):
            lines.append(f"<T-D{number}-{k}> :=")
            if pointer:
                lines.append(f"  P: <T-D{number}-1>")
            for j, (zeros, start, width) in enumerate(fills):
                lines.append(f'  S{j}: "w x" ##{zeros}{start}#{start + width}#')
                spelled.append(Extent(start, start + width))
    tset = parse_templates("\n".join(lines) + "\n", "t.tpl", role)  # type: ignore[arg-type]
    usual = tset.usual_fills()
    assert usual is not None
    listed, starts = usual
    walked = [[fill for _, fill in TemplateSet((iset,)).text_fills()] for iset in tset.instance_sets]
    assert [listed[a:b] for a, b in itertools.pairwise(starts)] == walked
    assert all(a is b for a, b in zip(listed, itertools.chain.from_iterable(walked), strict=True))
    assert [fill.extents[0] for fill in listed] == spelled
    assert all(fill.minimal_extents is fill.extents and not fill.bracketed for fill in listed)
    assert replace(tset, path="u.tpl").usual_fills() is None  # a copy: the check walks


@pytest.mark.parametrize(
    "text",
    [
        '<T-D-1> :=\n  A: "[a] b" ##0#3#\n',  # brackets: read by the grammar
        '<T-D-1> :=\n  A: "a" ##0#1#\n<T-E-1> :=\n  A: "a" ##0#1#\n<T-D-2> :=\n  A: "a" ##0#1#\n',  # D twice
    ],
)
def test_no_list_of_fills_where_the_reader_did_not_make_the_sets_a_usual_line_at_a_time(text: str) -> None:
    assert parse(text).usual_fills() is None
