"""Real `score --json` output of the examples validates against docs/score-output.schema.json."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from hub4eval.cli import app
from tests.support import EXAMPLES, ROOT

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test extra: pip install -e '.[test]'")

SCHEMA = json.loads((ROOT / "docs" / "score-output.schema.json").read_text(encoding="utf-8"))
ASR = EXAMPLES / "asr"
RUNS = {
    "sample": [EXAMPLES / "sample" / "ref.tpl", EXAMPLES / "sample" / "hyp.tpl"],
    "sample with same texts": [
        EXAMPLES / "sample" / "ref.tpl",
        EXAMPLES / "sample" / "hyp.tpl",
        "--ref-text",
        EXAMPLES / "sample" / "text.sgml",
    ],
    "clean": [
        EXAMPLES / "clean" / "ref.tpl",
        EXAMPLES / "clean" / "hyp.tpl",
        "--ref-text",
        EXAMPLES / "clean" / "text.sgml",
    ],
    "asr": [
        ASR / "ref.tpl",
        ASR / "hyp.tpl",
        "--ref-text",
        ASR / "reference.sgml",
        "--hyp-text",
        ASR / "asr_unsegmented.sgml",
    ],
    "asr, bootstrap": [
        ASR / "ref.tpl",
        ASR / "hyp.tpl",
        "--ref-text",
        ASR / "reference.sgml",
        "--hyp-text",
        ASR / "asr_unsegmented.sgml",
        "--bootstrap",
        "30",
    ],
}


def _output(name: str) -> dict:
    result = CliRunner().invoke(app, ["score", *map(str, RUNS[name]), "--json", "-", "-q"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _validator():
    cls = jsonschema.validators.validator_for(SCHEMA)
    cls.check_schema(SCHEMA)
    return cls(SCHEMA)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_real_output_validates(name):
    data = _output(name)
    errors = sorted(_validator().iter_errors(data), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    assert data["points"], "every example has points"
    assert ("wer" in data) == name.startswith("asr")
    assert ("bootstrap" in data) == name.endswith("bootstrap")


def _break(data: dict, how: str) -> dict:
    broken = copy.deepcopy(data)
    if how == "percent, not fraction":
        broken["summary"]["F"] = 100.0 * broken["summary"]["F"]
    elif how == "missing count":
        del broken["by_slot"][next(iter(broken["by_slot"]))]["MIS"]
    elif how == "unknown category":
        broken["points"][0]["category"] = "WRONG"
    elif how == "slot key without type":
        key = next(iter(broken["by_slot"]))
        broken["by_slot"][key.split(".", 1)[1]] = broken["by_slot"].pop(key)
    elif how == "no signature":
        del broken["signature"]
    elif how == "fill without line":
        del next(p for p in broken["points"] if p["ref"])["ref"]["line"]
    return broken


@pytest.mark.parametrize(
    "how",
    [
        "percent, not fraction",
        "missing count",
        "unknown category",
        "slot key without type",
        "no signature",
        "fill without line",
    ],
)
def test_the_schema_rejects_broken_output(how):
    """So that the validation above can fail: each change breaks one rule the schema states."""
    data = _output("asr")
    assert not list(_validator().iter_errors(data))
    assert list(_validator().iter_errors(_break(data, how)))
