"""Small helpers for scoring tests: templette text in, result out."""

from __future__ import annotations

import textwrap

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.io.templettes import parse_templates
from hub4eval.scoring.result import ScoreResult


def run(ref: str, hyp: str, **options) -> ScoreResult:
    """Score two templette texts (dedented) with ScoreConfig(**options)."""
    ref_set = parse_templates(textwrap.dedent(ref), "ref.tpl", role="reference")
    hyp_set = parse_templates(textwrap.dedent(hyp), "hyp.tpl", role="hypothesis")
    return score(ref_set, hyp_set, config=ScoreConfig(**options))


def cats(result: ScoreResult, kind: str | None = None) -> list[str]:
    """Categories of the points, in order, optionally of one kind."""
    return [p.category for p in result.points if kind is None or p.kind == kind]


def counts(result: ScoreResult) -> dict[str, int]:
    d = result.total.as_dict()
    return {k: d[k] for k in ("COR", "INC", "MIS", "SPU", "OPT", "REM")}
