"""SER, the slot error rate: (INC + MIS + SPU) / (COR + INC + MIS), beside F in
every table, the JSON (and its schema), the CSV, the HTML page and compare.

Expected values are derived by hand in the comments."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hub4eval.scoring.metrics import METRICS, Counts

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ROOT / "examples" / "clean"
# examples/clean: COR 13, INC 2, MIS 16, SPU 5 (the README's table):
# SER = (2 + 16 + 5) / (13 + 2 + 16) = 23 / 31
CLEAN_SER = 23 / 31


def test_ser_is_errors_over_reference_points_and_may_exceed_one() -> None:
    # 2 COR, 1 MIS, 4 SPU: SER = (0 + 1 + 4) / (2 + 0 + 1) = 5/3; ERR = 5/7
    c = Counts(cor=2, mis=1, spu=4)
    m = c.metrics()
    assert m["SER"] == pytest.approx(5 / 3)
    assert m["ERR"] == pytest.approx(5 / 7)
    assert METRICS.index("SER") == METRICS.index("ERR") + 1


def test_ser_is_undefined_without_reference_points() -> None:
    assert Counts(spu=3, opt=2, rem=1).metrics()["SER"] is None
    assert Counts().metrics()["SER"] is None
    # OPT and REM are not points: one COR alone is SER 0
    assert Counts(cor=1, opt=4, rem=4).metrics()["SER"] == 0.0


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50))
def test_ser_formula(cor: int, inc: int, mis: int, spu: int) -> None:
    value = Counts(cor, inc, mis, spu).metrics()["SER"]
    if cor + inc + mis == 0:
        assert value is None
    else:
        assert value == pytest.approx(float(Fraction(inc + mis + spu, cor + inc + mis)))


def _hub4eval(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env={**__import__("os").environ, "COLUMNS": "200"},
    )


def test_ser_in_tables_json_csv_and_html(tmp_path: Path) -> None:
    out_json, out_csv, out_html = tmp_path / "s.json", tmp_path / "s.csv", tmp_path / "s.html"
    proc = _hub4eval(
        "score",
        CLEAN / "ref.tpl",
        CLEAN / "hyp.tpl",
        "--json",
        out_json,
        "--csv",
        out_csv,
        "--html",
        out_html,
        "--by",
        "document",
    )
    assert proc.returncode == 0, proc.stderr
    # tables: a SER column after ERR in the slot and document tables, and the headline
    header_lines = [line for line in proc.stdout.splitlines() if "┃" in line]
    assert header_lines and all(line.split("┃")[-1].strip() == "SER" for line in header_lines)
    assert "ALL" in proc.stdout and "SER = 74.2" in proc.stdout
    # JSON: every COUNTS object has SER; the schema requires it
    data = json.loads(out_json.read_text())
    assert data["summary"]["SER"] == pytest.approx(CLEAN_SER)
    assert all("SER" in counts for counts in data["by_slot"].values())
    assert all("SER" in counts for counts in data["by_document"].values())
    schema = json.loads((ROOT / "docs" / "score-output.schema.json").read_text())
    assert "SER" in schema["$defs"]["counts"]["required"]
    # CSV: a SER column
    rows = list(csv.DictReader(out_csv.open()))
    assert "SER" in rows[0]
    overall = [r for r in rows if r.get("level") == "overall" or r.get("name") == "ALL"]
    assert overall and float(overall[0]["SER"]) == pytest.approx(CLEAN_SER, abs=1e-6)
    # HTML: a SER column in the tables and in the headline
    page = out_html.read_text()
    assert "<th>SER</th>" in page and "SER = 74.2" in page


def test_ser_above_one_is_valid_json(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    # one reference fill, three spurious instances: SER > 1
    (tmp_path / "ref.tpl").write_text('<E-D-1> :=\n  A: "x"\n')
    (tmp_path / "hyp.tpl").write_text('<E-D-1> :=\n  A: "y"\n  B: "z"\n  C: "w"\n')
    proc = _hub4eval("score", "ref.tpl", "hyp.tpl", "--json", "-", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    # A: INC (y vs x); B, C: SPU each: SER = (1 + 0 + 2) / (0 + 1 + 0) = 3
    assert data["summary"]["SER"] == pytest.approx(3.0)
    schema = json.loads((ROOT / "docs" / "score-output.schema.json").read_text())
    jsonschema.validate(data, schema)


def test_ser_in_compare(tmp_path: Path) -> None:
    proc = _hub4eval(
        "compare", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", CLEAN / "hyp.tpl", "--json", "-", "--bootstrap", "50"
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["SER"]["A"] == pytest.approx(CLEAN_SER) and data["SER"]["B"] == pytest.approx(CLEAN_SER)
    shown = _hub4eval("compare", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", CLEAN / "hyp.tpl", "--bootstrap", "50")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count("SER = 74.2") == 2  # the headline of A and of B
