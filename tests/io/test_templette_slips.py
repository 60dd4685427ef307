"""Common slips in a hand-written templette file: each is reported at its own line, saying what is
missing there (not as a "duplicate slot" or a dangling pointer further down, and never read as
something else without a word)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hub4eval.errors import InputError
from hub4eval.io.templettes import parse_templates

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "examples" / "sample" / "ref.tpl").read_text(encoding="utf-8")
LINES = SAMPLE.splitlines()


def _slip(line: int, old: str, new: str) -> str:
    """The sample reference with ``old`` replaced by ``new`` on ``line`` (1-based)."""
    lines = list(LINES)
    assert old in lines[line - 1], (line, lines[line - 1])
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return "\n".join(lines) + "\n"


EVENT = "<SPORTS_EVENT-PRI19980302.2000.2923-1>"
# (what the slip is, the file, the line the message must name, words the message must hold).
# Lines of the sample: 9 a TEMPLATE header, 11 its EVENT pointer, 14 the SPORTS_EVENT header,
# 16 a '/' alternative, 18 WINNER, 19 LOSER (with a minimal string), 2 and 3 the first instance.
SLIPS = [
    ("header without ':='", _slip(14, " :=", ""), 14, "lacks ':='"),
    ("template header without ':='", _slip(9, " :=", ""), 9, "lacks ':='"),
    ("header with '=' for ':='", _slip(14, ":=", "="), 14, "'=' where ':=' belongs"),
    ("header with ':' for ':='", _slip(14, ":=", ":"), 14, "':' where ':=' belongs"),
    ("header without its '>'", _slip(14, f"{EVENT} :=", EVENT[:-1] + " :="), 14, "lacks its closing '>'"),
    ("header without brackets", _slip(14, f"{EVENT} :=", EVENT[1:-1] + " :="), 14, "lacks its brackets"),
    ("slot without ':' before a quote", _slip(18, "WINNER:", "WINNER"), 18, "without ':'"),
    ("slot without ':' before a pointer", _slip(11, "EVENT:", "EVENT"), 11, "without ':'"),
    ("slot without ':' before plain content", _slip(2, "DOC_NR:", "DOC_NR"), 2, "without ':'"),
    ("slot with '=' for ':'", _slip(18, "WINNER:", "WINNER ="), 18, "'=' where ':' belongs"),
    ("unclosed quote", _slip(18, '"Egypt"', '"Egypt'), 18, "unterminated quoted fill"),
    ("unclosed quote, no extent", _slip(3, 'yet"', "yet"), 3, "unterminated quoted fill"),
    ("pointer without its '>'", _slip(11, EVENT, EVENT[:-1]), 11, "lacks its closing '>'"),
    ("pointer without brackets", _slip(11, EVENT, EVENT[1:-1]), 11, "lacks its brackets"),
    ("extent with one '#'", _slip(18, "##332#337#", "#332#337#"), 18, "expected an extent part '##a#b#'"),
    ("extent with an odd count", _slip(18, "##332#337#", "##332#"), 18, "odd number of extent offsets"),
    ("extent with a comma", _slip(18, "##332#337#", "##332,337#"), 18, "expected '#'"),
    ("reversed extent", _slip(18, "##332#337#", "##337#332#"), 18, "reversed extent"),
    ("'/' without its fill", _slip(16, '/ "the African cup" ##401#416#', "/"), 16, "without its fill"),
    ("unclosed minimal string", _slip(19, "[south Africa]", "[south Africa"), 19, "'[' without a matching ']'"),
]


@pytest.mark.parametrize(("text", "line", "words"), [case[1:] for case in SLIPS], ids=[case[0] for case in SLIPS])
def test_each_slip_is_reported_at_its_own_line_with_what_is_missing(text: str, line: int, words: str) -> None:
    with pytest.raises(InputError) as info:
        parse_templates(text, "slip.tpl")
    error = info.value
    assert (error.path, error.line) == ("slip.tpl", line), str(error)
    assert words in error.message, str(error)
    assert "\n" not in str(error)


@pytest.mark.parametrize(("text", "line"), [("/\n/", 1), ("; note\n\n/\n/\n", 3), ("  /\n\n/", 1)])
def test_a_lone_slash_is_reported_at_its_own_line(text: str, line: int) -> None:
    # found by the property test that parses any text: a '/' on the first line was reported at
    # line 0, and one further down at the line before it
    with pytest.raises(InputError) as info:
        parse_templates(text, "slip.tpl")
    assert (info.value.line, info.value.column) == (line, text.splitlines()[line - 1].index("/") + 1), str(info.value)


def test_the_sample_and_usual_lookalikes_are_not_slips() -> None:
    parse_templates(SAMPLE, "ok.tpl")
    # plain content that starts with a word that is no slot name, a pointer to an instance of the
    # file on its own line, and quoted content after a mixed-case word are fills as before
    text = (
        "<T-D-1> :=\n    NAME: first ##0#5#\n    Egypt 2-0 ##6#9#\n    EVENT: <E-D-1>\n    <E-D-2>\n"
        '    COMMENT: Mr "Smith"\n<E-D-1> :=\n    X: a ##0#1#\n<E-D-2> :=\n    X: b ##1#2#\n'
    )
    tset = parse_templates(text, "ok.tpl")
    assert len(tset.instances) == 3


def test_a_slip_in_a_part_of_a_file_names_the_line_of_the_whole_file() -> None:
    with pytest.raises(InputError) as info:
        parse_templates(_slip(18, "WINNER:", "WINNER"), "slip.tpl", first_line=101)
    assert info.value.line == 118


@pytest.mark.slow
def test_check_reports_the_slip_in_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "bad_header.tpl"
    path.write_text(_slip(14, " :=", ""), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "check", str(path)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{path}:14:39: instance header {EVENT} lacks ':='"), proc.stderr
    assert proc.stderr.count("\n") == 1
