"""Score tables read at 80 columns: every number of the wide table, none cut.

The rule (docs/conventions.md, "Tables"): one wide table when it fits the
width (the terminal's; piped, $COLUMNS, else 160), else the same rows as two
tables, counts then metrics.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.cli import app
from tests.support import EXAMPLES, ROOT

ASR = EXAMPLES / "asr"
CLEAN = EXAMPLES / "clean"
RUNS = {
    "asr": [
        ASR / "ref.tpl",
        ASR / "hyp.tpl",
        "--ref-text",
        ASR / "reference.sgml",
        "--hyp-text",
        ASR / "asr_unsegmented.sgml",
        "--by",
        "document",
        "--by",
        "type",
    ],
    "clean": [CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--by", "document", "--sort", "F"],
}
VALUE = re.compile(r"^(?:\d+|\d+\.\d|-)$")


def _score(width: int, args: list) -> str:
    result = CliRunner().invoke(app, ["score", *map(str, args), "-q"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.stdout


def _rows(text: str) -> dict[tuple[str, str], list[str]]:
    """(table, row name) -> the row's value cells, across every table of the output.

    A table's rows are the lines with a '│' after its title; the narrow layout
    prints a table twice (counts, metrics), so the cells of a row are joined.
    A name too long for its column continues on the next line with empty
    cells (docs/conventions.md, "Tables"): that line completes the name.
    """
    rows: dict[tuple[str, str], list[str]] = {}
    table: str | None = ""
    last: tuple[str, list[str]] | None = None
    for line in text.splitlines():
        if line.startswith("Scores per "):
            table = line.split(" (")[0].strip()
        elif line.startswith("What the recognizer cost"):
            table = None  # one compact layout at every width (its own tests), cells like 1/0/2
        elif "│" in line and table is not None:
            name, *cells = (cell.strip() for cell in line.split("│"))
            if last is not None and not any(cells):  # the rest of the previous row's name
                del rows[(table, last[0])][-len(last[1]) :]
                if not rows[(table, last[0])]:
                    del rows[(table, last[0])]
                last = (last[0] + name, last[1])
                rows.setdefault((table, last[0]), []).extend(last[1])
                continue
            assert all(VALUE.match(cell) for cell in cells), line
            last = (name, cells)
            rows.setdefault((table, name), []).extend(cells)
    return rows


@pytest.mark.parametrize("run", sorted(RUNS))
def test_at_80_columns_every_number_of_the_wide_table_is_printed_whole(run):
    wide, narrow = _score(200, RUNS[run]), _score(80, RUNS[run])
    assert "(counts)" not in wide and "(counts)" in narrow and "(metrics, %)" in narrow
    assert "…" not in narrow
    lines = narrow.splitlines()
    assert all(len(line) <= 80 for line in lines[:-1]), max(lines[:-1], key=len)  # the last line is the signature
    wide_rows, narrow_rows = _rows(wide), _rows(narrow)
    assert wide_rows == narrow_rows
    assert all(len(cells) == 16 for cells in wide_rows.values())
    assert len(wide_rows) >= 10


def test_a_long_slot_name_folds_and_the_numbers_stay_whole(tmp_path):
    name = "AN_EXTRAORDINARILY_LONG_EVENT_TYPE.AND_A_SLOT_NAME_LONGER_STILL"
    type_, slot = name.split(".")
    ref = "".join(f'<{type_}-D{n}-1> :=\n  {slot}: "[word{n}] x"\n' for n in range(3))
    hyp = "".join(f'<{type_}-D{n}-1> :=\n  {slot}: "word{n}"\n' for n in range(2))
    (tmp_path / "ref.tpl").write_text(ref, encoding="utf-8")
    (tmp_path / "hyp.tpl").write_text(hyp, encoding="utf-8")
    narrow = _score(80, [tmp_path / "ref.tpl", tmp_path / "hyp.tpl"])
    assert "…" not in narrow
    assert all(len(line) <= 80 for line in narrow.splitlines()[:-1])
    # 3 reference fills, 2 hypothesis fills, each inside its reference and holding its minimal
    # string "wordN": POS 3, ACT 2, COR 2, MIS 1;
    # REC = 2/3 = 66.7, PRE = 2/2 = 100.0, F = 2*2/(3+2) = 80.0
    joined = " ".join(narrow.split())
    assert "│ 3 │ 2 │ 2 │ 0 │ 1 │ 0 │ 0 │ 0" in joined
    assert "│ 66.7 │ 100.0 │ 80.0 │" in joined


def test_a_real_process_with_columns_80_uses_the_narrow_layout():
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "score", *map(str, RUNS["asr"][:6])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"COLUMNS": "80", "PATH": "", "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Scores per slot (counts)" in proc.stdout and "…" not in proc.stdout


@pytest.mark.parametrize("command", [None, "score", "explain", "compare", "align", "check"])
def test_help_wraps_at_80_columns(command):
    args = ["--help"] if command is None else [command, "--help"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert "…" not in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines()), result.stdout


# ------------------------------------------------------------ tables drawn without rich

# mostly what rich draws as it is; in one table in five, markup, emoji codes or blanks at an end
_NAMES = st.text(alphabet="ABCXYZabc.-_()%/0123456789", max_size=10)
_ODD_NAMES = _NAMES | st.text(alphabet="Ab []:", max_size=6)
_HEADERS = st.lists(st.text(alphabet="ABCabc%/", min_size=1, max_size=8), min_size=1, max_size=3).map(
    "\n".join
) | st.sampled_from(["", " ", "A\n\nB", "A \nB"])
_TITLES = st.lists(st.text(alphabet="abcXYZ()/%", min_size=1, max_size=12), max_size=8).map(" ".join) | st.text(
    alphabet="ab :[", max_size=20
)


@st.composite
def _tables(draw):
    """Tables as the report draws them (rich's default box without its edge), with titles,
    names and headers that rich may read as markup or must wrap, sections and empty tables."""
    from rich.table import Table

    title = draw(st.none() | _TITLES)
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    columns = draw(st.integers(2, 5))
    justify = draw(st.lists(st.sampled_from(["left", "right"]), min_size=columns, max_size=columns))
    for k in range(columns):
        table.add_column(draw(_HEADERS), justify=justify[k], no_wrap=draw(st.booleans()), overflow="fold")
    names = _ODD_NAMES if draw(st.integers(0, 4)) == 0 else _NAMES
    for _ in range(draw(st.integers(0, 6))):
        table.add_row(*(draw(names) for _ in range(columns)), style=draw(st.sampled_from([None, "bold", "dim"])))
        if draw(st.booleans()):
            table.add_section()
    return table


@settings(max_examples=500, deadline=None)
@given(table=_tables(), width=st.integers(10, 120))
def test_a_table_drawn_without_rich_is_what_rich_draws(table, width):
    """``plain_table`` gives rich's lines exactly, whenever it draws a table at all (else
    None and rich draws it); ``natural_width`` is rich's measurement."""
    import io

    from rich.console import Console
    from rich.measure import Measurement

    from hub4eval.report.tables import natural_width, plain_table

    console = Console(file=io.StringIO(), width=width, no_color=True)
    console.print(table)
    plain = plain_table(table, width)
    if plain is not None:
        assert plain == console.file.getvalue()
    wide = Console(width=100_000)
    assert natural_width(table) == Measurement.get(wide, wide.options, table).maximum


def test_the_report_tables_are_drawn_without_rich_when_piped():
    """The slot table and the cause table of the ASR example, as the score command prints them
    piped, are drawn directly (not None), and are rich's lines."""
    import io

    from rich.console import Console

    from hub4eval.api import score_files
    from hub4eval.report.tables import cause_table, plain_table, slot_tables

    asr = ROOT / "examples" / "asr"
    result = score_files(
        asr / "ref.tpl", asr / "hyp.tpl", ref_text=asr / "reference.sgml", hyp_text=asr / "asr_unsegmented.sgml"
    )
    causes = cause_table(result)
    assert causes is not None
    for width in (60, 80, 160):
        for table in [*slot_tables(result, width), causes]:
            console = Console(file=io.StringIO(), width=width, no_color=True)
            console.print(table)
            plain = plain_table(table, width)
            assert plain is not None or width < 80
            if plain is not None:
                assert plain == console.file.getvalue()


_cell_text = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=30),
    st.text(alphabet="abcXYZ019.-_() ", min_size=1, max_size=30),
    st.text(alphabet="AB. é", min_size=1, max_size=5),
)
_count = st.integers(0, 10**7).map(str)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.one_of(_cell_text, _count), min_size=7, max_size=7), max_size=6),
    st.integers(40, 200),
)
def test_the_wer_table_drawn_without_rich_is_what_rich_draws(rows, width):
    """``align``'s table (a title, a section, a bold ALL row), piped, is drawn by ``plain_table``
    (``print_table``): rich is the reference (or draws it itself: None)."""
    import io

    from rich.console import Console

    from hub4eval.report.tables import plain_table, wer_table

    total = ["ALL", "1", "2", "3", "4", "5", "12.5"]
    plain = plain_table(wer_table(rows, total), width)
    if plain is None:
        return
    console = Console(width=width, no_color=True, file=io.StringIO())
    console.print(wer_table(rows, total))
    assert plain == console.file.getvalue()


def test_the_wer_table_of_plain_docids_is_drawn_without_rich():
    from hub4eval.report.tables import plain_table, wer_table

    total = ["ALL", "1", "1", "0", "0", "0", "0.0"]
    assert plain_table(wer_table([["DOC1", "1", "1", "0", "0", "0", "0.0"]], total), 160) is not None
    assert plain_table(wer_table([["[b]x", "1", "1", "0", "0", "0", "0.0"]], total), 160) is None  # markup
    assert plain_table(wer_table([["D" * 200, "1", "1", "0", "0", "0", "0.0"]], total), 160) is None  # too wide
