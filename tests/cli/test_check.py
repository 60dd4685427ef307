"""Tests of `hub4eval check` through typer's runner and a real subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.cli.check import summary_table
from hub4eval.model import PointerFill
from tests.support import ROOT
from tests.support.strategies import template_sets


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def write(tmp_path: Path, text: str, name: str = "t.tpl") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_reference_prints_summary(runner: CliRunner, examples: Path) -> None:
    path = examples / "sample" / "ref.tpl"
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "documents (instance sets)" in out
    for row in ("│ instances ", "│   TEMPLATE ", "│   SPORTS_EVENT ", "│ fill-alternatives "):
        assert row in out
    assert "│ instances                       │     4 │" in out
    assert "│ fill-alternatives               │    17 │" in out
    assert "│ slots with several alternatives │     2 │" in out
    assert f"{path}: valid reference templette file (0 warnings)" in out


def test_valid_hypothesis(runner: CliRunner, examples: Path) -> None:
    result = runner.invoke(app, ["check", str(examples / "sample" / "hyp.tpl"), "--hypothesis"])
    assert result.exit_code == 0, result.output
    assert "valid hypothesis templette file" in result.stdout
    assert "│ fill-alternatives               │    10 │" in result.stdout


def test_optional_instances_and_slots_are_counted(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "<T-D-1> :=\n  OBJ_STATUS: OPTIONAL\n  X: ? <T-D-1>\n  Y:\n")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "│ optional instances              │     1 │" in result.stdout
    assert "│ optional slots                  │     1 │" in result.stdout
    assert "│ empty slots                     │     1 │" in result.stdout


def test_warnings_go_to_stderr_and_quiet_hides_them(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "; nothing here\n")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0
    assert f"{path}: warning: no instances in the file" in result.stderr
    assert "(1 warning)" in result.stdout
    quiet = runner.invoke(app, ["check", str(path), "--quiet"])
    assert quiet.exit_code == 0
    assert quiet.stdout == "" and quiet.stderr == ""


@pytest.mark.parametrize(
    ("text", "role", "expected"),
    [
        ("<T-D-1> :=\n  X: a\n  X: b\n", "--reference", ":3:3: duplicate slot X in instance <T-D-1> (hint: "),
        ("<T-D-1> :=\n  X: a\n   / b\n", "--hypothesis", ":3:4: '/' (a second fill-alternative) in hypothesis slot X"),
        ('<T-D-1> :=\n  X: "a" ##2#1#\n', "--reference", ":2:12: reversed extent 2..1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    runner: CliRunner, tmp_path: Path, text: str, role: str, expected: str
) -> None:
    path = write(tmp_path, text)
    result = runner.invoke(app, ["check", str(path), role])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{path}{expected}")
    assert "Traceback" not in result.output


def test_missing_file_and_bad_encoding(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "none.tpl")])
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == f"{tmp_path / 'none.tpl'}: no such file (hint: check the path and the current directory)"
    )
    path = tmp_path / "latin.tpl"
    path.write_bytes(b"<T-D-1> :=\n  X: \xe9\n")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}:2:6: byte 0xe9 at byte offset 16 is not valid utf-8")
    latin = runner.invoke(app, ["check", str(path), "--encoding", "latin-1"])
    assert latin.exit_code == 0 and latin.stderr == ""
    assert f"{path}: valid reference templette file (0 warnings)" in latin.stdout
    row = next(line for line in latin.stdout.splitlines() if "text fills" in line)
    assert row.replace("│", " ").split() == ["text", "fills", "1"]  # the \xe9 fill was read


def test_with_text_corpus(runner: CliRunner, examples: Path) -> None:
    pytest.importorskip("hub4eval.io.corpus")
    sample = examples / "sample"
    result = runner.invoke(app, ["check", str(sample / "ref.tpl"), "--text", str(sample / "text.sgml")])
    assert result.exit_code == 0, result.output
    assert f"valid reference templette file against {sample / 'text.sgml'}" in result.stdout


def test_with_text_corpus_unknown_docid(runner: CliRunner, examples: Path, tmp_path: Path) -> None:
    pytest.importorskip("hub4eval.io.corpus")
    path = write(tmp_path, "<T-PRI19980302.2000.2932-1> :=\n  X: a\n")
    result = runner.invoke(app, ["check", str(path), "--text", str(examples / "sample" / "text.sgml")])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}:1:1: document PRI19980302.2000.2932 (of <T-PRI19980302.2000.2932-1>)")
    assert "did you mean PRI19980302.2000.2923" in result.stderr


def test_every_option_has_help(runner: CliRunner) -> None:
    result = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0
    for text in ("--text", "--hypothesis", "--reference", "--encoding", "--quiet", "Templette file to check"):
        assert text in result.stdout


def test_subprocess(tmp_path: Path, examples: Path) -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "hub4eval", "check", str(examples / "sample" / "ref.tpl")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert "valid reference templette file" in ok.stdout
    bad = write(tmp_path, "SLOT: x\n")
    failed = subprocess.run(
        [sys.executable, "-m", "hub4eval", "check", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert failed.returncode == 2
    assert failed.stdout == ""
    assert failed.stderr == (
        f"{bad}:1:1: slot 'SLOT' before any instance header "
        "(hint: start each instance with a header line such as <TYPE-DOCID-1> :=)\n"
    )
    assert "Traceback" not in failed.stderr


@settings(max_examples=60, deadline=None)
@given(template_sets(reference=True))
def test_the_summary_counts_what_the_set_holds(tset) -> None:
    # each count again, from lists of everything the set holds
    instances = tset.instances
    slots = [slot for instance in instances for slot in instance.slots]
    alternatives = [alternative for slot in slots for alternative in slot.alternatives]
    fills = [fill for alternative in alternatives for fill in alternative.fills]
    pointers = sum(isinstance(fill, PointerFill) for fill in fills)
    types = list(dict.fromkeys(instance.type for instance in instances))
    expected = [
        ("documents (instance sets)", len(tset.instance_sets)),
        ("instances", len(instances)),
        *((f"  {type_}", sum(instance.type == type_ for instance in instances)) for type_ in types),
        ("optional instances", sum(instance.optional for instance in instances)),
        ("slots", len(slots)),
        ("optional slots", sum(slot.optional for slot in slots)),
        ("empty slots", sum(not slot.alternatives for slot in slots)),
        ("fill-alternatives", len(alternatives)),
        ("slots with several alternatives", sum(len(slot.alternatives) > 1 for slot in slots)),
        ("fills", len(fills)),
        ("  pointer fills", pointers),
        ("  text fills", len(fills) - pointers),
    ]
    table = summary_table(tset)
    rows = list(zip(table.columns[0].cells, table.columns[1].cells, strict=True))
    assert rows == [(what, str(count)) for what, count in expected]
