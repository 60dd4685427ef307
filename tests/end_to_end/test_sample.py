"""Golden: the procedure's sample (§10) scores 13 COR, F = 100."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from tests.support import EXAMPLES

SAMPLE = EXAMPLES / "sample"


def test_sample_is_thirteen_correct_points():
    result = score_files(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl")
    summary = result.total.as_dict()
    assert (summary["POS"], summary["ACT"], summary["COR"]) == (13, 13, 13)
    assert summary["REC"] == summary["PRE"] == summary["F"] == 1.0
    kinds = result.by("kind")
    assert (kinds["pointer"].cor, kinds["content"].cor, kinds["extent"].cor) == (1, 6, 6)
    assert set(result.by("slot")) == {
        "TEMPLATE.EVENT",
        "SPORTS_EVENT.S_EVENT",
        "SPORTS_EVENT.WINNER",
        "SPORTS_EVENT.LOSER",
        "SPORTS_EVENT.SCORE",
        "SPORTS_EVENT.LOCATION",
        "SPORTS_EVENT.DATE",
    }


def test_sample_with_identical_texts_is_the_same():
    result = score_files(
        SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", ref_text=SAMPLE / "text.sgml", hyp_text=SAMPLE / "text.sgml"
    )
    assert result.total.cor == 13 and result.total.pos == 13 and result.total.act == 13
    assert "texts:same" in result.signature


def test_sample_cli_table_and_json(tmp_path):
    out = tmp_path / "r.json"
    csv_out = tmp_path / "r.csv"
    runner = CliRunner()
    res = runner.invoke(
        app, ["score", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl"), "--json", str(out), "--csv", str(csv_out)]
    )
    assert res.exit_code == 0, res.output
    assert "F = 100.0  SER = 0.0  REC = 100.0  PRE = 100.0" in res.output
    assert "SPORTS_EVENT.LOSER" in res.output
    data = json.loads(out.read_text())
    assert set(data) >= {"summary", "by_slot", "by_type", "by_document", "by_kind", "mapping", "points"}
    assert data["summary"]["COR"] == 13 and data["summary"]["F"] == 1.0
    assert set(data["summary"]) >= {
        "POS",
        "ACT",
        "COR",
        "INC",
        "MIS",
        "SPU",
        "OPT",
        "REM",
        "REC",
        "PRE",
        "F",
        "UND",
        "OVG",
        "SUB",
        "ERR",
    }
    assert ["PRI19980302.2000.2923", "PRI19980302.2000.2923"] in data["mapping"]["instance_sets"]
    assert len(data["points"]) == 13
    assert {p["category"] for p in data["points"]} == {"COR"}
    assert all(set(p) >= {"slot", "kind", "category", "ref", "hyp", "reason"} for p in data["points"])
    rows = csv_out.read_text().splitlines()
    assert rows[0].startswith("level,name,POS,ACT,COR")
    assert sum(1 for r in rows if r.startswith("slot,")) == 7
