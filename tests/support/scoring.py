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


def region_oracle(ref, hyp, elements, points: int, right) -> tuple[int, int, int, int]:
    """(COR, INC, MIS, SPU) of named-entity regions ``(element, TYPE, first, last)`` mapped
    by hand as MUC maps them: per element, the pairs that ``right(r, h)`` allows (None: not
    a pair) ranked by their right points, most first, then reference and hypothesis order
    (regions in text order), taken while both are free; each region is ``points`` points."""
    cor = inc = mis = spu = 0
    for element in elements:
        refs = sorted((r for r in ref if r[0] == element), key=lambda r: (r[2], -r[3]))
        hyps = sorted((h for h in hyp if h[0] == element), key=lambda h: (h[2], -h[3]))
        pairs = []
        for i, r in enumerate(refs):
            for j, h in enumerate(hyps):
                got = right(r, h)
                if got is not None:
                    pairs.append((-got, i, j, got))
        used_ref, used_hyp = set(), set()
        for _, i, j, got in sorted(pairs):
            if i in used_ref or j in used_hyp:
                continue
            used_ref.add(i)
            used_hyp.add(j)
            cor += got
            inc += points - got
        mis += points * (len(refs) - len(used_ref))
        spu += points * (len(hyps) - len(used_hyp))
    return cor, inc, mis, spu
