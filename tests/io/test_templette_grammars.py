"""The two templette grammars accept the same files and build the same sets.

``grammars/templette.lark`` holds the language twice: the instance-level
grammar (rule ``start``, one token per instance) reads every file; the
token-level grammar (rule ``tokens``) re-reads a rejected file to explain its
first problem.  If the instance-level one accepted a file the token-level one
rejects, a bad file would be scored; if it rejected a good one, reading it
would be slow.  So, on generated files (good ones, and ones with a piece wrong
here and there), both must accept with the same instances, positions and
warnings, or both reject.  The instance-level reader has a short cut for the
usual line (``NAME: "text" ##a#b#`` or a pointer); files made mostly of such
lines, with near misses, check that it reads them as the general way does.
"""

from __future__ import annotations

import itertools
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.errors import InputError, InputWarning
from hub4eval.io.templettes import parse_templates, write_templates
from hub4eval.io.templettes.reader import _group, _parser, instance_tokens
from hub4eval.model import Instance, PointerFill, TextFill
from hub4eval.util.records import replace

# ----------------------------------------------------------- generated files


def _mostly(good: st.SearchStrategy[str], bad: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``good`` 15 times in 16, else ``bad``: most files have one problem or none."""
    return st.integers(0, 15).flatmap(lambda i: bad if i == 0 else good)


_BLANKS = _mostly(st.sampled_from(["", "", " ", "  ", "\t", "\f"]), st.sampled_from(["\xa0", " \v"]))
# Between a pointer and ':=', or a slot name and ':'.
_NAME_BLANKS = _mostly(st.sampled_from(["", " ", "\t"]), st.sampled_from(["\f", "\xa0"]))
_INDENT = st.sampled_from(["", " ", "    ", "\t", " \f"])
_POINTER = _mostly(
    st.sampled_from(["<T-D-1>", "<E-D-2>", "<E-D.1-3>"]),
    st.sampled_from(["<T-D-x>", "<TD1>", "<T-D-" + "1" * 19 + ">", "<>"]),
)
_CONTENT = st.lists(
    _mostly(
        st.sampled_from(["a", "b c", " ", "\t", "#", ":", ";", "X:", "=", "[a]"]),
        st.sampled_from(["[", "]", "##", '"', "<", ">", "/", "?"]),
    ),
    max_size=5,
).map("".join)
_NUMBER = st.one_of(st.integers(0, 40).map(str), st.sampled_from(["-3", "007", "1" * 19, "x", ""]))


@st.composite
def _extent_parts(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 3)):
        start = draw(st.integers(0, 40))
        numbers = [str(start), str(start + draw(st.integers(0, 9)))] * draw(st.integers(1, 2))
    else:
        numbers = draw(st.lists(_NUMBER, max_size=6))
    text = "##" + draw(_BLANKS)
    for index, number in enumerate(numbers):
        text += number + draw(_BLANKS)
        if index < len(numbers) - 1 or draw(st.booleans()):
            text += "#" + draw(_BLANKS)
    return text


@st.composite
def _fills(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["pointer", "quoted", "plain"]))
    if kind == "pointer":
        fill = draw(_POINTER)
    elif kind == "quoted":
        fill = '"' + draw(_CONTENT) + '"'
    else:
        fill = draw(_CONTENT).lstrip() or "a"
    if kind != "pointer" and draw(st.booleans()) or draw(_mostly(st.just(""), st.just("after"))):
        fill += draw(_BLANKS) + draw(_extent_parts())
    # Now and then something after the fill: a quote, content, a second extent part.
    return fill + draw(_mostly(st.just(""), st.sampled_from(['"', ' b"', '" x', " x", " ##1#2#"])))


@st.composite
def _lines(draw: st.DrawFn, kind: str) -> str:
    indent = draw(_INDENT)
    if kind == "header":
        after = draw(_mostly(st.sampled_from(["", " "]), st.sampled_from([" x", " <T-D-1>"])))
        return indent + draw(_POINTER) + draw(_NAME_BLANKS) + ":=" + after
    if kind == "slot":
        name = draw(_mostly(st.sampled_from(["X", "Y", "S_1", "a-b"]), st.just("X Y"))) + draw(_NAME_BLANKS) + ":"
        mark = draw(_mostly(st.sampled_from(["", "", "?", "? "]), st.just("??")))
        return indent + name + draw(_BLANKS) + mark + (draw(_fills()) if draw(st.integers(0, 4)) else "")
    if kind == "fill":
        return indent + draw(_fills())
    if kind == "slash":
        return indent + "/" + draw(_BLANKS) + (draw(_fills()) if draw(st.integers(0, 4)) else "")
    if kind == "comment":
        return indent + ";" + draw(_CONTENT)
    if kind == "blank":
        return indent
    return draw(st.text(st.sampled_from(list('<>:=-#/?;"[] \tAXD1') + ["\r"]), max_size=8))


@st.composite
def templette_texts(draw: st.DrawFn) -> str:
    """Mostly well-formed files with, now and then, a line of another kind or a stray character."""
    kinds: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        kinds.append("header")
        for _ in range(draw(st.integers(0, 3))):
            kinds.append("slot")
            extra = st.sampled_from(["fill", "fill", "slash", "comment", "blank"])
            kinds.extend(draw(st.lists(extra, max_size=2)))
    if kinds and draw(st.integers(0, 3)) == 0:
        odd = st.sampled_from(["header", "slot", "fill", "slash", "comment", "blank", "junk"])
        kinds.insert(draw(st.integers(0, len(kinds))), draw(odd))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    text = newline.join(draw(_lines(kind)) for kind in kinds)
    if draw(st.booleans()):
        text += newline
    return text


# ----------------------------------------------------------------- comparing


def _parse_with(start: str, text: str, role: str) -> tuple[Any, ...]:
    """The outcome of one grammar on ``text``: what it built (with positions)
    and warned about, or that it failed."""
    parser, builder = _parser(start)
    builder.reset("t.tpl", role)  # type: ignore[arg-type]
    source = text if text.endswith("\n") else text + "\n"
    try:
        if start == "start":  # as the reader reads every file: the grammar's lexer, then the builder
            instances = builder.start(instance_tokens(parser, source))  # type: ignore[union-attr]
        else:
            instances = parser.parse(source)
    except InputError:
        return ("rejected",)
    except Exception as error:  # Lark's syntax errors, or a check wrapped in VisitError
        if type(error).__name__ == "VisitError" and not isinstance(error.orig_exc, InputError):  # type: ignore[attr-defined]
            raise
        return ("rejected",)
    return ("accepted", _positions(instances), _warnings(builder.warnings))


def _positions(instances: tuple[Instance, ...]) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for instance in instances:
        rows.append((instance.key, instance.line, instance.column))
        for slot in instance.slots:
            rows.append((slot.name, slot.optional, slot.line, slot.column))
            for alternative in slot.alternatives:
                rows.append(("alternative", alternative.line))
                rows.extend((repr(fill), fill.line, fill.column) for fill in alternative.fills)
    return rows


def _warnings(warnings: list[InputWarning]) -> list[tuple[Any, ...]]:
    return [(w.message, w.line, w.column) for w in warnings]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(templette_texts(), st.sampled_from(["reference", "hypothesis"]))
def test_both_grammars_accept_the_same_files_with_the_same_result(text: str, role: str) -> None:
    assert _parse_with("start", text, role) == _parse_with("tokens", text, role), text


# Any short text of the characters that matter to the grammars.
_any_text = st.lists(
    st.sampled_from(list('<>:=-#/?;"[] \t\nAXD1209_.\f') + ["\r\n", "##", ":=", "<T-D-1>"]), max_size=60
).map("".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_any_text, st.sampled_from(["reference", "hypothesis"]))
def test_both_grammars_agree_on_any_text(text: str, role: str) -> None:
    assert _parse_with("start", text, role) == _parse_with("tokens", text, role), text


def _instance_level(text: str, read: Any) -> tuple[Any, ...]:
    """The INSTANCE tokens (text and position) that ``read`` finds in ``text``, or that it fails."""
    source = text if text.endswith("\n") else text + "\n"
    try:
        tokens = read(source)
    except Exception as error:
        if type(error).__module__.startswith("lark"):
            return ("rejected",)
        raise
    return ("accepted", [(str(token), token.line, token.column) for token in tokens])


def _by_the_parser(source: str) -> list[Any]:
    tree = _parser("start")[0].parse(source)  # no Transformer: the tree of rule start
    return list(tree.children)  # type: ignore[union-attr]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(templette_texts(), _any_text))
def test_the_lexer_alone_reads_the_instance_level_grammar_as_its_parser_does(text: str) -> None:
    # The reader skips the LALR parser of rule start (blank lines, then
    # instances) and checks that order itself; the parser is the reference.
    by_lexer = _instance_level(text, lambda source: instance_tokens(_parser("start")[0], source))
    assert by_lexer == _instance_level(text, _by_the_parser), text


@pytest.mark.parametrize(
    "text",
    [
        '; a comment first\n\n<T-D-1> :=\n  A: "x" ##1#2#\n',
        '<T-D-1> :=\n  A: "x" ##1#2#\n<T-D-2> :=\n  B: <T-D-1>\n',
        "",
        "\n\n",
    ],
)
def test_blank_lines_then_instances_are_accepted_by_the_lexer_alone(text: str) -> None:
    outcome = _instance_level(text, lambda source: instance_tokens(_parser("start")[0], source))
    assert outcome == _instance_level(text, _by_the_parser)
    assert outcome[0] == "accepted"
    assert len(outcome[1]) == text.count(":=")


def test_a_blank_line_after_an_instance_is_refused_by_the_lexer_alone_as_by_the_parser() -> None:
    # A blank line holding a form feed ends an instance (no line starts with a
    # line end); the lexer alone then reads the line end as _BLANK, which the
    # grammar allows only before the first instance.
    text = '<T-D-1> :=\n  A: "x" ##1#2#\n\f\n<T-D-2> :=\n  B: "y" ##1#2#\n'
    types = [token.type for token in _parser("start")[0].lex(text)]
    assert types == ["INSTANCE", "_BLANK", "INSTANCE"]
    outcome = _instance_level(text, lambda source: instance_tokens(_parser("start")[0], source))
    assert outcome == ("rejected",) == _instance_level(text, _by_the_parser)
    with pytest.raises(InputError) as raised:
        parse_templates(text, "t.tpl")
    assert (raised.value.line, raised.value.column) == (3, 2)


# Lines where reading whole lines could go wrong: which line kind wins, where
# quoted content ends, blanks other than spaces, what may follow a piece.
_TRICKY_LINES = [
    '  X: "a" ##1#2" x',
    '  X: "a" "b" ##1#2#',
    '  X: "a" ##1#2#"',
    "  X: a\n  /\n  Y: not a slot",
    "  X: a\n  /\n<T-D-1> :=",
    "  X: a\n  / Y: z",
    "  X:\n  Y: z",
    "  X: Y: z",
    "  X: a\n  AB: ## 1",
    "  X: a\n  AB:",
    "  X: a\n  <T-D-1>:=x",
    "  X: ?",
    "  X: ?\n    a",
    "  X: ??",
    '  X:?"a"',
    "  X: ?\n  / a",
    "  X:\n  / a",
    "  X: a\n \f b",
    "  X: a\n \f;b",
    "  X: a\n\f\n  b",
    "  X: a\n ;c\n\n  b",
    "  X: a ## 1 # 2",
    "  X: a ## 1 # 2 #  ",
    "  X: a ##1#2#\xa0",
    "  X: a ##1#2# \xa0",
    "  X: a\xa0",
    "  X: \xa0a",
    "  X: a#b ##1#2",
    "  X: a ##",
    "  X: a ##1#2#3#4#",
    "  X: [a] b ##1#5#1#2#",
    "  X: <T-D-1> ##1#2#",
    "  X: <T-D-1>  ",
    "  X: a\r",
    "  X: a\r\n  b\r\n",
    "  X: a\u2028b",
    "  X\t: a",
    "  X\f: a",
]


# The fill that must follow a bare '/' is missing: a regular expression for a
# whole instance could back off into the line end and read the comment line
# (or part of it) as that fill.
_TRICKY_LINES += [
    "  X: a\n  /\n  ; c\n<T-D-2> :=",
    '  X: a\n  /\n  ;c d\n  "e',
    "  X: a\n  /\n\n  ;\n\t\n<T-D-2> :=",
    "  X: a\n  /\n  ; <T-D-1>\n  \f\n",
    "  X: a\n  / ; b",
    "  X: a\n \f;b",
]


@pytest.mark.parametrize("lines", _TRICKY_LINES)
@pytest.mark.parametrize("role", ["reference", "hypothesis"])
@pytest.mark.parametrize("before", ["", "  ; a comment\n", "\n\n"])
def test_both_grammars_agree_on_tricky_lines(lines: str, role: str, before: str) -> None:
    text = before + "<T-D-1> :=\n" + lines + "\n  LAST: b\n"
    assert _parse_with("start", text, role) == _parse_with("tokens", text, role), text


# ------------------------------------------------- the usual line, short cut

# Lines as the writer and most systems write them, each next to near misses
# that must leave the short cut (a blank more or less, a tab, a second quote,
# brackets, extents out of order or too long, a comment or blank line after).
_USUAL_FILLS = _mostly(
    st.sampled_from(['"a b" ##1#4#', '"x" ##0#1#', "<T-D-1>", "<E-D-2>", '"" ##3#3#', '"[a] b" ##2#7#']),
    st.sampled_from(
        [
            '"a" ##4#1#',
            '"a" ##1#4',
            '"a"  ##1#4#',
            '"a" ##1#4# ',
            '"a"\t##1#4#',
            '"a""b" ##1#4#',
            '"a" ##1#4#5#9#',
            '"[a]" ##1#4#2#3#',
            '"a]" ##1#2#',
            '"a" ##' + "1" * 19 + "#20#",
            "<T-D-1> ",
            "<T-D-x>",
            "a ##2#1#",
            "a:b ##1#2#",
            "a  b ##1#2#",
            "a\tb ##1#2#",
            "a b",
            "a #b ##1#2#",
            "\xa0a ##1#2#",
            '"a" ##01#2#',
            '"a" ##1#2#"',
        ]
    ),
)


@st.composite
def usual_texts(draw: st.DrawFn) -> str:
    """Files of usual lines: slots with a fill, continuation fills, now and then
    something else after a line."""
    lines: list[str] = []
    for number in range(1, draw(st.integers(1, 3)) + 1):
        lines.append(f"<T-D-{number}> :=")
        for name in draw(st.lists(st.sampled_from(["A", "B_1", "c-d", "E"]), min_size=1, max_size=4, unique=True)):
            mark = draw(_mostly(st.just(""), st.sampled_from(["? ", "?"])))
            lines.append("    " + name + ": " + mark + draw(_USUAL_FILLS))
            for _ in range(draw(st.integers(0, 2))):
                lines.append(draw(st.sampled_from(["       ", "  ", "\t"])) + draw(_USUAL_FILLS))
            lines.extend(
                draw(st.lists(_mostly(st.nothing(), st.sampled_from(["  ; c", "", "  \f", "     / x"])), max_size=1))
            )
    newline = draw(_mostly(st.just("\n"), st.just("\r\n")))
    return newline.join(lines) + draw(st.sampled_from(["", "\n"]))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(usual_texts(), st.sampled_from(["reference", "hypothesis"]))
def test_the_short_cut_for_usual_lines_reads_them_as_the_tokens_do(text: str, role: str) -> None:
    assert _parse_with("start", text, role) == _parse_with("tokens", text, role), text


def test_usual_lines_are_read_the_same_both_ways() -> None:
    text = (
        '<T-D-1> :=\n    A: "a b" ##1#4#\n       "c" ##5#6#\n    B: ? <T-D-2>\n    C: "[x] y" ##0#5#\n'
        '    D: "q" ##3#9#\n<T-D-2> :=\n    E: "e" ##1#2#\n'
    )
    for role in ("reference", "hypothesis"):
        outcome = _parse_with("start", text, role)
        assert outcome[0] == "accepted"
        assert outcome == _parse_with("tokens", text, role)
    # A reversed extent leaves the short cut, to be rejected the general way.
    assert _parse_with("start", text.replace("##3#9#", "##9#3#"), "reference") == ("rejected",)


@pytest.mark.parametrize(("name", "role"), [("ref.tpl", "reference"), ("hyp.tpl", "hypothesis")])
def test_the_sample_is_read_by_the_instance_level_grammar(examples: Path, name: str, role: str) -> None:
    text = (examples / "sample" / name).read_text(encoding="utf-8")
    outcome = _parse_with("start", text, role)
    assert outcome[0] == "accepted"
    assert outcome == _parse_with("tokens", text, role)


def test_written_files_are_read_by_the_instance_level_grammar() -> None:
    text = (
        '; a comment\n\n<T-D-1> :=\n  X: ? "a [b]" ##1#4#\n       "c"\n     / d ##5#6#\n'
        "     /\n       Y: not a slot\n  EMPTY:\n  NEXT:\n    <T-D-1>\n"
    )
    tset = parse_templates(text, "t.tpl")
    for written in (text, write_templates(tset)):
        outcome = _parse_with("start", written, "reference")
        assert outcome[0] == "accepted", written
        assert outcome == _parse_with("tokens", written, "reference")


# ------------------------------------------------ the usual instance, short cut

_USUAL_INSTANCE = '<T-D-1> :=\n    A: "a b" ##1#4#\n       "c" ##5#6#\n    B: ? <T-D-2>\n  C: "q" ##3#9#\n'


def _usual_reading(text: str, role: str, line: int = 1) -> Instance | None:
    from lark import Token

    from hub4eval.io.templettes.builders import InstanceBuilder

    builder = InstanceBuilder()
    builder.reset("t.tpl", role)  # type: ignore[arg-type]
    return builder._usual_instance(Token("INSTANCE", text, line=line, column=1))


@pytest.mark.parametrize("role", ["reference", "hypothesis"])
def test_a_usual_instance_is_read_in_one_go_as_the_tokens_read_it(role: str) -> None:
    text = _USUAL_INSTANCE if role == "reference" else _USUAL_INSTANCE.replace("? ", "")
    instance = _usual_reading("\n\n" + text, role, line=3)
    assert instance is not None and instance.line == 5  # blank lines are lines
    instance = _usual_reading(text, role, line=1)
    assert instance is not None
    tokens = _parse_with("tokens", text + "<T-D-2> :=\n  X: <T-D-1>\n", role)
    assert tokens[0] == "accepted"
    assert _positions((instance,)) == tokens[1][: len(_positions((instance,)))]
    assert instance.slot("B").optional is (role == "reference")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("change", "role"),
    [
        (("B: ", "A: "), "reference"),  # a duplicate slot: the general reading reports it
        (("<T-D-2>", "<T-D-x>"), "reference"),  # a malformed pointer
        (("<T-D-1>", "<T-D>"), "reference"),  # a malformed header
        (("##3#9#", "##9#3#"), "reference"),  # a reversed extent
        (('"q"', '"[q]"'), "reference"),  # minimal strings
        (("B: ? ", "B: ? "), "hypothesis"),  # '?' warns in a hypothesis
        (('  C: "q"', '\t C: "q"'), "reference"),  # a tab in the indentation
        (("    B:", "  \f\n    B:"), "reference"),  # a blank line with a form feed
        (("    B:", "  ;a\rb\n    B:"), "reference"),  # a carriage return inside a comment line
        (("##1#4#", "##1#4# "), "reference"),  # a blank at the end of a line
        (('"q"', '"q\r"'), "reference"),  # a carriage return inside a line
        (("<T-D-1> :=", "<T-D-1>  :="), "reference"),  # two blanks before ':='
    ],
)
def test_anything_unusual_leaves_the_short_cut_for_the_general_reading(change: tuple[str, str], role: str) -> None:
    assert _usual_reading(_USUAL_INSTANCE, "reference") is not None
    assert _usual_reading(_USUAL_INSTANCE.replace(*change), role) is None


def test_a_duplicate_slot_of_a_usual_instance_is_reported_at_the_second() -> None:
    text = _USUAL_INSTANCE.replace("  C: ", "  A: ") + "<T-D-2> :=\n  X: <T-D-1>\n"
    with pytest.raises(InputError) as caught:
        parse_templates(text, "t.tpl")
    assert (caught.value.line, caught.value.column) == (5, 3)
    assert "duplicate slot A" in str(caught.value)


# ---------------------------------------------------- the usual file, short cut
#
# A file of usual lines only is read without Lark (InstanceBuilder.usual_file):
# whatever it accepts, the grammar must accept with the same instances and
# positions, and a file it refuses goes to the grammar.


def _usual_file_reading(text: str, role: str) -> tuple[Any, ...] | None:
    from hub4eval.io.templettes.builders import InstanceBuilder

    builder = InstanceBuilder()
    builder.reset("t.tpl", role)  # type: ignore[arg-type]
    instances = builder.usual_file(text if text.endswith("\n") else text + "\n")
    if instances is None:
        return None
    assert not builder.warnings  # the short cut warns of nothing
    # the pointer fills it records (for the file-wide pointer check) are the
    # file's pointer fills themselves, in file order (a usual slot has one alternative)
    fills = [fill for instance in instances for slot in instance.slots for fill in slot.alternatives[0].fills]
    assert [id(fill) for fill in builder.pointers] == [id(fill) for fill in fills if type(fill) is PointerFill]
    return ("accepted", _positions(instances), [])


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(usual_texts(), templette_texts(), _any_text), st.sampled_from(["reference", "hypothesis"]))
def test_a_file_the_usual_reading_accepts_is_read_so_by_the_grammar(text: str, role: str) -> None:
    usual = _usual_file_reading(text, role)
    if usual is not None:
        assert usual == _parse_with("tokens", text, role), text


@st.composite
def strictly_usual_texts(draw: st.DrawFn) -> str:
    """Files of usual lines only, in the grammar's order, with blank and comment lines."""
    lines: list[str] = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        docid = "D" + draw(st.sampled_from(["", ".5", "-x"]))
        lines.append(f"<T-{docid}-{number}> :=")
        names = draw(st.lists(st.sampled_from(["A", "B_1", "c-d", "E"]), max_size=4, unique=True))
        for name in names:
            fills = st.sampled_from(
                [
                    '"a b" ##1#4#',
                    '"x" ##0#1#',
                    f"<T-{docid}-1>",  # into the same document (else the grammar's reading reports it)
                    '"" ##3#3#',
                    '"a ; b" ##1#2#',
                    "V.1-2 ##0#5#",
                    "New York ##1#9#",
                ]
            )
            mark = draw(st.sampled_from(["", "", "? "]))
            lines.append(draw(st.sampled_from(["", "  ", "    "])) + name + ": " + mark + draw(fills))
            lines.extend(" " * draw(st.integers(0, 9)) + draw(fills) for _ in range(draw(st.integers(0, 2))))
    # blank and comment lines anywhere, the first line included
    for _ in range(draw(st.integers(0, 3))):
        blank = draw(st.sampled_from(["", "  ", "\t", "; c", "   ;x <T-D-1> :="]))
        lines.insert(draw(st.integers(0, len(lines))), blank)
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return "".join(line + newline for line in lines)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(strictly_usual_texts(), st.sampled_from(["reference", "hypothesis"]))
def test_a_file_of_usual_lines_is_read_by_the_short_cut_as_the_grammar_reads_it(text: str, role: str) -> None:
    if role == "hypothesis":
        text = text.replace(": ? ", ": ")  # '?' warns in a hypothesis: the grammar reads it
    usual = _usual_file_reading(text, role)
    assert usual is not None, text
    assert usual == _parse_with("tokens", text, role) == _parse_with("start", text, role), text


@settings(max_examples=100, deadline=None)
@given(strictly_usual_texts())
def test_the_usual_reading_bounds_each_hypothesis_set_as_a_walk_over_its_fills_does(text: str) -> None:
    text = text.replace(": ? ", ": ")
    try:
        tset = parse_templates(text, "t.tpl", "hypothesis")
    except InputError:
        return  # a pointer to no instance, a header the slips read otherwise: no set to bound
    walked = []  # the smallest start and the largest end of the first extents of each set's text fills
    for iset in tset.instance_sets:
        extents = [
            fill.extents[0]
            for instance in iset.instances
            for slot in instance.slots
            for alternative in slot.alternatives
            for fill in alternative.fills
            if isinstance(fill, TextFill) and fill.extents
        ]
        walked.append((min(e.start for e in extents), max(e.end for e in extents)) if extents else None)
    in_file_order = sorted(tset.instances, key=lambda instance: instance.line)
    runs = [docid for docid, _ in itertools.groupby(instance.docid for instance in in_file_order)]
    if len(set(runs)) == len(runs):  # each DOCID's instances one run: the reader's runs are the sets
        assert tset.fill_bounds() == walked, text
    else:
        assert tset.fill_bounds() is None, text
    assert parse_templates(text, "t.tpl", "reference").fill_bounds() is None  # a hypothesis's only


@settings(max_examples=100, deadline=None)
@given(strictly_usual_texts(), st.sampled_from(["reference", "hypothesis"]))
def test_the_usual_reading_cuts_the_sets_at_its_runs_as_grouping_each_instance_does(text: str, role: str) -> None:
    if role == "hypothesis":
        text = text.replace(": ? ", ": ")
    try:
        tset = parse_templates(text, "t.tpl", role)  # type: ignore[arg-type]
    except InputError:
        return
    from hub4eval.io.templettes.builders import InstanceBuilder

    builder = InstanceBuilder()  # the file's instances read again, in file order
    builder.reset("t.tpl", role)  # type: ignore[arg-type]
    instances = builder.usual_file(text)
    assert instances is not None, text
    assert tset.instance_sets == _group(instances), text  # the oracle: each instance looked at


def test_the_readers_bounds_are_left_out_where_its_sets_are_not_its_runs() -> None:
    split = '<T-D-1> :=\n    A: "a" ##1#2#\n<T-E-1> :=\n    A: "b" ##5#9#\n<T-D-2> :=\n    A: "c" ##0#1#\n'
    assert parse_templates(split, "t.tpl", "hypothesis").fill_bounds() is None  # D's instances in two runs
    one = '<T-D-1> :=\n    A: "a" ##3#4#\n    B: <T-D-2>\n<T-D-2> :=\n    A: "c" ##1#2#\n<T-E-1> :=\n    B: <T-E-1>\n'
    tset = parse_templates(one, "t.tpl", "hypothesis")
    assert tset.fill_bounds() == [(1, 4), None]
    copy = replace(tset, path="u.tpl")  # a copy is made without what the reader kept, and so is a pickle
    assert copy == tset and copy.fill_bounds() is None
    assert pickle.loads(pickle.dumps(tset)).fill_bounds() is None
    general = one.replace('"a" ##3#4#', '"a" ##3#4#5#6#')  # read by the grammar: no bounds kept
    assert parse_templates(general, "t.tpl", "hypothesis").fill_bounds() is None


@pytest.mark.parametrize(
    "text",
    [
        '<T-D-1> :=\n    "a" ##1#2#\n',  # a fill before any slot
        '    A: "a" ##1#2#\n<T-D-1> :=\n    B: "b" ##1#2#\n',  # a slot before any header
        '"a" ##1#2#\n',  # a fill before any header
        '<T-D-1> :=\n    A: "a" ##1#2#\n    A: "b" ##1#2#\n',  # a duplicate slot
        '<T-D-1> :=\n    A: "a" ##2#1#\n',  # a reversed extent
        "<T-D-1> :=\n    A: <T-D>\n",  # a malformed pointer
        "<T-D-1> :=\n    A: <T-E-1>\n<T-E-1> :=\n    A: <T-E-1>\n",  # a pointer into another document's set
        '<T-D-1> :=\n    A: "[a]" ##1#2#\n',  # reference brackets
        '<T-D-1> :=\n    A: "a" ##1#2#\n       B:b ##1#2#\n',  # a slot line, as the grammar reads it
        "<T-D-1> :=\n    A: a b\n",  # content without an extent
        '  <T-D-1> :=\n    A: "a" ##1#2#\n',  # an indented header
        '<T-D-1> :=\n    A: "a" ##1#2#\n\f\n<T-D-2> :=\n    B: "a" ##1#2#\n',  # a form feed line
        '<T-D-1> :=\n    A: <T-D-2> :=\n    B: "a" ##1#2#\n',  # a header after a slot name
        '<T.x-D-1> :=\n    A: "a" ##1#2#\n',  # a '.' in a header's type
        "<T-D-1> :=\n    A: <T.x-D-1>\n",  # a '.' in a pointer's type
        '<T-D-1234567890123456789> :=\n    A: "a" ##1#2#\n',  # a header's number of 19 digits
        "<T-D-1> :=\n    A: <T-D-1234567890123456789>\n",  # a pointer's number of 19 digits
        "<T-D-1> :=\n    A: <T D-1>\n",  # a blank inside a pointer
    ],
)
def test_anything_unusual_in_a_file_leaves_the_short_cut(text: str) -> None:
    assert _usual_file_reading(text, "reference") is None
    usual = text.replace('"[a]"', '"a"').replace('    A: "b"', '    B: "b"')
    if usual != text and "##2#1#" not in text:
        assert _usual_file_reading(usual, "reference") is not None


def test_a_usual_file_is_read_with_its_positions_from_its_first_line() -> None:
    text = '<T-D-1> :=\n    A: "a" ##1#2#\n<T-D-2> :=\n  B: ? <T-D-1>\n      "c" ##0#1#\n'
    part = parse_templates(text, "t.tpl", first_line=7)
    assert [instance.line for instance in part.instances] == [7, 9]
    assert [(fill.line, fill.column) for fill in part.instances[1].slots[0].alternatives[0].fills] == [(10, 8), (11, 7)]
    hypothesis = _usual_file_reading(text, "hypothesis")
    assert hypothesis is None  # '?' in a hypothesis warns: the grammar reads it
