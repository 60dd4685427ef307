"""The projection's judge picks, per fill, what ranking every candidate would pick.

:meth:`hub4eval.scoring.projection._Projector.fill` ranks a fill's candidates
by their COR count alone, compares a candidate's content before its extent
and stops as soon as the candidate cannot beat the best so far
(:meth:`~hub4eval.scoring.projection.Judge.correct`). The oracle below is the
plain rule: every candidate counted in full (:meth:`Judge.fill`, the scorer's
own verdicts), ranked by most COR, fewest INC + MIS + SPU, fewest INC + SPU,
then the first. Random reference fills (runs of reference words, some with a
minimal string in brackets, some in optional slots, some with two
alternatives) over the recognizer output of the shipped examples, under the
comparison options that change a verdict, must project and score alike.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.model import Fill, TextFill
from hub4eval.scoring import projection
from hub4eval.scoring.verdicts import compare_text
from tests.support.reference_fills import TEXTS, references, with_ceiling

CONFIGS = {
    "default": ScoreConfig(),
    "clean": ScoreConfig(content="clean"),
    "content": ScoreConfig(compare="content"),
    "extent": ScoreConfig(compare="extent"),
}


class _OracleProjector(projection._Projector):
    """A fill's candidates each counted in full and ranked by :func:`projection._rank`."""

    batched = False  # every fill through fill()

    def fill(self, docid: str, fill: Fill, optional: bool = False) -> Fill | None:
        if type(fill) is not TextFill or fill.extent is None or self.alignment is None or self.judge is None:
            return super().fill(docid, fill, optional)
        candidates = self.candidates(docid, fill)
        first = next(candidates, None)
        if first is None:
            return None
        judge = self.judge
        best_rank, best = projection._rank(judge.fill(docid, fill, first, optional)), first
        for candidate in candidates:
            rank = projection._rank(judge.fill(docid, fill, candidate, optional))
            if rank < best_rank:
                best_rank, best = rank, candidate
        if projection._rank(judge.fill(docid, fill, None, optional)) < best_rank:
            return None
        return best


def _ceiling(name: str, ref_text: str, config: ScoreConfig):
    result = with_ceiling(name, ref_text, config)
    assert result.ceiling is not None
    return result.ceiling


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_the_judge_projects_as_ranking_every_candidate(name: str, config: str, data: st.DataObject) -> None:
    ref_text = data.draw(references(name))
    judged = _ceiling(name, ref_text, CONFIGS[config])
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection, "_Projector", _OracleProjector)
        ranked = _ceiling(name, ref_text, CONFIGS[config])
    assert judged.projection == ranked.projection
    assert judged.total == ranked.total


@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_correct_counts_the_cor_points_of_compare_text(config: str, data: st.DataObject) -> None:
    """Judge.correct with no bar (``above=-1``) gives the COR count of the scorer's verdicts,
    and None exactly when that count is not above the bar."""
    name = "asr_numbers"
    ref_text = data.draw(references(name))
    seen: list[tuple[projection.Judge, str, TextFill, TextFill]] = []

    class Recording(projection._Projector):
        batched = False  # every fill through fill()

        def fill(self, docid: str, fill: Fill, optional: bool = False) -> Fill | None:
            if type(fill) is TextFill and fill.extent is not None and self.judge is not None:
                seen.extend((self.judge, docid, fill, c) for c in self.candidates(docid, fill))
            return super().fill(docid, fill, optional)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection, "_Projector", Recording)
        _ceiling(name, ref_text, CONFIGS[config])
    assert seen
    for judge, docid, ref_fill, candidate in seen:
        mapper = judge.mapper
        verdicts = compare_text(
            mapper.ref_prep.prepare(ref_fill, docid), mapper.hyp_prep.prepare(candidate, docid), mapper.how
        )
        cor = sum(v.category == "COR" for v in verdicts)
        for above in range(-1, len(verdicts) + 1):
            assert judge.correct(docid, ref_fill, candidate, len(verdicts), above) == (cor if cor > above else None)
