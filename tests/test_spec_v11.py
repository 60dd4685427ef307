"""The rules that scoring specification v1.1 pinned down (issue #15).

One test (or a few) per rule; each fails when its rule is broken. Expected
values are derived by hand in the comments.
"""

from __future__ import annotations

import json

from scoring_helpers import cats, run
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.config import ScoreConfig

runner = CliRunner()


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --min-map-f: 0 is the procedure, the threshold is on instance pairs only ------

ZERO_REF = "<E-D-1> :=\n  A: \"x\"\n"
ZERO_HYP = "<E-D-1> :=\n  A: \"y\"\n"


def test_min_map_f_zero_given_explicitly_maps_zero_f_pairs():
    # The only pair has F = 0 (one INC). The procedure maps it: one INC, not MIS + SPU.
    assert cats(run(ZERO_REF, ZERO_HYP)) == ["INC"]
    assert cats(run(ZERO_REF, ZERO_HYP, min_map_f=0.0)) == ["INC"]
    assert cats(run(ZERO_REF, ZERO_HYP, min_map_f=0)) == ["INC"]
    assert ScoreConfig(min_map_f=0.0).signature(version="x") == ScoreConfig().signature(version="x")


def test_min_map_f_zero_on_the_command_line_equals_the_default(tmp_path):
    ref, hyp = _write(tmp_path, "r.tpl", ZERO_REF), _write(tmp_path, "h.tpl", ZERO_HYP)
    default = runner.invoke(app, ["score", ref, hyp, "--json", "-"])
    zero = runner.invoke(app, ["score", ref, hyp, "--min-map-f", "0", "--json", "-"])
    assert default.exit_code == zero.exit_code == 0, zero.output
    assert json.loads(zero.stdout) == json.loads(default.stdout)
    assert json.loads(zero.stdout)["summary"]["INC"] == 1


def test_min_map_f_above_zero_leaves_weak_instance_pairs_unmapped():
    # F = 0 is not > 0.5: the instances stay unmapped, MIS for the reference, SPU for the hypothesis.
    assert sorted(cats(run(ZERO_REF, ZERO_HYP, min_map_f=0.5))) == ["MIS", "SPU"]


def test_min_map_f_applies_to_instance_pairs_only():
    # Instance pair: A COR, B INC, C INC -> COR 1, POS = ACT = 3, F = 2*1/(3+3) = 1/3 > 0.3: mapped.
    # Inside it the fill pair of B and the alternative pair of C have F = 0; the
    # threshold does not apply to them, so they are still paired (INC, not MIS + SPU).
    ref = '<E-D-1> :=\n  A: "x"\n  B: "p"\n  C: "p"\n   / "r"\n'
    hyp = '<E-D-1> :=\n  A: "x"\n  B: "q"\n  C: "q"\n'
    assert cats(run(ref, hyp, min_map_f=0.3)) == ["COR", "INC", "INC"]
    # and above the pair's F (1/3 is not > 0.34) the instances are not mapped at all
    assert sorted(cats(run(ref, hyp, min_map_f=0.34))) == ["MIS"] * 3 + ["SPU"] * 3
